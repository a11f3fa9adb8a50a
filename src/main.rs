//! The `gridsat` command; everything it does lives in the library's `cli` module.

/// The binary's allocator: mimalloc. A batch builds and drops a model and a solver per puzzle,
/// so allocation is a large share of an easy puzzle's cost: with glibc's malloc, `malloc` and
/// `free` were about 17% of the instructions of `check` on 17-clue Sudokus, and glibc also gave
/// freed memory back to the system again and again (6,068 `brk` calls for 999 20x20 Takuzu).
/// With mimalloc the same `check` runs 0.87-0.88x the CPU time on Sudoku and Takuzu batches
/// (BENCHMARKS.md). The library itself stays allocator-agnostic (and builds for wasm32): this
/// is the binary's choice.
#[cfg(unix)]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(unix)]
extern "C" {
    /// mimalloc's `mi_option_set` (in the statically linked mimalloc the crate builds).
    fn mi_option_set(option: std::ffi::c_int, value: std::ffi::c_long);
}

/// mimalloc's `mi_option_purge_delay` (its `mi_option_e`, unchanged since mimalloc 2.0).
#[cfg(unix)]
const MI_OPTION_PURGE_DELAY: std::ffi::c_int = 15;

fn main() {
    // Hand freed pages back at once instead of after mimalloc's 10 ms (x10 for arenas): a batch
    // frees a model and a solver per puzzle, and mimalloc takes fresh pages faster than the
    // delayed purge returns them, so a 147k-Sudoku batch peaked at 15 MB instead of 11.5 MB
    // (with `-j 2` 19 instead of 14.5 MB) for the same CPU time (BENCHMARKS.md, Batches).
    #[cfg(unix)]
    // SAFETY: called first thing, before any other thread exists (the call is not thread-safe);
    // the option only changes when freed memory is purged.
    unsafe {
        mi_option_set(MI_OPTION_PURGE_DELAY, 0)
    };
    std::process::exit(gridsat::cli::main());
}
