//! `shortstring stats FILE…`: the statistics of each file's strings, then of all of them, and the
//! chart. Apart from `stats` so that the statistics do not depend on the chart that draws them.
use crate::stats::{Formats, Stats};
use std::path::Path;

/// The CLI: one report per file, a combined one when there are several.
pub fn run_cli(
    files: &[String],
    format_a: Option<bool>,
    chart: Option<&str>,
) -> Result<(), String> {
    let f = match format_a {
        Some(true) => Formats::A,
        Some(false) => Formats::B,
        None => Formats::Both,
    };
    // The chart's name and font are checked before the scan, which can take minutes.
    #[cfg(feature = "chart")]
    let chart = chart.map(crate::chart::Chart::new).transpose()?;
    #[cfg(not(feature = "chart"))]
    if chart.is_some() {
        return Err("--chart needs the cargo feature `chart`: build with \
                    `make -C subjects/shortstring build` (or `cargo build --features chart`)"
            .into());
    }
    let mut all = Stats::default();
    for file in files {
        let mut s = Stats::default();
        crate::source::for_each_string(Path::new(file), &mut |x| s.add(x))?;
        print!("{}", s.report(file, f));
        println!();
        all.merge(&s);
    }
    if files.len() > 1 {
        print!("{}", all.report("all files", f));
    }
    #[cfg(feature = "chart")]
    if let Some(chart) = chart {
        let source = if files.len() == 1 {
            file_name(&files[0])
        } else {
            format!("{} files", files.len())
        };
        chart.write(&all, &source, f)?;
        eprintln!("chart written to {}", chart.path().display());
    }
    Ok(())
}

#[cfg(feature = "chart")]
fn file_name(p: &str) -> String {
    Path::new(p)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| p.to_string())
}

