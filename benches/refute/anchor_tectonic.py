#!/usr/bin/env python3
"""An independent Tectonic (Suguru) encoding to measure gridsat against (issue 37), written from
the rules and not from gridsat's model. Needs pysat (PyPI `python-sat`).

One variable per cell and value 1..k (k the size of the cell's piece): each cell exactly one
value, each value of a piece exactly once (pairwise at-most-one), two touching cells (also
diagonally) never the same value; a given is a unit clause.

    venv/bin/python anchor_tectonic.py PUZZLE   (rows of givens and `.`, a blank line, rows
                                                 of piece letters)
    venv/bin/python anchor_tectonic.py --serve
"""

from itertools import combinations

from anchor_common import serve_or_run, verdict


def read(path):
    with open(path) as f:
        lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
    while lines and not lines[0].strip():
        lines.pop(0)
    blank = lines.index("")
    givens = [l.strip() for l in lines[:blank]]
    pieces = [l.strip() for l in lines[blank + 1 :] if l.strip()]
    return givens, pieces


def decide(path, timeout):
    givens, pieces = read(path)
    h, w = len(pieces), len(pieces[0])
    cells = {}
    for r in range(h):
        for c in range(w):
            cells.setdefault(pieces[r][c], []).append((r, c))
    size = {rc: len(cs) for cs in cells.values() for rc in cs}
    var = {}
    for r in range(h):
        for c in range(w):
            for v in range(1, size[(r, c)] + 1):
                var[(r, c, v)] = len(var) + 1
    cls = []
    for (r, c), k in size.items():
        lits = [var[(r, c, v)] for v in range(1, k + 1)]
        cls.append(lits)
        cls += [[-p, -q] for p, q in combinations(lits, 2)]
        g = givens[r][c]
        if g != ".":
            cls.append([var[(r, c, int(g))]] if int(g) <= k else [])
    for cs in cells.values():
        for v in range(1, len(cs) + 1):
            lits = [var[(r, c, v)] for r, c in cs]
            cls.append(lits)
            cls += [[-p, -q] for p, q in combinations(lits, 2)]
    for r in range(h):
        for c in range(w):
            for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1)):
                r2, c2 = r + dr, c + dc
                if 0 <= r2 < h and 0 <= c2 < w:
                    for v in range(1, min(size[(r, c)], size[(r2, c2)]) + 1):
                        cls.append([-var[(r, c, v)], -var[(r2, c2, v)]])
    return verdict(cls, list(range(1, len(var) + 1)), timeout)


if __name__ == "__main__":
    serve_or_run(decide)
