#!/usr/bin/env python3
"""Builds the measuring sets of issue 37 (refutation): unique puzzles from `gridsat generate`,
each changed one way as a setter would (a given removed, added, moved, changed; two swapped),
written one puzzle per file under OUT/<set>/ with a manifest OUT/manifest.tsv.

Everything is regenerated from the seed (standard library only):

    python3 benches/refute/mutate.py --gridsat target/release/gridsat --out /work/ext/refute/sets

The mutated puzzles may have one solution, several or none; `run.py` measures them.
"""

import argparse
import os
import random
import subprocess
import sys

MUTATIONS = ["removed", "added", "moved", "changed", "swapped"]

# (set name, kind, generate arguments, file extension, extra reading arguments, base puzzles)
SETS = [
    ("nl15-flow", "numberlink", ["--size", "15", "--rules", "flow"], "txt", [], 12),
    ("nl15-cover", "numberlink", ["--size", "15", "--rules", "cover"], "txt", [], 12),
    ("nl15-nikoli", "numberlink", ["--size", "15", "--rules", "nikoli"], "txt", [], 12),
    ("nl20-flow", "numberlink", ["--size", "20", "--rules", "flow"], "txt", [], 12),
    ("nl20-cover", "numberlink", ["--size", "20", "--rules", "cover"], "txt", [], 12),
    ("nl20-nikoli", "numberlink", ["--size", "20", "--rules", "nikoli"], "txt", [], 12),
    ("tk10", "takuzu", ["--size", "10"], "takuzu", [], 15),
    ("tk14", "takuzu", ["--size", "14"], "takuzu", [], 15),
    ("tk20", "takuzu", ["--size", "20"], "takuzu", [], 15),
    ("tc7", "tectonic", ["--size", "7"], "tectonic", [], 20),
    ("tc9", "tectonic", ["--size", "9"], "tectonic", [], 20),
    ("sd9", "sudoku", ["--size", "9"], "txt", [], 30),
    ("sd16", "sudoku", ["--size", "16"], "txt", [], 10),
    ("sd25", "sudoku", ["--size", "25"], "txt", [], 4),
]


def generate(gridsat, kind, args, count, seed):
    """The generated puzzles as lists of lines (comments dropped, except Numberlink's rules)."""
    cmd = [gridsat, "generate", kind, *args, "--count", str(count), "--seed", str(seed), "-j", "1"]
    if kind != "sudoku":
        cmd += ["--difficulty", "any"]
    if kind == "sudoku":
        cmd += ["--layout", "grid"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    puzzles, cur = [], []
    for line in out.splitlines() + [""]:
        if line.startswith("# gridsat "):
            if cur:
                puzzles.append(cur)
            cur = []
            continue
        if line.startswith("# again") or line.startswith("# clearable"):
            continue
        if line.startswith("#") and "rules=" not in line:
            continue
        cur.append(line)
    if cur:
        puzzles.append(cur)
    return [strip_blank(p) for p in puzzles]


def strip_blank(lines):
    while lines and not lines[-1].strip():
        lines.pop()
    return lines


# --- Numberlink: a grid of labels, '.' empty; a given is a pair of ends ---


def nl_parse(lines):
    header = [l for l in lines if l.startswith("#")]
    grid = [l.split() for l in lines if l.strip() and not l.startswith("#")]
    return header, grid


def nl_write(header, grid):
    wid = max(len(t) for row in grid for t in row)
    return "\n".join(header + [" ".join(t.rjust(wid) for t in row) for row in grid]) + "\n"


def nl_mutate(lines, how, rng):
    header, grid = nl_parse(lines)
    h, w = len(grid), len(grid[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    ends = [rc for rc in cells if grid[rc[0]][rc[1]] != "."]
    empty = [rc for rc in cells if grid[rc[0]][rc[1]] == "."]
    labels = sorted({grid[r][c] for r, c in ends}, key=lambda x: (len(x), x))
    put = lambda rc, v: grid[rc[0]].__setitem__(rc[1], v)
    get = lambda rc: grid[rc[0]][rc[1]]
    if how == "removed":  # a pair of ends removed
        k = rng.choice(labels)
        for rc in ends:
            if get(rc) == k:
                put(rc, ".")
    elif how == "added":  # a new pair on two empty cells
        a, b = rng.sample(empty, 2)
        new = str(max(int(x) for x in labels if x.isdigit()) + 1)
        put(a, new)
        put(b, new)
    elif how == "moved":  # one end moved to an empty cell anywhere
        a, b = rng.choice(ends), rng.choice(empty)
        put(b, get(a))
        put(a, ".")
    elif how == "changed":  # one end moved to a neighbouring empty cell (a nudge)
        rng.shuffle(ends)
        for a in ends:
            near = [(a[0] + dr, a[1] + dc) for dr, dc in ((0, 1), (1, 0), (0, -1), (-1, 0))]
            near = [n for n in near if 0 <= n[0] < h and 0 <= n[1] < w and get(n) == "."]
            if near:
                b = rng.choice(near)
                put(b, get(a))
                put(a, ".")
                break
    elif how == "swapped":  # two ends of different paths swapped
        while True:
            a, b = rng.sample(ends, 2)
            if get(a) != get(b):
                break
        va, vb = get(a), get(b)
        put(a, vb)
        put(b, va)
    return nl_write(header, grid)


# --- Sudoku, Takuzu, Tectonic: a grid of values, '.' empty; a given is one cell's value ---


def values_parse(kind, lines):
    """(grid rows of tokens, the lines after the grid kept as they are, value range per cell)."""
    if kind == "sudoku":
        rows = [
            [t for t in l.split() if t != "|"]
            for l in lines
            if l.strip() and not set(l.strip()) <= set("-+")
        ]
        n = len(rows)
        return rows, [], lambda rc: [str(v) for v in range(1, n + 1)]
    if kind == "takuzu":
        rows = [list(l.strip()) for l in lines if l.strip()]
        return rows, [], lambda rc: ["0", "1"]
    # tectonic: the givens, a blank line, the regions
    blank = lines.index("")
    rows = [list(l.strip()) for l in lines[:blank]]
    regions = [l.strip() for l in lines[blank + 1 :] if l.strip()]
    size = {}
    for line in regions:
        for ch in line:
            size[ch] = size.get(ch, 0) + 1
    return rows, [""] + regions, lambda rc: [
        str(v) for v in range(1, size[regions[rc[0]][rc[1]]] + 1)
    ]


def values_write(kind, rows, rest):
    if kind == "sudoku":
        wid = max(len(t) for r in rows for t in r)
        body = [" ".join(t.rjust(wid) for t in r) for r in rows]
    else:
        body = ["".join(r) for r in rows]
    return "\n".join(body + rest) + "\n"


def clash(kind, rows, rest, rc, v):
    """True when value v at rc repeats a given the reader already rejects (Sudoku: a row,
    column or box; Tectonic: a piece or a touching cell): such input is a reading error with
    its line and column, not a verdict, so the mutations avoid it."""
    h, w = len(rows), len(rows[0])
    r, c = rc
    if kind == "sudoku":
        b = int(round(h**0.5))
        peers = [(r, j) for j in range(w)] + [(i, c) for i in range(h)]
        peers += [(r // b * b + i, c // b * b + j) for i in range(b) for j in range(b)]
    elif kind == "tectonic":
        regions = rest[1:]
        peers = [(i, j) for i in range(h) for j in range(w) if regions[i][j] == regions[r][c]]
        peers += [(r + i, c + j) for i in (-1, 0, 1) for j in (-1, 0, 1)]
    else:
        return False
    return any(
        (i, j) != (r, c) and 0 <= i < h and 0 <= j < w and rows[i][j] == v for i, j in peers
    )


def values_mutate(kind, lines, how, rng):
    for _ in range(200):
        text = values_mutate_once(kind, lines, how, rng)
        if text is not None:
            return text
    raise RuntimeError(f"no {how} mutation without a clash")


def values_mutate_once(kind, lines, how, rng):
    rows, rest, domain = values_parse(kind, lines)
    h, w = len(rows), len(rows[0])
    cells = [(r, c) for r in range(h) for c in range(w)]
    givens = [rc for rc in cells if rows[rc[0]][rc[1]] != "."]
    empty = [rc for rc in cells if rows[rc[0]][rc[1]] == "."]
    get = lambda rc: rows[rc[0]][rc[1]]

    def put(rc, v):
        if v != "." and clash(kind, rows, rest, rc, v):
            raise ValueError
        rows[rc[0]][rc[1]] = v

    try:
        mutate_values(how, rng, givens, empty, get, put, domain)
    except ValueError:
        return None
    return values_write(kind, rows, rest)


def mutate_values(how, rng, givens, empty, get, put, domain):
    if how == "removed":
        put(rng.choice(givens), ".")
    elif how == "added":
        e = rng.choice(empty)
        put(e, rng.choice(domain(e)))
    elif how == "moved":
        a, b = rng.choice(givens), rng.choice(empty)
        v = get(a)
        put(a, ".")
        put(b, v if v in domain(b) else rng.choice(domain(b)))
    elif how == "changed":
        a = rng.choice(givens)
        v = rng.choice([v for v in domain(a) if v != get(a)])
        put(a, ".")
        put(a, v)
    elif how == "swapped":
        for _ in range(1000):
            a, b = rng.sample(givens, 2)
            if get(a) != get(b) and get(a) in domain(b) and get(b) in domain(a):
                break
        va, vb = get(a), get(b)
        put(a, ".")
        put(b, ".")
        put(a, vb)
        put(b, va)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--gridsat", default="target/release/gridsat")
    ap.add_argument("--out", default="/work/ext/refute/sets")
    ap.add_argument("--seed", type=int, default=37)
    ap.add_argument("--only", help="comma-separated set names")
    ap.add_argument("--scale", type=float, default=1.0, help="base puzzles per set, scaled")
    a = ap.parse_args()
    only = a.only.split(",") if a.only else None
    os.makedirs(a.out, exist_ok=True)
    manifest = []
    for name, kind, gen_args, ext, read_args, base in SETS:
        if only and name not in only:
            continue
        count = max(1, round(base * a.scale))
        puzzles = generate(a.gridsat, kind, gen_args, count, a.seed)
        rng = random.Random(f"{a.seed}-{name}")
        d = os.path.join(a.out, name)
        os.makedirs(d, exist_ok=True)
        for i, lines in enumerate(puzzles):
            for how in MUTATIONS:
                if kind == "numberlink":
                    text = nl_mutate(lines, how, rng)
                else:
                    text = values_mutate(kind, lines, how, rng)
                path = os.path.join(d, f"{i:03}-{how}.{ext}")
                with open(path, "w") as f:
                    f.write(text)
                manifest.append((name, kind, " ".join(gen_args), how, path, " ".join(read_args)))
        print(f"{name}: {len(puzzles)} puzzles x {len(MUTATIONS)} mutations", file=sys.stderr)
    write_manifest(a.out, only, manifest)


def write_manifest(out, only, rows):
    """Writes `out/manifest.tsv` (one row per mutated puzzle, the set's name first); with `only`,
    the rows of the other sets already there are kept. mutate.py's rows and kinds.py's differ
    (6 and 4 columns): a manifest of the other tool is not overwritten, the run stops instead."""
    mpath = os.path.join(out, "manifest.tsv")
    old = []
    if os.path.exists(mpath):
        with open(mpath) as f:
            old = [l.rstrip("\n").split("\t") for l in f if l.strip()]
        width = len(rows[0]) if rows else None
        if width is not None and any(len(r) != width for r in old):
            sys.exit(f"{mpath} lists another tool's sets (mutate.py and kinds.py both write a "
                     "manifest.tsv): give this one a different --out")
        old = [r for r in old if only and r[0] not in only]
    with open(mpath, "w") as f:
        for row in old + [list(r) for r in rows]:
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
