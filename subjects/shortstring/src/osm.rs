//! OSM tags (key, value) from `.pbf` (osmpbf) and `.osm` XML (quick-xml); only with
//! the `osm` feature, so the default build stays dependency-free.

use std::path::Path;

#[cfg(not(feature = "osm"))]
const NO_OSM: &str =
    "built without OSM support; rebuild with `cargo build --features osm` (the Makefile does)";

#[cfg(not(feature = "osm"))]
pub fn pbf_tags(path: &Path, _f: &mut dyn FnMut(&str, &str)) -> Result<(), String> {
    Err(format!("{}: {NO_OSM}", path.display()))
}

#[cfg(not(feature = "osm"))]
pub fn xml_tags(path: &Path, _f: &mut dyn FnMut(&str, &str)) -> Result<(), String> {
    Err(format!("{}: {NO_OSM}", path.display()))
}

#[cfg(feature = "osm")]
pub fn pbf_tags(path: &Path, f: &mut dyn FnMut(&str, &str)) -> Result<(), String> {
    use osmpbf::{Element, ElementReader};
    let reader = ElementReader::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    reader
        .for_each(|el| match el {
            Element::Node(n) => n.tags().for_each(|(k, v)| f(k, v)),
            Element::DenseNode(n) => n.tags().for_each(|(k, v)| f(k, v)),
            Element::Way(w) => w.tags().for_each(|(k, v)| f(k, v)),
            Element::Relation(r) => r.tags().for_each(|(k, v)| f(k, v)),
        })
        .map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(feature = "osm")]
pub fn xml_tags(path: &Path, f: &mut dyn FnMut(&str, &str)) -> Result<(), String> {
    use quick_xml::events::Event;
    let err = |e: &dyn std::fmt::Display| format!("{}: {e}", path.display());
    let mut reader = quick_xml::Reader::from_file(path).map_err(|e| err(&e))?;
    let mut buf = Vec::new();
    loop {
        match reader.read_event_into(&mut buf).map_err(|e| err(&e))? {
            Event::Empty(e) | Event::Start(e) if e.name().as_ref() == b"tag" => {
                let (mut k, mut v) = (None, None);
                for a in e.attributes() {
                    let a = a.map_err(|e| err(&e))?;
                    match a.key.as_ref() {
                        b"k" => k = Some(a.unescape_value().map_err(|e| err(&e))?.into_owned()),
                        b"v" => v = Some(a.unescape_value().map_err(|e| err(&e))?.into_owned()),
                        _ => {}
                    }
                }
                if let Some(v) = v {
                    f(k.as_deref().unwrap_or(""), &v);
                }
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
        buf.clear();
    }
}
