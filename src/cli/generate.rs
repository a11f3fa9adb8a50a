//! `gridsat generate KIND`: one seeded generator per kind; puzzle i of a batch uses seed + i,
//! so any one of them can be made again alone.

use super::args::GenerateArgs;
use super::progress_bar;
use crate::error::{Error, Result};
use crate::generate::Generated;
use crate::puzzle::Kind;
use std::io::Write;

fn one(kind: Kind, a: &GenerateArgs, seed: u64) -> Result<Generated> {
    match kind {
        Kind::Numberlink => {
            let (rules, _) = super::numberlink_options(&a.rules, &None)?;
            let side = a.size.unwrap_or(7);
            let opts = crate::numberlink::generate::Options {
                width: a.width.unwrap_or(side),
                height: a.height.unwrap_or(side),
                rules,
                minimal: a.minimal,
            };
            crate::numberlink::generate::generate(opts, seed)
        }
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
