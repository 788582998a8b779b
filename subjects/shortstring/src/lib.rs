//! Neo4j's short-string codecs, bit for bit: format A (1.3 `ShortString`)
//! and format B (1.9 `LongerShortString`), plus the string statistics and a
//! minimal property store built on them.
#![deny(unsafe_code)]

#[cfg(feature = "chart")]
pub mod chart;
pub mod error;
pub mod format_a;
pub mod format_b;
pub mod hex;
pub mod osm;
mod push;
pub mod source;
pub mod stats;
pub mod stats_cli;
pub mod store;
pub mod tables;
mod words;

pub use error::DecodeError;
