//! `shortstring stats`: how many strings fit each encoding, their lengths,
//! and what short strings save in the dynamic string store.

use crate::format_a::{self, EncodingA};
use crate::format_b::{self, EncodingB};
use crate::tables::Alphabet;
use std::fmt::Write;

pub const A_NAMES: [&str; 9] = [
    "EMPTY",
    "LATIN1",
    "UTF8",
    "NUMERICAL",
    "UPPER",
    "LOWER",
    "ALPHANUM",
    "EUROPEAN",
    "not short",
];
pub const B_NAMES: [&str; 14] = [
    "NUMERICAL",
    "DATE",
    "UPPER",
    "LOWER",
    "EMAIL",
    "URI",
    "ALPHANUM",
    "ALPHASYM",
    "EUROPEAN",
    "LOWERHEX",
    "UPPERHEX",
    "LATIN1",
    "UTF8",
    "not short",
];
/// Length buckets (UTF-16 units, as Neo4j counts), inclusive bounds.
pub const BUCKETS: [(usize, usize); 12] = [
    (0, 0),
    (1, 6),
    (7, 7),
    (8, 9),
    (10, 12),
    (13, 15),
    (16, 27),
    (28, 36),
    (37, 54),
    (55, 60),
    (61, 120),
    (121, usize::MAX),
];

/// 1.3 dynamic store: 133-byte blocks of 120 data bytes, strings in UTF-16.
pub const BLOCK_13: u64 = 133;
/// 1.5+ dynamic store: 128-byte blocks of 120 data bytes, strings in UTF-8.
pub const BLOCK_15: u64 = 128;
pub const BLOCK_DATA: u64 = 120;

/// Which formats a report covers.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Formats {
    A,
    B,
    Both,
}

impl Formats {
    pub(crate) fn a(self) -> bool {
        self != Formats::B
    }
    pub(crate) fn b(self) -> bool {
        self != Formats::A
    }
}

/// Dynamic blocks a string takes; every string takes at least one.
pub fn blocks(data_bytes: u64) -> u64 {
    data_bytes.div_ceil(BLOCK_DATA).max(1)
}

#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub total: u64,
    /// Strings per chosen encoding.
    pub a: [u64; A_NAMES.len()],
    pub b: [u64; B_NAMES.len()],
    /// Strings each encoding could hold on its own.
    pub a_fit: [u64; A_NAMES.len()],
    pub b_fit: [u64; B_NAMES.len()],
    /// Per bucket: (count, short in A, short in B).
    pub hist: [(u64, u64, u64); BUCKETS.len()],
    /// Dynamic store bytes for all strings, and for the short ones only.
    pub dyn13_all: u64,
    pub dyn13_short: u64,
    pub dyn15_all: u64,
    pub dyn15_short: u64,
}

fn a_index(e: Option<EncodingA>) -> usize {
    match e {
        Some(EncodingA::Empty) => 0,
        Some(EncodingA::Latin1) => 1,
        Some(EncodingA::Utf8) => 2,
        Some(EncodingA::Table(a)) => {
            3 + [
                Alphabet::Numerical,
                Alphabet::Upper,
                Alphabet::Lower,
                Alphabet::AlphaNum,
                Alphabet::European,
            ]
            .iter()
            .position(|x| *x == a)
            .expect("format A alphabet")
        }
        None => 8,
    }
}

fn b_index(e: Option<EncodingB>) -> usize {
    match e {
        Some(EncodingB::Table(a)) => B_NAMES
            .iter()
            .position(|n| *n == a.name())
            .expect("format B alphabet"),
        Some(EncodingB::Latin1) => 11,
        Some(EncodingB::Utf8) => 12,
        None => 13,
    }
}

impl Stats {
    pub fn add(&mut self, s: &str) {
        let units = s.encode_utf16().count();
        let a = format_a::encode_with(s).map(|(_, e)| e);
        let b = format_b::encode_with(0, s).map(|(_, e)| e);
        self.total += 1;
        self.a[a_index(a)] += 1;
        self.b[b_index(b)] += 1;
        for e in format_a::fitting(s) {
            self.a_fit[a_index(Some(e))] += 1;
        }
        for e in format_b::fitting(s) {
            self.b_fit[b_index(Some(e))] += 1;
        }
        let k = BUCKETS
            .iter()
            .position(|&(lo, hi)| units >= lo && units <= hi)
            .expect("buckets cover all");
        self.hist[k].0 += 1;
        self.hist[k].1 += a.is_some() as u64;
        self.hist[k].2 += b.is_some() as u64;
        let d13 = BLOCK_13 * blocks(2 * units as u64);
        let d15 = BLOCK_15 * blocks(s.len() as u64);
        self.dyn13_all += d13;
        self.dyn15_all += d15;
        if a.is_some() {
            self.dyn13_short += d13;
        }
        if b.is_some() {
            self.dyn15_short += d15;
        }
    }

    pub fn short_a(&self) -> u64 {
        self.total - self.a[8]
    }

    pub fn short_b(&self) -> u64 {
        self.total - self.b[13]
    }

    fn pct(&self, n: u64) -> String {
        pct(n, self.total)
    }

    /// The report as plain-text tables.
    pub fn report(&self, title: &str, f: Formats) -> String {
        let mut o = String::new();
        let _ = writeln!(o, "== {title}: {} strings", group(self.total));
        if f.a() {
            let _ = writeln!(o, "\nformat A (Neo4j 1.3 ShortString): encoding chosen, and strings each encoding could hold alone:");
            o += &self.encoding_table(&A_NAMES, &self.a, &self.a_fit);
            let _ = writeln!(
                o,
                "short (format A): {} of {} = {}",
                group(self.short_a()),
                group(self.total),
                self.pct(self.short_a())
            );
        }
        if f.b() {
            let _ = writeln!(o, "\nformat B (Neo4j 1.9 LongerShortString): encoding chosen, and strings each encoding could hold alone:");
            o += &self.encoding_table(&B_NAMES, &self.b, &self.b_fit);
            let _ = writeln!(
                o,
                "short (format B): {} of {} = {}",
                group(self.short_b()),
                group(self.total),
                self.pct(self.short_b())
            );
        }
        let _ = writeln!(o, "\nlength histogram (UTF-16 units):");
        let mut head = vec!["length", "strings", "share"];
        if f.a() {
            head.push("short A");
        }
        if f.b() {
            head.push("short B");
        }
        let rows: Vec<Vec<String>> = BUCKETS
            .iter()
            .zip(self.hist)
            .map(|(&b, (n, sa, sb))| {
                let mut r = vec![bucket_label(b), group(n), self.pct(n)];
                if f.a() {
                    r.push(pct(sa, n));
                }
                if f.b() {
                    r.push(pct(sb, n));
                }
                r
            })
            .collect();
        o += &table(&head, &rows);
        let _ = writeln!(o, "\ndynamic string store (at least one block per string):");
        let mut rows = Vec::new();
        if f.a() {
            rows.push(store_row(
                "1.3, 133-B blocks, UTF-16",
                self.dyn13_all,
                self.dyn13_short,
            ));
        }
        if f.b() {
            rows.push(store_row(
                "1.9, 128-B blocks, UTF-8",
                self.dyn15_all,
                self.dyn15_short,
            ));
        }
        o += &table(
            &[
                "store",
                "dynamic-only",
                "with short strings",
                "saved",
                "saved %",
            ],
            &rows,
        );
        o
    }

    fn encoding_table(&self, names: &[&str], chosen: &[u64], fit: &[u64]) -> String {
        let rows: Vec<Vec<String>> = names
            .iter()
            .zip(chosen.iter().zip(fit))
            .map(|(n, (&c, &f))| {
                let fits = if *n == "not short" {
                    "-".to_string()
                } else {
                    self.pct(f)
                };
                vec![n.to_string(), group(c), self.pct(c), fits]
            })
            .collect();
        table(&["encoding", "chosen", "share", "fits"], &rows)
    }
}

fn store_row(name: &str, all: u64, short: u64) -> Vec<String> {
    vec![
        name.to_string(),
        group(all),
        group(all - short),
        group(short),
        pct(short, all),
    ]
}

pub(crate) fn bucket_label((lo, hi): (usize, usize)) -> String {
    match (lo, hi) {
        (lo, usize::MAX) => format!("{lo}+"),
        (lo, hi) if lo == hi => lo.to_string(),
        (lo, hi) => format!("{lo}-{hi}"),
    }
}

pub fn pct(n: u64, of: u64) -> String {
    if of == 0 {
        "-".into()
    } else {
        format!("{:.2}%", 100.0 * n as f64 / of as f64)
    }
}

/// 1234567 -> "1,234,567".
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut o = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            o.push(',');
        }
        o.push(ch);
    }
    o
}

/// Left-aligns the first column, right-aligns the rest.
pub fn table(head: &[&str], rows: &[Vec<String>]) -> String {
    let mut w: Vec<usize> = head.iter().map(|h| h.chars().count()).collect();
    for r in rows {
        for (i, x) in r.iter().enumerate() {
            w[i] = w[i].max(x.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        let mut s = String::new();
        for (i, x) in cells.iter().enumerate() {
            let pad = w[i] - x.chars().count();
            if i == 0 {
                s += &format!("{x}{}", " ".repeat(pad));
            } else {
                s += &format!("  {}{x}", " ".repeat(pad));
            }
        }
        s.trim_end().to_string() + "\n"
    };
    let mut o = line(head.to_vec());
    o += &line(
        w.iter()
            .map(|&n| "-".repeat(n))
            .collect::<Vec<_>>()
            .iter()
            .map(|s| s.as_str())
            .collect(),
    );
    for r in rows {
        o += &line(r.iter().map(|s| s.as_str()).collect());
    }
    o
}

impl Stats {
    pub fn merge(&mut self, o: &Stats) {
        self.total += o.total;
        self.a.iter_mut().zip(o.a).for_each(|(x, y)| *x += y);
        self.b.iter_mut().zip(o.b).for_each(|(x, y)| *x += y);
        self.a_fit
            .iter_mut()
            .zip(o.a_fit)
            .for_each(|(x, y)| *x += y);
        self.b_fit
            .iter_mut()
            .zip(o.b_fit)
            .for_each(|(x, y)| *x += y);
        for (x, y) in self.hist.iter_mut().zip(o.hist) {
            x.0 += y.0;
            x.1 += y.1;
            x.2 += y.2;
        }
        self.dyn13_all += o.dyn13_all;
        self.dyn13_short += o.dyn13_short;
        self.dyn15_all += o.dyn15_all;
        self.dyn15_short += o.dyn15_short;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_and_bytes() {
        let mut s = Stats::default();
        for x in ["", "value", "HELLO WORLD", "hello_world!", &"x".repeat(61)] {
            s.add(x);
        }
        assert_eq!(s.total, 5);
        assert_eq!(s.a[0] + s.a[1] + s.a[4], 3);
        assert_eq!(s.short_a(), 3);
        assert_eq!(s.short_b(), 4);
        // 61 UTF-16 units = 122 bytes = two 1.3 blocks; others one each.
        assert_eq!(s.dyn13_all, 133 * 6);
        assert_eq!(s.dyn13_short, 133 * 3);
        assert_eq!(s.hist.iter().map(|h| h.0).sum::<u64>(), 5);
        // "value" fits LATIN1 and UTF8 in A; "HELLO WORLD" fits UPPER only.
        assert_eq!((s.a_fit[1], s.a_fit[2], s.a_fit[4]), (1, 1, 1));
        let r = s.report("t", Formats::Both);
        assert!(r.contains("short (format A): 3 of 5 = 60.00%"), "{r}");
    }

    #[test]
    fn grouping() {
        assert_eq!(group(0), "0");
        assert_eq!(group(1234567), "1,234,567");
        assert_eq!(group(100), "100");
    }
}
