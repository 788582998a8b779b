//! Format B: Neo4j 1.9 `LongerShortString`, one to four 64-bit blocks.

use crate::error::DecodeError;
use crate::push::{push_ascii_padded, push_latin1};
use crate::tables::{members, Alphabet, MEMBERS, NONE};

/// Property type of a short string in long 0.
const TYPE_SHORT_STRING: u64 = 11;
const HEADER_BITS: u32 = 39;
/// Payload size in bits (four blocks).
const PAYLOAD_BITS: u32 = 256;
pub const MAX_BLOCKS: usize = 4;

/// Which form format B chose for a string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EncodingB {
    Utf8,
    Latin1,
    Table(Alphabet),
}

impl EncodingB {
    /// The encoding id stored in bits 28–32.
    pub fn id(self) -> u64 {
        match self {
            EncodingB::Utf8 => 0,
            EncodingB::Latin1 => 10,
            EncodingB::Table(a) => match a {
                Alphabet::Numerical => 1,
                Alphabet::Date => 2,
                Alphabet::Upper => 3,
                Alphabet::Lower => 4,
                Alphabet::Email => 5,
                Alphabet::Uri => 6,
                Alphabet::AlphaNum => 7,
                Alphabet::AlphaSym => 8,
                Alphabet::European => 9,
                Alphabet::LowerHex => 11,
                Alphabet::UpperHex => 12,
            },
        }
    }

    fn from_id(id: u64) -> Option<EncodingB> {
        Some(match id {
            0 => EncodingB::Utf8,
            10 => EncodingB::Latin1,
            _ => EncodingB::Table(*BY_ID.get(id as usize)?.as_ref()?),
        })
    }

    pub fn step(self) -> u32 {
        match self {
            EncodingB::Utf8 | EncodingB::Latin1 => 8,
            EncodingB::Table(a) => a.step(),
        }
    }

    /// Most characters (bytes for UTF8) that fit in four blocks.
    pub fn max_len(self) -> usize {
        max_len(self.step())
    }

    pub fn name(self) -> &'static str {
        match self {
            EncodingB::Utf8 => "UTF8",
            EncodingB::Latin1 => "LATIN1",
            EncodingB::Table(a) => a.name(),
        }
    }
}

/// The table encodings by id (0 and 10 are UTF8 and LATIN1).
const BY_ID: [Option<Alphabet>; 13] = [
    None,
    Some(Alphabet::Numerical),
    Some(Alphabet::Date),
    Some(Alphabet::Upper),
    Some(Alphabet::Lower),
    Some(Alphabet::Email),
    Some(Alphabet::Uri),
    Some(Alphabet::AlphaNum),
    Some(Alphabet::AlphaSym),
    Some(Alphabet::European),
    None,
    Some(Alphabet::LowerHex),
    Some(Alphabet::UpperHex),
];

/// Table encodings in the order the encoder tries them.
const ORDER: [Alphabet; 11] = [
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

/// The forms the encoder skips for strings longer than 36 characters.
const LARGE: u16 = 1 << Alphabet::Uri.index()
    | 1 << Alphabet::AlphaNum.index()
    | 1 << Alphabet::AlphaSym.index()
    | 1 << Alphabet::European.index();

/// An encoded value: `len` blocks of `blocks` are used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Blocks {
    blocks: [u64; MAX_BLOCKS],
    len: usize,
}

impl Blocks {
    pub fn as_slice(&self) -> &[u64] {
        &self.blocks[..self.len]
    }
}

/// Writes a little-endian bit string, one block at a time from a register:
/// OR-ing into an array instead chained every character through memory.
struct BitWriter {
    blocks: [u64; MAX_BLOCKS],
    acc: u64,
    used: u32,
    next: usize,
}

impl BitWriter {
    fn new(header: u64) -> BitWriter {
        BitWriter {
            blocks: [0; MAX_BLOCKS],
            acc: header,
            used: HEADER_BITS,
            next: 0,
        }
    }

    /// Appends `value` (< 2^step, step ≤ 8).
    #[inline]
    fn put(&mut self, value: u64, step: u32) {
        self.acc |= value << self.used;
        self.used += step;
        if self.used >= 64 {
            self.used -= 64;
            self.blocks[self.next & 3] = self.acc;
            self.next += 1;
            // The bits that did not fit (none when `used` is now 0).
            self.acc = (value >> 1) >> (step - 1 - self.used);
        }
    }

    fn finish(mut self) -> [u64; MAX_BLOCKS] {
        if self.used > 0 {
            self.blocks[self.next & 3] = self.acc;
        }
        self.blocks
    }
}

/// Reads what [`BitWriter`] wrote.
struct BitReader<'a> {
    blocks: &'a [u64],
    acc: u64,
    avail: u32,
    next: usize,
}

impl<'a> BitReader<'a> {
    fn new(blocks: &'a [u64]) -> BitReader<'a> {
        BitReader {
            blocks,
            acc: blocks[0] >> HEADER_BITS,
            avail: 64 - HEADER_BITS,
            next: 1,
        }
    }

    /// The next `step` (≤ 8) bits; zeros past the last block.
    #[inline]
    fn take(&mut self, step: u32) -> u64 {
        let mask = (1 << step) - 1;
        if self.avail >= step {
            let v = self.acc & mask;
            self.acc >>= step;
            self.avail -= step;
            return v;
        }
        let next = self.blocks.get(self.next).copied().unwrap_or(0);
        self.next += 1;
        let v = (self.acc | next << self.avail) & mask;
        self.acc = next >> (step - self.avail);
        self.avail += 64 - step;
        v
    }
}

/// Encodes with key id 0, as the CLI does.
#[inline]
pub fn encode(s: &str) -> Option<Blocks> {
    encode_key(0, s)
}

/// Encodes `s` as Neo4j 1.9 would for property key `key_id` (< 2^24).
#[inline]
pub fn encode_key(key_id: u32, s: &str) -> Option<Blocks> {
    encode_with(key_id, s).map(|(b, _)| b)
}

/// The blocks and the form chosen.
#[inline]
pub fn encode_with(key_id: u32, s: &str) -> Option<(Blocks, EncodingB)> {
    assert!(key_id < 1 << 24, "key id must fit 24 bits");
    let b = s.as_bytes();
    let n = b.len();
    // ASCII (most OSM values) has one unit per byte and skips UTF-16: one pass
    // gathers the alphabets and finds any non-ASCII byte.
    if n <= MAX_UNITS {
        let (mut mask, mut high) = (u16::MAX, 0u8);
        for &c in b {
            mask &= MEMBERS[usize::from(c)];
            high |= c;
        }
        if high < 0x80 {
            return encode_units(key_id, b, mask, s);
        }
    } else if n > 3 * MAX_UNITS || b[..=MAX_UNITS].is_ascii() {
        // A UTF-16 unit takes at most three UTF-8 bytes; or 55 ASCII units.
        return None;
    }
    let mut units = [0u16; MAX_UNITS];
    let mut len = 0;
    for u in s.encode_utf16() {
        if len == MAX_UNITS {
            return None;
        }
        units[len] = u;
        len += 1;
    }
    let units = &units[..len];
    let mask = units.iter().fold(u16::MAX, |m, &u| m & members(u));
    encode_units(key_id, units, mask, s)
}

/// The longest string any form holds: 54 NUMERICAL characters.
const MAX_UNITS: usize = 54;

#[inline]
/// `units` are `s`'s, and `mask` their alphabets.
fn encode_units<U: Copy + Into<u16>>(
    key_id: u32,
    units: &[U],
    mask: u16,
    s: &str,
) -> Option<(Blocks, EncodingB)> {
    let len = units.len();
    if len > MAX_UNITS {
        return None;
    }
    if len == 0 {
        let e = EncodingB::Latin1;
        return Some((write(key_id, e, 0, std::iter::empty()), e));
    }
    if let Some(a) = choose(mask, len) {
        // Membership implies a code, and that every unit is at most 0xFF.
        let row = a.encode_row();
        let codes = units
            .iter()
            .map(|&u| u64::from(row[usize::from(u.into() as u8)]));
        let e = EncodingB::Table(a);
        return Some((write(key_id, e, len, codes), e));
    }
    if len <= 27 {
        if units.iter().all(|&u| u.into() <= 0xFF) {
            let e = EncodingB::Latin1;
            let codes = units.iter().map(|&u| u64::from(u.into()));
            return Some((write(key_id, e, len, codes), e));
        }
        if s.len() <= 27 {
            let e = EncodingB::Utf8;
            return Some((write(key_id, e, s.len(), s.bytes().map(u64::from)), e));
        }
    }
    None
}

/// The table form the encoder picks for `len` characters whose alphabets are `mask`.
#[inline]
fn choose(mask: u16, len: usize) -> Option<Alphabet> {
    let mask = mask & LEN_OK.get(len).copied().unwrap_or(0);
    if mask == 0 {
        return None;
    }
    ORDER.into_iter().find(|&a| mask & (1 << a.index()) != 0)
}

/// Bits per character by encoding id; 0 for ids no encoding has.
const STEP_BY_ID: [u32; 32] = {
    let mut t = [0; 32];
    t[0] = 8;
    t[10] = 8;
    let mut id = 0;
    while id < BY_ID.len() {
        if let Some(a) = BY_ID[id] {
            t[id] = a.step();
        }
        id += 1;
    }
    t
};

/// By length: the table forms that may hold a string that long.
const LEN_OK: [u16; MAX_UNITS + 1] = {
    let mut t = [0; MAX_UNITS + 1];
    let mut len = 0;
    while len <= MAX_UNITS {
        let mut i = 0;
        while i < ORDER.len() {
            let a = ORDER[i];
            let large = LARGE & (1 << a.index()) != 0;
            if max_len(a.step()) >= len && (len <= 36 || !large) {
                t[len] |= 1 << a.index();
            }
            i += 1;
        }
        len += 1;
    }
    t
};

/// Most characters (bytes for UTF8) of `step` bits that fit in four blocks.
const fn max_len(step: u32) -> usize {
    ((PAYLOAD_BITS - HEADER_BITS) / step) as usize
}

/// Every form that could hold `s` on its own (alphabet and length), whether
/// or not the encoder would choose it.
pub fn fitting(s: &str) -> Vec<EncodingB> {
    let units: Vec<u16> = s.encode_utf16().collect();
    let len = units.len();
    let mut out = Vec::new();
    let mask = units.iter().fold(u16::MAX, |m, &u| m & members(u));
    for a in ORDER {
        if mask & (1 << a.index()) != 0 && EncodingB::Table(a).max_len() >= len {
            out.push(EncodingB::Table(a));
        }
    }
    if len <= 27 && units.iter().all(|&u| u <= 0xFF) {
        out.push(EncodingB::Latin1);
    }
    if len <= 27 && s.len() <= 27 {
        out.push(EncodingB::Utf8);
    }
    out
}

#[inline]
fn write(key_id: u32, e: EncodingB, len: usize, codes: impl Iterator<Item = u64>) -> Blocks {
    let step = e.step();
    let bits = HEADER_BITS + len as u32 * step;
    let mut w =
        BitWriter::new(key_id as u64 | TYPE_SHORT_STRING << 24 | e.id() << 28 | (len as u64) << 33);
    for c in codes {
        w.put(c, step);
    }
    Blocks {
        blocks: w.finish(),
        len: bits.div_ceil(64) as usize,
    }
}

/// How many blocks a short string takes, from its long 0 alone.
pub fn blocks_needed(first: u64) -> Result<usize, DecodeError> {
    let id = (first >> 28) & 0x1F;
    let step = STEP_BY_ID[id as usize];
    if step == 0 {
        return Err(DecodeError::BadHeader(format!("no encoding has id {id}")));
    }
    let len = ((first >> 33) & 0x3F) as u32;
    if len as usize > max_len(step) {
        let e = EncodingB::from_id(id).expect("an id with a step");
        return Err(DecodeError::BadLength {
            encoding: e.name(),
            len,
        });
    }
    Ok((HEADER_BITS + len * step).div_ceil(64) as usize)
}

/// Reads a code of `STEP` bits per character of `chars` and stores the
/// character; returns the alphabets of all of them, whether any code was
/// unused, and the OR of the characters (≥ 0x80: not all ASCII).
#[inline(always)]
fn gather<const STEP: u32>(
    bits: &mut BitReader,
    row: &[u16; 256],
    chars: &mut [u8],
) -> (u16, bool, u8) {
    let (mut mask, mut unused, mut high) = (u16::MAX, false, 0u8);
    for c in chars.iter_mut() {
        let unit = row[bits.take(STEP) as usize & 0xFF];
        unused |= unit == NONE;
        *c = unit as u8;
        mask &= MEMBERS[usize::from(*c)];
        high |= *c;
    }
    (mask, unused, high)
}

/// LATIN1 as a table: each code is its character.
const LATIN1_ROW: [u16; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u16;
        i += 1;
    }
    t
};

/// The error for the first code of `a` that no character has.
#[cold]
fn first_unused_code(a: Alphabet, blocks: &[u64], n: usize) -> DecodeError {
    let mut bits = BitReader::new(blocks);
    let code = (0..n)
        .map(|_| bits.take(a.step()) as u32)
        .find(|&c| a.decode_char(c).is_none())
        .unwrap_or(0);
    DecodeError::BadCode {
        encoding: a.name(),
        code,
    }
}

/// Decodes blocks to (key id, string). Errors for any blocks that
/// [`encode_key`] never writes.
pub fn decode(blocks: &[u64]) -> Result<(u32, String), DecodeError> {
    let mut s = String::new();
    let key = decode_into(blocks, &mut s)?;
    Ok((key, s))
}

/// Like [`decode`], into `out` (cleared first), so that a loop can reuse one
/// buffer; returns the key id.
///
/// Strictness costs no re-encoding: the header, the block count, the unused
/// bits and the encoder's choice of form are checked directly.
pub fn decode_into(blocks: &[u64], out: &mut String) -> Result<u32, DecodeError> {
    out.clear();
    let first = *blocks.first().ok_or(DecodeError::BadBlockCount {
        expected: 1,
        got: 0,
    })?;
    let key = (first & 0xFF_FFFF) as u32;
    let ty = (first >> 24) & 0xF;
    if ty != TYPE_SHORT_STRING {
        return Err(DecodeError::BadHeader(format!(
            "property type {ty} is not a short string (11)"
        )));
    }
    let expected = blocks_needed(first)?;
    if blocks.len() != expected {
        return Err(DecodeError::BadBlockCount {
            expected,
            got: blocks.len(),
        });
    }
    let e = EncodingB::from_id((first >> 28) & 0x1F).expect("checked by blocks_needed");
    let len = ((first >> 33) & 0x3F) as u32;
    let step = e.step();
    let used = (HEADER_BITS + len * step) % 64;
    if used != 0 && blocks[expected - 1] >> used != 0 {
        return Err(DecodeError::BadHeader(
            "bits set beyond the string's length".into(),
        ));
    }
    let mut bits = BitReader::new(blocks);
    let n = len as usize;
    match e {
        EncodingB::Utf8 => {
            let mut bytes = [0u8; 27];
            for b in &mut bytes[..n] {
                *b = bits.take(8) as u8;
            }
            let s = std::str::from_utf8(&bytes[..n]).map_err(|_| DecodeError::BadUtf8)?;
            // LATIN1 takes any string of at most 27 characters up to U+00FF.
            if s.chars().all(|c| c <= '\u{FF}') {
                return Err(DecodeError::NonCanonical(s.to_owned()));
            }
            out.push_str(s);
        }
        EncodingB::Latin1 | EncodingB::Table(_) => {
            // Every character of these forms is in U+0000..=U+00FF: one byte each here.
            let mut buf = [0u8; 56];
            let chars = &mut buf[..n];
            let row = match e {
                EncodingB::Table(a) => a.decode_row(),
                _ => &LATIN1_ROW,
            };
            // A constant step per arm: constant shifts in the loop.
            let (mask, unused, high) = match step {
                4 => gather::<4>(&mut bits, row, chars),
                5 => gather::<5>(&mut bits, row, chars),
                6 => gather::<6>(&mut bits, row, chars),
                7 => gather::<7>(&mut bits, row, chars),
                _ => gather::<8>(&mut bits, row, chars),
            };
            let canonical = match e {
                EncodingB::Table(a) if unused => return Err(first_unused_code(a, blocks, n)),
                // The empty string is always LATIN1.
                EncodingB::Table(a) => n > 0 && choose(mask, n) == Some(a),
                _ => n == 0 || choose(mask, n).is_none(),
            };
            let chars = &buf[..n];
            if high < 0x80 {
                push_ascii_padded(out, &buf, n);
            } else {
                push_latin1(out, chars);
            }
            if !canonical {
                return Err(DecodeError::NonCanonical(out.clone()));
            }
        }
    }
    Ok(key)
}

#[cfg(test)]
mod tests {
    use super::*;

    const VECTORS: [(&str, &[u64]); 4] = [
        ("a", &[0x000000824B000000]),
        ("1234567890", &[0xB2A190941B000000, 0x00000000000004C3]),
        ("HELLO_WORLD", &[0x7B1854163B000000, 0x0000000008C93EFB]),
        ("påfågelön", &[0x5CC978129B000000, 0x0000003736D9973A]),
    ];

    #[test]
    fn jar_vectors() {
        for (s, b) in VECTORS {
            assert_eq!(encode(s).unwrap().as_slice(), b, "{s:?}");
            assert_eq!(decode(b), Ok((0, s.to_string())));
        }
    }

    #[test]
    fn key_id_is_added_to_long_0() {
        let b = encode_key(0x1234, "a").unwrap();
        assert_eq!(b.as_slice(), &[0x000000824B001234]);
        assert_eq!(decode(b.as_slice()), Ok((0x1234, "a".into())));
    }

    #[test]
    fn lengths_and_forms() {
        let form = |s: &str| encode_with(0, s).map(|(_, e)| e);
        assert_eq!(form(""), Some(EncodingB::Latin1));
        assert_eq!(
            form(&"1".repeat(54)),
            Some(EncodingB::Table(Alphabet::Numerical))
        );
        assert_eq!(form(&"1".repeat(55)), None);
        assert_eq!(
            form(&"a".repeat(43)),
            Some(EncodingB::Table(Alphabet::Lower))
        );
        assert_eq!(
            form(&"a1".repeat(20)),
            Some(EncodingB::Table(Alphabet::LowerHex))
        );
        assert_eq!(form("a|b"), Some(EncodingB::Table(Alphabet::AlphaSym)));
        assert_eq!(form("a;b"), Some(EncodingB::Table(Alphabet::Uri)));
        assert_eq!(form("a!b"), Some(EncodingB::Latin1));
        assert_eq!(form("中文"), Some(EncodingB::Utf8));
        assert_eq!(form(&"中".repeat(10)), None);
        for n in 0..=54 {
            let b = encode(&"1".repeat(n)).unwrap();
            assert_eq!(b.as_slice().len(), (39 + 4 * n).div_ceil(64));
        }
    }

    #[test]
    fn ids_round_trip() {
        for a in ORDER {
            let e = EncodingB::Table(a);
            assert_eq!(EncodingB::from_id(e.id()), Some(e));
        }
        assert_eq!(EncodingB::from_id(0), Some(EncodingB::Utf8));
        assert_eq!(EncodingB::from_id(10), Some(EncodingB::Latin1));
        assert_eq!(EncodingB::from_id(13), None);
    }

    #[test]
    fn rejects_blocks_no_encoder_writes() {
        assert!(decode(&[]).is_err());
        assert!(decode(&[0x000000824A000000]).is_err()); // type 10
        assert!(decode(&[0x000000824B000000, 0]).is_err()); // extra block
        assert!(decode(&[0x000000834B000000]).is_err()); // stray bit
        assert!(decode(&[0xFFFF_FFFF_FFFF_FFFF; 4]).is_err());
        assert!(decode(&[0x000000001B000000]).is_err()); // empty NUMERICAL: "" is LATIN1
        assert!(decode(&[0x000000000B000000]).is_err()); // empty UTF8
                                                         // "abc" in EUROPEAN (id 9), which the encoder skips for LOWER.
        let codes = "abc"
            .bytes()
            .map(|c| Alphabet::European.encode_char(c.into()).unwrap().into());
        let european = write(0, EncodingB::Table(Alphabet::European), 3, codes);
        assert_eq!(
            decode(european.as_slice()),
            Err(DecodeError::NonCanonical("abc".into()))
        );
        let abc_latin1 = 11u64 << 24 | 10 << 28 | 3 << 33;
        let abc = (0x61u64 | 0x62 << 8 | 0x63 << 16) << 39;
        assert_eq!(
            decode(&[abc_latin1 | abc]),
            Err(DecodeError::NonCanonical("abc".into()))
        );
    }
}
