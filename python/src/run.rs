//! Running the library's long calls from Python, with the GIL released (so a thread pool of
//! checks uses every core), a time limit (`timeout=`) and Ctrl-C, each of which raises the
//! solver's stop flag ([`gridsat::solver::Stop`]) that every embedded backend polls.
//!
//! Python runs signal handlers only on its main thread, and only when that thread comes back to
//! Python. So a call from the main thread runs on a worker thread (one, kept for such calls)
//! while the main thread waits in slices of at most [`SLICE`], and between them lets Python run
//! its handlers (Ctrl-C raises KeyboardInterrupt there) and reads the clock. A call from any
//! other thread, where no signal can arrive, runs right there with the GIL released, and its
//! time limit is kept by one watchdog thread ([`Watchdog`]), as the command line's `--timeout`.

use gridsat::draw::{Look, Picture};
use gridsat::error::Result;
use gridsat::generate::Generated;
use gridsat::kinds::AnyPuzzle;
use gridsat::order::{Made, Order};
use gridsat::puzzle::{self as puzzle, Checked, Puzzle as _, Solutions, Style};
use gridsat::record::dimacs::Decoded;
use gridsat::record::pictures::{self, Show};
use gridsat::record::{self, Finding, Mode, Report};
use gridsat::solver::{SolverChoice, Stop};
use pyo3::prelude::*;
use std::collections::BTreeMap;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread::ThreadId;
use std::time::{Duration, Instant};

/// How long the main thread waits before it looks at the clock and the signals again.
const SLICE: Duration = Duration::from_millis(50);

/// The seconds of `timeout=` as a duration; a negative or non-finite limit is a usage error.
fn limit(timeout: Option<f64>) -> PyResult<Option<Duration>> {
    match timeout {
        None => Ok(None),
        Some(t) if t.is_finite() && t >= 0.0 => Ok(Some(Duration::from_secs_f64(t))),
        Some(t) => Err(crate::UsageError::new_err(format!(
            "timeout must be a number of seconds, 0 or more, got {t}"
        ))),
    }
}

/// The thread Python runs signal handlers on, noted when the module is imported.
static MAIN: OnceLock<Option<ThreadId>> = OnceLock::new();

/// Notes Python's main thread (called at import, usually on it).
pub fn note_main_thread(py: Python<'_>) {
    let on_main = (|| -> PyResult<bool> {
        let threading = py.import("threading")?;
        let main = threading.call_method0("main_thread")?.getattr("ident")?;
        let here = threading.call_method0("get_ident")?;
        main.eq(here)
    })()
    .unwrap_or(false);
    let _ = MAIN.set(on_main.then(|| std::thread::current().id()));
}

/// True on Python's main thread (where signals are handled).
fn on_main_thread(py: Python<'_>) -> bool {
    match MAIN.get() {
        Some(Some(id)) => std::thread::current().id() == *id,
        _ => (|| -> PyResult<bool> {
            let threading = py.import("threading")?;
            let main = threading.call_method0("main_thread")?.getattr("ident")?;
            main.eq(threading.call_method0("get_ident")?)
        })()
        .unwrap_or(true),
    }
}

/// Runs `f` with a solver choice that stops when `timeout` seconds have passed or (on the main
/// thread) Python has a pending signal: KeyboardInterrupt is raised once `f` has stopped.
/// Returns what `f` returned (the library's `Stopped` error when the time ran out) and the
/// milliseconds spent.
pub fn stoppable<T, F>(py: Python<'_>, timeout: Option<f64>, f: F) -> PyResult<(T, f64)>
where
    T: Send + 'static,
    F: FnOnce(&SolverChoice) -> T + Send + 'static,
{
    let limit = limit(timeout)?;
    let start = Instant::now();
    let stop = Stop::new();
    let choice = SolverChoice::Embedded.until(&stop);
    if !on_main_thread(py) {
        let armed = limit.map(|d| watchdog().arm(start + d, stop.clone()));
        let value = py.detach(move || f(&choice));
        if let Some(id) = armed {
            watchdog().disarm(id);
        }
        return Ok((value, start.elapsed().as_secs_f64() * 1e3));
    }
    let deadline = limit.map(|d| start + d);
    let (tx, rx) = mpsc::channel();
    worker_run(Box::new(move || {
        let _ = tx.send(f(&choice));
    }))?;
    let mut rx = Some(rx);
    let mut interrupted: Option<PyErr> = None;
    loop {
        let wait = match deadline {
            Some(d) if !stop.is_raised() => d.saturating_duration_since(Instant::now()).min(SLICE),
            _ => SLICE,
        };
        let r = rx.take().expect("the receiver");
        let (r, got) = py.detach(move || {
            let got = r.recv_timeout(wait);
            (r, got)
        });
        rx = Some(r);
        match got {
            Ok(value) => {
                if let Some(e) = interrupted {
                    return Err(e);
                }
                return Ok((value, start.elapsed().as_secs_f64() * 1e3));
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(crate::SolverError::new_err(
                    "gridsat's worker thread failed (a bug: please report it)",
                ));
            }
            Err(RecvTimeoutError::Timeout) => {
                if deadline.is_some_and(|d| Instant::now() >= d) {
                    stop.raise();
                }
                if interrupted.is_none() {
                    if let Err(e) = py.check_signals() {
                        stop.raise();
                        interrupted = Some(e);
                    }
                }
            }
        }
    }
}

type Job = Box<dyn FnOnce() + Send>;

/// Runs `job` on the worker thread kept for the main thread's calls (started on first use; a
/// job that panics is caught there, and its caller sees its channel closed).
fn worker_run(job: Job) -> PyResult<()> {
    static WORKER: OnceLock<Mutex<mpsc::Sender<Job>>> = OnceLock::new();
    let sender = WORKER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<Job>();
        let _ = std::thread::Builder::new()
            .name("gridsat-worker".into())
            .spawn(move || {
                for job in rx {
                    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
                }
            });
        Mutex::new(tx)
    });
    let sent = sender.lock().map(|s| s.send(job).is_ok()).unwrap_or(false);
    if sent {
        Ok(())
    } else {
        Err(crate::SolverError::new_err(
            "gridsat's worker thread is gone",
        ))
    }
}

/// Raises each armed [`Stop`] flag when its deadline passes: the clock of `timeout=` for calls
/// that run on the calling thread. One thread, started on first use.
pub struct Watchdog {
    shared: Arc<(Mutex<Armed>, Condvar)>,
}

#[derive(Default)]
struct Armed {
    flags: BTreeMap<u64, (Instant, Stop)>,
    next: u64,
}

fn watchdog() -> &'static Watchdog {
    static DOG: OnceLock<Watchdog> = OnceLock::new();
    DOG.get_or_init(|| {
        let shared: Arc<(Mutex<Armed>, Condvar)> = Arc::default();
        let s = shared.clone();
        let _ = std::thread::Builder::new()
            .name("gridsat-watchdog".into())
            .spawn(move || {
                let (lock, cv) = &*s;
                let Ok(mut st) = lock.lock() else { return };
                loop {
                    let now = Instant::now();
                    st.flags.retain(|_, (deadline, stop)| {
                        let due = *deadline <= now;
                        if due {
                            stop.raise();
                        }
                        !due
                    });
                    let wait = st
                        .flags
                        .values()
                        .map(|(d, _)| d.saturating_duration_since(now))
                        .min()
                        .unwrap_or(Duration::from_secs(3600));
                    st = match cv.wait_timeout(st, wait) {
                        Ok((g, _)) => g,
                        Err(_) => return,
                    };
                }
            });
        Watchdog { shared }
    })
}

impl Watchdog {
    /// Raises `stop` at `deadline`; the id disarms it.
    fn arm(&self, deadline: Instant, stop: Stop) -> u64 {
        let (lock, cv) = &*self.shared;
        let id = match lock.lock() {
            Ok(mut st) => {
                st.next += 1;
                let id = st.next;
                st.flags.insert(id, (deadline, stop));
                id
            }
            Err(_) => 0,
        };
        cv.notify_all();
        id
    }

    fn disarm(&self, id: u64) {
        if let Ok(mut st) = self.shared.0.lock() {
            st.flags.remove(&id);
        }
    }
}

/// A [`Finding`] of any kind, kept for the pictures of a verdict.
pub enum AnyFinding {
    Sudoku(Finding<<gridsat::sudoku::Sudoku as gridsat::puzzle::Puzzle>::Solution>),
    Takuzu(Finding<<gridsat::takuzu::Takuzu as gridsat::puzzle::Puzzle>::Solution>),
    Tectonic(Finding<<gridsat::tectonic::Tectonic as gridsat::puzzle::Puzzle>::Solution>),
    Numberlink(Finding<<gridsat::numberlink::Numberlink as gridsat::puzzle::Puzzle>::Solution>),
    Shisen(Finding<<gridsat::shisen::Shisen as gridsat::puzzle::Puzzle>::Solution>),
}

/// Runs `$body` with `$p` bound to the concrete puzzle inside an [`AnyPuzzle`] and `$v` to
/// its variant's name, so that a finding can be wrapped in the same [`AnyFinding`] variant.
macro_rules! each_kind {
    ($any:expr, $p:ident, $wrap:ident => $body:expr) => {
        match $any {
            AnyPuzzle::Sudoku($p) => {
                let $wrap = AnyFinding::Sudoku;
                $body
            }
            AnyPuzzle::Takuzu($p) => {
                let $wrap = AnyFinding::Takuzu;
                $body
            }
            AnyPuzzle::Tectonic($p) => {
                let $wrap = AnyFinding::Tectonic;
                $body
            }
            AnyPuzzle::Numberlink($p) => {
                let $wrap = AnyFinding::Numberlink;
                $body
            }
            AnyPuzzle::Shisen($p) => {
                let $wrap = AnyFinding::Shisen;
                $body
            }
        }
    };
}

/// [`gridsat::record::find`] and its record, with the finding kept for pictures and the text
/// form (the grids are drawn only when asked for: [`AnyFinding::grids`]).
pub fn find_any(
    any: &AnyPuzzle,
    mode: Mode,
    choice: &SolverChoice,
) -> Result<(Report, AnyFinding)> {
    each_kind!(any, p, wrap => {
        let f = record::find(p, mode, choice)?;
        let r = record::report(p, &f, mode, None);
        Ok((r, wrap(f)))
    })
}

/// [`find_any`] for a verdict without the conflicting givens (`check(givens=False)`): a puzzle
/// without solution is answered as soon as the solver says so, its record's
/// `conflicting_givens` left out (naming them is a search of its own, seconds on a large
/// board); unique and several are as [`find_any`] finds them.
pub fn verdict_any(
    any: &AnyPuzzle,
    forced: bool,
    choice: &SolverChoice,
) -> Result<(Report, AnyFinding)> {
    let mode = Mode::Verdict {
        forced,
        grids: false,
    };
    each_kind!(any, p, wrap => {
        let f = match puzzle::check(p, choice)? {
            Checked::Found(s, why) => Finding::Open(s, why),
            Checked::Decided(Solutions::Unique(s)) => Finding::Unique(s),
            Checked::Decided(Solutions::Multiple(first, second, cells)) => Finding::Multiple {
                forced: if forced {
                    Some(puzzle::forced(p, choice)?.unwrap_or_default())
                } else {
                    None
                },
                first,
                second,
                cells,
            },
            Checked::Decided(Solutions::None) => Finding::None {
                conflicting: Vec::new(),
                minimal: true,
            },
        };
        let mut r = record::report(p, &f, mode, None);
        if r.status == "none" {
            r.conflicting_givens = None;
        }
        Ok((r, wrap(f)))
    })
}

/// An external solver's answer (`text`) to the CNF of `to_dimacs` read back: a solution's
/// record with its finding, or `none` when the solver answered UNSATISFIABLE.
pub fn decode_any(
    any: &AnyPuzzle,
    text: &str,
    file: &str,
    index: usize,
    folded: bool,
) -> Result<(Report, Option<AnyFinding>)> {
    each_kind!(any, p, wrap => {
        match record::dimacs::decode(p, "<answer>", text, file, index, folded)? {
            Decoded::Solved(s) => {
                let f = Finding::Solved(s);
                let r = record::report(p, &f, Mode::Solve, None);
                Ok((r, Some(wrap(f))))
            }
            Decoded::Unsat => Ok((
                Report {
                    kind: p.kind().name(),
                    description: p.describe(),
                    status: "none",
                    code: 1,
                    ..Report::default()
                },
                None,
            )),
        }
    })
}

impl AnyFinding {
    /// The solution grids of the record's text form (see [`gridsat::record::Report::text`]).
    pub fn grids(&self, puzzle: &AnyPuzzle, mode: Mode) -> String {
        let style = Some(Style::default());
        match (self, puzzle) {
            (AnyFinding::Sudoku(f), AnyPuzzle::Sudoku(p)) => record::report(p, f, mode, style).text,
            (AnyFinding::Takuzu(f), AnyPuzzle::Takuzu(p)) => record::report(p, f, mode, style).text,
            (AnyFinding::Tectonic(f), AnyPuzzle::Tectonic(p)) => {
                record::report(p, f, mode, style).text
            }
            (AnyFinding::Numberlink(f), AnyPuzzle::Numberlink(p)) => {
                record::report(p, f, mode, style).text
            }
            (AnyFinding::Shisen(f), AnyPuzzle::Shisen(p)) => record::report(p, f, mode, style).text,
            _ => String::new(),
        }
    }

    /// The pictures of the finding about `puzzle` (none when the two do not belong together).
    pub fn pictures(&self, puzzle: &AnyPuzzle, look: Look) -> Vec<Picture> {
        match (self, puzzle) {
            (AnyFinding::Sudoku(f), AnyPuzzle::Sudoku(p)) => {
                pictures::of_finding(p, f, Show::Solution, look)
            }
            (AnyFinding::Takuzu(f), AnyPuzzle::Takuzu(p)) => {
                pictures::of_finding(p, f, Show::Solution, look)
            }
            (AnyFinding::Tectonic(f), AnyPuzzle::Tectonic(p)) => {
                pictures::of_finding(p, f, Show::Solution, look)
            }
            (AnyFinding::Numberlink(f), AnyPuzzle::Numberlink(p)) => {
                pictures::of_finding(p, f, Show::Solution, look)
            }
            (AnyFinding::Shisen(f), AnyPuzzle::Shisen(p)) => {
                pictures::of_finding(p, f, Show::Solution, look)
            }
            _ => Vec::new(),
        }
    }
}

/// One generated puzzle, read back, with its solution's rows.
pub type OneMade = (Generated, AnyPuzzle, Option<Vec<Vec<i64>>>);

/// Generates `count` puzzles for `order` from `seed` on, each read back with its solution. The
/// time limit and Ctrl-C are looked at while a puzzle is made; when they end the run, the
/// generator is told to stop (the library's stop flag) and its thread ends soon after.
pub fn generate(
    py: Python<'_>,
    order: &Order,
    seed: u64,
    count: usize,
    timeout: Option<f64>,
) -> PyResult<Vec<OneMade>> {
    let deadline = limit(timeout)?.map(|d| Instant::now() + d);
    let (plan, _notes) = gridsat::order::plan(order).map_err(crate::convert::to_py_err)?;
    let plan = std::sync::Arc::new(plan);
    let kind = order.kind;
    let read_opts = gridsat::kinds::ReadOptions {
        box_shape: plan.box_shape(),
        ..Default::default()
    };
    let mut out = Vec::new();
    for i in 0..count {
        let s = seed.wrapping_add(i as u64);
        let (plan, opts) = (plan.clone(), read_opts.clone());
        let stop = gridsat::solver::Stop::new();
        let told = stop.clone();
        let (tx, rx) = mpsc::channel();
        std::thread::Builder::new()
            .name("gridsat-generate".into())
            .spawn(move || {
                let got = (|| -> Result<_> {
                    match plan.make_until(s, &told)? {
                        Made::Puzzle(g) => {
                            let (any, rows) =
                                gridsat::record::generated::read_back(kind, &g, &opts, true)?;
                            Ok(Ok((g, any, rows)))
                        }
                        Made::Missed(why) => Ok(Err(why)),
                    }
                })();
                let _ = tx.send(got);
            })
            .map_err(|e| crate::SolverError::new_err(format!("cannot start a thread: {e}")))?;
        let mut rx = Some(rx);
        let got = loop {
            let wait = deadline.map_or(SLICE, |d| {
                d.saturating_duration_since(Instant::now()).min(SLICE)
            });
            let r = rx.take().expect("the receiver");
            let (r, got) = py.detach(move || {
                let got = r.recv_timeout(wait);
                (r, got)
            });
            rx = Some(r);
            match got {
                Ok(v) => break v,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(crate::SolverError::new_err(
                        "gridsat's generator thread failed (a bug: please report it)",
                    ))
                }
                Err(RecvTimeoutError::Timeout) => {
                    if let Err(e) = py.check_signals() {
                        stop.raise();
                        return Err(e);
                    }
                    if deadline.is_some_and(|d| Instant::now() >= d) {
                        stop.raise();
                        return Err(pyo3::exceptions::PyTimeoutError::new_err(format!(
                            "generate: the time limit ({} s) ran out after {} of {count} puzzles",
                            timeout.unwrap_or_default(),
                            out.len()
                        )));
                    }
                }
            }
        };
        match got.map_err(crate::convert::to_py_err)? {
            Ok(made) => out.push(made),
            Err(why) => {
                return Err(crate::UsageError::new_err(format!(
                    "puzzle {} (seed {s}): {why}",
                    i + 1
                )))
            }
        }
    }
    Ok(out)
}
