//! A minimal property store on disk: property records plus a string store,
//! written and read through the OS, in four layouts:
//!
//! - `dyn13`: Neo4j 1.3 before short strings: 25-byte property records, every
//!   string in the dynamic store (133-byte blocks: 13-byte header + 120 data
//!   bytes, UTF-16BE, chained).
//! - `short13`: the same, with format A inlined in the record's payload.
//! - `b19`: Neo4j 1.9-era: 41-byte records of four 64-bit property blocks,
//!   format B inline, else 128-byte UTF-8 dynamic blocks (8-byte header).
//! - `view16`: Umbra/DuckDB/Arrow StringView: 16 bytes per value (u32 length,
//!   then ≤ 12 inline bytes, or a 4-byte prefix, buffer index and offset into
//!   one data file).
//!
//! Values are written in order and read back by a full scan, in order.
//! Properties are not chained into entities: prev/next ids are "none".

use crate::{format_a, format_b};
use std::fs::{self, File, OpenOptions};
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

const NONE: u32 = u32::MAX;
const IN_USE: u8 = 1;
/// Property types (1.3 and 1.9 numbering).
const TYPE_STRING_13: u32 = 2;
const TYPE_SHORT_STRING: u32 = 11;
const TYPE_STRING_19: u64 = 9;

const REC13: usize = 25;
const BLOCK13: usize = 133;
const HEAD13: usize = 13;
const REC19: usize = 41;
const BLOCK19: usize = 128;
const HEAD19: usize = 8;
const DATA: usize = 120;
const VIEW: usize = 16;
const VIEW_INLINE: usize = 12;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Dyn13,
    Short13,
    B19,
    View16,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Dyn13, Mode::Short13, Mode::B19, Mode::View16];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Dyn13 => "dyn13",
            Mode::Short13 => "short13",
            Mode::B19 => "b19",
            Mode::View16 => "view16",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.name() == s)
    }
}

/// What an import wrote.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Sizes {
    pub values: u64,
    /// Values stored without the dynamic store / data buffer.
    pub inline: u64,
    pub property_bytes: u64,
    pub string_bytes: u64,
}

fn props_path(dir: &Path) -> PathBuf {
    dir.join("properties.store")
}
fn strings_path(dir: &Path) -> PathBuf {
    dir.join("strings.store")
}

fn bad(msg: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, msg.into())
}

/// Writes properties into a fresh store in `dir`.
pub struct Writer {
    mode: Mode,
    dir: PathBuf,
    props: BufWriter<File>,
    strings: BufWriter<File>,
    /// Next free block id (dynamic stores) or byte offset (view16).
    next: u64,
    /// b19: property blocks of the record being filled.
    pending: Vec<u64>,
    sizes: Sizes,
}

impl Writer {
    pub fn create(dir: &Path, mode: Mode) -> io::Result<Writer> {
        fs::create_dir_all(dir)?;
        fs::write(dir.join("mode"), mode.name())?;
        let props = BufWriter::with_capacity(1 << 16, File::create(props_path(dir))?);
        let mut strings = BufWriter::with_capacity(1 << 16, File::create(strings_path(dir))?);
        let mut next = 0;
        // Dynamic stores keep block 0 for their block size.
        let block = match mode {
            Mode::Dyn13 | Mode::Short13 => BLOCK13,
            Mode::B19 => BLOCK19,
            Mode::View16 => 0,
        };
        if block > 0 {
            let mut b = vec![0u8; block];
            b[..4].copy_from_slice(&(block as u32).to_be_bytes());
            strings.write_all(&b)?;
            next = 1;
        }
        Ok(Writer {
            mode,
            dir: dir.to_owned(),
            props,
            strings,
            next,
            pending: Vec::new(),
            sizes: Sizes::default(),
        })
    }

    pub fn put(&mut self, key: u32, s: &str) -> io::Result<()> {
        self.sizes.values += 1;
        match self.mode {
            Mode::Dyn13 | Mode::Short13 => {
                let short = if self.mode == Mode::Short13 {
                    format_a::encode_lossless(s)
                } else {
                    None
                };
                let (ty, payload) = match short {
                    Some(v) => {
                        self.sizes.inline += 1;
                        (TYPE_SHORT_STRING, v)
                    }
                    None => {
                        let bytes: Vec<u8> = s.encode_utf16().flat_map(u16::to_be_bytes).collect();
                        (TYPE_STRING_13, self.write_chain13(&bytes)?)
                    }
                };
                let mut r = [0u8; REC13];
                r[0] = IN_USE;
                r[1..5].copy_from_slice(&ty.to_be_bytes());
                r[5..9].copy_from_slice(&key.to_be_bytes());
                r[9..17].copy_from_slice(&payload.to_be_bytes());
                r[17..21].copy_from_slice(&NONE.to_be_bytes());
                r[21..25].copy_from_slice(&NONE.to_be_bytes());
                self.props.write_all(&r)
            }
            Mode::B19 => {
                let blocks = match format_b::encode_key(key & 0xFF_FFFF, s) {
                    Some(b) => {
                        self.sizes.inline += 1;
                        b.as_slice().to_vec()
                    }
                    None => {
                        let id = self.write_chain19(s.as_bytes())?;
                        vec![(key & 0xFF_FFFF) as u64 | TYPE_STRING_19 << 24 | id << 28]
                    }
                };
                if self.pending.len() + blocks.len() > 4 {
                    self.flush_record19()?;
                }
                self.pending.extend(blocks);
                Ok(())
            }
            Mode::View16 => {
                let b = s.as_bytes();
                let mut v = [0u8; VIEW];
                v[..4].copy_from_slice(&(b.len() as u32).to_le_bytes());
                if b.len() <= VIEW_INLINE {
                    self.sizes.inline += 1;
                    v[4..4 + b.len()].copy_from_slice(b);
                } else {
                    let offset = u32::try_from(self.next)
                        .map_err(|_| bad("view16 data buffer over 4 GiB"))?;
                    v[4..8].copy_from_slice(&b[..4]);
                    v[8..12].copy_from_slice(&0u32.to_le_bytes()); // one buffer
                    v[12..16].copy_from_slice(&offset.to_le_bytes());
                    self.strings.write_all(b)?;
                    self.next += b.len() as u64;
                }
                self.props.write_all(&v)
            }
        }
    }

    /// Writes a chain of 1.3 blocks (at least one); returns the first id.
    fn write_chain13(&mut self, data: &[u8]) -> io::Result<u64> {
        let first = self.next;
        let chunks: Vec<&[u8]> = if data.is_empty() {
            vec![data]
        } else {
            data.chunks(DATA).collect()
        };
        for (i, c) in chunks.iter().enumerate() {
            let id = self.next;
            let prev = if i == 0 { NONE } else { (id - 1) as u32 };
            let next = if i + 1 == chunks.len() {
                NONE
            } else {
                (id + 1) as u32
            };
            let mut b = [0u8; BLOCK13];
            b[0] = IN_USE;
            b[1..5].copy_from_slice(&prev.to_be_bytes());
            b[5..9].copy_from_slice(&(c.len() as u32).to_be_bytes());
            b[9..13].copy_from_slice(&next.to_be_bytes());
            b[HEAD13..HEAD13 + c.len()].copy_from_slice(c);
            self.strings.write_all(&b)?;
            self.next += 1;
        }
        Ok(first)
    }

    /// Writes a chain of 1.9 blocks (at least one); returns the first id.
    fn write_chain19(&mut self, data: &[u8]) -> io::Result<u64> {
        let first = self.next;
        let chunks: Vec<&[u8]> = if data.is_empty() {
            vec![data]
        } else {
            data.chunks(DATA).collect()
        };
        for (i, c) in chunks.iter().enumerate() {
            let next = if i + 1 == chunks.len() {
                NONE
            } else {
                (self.next + 1) as u32
            };
            let mut b = [0u8; BLOCK19];
            b[0] = IN_USE;
            b[1..4].copy_from_slice(&(c.len() as u32).to_be_bytes()[1..]);
            b[4..8].copy_from_slice(&next.to_be_bytes());
            b[HEAD19..HEAD19 + c.len()].copy_from_slice(c);
            self.strings.write_all(&b)?;
            self.next += 1;
        }
        Ok(first)
    }

    fn flush_record19(&mut self) -> io::Result<()> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let mut r = [0u8; REC19];
        r[0] = IN_USE;
        r[1..5].copy_from_slice(&NONE.to_be_bytes());
        r[5..9].copy_from_slice(&NONE.to_be_bytes());
        for (i, b) in self.pending.drain(..).enumerate() {
            r[9 + 8 * i..17 + 8 * i].copy_from_slice(&b.to_be_bytes());
        }
        self.props.write_all(&r)
    }

    /// Flushes everything to the OS (and to disk) and reports the sizes.
    pub fn finish(self) -> io::Result<Sizes> {
        self.finish_with(true)
    }

    /// Like [`Writer::finish`] but without `fsync`: everything is handed to the OS (its page
    /// cache), as a store does between checkpoints. The strings experiment times both.
    pub fn finish_unsynced(self) -> io::Result<Sizes> {
        self.finish_with(false)
    }

    fn finish_with(mut self, sync: bool) -> io::Result<Sizes> {
        self.flush_record19()?;
        for w in [&mut self.props, &mut self.strings] {
            w.flush()?;
            if sync {
                w.get_ref().sync_all()?;
            }
        }
        self.sizes.property_bytes = fs::metadata(props_path(&self.dir))?.len();
        self.sizes.string_bytes = fs::metadata(strings_path(&self.dir))?.len();
        Ok(self.sizes)
    }
}

/// Reads every property of the store in `dir`, in write order.
pub fn scan(dir: &Path, mode: Mode, f: &mut dyn FnMut(u32, String)) -> io::Result<()> {
    let stored = fs::read_to_string(dir.join("mode"))?;
    if stored.trim() != mode.name() {
        return Err(bad(format!(
            "{} holds a {stored} store, not {}",
            dir.display(),
            mode.name()
        )));
    }
    let mut props = BufReader::with_capacity(1 << 16, File::open(props_path(dir))?);
    let strings = OpenOptions::new().read(true).open(strings_path(dir))?;
    let rec = match mode {
        Mode::Dyn13 | Mode::Short13 => REC13,
        Mode::B19 => REC19,
        Mode::View16 => VIEW,
    };
    let mut r = vec![0u8; rec];
    loop {
        match props.read_exact(&mut r) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        }
        match mode {
            Mode::Dyn13 | Mode::Short13 => {
                let ty = u32::from_be_bytes(r[1..5].try_into().expect("4 bytes"));
                let key = u32::from_be_bytes(r[5..9].try_into().expect("4 bytes"));
                let payload = u64::from_be_bytes(r[9..17].try_into().expect("8 bytes"));
                let s = match ty {
                    TYPE_SHORT_STRING => {
                        format_a::decode(payload).map_err(|e| bad(e.to_string()))?
                    }
                    TYPE_STRING_13 => {
                        let bytes = read_chain(&strings, payload, BLOCK13, HEAD13, |b| {
                            let len =
                                u32::from_be_bytes(b[5..9].try_into().expect("4 bytes")) as usize;
                            (
                                len,
                                u32::from_be_bytes(b[9..13].try_into().expect("4 bytes")),
                            )
                        })?;
                        let units: Vec<u16> = bytes
                            .chunks_exact(2)
                            .map(|c| u16::from_be_bytes([c[0], c[1]]))
                            .collect();
                        String::from_utf16(&units).map_err(|e| bad(e.to_string()))?
                    }
                    t => return Err(bad(format!("property type {t}"))),
                };
                f(key, s);
            }
            Mode::B19 => {
                let blocks: Vec<u64> = r[9..]
                    .chunks_exact(8)
                    .map(|c| u64::from_be_bytes(c.try_into().expect("8 bytes")))
                    .collect();
                let mut i = 0;
                while i < blocks.len() && blocks[i] != 0 {
                    let key = (blocks[i] & 0xFF_FFFF) as u32;
                    match (blocks[i] >> 24) & 0xF {
                        11 => {
                            let n = format_b::blocks_needed(blocks[i])
                                .map_err(|e| bad(e.to_string()))?;
                            let slice = blocks
                                .get(i..i + n)
                                .ok_or_else(|| bad("short string past the record"))?;
                            f(
                                key,
                                format_b::decode(slice).map_err(|e| bad(e.to_string()))?.1,
                            );
                            i += n;
                        }
                        TYPE_STRING_19 => {
                            let bytes =
                                read_chain(&strings, blocks[i] >> 28, BLOCK19, HEAD19, |b| {
                                    let len = u32::from_be_bytes([0, b[1], b[2], b[3]]) as usize;
                                    (
                                        len,
                                        u32::from_be_bytes(b[4..8].try_into().expect("4 bytes")),
                                    )
                                })?;
                            f(
                                key,
                                String::from_utf8(bytes).map_err(|e| bad(e.to_string()))?,
                            );
                            i += 1;
                        }
                        t => return Err(bad(format!("property type {t}"))),
                    }
                }
            }
            Mode::View16 => {
                let len = u32::from_le_bytes(r[..4].try_into().expect("4 bytes")) as usize;
                let bytes = if len <= VIEW_INLINE {
                    r[4..4 + len].to_vec()
                } else {
                    let offset = u32::from_le_bytes(r[12..16].try_into().expect("4 bytes")) as u64;
                    let mut b = vec![0u8; len];
                    strings.read_exact_at(&mut b, offset)?;
                    if b[..4] != r[4..8] {
                        return Err(bad("view prefix differs from its data"));
                    }
                    b
                };
                f(0, String::from_utf8(bytes).map_err(|e| bad(e.to_string()))?);
            }
        }
    }
}

/// Follows a chain of dynamic blocks from `first`; `head` gives a block's
/// (data length, next id).
fn read_chain(
    file: &File,
    first: u64,
    size: usize,
    header: usize,
    head: impl Fn(&[u8]) -> (usize, u32),
) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    let mut id = first;
    let mut block = vec![0u8; size];
    let blocks = file.metadata()?.len() / size as u64;
    for _ in 0..blocks {
        if id == 0 || id >= blocks {
            return Err(bad(format!("block id {id} out of range")));
        }
        file.read_exact_at(&mut block, id * size as u64)?;
        let (len, next) = head(&block);
        if block[0] & IN_USE == 0 || len > size - header {
            return Err(bad(format!("bad block {id}")));
        }
        out.extend_from_slice(&block[header..header + len]);
        if next == NONE {
            return Ok(out);
        }
        id = next as u64;
    }
    Err(bad("block chain loops"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Vec<String> {
        let mut v: Vec<String> = [
            "",
            "value",
            "HELLO WORLD",
            "påfågelön",
            "中文",
            "\0中",
            "hello_world!",
            "a;b|c",
            "x",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        v.push("long ".repeat(30)); // two 1.3 blocks, two 1.9 blocks
        v.push("ö".repeat(200));
        v.push("😀".repeat(31));
        for n in 0..60 {
            v.push("k".repeat(n));
        }
        v
    }

    fn roundtrip(mode: Mode) -> Sizes {
        let dir = std::env::temp_dir().join(format!(
            "shortstring-store-test-{}-{}",
            mode.name(),
            std::process::id()
        ));
        let values = sample();
        let mut w = Writer::create(&dir, mode).unwrap();
        for (i, s) in values.iter().enumerate() {
            w.put(i as u32 % 7, s).unwrap();
        }
        let sizes = w.finish().unwrap();
        let mut back = Vec::new();
        scan(&dir, mode, &mut |k, s| back.push((k, s))).unwrap();
        fs::remove_dir_all(&dir).unwrap();
        assert_eq!(back.len(), values.len());
        for (i, ((k, s), orig)) in back.iter().zip(&values).enumerate() {
            assert_eq!(s, orig, "{mode:?} value {i}");
            if mode != Mode::View16 {
                assert_eq!(*k, i as u32 % 7);
            }
        }
        sizes
    }

    #[test]
    fn every_mode_reads_back_what_it_wrote() {
        let n = sample().len() as u64;
        let d = roundtrip(Mode::Dyn13);
        assert_eq!(d.inline, 0);
        assert_eq!(d.property_bytes, 25 * n);
        let s = roundtrip(Mode::Short13);
        assert!(s.inline > 0 && s.string_bytes < d.string_bytes);
        assert_eq!(s.property_bytes, d.property_bytes);
        assert_eq!((s.string_bytes % 133, d.string_bytes % 133), (0, 0));
        let b = roundtrip(Mode::B19);
        assert_eq!((b.property_bytes % 41, b.string_bytes % 128), (0, 0));
        assert!(b.inline > s.inline);
        let v = roundtrip(Mode::View16);
        assert_eq!(v.property_bytes, 16 * n);
    }

    #[test]
    fn scan_refuses_another_mode() {
        let dir =
            std::env::temp_dir().join(format!("shortstring-store-mode-{}", std::process::id()));
        Writer::create(&dir, Mode::B19).unwrap().finish().unwrap();
        assert!(scan(&dir, Mode::Dyn13, &mut |_, _| {}).is_err());
        fs::remove_dir_all(&dir).unwrap();
    }
}

/// The CLI: `store import|read|compare --mode M --dir D FILE...`.
pub mod cli {
    use super::*;
    use crate::source;
    use crate::stats::{group, pct, table};
    use std::collections::HashMap;
    use std::time::Instant;

    /// All (key id, value) pairs of the files; key ids by first appearance.
    pub fn load(files: &[String]) -> Result<Vec<(u32, String)>, String> {
        let mut keys: HashMap<String, u32> = HashMap::new();
        let mut out = Vec::new();
        for f in files {
            source::for_each_tag(Path::new(f), &mut |k, v| {
                let n = keys.len() as u32;
                let id = *keys.entry(k.to_owned()).or_insert(n);
                out.push((id, v.to_owned()));
            })?;
        }
        Ok(out)
    }

    pub fn import(dir: &Path, mode: Mode, values: &[(u32, String)]) -> io::Result<(Sizes, f64)> {
        let t = Instant::now();
        let mut w = Writer::create(dir, mode)?;
        for (k, v) in values {
            w.put(*k, v)?;
        }
        let sizes = w.finish()?;
        Ok((sizes, t.elapsed().as_secs_f64()))
    }

    /// Reads the store back and checks every value; returns the seconds taken.
    pub fn read(dir: &Path, mode: Mode, values: &[(u32, String)]) -> io::Result<f64> {
        let t = Instant::now();
        let mut i = 0usize;
        let mut wrong = None;
        scan(dir, mode, &mut |k, s| {
            let ok = values
                .get(i)
                .is_some_and(|(ek, ev)| *ev == s && (mode == Mode::View16 || *ek == k));
            if !ok && wrong.is_none() {
                wrong = Some(i);
            }
            i += 1;
        })?;
        let secs = t.elapsed().as_secs_f64();
        if let Some(i) = wrong {
            return Err(bad(format!("value {i} read back wrong")));
        }
        if i != values.len() {
            return Err(bad(format!("read {i} values, wrote {}", values.len())));
        }
        Ok(secs)
    }

    pub fn run(
        cmd: &str,
        mode: Option<&str>,
        dir: Option<&str>,
        files: &[String],
    ) -> Result<(), String> {
        let dir = PathBuf::from(dir.ok_or("store needs --dir DIR")?);
        if files.is_empty() {
            return Err("store needs FILE... (strings, .pbf or .osm)".into());
        }
        let values = load(files)?;
        let modes: Vec<Mode> = match mode {
            None | Some("all") if cmd == "compare" => Mode::ALL.to_vec(),
            Some(m) => vec![Mode::parse(m)
                .ok_or(format!("unknown mode {m:?} (dyn13, short13, b19, view16)"))?],
            None => return Err("store import/read need --mode dyn13|short13|b19|view16".into()),
        };
        let io = |e: io::Error| format!("{}: {e}", dir.display());
        let mut rows = Vec::new();
        for m in modes {
            let sub = if cmd == "compare" {
                dir.join(m.name())
            } else {
                dir.clone()
            };
            let (sizes, t_import) = if cmd == "read" {
                (None, 0.0)
            } else {
                import(&sub, m, &values)
                    .map(|(s, t)| (Some(s), t))
                    .map_err(io)?
            };
            let t_read = if cmd == "import" {
                0.0
            } else {
                read(&sub, m, &values).map_err(io)?
            };
            let mut row = vec![m.name().to_string(), group(values.len() as u64)];
            if let Some(s) = sizes {
                row.extend([
                    pct(s.inline, s.values),
                    group(s.property_bytes),
                    group(s.string_bytes),
                    format!("{:.3}", t_import),
                ]);
            } else {
                row.extend(["-".into(), "-".into(), "-".into(), "-".into()]);
            }
            row.push(if cmd == "import" {
                "-".into()
            } else {
                format!("{:.3}", t_read)
            });
            rows.push(row);
        }
        print!(
            "{}",
            table(
                &[
                    "mode",
                    "values",
                    "inline",
                    "property bytes",
                    "string bytes",
                    "import s",
                    "read+check s"
                ],
                &rows
            )
        );
        Ok(())
    }
}
