//! Format B: Neo4j 1.9 `LongerShortString`, one to four 64-bit blocks.

use crate::error::DecodeError;
use crate::tables::{members, Alphabet};

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
            _ => EncodingB::Table(
                ORDER
                    .into_iter()
                    .find(|a| EncodingB::Table(*a).id() == id)?,
            ),
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
        ((PAYLOAD_BITS - HEADER_BITS) / self.step()) as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            EncodingB::Utf8 => "UTF8",
            EncodingB::Latin1 => "LATIN1",
            EncodingB::Table(a) => a.name(),
        }
    }
}

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

fn large_mask() -> u16 {
    [
        Alphabet::Uri,
        Alphabet::AlphaNum,
        Alphabet::AlphaSym,
        Alphabet::European,
    ]
    .iter()
    .fold(0, |m, a| m | 1 << a.index())
}

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

/// Little-endian bit stream over up to four longs.
struct BitWriter {
    b: Blocks,
    pos: u32,
}

impl BitWriter {
    fn put(&mut self, value: u64, bits: u32) {
        let (i, off) = ((self.pos / 64) as usize, self.pos % 64);
        self.b.blocks[i] |= value << off;
        if off + bits > 64 {
            self.b.blocks[i + 1] |= value >> (64 - off);
        }
        self.pos += bits;
    }
}

fn get_bits(blocks: &[u64], pos: u32, bits: u32) -> u64 {
    let (i, off) = ((pos / 64) as usize, pos % 64);
    let mut v = blocks[i] >> off;
    if off + bits > 64 {
        v |= blocks[i + 1] << (64 - off);
    }
    v & ((1u64 << bits) - 1)
}

/// Encodes with key id 0, as the CLI does.
pub fn encode(s: &str) -> Option<Blocks> {
    encode_key(0, s)
}

/// Encodes `s` as Neo4j 1.9 would for property key `key_id` (< 2^24).
pub fn encode_key(key_id: u32, s: &str) -> Option<Blocks> {
    encode_with(key_id, s).map(|(b, _)| b)
}

/// The blocks and the form chosen.
pub fn encode_with(key_id: u32, s: &str) -> Option<(Blocks, EncodingB)> {
    assert!(key_id < 1 << 24, "key id must fit 24 bits");
    let mut units = [0u16; 54];
    let mut len = 0;
    for u in s.encode_utf16() {
        if len == units.len() {
            return None;
        }
        units[len] = u;
        len += 1;
    }
    let units = &units[..len];
    if len == 0 {
        return Some((
            write(key_id, EncodingB::Latin1, 0, std::iter::empty()),
            EncodingB::Latin1,
        ));
    }
    let mut mask = u16::MAX;
    if len > 36 {
        mask &= !large_mask();
    }
    for &u in units {
        mask &= members(u);
    }
    for a in ORDER {
        let e = EncodingB::Table(a);
        if mask & (1 << a.index()) != 0 && e.max_len() >= len {
            let codes = units
                .iter()
                .map(|&u| a.encode_char(u).expect("membership implies a code") as u64);
            return Some((write(key_id, e, len, codes), e));
        }
    }
    if len <= 27 {
        if units.iter().all(|&u| u <= 0xFF) {
            let e = EncodingB::Latin1;
            return Some((write(key_id, e, len, units.iter().map(|&u| u as u64)), e));
        }
        if s.len() <= 27 {
            let e = EncodingB::Utf8;
            return Some((write(key_id, e, s.len(), s.bytes().map(u64::from)), e));
        }
    }
    None
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

fn write(key_id: u32, e: EncodingB, len: usize, codes: impl Iterator<Item = u64>) -> Blocks {
    let step = e.step();
    let bits = HEADER_BITS + len as u32 * step;
    let mut w = BitWriter {
        b: Blocks {
            blocks: [0; MAX_BLOCKS],
            len: bits.div_ceil(64) as usize,
        },
        pos: 0,
    };
    w.put(
        key_id as u64 | TYPE_SHORT_STRING << 24 | e.id() << 28 | (len as u64) << 33,
        HEADER_BITS,
    );
    for c in codes {
        w.put(c, step);
    }
    w.b
}

/// How many blocks a short string takes, from its long 0 alone.
pub fn blocks_needed(first: u64) -> Result<usize, DecodeError> {
    let id = (first >> 28) & 0x1F;
    let e = EncodingB::from_id(id)
        .ok_or_else(|| DecodeError::BadHeader(format!("no encoding has id {id}")))?;
    let len = ((first >> 33) & 0x3F) as u32;
    if len as usize > e.max_len() {
        return Err(DecodeError::BadLength {
            encoding: e.name(),
            len,
        });
    }
    Ok((HEADER_BITS + len * e.step()).div_ceil(64) as usize)
}

/// Decodes blocks to (key id, string). Errors for any blocks that
/// [`encode_key`] never writes.
pub fn decode(blocks: &[u64]) -> Result<(u32, String), DecodeError> {
    let (key, s) = decode_raw(blocks)?;
    match encode_key(key, &s) {
        Some(b) if b.as_slice() == blocks => Ok((key, s)),
        _ => Err(DecodeError::NonCanonical(s)),
    }
}

fn decode_raw(blocks: &[u64]) -> Result<(u32, String), DecodeError> {
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
    let id = (first >> 28) & 0x1F;
    let e = EncodingB::from_id(id)
        .ok_or_else(|| DecodeError::BadHeader(format!("no encoding has id {id}")))?;
    let len = ((first >> 33) & 0x3F) as u32;
    if len as usize > e.max_len() {
        return Err(DecodeError::BadLength {
            encoding: e.name(),
            len,
        });
    }
    let step = e.step();
    let expected = (HEADER_BITS + len * step).div_ceil(64) as usize;
    if blocks.len() != expected {
        return Err(DecodeError::BadBlockCount {
            expected,
            got: blocks.len(),
        });
    }
    let codes = (0..len).map(|i| get_bits(blocks, HEADER_BITS + i * step, step) as u32);
    let s = match e {
        EncodingB::Utf8 => {
            let bytes: Vec<u8> = codes.map(|c| c as u8).collect();
            String::from_utf8(bytes).map_err(|_| DecodeError::BadUtf8)?
        }
        EncodingB::Latin1 => codes.map(|c| c as u8 as char).collect(),
        EncodingB::Table(a) => {
            let units = codes
                .map(|code| {
                    a.decode_char(code).ok_or(DecodeError::BadCode {
                        encoding: a.name(),
                        code,
                    })
                })
                .collect::<Result<Vec<u16>, _>>()?;
            String::from_utf16(&units).expect("tables hold only BMP non-surrogates")
        }
    };
    Ok((key, s))
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
    fn rejects_blocks_no_encoder_writes() {
        assert!(decode(&[]).is_err());
        assert!(decode(&[0x000000824A000000]).is_err()); // type 10
        assert!(decode(&[0x000000824B000000, 0]).is_err()); // extra block
        assert!(decode(&[0x000000834B000000]).is_err()); // stray bit
        assert!(decode(&[0xFFFF_FFFF_FFFF_FFFF; 4]).is_err());
    }
}
