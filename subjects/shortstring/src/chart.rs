//! `stats --chart FILE.svg|FILE.png`: the length histogram, drawn with plotters.
//!
//! One grey bar per length bucket holds all its strings; inside it, a coloured bar per format holds
//! the ones that format stores inline, so the grey left above a coloured bar is what stays dynamic.
//!
//! plotters draws SVG, whose text the viewer lays out, so an SVG chart needs no font here. A PNG
//! is that SVG rendered by resvg, which shapes text properly (plotters' own PNG text drops each
//! glyph's side bearing: "form at", "1 20"). resvg needs a TrueType font: DejaVu Sans from Debian's
//! fonts-dejavu-core, found at run time, so that no font is bundled in the crate.

use crate::stats::{bucket_label, group, pct, Formats, Stats, BUCKETS};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use resvg::{tiny_skia, usvg};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const SIZE: (u32, u32) = (1100, 640);
const INK: RGBColor = RGBColor(33, 33, 33);
const MUTED: RGBColor = RGBColor(90, 90, 90);
const ALL: RGBColor = RGBColor(208, 208, 208);
const SHORT_A: RGBColor = RGBColor(31, 119, 180);
const SHORT_B: RGBColor = RGBColor(230, 120, 20);

/// Where Debian's fonts-dejavu-core puts its fonts.
const FONTS: [&str; 2] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf",
];
/// A TrueType font for PNG charts instead of DejaVu Sans.
const FONT_ENV: &str = "SHORTSTRING_FONT";

enum Output {
    Svg,
    /// The fonts resvg renders the text with.
    Png(Arc<usvg::fontdb::Database>),
}

/// A chart to write: its name and font are checked before the scan, which can take minutes.
pub struct Chart {
    path: PathBuf,
    output: Output,
}

impl Chart {
    pub fn new(path: &str) -> Result<Chart, String> {
        let ext = Path::new(path)
            .extension()
            .map(|e| e.to_string_lossy().to_ascii_lowercase());
        let output = match ext.as_deref() {
            Some("svg") => Output::Svg,
            Some("png") => Output::Png(Arc::new(fonts()?)),
            _ => {
                return Err(format!(
                    "--chart {path}: the chart's name must end in .svg or .png"
                ))
            }
        };
        Ok(Chart {
            path: PathBuf::from(path),
            output,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Draws `stats` for the strings of `source` (a file name, or "N files").
    pub fn write(&self, stats: &Stats, source: &str, f: Formats) -> Result<(), String> {
        let svg = svg(stats, source, f)?;
        let bytes = match &self.output {
            Output::Svg => svg.into_bytes(),
            Output::Png(fonts) => png(&svg, fonts)?,
        };
        std::fs::write(&self.path, bytes).map_err(|e| format!("{}: {e}", self.path.display()))
    }
}

/// The chart as an SVG document.
pub fn svg(stats: &Stats, source: &str, f: Formats) -> Result<String, String> {
    let mut out = String::new();
    {
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        draw(&root, stats, source, f)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(out)
}

/// Renders an SVG document to PNG with `fonts` for its text.
fn png(svg: &str, fonts: &Arc<usvg::fontdb::Database>) -> Result<Vec<u8>, String> {
    let options = usvg::Options {
        fontdb: fonts.clone(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(svg, &options).map_err(|e| format!("chart SVG: {e}"))?;
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).ok_or("empty chart")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap.encode_png().map_err(|e| format!("chart PNG: {e}"))
}

/// DejaVu Sans (regular and bold), or the font `SHORTSTRING_FONT` names, as the SVG's sans-serif.
fn fonts() -> Result<usvg::fontdb::Database, String> {
    let paths: Vec<PathBuf> = match std::env::var_os(FONT_ENV) {
        Some(p) => vec![PathBuf::from(p)],
        None => FONTS.iter().map(PathBuf::from).collect(),
    };
    let mut db = usvg::fontdb::Database::new();
    for (i, p) in paths.iter().enumerate() {
        match std::fs::read(p) {
            Ok(bytes) => db.load_font_data(bytes),
            // Without the bold face, resvg makes the title bold from the regular one.
            Err(_) if i > 0 => {}
            Err(e) => {
                return Err(format!(
                    "a PNG chart needs a TrueType font for its text, and {} cannot be read ({e}); \
                     install Debian's fonts-dejavu-core (`apt-get install fonts-dejavu-core`; \
                     `make system-packages` at the top of the repository does it), set \
                     {FONT_ENV} to a .ttf file, or write an SVG chart (--chart FILE.svg)",
                    p.display()
                ))
            }
        }
    }
    let family = db
        .faces()
        .next()
        .and_then(|face| face.families.first())
        .map(|(name, _)| name.clone())
        .ok_or_else(|| format!("{}: not a TrueType font", paths[0].display()))?;
    db.set_sans_serif_family(family);
    Ok(db)
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    stats: &Stats,
    source: &str,
    f: Formats,
) -> Result<(), String> {
    let e = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    root.fill(&WHITE).map_err(e)?;
    let (head, body) = root.split_vertically(84);
    let title = format!("String lengths in {source}");
    head.draw(&Text::new(
        title,
        (28, 18),
        ("sans-serif", 30, FontStyle::Bold).into_font().color(&INK),
    ))
    .map_err(e)?;
    // Per format: its name, colour, short strings in all, and the short count of a bucket.
    type Short = fn(&(u64, u64, u64)) -> u64;
    let mut formats: Vec<(&str, RGBColor, u64, Short)> = Vec::new();
    if f.a() {
        formats.push((
            "format A (Neo4j 1.3 ShortString)",
            SHORT_A,
            stats.short_a(),
            |h| h.1,
        ));
    }
    if f.b() {
        let name = "format B (Neo4j 1.9 LongerShortString)";
        formats.push((name, SHORT_B, stats.short_b(), |h| h.2));
    }
    let subtitle = if stats.total == 0 {
        "no strings".to_string()
    } else {
        let shares: Vec<String> = formats
            .iter()
            .map(|(name, _, n, _)| format!("{} in {name}", pct(*n, stats.total)))
            .collect();
        format!(
            "{} strings; short: {}",
            group(stats.total),
            shares.join(", ")
        )
    };
    head.draw(&Text::new(
        subtitle,
        (28, 54),
        ("sans-serif", 20).into_font().color(&MUTED),
    ))
    .map_err(e)?;

    let n = BUCKETS.len();
    let top = stats.hist.iter().map(|h| h.0).max().unwrap_or(0).max(1);
    // Headroom for the share written above the tallest bar.
    let y_max = top + top / 8;
    // x is in hundredths of a bucket: plotters formats integer axes with our labels, and the
    // bars need fractions of a bucket.
    let centres: Vec<u32> = (0..n as u32).map(|k| k * 100 + 50).collect();
    let mut chart = ChartBuilder::on(&body)
        .margin_left(20)
        .margin_right(28)
        .margin_bottom(16)
        .x_label_area_size(64)
        .y_label_area_size(100)
        .build_cartesian_2d((0..n as u32 * 100).with_key_points(centres), 0..y_max)
        .map_err(e)?;
    let label_of =
        |x: &u32| bucket_label(BUCKETS[(*x as usize / 100).min(n - 1)]).replace('-', "–");
    let count_of = |y: &u64| group(*y);
    chart
        .configure_mesh()
        .disable_x_mesh()
        .light_line_style(TRANSPARENT)
        .bold_line_style(RGBColor(232, 232, 232))
        .axis_style(MUTED)
        .x_desc("Length in UTF-16 code units (as Neo4j counts)")
        .y_desc("Strings")
        .x_label_formatter(&label_of)
        .y_label_formatter(&count_of)
        .label_style(("sans-serif", 18).into_font().color(&INK))
        .axis_desc_style(("sans-serif", 20).into_font().color(&INK))
        .y_labels(8)
        .draw()
        .map_err(e)?;

    chart
        .draw_series((0..n).map(|k| bar(100 * k + 6, 100 * k + 94, stats.hist[k].0, ALL)))
        .map_err(e)?
        .label("all strings (share of the total above each bar)")
        .legend(|(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], ALL.filled()));
    // The coloured bars share the grey bar's width, with a margin on each side.
    let inner = 76 / formats.len();
    for (j, &(name, colour, _, short)) in formats.iter().enumerate() {
        let x0 = |k: usize| 100 * k + 12 + j * inner;
        chart
            .draw_series((0..n).map(|k| bar(x0(k), x0(k) + inner, short(&stats.hist[k]), colour)))
            .map_err(e)?
            .label(format!("short in {name}"))
            .legend(move |(x, y)| Rectangle::new([(x, y - 6), (x + 14, y + 6)], colour.filled()));
    }
    // Each bucket's share of all strings, above its bar.
    let share_style = ("sans-serif", 17)
        .into_font()
        .color(&MUTED)
        .pos(Pos::new(HPos::Center, VPos::Bottom));
    chart
        .draw_series((0..n).map(|k| {
            let count = stats.hist[k].0;
            Text::new(
                share(count, stats.total),
                (100 * k as u32 + 50, count),
                share_style.clone(),
            )
        }))
        .map_err(e)?;
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .margin(12)
        .label_font(("sans-serif", 18).into_font().color(&INK))
        .background_style(WHITE.mix(0.9))
        .border_style(RGBColor(200, 200, 200))
        .draw()
        .map_err(e)?;
    Ok(())
}

fn bar(x0: usize, x1: usize, count: u64, colour: RGBColor) -> Rectangle<(u32, u64)> {
    Rectangle::new([(x0 as u32, 0), (x1 as u32, count)], colour.filled())
}

/// A share with one decimal, enough to compare bars (the text report has two).
fn share(n: u64, of: u64) -> String {
    format!("{:.1}%", 100.0 * n as f64 / of.max(1) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of every `<text>` element, in order.
    fn texts(svg: &str) -> Vec<String> {
        svg.split("<text")
            .skip(1)
            .map(|t| {
                t[t.find('>').unwrap() + 1..t.find("</text>").unwrap()]
                    .trim()
                    .to_string()
            })
            .collect()
    }

    fn stats(largest_bucket: u64) -> Stats {
        let mut s = Stats {
            total: largest_bucket + 300,
            ..Stats::default()
        };
        s.hist[1] = (largest_bucket, largest_bucket - 400, largest_bucket - 10);
        s.hist[6] = (300, 0, 250);
        // Not short, in format A and in format B.
        s.a[8] = 400 + 300;
        s.b[13] = 10 + 50;
        s
    }

    #[test]
    fn ticks_are_round_and_the_text_is_mixed_case() {
        // The hand-written chart this replaced put its ticks at quarters of the largest bucket:
        // 2,606, 5,213, 7,819 and 10,426 here.
        let t = texts(&svg(&stats(10_426), "some.osm.pbf", Formats::Both).unwrap());
        for tick in ["0", "2,000", "4,000", "6,000", "8,000", "10,000"] {
            assert!(t.iter().any(|x| x == tick), "no tick {tick}: {t:?}");
        }
        assert!(!t.iter().any(|x| x == "2,606" || x == "5,213"), "{t:?}");
        for label in [
            "String lengths in some.osm.pbf",
            "10,726 strings; short: 93.47% in format A (Neo4j 1.3 ShortString), 99.44% in format B (Neo4j 1.9 LongerShortString)",
            "Strings",
            "Length in UTF-16 code units (as Neo4j counts)",
            "1–6",
            "121+",
            "97.2%",
            "short in format B (Neo4j 1.9 LongerShortString)",
        ] {
            assert!(t.iter().any(|x| x == label), "no {label:?}: {t:?}");
        }
    }

    #[test]
    fn one_format_and_no_strings() {
        let t = texts(&svg(&stats(5), "a.txt", Formats::A).unwrap());
        assert!(
            t.iter().any(|x| x.starts_with("short in format A")),
            "{t:?}"
        );
        assert!(!t.iter().any(|x| x.contains("format B")), "{t:?}");
        let t = texts(&svg(&Stats::default(), "empty.txt", Formats::Both).unwrap());
        assert!(t.iter().any(|x| x == "no strings"), "{t:?}");
    }

    #[test]
    fn png_text_is_drawn_with_the_font() {
        let fonts = Arc::new(fonts().unwrap_or_else(|e| panic!("{e}")));
        let svg = svg(&stats(10_426), "some.osm.pbf", Formats::Both).unwrap();
        let dark_in_title = |fonts: &Arc<usvg::fontdb::Database>| {
            let png = png(&svg, fonts).unwrap();
            let pixmap = tiny_skia::Pixmap::decode_png(&png).unwrap();
            assert_eq!((pixmap.width(), pixmap.height()), SIZE);
            let mut dark = 0;
            for y in 10..50 {
                for x in 20..600 {
                    let p = pixmap.pixel(x, y).unwrap();
                    dark += (p.red() < 100 && p.green() < 100 && p.blue() < 100) as u32;
                }
            }
            dark
        };
        // resvg leaves out text it has no font for, so the title's ink shows the font was used.
        assert!(dark_in_title(&fonts) > 1000);
        assert_eq!(dark_in_title(&Arc::new(usvg::fontdb::Database::new())), 0);
    }
}
