//! Format B: Neo4j 1.9 `LongerShortString`, one to four 64-bit blocks.

use crate::error::DecodeError;
use crate::push::{push_ascii, push_latin1};
use crate::tables::{
    members, Alphabet, ALL, COUNT, ENCODE, ENTRIES, LATIN1_ENTRIES, MEMBERS, PAIRS,
};
use crate::words::{
    compress, expand, expand_pairs, le_word, map_at, map_bytes, read_bits, scan, BitWriter,
};

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
    pub const fn id(self) -> u64 {
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Blocks {
    blocks: [u64; MAX_BLOCKS],
    len: usize,
    /// Index into `FORMS`: kept here so the encoders return one value, which
    /// the caller reads where it was written (a wrapping copy stalled on it).
    form: usize,
}

impl Blocks {
    /// The form the encoder chose.
    pub fn encoding(&self) -> EncodingB {
        FORMS[self.form]
    }

    #[inline]
    pub fn as_slice(&self) -> &[u64] {
        &self.blocks[..self.len]
    }
}

/// Encodes with key id 0, as the CLI does.
#[inline]
pub fn encode(s: &str) -> Option<Blocks> {
    encode_key(0, s)
}

/// The blocks and the form chosen.
#[inline]
pub fn encode_with(key_id: u32, s: &str) -> Option<(Blocks, EncodingB)> {
    encode_key(key_id, s).map(|b| (b, b.encoding()))
}

/// Encodes `s` as Neo4j 1.9 would for property key `key_id` (< 2^24).
///
/// ASCII (most OSM values) is its own Latin-1 and is encoded inline, so
/// that the blocks stay in registers in the caller's loop: a returned copy
/// read back at once waited on its stores.
#[inline(always)]
pub fn encode_key(key_id: u32, s: &str) -> Option<Blocks> {
    assert!(key_id < 1 << 24, "key id must fit 24 bits");
    let b = s.as_bytes();
    if b.len() <= MAX_UNITS {
        let (mask, ascii) = scan(b);
        if ascii {
            let form = choose_form(b.len(), mask)?;
            if b.len() <= 16 {
                return Some(pack_short(key_id, form, b));
            }
            let (full, last) = (|g, row| map_at(b, 8 * g, row), |row| last_codes(b, row));
            return Some(pack(key_id, form, b.len(), full, last));
        }
    }
    encode_other(key_id, s)
}

#[inline(never)]
fn encode_other(key_id: u32, s: &str) -> Option<Blocks> {
    let b = s.as_bytes();
    let n = b.len();
    if n > 3 * MAX_UNITS || (n > MAX_UNITS && b[..=MAX_UNITS].is_ascii()) {
        // A UTF-16 unit takes at most three UTF-8 bytes; or 55 ASCII units.
        return None;
    }
    // The characters as Latin-1, eight to a word (bytes stored one at a time
    // and read back as a word would wait on the stores).
    let mut groups = [0u64; MAX_UNITS.div_ceil(8)];
    let (mut mask, mut word, mut len, mut i) = (u16::MAX, 0u64, 0, 0);
    while i < n {
        // Valid UTF-8: a lead byte C2 or C3 and one more byte is U+0080..=U+00FF;
        // any other non-ASCII lead byte starts a character above it.
        let c = match b[i] {
            c @ 0..=0x7F => c,
            lead @ (0xC2 | 0xC3) => {
                i += 1;
                (lead << 6) | (b[i] & 0x3F)
            }
            // Only UTF8 holds it, in at most 27 bytes (so at most 27 UTF-16 units).
            _ => {
                let (full, last) = (|g, row| map_at(b, 8 * g, row), |row| last_codes(b, row));
                return (n <= 27).then(|| pack(key_id, UTF8, n, full, last));
            }
        };
        i += 1;
        if len == MAX_UNITS {
            return None;
        }
        mask &= MEMBERS[usize::from(c)];
        word |= u64::from(c) << (8 * (len % 8));
        len += 1;
        if len % 8 == 0 {
            groups[len / 8 - 1] = word;
            word = 0;
        }
    }
    let keep = (1 << (8 * (len % 8))) - 1;
    let full = |g: usize, row: &[u8; 256]| map_bytes(groups[g], row);
    let form = choose_form(len, mask)?;
    Some(pack(key_id, form, len, full, |row| {
        map_bytes(word, row) & keep
    }))
}

/// The longest string any form holds: 54 NUMERICAL characters.
const MAX_UNITS: usize = 54;

/// The form the encoder picks for `n` characters up to U+00FF whose
/// alphabets are `mask`, as an index into `FORMS`; `None` if none holds them.
#[inline(always)]
fn choose_form(n: usize, mask: u16) -> Option<usize> {
    // Forms by index, as tables: matching on `EncodingB` made jump tables.
    let mask = mask & LEN_OK.get(n).copied().unwrap_or(0);
    match mask.trailing_zeros() as usize {
        // The empty string is LATIN1.
        table if table < COUNT && n > 0 => Some(table),
        _ if n <= 27 => Some(LATIN1),
        _ => None,
    }
}

/// Form indexes: the alphabets', then these.
const LATIN1: usize = COUNT;
const UTF8: usize = COUNT + 1;
const FORMS: [EncodingB; COUNT + 2] = {
    let mut t = [EncodingB::Latin1; COUNT + 2];
    let mut i = 0;
    while i < COUNT {
        t[i] = EncodingB::Table(ALL[i]);
        i += 1;
    }
    t[UTF8] = EncodingB::Utf8;
    t
};
static FORM_ID: [u64; COUNT + 2] = {
    let mut t = [0; COUNT + 2];
    let mut i = 0;
    while i < COUNT + 2 {
        t[i] = FORMS[i].id();
        i += 1;
    }
    t
};
static FORM_STEP: [u32; COUNT + 2] = {
    let mut t = [8; COUNT + 2];
    let mut i = 0;
    while i < COUNT {
        t[i] = ALL[i].step();
        i += 1;
    }
    t
};
static FORM_ROW: [&[u8; 256]; COUNT + 2] = {
    let mut t = [&IDENTITY; COUNT + 2];
    let mut i = 0;
    while i < COUNT {
        t[i] = &ENCODE[i];
        i += 1;
    }
    t
};

/// Form index by encoding id; `NO_FORM` for ids no encoding has.
const NO_FORM: u8 = 0xFF;
static FORM_OF_ID: [u8; 32] = {
    let mut t = [NO_FORM; 32];
    let mut i = 0;
    while i < COUNT + 2 {
        t[FORMS[i].id() as usize] = i as u8;
        i += 1;
    }
    t
};
/// Decode entries by form (UTF8's are LATIN1's).
static FORM_ENTRIES: [&[u32; 256]; COUNT + 2] = {
    let mut t = [&LATIN1_ENTRIES; COUNT + 2];
    let mut i = 0;
    while i < COUNT {
        t[i] = &ENTRIES[i];
        i += 1;
    }
    t
};

/// Pair tables by form (empty where there are none).
static FORM_PAIRS: [&[u32]; COUNT + 2] = {
    let mut t: [&[u32]; COUNT + 2] = [&[]; COUNT + 2];
    let mut i = 0;
    while i < COUNT {
        t[i] = PAIRS[i];
        i += 1;
    }
    t
};

/// Codes for LATIN1 and UTF8: each byte is its own.
static IDENTITY: [u8; 256] = {
    let mut t = [0; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = i as u8;
        i += 1;
    }
    t
};

/// The blocks of `n` characters in `form`: `full(g, row)` gives the codes of
/// characters `8g..8g + 8` under `row`, one per byte, little-endian, and
/// `last(row)` those of the `n % 8` after them, zero above.
#[inline(always)]
fn pack(
    key_id: u32,
    form: usize,
    n: usize,
    full: impl Fn(usize, &'static [u8; 256]) -> u64,
    last: impl Fn(&'static [u8; 256]) -> u64,
) -> Blocks {
    let (id, step, row) = (FORM_ID[form], FORM_STEP[form], FORM_ROW[form]);
    let header = key_id as u64 | TYPE_SHORT_STRING << 24 | id << 28 | (n as u64) << 33;
    let mut w = BitWriter::new(header, HEADER_BITS);
    for g in 0..n / 8 {
        w.put(compress(full(g, row), step), 8 * step);
    }
    let rest = (n % 8) as u32;
    if rest > 0 {
        w.put(compress(last(row), step), rest * step);
    }
    Blocks {
        blocks: w.finish(),
        len: (HEADER_BITS + n as u32 * step).div_ceil(64) as usize,
        form,
    }
}

/// [`pack`] for up to 16 characters (nine strings in ten), without a loop or
/// a branch per block: their codes fit a `u128`, and the blocks are that
/// shifted past the header.
#[inline(always)]
fn pack_short(key_id: u32, form: usize, b: &[u8]) -> Blocks {
    let (id, step, row) = (FORM_ID[form], FORM_STEP[form], FORM_ROW[form]);
    let n = b.len();
    let (first, rest) = if n >= 8 {
        // Characters 8..n from the word ending the string (none when n is 8).
        let rest = (u128::from(map_at(b, n - 8, row)) >> (8 * (16 - n))) as u64;
        (map_at(b, 0, row), rest)
    } else {
        (map_bytes(le_word(b), row) & ((1 << (8 * n)) - 1), 0)
    };
    let codes = u128::from(compress(first, step)) | u128::from(compress(rest, step)) << (8 * step);
    let header = key_id as u64 | TYPE_SHORT_STRING << 24 | id << 28 | (n as u64) << 33;
    Blocks {
        blocks: [
            header | (codes << HEADER_BITS) as u64,
            (codes >> (64 - HEADER_BITS)) as u64,
            (codes >> (128 - HEADER_BITS)) as u64,
            0,
        ],
        len: (HEADER_BITS + n as u32 * step).div_ceil(64) as usize,
        form,
    }
}

/// The codes of the bytes after the last whole word of `b` (if any), zero above.
#[inline(always)]
fn last_codes(b: &[u8], row: &[u8; 256]) -> u64 {
    let (n, rest) = (b.len(), b.len() % 8);
    if n >= 8 {
        // The word ending the string, without the bytes already packed.
        map_at(b, n - 8, row) >> (8 * (8 - rest) % 64)
    } else {
        map_bytes(le_word(b), row) & ((1 << (8 * rest)) - 1)
    }
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

/// Like [`decode_groups`], two codes per lookup, by `pairs` (see
/// [`Alphabet::decode_pairs`]).
#[inline(always)]
fn decode_pair_groups(blocks: &[u64], step: u32, n: usize, pairs: &[u32], out: &mut String) -> u16 {
    let mut mask = u32::MAX;
    let code = (1u64 << step) - 1;
    let repeat = REPEAT[step as usize];
    for g in 0..n.div_ceil(8) {
        let k = (n - 8 * g).min(8) as u32;
        let bits = read_bits(blocks, HEADER_BITS + 8 * step * g as u32, k * step);
        // Past the string, repeat its first code: AND does not mind.
        let bits = bits | (((bits & code) * repeat) & !(u64::MAX >> (64 - k * step)));
        let lanes = expand_pairs(bits, step);
        let mut chars = 0u64;
        for j in 0..4 {
            let e = pairs[usize::from((lanes >> (16 * j)) as u16)];
            chars |= u64::from(e & 0xFFFF) << (16 * j);
            mask &= e;
        }
        let chars = chars & (u64::MAX >> (64 - 8 * k));
        if chars & 0x8080_8080_8080_8080 == 0 {
            push_ascii(out, chars.swap_bytes(), k as usize);
        } else {
            push_latin1(out, &chars.to_le_bytes()[..k as usize]);
        }
    }
    (mask >> 16) as u16
}

/// By step: one bit at the start of each of eight codes.
const REPEAT: [u64; 9] = {
    let mut t = [0; 9];
    let mut step = 1;
    while step < 9 {
        let mut i = 0;
        while i < 8 {
            t[step] |= 1 << (i * step);
            i += 1;
        }
        step += 1;
    }
    t
};

/// Decodes `n` codes of `step` bits after the header, eight at a time, by
/// `entries` (see [`Alphabet::decode_entries`]), appending the characters to
/// `out`; returns the alphabets that hold all of them (none if a code was
/// unused).
#[inline(always)]
fn decode_groups(
    blocks: &[u64],
    step: u32,
    n: usize,
    entries: &[u32; 256],
    out: &mut String,
) -> u16 {
    let mut mask = u32::MAX;
    for g in 0..n.div_ceil(8) {
        let k = (n - 8 * g).min(8) as u32;
        let codes = expand(
            read_bits(blocks, HEADER_BITS + 8 * step * g as u32, k * step),
            step,
        );
        // Past the string, repeat its first code: AND and OR do not mind.
        let keep = u64::MAX >> (64 - 8 * k);
        let codes = codes | (((codes & 0xFF) * 0x0101_0101_0101_0101) & !keep);
        let mut chars = 0u64;
        for i in 0..8 {
            let e = entries[(codes >> (8 * i)) as u8 as usize];
            chars |= u64::from(e & 0xFF) << (8 * i);
            mask &= e;
        }
        let chars = chars & keep;
        if chars & 0x8080_8080_8080_8080 == 0 {
            push_ascii(out, chars.swap_bytes(), k as usize);
        } else {
            push_latin1(out, &chars.to_le_bytes()[..k as usize]);
        }
    }
    (mask >> 8) as u16
}

/// Why decoded characters are not what the encoder writes in `form`: an
/// unused code (the first one), or another form being chosen.
#[cold]
fn not_chosen(form: usize, blocks: &[u64], n: usize, out: &str) -> DecodeError {
    if let Some(&a) = ALL.get(form) {
        let step = a.step();
        let unused = (0..n as u32)
            .map(|i| read_bits(blocks, HEADER_BITS + i * step, step) as u32)
            .find(|&c| a.decode_char(c).is_none());
        if let Some(code) = unused {
            return DecodeError::BadCode {
                encoding: a.name(),
                code,
            };
        }
    }
    DecodeError::NonCanonical(out.to_owned())
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
    let first = blocks.first().copied().unwrap_or(0);
    // Forms by index, as tables: matching on `EncodingB` made jump tables.
    let form = usize::from(FORM_OF_ID[((first >> 28) & 0x1F) as usize]);
    let n = ((first >> 33) & 0x3F) as usize;
    let step = FORM_STEP.get(form).copied().unwrap_or(8);
    let bits = HEADER_BITS + n as u32 * step;
    if (first >> 24) & 0xF != TYPE_SHORT_STRING
        || form >= FORMS.len()
        || bits > PAYLOAD_BITS
        || blocks.len() != bits.div_ceil(64) as usize
    {
        return Err(header_error(blocks));
    }
    if !bits.is_multiple_of(64) && blocks[blocks.len() - 1] >> (bits % 64) != 0 {
        return Err(stray_bits());
    }
    let key = (first & 0xFF_FFFF) as u32;
    if form == UTF8 {
        decode_utf8(blocks, n, out)?;
        return Ok(key);
    }
    // Every character of the other forms is in U+0000..=U+00FF.
    let pairs = FORM_PAIRS[form];
    let mask = if pairs.is_empty() {
        decode_groups(blocks, step, n, FORM_ENTRIES[form], out)
    } else {
        decode_pair_groups(blocks, step, n, pairs, out)
    };
    // The form the encoder would choose for these characters (the empty
    // string is LATIN1). An unused code has no alphabets, so fails this too.
    let mask = mask & LEN_OK[n];
    let chosen = if n > 0 && mask != 0 {
        mask.trailing_zeros() as usize
    } else {
        LATIN1
    };
    if chosen != form {
        return Err(not_chosen(form, blocks, n, out));
    }
    Ok(key)
}

/// Why a first block's header (or the block count) is not one the encoder writes.
#[cold]
fn header_error(blocks: &[u64]) -> DecodeError {
    let Some(&first) = blocks.first() else {
        return DecodeError::BadBlockCount {
            expected: 1,
            got: 0,
        };
    };
    let ty = (first >> 24) & 0xF;
    if ty != TYPE_SHORT_STRING {
        return DecodeError::BadHeader(format!("property type {ty} is not a short string (11)"));
    }
    match blocks_needed(first) {
        Err(e) => e,
        Ok(expected) => DecodeError::BadBlockCount {
            expected,
            got: blocks.len(),
        },
    }
}

#[cold]
fn stray_bits() -> DecodeError {
    DecodeError::BadHeader("bits set beyond the string's length".into())
}

/// The UTF8 form: `n` bytes that must be UTF-8 and not all up to U+00FF.
fn decode_utf8(blocks: &[u64], n: usize, out: &mut String) -> Result<(), DecodeError> {
    let mut buf = [0u8; 27];
    for (i, byte) in buf.iter_mut().enumerate().take(n) {
        *byte = read_bits(blocks, HEADER_BITS + 8 * i as u32, 8) as u8;
    }
    let s = std::str::from_utf8(&buf[..n]).map_err(|_| DecodeError::BadUtf8)?;
    // LATIN1 takes any string of at most 27 characters up to U+00FF.
    if s.chars().all(|c| c <= '\u{FF}') {
        return Err(DecodeError::NonCanonical(s.to_owned()));
    }
    out.push_str(s);
    Ok(())
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

    /// Every character of every form, alone and in runs of every group
    /// length: decode pads short groups, which once broke the 5- and 6-bit
    /// forms (a wrong repeat constant made them "not canonical").
    #[test]
    fn runs_of_every_character_round_trip() {
        let chars = (0..=0xFFu8).map(char::from).chain(['中', '€']);
        for c in chars {
            for len in [1, 2, 3, 7, 8, 9, 15, 16, 17, 25, 36] {
                let s: String = std::iter::repeat_n(c, len).collect();
                if let Some(b) = encode(&s) {
                    assert_eq!(
                        decode(b.as_slice()),
                        Ok((0, s.clone())),
                        "{s:?} as {:?}",
                        b.encoding()
                    );
                }
                let mixed = format!("a{s}");
                if let Some(b) = encode(&mixed) {
                    assert_eq!(decode(b.as_slice()), Ok((0, mixed.clone())), "{mixed:?}");
                }
            }
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
        let (full, last) = (|_, _: &_| 0, |row: &_| last_codes(b"abc", row));
        let european = pack(0, Alphabet::European.index(), 3, full, last);
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
