//! Reading puzzle text, shared by every kind's format: comment lines and whitespace-separated
//! tokens with the columns people see, so that every error can name its line and column.

/// A line starting with `#` (after leading spaces): a comment in every text format.
pub fn is_comment(line: &str) -> bool {
    line.trim_start().starts_with('#')
}

/// The whitespace-separated tokens of a line, each with its 1-based column (in characters).
pub fn tokens(line: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start: Option<(usize, usize)> = None;
    for (col, (bi, c)) in line.char_indices().enumerate() {
        if c.is_whitespace() {
            if let Some((sc, sb)) = start.take() {
                out.push((sc, &line[sb..bi]));
            }
        } else if start.is_none() {
            start = Some((col + 1, bi));
        }
    }
    if let Some((sc, sb)) = start {
        out.push((sc, &line[sb..]));
    }
    out
}

/// `n` and a noun, singular for one: `1 given`, `3 givens`, `0 paths` (nouns that take `s`).
pub fn count_of(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn count_of_is_singular_for_one_only() {
        assert_eq!(count_of(1, "given"), "1 given");
        assert_eq!(count_of(0, "path"), "0 paths");
        assert_eq!(count_of(12, "cell"), "12 cells");
    }

    #[test]
    fn tokens_carry_their_columns_in_characters() {
        assert_eq!(tokens(""), vec![]);
        assert_eq!(tokens("  12 3\t┃x "), vec![(3, "12"), (6, "3"), (8, "┃x")]);
        assert_eq!(tokens("é b"), vec![(1, "é"), (3, "b")]);
    }

    #[test]
    fn comments_may_be_indented() {
        assert!(is_comment("  # note"));
        assert!(!is_comment("1 # not a comment line"));
    }
}
