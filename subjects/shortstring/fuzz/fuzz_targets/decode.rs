//! Decode of arbitrary bytes: no panic, and whatever decodes re-encodes to
//! exactly the same payload.
#![no_main]

use libfuzzer_sys::fuzz_target;
use shortstring::{format_a, format_b};

fuzz_target!(|data: &[u8]| {
    let longs: Vec<u64> = data
        .chunks(8)
        .map(|c| {
            let mut b = [0u8; 8];
            b[..c.len()].copy_from_slice(c);
            u64::from_le_bytes(b)
        })
        .collect();
    if let Some(&v) = longs.first() {
        if let Ok(s) = format_a::decode(v) {
            assert_eq!(format_a::encode(&s), Some(v));
        }
    }
    if let Ok((key, s)) = format_b::decode(&longs) {
        let b = format_b::encode_key(key, &s).expect("decoded string encodes");
        assert_eq!(b.as_slice(), longs.as_slice());
    }
});
