use std::fmt;

/// Why a payload cannot be decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// The header names a length that encoding never has.
    BadLength { encoding: &'static str, len: u32 },
    /// The header names no known encoding or property type.
    BadHeader(String),
    /// A character code that the table leaves unused.
    BadCode { encoding: &'static str, code: u32 },
    /// UTF-8 bytes that are not valid UTF-8.
    BadUtf8,
    /// Wrong number of 64-bit blocks for the header.
    BadBlockCount { expected: usize, got: usize },
    /// Decodes, but the encoder would never write this payload for that
    /// string (stray bits, or another encoding would have been chosen).
    NonCanonical(String),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::BadLength { encoding, len } => {
                write!(f, "{encoding} never has length {len}")
            }
            DecodeError::BadHeader(m) => write!(f, "bad header: {m}"),
            DecodeError::BadCode { encoding, code } => {
                write!(f, "{encoding} has no character with code {code:#x}")
            }
            DecodeError::BadUtf8 => write!(f, "UTF8 payload is not valid UTF-8"),
            DecodeError::BadBlockCount { expected, got } => {
                write!(f, "header needs {expected} blocks, got {got}")
            }
            DecodeError::NonCanonical(s) => write!(
                f,
                "no encoder writes this payload (it reads as {s:?}, which encodes differently)"
            ),
        }
    }
}

impl std::error::Error for DecodeError {}
