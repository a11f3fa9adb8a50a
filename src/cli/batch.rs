//! Batches: the puzzles of the files one at a time ([`Puzzles`]: each kind's streaming reader cuts
//! a file into puzzles as its lines come), one function run per puzzle on `--jobs` threads, and
//! one writer that gets the results in input order ([`run`]: a reorder buffer keyed by sequence
//! number, bounded so that memory stays that of a few puzzles). `--timeout` is a [`Watchdog`]
//! that raises each puzzle's [`Stop`] flag when its time is up.
//!
//! A hook that adds per-puzzle work (pictures, proofs, another backend) goes into the work
//! function of its verb (`report::analyze_input`, `explain::one_input`), and its output into
//! that verb's writer: one line each.

use super::args::InputArgs;
use crate::error::{Error, InputError, Result};
use crate::kinds::{self, AnyPuzzle, AnyReader, ReadOptions};
use crate::puzzle::Kind;
use crate::records::PuzzleReader;
use crate::solver::{SolverChoice, Stop};
use std::collections::{BTreeMap, VecDeque};
use std::io::BufRead;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, sync_channel};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// One puzzle of a batch, or the error in its place.
pub struct Input {
    /// The file as named in messages (`<stdin>` for `-`).
    pub file: Arc<str>,
    /// 1-based place in the file (a bad puzzle takes a place too; 0 for the file as a whole).
    pub index: usize,
    pub puzzle: std::result::Result<AnyPuzzle, Error>,
}

/// The puzzles of every file, read as they are needed.
pub struct Puzzles {
    files: VecDeque<String>,
    kind: Option<Kind>,
    opts: ReadOptions,
    /// The file being read.
    current: Option<Current>,
    ready: VecDeque<Input>,
    /// `--index N`: only puzzle N of each file; the last place seen in the current file, and
    /// whether N was among them.
    index: Option<usize>,
    seen: usize,
    hit: bool,
}

struct Current {
    label: Arc<str>,
    source: Box<dyn BufRead + Send>,
    reader: AnyReader,
    /// The kind was guessed from the content: errors say so.
    guessed: Option<Kind>,
    /// Lines read ahead to guess the kind, not yet given to the reader.
    head: VecDeque<Line>,
    /// The error that ended the file while its head was read ahead, handed back after the head.
    fatal: Option<Input>,
    line: usize,
    index: usize,
    pending_cr: bool,
    /// Lines that were not UTF-8 (their numbers, the latest last): the reader's own error on
    /// such a line gives way to the one already handed back.
    bad_lines: VecDeque<usize>,
    done: bool,
    /// How the reader is made again after a record over [`record_budget`].
    kind: Kind,
    opts: ReadOptions,
    any_genre: bool,
    /// Bytes given to the reader since it last handed something back, and the first of
    /// those lines.
    record_bytes: usize,
    record_start: usize,
    /// After a record over its budget: lines are passed over up to the next blank line.
    passing: bool,
}

/// The most bytes of lines a reader of `kind` is given for one puzzle (since it last handed
/// one back): a few times the largest puzzle the kind's limits allow in its widest form (a
/// 64x64 Sudoku of numbers is 13 KB, a 1000x1000 Takuzu or Tectonic 2-16 MB, a 2000x2000
/// Numberlink of numbers 20 MB, a 200x200 Shisen-sho 0.7 MB). Past it the reader's record is
/// one error, its lines are dropped, and reading goes on after the next blank line with a new
/// reader: so a file of long lines with no end to its record (a 16 MiB line a row) is read in
/// bounded memory, as a single line over [`crate::records::MAX_LINE`] is.
fn record_budget(kind: Kind) -> usize {
    match kind {
        Kind::Sudoku => 1 << 20,
        Kind::Shisen => 4 << 20,
        Kind::Takuzu => 16 << 20,
        Kind::Numberlink => 32 << 20,
        Kind::Tectonic => 8 << 20,
    }
}

/// The longest line a reader of `kind` is given ([`crate::records::MAX_LINE`] but for
/// Tectonic, whose reader takes about 50 bytes of memory a character of a line: 8 MiB, still
/// 8 times a 1000x1000 board's JSON Lines record).
fn longest_line(kind: Kind) -> usize {
    match kind {
        Kind::Tectonic => 8 << 20,
        _ => crate::records::MAX_LINE,
    }
}

/// One line of a file as read: its number, its text, and what was wrong with its bytes (not
/// UTF-8: the text has U+FFFD in their place; longer than [`crate::records::MAX_LINE`]: the
/// text is empty).
struct Line {
    number: usize,
    text: String,
    fault: Option<InputError>,
}

/// How much of an over-long line is passed over looking for its end before the rest of the
/// file is given up (a file of one endless line, such as `/dev/zero`, must end).
const SKIP_LIMIT: usize = 64 << 20;

/// How many lines that were not UTF-8 are remembered (see [`Current::bad_lines`]).
const BAD_LINES_KEPT: usize = 4096;

impl Puzzles {
    pub fn new(input: &InputArgs) -> Result<Puzzles> {
        Ok(Puzzles {
            files: input.files.iter().cloned().collect(),
            kind: super::parse_kind(&input.read.kind)?,
            opts: super::read_options(&input.read)?,
            current: None,
            ready: VecDeque::new(),
            index: input.index,
            seen: 0,
            hit: false,
        })
    }

    /// Opens the next file; a file that cannot be read is an error in its place. A puzz.link
    /// URL that names no file is read as the text of a file (see [`super::input`]).
    fn open(&mut self) -> bool {
        let Some(file) = self.files.pop_front() else {
            return false;
        };
        let label: Arc<str> = if file == "-" {
            "<stdin>".into()
        } else {
            file.as_str().into()
        };
        let source: Box<dyn BufRead + Send> = if file == "-" {
            Box::new(std::io::BufReader::new(std::io::stdin()))
        } else if super::is_puzzle_argument(&file) {
            Box::new(std::io::Cursor::new(file.clone().into_bytes()))
        } else {
            match std::fs::File::open(&file) {
                Ok(f) => Box::new(std::io::BufReader::with_capacity(1 << 16, f)),
                Err(e) => {
                    self.ready.push_back(Input {
                        file: label,
                        index: 0,
                        puzzle: Err(Error::Usage(format!("cannot read {file}: {e}"))),
                    });
                    return true;
                }
            }
        };
        let mut cur = Current {
            label: label.clone(),
            source,
            reader: AnyReader::new(Kind::Sudoku, &label, &self.opts),
            guessed: None,
            head: VecDeque::new(),
            fatal: None,
            line: 0,
            index: 0,
            pending_cr: false,
            bad_lines: VecDeque::new(),
            done: false,
            kind: Kind::Sudoku,
            opts: self.opts.clone(),
            any_genre: self.kind.is_none(),
            record_bytes: 0,
            record_start: 1,
            passing: false,
        };
        let kind = match self.kind.or_else(|| kinds::by_extension(&file)) {
            Some(k) => k,
            None => {
                // Read the file's first MiB (whole lines) to guess its kind from the content.
                let mut head = String::new();
                let mut complete = false;
                while head.len() < kinds::DETECT_BYTES {
                    match cur.next_line() {
                        Ok(Some(l)) => {
                            if l.fault.is_none() {
                                head.push_str(&l.text);
                                head.push('\n');
                            }
                            cur.head.push_back(l);
                        }
                        Ok(None) => {
                            complete = true;
                            break;
                        }
                        Err(e) => {
                            // Handed back after the lines before it.
                            cur.fatal = Some(*e);
                            cur.done = false;
                            cur.index = 0;
                            break;
                        }
                    }
                }
                let k = kinds::detect(&file, &head, complete);
                cur.guessed = Some(k);
                k
            }
        };
        cur.kind = kind;
        cur.opts = super::options_for(&file, &self.opts);
        cur.reader = AnyReader::new(kind, &label, &cur.opts);
        if self.kind.is_none() {
            // Not named with --kind: a file of URLs may hold any genre.
            cur.reader = cur.reader.any_genre();
        }
        self.current = Some(cur);
        true
    }
}

impl Current {
    /// The next line of the file (a line ends with `\n`, `\r\n` or a lone `\r`), in memory
    /// bounded by [`crate::records::MAX_LINE`], or the error that ends the file (not readable,
    /// or not text at all).
    fn next_line(&mut self) -> std::result::Result<Option<Line>, Box<Input>> {
        let max = longest_line(self.kind);
        let mut buf = Vec::new();
        let mut any = false;
        let mut too_long = false;
        let mut skipped = 0usize;
        loop {
            let avail = match self.source.fill_buf() {
                Ok(a) => a,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    let m = format!("cannot read {}: {e}", self.label);
                    return Err(Box::new(self.fault(Error::Usage(m))));
                }
            };
            if avail.is_empty() {
                break;
            }
            if self.pending_cr {
                self.pending_cr = false;
                if avail[0] == b'\n' {
                    self.source.consume(1);
                    continue;
                }
            }
            any = true;
            let end = avail.iter().position(|&b| b == b'\n' || b == b'\r');
            let take = end.unwrap_or(avail.len());
            if too_long {
                // Passing over the rest of an over-long line: a NUL byte says the file is no
                // text at all, and an endless line is given up.
                skipped += take;
                if avail[..take].contains(&0) || skipped > SKIP_LIMIT {
                    let mut e = crate::records::too_long_at(&self.label, self.line + 1, max);
                    e.message.push_str(if avail[..take].contains(&0) {
                        "; the rest of the file is not read (it holds NUL bytes: binary data, not text)"
                    } else {
                        "; the rest of the file is not read (no line end in sight)"
                    });
                    self.line += 1;
                    return Err(Box::new(self.fault(Error::Input(e))));
                }
            } else if buf.len() + take > max {
                too_long = true;
                skipped = buf.len() + take;
                buf = Vec::new();
            } else {
                buf.extend_from_slice(&avail[..take]);
            }
            match end {
                Some(k) => {
                    self.pending_cr = avail[k] == b'\r';
                    self.source.consume(k + 1);
                    break;
                }
                None => {
                    let n = avail.len();
                    self.source.consume(n);
                }
            }
        }
        if !any {
            return Ok(None);
        }
        self.line += 1;
        let number = self.line;
        if too_long {
            return Ok(Some(Line {
                number,
                text: String::new(),
                fault: Some(crate::records::too_long_at(&self.label, number, max)),
            }));
        }
        if number == 1 && buf.starts_with("\u{feff}".as_bytes()) {
            buf.drain(..3);
        }
        Ok(Some(match String::from_utf8(buf) {
            Ok(text) => Line {
                number,
                text,
                fault: None,
            },
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let bytes = e.as_bytes();
                let good = String::from_utf8_lossy(&bytes[..at]);
                let fault = crate::records::not_utf8(&self.label, number, &good, bytes[at]);
                Line {
                    number,
                    text: String::from_utf8_lossy(bytes).into_owned(),
                    fault: Some(fault),
                }
            }
        }))
    }

    /// An error that ends the file, in the next place.
    fn fault(&mut self, e: Error) -> Input {
        self.done = true;
        self.index += 1;
        Input {
            file: self.label.clone(),
            index: self.index,
            puzzle: Err(e),
        }
    }

    /// Gives one line to the reader, unless the lines since it last handed something back are
    /// over the kind's [`record_budget`]: then they are one error, the reader starts again,
    /// and lines are passed over up to the next blank line.
    fn feed(&mut self, l: Line, out: &mut Vec<crate::records::Item<AnyPuzzle>>) {
        let blank = l.text.trim().is_empty();
        if self.passing {
            if !blank {
                return;
            }
            self.passing = false;
        }
        if self.record_bytes == 0 {
            self.record_start = l.number;
        }
        self.record_bytes += l.text.len() + 1;
        let budget = record_budget(self.kind);
        if self.record_bytes > budget {
            let m = format!(
                "lines {} to {} hold more than {} MiB without a whole {} puzzle: no puzzle of the kind is that large (passed over up to the next blank line)",
                self.record_start,
                l.number,
                budget >> 20,
                self.kind.name()
            );
            out.push(Err(InputError::new(&self.label, self.record_start, 1, m)));
            let fresh = AnyReader::new(self.kind, &self.label, &self.opts);
            self.reader = if self.any_genre {
                fresh.any_genre()
            } else {
                fresh
            };
            self.record_bytes = 0;
            self.passing = !blank;
            return;
        }
        let before = out.len();
        self.feed_line(l, out);
        if out.len() > before {
            self.record_bytes = 0;
        }
    }

    /// Gives one line to the reader. A line that is too long is its own error and is not given;
    /// a line that is not UTF-8 is its own error (unless it is a comment, which is free text)
    /// and is given with U+FFFD in place of its bad bytes, so that the record it belongs to
    /// stays in step; the reader's own error on it then gives way to this one.
    fn feed_line(&mut self, l: Line, out: &mut Vec<crate::records::Item<AnyPuzzle>>) {
        match l.fault {
            Some(e) if l.text.is_empty() => out.push(Err(e)),
            Some(e) => {
                if !crate::text::is_comment(&l.text) {
                    out.push(Err(e));
                    if self.bad_lines.len() == BAD_LINES_KEPT {
                        self.bad_lines.pop_front();
                    }
                    self.bad_lines.push_back(l.number);
                }
                self.reader.line(l.number, &l.text, out);
            }
            None => self.reader.line(l.number, &l.text, out),
        }
    }

    /// Reads on until the reader hands back something (or the file ends).
    fn fill(&mut self, ready: &mut VecDeque<Input>) {
        let mut out = Vec::new();
        while out.is_empty() && !self.done {
            let line = match self.head.pop_front() {
                Some(l) => Some(l),
                None => match self.fatal.take() {
                    Some(e) => {
                        self.done = true;
                        self.index += 1;
                        ready.push_back(Input {
                            index: self.index,
                            ..e
                        });
                        return;
                    }
                    None => match self.next_line() {
                        Ok(l) => l,
                        Err(e) => {
                            ready.push_back(*e);
                            return;
                        }
                    },
                },
            };
            match line {
                Some(l) => self.feed(l, &mut out),
                None => {
                    self.reader.end(&mut out);
                    self.done = true;
                    if self.index > 0 {
                        // "No puzzle found" says nothing new after the file's own errors (a
                        // line too long, say).
                        out.retain(
                            |i| !matches!(i, Err(e) if e.message.starts_with("no puzzle found")),
                        );
                    }
                }
            }
            // The reader's errors on lines already reported as not UTF-8 are the same fault.
            out.retain(|item| match item {
                Err(e) => {
                    !self.bad_lines.contains(&e.line)
                        || e.message.starts_with(crate::records::NOT_UTF8)
                }
                Ok(_) => true,
            });
        }
        for item in out {
            self.index += 1;
            let puzzle = item.map_err(|mut e| {
                if let Some(k) = self.guessed.filter(|_| !self.reader.reads_urls()) {
                    e.message.push_str(&kinds::guess_note(k));
                }
                Error::Input(e)
            });
            ready.push_back(Input {
                file: self.label.clone(),
                index: self.index,
                puzzle,
            });
        }
    }
}

impl Iterator for Puzzles {
    type Item = Input;

    fn next(&mut self) -> Option<Input> {
        loop {
            if let Some(i) = self.ready.pop_front() {
                match self.index {
                    // A file-wide error (place 0) always goes out.
                    Some(n) if i.index != 0 => {
                        self.seen = self.seen.max(i.index);
                        if i.index != n {
                            continue;
                        }
                        self.hit = true;
                        return Some(i);
                    }
                    _ => return Some(i),
                }
            }
            match &mut self.current {
                Some(cur) if !cur.done => cur.fill(&mut self.ready),
                _ => {
                    if let (Some(n), Some(cur), false) = (self.index, &self.current, self.hit) {
                        if self.seen > 0 {
                            let m = format!(
                                "{} holds {} puzzle{}; --index {n} is out of range",
                                cur.label,
                                self.seen,
                                if self.seen == 1 { "" } else { "s" }
                            );
                            self.ready.push_back(Input {
                                file: cur.label.clone(),
                                index: 0,
                                puzzle: Err(Error::Usage(m)),
                            });
                        }
                    }
                    self.seen = 0;
                    self.hit = false;
                    // The out-of-range error goes out before the next file is opened.
                    if self.current.take().is_some() && !self.ready.is_empty() {
                        continue;
                    }
                    if !self.open() {
                        return None;
                    }
                }
            }
        }
    }
}

/// True when the input comes live, from a pipe, a terminal or a socket (standard input or a
/// named FIFO) rather than from a file: puzzles may then come slowly, and an answer must not
/// wait for the next puzzle to be read. The batch then hands each puzzle to a thread alone
/// (no chunks, [`run_chunked`]) and the verb flushes each answer; a file's batch keeps both.
pub fn live(input: &InputArgs) -> bool {
    let streaming = |p: &str| {
        std::fs::metadata(p).is_ok_and(|m| {
            #[cfg(unix)]
            {
                use std::os::unix::fs::FileTypeExt;
                let t = m.file_type();
                t.is_fifo() || t.is_char_device() || t.is_socket()
            }
            #[cfg(not(unix))]
            {
                !m.is_file()
            }
        })
    };
    input.files.iter().any(|f| {
        if f == "-" {
            streaming("/dev/stdin")
        } else {
            !super::is_puzzle_argument(f) && streaming(f)
        }
    })
}

/// `-j N`: the number of threads that run the work: every core when not given, and never more
/// (more threads than cores only share the same cores, each with its own solver's memory, as
/// `sort --parallel` and `xz -T` hold too; a huge N asked for nothing else). N is at least 1
/// (checked when the options are read).
pub fn jobs(asked: Option<usize>) -> Result<usize> {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    match asked {
        Some(0) => Err(Error::Usage("--jobs must be at least 1".into())),
        Some(n) => Ok(n.min(cores)),
        None => Ok(cores),
    }
}

/// `--timeout` (or its older name `--solver-timeout`): a positive, finite number of seconds
/// (its range is checked when the options are read).
pub fn timeout(asked: Option<f64>) -> Result<Option<Duration>> {
    let Some(t) = asked else {
        return Ok(None);
    };
    match Duration::try_from_secs_f64(t) {
        Ok(d) if t > 0.0 && t <= super::args::MAX_SECONDS => Ok(Some(d)),
        _ => Err(Error::Usage(format!(
            "--timeout (or --solver-timeout) must be a positive, finite number of seconds, got {t} (leave it out for no limit)"
        ))),
    }
}

/// The most items handed to a worker at once. Items go out in chunks so that a batch of quick
/// puzzles (a 9x9 takes about 0.1 ms) does not spend its time waking threads: every hand-over
/// between the reader, a worker and the writer costs a few microseconds of system time, about a
/// third of the work when done per puzzle. A chunk holds about [`CHUNK_TIME`] of work, judged
/// from the items done so far: one item while nothing is known or items are slow, so that the
/// first answers come at once and hard puzzles still spread over the threads.
pub const MAX_CHUNK: usize = 128;

/// The work a chunk aims at (see [`MAX_CHUNK`]). 8 ms rather than 2: with the lite solver a 9x9
/// takes about 70 µs, and 2 ms chunks spent 80 ms of system time waking threads on cbg's 21,375
/// puzzles (48 ms with 8 ms chunks; BENCHMARKS.md). The first answers still come at once: a
/// chunk grows only as items are timed.
const CHUNK_TIME: Duration = Duration::from_millis(8);

/// Items for one chunk, from the running mean time of an item in nanoseconds (0: none done).
fn chunk_size(mean_ns: u64) -> usize {
    if mean_ns == 0 {
        return 1;
    }
    (CHUNK_TIME.as_nanos() as u64 / mean_ns).clamp(1, MAX_CHUNK as u64) as usize
}

/// Runs `work` on every item of `items` on `jobs` threads and gives each result to `write` in
/// the items' order. `write` returns false to stop the batch (the output was closed). With one
/// job everything runs on the calling thread.
pub fn run<T, R, W, O>(
    items: impl Iterator<Item = T> + Send,
    jobs: usize,
    work: W,
    write: O,
) -> Result<()>
where
    T: Send,
    R: Send,
    W: Fn(&T) -> R + Sync,
    O: FnMut(T, R) -> Result<bool>,
{
    run_chunked(items, jobs, MAX_CHUNK, work, write)
}

/// [`run`] with chunks of at most `max_chunk` items (1 for [`live`] input: a chunk is handed
/// out only once it is full, so a puzzle read would wait for the next ones to come).
pub fn run_chunked<T, R, W, O>(
    items: impl Iterator<Item = T> + Send,
    jobs: usize,
    max_chunk: usize,
    work: W,
    mut write: O,
) -> Result<()>
where
    T: Send,
    R: Send,
    W: Fn(&T) -> R + Sync,
    O: FnMut(T, R) -> Result<bool>,
{
    if jobs <= 1 {
        for item in items {
            let r = work(&item);
            if !write(item, r)? {
                break;
            }
        }
        return Ok(());
    }
    // At most `ahead` chunks between the reader and the writer: the reorder buffer stays small
    // (a few puzzles per thread) even when one puzzle takes long and the others run on.
    let ahead = 4 * jobs;
    let (credit_tx, credit_rx) = sync_channel::<()>(ahead);
    for _ in 0..ahead {
        let _ = credit_tx.send(());
    }
    let (job_tx, job_rx) = sync_channel::<(usize, Vec<T>)>(ahead);
    let job_rx = Mutex::new(job_rx);
    let (done_tx, done_rx) = channel::<(usize, Vec<(T, R)>)>();
    // The running mean time of an item, in nanoseconds (0 until one is done).
    let mean_ns = AtomicU64::new(0);
    std::thread::scope(|s| {
        let mean = &mean_ns;
        s.spawn(move || {
            let mut items = items.peekable();
            for seq in 0.. {
                if items.peek().is_none() || credit_rx.recv().is_err() {
                    break;
                }
                let size = chunk_size(mean.load(Ordering::Relaxed)).min(max_chunk.max(1));
                let chunk: Vec<T> = items.by_ref().take(size).collect();
                if job_tx.send((seq, chunk)).is_err() {
                    break;
                }
            }
        });
        for _ in 0..jobs {
            let done_tx = done_tx.clone();
            let (job_rx, work) = (&job_rx, &work);
            s.spawn(move || loop {
                let next = job_rx.lock().map(|rx| rx.recv());
                let Ok(Ok((seq, chunk))) = next else { break };
                let done: Vec<(T, R)> = chunk
                    .into_iter()
                    .map(|item| {
                        let start = Instant::now();
                        let r = work(&item);
                        let ns = start.elapsed().as_nanos().min(u64::MAX as u128) as u64;
                        let old = mean.load(Ordering::Relaxed);
                        let new = if old == 0 {
                            ns.max(1)
                        } else {
                            (old / 8 * 7 + ns / 8).max(1)
                        };
                        mean.store(new, Ordering::Relaxed);
                        (item, r)
                    })
                    .collect();
                if done_tx.send((seq, done)).is_err() {
                    break;
                }
            });
        }
        drop(done_tx);
        let mut waiting: BTreeMap<usize, Vec<(T, R)>> = BTreeMap::new();
        let mut next = 0;
        let mut result = Ok(());
        'out: for (seq, done) in done_rx.iter() {
            waiting.insert(seq, done);
            while let Some(done) = waiting.remove(&next) {
                next += 1;
                for (item, r) in done {
                    match write(item, r) {
                        Ok(true) => {}
                        Ok(false) => break 'out,
                        Err(e) => {
                            result = Err(e);
                            break 'out;
                        }
                    }
                }
                let _ = credit_tx.send(());
            }
        }
        // Stop the reader and the workers (they see closed channels).
        drop(credit_tx);
        drop(done_rx);
        if let Ok(rx) = job_rx.lock() {
            while rx.try_recv().is_ok() {}
        }
        result
    })
}

/// Raises each registered [`Stop`] flag when its deadline passes (the clock of `--timeout`;
/// the library has none).
pub struct Watchdog {
    limit: Duration,
    shared: Arc<(Mutex<WatchState>, Condvar)>,
}

#[derive(Default)]
struct WatchState {
    armed: BTreeMap<u64, (Instant, Stop)>,
    next_id: u64,
    closed: bool,
}

impl Watchdog {
    /// A watchdog giving each puzzle `limit`, with its thread.
    pub fn start(limit: Duration) -> Watchdog {
        let shared: Arc<(Mutex<WatchState>, Condvar)> = Arc::default();
        let s = shared.clone();
        std::thread::spawn(move || {
            let (lock, cv) = &*s;
            let Ok(mut st) = lock.lock() else { return };
            while !st.closed {
                let now = Instant::now();
                st.armed.retain(|_, (deadline, stop)| {
                    if *deadline <= now {
                        stop.raise();
                        false
                    } else {
                        true
                    }
                });
                let wait = st
                    .armed
                    .values()
                    .map(|(d, _)| d.saturating_duration_since(now))
                    .min()
                    .unwrap_or(Duration::from_secs(3600));
                st = match cv.wait_timeout(st, wait) {
                    Ok((g, _)) => g,
                    Err(_) => return,
                };
            }
        });
        Watchdog { limit, shared }
    }

    /// The time each puzzle gets.
    pub fn limit(&self) -> Duration {
        self.limit
    }

    /// Runs `f` with a choice that stops when the time is up.
    pub fn watch<R>(&self, base: &SolverChoice, f: impl FnOnce(&SolverChoice) -> R) -> R {
        let stop = Stop::new();
        let choice = base.until(&stop);
        let (lock, cv) = &*self.shared;
        let id = lock.lock().map(|mut st| {
            let id = st.next_id;
            st.next_id += 1;
            st.armed.insert(id, (Instant::now() + self.limit, stop));
            id
        });
        cv.notify_all();
        let r = f(&choice);
        if let (Ok(id), Ok(mut st)) = (id, lock.lock()) {
            st.armed.remove(&id);
        }
        r
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        let (lock, cv) = &*self.shared;
        if let Ok(mut st) = lock.lock() {
            st.closed = true;
        }
        cv.notify_all();
    }
}

/// Runs `f` under the watchdog when there is one.
pub fn timed<R>(
    watchdog: Option<&Watchdog>,
    base: &SolverChoice,
    f: impl FnOnce(&SolverChoice) -> R,
) -> R {
    match watchdog {
        Some(w) => w.watch(base, f),
        None => f(base),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_hold_about_eight_milliseconds_of_work() {
        assert_eq!(chunk_size(0), 1, "nothing known yet: one item");
        assert_eq!(chunk_size(100_000), 80, "0.1 ms puzzles");
        assert_eq!(chunk_size(1_000), MAX_CHUNK, "very quick items: the cap");
        assert_eq!(chunk_size(9_000_000), 1, "slow puzzles go one by one");
    }

    #[test]
    fn results_come_in_input_order_whatever_the_threads_and_chunks() {
        // Items of very different costs, so chunks grow, shrink and finish out of order.
        let items: Vec<u64> = (0..3000).map(|i| (i * 7919) % 13).collect();
        for jobs in [1, 2, 3, 5] {
            let mut seen = Vec::new();
            run(
                items.iter().copied().enumerate(),
                jobs,
                |&(_, cost)| {
                    let mut x = cost;
                    for _ in 0..cost * 200 {
                        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                    }
                    std::hint::black_box(x);
                    cost * 2
                },
                |(i, cost), r| {
                    assert_eq!(r, cost * 2);
                    seen.push(i);
                    Ok(true)
                },
            )
            .unwrap();
            assert_eq!(seen, (0..3000).collect::<Vec<_>>(), "jobs {jobs}");
        }
    }

    #[test]
    fn a_writer_that_stops_ends_the_batch() {
        let mut written = 0;
        run(
            0..100_000u32,
            2,
            |&i| i,
            |_, _| {
                written += 1;
                Ok(written < 10)
            },
        )
        .unwrap();
        assert_eq!(written, 10);
    }
}
