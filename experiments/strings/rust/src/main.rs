//! The strings experiment's Rust program (protocol v1 through `helpers/rust`).
//!
//! Store cases (`write`, `read`, `write_read`) run the shortstring subject's store in the mode
//! `VERSUS_PARAM_MODE` (dyn13, short13, b19, view16) over every tag value of the OSM extract
//! `VERSUS_PARAM_DATASET` (delaware, helsinki, monaco). Codec cases (`encode`, `decode`,
//! `decode_alloc`) run the mode's string encoding over the same tag values: format A (short13),
//! format B (b19), the 1.3 dynamic store's UTF-16BE (dyn13), UTF-8 bytes (view16). `decode`
//! decodes into one reused `String`, as a scan would; `decode_alloc` returns a new `String` per
//! payload, as Neo4j's Java API must. Checks count mismatches: every case's check must be 0.
use shortstring::store::{self, Mode, Sizes, Writer};
use shortstring::{format_a, format_b};
use std::hint::black_box;
use std::path::PathBuf;
use versus_helper::{param, run, Metric, Workload};

const CASES: &[&str] = &[
    "write",
    "read",
    "write_read",
    "encode",
    "decode",
    "decode_alloc",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Pass {
    Encode,
    /// Into one reused buffer.
    Decode,
    /// A new `String` per payload.
    DecodeAlloc,
}

/// The extracts, as `subjects/shortstring/fetch-data.sh` names them.
fn extract(dataset: &str) -> Result<PathBuf, String> {
    let file = match dataset {
        "delaware" => "delaware-latest.osm.pbf",
        "helsinki" => "Helsinki.osm.pbf",
        "monaco" => "monaco-latest.osm.pbf",
        other => {
            return Err(format!(
                "unknown dataset {other:?} (delaware, helsinki, monaco)"
            ))
        }
    };
    let cache = match std::env::var_os("VERSUS_CACHE") {
        Some(c) if !c.is_empty() => PathBuf::from(c),
        _ => {
            PathBuf::from(std::env::var_os("HOME").ok_or("HOME is not set")?).join(".cache/versus")
        }
    };
    let path = cache.join("osm").join(file);
    if !path.is_file() {
        return Err(format!(
            "{}: no OSM extract; fetch the extracts first with `make -C subjects/shortstring data` \
             (or subjects/shortstring/fetch-data.sh)",
            path.display()
        ));
    }
    Ok(path)
}

fn required(name: &str) -> Result<String, String> {
    param(name).ok_or_else(|| {
        format!(
            "parameter {name} is not set (VERSUS_PARAM_{})",
            name.to_uppercase()
        )
    })
}

/// Every (key id, tag value) of the dataset, in file order.
fn load() -> Result<Vec<(u32, String)>, String> {
    let path = extract(&required("dataset")?)?;
    let values = store::cli::load(&[path.to_string_lossy().into_owned()])?;
    if values.is_empty() {
        return Err(format!("{}: no tag values", path.display()));
    }
    Ok(values)
}

fn mode() -> Result<Mode, String> {
    let m = required("mode")?;
    Mode::parse(&m).ok_or_else(|| format!("unknown mode {m:?} (dyn13, short13, b19, view16)"))
}

fn io(e: std::io::Error) -> String {
    e.to_string()
}

/// A store directory for this process, removed at exit.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<TempDir, String> {
        // $TMPDIR, else /tmp: the store is written and read through the OS there.
        let dir = std::env::temp_dir().join(format!("versus-strings-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        Ok(TempDir(dir))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

// ---------------------------------------------------------------- store cases

/// The post's example of a short string.
const HELLO: &str = "hello";

/// The bytes a store of `mode` spends on one property holding `value`: the sizes of a store that
/// holds only it, less those of an empty store (which has its reserved block 0 already).
fn stored_bytes(mode: Mode, value: &str) -> Result<u64, String> {
    let dir = std::env::temp_dir().join(format!("versus-strings-{}-one", std::process::id()));
    let size = |values: &[&str]| -> Result<u64, String> {
        let _ = std::fs::remove_dir_all(&dir);
        let mut w = Writer::create(&dir, mode).map_err(io)?;
        for v in values {
            w.put(0, v).map_err(io)?;
        }
        let s = w.finish_unsynced().map_err(io)?;
        Ok(s.property_bytes + s.string_bytes)
    };
    let (empty, one) = (size(&[]), size(&[value]));
    let _ = std::fs::remove_dir_all(&dir);
    Ok(one? - empty?)
}

#[derive(Clone, Copy, PartialEq)]
enum StoreCase {
    Write,
    Read,
    WriteRead,
}

struct StoreBench {
    case: StoreCase,
    mode: Mode,
    dir: TempDir,
    values: Vec<(u32, String)>,
    sizes: Sizes,
    /// `fsync` at the end of each import (param `fsync`, default 0: hand the files to the OS only).
    fsync: bool,
    /// Mismatches found by the last read (wrong values plus the difference in count).
    wrong: u64,
    /// `write` only: the bytes this mode's store spends on the property "hello" (metric hello_stored_bytes).
    hello_bytes: Option<u64>,
}

impl StoreBench {
    fn new(case: StoreCase) -> Result<StoreBench, String> {
        let mut b = StoreBench {
            case,
            mode: mode()?,
            dir: TempDir::new()?,
            values: load()?,
            sizes: Sizes::default(),
            fsync: match param("fsync").as_deref() {
                None | Some("") | Some("0") => false,
                Some("1") => true,
                Some(other) => {
                    return Err(format!("parameter fsync must be 0 or 1, not {other:?}"))
                }
            },
            wrong: u64::MAX,
            hello_bytes: None,
        };
        if case == StoreCase::Write {
            b.hello_bytes = Some(stored_bytes(b.mode, HELLO)?);
        }
        if case == StoreCase::Read {
            b.write()?; // the store that every sample reads
        }
        Ok(b)
    }

    fn write(&mut self) -> Result<(), String> {
        // A fresh directory each time: truncating files that are still being written back would
        // make ext4 flush them (auto_da_alloc), which is not what a store's import does.
        let _ = std::fs::remove_dir_all(&self.dir.0);
        let mut w = Writer::create(&self.dir.0, self.mode).map_err(io)?;
        for (k, v) in &self.values {
            w.put(*k, v).map_err(io)?;
        }
        self.sizes = if self.fsync {
            w.finish()
        } else {
            w.finish_unsynced()
        }
        .map_err(io)?;
        Ok(())
    }

    /// Reads every value back and compares it with what was written.
    fn read(&mut self) -> Result<(), String> {
        let (values, view) = (&self.values, self.mode == Mode::View16);
        let (mut i, mut wrong) = (0usize, 0u64);
        store::scan(&self.dir.0, self.mode, &mut |k, s| {
            // view16 keeps no key ids, only the string layout.
            let ok = values
                .get(i)
                .is_some_and(|(ek, ev)| *ev == s && (view || *ek == k));
            wrong += u64::from(!ok);
            i += 1;
        })
        .map_err(io)?;
        self.wrong = wrong + (i as u64).abs_diff(values.len() as u64);
        Ok(())
    }
}

impl Workload for StoreBench {
    fn iterate(&mut self, inner: u64) -> Result<(), String> {
        for _ in 0..inner {
            match self.case {
                StoreCase::Write => self.write()?,
                StoreCase::Read => self.read()?,
                StoreCase::WriteRead => {
                    self.write()?;
                    self.read()?;
                }
            }
        }
        Ok(())
    }

    fn check(&mut self) -> Result<Option<String>, String> {
        if self.case == StoreCase::Write {
            self.read()?; // untimed: what the samples wrote must read back
        }
        // Also: the import wrote every value, and its record file has the layout's size.
        let s = &self.sizes;
        let n = self.values.len() as u64;
        let layout_ok = match self.mode {
            Mode::Dyn13 | Mode::Short13 => s.property_bytes == 25 * n,
            Mode::B19 => s.property_bytes.is_multiple_of(41) && s.property_bytes <= 41 * n,
            Mode::View16 => s.property_bytes == 16 * n,
        };
        let bad = self.wrong + s.values.abs_diff(n) + u64::from(!layout_ok);
        Ok(Some(bad.to_string()))
    }

    fn metrics(&mut self) -> Vec<Metric> {
        let s = &self.sizes;
        let mut m = vec![
            Metric::new("string_store_bytes", s.string_bytes as f64, "bytes"),
            Metric::new("property_store_bytes", s.property_bytes as f64, "bytes"),
            Metric::new(
                "store_bytes",
                (s.string_bytes + s.property_bytes) as f64,
                "bytes",
            ),
            Metric::new("values", s.values as f64, "count"),
            Metric::new(
                "inline_fraction",
                s.inline as f64 / s.values.max(1) as f64,
                "fraction",
            ),
        ];
        // The post's "hello": of the bytes its property takes in this store, the share that is not
        // the string's 5 bytes of UTF-8 (hello-overhead-97 bounds it for dyn13).
        if let Some(bytes) = self.hello_bytes {
            m.push(Metric::new("hello_stored_bytes", bytes as f64, "bytes"));
            m.push(Metric::new(
                "hello_overhead",
                1.0 - HELLO.len() as f64 / bytes as f64,
                "fraction",
            ));
        }
        // Short strings proper: Neo4j's formats only (view16's inline values are not short strings).
        if matches!(self.mode, Mode::Short13 | Mode::B19) {
            m.push(Metric::new(
                "short_fraction",
                s.inline as f64 / s.values.max(1) as f64,
                "fraction",
            ));
        }
        m
    }
}

// ---------------------------------------------------------------- codec cases

/// What one mode's codec turns a string into.
enum Payloads {
    A(Vec<u64>),
    B(Vec<format_b::Blocks>),
    Bytes(Vec<Vec<u8>>),
}

/// The 1.3 dynamic store's string bytes (as `store.rs` writes them).
fn utf16be(s: &str) -> Vec<u8> {
    s.encode_utf16().flat_map(u16::to_be_bytes).collect()
}

fn from_utf16be(b: &[u8]) -> Option<String> {
    let units: Vec<u16> = b
        .chunks_exact(2)
        .map(|c| u16::from_be_bytes([c[0], c[1]]))
        .collect();
    String::from_utf16(&units).ok()
}

/// What a failed decode adds to a pass's digest.
const FAILED: u64 = 1 << 40;

struct CodecBench {
    pass: Pass,
    mode: Mode,
    strings: Vec<String>,
    /// The originals of `payloads`, index by index.
    originals: Vec<usize>,
    payloads: Payloads,
    /// Digest of one pass, as computed untimed at set-up, and by the last timed pass.
    expected: u64,
    last: u64,
    /// Strings whose payload does not decode back to them (or does not decode).
    roundtrip_wrong: u64,
}

/// The digest of an encode pass: wrapping sum of every payload long (bytes: length + last byte).
fn bytes_digest(b: &[u8]) -> u64 {
    b.len() as u64 + u64::from(b.last().copied().unwrap_or(0))
}

impl CodecBench {
    fn new(pass: Pass) -> Result<CodecBench, String> {
        let mode = mode()?;
        let strings: Vec<String> = load()?.into_iter().map(|(_, v)| v).collect();
        let mut originals = Vec::new();
        let mut payloads = match mode {
            Mode::Short13 => Payloads::A(Vec::new()),
            Mode::B19 => Payloads::B(Vec::new()),
            Mode::Dyn13 | Mode::View16 => Payloads::Bytes(Vec::new()),
        };
        for (i, s) in strings.iter().enumerate() {
            let fits = match &mut payloads {
                Payloads::A(v) => format_a::encode(s).map(|p| v.push(p)).is_some(),
                Payloads::B(v) => format_b::encode(s).map(|p| v.push(p)).is_some(),
                Payloads::Bytes(v) => {
                    v.push(if mode == Mode::Dyn13 {
                        utf16be(s)
                    } else {
                        s.as_bytes().to_vec()
                    });
                    true
                }
            };
            if fits {
                originals.push(i);
            }
        }
        let mut b = CodecBench {
            pass,
            mode,
            strings,
            originals,
            payloads,
            expected: 0,
            last: 0,
            roundtrip_wrong: 0,
        };
        // Untimed reference: the digest of one pass, and the round trip of every payload.
        b.expected = b.pass();
        b.roundtrip_wrong = b.roundtrip();
        Ok(b)
    }

    fn encode_pass(&self) -> u64 {
        let mut sum = 0u64;
        match self.mode {
            Mode::Short13 => {
                for s in &self.strings {
                    if let Some(p) = format_a::encode(s) {
                        sum = sum.wrapping_add(p);
                    }
                }
            }
            Mode::B19 => {
                for s in &self.strings {
                    // By reference: moving the blocks out copied them with wide loads
                    // that waited on the narrow stores just made.
                    if let Some(b) = &format_b::encode(s) {
                        for &p in b.as_slice() {
                            sum = sum.wrapping_add(p);
                        }
                    }
                }
            }
            Mode::Dyn13 => {
                for s in &self.strings {
                    sum = sum.wrapping_add(bytes_digest(&black_box(utf16be(s))));
                }
            }
            Mode::View16 => {
                for s in &self.strings {
                    sum = sum.wrapping_add(bytes_digest(&black_box(s.as_bytes().to_vec())));
                }
            }
        }
        sum
    }

    fn pass(&self) -> u64 {
        match self.pass {
            Pass::Encode => self.encode_pass(),
            Pass::Decode => self.decode_pass(),
            Pass::DecodeAlloc => self.decode_alloc_pass(),
        }
    }

    /// Decodes every payload into one reused buffer; the digest is the total UTF-8 length (a
    /// failed decode adds 2^40).
    fn decode_pass(&self) -> u64 {
        let mut sum = 0u64;
        let mut buf = String::with_capacity(256);
        match &self.payloads {
            Payloads::A(v) => {
                for &p in v {
                    sum += format_a::decode_into(p, &mut buf)
                        .map_or(FAILED, |()| black_box(&buf).len() as u64);
                }
            }
            Payloads::B(v) => {
                for b in v {
                    sum += format_b::decode_into(b.as_slice(), &mut buf)
                        .map_or(FAILED, |_| black_box(&buf).len() as u64);
                }
            }
            Payloads::Bytes(v) if self.mode == Mode::Dyn13 => {
                for b in v {
                    buf.clear();
                    let units = b.chunks_exact(2).map(|c| u16::from_be_bytes([c[0], c[1]]));
                    let ok = char::decode_utf16(units).try_for_each(|c| c.map(|c| buf.push(c)));
                    sum += ok.map_or(FAILED, |()| black_box(&buf).len() as u64);
                }
            }
            Payloads::Bytes(v) => {
                for b in v {
                    buf.clear();
                    let ok = std::str::from_utf8(b).map(|s| buf.push_str(s));
                    sum += ok.map_or(FAILED, |()| black_box(&buf).len() as u64);
                }
            }
        }
        sum
    }

    /// As [`decode_pass`], with a new `String` per payload.
    fn decode_alloc_pass(&self) -> u64 {
        let mut sum = 0u64;
        match &self.payloads {
            Payloads::A(v) => {
                for &p in v {
                    sum += format_a::decode(p).map_or(FAILED, |s| black_box(s).len() as u64);
                }
            }
            Payloads::B(v) => {
                for b in v {
                    sum += format_b::decode(b.as_slice())
                        .map_or(FAILED, |(_, s)| black_box(s).len() as u64);
                }
            }
            Payloads::Bytes(v) if self.mode == Mode::Dyn13 => {
                for b in v {
                    sum += from_utf16be(b).map_or(FAILED, |s| black_box(s).len() as u64);
                }
            }
            Payloads::Bytes(v) => {
                for b in v {
                    sum += std::str::from_utf8(b)
                        .map_or(FAILED, |s| black_box(s.to_owned()).len() as u64);
                }
            }
        }
        sum
    }

    /// Payloads that do not decode to their original.
    fn roundtrip(&self) -> u64 {
        let mut wrong = 0u64;
        for (j, &i) in self.originals.iter().enumerate() {
            let s = &self.strings[i];
            let back = match &self.payloads {
                Payloads::A(v) => {
                    if format_a::encode_lossless(s).is_none() {
                        continue; // the jar's own lossy case (leading U+0000): not ours to judge here
                    }
                    format_a::decode(v[j]).ok()
                }
                Payloads::B(v) => format_b::decode(v[j].as_slice()).ok().map(|(_, s)| s),
                Payloads::Bytes(v) if self.mode == Mode::Dyn13 => from_utf16be(&v[j]),
                Payloads::Bytes(v) => String::from_utf8(v[j].clone()).ok(),
            };
            wrong += u64::from(back.as_deref() != Some(s.as_str()));
        }
        wrong
    }

    fn short_count(&self) -> usize {
        self.originals.len()
    }

    fn payload_digest(&self) -> u64 {
        let mut sum = 0u64;
        match &self.payloads {
            Payloads::A(v) => v.iter().for_each(|&p| sum = sum.wrapping_add(p)),
            Payloads::B(v) => v
                .iter()
                .flat_map(|b| b.as_slice())
                .for_each(|&p| sum = sum.wrapping_add(p)),
            Payloads::Bytes(v) => v
                .iter()
                .for_each(|b| sum = sum.wrapping_add(bytes_digest(b))),
        }
        sum
    }
}

impl Workload for CodecBench {
    fn iterate(&mut self, inner: u64) -> Result<(), String> {
        for _ in 0..inner {
            self.last = black_box(self.pass());
        }
        Ok(())
    }

    fn check(&mut self) -> Result<Option<String>, String> {
        let bad = self.roundtrip_wrong + u64::from(self.last != self.expected);
        Ok(Some(bad.to_string()))
    }

    fn metrics(&mut self) -> Vec<Metric> {
        let n = self.strings.len();
        let mut m = vec![
            Metric::new("strings", n as f64, "count"),
            Metric::new("payloads", self.short_count() as f64, "count"),
            // Low 48 bits, so the value survives a double: compared with Neo4j's jars by
            // `java -cp experiments/strings/jmh/target/benchmarks.jar versus.strings.Digest`.
            Metric::new(
                "payload_digest",
                (self.payload_digest() & ((1 << 48) - 1)) as f64,
                "digest",
            ),
        ];
        if self.pass != Pass::Encode {
            m.push(Metric::new(
                "decoded_utf8_bytes",
                self.expected as f64,
                "bytes",
            ));
        }
        m
    }
}

fn main() {
    run(CASES, |case| {
        Ok(match case {
            "write" => Box::new(StoreBench::new(StoreCase::Write)?) as Box<dyn Workload>,
            "read" => Box::new(StoreBench::new(StoreCase::Read)?),
            "write_read" => Box::new(StoreBench::new(StoreCase::WriteRead)?),
            "encode" => Box::new(CodecBench::new(Pass::Encode)?),
            "decode" => Box::new(CodecBench::new(Pass::Decode)?),
            "decode_alloc" => Box::new(CodecBench::new(Pass::DecodeAlloc)?),
            other => return Err(format!("no case {other}")),
        })
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16be_round_trips() {
        for s in ["", "abc", "påfågelön", "😀中"] {
            assert_eq!(from_utf16be(&utf16be(s)).as_deref(), Some(s));
        }
    }
}
