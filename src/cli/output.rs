//! Where every verb's output goes. Standard output is one buffered [`Stdout`]: a reader that goes
//! away (`gridsat sat f.cnf | head -1`) is a quiet stop, as for any Unix filter, and any other
//! failed write (`> /dev/full`) is an error naming what could not be written, so no answer is
//! lost without a word. Messages for the user go to standard error through [`say`], which never
//! fails the run (a closed standard error is no reason to panic).

use crate::error::{Error, Result};
use std::io::{BufWriter, ErrorKind, StdoutLock, Write};

/// The buffer [`Stdout::put`] writes into (a concrete type, so that a serializer writing many
/// small pieces into it is not a dynamic call per piece).
pub type Buffer = BufWriter<StdoutLock<'static>>;

/// Buffered standard output that knows when its reader has gone.
pub struct Stdout {
    out: Buffer,
    /// The reader went away (a closed pipe): later writes are skipped.
    closed: bool,
}

impl Default for Stdout {
    fn default() -> Stdout {
        Stdout::new()
    }
}

impl Stdout {
    /// Standard output, locked for the whole run.
    pub fn new() -> Stdout {
        Stdout {
            out: BufWriter::with_capacity(1 << 16, std::io::stdout().lock()),
            closed: false,
        }
    }

    /// True once the reader has gone: the caller may stop its work.
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Runs `f` on the writer: `Ok(true)` when written, `Ok(false)` when the reader has gone
    /// (now or before: nothing more is written), an error for any other failure.
    pub fn put(&mut self, f: impl FnOnce(&mut Buffer) -> std::io::Result<()>) -> Result<bool> {
        if self.closed {
            return Ok(false);
        }
        let res = f(&mut self.out);
        self.check(res)
    }

    /// Writes `text` as it is.
    pub fn text(&mut self, text: &str) -> Result<bool> {
        self.put(|w| w.write_all(text.as_bytes()))
    }

    /// Writes bytes as they are (a picture).
    pub fn bytes(&mut self, bytes: &[u8]) -> Result<bool> {
        self.put(|w| w.write_all(bytes))
    }

    /// Writes `line` and a newline.
    pub fn line(&mut self, line: impl std::fmt::Display) -> Result<bool> {
        self.put(|w| writeln!(w, "{line}"))
    }

    /// Sends what is buffered on (before a message on standard error, so the two stay in
    /// order on a terminal).
    pub fn flush(&mut self) -> Result<bool> {
        self.put(|w| w.flush())
    }

    /// Flushes at the end of a run: the last chance to find that the output could not be
    /// written.
    pub fn finish(mut self) -> Result<()> {
        self.flush().map(|_| ())
    }

    fn check(&mut self, res: std::io::Result<()>) -> Result<bool> {
        match res {
            Ok(()) => Ok(true),
            Err(e) if e.kind() == ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(false)
            }
            Err(e) => {
                // Nothing more goes out: the error names what was lost.
                self.closed = true;
                Err(cannot_write("standard output", &e))
            }
        }
    }
}

impl Drop for Stdout {
    fn drop(&mut self) {
        // An early return (an error elsewhere) still sends what was written; a failure here
        // has already been reported or cannot be any more.
        if !self.closed {
            let _ = self.out.flush();
        }
    }
}

/// The error for a write to `what` (a file name, or "standard output") that failed.
pub fn cannot_write(what: &str, e: &std::io::Error) -> Error {
    Error::Usage(format!("cannot write {what}: {e}"))
}

/// A write to a file or standard output that is not through [`Stdout`]: a closed pipe is a
/// quiet stop (`Ok(false)`), anything else an error naming `what`.
pub fn written(what: &str, res: std::io::Result<()>) -> Result<bool> {
    match res {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(cannot_write(what, &e)),
    }
}

/// A line for the user on standard error. A standard error that cannot be written (closed, or
/// a full disk) is ignored: the answers on standard output and the exit code still stand.
pub fn say(line: impl std::fmt::Display) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_closed_pipe_is_a_quiet_stop_and_other_failures_name_the_file() {
        let pipe = std::io::Error::from(ErrorKind::BrokenPipe);
        assert!(!written("x", Err(pipe)).unwrap());
        let full = std::io::Error::from_raw_os_error(28);
        let e = written("out.txt", Err(full)).unwrap_err();
        assert!(e.to_string().starts_with("cannot write out.txt: "), "{e}");
        assert_eq!(e.exit_code(), 2);
        assert!(written("x", Ok(())).unwrap());
    }
}
