//! SNAP edge lists (`.txt`, `.el`): `#` comment lines, then one `u v` pair per line; and
//! GAPBS weighted edge lists (`.wel`): the same with a third column, an integer weight, on
//! every line (`u v w`), kept as `u32`.
//!
//! Ids are 0-based and used as they are; the vertex count is the largest id plus one,
//! because SNAP's `# Nodes:` header is informal and some copies of the files lack it.
//! A third column in a `.txt`/`.el` file is refused rather than guessed at (SNAP's temporal
//! graphs put timestamps there): weighted edge lists are named `.wel`.

use std::io::BufRead;
use std::path::Path;

use super::text::{self, parse_error, Lines};
use super::ReadOptions;
use crate::error::{Error, Result};
use crate::memory::GraphSize;
use crate::graph::{EdgeList, Weights, MAX_VERTICES};

/// Reads a SNAP edge list (two columns). Directed unless `opts.undirected`; `path` only names
/// the file in errors.
pub fn read<R: BufRead>(input: R, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    read_columns::<R, false>(input, path, opts)
}

/// Reads a GAPBS weighted edge list (`.wel`: `u v w`, `w` a non-negative integer). Directed
/// unless `opts.undirected`; unweighted with `opts.ignore_weights` (the weights are then only
/// checked to be integers).
pub fn read_weighted<R: BufRead>(input: R, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    read_columns::<R, true>(input, path, opts)
}

/// `WEIGHTED` is a constant so that the two-column loop compiles without the weight's branches.
fn read_columns<R: BufRead, const WEIGHTED: bool>(input: R, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    let weighted = WEIGHTED;
    let mut lines = Lines::new(input, path);
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut weights: Option<Vec<u32>> = (weighted && !opts.ignore_weights).then(Vec::new);
    let mut max_id: Option<u32> = None;
    // The `# ... Edges: M` header's M and its line, to catch a truncated download.
    let mut declared: Option<(u64, u64)> = None;
    let form = if weighted { "three columns `u v w` (source, target, weight)" } else { "two vertex ids `u v`" };
    while let Some((number, line)) = lines.next_line()? {
        if line.first() == Some(&b'#') {
            if edges.is_empty() && declared.is_none() {
                if let Some(count) = declared_edges(line) {
                    let weight_bytes = if weights.is_some() { 4 } else { 0 };
                    // The vertex count is not known before the largest id is seen.
                    let size = GraphSize { vertices: 0, edges: count, undirected: opts.undirected, weight_bytes };
                    crate::memory::check_build(path, size, opts.memory_limit)?;
                    edges.reserve(text::capacity_hint(count));
                    if let Some(weights) = &mut weights {
                        weights.reserve(text::capacity_hint(count));
                    }
                    declared = Some((count, number));
                }
            }
            continue;
        }
        if text::is_blank(line) {
            continue;
        }
        let mut fields = text::tokens(line);
        let (u, v) = (fields.next(), fields.next());
        let w = if weighted { fields.next() } else { None };
        if fields.next().is_some() {
            let columns = text::tokens(line).count();
            let hint = if weighted { "" } else { "; a weighted edge list `u v w` is read from a file named .wel" };
            return Err(parse_error(
                path,
                number,
                format!("{form}, found {columns} columns in {}{hint}", text::show(line)),
            ));
        }
        let (Some(u), Some(v), true) = (u, v, w.is_some() || !weighted) else {
            let shown = text::show(line);
            drop(fields);
            let hint = lines.truncation_hint();
            return Err(parse_error(path, number, format!("{form} separated by whitespace, found only {shown}{hint}")));
        };
        let (u, v) = (vertex(u, path, number, line)?, vertex(v, path, number, line)?);
        if let Some(w) = w {
            match &mut weights {
                Some(weights) => weights.push(
                    text::integer_weight(w, "weight in the third column").map_err(|e| parse_error(path, number, e))?,
                ),
                None if text::parse_i64(w).is_none() => {
                    return Err(parse_error(
                        path,
                        number,
                        format!("an integer weight in the third column, found {}", text::show(w)),
                    ))
                }
                None => {}
            }
        }
        max_id = max_id.max(Some(u.max(v)));
        edges.push((u, v));
    }
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
    let num_vertices = max_id.map_or(0, |m| m as u64 + 1);
    check_ids_dense(path, num_vertices, &edges)?;
    Ok(EdgeList { num_vertices, edges, undirected: opts.undirected, id_base: 0, weights: weights.map(Weights::U32) })
}

fn vertex(token: &[u8], path: &Path, line_number: u64, line: &[u8]) -> Result<u32> {
    let id = text::parse_u64(token).ok_or_else(|| {
        parse_error(
            path,
            line_number,
            format!(
                "a vertex id (a non-negative integer), found {} ({}) in {}",
                text::show(token),
                text::not_a_count(token),
                text::show(line)
            ),
        )
    })?;
    if id >= MAX_VERTICES {
        return Err(parse_error(
            path,
            line_number,
            format!(
                "a vertex id below {MAX_VERTICES} (warpath stores vertex ids as u32), found {id} in {}",
                text::show(line)
            ),
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
