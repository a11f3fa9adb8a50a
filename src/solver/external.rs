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
            formula: Formula::unlimited(),
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
        let result = collect(
            &mut child,
            self.stop.as_ref(),
            self.timeout,
            answer_limit(self.formula.num_vars()),
        );
        // The solver has exited or is given up; processes it left behind in its group go too.
        // (One that started a session of its own escapes the kill, but not the run: its pipes
        // are no longer read.)
        kill_group(&mut child);
        let _ = std::fs::remove_file(&path);
        match result {
            Collected::Exited(status, stdout, stderr) => Ok((status.code(), stdout, stderr)),
            Collected::Stopped => Err(SolverError::Stopped),
            Collected::Late(seconds) => Err(SolverError::Timeout {
                command: self.command.clone(),
                seconds,
            }),
            Collected::TooMuch(bytes) => Err(SolverError::BadOutput {
                command: self.command.clone(),
                detail: format!(
                    "more than {bytes} bytes of answer lines, more than a model of {} variables takes",
                    self.formula.num_vars()
                ),
            }),
            Collected::Failed(e) => Err(SolverError::Internal(e)),
        }
    }
}

/// How a solver run ended.
enum Collected {
    /// It exited: its status, its answer lines and the start of its standard error.
    Exited(std::process::ExitStatus, String, String),
    /// The [`Stop`] flag was raised.
    Stopped,
    /// Its own time limit (seconds) ran out.
    Late(f64),
    /// It wrote more answer lines than an answer can hold (bytes).
    TooMuch(usize),
    /// It could not be waited for.
    Failed(String),
}

/// The most bytes of answer lines kept for a formula of `num_vars` variables: a `v` line's
/// literals take at most 12 bytes each; a megabyte more for the status and the line heads.
fn answer_limit(num_vars: usize) -> usize {
    num_vars.saturating_mul(12).saturating_add(1 << 20)
}

/// The most bytes of the solver's standard error kept for a message.
const STDERR_KEPT: usize = 4096;

/// Reads the solver's pipes until it exits, its time is up, or `stop` is raised. Both pipes
/// are read without blocking, in the thread that waits: the answer is complete once the
/// solver has exited (its writes are in the pipes by then), so nothing waits for the pipes to
/// close, which a process the solver left behind (a detached grandchild) may hold open for
/// ever.
#[cfg(unix)]
fn collect(
    child: &mut std::process::Child,
    stop: Option<&Stop>,
    timeout: Option<f64>,
    limit: usize,
) -> Collected {
    use std::os::fd::AsRawFd;
    let (Some(mut out), Some(mut err)) = (child.stdout.take(), child.stderr.take()) else {
        return Collected::Failed("the solver's pipes were not opened".into());
    };
    for fd in [out.as_raw_fd(), err.as_raw_fd()] {
        // SAFETY: fcntl(2) on descriptors this process owns (the child's pipes); no memory
        // is involved.
        unsafe {
            let flags = libc::fcntl(fd, libc::F_GETFL);
            if flags >= 0 {
                libc::fcntl(fd, libc::F_SETFL, flags | libc::O_NONBLOCK);
            }
        }
    }
    let mut answer = AnswerLines::new(limit);
    let mut errors: Vec<u8> = Vec::new();
    let (mut out_open, mut err_open) = (true, true);
    let start = Instant::now();
    loop {
        if out_open {
            out_open = pump(&mut out, |bytes| answer.feed(bytes));
        }
        if err_open {
            err_open = pump(&mut err, |bytes| {
                let room = STDERR_KEPT.saturating_sub(errors.len());
                errors.extend_from_slice(&bytes[..bytes.len().min(room)]);
            });
        }
        if answer.overflow {
            return Collected::TooMuch(limit);
        }
        match child.try_wait() {
            Ok(Some(status)) => {
                // Its last writes are in the pipes: read them, without waiting for an end of
                // file that a detached grandchild may never give.
                if out_open {
                    pump(&mut out, |bytes| answer.feed(bytes));
                }
                if answer.overflow {
                    return Collected::TooMuch(limit);
                }
                let stderr = String::from_utf8_lossy(&errors).into_owned();
                return Collected::Exited(status, answer.finish(), stderr);
            }
            Ok(None) => {}
            Err(e) => return Collected::Failed(e.to_string()),
        }
        if stop.is_some_and(Stop::is_raised) {
            return Collected::Stopped;
        }
        if let Some(t) = timeout.filter(|&t| start.elapsed().as_secs_f64() > t) {
            return Collected::Late(t);
        }
        // Wait a little for output (or the next look at the solver and the clock).
        let mut fds: Vec<libc::pollfd> = [(out_open, out.as_raw_fd()), (err_open, err.as_raw_fd())]
            .into_iter()
            .filter(|&(open, _)| open)
            .map(|(_, fd)| libc::pollfd {
                fd,
                events: libc::POLLIN,
                revents: 0,
            })
            .collect();
        if fds.is_empty() {
            std::thread::sleep(Duration::from_millis(2));
        } else {
            // SAFETY: poll(2) on a live array of `fds.len()` pollfd structures.
            unsafe {
                libc::poll(fds.as_mut_ptr(), fds.len() as libc::nfds_t, 2);
            }
        }
    }
}

/// Reads what `pipe` holds now (a bounded amount, so a flood cannot keep the caller from the
/// clock) and gives it to `take`; false once the pipe is closed.
#[cfg(unix)]
fn pump(pipe: &mut impl Read, mut take: impl FnMut(&[u8])) -> bool {
    let mut buf = [0u8; 1 << 16];
    for _ in 0..64 {
        match pipe.read(&mut buf) {
            Ok(0) => return false,
            Ok(n) => take(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => return true,
            Err(_) => return false,
        }
    }
    true
}

/// Without poll(2): both pipes are read in threads until they close, and the solver waited
/// for with the clock and `stop`.
#[cfg(not(unix))]
fn collect(
    child: &mut std::process::Child,
    stop: Option<&Stop>,
    timeout: Option<f64>,
    limit: usize,
) -> Collected {
    let (Some(mut out), Some(mut err)) = (child.stdout.take(), child.stderr.take()) else {
        return Collected::Failed("the solver's pipes were not opened".into());
    };
    let out_reader = std::thread::spawn(move || {
        let mut answer = AnswerLines::new(limit);
        let mut buf = [0u8; 1 << 16];
        while let Ok(n @ 1..) = out.read(&mut buf) {
            answer.feed(&buf[..n]);
        }
        answer
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = (&mut err).take(STDERR_KEPT as u64).read_to_end(&mut s);
        let _ = std::io::copy(&mut err, &mut std::io::sink());
        String::from_utf8_lossy(&s).into_owned()
    });
    let start = Instant::now();
    loop {
        match child.try_wait() {
            Ok(Some(status)) => {
                let answer = out_reader.join().unwrap_or_else(|_| AnswerLines::new(0));
                if answer.overflow {
                    return Collected::TooMuch(limit);
                }
                let stderr = err_reader.join().unwrap_or_default();
                return Collected::Exited(status, answer.finish(), stderr);
            }
            Ok(None) => {}
            Err(e) => return Collected::Failed(e.to_string()),
        }
        if stop.is_some_and(Stop::is_raised) {
            return Collected::Stopped;
        }
        if let Some(t) = timeout.filter(|&t| start.elapsed().as_secs_f64() > t) {
            return Collected::Late(t);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// The lines of a solver's output that can be part of its answer (everything but `c` comment
/// lines), kept as they come: comment lines are dropped at once, so a solver that chatters
/// costs no memory, and more answer than `limit` bytes is an overflow.
struct AnswerLines {
    kept: String,
    /// The line being read (not a comment, as far as it goes).
    line: Vec<u8>,
    /// The line being read is a comment: the rest of it is dropped.
    comment: bool,
    limit: usize,
    overflow: bool,
}

impl AnswerLines {
    fn new(limit: usize) -> AnswerLines {
        AnswerLines {
            kept: String::new(),
            line: Vec::new(),
            comment: false,
            limit,
            overflow: false,
        }
    }

    fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() && !self.overflow {
            match bytes.iter().position(|&b| b == b'\n') {
                Some(k) => {
                    self.take(&bytes[..k]);
                    self.end_line();
                    bytes = &bytes[k + 1..];
                }
                None => {
                    self.take(bytes);
                    break;
                }
            }
        }
    }

    fn take(&mut self, part: &[u8]) {
        if self.comment {
            return;
        }
        self.line.extend_from_slice(part);
        if self.line.trim_ascii_start().first() == Some(&b'c') {
            self.comment = true;
            self.line.clear();
        } else if self.kept.len() + self.line.len() > self.limit {
            self.overflow = true;
        }
    }

    fn end_line(&mut self) {
        if !self.comment && !self.overflow {
            self.kept.push_str(&String::from_utf8_lossy(&self.line));
            self.kept.push('\n');
        }
        self.line.clear();
        self.comment = false;
    }

    /// The answer lines, the last one too when the output did not end with a newline.
    fn finish(mut self) -> String {
        if !self.line.is_empty() {
            self.end_line();
        }
        self.kept
    }
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
