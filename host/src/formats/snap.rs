//! SNAP edge lists (`.txt`, `.el`): `#` comment lines, then one `u v` pair per line; and
//! GAPBS weighted edge lists (`.wel`): the same with a third column, an integer weight, on
//! every line (`u v w`), kept as `u32`.
//!
//! Ids are 0-based and used as they are; the vertex count is the largest id plus one,
//! because SNAP's `# Nodes:` header is informal and some copies of the files lack it. A
//! leading comment `# warpath vertex ids: B to L` (B 0 or 1), which warpath writes for a graph
//! numbered from 1 (a DIMACS or Matrix Market file converted), says instead that the vertices
//! are the ids B to L: a 1-based graph reads back with its ids and its vertex count.
//! A third column in a `.txt`/`.el` file is refused rather than guessed at (SNAP's temporal
//! graphs put timestamps there): weighted edge lists are named `.wel`.

use std::io::Read;
use std::path::Path;

use super::chunked::{self, Entry, LineParser, LineProblem};
use super::chunked::Lines;
use super::text::{self, Column};
use super::values::Described;
use super::ReadOptions;
use crate::error::{Error, Result, COUNT_MISMATCH_RULE};
use crate::graph::{EdgeList, WeightKind, WeightValues, Weights, MAX_VERTICES};
use crate::memory::GraphSize;

/// Reads a SNAP edge list (two columns). Directed unless `opts.undirected`; `path` only names
/// the file in errors.
pub fn read(input: impl Read + Send + 'static, path: &Path, opts: &ReadOptions) -> Result<EdgeList> {
    Ok(read_columns::<text::CheckInteger>(Box::new(input), path, opts, None)?.0)
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
        let column = text::CheckInteger("an integer weight in the third column");
        return Ok((read_columns(Box::new(input), path, opts, Some(column))?.0, None));
    }
    let keep = text::KeepInteger("weight in the third column");
    let column = Described::new(keep, WeightKind::U32, opts.describe_weights);
    let (list, weights, column) = read_columns(Box::new(input), path, opts, Some(column))?;
    let (weights, values) = column.expect("given").kept(weights, Weights::U32);
    Ok((EdgeList { weights, ..list }, values))
}

/// The body lines of an edge list: `u v`, or `u v w` with a `column` for `w`; ids in the
/// range a header declared, if any.
struct EdgeLines<C> {
    column: Option<C>,
    ids: Option<IdRange>,
}

/// The vertex ids a `# warpath vertex ids: B to L` comment declares: B (0 or 1) to L.
#[derive(Clone, Copy)]
struct IdRange {
    base: u64,
    last: u64,
    /// The comment's line, for errors.
    line: u64,
}

/// What warpath writes before the edges of a graph not numbered from 0
/// ([`super::write_edge_list`]), and reads back: the words before the two ids.
pub(crate) const ID_RANGE_WORDS: [&str; 4] = ["#", "warpath", "vertex", "ids:"];

impl IdRange {
    /// The vertex count.
    fn vertices(&self) -> u64 {
        self.last + 1 - self.base
    }

    /// The 0-based id of file id `id`, if it is in the range.
    #[inline]
    fn internal(&self, id: u64) -> Option<u32> {
        (self.base..=self.last).contains(&id).then(|| (id - self.base) as u32)
    }
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
        let (u, v) = match &self.ids {
            None => (u < MAX_VERTICES && v < MAX_VERTICES).then_some((u as u32, v as u32))?,
            Some(ids) => (ids.internal(u)?, ids.internal(v)?),
        };
        Some((((u, v), weight), pos))
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
        let vertex = |token| vertex(token, line, self.ids.as_ref()).map_err(LineProblem::other);
        let (u, v) = (vertex(u)?, vertex(v)?);
        let weight = match (w, &self.column) {
            (Some(w), Some(column)) => column.value(w).map_err(LineProblem::other)?,
            _ => C::Value::default(),
        };
        Ok(Some(((u, v), weight)))
    }
}

/// The edge list (without weights), the values of the third column, if any, and the column
/// (which a described column's caller asks what it saw).
fn read_columns<C: Column>(
    input: Box<dyn Read + Send>,
    path: &Path,
    opts: &ReadOptions,
    column: Option<C>,
) -> Result<(EdgeList, Vec<C::Value>, Option<C>)> {
    let mut lines = Lines::new(input, path);
    // The `# ... Edges: M` header's M and its line, to catch a truncated download, and the
    // ids warpath declared: only the comments before the first edge count.
    let mut declared: Option<(u64, u64)> = None;
    let mut ids: Option<IdRange> = None;
    while let Some((number, line)) = lines.peek_line()? {
        if line.first() == Some(&b'#') {
            if ids.is_none() {
                if let Some(range) = id_range(line, number, path)? {
                    let weight_bytes = std::mem::size_of::<C::Value>() as u64;
                    let size =
                        GraphSize { vertices: range.vertices(), edges: 0, undirected: opts.undirected, weight_bytes };
                    crate::memory::check_build(path, size, opts.memory_limit)?;
                    ids = Some(range);
                }
            }
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
    let growth = chunked::Growth::new(opts, opts.undirected, ids.map(|ids| ids.vertices()));
    let parser = EdgeLines { column, ids };
    let body = chunked::parse_body(lines, &parser, None, reserve, growth)?;
    let edges = body.edges;
    if let Some((count, header_line)) = declared.filter(|&(count, _)| count != body.entries) {
        if !opts.allow_count_mismatch {
            return Err(Error::Format {
                path: path.to_path_buf(),
                problem: format!(
                    "its header (line {header_line}) says {count} edges, but the file has {} edge lines; it may be \
                     truncated (an interrupted download or copy?). {COUNT_MISMATCH_RULE}",
                    body.entries
                ),
            });
        }
    }
    let (num_vertices, id_base) = match ids {
        // Declared: every id of the range is a vertex, whether or not an edge names it.
        Some(ids) => (ids.vertices(), ids.base as u32),
        None => {
            let num_vertices = body.largest_id.map_or(0, |m| m as u64 + 1);
            check_ids_dense(path, num_vertices, &edges)?;
            (num_vertices, 0)
        }
    };
    let list = EdgeList { num_vertices, edges, undirected: opts.undirected, id_base, weights: None };
    Ok((list, body.weights, parser.column))
}

/// The range of a `# warpath vertex ids: B to L` comment; `None` for any other comment. A
/// comment of that form that holds no usable range is an error naming its line.
fn id_range(comment: &[u8], number: u64, path: &Path) -> Result<Option<IdRange>> {
    let fields: Vec<&[u8]> = text::tokens(comment).collect();
    if fields.len() < ID_RANGE_WORDS.len() || fields.iter().zip(ID_RANGE_WORDS).any(|(f, w)| *f != w.as_bytes()) {
        return Ok(None);
    }
    let range = match fields[ID_RANGE_WORDS.len()..] {
        [base, b"to", last] => match (text::parse_u64(base), text::parse_u64(last)) {
            (Some(base @ (0 | 1)), Some(last)) if last >= base && last - base < MAX_VERTICES => {
                Some(IdRange { base, last, line: number })
            }
            _ => None,
        },
        _ => None,
    };
    range.map(Some).ok_or_else(|| {
        text::parse_error(
            path,
            number,
            format!(
                "`# warpath vertex ids: B to L` with B 0 or 1 and at most {MAX_VERTICES} ids, found {}",
                text::show(comment)
            ),
        )
    })
}

/// The 0-based id of `token`, an id of `ids` where the header declared them.
fn vertex(token: &[u8], line: &[u8], ids: Option<&IdRange>) -> std::result::Result<u32, String> {
    if let Some(ids) = ids {
        return text::parse_u64(token).and_then(|id| ids.internal(id)).ok_or_else(|| {
            format!(
                "a vertex id from {} to {}, as the comment on line {} declares, found {} in {}",
                ids.base,
                ids.last,
                ids.line,
                text::show(token),
                text::show(line)
            )
        });
    }
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
