"""The page's speed against the native binary on the same puzzles (BENCHMARKS.md, "The page").

    python web/tests/bench_wasm.py [--runs N] [GRIDSAT_BINARY]

For each puzzle: the page (web/dist, in Chromium) reads it, writes it back as text (the native
run reads that very text), then times the `verdict` verb (check, and the conflicting givens of a
puzzle without solution: what `gridsat check --json` does, nothing drawn) on its main thread,
N samples (each finds the verdict again and again for about 30 ms, the puzzle read once),
alternating with N native runs of `gridsat check --json` (its `time_ms`: the same work, without
reading and process start).
The fastest of each (the least disturbed on a loaded machine) are printed with their ratio. Also the page's time to interactive, over a few fresh loads.
"""

import functools
import http.server
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import threading

from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHARED = ROOT.parent / "shared" / "corpora"

# (label, file, index of the puzzle in it, kind, flags)
PUZZLES = [
    ("Sudoku 9x9, hardest (tdoku forum #1)", SHARED / "sudoku/tdoku_forum_hardest_1106.txt", 1, "sudoku", {}),
    ("Sudoku 9x9, classic", ROOT / "puzzles/sudoku/classic.txt", 1, "sudoku", {}),
    ("Sudoku 16x16", ROOT / "puzzles/sudoku/16x16.txt", 1, "sudoku", {}),
    ("Sudoku 25x25", ROOT / "puzzles/sudoku/25x25.txt", 1, "sudoku", {}),
    ("Takuzu 12x12 regions", ROOT / "puzzles/takuzu/regions-4x6x6.takuzu", 1, "takuzu", {}),
    ("Takuzu 30x30", ROOT / "puzzles/takuzu/gen-30x30.takuzu", 1, "takuzu", {}),
    ("Tectonic 20x20", ROOT / "puzzles/tectonic/big-20x20.tectonic", 1, "tectonic", {}),
    ("Numberlink 36x20 (Janko #210)", SHARED / "numberlink/thomasahle_numberlink/puzzles/janko", 210, "numberlink", {}),
    ("Numberlink 36x20 (Janko #160)", SHARED / "numberlink/thomasahle_numberlink/puzzles/janko", 160, "numberlink", {}),
    ("Shisen-sho 18x8 (KShisen)", ROOT / "puzzles/shisen/kshisen-18x8.shisen", 1, "shisen", {}),
    ("Sudoku 9x9, no solution", ROOT / "puzzles/sudoku/none.txt", 1, "sudoku", {}),
]


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(directory):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=directory))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/"


# One sample: the verdict found `repeat` times in one call (the puzzle read once, as the native
# run's time_ms leaves reading out), with `repeat` chosen so that the call takes about 30 ms
# (the browser's clock ticks in 0.1 ms); the time per verdict.
TIMED = """(draft) => {
    const run = (repeat) => JSON.parse(wasm_bindgen.call('verdict', JSON.stringify({ draft, repeat })));
    let t = performance.now();
    const status = run(1).status;
    const once = Math.max(performance.now() - t, 0.01);
    const repeat = Math.max(1, Math.ceil(30 / once));
    t = performance.now();
    run(repeat);
    return [status, (performance.now() - t) / repeat];
}"""
CALL = "([v, r]) => JSON.parse(wasm_bindgen.call(v, JSON.stringify(r)))"


def main():
    args = sys.argv[1:]
    runs = 7
    if args[:1] == ["--runs"]:
        runs = int(args[1])
        args = args[2:]
    gridsat = args[0] if args else str(ROOT / "target/release/gridsat")
    # GRIDSAT_DIST: one or more builds of the page (colon-separated), timed side by side.
    dists = os.environ.get("GRIDSAT_DIST", str(ROOT / "web/dist")).split(":")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        pages = []
        for d in dists:
            page = browser.new_page()
            url = serve(d)
            ready = []
            for _ in range(5):
                page.goto(url + "?fresh")
                page.wait_for_function("window.gridsatReady !== undefined")
                ready.append(page.evaluate("window.gridsatReady"))
            print(f"{d}: time to interactive: median {statistics.median(ready):.0f} ms over 5 loads ({', '.join(f'{r:.0f}' for r in ready)})")
            pages.append(page)
        cols = "".join(f" {'wasm ' + str(k + 1) + ' ms':>10} {'ratio':>6}" for k in range(len(dists)))
        print(f"{'puzzle':40} {'verdict':9} {'native ms':>10}{cols}")
        for label, path, index, kind, flags in PUZZLES:
            if not path.exists():
                print(f"{label:40} SKIPPED: {path} not found")
                continue
            page = pages[0]
            opened = page.evaluate(CALL, ["open", {"text": path.read_text(), "name": path.name, "kind": kind, "flags": flags, "index": index}])
            draft = opened["draft"]
            text = page.evaluate(CALL, ["export", {"draft": draft, "format": "text"}])["text"]
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                f.write(text)
            cli = [gridsat, "check", "--json", "--kind", kind, f.name]
            if draft["flags"].get("rules"):
                cli += ["--rules", draft["flags"]["rules"]]
            wasm = [[] for _ in pages]
            native = []
            status = None
            for _ in range(runs):
                for k, p in enumerate(pages):
                    status, t = p.evaluate(TIMED, draft)
                    wasm[k].append(t)
                rec = json.loads(subprocess.run(cli, capture_output=True, text=True).stdout.splitlines()[0])
                assert rec["status"] == status, (label, rec["status"], status)
                native.append(rec["time_ms"])
            # The fastest of the runs: on a loaded machine the least disturbed one.
            n = min(native)
            cells = "".join(f" {min(w):10.2f} {min(w) / n:6.2f}" for w in wasm)
            print(f"{label:40} {status:9} {n:10.2f}{cells}")
        browser.close()


if __name__ == "__main__":
    main()
