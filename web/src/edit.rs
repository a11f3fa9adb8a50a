//! Editing a draft cell by cell: a value, a 0 or 1, a path's end, a tile, and Tectonic's
//! pieces (a cell joins its neighbour's piece, or stands alone). Pieces stay connected: after
//! every change they are numbered again as the connected groups of cells with the same piece,
//! so the text the readers get always names each piece once.

use crate::draft::Draft;
use gridsat::puzzle::Kind;
use serde::Deserialize;

/// One edit, as the page sends it.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
pub enum Edit {
    /// Puts `value` in a cell (`""` empties it).
    Set {
        row: usize,
        col: usize,
        value: String,
    },
    /// Tectonic: the cell (`row`, `col`) joins the piece of its neighbour (`from_row`,
    /// `from_col`): a drag across the border between them.
    Join {
        from_row: usize,
        from_col: usize,
        row: usize,
        col: usize,
    },
    /// Tectonic: the cell becomes a piece of its own.
    Split { row: usize, col: usize },
    /// Empties every cell (Tectonic keeps its pieces).
    Clear,
}

/// The largest value a Tectonic cell takes (the size of the largest piece gridsat reads).
const MAX_TECTONIC: usize = gridsat::tectonic::MAX_PIECE;

/// Checks a token for a cell of the draft's kind: `Ok` with the token as it is stored.
fn token(d: &Draft, kind: Kind, value: &str) -> Result<String, String> {
    let v = value.trim();
    if v.is_empty() || v == "." || (v == "0" && matches!(kind, Kind::Sudoku | Kind::Tectonic)) {
        return Ok(String::new());
    }
    let number = |max: usize, what: &str| -> Result<String, String> {
        match v.parse::<usize>() {
            Ok(n) if (1..=max).contains(&n) => Ok(n.to_string()),
            _ => Err(format!("{what} takes a number from 1 to {max}, not `{v}`")),
        }
    };
    match kind {
        Kind::Sudoku => number(d.width, &format!("a {0}x{0} Sudoku cell", d.width)),
        Kind::Tectonic => number(MAX_TECTONIC, "a Tectonic cell"),
        Kind::Takuzu => match v {
            "0" | "1" => Ok(v.to_string()),
            _ => Err(format!("a Takuzu cell takes 0 or 1, not `{v}`")),
        },
        Kind::Numberlink | Kind::Shisen => {
            if v.chars().any(|c| c.is_whitespace() || c == '#') || v.chars().count() > 8 {
                Err(format!(
                    "`{v}` cannot label a cell (no spaces or #, at most 8 characters)"
                ))
            } else {
                Ok(v.to_string())
            }
        }
    }
}

/// Applies an edit; `Err` says why it cannot be made (the draft is then unchanged).
pub fn apply(d: &mut Draft, e: &Edit) -> Result<(), String> {
    d.validate()?;
    let kind = d.kind()?;
    match *e {
        Edit::Set {
            row,
            col,
            ref value,
        } => {
            let i = d.index(row, col)?;
            d.cells[i] = token(d, kind, value)?;
        }
        Edit::Join {
            from_row,
            from_col,
            row,
            col,
        } => {
            if kind != Kind::Tectonic {
                return Err("only Tectonic has pieces".into());
            }
            let (a, b) = (d.index(from_row, from_col)?, d.index(row, col)?);
            if from_row.abs_diff(row) + from_col.abs_diff(col) != 1 {
                return Err("a cell joins the piece of a neighbour".into());
            }
            d.pieces[b] = d.pieces[a];
            renumber(d);
        }
        Edit::Split { row, col } => {
            if kind != Kind::Tectonic {
                return Err("only Tectonic has pieces".into());
            }
            let i = d.index(row, col)?;
            d.pieces[i] = usize::MAX;
            renumber(d);
        }
        Edit::Clear => {
            for c in &mut d.cells {
                c.clear();
            }
        }
    }
    Ok(())
}

/// Numbers the pieces again, 0.. in row-major order of first cell, one number per connected
/// group of cells that had the same piece (a piece cut in two becomes two).
pub fn renumber(d: &mut Draft) {
    let (w, h) = (d.width, d.height);
    let n = w * h;
    let mut new = vec![usize::MAX; n];
    let mut next = 0;
    for start in 0..n {
        if new[start] != usize::MAX {
            continue;
        }
        new[start] = next;
        let mut stack = vec![start];
        while let Some(c) = stack.pop() {
            let (r, col) = (c / w, c % w);
            let mut near = Vec::with_capacity(4);
            if r > 0 {
                near.push(c - w);
            }
            if r + 1 < h {
                near.push(c + w);
            }
            if col > 0 {
                near.push(c - 1);
            }
            if col + 1 < w {
                near.push(c + 1);
            }
            for m in near {
                // A cell split off (usize::MAX) joins nothing, not even another split cell.
                if new[m] == usize::MAX && d.pieces[m] == d.pieces[c] && d.pieces[c] != usize::MAX {
                    new[m] = next;
                    stack.push(m);
                }
            }
        }
        next += 1;
    }
    d.pieces = new;
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    fn blank(kind: Kind, w: usize, h: usize) -> Draft {
        Draft::blank(kind, w, h, BTreeMap::new()).unwrap()
    }

    #[test]
    fn values_are_checked_for_the_kind() {
        let mut s = blank(Kind::Sudoku, 4, 4);
        let set = |v: &str| Edit::Set {
            row: 0,
            col: 1,
            value: v.into(),
        };
        apply(&mut s, &set("3")).unwrap();
        assert_eq!(s.cells[1], "3");
        assert!(apply(&mut s, &set("5")).unwrap_err().contains("1 to 4"));
        apply(&mut s, &set("0")).unwrap();
        assert_eq!(s.cells[1], "");
        let mut t = blank(Kind::Takuzu, 4, 4);
        assert!(apply(&mut t, &set("2")).is_err());
        apply(&mut t, &set("0")).unwrap();
        assert_eq!(t.cells[1], "0");
        assert!(apply(
            &mut t,
            &Edit::Set {
                row: 4,
                col: 0,
                value: "1".into()
            }
        )
        .unwrap_err()
        .contains("off the"));
    }

    #[test]
    fn tectonic_pieces_join_and_split_and_stay_connected() {
        let mut d = blank(Kind::Tectonic, 3, 1);
        assert_eq!(d.pieces, vec![0, 1, 2]);
        let join = |fc, c| Edit::Join {
            from_row: 0,
            from_col: fc,
            row: 0,
            col: c,
        };
        apply(&mut d, &join(0, 1)).unwrap();
        apply(&mut d, &join(1, 2)).unwrap();
        assert_eq!(d.pieces, vec![0, 0, 0]);
        // Splitting the middle cell off cuts the piece in three.
        apply(&mut d, &Edit::Split { row: 0, col: 1 }).unwrap();
        assert_eq!(d.pieces, vec![0, 1, 2]);
        assert!(apply(&mut d, &join(0, 2))
            .unwrap_err()
            .contains("neighbour"));
    }

    #[test]
    fn a_draft_set_by_edits_reads_as_the_puzzle() {
        // A 2x1 Tectonic piece with a 2 given: the reader sees one piece of two cells.
        let mut d = blank(Kind::Tectonic, 2, 1);
        apply(
            &mut d,
            &Edit::Join {
                from_row: 0,
                from_col: 0,
                row: 0,
                col: 1,
            },
        )
        .unwrap();
        apply(
            &mut d,
            &Edit::Set {
                row: 0,
                col: 0,
                value: "2".into(),
            },
        )
        .unwrap();
        let p = d.puzzle().unwrap();
        assert_eq!(Draft::of_puzzle(&p).pieces, d.pieces);
        assert_eq!(Draft::of_puzzle(&p).cells, d.cells);
    }
}
