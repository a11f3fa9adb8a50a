"""The page's size budget: web/dist as served (each file `gzip -9`) stays within 600 KB, the
figure the page was built to (BENCHMARKS.md "The page"); web/build.sh prints the same sum."""

import subprocess

from conftest import DIST, skip

BUDGET = 600 * 1024


def gzipped(path):
    return len(subprocess.run(["gzip", "-9", "-c", str(path)], check=True, capture_output=True).stdout)


def test_web_dist_stays_within_its_budget():
    if not (DIST / "gridsat_bg.wasm").exists():
        skip(f"{DIST} is not built (run web/build.sh)")
    sizes = {f.name: gzipped(f) for f in sorted(DIST.iterdir()) if f.is_file()}
    total = sum(sizes.values())
    print(f"web/dist: {total} bytes gzip-compressed of {BUDGET}")
    assert total <= BUDGET, f"web/dist is {total} bytes gzip-compressed, over its {BUDGET}-byte budget: {sizes}"
