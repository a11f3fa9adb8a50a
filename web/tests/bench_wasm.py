"""The page's speed against the native binary on the same puzzles (BENCHMARKS.md, "The page").

    python web/tests/bench_wasm.py [--runs N] [GRIDSAT_BINARY]

For each puzzle: the page (web/dist, in Chromium) reads it, writes it back as text (the native
run reads that very text), then times the `verdict` verb (check, and the conflicting givens of a
puzzle without solution: what `gridsat check --json` does, nothing drawn) on its main thread,
once to warm up and then N samples (each repeats the call for 30 ms), alternating with N native
runs of `gridsat check --json` (its `time_ms`, the same work without reading and process start).
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


def main():
    args = sys.argv[1:]
    runs = 7
    if args[:1] == ["--runs"]:
        runs = int(args[1])
        args = args[2:]
    gridsat = args[0] if args else str(ROOT / "target/release/gridsat")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=os.environ.get("GRIDSAT_DIST", str(ROOT / "web/dist"))))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        page = browser.new_page()
        ready = []
        for _ in range(5):
            page.goto(url + "?fresh")
            page.wait_for_function("window.gridsatReady !== undefined")
            ready.append(page.evaluate("window.gridsatReady"))
        print(f"time to interactive: median {statistics.median(ready):.0f} ms over 5 loads ({', '.join(f'{r:.0f}' for r in ready)})")
        print(f"{'puzzle':40} {'verdict':9} {'wasm ms':>9} {'native ms':>10} {'ratio':>6}")
        for label, path, index, kind, flags in PUZZLES:
            if not path.exists():
                print(f"{label:40} SKIPPED: {path} not found")
                continue
            call = "([v, r]) => JSON.parse(wasm_bindgen.call(v, JSON.stringify(r)))"
            opened = page.evaluate(call, ["open", {"text": path.read_text(), "name": path.name, "kind": kind, "flags": flags, "index": index}])
            draft = opened["draft"]
            text = page.evaluate(call, ["export", {"draft": draft, "format": "text"}])["text"]
            with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
                f.write(text)
            cli = [gridsat, "check", "--json", "--kind", kind, f.name]
            if draft["flags"].get("rules"):
                cli += ["--rules", draft["flags"]["rules"]]
            # One sample: calls repeated until 30 ms have passed (the browser's clock ticks in
            # 0.1 ms), the time per call.
            timed = """(req) => {
                const one = () => JSON.parse(wasm_bindgen.call('verdict', JSON.stringify(req))).status;
                const status = one();
                const t = performance.now();
                let n = 0;
                do { one(); n++; } while (performance.now() - t < 30);
                return [status, (performance.now() - t) / n];
            }"""
            wasm, native, status = [], [], None
            for _ in range(runs):
                status, t = page.evaluate(timed, {"draft": draft})
                wasm.append(t)
                rec = json.loads(subprocess.run(cli, capture_output=True, text=True).stdout.splitlines()[0])
                assert rec["status"] == status, (label, rec["status"], status)
                native.append(rec["time_ms"])
            # The fastest of the runs: on a loaded machine the least disturbed one.
            w, n = min(wasm), min(native)
            print(f"{label:40} {status:9} {w:9.2f} {n:10.2f} {w / n:6.2f}")
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
