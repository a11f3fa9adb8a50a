//! Limits on the formulas a puzzle's model is built into: a memory budget and a stop flag.
//!
//! Whoever runs a puzzle (the command line, per puzzle and per thread) sets them with
//! [`with_limits`]; the generic verbs of [`crate::puzzle`] build each model inside [`building`],
//! and every [`super::Formula`] made there takes them up, so every kind's model builder is
//! bounded without being told (formulas a solver keeps while solving never are: they must stay
//! whole). A formula that outgrows the budget,
//! or whose stop flag is raised while it is built, stops keeping clauses (it frees them) and only
//! counts what its builder goes on adding ([`super::Formula::cut`]): the builder ends quickly in
//! little memory, and the generic verbs of [`crate::puzzle`] turn the cut into "too large" (with
//! the size the whole model would take) or "stopped". No clock here: the flag is raised by the
//! caller's watchdog.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The limits of the formulas built on one thread.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Raised (by another thread) to stop: formulas stop growing at the next poll.
    pub stop: Option<Arc<AtomicBool>>,
    /// The most bytes a model and the embedded solver that loads it may take (see
    /// [`memory_bytes`]); `None`: no budget.
    pub max_bytes: Option<u64>,
}

impl Limits {
    /// True when there is nothing to watch.
    pub fn is_none(&self) -> bool {
        self.stop.is_none() && self.max_bytes.is_none()
    }

    /// True once the stop flag is raised.
    pub fn stopped(&self) -> bool {
        self.stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

thread_local! {
    /// The limits set for this thread's puzzle ([`with_limits`]).
    static SET: RefCell<Limits> = RefCell::new(Limits::default());
    /// The limits of the formulas made now: [`SET`]'s inside [`building`], none elsewhere.
    static ACTIVE: RefCell<Limits> = RefCell::new(Limits::default());
}

/// Runs `f` with `value` in `cell`, putting the old value back afterwards (also when `f`
/// unwinds).
fn scoped<R>(
    cell: &'static std::thread::LocalKey<RefCell<Limits>>,
    value: Limits,
    f: impl FnOnce() -> R,
) -> R {
    struct Restore(
        &'static std::thread::LocalKey<RefCell<Limits>>,
        Option<Limits>,
    );
    impl Drop for Restore {
        fn drop(&mut self) {
            if let Some(old) = self.1.take() {
                self.0.with(|l| *l.borrow_mut() = old);
            }
        }
    }
    let old = cell.with(|l| std::mem::replace(&mut *l.borrow_mut(), value));
    let _restore = Restore(cell, Some(old));
    f()
}

/// Runs `f` (the work on one puzzle) with `limits` on the models it builds on this thread.
pub fn with_limits<R>(limits: Limits, f: impl FnOnce() -> R) -> R {
    scoped(&SET, limits, f)
}

/// Runs `f` (a model builder) with this thread's limits on the formulas it makes.
pub fn building<R>(f: impl FnOnce() -> R) -> R {
    let set = SET.with(|l| l.borrow().clone());
    scoped(&ACTIVE, set, f)
}

/// The limits on formulas made now on this thread.
pub fn current() -> Limits {
    ACTIVE.with(|l| l.borrow().clone())
}

/// Why a formula stopped keeping its clauses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cut {
    /// The stop flag was raised while it was built.
    Stopped,
    /// It and its solver would take more than the budget.
    TooLarge,
}

/// About how many bytes a formula of `vars` variables, `clauses` clauses and `lits` literals
/// takes, with an embedded solver (lite or varisat) holding it too: the formula's own 4 bytes a
/// literal and a clause, the solver's copy with its watch lists and per-variable state, and the
/// room vectors take while they grow (the program's own memory, about 16 MB, is not counted).
/// Measured as peak resident memory of `gridsat solve` on empty Takuzu grids (100x100: 5.1 M
/// literals, 168 MB; 200x200: 38.8 M, 1.28 GB) and one-line Numberlink boards (300x300: 14.1 M
/// literals, 585 MB), within a tenth (BENCHMARKS.md).
pub fn memory_bytes(vars: u64, clauses: u64, lits: u64) -> u64 {
    lits.saturating_mul(20)
        .saturating_add(clauses.saturating_mul(28))
        .saturating_add(vars.saturating_mul(100))
}
