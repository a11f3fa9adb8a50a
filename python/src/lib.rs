//! `import gridsat`: the library as a Python package. A thin edge over the Rust library: the
//! records are the library's own (`gridsat::record`, the builders the command line and the web
//! page use), so `to_json()` is the command line's `--json` line. The clock, the threads and
//! Python's signals live here: every long call runs the solver on a worker thread with the
//! GIL released, while the calling thread waits, reads the time limit and polls Python's
//! signal handlers (Ctrl-C); either raises the solver's stop flag.

mod convert;
mod run;

use convert::{json_to_py, to_py_err};
use gridsat::draw::{layout, Look, Picture};
use gridsat::error::Error;
use gridsat::kinds::{self, AnyPuzzle};
use gridsat::options::{ReadWords, TakuzuWords};
use gridsat::puzzle::{Puzzle as _, Style};
use gridsat::record::explain::{Explained, Verb};
use gridsat::record::pictures::Show;
use gridsat::record::{self, Mode, Report};
use gridsat::solver::SolverChoice;
use gridsat::with_puzzle;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;

/// mimalloc, as the command line uses: every call builds and drops a model and a solver, and
/// glibc's malloc took about a fifth of an easy Sudoku's instructions here.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pyo3::create_exception!(
    gridsat,
    GridsatError,
    pyo3::exceptions::PyException,
    "Every error gridsat raises."
);
pyo3::create_exception!(
    gridsat,
    InputError,
    GridsatError,
    "Bad input: the message names file, line and column (also the attributes `file`, `line`, `col`)."
);
pyo3::create_exception!(
    gridsat,
    UsageError,
    GridsatError,
    "An option or argument gridsat cannot use (the command line's exit code 2)."
);
pyo3::create_exception!(gridsat, SolverError, GridsatError, "The solver failed.");

/// A puzzle of any kind, read by `gridsat.read` or made by `gridsat.generate`.
#[pyclass(module = "gridsat", frozen)]
struct Puzzle {
    puzzle: Arc<AnyPuzzle>,
    file: String,
    index: usize,
}

/// Pictures drawn side by side as one SVG document.
fn sheet_svg(pictures: &[Picture]) -> String {
    layout::side_by_side(pictures).to_svg()
}

fn png_of(svg: &str) -> PyResult<Vec<u8>> {
    gridsat::draw::raster::png(svg).map_err(|e| to_py_err(Error::Bug(e)))
}

fn no_pictures(kind: &str) -> PyErr {
    UsageError::new_err(format!("{kind} puzzles have no pictures yet"))
}

impl Puzzle {
    fn kind_name(&self) -> &'static str {
        with_puzzle!(&*self.puzzle, p => p.kind().name())
    }

    /// Runs a verdict mode under the stop flag and the time limit, and completes the record.
    fn verdict(&self, py: Python<'_>, mode: Mode, timeout: Option<f64>) -> PyResult<Verdict> {
        self.run_verdict(py, mode, timeout, move |any, choice| {
            run::find_any(any, mode, choice)
        })
    }

    /// [`Puzzle::verdict`] with the analysis `find` (as [`run::find_any`]) in its place.
    fn run_verdict(
        &self,
        py: Python<'_>,
        mode: Mode,
        timeout: Option<f64>,
        find: impl FnOnce(&AnyPuzzle, &SolverChoice) -> gridsat::error::Result<(Report, run::AnyFinding)>
            + Send
            + 'static,
    ) -> PyResult<Verdict> {
        let any = self.puzzle.clone();
        let (got, ms) = run::stoppable(py, timeout, move |choice| find(&any, choice))?;
        let (mut r, finding) = match got {
            Ok((r, f)) => (r, Some(f)),
            // The time ran out before any answer: the record says `unknown`.
            Err(Error::Solver(gridsat::solver::SolverError::Stopped)) => (
                with_puzzle!(&*self.puzzle, p => Report::stopped(p, timeout)),
                None,
            ),
            Err(e) => return Err(to_py_err(e)),
        };
        r.finish(ms, timeout);
        r.file = self.file.clone();
        r.index = self.index;
        Ok(Verdict {
            report: r,
            mode,
            puzzle: self.puzzle.clone(),
            finding,
        })
    }

    fn explained(
        &self,
        py: Python<'_>,
        verb: Verb,
        fallback: bool,
        timeout: Option<f64>,
    ) -> PyResult<Explanation> {
        let any = self.puzzle.clone();
        let look = Some(Look::default());
        let (got, ms) = run::stoppable(
            py,
            timeout,
            move |choice| with_puzzle!(&*any, p => record::explain::explain(p, verb, fallback, choice, Style::default(), look)),
        )?;
        let mut e = match got {
            Ok(e) => e,
            Err(err) => {
                let about = with_puzzle!(&*self.puzzle, p => (p.kind().name(), p.describe()));
                let e = Explained::failed(verb, &err, Some(about), timeout);
                if e.status() == "error" {
                    return Err(to_py_err(err));
                }
                e
            }
        };
        e.finish(&self.file, self.index, ms);
        Ok(Explanation { record: e })
    }

    fn picture(&self, solution: bool, py: Python<'_>) -> PyResult<String> {
        let any = self.puzzle.clone();
        let mode = Mode::Solve;
        let look = Look::default();
        if !solution {
            return with_puzzle!(&*any, p => p.picture(None, look))
                .map(|pic| sheet_svg(&[pic]))
                .ok_or_else(|| no_pictures(self.kind_name()));
        }
        let (got, _) = run::stoppable(py, None, move |choice| {
            with_puzzle!(&*any, p => record::find(p, mode, choice).map(|f| {
                record::pictures::of_finding(p, &f, Show::Solution, look)
            }))
        })?;
        let pics = got.map_err(to_py_err)?;
        if pics.iter().all(|p| p.marks.is_empty()) {
            return Err(no_pictures(self.kind_name()));
        }
        Ok(sheet_svg(&pics))
    }
}

#[pymethods]
impl Puzzle {
    /// The kind: sudoku, takuzu, tectonic, numberlink or shisen.
    #[getter]
    fn kind(&self) -> &'static str {
        self.kind_name()
    }

    /// Size and rule options, as the command line prints them (`9x9, boxes 3x3, 25 givens`).
    #[getter]
    fn description(&self) -> String {
        with_puzzle!(&*self.puzzle, p => p.describe())
    }

    /// The name of the text the puzzle was read from (`<string>` by default).
    #[getter]
    fn file(&self) -> &str {
        &self.file
    }

    /// The puzzle's 1-based place in that text.
    #[getter]
    fn index(&self) -> usize {
        self.index
    }

    /// Unique, several or none, with two solutions that differ or the givens that conflict;
    /// `forced=True` adds the forced cells of a puzzle with several solutions. The record of
    /// `gridsat check [--forced]`. `givens=False` answers a puzzle without solution as soon as
    /// that is known, without naming the givens that conflict (`conflicting_givens` is then
    /// None): the verdict alone, which on a large changed board comes seconds sooner.
    #[pyo3(signature = (*, forced = false, givens = true, timeout = None))]
    fn check(
        &self,
        py: Python<'_>,
        forced: bool,
        givens: bool,
        timeout: Option<f64>,
    ) -> PyResult<Verdict> {
        let mode = Mode::Verdict {
            forced,
            grids: false,
        };
        if !givens {
            return self.run_verdict(py, mode, timeout, move |any, choice| {
                run::verdict_any(any, forced, choice)
            });
        }
        self.verdict(py, mode, timeout)
    }

    /// A solution: proven unique (the record of `gridsat solve`), or any one with
    /// `unique=False` (`gridsat solve --no-unique`).
    #[pyo3(signature = (*, unique = true, timeout = None))]
    fn solve(&self, py: Python<'_>, unique: bool, timeout: Option<f64>) -> PyResult<Verdict> {
        let mode = if unique {
            Mode::Verdict {
                forced: false,
                grids: true,
            }
        } else {
            Mode::Solve
        };
        self.verdict(py, mode, timeout)
    }

    /// Counts solutions up to `limit` (`gridsat count --max LIMIT`).
    #[pyo3(signature = (limit = 2, *, timeout = None))]
    fn count(&self, py: Python<'_>, limit: usize, timeout: Option<f64>) -> PyResult<Verdict> {
        if limit == 0 {
            return Err(UsageError::new_err("count needs a limit of at least 1"));
        }
        self.verdict(py, Mode::Count(limit), timeout)
    }

    /// The verdict with the cells that are the same in every solution (`gridsat check
    /// --forced`): `.forced_cells` is set when the puzzle has several solutions.
    #[pyo3(signature = (*, timeout = None))]
    fn forced(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<Verdict> {
        self.check(py, true, true, timeout)
    }

    /// The next step a person would take (`gridsat hint`).
    #[pyo3(signature = (*, fallback = false, timeout = None))]
    fn hint(&self, py: Python<'_>, fallback: bool, timeout: Option<f64>) -> PyResult<Explanation> {
        self.explained(py, Verb::Hint, fallback, timeout)
    }

    /// The whole solution path with human techniques, each step checked against the SAT
    /// solution (`gridsat explain`); `fallback=True` continues with solver-proven steps where
    /// the techniques run out.
    #[pyo3(signature = (*, fallback = false, timeout = None))]
    fn explain(
        &self,
        py: Python<'_>,
        fallback: bool,
        timeout: Option<f64>,
    ) -> PyResult<Explanation> {
        self.explained(py, Verb::Explain, fallback, timeout)
    }

    /// A difficulty level and rating (`gridsat grade`).
    #[pyo3(signature = (*, timeout = None))]
    fn grade(&self, py: Python<'_>, timeout: Option<f64>) -> PyResult<Explanation> {
        self.explained(py, Verb::Grade, true, timeout)
    }

    /// The CNF in DIMACS as `gridsat dimacs` writes it, and the variable map: a dict from each
    /// variable's name (`r1c3=5`) to its number. `folded=True`: the compact form.
    #[pyo3(signature = (*, folded = false))]
    fn to_dimacs<'py>(
        &self,
        py: Python<'py>,
        folded: bool,
    ) -> PyResult<(String, Bound<'py, PyDict>)> {
        record::dimacs::writable(&self.puzzle, &self.file, self.index).map_err(to_py_err)?;
        let (cnf, names) = with_puzzle!(&*self.puzzle, p => {
            record::dimacs::to_text(p, &self.file, self.index, folded)
        })
        .map_err(to_py_err)?;
        let map = PyDict::new(py);
        for (name, var) in names {
            map.set_item(name, var)?;
        }
        Ok((cnf, map))
    }

    /// Reads an external solver's answer to the CNF of `to_dimacs` (its text with `s` and `v`
    /// lines, or a list of DIMACS literals) as a solution, checked by the rule checker
    /// (`gridsat decode`).
    #[pyo3(signature = (model, *, folded = false))]
    fn decode(&self, model: &Bound<'_, PyAny>, folded: bool) -> PyResult<Verdict> {
        let text = match model.extract::<String>() {
            Ok(t) => t,
            Err(_) => {
                let lits: Vec<i64> = model.extract()?;
                let mut t = String::from("s SATISFIABLE\nv");
                for l in lits {
                    t.push_str(&format!(" {l}"));
                }
                t.push_str(" 0\n");
                t
            }
        };
        let (mut r, finding) = run::decode_any(&self.puzzle, &text, &self.file, self.index, folded)
            .map_err(to_py_err)?;
        r.file = self.file.clone();
        r.index = self.index;
        Ok(Verdict {
            report: r,
            mode: Mode::Solve,
            puzzle: self.puzzle.clone(),
            finding,
        })
    }

    /// The puzzle (or with `solution=True` its solution) as an SVG document.
    #[pyo3(signature = (*, solution = false))]
    fn svg(&self, py: Python<'_>, solution: bool) -> PyResult<String> {
        self.picture(solution, py)
    }

    /// The puzzle (or its solution) as PNG bytes.
    #[pyo3(signature = (*, solution = false))]
    fn png<'py>(&self, py: Python<'py>, solution: bool) -> PyResult<Bound<'py, PyBytes>> {
        let svg = self.picture(solution, py)?;
        Ok(PyBytes::new(py, &png_of(&svg)?))
    }

    /// Jupyter shows a puzzle as its picture.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        self.picture(false, py)
    }

    /// The puzzle drawn as text, as `gridsat` prints it.
    fn __str__(&self) -> String {
        with_puzzle!(&*self.puzzle, p => p.render(None, Style::default()))
    }

    fn __repr__(&self) -> String {
        format!(
            "<gridsat.Puzzle {} #{} ({} {})>",
            self.file,
            self.index,
            self.kind_name(),
            self.description()
        )
    }
}

/// What `check`, `solve`, `count`, `forced` and `decode` found: the command line's record.
#[pyclass(module = "gridsat", frozen)]
struct Verdict {
    report: Report,
    mode: Mode,
    puzzle: Arc<AnyPuzzle>,
    finding: Option<run::AnyFinding>,
}

#[pymethods]
impl Verdict {
    /// unique, multiple, none, solved (uniqueness not asked, or the time limit ran out looking
    /// for a second solution) or unknown (the time limit ran out before any answer).
    #[getter]
    fn status(&self) -> &'static str {
        self.report.status
    }
    /// The solution as rows of numbers (None when there is none).
    #[getter]
    fn solution(&self) -> Option<Vec<Vec<i64>>> {
        self.report.solution.clone()
    }
    /// With several solutions, a second one.
    #[getter]
    fn second_solution(&self) -> Option<Vec<Vec<i64>>> {
        self.report.second_solution.clone()
    }
    /// With several solutions, the cells (`r4c9`) where the two differ.
    #[getter]
    fn differing_cells(&self) -> Option<Vec<String>> {
        self.report.differing_cells.clone()
    }
    /// With no solution, a minimal set of givens (`r1c3=5`) that conflict; None when there is
    /// a solution, or when `check(givens=False)` did not name them.
    #[getter]
    fn conflicting_givens(&self) -> Option<Vec<String>> {
        self.report.conflicting_givens.clone()
    }
    /// With no solution, whether `conflicting_givens` is minimal (without any one of them the
    /// rest has a solution): False when the time limit ran out while they were narrowed down
    /// (they conflict all the same, but some may be spare); None when there is a solution.
    #[getter]
    fn conflicts_minimal(&self) -> Option<bool> {
        let r = &self.report;
        r.conflicting_givens
            .as_ref()
            .map(|_| r.conflicts_minimal != Some(false))
    }
    /// With `forced=True` and several solutions, the cells the same in all (`r2c2=7`).
    #[getter]
    fn forced_cells(&self) -> Option<Vec<String>> {
        self.report.forced_cells.clone()
    }
    /// `count`: how many solutions were found (at most the limit).
    #[getter]
    fn count(&self) -> Option<usize> {
        self.report.count
    }
    /// `count`: True when that is all of them.
    #[getter]
    fn count_complete(&self) -> Option<bool> {
        self.report.count_complete
    }
    /// Milliseconds spent.
    #[getter]
    fn time_ms(&self) -> f64 {
        self.report.time_ms
    }
    /// The time limit that ran out (status unknown, or solved with uniqueness open).
    #[getter]
    fn timeout_s(&self) -> Option<f64> {
        self.report.timeout_s
    }
    /// Why uniqueness stayed open when it was not the time limit (solved, uniqueness open):
    /// e.g. a gravity Shisen-sho board too large for the models that look for a second solution.
    #[getter]
    fn open_reason(&self) -> Option<String> {
        self.report.open_reason.clone()
    }
    /// The command line's `--json` line for this puzzle.
    fn to_json(&self) -> String {
        self.report.to_json()
    }
    /// The record as a dict (the JSON object).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let v: serde_json::Value = serde_json::from_str(&self.report.to_json())
            .map_err(|e| to_py_err(Error::Bug(e.to_string())))?;
        json_to_py(py, &v)
    }
    /// The pictures of the verdict as one SVG: the solution, two solutions with the cells where
    /// they differ shaded, or the puzzle with its conflicting givens shaded.
    fn svg(&self) -> PyResult<String> {
        let pics = match &self.finding {
            Some(f) => f.pictures(&self.puzzle, Look::default()),
            None => Vec::new(),
        };
        if let Mode::Count(_) = self.mode {
            return Err(UsageError::new_err(
                "count draws no pictures (as on the command line): use check() or solve()",
            ));
        }
        if pics.is_empty() || pics.iter().all(|p| p.marks.is_empty()) {
            return Err(no_pictures(self.report.kind));
        }
        if self.report.status == "none" && self.report.conflicting_givens.is_none() {
            // check(givens=False): no solution, the givens that conflict not named.
            let caption = "no solution (the conflicting givens not named)";
            let pics: Vec<Picture> = pics.into_iter().map(|p| p.with_caption(caption)).collect();
            return Ok(sheet_svg(&pics));
        }
        Ok(sheet_svg(&pics))
    }
    /// The pictures as PNG bytes.
    fn png<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &png_of(&self.svg()?)?))
    }
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg()
    }
    /// The command line's text for this puzzle.
    fn __str__(&self) -> String {
        let mut r = self.report.clone();
        if let Some(f) = &self.finding {
            r.text = f.grids(&self.puzzle, self.mode);
        }
        r.to_text(self.mode)
    }
    fn __repr__(&self) -> String {
        format!("<gridsat.Verdict {}>", self.report.status)
    }
}

/// What `explain`, `hint` and `grade` found: the command line's record.
#[pyclass(module = "gridsat", frozen)]
struct Explanation {
    record: Explained,
}

#[pymethods]
impl Explanation {
    /// explained, stuck, hint, solved, graded, multiple, none or unknown.
    #[getter]
    fn status(&self) -> &str {
        self.record.status()
    }
    /// The steps as dicts (technique, rating, pattern, placements, eliminations, links, text);
    /// a hint has one.
    #[getter]
    fn steps<'py>(&self, py: Python<'py>) -> PyResult<Vec<Bound<'py, PyAny>>> {
        let mut out = Vec::new();
        if let Some(serde_json::Value::Array(steps)) = self.record.json.get("steps") {
            for s in steps {
                out.push(json_to_py(py, s)?);
            }
        } else if let Some(s) = self.record.json.get("step") {
            out.push(json_to_py(py, s)?);
        }
        Ok(out)
    }
    /// The grade (level, rating, hardest technique, techniques used) as a dict.
    #[getter]
    fn grade<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.record
            .json
            .get("grade")
            .map(|g| json_to_py(py, g))
            .transpose()
    }
    /// The solution as rows of numbers (explain).
    #[getter]
    fn solution(&self) -> Option<Vec<Vec<i64>>> {
        self.record
            .json
            .get("solution")
            .and_then(|v| serde_json::from_value(v.clone()).ok())
    }
    /// The command line's `--json` line for this puzzle.
    fn to_json(&self) -> String {
        self.record.to_json()
    }
    /// The record as a dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        json_to_py(py, &serde_json::Value::Object(self.record.json.clone()))
    }
    /// The pictures as SVG documents: each step on the position before it, then the end
    /// (explain), or the step (hint).
    fn pictures(&self) -> Vec<String> {
        self.record
            .pictures
            .iter()
            .map(|(_, p)| sheet_svg(std::slice::from_ref(p)))
            .collect()
    }
    /// Picture `step` (0-based; the last is the end) as an SVG document.
    #[pyo3(signature = (step = 0))]
    fn svg(&self, step: usize) -> PyResult<String> {
        self.record
            .pictures
            .get(step)
            .map(|(_, p)| sheet_svg(std::slice::from_ref(p)))
            .ok_or_else(|| {
                UsageError::new_err(format!(
                    "no picture {step}: this record has {}",
                    self.record.pictures.len()
                ))
            })
    }
    /// Picture `step` as PNG bytes.
    #[pyo3(signature = (step = 0))]
    fn png<'py>(&self, py: Python<'py>, step: usize) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &png_of(&self.svg(step)?)?))
    }
    /// Jupyter shows a hint as its picture, an explanation as its first step.
    fn _repr_svg_(&self) -> PyResult<String> {
        self.svg(0)
    }
    fn __str__(&self) -> String {
        self.record.to_text()
    }
    fn __repr__(&self) -> String {
        format!("<gridsat.Explanation {}>", self.record.status())
    }
}

/// A generated puzzle: `gridsat generate --json --with-solution`'s record.
#[pyclass(module = "gridsat", frozen)]
struct Generated {
    generated: gridsat::generate::Generated,
    solution: Option<Vec<Vec<i64>>>,
    puzzle: Py<Puzzle>,
}

#[pymethods]
impl Generated {
    /// The puzzle, read back as the kind's reader reads its text.
    #[getter]
    fn puzzle(&self, py: Python<'_>) -> Py<Puzzle> {
        self.puzzle.clone_ref(py)
    }
    /// The seed that makes it again.
    #[getter]
    fn seed(&self) -> u64 {
        self.generated.seed
    }
    /// The puzzle in its kind's file format.
    #[getter]
    fn text(&self) -> String {
        gridsat::record::generated::to_text(&self.generated, None, None).unwrap_or_default()
    }
    /// Its number of givens.
    #[getter]
    fn givens(&self) -> usize {
        self.generated.givens
    }
    /// Its grade as a dict (kinds that grade their puzzles).
    #[getter]
    fn grade<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.generated
            .grade
            .as_ref()
            .map(|g| json_to_py(py, &serde_json::to_value(g).unwrap_or_default()))
            .transpose()
    }
    /// The solution as rows of numbers.
    #[getter]
    fn solution(&self) -> Option<Vec<Vec<i64>>> {
        self.solution.clone()
    }
    /// The command line's `--json --with-solution` line.
    fn to_json(&self) -> String {
        gridsat::record::generated::to_json(&self.generated, self.solution.as_ref())
    }
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        self.puzzle.get().picture(false, py)
    }
    fn __str__(&self) -> String {
        self.text()
    }
    fn __repr__(&self) -> String {
        format!(
            "<gridsat.Generated {} seed {}>",
            self.generated.kind, self.generated.seed
        )
    }
}

/// The reading options of the keyword arguments.
#[allow(clippy::too_many_arguments)]
fn read_words(
    box_shape: Option<String>,
    rules: Option<String>,
    loops: Option<String>,
    distinct_lines: Option<bool>,
    odd_lines: Option<String>,
    regions: Option<String>,
    distinct_encoding: Option<String>,
    no_outline: bool,
    gravity: bool,
    chinese: bool,
) -> ReadWords {
    ReadWords {
        box_shape,
        rules,
        loops,
        takuzu: TakuzuWords {
            distinct_lines: distinct_lines == Some(true),
            no_distinct_lines: distinct_lines == Some(false),
            odd_lines,
            regions,
            distinct_encoding,
        },
        no_outline,
        gravity,
        chinese,
    }
}

/// Reads every puzzle in `text`, its kind detected as on the command line (or named by
/// `kind`); rule options as the command line's flags. Raises InputError (with file, line and
/// column) for the first puzzle that does not read.
#[pyfunction]
#[pyo3(signature = (text, kind = None, *, file = "<string>".to_string(), layout = None, r#box = None, rules = None, loops = None, distinct_lines = None, odd_lines = None, regions = None, distinct_encoding = None, no_outline = false, gravity = false, chinese = false))]
#[allow(clippy::too_many_arguments)]
fn read(
    py: Python<'_>,
    text: &str,
    kind: Option<&str>,
    file: String,
    layout: Option<String>,
    r#box: Option<String>,
    rules: Option<String>,
    loops: Option<String>,
    distinct_lines: Option<bool>,
    odd_lines: Option<String>,
    regions: Option<String>,
    distinct_encoding: Option<String>,
    no_outline: bool,
    gravity: bool,
    chinese: bool,
) -> PyResult<Vec<Py<Puzzle>>> {
    let kind = gridsat::options::kind(kind).map_err(to_py_err)?;
    let words = read_words(
        r#box,
        rules,
        loops,
        distinct_lines,
        odd_lines,
        regions,
        distinct_encoding,
        no_outline,
        gravity,
        chinese,
    );
    let mut opts = gridsat::options::read_options(&words).map_err(to_py_err)?;
    opts.tectonic_layout = layout.map(|text| gridsat::tectonic::format::csv::LayoutFile {
        file: "<layout>".into(),
        text: Ok(text),
    });
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let puzzles = py
        .detach(|| kinds::read_any(&file, &file, text, kind, &opts))
        .map_err(|e| to_py_err(Error::Input(e)))?;
    puzzles
        .into_iter()
        .enumerate()
        .map(|(k, p)| {
            Py::new(
                py,
                Puzzle {
                    puzzle: Arc::new(p),
                    file: file.clone(),
                    index: k + 1,
                },
            )
        })
        .collect()
}

/// Generates `count` puzzles of `kind`, puzzle i from seed `seed + i` (the same puzzles as
/// `gridsat generate KIND --seed SEED --count COUNT` with the same options), each with its
/// solution. `timeout` and Ctrl-C end the run between puzzles.
#[pyfunction]
#[pyo3(signature = (kind, size = None, *, difficulty = None, seed = 1, count = 1, width = None, height = None, r#box = None, symmetry = None, clues = None, minimal = false, attempts = None, layout = None, max_piece = None, rules = None, unique = false, distinct_lines = None, odd_lines = None, regions = None, no_outline = false, gravity = false, chinese = false, timeout = None))]
#[allow(clippy::too_many_arguments)]
fn generate(
    py: Python<'_>,
    kind: &str,
    size: Option<&Bound<'_, PyAny>>,
    difficulty: Option<String>,
    seed: u64,
    count: usize,
    width: Option<usize>,
    height: Option<usize>,
    r#box: Option<String>,
    symmetry: Option<String>,
    clues: Option<&Bound<'_, PyAny>>,
    minimal: bool,
    attempts: Option<usize>,
    layout: Option<String>,
    max_piece: Option<usize>,
    rules: Option<String>,
    unique: bool,
    distinct_lines: Option<bool>,
    odd_lines: Option<String>,
    regions: Option<String>,
    no_outline: bool,
    gravity: bool,
    chinese: bool,
    timeout: Option<f64>,
) -> PyResult<Vec<Py<Generated>>> {
    let kind = gridsat::options::kind(Some(kind))
        .map_err(to_py_err)?
        .expect("a named kind");
    let size = match size {
        None => None,
        Some(s) => Some(match s.extract::<usize>() {
            Ok(n) => (n, n),
            Err(_) => match s.extract::<(usize, usize)>() {
                Ok(wh) => wh,
                Err(_) => {
                    let t: String = s.extract()?;
                    parse_size(&t).map_err(UsageError::new_err)?
                }
            },
        }),
    };
    let clues = match clues {
        None => None,
        Some(c) => Some(match c.extract::<usize>() {
            Ok(n) => n.to_string(),
            Err(_) => match c.extract::<(usize, usize)>() {
                Ok((lo, hi)) => format!("{lo}-{hi}"),
                Err(_) => c.extract::<String>()?,
            },
        }),
    };
    if count == 0 {
        return Err(UsageError::new_err("count must be at least 1"));
    }
    let mut order = gridsat::order::Order::new(kind);
    order.size = size;
    order.width = width;
    order.height = height;
    order.box_shape = r#box;
    order.rules = rules;
    order.difficulty = difficulty;
    order.symmetry = symmetry;
    order.minimal = minimal;
    order.clues = clues;
    order.attempts = attempts;
    order.layout = layout;
    order.max_piece = max_piece;
    order.unique = unique;
    order.takuzu = TakuzuWords {
        distinct_lines: distinct_lines == Some(true),
        no_distinct_lines: distinct_lines == Some(false),
        odd_lines,
        regions,
        distinct_encoding: None,
    };
    order.no_outline = no_outline;
    order.gravity = gravity;
    order.chinese = chinese;
    let made = run::generate(py, &order, seed, count, timeout)?;
    made.into_iter()
        .map(|(g, any, solution)| {
            let puzzle = Py::new(
                py,
                Puzzle {
                    puzzle: Arc::new(any),
                    file: "generated".into(),
                    index: 1,
                },
            )?;
            Py::new(
                py,
                Generated {
                    generated: g,
                    solution,
                    puzzle,
                },
            )
        })
        .collect()
}

/// `N` or `WxH`.
fn parse_size(s: &str) -> Result<(usize, usize), String> {
    let num = |t: &str| {
        t.trim()
            .parse::<usize>()
            .map_err(|_| format!("size expects N or WIDTHxHEIGHT like 18x8, got `{s}`"))
    };
    match s.split_once(['x', 'X']) {
        Some((w, h)) => Ok((num(w)?, num(h)?)),
        None => num(s).map(|n| (n, n)),
    }
}

/// gridsat: read, check, solve, count, explain and generate grid logic puzzles (Sudoku,
/// Takuzu, Tectonic, Numberlink, Shisen-sho) with SAT.
#[pymodule]
#[pyo3(name = "gridsat")]
fn gridsat_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    run::note_main_thread(py);
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(generate, m)?)?;
    m.add_class::<Puzzle>()?;
    m.add_class::<Verdict>()?;
    m.add_class::<Explanation>()?;
    m.add_class::<Generated>()?;
    m.add("GridsatError", py.get_type::<GridsatError>())?;
    m.add("InputError", py.get_type::<InputError>())?;
    m.add("UsageError", py.get_type::<UsageError>())?;
    m.add("SolverError", py.get_type::<SolverError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
