//! Character tables shared by both formats (see the spec's code tables).

/// The table encodings. Format A uses the first five, format B all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Alphabet {
    Numerical,
    Upper,
    Lower,
    AlphaNum,
    European,
    Date,
    Email,
    Uri,
    AlphaSym,
    LowerHex,
    UpperHex,
}

pub const COUNT: usize = 11;
pub const ALL: [Alphabet; COUNT] = [
    Alphabet::Numerical,
    Alphabet::Upper,
    Alphabet::Lower,
    Alphabet::AlphaNum,
    Alphabet::European,
    Alphabet::Date,
    Alphabet::Email,
    Alphabet::Uri,
    Alphabet::AlphaSym,
    Alphabet::LowerHex,
    Alphabet::UpperHex,
];

/// A code no character has.
pub const NONE: u16 = 0xFFFF;
const URI_PUNCT: &[u8; 22] = b"_.-:/+,'@|;*?&%#()$<>=";

impl Alphabet {
    pub const fn index(self) -> usize {
        self as usize
    }

    /// Bits per character.
    pub const fn step(self) -> u32 {
        match self {
            Alphabet::Numerical | Alphabet::Date | Alphabet::LowerHex | Alphabet::UpperHex => 4,
            Alphabet::Upper | Alphabet::Lower | Alphabet::Email => 5,
            Alphabet::AlphaNum | Alphabet::Uri | Alphabet::AlphaSym => 6,
            Alphabet::European => 7,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Alphabet::Numerical => "NUMERICAL",
            Alphabet::Upper => "UPPER",
            Alphabet::Lower => "LOWER",
            Alphabet::AlphaNum => "ALPHANUM",
            Alphabet::European => "EUROPEAN",
            Alphabet::Date => "DATE",
            Alphabet::Email => "EMAIL",
            Alphabet::Uri => "URI",
            Alphabet::AlphaSym => "ALPHASYM",
            Alphabet::LowerHex => "LOWERHEX",
            Alphabet::UpperHex => "UPPERHEX",
        }
    }

    /// The character for `code`, or None for an unused code.
    #[inline]
    pub fn decode_char(self, code: u32) -> Option<u16> {
        let c = DECODE[self.index()][(code & 0xFF) as usize];
        (code < (1 << self.step()) && c != NONE).then_some(c)
    }

    /// Characters by code; `NONE` for unused codes (and all codes ≥ 2^step).
    #[inline]
    pub fn decode_row(self) -> &'static [u16; 256] {
        &DECODE[self.index()]
    }

    /// Codes by character (U+0000..=U+00FF); 0xFF where the alphabet has none.
    #[inline]
    pub fn encode_row(self) -> &'static [u8; 256] {
        &ENCODE[self.index()]
    }

    /// The code for a UTF-16 unit, or None if this alphabet cannot hold it.
    #[inline]
    pub fn encode_char(self, unit: u16) -> Option<u32> {
        if unit > 0xFF {
            return None;
        }
        let c = ENCODE[self.index()][unit as usize];
        (c != 0xFF).then_some(c as u32)
    }
}

const fn d(x: u8) -> u16 {
    x as u16
}

const fn alnum(c: u8) -> u16 {
    (match c {
        0 => b' ',
        1..=26 => b'A' + c - 1,
        0x1B..=0x1F => b'0' + c - 0x1B,
        0x20 => b'_',
        0x21..=0x3A => b'a' + c - 0x21,
        _ => b'5' + c - 0x3B,
    }) as u16
}

const fn upper_like(c: u8, first: u8) -> u16 {
    (match c {
        0 => b' ',
        1..=26 => first + c - 1,
        0x1B => b'_',
        0x1C => b'.',
        0x1D => b'-',
        0x1E => b':',
        _ => b'/',
    }) as u16
}

const fn dec(a: Alphabet, c: u8) -> u16 {
    if c as u32 >= (1u32 << a.step()) {
        return NONE;
    }
    match a {
        Alphabet::Numerical => match c {
            0..=9 => d(b'0' + c),
            0xA => d(b' '),
            0xB => d(b'.'),
            0xC => d(b'-'),
            0xD => d(b'+'),
            0xE => d(b','),
            _ => d(b'\''),
        },
        Alphabet::Date => match c {
            0..=9 => d(b'0' + c),
            0xA => d(b' '),
            0xB => d(b'-'),
            0xC => d(b':'),
            0xD => d(b'/'),
            0xE => d(b'+'),
            _ => d(b','),
        },
        Alphabet::Upper => upper_like(c, b'A'),
        Alphabet::Lower => upper_like(c, b'a'),
        Alphabet::Email => match c {
            0 => d(b','),
            1..=26 => d(b'a' + c - 1),
            0x1B => d(b'_'),
            0x1C => d(b'.'),
            0x1D => d(b'-'),
            0x1E => d(b'+'),
            _ => d(b'@'),
        },
        Alphabet::Uri => match c {
            0 => d(b' '),
            1..=26 => d(b'a' + c - 1),
            0x1B..=0x1F => NONE,
            0x20..=0x29 => d(b'0' + c - 0x20),
            _ => d(URI_PUNCT[(c - 0x2A) as usize]),
        },
        Alphabet::AlphaNum => alnum(c),
        Alphabet::AlphaSym => match c {
            0..=0x1F => upper_like(c, b'A'),
            0x20 => d(b';'),
            0x21..=0x3A => d(b'a' + c - 0x21),
            0x3B => d(b'+'),
            0x3C => d(b','),
            0x3D => d(b'\''),
            0x3E => d(b'@'),
            _ => d(b'|'),
        },
        Alphabet::European => match c {
            0x17 => d(b'.'),
            0x37 => d(b'-'),
            0..=0x3F => 0xC0 + c as u16,
            _ => alnum(c - 0x40),
        },
        Alphabet::LowerHex => match c {
            0..=9 => d(b'0' + c),
            _ => d(b'a' + c - 10),
        },
        Alphabet::UpperHex => match c {
            0..=9 => d(b'0' + c),
            _ => d(b'A' + c - 10),
        },
    }
}

const fn build_decode() -> [[u16; 256]; COUNT] {
    let mut t = [[NONE; 256]; COUNT];
    let mut a = 0;
    while a < COUNT {
        let mut c = 0;
        while c < 128 {
            t[a][c] = dec(ALL[a], c as u8);
            c += 1;
        }
        a += 1;
    }
    t
}

const fn build_encode() -> [[u8; 256]; COUNT] {
    let mut t = [[0xFF; 256]; COUNT];
    let mut a = 0;
    while a < COUNT {
        let mut c = 0;
        while c < 128 {
            let ch = DECODE[a][c];
            if ch != NONE {
                t[a][ch as usize] = c as u8;
            }
            c += 1;
        }
        a += 1;
    }
    t
}

/// Bit i set when alphabet i may be chosen for the unit; 0 for units no
/// alphabet holds. The jars' choosing tables leave out two characters their
/// code tables have: `|` for URI and `;` for ALPHASYM.
const fn build_members() -> [u16; 256] {
    let mut m = [0u16; 256];
    let mut a = 0;
    while a < COUNT {
        let mut u = 0;
        while u < 256 {
            if ENCODE[a][u] != 0xFF {
                m[u] |= 1 << a;
            }
            u += 1;
        }
        a += 1;
    }
    m[b'|' as usize] &= !(1 << Alphabet::Uri.index());
    m[b';' as usize] &= !(1 << Alphabet::AlphaSym.index());
    m
}

static DECODE: [[u16; 256]; COUNT] = build_decode();
static ENCODE: [[u8; 256]; COUNT] = build_encode();
pub static MEMBERS: [u16; 256] = build_members();

/// Bitmask of the alphabets that hold a UTF-16 unit.
#[inline]
pub fn members(unit: u16) -> u16 {
    if unit > 0xFF {
        0
    } else {
        MEMBERS[unit as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_bijective() {
        for a in ALL {
            for code in 0..(1u32 << a.step()) {
                if let Some(ch) = a.decode_char(code) {
                    assert_eq!(a.encode_char(ch), Some(code), "{a:?} {code:#x}");
                }
            }
        }
    }

    #[test]
    fn membership_matches_spec_examples() {
        let has = |c: char, a: Alphabet| members(c as u16) & (1 << a.index()) != 0;
        assert!(has(' ', Alphabet::Date) && !has(' ', Alphabet::Email));
        assert!(has('\'', Alphabet::Uri) && !has('\'', Alphabet::Upper));
        assert!(has('|', Alphabet::AlphaSym) && !has('|', Alphabet::Uri));
        assert!(has('ö', Alphabet::European));
        assert!(!has('\u{D7}', Alphabet::European) && !has('\u{F7}', Alphabet::European));
        assert!(!has(';', Alphabet::AlphaSym) && has(';', Alphabet::Uri));
        assert_eq!(members('!' as u16), 0);
        assert_eq!(members(0x100), 0);
    }
}
