//! gridsat in the browser: the library's verbs behind one entry point, [`call`], that a Web
//! Worker (and the page, for quick drawing and editing) calls with a verb and a JSON request
//! and that answers in JSON. The page's JavaScript keeps only its own state (the draft, undo
//! and redo, what is selected) and draws what comes back; reading, rules, solving, drawing,
//! hit-testing and editing are all here or in the library.
//!
//! - [`draft`]: the board being set, its text and its puzzle;
//! - [`edit`]: changing a draft cell by cell, and Tectonic's pieces;
//! - [`board`]: the draft drawn with what the page lays over it, and hit-testing;
//! - [`verbs`]: check, solutions, candidates, hint / explain / grade, proof;
//! - [`game`]: Shisen-sho played by clicks;
//! - [`generate`]: `gridsat generate` for the page.

pub mod board;
pub mod draft;
pub mod edit;
pub mod game;
pub mod generate;
pub mod verbs;

use draft::Draft;
use gridsat::kinds::{self, AnyPuzzle};
use gridsat::puzzle::Puzzle;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use wasm_bindgen::prelude::wasm_bindgen;

/// Runs `verb` on `request` (JSON) and answers in JSON: the verb's fields with `"ok": true`,
/// or `{"ok": false, "error": "..."}`.
#[wasm_bindgen]
pub fn call(verb: &str, request: &str) -> String {
    let answer = serde_json::from_str::<Value>(request)
        .map_err(|e| format!("a request that is not JSON: {e}"))
        .and_then(|req| dispatch(verb, &req));
    let v = match answer {
        Ok(Value::Object(mut m)) => {
            m.insert("ok".into(), true.into());
            Value::Object(m)
        }
        Ok(other) => json!({ "ok": true, "value": other }),
        Err(e) => json!({ "ok": false, "error": e }),
    };
    v.to_string()
}

/// The panic message of the last panic, for the worker to report (a panic in wasm32 aborts).
#[wasm_bindgen]
pub fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = msg;
        }
    }));
}

static LAST_PANIC: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

/// The message of the last panic (empty when none).
#[wasm_bindgen]
pub fn last_panic() -> String {
    LAST_PANIC.lock().map(|s| s.clone()).unwrap_or_default()
}

/// The library's version, shown on the page.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

fn field<T: for<'de> Deserialize<'de>>(req: &Value, name: &str) -> Result<T, String> {
    let v = req.get(name).cloned().unwrap_or(Value::Null);
    serde_json::from_value(v).map_err(|e| format!("request field `{name}`: {e}"))
}

fn draft_of(req: &Value) -> Result<Draft, String> {
    let d: Draft = field(req, "draft")?;
    d.validate()?;
    Ok(d)
}

/// The draft and its puzzle; the reader's message when it is not one yet.
fn puzzle_of(req: &Value) -> Result<(Draft, AnyPuzzle), String> {
    let d = draft_of(req)?;
    let p = d.puzzle()?;
    Ok((d, p))
}

/// Reads anything the command line reads (every text format, puzz.link URLs, files of URLs),
/// the kind named or detected as `gridsat` detects it (by the file name's extension, then by
/// the content): the first puzzle as a draft, and how many the text holds.
pub fn open(
    text: &str,
    kind: Option<&str>,
    name: &str,
    flags: &BTreeMap<String, String>,
    index: usize,
) -> Result<Value, String> {
    let kind = kind
        .filter(|k| !k.is_empty() && *k != "auto")
        .map(draft::kind_of)
        .transpose()?;
    let opts = draft::read_options(flags)?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // A puzz.link URL alone is a puzzle, as on the command line.
    let label = if name.is_empty() { "pasted" } else { name };
    let all = kinds::read_any(name, label, text, kind, &opts).map_err(|e| e.to_string())?;
    if all.is_empty() {
        return Err("no puzzle in the text".into());
    }
    let first = all
        .get(index.max(1) - 1)
        .ok_or_else(|| format!("the text holds {} puzzles, not {index}", all.len()))?;
    let mut d = Draft::of_puzzle(first);
    for (k, v) in flags {
        d.flags.entry(k.clone()).or_insert_with(|| v.clone());
    }
    let description = gridsat::with_puzzle!(first, q => q.describe());
    Ok(json!({ "draft": d, "count": all.len(), "index": index.max(1), "description": description }))
}

fn dispatch(verb: &str, req: &Value) -> Result<Value, String> {
    match verb {
        "open" => {
            let text: String = field(req, "text")?;
            let kind: Option<String> = field(req, "kind")?;
            let name: Option<String> = field(req, "name")?;
            let flags: Option<BTreeMap<String, String>> = field(req, "flags")?;
            let index: Option<usize> = field(req, "index")?;
            open(
                &text,
                kind.as_deref(),
                name.as_deref().unwrap_or(""),
                &flags.unwrap_or_default(),
                index.unwrap_or(1),
            )
        }
        "new" => {
            let kind = draft::kind_of(&field::<String>(req, "kind")?)?;
            let width: usize = field(req, "width")?;
            let height: Option<usize> = field(req, "height")?;
            let flags: Option<BTreeMap<String, String>> = field(req, "flags")?;
            let d = Draft::blank(
                kind,
                width,
                height.unwrap_or(width),
                flags.unwrap_or_default(),
            )?;
            Ok(json!({ "draft": d }))
        }
        "edit" => {
            let mut d = draft_of(req)?;
            let e: edit::Edit = field(req, "edit")?;
            edit::apply(&mut d, &e)?;
            Ok(json!({ "draft": d }))
        }
        "view" => {
            let d = draft_of(req)?;
            let o: Option<board::Overlay> = field(req, "overlay")?;
            let parsed = d.puzzle();
            let mut o = o.unwrap_or_default();
            let (description, error) = match &parsed {
                Ok(p) => (Some(gridsat::with_puzzle!(p, q => q.describe())), None),
                Err(e) => {
                    // The cells a reader's message names (`given 1 at r1c4 repeats the 1 at
                    // r1c1`) are shaded as a conflict; its own position (`board:1:7`) is not.
                    let words = e.split_once(": ").map_or(e.as_str(), |(_, m)| m);
                    o.conflict.extend(gridsat::draw::named_cells(words));
                    (None, Some(e.clone()))
                }
            };
            Ok(json!({
                "svg": board::svg_of(&d, &o, parsed.as_ref().ok()),
                "description": description,
                "error": error,
                "text": d.text(),
            }))
        }
        "hit" => {
            let d = draft_of(req)?;
            let (x, y): (f64, f64) = (field(req, "x")?, field(req, "y")?);
            let parsed = d.puzzle().ok();
            Ok(json!({ "hit": board::hit(&d, parsed.as_ref(), x, y) }))
        }
        "check" => {
            let (_, p) = puzzle_of(req)?;
            let file: Option<String> = field(req, "file")?;
            let index: Option<usize> = field(req, "index")?;
            verbs::check(&p, file.as_deref().unwrap_or("board"), index.unwrap_or(1))
        }
        "verdict" => {
            // The verdict alone (no drawing): what the page's speed is measured on.
            let (_, p) = puzzle_of(req)?;
            // `repeat`: the same verdict found again and again (the puzzle read once), so a
            // caller's clock times the solving alone.
            let repeat: Option<usize> = field(req, "repeat")?;
            // `givens: false`: the verdict without naming the conflicting givens of a `none`.
            let givens = field::<Option<bool>>(req, "givens")?.unwrap_or(true);
            let mut v = verbs::verdict(&p, givens)?;
            for _ in 1..repeat.unwrap_or(1) {
                v = verbs::verdict(&p, givens)?;
            }
            Ok(v)
        }
        "solutions" => {
            let (_, p) = puzzle_of(req)?;
            verbs::solutions(&p)
        }
        "candidates" => {
            let (d, p) = puzzle_of(req)?;
            verbs::candidates(&d, &p)
        }
        "hint" | "explain" | "grade" => {
            let (_, p) = puzzle_of(req)?;
            let fallback: Option<bool> = field(req, "fallback")?;
            let v = match verb {
                "hint" => verbs::Verb::Hint,
                "explain" => verbs::Verb::Explain,
                _ => verbs::Verb::Grade,
            };
            verbs::explain(&p, v, fallback.unwrap_or(false))
        }
        "proof" => {
            let (_, p) = puzzle_of(req)?;
            verbs::proof(&p)
        }
        "generate" => {
            let r: generate::Request =
                serde_json::from_value(req.clone()).map_err(|e| e.to_string())?;
            let g = generate::generate(&r)?;
            let d = generate::as_draft(&r, &g)?;
            Ok(json!({ "draft": d, "text": g.text(), "notes": g.notes, "grade": g.grade }))
        }
        "export" => {
            let d = draft_of(req)?;
            let format: String = field(req, "format")?;
            export(&d, &format)
        }
        "pair" => {
            let (d, p) = puzzle_of(req)?;
            let (a, b): ((usize, usize), (usize, usize)) = (field(req, "a")?, field(req, "b")?);
            game::remove(&d, &p, a, b)
        }
        "safe" => {
            let (_, p) = puzzle_of(req)?;
            game::safe_move(&p)
        }
        other => Err(format!("unknown verb `{other}`")),
    }
}

/// The draft written out: `text` in its kind's own file format (with its rule directives),
/// `url` as a puzz.link URL (Sudoku, Tectonic, Numberlink), `svg` the puzzle's picture, `share`
/// the fragment that opens it on the page again.
pub fn export(d: &Draft, format: &str) -> Result<Value, String> {
    let parsed = d.puzzle();
    let text = match format {
        "svg" => board::svg_of(d, &board::Overlay::default(), parsed.as_ref().ok()),
        "share" => share_fragment(d),
        "draft" => d.text(),
        "text" | "url" => {
            let p = parsed?;
            let kind = gridsat::with_puzzle!(&p, q => q.kind());
            let f = match (format, kind) {
                ("url", _) => "url",
                (_, gridsat::puzzle::Kind::Sudoku) if d.width <= 9 => "line",
                (_, gridsat::puzzle::Kind::Sudoku) => "grid",
                _ => "text",
            };
            if !kinds::formats(kind).contains(&f) {
                return Err(format!(
                    "pzprjs has no {} genre: no puzz.link URL",
                    kind.name()
                ));
            }
            kinds::write_solutions(f, &[(&p, None)])?
        }
        other => return Err(format!("unknown export format `{other}`")),
    };
    Ok(json!({ "text": text }))
}

/// `text=...&kind=...&FLAG=VALUE`: the URL fragment that opens the draft on the page (the
/// testing contract's form; percent-encoded).
pub fn share_fragment(d: &Draft) -> String {
    let mut s = format!("text={}&kind={}", percent(&d.text()), percent(&d.kind));
    for (k, v) in &d.flags {
        if !v.is_empty() {
            s.push_str(&format!("&{}={}", percent(k), percent(v)));
        }
    }
    s
}

/// Percent-encoding of everything but unreserved characters (RFC 3986).
fn percent(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of the project's `puzzles/`.
    fn puzzle_file(path: &str) -> String {
        let p = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../puzzles")
            .join(path);
        std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
    }

    fn ask(verb: &str, req: Value) -> Value {
        let v: Value = serde_json::from_str(&call(verb, &req.to_string())).unwrap();
        assert_eq!(v["ok"], true, "{verb}: {v}");
        v
    }

    fn opened(path: &str) -> Value {
        let name = path.rsplit('/').next().unwrap();
        ask("open", json!({ "text": puzzle_file(path), "name": name }))["draft"].clone()
    }

    #[test]
    fn every_kind_opens_by_detection_and_gets_its_verdict() {
        for (path, kind, status) in [
            ("sudoku/classic.txt", "sudoku", "unique"),
            ("sudoku/several.txt", "sudoku", "multiple"),
            ("sudoku/none.txt", "sudoku", "none"),
            ("sudoku/6x6.txt", "sudoku", "unique"),
            ("takuzu/unique-6x6.takuzu", "takuzu", "unique"),
            ("takuzu/several-6x6.takuzu", "takuzu", "multiple"),
            ("takuzu/none-6x6.takuzu", "takuzu", "none"),
            ("takuzu/odd-7x7.takuzu", "takuzu", "unique"),
            ("tectonic/first.tectonic", "tectonic", "unique"),
            ("tectonic/several.tectonic", "tectonic", "multiple"),
            ("tectonic/none.tectonic", "tectonic", "none"),
            ("numberlink/flow7.txt", "numberlink", "unique"),
            ("shisen/nikakudori-4x4.shisen", "shisen", "unique"),
        ] {
            let d = opened(path);
            assert_eq!(d["kind"], kind, "{path}");
            let v = ask("check", json!({ "draft": d }));
            assert_eq!(v["status"], status, "{path}: {v}");
            // The live verdict's first answer, before the conflicting givens are named.
            let first = ask("verdict", json!({ "draft": d, "givens": false }));
            assert_eq!(first["status"], status, "{path}: {first}");
            match status {
                "unique" => {
                    assert!(
                        v["text"].as_str().unwrap().lines().count()
                            >= d["height"].as_u64().unwrap() as usize
                    );
                    assert!(v["pictures"][0].as_str().unwrap().starts_with("<?xml"));
                }
                "multiple" => assert!(!v["differing_cells"].as_array().unwrap().is_empty()),
                _ => assert!(v["conflicting_givens"].is_array()),
            }
        }
    }

    #[test]
    fn the_draft_text_reads_back_as_the_same_puzzle() {
        for path in [
            "sudoku/16x16.txt",
            "sudoku/6x6.txt",
            "takuzu/regions-4x6x6.takuzu",
            "takuzu/odd-7x7.takuzu",
            "tectonic/big-20x20.tectonic",
            "tectonic/unique.xml",
            "numberlink/letters.flow",
            "numberlink/nikoli6.txt",
            "shisen/gravity-8x4.shisen",
            "shisen/mahjong.shisen",
        ] {
            let d = opened(path);
            let draft: Draft = serde_json::from_value(d.clone()).unwrap();
            let p = draft
                .puzzle()
                .unwrap_or_else(|e| panic!("{path}: {e}\n{}", draft.text()));
            assert_eq!(Draft::of_puzzle(&p).cells, draft.cells, "{path}");
            assert_eq!(Draft::of_puzzle(&p).pieces, draft.pieces, "{path}");
        }
    }

    #[test]
    fn a_puzzle_set_cell_by_cell_is_checked() {
        // A 4x4 Sudoku entered with edits: first several solutions, then unique.
        let mut d = ask("new", json!({ "kind": "sudoku", "width": 4 }))["draft"].clone();
        let v = ask("check", json!({ "draft": d }));
        assert_eq!(v["status"], "multiple");
        for (row, col, value) in [
            (0, 0, "1"),
            (0, 1, "2"),
            (1, 2, "1"),
            (2, 1, "1"),
            (3, 3, "1"),
            (2, 0, "2"),
            (1, 0, "3"),
        ] {
            d = ask("edit", json!({ "draft": d, "edit": { "op": "set", "row": row, "col": col, "value": value } }))["draft"].clone();
        }
        let v = ask("check", json!({ "draft": d }));
        assert!(
            matches!(v["status"].as_str(), Some("unique" | "multiple")),
            "{v}"
        );
        // A clash in a row is refused by the reader, as on the command line: the board is
        // not a puzzle yet, and both cells are shaded.
        d = ask(
            "edit",
            json!({ "draft": d, "edit": { "op": "set", "row": 0, "col": 3, "value": "1" } }),
        )["draft"]
            .clone();
        let v: Value =
            serde_json::from_str(&call("check", &json!({ "draft": d }).to_string())).unwrap();
        assert_eq!(v["ok"], false);
        let v = ask("view", json!({ "draft": d }));
        assert!(v["error"].as_str().unwrap().contains("r1c4"), "{v}");
        assert_eq!(
            v["svg"]
                .as_str()
                .unwrap()
                .matches("highlight conflict")
                .count(),
            2
        );
    }

    #[test]
    fn a_numberlink_end_placed_once_is_drawn_and_explained() {
        let mut d = ask(
            "new",
            json!({ "kind": "numberlink", "width": 3, "height": 3 }),
        )["draft"]
            .clone();
        d = ask(
            "edit",
            json!({ "draft": d, "edit": { "op": "set", "row": 0, "col": 0, "value": "1" } }),
        )["draft"]
            .clone();
        let v = ask("view", json!({ "draft": d }));
        assert!(v["error"].is_string(), "{v}");
        assert!(v["svg"].as_str().unwrap().contains("class=\"end\""));
        d = ask(
            "edit",
            json!({ "draft": d, "edit": { "op": "set", "row": 2, "col": 2, "value": "1" } }),
        )["draft"]
            .clone();
        let v = ask("view", json!({ "draft": d }));
        assert!(v["error"].is_null(), "{v}");
    }

    #[test]
    fn hint_explain_grade_and_candidates() {
        let d = opened("sudoku/classic.txt");
        let h = ask("hint", json!({ "draft": d }));
        assert_eq!(h["status"], "hint");
        assert!(h["pictures"][0].as_str().unwrap().contains("<svg"));
        let e = ask("explain", json!({ "draft": d }));
        assert_eq!(e["status"], "explained");
        let record: Value = serde_json::from_str(e["record"].as_str().unwrap()).unwrap();
        let steps = record["steps"].as_array().unwrap().len();
        // A picture for each step and one of the end, each with its caption as a line.
        assert_eq!(e["pictures"].as_array().unwrap().len(), steps + 1);
        assert_eq!(e["lines"].as_array().unwrap().len(), steps + 1);
        assert!(e["lines"][0].as_str().unwrap().starts_with("1. "));
        let g = ask("grade", json!({ "draft": d }));
        assert_eq!(g["status"], "graded");
        let c = ask(
            "candidates",
            json!({ "draft": opened("sudoku/several.txt") }),
        );
        let counts = c["counts"].as_array().unwrap();
        assert!(counts
            .iter()
            .flat_map(|r| r.as_array().unwrap())
            .any(|n| n.as_i64() > Some(1)));
    }

    #[test]
    fn shisen_pairs_are_removed_by_the_rules() {
        let d = opened("shisen/nikakudori-4x4.shisen");
        let s = ask("safe", json!({ "draft": d }));
        assert_eq!(s["status"], "clearable");
        let cells = s["cells"].as_array().unwrap();
        let r = ask("pair", json!({ "draft": d, "a": cells[0], "b": cells[1] }));
        let after: Draft = serde_json::from_value(r["draft"].clone()).unwrap();
        assert_eq!(after.cells.iter().filter(|t| t.is_empty()).count(), 2);
        assert!(r["path"].as_array().unwrap().len() >= 2);
        // Two tiles that do not match are refused with a reason.
        let v: Value = serde_json::from_str(&call(
            "pair",
            &json!({ "draft": d, "a": [0, 0], "b": [0, 0] }).to_string(),
        ))
        .unwrap();
        assert_eq!(v["ok"], false);
    }

    #[test]
    fn generate_gives_a_puzzle_of_each_kind() {
        for (kind, size) in [
            ("sudoku", 4),
            ("takuzu", 6),
            ("tectonic", 5),
            ("numberlink", 5),
            ("shisen", 4),
        ] {
            let g = ask("generate", json!({ "kind": kind, "size": size, "seed": 3 }));
            let d = g["draft"].clone();
            assert_eq!(d["kind"], kind);
            let v = ask("check", json!({ "draft": d }));
            assert!(
                matches!(v["status"].as_str(), Some("unique" | "multiple")),
                "{kind}: {v}"
            );
        }
    }

    #[test]
    fn export_and_share() {
        let d = opened("sudoku/classic.txt");
        let url = ask("export", json!({ "draft": d, "format": "url" }));
        assert!(url["text"].as_str().unwrap().contains("sudoku/9/9/"));
        let text = ask("export", json!({ "draft": d, "format": "text" }));
        let back = ask("open", json!({ "text": text["text"] }))["draft"].clone();
        assert_eq!(back["cells"], d["cells"]);
        let share = ask("export", json!({ "draft": d, "format": "share" }));
        assert!(share["text"].as_str().unwrap().starts_with("text="));
        let p = ask("proof", json!({ "draft": d }));
        assert_eq!(p["status"], "unique");
        assert!(p["cnf"].as_str().unwrap().contains("p cnf"));
    }

    #[test]
    fn a_click_names_its_cell() {
        let d = ask("new", json!({ "kind": "sudoku", "width": 9 }))["draft"].clone();
        // 12 units of padding, 40 per cell: the middle of r2c3.
        let h = ask(
            "hit",
            json!({ "draft": d, "x": 12.0 + 2.5 * 40.0, "y": 12.0 + 1.5 * 40.0 }),
        );
        assert_eq!(h["hit"]["row"], 1);
        assert_eq!(h["hit"]["col"], 2);
        let off = ask("hit", json!({ "draft": d, "x": 1.0, "y": 1.0 }));
        assert!(off["hit"].is_null());
    }
}
