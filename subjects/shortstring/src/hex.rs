//! Upper-case hex, 16 digits per 64-bit value, as the CLI prints payloads.

pub fn format(values: &[u64]) -> String {
    values
        .iter()
        .map(|v| format!("{v:016X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Parses one value of 1–16 hex digits (an optional `0x` is allowed).
pub fn parse(s: &str) -> Result<u64, String> {
    let t = s
        .strip_prefix("0x")
        .or_else(|| s.strip_prefix("0X"))
        .unwrap_or(s);
    if t.is_empty() || t.len() > 16 || !t.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Err(format!("not a 64-bit hex value: {s:?}"));
    }
    u64::from_str_radix(t, 16).map_err(|e| e.to_string())
}

/// Hex of arbitrary bytes (lower case), for line-safe transport of strings.
pub fn bytes_to_hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub fn hex_to_bytes(s: &str) -> Result<Vec<u8>, String> {
    if !s.len().is_multiple_of(2) {
        return Err(format!("odd-length hex: {s:?}"));
    }
    let digit = |c: u8| {
        (c as char)
            .to_digit(16)
            .ok_or_else(|| format!("not hex: {s:?}"))
    };
    s.as_bytes()
        .chunks(2)
        .map(|p| Ok((digit(p[0])? << 4 | digit(p[1])?) as u8))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_bytes() {
        assert_eq!(parse("7C000076616C7565"), Ok(0x7C000076616C7565));
        assert_eq!(parse("0x1"), Ok(1));
        assert!(parse("").is_err() && parse("12345678901234567").is_err() && parse("-1").is_err());
        assert_eq!(
            hex_to_bytes(&bytes_to_hex(b"\x00\xffab")),
            Ok(b"\x00\xffab".to_vec())
        );
        assert!(
            hex_to_bytes("zz").is_err()
                && hex_to_bytes("é0").is_err()
                && hex_to_bytes("abc").is_err()
        );
    }
}
