//! `--max-memory`: the memory a run may use for its puzzles' models and solvers, split among
//! the `-j` jobs. Each puzzle's model is built under its job's share
//! ([`crate::cnf::limits`]); a model that would not fit, with the solver that loads it, is
//! refused ("too large for the memory this run may use", exit 2 for that puzzle) instead of
//! taking the process down.
//!
//! The default is half the machine's memory (or of the control group's limit, when lower),
//! and never more than the process's own address-space limit (`ulimit -v`, `RLIMIT_AS`)
//! leaves once the program itself has its room ([`HEADROOM`]); an explicit `--max-memory` is
//! held to that limit too.

use crate::error::Result;

/// Address space the program takes besides its puzzles' models under `ulimit -v`: the binary
/// and its libraries, thread stacks, the allocator's reservations, the reader's buffers.
/// Measured: a 17-clue Sudoku is solved with `-j 2` under `ulimit -v 45000` (44 MB); 96 MB
/// leaves room for larger readers' buffers and pictures. Under a 1000 MB cap with `-j 1` the
/// budget is 543 MB: an empty 150x150 Takuzu (about 500 MB by the estimate) runs to its time
/// limit within the cap, a 155x155 (556 MB) is refused.
pub const HEADROOM: u64 = 96 << 20;

/// The share of the address-space limit (after [`HEADROOM`]) that models may take: a vector
/// that grows reserves twice what it holds for a moment, and the allocator keeps address space
/// it has freed, so what is mapped runs ahead of what is used (the estimate of
/// [`crate::cnf::limits::memory_bytes`] is of memory in use).
const AS_SHARE: f64 = 0.6;

/// Reads `--max-memory`: a number of megabytes (`800`), or a size with a unit: `K`, `M`, `G`,
/// `T` (powers of 1024, as `sort -S` and `ulimit` count; `KB`, `MiB` and the like read the
/// same).
pub fn parse_size(s: &str) -> std::result::Result<u64, String> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (num, unit) = t.split_at(split);
    let x: f64 = num
        .parse()
        .map_err(|_| format!("expected a size like 800 (megabytes), 512M or 4G, got `{s}`"))?;
    let shift = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "m" | "mb" | "mib" => 20,
        "k" | "kb" | "kib" => 10,
        "g" | "gb" | "gib" => 30,
        "t" | "tb" | "tib" => 40,
        "b" => 0,
        _ => {
            return Err(format!(
                "unknown unit `{unit}` in `{s}`: use K, M, G or T (a plain number is megabytes)"
            ))
        }
    };
    let bytes = x * (1u64 << shift) as f64;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("`{s}` is more memory than any machine has"));
    }
    if bytes < (1u64 << 20) as f64 {
        return Err(format!("must be at least 1M, got `{s}`"));
    }
    Ok(bytes as u64)
}

/// The bytes each of `jobs` jobs may use for a puzzle's model and solver: `asked` (or the
/// default) held to the address-space limit, split evenly. However little that is, puzzles
/// whose models fit still run; the others are refused one by one, each saying its size.
pub fn per_job(asked: Option<u64>, jobs: usize) -> Result<u64> {
    let ceiling = address_space_room();
    let total = match asked {
        Some(b) => ceiling.map_or(b, |c| b.min(c)),
        None => {
            let half = machine_memory().map_or(4 << 30, |m| m / 2);
            ceiling.map_or(half, |c| half.min(c))
        }
    };
    Ok(total / jobs.max(1) as u64)
}

/// What the process's address-space limit leaves for models, if it has one.
fn address_space_room() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit(2) fills the structure it is given; nothing else is touched.
        let ok = unsafe { libc::getrlimit(libc::RLIMIT_AS, &mut lim) } == 0;
        if ok && lim.rlim_cur != libc::RLIM_INFINITY {
            #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every Unix
            let cur = lim.rlim_cur as u64;
            return Some((cur.saturating_sub(HEADROOM) as f64 * AS_SHARE) as u64);
        }
    }
    None
}

/// The machine's memory, or the control group's limit when that is lower (a container).
fn machine_memory() -> Option<u64> {
    #[cfg(unix)]
    {
        // SAFETY: sysconf(3) only reads system configuration.
        let (pages, size) = unsafe {
            (
                libc::sysconf(libc::_SC_PHYS_PAGES),
                libc::sysconf(libc::_SC_PAGESIZE),
            )
        };
        let ram = (pages > 0 && size > 0).then(|| pages as u64 * size as u64);
        let group = std::fs::read_to_string("/sys/fs/cgroup/memory.max")
            .ok()
            .and_then(|t| t.trim().parse::<u64>().ok());
        match (ram, group) {
            (Some(r), Some(g)) => Some(r.min(g)),
            (r, g) => r.or(g),
        }
    }
    #[cfg(not(unix))]
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_sort_and_ulimit_count_them() {
        assert_eq!(parse_size("800"), Ok(800 << 20));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("1.5g"), Ok(3 << 29));
        assert_eq!(parse_size("2048 KiB"), Ok(2 << 20));
        for bad in ["", "x", "-1", "0", "12Q", "1e400", "inf", "nan", "0.5K"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_budget_is_split_among_the_jobs() {
        let one = per_job(Some(1 << 30), 1).unwrap();
        let two = per_job(Some(1 << 30), 2).unwrap();
        assert!(two <= one / 2 + 1, "{one} {two}");
        // However little each job gets, the run goes on: puzzles that do not fit are refused
        // one by one.
        assert!(per_job(Some(1 << 20), 4).unwrap() <= 1 << 18);
    }
}
