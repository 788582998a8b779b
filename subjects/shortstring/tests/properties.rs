//! Property tests: round trips, and decode never panics.

use proptest::prelude::*;
use shortstring::{format_a, format_b};

/// 4096 cases each unless PROPTEST_CASES says otherwise.
fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(4096);
    ProptestConfig::with_cases(cases)
}

/// Strings drawn from the characters the encodings care about, so that
/// every encoding and length boundary is reached often.
fn interesting() -> impl Strategy<Value = String> {
    let chars = prop_oneof![
        4 => prop::sample::select(" _.-:/+,'@|;*?&%#()$<>=!\0".chars().collect::<Vec<_>>()),
        4 => prop::char::range('0', '9'),
        4 => prop::char::range('a', 'z'),
        4 => prop::char::range('A', 'Z'),
        2 => prop::char::range('\u{80}', '\u{FF}'),
        1 => prop::char::range('\u{100}', '\u{FFFF}'),
        1 => prop::char::range('\u{10000}', '\u{10FFFF}'),
    ];
    prop::collection::vec(chars, 0..60).prop_map(|v| v.into_iter().collect())
}

/// The jar's format A drops leading U+0000 of the UTF8 form; nothing else may differ.
fn a_roundtrip_ok(s: &str, back: &str) -> bool {
    back == s || back == s.trim_start_matches('\0')
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_roundtrip(s in interesting()) {
        if let Some(v) = format_a::encode(&s) {
            let back = format_a::decode(v).expect("decode of an encoded payload");
            prop_assert!(a_roundtrip_ok(&s, &back), "{:?} -> {:#018X} -> {:?}", s, v, back);
            if format_a::encode_lossless(&s).is_some() {
                prop_assert_eq!(back, s);
            }
        }
    }

    #[test]
    fn a_roundtrip_any(s in any::<String>()) {
        if let Some(v) = format_a::encode(&s) {
            let back = format_a::decode(v).expect("decode of an encoded payload");
            prop_assert!(a_roundtrip_ok(&s, &back));
        }
    }

    #[test]
    fn b_roundtrip(s in interesting(), key in 0u32..(1 << 24)) {
        if let Some(b) = format_b::encode_key(key, &s) {
            prop_assert_eq!(format_b::decode(b.as_slice()), Ok((key, s)));
        }
    }

    #[test]
    fn b_roundtrip_any(s in any::<String>()) {
        if let Some(b) = format_b::encode(&s) {
            prop_assert_eq!(format_b::decode(b.as_slice()), Ok((0, s)));
        }
    }

    #[test]
    fn a_decode_any_payload(v in any::<u64>()) {
        // Whatever decodes must be what the encoder writes for it.
        if let Ok(s) = format_a::decode(v) {
            prop_assert_eq!(format_a::encode(&s), Some(v));
        }
    }

    #[test]
    fn b_decode_any_blocks(v in prop::collection::vec(any::<u64>(), 0..6)) {
        if let Ok((key, s)) = format_b::decode(&v) {
            let b = format_b::encode_key(key, &s).expect("decoded string encodes");
            prop_assert_eq!(b.as_slice(), v.as_slice());
        }
    }

    #[test]
    fn b_decode_plausible_headers(key in 0u64..(1 << 24), enc in 0u64..32, len in 0u64..64, rest in prop::collection::vec(any::<u64>(), 4)) {
        // Valid type nibble, so decoding gets past the header checks.
        let first = key | 11 << 24 | enc << 28 | len << 33 | (rest[0] << 39);
        for n in 1..=4 {
            let mut v = vec![first];
            v.extend_from_slice(&rest[1..n]);
            if let Ok((k, s)) = format_b::decode(&v) {
                let b = format_b::encode_key(k, &s).expect("decoded string encodes");
                prop_assert_eq!(b.as_slice(), v.as_slice());
            }
        }
    }
}

#[test]
fn a_decode_every_top_byte() {
    // Every header byte with a few bodies: never panics.
    for t in 0..=255u64 {
        for body in [0u64, 1, 0x00FF_FFFF_FFFF_FFFF, 0x0012_3456_789A_BCDE] {
            let _ = format_a::decode(t << 56 | body);
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// The chosen form is always among the forms that fit, and something
    /// fits exactly when the encoder finds the string short.
    #[test]
    fn chosen_form_fits(s in interesting()) {
        let fa = format_a::fitting(&s);
        match format_a::encode_with(&s) {
            Some((_, e)) => prop_assert!(fa.contains(&e)),
            None => prop_assert!(fa.is_empty()),
        }
        let fb = format_b::fitting(&s);
        match format_b::encode_with(0, &s) {
            Some((_, e)) => prop_assert!(fb.contains(&e)),
            None => prop_assert!(fb.is_empty()),
        }
    }
}

proptest! {
    #![proptest_config(config())]

    /// Payloads one bit away from a real one: decode's direct validity check
    /// must accept exactly those the encoder writes (it does not re-encode).
    #[test]
    fn a_decode_near_valid_payloads(s in interesting(), bit in 0u32..64) {
        if let Some(v) = format_a::encode(&s) {
            let w = v ^ (1 << bit);
            if let Ok(back) = format_a::decode(w) {
                prop_assert_eq!(format_a::encode(&back), Some(w), "{:#018X} -> {:?}", w, back);
            }
        }
    }

    #[test]
    fn b_decode_near_valid_blocks(s in interesting(), key in 0u32..(1 << 24), bit in 0usize..256) {
        if let Some(b) = format_b::encode_key(key, &s) {
            let mut w = b.as_slice().to_vec();
            if bit / 64 < w.len() {
                w[bit / 64] ^= 1 << (bit % 64);
                if let Ok((k, back)) = format_b::decode(&w) {
                    let again = format_b::encode_key(k, &back).expect("decoded string encodes");
                    prop_assert_eq!(again.as_slice(), w.as_slice(), "{:?}", back);
                }
            }
        }
    }

    /// decode_into reuses its buffer and gives what decode gives.
    #[test]
    fn decode_into_matches_decode(s in interesting(), t in interesting()) {
        let mut buf = String::new();
        for x in [&s, &t] {
            if let Some(v) = format_a::encode(x) {
                prop_assert_eq!(format_a::decode_into(v, &mut buf).map(|_| buf.clone()), format_a::decode(v));
            }
            if let Some(b) = format_b::encode(x) {
                let got = format_b::decode_into(b.as_slice(), &mut buf).map(|k| (k, buf.clone()));
                prop_assert_eq!(got, format_b::decode(b.as_slice()));
            }
        }
    }
}
