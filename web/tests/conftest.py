"""Fixtures for the page's browser tests: web/dist served over HTTP, Debian's Chromium driven by
Playwright, and the gridsat binary whose answers the page must match.

Each part skips with a visible SKIPPED message when it cannot run here (no web/dist, no
Playwright, no browser, no gridsat binary): CI prints the reason instead of failing, and the line
goes to target/tmp/skipped.log as tests/common::skipped's do, so .ci/run's final count has it.
"""

import functools
import http.server
import os
import pathlib
import shutil
import subprocess
import threading

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DIST = ROOT / "web" / "dist"
PUZZLES = ROOT / "puzzles"
SHOTS = pathlib.Path(os.environ.get("GRIDSAT_SCREENSHOTS", ROOT / "target" / "web-screenshots"))


SKIP_LOG = ROOT / "target" / "tmp" / "skipped.log"
logged = set()


def skip(why):
    """Skip the test, saying why, and log the reason once per run (fixtures skip every test
    that uses them; one missing browser is one skipped check)."""
    print(f"SKIPPED: {why}")
    if why not in logged:
        logged.add(why)
        SKIP_LOG.parent.mkdir(parents=True, exist_ok=True)
        with open(SKIP_LOG, "a") as log:
            log.write(f"SKIPPED: web: {why}\n")
    pytest.skip(f"SKIPPED: {why}")


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


@pytest.fixture(scope="session")
def base_url():
    if not (DIST / "index.html").exists() or not (DIST / "gridsat_bg.wasm").exists():
        skip(f"{DIST} is not built (run web/build.sh)")
    handler = functools.partial(QuietHandler, directory=str(DIST))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def chromium_path():
    for p in [os.environ.get("GRIDSAT_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium"),
              shutil.which("chromium-browser")]:
        if p and os.path.exists(p):
            return p
    return None


@pytest.fixture(scope="session")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        skip("Playwright for Python is not installed")
    path = chromium_path()
    if not path:
        skip("no Chromium (apt-get install chromium)")
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser, base_url):
    context = browser.new_context(viewport={"width": 1200, "height": 1000})
    p = context.new_page()
    errors = []
    p.on("pageerror", lambda e: errors.append(str(e)))
    p.goto(base_url)
    p.wait_for_function("window.gridsatReady !== undefined", timeout=30000)
    p.base_url = base_url
    yield p
    context.close()
    assert not errors, f"errors on the page: {errors}"


@pytest.fixture(scope="session")
def gridsat_bin():
    for p in [os.environ.get("GRIDSAT_BIN"), ROOT / "target" / "release" / "gridsat",
              ROOT / "target" / "debug" / "gridsat"]:
        if p and pathlib.Path(p).exists():
            return str(p)
    skip("no gridsat binary to compare with (cargo build)")


def run_cli(gridsat, *args):
    r = subprocess.run([gridsat, *args, "--color", "never"], capture_output=True, text=True, timeout=120)
    return r.stdout


@pytest.fixture(scope="session")
def shots():
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS
