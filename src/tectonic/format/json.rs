//! Tectonic puzzles in JSON:
//!
//! - JSON Lines, one puzzle an object: `{"w": 5, "h": 5, "regions": [0, 0, 1, ...],
//!   "givens": ".3..4..."}` (row-major, `.` or `0` for an empty cell; `id` and `set`, when
//!   present, become the puzzle's source). This is the corpus's normalized form.
//! - puzzlekit's dataset: `{"data": {"1_6x6": {"problem": "6 6\n4 - ...\n1 1 2 ...",
//!   "source": "https://..."}, ...}}`, each problem in the [`super::grid`] layout. Puzzles are
//!   taken in the file's order.

use super::{build, grid, line_col, Pos};
use crate::error::InputError;
use crate::tectonic::Tectonic;
use crate::text::count_of;
use serde::Deserialize;

#[derive(Deserialize)]
struct Record {
    w: usize,
    h: usize,
    regions: Vec<serde_json::Value>,
    givens: String,
    #[serde(default)]
    id: Option<serde_json::Value>,
    #[serde(default)]
    set: Option<String>,
}

/// Every puzzle of a JSON Lines file or a puzzlekit dataset.
pub fn parse(file: &str, text: &str) -> Result<Vec<Tectonic>, InputError> {
    let first = text.lines().position(|l| !l.trim().is_empty()).unwrap_or(0);
    let first_line = text.lines().nth(first).unwrap_or("");
    if serde_json::from_str::<serde_json::Value>(first_line).is_ok_and(|v| v.is_object()) {
        json_lines(file, text)
    } else {
        dataset(file, text)
    }
}

/// True when `text` is Tectonic JSON: JSON Lines whose first record has a top-level
/// `"regions"` array and no `"rules"` object (a Takuzu record keeps its `regions` under
/// `rules`), or a puzzlekit dataset named Suguru or Tectonic (or, without a name, whose
/// problems read as Tectonic grids).
pub fn looks_like(text: &str) -> bool {
    use serde_json::Value;
    let first = text.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    let dataset_like = |v: &Value| v.get("data").is_some_and(Value::is_object);
    match serde_json::from_str::<Value>(first) {
        Ok(v) if v.is_object() && !dataset_like(&v) => {
            v.get("regions").is_some_and(Value::is_array) && v.get("rules").is_none()
        }
        Ok(v) if v.is_object() => is_tectonic_dataset(&v, text),
        _ => serde_json::from_str::<Value>(text)
            .is_ok_and(|v| dataset_like(&v) && is_tectonic_dataset(&v, text)),
    }
}

/// A puzzlekit dataset (`v`, parsed from `text`) of Tectonic puzzles: its `name` says Suguru
/// or Tectonic, or it has no name and reads as Tectonic.
fn is_tectonic_dataset(v: &serde_json::Value, text: &str) -> bool {
    match v.get("name").and_then(|n| n.as_str()) {
        Some(name) => {
            let name = name.to_ascii_lowercase();
            name.contains("suguru") || name.contains("tectonic")
        }
        None => dataset("detect", text).is_ok(),
    }
}

fn json_lines(file: &str, text: &str) -> Result<Vec<Tectonic>, InputError> {
    text.lines()
        .enumerate()
        .filter_map(|(k, line)| json_line(file, k + 1, line))
        .collect()
}

/// The puzzle of one JSON Lines record (`None` for a blank line).
pub fn json_line(file: &str, ln: usize, line: &str) -> Option<Result<Tectonic, InputError>> {
    if line.trim().is_empty() {
        return None;
    }
    Some(json_record(file, ln, line))
}

fn json_record(file: &str, ln: usize, line: &str) -> Result<Tectonic, InputError> {
    let r: Record = serde_json::from_str(line).map_err(|e| {
        InputError::new(
            file,
            ln,
            e.column().max(1),
            format!("expected a puzzle object {{\"w\", \"h\", \"regions\", \"givens\"}}: {e}"),
        )
    })?;
    let key_col = |key: &str| line.find(&format!("\"{key}\"")).map_or(1, |b| b + 1);
    let limit = crate::tectonic::MAX_SIDE;
    if r.w == 0 || r.h == 0 || r.w > limit || r.h > limit {
        return Err(InputError::new(
            file,
            ln,
            key_col(if r.w == 0 || r.w > limit { "w" } else { "h" }),
            format!(
                "a Tectonic must be 1 to {limit} cells wide and high, found {}x{}",
                r.w, r.h
            ),
        ));
    }
    let n = r.w * r.h;
    if r.regions.len() != n {
        return Err(InputError::new(
            file,
            ln,
            key_col("regions"),
            format!(
                "\"regions\" has {} {}, but a {}x{} puzzle has {}",
                r.regions.len(),
                if r.regions.len() == 1 {
                    "entry"
                } else {
                    "entries"
                },
                r.w,
                r.h,
                count_of(n, "cell")
            ),
        ));
    }
    let names: Vec<String> = r
        .regions
        .iter()
        .map(|v| match v {
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        })
        .collect();
    let givens_col = key_col("givens");
    let mut values = Vec::with_capacity(n);
    for (i, c) in r.givens.chars().enumerate() {
        values.push(match c {
            '.' | '0' | '-' => 0,
            '1'..='9' => c as u8 - b'0',
            _ => {
                return Err(InputError::new(
                    file,
                    ln,
                    givens_col,
                    format!(
                        "\"givens\": unexpected `{c}` for cell {}: expected a digit or `.`",
                        i + 1
                    ),
                ))
            }
        });
    }
    if values.len() != n {
        return Err(InputError::new(
            file,
            ln,
            givens_col,
            format!(
                "\"givens\" has {}, but a {}x{} puzzle has {n}",
                count_of(values.len(), "cell"),
                r.w,
                r.h
            ),
        ));
    }
    let source = match (&r.set, &r.id) {
        (_, None) => r.set.clone(),
        (set, Some(id)) => {
            let id = id.as_str().map_or_else(|| id.to_string(), str::to_string);
            Some(match set {
                Some(s) => format!("{s}/{id}"),
                None => id,
            })
        }
    };
    let at: Pos = (ln, 1);
    let givens_at = vec![(ln, givens_col); n];
    let pieces_at = vec![(ln, key_col("regions")); n];
    build(
        file, r.w, r.h, &names, values, source, &givens_at, &pieces_at, at,
    )
}

pub(crate) fn dataset(file: &str, text: &str) -> Result<Vec<Tectonic>, InputError> {
    let v: serde_json::Value = serde_json::from_str(text).map_err(|e| {
        InputError::new(
            file,
            e.line(),
            e.column().max(1),
            format!("malformed JSON: {e}"),
        )
    })?;
    let data = v.get("data").and_then(|d| d.as_object()).ok_or_else(|| {
        InputError::new(
            file,
            1,
            1,
            "expected JSON Lines of puzzles, or a puzzlekit dataset {\"data\": {\"NAME\": {\"problem\": ...}}}",
        )
    })?;
    // The file's order: where each key first appears in the text.
    let mut entries: Vec<(usize, &String, &serde_json::Value)> = data
        .iter()
        .map(|(k, e)| {
            let at = text.find(&format!("\"{k}\"")).unwrap_or(text.len());
            (at, k, e)
        })
        .collect();
    crate::sort::by_key(&mut entries, |&(at, k, _)| (at, k.clone()));
    let mut out = Vec::new();
    for (at, key, e) in entries {
        let pos = line_col(text, at);
        let problem = e.get("problem").and_then(|p| p.as_str()).ok_or_else(|| {
            InputError::new(
                file,
                pos.0,
                pos.1,
                format!("entry \"{key}\" has no \"problem\" text"),
            )
        })?;
        let inner = format!("{file}: entry \"{key}\"");
        let mut ps = grid::parse(&inner, problem).map_err(|e| {
            InputError::new(
                file,
                pos.0,
                pos.1,
                format!(
                    "in the problem of entry \"{key}\", line {} column {}: {}",
                    e.line, e.col, e.message
                ),
            )
        })?;
        if ps.len() != 1 {
            return Err(InputError::new(
                file,
                pos.0,
                pos.1,
                format!(
                    "the problem of entry \"{key}\" holds {} puzzles, expected one",
                    ps.len()
                ),
            ));
        }
        let mut t = ps.pop().expect("one puzzle");
        t.source = Some(
            e.get("source")
                .and_then(|s| s.as_str())
                .filter(|s| !s.is_empty())
                .map_or_else(|| key.clone(), str::to_string),
        );
        out.push(t);
    }
    if out.is_empty() {
        return Err(InputError::new(file, 1, 1, "the dataset holds no puzzle"));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_json_lines() {
        let text = "{\"set\": \"s\", \"id\": \"p1\", \"w\": 2, \"h\": 2, \"regions\": [0, 0, 1, 1], \"givens\": \"2...\"}\n\n{\"w\": 1, \"h\": 1, \"regions\": [7], \"givens\": \".\"}\n";
        let ps = parse("f.jsonl", text).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].givens, vec![2, 0, 0, 0]);
        assert_eq!(ps[0].source.as_deref(), Some("s/p1"));
        assert_eq!(ps[1].region_names, vec!["7"]);
        let e = parse(
            "f",
            "{\"w\": 2, \"h\": 2, \"regions\": [0, 0, 1], \"givens\": \"....\"}",
        )
        .unwrap_err();
        assert_eq!((e.line, e.col), (1, 18));
        assert!(e.message.contains("3 entries"), "{}", e.message);
        let e = parse(
            "f",
            "{\"w\": 2, \"h\": 1, \"regions\": [0, 1], \"givens\": \"2.\"}",
        )
        .unwrap_err();
        assert!(e.message.contains("larger than its piece"), "{}", e.message);
        let e = parse("f", "{\"w\": 1}\n").unwrap_err();
        assert!(e.message.contains("missing field"), "{}", e.message);
    }

    #[test]
    fn recognises_tectonic_json_and_not_takuzu_records() {
        let tectonic = "{\"w\": 2, \"h\": 1, \"regions\": [0, 0], \"givens\": \"..\"}\n";
        assert!(looks_like(tectonic));
        // Regions under `rules`, and a later record that mentions "regions": Takuzu.
        let takuzu = "{\"w\": 2, \"h\": 2, \"rules\": {\"unique_lines\": true}, \"givens\": \"....\"}\n{\"w\": 2, \"h\": 2, \"rules\": {\"regions\": [{\"row\": 0, \"col\": 0, \"size\": 2}]}, \"givens\": \"....\"}\n";
        assert!(!looks_like(takuzu));
        assert!(!looks_like(&takuzu[takuzu.find('\n').unwrap() + 1..]));
        let named = |name: &str| {
            format!(
                "{{\"name\": \"{name}\",\n \"data\": {{\"1\": {{\"problem\": \"1 1\\n-\\n1\"}}}}}}"
            )
        };
        assert!(looks_like(&named("Suguru")));
        assert!(!looks_like(&named("Binairo")));
        // Without a name, a dataset is Tectonic when its problems read as Tectonic grids.
        assert!(looks_like(
            "{\"data\": {\"1\": {\"problem\": \"1 1\\n-\\n1\"}}}"
        ));
        assert!(!looks_like(
            "{\"data\": {\"1\": {\"problem\": \"1 2\\n1 -\"}}}"
        ));
        assert!(!looks_like("{\"data\": [1"));
    }

    #[test]
    fn reads_a_dataset_in_file_order() {
        let text = r#"{"count": 2, "data": {
  "10_1x2": {"problem": "1 2\n- -\n1 1", "source": "https://example.org/10"},
  "9_1x1": {"problem": "1 1\n1\n1"}
}}"#;
        let ps = parse("d.json", text).unwrap();
        assert_eq!(ps.len(), 2);
        assert_eq!((ps[0].width, ps[0].height), (2, 1));
        assert_eq!(ps[0].source.as_deref(), Some("https://example.org/10"));
        assert_eq!(ps[1].source.as_deref(), Some("9_1x1"));
        let bad = text.replace("- -\\n1 1", "- x\\n1 1");
        let e = parse("d.json", &bad).unwrap_err();
        assert_eq!(e.line, 2);
        assert!(
            e.message.contains("entry \"10_1x2\", line 2 column 3"),
            "{}",
            e.message
        );
        let e = parse("d.json", "{\"data\": [}").unwrap_err();
        assert!(e.message.starts_with("malformed JSON"), "{}", e.message);
    }
}
