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

fn main() {
    std::process::exit(gridsat::cli::main());
}
