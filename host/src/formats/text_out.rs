//! Writing a graph as text: an edge list (`.el`, `.txt`: `u v` per line) or a GAPBS weighted
//! edge list (`.wel`: `u v w`), optionally gzip-compressed, so that a graph made by a generator
//! can be handed to other tools (or timed through warpath's own text readers).
//!
//! Lines are formatted by all cores, a batch of vertex ranges at a time, and written in vertex
//! order, so the file is the same whatever the thread count. Ids are written in the graph's
//! own numbering (its id base added), so that they name the vertices the source file named.
//! An edge list's ids count from 0, so a graph numbered from 1 (DIMACS, Matrix Market) is
//! written after the comment `# warpath vertex ids: 1 to N`, which the reader takes for the
//! numbering and the vertex count: read back, it is the same graph, not one with a vertex 0
//! more. Graphs numbered from 0 are written without it, as other tools (GAPBS) read them. An
//! undirected graph writes each edge once, from its smaller end (self-loops once), as GAPBS's
//! `.el` files hold them: read it back with `--undirected`.

use std::io::Write;
use std::path::Path;

use rayon::prelude::*;

use super::Format;
use crate::error::{Error, Result, UNWEIGHTED_WEL};
use crate::graph::{Graph, Weights};

/// Edges formatted per piece: large enough that a piece's bookkeeping is nothing beside it,
/// small enough that a batch of pieces (one per core, a few each) stays a few hundred MB.
const EDGES_PER_PIECE: u64 = 1 << 20;

/// Writes `graph` to `path` as an edge list (`.el`/`.txt`) or, for `.wel`, a weighted one
/// (integer weights only: the `.wel` reader reads `u32`). Whole or not at all
/// ([`crate::output::write_output`]).
pub fn write_edge_list(graph: &Graph, path: &Path) -> Result<()> {
    let weights = match Format::from_path(path)? {
        Format::EdgeList => None,
        Format::WeightedEdgeList => match graph.weights() {
            Some(Weights::U32(weights)) => Some(weights.as_slice()),
            Some(Weights::F32(_)) => {
                return Err(Error::InvalidArgument(format!(
                    "{}: .wel files hold integer weights, but this graph's are real numbers; write a .wgr instead",
                    path.display()
                )))
            }
            None => {
                return Err(Error::InvalidArgument(format!("{}: {UNWEIGHTED_WEL}", path.display())))
            }
        },
        _ => {
            return Err(Error::InvalidArgument(format!(
                "{}: text output is an edge list: name it .el, .txt or .wel (optionally .gz)",
                path.display()
            )))
        }
    };
    let pieces = pieces(graph);
    let batch = rayon::current_num_threads() * 4;
    crate::output::write_output(path, |out: &mut dyn Write| {
        if let Some(comment) = id_range_comment(graph) {
            out.write_all(comment.as_bytes())?;
        }
        for group in pieces.chunks(batch) {
            let texts: Vec<Vec<u8>> =
                group.par_iter().map(|range| format_piece(graph, weights, range.clone())).collect();
            for text in texts {
                out.write_all(&text)?;
            }
        }
        Ok(())
    })
}

/// The comment that declares a graph's ids when they do not count from 0 (see the module's
/// words), with its newline.
fn id_range_comment(graph: &Graph) -> Option<String> {
    let (base, n) = (graph.id_base() as u64, graph.num_vertices() as u64);
    (base != 0 && n > 0).then(|| format!("{} {base} to {}\n", super::snap::ID_RANGE_WORDS.join(" "), base + n - 1))
}

/// Vertex ranges of about [`EDGES_PER_PIECE`] stored edges each, in order.
fn pieces(graph: &Graph) -> Vec<std::ops::Range<u32>> {
    let offsets = graph.offsets();
    let n = graph.num_vertices() as u32;
    let mut pieces = Vec::new();
    let mut start = 0u32;
    while start < n {
        let goal = offsets[start as usize] + EDGES_PER_PIECE;
        // The first vertex whose list starts at or past the goal ends the piece (at least one vertex).
        let end = offsets.partition_point(|&offset| offset < goal).clamp(start as usize + 1, n as usize) as u32;
        pieces.push(start..end);
        start = end;
    }
    pieces
}

fn format_piece(graph: &Graph, weights: Option<&[u32]>, vertices: std::ops::Range<u32>) -> Vec<u8> {
    let offsets = graph.offsets();
    let base = graph.id_base() as u64;
    let once = graph.is_undirected();
    let edges = offsets[vertices.end as usize] - offsets[vertices.start as usize];
    let mut text = Vec::with_capacity(edges as usize * if weights.is_some() { 22 } else { 18 });
    let mut numbers = itoa::Buffer::new();
    for u in vertices {
        let first = offsets[u as usize] as usize;
        for (index, &v) in graph.neighbors(u).iter().enumerate() {
            if once && v < u {
                continue;
            }
            text.extend_from_slice(numbers.format(u as u64 + base).as_bytes());
            text.push(b' ');
            text.extend_from_slice(numbers.format(v as u64 + base).as_bytes());
            if let Some(weights) = weights {
                text.push(b' ');
                text.extend_from_slice(numbers.format(weights[first + index]).as_bytes());
            }
            text.push(b'\n');
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{read_graph, ReadOptions};
    use crate::generate::{attach_weights, generate, GeneratorSpec, WeightSpec};

    fn temp(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("warpath-text-out-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    #[test]
    fn an_undirected_graph_reads_back_the_same_with_undirected() {
        let graph = generate(&"kron:10".parse::<GeneratorSpec>().unwrap(), 7).unwrap();
        for name in ["k.el", "k.txt.gz"] {
            let path = temp(name);
            write_edge_list(&graph, &path).unwrap();
            let opts = ReadOptions { undirected: true, ..ReadOptions::default() };
            let back = read_graph(&path, &opts).unwrap();
            assert_eq!(back.offsets(), graph.offsets(), "{name}");
            assert_eq!(back.targets(), graph.targets(), "{name}");
        }
    }

    #[test]
    fn a_weighted_graph_keeps_its_weights_in_wel() {
        let graph = generate(&"urand:9".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        let graph = attach_weights(graph, &"uniform:1:255".parse::<WeightSpec>().unwrap(), 3).unwrap();
        let path = temp("u.wel");
        write_edge_list(&graph, &path).unwrap();
        let opts = ReadOptions { undirected: true, ..ReadOptions::default() };
        let back = read_graph(&path, &opts).unwrap();
        assert_eq!(back.targets(), graph.targets());
        assert_eq!(back.weights(), graph.weights());
    }

    #[test]
    fn a_one_based_graph_reads_back_with_its_ids_and_vertex_count() {
        // DIMACS: vertices 1 to 5, the fifth without edges, 1 -> 2 (7) and 3 -> 4 (2).
        let source = temp("one.gr");
        std::fs::write(&source, "p sp 5 2\na 1 2 7\na 3 4 2\n").unwrap();
        let graph = read_graph(&source, &ReadOptions::default()).unwrap();
        for name in ["one.el", "one.wel.gz"] {
            let path = temp(name);
            write_edge_list(&graph, &path).unwrap();
            let back = read_graph(&path, &ReadOptions::default()).unwrap();
            assert_eq!((back.num_vertices(), back.id_base()), (5, 1), "{name}");
            assert_eq!(back.offsets(), graph.offsets(), "{name}");
            assert_eq!(back.targets(), graph.targets(), "{name}");
            if name.ends_with(".wel.gz") {
                assert_eq!(back.weights(), graph.weights());
            }
        }
        let text = std::fs::read_to_string(temp("one.el")).unwrap();
        assert_eq!(text, "# warpath vertex ids: 1 to 5\n1 2\n3 4\n");
        // A graph numbered from 0 is written as other tools read edge lists, without it.
        let zero = generate(&"grid2d:2".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        write_edge_list(&zero, &temp("zero.el")).unwrap();
        assert!(std::fs::read_to_string(temp("zero.el")).unwrap().starts_with("0 1\n"));
    }

    #[test]
    fn wel_needs_integer_weights_and_other_extensions_are_refused() {
        let graph = generate(&"urand:6".parse::<GeneratorSpec>().unwrap(), 3).unwrap();
        let message = write_edge_list(&graph, &temp("x.wel")).unwrap_err().to_string();
        assert!(message.contains("has none"), "{message}");
        let message = write_edge_list(&graph, &temp("x.mtx")).unwrap_err().to_string();
        assert!(message.contains("name it .el"), "{message}");
        assert!(!temp("x.wel").exists() && !temp("x.mtx").exists());
    }
}
