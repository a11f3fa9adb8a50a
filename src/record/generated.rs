//! The record of a generated puzzle ([`crate::generate::Generated`]): read back as its kind's
//! reader reads it, with its solution when asked ([`read_back`]), as JSON ([`to_json`]) and as
//! text with its solution in comment lines ([`to_text`]).

use crate::error::{Error, Result};
use crate::generate::Generated;
use crate::kinds::{self, AnyPuzzle, ReadOptions};
use crate::puzzle::{self, Kind, Puzzle, Solutions};
use crate::solver::SolverChoice;

/// A generated puzzle as read back, with its solution's rows when asked.
pub type Written = (AnyPuzzle, Option<Vec<Vec<i64>>>);

/// A generated puzzle read back from its text as the kind's reader reads it (so what a file
/// of it holds is what is written), with its solution when asked: SAT's, which the generator
/// proved unique and the rule checker has passed.
pub fn read_back(
    kind: Kind,
    g: &Generated,
    opts: &ReadOptions,
    with_solution: bool,
) -> Result<Written> {
    let bug = |why: String| Error::Bug(format!("a generated {} puzzle {why}", kind.name()));
    let mut ps = kinds::read("generated", &g.puzzle, kind, opts)
        .map_err(|e| bug(format!("does not read back: {e}")))?;
    if ps.len() != 1 {
        return Err(bug(format!("reads back as {} puzzles", ps.len())));
    }
    let p = ps.remove(0);
    if !with_solution {
        return Ok((p, None));
    }
    // A Shisen-sho deal is made clearable, not unique (tiles of a kind may pair up in more than
    // one way): its solution is any clearing; the other kinds' puzzles are made unique.
    let rows = crate::with_puzzle!(&p, q => if kind == Kind::Shisen {
        puzzle::solve(q, &SolverChoice::Embedded)?
            .map(|s| q.rows(&s))
            .ok_or_else(|| bug("can not be cleared".into()))
    } else {
        match puzzle::verdict(q, &SolverChoice::Embedded)? {
            Solutions::Unique(s) => Ok(q.rows(&s)),
            _ => Err(bug("has no unique solution".into())),
        }
    })?;
    Ok((p, Some(rows)))
}

/// The JSON Lines object of a generated puzzle: the [`Generated`] fields in order, or with a
/// solution, every field and `solution` in alphabetical order.
pub fn to_json(g: &Generated, solution: Option<&Vec<Vec<i64>>>) -> String {
    match solution {
        Some(rows) => {
            let mut v = serde_json::to_value(g).unwrap_or_default();
            v["solution"] = serde_json::to_value(rows).unwrap_or_default();
            v.to_string()
        }
        None => serde_json::to_string(g).unwrap_or_default(),
    }
}

/// A solution as comment lines after its puzzle: `# solution: ...` on one line for a Sudoku
/// written on one line, else `# solution:` and one `# ` line per row (numbers, or for
/// Numberlink each cell's path). Empty without a solution.
pub fn solution_comment(rows: Option<&Vec<Vec<i64>>>, one_line: bool) -> String {
    let Some(rows) = rows else {
        return String::new();
    };
    let wide = rows.iter().flatten().any(|&v| !(0..=9).contains(&v));
    if one_line && !wide {
        let cells: String = rows.iter().flatten().map(|v| v.to_string()).collect();
        return format!("# solution: {cells}\n");
    }
    let row = |r: &Vec<i64>| -> String {
        let cells: Vec<String> = r.iter().map(|v| v.to_string()).collect();
        cells.join(if wide { " " } else { "" })
    };
    let mut s = String::from("# solution:\n");
    for r in rows {
        s.push_str(&format!("# {}\n", row(r)));
    }
    s
}

/// True when `text` is a Sudoku on one line (its solution comment is one line too).
fn one_line(g: &Generated, text: &str) -> bool {
    g.kind == Kind::Sudoku.name() && text.trim_end().lines().count() == 1
}

/// The text form of a generated puzzle: its header comment lines, the puzzle in its kind's
/// own format (or in `format`, one of [`kinds::formats`], from the puzzle read back), then
/// its solution in comment lines when there is one.
pub fn to_text(
    g: &Generated,
    written: Option<&Written>,
    format: Option<&str>,
) -> std::result::Result<String, String> {
    let rows = written.and_then(|(_, rows)| rows.as_ref());
    Ok(match (written, format) {
        (Some((p, _)), Some(f)) => {
            let text = kinds::write_solutions(f, &[(p, None)])?;
            format!(
                "{}{text}{}",
                g.header(),
                solution_comment(rows, one_line(g, &text))
            )
        }
        _ => format!(
            "{}{}",
            g.text(),
            solution_comment(rows, one_line(g, &g.puzzle))
        ),
    })
}
