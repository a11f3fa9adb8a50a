//! NOT PART OF GRIDSAT: the benchmark's anchor for Shisen-sho (issue 39), a plain depth-first
//! search with memoised positions and no SAT, written only to compare gridsat against. It uses
//! nothing of gridsat (the standard library alone), so it can also be built on its own:
//! `rustc -C opt-level=3 --edition 2021 benches/shisen_dfs.rs -o /work/ext/shisen-dfs/dfs`.
//!
//! `shisen_dfs [--gravity] [--no-outline] [--quiet] [--limit SECS] FILE...`: reads boards in gridsat's text
//! format (one row per line, tiles as tokens separated by spaces or one character each, `.`
//! empty, blank lines between boards, `#` comments, `# shisen: gravity no-outline` directives)
//! and decides each one: clearable (a plan found) or not clearable (every position reachable
//! from the start searched; `--limit`: undecided after that much CPU). Prints one line per board (verdict, positions, CPU seconds) and a
//! summary line.
//!
//! The search: at a position, the tiles are taken row by row; for each, the tiles it can be
//! joined to (a line of at most three straight segments through empty cells, or the one-cell
//! ring around the board unless `--no-outline`) are found by a breadth-first walk over (cell,
//! direction) states with at most two turns; each matching tile later in row-major order is a
//! move, tried at once (depth first). A position (the set of tiles left; with gravity the
//! columns stay packed in order, so that set is the position too) found dead is remembered and
//! never searched again. No other pruning.

use std::collections::HashSet;
use std::time::Instant;

const EMPTY: u32 = u32::MAX;
const WALL: u32 = u32::MAX - 1;

/// CPU seconds this thread has used (from `/proc/thread-self/stat`); 0 elsewhere.
fn thread_cpu() -> f64 {
    let Ok(stat) = std::fs::read_to_string("/proc/thread-self/stat") else {
        return 0.0;
    };
    let rest = stat.rsplit_once(')').map_or("", |(_, r)| r);
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |k: usize| {
        f.get(k - 3)
            .and_then(|v| v.parse::<f64>().ok())
            .unwrap_or(0.0)
    };
    (ticks(14) + ticks(15)) / 100.0
}

struct Board {
    name: String,
    width: usize,
    height: usize,
    /// Face per cell, row-major, `None` empty.
    cells: Vec<Option<usize>>,
    gravity: bool,
    outline: bool,
}

/// Under chinese rules the seasons match each other and so do the flowers: the name a face
/// matches by.
fn class_name(face: &str, chinese: bool) -> String {
    let f = face.trim_end_matches(['\u{fe0e}', '\u{fe0f}']);
    if chinese {
        let mut cs = f.chars();
        if let (Some(c), None) = (cs.next(), cs.next()) {
            match c as u32 {
                0x1F026..=0x1F029 => return "seasons".into(),
                0x1F022..=0x1F025 => return "flowers".into(),
                _ => {}
            }
        }
        match f.to_ascii_lowercase().as_str() {
            "s1" | "s2" | "s3" | "s4" | "spring" | "summer" | "autumn" | "winter" => {
                return "seasons".into()
            }
            "f1" | "f2" | "f3" | "f4" | "plum" | "orchid" | "chrysanthemum" | "bamboo" => {
                return "flowers".into()
            }
            _ => {}
        }
    }
    f.to_string()
}

/// Boards of a file in gridsat's text format.
fn read(path: &str, gravity: bool, outline: bool) -> Vec<Board> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut boards = Vec::new();
    let (mut g, mut o, mut ch) = (gravity, outline, false);
    let mut block: Vec<&str> = Vec::new();
    let mut faces: Vec<String> = Vec::new();
    let mut flush = |block: &mut Vec<&str>, g: bool, o: bool, ch: bool, faces: &mut Vec<String>| {
        if block.is_empty() {
            return;
        }
        let spaced = block.iter().any(|l| l.trim().contains(char::is_whitespace));
        let rows: Vec<Vec<String>> = block
            .iter()
            .map(|l| {
                if spaced {
                    l.split_whitespace().map(str::to_string).collect()
                } else {
                    l.trim().chars().map(|c| c.to_string()).collect()
                }
            })
            .collect();
        let width = rows[0].len();
        let mut cells = Vec::new();
        for r in &rows {
            assert_eq!(r.len(), width, "{path}: rows of different lengths");
            for t in r {
                if t == "." {
                    cells.push(None);
                } else {
                    let t = class_name(t, ch);
                    let f = match faces.iter().position(|x| *x == t) {
                        Some(f) => f,
                        None => {
                            faces.push(t.clone());
                            faces.len() - 1
                        }
                    };
                    cells.push(Some(f));
                }
            }
        }
        boards.push(Board {
            name: format!("{path} #{}", boards.len() + 1),
            width,
            height: rows.len(),
            cells,
            gravity: g,
            outline: o,
        });
        block.clear();
    };
    for line in text.lines() {
        let t = line.trim();
        if let Some(c) = t.strip_prefix('#') {
            if let Some(rules) = c.trim().strip_prefix("shisen:") {
                for w in rules.split_whitespace() {
                    match w {
                        "gravity" => g = true,
                        "no-outline" => o = false,
                        "outline" => o = true,
                        "chinese" => ch = true,
                        _ => {}
                    }
                }
            }
            continue;
        }
        if t.is_empty() {
            flush(&mut block, g, o, ch, &mut faces);
        } else {
            block.push(line);
        }
    }
    flush(&mut block, g, o, ch, &mut faces);
    boards
}

/// The search's state: the padded grid (a one-cell ring around the board) holding tile ids,
/// each tile's face, and the dead positions.
struct Search {
    pw: usize,
    ph: usize,
    gravity: bool,
    grid: Vec<u32>,
    face: Vec<usize>,
    left: usize,
    dead: HashSet<Vec<u64>>,
    nodes: u64,
    /// CPU seconds (of this thread) after which the search gives up, and whether it did.
    deadline: f64,
    gave_up: bool,
    // Scratch space of the walk: a stamp per (cell, direction).
    stamp: Vec<u32>,
    now: u32,
}

impl Search {
    fn new(b: &Board) -> Search {
        let (pw, ph) = (b.width + 2, b.height + 2);
        let ring = if b.outline { EMPTY } else { WALL };
        let mut grid = vec![ring; pw * ph];
        let mut face = Vec::new();
        for r in 0..b.height {
            for c in 0..b.width {
                let at = (r + 1) * pw + c + 1;
                grid[at] = match b.cells[r * b.width + c] {
                    Some(f) => {
                        face.push(f);
                        (face.len() - 1) as u32
                    }
                    None => EMPTY,
                };
            }
        }
        let left = face.len();
        Search {
            pw,
            ph,
            gravity: b.gravity,
            grid,
            face,
            left,
            dead: HashSet::new(),
            nodes: 0,
            deadline: f64::INFINITY,
            gave_up: false,
            stamp: vec![0; pw * ph * 4],
            now: 0,
        }
    }

    /// The tiles the tile in cell `s` can be joined to now (any face), as cells.
    fn reach(&mut self, s: usize, out: &mut Vec<usize>) {
        out.clear();
        self.now += 1;
        let pw = self.pw as isize;
        let steps = [-pw, 1, pw, -1];
        let n = self.grid.len() as isize;
        // Rays of the current level: (start cell, direction).
        let mut rays: Vec<(usize, usize)> = (0..4).map(|d| (s, d)).collect();
        for level in 0..3 {
            let mut next = Vec::new();
            for &(from, d) in &rays {
                let mut c = from as isize;
                loop {
                    c += steps[d];
                    if c < 0 || c >= n {
                        break;
                    }
                    let col = c % pw;
                    // Leaving the padded grid sideways wraps: stop at its edge.
                    if (d == 1 && col == 0) || (d == 3 && col == pw - 1) {
                        break;
                    }
                    let cu = c as usize;
                    let v = self.grid[cu];
                    if v == WALL {
                        break;
                    }
                    if v != EMPTY {
                        if cu != s {
                            out.push(cu);
                        }
                        break;
                    }
                    let k = cu * 4 + d;
                    if self.stamp[k] == self.now {
                        break;
                    }
                    self.stamp[k] = self.now;
                    if level < 2 {
                        next.push((cu, (d + 1) % 4));
                        next.push((cu, (d + 3) % 4));
                    }
                }
            }
            rays = next;
        }
        out.sort_unstable();
        out.dedup();
    }

    fn key(&self) -> Vec<u64> {
        let mut k = vec![0u64; self.face.len().div_ceil(64)];
        for &v in &self.grid {
            if v < WALL {
                k[v as usize / 64] |= 1 << (v % 64);
            }
        }
        k
    }

    /// Gravity: the tiles of padded column `c` fall to the bottom row of the board.
    fn fall(&mut self, c: usize) {
        let pw = self.pw;
        let mut to = self.ph - 2;
        for r in (1..self.ph - 1).rev() {
            let v = self.grid[r * pw + c];
            if v != EMPTY {
                self.grid[r * pw + c] = EMPTY;
                self.grid[to * pw + c] = v;
                to -= 1;
            }
        }
    }

    fn dfs(&mut self) -> bool {
        if self.left == 0 {
            return true;
        }
        if self.gave_up {
            return false;
        }
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && thread_cpu() > self.deadline {
            self.gave_up = true;
            return false;
        }
        let key = self.key();
        if self.dead.contains(&key) {
            return false;
        }
        let mut partners = Vec::new();
        for s in 0..self.grid.len() {
            let a = self.grid[s];
            if a >= WALL {
                continue;
            }
            self.reach(s, &mut partners);
            let moves: Vec<usize> = partners
                .iter()
                .copied()
                .filter(|&t| t > s && self.face[self.grid[t] as usize] == self.face[a as usize])
                .collect();
            for t in moves {
                let saved = if self.gravity {
                    Some(self.grid.clone())
                } else {
                    None
                };
                let b = self.grid[t];
                self.grid[s] = EMPTY;
                self.grid[t] = EMPTY;
                if self.gravity {
                    self.fall(s % self.pw);
                    self.fall(t % self.pw);
                }
                self.left -= 2;
                if self.dfs() {
                    return true;
                }
                self.left += 2;
                match saved {
                    Some(g) => self.grid = g,
                    None => {
                        self.grid[s] = a;
                        self.grid[t] = b;
                    }
                }
            }
        }
        self.dead.insert(key);
        false
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |n: &str| args.iter().any(|a| a == n);
    let (gravity, outline, quiet) = (flag("--gravity"), !flag("--no-outline"), flag("--quiet"));
    let limit: f64 = args
        .iter()
        .position(|a| a == "--limit")
        .and_then(|i| args.get(i + 1))
        .map_or(f64::INFINITY, |v| v.parse().expect("--limit SECS"));
    let files: Vec<String> = args
        .iter()
        .enumerate()
        .filter(|&(i, a)| !a.starts_with("--") && (i == 0 || args[i - 1] != "--limit"))
        .map(|(_, a)| a.clone())
        .collect();
    // Deep boards recurse once per move: a large stack.
    let worker = std::thread::Builder::new()
        .stack_size(1 << 28)
        .spawn(move || {
            let start = Instant::now();
            let cpu0 = thread_cpu();
            let (mut yes, mut no, mut unknown) = (0, 0, 0);
            let mut slowest = (0.0f64, String::new());
            for f in &files {
                for b in read(f, gravity, outline) {
                    let cpu = thread_cpu();
                    let mut s = Search::new(&b);
                    s.deadline = cpu + limit;
                    let clear = s.dfs();
                    let took = thread_cpu() - cpu;
                    if took > slowest.0 {
                        slowest = (took, b.name.clone());
                    }
                    let verdict = if clear {
                        yes += 1;
                        "clearable"
                    } else if s.gave_up {
                        unknown += 1;
                        "undecided (--limit)"
                    } else {
                        no += 1;
                        "not clearable"
                    };
                    if !quiet {
                        println!(
                            "{}: {verdict} ({} positions, {} dead remembered, {took:.2} s CPU)",
                            b.name,
                            s.nodes,
                            s.dead.len()
                        );
                    }
                }
            }
            println!(
                "plain DFS: {} boards, {yes} clearable, {no} not, {unknown} undecided; {:.2} s CPU, {:.2} s wall; slowest {:.2} s CPU ({})",
                yes + no + unknown,
                thread_cpu() - cpu0,
                start.elapsed().as_secs_f64(),
                slowest.0,
                slowest.1
            );
        })
        .expect("a thread");
    worker.join().expect("the search");
}
