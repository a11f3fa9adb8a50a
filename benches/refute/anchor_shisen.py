#!/usr/bin/env python3
"""An independent Shisen-sho encoding to measure gridsat against (issue 37), written from the
rules and not from gridsat's model: the textbook planning encoding. Needs pysat (PyPI
`python-sat`). Boards without gravity and without Chinese classes (a tile matches its face).

Steps 0..M-1 (M = tiles / 2). Per tile and step, whether it is still on the board; per pair of
tiles of one face and step, whether the pair goes then. Several pairs may go at one step (a
removal only ever opens lines, so pairs whose lines are open in one state can go one after the
other), but a tile goes with one pair at most; a tile leaves exactly when a pair of it goes;
after the last step no tile is left. A pair goes at a step only when one of its lines is open
then: a path of at most three straight segments (the sweep of a vertical-horizontal-vertical
or horizontal-vertical-horizontal line through every row or column, the one-cell ring around
the board included unless `no-outline`), open when every tile standing on it is gone. The
answer, what two solutions must differ in, is the pairing: per pair, whether it goes at all.

    venv/bin/python anchor_shisen.py PUZZLE    (rows of tiles, `.` empty, `# shisen:` options)
    venv/bin/python anchor_shisen.py --serve
"""

from itertools import combinations

from pysat.formula import IDPool

from anchor_common import serve_or_run, verdict


def read(path):
    opts, rows = "", []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if s.startswith("# shisen:"):
                opts += s
            elif s and not s.startswith("#"):
                rows.append(s.split() if " " in s else list(s))
    if "gravity" in opts or "chinese" in opts:
        raise ValueError("gravity and Chinese classes are not in this anchor")
    return rows, "no-outline" not in opts


def lines_between(a, b, h, w, ring):
    """The cells strictly between a and b on each line of at most three segments."""
    lo_r, hi_r = (-1, h) if ring else (0, h - 1)
    lo_c, hi_c = (-1, w) if ring else (0, w - 1)
    seg = lambda p, q: (
        [(r, p[1]) for r in range(min(p[0], q[0]), max(p[0], q[0]) + 1)]
        if p[1] == q[1]
        else [(p[0], c) for c in range(min(p[1], q[1]), max(p[1], q[1]) + 1)]
    )
    out = []
    for k in range(lo_r, hi_r + 1):  # vertical, horizontal along row k, vertical
        p, q = (k, a[1]), (k, b[1])
        out.append(set(seg(a, p) + seg(p, q) + seg(q, b)) - {a, b})
    for k in range(lo_c, hi_c + 1):  # horizontal, vertical along column k, horizontal
        p, q = (a[0], k), (b[0], k)
        out.append(set(seg(a, p) + seg(p, q) + seg(q, b)) - {a, b})
    return out


def routes(a, b, tile_at, h, w, ring):
    """The sets of tiles standing on each line from a to b, none a superset of another."""
    found = set()
    for cells in lines_between(a, b, h, w, ring):
        found.add(frozenset(tile_at[c] for c in cells if c in tile_at))
    return [s for s in found if not any(o < s for o in found)]


def encode(rows, ring):
    h, w = len(rows), len(rows[0])
    tiles = [(r, c) for r in range(h) for c in range(w) if rows[r][c] != "."]
    tile_at = {rc: i for i, rc in enumerate(tiles)}
    T = len(tiles)
    M = T // 2
    pairs = [
        (i, j)
        for i, j in combinations(range(T), 2)
        if rows[tiles[i][0]][tiles[i][1]] == rows[tiles[j][0]][tiles[j][1]]
    ]
    pool = IDPool()
    answer = [pool.id(("pair", p)) for p in range(len(pairs))]
    on = lambda t, k: pool.id(("on", t, k))
    go = lambda p, k: pool.id(("go", p, k))
    of_tile = [[] for _ in range(T)]
    for p, (i, j) in enumerate(pairs):
        of_tile[i].append(p)
        of_tile[j].append(p)
    if T % 2 or any(len(ps) == 0 for ps in of_tile):
        return [[]], answer
    route = [routes(tiles[i], tiles[j], tile_at, h, w, ring) for i, j in pairs]
    cls = []
    for t in range(T):
        cls += [[on(t, 0)], [-on(t, M)]]
        for k in range(M):
            # leaves at step k exactly when one of its pairs goes then, with one pair at most
            cls.append([-on(t, k), on(t, k + 1)] + [go(p, k) for p in of_tile[t]])
            cls.append([on(t, k), -on(t, k + 1)])
            cls += [[-go(p, k), -go(q, k)] for p, q in combinations(of_tile[t], 2)]
    for p, (i, j) in enumerate(pairs):
        cls.append([-answer[p]] + [go(p, k) for k in range(M)])
        free = any(len(r) == 0 for r in route[p])
        for k in range(M):
            cls.append([-go(p, k), answer[p]])
            for t in (i, j):
                cls += [[-go(p, k), on(t, k)], [-go(p, k), -on(t, k + 1)]]
            if free:
                continue
            if len(route[p]) == 1:
                cls += [[-go(p, k), -on(u, k)] for u in route[p][0]]
                continue
            opens = []
            for n, r in enumerate(route[p]):
                o = pool.id(("open", p, n, k))
                opens.append(o)
                cls += [[-o, -on(u, k)] for u in r]
            cls.append([-go(p, k)] + opens)
    return cls, answer


def decide(path, timeout):
    rows, ring = read(path)
    cls, answer = encode(rows, ring)
    return verdict(cls, answer, timeout)


if __name__ == "__main__":
    serve_or_run(decide)
