//! Numberlink (Arukone, Flow): connect each pair of equal numbers by a path of orthogonal steps;
//! paths never cross or branch. The puzzle and its rule sets live here; reading the community's
//! formats in [`format`]; the CNF model in [`model`] (documented in `models/numberlink.md`);
//! the independent rule checker in [`rules`]; drawing in [`render`]; the human-strategy engine
//! in [`strategies`]; the generator in [`generate`].
//!
//! A cell's content is a piece: the sides of the cell its path leaves by (`arms`, the seed's
//! enumeration: bit 0 up, 1 right, 2 down, 3 left). An endpoint has one arm (`╸╹╺╻`), a cell a
//! path runs through two (`┏┓┗┛┃━`), an empty cell none.

pub mod format;
pub mod generate;
pub mod model;
pub mod render;
pub mod route;
pub mod rules;
pub mod strategies;

use crate::cnf::{Assignment, Clause, Formula, Lit};
use crate::draw::{Look, Picture};
use crate::puzzle::{CellValue, GivenMode, Kind, Model, Puzzle, Style};

/// Arm bits: the side of a cell a path leaves by.
pub const UP: u8 = 1;
pub const RIGHT: u8 = 2;
pub const DOWN: u8 = 4;
pub const LEFT: u8 = 8;
/// The four sides in bit order.
pub const SIDES: [u8; 4] = [UP, RIGHT, DOWN, LEFT];

/// Which rules a solution must keep.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Rules {
    /// Every cell covered, and no path runs alongside itself: two orthogonally adjacent cells of
    /// the same path are linked (Flow Free and Janko's Arukone).
    #[default]
    Flow,
    /// Every cell covered, nothing more.
    Cover,
    /// Cells may stay empty (Nikoli's rules; the ADC contest's).
    Nikoli,
}

impl Rules {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Rules::Flow => "flow",
            Rules::Cover => "cover",
            Rules::Nikoli => "nikoli",
        }
    }

    /// The rule set of a name.
    pub fn from_name(s: &str) -> Option<Rules> {
        Some(match s.to_ascii_lowercase().as_str() {
            "flow" => Rules::Flow,
            "cover" => Rules::Cover,
            "nikoli" => Rules::Nikoli,
            _ => return None,
        })
    }

    /// True when every cell must be on a path.
    pub fn covers(self) -> bool {
        self != Rules::Nikoli
    }
}

/// How the model keeps detached loops out (see `models/numberlink.md`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Loops {
    /// Solve, find the loops in the model, add a clause that forbids each, solve again.
    #[default]
    Lazy,
    /// Rank labels in the CNF itself: every model is loop-free (for DIMACS export).
    Exact,
}

impl Loops {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Loops::Lazy => "lazy",
            Loops::Exact => "exact",
        }
    }

    /// The strategy of a name.
    pub fn from_name(s: &str) -> Option<Loops> {
        Some(match s.to_ascii_lowercase().as_str() {
            "lazy" => Loops::Lazy,
            "exact" | "order" => Loops::Exact,
            _ => return None,
        })
    }
}

/// The form a puzzle was read in (and is written back in).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Form {
    /// Whitespace-separated numbers, `0` or `.` empty.
    #[default]
    Numbers,
    /// One character per cell, `.` empty (Flow puzzles, the `W H` multi-puzzle form).
    Letters,
    /// The ADC contest form `SIZE WxH` / `LINE_NUM n` / `LINE#k (x1,y1)-(x2,y2)`.
    Contest,
}

/// A Numberlink puzzle: a `width` x `height` grid and the two ends of each path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Numberlink {
    pub width: usize,
    pub height: usize,
    /// The two ends of each path (row-major cell indices), the first before the second.
    pub ends: Vec<(usize, usize)>,
    /// Each path's label as written (`A`, `7`).
    pub labels: Vec<String>,
    /// Each path's number: the puzzle's own when its labels are numbers, else 1, 2... in order
    /// of first appearance row by row.
    pub numbers: Vec<u32>,
    pub rules: Rules,
    pub loops: Loops,
    pub form: Form,
}

/// A solved board: each cell's arms and the path through it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Links {
    /// Arm bits per cell (row-major).
    pub arms: Vec<u8>,
    /// Path index + 1 per cell, 0 for an empty cell.
    pub path: Vec<u32>,
}

impl Numberlink {
    /// A puzzle from its ends, numbered by first appearance (labels 1, 2, ...).
    pub fn new(width: usize, height: usize, ends: Vec<(usize, usize)>) -> Numberlink {
        let k = ends.len();
        let mut p = Numberlink {
            width,
            height,
            ends,
            labels: (1..=k).map(|i| i.to_string()).collect(),
            numbers: (1..=k as u32).collect(),
            rules: Rules::default(),
            loops: Loops::default(),
            form: Form::Numbers,
        };
        p.sort_paths();
        p
    }

    /// Puts paths in order of first appearance of their ends (row by row), each path's ends in
    /// row-major order; numbers follow the labels when every label is a number.
    pub fn sort_paths(&mut self) {
        let mut idx: Vec<usize> = (0..self.ends.len()).collect();
        for e in &mut self.ends {
            if e.1 < e.0 {
                *e = (e.1, e.0);
            }
        }
        crate::sort::by_key(&mut idx, |&i| self.ends[i].0);
        self.ends = idx.iter().map(|&i| self.ends[i]).collect();
        self.labels = idx.iter().map(|&i| self.labels[i].clone()).collect();
        let numeric: Option<Vec<u32>> = self
            .labels
            .iter()
            .map(|l| l.parse::<u32>().ok().filter(|&n| n > 0))
            .collect();
        self.numbers = match numeric {
            Some(ns) => ns,
            None => (1..=self.ends.len() as u32).collect(),
        };
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Path index of the endpoint in cell `c`, if any.
    pub fn endpoint_map(&self) -> Vec<Option<usize>> {
        let mut m = vec![None; self.cells()];
        for (k, &(a, b)) in self.ends.iter().enumerate() {
            m[a] = Some(k);
            m[b] = Some(k);
        }
        m
    }

    /// The neighbour of cell `c` across `side`, if it is on the board.
    pub fn neighbour(&self, c: usize, side: u8) -> Option<usize> {
        let (w, h) = (self.width, self.height);
        let (r, col) = (c / w, c % w);
        match side {
            UP if r > 0 => Some(c - w),
            RIGHT if col + 1 < w => Some(c + 1),
            DOWN if r + 1 < h => Some(c + w),
            LEFT if col > 0 => Some(c - 1),
            _ => None,
        }
    }

    /// The sides of `c` that have a neighbour, as arm bits.
    pub fn open_sides(&self, c: usize) -> u8 {
        SIDES
            .iter()
            .filter(|&&s| self.neighbour(c, s).is_some())
            .fold(0, |m, &s| m | s)
    }

    /// `r1c3` for a cell index.
    pub fn cell_name(&self, c: usize) -> String {
        crate::puzzle::cell_name(c / self.width, c % self.width)
    }

    /// The label of a given in Assume mode: `A:r1c1-r5c1`.
    pub fn path_given_label(&self, k: usize) -> String {
        let (a, b) = self.ends[k];
        format!(
            "{}:{}-{}",
            self.labels[k],
            self.cell_name(a),
            self.cell_name(b)
        )
    }

    /// Each path's cells in order from its first end to its second (for `--json`).
    pub fn paths(&self, s: &Links) -> Vec<Vec<usize>> {
        self.ends
            .iter()
            .map(|&(a, _)| rules::trace(self, &s.arms, a).0)
            .collect()
    }
}

/// The side opposite `side`.
pub fn opposite(side: u8) -> u8 {
    match side {
        UP => DOWN,
        DOWN => UP,
        RIGHT => LEFT,
        _ => RIGHT,
    }
}

impl Puzzle for Numberlink {
    type Map = model::NumberlinkMap;
    type Solution = Links;

    fn kind(&self) -> Kind {
        Kind::Numberlink
    }

    fn describe(&self) -> String {
        format!(
            "{}x{}, {}, {} rules",
            self.width,
            self.height,
            crate::text::count_of(self.ends.len(), "path"),
            self.rules.name()
        )
    }

    fn model(&self, mode: GivenMode, names: bool) -> Model<Self::Map> {
        model::build(self, mode, names, true, model::LabelCode::Binary)
    }

    /// With one-hot labels: their literals name each cell's path, which the backbone needs.
    fn forced_model(&self, _stop: Option<&crate::solver::Stop>) -> Model<Self::Map> {
        model::build(self, GivenMode::Fold, false, true, model::LabelCode::OneHot)
    }

    /// Without the nikoli normal form: an external solver's model must be any solution.
    fn export_model(&self, mode: GivenMode) -> Model<Self::Map> {
        model::build(self, mode, true, false, model::LabelCode::OneHot)
    }

    /// Loops banned exactly (order labels), whatever `--loops` chose, and no normal form.
    fn complete_model(&self) -> Model<Self::Map> {
        let exact = Numberlink {
            loops: Loops::Exact,
            ..self.clone()
        };
        model::build(
            &exact,
            GivenMode::Assume,
            true,
            false,
            model::LabelCode::OneHot,
        )
    }

    fn distinct(&self, model: &Model<Self::Map>) -> usize {
        model.map.distinct
    }

    fn decode(&self, model: &Model<Self::Map>, a: &Assignment) -> Links {
        model::decode(self, &model.map, a)
    }

    /// Detached loops, and under `flow` with binary labels two neighbours of one path left
    /// unlinked: clauses that hold in every solution and that the model breaks.
    fn refine(&self, model: &Model<Self::Map>, a: &Assignment) -> Vec<Clause> {
        let mut cuts = model::flow_cuts(self, &model.map, a);
        cuts.extend(model::loop_cuts(self, &model.map, a));
        cuts
    }

    fn near(&self, model: &Model<Self::Map>, first: &Assignment, f: &mut Formula) {
        model::near(&model.map, first, f)
    }

    /// The near search keeps every path cell of the first solution on its path but one: small
    /// beside the normal-form question (ADC2015 Q17: a second solution in 0.8 s, where the
    /// normal-form question got none in a minute).
    fn near_first(&self) -> bool {
        true
    }

    /// Under nikoli rules, with the normal form (the solving model): the lines routed by
    /// negotiated congestion and rewritten into the normal form, as preferred values of every
    /// variable ([`route`]).
    fn preferred(&self, model: &Model<Self::Map>) -> Vec<Lit> {
        if model.normal.is_empty() || !model.givens.is_empty() {
            return Vec::new();
        }
        let Some(mut routes) = route::route(self, route::ROUNDS) else {
            return Vec::new();
        };
        route::normalise(self, &mut routes);
        let lits = route::hint(self, &model.map, &routes);
        route::complete(&model.formula, &lits, route::PASSES)
    }

    /// The givens are coverage (`flow` and `cover`) and then each path (`model::build` in
    /// Assume mode). Coverage binds only with every path given, so a puzzle that keeps fewer is
    /// an open board with the kept paths: nikoli rules, the other ends plain cells. (Under
    /// `flow` the Assume model also keeps each path from running alongside itself there; that
    /// changes no verdict: a nikoli solution rewrites to the normal form, which never does.)
    /// Fewer givens never lose a solution: a covered board is an open one, a dropped path's
    /// cells can stay empty.
    fn keeping(&self, keep: &[bool]) -> Option<Numberlink> {
        let covers = usize::from(self.rules.covers());
        let kept = |k: usize| keep.get(covers + k).copied().unwrap_or(true);
        let mut sub = Numberlink {
            ends: Vec::new(),
            labels: Vec::new(),
            numbers: Vec::new(),
            ..self.clone()
        };
        for k in (0..self.ends.len()).filter(|&k| kept(k)) {
            sub.ends.push(self.ends[k]);
            sub.labels.push(self.labels[k].clone());
            sub.numbers.push(self.numbers[k]);
        }
        if !keep.iter().all(|&x| x) {
            sub.rules = Rules::Nikoli;
        }
        Some(sub)
    }

    /// A path's given false frees its ends (they are plain cells, and no cell carries the
    /// path); coverage false leaves cells empty: the puzzle that keeps the others.
    fn selector_givens(&self) -> bool {
        true
    }

    fn check(&self, s: &Links) -> Result<(), String> {
        rules::check(self, s)
    }

    fn rows(&self, s: &Links) -> Vec<Vec<i64>> {
        s.path
            .chunks(self.width)
            .map(|r| {
                r.iter()
                    .map(|&k| {
                        if k == 0 {
                            0
                        } else {
                            self.numbers[k as usize - 1] as i64
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// The cells whose path or whose links differ: under `cover` (and `nikoli`) two solutions
    /// can give every cell the same path and still route one of them differently, and those
    /// cells are where they differ.
    fn differing(&self, a: &Links, b: &Links) -> Vec<(usize, usize)> {
        (0..a.path.len())
            .filter(|&i| a.path[i] != b.path[i] || a.arms[i] != b.arms[i])
            .map(|i| (i / self.width, i % self.width))
            .collect()
    }

    fn render(&self, s: Option<&Links>, style: Style) -> String {
        match s {
            Some(s) => render::solution(self, s, style),
            None => render::puzzle(self),
        }
    }

    fn picture(&self, s: Option<&Links>, _look: Look) -> Option<Picture> {
        Some(render::picture(self, s))
    }

    fn picture_like(&self, s: Option<&Links>, like: &Links, _look: Look) -> Option<Picture> {
        let colours = render::path_colours(self, Some(like));
        Some(render::picture_in(self, s, &colours))
    }

    fn forced(&self, model: &Model<Self::Map>, lits: &[Lit]) -> Vec<CellValue> {
        model::forced(self, &model.map, lits)
    }

    fn json_extra(&self, s: &Links) -> Vec<(&'static str, serde_json::Value)> {
        let paths: Vec<serde_json::Value> = self
            .paths(s)
            .into_iter()
            .enumerate()
            .map(|(k, cells)| {
                serde_json::json!({
                    "number": self.numbers[k],
                    "label": self.labels[k],
                    "cells": cells
                        .iter()
                        .map(|&c| [c / self.width, c % self.width])
                        .collect::<Vec<_>>(),
                })
            })
            .collect();
        let mut extra = vec![("paths", serde_json::Value::Array(paths))];
        if self.form == Form::Contest {
            extra.push(("answer", format::contest_answer(self, s).into()));
        }
        extra
    }
}
