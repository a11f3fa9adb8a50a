//! Reading a file one puzzle at a time. Each kind has a [`PuzzleReader`]: it is given the file's
//! lines in order, each with its 1-based number, and hands back each puzzle as soon as its last
//! line has come, or the error that this puzzle's lines hold, and then goes on with the next
//! puzzle. Inside, a reader cuts the lines into records (a line, a block between blank lines, a
//! header and the rows it announces, an XML element) and gives each record, with the line it
//! starts on, to the kind's parser. So a file is read in memory bounded by its largest puzzle,
//! and a bad puzzle costs only itself.
//!
//! Nothing here touches files: the command line reads them and feeds the lines; tests and the
//! library feed a string through [`read_all`].

use crate::error::InputError;

/// What a reader hands back: a puzzle, or the error in one puzzle's lines.
pub type Item<P> = Result<P, InputError>;

/// The longest line any reader takes, in bytes (16 MiB). The longest line a puzzle can need is
/// far shorter (a 1000x1000 Takuzu on one line is 1 MB, the longest line of the corpora 6 KB), so
/// a longer line is an error at once, and a file of one endless line (`/dev/zero`) is read in
/// bounded memory.
pub const MAX_LINE: usize = 16 << 20;

/// The error of a line longer than [`MAX_LINE`].
pub fn too_long(file: &str, ln: usize) -> InputError {
    too_long_at(file, ln, MAX_LINE)
}

/// The error of a line longer than `max` bytes (a reader's own limit, at most [`MAX_LINE`]).
pub fn too_long_at(file: &str, ln: usize, max: usize) -> InputError {
    InputError::new(
        file,
        ln,
        1,
        format!(
            "a line longer than {} MiB: no puzzle needs a line that long (this is not a puzzle file, or its line endings are lost)",
            max >> 20
        ),
    )
}

/// How the error of a line that is not UTF-8 starts.
pub const NOT_UTF8: &str = "not text";

/// The error of a line that is not UTF-8: `good` is its text up to the first bad byte, `byte`.
pub fn not_utf8(file: &str, ln: usize, good: &str, byte: u8) -> InputError {
    InputError::new(
        file,
        ln,
        good.chars().count() + 1,
        format!("{NOT_UTF8}: byte 0x{byte:02x} is not UTF-8 (puzzle files are UTF-8 text)"),
    )
}

/// A kind's streaming reader (its record splitter and parser).
pub trait PuzzleReader {
    type Puzzle;
    /// The next line of the file, without its line ending; `ln` is its 1-based number. The
    /// puzzles (or errors) this line completes are pushed to `out`.
    fn line(&mut self, ln: usize, line: &str, out: &mut Vec<Item<Self::Puzzle>>);
    /// The end of the file: the last record, and the error "no puzzle" when nothing at all was
    /// handed back.
    fn end(&mut self, out: &mut Vec<Item<Self::Puzzle>>);
}

/// The lines of `text`: a line ends with `\n`, `\r\n`, or a lone `\r` (old Mac files).
pub fn lines(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let t = rest?;
        match t.find(['\n', '\r']) {
            Some(k) => {
                let skip = if t[k..].starts_with("\r\n") { 2 } else { 1 };
                rest = Some(&t[k + skip..]).filter(|r| !r.is_empty());
                Some(&t[..k])
            }
            None => {
                rest = None;
                (!t.is_empty()).then_some(t)
            }
        }
    })
}

/// Feeds all of `text` (a byte-order mark first is skipped) through `reader`.
pub fn feed<R: PuzzleReader>(reader: &mut R, text: &str) -> Vec<Item<R::Puzzle>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut out = Vec::new();
    for (i, l) in lines(text).enumerate() {
        reader.line(i + 1, l, &mut out);
    }
    reader.end(&mut out);
    out
}

/// What a multi-puzzle read hands back, for the readers' tests: each puzzle as `WxH` (its
/// `size`), each error as `E<line>`.
#[cfg(test)]
pub fn outline<R: PuzzleReader>(
    mut reader: R,
    text: &str,
    size: impl Fn(&R::Puzzle) -> (usize, usize),
) -> Vec<String> {
    feed(&mut reader, text)
        .into_iter()
        .map(|r| match r {
            Ok(p) => {
                let (w, h) = size(&p);
                format!("{w}x{h}")
            }
            Err(e) => format!("E{}", e.line),
        })
        .collect()
}

/// Every puzzle of `text`, or the first error: all or nothing, for callers that want one answer
/// for a whole text.
pub fn read_all<R: PuzzleReader>(mut reader: R, text: &str) -> Result<Vec<R::Puzzle>, InputError> {
    feed(&mut reader, text).into_iter().collect()
}

/// The puzzles of `text` when it holds at least one and every one reads cleanly (for detecting
/// a kind by content). When `complete` is false the text is only a file's beginning: the record
/// it ends in may be cut off, so only the records its lines complete are judged.
pub fn reads_cleanly<R: PuzzleReader>(
    mut reader: R,
    text: &str,
    complete: bool,
) -> Option<Vec<R::Puzzle>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut got = Vec::new();
    for (i, l) in lines(text).enumerate() {
        reader.line(i + 1, l, &mut got);
    }
    if complete {
        reader.end(&mut got);
    }
    let puzzles = got.into_iter().collect::<Result<Vec<_>, _>>().ok()?;
    (!puzzles.is_empty()).then_some(puzzles)
}

/// Lines gathered for one record, with the number of the first.
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// The 1-based number of the first line (0 while empty).
    pub first: usize,
    pub lines: Vec<String>,
}

impl Lines {
    /// Adds line `ln` (lines come in order, without gaps unless the caller skips some).
    pub fn push(&mut self, ln: usize, line: &str) {
        if self.lines.is_empty() {
            self.first = ln;
        }
        self.lines.push(line.to_string());
    }

    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// The lines with their numbers (consecutive from the first).
    pub fn numbered(&self) -> Vec<(usize, &str)> {
        self.lines
            .iter()
            .enumerate()
            .map(|(k, l)| (self.first + k, l.as_str()))
            .collect()
    }

    /// The lines joined with `\n` (for parsers that read a text).
    pub fn text(&self) -> String {
        self.lines.join("\n")
    }

    /// Takes the lines out, leaving this empty.
    pub fn take(&mut self) -> Lines {
        std::mem::take(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_with_lf_crlf_or_a_lone_cr() {
        let l: Vec<&str> = lines("a\nb\r\nc\rd\r\r\ne").collect();
        assert_eq!(l, vec!["a", "b", "c", "d", "", "e"]);
        assert_eq!(lines("a\n").collect::<Vec<_>>(), vec!["a"]);
        assert_eq!(lines("").count(), 0);
        assert_eq!(lines("\n\n").collect::<Vec<_>>(), vec!["", ""]);
    }

    #[test]
    fn gathered_lines_keep_their_numbers() {
        let mut g = Lines::default();
        g.push(7, "x");
        g.push(8, "y");
        assert_eq!(g.numbered(), vec![(7, "x"), (8, "y")]);
        assert_eq!(g.text(), "x\ny");
        let t = g.take();
        assert!(g.is_empty());
        assert_eq!(t.len(), 2);
    }
}
