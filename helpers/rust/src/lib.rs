//! The versus protocol v1 for Rust programs (see `docs/protocol.md`), with no dependencies.
//!
//! A program names its cases and hands a factory to [`run`]: the factory builds the case's
//! [`Workload`] once (its set-up is not timed), then the helper times `iterate(inner)` for each
//! warmup and measured sample, asks for its check and metrics (untimed), calibrating `inner` when `VERSUS_INNER=0`, and prints `hello`,
//! samples, checks, metrics and `end` on stdout.
//!
//! ```no_run
//! use versus_helper::{run, Workload, Metric};
//! struct Sum(Vec<u64>);
//! impl Workload for Sum {
//!     fn iterate(&mut self, inner: u64) -> Result<(), String> {
//!         for _ in 0..inner {
//!             let total: u64 = self.0.iter().sum();
//!             std::hint::black_box(total);
//!         }
//!         Ok(())
//!     }
//!     fn check(&mut self) -> Result<Option<String>, String> {
//!         Ok(Some(self.0.iter().sum::<u64>().to_string()))
//!     }
//!     fn metrics(&mut self) -> Vec<Metric> {
//!         vec![Metric::new("values", self.0.len() as f64, "count")]
//!     }
//! }
//! run(&["sum"], |_case| Ok(Box::new(Sum((0..100).collect())) as Box<dyn Workload>));
//! ```
#![forbid(unsafe_code)]

use std::io::Write;
use std::time::Instant;

/// One case's workload, built once per process.
pub trait Workload {
    /// Runs `inner` iterations: this is what a sample times.
    fn iterate(&mut self, inner: u64) -> Result<(), String>;
    /// The check value after a sample (untimed), or `None` for no check.
    fn check(&mut self) -> Result<Option<String>, String> {
        Ok(None)
    }
    /// Metrics to report after each measured sample (untimed).
    fn metrics(&mut self) -> Vec<Metric> {
        Vec::new()
    }
}

/// A metric: name, value, unit.
#[derive(Clone, Debug, PartialEq)]
pub struct Metric {
    pub name: String,
    pub value: f64,
    pub unit: String,
}

impl Metric {
    pub fn new(name: &str, value: f64, unit: &str) -> Metric {
        Metric {
            name: name.into(),
            value,
            unit: unit.into(),
        }
    }
}

/// An experiment parameter (`VERSUS_PARAM_<NAME>`), if set.
pub fn param(name: &str) -> Option<String> {
    std::env::var(format!("VERSUS_PARAM_{}", name.to_ascii_uppercase())).ok()
}

fn env_u64(name: &str, default: u64) -> Result<u64, String> {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .parse()
            .map_err(|_| format!("{name}={v:?} is not a count")),
        Err(_) => Ok(default),
    }
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON number for a metric: integers print without a fraction; NaN and infinities are refused.
fn json_number(v: f64) -> Result<String, String> {
    if !v.is_finite() {
        return Err(format!("metric value {v} is not a finite number"));
    }
    if v.fract() == 0.0 && v.abs() < 9.0e15 {
        Ok(format!("{}", v as i64))
    } else {
        Ok(format!("{v}"))
    }
}

fn emit(line: &str) {
    let mut out = std::io::stdout().lock();
    // A closed stdout means the harness is gone; nothing sensible is left to do.
    let _ = writeln!(out, "@versus {line}");
    let _ = out.flush();
}

/// The `hello` line's fields.
fn hello() -> String {
    format!(
        "{{\"v\":1,\"type\":\"hello\",\"runtime\":\"rust\",\"version\":{},\"clock\":\"std::time::Instant\",\"impl\":{}}}",
        json_string(env!("VERSUS_RUSTC_VERSION")),
        json_string(&format!("{} {}", std::env::consts::ARCH, std::env::consts::OS)),
    )
}

/// One timed sample: its ns.
fn timed(w: &mut dyn Workload, inner: u64) -> Result<u64, String> {
    let start = Instant::now();
    w.iterate(inner)?;
    Ok(start.elapsed().as_nanos().min(u64::MAX as u128) as u64)
}

/// Grows `inner` until one sample takes at least `min_ns`; returns it. The calibration samples
/// are not reported.
pub fn calibrate(w: &mut dyn Workload, min_ns: u64) -> Result<u64, String> {
    let mut inner = 1u64;
    loop {
        let ns = timed(w, inner)?;
        if ns >= min_ns {
            return Ok(inner);
        }
        // Aim 20% past the target, growing at most 10× per step.
        let factor = if ns == 0 {
            10.0
        } else {
            (min_ns as f64 * 1.2 / ns as f64).min(10.0)
        };
        inner = ((inner as f64 * factor).ceil() as u64).max(inner + 1);
    }
}

/// Speaks protocol v1: `VERSUS_LIST` prints the cases; otherwise builds `VERSUS_CASE`'s workload
/// with `make` and runs its samples. Any error goes to stderr with exit status 1 (and no `end`).
pub fn run(cases: &[&str], make: impl FnOnce(&str) -> Result<Box<dyn Workload>, String>) {
    if let Err(e) = run_inner(cases, make) {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}

fn run_inner(
    cases: &[&str],
    make: impl FnOnce(&str) -> Result<Box<dyn Workload>, String>,
) -> Result<(), String> {
    emit(&hello());
    if std::env::var("VERSUS_LIST").is_ok_and(|v| v == "1") {
        for c in cases {
            emit(&format!(
                "{{\"type\":\"case\",\"name\":{}}}",
                json_string(c)
            ));
        }
        emit("{\"type\":\"end\"}");
        return Ok(());
    }
    let case = std::env::var("VERSUS_CASE").map_err(|_| "VERSUS_CASE is not set".to_string())?;
    if !cases.contains(&case.as_str()) {
        return Err(format!(
            "no case {case:?}; the cases are: {}",
            cases.join(", ")
        ));
    }
    let warmup = env_u64("VERSUS_WARMUP", 1)?;
    let samples = env_u64("VERSUS_SAMPLES", 5)?;
    let min_ns = env_u64("VERSUS_MIN_SAMPLE_NS", 100_000_000)?;
    let mut inner = env_u64("VERSUS_INNER", 0)?;
    let mut w = make(&case)?;
    if inner == 0 {
        inner = calibrate(w.as_mut(), min_ns)?;
    }
    let name = json_string(&case);
    for i in 0..warmup + samples {
        let warm = i < warmup;
        let ns = timed(w.as_mut(), inner)?;
        let check = w.check()?;
        emit(&format!(
            "{{\"type\":\"sample\",\"case\":{name},\"ns\":{ns},\"inner\":{inner},\"warmup\":{warm}}}"
        ));
        if let Some(c) = check {
            emit(&format!(
                "{{\"type\":\"check\",\"case\":{name},\"value\":{}}}",
                json_string(&c)
            ));
        }
        if !warm {
            for m in w.metrics() {
                emit(&format!(
                    "{{\"type\":\"metric\",\"case\":{name},\"name\":{},\"value\":{},\"unit\":{}}}",
                    json_string(&m.name),
                    json_number(m.value)?,
                    json_string(&m.unit)
                ));
            }
        }
    }
    emit("{\"type\":\"end\"}");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_escape() {
        assert_eq!(json_string("a\"b\\c\n\u{1}é"), "\"a\\\"b\\\\c\\n\\u0001é\"");
    }

    #[test]
    fn numbers() {
        assert_eq!(json_number(3.0).unwrap(), "3");
        assert_eq!(json_number(0.25).unwrap(), "0.25");
        assert!(json_number(f64::NAN).is_err());
    }

    struct Spin(u64);
    impl Workload for Spin {
        fn iterate(&mut self, inner: u64) -> Result<(), String> {
            for _ in 0..inner {
                self.0 =
                    std::hint::black_box(self.0.wrapping_mul(6364136223846793005).wrapping_add(1));
                std::thread::sleep(std::time::Duration::from_micros(50));
            }
            Ok(())
        }
    }

    #[test]
    fn calibration_reaches_the_minimum() {
        let mut w = Spin(1);
        let inner = calibrate(&mut w, 2_000_000).unwrap();
        assert!(inner >= 2, "{inner}");
        let ns = timed(&mut w, inner).unwrap();
        assert!(ns >= 2_000_000, "{ns}");
    }
}
