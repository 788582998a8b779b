//! Eight characters at a time: loading bytes into words, mapping each byte
//! through a table, and packing one code per byte into a contiguous bit
//! string (and back) with a few shifts and masks instead of one per character.
//!
//! Both formats spend their time here. `compare-revisions.sh` measures the
//! gain over the earlier per-character code (docs/results.md has its output).

use crate::tables::MEMBERS;

/// `b` (0 to 8 bytes) little-endian, zero above its length.
#[inline]
pub(crate) fn le_word(b: &[u8]) -> u64 {
    let n = b.len();
    if n >= 8 {
        u64::from_le_bytes(b[..8].try_into().expect("8 bytes"))
    } else if n >= 4 {
        // Overlapping bytes land on the same bits with the same value.
        let lo = u32::from_le_bytes(b[..4].try_into().expect("4 bytes"));
        let hi = u32::from_le_bytes(b[n - 4..].try_into().expect("4 bytes"));
        u64::from(lo) | u64::from(hi) << (8 * (n - 4))
    } else if n > 0 {
        u64::from(b[0])
            | u64::from(b[n / 2]) << (8 * (n / 2))
            | u64::from(b[n - 1]) << (8 * (n - 1))
    } else {
        0
    }
}

/// The alphabets that hold every byte of `b`, and whether all are ASCII.
///
/// Bytes are looked up straight from memory (cheaper than shifting them out
/// of a word), and words may overlap: AND and OR do not mind repeats.
#[inline(always)]
pub(crate) fn scan(b: &[u8]) -> (u16, bool) {
    let members = |bytes: &[u8]| {
        bytes
            .iter()
            .fold(u16::MAX, |m, &c| m & MEMBERS[usize::from(c)])
    };
    let n = b.len();
    let (mask, high) = if n >= 8 {
        let (mut mask, mut high) = (u16::MAX, 0);
        let mut words = b.chunks_exact(8);
        for w in &mut words {
            let w: &[u8; 8] = w.try_into().expect("8 bytes");
            mask &= members(w);
            high |= u64::from_le_bytes(*w);
        }
        if !words.remainder().is_empty() {
            let w: &[u8; 8] = b[n - 8..].try_into().expect("8 bytes");
            mask &= members(w);
            high |= u64::from_le_bytes(*w);
        }
        (mask, high)
    } else if n >= 4 {
        let (lo, hi): (&[u8; 4], &[u8; 4]) = (
            b[..4].try_into().expect("4 bytes"),
            b[n - 4..].try_into().expect("4 bytes"),
        );
        let high = u32::from_le_bytes(*lo) | u32::from_le_bytes(*hi);
        (members(lo) & members(hi), u64::from(high))
    } else if n > 0 {
        let bytes = [b[0], b[n / 2], b[n - 1]];
        (members(&bytes), u64::from(b[0] | b[n / 2] | b[n - 1]))
    } else {
        (u16::MAX, 0)
    };
    (mask, high & 0x8080_8080_8080_8080 == 0)
}

/// The eight bytes of `b` from `at`, each mapped through `row`, little-endian.
#[inline(always)]
pub(crate) fn map_at(b: &[u8], at: usize, row: &[u8; 256]) -> u64 {
    let w: &[u8; 8] = b[at..at + 8].try_into().expect("8 bytes");
    (0..8).fold(0, |acc, i| {
        acc | u64::from(row[usize::from(w[i])]) << (8 * i)
    })
}

/// Each byte of `w` mapped through `row`.
#[inline(always)]
pub(crate) fn map_bytes(w: u64, row: &[u8; 256]) -> u64 {
    (0..8).fold(0, |acc, i| {
        acc | u64::from(row[(w >> (8 * i)) as u8 as usize]) << (8 * i)
    })
}

/// Eight codes of `step` (4 to 8) bits, one per byte, packed into the low
/// `8 * step` bits: byte i's code lands at bit `i * step`.
#[inline(always)]
pub(crate) fn compress(x: u64, step: u32) -> u64 {
    const BYTES: u64 = 0x00FF_00FF_00FF_00FF;
    const PAIRS: u64 = 0x0000_FFFF_0000_FFFF;
    let x = (x & BYTES) | ((x >> (8 - step)) & (BYTES << step));
    let x = (x & PAIRS) | ((x >> (16 - 2 * step)) & (PAIRS << (2 * step)));
    (x & 0xFFFF_FFFF) | ((x >> 32) << (4 * step))
}

/// The inverse of [`compress`]: `8 * step` bits of codes, one per byte.
#[inline(always)]
pub(crate) fn expand(x: u64, step: u32) -> u64 {
    let x = expand_pairs(x, step);
    let bytes = ((1u64 << step) - 1) * 0x0001_0001_0001_0001;
    (x & bytes) | ((x << (8 - step)) & (bytes << 8))
}

/// Like [`expand`], but two codes per 16-bit lane: `2 * step` bits each.
#[inline(always)]
pub(crate) fn expand_pairs(x: u64, step: u32) -> u64 {
    let x = (x & ((1 << (4 * step)) - 1)) | ((x >> (4 * step)) << 32);
    let pairs = ((1u64 << (2 * step)) - 1) * 0x1_0000_0001;
    (x & pairs) | ((x << (16 - 2 * step)) & (pairs << 16))
}

/// `bits` (1 to 64) bits of a little-endian bit string from bit `at`, all
/// within it. Without branches: when there is no next word, what is read in
/// its place lands above `bits` and is masked off.
#[inline(always)]
pub(crate) fn read_bits(words: &[u64], at: u32, bits: u32) -> u64 {
    let (w, off) = ((at / 64) as usize, at % 64);
    let last = words.len().saturating_sub(1);
    let lo = words.get(w.min(last)).copied().unwrap_or(0) >> off;
    let hi = (words.get((w + 1).min(last)).copied().unwrap_or(0) << 1) << (63 - off);
    (lo | hi) & (u64::MAX >> (64 - bits))
}

/// Writes a little-endian bit string of up to four words, a group of bits at
/// a time, keeping the words in registers (an indexed array here made the
/// caller's copy of it wait on the stores).
pub(crate) struct BitWriter {
    words: [u64; 4],
    acc: u64,
    used: u32,
    next: usize,
}

impl BitWriter {
    /// A writer whose first `used` bits are `start`.
    #[inline]
    pub(crate) fn new(start: u64, used: u32) -> BitWriter {
        BitWriter {
            words: [0; 4],
            acc: start,
            used,
            next: 0,
        }
    }

    /// Appends the low `bits` (1 to 64) bits of `value`, which has no others.
    #[inline(always)]
    pub(crate) fn put(&mut self, value: u64, bits: u32) {
        self.acc |= value << self.used;
        let total = self.used + bits;
        // A branch: measured faster than selects here.
        if total >= 64 {
            self.emit();
            self.used = total - 64;
            // The bits that did not fit (none when `used` is now 0).
            self.acc = (value >> 1) >> (bits - 1 - self.used);
        } else {
            self.used = total;
        }
    }

    #[inline(always)]
    fn emit(&mut self) {
        // Selects, not an index or a match (a jump table), so each word stays
        // a register.
        for (i, word) in self.words.iter_mut().enumerate() {
            let here = u64::from(self.next == i).wrapping_neg();
            *word = (*word & !here) | (self.acc & here);
        }
        self.next += 1;
    }

    #[inline(always)]
    pub(crate) fn finish(mut self) -> [u64; 4] {
        if self.used > 0 {
            self.emit();
        }
        self.words
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One shift per code: what `compress` must equal.
    fn packed(codes: &[u8], step: u32) -> u64 {
        codes
            .iter()
            .enumerate()
            .fold(0, |acc, (i, &c)| acc | u64::from(c) << (i as u32 * step))
    }

    #[test]
    fn compress_and_expand_match_one_shift_per_code() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for step in 4..=8 {
            for _ in 0..2000 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let codes: Vec<u8> = seed
                    .to_le_bytes()
                    .iter()
                    .map(|&b| b & ((1u16 << step) - 1) as u8)
                    .collect();
                let word = u64::from_le_bytes(codes[..].try_into().unwrap());
                let bits = packed(&codes, step);
                assert_eq!(compress(word, step), bits, "step {step}");
                assert_eq!(expand(bits, step), word, "step {step}");
            }
        }
    }

    #[test]
    fn words_hold_their_bytes() {
        let bytes = b"abcdefghijk";
        for n in 0..=8 {
            let want = bytes[..n]
                .iter()
                .rev()
                .fold(0u64, |acc, &b| acc << 8 | u64::from(b));
            assert_eq!(le_word(&bytes[..n]), want, "{n}");
        }
        for n in 1..=11 {
            let (mask, ascii) = scan(&bytes[..n]);
            let want = bytes[..n]
                .iter()
                .fold(u16::MAX, |m, &b| m & MEMBERS[b as usize]);
            assert_eq!((mask, ascii), (want, true), "{n}");
        }
        assert!(!scan("abcdefghé".as_bytes()).1);
        assert_eq!(scan(b"ab!").0, 0);
    }

    #[test]
    fn writer_and_reader_agree() {
        let mut w = BitWriter::new(0x55, 39);
        let groups = [
            (0xABCu64, 12),
            (u64::MAX, 64),
            (0x1F, 5),
            (0x3_FFFF_FFFF, 34),
        ];
        for (v, bits) in groups {
            w.put(v, bits);
        }
        let words = w.finish();
        let mut at = 39;
        assert_eq!(read_bits(&words, 0, 39), 0x55);
        for (v, bits) in groups {
            assert_eq!(read_bits(&words, at, bits), v);
            at += bits;
        }
        assert_eq!(read_bits(&words, at, 64 - at % 64), 0);
    }
}
