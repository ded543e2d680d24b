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
//! unweighted: that is how matrices with negative entries are read as graphs. With
//! [`ReadOptions::describe_weights`] they are read too, and their range said (`info`).

use std::io::Read;
use std::path::Path;

use super::chunked::{self, BodyEnd, Entry, LineParser, LineProblem};
use super::chunked::Lines;
use super::text::{self, parse_error, Column};
use super::values::Described;
use super::ReadOptions;
use crate::error::Result;
use crate::memory::GraphSize;
use crate::graph::{EdgeList, WeightKind, WeightValues, Weights, MAX_VERTICES};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    Pattern,
    Integer,
    Real,
}

const HEADER_FORM: &str = "`%%MatrixMarket matrix coordinate <pattern|integer|real> <general|symmetric>`";

/// Reads a Matrix Market coordinate file; `path` only names the file in errors.
/// `opts.undirected` makes a `general` file undirected too; `symmetric` files always are.
pub fn read(input: impl Read + Send + 'static, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    Ok(read_described(input, path, opts)?.0)
}

/// [`read`], and with [`ReadOptions::describe_weights`] what the values were where some are no
/// edge weight (the list then has no weights).
pub(crate) fn read_described(
    input: impl Read + Send + 'static,
    path: &Path,
    opts: &ReadOptions,
) -> Result<(EdgeList, Option<WeightValues>)> {
    let mut lines = Lines::new(Box::new(input), path);
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
    let declared = Declared { entries, size_line, growth: (size.undirected, num_vertices), opts };
    let (edges, weights) = match (field, opts.ignore_weights) {
        (Field::Pattern, _) => (
            read_entries(lines, path, &Entries::<text::CheckInteger> { rows, cols, column: None }, declared)?.0,
            (None, None),
        ),
        (Field::Integer, true) => {
            let column = text::CheckInteger("an integer as the value in the third column");
            (read_entries(lines, path, &Entries { rows, cols, column: Some(column) }, declared)?.0, (None, None))
        }
        (Field::Real, true) => {
            let column = text::CheckReal("a real number as the value in the third column");
            (read_entries(lines, path, &Entries { rows, cols, column: Some(column) }, declared)?.0, (None, None))
        }
        (Field::Integer, false) => {
            let column = Described::new(text::KeepInteger(VALUE), WeightKind::U32, opts.describe_weights);
            let parser = Entries { rows, cols, column: Some(column) };
            let (edges, weights) = read_entries(lines, path, &parser, declared)?;
            (edges, parser.column.unwrap().kept(weights, Weights::U32))
        }
        (Field::Real, false) => {
            let column = Described::new(text::KeepReal(VALUE), WeightKind::F32, opts.describe_weights);
            let parser = Entries { rows, cols, column: Some(column) };
            let (edges, weights) = read_entries(lines, path, &parser, declared)?;
            (edges, parser.column.unwrap().kept(weights, Weights::F32))
        }
    };
    let (weights, values) = weights;
    Ok((EdgeList { num_vertices, edges, undirected: symmetric || opts.undirected, id_base: 1, weights }, values))
}

/// What the value column is called in errors about it.
const VALUE: &str = "value in the third column";

/// The entry count of the size line, and where it is; whether the graph is undirected and its
/// vertex count, and the options, for the list's [`chunked::Growth`].
#[derive(Clone, Copy)]
struct Declared<'o> {
    entries: u64,
    size_line: u64,
    growth: (bool, u64),
    opts: &'o ReadOptions,
}

/// The body lines: `row column`, or `row column value` with a `column` for the value.
struct Entries<C> {
    rows: u64,
    cols: u64,
    column: Option<C>,
}

impl<C: Column> LineParser for Entries<C> {
    type Weight = C::Value;

    #[inline]
    fn fast(&self, text: &[u8]) -> Option<(Entry<C::Value>, usize)> {
        let ((i, j), value, pos) = chunked::fast::pair_line(text, self.column.as_ref())?;
        let inside = (1..=self.rows).contains(&i) && (1..=self.cols).contains(&j);
        inside.then_some(((((i - 1) as u32, (j - 1) as u32), value), pos))
    }

    fn line(&self, line: &[u8]) -> std::result::Result<Option<Entry<C::Value>>, LineProblem> {
        if line.first() == Some(&b'%') || text::is_blank(line) {
            return Ok(None);
        }
        let wanted = if self.column.is_some() { 3 } else { 2 };
        let mut fields = text::tokens(line);
        let mut columns = [&b""[..]; 3];
        let mut count = 0;
        for token in fields.by_ref().take(3) {
            columns[count] = token;
            count += 1;
        }
        if count != wanted || fields.next().is_some() {
            let form = if wanted == 2 { "`row column`" } else { "`row column value`" };
            return Err(LineProblem {
                expected: format!(
                    "an entry {form} ({wanted} columns, as the header's field says), found {}",
                    text::show(line)
                ),
                entry: true,
                short: count < wanted,
            });
        }
        let i = index(columns[0], self.rows, "row", line).map_err(LineProblem::entry)?;
        let j = index(columns[1], self.cols, "column", line).map_err(LineProblem::entry)?;
        let value = match &self.column {
            Some(column) => column.value(columns[2]).map_err(LineProblem::entry)?,
            None => C::Value::default(),
        };
        Ok(Some(((i, j), value)))
    }
}

/// The entries of the body, checked against the size line's count.
fn read_entries<C: Column>(
    lines: Lines<'_>,
    path: &Path,
    parser: &Entries<C>,
    declared: Declared<'_>,
) -> Result<(Vec<(u32, u32)>, Vec<C::Value>)> {
    let Declared { entries, size_line, growth: (undirected, vertices), opts } = declared;
    let growth = chunked::Growth::new(opts, undirected, Some(vertices));
    let body = chunked::parse_body(lines, parser, Some(entries), text::capacity_hint(entries), growth)?;
    let found = body.entries;
    match body.end {
        BodyEnd::OneMore { line, shown } => Err(parse_error(
            path,
            line,
            format!("no more entries: the size line (line {size_line}) declares {entries}, but {shown} is one more"),
        )),
        BodyEnd::Complete { lines } if found != entries => Err(parse_error(
            path,
            lines + 1,
            format!(
                "{entries} entries, as the size line (line {size_line}) declares, but the file ends after {found}; \
                 it may be truncated (an interrupted download or copy?)"
            ),
        )),
        BodyEnd::Complete { .. } => Ok((body.edges, body.weights)),
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
fn index(token: &[u8], bound: u64, what: &str, line: &[u8]) -> std::result::Result<u32, String> {
    match text::parse_u64(token) {
        Some(id) if (1..=bound).contains(&id) => Ok((id - 1) as u32),
        Some(id) => Err(format!(
            "a {what} index between 1 and {bound} (Matrix Market counts from 1), found {id} in {}",
            text::show(line)
        )),
        None => Err(format!(
            "a {what} index (a positive integer), found {} ({}) in {}",
            text::show(token),
            text::not_a_count(token),
            text::show(line)
        )),
    }
}
