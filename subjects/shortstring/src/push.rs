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

/// Appends the first `n` bytes of `buf`, eight at a time. All of `buf` must
/// be ASCII (it panics otherwise); `buf` is padded so every word is whole.
#[inline]
pub(crate) fn push_ascii_padded(out: &mut String, buf: &[u8; 56], n: usize) {
    let n = n.min(buf.len());
    for (k, word) in buf.chunks_exact(8).enumerate().take(n.div_ceil(8)) {
        let word = u64::from_be_bytes(word.try_into().expect("8 bytes"));
        push_ascii(out, word, (n - 8 * k).min(8));
    }
}

/// Appends Latin-1 `bytes` (each the code point of a character) as UTF-8.
#[inline]
pub(crate) fn push_latin1(out: &mut String, bytes: &[u8]) {
    out.reserve(2 * bytes.len());
    // SAFETY: ASCII bytes stay as they are and every other byte becomes its
    // two-byte UTF-8 sequence, so `out` stays valid UTF-8.
    #[allow(unsafe_code)]
    let v = unsafe { out.as_mut_vec() };
    for &c in bytes {
        if c < 0x80 {
            v.push(c);
        } else {
            v.extend_from_slice(&[0xC0 | c >> 6, 0x80 | (c & 0x3F)]);
        }
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
        let mut buf = [b'.'; 56];
        buf[..10].copy_from_slice(b"0123456789");
        super::push_ascii_padded(&mut s, &buf, 10);
        assert_eq!(s, "xabc123456780123456789");
        super::push_ascii_padded(&mut s, &buf, 56);
        assert_eq!(s.len(), 22 + 56);
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

    #[test]
    #[should_panic]
    fn refuses_non_ascii_padding() {
        let mut buf = [0; 56];
        buf[1] = 0xC3;
        super::push_ascii_padded(&mut String::new(), &buf, 1);
    }
}
