//! Where strings come from: text files (one per line) or OSM tag values.

use std::fs;
use std::path::Path;

/// Calls `f` with every string in `path`: each line of a text file, or every
/// tag value of an OSM `.pbf` / `.osm` file.
pub fn for_each_string(path: &Path, f: &mut dyn FnMut(&str)) -> Result<(), String> {
    for_each_tag(path, &mut |_, v| f(v))
}

/// Like [`for_each_string`], with the tag key (empty for text files).
pub fn for_each_tag(path: &Path, f: &mut dyn FnMut(&str, &str)) -> Result<(), String> {
    let name = path.to_string_lossy().to_ascii_lowercase();
    if name.ends_with(".pbf") {
        crate::osm::pbf_tags(path, f)
    } else if name.ends_with(".osm") {
        crate::osm::xml_tags(path, f)
    } else {
        let data = fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let text = String::from_utf8(data)
            .map_err(|e| format!("{}: not UTF-8 text: {e}", path.display()))?;
        let text = text.strip_suffix('\n').unwrap_or(&text);
        if text.is_empty() {
            return Ok(());
        }
        for line in text.split('\n') {
            f("", line.strip_suffix('\r').unwrap_or(line));
        }
        Ok(())
    }
}

/// All strings of a file, collected.
pub fn read_strings(path: &Path) -> Result<Vec<String>, String> {
    let mut v = Vec::new();
    for_each_string(path, &mut |s| v.push(s.to_owned()))?;
    Ok(v)
}
