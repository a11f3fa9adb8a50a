#!/usr/bin/env python3
"""Issue 37 for Takuzu, Tectonic, Sudoku and Shisen-sho: builds mutated puzzles (`make`) and
measures gridsat against an independent plain encoding per kind (`run`: anchor_<kind>.py, pysat
with CaDiCaL, written from the rules apart from gridsat's model), binaries and anchor alternated
puzzle by puzzle. The Numberlink sets and their runner are mutate.py and run.py.

    python3 benches/refute/kinds.py make --gridsat target/release/gridsat \\
        --out /work/ext/refute-kinds/sets
    python3 benches/refute/kinds.py run --sets /work/ext/refute-kinds/sets \\
        --gridsat new=target/release/gridsat --anchor-python /work/ext/refute/venv/bin/python

`make` regenerates every set from the seed: unique puzzles from `gridsat generate` (the 60x60
Takuzu bases are the project's `puzzles/takuzu/gen-60x60.takuzu` and one `generate --size 60
--difficulty any --seed 1`, which takes minutes; --tk60 FILE adds it), each changed one way:
a given removed, added, moved, changed, or two swapped (Shisen-sho, a full board: a pair
removed, a pair's face changed, two tiles of different faces swapped).
"""

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from mutate import MUTATIONS, values_mutate, write_manifest  # noqa: E402
from run import DECIDED, Anchor, cpu_of, run_gridsat  # noqa: E402

SHISEN_MUTATIONS = ["removed", "changed", "swapped"]

# (set name, kind, generate arguments, file extension, base puzzles, mutations per base and kind)
SETS = [
    ("tk10", "takuzu", ["--size", "10"], "takuzu", 30, 1),
    ("tk12", "takuzu", ["--size", "12"], "takuzu", 20, 1),
    ("tk14", "takuzu", ["--size", "14"], "takuzu", 20, 1),
    ("tk60", "takuzu", None, "takuzu", None, 10),
    ("tc9", "tectonic", ["--size", "9"], "tectonic", 20, 1),
    ("tc15", "tectonic", ["--size", "15"], "tectonic", 30, 1),
    ("sd9", "sudoku", ["--size", "9"], "txt", 40, 1),
    ("sd16", "sudoku", ["--size", "16"], "txt", 20, 1),
    ("sd25", "sudoku", ["--size", "25"], "txt", 8, 1),
    ("sh18x8", "shisen", ["--size", "18x8"], "shisen", 50, 1),
]


def split_puzzles(text):
    """A generated batch (or a file) as puzzles, each a list of lines without comments."""
    puzzles, cur = [], []
    for line in text.splitlines() + ["# gridsat end"]:
        if line.startswith("# gridsat "):
            while cur and not cur[-1].strip():
                cur.pop()
            if cur:
                puzzles.append(cur)
            cur = []
        elif line.startswith("#"):
            if line.startswith("# shisen:"):
                cur.append(line)
        else:
            cur.append(line)
    return puzzles


def generate(gridsat, kind, args, count, seed):
    cmd = [gridsat, "generate", kind, *args, "--count", str(count), "--seed", str(seed), "-j", "1"]
    if kind in ("takuzu", "tectonic"):
        cmd += ["--difficulty", "any"]
    if kind == "sudoku":
        cmd += ["--layout", "grid"]
    return split_puzzles(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)


def takuzu_broken(text):
    """True when the givens of a Takuzu already break a rule (three equal side by side, more
    of one digit than half a line, two complete equal lines): gridsat rejects such input as a
    reading error with its line and column, not a verdict, so the mutations avoid it."""
    rows = [l for l in text.splitlines() if l.strip()]
    cols = ["".join(r[c] for r in rows) for c in range(len(rows[0]))]
    for family in (rows, cols):
        full = [l for l in family if "." not in l]
        if len(set(full)) < len(full):
            return True
        for l in family:
            if "000" in l or "111" in l or max(l.count("0"), l.count("1")) > len(l) // 2:
                return True
    return False


def mutated(kind, lines, how, rng):
    if kind == "shisen":
        return shisen_mutate(lines, how, rng)
    while True:
        text = values_mutate(kind, lines, how, rng)
        if kind != "takuzu" or not takuzu_broken(text):
            return text


def shisen_mutate(lines, how, rng):
    """A full Shisen-sho board changed one way; a pair is two tiles of one face."""
    head = [l for l in lines if l.startswith("#")]
    rows = [l.split() for l in lines if l.strip() and not l.startswith("#")]
    cells = [(r, c) for r in range(len(rows)) for c in range(len(rows[0])) if rows[r][c] != "."]
    faces = sorted({rows[r][c] for r, c in cells})
    of = lambda f: [rc for rc in cells if rows[rc[0]][rc[1]] == f]
    if how in ("removed", "changed"):
        a, b = rng.sample(of(rng.choice(faces)), 2)
        new = "." if how == "removed" else rng.choice(faces)
        while new == rows[a[0]][a[1]]:
            new = rng.choice(faces)
        rows[a[0]][a[1]] = rows[b[0]][b[1]] = new
    else:  # swapped
        while True:
            a, b = rng.sample(cells, 2)
            if rows[a[0]][a[1]] != rows[b[0]][b[1]]:
                break
        rows[a[0]][a[1]], rows[b[0]][b[1]] = rows[b[0]][b[1]], rows[a[0]][a[1]]
    return "\n".join(head + [" ".join(r) for r in rows]) + "\n"


def make(a):
    only = a.only.split(",") if a.only else None
    os.makedirs(a.out, exist_ok=True)
    manifest = []
    for name, kind, gen_args, ext, base, per in SETS:
        if only and name not in only:
            continue
        if gen_args is None:  # tk60: the bases are files
            puzzles = []
            for path in [os.path.join(HERE, "../../puzzles/takuzu/gen-60x60.takuzu")] + a.tk60:
                with open(path) as f:
                    puzzles += split_puzzles(f.read())
        else:
            puzzles = generate(a.gridsat, kind, gen_args, base, a.seed)
        rng = random.Random(f"{a.seed}-{name}")
        d = os.path.join(a.out, name)
        os.makedirs(d, exist_ok=True)
        hows = SHISEN_MUTATIONS if kind == "shisen" else MUTATIONS
        n = 0
        for i, lines in enumerate(puzzles):
            for how in hows:
                for j in range(per):
                    text = mutated(kind, lines, how, rng)
                    tag = f"{i:03}-{how}" + (f"-{j}" if per > 1 else "")
                    path = os.path.join(d, f"{tag}.{ext}")
                    with open(path, "w") as f:
                        f.write(text)
                    manifest.append((name, kind, how, path))
                    n += 1
        print(f"{name}: {len(puzzles)} bases, {n} mutated puzzles", file=sys.stderr)
    write_manifest(a.out, only, manifest)


def run(a):
    bins = []
    for g in a.gridsat:
        who, binary = g.split("=", 1)
        bins.append((who, binary))
    only = a.only.split(",") if a.only else None
    rows = []
    with open(os.path.join(a.sets, "manifest.tsv")) as f:
        for line in f:
            name, kind, how, path = line.rstrip("\n").split("\t")
            if a.first is not None and int(os.path.basename(path)[:3]) >= a.first:
                continue
            if only is None or name in only:
                rows.append((name, kind, how, path))
    anchors = {}
    out = sys.stdout if a.tsv == "-" else open(a.tsv, "w")
    results = []  # (set, how, who, status, cpu)
    disagree = 0
    for name, kind, how, path in rows:
        line = [name, how, os.path.basename(path)]
        for who, binary in bins:
            (status, _wall), cpu = cpu_of(
                lambda: run_gridsat(binary, kind, path, a.timeout, [], ["check"])
            )
            results.append((name, how, who, status, cpu))
            line += [who, status, f"{cpu:.3f}"]
        if a.anchor_python:
            if kind not in anchors:
                anchors[kind] = Anchor(a.anchor_python, kind)
            verdict, cpu = anchors[kind].ask(path, a.timeout)
            results.append((name, how, "anchor", verdict, cpu))
            line += ["anchor", verdict, f"{cpu:.3f}"]
        said = {line[i + 1].rstrip("~") for i in range(3, len(line), 3)} & DECIDED
        if len(said) > 1:
            line.append("DISAGREE")
            disagree += 1
        print("\t".join(line), file=out, flush=True)
    summary(results)
    print(f"\n{disagree} puzzles with different decided verdicts")


def summary(results):
    groups = {}
    for name, how, who, status, cpu in results:
        for key in ((name, how, who), (name, "all", who)):
            groups.setdefault(key, []).append((status, cpu))
    print("\n| set | mutation | solver | decided | none | over 1 s | median s | max s | total CPU s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (name, how, who), rs in sorted(groups.items()):
        cpus = [c for _, c in rs]
        ok = sum(1 for s, _ in rs if s.rstrip("~") in DECIDED)
        none = sum(1 for s, _ in rs if s.rstrip("~") == "none")
        slow = sum(1 for c in cpus if c > 1.0)
        print(
            f"| {name} | {how} | {who} | {ok}/{len(rs)} | {none} | {slow} "
            f"| {statistics.median(cpus):.3f} | {max(cpus):.3f} | {sum(cpus):.2f} |"
        )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make")
    m.add_argument("--gridsat", default="target/release/gridsat")
    m.add_argument("--out", default="/work/ext/refute-kinds/sets")
    m.add_argument("--seed", type=int, default=37)
    m.add_argument("--only", help="comma-separated set names")
    m.add_argument("--tk60", action="append", default=[], help="another 60x60 Takuzu base file")
    r = sub.add_parser("run")
    r.add_argument("--sets", default="/work/ext/refute-kinds/sets")
    r.add_argument("--gridsat", action="append", default=[], help="NAME=BINARY (repeatable)")
    r.add_argument("--anchor-python", help="a python with pysat: measure the anchors too")
    r.add_argument("--only", help="comma-separated set names")
    r.add_argument("--timeout", type=float, default=10)
    r.add_argument("--first", type=int, help="only the first N base puzzles of each set")
    r.add_argument("--tsv", default="-")
    a = ap.parse_args()
    make(a) if a.cmd == "make" else run(a)


if __name__ == "__main__":
    main()
