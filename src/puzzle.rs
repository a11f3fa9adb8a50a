//! What every puzzle kind provides, and the verbs written once on top of it.
//!
//! A kind implements [`Puzzle`]: it compiles itself to a [`Model`] (a CNF formula, the answer
//! variables that make up a solution, its givens as literals), reads a solution back from a
//! solver's assignment, checks a solution with an independent rule checker, and renders. The
//! functions here ([`solve`], [`verdict`], [`count`], [`forced`], [`conflicts`]) then work for
//! every kind through the [`crate::solver::Session`] engine, and every solution they return has
//! passed the kind's rule checker.

use crate::cnf::{limits, Assignment, Clause, Formula, Lit, Var};
use crate::draw::{Look, Picture};
use crate::error::{Error, Result};
use crate::solver::{Outcome, Search, Session, SolverChoice, SolverError, Stop, Verdict};
use serde::Serialize;

/// The puzzle kinds gridsat knows.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Sudoku,
    Takuzu,
    Tectonic,
    Numberlink,
    Shisen,
}

impl Kind {
    /// Every kind, in the order detection tries them.
    pub const ALL: [Kind; 5] = [
        Kind::Sudoku,
        Kind::Takuzu,
        Kind::Tectonic,
        Kind::Numberlink,
        Kind::Shisen,
    ];

    /// The lowercase name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Sudoku => "sudoku",
            Kind::Takuzu => "takuzu",
            Kind::Tectonic => "tectonic",
            Kind::Numberlink => "numberlink",
            Kind::Shisen => "shisen",
        }
    }

    /// The kind for a name or a common alias (`binairo`, `suguru`, `flow`, `arukone`, `onet`...).
    pub fn from_name(s: &str) -> Option<Kind> {
        Some(match s.to_ascii_lowercase().as_str() {
            "sudoku" => Kind::Sudoku,
            "takuzu" | "binairo" | "binary" => Kind::Takuzu,
            "tectonic" | "suguru" => Kind::Tectonic,
            "numberlink" | "arukone" | "flow" => Kind::Numberlink,
            "shisen" | "shisen-sho" | "shisensho" | "lianliankan" | "nikakudori" | "onet" => {
                Kind::Shisen
            }
            _ => return None,
        })
    }
}

/// How givens enter a model.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum GivenMode {
    /// Givens are folded in before encoding: their cells get no variables and the candidates
    /// they eliminate are left out. Smallest formula; the fast path for solving.
    Fold,
    /// The full model with every given as an assumption literal (see [`Model::givens`]); used
    /// to name conflicting givens, and exported as unit clauses by `dimacs` (its default, full export).
    Assume,
}

/// A given (a clue) as a literal, with the label people use for it (`r1c3=5`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Given {
    pub label: String,
    pub lit: Lit,
}

impl Given {
    /// The DIMACS comment (without `c `) that names the given's unit clause: `given 5 r1c1=5`.
    pub fn comment(&self) -> String {
        format!("given {} {}", self.lit.to_dimacs(), self.label)
    }
}

/// A puzzle compiled to CNF.
#[derive(Clone, Debug)]
pub struct Model<M> {
    /// The clauses, with variable names when asked for.
    pub formula: Formula,
    /// The variables that make up a solution: two models are different solutions only when
    /// they differ here.
    pub answer: Vec<Var>,
    /// True when the answer variables form exactly-one groups (direct encodings), so that a
    /// solution is identified by its true answer literals.
    pub one_hot: bool,
    /// The givens as literals (filled in [`GivenMode::Assume`]; empty when folded).
    pub givens: Vec<Given>,
    /// A normal form: assumptions under which the formula keeps at least one solution whenever
    /// it has any, though not all of them (Numberlink under nikoli rules: no path alongside
    /// itself, corners pushed down). The engine looks for first solutions under them and
    /// drops them to look for a second one; counting ignores them. Empty for most kinds.
    pub normal: Vec<Lit>,
    /// Kind-specific data for decoding (which variable is which cell and value).
    pub map: M,
}

/// One cell's value, 0-based coordinates. In JSON it also carries the cell's name as players
/// write it (`"cell": "r4c9"`, 1-based), so scripts need not convert.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellValue {
    pub row: usize,
    pub col: usize,
    pub value: i64,
}

impl Serialize for CellValue {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = s.serialize_struct("CellValue", 4)?;
        st.serialize_field("row", &self.row)?;
        st.serialize_field("col", &self.col)?;
        st.serialize_field("cell", &cell_name(self.row, self.col))?;
        st.serialize_field("value", &self.value)?;
        st.end()
    }
}

/// How to draw.
#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    /// Use ANSI colours.
    pub color: bool,
}

/// A puzzle kind's part of the bargain.
pub trait Puzzle {
    /// Kind-specific decoding data kept in the [`Model`].
    type Map;
    /// A solution.
    type Solution: Clone;

    /// Which kind this is.
    fn kind(&self) -> Kind;
    /// A short description: size and rule options (`9x9, boxes 3x3`).
    fn describe(&self) -> String;
    /// Compiles the puzzle. `names` asks for variable names (for DIMACS export and messages).
    fn model(&self, mode: GivenMode, names: bool) -> Model<Self::Map>;
    /// [`Puzzle::model`] for solving, where building the model may take long (a kind that
    /// searches before it encodes): that search gives up once `stop` is raised, leaving a
    /// model that is still correct, only less helped.
    fn model_until(&self, mode: GivenMode, names: bool, stop: Option<&Stop>) -> Model<Self::Map> {
        let _ = stop;
        self.model(mode, names)
    }
    /// The model written for an external solver (`gridsat dimacs`) and rebuilt to read its
    /// answer (`gridsat decode`): with names, and with every rule in the clauses, since an
    /// external solver knows nothing of [`Puzzle::refine`]. Kinds whose solving model adds
    /// rules lazily override this to put them in up front.
    fn export_model(&self, mode: GivenMode) -> Model<Self::Map> {
        self.model(mode, true)
    }
    /// The model a DRAT proof is about ([`crate::proof`]): the export model with the givens as
    /// literals ([`GivenMode::Assume`]) and every rule in its clauses whatever the reading
    /// options chose, so that its models are exactly the puzzle's solutions and
    /// [`Puzzle::refine`] has nothing to add. Numberlink overrides it for exact loops, Takuzu
    /// for eager distinct lines; `models/<kind>.md` says why this CNF is the rules.
    fn complete_model(&self) -> Model<Self::Map> {
        self.export_model(GivenMode::Assume)
    }
    /// The model `--forced` reads its backbone from: [`Puzzle::model_until`] unless the solving
    /// model's answer literals do not name every cell value (Numberlink's binary path labels).
    fn forced_model(&self, stop: Option<&Stop>) -> Model<Self::Map> {
        self.model_until(GivenMode::Fold, false, stop)
    }
    /// How many of the model's first answer variables tell two solutions apart: the clause
    /// that blocks a solution names only those (all of them by default; Numberlink's labels
    /// follow from its pieces).
    fn distinct(&self, model: &Model<Self::Map>) -> usize {
        model.answer.len()
    }
    /// Literals of the model to try first when solving (a phase hint: a heuristic guess at a
    /// solution, [`crate::solver::Backend::prefer`]); it changes where the solver looks, never
    /// a verdict. None by default; Numberlink under nikoli rules routes its lines.
    fn preferred(&self, _model: &Model<Self::Map>) -> Vec<Lit> {
        Vec::new()
    }
    /// How the solver should search this kind's models ([`crate::solver::Backend::set_search`]):
    /// a hint that changes how long a search takes, never a verdict. [`Search::Standard`] by
    /// default; Sudoku's direct encoding asks for [`Search::Direct`].
    fn search(&self) -> Search {
        Search::Standard
    }
    /// Solutions found without the model, by a kind's own quick search (Shisen-sho plays the
    /// board), tried by [`solve`] and [`check`] before the model is built: one, or with `two`
    /// up to two that differ in their answer. Each is held to the rule checker; a kind never
    /// answers "no solution" this way (that stays the solver's). None by default. `Err` refuses
    /// a puzzle whose model would not fit (the error says why).
    fn found(&self, _stop: Option<&Stop>, _two: bool) -> Result<Vec<Self::Solution>> {
        Ok(Vec::new())
    }
    /// `Err(why)` when the kind's estimate says the model [`check`] would build to look for a
    /// second solution is too large (Shisen-sho's big gravity boards; `why` is the limit, said
    /// for a person): with one solution from [`Puzzle::found`], `check` then keeps it and leaves
    /// uniqueness open. `Ok` by default.
    fn model_fits(&self, _stop: Option<&Stop>) -> std::result::Result<(), String> {
        Ok(())
    }
    /// Reads a solution from an assignment of the model.
    fn decode(&self, model: &Model<Self::Map>, a: &Assignment) -> Self::Solution;
    /// Lazy constraints: clauses that a model violates (none for most kinds).
    fn refine(&self, _model: &Model<Self::Map>, _a: &Assignment) -> Vec<Clause> {
        Vec::new()
    }
    /// For a kind with a normal form ([`Model::normal`]): clauses, written to `f`, that some
    /// solution other than `first` satisfies whenever there is one and `first` is the only
    /// solution in normal form (they narrow a search for a second solution). None by
    /// default.
    fn near(&self, _model: &Model<Self::Map>, _first: &Assignment, _f: &mut Formula) {}
    /// True when the search of [`Puzzle::near`] is small enough to go before the second
    /// normal-form question ([`Session::into_verdict_normal`]). False by default.
    fn near_first(&self) -> bool {
        false
    }
    /// The independent rule checker: `Err` says which rule a solution breaks.
    fn check(&self, s: &Self::Solution) -> std::result::Result<(), String>;
    /// A solution as rows of numbers (the `solution` field of `--json`).
    fn rows(&self, s: &Self::Solution) -> Vec<Vec<i64>>;
    /// The puzzle (None) or a solution drawn for a terminal.
    fn render(&self, s: Option<&Self::Solution>, style: Style) -> String;
    /// The cell values that backbone literals of the model stand for.
    fn forced(&self, model: &Model<Self::Map>, lits: &[Lit]) -> Vec<CellValue>;
    /// The puzzle (None) or a solution as a picture ([`crate::draw`]); `None` for a kind that
    /// has no pictures (the command line then says so).
    fn picture(&self, _s: Option<&Self::Solution>, _look: Look) -> Option<Picture> {
        None
    }
    /// [`Puzzle::picture`] for pictures shown together with the picture of solution `like`
    /// (the puzzle beside its solution, a second solution beside the first): a kind whose
    /// colours follow a solution's layout (Numberlink's paths) colours each part as `like`'s
    /// picture does, so a path keeps its colour from one picture to the next.
    fn picture_like(
        &self,
        s: Option<&Self::Solution>,
        _like: &Self::Solution,
        look: Look,
    ) -> Option<Picture> {
        self.picture(s, look)
    }
    /// The cells (row, col) where two solutions differ: by default where their
    /// [`Puzzle::rows`] differ. A kind whose rows carry more than its answer (Shisen-sho's move
    /// numbers, where only the pairing is the answer) says where the answers differ.
    fn differing(&self, a: &Self::Solution, b: &Self::Solution) -> Vec<(usize, usize)>
    where
        Self: Sized,
    {
        differing_cells(self, a, b)
    }
    /// For naming conflicting givens ([`conflicts`]): the puzzle that keeps only the givens
    /// marked in `keep` (indexed as [`Model::givens`] in [`GivenMode::Assume`]), as a puzzle of
    /// its own that has a solution exactly when the Assume model has one under the kept givens.
    /// A kind that gives it has each trial of the search solved on that puzzle's folded model,
    /// which is much stronger than the Assume model under assumptions (Numberlink: path labels
    /// narrowed by reach, the corner chains, the nikoli normal form). `None` by default: the
    /// search asks the Assume model.
    fn keeping(&self, _keep: &[bool]) -> Option<Self>
    where
        Self: Sized,
    {
        None
    }
    /// True when each given of the Assume model is a selector: the given false is the puzzle
    /// without it ([`Puzzle::keeping`]), as Numberlink's path and coverage givens are (a
    /// Sudoku given false would say the cell holds another digit). The search for conflicting
    /// givens then assumes the givens it leaves out false, and asks every set on one warm
    /// solver. False by default.
    fn selector_givens(&self) -> bool {
        false
    }
    /// Extra JSON fields for a solution (Numberlink's `paths`).
    fn json_extra(&self, _s: &Self::Solution) -> Vec<(&'static str, serde_json::Value)> {
        Vec::new()
    }
}

/// The name players use for a cell: `r4c9` (1-based).
pub fn cell_name(row: usize, col: usize) -> String {
    format!("r{}c{}", row + 1, col + 1)
}

/// What is known about a puzzle's solutions.
#[derive(Clone, Debug)]
pub enum Solutions<S> {
    /// Exactly one.
    Unique(S),
    /// Two that differ, and the cells (row, col) where they do.
    Multiple(S, S, Vec<(usize, usize)>),
    /// None.
    None,
}

fn session<'a, P: Puzzle>(p: &P, choice: &SolverChoice, model: &Model<P::Map>) -> Session<'a> {
    Session::new(
        choice.backend(),
        &model.formula,
        model.answer.clone(),
        model.one_hot,
    )
    .with_distinct(p.distinct(model))
    .with_search(p.search())
    .with_preferred(&p.preferred(model))
}

/// A model built under the thread's limits ([`crate::cnf::limits`]): stopped when the stop
/// flag was raised meanwhile, refused when it and the solver loading it would take more than
/// the memory budget (a cut formula is incomplete and is never solved).
fn built<M>(make: impl FnOnce() -> Model<M>) -> Result<Model<M>> {
    let model = limits::building(make);
    let f = &model.formula;
    let too_large = |budget| SolverError::TooLarge {
        needed: f.memory_bytes(),
        budget,
    };
    match (f.cut(), f.max_bytes()) {
        (Some(limits::Cut::Stopped), _) => Err(SolverError::Stopped.into()),
        (Some(limits::Cut::TooLarge), budget) => Err(too_large(budget.unwrap_or(0)).into()),
        (None, Some(budget)) if f.memory_bytes() > budget => Err(too_large(budget).into()),
        (None, _) => Ok(model),
    }
}

fn checked<P: Puzzle>(p: &P, model: &Model<P::Map>, a: &Assignment) -> Result<P::Solution> {
    let s = p.decode(model, a);
    p.check(&s).map_err(|why| {
        Error::Bug(format!(
            "the {} model produced a solution that breaks the rules: {why}",
            p.kind().name()
        ))
    })?;
    Ok(s)
}

/// A solution of [`Puzzle::found`], held to the rule checker.
fn ruled<P: Puzzle>(p: &P, s: P::Solution) -> Result<P::Solution> {
    p.check(&s).map_err(|why| {
        Error::Bug(format!(
            "the {} search produced a solution that breaks the rules: {why}",
            p.kind().name()
        ))
    })?;
    Ok(s)
}

/// Any one solution (no uniqueness check).
pub fn solve<P: Puzzle>(p: &P, choice: &SolverChoice) -> Result<Option<P::Solution>> {
    if let Some(s) = p.found(choice.stop(), false)?.into_iter().next() {
        return Ok(Some(ruled(p, s)?));
    }
    let model = built(|| p.model_until(GivenMode::Fold, false, choice.stop()))?;
    let refine = |a: &Assignment| p.refine(&model, a);
    let mut s = session(p, choice, &model).with_refine(&refine);
    match s.solve(&model.normal)? {
        Outcome::Sat(a) => Ok(Some(checked(p, &model, &a)?)),
        Outcome::Unsat(_) => Ok(None),
    }
}

/// The cells where two solutions differ.
pub fn differing_cells<P: Puzzle>(p: &P, a: &P::Solution, b: &P::Solution) -> Vec<(usize, usize)> {
    let (ra, rb) = (p.rows(a), p.rows(b));
    let mut cells = Vec::new();
    for (r, (x, y)) in ra.iter().zip(&rb).enumerate() {
        for (c, (u, v)) in x.iter().zip(y).enumerate() {
            if u != v {
                cells.push((r, c));
            }
        }
    }
    cells
}

/// Unique, several (with two that differ), or none; a time limit that runs out is an error
/// ([`SolverError::Stopped`]), also after a first solution ([`check`] keeps it).
pub fn verdict<P: Puzzle>(p: &P, choice: &SolverChoice) -> Result<Solutions<P::Solution>> {
    match check(p, choice)? {
        Checked::Decided(s) => Ok(s),
        Checked::Found(..) => Err(SolverError::Stopped.into()),
    }
}

/// What [`check`] learns: a verdict, or a solution whose uniqueness the time limit left open.
pub enum Checked<S> {
    Decided(Solutions<S>),
    /// A solution (it passed the rule checker); the time ran out looking for a second one
    /// (`None`), or the model that would look for it is too large (`Some(why)`).
    Found(S, Option<String>),
}

/// [`verdict`], keeping the first solution when the time limit stops the search for a second.
pub fn check<P: Puzzle>(p: &P, choice: &SolverChoice) -> Result<Checked<P::Solution>> {
    let mut found = p.found(choice.stop(), true)?;
    if found.len() == 2 {
        let b = ruled(p, found.pop().expect("two"))?;
        let a = ruled(p, found.pop().expect("two"))?;
        let cells = p.differing(&a, &b);
        return Ok(Checked::Decided(Solutions::Multiple(a, b, cells)));
    }
    if found.len() == 1 {
        if let Err(why) = p.model_fits(choice.stop()) {
            let why = (!choice.stop().is_some_and(Stop::is_raised)).then_some(why);
            return Ok(Checked::Found(ruled(p, found.pop().expect("one"))?, why));
        }
    }
    let model = built(|| p.model_until(GivenMode::Fold, false, choice.stop()))?;
    let refine = |a: &Assignment| p.refine(&model, a);
    let s = session(p, choice, &model).with_refine(&refine);
    let near = |first: &Assignment, f: &mut Formula| p.near(&model, first, f);
    let solutions = match s.into_verdict_normal(&model.normal, &near, p.near_first())? {
        Verdict::Unique(a) => Solutions::Unique(checked(p, &model, &a)?),
        Verdict::Multiple(a, b) => {
            let (a, b) = (checked(p, &model, &a)?, checked(p, &model, &b)?);
            let cells = p.differing(&a, &b);
            Solutions::Multiple(a, b, cells)
        }
        Verdict::None => Solutions::None,
        Verdict::Found(a) => return Ok(Checked::Found(checked(p, &model, &a)?, None)),
    };
    Ok(Checked::Decided(solutions))
}

/// Up to `max` solutions; fewer means that is all of them.
pub fn count<P: Puzzle>(p: &P, choice: &SolverChoice, max: usize) -> Result<Vec<P::Solution>> {
    let model = built(|| p.model_until(GivenMode::Fold, false, choice.stop()))?;
    let refine = |a: &Assignment| p.refine(&model, a);
    let s = session(p, choice, &model).with_refine(&refine);
    s.into_solutions(max, &[])?
        .iter()
        .map(|a| checked(p, &model, a))
        .collect()
}

/// The cells whose value is the same in every solution and that are not givens (`None` when
/// there is no solution).
pub fn forced<P: Puzzle>(p: &P, choice: &SolverChoice) -> Result<Option<Vec<CellValue>>> {
    let model = built(|| p.forced_model(choice.stop()))?;
    let refine = |a: &Assignment| p.refine(&model, a);
    let mut s = session(p, choice, &model).with_refine(&refine);
    let first = match s.solve(&model.normal)? {
        Outcome::Sat(a) => a,
        Outcome::Unsat(_) => return Ok(None),
    };
    checked(p, &model, &first)?;
    let lits = s.backbone(&first, &[])?;
    let mut cells = p.forced(&model, &lits);
    crate::sort::by_key(&mut cells, |c| (c.row, c.col, c.value));
    Ok(Some(cells))
}

/// The cell values that appear in some solution (what setters call true candidates), for the
/// cells that are not givens, sorted; `None` when there is no solution. Each round asks for a
/// solution with at least one value not yet seen, so the solver calls number one more than the
/// solutions needed to show every value, not one per value. [`forced`] is the cells with one.
pub fn candidates<P: Puzzle>(p: &P, choice: &SolverChoice) -> Result<Option<Vec<CellValue>>> {
    let model = p.forced_model(choice.stop());
    let refine = |a: &Assignment| p.refine(&model, a);
    let mut s = session(p, choice, &model).with_refine(&refine);
    let first = match s.solve(&model.normal)? {
        Outcome::Sat(a) => a,
        Outcome::Unsat(_) => return Ok(None),
    };
    checked(p, &model, &first)?;
    // The answer literals no solution has shown yet (for one-hot answers only the true ones
    // name a value).
    let lits_of = |a: &Assignment| -> Vec<Lit> {
        model
            .answer
            .iter()
            .map(|&v| v.lit(a.var(v)))
            .filter(|l| !model.one_hot || l.is_positive())
            .collect()
    };
    let mut seen: std::collections::HashSet<Lit> = lits_of(&first).into_iter().collect();
    let all: Vec<Lit> = model
        .answer
        .iter()
        .flat_map(|&v| [v.pos(), !v.pos()])
        .filter(|l| !model.one_hot || l.is_positive())
        .collect();
    // Each round's clause is switched on by a fresh literal of its own, and off afterwards.
    let mut next = model.formula.num_vars();
    loop {
        let open: Vec<Lit> = all.iter().copied().filter(|l| !seen.contains(l)).collect();
        if open.is_empty() {
            break;
        }
        let act = Var::from_index(next).pos();
        next += 1;
        let mut clause = vec![!act];
        clause.extend(&open);
        s.add_clause(&clause);
        let outcome = s.solve(&[act])?;
        s.add_clause(&[!act]);
        match outcome {
            Outcome::Sat(a) => {
                checked(p, &model, &a)?;
                seen.extend(lits_of(&a));
            }
            Outcome::Unsat(_) => break,
        }
    }
    let lits: Vec<Lit> = all.into_iter().filter(|l| seen.contains(l)).collect();
    let mut cells = p.forced(&model, &lits);
    crate::sort::by_key(&mut cells, |c| (c.row, c.col, c.value));
    cells.dedup();
    Ok(Some(cells))
}

/// For a puzzle with no solution, a small set of givens that conflict (labels like `r1c3=5`),
/// minimal: without any one of them the rest has a solution. Empty when the puzzle's rules
/// have no solution even without givens; `None` when the puzzle has a solution.
pub fn conflicts<P: Puzzle>(p: &P, choice: &SolverChoice) -> Result<Option<Vec<String>>> {
    let model = built(|| p.model(GivenMode::Assume, false))?;
    if p.keeping(&vec![true; model.givens.len()]).is_some() {
        return match conflicts_by_parts(p, choice, &model)? {
            Some(c) if !c.minimal => Err(SolverError::Stopped.into()),
            found => Ok(found.map(|c| c.givens)),
        };
    }
    let refine = |a: &Assignment| p.refine(&model, a);
    let mut s = session(p, choice, &model).with_refine(&refine);
    let lits: Vec<Lit> = model.givens.iter().map(|g| g.lit).collect();
    Ok(s.conflicting_givens(&lits)?.map(|idx| {
        idx.into_iter()
            .map(|i| model.givens[i].label.clone())
            .collect()
    }))
}

/// Givens that conflict, found by [`conflicts_until_stopped`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conflicts {
    /// The givens' labels (`r1c3=5`), in the model's order; empty when the rules alone have
    /// no solution.
    pub givens: Vec<String>,
    /// True when no one of them can be left out (as [`conflicts`] gives them); false when the
    /// time limit ([`Stop`]) ran out while the search was leaving givens out: they conflict
    /// all the same, but some may not be needed.
    pub minimal: bool,
}

/// [`conflicts`] for a puzzle already known to have no solution, which keeps what it found
/// when the time limit runs out: the givens left so far conflict (the search only ever leaves
/// out a given when the rest still has no solution), marked not minimal; also for a kind
/// without [`Puzzle::keeping`], which searches as [`conflicts`] does.
pub fn conflicts_until_stopped<P: Puzzle>(
    p: &P,
    choice: &SolverChoice,
) -> Result<Option<Conflicts>> {
    let model = built(|| p.model(GivenMode::Assume, false))?;
    if p.keeping(&vec![true; model.givens.len()]).is_some() {
        return conflicts_by_parts(p, choice, &model);
    }
    let refine = |a: &Assignment| p.refine(&model, a);
    let mut s = session(p, choice, &model).with_refine(&refine);
    let lits: Vec<Lit> = model.givens.iter().map(|g| g.lit).collect();
    Ok(s.conflicting_givens_until_stopped(&lits)?
        .map(|(idx, minimal)| Conflicts {
            givens: idx
                .into_iter()
                .map(|i| model.givens[i].label.clone())
                .collect(),
            minimal,
        }))
}

/// Conflicts a trial of [`conflicts_by_parts`] may spend on the Assume model before it is
/// asked on its own folded puzzles instead (chosen on the 15x15 sets of `benches/refute`; for
/// Numberlink's selector model 2,000 and 5,000 were tried too: no better at 15x15, slower at
/// 20x20).
pub const TRIAL_CONFLICTS: u64 = 300;

/// Questions in a row the Assume model may leave open within [`TRIAL_CONFLICTS`] before
/// [`conflicts_by_parts`] stops asking it (on Sudoku it answers nearly every question; on
/// Numberlink's open boards far from all).
pub const ASSUME_OPEN: usize = 4;

/// Conflicts a first-pass trial of [`conflicts_by_parts`] may spend on a folded puzzle before
/// it is put off to the growing pass (chosen on the sets of `benches/refute`): a set of givens
/// that has a solution is usually solved well within it, while proving that one has none can
/// take a hundred times more.
pub const FOLDED_CONFLICTS: u64 = 500;

/// Conflicts [`conflicts_by_parts`] may spend on each question of its growing pass.
pub const GROWING_CONFLICTS: u64 = 20_000;

/// A folded puzzle ([`Puzzle::keeping`]) solved within `conflicts` (unbounded when `None`):
/// whether it has a solution, `None` when the budget ran out.
fn solvable_within<P: Puzzle>(
    p: &P,
    choice: &SolverChoice,
    conflicts: Option<u64>,
) -> Result<Option<bool>> {
    let Some(conflicts) = conflicts else {
        return Ok(Some(solve(p, choice)?.is_some()));
    };
    if let Some(s) = p.found(choice.stop(), false)?.into_iter().next() {
        ruled(p, s)?;
        return Ok(Some(true));
    }
    let model = built(|| p.model_until(GivenMode::Fold, false, choice.stop()))?;
    let refine = |a: &Assignment| p.refine(&model, a);
    let mut s = session(p, choice, &model).with_refine(&refine);
    Ok(match s.solve_budget(&model.normal, conflicts)? {
        Some(Outcome::Sat(a)) => {
            checked(p, &model, &a)?;
            Some(true)
        }
        Some(Outcome::Unsat(_)) => Some(false),
        None => None,
    })
}

/// [`conflicts`] for a kind with [`Puzzle::keeping`]. A set of givens is asked, cheapest
/// first: what earlier answers tell (a set that holds one known to conflict conflicts too; one
/// inside a set known to have a solution has one, since fewer givens never lose a solution);
/// then the Assume model under it within [`TRIAL_CONFLICTS`] (an answer without a solution
/// names the givens its proof used, which drops every other one at once; not asked any more
/// once it left [`ASSUME_OPEN`] questions in a row open; for a kind with
/// [`Puzzle::selector_givens`] the givens left out are assumed false and the model's normal
/// form is assumed, so it answers as the puzzle that keeps the set); then, when one given
/// `g` was left out of the kept set, the puzzle with every given of the input but `g` (a
/// solution there keeps `g`: every conflict among the input's givens needs it); then the set
/// as a puzzle of its own, solved folded (much stronger on sparse boards than the Assume
/// model).
///
/// Three passes find a minimal set among the givens kept after the first question (which all
/// conflict):
///
/// 1. each given in turn, with the folded solve held to [`FOLDED_CONFLICTS`]: a solution
///    without it marks it *needed* (every conflict among the kept givens has it; fewer givens
///    never lose a solution, so it stays needed as the kept set shrinks), none drops it, and a
///    trial that runs out of its budget is put off. Sets with a solution are quick to solve,
///    also sparse ones; proving a sparse board has none is the dear part;
/// 2. the needed givens alone, then with each put-off given in turn, within
///    [`GROWING_CONFLICTS`]: a setter who changed one thing usually made one conflict, and
///    sparse sets of givens are refuted fastest;
/// 3. else [`growing`] over the put-off givens, the needed ones as background, each question
///    within [`GROWING_CONFLICTS`]: the needed givens with the put-off ones added one at a time until
///    the set conflicts, so that most questions are sets with a solution (quick) and the one
///    without has few spare givens (a set that conflicts is refuted the slower the more spare
///    givens it keeps); the given whose arrival made the conflict is needed, and the search
///    goes on among the givens added before it. A given whose place the budget left uncertain
///    is asked again at the end without a limit.
///
/// The result conflicts, and without any one of its givens the rest has a solution. A stop
/// gives the smallest set known to conflict so far, not minimal.
fn conflicts_by_parts<P: Puzzle>(
    p: &P,
    choice: &SolverChoice,
    model: &Model<P::Map>,
) -> Result<Option<Conflicts>> {
    let n = model.givens.len();
    let refine = |a: &Assignment| p.refine(model, a);
    // Every given preferred: a trial that leaves givens out still looks first at grids that
    // keep them, near the input, where a solution of the rest usually is.
    let all: Vec<Lit> = model.givens.iter().map(|g| g.lit).collect();
    let mut s = session(p, choice, model)
        .with_refine(&refine)
        .with_preferred(&all);
    let selectors = p.selector_givens();
    let folded = |keep: &[bool], conflicts: Option<u64>| -> Result<Option<bool>> {
        let sub = p.keeping(keep).expect("keeping gives every subset");
        solvable_within(&sub, choice, conflicts)
    };
    // The smallest set of givens known to conflict (none before the first question).
    let mut known: Option<Vec<bool>> = None;
    // Every set answered so far, with and without a solution.
    let mut conflicting: Vec<Vec<bool>> = Vec::new();
    let mut solvable: Vec<Vec<bool>> = Vec::new();
    let within = |a: &[bool], b: &[bool]| a.iter().zip(b).all(|(&x, &y)| !x || y);
    // Questions in a row the Assume model left open.
    let mut open_in_a_row = 0;
    // Whether the givens in `keep` leave a solution (`None`: the folded budget ran out),
    // `keep` being the kept givens but `left` (None for the first question, all givens); an
    // answer without one may clear more of `keep` (the givens its proof did not use).
    let mut ask = |keep: &mut Vec<bool>,
                   left: Option<usize>,
                   conflicts: Option<u64>|
     -> Result<Option<bool>> {
        if let Some(c) = conflicting.iter().find(|c| within(c, keep)) {
            keep.clone_from(c);
            return Ok(Some(false));
        }
        if solvable.iter().any(|o| within(keep, o)) {
            return Ok(Some(true));
        }
        // With selector givens the left-out ones are assumed false: the Assume model is then
        // the puzzle that keeps the set.
        let mut lits: Vec<Lit> = (0..n)
            .filter(|&i| keep[i] || selectors)
            .map(|i| {
                if keep[i] {
                    model.givens[i].lit
                } else {
                    !model.givens[i].lit
                }
            })
            .collect();
        // A set that leaves a given out is asked in the Assume model's normal form, if it has
        // one (Numberlink: an open board's).
        if keep.contains(&false) {
            lits.extend(&model.normal);
        }
        let assumed = if open_in_a_row < ASSUME_OPEN {
            s.solve_budget(&lits, TRIAL_CONFLICTS)?
        } else {
            None
        };
        open_in_a_row = if assumed.is_some() {
            0
        } else {
            open_in_a_row + 1
        };
        let answer = match assumed {
            Some(Outcome::Sat(_)) => Some(true),
            Some(Outcome::Unsat(core)) => {
                for (k, g) in keep.iter_mut().zip(&model.givens) {
                    *k = *k && core.contains(&g.lit);
                }
                Some(false)
            }
            None => {
                let mut answer = None;
                if let Some(g) = left {
                    let mut others = vec![true; n];
                    others[g] = false;
                    if others != *keep && folded(&others, conflicts)? == Some(true) {
                        solvable.push(others);
                        answer = Some(true);
                    }
                }
                match answer {
                    Some(a) => Some(a),
                    None => folded(keep, conflicts)?,
                }
            }
        };
        match answer {
            Some(false) => conflicting.push(keep.clone()),
            Some(true) => solvable.push(keep.clone()),
            None => {}
        }
        let count = |k: &[bool]| k.iter().filter(|&&x| x).count();
        if answer == Some(false) && known.as_ref().is_none_or(|k| count(keep) < count(k)) {
            known = Some(keep.clone());
        }
        Ok(answer)
    };
    let mut search = || -> Result<Option<Vec<bool>>> {
        let mut keep = vec![true; n];
        if ask(&mut keep, None, None)? == Some(true) {
            return Ok(None);
        }
        let mut needed = vec![false; n];
        let mut put_off = Vec::new();
        for i in 0..n {
            if !keep[i] {
                continue;
            }
            let mut trial = keep.clone();
            trial[i] = false;
            match ask(&mut trial, Some(i), Some(FOLDED_CONFLICTS))? {
                Some(true) => needed[i] = true,
                Some(false) => keep = trial,
                None => put_off.push(i),
            }
        }
        put_off.retain(|&i| keep[i]);
        // The needed givens alone, then with each put-off given: one change usually makes one
        // conflict, and a set with few spare givens is refuted fastest.
        let mut alone = needed.clone();
        match ask(&mut alone, None, Some(GROWING_CONFLICTS))? {
            Some(false) => return Ok(Some(alone)),
            Some(true) => {
                for &i in &put_off {
                    let mut trial = needed.clone();
                    trial[i] = true;
                    if ask(&mut trial, None, Some(GROWING_CONFLICTS))? == Some(false) {
                        return Ok(Some(trial));
                    }
                }
            }
            None => {}
        }
        let mut grow_ask = |set: &mut Vec<bool>| ask(set, None, Some(GROWING_CONFLICTS));
        let (mut set, unsure) = growing(&mut grow_ask, &needed, &put_off)?;
        for i in unsure {
            if !set[i] {
                continue;
            }
            let mut trial = set.clone();
            trial[i] = false;
            if ask(&mut trial, None, None)? == Some(false) {
                set = trial;
            }
        }
        Ok(Some(set))
    };
    let found = search();
    let (keep, minimal) = match found {
        Ok(None) => return Ok(None),
        Ok(Some(keep)) => (keep, true),
        Err(Error::Solver(SolverError::Stopped)) if known.is_some() => {
            (known.expect("known"), false)
        }
        Err(e) => return Err(e),
    };
    Ok(Some(Conflicts {
        givens: (0..n)
            .filter(|&i| keep[i])
            .map(|i| model.givens[i].label.clone())
            .collect(),
        minimal,
    }))
}

/// The growing (progression) search: for givens `background` (marked) and `candidates` that
/// together conflict, a conflicting set of the background and the fewest candidates. Each
/// round adds the candidates one at a time to the background, asking each set (`ask`: `Some`
/// whether it has a solution, `None` when its budget ran out; an answer without one may clear
/// givens of the set that are not needed for the conflict), until one conflicts; the
/// candidate added last then joins the background (the set before it had a solution, so every
/// conflict among these givens has it) and the next round looks among the candidates added
/// before it. Returns the set (it conflicts) and the candidates that joined it after a
/// question left open (`None`) rather than a solution: they may be spare, and the caller asks
/// again. With every answer given, the set is minimal.
fn growing(
    ask: &mut dyn FnMut(&mut Vec<bool>) -> Result<Option<bool>>,
    background: &[bool],
    candidates: &[usize],
) -> Result<(Vec<bool>, Vec<usize>)> {
    let mut set = background.to_vec();
    let mut candidates = candidates.to_vec();
    let mut unsure = Vec::new();
    loop {
        let mut alone = set.clone();
        let mut before = ask(&mut alone)?;
        if before == Some(false) || candidates.is_empty() {
            return Ok((if before == Some(false) { alone } else { set }, unsure));
        }
        let mut grown = set.clone();
        let mut hit = None;
        for (pos, &i) in candidates.iter().enumerate() {
            grown[i] = true;
            let mut trial = grown.clone();
            match ask(&mut trial)? {
                Some(false) => {
                    hit = Some((pos, trial));
                    break;
                }
                answer => before = answer,
            }
        }
        // No set conflicted within its budget: the last one is the background and every
        // candidate, which conflicts; each candidate is then uncertain.
        let Some((pos, conflict)) = hit else {
            for &i in &candidates {
                set[i] = true;
            }
            unsure.extend(candidates);
            return Ok((set, unsure));
        };
        let i = candidates[pos];
        for (s, &c) in set.iter_mut().zip(&conflict) {
            *s = *s && c;
        }
        if conflict[i] {
            set[i] = true;
            if before != Some(true) {
                unsure.push(i);
            }
        }
        candidates.truncate(pos);
        candidates.retain(|&j| conflict[j]);
    }
}

/// The labels of a puzzle's givens, in the order of [`Model::givens`] in
/// [`GivenMode::Assume`] (the order [`Puzzle::keeping`] takes): for tests that turn the names
/// [`conflicts`] gives back into a set of givens.
#[cfg(test)]
pub(crate) fn given_labels<P: Puzzle>(p: &P) -> Vec<String> {
    p.model(GivenMode::Assume, false)
        .givens
        .into_iter()
        .map(|g| g.label)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    /// Every (row, col, value) of the open cells over all solutions, by enumeration.
    fn by_enumeration<P: Puzzle>(p: &P, open: impl Fn(usize, usize) -> bool) -> Vec<CellValue> {
        let all = count(p, &SolverChoice::Embedded, 10_000).unwrap();
        assert!(all.len() < 10_000);
        let mut seen = BTreeSet::new();
        for s in &all {
            for (r, row) in p.rows(s).iter().enumerate() {
                for (c, &v) in row.iter().enumerate() {
                    if open(r, c) {
                        seen.insert((r, c, v));
                    }
                }
            }
        }
        seen.into_iter()
            .map(|(row, col, value)| CellValue { row, col, value })
            .collect()
    }

    #[test]
    fn growing_finds_a_minimal_conflict() {
        // Givens 0..9 conflict exactly when a set holds {1, 6} or {2, 3, 7}. Asked exactly,
        // the set found conflicts, is minimal and nothing is uncertain; with sets of more than
        // five givens left open (a budget that runs out), it still conflicts, and asking the
        // uncertain givens again (as the caller does) leaves it minimal.
        let conflicts = |set: &[bool]| (set[1] && set[6]) || (set[2] && set[3] && set[7]);
        let size = |set: &[bool]| set.iter().filter(|&&x| x).count();
        for open_above in [usize::MAX, 5] {
            for needed in [vec![], vec![6], vec![3], vec![2, 7]] {
                let mut background = vec![false; 9];
                for &i in &needed {
                    background[i] = true;
                }
                let candidates: Vec<usize> = (0..9).filter(|i| !needed.contains(i)).collect();
                let mut asked = 0;
                let mut ask = |set: &mut Vec<bool>| -> Result<Option<bool>> {
                    asked += 1;
                    Ok((size(set) <= open_above).then(|| !conflicts(set)))
                };
                let (mut set, unsure) = growing(&mut ask, &background, &candidates).unwrap();
                assert!(conflicts(&set), "{needed:?}: {set:?}");
                assert!(needed.iter().all(|&i| set[i]), "{needed:?}: {set:?}");
                if open_above == usize::MAX {
                    assert!(unsure.is_empty() && asked <= 30, "{asked} questions");
                }
                for i in unsure {
                    set[i] = false;
                    if !conflicts(&set) {
                        set[i] = true;
                    }
                }
                let kept: Vec<usize> = (0..9).filter(|&i| set[i]).collect();
                for i in kept.into_iter().filter(|i| !needed.contains(i)) {
                    set[i] = false;
                    assert!(!conflicts(&set), "{needed:?}: spare {i}");
                    set[i] = true;
                }
            }
        }
    }

    #[cfg(feature = "cadical")]
    #[test]
    fn cadical_cores_give_a_minimal_conflicting_set() {
        // The classic puzzle with r1c1 changed to each value that leaves no solution: the
        // budgeted questions run on CaDiCaL (its failed assumptions shrink the set); the set
        // conflicts and without any one of its givens the rest has a solution.
        let text =
            "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79";
        let base = &crate::sudoku::format::parse("c", text, Default::default()).unwrap()[0];
        let mut tried = 0;
        for value in [1, 2, 4, 6, 8, 9] {
            let mut p = base.clone();
            p.cells[0] = value;
            let Some(set) = conflicts(&p, &SolverChoice::Cadical).unwrap() else {
                continue;
            };
            tried += 1;
            let givens = p.cells.iter().filter(|&&v| v != 0).count();
            let labels = given_labels(&p);
            let keep: Vec<bool> = labels.iter().map(|l| set.contains(l)).collect();
            assert_eq!(keep.len(), givens);
            let sub = p.keeping(&keep).unwrap();
            assert!(
                solve(&sub, &SolverChoice::Embedded).unwrap().is_none(),
                "{value}: {set:?}"
            );
            for i in (0..givens).filter(|&i| keep[i]) {
                let mut less = keep.clone();
                less[i] = false;
                let sub = p.keeping(&less).unwrap();
                let solved = solve(&sub, &SolverChoice::Embedded).unwrap();
                assert!(
                    solved.is_some(),
                    "{value}: {} is spare in {set:?}",
                    labels[i]
                );
            }
        }
        assert!(tried >= 2, "only {tried} values left no solution");
    }

    #[test]
    fn candidates_are_the_values_some_solution_has() {
        // One-hot answers (Sudoku) and binary ones (Takuzu), with several solutions.
        let mut s = crate::sudoku::Sudoku::empty(4, 2, 2);
        s.cells[0] = 1;
        s.cells[5] = 3;
        let open = |r: usize, c: usize| s.cells[r * 4 + c] == 0;
        let got = candidates(&s, &SolverChoice::Embedded).unwrap().unwrap();
        assert_eq!(got, by_enumeration(&s, open));
        let t = &crate::takuzu::format::parse("t", "1...\n....\n..0.\n....\n", &Default::default())
            .unwrap()[0];
        let open = |r: usize, c: usize| t.cells[r * 4 + c].is_none();
        let got = candidates(t, &SolverChoice::Embedded).unwrap().unwrap();
        assert_eq!(got, by_enumeration(t, open));
        // A clash: no solution, no candidates.
        s.cells[1] = 1;
        assert!(candidates(&s, &SolverChoice::Embedded).unwrap().is_none());
    }
}
