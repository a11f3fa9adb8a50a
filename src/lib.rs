//! gridsat compiles grid logic puzzles into SAT: each puzzle becomes CNF, an embedded solver
//! (or any DIMACS solver) solves it, the engine proves it unique or not, and the result is
//! checked by an independent rule checker before anyone sees it.
//!
//! - [`cnf`]: variables, literals, clauses, shared encodings, the modelling vocabulary, DIMACS.
//! - [`solver`]: backends (varisat, external commands) and the engine (count, backbone, cores).
//! - [`puzzle`]: what a kind provides, and the verbs written once on top of it.
//! - [`explain`]: steps, paths and grades shared by every kind's human-strategy engine.
//! - [`sudoku`], [`takuzu`], [`tectonic`], [`numberlink`], [`shisen`]: one folder per kind,
//!   each with its format, model, rules, strategies, generator and rendering.
//! - [`proof`]: what a DRAT proof of a verdict refutes ("unique", "no solution").
//! - [`kinds`]: reading any file as puzzles of any kind; [`records`]: reading a file one puzzle
//!   at a time; [`text`]: comment lines and tokens with their columns, shared by the text formats.
//! - [`draw`]: pictures (SVG, PNG, PDF) from a vocabulary every kind maps onto.
//! - [`record`]: the records every front end reports (a verdict, an explanation, a generated
//!   puzzle, a DIMACS export), as JSON and text; [`options`] and [`order`]: reading options
//!   and generation orders in words, checked with the command line's messages.
//! - `cli`: the command line (the binary is a thin wrapper around `cli::main`; the `cli`
//!   feature, on by default).

#[cfg(feature = "cli")]
pub mod cli;
pub mod cnf;
pub mod draw;
pub mod error;
pub mod explain;
pub mod generate;
pub mod kinds;
pub mod numberlink;
pub mod options;
pub mod order;
pub mod proof;
pub mod puzzle;
pub mod record;
pub mod records;
pub mod shisen;
pub mod solver;
pub mod sort;
pub mod sudoku;
pub mod takuzu;
pub mod tectonic;
pub mod text;
pub mod url;
