//! Shisen-sho (Lianliankan, Nikakudori, Onet): a board of tiles, cleared two equal tiles at a
//! time when a line of at most three straight segments (two turns) joins them through empty
//! cells, or through the one-cell ring around the board. The puzzle and its rule options live
//! here; reading boards in [`format`]; the seed's pair test (can these two tiles be joined
//! now) in [`pair`]; the candidate routes the models are built on in [`routes`]; the CNF
//! models in [`model`] (no gravity: a pairing plus an acyclic precedence) and [`gravity`]
//! (step by step), both documented in `models/shisen.md`; the independent rule checker in
//! [`rules`]; drawing in [`render`]; greedy and random play and the SAT-proven safe moves in
//! [`play`]; explain, hint and grade in [`strategies`]; the generator in [`generate`].
//!
//! The answer of the SAT model is the *pairing* (which tile goes with which): independent
//! moves commute, so two plans that pair the same tiles are one solution. A plan's order is
//! derived from the model when it is decoded.

pub mod format;
pub mod generate;
pub mod graph;
pub mod gravity;
pub mod locks;
pub mod model;
pub mod pair;
pub mod play;
pub mod quick;
pub mod render;
pub mod routes;
pub mod rules;
pub mod strategies;

use crate::cnf::{Assignment, Clause, Formula, Lit};
use crate::draw::{Look, Picture};
use crate::puzzle::{CellValue, GivenMode, Kind, Model, Puzzle, Style};
use crate::solver::Stop;

/// Which rules apply.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// A line may run through the one-cell ring around the board (KShisen and most games).
    pub outline: bool,
    /// After a removal the tiles above each emptied cell fall down (KShisen's default mode).
    pub gravity: bool,
    /// The four seasons match each other, and so do the four flowers.
    pub chinese: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            outline: true,
            gravity: false,
            chinese: false,
        }
    }
}

/// How the no-gravity model makes sure a pairing can be played in some order (see
/// `models/shisen.md`, which also has the measurements behind the default).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// The CNF holds only the pairing. A pairing is played greedily ([`routes::closure`]);
    /// when it gets stuck, a clause forbids a set of its pairs that block each other
    /// ([`routes::blocking_set`]), and the solver tries again (the fast default).
    #[default]
    Blocked,
    /// Routes and precedences in the CNF; a cycle of pairs that wait for each other in a model
    /// is cut by a clause, and the solver tries again.
    Cycles,
    /// Routes, precedences and a binary rank per tile in the CNF: every model is a plan (what
    /// `dimacs` writes, since an external solver knows nothing of lazy clauses).
    Ranks,
}

/// A Shisen-sho board: `width` x `height` cells, each empty or holding a tile with a face.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shisen {
    pub width: usize,
    pub height: usize,
    /// The face of each cell's tile (an index into `faces`), row-major; `None` for an empty cell.
    pub cells: Vec<Option<usize>>,
    /// The faces as written in the file (`A`, `5p`, `🀄`), in order of first appearance.
    pub faces: Vec<String>,
    pub rules: Rules,
    pub order: Order,
}

/// A group of tiles that match each other under `--chinese`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Group {
    Seasons,
    Flowers,
}

/// The chinese-rule group of a face, if it is a season or a flower: the Unicode tiles
/// 🀦🀧🀨🀩 and 🀢🀣🀤🀥, `S1`-`S4` and `F1`-`F4`, or the names (`spring`, `plum`...).
pub fn group_of(face: &str) -> Option<Group> {
    let f = face.trim_end_matches(['\u{fe0e}', '\u{fe0f}']);
    let mut chars = f.chars();
    if let (Some(c), None) = (chars.next(), chars.next()) {
        return match c as u32 {
            0x1F026..=0x1F029 => Some(Group::Seasons),
            0x1F022..=0x1F025 => Some(Group::Flowers),
            _ => None,
        };
    }
    match f.to_ascii_lowercase().as_str() {
        "s1" | "s2" | "s3" | "s4" | "spring" | "summer" | "autumn" | "winter" => {
            Some(Group::Seasons)
        }
        "f1" | "f2" | "f3" | "f4" | "plum" | "orchid" | "chrysanthemum" | "bamboo" => {
            Some(Group::Flowers)
        }
        _ => None,
    }
}

/// One removal: the two tiles (by the cell they start in), where they are when removed (the
/// same cells without gravity), and the line that joins them, from the first to the second,
/// every cell on it in order. Line coordinates run from -1 to the board's height or width:
/// -1 and `height`/`width` are the ring around the board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Move {
    pub tiles: [usize; 2],
    pub cells: [(usize, usize); 2],
    pub path: Vec<(i64, i64)>,
}

/// A plan that clears the board: the moves in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    pub moves: Vec<Move>,
}

impl Plan {
    /// The partner of each tile (by starting cell), `usize::MAX` for an empty cell.
    pub fn partners(&self, cells: usize) -> Vec<usize> {
        let mut p = vec![usize::MAX; cells];
        for m in &self.moves {
            p[m.tiles[0]] = m.tiles[1];
            p[m.tiles[1]] = m.tiles[0];
        }
        p
    }
}

impl Shisen {
    /// The number of cells.
    pub fn cells_len(&self) -> usize {
        self.width * self.height
    }

    /// The cells that hold a tile, row-major (a tile is named by the cell it starts in).
    pub fn tiles(&self) -> Vec<usize> {
        (0..self.cells_len())
            .filter(|&c| self.cells[c].is_some())
            .collect()
    }

    /// The match class of a face: the face itself, or under `--chinese` its group (seasons and
    /// flowers get classes after the faces).
    pub fn class_of_face(&self, face: usize) -> usize {
        if self.rules.chinese {
            match group_of(&self.faces[face]) {
                Some(Group::Seasons) => return self.faces.len(),
                Some(Group::Flowers) => return self.faces.len() + 1,
                None => {}
            }
        }
        face
    }

    /// Each cell's match class (`None` for an empty cell).
    pub fn classes(&self) -> Vec<Option<usize>> {
        self.cells
            .iter()
            .map(|f| f.map(|f| self.class_of_face(f)))
            .collect()
    }

    /// True when the tiles in cells `a` and `b` may be removed together (ignoring the line).
    pub fn matches(&self, a: usize, b: usize) -> bool {
        match (self.cells[a], self.cells[b]) {
            (Some(x), Some(y)) => a != b && self.class_of_face(x) == self.class_of_face(y),
            _ => false,
        }
    }

    /// The number of distinct match classes on the board.
    pub fn class_count(&self) -> usize {
        let mut cs: Vec<usize> = self.classes().into_iter().flatten().collect();
        crate::sort::all(&mut cs);
        cs.dedup();
        cs.len()
    }

    /// `r1c3` for a cell index.
    pub fn cell_name(&self, c: usize) -> String {
        crate::puzzle::cell_name(c / self.width, c % self.width)
    }

    /// The face written in cell `c` (`.` for an empty cell).
    pub fn face_name(&self, c: usize) -> &str {
        self.cells[c].map_or(".", |f| self.faces[f].as_str())
    }

    /// The label of a tile as a given: `r1c3=A`.
    pub fn tile_label(&self, c: usize) -> String {
        format!("{}={}", self.cell_name(c), self.face_name(c))
    }

    /// A move as people write it: `A r1c1-r1c4`.
    pub fn move_name(&self, m: &Move) -> String {
        let face = |t: usize| self.face_name(t).to_string();
        let (a, b) = (face(m.tiles[0]), face(m.tiles[1]));
        let at = |(r, c): (usize, usize)| crate::puzzle::cell_name(r, c);
        if a == b {
            format!("{a} {}-{}", at(m.cells[0]), at(m.cells[1]))
        } else {
            format!("{a}/{b} {}-{}", at(m.cells[0]), at(m.cells[1]))
        }
    }
}

impl Puzzle for Shisen {
    type Map = model::ShisenMap;
    type Solution = Plan;

    fn kind(&self) -> Kind {
        Kind::Shisen
    }

    fn describe(&self) -> String {
        let n = self.tiles().len();
        let mut s = format!(
            "{}x{}, {}, {}",
            self.width,
            self.height,
            crate::text::count_of(n, "tile"),
            crate::text::count_of(self.class_count(), "kind")
        );
        if self.rules.gravity {
            s.push_str(", gravity");
        }
        if self.rules.chinese {
            s.push_str(", chinese");
        }
        if !self.rules.outline {
            s.push_str(", no outline");
        }
        s
    }

    /// Without gravity, the [`Order::Blocked`] model gets what play finds ([`model::play_into`]:
    /// a plan as its normal form, or lemmas for a board that can not be cleared); with the
    /// givens as assumptions it is the kinds model ([`model::build_kinds`]).
    fn model(&self, mode: GivenMode, names: bool) -> Model<Self::Map> {
        self.model_until(mode, names, None)
    }

    /// The play search of [`model::play_into`] gives up when `stop` is raised (`--timeout`).
    /// With gravity, the position-graph model ([`graph`]) when the positions reachable are
    /// few enough, else the step model ([`gravity`]; [`Puzzle::found`] refused the boards too
    /// large for it).
    fn model_until(&self, mode: GivenMode, names: bool, stop: Option<&Stop>) -> Model<Self::Map> {
        if self.rules.gravity {
            if let Some(g) = graph::explore(self, graph::BUDGET, stop) {
                return graph::model(self, &g, names);
            }
            return gravity::build(self, mode, names);
        }
        if mode == GivenMode::Assume && self.order == Order::Blocked {
            return model::build_kinds(self, names);
        }
        let mut m = model::build(self, mode, names, self.order);
        if mode == GivenMode::Fold && self.order == Order::Blocked {
            model::play_into(self, &mut m, stop);
        }
        m
    }

    /// With ranks: an external solver's every model must be a plan. A board has no givens
    /// to unfold (its tiles are the puzzle), so `--unfolded` writes the same CNF.
    fn export_model(&self, _mode: GivenMode) -> Model<Self::Map> {
        if self.rules.gravity {
            gravity::build(self, GivenMode::Fold, true)
        } else {
            model::build(self, GivenMode::Fold, true, Order::Ranks)
        }
    }

    /// The model a `--proof` is about: with gravity the step model with a given per tile (the
    /// position-graph model, which has no givens, on boards too large for it);
    /// without, the ranks model with a given per kind ([`model::kind_givens`]), the givens
    /// `conflicts` names (its kinds model has one literal per kind).
    fn complete_model(&self) -> Model<Self::Map> {
        if self.rules.gravity {
            if self.tiles().len() > gravity::MAX_TILES {
                if let Some(g) = graph::explore(self, graph::BUDGET, None) {
                    return graph::model(self, &g, true);
                }
            }
            gravity::build(self, GivenMode::Assume, true)
        } else {
            let mut m = model::build(self, GivenMode::Assume, true, Order::Ranks);
            model::kind_givens(self, &mut m);
            m
        }
    }

    /// The quick search on the board ([`quick`]): a plan, and with `two` a plan that pairs
    /// some tile otherwise (with gravity a tile's twin standing next to it taking its place,
    /// [`quick::twin`]; two pairs exchanging partners, [`quick::exchange`]; else a search
    /// from another partner of some tile, [`quick::another`]), each replayed by the rule checker by the
    /// caller. Without gravity a board it cannot clear within [`quick::BUDGET`] positions
    /// goes to the models. With gravity the search is exhaustive up to
    /// [`quick::GRAVITY_BUDGET`] positions: a board it proves stuck goes to the
    /// position-graph model ([`graph`]) when that has at most [`graph::BUDGET`] positions,
    /// and any other board it does not clear is refused here with the reason.
    fn found(&self, stop: Option<&Stop>, two: bool) -> crate::error::Result<Vec<Plan>> {
        let budget = if self.rules.gravity {
            quick::GRAVITY_BUDGET
        } else {
            quick::BUDGET
        };
        let mut search = quick::Search::new(self, budget, stop);
        let found = search.run();
        if let quick::Found::Plan(pairs) = found {
            let mut out = vec![quick::replay(self, &pairs)];
            if two {
                let other = quick::twin(self, &pairs)
                    .or_else(|| quick::exchange(self, &pairs, quick::EXCHANGES))
                    .or_else(|| {
                        let budget = if self.rules.gravity {
                            quick::GRAVITY_ANOTHER_BUDGET
                        } else {
                            quick::ANOTHER_BUDGET
                        };
                        quick::another(self, &pairs, budget, stop)
                    });
                if let Some(other) = other {
                    out.push(quick::replay(self, &other));
                }
            }
            return Ok(out);
        }
        if !self.rules.gravity {
            let bytes = model::route_bytes(self);
            if bytes > model::MAX_BYTES && !stop.is_some_and(Stop::is_raised) {
                return Err(crate::error::Error::Usage(format!(
                    "shisen {}x{}: not decided: the quick search found no plan within its budget, and the route model would need up to {} MB (more than the {} MB it is allowed)",
                    self.width,
                    self.height,
                    bytes >> 20,
                    model::MAX_BYTES >> 20
                )));
            }
            return Ok(Vec::new());
        }
        if stop.is_some_and(Stop::is_raised) {
            return Err(crate::solver::SolverError::Stopped.into());
        }
        // With gravity the search visits each reachable position once: a dead board's
        // positions are its graph model's.
        match found {
            quick::Found::Dead if search.nodes() <= graph::BUDGET => Ok(Vec::new()),
            _ => Err(crate::error::Error::Usage(format!(
                "shisen {}x{} with gravity: not decided: {} (the position-graph model is built for at most {} positions, about {} MB)",
                self.width,
                self.height,
                if found == quick::Found::Dead {
                    format!("every one of the {} positions reachable is stuck, but the solver is not given a model that large", search.nodes())
                } else {
                    format!("no plan found in {} positions", budget)
                },
                graph::BUDGET,
                (graph::BUDGET * graph::BYTES_PER_POSITION) >> 20
            ))),
        }
    }

    /// The route model within [`model::MAX_BYTES`] by [`model::route_bytes`]; with gravity on
    /// a board beyond the step model's [`gravity::MAX_TILES`], the position graph within
    /// [`graph::BUDGET`] positions. `Err` says which limit the board is beyond.
    fn model_fits(&self, stop: Option<&Stop>) -> Result<(), String> {
        if self.rules.gravity {
            let tiles = self.tiles().len();
            if tiles <= gravity::MAX_TILES || graph::explore(self, graph::BUDGET, stop).is_some() {
                return Ok(());
            }
            return Err(format!(
                "the board is too large for the models that look for a second solution with \
                 gravity: {tiles} tiles (the step model takes at most {}) and more than {} \
                 positions reachable (the position-graph model's limit)",
                gravity::MAX_TILES,
                graph::BUDGET
            ));
        }
        let bytes = model::route_bytes(self);
        if bytes <= model::MAX_BYTES {
            return Ok(());
        }
        Err(format!(
            "the route model that looks for a second solution would need up to {} MB (more \
             than the {} MB it is allowed)",
            bytes >> 20,
            model::MAX_BYTES >> 20
        ))
    }

    fn decode(&self, model: &Model<Self::Map>, a: &Assignment) -> Plan {
        if let Some(g) = &model.map.graph {
            return graph::decode(self, g, a);
        }
        match &model.map.gravity {
            Some(g) => gravity::decode(self, &model.map, g, a),
            None => model::decode(self, &model.map, a),
        }
    }

    fn refine(&self, model: &Model<Self::Map>, a: &Assignment) -> Vec<Clause> {
        model::refine(self, &model.map, a)
    }

    fn near(&self, model: &Model<Self::Map>, first: &Assignment, f: &mut Formula) {
        if model.map.gravity.is_none() {
            model::near(self, &model.map, first, f);
        }
    }

    fn check(&self, s: &Plan) -> Result<(), String> {
        rules::check(self, s)
    }

    /// The move at which each tile leaves (1 for the first), 0 for an empty cell.
    fn rows(&self, s: &Plan) -> Vec<Vec<i64>> {
        let mut at = vec![0i64; self.cells_len()];
        for (k, m) in s.moves.iter().enumerate() {
            for &t in &m.tiles {
                at[t] = k as i64 + 1;
            }
        }
        at.chunks(self.width).map(|r| r.to_vec()).collect()
    }

    fn picture(&self, s: Option<&Plan>, _look: Look) -> Option<Picture> {
        Some(render::picture(self, s))
    }

    fn render(&self, s: Option<&Plan>, style: Style) -> String {
        match s {
            Some(s) => render::plan(self, s, style),
            None => render::board(self),
        }
    }

    /// Two plans differ where a tile's partner differs (the order is derived, not an answer).
    fn differing(&self, a: &Plan, b: &Plan) -> Vec<(usize, usize)> {
        let (pa, pb) = (a.partners(self.cells_len()), b.partners(self.cells_len()));
        (0..self.cells_len())
            .filter(|&c| pa[c] != pb[c])
            .map(|c| (c / self.width, c % self.width))
            .collect()
    }

    /// A tile paired the same way in every clearing plan, with its partner as the value: the
    /// partner's cell number, row-major from 1 (`r1c1=4`: with the tile in cell 4, r1c4).
    fn forced(&self, model: &Model<Self::Map>, lits: &[Lit]) -> Vec<CellValue> {
        let mut out = Vec::new();
        for pv in &model.map.pairs {
            if lits.contains(&pv.p) {
                let (a, b) = (model.map.tiles[pv.a], model.map.tiles[pv.b]);
                for (x, y) in [(a, b), (b, a)] {
                    out.push(CellValue {
                        row: x / self.width,
                        col: x % self.width,
                        value: y as i64 + 1,
                    });
                }
            }
        }
        out
    }

    fn json_extra(&self, s: &Plan) -> Vec<(&'static str, serde_json::Value)> {
        let moves: Vec<serde_json::Value> = s
            .moves
            .iter()
            .enumerate()
            .map(|(k, m)| {
                serde_json::json!({
                    "move": k + 1,
                    "face": self.face_name(m.tiles[0]),
                    "tiles": m.cells.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>(),
                    "path": m.path.iter().map(|&(r, c)| [r, c]).collect::<Vec<_>>(),
                })
            })
            .collect();
        vec![("moves", serde_json::Value::Array(moves))]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_groups_take_tiles_names_and_short_names() {
        assert_eq!(group_of("🀦"), Some(Group::Seasons));
        assert_eq!(group_of("🀥"), Some(Group::Flowers));
        assert_eq!(group_of("s3"), Some(Group::Seasons));
        assert_eq!(group_of("Plum"), Some(Group::Flowers));
        assert_eq!(group_of("🀄"), None);
        assert_eq!(group_of("S5"), None);
        assert_eq!(group_of("A"), None);
    }
}
