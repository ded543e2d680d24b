//! SNAP edge lists (`.txt`, `.el`): `#` comment lines, then one `u v` pair per line.
//!
//! Ids are 0-based and used as they are; the vertex count is the largest id plus one,
//! because SNAP's `# Nodes:` header is informal and some copies of the files lack it.

use std::io::BufRead;
use std::path::Path;

use super::text::{self, parse_error, Lines};
use super::ReadOptions;
use crate::error::{Error, Result};
use crate::graph::{EdgeList, MAX_VERTICES};

/// Reads a SNAP edge list. Directed unless `opts.undirected`; `path` only names the file in errors.
pub fn read<R: BufRead>(input: R, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    let mut lines = Lines::new(input, path);
    let mut edges: Vec<(u32, u32)> = Vec::new();
    let mut max_id: Option<u32> = None;
    while let Some((number, line)) = lines.next_line()? {
        if line.first() == Some(&b'#') {
            if edges.is_empty() {
                if let Some(declared) = declared_edges(line) {
                    edges.reserve(text::capacity_hint(declared));
                }
            }
            continue;
        }
        if text::is_blank(line) {
            continue;
        }
        let mut fields = text::tokens(line);
        let (u, v) = match (fields.next(), fields.next(), fields.next()) {
            (Some(u), Some(v), None) => (vertex(u, path, number, line)?, vertex(v, path, number, line)?),
            (_, _, Some(_)) => {
                return Err(parse_error(
                    path,
                    number,
                    format!(
                        "two columns `u v` (source and target vertex), found {} columns in {}; \
                         weighted edge lists are not supported",
                        text::tokens(line).count(),
                        text::show(line)
                    ),
                ))
            }
            _ => {
                return Err(parse_error(
                    path,
                    number,
                    format!("two vertex ids `u v` separated by whitespace, found only {}", text::show(line)),
                ))
            }
        };
        max_id = max_id.max(Some(u.max(v)));
        edges.push((u, v));
    }
    let num_vertices = max_id.map_or(0, |m| m as u64 + 1);
    Ok(EdgeList { num_vertices, edges, undirected: opts.undirected, id_base: 0 })
}

fn vertex(token: &[u8], path: &Path, line_number: u64, line: &[u8]) -> Result<u32> {
    let id = text::parse_u64(token).ok_or_else(|| {
        parse_error(
            path,
            line_number,
            format!("a vertex id (a non-negative integer), found {} in {}", text::show(token), text::show(line)),
        )
    })?;
    if id >= MAX_VERTICES {
        return Err(Error::TooManyVertices { vertices: id.saturating_add(1) });
    }
    Ok(id as u32)
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
