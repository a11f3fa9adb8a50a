//! Options as people give them, in words (`2x3`, `flow`, `ones`, `4x6x6`), checked once with the
//! messages the command line prints, for every front end: the command line's flags, the web
//! page's fields and the Python package's keyword arguments all become [`ReadWords`] (how to
//! read a puzzle) or a generation [`crate::order::Order`].

use crate::error::{Error, Result};
use crate::kinds::ReadOptions;
use crate::numberlink::{Loops, Rules};
use crate::puzzle::Kind;

/// A kind by name or alias; `None` stays `None` (detect it).
pub fn kind(name: Option<&str>) -> Result<Option<Kind>> {
    name.map(|k| {
        Kind::from_name(k).ok_or_else(|| {
            Error::Usage(format!(
                "unknown kind `{k}`: expected sudoku, takuzu, tectonic, numberlink or shisen"
            ))
        })
    })
    .transpose()
}

/// Parses `RxC` (as in `--box 2x3`).
pub fn parse_box(s: &str) -> Result<(usize, usize)> {
    let bad = || Error::Usage(format!("--box expects ROWSxCOLS like 2x3, got `{s}`"));
    let (r, c) = s.split_once(['x', 'X']).ok_or_else(bad)?;
    let (r, c) = (
        r.trim().parse().map_err(|_| bad())?,
        c.trim().parse().map_err(|_| bad())?,
    );
    if r == 0 || c == 0 {
        return Err(bad());
    }
    Ok((r, c))
}

/// Takuzu's rule options in words (`None`/false: the file's own rules apply).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TakuzuWords {
    /// No two rows and no two columns may be equal.
    pub distinct_lines: bool,
    /// Rows and columns may repeat.
    pub no_distinct_lines: bool,
    /// `either`, `ones` or `zeros`.
    pub odd_lines: Option<String>,
    /// Sub-grids that obey the rules on their own: `4x6x6`, `8in14`, ...
    pub regions: Option<String>,
    /// `lazy` or `eager`.
    pub distinct_encoding: Option<String>,
}

/// The Takuzu rule options (`None` where the file's own rules apply).
pub fn takuzu_options(a: &TakuzuWords) -> Result<crate::takuzu::format::ReadOptions> {
    use crate::takuzu::{DistinctEncoding, OddLines};
    Ok(crate::takuzu::format::ReadOptions {
        distinct_lines: if a.no_distinct_lines {
            Some(false)
        } else if a.distinct_lines {
            Some(true)
        } else {
            None
        },
        odd_lines: a
            .odd_lines
            .as_deref()
            .map(|s| {
                OddLines::from_name(s).ok_or_else(|| {
                    Error::Usage(format!(
                        "--odd-lines expects either, ones or zeros, got `{s}`"
                    ))
                })
            })
            .transpose()?,
        regions: a.regions.clone(),
        encoding: a
            .distinct_encoding
            .as_deref()
            .map(|s| {
                DistinctEncoding::from_name(s).ok_or_else(|| {
                    Error::Usage(format!(
                        "--distinct-encoding expects eager or lazy, got `{s}`"
                    ))
                })
            })
            .transpose()?,
        // How a block that reads both ways is read: the command line's `--read-as` sets it.
        read_as: Default::default(),
    })
}

/// Numberlink's `rules` (`None` when not given: a file's own rules apply) and `loops`.
pub fn numberlink_options(
    rules: Option<&str>,
    loops: Option<&str>,
) -> Result<(Option<Rules>, Loops)> {
    let rules = match rules {
        None => None,
        Some(r) => Some(Rules::from_name(r).ok_or_else(|| {
            Error::Usage(format!(
                "unknown --rules `{r}`: expected flow, cover or nikoli"
            ))
        })?),
    };
    let loops = match loops {
        None => Loops::default(),
        Some(l) => Loops::from_name(l).ok_or_else(|| {
            Error::Usage(format!("unknown --loops `{l}`: expected lazy or exact"))
        })?,
    };
    Ok((rules, loops))
}

/// How to read puzzles, in words, for every kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReadWords {
    /// Sudoku: the box shape `RxC`.
    pub box_shape: Option<String>,
    /// Numberlink: `flow`, `cover` or `nikoli`.
    pub rules: Option<String>,
    /// Numberlink: `lazy` or `exact`.
    pub loops: Option<String>,
    pub takuzu: TakuzuWords,
    /// Shisen-sho: lines may not leave the board.
    pub no_outline: bool,
    /// Shisen-sho: tiles fall down after a removal.
    pub gravity: bool,
    /// Shisen-sho: seasons match seasons, flowers match flowers.
    pub chinese: bool,
}

/// The reading options the words ask for.
pub fn read_options(a: &ReadWords) -> Result<ReadOptions> {
    let (rules, loops) = numberlink_options(a.rules.as_deref(), a.loops.as_deref())?;
    Ok(ReadOptions {
        box_shape: a.box_shape.as_deref().map(parse_box).transpose()?,
        rules,
        loops,
        takuzu: takuzu_options(&a.takuzu)?,
        shisen: crate::shisen::format::ReadOptions {
            no_outline: a.no_outline,
            gravity: a.gravity,
            chinese: a.chinese,
            ..Default::default()
        },
        tectonic_layout: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_become_options_or_the_command_line_s_message() {
        assert_eq!(parse_box(" 2x3").unwrap(), (2, 3));
        assert!(parse_box("2x0").is_err());
        assert_eq!(kind(Some("suguru")).unwrap(), Some(Kind::Tectonic));
        assert_eq!(kind(None).unwrap(), None);
        let e = kind(Some("kakuro")).unwrap_err().to_string();
        assert!(e.contains("unknown kind `kakuro`"), "{e}");
        let o = read_options(&ReadWords {
            box_shape: Some("2X4".into()),
            rules: Some("Nikoli".into()),
            takuzu: TakuzuWords {
                no_distinct_lines: true,
                odd_lines: Some("ones".into()),
                ..Default::default()
            },
            gravity: true,
            ..Default::default()
        })
        .unwrap();
        assert_eq!(o.box_shape, Some((2, 4)));
        assert_eq!(o.rules, Some(Rules::Nikoli));
        assert_eq!(o.takuzu.distinct_lines, Some(false));
        assert!(o.shisen.gravity && !o.shisen.chinese);
        let bad = |w: ReadWords| read_options(&w).unwrap_err().to_string();
        assert!(bad(ReadWords {
            loops: Some("eventually".into()),
            ..Default::default()
        })
        .contains("unknown --loops `eventually`"));
        let mut w = ReadWords::default();
        w.takuzu.distinct_encoding = Some("lazzy".into());
        assert!(bad(w).contains("--distinct-encoding expects eager or lazy"));
    }
}
