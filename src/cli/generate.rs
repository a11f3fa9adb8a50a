//! `gridsat generate KIND`: one seeded generator per kind; puzzle i of a batch uses seed + i,
//! so any one of them can be made again alone.

use super::args::GenerateArgs;
use super::progress_bar;
use crate::error::{Error, Result};
use crate::generate::Generated;
use crate::puzzle::Kind;
use std::io::Write;

fn takuzu(a: &GenerateArgs, seed: u64) -> Result<Generated> {
    use crate::takuzu::generate::{generate, level_index, Options};
    let (width, height) = match (a.size, a.width, a.height) {
        (_, Some(w), Some(h)) => (w, h),
        (Some(n), w, h) => (w.unwrap_or(n), h.unwrap_or(n)),
        (None, None, None) => (10, 10),
        _ => {
            return Err(Error::Usage(
                "takuzu: give --size N, or both --width and --height".into(),
            ))
        }
    };
    if a.box_shape.is_some() || a.symmetry.is_some() || a.clues.is_some() {
        return Err(Error::Usage(
            "takuzu: --box, --symmetry and --clues do not apply (givens are always reduced until each is needed, then added back as --difficulty asks)".into(),
        ));
    }
    let difficulty = a
        .difficulty
        .as_deref()
        .map(|d| {
            level_index(d).ok_or_else(|| {
                Error::Usage(format!(
                    "takuzu difficulty is easy, medium, hard or very-hard, got `{d}`"
                ))
            })
        })
        .transpose()?;
    let read = super::takuzu_options(&a.takuzu)?;
    let mut rules = crate::takuzu::Rules {
        distinct_lines: read.distinct_lines.unwrap_or(true),
        odd_lines: read.odd_lines.unwrap_or_default(),
        encoding: read.encoding,
        ..Default::default()
    };
    if let Some(tag) = &read.regions {
        rules.regions = crate::takuzu::format::layout_regions(tag, width, height)
            .map_err(|m| Error::Usage(format!("--regions: {m}")))?;
        rules.layout = Some(tag.clone());
    }
    generate(&Options {
        width,
        height,
        rules,
        difficulty,
        seed,
    })
}

fn one(kind: Kind, a: &GenerateArgs, seed: u64) -> Result<Generated> {
    match kind {
        Kind::Takuzu => takuzu(a, seed),
        other => Err(Error::Usage(format!(
            "generating {} puzzles is not available yet",
            other.name()
        ))),
    }
}

/// Generates `--count` puzzles and prints each in its kind's file format (or JSON).
pub fn run(a: &GenerateArgs) -> Result<i32> {
    let kind = Kind::from_name(&a.kind).ok_or_else(|| {
        Error::Usage(format!(
            "unknown kind `{}`: expected sudoku, takuzu, tectonic or numberlink",
            a.kind
        ))
    })?;
    if a.count == 0 {
        return Err(Error::Usage("--count must be at least 1".into()));
    }
    let bar = progress_bar(a.no_progress, a.count, 1);
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for i in 0..a.count {
        let seed = a.seed.wrapping_add(i as u64);
        let g = one(kind, a, seed)?;
        let res = if a.json {
            writeln!(out, "{}", serde_json::to_string(&g).unwrap_or_default())
        } else {
            write!(out, "{}", g.text())
        };
        if let Err(e) = res {
            if e.kind() == std::io::ErrorKind::BrokenPipe {
                return Ok(0);
            }
            return Err(Error::Usage(format!("cannot write output: {e}")));
        }
        let _ = out.flush();
        if let Some(b) = &bar {
            b.inc(1);
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    Ok(0)
}
