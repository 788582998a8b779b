//! Format A: Neo4j 1.3 `ShortString`, one 64-bit payload.

use crate::error::DecodeError;
use crate::tables::{members, Alphabet};

/// Which form format A chose for a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodingA {
    Empty,
    Latin1,
    Utf8,
    Table(Alphabet),
}

impl EncodingA {
    pub fn name(self) -> &'static str {
        match self {
            EncodingA::Empty => "EMPTY",
            EncodingA::Latin1 => "LATIN1",
            EncodingA::Utf8 => "UTF8",
            EncodingA::Table(a) => a.name(),
        }
    }
}

/// Table encodings in the order the encoder tries them, with max length.
const ORDER: [(Alphabet, usize); 5] = [
    (Alphabet::Numerical, 15),
    (Alphabet::Upper, 12),
    (Alphabet::Lower, 12),
    (Alphabet::AlphaNum, 10),
    (Alphabet::European, 9),
];

fn min_len(a: Alphabet) -> usize {
    if a == Alphabet::AlphaNum {
        10
    } else {
        8
    }
}

/// The top byte T for a table encoding of `len` characters.
fn top_byte(a: Alphabet, len: usize) -> u64 {
    let n = len as u64;
    match (a, len) {
        (Alphabet::Numerical, 15) => 0x10,
        (Alphabet::Numerical, _) => n,
        (Alphabet::Upper, 12) => 0x30,
        (Alphabet::Upper, _) => 0x20 | n,
        (Alphabet::Lower, 12) => 0x50,
        (Alphabet::Lower, _) => 0x40 | n,
        (Alphabet::AlphaNum, _) => 0x60,
        (Alphabet::European, 9) => 0x80,
        (Alphabet::European, _) => 0x70 | (n - 1),
        _ => unreachable!("not a format A alphabet"),
    }
}

/// Encodes `s` as Neo4j 1.3 would: `Some(payload)`, or `None` if it is not short.
///
/// Like the jar, a UTF8-form string with leading U+0000 loses them (the form
/// strips leading zero bytes); see [`encode_lossless`].
pub fn encode(s: &str) -> Option<u64> {
    encode_with(s).map(|(v, _)| v)
}

/// Like [`encode`], but `None` when decoding would not give `s` back.
pub fn encode_lossless(s: &str) -> Option<u64> {
    encode_with(s)
        .filter(|(_, e)| *e != EncodingA::Utf8 || !s.starts_with('\0'))
        .map(|(v, _)| v)
}

/// The payload and the form chosen.
pub fn encode_with(s: &str) -> Option<(u64, EncodingA)> {
    let mut units = [0u16; 15];
    let mut len = 0;
    for u in s.encode_utf16() {
        if len == 15 {
            return None;
        }
        units[len] = u;
        len += 1;
    }
    let units = &units[..len];
    if len == 0 {
        return Some((0, EncodingA::Empty));
    }
    if len <= 7 && units.iter().all(|&u| u <= 0xFF) {
        let data = units.iter().fold(0u64, |d, &u| (d << 8) | u as u64);
        return Some((((0x78 | (len as u64 - 1)) << 56) | data, EncodingA::Latin1));
    }
    if len >= 8 {
        let mut mask = u16::MAX;
        for &u in units {
            mask &= members(u);
        }
        for (a, max) in ORDER {
            if mask & (1 << a.index()) != 0 && len <= max && len >= min_len(a) {
                let step = a.step();
                let mut data = 0u64;
                for &u in units {
                    let code = a.encode_char(u).expect("membership implies a code");
                    data = (data << step) | code as u64;
                }
                return Some(((top_byte(a, len) << 56) | data, EncodingA::Table(a)));
            }
        }
        return None;
    }
    if len <= 6 && s.len() <= 7 {
        let v = s.bytes().fold(0u64, |v, b| (v << 8) | b as u64);
        return Some((v, EncodingA::Utf8));
    }
    None
}

/// Every form that could hold `s` on its own (alphabet and length), whether
/// or not the encoder would choose it.
pub fn fitting(s: &str) -> Vec<EncodingA> {
    let units: Vec<u16> = s.encode_utf16().collect();
    let len = units.len();
    if len == 0 {
        return vec![EncodingA::Empty];
    }
    let mut out = Vec::new();
    if len <= 7 && units.iter().all(|&u| u <= 0xFF) {
        out.push(EncodingA::Latin1);
    }
    if len <= 6 && s.len() <= 7 {
        out.push(EncodingA::Utf8);
    }
    let mask = units.iter().fold(u16::MAX, |m, &u| m & members(u));
    for (a, max) in ORDER {
        if mask & (1 << a.index()) != 0 && len <= max && len >= min_len(a) {
            out.push(EncodingA::Table(a));
        }
    }
    out
}

/// Decodes a payload. Errors for any payload that [`encode`] never writes.
pub fn decode(v: u64) -> Result<String, DecodeError> {
    let s = decode_raw(v)?;
    if encode(&s) == Some(v) {
        Ok(s)
    } else {
        Err(DecodeError::NonCanonical(s))
    }
}

/// Reads the payload as the jar's decoder does, without the canonical check.
fn decode_raw(v: u64) -> Result<String, DecodeError> {
    if v == 0 {
        return Ok(String::new());
    }
    let t = (v >> 56) as u32;
    let (a, len) = match t >> 4 {
        0 if t & 0xF == 0 => return decode_utf8(v),
        0 => (Alphabet::Numerical, t & 0xF),
        1 => (Alphabet::Numerical, 15),
        2 => (Alphabet::Upper, t & 0xF),
        3 => (Alphabet::Upper, 12),
        4 => (Alphabet::Lower, t & 0xF),
        5 => (Alphabet::Lower, 12),
        6 => (Alphabet::AlphaNum, 10),
        7 if t & 8 != 0 => return Ok(decode_latin1(v, (t & 7) + 1)),
        7 => (Alphabet::European, (t & 7) + 1),
        _ => (Alphabet::European, 9),
    };
    let step = a.step();
    // Only the full-length forms may reach past bit 55.
    let full = matches!(
        (a, len),
        (Alphabet::Numerical, 15)
            | (Alphabet::Upper, 12)
            | (Alphabet::Lower, 12)
            | (Alphabet::AlphaNum, 10)
            | (Alphabet::European, 9)
    );
    if len == 0 || (!full && len * step > 56) {
        return Err(DecodeError::BadLength {
            encoding: a.name(),
            len,
        });
    }
    let mask = (1u64 << step) - 1;
    let mut units = Vec::with_capacity(len as usize);
    for i in (0..len).rev() {
        let code = ((v >> (i * step)) & mask) as u32;
        let c = a.decode_char(code).ok_or(DecodeError::BadCode {
            encoding: a.name(),
            code,
        })?;
        units.push(c);
    }
    Ok(String::from_utf16(&units).expect("tables hold only BMP non-surrogates"))
}

fn decode_latin1(v: u64, len: u32) -> String {
    (0..len)
        .rev()
        .map(|i| ((v >> (8 * i)) & 0xFF) as u8 as char)
        .collect()
}

fn decode_utf8(v: u64) -> Result<String, DecodeError> {
    let bytes = v.to_be_bytes();
    let start = bytes.iter().position(|&b| b != 0).unwrap_or(8);
    std::str::from_utf8(&bytes[start..])
        .map(str::to_owned)
        .map_err(|_| DecodeError::BadUtf8)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VECTORS: [(&str, u64); 8] = [
        ("", 0x0000000000000000),
        ("value", 0x7C000076616C7565),
        ("中文", 0x0000E4B8ADE69687),
        ("12345678", 0x0800000012345678),
        ("0123456789+,'.-", 0x10123456789DEFBC),
        ("HELLO WORLD", 0x2B20AC63C177C984),
        ("HelloWor1d", 0x6225B2CBD7BF2724),
        ("påfågelön", 0xF04B992E7CBB1B6E),
    ];

    #[test]
    fn jar_vectors_encode() {
        for (s, v) in VECTORS {
            assert_eq!(encode(s), Some(v), "{s:?}");
        }
    }

    #[test]
    fn jar_vectors_decode() {
        for (s, v) in VECTORS {
            assert_eq!(decode(v).as_deref(), Ok(s), "{v:#018X}");
        }
    }

    #[test]
    fn not_short() {
        for s in [
            "1234567890123456",
            "hello_world!",
            "abcdefghijklm",
            "#$#$#$#$",
        ] {
            assert_eq!(encode(s), None, "{s:?}");
        }
    }

    #[test]
    fn forms() {
        let form = |s: &str| encode_with(s).map(|(_, e)| e);
        assert_eq!(form("abcdefgh"), Some(EncodingA::Table(Alphabet::Lower)));
        assert_eq!(form("abc"), Some(EncodingA::Latin1));
        assert_eq!(form("ÀÀÀÀÀÀÀÀ"), Some(EncodingA::Table(Alphabet::European)));
        assert_eq!(form("a\u{D7}bcdefgh"), None);
        assert_eq!(form("😀"), Some(EncodingA::Utf8));
    }

    #[test]
    fn leading_nul_is_lost_like_the_jar() {
        assert_eq!(encode("\0中"), encode("中"));
        assert_eq!(encode_lossless("\0中"), None);
        assert_eq!(encode_lossless("中"), encode("中"));
    }

    #[test]
    fn rejects_payloads_no_encoder_writes() {
        for v in [
            0x0000000000000041u64,
            0x7800FF0000000041,
            0x2F00000000000000,
            0x0F00000000000000,
            0xFFFFFFFFFFFFFFFF,
            0x00000000000000FF,
        ] {
            assert!(decode(v).is_err(), "{v:#018X}");
        }
    }
}
