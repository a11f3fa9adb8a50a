#!/usr/bin/env python3
"""An independent Takuzu (binairo) encoding to measure gridsat against (issue 37), written from
the rules and not from gridsat's model. Needs pysat (PyPI `python-sat`).

One variable per cell (true: 1). No three equal digits side by side in a row or column (two
clauses per window); each row and column holds as many 1s as 0s (pysat's cardinality encoding,
a totalizer, for "exactly n/2"); no two rows, and no two columns, are equal (per pair of lines
one difference variable per position, d -> the two cells differ, and one of the d's holds).

    venv/bin/python anchor_takuzu.py PUZZLE        (rows of 0, 1 and . ; comments with #)
    venv/bin/python anchor_takuzu.py --serve
"""

from itertools import combinations

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from anchor_common import serve_or_run, verdict


def read(path):
    with open(path) as f:
        return [l.strip() for l in f if l.strip() and not l.startswith("#")]


def encode(rows):
    h, w = len(rows), len(rows[0])
    x = lambda r, c: r * w + c + 1
    pool = IDPool(start_from=h * w + 1)
    cls = []
    lines = [[x(r, c) for c in range(w)] for r in range(h)]
    lines += [[x(r, c) for r in range(h)] for c in range(w)]
    for line in lines:
        for a, b, c in zip(line, line[1:], line[2:]):
            cls += [[a, b, c], [-a, -b, -c]]
        card = CardEnc.equals(line, bound=len(line) // 2, vpool=pool, encoding=EncType.totalizer)
        cls += card.clauses
    for family in (lines[:h], lines[h:]):
        for p, q in combinations(family, 2):
            ds = []
            for a, b in zip(p, q):
                d = pool.id()
                ds.append(d)
                cls += [[-d, a, b], [-d, -a, -b]]
            cls.append(ds)
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch in "01":
                cls.append([x(r, c) if ch == "1" else -x(r, c)])
    return cls, list(range(1, h * w + 1))


def decide(path, timeout):
    cls, answer = encode(read(path))
    return verdict(cls, answer, timeout)


if __name__ == "__main__":
    serve_or_run(decide)
