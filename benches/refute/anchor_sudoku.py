#!/usr/bin/env python3
"""An independent Sudoku encoding to measure gridsat against (issue 37), written from the rules
and not from gridsat's model: the textbook one. Needs pysat (PyPI `python-sat`).

One variable per cell and value; each cell exactly one value, each row, column and box each
value exactly once (at-least-one clause and pairwise at-most-one); a given is a unit clause.
The rule clauses of a size are built once per process.

    venv/bin/python anchor_sudoku.py PUZZLE    (the grid layout: rows of values and `.`,
                                                `|` and `---+---` lines ignored)
    venv/bin/python anchor_sudoku.py --serve
"""

from itertools import combinations
from math import isqrt

from anchor_common import serve_or_run, verdict

RULES = {}


def read(path):
    rows = []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s.startswith("#") or set(s) <= set("-+"):
                continue
            rows.append([t for t in s.split() if t != "|"])
    return rows


def rules(n):
    if n not in RULES:
        b = isqrt(n)
        x = lambda r, c, v: (r * n + c) * n + v + 1
        cls = []
        units = [[(r, c) for c in range(n)] for r in range(n)]
        units += [[(r, c) for r in range(n)] for c in range(n)]
        units += [
            [(br * b + i, bc * b + j) for i in range(b) for j in range(b)]
            for br in range(b)
            for bc in range(b)
        ]
        for r in range(n):
            for c in range(n):
                lits = [x(r, c, v) for v in range(n)]
                cls.append(lits)
                cls += [[-p, -q] for p, q in combinations(lits, 2)]
        for unit in units:
            for v in range(n):
                lits = [x(r, c, v) for r, c in unit]
                cls.append(lits)
                cls += [[-p, -q] for p, q in combinations(lits, 2)]
        RULES[n] = (cls, x)
    return RULES[n]


def decide(path, timeout):
    rows = read(path)
    n = len(rows)
    cls, x = rules(n)
    givens = [
        [x(r, c, int(t) - 1)] for r, row in enumerate(rows) for c, t in enumerate(row) if t != "."
    ]
    return verdict(cls + givens, list(range(1, n**3 + 1)), timeout)


if __name__ == "__main__":
    serve_or_run(decide)
