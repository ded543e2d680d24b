//! The result files `--out` writes, one line a vertex with the input's vertex ids: a BFS's
//! distances and parents, the components' labels. Shared by the one-GPU commands and the
//! partitioned ones (`multi`).

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
