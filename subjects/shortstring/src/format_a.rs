//! Format A: Neo4j 1.3 `ShortString`, one 64-bit payload.

use crate::error::DecodeError;
use crate::push::{push_ascii, push_latin1};
use crate::tables::{members, Alphabet, COUNT};
use crate::words::{compress, map_at, scan};

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

const fn min_len(a: Alphabet) -> usize {
    if matches!(a, Alphabet::AlphaNum) {
        10
    } else {
        8
    }
}

/// The top byte T for a table encoding of `len` characters.
const fn top_byte(a: Alphabet, len: usize) -> u64 {
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
        _ => panic!("not a format A alphabet"),
    }
}

/// Encodes `s` as Neo4j 1.3 would: `Some(payload)`, or `None` if it is not short.
///
/// Like the jar, a UTF8-form string with leading U+0000 loses them (the form
/// strips leading zero bytes); see [`encode_lossless`].
#[inline]
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
#[inline(always)]
pub fn encode_with(s: &str) -> Option<(u64, EncodingA)> {
    let b = s.as_bytes();
    let n = b.len();
    // ASCII (most OSM values) has one unit per byte and skips UTF-16: one pass
    // gathers the bytes and their alphabets, and finds any non-ASCII byte.
    if n <= 7 {
        let word = be_word(b);
        if word & 0x8080_8080_8080_8080 == 0 {
            return Some(match n {
                0 => (0, EncodingA::Empty),
                _ => (((0x78 | (n as u64 - 1)) << 56) | word, EncodingA::Latin1),
            });
        }
    } else if n <= 15 {
        let (mask, ascii) = scan(b);
        if ascii {
            return encode_ascii_table(b, mask);
        }
    } else if n > 45 || b[..16].is_ascii() {
        // A UTF-16 unit takes at most three UTF-8 bytes; or 16 ASCII units.
        return None;
    }
    let mut units = [0u16; 15];
    let mut len = 0;
    for u in s.encode_utf16() {
        if len == 15 {
            return None;
        }
        units[len] = u;
        len += 1;
    }
    encode_units(&units[..len], s)
}

#[inline]
fn encode_units<U: Copy + Into<u16>>(units: &[U], s: &str) -> Option<(u64, EncodingA)> {
    let len = units.len();
    if len > 15 {
        return None;
    }
    if len == 0 {
        return Some((0, EncodingA::Empty));
    }
    if len <= 7 && units.iter().all(|&u| u.into() <= 0xFF) {
        let data = units
            .iter()
            .fold(0u64, |d, &u| (d << 8) | u64::from(u.into()));
        return Some((((0x78 | (len as u64 - 1)) << 56) | data, EncodingA::Latin1));
    }
    if len >= 8 {
        let mask = units.iter().fold(u16::MAX, |m, &u| m & members(u.into()));
        return encode_table(units, mask);
    }
    if len <= 6 && s.len() <= 7 {
        let v = s.bytes().fold(0u64, |v, b| (v << 8) | b as u64);
        return Some((v, EncodingA::Utf8));
    }
    None
}

/// The big-endian value of up to 7 bytes, from two overlapping loads
/// instead of a loop (overlapping bytes land on the same bits).
#[inline]
fn be_word(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 4 {
        let head = u32::from_be_bytes(b[..4].try_into().expect("4 bytes"));
        let tail = u32::from_be_bytes(b[n - 4..].try_into().expect("4 bytes"));
        (u64::from(head) << (8 * (n - 4))) | u64::from(tail)
    } else if n > 0 {
        let (first, mid, last) = (u64::from(b[0]), u64::from(b[n / 2]), u64::from(b[n - 1]));
        (first << (8 * (n - 1))) | (mid << (8 * (n - 1 - n / 2))) | last
    } else {
        0
    }
}

/// 8 to 15 units whose alphabets are `mask`, in the first table form that fits.
#[inline]
fn encode_table<U: Copy + Into<u16>>(units: &[U], mask: u16) -> Option<(u64, EncodingA)> {
    let len = units.len();
    let a = choose(mask, len)?;
    // Membership implies a code, and that every unit is at most 0xFF.
    let row = a.encode_row();
    let code = |u: U| u64::from(row[usize::from(u.into() as u8)]);
    // A constant step per arm: constant shifts in the loop.
    let data = match a.step() {
        4 => units.iter().fold(0u64, |d, &u| (d << 4) | code(u)),
        5 => units.iter().fold(0u64, |d, &u| (d << 5) | code(u)),
        6 => units.iter().fold(0u64, |d, &u| (d << 6) | code(u)),
        _ => units.iter().fold(0u64, |d, &u| (d << 7) | code(u)),
    };
    Some(((top_byte(a, len) << 56) | data, EncodingA::Table(a)))
}

/// 8 to 15 ASCII bytes whose alphabets are `mask`, eight codes at a time:
/// each group's bytes big-endian, so that packing puts its first code on top.
#[inline]
fn encode_ascii_table(b: &[u8], mask: u16) -> Option<(u64, EncodingA)> {
    let n = b.len();
    let a = choose(mask, n)?;
    let (step, row, rest) = (a.step(), a.encode_row(), n - 8);
    let first = compress(map_at(b, 0, row).swap_bytes(), step);
    // The word ending the string, without the bytes already packed.
    let last = map_at(b, n - 8, row).swap_bytes() & ((1 << (8 * rest)) - 1);
    let data = first << (rest as u32 * step) | compress(last, step);
    Some((TOP_BYTES[a.index()][n] << 56 | data, EncodingA::Table(a)))
}

/// `top_byte` by alphabet index and length (0 where there is none).
static TOP_BYTES: [[u64; 16]; COUNT] = {
    let mut t = [[0; 16]; COUNT];
    let mut i = 0;
    while i < ORDER.len() {
        let (a, max) = ORDER[i];
        let mut len = min_len(a);
        while len <= max {
            t[a.index()][len] = top_byte(a, len);
            len += 1;
        }
        i += 1;
    }
    t
};

/// The table form the encoder picks for `len` characters whose alphabets are `mask`.
#[inline]
fn choose(mask: u16, len: usize) -> Option<Alphabet> {
    let mask = mask & LEN_OK.get(len).copied().unwrap_or(0);
    (mask != 0).then(|| Alphabet::first_of(mask))
}

/// By length: the table forms that hold strings that long.
const LEN_OK: [u16; 16] = {
    let mut t = [0; 16];
    let mut i = 0;
    while i < ORDER.len() {
        let (a, max) = ORDER[i];
        let mut len = min_len(a);
        while len <= max {
            t[len] |= 1 << a.index();
            len += 1;
        }
        i += 1;
    }
    t
};

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
    let mut s = String::with_capacity(16);
    decode_into(v, &mut s)?;
    Ok(s)
}

/// Like [`decode`], into `out` (cleared first), so that a loop can reuse one buffer.
///
/// Strictness costs no re-encoding: the header, the length, the unused bits
/// and the encoder's choice of form are checked directly.
#[inline]
pub fn decode_into(v: u64, out: &mut String) -> Result<(), DecodeError> {
    out.clear();
    let len = ((v >> 56) & 7) as u32 + 1;
    // The common case inline: LATIN1, all ASCII, no stray bits.
    if v >> 59 == 0x78 >> 3
        && len <= 7
        && v & 0x0080_8080_8080_8080 == 0
        && (v & LOW_56) >> (8 * len) == 0
    {
        push_ascii(out, v << (64 - 8 * len), len as usize);
        return Ok(());
    }
    decode_other(v, out)
}

#[inline(never)]
fn decode_other(v: u64, out: &mut String) -> Result<(), DecodeError> {
    if v == 0 {
        return Ok(());
    }
    let t = (v >> 56) as u32;
    // Full-length forms have a header nibble (a bit for EUROPEAN) and fill all 64 bits.
    let (a, len, full) = match t >> 4 {
        0 if t & 0xF == 0 => return decode_utf8(v, out),
        0 => (Alphabet::Numerical, t & 0xF, false),
        1 => (Alphabet::Numerical, 15, true),
        2 => (Alphabet::Upper, t & 0xF, false),
        3 => (Alphabet::Upper, 12, true),
        4 => (Alphabet::Lower, t & 0xF, false),
        5 => (Alphabet::Lower, 12, true),
        6 => (Alphabet::AlphaNum, 10, true),
        7 if t & 8 != 0 => return decode_latin1(v, (t & 7) + 1, out),
        7 => (Alphabet::European, (t & 7) + 1, false),
        _ => (Alphabet::European, 9, true),
    };
    let n = len as usize;
    let step = a.step();
    let fits = n >= min_len(a) && n <= max_len(a) && (full || len * step <= 56);
    if !fits {
        return Err(DecodeError::BadLength {
            encoding: a.name(),
            len,
        });
    }
    if !full && (v & LOW_56) >> (len * step) != 0 {
        return Err(stray_bits());
    }
    decode_table(v, a, len, out)
}

/// The `len` characters of a table form whose header and unused bits are right.
#[inline(always)]
fn decode_table(v: u64, a: Alphabet, len: u32, out: &mut String) -> Result<(), DecodeError> {
    let (n, step) = (len as usize, a.step());
    let entries = a.decode_entries();
    // The codes from the top down, with a constant step per arm.
    let codes = v << (64 - len * step);
    let (chars, mask) = match step {
        4 => gather::<4>(codes, entries, n),
        5 => gather::<5>(codes, entries, n),
        6 => gather::<6>(codes, entries, n),
        _ => gather::<7>(codes, entries, n),
    };
    let chars = chars << (128 - 8 * len);
    // An unused code has no alphabets, so fails this too.
    if choose(mask, n) != Some(a) {
        return Err(not_chosen(a, v, len, chars));
    }
    if chars & 0x8080_8080_8080_8080_8080_8080_8080_8080 == 0 {
        push_ascii(out, (chars >> 64) as u64, n.min(8));
        push_ascii(out, chars as u64, n.saturating_sub(8));
    } else {
        push_latin1(out, &chars.to_be_bytes()[..n]);
    }
    Ok(())
}

/// Why the characters decoded in `a` are not what the encoder writes: an
/// unused code (the first one), or another form being chosen.
#[cold]
fn not_chosen(a: Alphabet, v: u64, len: u32, chars: u128) -> DecodeError {
    let step = a.step();
    let unused = (0..len)
        .rev()
        .map(|i| ((v >> (i * step)) & ((1 << step) - 1)) as u32)
        .find(|&c| a.decode_char(c).is_none());
    match unused {
        Some(code) => DecodeError::BadCode {
            encoding: a.name(),
            code,
        },
        None => {
            let mut s = String::new();
            push_latin1(&mut s, &chars.to_be_bytes()[..len as usize]);
            DecodeError::NonCanonical(s)
        }
    }
}

const LOW_56: u64 = (1 << 56) - 1;

/// The characters of `n` codes of `STEP` bits at the top of `codes`, one byte
/// each, big-endian in a register (byte stores then a word load would stall),
/// and the alphabets that hold them all (none if a code was unused).
#[inline(always)]
fn gather<const STEP: u32>(mut codes: u64, entries: &[u32; 256], n: usize) -> (u128, u16) {
    let (mut chars, mut mask) = (0u128, u32::MAX);
    for _ in 0..n {
        let e = entries[(codes >> (64 - STEP)) as usize & 0xFF];
        codes <<= STEP;
        mask &= e;
        chars = chars << 8 | u128::from(e & 0xFF);
    }
    (chars, (mask >> 8) as u16)
}

const fn max_len(a: Alphabet) -> usize {
    let mut i = 0;
    while i < ORDER.len() {
        if ORDER[i].0 as usize == a as usize {
            return ORDER[i].1;
        }
        i += 1;
    }
    0
}

fn stray_bits() -> DecodeError {
    DecodeError::BadHeader("bits set beyond the string's length".into())
}

fn decode_latin1(v: u64, len: u32, out: &mut String) -> Result<(), DecodeError> {
    // Eight characters would need the header byte: the encoder stops at seven.
    if len > 7 {
        return Err(DecodeError::BadLength {
            encoding: "LATIN1",
            len,
        });
    }
    if (v & LOW_56) >> (8 * len) != 0 {
        return Err(stray_bits());
    }
    let bytes = v.to_be_bytes();
    let bytes = &bytes[8 - len as usize..];
    push_latin1(out, bytes);
    Ok(())
}

fn decode_utf8(v: u64, out: &mut String) -> Result<(), DecodeError> {
    let bytes = v.to_be_bytes();
    let start = bytes.iter().position(|&b| b != 0).unwrap_or(8);
    let s = std::str::from_utf8(&bytes[start..]).map_err(|_| DecodeError::BadUtf8)?;
    // LATIN1 takes any string of at most seven characters up to U+00FF.
    if s.chars().all(|c| c <= '\u{FF}') || s.encode_utf16().count() > 6 {
        return Err(DecodeError::NonCanonical(s.to_owned()));
    }
    out.push_str(s);
    Ok(())
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
    fn be_word_is_the_bytes_big_endian() {
        let bytes = b"abcdefg";
        for n in 0..=7 {
            let want = bytes[..n]
                .iter()
                .fold(0u64, |d, &c| (d << 8) | u64::from(c));
            assert_eq!(be_word(&bytes[..n]), want, "{n}");
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

    /// A payload in a form the encoder would not choose for its string.
    fn in_form(a: Alphabet, top: u64, s: &str) -> u64 {
        let body = s.bytes().fold(0u64, |d, b| {
            (d << a.step()) | u64::from(a.encode_char(b.into()).unwrap())
        });
        top << 56 | body
    }

    #[test]
    fn rejects_strings_in_a_form_the_encoder_skips() {
        // Nine lower-case letters are LOWER, not EUROPEAN; ten digits NUMERICAL, not ALPHANUM.
        for v in [
            in_form(Alphabet::European, 0x80, "abcdefghi"),
            in_form(Alphabet::AlphaNum, 0x60, "0123456789"),
        ] {
            assert!(
                matches!(decode(v), Err(DecodeError::NonCanonical(_))),
                "{v:#018X}"
            );
        }
        assert_eq!(
            decode(in_form(Alphabet::Lower, 0x49, "abcdefghi")).as_deref(),
            Ok("abcdefghi")
        );
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
