//! Appending decoded characters (all in U+0000..=U+00FF) to a `String`
//! without per-character `String::push` or UTF-8 validation.
//!
//! The crate's only `unsafe`, each block writing bytes that are UTF-8 by
//! construction. Measured with the strings experiment's `decode` case
//! (monaco, format A, 78% of payloads LATIN1; µs per pass, one build each):
//! per-character `String::push` 264–282, `push_str` after `str::from_utf8`
//! 282–292, `extend_from_slice` on the bytes 220, [`push_ascii`]'s one
//! 8-byte store 130.

/// Appends the first `n` (at most 8) bytes of `word`'s big-endian bytes.
///
/// Panics unless all eight bytes are ASCII, so the `String` stays UTF-8.
#[inline]
pub(crate) fn push_ascii(out: &mut String, word: u64, n: usize) {
    assert!(word & 0x8080_8080_8080_8080 == 0 && n <= 8);
    out.reserve(8);
    // SAFETY: only ASCII bytes are written and only `n` of them are exposed, so
    // `out` stays valid UTF-8; `reserve(8)` made room for the 8-byte store.
    #[allow(unsafe_code)]
    unsafe {
        let v = out.as_mut_vec();
        let len = v.len();
        v.as_mut_ptr()
            .add(len)
            .cast::<[u8; 8]>()
            .write_unaligned(word.to_be_bytes());
        v.set_len(len + n);
    }
}

/// Appends Latin-1 `bytes` (each the code point of a character) as UTF-8.
///
/// Without a branch per character: mixed text (Finnish names) mispredicted
/// it. Each character writes two bytes and keeps one or both.
#[inline]
pub(crate) fn push_latin1(out: &mut String, bytes: &[u8]) {
    out.reserve(2 * bytes.len() + 1);
    // SAFETY: `reserve` made room for two bytes per character. Each ASCII
    // byte is kept as it is and every other byte becomes its two-byte UTF-8
    // sequence; the byte after the last kept one is not exposed. So `out`
    // stays valid UTF-8.
    #[allow(unsafe_code)]
    unsafe {
        let v = out.as_mut_vec();
        let start = v.len();
        let mut at = v.as_mut_ptr().add(start);
        for &c in bytes {
            let wide = c >> 7;
            let pair = if wide != 0 {
                [0xC0 | c >> 6, 0x80 | (c & 0x3F)]
            } else {
                [c, 0]
            };
            at.cast::<[u8; 2]>().write_unaligned(pair);
            at = at.add(1 + usize::from(wide));
        }
        let end = at.offset_from(v.as_ptr()) as usize;
        v.set_len(end);
    }
}

#[cfg(test)]
mod tests {
    use super::push_ascii;

    #[test]
    fn appends_leading_bytes() {
        let mut s = String::from("x");
        push_ascii(&mut s, u64::from_be_bytes(*b"abc\0\0\0\0\0"), 3);
        push_ascii(&mut s, u64::from_be_bytes(*b"12345678"), 8);
        push_ascii(&mut s, 0, 0);
        assert_eq!(s, "xabc12345678");
    }

    #[test]
    fn latin1_is_utf8() {
        let all: Vec<u8> = (0..=255).collect();
        let mut s = String::from("é");
        super::push_latin1(&mut s, &all);
        let want: String = std::iter::once('é')
            .chain(all.iter().map(|&c| char::from(c)))
            .collect();
        assert_eq!(s, want);
    }

    #[test]
    #[should_panic]
    fn refuses_non_ascii() {
        push_ascii(&mut String::new(), 0x80 << 56, 1);
    }
}
