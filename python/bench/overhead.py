"""The Python package's cost per call against the command line, and its speed-up on threads.

    python python/bench/overhead.py FILE GRIDSAT [ROUNDS]

FILE is a file of puzzles (BENCHMARKS.md uses the 10,000 Sudoku of
../shared/corpora/sudoku/tdoku_serg_benchmark.txt); GRIDSAT the command line (a release build).
Each round runs, in turn: `GRIDSAT solve --json --no-progress -j 1 FILE` (output thrown away),
the same in Python (read the text, `solve()` every puzzle, `to_json()` each record) on one
thread, then on a pool of two threads. Prints each round's times and the medians."""

import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import gridsat


def python_batch(text, threads):
    start = time.perf_counter()
    puzzles = gridsat.read(text)

    def one(p):
        return p.solve().to_json()

    if threads == 1:
        lines = [one(p) for p in puzzles]
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            lines = list(pool.map(one, puzzles, chunksize=64))
    return time.perf_counter() - start, len(lines)


def cli_batch(exe, path):
    start = time.perf_counter()
    subprocess.run(
        [exe, "solve", "--json", "--no-progress", "-j", "1", path],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return time.perf_counter() - start


def main():
    path, exe = sys.argv[1], sys.argv[2]
    rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    text = open(path).read()
    cli, one, two = [], [], []
    n = 0
    for r in range(rounds):
        cli.append(cli_batch(exe, path))
        t, n = python_batch(text, 1)
        one.append(t)
        t, _ = python_batch(text, 2)
        two.append(t)
        print(f"round {r + 1}: cli {cli[-1]:.3f} s, python {one[-1]:.3f} s, python on 2 threads {two[-1]:.3f} s")
    c, o, w = (statistics.median(x) for x in (cli, one, two))
    print(f"{n} puzzles; medians: cli {c:.3f} s, python {o:.3f} s, 2 threads {w:.3f} s")
    print(f"python costs {(o - c) / n * 1e6:.1f} us more per puzzle ({o / c:.2f}x the cli); 2 threads: {o / w:.2f}x one")


if __name__ == "__main__":
    main()
