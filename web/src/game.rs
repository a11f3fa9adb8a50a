//! Shisen-sho as a game: a removal by two clicks, allowed when the tiles match
//! ([`Shisen::matches`]) and the seed's pair test joins them now ([`pair::join`]), after
//! which, with gravity, the tiles above fall ([`rules::fall`]); whether the position left can
//! still be cleared (a plan found by SAT for it, as for any board); and a safe hint: the first
//! move of such a plan, which can never lead to a dead end since the rest of the plan clears
//! the board after it.

use crate::draft::Draft;
use gridsat::kinds::AnyPuzzle;
use gridsat::puzzle;
use gridsat::shisen::{pair, rules, Shisen};
use gridsat::solver::SolverChoice;
use serde_json::{json, Value};

fn board(p: &AnyPuzzle) -> Result<&Shisen, String> {
    match p {
        AnyPuzzle::Shisen(s) => Ok(s),
        _ => Err("only Shisen-sho is played".into()),
    }
}

/// Removes the tiles in cells `a` and `b` (row, column) when the rules allow it: the draft
/// after the removal (the tiles above fallen, with gravity) and the line that joined them;
/// `Err` says why not.
pub fn remove(
    d: &Draft,
    p: &AnyPuzzle,
    a: (usize, usize),
    b: (usize, usize),
) -> Result<Value, String> {
    let s = board(p)?;
    let (x, y) = (d.index(a.0, a.1)?, d.index(b.0, b.1)?);
    if s.cells[x].is_none() || s.cells[y].is_none() {
        return Err("pick two tiles".into());
    }
    if x == y {
        return Err("pick two different tiles".into());
    }
    if !s.matches(x, y) {
        return Err(format!(
            "{} and {} do not match",
            s.face_name(x),
            s.face_name(y)
        ));
    }
    let occupied: Vec<bool> = s.cells.iter().map(|c| c.is_some()).collect();
    let grid = pair::Grid {
        width: s.width,
        height: s.height,
        outline: s.rules.outline,
        occupied: &occupied,
    };
    let line = pair::join(&grid, a, b).ok_or_else(|| {
        format!(
            "{} {} and {} cannot be joined by a line of at most three segments through empty cells",
            s.face_name(x),
            s.cell_name(x),
            s.cell_name(y)
        )
    })?;
    let mut cells: Vec<Option<String>> = d
        .cells
        .iter()
        .map(|t| (!t.is_empty()).then(|| t.clone()))
        .collect();
    cells[x] = None;
    cells[y] = None;
    if s.rules.gravity {
        // `fall` moves plain copies; the tokens are moved as indices into the old cells.
        let mut idx: Vec<Option<usize>> = (0..cells.len())
            .map(|i| cells[i].as_ref().map(|_| i))
            .collect();
        rules::fall(&mut idx, s.width, x % s.width);
        rules::fall(&mut idx, s.width, y % s.width);
        cells = idx
            .iter()
            .map(|i| i.and_then(|i| cells[i].clone()))
            .collect();
    }
    let mut next = d.clone();
    next.cells = cells.into_iter().map(Option::unwrap_or_default).collect();
    let name = format!("{} {}-{}", s.face_name(x), s.cell_name(x), s.cell_name(y));
    Ok(json!({
        "draft": next,
        "path": line,
        "move": name,
        "cleared": next.cells.iter().all(|t| t.is_empty()),
    }))
}

/// Whether the board can still be cleared, and a safe move (the first of a plan that clears
/// it) with its line: `cleared` when no tile is left, `stuck` when no plan exists.
pub fn safe_move(p: &AnyPuzzle) -> Result<Value, String> {
    let s = board(p)?;
    if s.cells.iter().all(|c| c.is_none()) {
        return Ok(json!({ "status": "cleared" }));
    }
    match puzzle::solve(s, &SolverChoice::Embedded).map_err(|e| e.to_string())? {
        None => Ok(json!({ "status": "stuck" })),
        Some(plan) => {
            let m = plan
                .moves
                .first()
                .ok_or("a plan for a board with tiles has a move")?;
            Ok(json!({
                "status": "clearable",
                "moves_left": plan.moves.len(),
                "move": s.move_name(m),
                "cells": [m.cells[0], m.cells[1]],
                "path": m.path,
            }))
        }
    }
}
