"""The page in a real browser (Debian's Chromium through Playwright): every kind entered by
paste and by clicks and checked against the command line, several solutions and conflicts
marked, hint, explain forward and back, Stop, a Shisen-sho pair removed by clicks, the record
equal to `gridsat check --json`, and no network request after load.

Run: web/build.sh, then `python -m pytest web/tests` (with Playwright for Python installed);
screenshots go to target/web-screenshots/ (GRIDSAT_SCREENSHOTS) and are meant to be looked at.
"""

import json
import re
import time
import urllib.parse

import pytest

from conftest import PUZZLES, run_cli

# One puzzle of each kind, small enough to enter by clicks, with its verdict.
KINDS = {
    "sudoku": ("sudoku/6x6.txt", {}),
    "takuzu": ("takuzu/unique-6x6.takuzu", {}),
    "tectonic": ("tectonic/first.tectonic", {}),
    "numberlink": ("numberlink/flow7.txt", {}),
    "shisen": ("shisen/nikakudori-4x4.shisen", {"no-outline": "1"}),
}


def status(page, timeout=60000):
    """The verdict once the check has ended."""
    page.wait_for_function(
        "['working', 'idle'].indexOf(document.getElementById('verdict').dataset.status) < 0",
        timeout=timeout,
    )
    return page.get_attribute("#verdict", "data-status")


def open_fragment(page, text, kind=None, **flags):
    frag = "text=" + urllib.parse.quote(text, safe="")
    if kind:
        frag += "&kind=" + kind
    for k, v in flags.items():
        frag += f"&{k}={urllib.parse.quote(v)}"
    page.goto(page.base_url + "#" + frag)
    page.wait_for_function("window.gridsatReady !== undefined")


def solve_text(gridsat, path):
    """What `gridsat solve` prints under its first line."""
    out = run_cli(gridsat, "solve", str(PUZZLES / path))
    return out.split("\n", 1)[1].rstrip("\n")


def cell_point(page, row, col):
    """The screen point at the centre of a cell of the board: the board's group is placed by a
    translate, and a cell is 40 units."""
    return page.evaluate(
        """([row, col]) => {
            const svg = document.querySelector('#board svg');
            const g = svg.querySelector('g.board');
            const [ox, oy] = g.getAttribute('transform').match(/translate\\(([-\\d.]+) ([-\\d.]+)\\)/).slice(1).map(Number);
            const pt = svg.createSVGPoint();
            pt.x = ox + (col + 0.5) * 40;
            pt.y = oy + (row + 0.5) * 40;
            const p = pt.matrixTransform(svg.getScreenCTM());
            return [p.x, p.y];
        }""",
        [row, col],
    )


def click_cell(page, row, col):
    x, y = cell_point(page, row, col)
    page.mouse.click(x, y)


def draft(page):
    return page.evaluate("S.draft")


def wasm(page, verb, request):
    return page.evaluate(
        "([v, r]) => JSON.parse(wasm_bindgen.call(v, JSON.stringify(r)))", [verb, request]
    )


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_by_fragment_and_by_paste(page, gridsat_bin, shots, kind):
    path, flags = KINDS[kind]
    text = (PUZZLES / path).read_text()
    want = solve_text(gridsat_bin, path)
    # The testing contract: #text=... opens and checks at once.
    open_fragment(page, text, kind, **flags)
    assert status(page) == "unique"
    assert page.text_content("#solution").rstrip("\n") == want
    page.screenshot(path=str(shots / f"fragment-{kind}.png"), full_page=True)
    # Pasted into the box, the kind detected as on the command line.
    page.goto(page.base_url)
    page.wait_for_function("window.gridsatReady !== undefined")
    page.click("#paste-box summary")
    page.fill("#paste", text)
    page.click("#open")
    assert draft(page)["kind"] == kind
    if flags:
        # Rules the text does not hold are set with the controls, as with command-line flags.
        for k in flags:
            page.check(f"#{k}")
    assert status(page) == "unique"
    assert page.text_content("#solution").rstrip("\n") == want
    page.click("#solve")
    page.wait_for_selector("#picture svg")
    page.screenshot(path=str(shots / f"page-{kind}.png"), full_page=True)
    page.locator("main").screenshot(path=str(shots / f"{kind}.png"))


@pytest.mark.parametrize("kind", list(KINDS))
def test_every_kind_entered_by_clicks(page, gridsat_bin, shots, kind):
    path, flags = KINDS[kind]
    want = solve_text(gridsat_bin, path)
    target = wasm(page, "open", {"text": (PUZZLES / path).read_text(), "name": path})["draft"]
    page.select_option("#kind", kind)
    page.fill("#width", str(target["width"]))
    if kind != "sudoku":
        page.fill("#height", str(target["height"]))
    for k in flags:
        page.check(f"#{k}")
    page.click("#new")
    assert draft(page)["kind"] == kind
    w = target["width"]
    if kind == "tectonic":
        # Pieces by dragging across borders: each cell is joined to a neighbour already in
        # its piece (a tree of each piece, grown from its first cell).
        pieces = target["pieces"]
        seen = set()
        for start in range(len(pieces)):
            if start in seen:
                continue
            seen.add(start)
            stack = [start]
            while stack:
                c = stack.pop()
                r0, c0 = divmod(c, w)
                for r1, c1 in [(r0 - 1, c0), (r0 + 1, c0), (r0, c0 - 1), (r0, c0 + 1)]:
                    n = r1 * w + c1
                    if 0 <= r1 < target["height"] and 0 <= c1 < w and n not in seen and pieces[n] == pieces[c]:
                        seen.add(n)
                        stack.append(n)
                        x0, y0 = cell_point(page, r0, c0)
                        x1, y1 = cell_point(page, r1, c1)
                        page.mouse.move(x0, y0)
                        page.mouse.down()
                        page.mouse.move(x1, y1, steps=4)
                        page.mouse.up()
        assert draft(page)["pieces"] == pieces
    for i, token in enumerate(target["cells"]):
        if token:
            click_cell(page, i // w, i % w)
            page.keyboard.type(token)
            page.wait_for_timeout(20 if len(token) == 1 else 1100)
    assert draft(page)["cells"] == target["cells"]
    assert status(page) == "unique"
    assert page.text_content("#solution").rstrip("\n") == want
    page.screenshot(path=str(shots / f"clicks-{kind}.png"), full_page=True)


def test_several_solutions_mark_the_cells_that_differ(page, gridsat_bin, shots):
    text = (PUZZLES / "sudoku/several.txt").read_text()
    open_fragment(page, text)
    assert status(page) == "multiple"
    cli = json.loads(run_cli(gridsat_bin, "check", "--json", str(PUZZLES / "sudoku/several.txt")))
    shaded = page.locator("#board svg rect.highlight.differ").count()
    assert shaded == len(cli["differing_cells"]) > 0
    page.click("#more")
    page.wait_for_selector("#stepper:not([hidden])")
    first = page.inner_html("#picture")
    page.click("#next")
    assert page.inner_html("#picture") != first
    page.screenshot(path=str(shots / "several.png"), full_page=True)


def test_no_solution_marks_the_conflicting_givens(page, gridsat_bin, shots):
    text = (PUZZLES / "sudoku/none.txt").read_text()
    open_fragment(page, text)
    assert status(page) == "none"
    cli = json.loads(run_cli(gridsat_bin, "check", "--json", str(PUZZLES / "sudoku/none.txt")))
    assert page.locator("#board svg rect.highlight.conflict").count() == len(cli["conflicting_givens"])
    for g in cli["conflicting_givens"]:
        assert g in page.text_content("#verdict")
    page.screenshot(path=str(shots / "none.png"), full_page=True)


def test_hint_and_explain_forward_and_back(page, gridsat_bin, shots):
    path = "sudoku/classic.txt"
    open_fragment(page, (PUZZLES / path).read_text())
    assert status(page) == "unique"
    # `FILE #1 (KIND DESCRIPTION): STEP`
    first_hint = run_cli(gridsat_bin, "hint", "--fallback", str(PUZZLES / path)).strip().split("): ", 1)[1]
    page.click("#hint")
    page.wait_for_selector("#picture svg")
    assert page.text_content("#answer-text").strip() == first_hint
    page.screenshot(path=str(shots / "hint.png"), full_page=True)
    page.click("#explain")
    page.wait_for_function("document.getElementById('step-no').textContent.startsWith('1 / ')")
    total = int(page.text_content("#step-no").split("/")[1])
    lines = run_cli(gridsat_bin, "explain", "--fallback", str(PUZZLES / path)).splitlines()
    steps = [l.split(". ", 1)[1] for l in lines if l[:5].strip().rstrip(".").isdigit()]
    assert total == len(steps) + 1
    one = page.inner_html("#picture")
    assert page.text_content("#answer-text") == "1. " + steps[0]
    page.click("#next")
    assert page.text_content("#step-no").startswith("2 / ")
    assert page.text_content("#answer-text") == "2. " + steps[1]
    assert page.inner_html("#picture") != one
    page.click("#prev")
    assert page.inner_html("#picture") == one
    page.screenshot(path=str(shots / "explain.png"), full_page=True)


def test_stop_ends_a_hard_run_within_a_second(page):
    # True candidates of an empty 25x25 Sudoku: hundreds of solver calls on a big model.
    page.select_option("#kind", "sudoku")
    page.fill("#width", "25")
    page.click("#new")
    status(page)
    page.click("#candidates")
    page.wait_for_function("document.getElementById('stop').disabled === false")
    page.wait_for_timeout(1500)
    assert page.get_attribute("#stop", "disabled") is None, "the run ended before Stop"
    start = time.monotonic()
    page.click("#stop")
    page.wait_for_function("document.getElementById('verdict').dataset.status === 'stopped'", timeout=1000)
    assert time.monotonic() - start < 1.0
    # The fresh worker answers the next check.
    click_cell(page, 0, 0)
    page.keyboard.type("7")
    assert status(page) == "multiple"


def test_a_shisen_pair_is_removed_by_clicks(page, shots):
    open_fragment(page, (PUZZLES / "shisen/gravity-8x4.shisen").read_text())
    assert status(page) in ("unique", "multiple")
    page.check("#play")
    assert status(page) == "clearable"
    safe = wasm(page, "safe", {"draft": draft(page)})
    (a, b) = safe["cells"]
    before = draft(page)["cells"]
    click_cell(page, *a)
    click_cell(page, *b)
    after = draft(page)["cells"]
    assert sum(1 for t in after if not t) == sum(1 for t in before if not t) + 2
    assert page.text_content("#notice").startswith("removed ")
    assert page.locator("#board svg polyline.path").count() == 1
    assert status(page) == "clearable"
    page.screenshot(path=str(shots / "page-shisen-play.png"), full_page=True)
    page.locator("main").screenshot(path=str(shots / "shisen-play.png"))
    # Two tiles that do not match are refused, with the reason.
    cells = draft(page)["cells"]
    w = draft(page)["width"]
    tiles = [i for i, t in enumerate(cells) if t]
    x, y = next((x, y) for x in tiles for y in tiles if cells[x] != cells[y])
    click_cell(page, *divmod(x, w))
    click_cell(page, *divmod(y, w))
    assert "do not match" in page.text_content("#notice")


def test_a_new_empty_shisen_board_is_already_cleared(page, shots):
    """Before its first tile a Shisen-sho board is cleared by the plan of no moves, under
    every rule: "unique", not "no solution"."""
    page.goto(page.base_url)
    page.wait_for_function("window.gridsatReady !== undefined")
    page.select_option("#kind", "shisen")
    page.fill("#width", "6")
    page.fill("#height", "4")
    for rule in (None, "#gravity", "#no-outline"):
        if rule:
            page.check(rule)
        page.click("#new")
        assert status(page) == "unique", rule
    page.locator("main").screenshot(path=str(shots / "shisen-empty.png"))


RECORDS = [
    "sudoku/classic.txt", "sudoku/several.txt", "sudoku/none.txt", "sudoku/16x16.txt",
    "takuzu/unique-6x6.takuzu", "takuzu/several-6x6.takuzu", "takuzu/none-6x6.takuzu",
    "takuzu/odd-7x7.takuzu", "takuzu/regions-4x6x6.takuzu",
    "tectonic/first.tectonic", "tectonic/several.tectonic", "tectonic/none.tectonic",
    "tectonic/unique.xml",
    "numberlink/flow7.txt", "numberlink/letters.flow", "numberlink/nikoli6.txt",
    "numberlink/cover6x5.txt",
    "shisen/nikakudori-4x4.shisen", "shisen/gravity-8x4.shisen", "shisen/stuck.shisen",
]


def without_time(line):
    return re.sub(r'"time_ms":[0-9.eE+-]+', '"time_ms":_', line)


def test_the_record_equals_the_clis(page, gridsat_bin):
    """The page's record of a puzzle is the line `gridsat check --json` prints, byte for byte
    (times aside): the library builds both."""
    for path in RECORDS:
        file = str(PUZZLES / path)
        cli = run_cli(gridsat_bin, "check", "--json", file).splitlines()[0]
        d = wasm(page, "open", {"text": (PUZZLES / path).read_text(), "name": path})["draft"]
        got = wasm(page, "check", {"draft": d, "file": file, "index": 1})
        assert without_time(got["record"]) == without_time(cli), path
    # The page shows it too, with its own clock.
    open_fragment(page, (PUZZLES / "sudoku/several.txt").read_text())
    assert status(page) == "multiple"
    shown = json.loads(page.text_content("#record"))
    assert shown["status"] == "multiple" and shown["time_ms"] >= 0


def test_nothing_leaves_the_machine_after_load(page):
    requests = []
    page.on("request", lambda r: requests.append(r.url))
    open_fragment(page, (PUZZLES / "sudoku/classic.txt").read_text())
    requests.clear()
    assert status(page) == "unique"
    page.click("#explain")
    page.wait_for_selector("#stepper:not([hidden])")
    click_cell(page, 0, 2)
    page.keyboard.type("4")
    status(page)
    # A run cancelled (as Stop and new edits do) leaves a fresh worker, made without network.
    page.click("#candidates")
    page.evaluate("cancel()")
    click_cell(page, 0, 3)
    page.keyboard.type("6")
    status(page)
    page.select_option("#kind", "numberlink")
    page.click("#generate")
    status(page)
    page.click("#export-png")
    remote = [u for u in requests if not u.startswith(("data:", "blob:"))]
    assert remote == [], remote
    assert "Nothing leaves your machine" in page.text_content("header")


def test_time_to_interactive(page, base_url, capsys):
    page.goto(base_url)
    page.wait_for_function("window.gridsatReady !== undefined")
    ms = page.evaluate("window.gridsatReady")
    with capsys.disabled():
        print(f"\n   page interactive in {ms:.0f} ms after its script started")
    assert status(page) in ("multiple", "unique")
