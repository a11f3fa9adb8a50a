//! pzprjs's `suguru` URLs (`suguru/COLS/ROWS/<borders><numbers>`): the pieces as region borders
//! and the givens as numbers, in pzprjs's encodings ([`crate::url`]).

use super::Tectonic;
use crate::error::InputError;
use crate::url::{Borders, Number, Reader, Url};

/// A puzzle from a pzprjs `suguru` URL.
pub fn from_url(url: &Url) -> Result<Tectonic, InputError> {
    let (w, h) = (url.cols, url.rows);
    let mut r = Reader::new(url);
    let regions = r.border(w, h)?.regions();
    let numbers_at = r.pos();
    let cells = r.number16(w * h)?;
    // pzprjs's cells outside the board (its `Empty` bits), left out when there are none.
    let empty_at = r.pos();
    let holes = r.binary(w * h, "empty-cell bits")?;
    r.finish("empty-cell bits")?;
    if let Some(i) = holes.iter().position(|&b| b) {
        return Err(r.error(
            empty_at,
            format!(
                "r{}c{} is marked outside the board; gridsat's Tectonic has no holes",
                i / w + 1,
                i % w + 1
            ),
        ));
    }
    let mut givens = vec![0u8; w * h];
    let mut givens_at = vec![(url.at.line, url.at.col + numbers_at); w * h];
    for (i, c) in cells.iter().enumerate() {
        let Some((n, pos)) = *c else { continue };
        givens_at[i] = (url.at.line, url.at.col + pos);
        match n {
            Number::Value(v) if (1..=255).contains(&v) => givens[i] = v as u8,
            _ => {
                return Err(r.error(
                    pos,
                    format!(
                        "r{}c{} holds no digit (pzprjs's `?` or 0, or a number above 255)",
                        i / w + 1,
                        i % w + 1
                    ),
                ))
            }
        }
    }
    let names: Vec<String> = regions.iter().map(|&k| (k + 1).to_string()).collect();
    let start = (url.at.line, url.at.col);
    super::build(
        url.at.file,
        w,
        h,
        &names,
        givens,
        None,
        &givens_at,
        &vec![start; w * h],
        start,
    )
}

/// The puzz.link URL of a puzzle with `values` as its givens (its own, or a solution's).
pub fn to_url(t: &Tectonic, values: &[u8]) -> String {
    let borders = Borders::of_regions(t.width, t.height, &t.regions);
    let cells: Vec<Option<u32>> = values
        .iter()
        .map(|&v| (v != 0).then_some(v as u32))
        .collect();
    let body = format!(
        "{}{}",
        crate::url::write_border(&borders),
        crate::url::write_number16(&cells)
    );
    crate::url::write("suguru", "", t.width, t.height, &body)
}
