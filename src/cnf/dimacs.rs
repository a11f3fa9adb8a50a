//! DIMACS text: writing a [`Formula`] as `p cnf` with `c` comment lines (kind, size and the
//! variable map), and reading a SAT solver's answer in the SAT-competition form
//! (`s SATISFIABLE` / `s UNSATISFIABLE`, `v` lines) or MiniSat's result-file form (`SAT` + literals).

use super::{Assignment, Formula, Lit};
use std::fmt::Write as _;
use std::io::{self, Write};

/// Writes `f` in DIMACS CNF. `header` lines become `c` comments first; then, when the formula
/// kept names, one `c var N NAME` line per named variable; `units` are appended as unit clauses
/// (used to pin assumptions for solvers that take none).
pub fn write_cnf(
    f: &Formula,
    header: &[String],
    units: &[Lit],
    out: &mut dyn Write,
) -> io::Result<()> {
    // Written as it goes (a big formula is never held twice in memory).
    let mut out = io::BufWriter::with_capacity(1 << 16, out);
    let mut buf = String::new();
    for h in header {
        for line in h.lines() {
            let _ = writeln!(buf, "c {line}");
        }
    }
    if !f.names().is_empty() {
        let _ = writeln!(buf, "c variable map: c var <number> <name>");
        for (v, name) in f.names() {
            let _ = writeln!(buf, "c var {} {}", v.dimacs(), name);
            if buf.len() > 1 << 16 {
                out.write_all(buf.as_bytes())?;
                buf.clear();
            }
        }
    }
    let _ = writeln!(
        buf,
        "p cnf {} {}",
        f.num_vars(),
        f.num_clauses() + units.len()
    );
    for c in f.clauses() {
        for l in c {
            let _ = write!(buf, "{} ", l.to_dimacs());
        }
        buf.push_str("0\n");
        if buf.len() > 1 << 16 {
            out.write_all(buf.as_bytes())?;
            buf.clear();
        }
    }
    for u in units {
        let _ = writeln!(buf, "{} 0", u.to_dimacs());
    }
    out.write_all(buf.as_bytes())?;
    out.flush()
}

/// Writes a model as a SAT-competition solver answers: `s SATISFIABLE`, then the value of every
/// variable `1..=num_vars` on `v` lines of 20 literals, ending with `v 0`.
pub fn write_model(a: &Assignment, num_vars: usize, out: &mut String) {
    out.push_str("s SATISFIABLE\n");
    let lits: Vec<String> = (0..num_vars)
        .map(|i| {
            let v = super::Var::from_index(i);
            v.lit(a.var(v)).to_dimacs().to_string()
        })
        .collect();
    for chunk in lits.chunks(20) {
        out.push_str("v ");
        out.push_str(&chunk.join(" "));
        out.push('\n');
    }
    out.push_str("v 0\n");
}

/// What a solver said about a formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Satisfiable, with the assignment read from the `v` lines.
    Sat(Assignment),
    /// Unsatisfiable.
    Unsat,
    /// `s UNKNOWN` or an answer without a status line (time limit, interruption).
    Unknown,
}

/// A problem in a solver's answer, with the 1-based line and column where it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnswerError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

/// Reads a solver's answer for a formula of `num_vars` variables. Variables the answer does not
/// mention are false. Literals out of range, a second status line, or `v` lines without a
/// satisfiable status are errors.
pub fn read_answer(text: &str, num_vars: usize) -> Result<Answer, AnswerError> {
    let mut status: Option<&str> = None;
    let mut values = vec![false; num_vars];
    let mut saw_values = false;
    let mut bare_sat = false; // MiniSat result file: "SAT" then literals
    let err = |line: usize, col: usize, message: String| AnswerError { line, col, message };
    for (i, raw) in text.lines().enumerate() {
        let ln = i + 1;
        let line = raw.trim_end();
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        if trimmed.is_empty() || trimmed.starts_with('c') {
            continue;
        }
        let (lits_part, offset) = if let Some(rest) = trimmed.strip_prefix("s ") {
            let st = rest.trim();
            if status.is_some() {
                return Err(err(ln, indent + 1, "a second status line".into()));
            }
            status = Some(match st {
                "SATISFIABLE" => "sat",
                "UNSATISFIABLE" => "unsat",
                "UNKNOWN" | "INDETERMINATE" => "unknown",
                other => {
                    return Err(err(
                        ln,
                        indent + 3,
                        format!(
                        "unknown status `{other}`, expected SATISFIABLE, UNSATISFIABLE or UNKNOWN"
                    ),
                    ))
                }
            });
            continue;
        } else if let Some(rest) = trimmed.strip_prefix('v') {
            (rest, indent + 1)
        } else if status.is_none() && (trimmed == "SAT" || trimmed == "UNSAT" || trimmed == "INDET")
        {
            status = Some(match trimmed {
                "SAT" => "sat",
                "UNSAT" => "unsat",
                _ => "unknown",
            });
            bare_sat = trimmed == "SAT";
            continue;
        } else if bare_sat {
            (trimmed, indent)
        } else {
            return Err(err(
                ln,
                indent + 1,
                "expected a `c`, `s` or `v` line of a SAT solver's answer".into(),
            ));
        };
        // Literals, each with its column.
        let mut col = offset;
        for tok in lits_part.split(' ') {
            col += 1;
            let start = col;
            col += tok.len();
            if tok.is_empty() {
                continue;
            }
            let n: i64 = tok
                .parse()
                .map_err(|_| err(ln, start, format!("`{tok}` is not a literal")))?;
            if n == 0 {
                continue;
            }
            if n.unsigned_abs() as usize > num_vars {
                return Err(err(
                    ln,
                    start,
                    format!("literal {n} is outside the formula's {num_vars} variables"),
                ));
            }
            let l = Lit::from_dimacs(n).expect("nonzero");
            values[l.var().index()] = l.is_positive();
            saw_values = true;
        }
    }
    match status {
        Some("sat") => Ok(Answer::Sat(Assignment::new(values))),
        Some("unsat") => Ok(Answer::Unsat),
        _ if saw_values => Err(err(1, 1, "values given but no `s SATISFIABLE` line".into())),
        _ => Ok(Answer::Unknown),
    }
}

/// The most variables a `p cnf` header may declare (`gridsat sat` and every reader of DIMACS
/// here): checked before anything is allocated.
pub const MAX_VARS: usize = 10_000_000;

/// The most clauses a `p cnf` header may declare.
pub const MAX_CLAUSES: usize = 100_000_000;

/// Reads a DIMACS CNF (`p cnf V C` header, clauses ended by 0, `c` comments). A line starting
/// with `%` ends the formula (the SATLIB benchmarks end with `%` and a lone `0`, which is no
/// empty clause). The header's counts are held to [`MAX_VARS`] and [`MAX_CLAUSES`].
pub fn read_cnf(text: &str) -> Result<Formula, AnswerError> {
    let err = |line: usize, col: usize, message: String| AnswerError { line, col, message };
    let mut f = Formula::without_names();
    let mut declared: Option<(usize, usize)> = None;
    let mut clause: Vec<Lit> = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let ln = i + 1;
        let t = line.trim();
        if t.starts_with('%') {
            break;
        }
        if t.is_empty() || t.starts_with('c') {
            continue;
        }
        if let Some(rest) = t.strip_prefix("p ") {
            let w: Vec<&str> = rest.split_whitespace().collect();
            let nums = (w.len() == 3 && w[0] == "cnf")
                .then(|| Some((w[1].parse::<usize>().ok()?, w[2].parse::<usize>().ok()?)))
                .flatten();
            let Some((v, c)) = nums else {
                return Err(err(
                    ln,
                    1,
                    "expected `p cnf VARIABLES CLAUSES` (whole numbers)".into(),
                ));
            };
            if v > MAX_VARS || c > MAX_CLAUSES {
                return Err(err(
                    ln,
                    1,
                    format!("`p cnf {v} {c}` is larger than gridsat reads ({MAX_VARS} variables, {MAX_CLAUSES} clauses)"),
                ));
            }
            if declared.is_some() {
                return Err(err(ln, 1, "a second `p cnf` header".into()));
            }
            while f.num_vars() < v {
                f.new_var();
            }
            declared = Some((v, c));
            continue;
        }
        let Some((nv, _)) = declared else {
            return Err(err(ln, 1, "clause before the `p cnf` header".into()));
        };
        let mut col = 0;
        for tok in line.split(' ') {
            col += 1;
            let start = col;
            col += tok.len();
            if tok.trim().is_empty() {
                continue;
            }
            let n: i64 = tok
                .trim()
                .parse()
                .map_err(|_| err(ln, start, format!("`{tok}` is not a literal")))?;
            if n == 0 {
                f.add_clause(&clause);
                clause.clear();
            } else if n.unsigned_abs() as usize > nv {
                return Err(err(
                    ln,
                    start,
                    format!("literal {n} is outside the declared {nv} variables"),
                ));
            } else {
                clause.push(Lit::from_dimacs(n).expect("nonzero"));
            }
        }
    }
    if declared.is_none() {
        return Err(err(1, 1, "no `p cnf` header".into()));
    }
    if !clause.is_empty() {
        f.add_clause(&clause);
    }
    Ok(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_header_map_and_clauses() {
        let mut f = Formula::new();
        let a = f.named_var(|| "r1c1=1".into());
        let b = f.new_var();
        f.add_clause(&[a.pos(), b.neg()]);
        let mut out = Vec::new();
        write_cnf(&f, &["gridsat sudoku 4x4".into()], &[b.pos()], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert_eq!(
            text,
            "c gridsat sudoku 4x4\nc variable map: c var <number> <name>\nc var 1 r1c1=1\np cnf 2 2\n1 -2 0\n2 0\n"
        );
    }

    #[test]
    fn writes_a_model_that_reads_back() {
        let a = Assignment::new((0..23).map(|i| i % 3 == 0).collect());
        let mut text = String::new();
        write_model(&a, 23, &mut text);
        assert!(text.starts_with("s SATISFIABLE\nv 1 -2 -3 4 "));
        assert_eq!(text.lines().filter(|l| l.starts_with("v ")).count(), 3);
        assert_eq!(read_answer(&text, 23).unwrap(), Answer::Sat(a));
    }

    #[test]
    fn reads_cnf() {
        let f = read_cnf("c x\np cnf 3 2\n1 -2 0\n3\n 0\n").unwrap();
        assert_eq!(f.num_vars(), 3);
        let cs: Vec<Vec<i64>> = f
            .clauses()
            .map(|c| c.iter().map(|l| l.to_dimacs()).collect())
            .collect();
        assert_eq!(cs, vec![vec![1, -2], vec![3]]);
        assert!(read_cnf("1 2 0\n").is_err());
        assert_eq!(read_cnf("p cnf 1 1\n2 0\n").unwrap_err().col, 1);
    }

    #[test]
    fn a_satlib_trailer_ends_the_formula_and_headers_have_limits() {
        let f = read_cnf("p cnf 3 2\n1 -3 0\n2 3 -1 0\n%\n0\n\n").unwrap();
        assert_eq!(f.num_clauses(), 2, "the 0 after % is no empty clause");
        for huge in [
            "p cnf 1000000000000000000 1\n1 0\n",
            "p cnf 2147483648 1\n",
            "p cnf 3 4294967295000\n",
        ] {
            let e = read_cnf(huge).unwrap_err();
            assert!(
                e.message.contains("larger than gridsat reads"),
                "{huge}: {}",
                e.message
            );
        }
    }

    #[test]
    fn reads_competition_and_minisat_answers() {
        let a = read_answer("c hi\ns SATISFIABLE\nv 1 -2\nv 3 0\n", 3).unwrap();
        assert_eq!(a, Answer::Sat(Assignment::new(vec![true, false, true])));
        assert_eq!(read_answer("s UNSATISFIABLE\n", 3).unwrap(), Answer::Unsat);
        assert_eq!(
            read_answer("SAT\n-1 2 0\n", 2).unwrap(),
            Answer::Sat(Assignment::new(vec![false, true]))
        );
        assert_eq!(read_answer("UNSAT\n", 2).unwrap(), Answer::Unsat);
        assert_eq!(read_answer("", 2).unwrap(), Answer::Unknown);
    }

    #[test]
    fn reports_bad_answers_with_position() {
        let e = read_answer("s SATISFIABLE\nv 1 x 0\n", 2).unwrap_err();
        assert_eq!((e.line, e.col), (2, 5));
        let e = read_answer("s SATISFIABLE\nv 1 -9 0\n", 2).unwrap_err();
        assert_eq!((e.line, e.col), (2, 5));
        assert!(e.message.contains("outside"));
        let e = read_answer("hello\n", 2).unwrap_err();
        assert_eq!((e.line, e.col), (1, 1));
        let e = read_answer("s MAYBE\n", 2).unwrap_err();
        assert!(e.message.contains("MAYBE"));
        assert!(read_answer("v 1 0\n", 2).is_err());
    }
}
