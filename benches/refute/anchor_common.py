"""What the plain anchors of issue 37 share (anchor_takuzu.py, anchor_tectonic.py,
anchor_sudoku.py, anchor_shisen.py): the verdict from a CNF by solving twice with pysat's
CaDiCaL (the second time with the first answer blocked), a time limit, and the `--serve` loop
kinds.py talks to (`path timeout` in, `verdict cpu-seconds` out)."""

import sys
import time

from pysat.solvers import Solver

SOLVER = "cadical153"


def verdict(clauses, answer, timeout=None, refine=None):
    """unique, multiple or none for the CNF `clauses`, two answers differing in the variables
    `answer`; `refine(solver, model)` may add clauses and return True to solve again (lazy
    constraints). pysat's CaDiCaL cannot be interrupted, so the time limit is looked at
    between solver calls only: TimeoutError once `timeout` seconds of CPU have gone."""
    start = time.process_time()
    with Solver(name=SOLVER, bootstrap_with=clauses) as s:
        first = solve(s, refine, start, timeout)
        if first is None:
            return "none"
        pos = set(v for v in first if v > 0)
        s.add_clause([-v if v in pos else v for v in answer])
        return "unique" if solve(s, refine, start, timeout) is None else "multiple"


def solve(s, refine, start, timeout):
    while True:
        if timeout and time.process_time() - start > timeout:
            raise TimeoutError
        if not s.solve():
            return None
        m = s.get_model()
        if refine is None or not refine(s, m):
            return m


def serve_or_run(decide):
    """`--serve`: answer `path timeout` lines; otherwise print the verdict of argv[1]."""
    if sys.argv[1:] != ["--serve"]:
        print(decide(sys.argv[1], None))
        return
    for line in sys.stdin:
        path, timeout = line.split()
        t = time.process_time()
        try:
            v = decide(path, float(timeout))
        except TimeoutError:
            v = "unknown"
        except Exception as e:  # noqa: BLE001 (a measuring tool: report and go on)
            v = f"error:{type(e).__name__}"
        print(v, f"{time.process_time() - t:.4f}", flush=True)
