#!/usr/bin/env python3
"""An independent Numberlink encoding to measure gridsat against (issue 37), written from the
rules and not from gridsat's model: the textbook one. Needs pysat (PyPI `python-sat`), e.g. in
a venv under /work/ext/refute/venv.

Variables: one per pair of neighbouring cells (linked) and one per cell and path (the cell is
on that path). An end is on its path and has one link; any other cell is on at most one path
and has two links when it is on one, none otherwise (under `flow` and `cover` every cell is on
one). Linked cells are on the same path; under `flow`, two neighbouring cells on one path are
linked. Detached loops are cut lazily: a set S of linked cells with no end gets the clause
"some cell of S is off every path, or a link leaves S" (one clause per cell of S under nikoli,
one clause when every cell must be covered). Uniqueness: the links of the solution blocked,
solve again (with the same loop cuts).

    venv/bin/python anchor_numberlink.py PUZZLE [--rules flow|cover|nikoli]
    venv/bin/python anchor_numberlink.py --serve     (reads `path rules timeout` lines on stdin)

The puzzle file is a grid of labels with `.` (or 0) for empty cells, as `gridsat generate
numberlink` writes it (a `# numberlink: rules=...` line sets the rules), or the `W H` form.
"""

import sys
import threading
import time
from itertools import combinations

from pysat.solvers import Solver

SOLVER = "cadical153"


def read(path):
    rules = None
    rows = []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith("#"):
                if "rules=" in s:
                    rules = s.split("rules=")[1].split()[0]
                continue
            if s:
                rows.append(s.split())
    if len(rows[0]) == 2 and all(t.isdigit() for t in rows[0]) and len(rows) > 1:
        w, h = int(rows[0][0]), int(rows[0][1])
        if len(rows) - 1 == h and all(len(r) == w for r in rows[1:]):
            rows = rows[1:]
    grid = [["." if t in (".", "0") else t for t in r] for r in rows]
    return grid, rules


class Anchor:
    def __init__(self, grid, rules):
        self.h, self.w = len(grid), len(grid[0])
        self.rules = rules
        n = self.h * self.w
        self.n = n
        labels = sorted({t for r in grid for t in r if t != "."})
        self.paths = labels
        self.end = [None] * n
        for r in range(self.h):
            for c in range(self.w):
                if grid[r][c] != ".":
                    self.end[r * self.w + c] = labels.index(grid[r][c])
        self.nv = 0
        self.clauses = []
        self.edge = {}  # (a, b) with a < b -> var
        self.nbr = [[] for _ in range(n)]  # (neighbour, edge var)
        for c in range(n):
            r, q = divmod(c, self.w)
            for m in ([c + 1] if q + 1 < self.w else []) + ([c + self.w] if r + 1 < self.h else []):
                v = self.var()
                self.edge[(c, m)] = v
                self.nbr[c].append((m, v))
                self.nbr[m].append((c, v))
        K = len(labels)
        self.col = [[self.var() for _ in range(K)] for _ in range(n)]
        # nikoli: a cell's "on some path" literal
        self.on = [self.var() for _ in range(n)] if rules == "nikoli" else None
        self.ok = all(sum(1 for e in self.end if e == k) == 2 for k in range(K))
        self.encode()

    def var(self):
        self.nv += 1
        return self.nv

    def add(self, cl):
        self.clauses.append(cl)

    def encode(self):
        K = len(self.paths)
        for c in range(self.n):
            es = [v for _, v in self.nbr[c]]
            cols = self.col[c]
            for a, b in combinations(cols, 2):
                self.add([-a, -b])
            if self.end[c] is not None:
                k = self.end[c]
                self.add([cols[k]])
                self.add(es)  # exactly one link
                for a, b in combinations(es, 2):
                    self.add([-a, -b])
                continue
            for s in combinations(es, 3):  # at most two links
                self.add([-x for x in s])
            if self.rules in ("flow", "cover"):
                self.add(cols)  # every cell on a path
                for s in combinations(es, len(es) - 1):  # at least two links
                    self.add(list(s))
            else:
                # on a path <=> some link; some link => at least two
                for e in es:
                    self.add([-e] + cols)
                    self.add([-e] + [x for x in es if x != e])
                for k in range(K):
                    self.add([-cols[k]] + es)
                    self.add([-cols[k], self.on[c]])
                self.add([-self.on[c]] + cols)
        for (a, b), e in self.edge.items():
            for k in range(K):
                self.add([-e, -self.col[a][k], self.col[b][k]])
                self.add([-e, -self.col[b][k], self.col[a][k]])
                if self.rules == "flow":
                    self.add([-self.col[a][k], -self.col[b][k], e])

    def loops(self, model):
        """Cuts for the detached loops of a model (empty when there is none)."""
        on = set(v for v in model if v > 0)
        seen = [False] * self.n
        cuts = []
        for s in range(self.n):
            if seen[s] or not any(v in on for _, v in self.nbr[s]):
                continue
            comp, stack, seen[s] = [], [s], True
            while stack:
                c = stack.pop()
                comp.append(c)
                for m, v in self.nbr[c]:
                    if v in on and not seen[m]:
                        seen[m] = True
                        stack.append(m)
            if any(self.end[c] is not None for c in comp):
                continue
            inside = set(comp)
            out = [v for c in comp for m, v in self.nbr[c] if m not in inside]
            if self.rules in ("flow", "cover"):
                cuts.append(out)
            else:
                for c in comp:
                    cuts.append(out + [-self.on[c]])
        return cuts

    def solve(self, s):
        while True:
            if not s.solve_limited(expect_interrupt=True):
                if s.get_status() is None:
                    raise TimeoutError
                return None
            m = s.get_model()
            cuts = self.loops(m)
            if not cuts:
                return m
            for cl in cuts:
                s.add_clause(cl)

    def verdict(self, timeout=None):
        """unique, multiple, none; raises TimeoutError after `timeout` seconds."""
        if not self.ok:
            return "none"
        with Solver(name=SOLVER, bootstrap_with=self.clauses) as s:
            timer = None
            if timeout:
                timer = threading.Timer(timeout, s.interrupt)
                timer.start()
            try:
                first = self.solve(s)
                if first is None:
                    return "none"
                s.add_clause([-v if first[v - 1] > 0 else v for v in self.edge.values()])
                second = self.solve(s)
                return "unique" if second is None else "multiple"
            finally:
                if timer:
                    timer.cancel()


def decide(path, rules=None, timeout=None):
    grid, file_rules = read(path)
    return Anchor(grid, rules or file_rules or "flow").verdict(timeout)


def main():
    if sys.argv[1:] == ["--serve"]:
        for line in sys.stdin:
            path, rules, timeout = line.split()
            t = time.process_time()
            try:
                v = decide(path, None if rules == "-" else rules, float(timeout))
            except TimeoutError:
                v = "unknown"
            except Exception as e:  # noqa: BLE001 (a measuring tool: report and go on)
                v = f"error:{type(e).__name__}"
            print(v, f"{time.process_time() - t:.4f}", flush=True)
        return
    rules = None
    if "--rules" in sys.argv:
        rules = sys.argv[sys.argv.index("--rules") + 1]
    print(decide(sys.argv[1], rules))


if __name__ == "__main__":
    main()
