//! The result files `--out` writes, with the input's vertex ids: a BFS's distances and parents,
//! many sources' distances, the components' labels, the centralities. Shared by the one-GPU
//! commands and the partitioned ones (`multi`).

use warpath::bfs::multi_source::Centrality;
use warpath::bfs::BfsResult;
use warpath::cc::Components;
use warpath::graph::UNREACHED;
use warpath::{Graph, Result};

/// Writes one line per vertex (gzip-compressed when `path` ends in `.gz`), whole or not at all.
pub(super) fn write_result(graph: &Graph, result: &BfsResult, path: &std::path::Path) -> Result<()> {
    warpath::output::write_output(path, |out| {
        if !result.has_parents() {
            // A distances-only run has no parent column to fill; the header says why it is missing.
            writeln!(out, "# vertex distance (distances only: no parents; -1 for unreached)")?;
            for v in 0..graph.num_vertices() as u32 {
                let distance = result.distances[v as usize];
                let external = graph.external_id(v);
                if distance == UNREACHED {
                    writeln!(out, "{external} -1")?;
                } else {
                    writeln!(out, "{external} {distance}")?;
                }
            }
            return Ok(());
        }
        for v in 0..graph.num_vertices() as u32 {
            let (distance, parent) = (result.distances[v as usize], result.parents[v as usize]);
            let external = graph.external_id(v);
            if distance == UNREACHED {
                writeln!(out, "{external} -1 -1")?;
            } else {
                writeln!(out, "{external} {distance} {}", graph.external_id(parent))?;
            }
        }
        Ok(())
    })
}

/// Writes `vertex component` per line in the file's numbering (gzip-compressed when `path` ends
/// in `.gz`), whole or not at all. Labels are the smallest internal id of each component, and
/// the file's numbering only shifts ids, so they name the smallest vertex there too.
pub(super) fn write_components(graph: &Graph, components: &Components, path: &std::path::Path) -> Result<()> {
    warpath::output::write_output(path, |out| {
        for (v, &label) in components.labels.iter().enumerate() {
            writeln!(out, "{} {}", graph.external_id(v as u32), graph.external_id(label))?;
        }
        Ok(())
    })
}

/// Writes `source vertex distance` for every reached pair, in the file's numbering, source by
/// source (gzip-compressed when `path` ends in .gz), whole or not at all.
pub(super) fn write_pairs(
    graph: &Graph,
    sources: &[u32],
    distances: &[Vec<u32>],
    path: &std::path::Path,
) -> Result<()> {
    warpath::output::write_output(path, |out| {
        writeln!(out, "# source vertex distance (reached pairs only)")?;
        for (&source, row) in sources.iter().zip(distances) {
            let s = graph.external_id(source);
            for (v, &d) in row.iter().enumerate() {
                if d != UNREACHED {
                    writeln!(out, "{s} {} {d}", graph.external_id(v as u32))?;
                }
            }
        }
        Ok(())
    })
}

/// Writes `vertex closeness harmonic` per line in the file's numbering (gzip-compressed when
/// `path` ends in .gz), whole or not at all.
pub(super) fn write_centrality(graph: &Graph, found: &Centrality, path: &std::path::Path) -> Result<()> {
    warpath::output::write_output(path, |out| {
        for (v, (c, h)) in found.closeness.iter().zip(&found.harmonic).enumerate() {
            writeln!(out, "{} {c} {h}", graph.external_id(v as u32))?;
        }
        Ok(())
    })
}
