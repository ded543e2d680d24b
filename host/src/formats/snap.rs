//! SNAP edge lists (`.txt`, `.el`): `#` comment lines, then one `u v` pair per line; and
//! GAPBS weighted edge lists (`.wel`): the same with a third column, an integer weight, on
//! every line (`u v w`), kept as `u32`.
//!
//! Ids are 0-based and used as they are; the vertex count is the largest id plus one,
//! because SNAP's `# Nodes:` header is informal and some copies of the files lack it.
//! A third column in a `.txt`/`.el` file is refused rather than guessed at (SNAP's temporal
//! graphs put timestamps there): weighted edge lists are named `.wel`.

use std::io::Read;
use std::path::Path;

use super::chunked::{self, Entry, LineParser, LineProblem};
use super::text::{self, Column, Lines};
use super::values::Described;
use super::ReadOptions;
use crate::error::{Error, Result};
use crate::graph::{EdgeList, WeightKind, WeightValues, Weights, MAX_VERTICES};
use crate::memory::GraphSize;

/// Reads a SNAP edge list (two columns). Directed unless `opts.undirected`; `path` only names
/// the file in errors.
pub fn read(input: impl Read + Send + 'static, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    let lines = EdgeLines::<text::CheckInteger> { column: None };
    Ok(read_columns(Box::new(input), path, opts, &lines)?.0)
}

/// Reads a GAPBS weighted edge list (`.wel`: `u v w`, `w` a non-negative integer). Directed
/// unless `opts.undirected`; unweighted with `opts.ignore_weights` (the weights are then only
/// checked to be integers).
pub fn read_weighted(input: impl Read + Send + 'static, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    Ok(read_weighted_described(input, path, opts)?.0)
}

/// [`read_weighted`], and with [`ReadOptions::describe_weights`] what the weights were where
/// some are no edge weight (the list then has no weights).
pub(crate) fn read_weighted_described(
    input: impl Read + Send + 'static,
    path: &Path,
    opts: &ReadOptions,
) -> Result<(EdgeList, Option<WeightValues>)> {
    if opts.ignore_weights {
        let lines = EdgeLines { column: Some(text::CheckInteger("an integer weight in the third column")) };
        return Ok((read_columns(Box::new(input), path, opts, &lines)?.0, None));
    }
    let keep = text::KeepInteger("weight in the third column");
    let lines = EdgeLines { column: Some(Described::new(keep, WeightKind::U32, opts.describe_weights)) };
    let (list, weights) = read_columns(Box::new(input), path, opts, &lines)?;
    let (weights, values) = lines.column.unwrap().kept(weights, Weights::U32);
    Ok((EdgeList { weights, ..list }, values))
}

/// The body lines of an edge list: `u v`, or `u v w` with a `column` for `w`.
struct EdgeLines<C> {
    column: Option<C>,
}

impl<C: Column> EdgeLines<C> {
    fn form(&self) -> &'static str {
        if self.column.is_some() {
            "three columns `u v w` (source, target, weight)"
        } else {
            "two vertex ids `u v`"
        }
    }
}

impl<C: Column> LineParser for EdgeLines<C> {
    type Weight = C::Value;

    #[inline]
    fn fast(&self, text: &[u8]) -> Option<(Entry<C::Value>, usize)> {
        let ((u, v), weight, pos) = chunked::fast::pair_line(text, self.column.as_ref())?;
        (u < MAX_VERTICES && v < MAX_VERTICES).then_some((((u as u32, v as u32), weight), pos))
    }

    fn line(&self, line: &[u8]) -> std::result::Result<Option<Entry<C::Value>>, LineProblem> {
        if line.first() == Some(&b'#') || text::is_blank(line) {
            return Ok(None);
        }
        let weighted = self.column.is_some();
        let mut fields = text::tokens(line);
        let (u, v) = (fields.next(), fields.next());
        let w = if weighted { fields.next() } else { None };
        if fields.next().is_some() {
            let columns = text::tokens(line).count();
            let hint = if weighted { "" } else { "; a weighted edge list `u v w` is read from a file named .wel" };
            return Err(LineProblem::other(format!(
                "{}, found {columns} columns in {}{hint}",
                self.form(),
                text::show(line)
            )));
        }
        let (Some(u), Some(v), true) = (u, v, w.is_some() || !weighted) else {
            return Err(LineProblem {
                expected: format!("{} separated by whitespace, found only {}", self.form(), text::show(line)),
                entry: false,
                short: true,
            });
        };
        let (u, v) = (vertex(u, line).map_err(LineProblem::other)?, vertex(v, line).map_err(LineProblem::other)?);
        let weight = match (w, &self.column) {
            (Some(w), Some(column)) => column.value(w).map_err(LineProblem::other)?,
            _ => C::Value::default(),
        };
        Ok(Some(((u, v), weight)))
    }
}

/// The edge list (without weights) and the values of the third column, if any.
fn read_columns<C: Column>(
    input: Box<dyn Read + Send>,
    path: &Path,
    opts: &ReadOptions,
    parser: &EdgeLines<C>,
) -> Result<(EdgeList, Vec<C::Value>)> {
    let mut lines = Lines::new(input, path);
    // The `# ... Edges: M` header's M and its line, to catch a truncated download: only the
    // comments before the first edge count.
    let mut declared: Option<(u64, u64)> = None;
    while let Some((number, line)) = lines.peek_line()? {
        if line.first() == Some(&b'#') {
            if declared.is_none() {
                if let Some(count) = declared_edges(line) {
                    let weight_bytes = std::mem::size_of::<C::Value>() as u64;
                    // The vertex count is not known before the largest id is seen.
                    let size = GraphSize { vertices: 0, edges: count, undirected: opts.undirected, weight_bytes };
                    crate::memory::check_build(path, size, opts.memory_limit)?;
                    declared = Some((count, number));
                }
            }
        } else if !text::is_blank(line) {
            break;
        }
        lines.advance();
    }
    let reserve = text::capacity_hint(declared.map_or(0, |(count, _)| count));
    let body = chunked::parse_body(lines, parser, None, reserve)?;
    let edges = body.edges;
    if let Some((count, header_line)) = declared.filter(|&(count, _)| count != edges.len() as u64) {
        if !opts.allow_count_mismatch {
            return Err(Error::Format {
                path: path.to_path_buf(),
                problem: format!(
                    "its header (line {header_line}) says {count} edges, but the file has {} edge lines; it may be \
                     truncated (an interrupted download or copy?). To read it as it is, give --allow-count-mismatch",
                    edges.len()
                ),
            });
        }
    }
    let num_vertices = body.largest_id.map_or(0, |m| m as u64 + 1);
    check_ids_dense(path, num_vertices, &edges)?;
    Ok((EdgeList { num_vertices, edges, undirected: opts.undirected, id_base: 0, weights: None }, body.weights))
}

fn vertex(token: &[u8], line: &[u8]) -> std::result::Result<u32, String> {
    let id = text::parse_u64(token).ok_or_else(|| {
        format!(
            "a vertex id (a non-negative integer), found {} ({}) in {}",
            text::show(token),
            text::not_a_count(token),
            text::show(line)
        )
    })?;
    if id >= MAX_VERTICES {
        return Err(format!(
            "a vertex id below {MAX_VERTICES} (warpath stores vertex ids as u32), found {id} in {}",
            text::show(line)
        ));
    }
    Ok(id as u32)
}

/// An edge list's vertices are the ids `0..=largest`, every one of them a vertex. A file
/// whose ids are few but large (one id near 2^32) would allocate for billions of vertices
/// that no edge names: it is refused with advice instead. Only ranges beyond a few million
/// vertices with at most 1/64 of them usable by the edges are refused, so the distinct ids
/// are counted only then.
fn check_ids_dense(path: &Path, num_vertices: u64, edges: &[(u32, u32)]) -> Result<()> {
    const SMALL_RANGE: u64 = 1 << 24;
    const SPARSEST: u64 = 64;
    let most_distinct = 2 * edges.len() as u64;
    if num_vertices <= SMALL_RANGE || num_vertices / SPARSEST <= most_distinct {
        return Ok(());
    }
    let mut ids: Vec<u32> = edges.iter().flat_map(|&(u, v)| [u, v]).collect();
    ids.sort_unstable();
    ids.dedup();
    Err(Error::Format {
        path: path.to_path_buf(),
        problem: format!(
            "ids up to {} but only {} distinct: every id below the largest would be a vertex, {num_vertices} \
             of them. Renumber the file's ids densely from 0",
            num_vertices - 1,
            ids.len()
        ),
    })
}

/// The `M` of a `# Nodes: N Edges: M` comment, used only to size the edge vector.
fn declared_edges(comment: &[u8]) -> Option<u64> {
    let mut fields = text::tokens(comment);
    while let Some(field) = fields.next() {
        if field == b"Edges:" {
            return fields.next().and_then(text::parse_u64);
        }
    }
    None
}
