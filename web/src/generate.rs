//! Generating on the page, as `gridsat generate KIND` does: the page's choices (size,
//! difficulty, symmetry, seed, the rule flags) become the kind's generator options with the
//! command line's defaults, and the puzzle comes back as its text (with the `# gridsat ...
//! seed ... grade ...` header), read again by the library as any pasted text would be.

use crate::draft::{read_options, Draft};
use gridsat::generate::Generated;
use gridsat::puzzle::Kind;
use gridsat::{numberlink, shisen, sudoku, takuzu, tectonic};
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

/// The generated puzzle: its text, and the notes the generator left.
pub fn generate(r: &Request) -> Result<Generated, String> {
    let kind = crate::draft::kind_of(&r.kind)?;
    let opts = read_options(&r.flags)?;
    let usage = |e: gridsat::error::Error| e.to_string();
    let square = |default: usize| {
        let side = r.size.unwrap_or(default);
        (r.width.unwrap_or(side), r.height.unwrap_or(side))
    };
    match kind {
        Kind::Sudoku => {
            let size = r.size.or(r.width).unwrap_or(9);
            let (br, bc) = match opts.box_shape {
                Some(b) => b,
                None => sudoku::default_box(size).ok_or_else(|| {
                    format!("a {size}x{size} Sudoku has no usual box shape; give one (box RxC)")
                })?,
            };
            if br * bc != size {
                return Err(format!("{br}x{bc} boxes do not tile a {size}x{size} grid"));
            }
            let mut o = sudoku::generate::Options::new(size, br, bc);
            if let Some(s) = word(&r.symmetry) {
                o.symmetry = sudoku::generate::Symmetry::from_name(s)
                    .ok_or_else(|| format!("unknown symmetry `{s}`"))?;
            }
            if let Some(d) = word(&r.difficulty).filter(|d| !d.eq_ignore_ascii_case("any")) {
                o.level = Some(
                    sudoku::generate::level_rank(&d.to_ascii_lowercase())
                        .ok_or_else(|| format!("unknown difficulty `{d}`"))?,
                );
            }
            let notes = o.validate()?;
            match sudoku::generate::generate(&o, r.seed).map_err(usage)? {
                sudoku::generate::Outcome::Found(f) => {
                    let layout = sudoku::generate::Layout::default_for(size);
                    let mut g = sudoku::generate::to_generated(&f, r.seed, layout);
                    g.notes.extend(notes);
                    Ok(g)
                }
                sudoku::generate::Outcome::Missed(m) => Err(m.message(&o)),
            }
        }
        Kind::Takuzu => {
            let (width, height) = square(10);
            let any = word(&r.difficulty) == Some("any");
            let difficulty = word(&r.difficulty)
                .filter(|_| !any)
                .map(|d| {
                    takuzu::generate::level_index(d).ok_or_else(|| {
                        format!(
                            "takuzu difficulty is any, easy, medium, hard or very-hard, got `{d}`"
                        )
                    })
                })
                .transpose()?;
            let read = &opts.takuzu;
            let mut rules = takuzu::Rules {
                distinct_lines: read.distinct_lines.unwrap_or(true),
                odd_lines: read.odd_lines.unwrap_or_default(),
                ..Default::default()
            };
            if let Some(tag) = &read.regions {
                rules.regions = takuzu::format::layout_regions(tag, width, height)
                    .map_err(|m| format!("regions: {m}"))?;
                rules.layout = Some(tag.clone());
            }
            takuzu::generate::generate(&takuzu::generate::Options {
                width,
                height,
                rules,
                difficulty,
                finish: !any,
                seed: r.seed,
            })
            .map_err(usage)
        }
        Kind::Tectonic => {
            let (width, height) = square(8);
            tectonic::generate::generate(
                &tectonic::generate::Options {
                    width,
                    height,
                    max_piece: 5,
                    difficulty: word(&r.difficulty).map(str::to_string),
                },
                r.seed,
            )
            .map_err(usage)
        }
        Kind::Numberlink => {
            let (width, height) = square(7);
            let target =
                numberlink::generate::Target::from_word(word(&r.difficulty)).ok_or_else(|| {
                    format!("unknown difficulty `{}`", word(&r.difficulty).unwrap_or(""))
                })?;
            numberlink::generate::generate(
                numberlink::generate::Options {
                    width,
                    height,
                    rules: opts.rules.unwrap_or_default(),
                    minimal: false,
                    target,
                },
                r.seed,
            )
            .map_err(usage)
        }
        Kind::Shisen => {
            let size = r.size.map(|s| (s, s));
            let o = shisen::generate::Options::from_args(
                size.filter(|_| r.width.is_none()),
                r.width,
                r.height,
                word(&r.difficulty),
                None,
                false,
                shisen::Rules {
                    outline: !opts.shisen.no_outline,
                    gravity: opts.shisen.gravity,
                    chinese: opts.shisen.chinese,
                },
            )?;
            shisen::generate::generate(&o, r.seed).map_err(usage)?
        }
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
