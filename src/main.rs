//! The `gridsat` command; everything it does lives in the library's `cli` module.

fn main() {
    keep_freed_memory();
    std::process::exit(gridsat::cli::main());
}

/// glibc gives freed memory at the top of the heap back to the system as soon as 128 KiB are
/// free there, and serves blocks from 128 KiB up (a threshold it raises as it goes) with
/// mmap/munmap of their own. A batch builds and drops a solver per puzzle, so it paid for that
/// again and again: 6,068 `brk` calls and 0.35 s of system time for the 999 20x20 Takuzu of
/// `size20level1.txt`, about 15% of the run (BENCHMARKS.md). Keeping up to 64 MiB free at the
/// top, and taking blocks under 32 MiB from the heap, removes that (75 `brk` calls, the same peak
/// memory). The library itself stays allocator-agnostic: this is the binary's choice.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_memory() {
    // SAFETY: mallopt only sets allocator parameters; called before any other thread exists.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}

#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_memory() {}
