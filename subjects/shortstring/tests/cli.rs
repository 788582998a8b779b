//! The `shortstring` binary end to end.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    run_env(args, &[])
}

fn run_env(args: &[&str], env: &[(&str, &str)]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_shortstring"))
        .args(args)
        .envs(env.iter().copied())
        .output()
        .expect("runs");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn encode_prints_upper_hex() {
    assert_eq!(run(&["encode", "HELLO WORLD"]).1, "2B20AC63C177C984\n");
    assert_eq!(
        run(&["encode", "--format", "a", "value"]).1,
        "7C000076616C7565\n"
    );
    assert_eq!(
        run(&["encode", "--format", "b", "påfågelön"]).1,
        "5CC978129B000000 0000003736D9973A\n"
    );
    assert_eq!(run(&["encode", "--format=b", "a"]).1, "000000824B000000\n");
}

#[test]
fn not_short_exits_zero() {
    assert_eq!(
        run(&["encode", "1234567890123456"]),
        (0, "not short\n".into(), String::new())
    );
    assert_eq!(
        run(&["encode", "--format", "b", &"x".repeat(55)]).1,
        "not short\n"
    );
}

#[test]
fn decode_prints_the_string() {
    assert_eq!(run(&["decode", "F04B992E7CBB1B6E"]).1, "påfågelön\n");
    assert_eq!(
        run(&[
            "decode",
            "--format",
            "b",
            "7B1854163B000000",
            "0000000008C93EFB"
        ])
        .1,
        "HELLO_WORLD\n"
    );
    assert_eq!(
        run(&[
            "decode",
            "--format",
            "b",
            "7B1854163B000000 0000000008C93EFB"
        ])
        .1,
        "HELLO_WORLD\n"
    );
}

#[test]
fn invalid_payload_is_a_clear_error() {
    for args in [
        &["decode", "0000000000000041"][..],
        &["decode", "FFFFFFFFFFFFFFFF"],
        &["decode", "--format", "b", "000000824A000000"],
        &["decode", "--format", "b", "000000824B000000", "0"],
        &["decode", "xyz"],
        &["decode", "1", "2"],
    ] {
        let (code, out, err) = run(args);
        assert_eq!(code, 1, "{args:?}");
        assert!(
            out.is_empty() && err.starts_with("shortstring: error: "),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"));
    }
}

#[test]
fn stats_table_and_chart() {
    let dir = std::env::temp_dir().join(format!("shortstring-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("strings.txt");
    std::fs::write(&input, "hello\nHELLO WORLD\nabcdefghijklm\n12345678\n").unwrap();
    let (code, out, _) = run(&["stats", input.to_str().unwrap()]);
    assert_eq!(code, 0);
    assert!(out.contains("short (format A): 3 of 4 = 75.00%"), "{out}");
    assert!(out.contains("short (format B): 4 of 4 = 100.00%"), "{out}");
    let (code, out, _) = run(&[
        "store",
        "compare",
        "--dir",
        dir.join("store").to_str().unwrap(),
        input.to_str().unwrap(),
    ]);
    assert_eq!(code, 0);
    for m in ["dyn13", "short13", "b19", "view16"] {
        assert!(out.contains(m), "{out}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `stats --chart`: SVG, PNG (1100 x 640), and the errors, which come before the scan.
#[cfg(feature = "chart")]
#[test]
fn stats_chart() {
    let dir = std::env::temp_dir().join(format!("shortstring-chart-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("strings.txt");
    std::fs::write(&input, "hello\nHELLO WORLD\nabcdefghijklm\n12345678\n").unwrap();
    let input = input.to_str().unwrap();
    let (svg, png) = (dir.join("chart.svg"), dir.join("chart.png"));
    let (svg, png) = (svg.to_str().unwrap(), png.to_str().unwrap());
    let (code, out, err) = run(&["stats", "--chart", svg, input]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("short (format A): 3 of 4 = 75.00%"), "{out}");
    let text = std::fs::read_to_string(svg).unwrap();
    assert!(text.contains("String lengths in strings.txt"), "{text}");
    let (code, _, err) = run(&["stats", "--chart", png, input]);
    assert_eq!(code, 0, "{err}");
    let bytes = std::fs::read(png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let be = |i: usize| u32::from_be_bytes(bytes[i..i + 4].try_into().unwrap());
    assert_eq!((be(16), be(20)), (1100, 640), "IHDR width, height");

    let missing = [("SHORTSTRING_FONT", "/nonexistent/font.ttf")];
    let (code, out, err) = run_env(&["stats", "--chart", png, input], &missing);
    assert_eq!(code, 1);
    assert!(out.is_empty(), "the scan should not start: {out}");
    assert!(
        err.contains("/nonexistent/font.ttf") && err.contains("fonts-dejavu-core"),
        "{err}"
    );
    // SVG leaves the text to its viewer, so it needs no font.
    assert_eq!(run_env(&["stats", "--chart", svg, input], &missing).0, 0);
    let (code, out, err) = run(&["stats", "--chart", "chart.jpg", input]);
    assert_eq!(code, 1);
    assert!(out.is_empty() && err.contains(".svg or .png"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[cfg(not(feature = "chart"))]
#[test]
fn stats_chart_needs_the_feature() {
    let (code, out, err) = run(&["stats", "--chart", "x.png", "no-such-file.txt"]);
    assert_eq!(code, 1);
    assert!(out.is_empty() && err.contains("feature `chart`"), "{err}");
}

#[cfg(feature = "osm")]
#[test]
fn stats_and_store_read_osm_xml() {
    let dir = std::env::temp_dir().join(format!("shortstring-osm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let osm = dir.join("tiny.osm");
    std::fs::write(
        &osm,
        r#"<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
 <node id="1" lat="0" lon="0"><tag k="name" v="Caf&#233; &amp; Bar"/><tag k="amenity" v="cafe"/></node>
 <way id="2"><nd ref="1"/><tag k="highway" v="residential"/></way>
 <node id="3" lat="0" lon="0"/>
</osm>"#,
    )
    .unwrap();
    let (code, out, err) = run(&["stats", "--format", "a", osm.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(": 3 strings"), "{out}");
    let (code, out, err) = run(&[
        "store",
        "compare",
        "--dir",
        dir.join("s").to_str().unwrap(),
        osm.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("b19"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}
