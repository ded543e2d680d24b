//! Matrix Market `coordinate` files (`.mtx`), read as the graph of the matrix's nonzero entries,
//! weighted by their values.
//!
//! Entry `i j` becomes the edge `i-1 -> j-1`. A `symmetric` file stores one triangle, so it
//! is read as undirected (both directions get the entry's value); its diagonal entries
//! become self-loops, which the builder drops.
//!
//! Values are the edge weights: `integer` as `u32`, `real` as `f32`; `pattern` files are
//! unweighted. A negative, NaN or infinite value (or one beyond the type) is refused with its
//! line. With [`ReadOptions::ignore_weights`] values are only checked for well-formedness (a
//! bad value usually means a misaligned column), whatever their sign, and the graph is
//! unweighted: that is how matrices with negative entries are read as graphs.

use std::io::BufRead;
use std::path::Path;

use super::text::{self, parse_error, Lines};
use super::ReadOptions;
use crate::error::Result;
use crate::memory::GraphSize;
use crate::graph::{EdgeList, Weights, MAX_VERTICES};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Pattern,
    Integer,
    Real,
}

impl Field {
    fn columns(self) -> usize {
        if self == Field::Pattern {
            2
        } else {
            3
        }
    }
}

const HEADER_FORM: &str = "`%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>`";

/// Reads a Matrix Market coordinate file; `path` only names the file in errors.
/// `opts.undirected` makes a `general` file undirected too; `symmetric` files always are.
pub fn read<R: BufRead>(input: R, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    let mut lines = Lines::new(input, path);
    let (field, symmetric) = match lines.next_line()? {
        Some((number, line)) => parse_header(line, path, number)?,
        None => {
            return Err(parse_error(path, 1, format!("the Matrix Market header {HEADER_FORM}, but the file is empty")))
        }
    };

    let (rows, cols, entries, size_line) = loop {
        let Some((number, line)) = lines.next_line()? else {
            return Err(parse_error(
                path,
                lines.lines_read() + 1,
                "the size line `rows columns entries` after the header and comments, but the file ends here",
            ));
        };
        if line.first() == Some(&b'%') || text::is_blank(line) {
            continue;
        }
        let sizes: Vec<Option<u64>> = text::tokens(line).map(text::parse_u64).collect();
        match sizes[..] {
            [Some(rows), Some(cols), Some(entries)] => break (rows, cols, entries, number),
            [_, _, _] => {
                let bad = text::tokens(line).find(|t| text::parse_u64(t).is_none()).unwrap_or_default();
                return Err(parse_error(
                    path,
                    number,
                    format!(
                        "the size line `rows columns entries` (three non-negative integers), found {} ({}) in {}",
                        text::show(bad),
                        text::not_a_count(bad),
                        text::show(line)
                    ),
                ));
            }
            _ => {
                return Err(parse_error(
                    path,
                    number,
                    format!(
                        "the size line `rows columns entries` (three non-negative integers), found {}",
                        text::show(line)
                    ),
                ))
            }
        }
    };
    let num_vertices = rows.max(cols);
    if num_vertices > MAX_VERTICES {
        return Err(parse_error(
            path,
            size_line,
            format!(
                "at most {MAX_VERTICES} rows and columns (warpath stores vertex ids as u32), found {rows} rows \
                 and {cols} columns"
            ),
        ));
    }
    if symmetric && rows != cols {
        return Err(parse_error(
            path,
            size_line,
            format!("a square matrix, since the header says `symmetric`, but the size line gives {rows} rows and {cols} columns"),
        ));
    }

    let size = GraphSize {
        vertices: num_vertices,
        edges: entries,
        undirected: symmetric || opts.undirected,
        weight_bytes: if field == Field::Pattern || opts.ignore_weights { 0 } else { 4 },
    };
    crate::memory::check_build(path, size, opts.memory_limit)?;
    let mut edges: Vec<(u32, u32)> = Vec::with_capacity(text::capacity_hint(entries));
    let mut values = Values::new(field, !opts.ignore_weights, entries);
    let mut found: u64 = 0;
    while let Some((number, line)) = lines.next_line()? {
        if line.first() == Some(&b'%') || text::is_blank(line) {
            continue;
        }
        if found == entries {
            return Err(parse_error(
                path,
                number,
                format!(
                    "no more entries: the size line (line {size_line}) declares {entries}, but {} is one more",
                    text::show(line)
                ),
            ));
        }
        let mut fields = text::tokens(line);
        let mut columns = [&b""[..]; 3];
        let mut count = 0;
        for token in fields.by_ref().take(3) {
            columns[count] = token;
            count += 1;
        }
        if count != field.columns() || fields.next().is_some() {
            let form = if field == Field::Pattern { "`row column`" } else { "`row column value`" };
            let shown = text::show(line);
            drop(fields);
            let hint = if count < field.columns() { lines.truncation_hint() } else { "" };
            return Err(parse_error(
                path,
                number,
                format!(
                    "an entry {form} ({} columns, as the header's field says), found {}{hint}",
                    field.columns(),
                    shown
                ),
            ));
        }
        let i = index(columns[0], rows, "row", path, number, line)?;
        let j = index(columns[1], cols, "column", path, number, line)?;
        if field != Field::Pattern {
            values.take(columns[2], path, number)?;
        }
        edges.push((i, j));
        found += 1;
    }
    if found != entries {
        return Err(parse_error(
            path,
            lines.lines_read() + 1,
            format!(
                "{entries} entries, as the size line (line {size_line}) declares, but the file ends after {found}; \
                 it may be truncated (an interrupted download or copy?)"
            ),
        ));
    }
    let weights = values.into_weights();
    Ok(EdgeList { num_vertices, edges, undirected: symmetric || opts.undirected, id_base: 1, weights })
}

/// The value column: kept as weights, or only checked for well-formedness.
enum Values {
    Pattern,
    Checked(Field),
    Integers(Vec<u32>),
    Reals(Vec<f32>),
}

impl Values {
    fn new(field: Field, keep: bool, entries: u64) -> Values {
        match field {
            Field::Pattern => Values::Pattern,
            _ if !keep => Values::Checked(field),
            Field::Integer => Values::Integers(Vec::with_capacity(text::capacity_hint(entries))),
            Field::Real => Values::Reals(Vec::with_capacity(text::capacity_hint(entries))),
        }
    }

    /// Reads the value of the entry on line `number`. Kept out of line so the entry loop of
    /// pattern files stays as lean as it was before values were kept.
    #[inline(never)]
    fn take(&mut self, token: &[u8], path: &Path, number: u64) -> Result<()> {
        const WHAT: &str = "value in the third column";
        let well_formed = match self {
            Values::Pattern => true,
            Values::Integers(weights) => {
                weights.push(text::integer_weight(token, WHAT).map_err(|e| parse_error(path, number, e))?);
                true
            }
            Values::Reals(weights) => {
                weights.push(text::real_weight(token, WHAT).map_err(|e| parse_error(path, number, e))?);
                true
            }
            Values::Checked(Field::Integer) => text::parse_i64(token).is_some(),
            Values::Checked(_) => text::is_real(token),
        };
        if !well_formed {
            let kind = if matches!(self, Values::Checked(Field::Integer)) { "an integer" } else { "a real number" };
            return Err(parse_error(
                path,
                number,
                format!("{kind} as the value in the third column, found {}", text::show(token)),
            ));
        }
        Ok(())
    }

    fn into_weights(self) -> Option<Weights> {
        match self {
            Values::Integers(weights) => Some(Weights::U32(weights)),
            Values::Reals(weights) => Some(Weights::F32(weights)),
            Values::Pattern | Values::Checked(_) => None,
        }
    }
}

fn parse_header(line: &[u8], path: &Path, number: u64) -> Result<(Field, bool)> {
    let words: Vec<String> = text::tokens(line).map(|t| String::from_utf8_lossy(t).to_ascii_lowercase()).collect();
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let bad = |what: String| Err(parse_error(path, number, what));
    match words[..] {
        ["%%matrixmarket", "matrix", format, field, symmetry] => {
            if format == "array" {
                return bad(format!(
                    "`coordinate` format, found `array`: a dense matrix is not a graph file; \
                     only sparse coordinate files are read (header form {HEADER_FORM})"
                ));
            }
            if format != "coordinate" {
                return bad(format!("`coordinate` as the format in the header, found `{format}`"));
            }
            let field = match field {
                "pattern" => Field::Pattern,
                "integer" => Field::Integer,
                "real" => Field::Real,
                other => {
                    return bad(format!(
                        "the field `pattern`, `integer` or `real` in the header, found `{other}` (not supported)"
                    ))
                }
            };
            let symmetric = match symmetry {
                "general" => false,
                "symmetric" => true,
                other => {
                    return bad(format!(
                        "the symmetry `general` or `symmetric` in the header, found `{other}` (not supported)"
                    ))
                }
            };
            Ok((field, symmetric))
        }
        _ => bad(format!("the Matrix Market header {HEADER_FORM}, found {}", text::show(line))),
    }
}

/// A 1-based row or column index, checked against its bound and made 0-based.
fn index(token: &[u8], bound: u64, what: &str, path: &Path, number: u64, line: &[u8]) -> Result<u32> {
    match text::parse_u64(token) {
        Some(id) if (1..=bound).contains(&id) => Ok((id - 1) as u32),
        Some(id) => Err(parse_error(
            path,
            number,
            format!(
                "a {what} index between 1 and {bound} (Matrix Market counts from 1), found {id} in {}",
                text::show(line)
            ),
        )),
        None => Err(parse_error(
            path,
            number,
            format!(
                "a {what} index (a positive integer), found {} ({}) in {}",
                text::show(token),
                text::not_a_count(token),
                text::show(line)
            ),
        )),
    }
}
