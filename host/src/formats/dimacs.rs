//! DIMACS shortest-path graphs (`.gr`): `c` comments, one `p sp N M` problem line, then
//! `M` arc lines `a u v w` with 1-based ids.
//!
//! Weights are kept as `u32` (non-negative; a negative or larger weight is refused with its
//! line). With [`ReadOptions::ignore_weights`] they are only checked to be integers, so a
//! malformed file is still caught, and the graph is unweighted.

use std::io::BufRead;
use std::path::Path;

use super::text::{self, parse_error, Lines};
use super::ReadOptions;
use crate::error::{Error, Result};
use crate::memory::GraphSize;
use crate::graph::{EdgeList, Weights, MAX_VERTICES};

/// Reads a DIMACS `.gr` file. Directed unless `opts.undirected`; `path` only names the file in errors.
pub fn read<R: BufRead>(input: R, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    let mut lines = Lines::new(input, path);
    // (vertices, arcs, line of the `p` line)
    let mut problem: Option<(u64, u64, u64)> = None;
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut weights: Option<Vec<u32>> = (!opts.ignore_weights).then(Vec::new);
    while let Some((number, line)) = lines.next_line()? {
        let mut fields = text::tokens(line);
        let Some(kind) = fields.next() else { continue };
        match kind {
            b"c" => continue,
            b"p" => {
                if let Some((_, _, first)) = problem {
                    return Err(parse_error(
                        path,
                        number,
                        format!("only one `p` line, but there is already one on line {first}"),
                    ));
                }
                let rest: Vec<&[u8]> = fields.collect();
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
                edges.reserve(text::capacity_hint(m));
                if let Some(weights) = &mut weights {
                    weights.reserve(text::capacity_hint(m));
                }
                problem = Some((n, m, number));
            }
            b"a" => {
                let Some((n, m, p_line)) = problem else {
                    return Err(parse_error(
                        path,
                        number,
                        "the problem line `p sp VERTICES ARCS` before the first arc",
                    ));
                };
                let (Some(u), Some(v), Some(w), None) = (fields.next(), fields.next(), fields.next(), fields.next())
                else {
                    let short = text::tokens(line).count() < 4;
                    let shown = text::show(line);
                    drop(fields);
                    let hint = if short { lines.truncation_hint() } else { "" };
                    return Err(parse_error(
                        path,
                        number,
                        format!("an arc line `a u v weight` (four columns), found {shown}{hint}"),
                    ));
                };
                if edges.len() as u64 == m {
                    return Err(parse_error(
                        path,
                        number,
                        format!(
                            "no more arcs: the `p` line (line {p_line}) declares {m}, but {} is one more",
                            text::show(line)
                        ),
                    ));
                }
                let u = vertex(u, n, path, number, line)?;
                let v = vertex(v, n, path, number, line)?;
                match &mut weights {
                    Some(weights) => weights.push(
                        text::integer_weight(w, "arc weight in the fourth column")
                            .map_err(|e| parse_error(path, number, e))?,
                    ),
                    None if text::parse_i64(w).is_none() => {
                        return Err(parse_error(
                            path,
                            number,
                            format!("an integer arc weight in the fourth column, found {}", text::show(w)),
                        ))
                    }
                    None => {}
                }
                edges.push((u, v));
            }
            _ => {
                return Err(parse_error(
                    path,
                    number,
                    format!(
                        "a comment `c ...`, the problem line `p sp N M` or an arc `a u v w`, found {}",
                        text::show(line)
                    ),
                ))
            }
        }
    }
    let Some((n, m, p_line)) = problem else {
        return Err(parse_error(
            path,
            lines.lines_read() + 1,
            "the problem line `p sp VERTICES ARCS`, but the file ends without one; is this a DIMACS .gr file?",
        ));
    };
    if edges.len() as u64 != m {
        return Err(parse_error(
            path,
            lines.lines_read() + 1,
            format!(
                "{m} arcs, as the `p` line (line {p_line}) declares, but the file ends after {}; \
                 it may be truncated (an interrupted download or copy?)",
                edges.len()
            ),
        ));
    }
    Ok(EdgeList { num_vertices: n, edges, undirected: opts.undirected, id_base: 1, weights: weights.map(Weights::U32) })
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

fn vertex(token: &[u8], n: u64, path: &Path, number: u64, line: &[u8]) -> Result<u32> {
    match text::parse_u64(token) {
        Some(id) if (1..=n).contains(&id) => Ok((id - 1) as u32),
        Some(id) => Err(parse_error(
            path,
            number,
            format!("a vertex id between 1 and {n} (from the `p` line), found {id} in {}", text::show(line)),
        )),
        None => Err(parse_error(
            path,
            number,
            format!(
                "a vertex id (a positive integer), found {} ({}) in {}",
                text::show(token),
                text::not_a_count(token),
                text::show(line)
            ),
        )),
    }
}
