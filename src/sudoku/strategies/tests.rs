//! Hand-made pencil-mark positions, one per technique, each asserting the exact step the
//! technique finds. Positions start from an empty 9x9 grid (every candidate everywhere) and
//! take candidates away until only the pattern is left; the finders are called directly, so
//! easier techniques do not get in the way. (Puzzles the project generated cover the same
//! techniques inside whole solution paths: `tests/sudoku_explain.rs`.)

use super::super::Sudoku;
use super::{find_all, Board};

fn empty() -> Board {
    Board::new(&Sudoku::empty(9, 3, 3))
}

/// `r4c9` → cell index.
fn cell(name: &str) -> usize {
    let (r, c) = name[1..].split_once('c').unwrap();
    (r.parse::<usize>().unwrap() - 1) * 9 + c.parse::<usize>().unwrap() - 1
}

/// Keeps value `d` only in the named cells.
fn only(b: &mut Board, d: u8, cells: &[&str]) {
    let keep: Vec<usize> = cells.iter().map(|c| cell(c)).collect();
    for i in 0..81 {
        if !keep.contains(&i) {
            b.eliminate(i, d);
        }
    }
}

/// Leaves exactly the candidates `digits` in a cell.
fn set(b: &mut Board, name: &str, digits: &str) {
    let i = cell(name);
    for d in 1..=9u8 {
        if !digits.contains(char::from(b'0' + d)) {
            b.eliminate(i, d);
        }
    }
}

/// The texts of every instance the technique finds.
fn texts(b: &Board, technique: &str) -> Vec<String> {
    find_all(b, technique)
        .expect("a known technique")
        .into_iter()
        .map(|s| s.text)
        .collect()
}

fn first(b: &Board, technique: &str) -> String {
    texts(b, technique).into_iter().next().unwrap_or_default()
}

#[test]
fn x_wing() {
    let mut b = empty();
    only(
        &mut b,
        4,
        &["r2c3", "r2c8", "r7c3", "r7c8", "r5c3", "r9c8", "r5c1"],
    );
    assert_eq!(
        first(&b, "X-Wing"),
        "X-Wing on 4 in rows 2, 7 (columns 3, 8) removes 4 from r5c3, r9c8"
    );
}

#[test]
fn swordfish_and_jellyfish() {
    let mut b = empty();
    only(
        &mut b,
        6,
        &[
            "r1c1", "r1c4", "r4c4", "r4c7", "r8c1", "r8c7", "r5c1", "r6c4",
        ],
    );
    assert_eq!(
        first(&b, "Swordfish"),
        "Swordfish on 6 in rows 1, 4, 8 (columns 1, 4, 7) removes 6 from r5c1, r6c4"
    );
    let mut b = empty();
    only(
        &mut b,
        2,
        &[
            "r1c1", "r1c2", "r3c2", "r3c5", "r6c5", "r6c9", "r9c9", "r9c1", "r5c2", "r7c9",
        ],
    );
    assert_eq!(
        first(&b, "Jellyfish"),
        "Jellyfish on 2 in rows 1, 3, 6, 9 (columns 1, 2, 5, 9) removes 2 from r5c2, r7c9"
    );
}

#[test]
fn hidden_and_naked_subsets() {
    let mut b = empty();
    for c in [1, 3, 4, 5, 7, 8, 9] {
        b.eliminate(cell(&format!("r4c{c}")), 3);
        b.eliminate(cell(&format!("r4c{c}")), 7);
    }
    set(&mut b, "r4c2", "1357");
    set(&mut b, "r4c6", "1357");
    assert_eq!(
        first(&b, "hidden pair"),
        "hidden pair 3/7 in row 4 (r4c2, r4c6) removes 1, 5 from them"
    );

    let mut b = empty();
    set(&mut b, "r1c1", "28");
    set(&mut b, "r1c5", "28");
    assert_eq!(
        first(&b, "naked pair"),
        "naked pair 2/8 in row 1 (r1c1, r1c5) removes 2, 8 from r1c2, r1c3, r1c4, r1c6, r1c7, r1c8, r1c9"
    );

    let mut b = empty();
    set(&mut b, "r1c1", "12");
    set(&mut b, "r2c2", "13");
    set(&mut b, "r3c3", "23");
    assert_eq!(
        first(&b, "naked triple"),
        "naked triple 1/2/3 in box 1 (r1c1, r2c2, r3c3) removes 1, 2, 3 from r1c2, r1c3, r2c1, r2c3, r3c1, r3c2"
    );

    let mut b = empty();
    set(&mut b, "r9c1", "12");
    set(&mut b, "r9c3", "23");
    set(&mut b, "r9c5", "34");
    set(&mut b, "r9c7", "14");
    assert_eq!(
        first(&b, "naked quad"),
        "naked quad 1/2/3/4 in row 9 (r9c1, r9c3, r9c5, r9c7) removes 1, 2, 3, 4 from r9c2, r9c4, r9c6, r9c8, r9c9"
    );

    let mut b = empty();
    for r in [2, 3, 5, 6, 8, 9] {
        for d in 4..=6 {
            b.eliminate(cell(&format!("r{r}c5")), d);
        }
    }
    assert_eq!(
        first(&b, "hidden triple"),
        "hidden triple 4/5/6 in column 5 (r1c5, r4c5, r7c5) removes 1, 2, 3, 7, 8, 9 from them"
    );

    let mut b = empty();
    for c in ["r4c5", "r5c4", "r5c6", "r6c4", "r6c5"] {
        for d in 1..=4 {
            b.eliminate(cell(c), d);
        }
    }
    assert_eq!(
        first(&b, "hidden quad"),
        "hidden quad 1/2/3/4 in box 5 (r4c4, r4c6, r5c5, r6c6) removes 5, 6, 7, 8, 9 from them"
    );
}

/// Removes value `d` from the named cells.
fn remove(b: &mut Board, d: u8, cells: &[&str]) {
    for c in cells {
        b.eliminate(cell(c), d);
    }
}

#[test]
fn locked_candidates() {
    let mut b = empty();
    remove(
        &mut b,
        5,
        &["r4c1", "r4c2", "r4c3", "r5c3", "r6c1", "r6c2", "r6c3"],
    );
    assert_eq!(
        first(&b, "pointing"),
        "5 in box 4 lies only in row 5 (r5c1, r5c2), so it removes 5 from r5c4, r5c5, r5c6, r5c7, r5c8, r5c9"
    );
    let mut b = empty();
    remove(
        &mut b,
        6,
        &["r3c3", "r3c4", "r3c5", "r3c6", "r3c7", "r3c8", "r3c9"],
    );
    assert_eq!(
        first(&b, "claiming"),
        "6 in row 3 lies only in box 1 (r3c1, r3c2), so it removes 6 from r1c1, r1c2, r1c3, r2c1, r2c2, r2c3"
    );
    // Direct claiming: after the removal, 6 has one place left in row 2.
    remove(&mut b, 6, &["r2c4", "r2c5", "r2c6", "r2c7", "r2c8"]);
    assert_eq!(
        first(&b, "direct claiming"),
        "6 in row 3 lies only in box 1 (r3c1, r3c2), so it removes 6 from r1c1, r1c2, r1c3, r2c1, r2c2, r2c3; then r2c9=6 is the only place for 6 in row 2"
    );
}

#[test]
fn single_digit_patterns() {
    let mut b = empty();
    only(
        &mut b,
        1,
        &["r1c1", "r6c1", "r2c5", "r6c5", "r1c4", "r2c2", "r6c9"],
    );
    let found = texts(&b, "Skyscraper");
    assert!(found.contains(
        &"Skyscraper on 1: (1)r1c1=r6c1-r6c5=r2c5 (strong links in column 1 and column 5) removes 1 from r1c4, r2c2".to_string()
    ), "{found:?}");
    let mut b = empty();
    // Row 2 and column 7 each hold 8 twice, with one end of each in box 3.
    only(&mut b, 8, &["r2c1", "r2c8", "r3c7", "r8c7", "r8c1", "r5c1"]);
    let found = texts(&b, "2-String Kite");
    assert!(found.contains(
        &"2-String Kite on 8: (8)r2c1=r2c8-r3c7=r8c7 (strong links in row 2 and column 7) removes 8 from r8c1".to_string()
    ), "{found:?}");
    let mut b = empty();
    // Box 5 holds 3 only on the cross of row 5 and column 5; column 8 holds it twice.
    only(
        &mut b,
        3,
        &[
            "r4c5", "r5c4", "r5c6", "r6c5", "r5c8", "r9c8", "r9c5", "r1c5", "r9c1",
        ],
    );
    let found = texts(&b, "empty rectangle");
    assert!(found.contains(
        &"empty rectangle on 3 in box 5 (row 5, column 5) with the strong link r5c8=r9c8 in column 8 removes 3 from r9c5".to_string()
    ), "{found:?}");
}

#[test]
fn wings() {
    let mut b = empty();
    set(&mut b, "r1c1", "47");
    set(&mut b, "r1c5", "49");
    set(&mut b, "r3c2", "79");
    assert_eq!(
        first(&b, "XY-Wing"),
        "XY-Wing: pivot r1c1 (4/7) with pincers r1c5 (4/9), r3c2 (7/9) removes 9 from r1c2, r1c3, r3c4, r3c5, r3c6"
    );
    let mut b = empty();
    set(&mut b, "r1c1", "479");
    set(&mut b, "r1c5", "49");
    set(&mut b, "r2c2", "79");
    assert_eq!(
        first(&b, "XYZ-Wing"),
        "XYZ-Wing: pivot r1c1 (4/7/9) with pincers r1c5 (4/9), r2c2 (7/9) removes 9 from r1c2, r1c3"
    );
    let mut b = empty();
    set(&mut b, "r1c1", "25");
    set(&mut b, "r5c9", "25");
    only(
        &mut b,
        2,
        &[
            "r1c5", "r5c5", "r1c1", "r5c9", "r1c9", "r5c1", "r3c3", "r7c7",
        ],
    );
    assert_eq!(
        first(&b, "W-Wing"),
        "W-Wing: r1c1 (2/5) and r5c9 (2/5) joined by the strong link on 2 in column 5: (5=2)r1c1-r1c5=r5c5-(2=5)r5c9 removes 5 from r1c9, r5c1"
    );
}

#[test]
fn chains() {
    // X-Chain on 3 over three strong links in rows 1, 4 and 8.
    let mut b = empty();
    only(
        &mut b,
        3,
        &[
            "r1c1", "r1c5", "r4c5", "r4c8", "r8c8", "r8c2", "r2c2", "r9c1", "r6c6", "r7c7",
        ],
    );
    let found = texts(&b, "X-Chain");
    assert!(
        found.contains(
            &"X-Chain on 3: (3)r1c1=r1c5-r4c5=r4c8-r8c8=(3)r8c2 removes 3 from r2c2, r9c1"
                .to_string()
        ),
        "{found:?}"
    );
    // XY-Chain through four bivalue cells.
    let mut b = empty();
    set(&mut b, "r1c1", "12");
    set(&mut b, "r1c6", "23");
    set(&mut b, "r5c6", "34");
    set(&mut b, "r5c9", "41");
    assert_eq!(
        first(&b, "XY-Chain"),
        "XY-Chain: (1=2)r1c1-(2=3)r1c6-(3=4)r5c6-(4=1)r5c9 removes 1 from r1c9, r5c1"
    );
    // Remote pair: four 5/6 cells alternating.
    let mut b = empty();
    for c in ["r1c1", "r1c6", "r5c6", "r5c9"] {
        set(&mut b, c, "56");
    }
    assert_eq!(
        first(&b, "remote pair"),
        "remote pair 5/6: the cells r1c1, r5c6 and r1c6, r5c9 alternate the two values, so a cell seeing both kinds removes 5, 6 from r1c9, r5c1"
    );
}

#[test]
fn uniqueness() {
    let mut b = empty();
    set(&mut b, "r1c1", "38");
    set(&mut b, "r1c4", "38");
    set(&mut b, "r3c1", "38");
    set(&mut b, "r3c4", "1358");
    assert_eq!(
        first(&b, "unique rectangle type 1"),
        "unique rectangle type 1 on 3/8 (r1c1, r1c4, r3c1, r3c4) removes 3, 8 from r3c4: r3c4 must hold something else or the rectangle is a deadly pattern"
    );
}

#[test]
fn solver_step_names_the_cell_and_why_each_other_value_fails() {
    use super::super::Grid;
    // AI Escargot from its givens: the solver's step takes the cell with the fewest
    // candidates and says, value by value, what each other one leads to.
    let puzzle =
        "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3..";
    let solution =
        "162857493534129678789643521475312986913586742628794135356478219241935867897261354";
    let mut s = Sudoku::empty(9, 3, 3);
    s.cells = puzzle
        .bytes()
        .map(|c| c.saturating_sub(b'0') % 10)
        .collect();
    let b = Board::new(&s);
    let grid = Grid(solution.bytes().map(|c| c - b'0').collect());
    let step = super::solver_step(&b, &grid).unwrap();
    assert_eq!(step.technique, "solver");
    let p = &step.placements[0];
    let cell = format!("r{}c{}", p.row + 1, p.col + 1);
    assert_eq!(p.value, grid.0[p.row * 9 + p.col] as i64);
    assert!(
        step.text
            .starts_with(&format!("{cell}={}: the solver chose {cell}", p.value)),
        "{}",
        step.text
    );
    // One line per other candidate.
    let others = b.masks[p.row * 9 + p.col].count_ones() as usize - 1;
    assert_eq!(step.text.lines().count(), 1 + others, "{}", step.text);
}
