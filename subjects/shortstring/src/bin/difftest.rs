//! Differential test driver: generates strings for the Neo4j jar oracle
//! (jvm/ShortStringOracle.java) and compares its answers with ours.
//!
//!   difftest gen COUNT OUT [--seed N] [OSM_OR_TEXT_FILE...]
//!   difftest check IN ORACLE_OUT
#![forbid(unsafe_code)]

use shortstring::hex::{bytes_to_hex, hex_to_bytes};
use shortstring::{format_a, format_b, hex, source};
use std::collections::HashSet;
use std::fs;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::process::ExitCode;

/// SplitMix64: small, seedable, good enough to spread test strings.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len())]
    }
}

/// Lengths at and around every encoding's limits (UTF-16 units or bytes).
const BOUNDARY_LENGTHS: [usize; 30] = [
    0, 1, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 26, 27, 28, 30, 31, 32, 35, 36, 37, 42, 43,
    44, 53, 54, 55, 56,
];

fn pools() -> Vec<Vec<char>> {
    let range = |a: u32, b: u32| (a..=b).filter_map(char::from_u32).collect::<Vec<char>>();
    let mut pools: Vec<Vec<char>> = shortstring::tables::ALL
        .iter()
        .map(|a| {
            (0..(1u32 << a.step()))
                .filter_map(|c| a.decode_char(c))
                .filter_map(|u| char::from_u32(u as u32))
                .collect()
        })
        .collect();
    pools.push(range(0, 0xFF)); // LATIN1
    pools.push(range(0xC0, 0xFF)); // European letters with × and ÷
    pools.push(range(0x100, 0xFFFF)); // rest of the BMP (surrogates skipped)
    pools.push(range(0x10000, 0x10FFFF)); // non-BMP: surrogate pairs in Java
    pools.push("abcxyz0129 .-éüß中文😀\u{7FF}\u{800}".chars().collect()); // UTF-8 widths 1-4
    pools.push(
        "!\"#$%&()*;<=>?[\\]^`{|}~\u{7F}\u{80}\u{D7}\u{F7}\0\t\n\r"
            .chars()
            .collect(),
    );
    pools
}

fn random_string(rng: &mut Rng, pools: &[Vec<char>]) -> String {
    let len = match rng.below(3) {
        0 => *rng.pick(&BOUNDARY_LENGTHS),
        1 => rng.below(17), // format A's range
        _ => rng.below(61),
    };
    let main = rng.pick(pools);
    match rng.below(4) {
        // One alphabet.
        0 | 1 => (0..len).map(|_| *rng.pick(main)).collect(),
        // Two alphabets mixed.
        2 => {
            let other = rng.pick(pools);
            (0..len)
                .map(|_| {
                    if rng.below(2) == 0 {
                        *rng.pick(main)
                    } else {
                        *rng.pick(other)
                    }
                })
                .collect()
        }
        // One alphabet with a single odd character somewhere.
        _ => {
            let odd = rng.pick(pools);
            let at = rng.below(len.max(1));
            (0..len)
                .map(|i| {
                    if i == at {
                        *rng.pick(odd)
                    } else {
                        *rng.pick(main)
                    }
                })
                .collect()
        }
    }
}

fn edge_cases(pools: &[Vec<char>]) -> Vec<String> {
    let mut v: Vec<String> = [
        "",
        "value",
        "中文",
        "12345678",
        "0123456789+,'.-",
        "HELLO WORLD",
        "HelloWor1d",
        "påfågelön",
        "a",
        "1234567890",
        "HELLO_WORLD",
    ]
    .iter()
    .chain(&[
        "1234567890123456",
        "hello_world!",
        "abcdefghijklm",
        "#$#$#$#$",
        "\0中",
        "\0\0😀",
        "a\0中",
        "\0",
        "\0\0\0\0\0\0\0\0",
    ])
    .map(|s| s.to_string())
    .collect();
    for n in 0..=60 {
        for unit in [
            "1", "A", "a", "À", "x", "a1", "F0", "中", "😀", "é", "\u{D7}", "\u{F7}", "\u{FF}",
            "\u{100}", "|", ";", "@", " ", "-", ":",
        ] {
            v.push(unit.repeat(n));
        }
    }
    // Every character of the first 0x180, alone and inside strings of each encoding.
    for c in (0u32..0x180).filter_map(char::from_u32) {
        v.push(c.to_string());
        for (k, pool) in pools.iter().take(11).enumerate() {
            const LENS: [usize; 12] = [7, 8, 9, 10, 12, 15, 27, 31, 36, 37, 43, 54];
            let n = LENS[(c as usize + k) % LENS.len()];
            let mut s: Vec<char> = pool.iter().cycle().take(n - 1).copied().collect();
            s.insert(n / 2, c);
            v.push(s.into_iter().collect());
        }
    }
    v
}

fn gen(args: &[String]) -> Result<(), String> {
    let mut seed = 0x5EED_u64;
    let mut rest = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--seed" {
            seed = it
                .next()
                .ok_or("--seed needs a value")?
                .parse()
                .map_err(|e| format!("--seed: {e}"))?;
        } else {
            rest.push(a.clone());
        }
    }
    let [count, out, files @ ..] = rest.as_slice() else {
        return Err("gen COUNT OUT [--seed N] [FILE...]".into());
    };
    let count: usize = count.parse().map_err(|e| format!("COUNT: {e}"))?;
    let pools = pools();
    let mut strings = edge_cases(&pools);
    strings.truncate(count / 2);
    let n_edge = strings.len();
    // Real strings: distinct values, an even sample up to a quarter of the total.
    let mut real = Vec::new();
    let mut seen = HashSet::new();
    for f in files {
        source::for_each_string(Path::new(f), &mut |s| {
            if seen.insert(s.to_owned()) {
                real.push(s.to_owned());
            }
        })?;
    }
    let want = (count / 4).min(real.len());
    if want > 0 {
        let step = real.len() as f64 / want as f64;
        strings.extend((0..want).map(|i| real[(i as f64 * step) as usize].clone()));
    }
    let n_real = strings.len() - n_edge;
    let mut rng = Rng(seed);
    while strings.len() < count {
        strings.push(random_string(&mut rng, &pools));
    }
    let mut w = BufWriter::new(fs::File::create(out).map_err(|e| format!("{out}: {e}"))?);
    for s in &strings {
        writeln!(w, "{}", bytes_to_hex(s.as_bytes())).map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| e.to_string())?;
    eprintln!("difftest: wrote {} strings ({n_edge} edge cases, {n_real} from data files, {} random, seed {seed})", strings.len(), strings.len() - n_edge - n_real);
    Ok(())
}

#[derive(Default)]
struct Tally {
    short: u64,
    not_short: u64,
    mismatches: u64,
    jar_lossy: u64,
}

fn decode_hex_string(field: &str) -> Result<String, String> {
    if let Some(e) = field.strip_prefix('!') {
        return Err(format!("jar decode threw {e}"));
    }
    String::from_utf8(hex_to_bytes(field)?).map_err(|e| e.to_string())
}

/// Compares one format; returns a description of the mismatch, if any.
fn compare(
    s: &str,
    ours: Option<Vec<u64>>,
    jar_payload: &str,
    jar_decoded: &str,
    decode: impl Fn(&[u64]) -> Result<String, String>,
    lossless: bool,
    t: &mut Tally,
) -> Result<(), String> {
    let jar = if jar_payload == "-" {
        None
    } else {
        Some(
            jar_payload
                .split(',')
                .map(hex::parse)
                .collect::<Result<Vec<u64>, _>>()?,
        )
    };
    if ours != jar {
        return Err(format!("encode: ours {} jar {}", show(&ours), show(&jar)));
    }
    let Some(jar) = jar else {
        t.not_short += 1;
        return Ok(());
    };
    t.short += 1;
    let jar_back = decode_hex_string(jar_decoded)?;
    let our_back = decode(&jar)
        .map_err(|e| format!("our decode of {} failed: {e}", show(&Some(jar.clone()))))?;
    if our_back != jar_back {
        return Err(format!(
            "decode of {}: ours {our_back:?} jar {jar_back:?}",
            show(&Some(jar))
        ));
    }
    if our_back != s {
        // The jar itself gives back another string: allowed only where ours
        // says the encoding is lossy (format A, leading U+0000).
        if lossless {
            return Err(format!(
                "decode of {}: gives {our_back:?}, not the original",
                show(&Some(jar))
            ));
        }
        t.jar_lossy += 1;
    }
    Ok(())
}

fn show(v: &Option<Vec<u64>>) -> String {
    v.as_ref()
        .map(|v| hex::format(v))
        .unwrap_or_else(|| "not short".into())
}

fn check(args: &[String]) -> Result<bool, String> {
    let [input, oracle] = args else {
        return Err("check IN ORACLE_OUT".into());
    };
    let input = fs::read_to_string(input).map_err(|e| format!("{input}: {e}"))?;
    let oracle = fs::read_to_string(oracle).map_err(|e| format!("{oracle}: {e}"))?;
    let (mut ta, mut tb) = (Tally::default(), Tally::default());
    let mut shown = 0;
    let mut lines = 0u64;
    let mut oracle_lines = oracle.lines();
    for (i, line) in input.lines().enumerate() {
        lines += 1;
        let s = String::from_utf8(hex_to_bytes(line)?).map_err(|e| e.to_string())?;
        let o = oracle_lines
            .next()
            .ok_or(format!("oracle output ends at line {}", i + 1))?;
        let f: Vec<&str> = o.split('\t').collect();
        let [a_pay, a_dec, b_pay, b_dec] = f.as_slice() else {
            return Err(format!("oracle line {}: {o:?}", i + 1));
        };
        let ours_a = format_a::encode(&s).map(|v| vec![v]);
        let lossless_a = format_a::encode_lossless(&s).is_some();
        let ra = compare(
            &s,
            ours_a,
            a_pay,
            a_dec,
            |v| format_a::decode(v[0]).map_err(|e| e.to_string()),
            lossless_a,
            &mut ta,
        );
        let ours_b = format_b::encode(&s).map(|b| b.as_slice().to_vec());
        let rb = compare(
            &s,
            ours_b,
            b_pay,
            b_dec,
            |v| format_b::decode(v).map(|x| x.1).map_err(|e| e.to_string()),
            true,
            &mut tb,
        );
        for (name, r, t) in [("A", ra, &mut ta), ("B", rb, &mut tb)] {
            if let Err(e) = r {
                t.mismatches += 1;
                if shown < 20 {
                    shown += 1;
                    eprintln!("MISMATCH format {name} line {} {s:?}: {e}", i + 1);
                }
            }
        }
    }
    if oracle_lines.next().is_some() {
        return Err("oracle output has more lines than the input".into());
    }
    for (name, jar, t) in [
        ("A", "neo4j-kernel 1.3", &ta),
        ("B", "neo4j-kernel 1.9", &tb),
    ] {
        println!(
            "format {name} vs {jar}: {lines} strings, {} short, {} not short, {} mismatches ({} where the jar's own decode loses leading U+0000, as ours does)",
            t.short, t.not_short, t.mismatches, t.jar_lossy
        );
    }
    let failed = ta.mismatches + tb.mismatches;
    println!("difftest: {} passed, {} failed", 2 * lines - failed, failed);
    Ok(failed == 0)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let r = match args.first().map(String::as_str) {
        Some("gen") => gen(&args[1..]).map(|_| true),
        Some("check") => check(&args[1..]),
        _ => Err(
            "usage: difftest gen COUNT OUT [--seed N] [FILE...] | difftest check IN ORACLE_OUT"
                .into(),
        ),
    };
    match r {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("difftest: error: {e}");
            ExitCode::from(2)
        }
    }
}
