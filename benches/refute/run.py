#!/usr/bin/env python3
"""Measures the sets `mutate.py` wrote (issue 37): for each puzzle, in turn, every gridsat binary
given (`check --json --timeout T -j 1`, the verdict with the conflicting givens of a `none`) and,
for Numberlink, the independent encoding (`anchor_numberlink.py`, kept running in one Python
process; its time is the CPU time of encoding and solving). Per puzzle one row in --tsv; at the
end a table per set and mutation: decided, median and max seconds (CPU), total CPU.

    python3 benches/refute/run.py --sets /work/ext/refute/sets \\
        --gridsat base=/work/ext/refute/gridsat-base --gridsat new=target/release/gridsat \\
        --anchor-python /work/ext/refute/venv/bin/python --only nl15-flow,nl20-flow
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run_gridsat(binary, kind, path, timeout, extra, verb):
    cmd = [binary, *verb, "--json", "--no-progress", "-j", "1", "--kind", kind]
    cmd += ["--timeout", str(timeout), *extra, path]
    t = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
    wall = time.monotonic() - t
    status = "error"
    for line in out.splitlines():
        try:
            record = json.loads(line)
            status = record["status"]
        except (ValueError, KeyError):
            continue
        if record.get("conflicts_minimal") is False:
            status = "none~"  # the verdict, but the time limit ran out narrowing the givens
    return status, wall


class Anchor:
    """One anchor_<kind>.py process per kind, kept running: a line of fields in (the puzzle's
    path first), `verdict cpu` out."""

    def __init__(self, python, kind):
        script = os.path.join(HERE, f"anchor_{kind}.py")
        self.p = subprocess.Popen(
            [python, script, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def ask(self, *fields):
        self.p.stdin.write(" ".join(map(str, fields)) + "\n")
        self.p.stdin.flush()
        verdict, cpu = self.p.stdout.readline().split()
        return verdict, float(cpu)


def cpu_of(fn):
    """Runs fn, returning its result and the CPU seconds its child processes used."""
    before = os.times()
    r = fn()
    after = os.times()
    return r, (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", default="/work/ext/refute/sets")
    ap.add_argument(
        "--gridsat",
        action="append",
        default=[],
        help="NAME=BINARY, or NAME=BINARY@VERB for its own command (repeatable)",
    )
    ap.add_argument("--anchor-python", help="a python with pysat: measure the anchor too")
    ap.add_argument("--only", help="comma-separated set names")
    ap.add_argument("--timeout", type=float, default=10)
    ap.add_argument(
        "--verb",
        default="check",
        help='the gridsat command: "check" (the verdict and, for none, the conflicting givens) '
        'or "count --max 2" (the verdict only)',
    )
    ap.add_argument("--first", type=int, help="only the first N base puzzles of each set")
    ap.add_argument("--tsv", default="-")
    a = ap.parse_args()
    bins = []
    for g in a.gridsat:
        who, binary = g.split("=", 1)
        binary, _, verb = binary.partition("@")
        bins.append((who, binary, (verb or a.verb).split()))
    only = a.only.split(",") if a.only else None
    rows = []
    with open(os.path.join(a.sets, "manifest.tsv")) as f:
        for line in f:
            name, kind, gen, how, path, extra = (line.rstrip("\n").split("\t") + [""])[:6]
            if a.first is not None and int(os.path.basename(path)[:3]) >= a.first:
                continue
            if only is None or name in only:
                rows.append((name, kind, gen, how, path, extra.split()))
    anchor = Anchor(a.anchor_python, "numberlink") if a.anchor_python else None
    out = sys.stdout if a.tsv == "-" else open(a.tsv, "w")
    results = []  # (set, how, who, status, cpu, wall)
    disagree = 0
    for name, kind, gen, how, path, extra in rows:
        line = [name, how, os.path.basename(path)]
        for who, binary, verb in bins:
            (status, wall), cpu = cpu_of(
                lambda: run_gridsat(binary, kind, path, a.timeout, extra, verb)
            )
            results.append((name, how, who, status, cpu, wall))
            line += [who, status, f"{cpu:.3f}"]
        if anchor and kind == "numberlink":
            t = time.monotonic()
            verdict, cpu = anchor.ask(path, "-", a.timeout)  # "-": the file's own rules
            results.append((name, how, "anchor", verdict, cpu, time.monotonic() - t))
            line += ["anchor", verdict, f"{cpu:.3f}"]
        said = {line[i + 1].rstrip("~") for i in range(3, len(line), 3)} & DECIDED
        if len(said) > 1:
            line.append("DISAGREE")
            disagree += 1
        print("\t".join(line), file=out, flush=True)
    summary(results)
    print(f"\n{disagree} puzzles with different decided verdicts")


DECIDED = {"unique", "multiple", "none"}


def summary(results):
    decided = DECIDED
    groups = {}
    for name, how, who, status, cpu, wall in results:
        for key in ((name, how, who), (name, "all", who)):
            groups.setdefault(key, []).append((status, cpu))
    print("\n| set | mutation | solver | decided | none | givens not narrowed | median s | max s | total CPU s |")
    print("|---|---|---|---|---|---|---|---|---|")
    for (name, how, who), rs in sorted(groups.items(), key=lambda kv: kv[0]):
        cpus = [c for _, c in rs]
        ok = sum(1 for s, _ in rs if s.rstrip("~") in decided)
        none = sum(1 for s, _ in rs if s.rstrip("~") == "none")
        partial = sum(1 for s, _ in rs if s == "none~")
        print(
            f"| {name} | {how} | {who} | {ok}/{len(rs)} | {none} | {partial} "
            f"| {statistics.median(cpus):.3f} | {max(cpus):.3f} | {sum(cpus):.2f} |"
        )


if __name__ == "__main__":
    main()
