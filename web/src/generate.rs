//! Generating on the page, as `gridsat generate KIND` does: the page's choices (size,
//! difficulty, symmetry, seed, the rule flags) become the command line's generation order,
//! and the puzzle comes back as its text (with the `# gridsat ... seed ... grade ...` header),
//! read again by the library as any pasted text would be.

use crate::draft::{read_options, Draft};
use gridsat::generate::Generated;
use gridsat::options::TakuzuWords;
use gridsat::order::{self, Made, Order};
use gridsat::puzzle::Kind;
use serde::Deserialize;
use std::collections::BTreeMap;

/// What the page asks for.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default)]
pub struct Request {
    pub kind: String,
    /// The side (Sudoku, and square boards of the other kinds).
    pub size: Option<usize>,
    pub width: Option<usize>,
    pub height: Option<usize>,
    /// A level word of the kind (`easy`...), `any`, or nothing for the command line's default.
    pub difficulty: Option<String>,
    /// Sudoku: `none`, `rotational`, `quarter-turn`, `mirror`, `diagonal`.
    pub symmetry: Option<String>,
    pub seed: u64,
    /// Rule flags as for reading (`box`, `rules`, `odd-lines`, `regions`, `no-distinct-lines`,
    /// `gravity`, `chinese`, `no-outline`).
    pub flags: BTreeMap<String, String>,
}

fn word(d: &Option<String>) -> Option<&str> {
    d.as_deref().map(str::trim).filter(|w| !w.is_empty())
}

/// The generated puzzle: its text, and the notes the generator left. The page's choices
/// become the command line's generation order ([`gridsat::order`]), so the page and
/// `gridsat generate` take the same words, refuse the same things and make the same puzzle.
pub fn generate(r: &Request) -> Result<Generated, String> {
    let kind = crate::draft::kind_of(&r.kind)?;
    // The rule flags are checked as reading checks them.
    read_options(&r.flags)?;
    let flag = |k: &str| {
        r.flags
            .get(k)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
    };
    let on = |k: &str| flag(k).is_some_and(|v| !matches!(v.as_str(), "0" | "false"));
    let mut o = Order::new(kind);
    // The side, unless width and height are both given (a square's side otherwise fills in).
    if r.width.is_none() || r.height.is_none() {
        o.size = r.size.map(|s| (s, s));
    }
    if kind != Kind::Sudoku {
        o.width = r.width;
        o.height = r.height;
    }
    o.difficulty = word(&r.difficulty).map(str::to_string);
    match kind {
        Kind::Sudoku => {
            o.symmetry = word(&r.symmetry).map(str::to_string);
            o.box_shape = flag("box");
        }
        Kind::Numberlink => o.rules = flag("rules"),
        Kind::Takuzu => {
            o.takuzu = TakuzuWords {
                no_distinct_lines: on("no-distinct-lines"),
                odd_lines: flag("odd-lines"),
                regions: flag("regions"),
                ..TakuzuWords::default()
            }
        }
        Kind::Shisen => {
            o.no_outline = on("no-outline");
            o.gravity = on("gravity");
            o.chinese = on("chinese");
        }
        Kind::Tectonic => {}
    }
    let (plan, notes) = order::plan(&o).map_err(|e| e.to_string())?;
    match plan.make(r.seed).map_err(|e| e.to_string())? {
        Made::Puzzle(mut g) => {
            g.notes.extend(notes);
            Ok(g)
        }
        Made::Missed(why) => Err(why),
    }
}

/// The generated puzzle as a draft (read back by the library, as a pasted text would be).
pub fn as_draft(r: &Request, g: &Generated) -> Result<Draft, String> {
    let kind = crate::draft::kind_of(&r.kind)?;
    let opts = read_options(&r.flags)?;
    let mut all = gridsat::kinds::read("generated", &g.puzzle, kind, &opts)
        .map_err(|e| format!("a generated puzzle does not read back: {e}"))?;
    if all.len() != 1 {
        return Err("a generated puzzle reads back as several".into());
    }
    let mut d = Draft::of_puzzle(&all.remove(0));
    // Flags the reader does not see in the text (Sudoku's box, Numberlink's rules) stay.
    for (k, v) in &r.flags {
        d.flags.entry(k.clone()).or_insert_with(|| v.clone());
    }
    Ok(d)
}
