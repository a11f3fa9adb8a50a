//! `--proof DIR` and `--verify-proof`: for each puzzle found unique or without solution, the
//! files that prove it (`DIR/<stem>-<index>.cnf`, `.solution`, `.drat`), and an independent
//! DRAT checker (`rate` unless `--checker` names another) run on them. What the CNF says comes
//! from [`crate::proof`]; this module writes the files, runs the prover and the checker, and
//! fills the report's `proof` object.

use super::args::{ProofArgs, ProofCheckArgs};
use crate::cnf::dimacs::{read_answer, read_cnf, write_cnf, write_model, Answer};
use crate::error::{Error, Result};
use crate::proof::ProofFiles;
use crate::proof::{self, Statement};
use crate::puzzle::{Puzzle, Style};
use crate::record::dimacs::puzzle_header;
use crate::record::Report;
use crate::solver::{solve_with_proof, Backend, External, SolverChoice, SolverError};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

/// Where one run's proofs go and how they are checked.
pub struct Proofs {
    dir: PathBuf,
    verify: bool,
    checker: String,
    /// The file-name stem of each input file (`puzzles/sudoku/classic.txt` → `classic`).
    stems: HashMap<String, String>,
}

fn millis(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 1e6).round() / 1e3
}

fn cannot_write(path: &Path, e: std::io::Error) -> Error {
    Error::Usage(format!("cannot write {}: {e}", path.display()))
}

impl Proofs {
    /// The proof settings of a run over `files`, or `None` without `--proof`. Creates the
    /// folder; two input files with the same stem would overwrite each other's proofs, so they
    /// are refused before anything is solved.
    pub fn new(a: &ProofArgs, files: &[String]) -> Result<Option<Proofs>> {
        let Some(dir) = &a.proof else {
            return Ok(None);
        };
        if a.checker.trim().is_empty() {
            return Err(Error::Usage("--checker needs a command".into()));
        }
        let dir = PathBuf::from(dir);
        std::fs::create_dir_all(&dir).map_err(|e| {
            Error::Usage(format!(
                "cannot create the proof folder {}: {e}",
                dir.display()
            ))
        })?;
        let mut stems: HashMap<String, String> = HashMap::new();
        let mut owners: HashMap<String, String> = HashMap::new();
        for file in files {
            let stem = if file == "<stdin>" {
                "stdin".to_string()
            } else {
                Path::new(file)
                    .file_stem()
                    .map_or("puzzle".into(), |s| s.to_string_lossy().into_owned())
            };
            match owners.get(&stem) {
                Some(other) if other != file => {
                    return Err(Error::Usage(format!(
                        "--proof names its files after the input file, and {other} and {file} would both write {stem}-N files: prove them in separate runs"
                    )))
                }
                _ => {
                    owners.insert(stem.clone(), file.clone());
                    stems.insert(file.clone(), stem);
                }
            }
        }
        Ok(Some(Proofs {
            dir,
            verify: a.verify_proof,
            checker: a.checker.trim().to_string(),
            stems,
        }))
    }

    fn path(&self, file: &str, index: usize, ext: &str) -> PathBuf {
        let stem = self.stems.get(file).map_or("puzzle", String::as_str);
        self.dir.join(format!("{stem}-{index}.{ext}"))
    }

    /// The proof of `r`'s verdict about `p` (puzzle `r.index` of `r.file`): `None` unless the
    /// verdict is unique or none. A proof that does not check, or a prover that finds a model,
    /// is an error: the verdict is not printed as if it were proven, and the puzzle's files are
    /// removed so that none is left that looks like a proof.
    pub fn prove<P: Puzzle>(
        &self,
        p: &P,
        r: &Report,
        choice: &SolverChoice,
    ) -> Result<Option<ProofFiles>> {
        let out = self.write_and_check(p, r, choice);
        if out.is_err() {
            for ext in ["cnf", "solution", "drat"] {
                let _ = std::fs::remove_file(self.path(&r.file, r.index, ext));
            }
        }
        out
    }

    fn write_and_check<P: Puzzle>(
        &self,
        p: &P,
        r: &Report,
        choice: &SolverChoice,
    ) -> Result<Option<ProofFiles>> {
        let start = Instant::now();
        let st = match (r.status, &r.solution) {
            ("unique", Some(rows)) => proof::unique(p, choice, rows)?,
            ("none", _) => proof::none(p, r.conflicting_givens.as_deref().unwrap_or(&[]))?,
            _ => return Ok(None),
        };
        let cnf = self.path(&r.file, r.index, "cnf");
        let mut header = puzzle_header(p, "gridsat proof formula", &r.file, r.index, &st.model);
        header.extend(st.describe());
        header.extend(st.givens.iter().cloned());
        std::fs::File::create(&cnf)
            .and_then(|mut f| write_cnf(&st.formula, &header, &[], &mut f))
            .map_err(|e| cannot_write(&cnf, e))?;
        let solution = match &st.solution {
            Some(a) => {
                let path = self.path(&r.file, r.index, "solution");
                std::fs::write(&path, solution_text(p, &st, a, r, &cnf))
                    .map_err(|e| cannot_write(&path, e))?;
                Some(path)
            }
            None => None,
        };
        let drat = self.path(&r.file, r.index, "drat");
        let _ = std::fs::remove_file(&drat);
        let (outcome, prover) = match choice {
            SolverChoice::Command { command, timeout } if External::writes_drat(command) => {
                let mut ext = External::new(command, *timeout).with_proof(drat.clone());
                ext.add_formula(&st.formula);
                (ext.solve(&[])?, Some(command.clone()))
            }
            _ => {
                let file = std::fs::File::create(&drat).map_err(|e| cannot_write(&drat, e))?;
                let mut w = std::io::BufWriter::new(file);
                let out = solve_with_proof(&st.formula, &mut w)?;
                w.flush().map_err(|e| cannot_write(&drat, e))?;
                (out, None)
            }
        };
        proof::judge(p, &st, &outcome, choice)?;
        let time_ms = millis(start);
        // A proof from an external solver is what makes its answer trustworthy: always checked.
        let (verified, check_ms) = if self.verify || prover.is_some() {
            let t = Instant::now();
            if let Err(why) = check_drat(&self.checker, &cnf, &drat)? {
                return Err(match &prover {
                    Some(command) => Error::Solver(SolverError::Wrong {
                        command: command.clone(),
                        detail: format!(
                            "it answered UNSATISFIABLE for {}, but {why}",
                            cnf.display()
                        ),
                    }),
                    None => Error::Bug(format!("varisat's proof for {}: {why}", cnf.display())),
                });
            }
            (Some(true), Some(millis(t)))
        } else {
            (None, None)
        };
        let show = |p: &Path| p.display().to_string();
        Ok(Some(ProofFiles {
            cnf: show(&cnf),
            solution: solution.as_deref().map(show),
            drat: show(&drat),
            verified,
            checker: verified.map(|_| self.checker.clone()),
            prover: prover.unwrap_or_else(|| "varisat".into()),
            time_ms,
            check_ms,
        }))
    }
}

/// Runs `checker` on `cnf` and `drat`: `Ok(Ok(()))` when it prints `s VERIFIED` (and not
/// `s NOT VERIFIED`), `Ok(Err(why))` when the proof does not check, and an error when the
/// checker cannot be run at all.
fn check_drat(checker: &str, cnf: &Path, drat: &Path) -> Result<std::result::Result<(), String>> {
    if !drat.exists() {
        return Ok(Err(format!("it wrote no proof file {}", drat.display())));
    }
    let mut words = checker.split_whitespace();
    let program = words.next().unwrap_or("rate");
    let out = Command::new(program)
            .args(words)
            .arg(cnf)
            .arg(drat)
            .stdin(Stdio::null())
            .output()
            .map_err(|e| {
                Error::Usage(format!(
                    "the DRAT checker `{checker}` could not be started: {e} (install rate with `cargo install rate`, or name another checker with --checker)"
                ))
            })?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let status: Vec<&str> = stdout
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("s "))
        .collect();
    if status.contains(&"s VERIFIED") && !status.contains(&"s NOT VERIFIED") {
        return Ok(Ok(()));
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    // What the checker said: its status line, else its first line that is no comment.
    let said = status.last().copied().or_else(|| {
        stdout
            .lines()
            .chain(stderr.lines())
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with("c "))
    });
    Ok(Err(format!(
        "its DRAT proof {} does not check: {checker} says `{}` (exit code {})",
        drat.display(),
        said.unwrap_or_default(),
        out.status.code().map_or("none".into(), |c| c.to_string())
    )))
}

/// The `.solution` file: the grid as comment lines, then the solution as a SAT solver's answer
/// to the CNF without its last clause (`gridsat decode`, or any script, can read it).
fn solution_text<P: Puzzle>(
    p: &P,
    st: &Statement<P::Map>,
    a: &crate::cnf::Assignment,
    r: &Report,
    cnf: &Path,
) -> String {
    let mut text = format!(
        "c the only solution of {} #{} ({} {})\nc as an answer to {} without its last clause\n",
        r.file,
        r.index,
        p.kind().name(),
        p.describe(),
        cnf.display()
    );
    let s = p.decode(&st.model, a);
    for line in p.render(Some(&s), Style::default()).lines() {
        text.push_str("c ");
        text.push_str(line);
        text.push('\n');
    }
    write_model(a, st.formula.num_vars(), &mut text);
    text
}

/// The header line that marks a proof formula whose last clause excludes a solution.
const EXCLUDES: &str = "and last one clause that excludes the solution";

/// `gridsat proof FILE.cnf|DIR...`: checks proofs written by `--proof` as they are on disk:
/// each CNF's DRAT proof with the checker, and for a "unique" proof that the `.solution`
/// beside it satisfies every clause but the last, which it falsifies. Exit 0 when every proof
/// checks, 1 when one does not.
pub fn run(a: &ProofCheckArgs) -> Result<i32> {
    let mut cnfs: Vec<PathBuf> = Vec::new();
    for f in &a.files {
        let path = PathBuf::from(f);
        if path.is_dir() {
            let mut inside: Vec<PathBuf> = std::fs::read_dir(&path)
                .map_err(|e| Error::Usage(format!("cannot read {f}: {e}")))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cnf"))
                .collect();
            if inside.is_empty() {
                return Err(Error::Usage(format!("{f} holds no .cnf file")));
            }
            inside.sort();
            cnfs.extend(inside);
        } else {
            cnfs.push(path);
        }
    }
    let mut failed = 0;
    for cnf in &cnfs {
        let verdict = verify_files(&a.checker, cnf)?;
        match &verdict {
            Ok(what) => println!("{}: verified by {} ({what})", cnf.display(), a.checker),
            Err(why) => {
                failed += 1;
                println!("{}: NOT verified: {why}", cnf.display());
            }
        }
    }
    Ok(if failed > 0 { 1 } else { 0 })
}

/// One proof's files checked: what the proof shows, or why it does not.
fn verify_files(checker: &str, cnf: &Path) -> Result<std::result::Result<String, String>> {
    let text = super::read_text(&cnf.display().to_string())?;
    let f = read_cnf(&text).map_err(|e| {
        Error::Input(crate::error::InputError::new(
            &cnf.display().to_string(),
            e.line,
            e.col,
            e.message,
        ))
    })?;
    let what = if text
        .lines()
        .any(|l| l.starts_with("c ") && l.contains(EXCLUDES))
    {
        let sol = cnf.with_extension("solution");
        let Ok(answer) = std::fs::read_to_string(&sol) else {
            return Ok(Err(format!(
                "its last clause excludes a solution, but there is no {}",
                sol.display()
            )));
        };
        let a = match read_answer(&answer, f.num_vars()) {
            Ok(Answer::Sat(a)) => a,
            Ok(_) => return Ok(Err(format!("{} holds no solution", sol.display()))),
            Err(e) => {
                return Ok(Err(format!(
                    "{}:{}:{}: {}",
                    sol.display(),
                    e.line,
                    e.col,
                    e.message
                )))
            }
        };
        let n = f.num_clauses();
        if let Some(k) = f
            .clauses()
            .take(n.saturating_sub(1))
            .position(|c| !c.iter().any(|&l| a.lit(l)))
        {
            return Ok(Err(format!(
                "the solution in {} breaks clause {} of the CNF",
                sol.display(),
                k + 1
            )));
        }
        if f.clauses()
            .last()
            .is_some_and(|c| c.iter().any(|&l| a.lit(l)))
        {
            return Ok(Err(format!(
                "the last clause does not exclude the solution in {}",
                sol.display()
            )));
        }
        format!("no solution other than {}", sol.display())
    } else {
        "the formula has no solution".to_string()
    };
    Ok(check_drat(checker, cnf, &cnf.with_extension("drat"))?.map(|()| what))
}
