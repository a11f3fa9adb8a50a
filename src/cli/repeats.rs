//! Errors said once: when puzzle after puzzle of a file fails the same way (a file read as the
//! wrong kind, a collection in a form gridsat does not read), text output prints the first error
//! and then one line with how many more there were, instead of a thousand alike. JSON output
//! keeps one record per puzzle (a script matches records to inputs by `index`).

/// A run of errors alike in one file, being counted.
#[derive(Debug, Default)]
pub struct Repeats {
    /// The file and the shape of the error that started the run.
    key: Option<(String, String)>,
    /// Errors like it after the first, and the first and last line they were on.
    more: usize,
    lines: (usize, usize),
}

/// An error's shape: its message without the file, numbers and quoted text, so that `found 25`
/// and `found 36`, or `` `x` `` and `` `y` ``, are alike.
fn shape(message: &str) -> String {
    let mut out = String::new();
    let mut quoted = false;
    let mut digits = false;
    for c in message.chars() {
        if c == '`' {
            quoted = !quoted;
            if quoted {
                out.push_str("`…`");
            }
            continue;
        }
        if quoted {
            continue;
        }
        if c.is_ascii_digit() {
            if !digits {
                out.push('N');
            }
            digits = true;
            continue;
        }
        digits = false;
        out.push(c);
    }
    out
}

impl Repeats {
    /// An error of `file` (its message, with `file:line:col:` in front when it has a place):
    /// the lines to print now (the end of a run of other errors, then this one), or none when
    /// it repeats the run's error.
    pub fn error(&mut self, file: &str, message: &str, line: Option<usize>) -> Vec<String> {
        let body = message
            .strip_prefix(file)
            .and_then(|m| m.strip_prefix(':'))
            .map_or(message, |m| {
                m.trim_start_matches(|c: char| c.is_ascii_digit() || c == ':')
            });
        let key = (file.to_string(), shape(body));
        let ln = line.unwrap_or(0);
        if self.key.as_ref() == Some(&key) {
            if self.more == 0 {
                self.lines.0 = ln;
            }
            self.more += 1;
            self.lines.1 = ln;
            return Vec::new();
        }
        let mut out: Vec<String> = self.end().into_iter().collect();
        out.push(format!("gridsat: {message}"));
        self.key = Some(key);
        out
    }

    /// The end of a run (another puzzle was answered, or the batch ends): the line that says
    /// how many errors alike were not printed, if any were.
    pub fn end(&mut self) -> Option<String> {
        let (file, _) = self.key.take()?;
        let more = std::mem::take(&mut self.more);
        (more > 0).then(|| {
            let (a, b) = self.lines;
            let place = if a > 0 {
                format!(" (lines {a} to {b})")
            } else {
                String::new()
            };
            format!(
                "gridsat: {file}: the same error on {more} more {}{place}, not printed one by one (--json gives each its record)",
                if more == 1 { "puzzle" } else { "puzzles" }
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_alike_are_said_once_with_their_count() {
        let mut r = Repeats::default();
        let e = |n: usize| {
            format!("f.txt:{n}:1: a one-line puzzle needs a square number of cells, found {n}")
        };
        assert_eq!(
            r.error("f.txt", &e(1), Some(1)),
            [format!("gridsat: {}", e(1))]
        );
        for n in 2..=1000 {
            assert!(r.error("f.txt", &e(n), Some(n)).is_empty());
        }
        // Another error ends the run.
        let other = "f.txt:1001:3: unexpected `x`";
        let said = r.error("f.txt", other, Some(1001));
        assert_eq!(said.len(), 2);
        assert!(said[0].contains("the same error on 999 more puzzles (lines 2 to 1000)"));
        assert_eq!(said[1], format!("gridsat: {other}"));
        // An error alone is not followed by a count.
        assert_eq!(r.end(), None);
        assert_eq!(r.end(), None);
        // The same error in another file starts a run of its own.
        r.error("a", "a:1:1: unexpected `x`", Some(1));
        assert_eq!(r.error("b", "b:1:1: unexpected `y`", Some(1)).len(), 1);
        assert!(r.error("b", "b:2:1: unexpected `z`", Some(2)).is_empty());
        assert!(r
            .end()
            .unwrap()
            .contains("b: the same error on 1 more puzzle"));
    }
}
