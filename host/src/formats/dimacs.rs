//! DIMACS shortest-path graphs (`.gr`): `c` comments, one `p sp N M` problem line, then
//! `M` arc lines `a u v w` with 1-based ids.
//!
//! Weights are kept as `u32` (non-negative; a negative or larger weight is refused with its
//! line). With [`ReadOptions::ignore_weights`] they are only checked to be integers, so a
//! malformed file is still caught, and the graph is unweighted.

use std::io::Read;
use std::path::Path;

use super::chunked::{self, BodyEnd, Entry, LineParser, LineProblem};
use super::chunked::Lines;
use super::text::{self, parse_error, Column};
use super::values::Described;
use super::ReadOptions;
use crate::error::{Error, Result};
use crate::graph::{EdgeList, WeightKind, WeightValues, Weights, MAX_VERTICES};
use crate::memory::GraphSize;

/// Reads a DIMACS `.gr` file. Directed unless `opts.undirected`; `path` only names the file in errors.
pub fn read(input: impl Read + Send + 'static, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    Ok(read_described(input, path, opts)?.0)
}

/// [`read`], and with [`ReadOptions::describe_weights`] what the arc weights were where some
/// are no edge weight (the list then has no weights).
pub(crate) fn read_described(
    input: impl Read + Send + 'static,
    path: &Path,
    opts: &ReadOptions,
) -> Result<(EdgeList, Option<WeightValues>)> {
    let mut lines = Lines::new(Box::new(input), path);
    let problem = loop {
        let Some((number, line)) = lines.next_line()? else {
            return Err(parse_error(
                path,
                lines.lines_read() + 1,
                "the problem line `p sp VERTICES ARCS`, but the file ends without one; is this a DIMACS .gr file?",
            ));
        };
        let mut fields = text::tokens(line);
        match fields.next() {
            None | Some(b"c") => continue,
            Some(b"p") => break problem_line(fields.collect(), path, number, line, opts)?,
            Some(b"a") => {
                return Err(parse_error(path, number, "the problem line `p sp VERTICES ARCS` before the first arc"))
            }
            Some(_) => return Err(parse_error(path, number, other_line(line))),
        }
    };
    let n = problem.0;
    let (edges, (weights, values)) = if opts.ignore_weights {
        let arcs = Arcs { n, problem, column: text::CheckInteger("an integer arc weight in the fourth column") };
        (read_arcs(lines, path, &arcs, opts)?.0, (None, None))
    } else {
        let keep = text::KeepInteger("arc weight in the fourth column");
        let arcs = Arcs { n, problem, column: Described::new(keep, WeightKind::U32, opts.describe_weights) };
        let (edges, weights) = read_arcs(lines, path, &arcs, opts)?;
        (edges, arcs.column.kept(weights, Weights::U32))
    };
    Ok((EdgeList { num_vertices: n, edges, undirected: opts.undirected, id_base: 1, weights }, values))
}

/// The counts of the `p sp N M` line (`rest` are its fields after `p`), checked and passed by
/// the memory guard: `(vertices, arcs, line)`.
fn problem_line(
    rest: Vec<&[u8]>,
    path: &Path,
    number: u64,
    line: &[u8],
    opts: &ReadOptions,
) -> Result<(u64, u64, u64)> {
    let (n, m) = match rest[..] {
        [b"sp", n, m] => match (text::parse_u64(n), text::parse_u64(m)) {
            (Some(n), Some(m)) => (n, m),
            (None, _) | (_, None) => {
                let bad = if text::parse_u64(n).is_none() { n } else { m };
                return Err(parse_error(
                    path,
                    number,
                    format!(
                        "the problem line `p sp VERTICES ARCS` with two counts, found {} ({}) in {}",
                        text::show(bad),
                        text::not_a_count(bad),
                        text::show(line)
                    ),
                ));
            }
        },
        _ => return Err(problem_line_error(path, number, line)),
    };
    if n > MAX_VERTICES {
        return Err(parse_error(
            path,
            number,
            format!("at most {MAX_VERTICES} vertices (warpath stores vertex ids as u32), found {n}"),
        ));
    }
    let weight_bytes = if opts.ignore_weights { 0 } else { 4 };
    let size = GraphSize { vertices: n, edges: m, undirected: opts.undirected, weight_bytes };
    crate::memory::check_build(path, size, opts.memory_limit)?;
    Ok((n, m, number))
}

/// What a line that is neither comment, problem line nor arc is told.
fn other_line(line: &[u8]) -> String {
    format!("a comment `c ...`, the problem line `p sp N M` or an arc `a u v w`, found {}", text::show(line))
}

/// The body lines after the problem line: arcs `a u v w`, with a `column` for `w`.
struct Arcs<C> {
    n: u64,
    /// The problem line's `(vertices, arcs, line)`.
    problem: (u64, u64, u64),
    column: C,
}

impl<C: Column> LineParser for Arcs<C> {
    type Weight = C::Value;

    #[inline]
    fn fast(&self, text: &[u8]) -> Option<(Entry<C::Value>, usize)> {
        use chunked::fast;
        if text.first() != Some(&b'a') {
            return None;
        }
        let mut pos = 1;
        fast::gap(text, &mut pos)?;
        let u = fast::digits(text, &mut pos)?;
        fast::gap(text, &mut pos)?;
        let v = fast::digits(text, &mut pos)?;
        fast::gap(text, &mut pos)?;
        let weight = self.column.value(fast::token(text, &mut pos)?).ok()?;
        fast::line_end(text, &mut pos)?;
        let inside = (1..=self.n).contains(&u) && (1..=self.n).contains(&v);
        inside.then_some(((((u - 1) as u32, (v - 1) as u32), weight), pos))
    }

    fn line(&self, line: &[u8]) -> std::result::Result<Option<Entry<C::Value>>, LineProblem> {
        let mut fields = text::tokens(line);
        match fields.next() {
            None | Some(b"c") => Ok(None),
            Some(b"p") => Err(LineProblem::other(format!(
                "only one `p` line, but there is already one on line {}",
                self.problem.2
            ))),
            Some(b"a") => {
                let (Some(u), Some(v), Some(w), None) = (fields.next(), fields.next(), fields.next(), fields.next())
                else {
                    return Err(LineProblem {
                        expected: format!("an arc line `a u v weight` (four columns), found {}", text::show(line)),
                        entry: false,
                        short: text::tokens(line).count() < 4,
                    });
                };
                let u = vertex(u, self.n, line).map_err(LineProblem::entry)?;
                let v = vertex(v, self.n, line).map_err(LineProblem::entry)?;
                let weight = self.column.value(w).map_err(LineProblem::entry)?;
                Ok(Some(((u, v), weight)))
            }
            Some(_) => Err(LineProblem::other(other_line(line))),
        }
    }
}

/// The arcs of the body, checked against the problem line's count.
fn read_arcs<C: Column>(
    lines: Lines<'_>,
    path: &Path,
    arcs: &Arcs<C>,
    opts: &ReadOptions,
) -> Result<(Vec<(u32, u32)>, Vec<C::Value>)> {
    let (n, m, p_line) = arcs.problem;
    let growth = chunked::Growth::new(opts, opts.undirected, Some(n));
    let body = chunked::parse_body(lines, arcs, Some(m), text::capacity_hint(m), growth)?;
    let found = body.entries;
    match body.end {
        BodyEnd::OneMore { line, shown } => Err(parse_error(
            path,
            line,
            format!("no more arcs: the `p` line (line {p_line}) declares {m}, but {shown} is one more"),
        )),
        BodyEnd::Complete { lines } if found != m => Err(parse_error(
            path,
            lines + 1,
            format!(
                "{m} arcs, as the `p` line (line {p_line}) declares, but the file ends after {found}; \
                 it may be truncated (an interrupted download or copy?)"
            ),
        )),
        BodyEnd::Complete { .. } => Ok((body.edges, body.weights)),
    }
}

fn problem_line_error(path: &Path, number: u64, line: &[u8]) -> Error {
    parse_error(
        path,
        number,
        format!(
            "the problem line `p sp VERTICES ARCS` (a shortest-path problem with two counts), found {}",
            text::show(line)
        ),
    )
}

fn vertex(token: &[u8], n: u64, line: &[u8]) -> std::result::Result<u32, String> {
    match text::parse_u64(token) {
        Some(id) if (1..=n).contains(&id) => Ok((id - 1) as u32),
        Some(id) => {
            Err(format!("a vertex id between 1 and {n} (from the `p` line), found {id} in {}", text::show(line)))
        }
        None => Err(format!(
            "a vertex id (a positive integer), found {} ({}) in {}",
            text::show(token),
            text::not_a_count(token),
            text::show(line)
        )),
    }
}
