#!/usr/bin/env python3
"""The readers' stress run (issue 36): many mixed puzzles of all five kinds, a share of their
records corrupted at random, streamed through `gridsat check --json -j 2 --timeout 5`.

It writes one file per kind (each in a form read record by record: one-line Sudoku, Takuzu and
Tectonic JSON Lines, Numberlink `W H` puzzles back to back, Shisen-sho boards between blank
lines), from the corpora in ../shared/corpora, the project's puzzles/ and `gridsat generate`, and
checks what came back: every record answered exactly once, in place (`index`), an error record
exactly where a record was corrupted and none elsewhere, exit 2 (there are errors). The peak
RSS comes from `/usr/bin/time -v`. Figures go to BENCHMARKS.md.

    python3 benches/stress.py --gridsat target/release/gridsat --count 100000

Corruptions are ones no reader can take for a valid puzzle (a character no kind has in a cell,
a bad size header, a row one cell short), so that "one error each" is exact; tests/fuzz.rs
splices random mutations instead.
"""

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORPORA = ROOT.parent / "shared" / "corpora"


def sudoku_lines():
    out = []
    for name in ["tdoku_17_clue.txt", "tdoku_magictour_top1465.txt", "hodoku_exemplars-1.0.txt"]:
        p = CORPORA / "sudoku" / name
        if not p.exists():
            continue
        for line in p.read_text(errors="replace").splitlines():
            tok = line.split()[0] if line.split() else ""
            if len(tok) == 81 and re.fullmatch(r"[0-9.]+", tok):
                out.append(tok)
    return out


def jsonl(path, max_cells):
    out = []
    if not path.exists():
        return out
    for line in path.read_text().splitlines():
        try:
            v = json.loads(line)
        except ValueError:
            continue
        if v.get("w", 99) * v.get("h", 99) <= max_cells:
            out.append(line)
    return out


def numberlink_blocks():
    """`W H` and the rows, from the Flow grids of mzucker's set and the project's collection."""
    out = []
    d = CORPORA / "numberlink" / "mzucker_flow_solver" / "puzzles"
    for p in sorted(d.glob("*.txt")) if d.exists() else []:
        rows = [l.rstrip("\n") for l in p.read_text().splitlines() if l.strip()]
        if rows and all(len(r) == len(rows[0]) for r in rows) and len(rows[0]) <= 10:
            out.append(f"{len(rows[0])} {len(rows)}\n" + "\n".join(rows) + "\n")
    text = (ROOT / "puzzles" / "numberlink" / "collection.txt").read_text()
    first = next(b for b in text.split("\n\n") if re.match(r"(#.*\n)*5 5\n", b))
    out.append("\n".join(l for l in first.splitlines() if not l.startswith("#")) + "\n")
    return out


def shisen_blocks(gridsat, n):
    r = subprocess.run(
        [gridsat, "generate", "shisen", "--size", "6x4", "--count", str(n), "--seed", "1",
         "--no-progress"],
        capture_output=True, text=True, check=True)
    blocks = []
    for b in r.stdout.split("\n\n"):
        rows = [l for l in b.splitlines() if l.strip() and not l.startswith("#")]
        if rows:
            blocks.append("\n".join(rows) + "\n")
    return blocks


def sudoku_generated(gridsat, n):
    r = subprocess.run(
        [gridsat, "generate", "sudoku", "--count", str(n), "--seed", "1", "--no-progress",
         "--format", "line"],
        capture_output=True, text=True)
    return [l.split()[0] for l in r.stdout.splitlines() if l and not l.startswith("#")
            and len(l.split()[0]) == 81]


def corrupt(kind, rec, rng):
    """A record no reader can take for a valid puzzle."""
    if kind == "sudoku":
        i = rng.randrange(len(rec))
        return rec[:i] + "@" + rec[i + 1:]
    if kind in ("takuzu", "tectonic"):
        v = json.loads(rec)
        g = v["givens"]
        i = rng.randrange(len(g))
        v["givens"] = g[:i] + "@" + g[i + 1:]
        return json.dumps(v)
    if kind == "numberlink":
        lines = rec.splitlines()
        w = lines[0].split()[0]
        return "\n".join([f"{w} x"] + lines[1:]) + "\n"
    # shisen: a row a tile short
    lines = rec.splitlines()
    i = rng.randrange(len(lines))
    lines[i] = " ".join(lines[i].split()[:-1])
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gridsat", default=str(ROOT / "target" / "release" / "gridsat"))
    ap.add_argument("--count", type=int, default=100_000)
    ap.add_argument("--corrupt", type=float, default=0.01)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", default="2")
    ap.add_argument("--timeout", default="5")
    ap.add_argument("--keep", help="folder to write the files into (kept)")
    a = ap.parse_args()
    if not CORPORA.exists():
        print(f"SKIPPED: {CORPORA} is absent", file=sys.stderr)
        return 0
    rng = random.Random(a.seed)
    sources = {
        "sudoku": sudoku_lines() + sudoku_generated(a.gridsat, 200),
        "takuzu": jsonl(CORPORA / "takuzu" / "derived" / "takuzu-all.normalized.jsonl", 144),
        "tectonic": jsonl(CORPORA / "tectonic" / "derived" / "tectonic-all.normalized.jsonl", 100),
        "numberlink": numberlink_blocks(),
        "shisen": shisen_blocks(a.gridsat, 300),
    }
    share = {"sudoku": 0.70, "takuzu": 0.12, "tectonic": 0.08, "numberlink": 0.05, "shisen": 0.05}
    ext = {"sudoku": "txt", "takuzu": "jsonl", "tectonic": "jsonl", "numberlink": "txt",
           "shisen": "shisen"}
    # What follows each record: Numberlink's come back to back, Shisen-sho's boards need a gap.
    sep = {"sudoku": "", "takuzu": "", "tectonic": "", "numberlink": "", "shisen": "\n"}
    work = Path(a.keep) if a.keep else Path(tempfile.mkdtemp(prefix="gridsat-stress-"))
    work.mkdir(parents=True, exist_ok=True)
    files, bad_at, totals = [], {}, {}
    for kind, recs in sources.items():
        n = int(a.count * share[kind])
        if not recs:
            print(f"SKIPPED: no {kind} records found", file=sys.stderr)
            continue
        path = work / f"stress-{kind}.{ext[kind]}"
        bad = set()
        with open(path, "w") as f:
            if kind == "numberlink":
                f.write("# numberlink: rules=flow\n")
            for i in range(1, n + 1):
                rec = recs[rng.randrange(len(recs))]
                if rng.random() < a.corrupt:
                    rec = corrupt(kind, rec, rng)
                    bad.add(i)
                f.write(rec.rstrip("\n") + "\n" + sep[kind])
        files.append(str(path))
        bad_at[str(path)] = bad
        totals[str(path)] = n
    kinds = [Path(p).name.split("-")[1].split(".")[0] for p in files]
    print(f"{sum(totals.values())} records in {len(files)} files, "
          f"{sum(len(b) for b in bad_at.values())} corrupted, in {work}", file=sys.stderr)
    # One run per file (each names its kind), all under one /usr/bin/time for the peak RSS.
    script = " && ".join(
        f"{{ {a.gridsat} check {p} --kind {k} --json --no-progress -j {a.jobs} --timeout {a.timeout}; "
        f"echo \"exit $?\" >&2; }}"
        for p, k in zip(files, kinds))
    started = time.time()
    r = subprocess.run(["/usr/bin/time", "-v", "bash", "-c", script.replace(" && ", "; ")],
                       capture_output=True, text=True)
    secs = time.time() - started
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", r.stderr)
    exits = re.findall(r"^exit (\d+)$", r.stderr, re.M)
    seen = {p: {} for p in files}
    statuses = {}
    problems = []
    for line in r.stdout.splitlines():
        v = json.loads(line)
        f, i, s = v["file"], v["index"], v["status"]
        statuses[s] = statuses.get(s, 0) + 1
        if i in seen[f]:
            problems.append(f"{f} #{i} answered twice")
        seen[f][i] = s
    merged = 0
    for p in files:
        got = seen[p]
        answered = sum(1 for st in got.values() if st != "error")
        errors = sum(1 for st in got.values() if st == "error")
        valid = totals[p] - len(bad_at[p])
        # Corrupted records next to each other (a bad header, its rows, another bad header)
        # may be read as one bad stretch: one error for the stretch.
        stretches = sum(1 for i in bad_at[p] if i - 1 not in bad_at[p])
        if answered != valid:
            problems.append(f"{p}: {answered} puzzles answered, {valid} valid in the file")
        if not stretches <= errors <= len(bad_at[p]):
            problems.append(f"{p}: {errors} errors for {len(bad_at[p])} corrupted records")
        merged += len(bad_at[p]) - errors
        # Where no stretch was merged, each record is answered in its own place.
        if errors == len(bad_at[p]):
            for i in range(1, totals[p] + 1):
                st = got.get(i)
                if st is None:
                    problems.append(f"{p} #{i} not answered")
                elif (st == "error") != (i in bad_at[p]):
                    problems.append(f"{p} #{i}: {st}, corrupted: {i in bad_at[p]}")
    for q in problems[:20]:
        print("PROBLEM", q, file=sys.stderr)
    print(json.dumps({
        "records": sum(totals.values()),
        "corrupted": sum(len(b) for b in bad_at.values()),
        "per_kind": {k: totals[p] for k, p in zip(kinds, files)},
        "statuses": statuses,
        "exits": [int(e) for e in exits],
        "seconds": round(secs, 1),
        "peak_rss_kb": int(peak.group(1)) if peak else None,
        "corrupted_records_read_with_their_neighbour": merged,
        "problems": len(problems),
    }, indent=1))
    # Exit 2 where a file had a corrupted record (0 or 1 where it had none: 1 for a puzzle
    # without a unique solution).
    wrong_exit = [k for k, p, e in zip(kinds, files, exits) if (int(e) == 2) != bool(bad_at[p])]
    for k in wrong_exit:
        print(f"PROBLEM {k}: exit code", file=sys.stderr)
    return 1 if problems or wrong_exit else 0


if __name__ == "__main__":
    sys.exit(main())
