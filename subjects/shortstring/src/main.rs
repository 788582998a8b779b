//! `shortstring`: encode, decode and string statistics for Neo4j short strings.
#![forbid(unsafe_code)]

use shortstring::{format_a, format_b, hex};
use std::process::ExitCode;

const USAGE: &str = "usage:
  shortstring encode [--format a|b] STRING
  shortstring decode [--format a|b] HEX...
  shortstring stats [--format a|b] [--chart FILE.png|FILE.svg] FILE...
        FILE: strings one per line, or OSM .pbf / .osm (all tag values)
  shortstring store import|read|compare [--mode MODE] --dir DIR FILE...
        MODE: dyn13 (1.3 dynamic-only), short13 (1.3 + format A),
              b19 (1.9-era, format B), view16 (16-byte string views);
        compare runs all four (in DIR/MODE) and prints one table
  --format defaults to a for encode/decode and to both for stats";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Format {
    A,
    B,
}

struct Args {
    format: Option<Format>,
    chart: Option<String>,
    mode: Option<String>,
    dir: Option<String>,
    rest: Vec<String>,
}

fn parse_args(args: &[String]) -> Result<Args, String> {
    let mut a = Args {
        format: None,
        chart: None,
        mode: None,
        dir: None,
        rest: Vec::new(),
    };
    let mut it = args.iter();
    let mut positional_only = false;
    while let Some(x) = it.next() {
        if positional_only {
            a.rest.push(x.clone());
            continue;
        }
        let (flag, inline) = match x.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (x.as_str(), None),
        };
        let mut value = |name: &str| {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or(format!("{name} needs a value"))
        };
        match flag {
            "--" => positional_only = true,
            "--format" | "-f" => {
                a.format = Some(match value("--format")?.to_ascii_lowercase().as_str() {
                    "a" => Format::A,
                    "b" => Format::B,
                    v => return Err(format!("unknown format {v:?} (a or b)")),
                })
            }
            "--chart" => a.chart = Some(value("--chart")?),
            "--mode" => a.mode = Some(value("--mode")?),
            "--dir" => a.dir = Some(value("--dir")?),
            _ => a.rest.push(x.clone()),
        }
    }
    Ok(a)
}

fn run(argv: &[String]) -> Result<ExitCode, String> {
    let (cmd, args) = argv.split_first().ok_or(USAGE)?;
    let a = parse_args(args)?;
    match cmd.as_str() {
        "encode" => {
            let [s] = a.rest.as_slice() else {
                return Err(format!("encode takes one STRING\n{USAGE}"));
            };
            let out = match a.format.unwrap_or(Format::A) {
                Format::A => format_a::encode(s).map(|v| hex::format(&[v])),
                Format::B => format_b::encode(s).map(|b| hex::format(b.as_slice())),
            };
            println!("{}", out.as_deref().unwrap_or("not short"));
            Ok(ExitCode::SUCCESS)
        }
        "decode" => {
            let values = a
                .rest
                .iter()
                .flat_map(|x| x.split_whitespace())
                .map(hex::parse)
                .collect::<Result<Vec<u64>, _>>()?;
            let s = match a.format.unwrap_or(Format::A) {
                Format::A => match values.as_slice() {
                    [v] => format_a::decode(*v)
                        .map_err(|e| format!("invalid format A payload: {e}"))?,
                    _ => return Err("format A takes exactly one 64-bit value".into()),
                },
                Format::B => {
                    format_b::decode(&values)
                        .map_err(|e| format!("invalid format B payload: {e}"))?
                        .1
                }
            };
            println!("{s}");
            Ok(ExitCode::SUCCESS)
        }
        "stats" => {
            if a.rest.is_empty() {
                return Err(format!("stats needs at least one FILE\n{USAGE}"));
            }
            shortstring::stats_cli::run_cli(
                &a.rest,
                a.format.map(|f| f == Format::A),
                a.chart.as_deref(),
            )?;
            Ok(ExitCode::SUCCESS)
        }
        "store" => {
            let (sub, files) = a
                .rest
                .split_first()
                .ok_or(format!("store needs import, read or compare\n{USAGE}"))?;
            if !matches!(sub.as_str(), "import" | "read" | "compare") {
                return Err(format!("unknown store command {sub:?}\n{USAGE}"));
            }
            shortstring::store::cli::run(sub, a.mode.as_deref(), a.dir.as_deref(), files)?;
            Ok(ExitCode::SUCCESS)
        }
        "-h" | "--help" | "help" => {
            println!("{USAGE}");
            Ok(ExitCode::SUCCESS)
        }
        _ => Err(format!("unknown command {cmd:?}\n{USAGE}")),
    }
}

fn main() -> ExitCode {
    let argv: Result<Vec<String>, _> = std::env::args_os()
        .skip(1)
        .map(|a| a.into_string())
        .collect();
    let Ok(argv) = argv else {
        eprintln!("shortstring: error: arguments must be valid UTF-8");
        return ExitCode::FAILURE;
    };
    match run(&argv) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("shortstring: error: {e}");
            ExitCode::FAILURE
        }
    }
}
