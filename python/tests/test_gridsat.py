"""The Python package against the command line: every kind read, checked, explained and
generated; records equal to `gridsat ... --json` on the same puzzles; errors raised with the
command line's messages; time limits, Ctrl-C and threads.

Run from the repository root (`.ci/run` does): the puzzles are `puzzles/`, and the command line
is `target/debug/gridsat` or `target/release/gridsat` (or $GRIDSAT_BIN); the comparisons with it
skip with a visible SKIPPED message when it is not built."""

import concurrent.futures
import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

import gridsat

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"

# One puzzle file of each kind with a unique solution that the strategies explain.
EXPLAINED = {
    "sudoku": "puzzles/sudoku/classic.txt",
    "takuzu": "puzzles/takuzu/unique-6x6.takuzu",
    "tectonic": "puzzles/tectonic/first.tectonic",
    "numberlink": "puzzles/numberlink/flow7.txt",
    "shisen": "puzzles/shisen/nikakudori-4x4.shisen",
}

# Files whose puzzles' records are compared with the command line's, every verb.
COMPARED = [
    "puzzles/sudoku/classic.txt",
    "puzzles/sudoku/several.txt",
    "puzzles/sudoku/none.txt",
    "puzzles/sudoku/4x4.txt",
    "puzzles/takuzu/unique-6x6.takuzu",
    "puzzles/takuzu/several-6x6.takuzu",
    "puzzles/takuzu/none-6x6.takuzu",
    "puzzles/tectonic/first.tectonic",
    "puzzles/tectonic/several.tectonic",
    "puzzles/tectonic/none.tectonic",
    "puzzles/numberlink/flow7.txt",
    "puzzles/numberlink/nikoli6.txt",
    "puzzles/shisen/nikakudori-4x4.shisen",
    "puzzles/shisen/stuck.shisen",
]


def cli():
    """The command-line binary, or None."""
    for p in [os.environ.get("GRIDSAT_BIN")] + [
        str(ROOT / "target" / d / "gridsat") for d in ("debug", "release")
    ]:
        if p and Path(p).is_file():
            return p
    return None


def skipped(why):
    """Says SKIPPED and counts it in the log `.ci/run` reads (as tests/common does), then skips."""
    print(f"SKIPPED: {why}")
    log = ROOT / "target" / "tmp" / "skipped.log"
    if log.parent.is_dir():
        with open(log, "a") as f:
            f.write(f"SKIPPED: {why}\n")
    pytest.skip(why)


def need_cli():
    exe = cli()
    if exe is None:
        skipped("no gridsat binary (cargo build) to compare the Python package with")
    return exe


def run_cli(*args):
    out = subprocess.run(
        [need_cli(), *args], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    return out


def without_time(line):
    """A JSON record without its clock fields (`time_ms`, and a proof's)."""
    v = json.loads(line)
    v.pop("time_ms", None)
    return v


def read(path, **kw):
    return gridsat.read((ROOT / path).read_text(), file=path, **kw)


@pytest.fixture(autouse=True)
def at_root(monkeypatch):
    monkeypatch.chdir(ROOT)


@pytest.mark.parametrize("kind", sorted(EXPLAINED))
def test_every_kind_reads_checks_explains_and_generates(kind):
    path = EXPLAINED[kind]
    puzzles = read(path)
    assert puzzles and all(p.kind == kind for p in puzzles)
    p = puzzles[0]
    assert (p.file, p.index) == (path, 1)
    v = p.check()
    want = "unique" if kind != "shisen" else v.status
    assert v.status == want
    assert v.solution and all(isinstance(r, list) for r in v.solution)
    e = p.explain()
    assert e.status == "explained", str(e)
    assert e.steps and all("technique" in s and "text" in s for s in e.steps)
    assert e.solution == p.solve(unique=False).solution or kind == "shisen"
    h = p.hint()
    assert h.status == "hint" and len(h.steps) == 1
    assert h.steps[0] == e.steps[0]
    g = p.grade()
    assert g.status == "graded" and g.grade["level"]
    made = gridsat.generate(kind, seed=2)
    assert len(made) == 1 and made[0].seed == 2
    q = made[0].puzzle
    assert q.kind == kind
    assert made[0].solution == q.solve(unique=False).solution or kind == "shisen"
    if kind != "shisen":
        assert q.check().status == "unique"
    # The text it is written in reads back as the same puzzle.
    again = gridsat.read(made[0].text, kind)[0]
    assert again.check().to_dict()["solution"] == q.check().to_dict()["solution"]


@pytest.mark.parametrize("path", COMPARED)
def test_records_equal_the_command_line_json(path):
    puzzles = read(path)
    verbs = [
        (["check"], lambda p: p.check()),
        (["check", "--forced"], lambda p: p.check(forced=True)),
        (["solve"], lambda p: p.solve()),
        (["solve", "--no-unique"], lambda p: p.solve(unique=False)),
        (["count", "--max", "3"], lambda p: p.count(3)),
        (["explain"], lambda p: p.explain()),
        (["explain", "--fallback"], lambda p: p.explain(fallback=True)),
        (["hint"], lambda p: p.hint()),
        (["grade"], lambda p: p.grade()),
    ]
    for args, call in verbs:
        out = run_cli(*args, "--json", "--no-progress", "-j", "1", path)
        lines = out.stdout.splitlines()
        assert len(lines) == len(puzzles), (args, out.stderr)
        for p, line in zip(puzzles, lines):
            got = call(p).to_json()
            assert without_time(got) == without_time(line), (args, p)
            # Byte for byte, the clock aside: the same builder wrote both.
            assert got.split('"time_ms"')[0] == line.split('"time_ms"')[0]


@pytest.mark.parametrize("kind", sorted(EXPLAINED))
def test_generated_records_equal_the_command_line_json(kind):
    out = run_cli("generate", kind, "--seed", "3", "--count", "2", "--json", "--with-solution")
    assert out.returncode == 0, out.stderr
    made = gridsat.generate(kind, seed=3, count=2)
    assert [g.to_json() for g in made] == out.stdout.splitlines()
    out = run_cli("generate", kind, "--seed", "3", "--count", "2")

    def lines(text):
        return [l for l in text.splitlines() if l.strip()]

    assert lines("".join(g.text for g in made)) == lines(out.stdout)


def test_generate_takes_the_command_line_options():
    made = gridsat.generate("sudoku", 6, difficulty="easy", seed=5, symmetry="rotational")
    out = run_cli(
        "generate", "sudoku", "--size", "6", "--difficulty", "easy", "--seed", "5",
        "--symmetry", "rotational", "--json", "--with-solution",
    )
    assert made[0].to_json() == out.stdout.strip()
    assert made[0].grade["level"] == "easy"
    made = gridsat.generate("shisen", (8, 4), seed=1, gravity=True)
    assert "gravity" in made[0].puzzle.description
    with pytest.raises(gridsat.UsageError, match="--max-piece is not available when generating sudoku"):
        gridsat.generate("sudoku", max_piece=3)
    with pytest.raises(gridsat.UsageError, match="unknown kind `kakuro`"):
        gridsat.generate("kakuro")


def test_bad_input_raises_with_the_command_line_message():
    path = "puzzles/takuzu/bad/three-in-a-row.takuzu"
    with pytest.raises(gridsat.InputError) as e:
        read(path)
    assert e.value.file == path and e.value.line >= 1 and e.value.col >= 1
    assert str(e.value).startswith(f"{path}:{e.value.line}:{e.value.col}: ")
    out = run_cli("check", path)
    assert out.returncode == 2
    assert out.stderr.strip() == f"gridsat: {e.value}"
    with pytest.raises(gridsat.UsageError, match="unknown --rules `loose`"):
        gridsat.read("1 . 1\n", "numberlink", rules="loose")
    with pytest.raises(gridsat.UsageError, match="unknown kind"):
        gridsat.read("...", "kakuro")
    with pytest.raises(gridsat.UsageError):
        gridsat.read("." * 81)[0].check(timeout=-1)
    # A CSV board needs its layout's text.
    board = (PUZZLES / "tectonic" / "board.first.csv").read_text()
    with pytest.raises(gridsat.InputError, match="needs its layout"):
        gridsat.read(board, "tectonic", file="board.first.csv")
    layout = (PUZZLES / "tectonic" / "layout.first.csv").read_text()
    t = gridsat.read(board, "tectonic", file="board.first.csv", layout=layout)[0]
    assert t.check().solution == read("puzzles/tectonic/first.tectonic")[0].check().solution


def test_a_time_limit_returns_promptly():
    # Counting the solutions of an empty 9x9 grid would take forever.
    empty = gridsat.read("." * 81)[0]
    start = time.monotonic()
    v = empty.count(10**9, timeout=0.3)
    took = time.monotonic() - start
    assert v.status == "unknown" and v.timeout_s == 0.3 and v.open_reason is None
    assert took < 5, took
    assert json.loads(v.to_json())["status"] == "unknown"
    # A verdict whose second solution is not found in time keeps the first.
    v = empty.check(timeout=0.0)
    assert v.status in ("unknown", "solved", "multiple")
    e = empty.explain(timeout=0.0)
    assert e.status in ("unknown", "multiple")


def test_ctrl_c_interrupts_a_long_call():
    empty = gridsat.read("." * 81)[0]
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        empty.count(10**9)
    took = time.monotonic() - start
    assert took < 5, took


def test_threads_check_side_by_side():
    puzzles = read("puzzles/sudoku/25x25.txt") * 6 + read("puzzles/takuzu/gen-30x30.takuzu") * 2
    for p in puzzles[:2]:
        p.check()  # warm up
    start = time.monotonic()
    alone = [p.check().to_dict()["solution"] for p in puzzles]
    one = time.monotonic() - start
    start = time.monotonic()
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        side = list(pool.map(lambda p: p.check().to_dict()["solution"], puzzles))
    two = time.monotonic() - start
    assert side == alone
    # Measured, not asserted (the machine may be busy): the GIL is released while solving.
    print(f"threads: {len(puzzles)} checks in {one:.3f} s on one thread, {two:.3f} s on two ({one / two:.2f}x)")


def test_the_gil_is_released_while_solving():
    # While another thread spends half a second in the solver, this one keeps running Python.
    empty = gridsat.read("." * 81)[0]
    done = threading.Event()

    def solve():
        empty.count(10**9, timeout=0.5)
        done.set()

    t = threading.Thread(target=solve)
    ticks = 0
    t.start()
    while not done.is_set():
        ticks += 1
    t.join()
    assert ticks > 10_000, ticks


def test_dimacs_and_an_external_answer():
    p = read("puzzles/sudoku/classic.txt")[0]
    cnf, names = p.to_dimacs()
    out = run_cli("dimacs", "puzzles/sudoku/classic.txt")
    assert cnf == out.stdout
    assert names["r1c1=1"] >= 1
    answer = subprocess.run(
        [need_cli(), "sat", "-"], input=cnf, capture_output=True, text=True, cwd=ROOT
    )
    assert answer.returncode == 10
    v = p.decode(answer.stdout)
    assert v.status == "solved" and v.solution == p.check().solution
    lits = [int(t) for l in answer.stdout.splitlines() if l.startswith("v") for t in l.split()[1:]]
    assert p.decode([l for l in lits if l != 0]).solution == v.solution
    with pytest.raises(gridsat.UsageError, match="does not satisfy clause"):
        p.decode([-l for l in lits if l != 0])


def test_pictures():
    p = read("puzzles/sudoku/classic.txt")[0]
    assert p.svg().startswith("<?xml") and p._repr_svg_() == p.svg()
    assert p.png()[:8] == b"\x89PNG\r\n\x1a\n"
    assert p.svg(solution=True) != p.svg()
    several = read("puzzles/sudoku/several.txt")[0].check()
    assert several.status == "multiple" and "<svg" in several.svg()
    e = p.explain()
    assert len(e.pictures()) == len(e.steps) + 1
    assert e.png(1)[:4] == b"\x89PNG"
    h = p.hint()
    assert h._repr_svg_().startswith("<?xml")
    none = read("puzzles/sudoku/none.txt")[0].check()
    assert none.status == "none" and none.conflicting_givens and "<svg" in none.svg()
    assert none.conflicts_minimal is True and several.conflicts_minimal is None
    # The verdict alone: the same status, the givens not named, a picture all the same.
    quick = read("puzzles/sudoku/none.txt")[0].check(givens=False)
    assert quick.status == "none" and quick.conflicting_givens is None
    assert quick.conflicts_minimal is None and "not named" in quick.svg()
    assert str(quick).rstrip().endswith(": no solution")
    again = read("puzzles/sudoku/several.txt")[0].check(givens=False)
    assert without_time(again.to_json()) == without_time(several.to_json())
    with pytest.raises(gridsat.UsageError, match="count draws no pictures"):
        p.count().svg()


def test_text_forms_are_the_command_line_s():
    p = read("puzzles/sudoku/several.txt")[0]
    out = run_cli("check", "--forced", "--color", "never", "puzzles/sudoku/several.txt")
    assert str(p.check(forced=True)) == out.stdout
    out = run_cli("hint", "--color", "never", "puzzles/sudoku/classic.txt")
    assert str(read("puzzles/sudoku/classic.txt")[0].hint()) == out.stdout
    assert "Puzzle" in repr(p) and str(p).strip()


def test_the_guide_s_examples_run():
    """docs/python.md is written as a doctest: every example there runs and prints what it says."""
    import doctest

    failures, tries = doctest.testfile(
        str(ROOT / "docs" / "python.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert tries >= 20 and failures == 0
