//! The second backend: any DIMACS solver command. Each solve writes the clauses (assumptions as
//! unit clauses) to a temporary file, runs `COMMAND... FILE`, and reads the SAT-competition
//! answer from standard output (exit codes 10 and 20 are accepted as SAT and UNSAT too).
//!
//! The solver runs in a process group of its own, so that a time limit or a raised [`Stop`]
//! ends it and every process it started (a wrapper script's children too). Only the answer's
//! lines are kept from its output: comment lines are dropped as they come, so a solver that
//! chatters costs no memory.

use super::{Backend, Outcome, SolverError, Stop};
use crate::cnf::dimacs::{read_answer, write_cnf, Answer};
use crate::cnf::{Formula, Lit, Var};
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// An external solver command (split on whitespace; the CNF file is appended as last argument).
pub struct External {
    command: String,
    timeout: Option<f64>,
    formula: Formula,
    proof: Option<PathBuf>,
    stop: Option<Stop>,
}

static FILE_COUNTER: AtomicUsize = AtomicUsize::new(0);

impl External {
    /// A backend that runs `command`, giving up after `timeout` seconds when set.
    pub fn new(command: &str, timeout: Option<f64>) -> External {
        External {
            command: command.trim().to_string(),
            timeout,
            formula: Formula::without_names(),
            proof: None,
            stop: None,
        }
    }

    /// The same backend asking the solver for a DRAT proof: `proof` is passed after the CNF
    /// file (`COMMAND... FILE PROOF`, as CaDiCaL and kissat take it), for a solver run once
    /// without assumptions (see [`crate::proof`]).
    pub fn with_proof(mut self, proof: PathBuf) -> External {
        self.proof = Some(proof);
        self
    }

    /// True when the command's program is one known to write a DRAT proof to a file named
    /// after the CNF file: CaDiCaL or kissat.
    pub fn writes_drat(command: &str) -> bool {
        let program = command.split_whitespace().next().unwrap_or("");
        let name = std::path::Path::new(program)
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("");
        matches!(name, "cadical" | "kissat")
    }

    /// The same backend, giving up with [`SolverError::Stopped`] once `stop` is raised.
    pub fn with_stop(mut self, stop: Option<Stop>) -> External {
        self.stop = stop;
        self
    }

    fn temp_path() -> PathBuf {
        let n = FILE_COUNTER.fetch_add(1, Ordering::Relaxed);
        std::env::temp_dir().join(format!("gridsat-{}-{}.cnf", std::process::id(), n))
    }

    fn run(&self, assumptions: &[Lit]) -> Result<(Option<i32>, String, String), SolverError> {
        let mut words = self.command.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| SolverError::NotFound(String::new(), "empty command".into()))?;
        let path = Self::temp_path();
        let write = std::fs::File::create(&path).and_then(|mut file| {
            write_cnf(
                &self.formula,
                &["written by gridsat for an external solver".into()],
                assumptions,
                &mut file,
            )
        });
        if let Err(e) = write {
            return Err(SolverError::Internal(format!(
                "cannot write {}: {e}",
                path.display()
            )));
        }
        let mut cmd = Command::new(program);
        cmd.args(words)
            .arg(&path)
            .args(&self.proof)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            cmd.process_group(0);
        }
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                let _ = std::fs::remove_file(&path);
                return Err(SolverError::NotFound(self.command.clone(), e.to_string()));
            }
        };
        // Read both pipes in threads so a chatty solver never blocks on a full pipe.
        let out = child.stdout.take().expect("piped");
        let mut err = child.stderr.take().expect("piped");
        let out_reader = std::thread::spawn(move || answer_lines(out));
        let err_reader = std::thread::spawn(move || {
            let mut s = Vec::new();
            let _ = (&mut err).take(4096).read_to_end(&mut s);
            // Drain the rest without keeping it.
            let _ = std::io::copy(&mut err, &mut std::io::sink());
            String::from_utf8_lossy(&s).into_owned()
        });
        let start = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(st)) => break st,
                Ok(None) => {}
                Err(e) => {
                    kill_group(&mut child);
                    let _ = std::fs::remove_file(&path);
                    return Err(SolverError::Internal(e.to_string()));
                }
            }
            let stopped = self.stop.as_ref().is_some_and(Stop::is_raised);
            let late = self.timeout.filter(|&t| start.elapsed().as_secs_f64() > t);
            if stopped || late.is_some() {
                kill_group(&mut child);
                let _ = std::fs::remove_file(&path);
                // The pipes close with the group, so the readers end.
                let _ = out_reader.join();
                let _ = err_reader.join();
                return Err(match late {
                    Some(seconds) if !stopped => SolverError::Timeout {
                        command: self.command.clone(),
                        seconds,
                    },
                    _ => SolverError::Stopped,
                });
            }
            std::thread::sleep(Duration::from_millis(2));
        };
        // The solver has exited; children it left behind may still hold the pipes open.
        kill_group(&mut child);
        let _ = std::fs::remove_file(&path);
        let stdout = out_reader.join().unwrap_or_default();
        let stderr = err_reader.join().unwrap_or_default();
        Ok((status.code(), stdout, stderr))
    }
}

/// The lines of a solver's output that can be part of its answer (everything but `c` comment
/// lines), read as they come.
fn answer_lines(out: impl Read) -> String {
    use std::io::BufRead;
    let mut kept = String::new();
    let mut reader = std::io::BufReader::new(out);
    let mut line = Vec::new();
    loop {
        line.clear();
        match reader.read_until(b'\n', &mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) => {
                let text = String::from_utf8_lossy(&line);
                if !text.trim_start().starts_with('c') {
                    kept.push_str(&text);
                }
            }
        }
    }
    kept
}

/// Kills the solver and every process of its group, and reaps it.
fn kill_group(child: &mut std::process::Child) {
    #[cfg(unix)]
    {
        if let Ok(pid) = i32::try_from(child.id()) {
            // SAFETY: kill(2) with a negative pid signals the process group the child leads
            // (it was started with process_group(0)); no memory is involved.
            unsafe {
                libc::kill(-pid, libc::SIGKILL);
            }
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

impl Backend for External {
    fn add_clause(&mut self, clause: &[Lit]) {
        let needed = clause
            .iter()
            .map(|l| l.var().index() + 1)
            .max()
            .unwrap_or(0);
        while self.formula.num_vars() < needed {
            self.formula.new_var();
        }
        self.formula.add_clause(clause);
    }

    fn solve(&mut self, assumptions: &[Lit]) -> Result<Outcome, SolverError> {
        let needed = assumptions
            .iter()
            .map(|l| l.var().index() + 1)
            .max()
            .unwrap_or(0);
        while self.formula.num_vars() < needed {
            let _: Var = self.formula.new_var();
        }
        let (code, stdout, stderr) = self.run(assumptions)?;
        let bad = |detail: String| SolverError::BadOutput {
            command: self.command.clone(),
            detail,
        };
        let answer = read_answer(&stdout, self.formula.num_vars())
            .map_err(|e| bad(format!("line {}, column {}: {}", e.line, e.col, e.message)))?;
        match (answer, code) {
            (Answer::Sat(a), _) => {
                if !a.satisfies(&self.formula) || !assumptions.iter().all(|&l| a.lit(l)) {
                    return Err(bad("its model does not satisfy the formula".into()));
                }
                Ok(Outcome::Sat(a))
            }
            (Answer::Unsat, _) => Ok(Outcome::Unsat(assumptions.to_vec())),
            (Answer::Unknown, Some(20)) => Ok(Outcome::Unsat(assumptions.to_vec())),
            (Answer::Unknown, code) => {
                let first_err = stderr.lines().next().unwrap_or("").trim();
                Err(bad(format!(
                    "no `s SATISFIABLE` or `s UNSATISFIABLE` line (exit code {}){}",
                    code.map_or("none".to_string(), |c| c.to_string()),
                    if first_err.is_empty() {
                        String::new()
                    } else {
                        format!("; it said: {first_err}")
                    }
                )))
            }
        }
    }

    fn num_vars(&self) -> usize {
        self.formula.num_vars()
    }
}
