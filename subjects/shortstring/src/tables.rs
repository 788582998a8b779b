//! Character tables shared by both formats (see the spec's code tables).

/// The table encodings. Format A uses the first five, format B all of them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
///
/// Declared in the order format B's encoder tries them, which also keeps format
/// A's five in its order: the first form that fits is the lowest bit of a mask.
pub enum Alphabet {
    Numerical,
    Date,
    Upper,
    Lower,
    Email,
    Uri,
    AlphaNum,
    AlphaSym,
    European,
    LowerHex,
    UpperHex,
}

pub const COUNT: usize = 11;
/// By index.
pub const ALL: [Alphabet; COUNT] = [
    Alphabet::Numerical,
    Alphabet::Date,
    Alphabet::Upper,
    Alphabet::Lower,
    Alphabet::Email,
    Alphabet::Uri,
    Alphabet::AlphaNum,
    Alphabet::AlphaSym,
    Alphabet::European,
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

    /// The first alphabet (in encoder order) of a non-empty mask.
    #[inline]
    pub fn first_of(mask: u16) -> Alphabet {
        ALL[(mask.trailing_zeros() as usize).min(COUNT - 1)]
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

    /// By code: the character (bits 0–7) and the alphabets that hold it
    /// (bits 8–23); 0, so no alphabets, for codes no character has. One load
    /// per code.
    #[inline]
    pub fn decode_entries(self) -> &'static [u32; 256] {
        &ENTRIES[self.index()]
    }

    /// Decode entries for two codes at a time, for alphabets of 4 to 6 bits
    /// (empty for EUROPEAN): by `c0 | c1 << step`, the characters of c0 (bits
    /// 0–7) and c1 (bits 8–15) and the alphabets that hold both (bits 16–26);
    /// 0 if either code is unused. Half the lookups of [`Self::decode_entries`].
    #[inline]
    pub fn decode_pairs(self) -> &'static [u32] {
        PAIRS[self.index()]
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
pub(crate) static ENCODE: [[u8; 256]; COUNT] = build_encode();
pub static MEMBERS: [u16; 256] = build_members();

/// A decode entry for the character `c`.
const fn entry(c: u16) -> u32 {
    if c == NONE {
        0
    } else {
        c as u32 | (MEMBERS[c as usize] as u32) << 8
    }
}

const fn build_entries() -> [[u32; 256]; COUNT] {
    let mut t = [[0; 256]; COUNT];
    let mut a = 0;
    while a < COUNT {
        let mut c = 0;
        while c < 256 {
            t[a][c] = entry(DECODE[a][c]);
            c += 1;
        }
        a += 1;
    }
    t
}

pub(crate) static ENTRIES: [[u32; 256]; COUNT] = build_entries();

/// Decode entries for LATIN1: each code is its own character.
pub static LATIN1_ENTRIES: [u32; 256] = {
    let mut t = [0; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = entry(c as u16);
        c += 1;
    }
    t
};

const fn pair_entry(a: usize, step: u32, p: usize) -> u32 {
    let (d0, d1) = (DECODE[a][p & ((1 << step) - 1)], DECODE[a][p >> step]);
    if d0 == NONE || d1 == NONE {
        0
    } else {
        d0 as u32 | (d1 as u32) << 8 | ((MEMBERS[d0 as usize] & MEMBERS[d1 as usize]) as u32) << 16
    }
}

/// The pair tables of the alphabets of one step, in `ALL` order.
const fn build_pairs<const N: usize, const K: usize>(step: u32) -> [[u32; N]; K] {
    let mut t = [[0; N]; K];
    let (mut a, mut k) = (0, 0);
    while a < COUNT {
        if ALL[a].step() == step {
            let mut p = 0;
            while p < N {
                t[k][p] = pair_entry(a, step, p);
                p += 1;
            }
            k += 1;
        }
        a += 1;
    }
    t
}

static PAIRS4: [[u32; 1 << 8]; 4] = build_pairs(4);
static PAIRS5: [[u32; 1 << 10]; 3] = build_pairs(5);
static PAIRS6: [[u32; 1 << 12]; 3] = build_pairs(6);
pub(crate) const PAIRS: [&[u32]; COUNT] = {
    let mut t: [&[u32]; COUNT] = [&[]; COUNT];
    let (mut a, mut k4, mut k5, mut k6) = (0, 0, 0, 0);
    while a < COUNT {
        match ALL[a].step() {
            4 => {
                t[a] = &PAIRS4[k4];
                k4 += 1;
            }
            5 => {
                t[a] = &PAIRS5[k5];
                k5 += 1;
            }
            6 => {
                t[a] = &PAIRS6[k6];
                k6 += 1;
            }
            _ => {}
        }
        a += 1;
    }
    t
};

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
