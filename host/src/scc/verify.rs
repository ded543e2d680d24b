//! Checks a strongly-connected-components labeling against Tarjan's algorithm: the same labels
//! (each component named by its smallest vertex), vertex by vertex.

use crate::cc::Components;
use crate::error::{Error, Result};
use crate::graph::Graph;
use crate::scc::cpu_reference::tarjan;

/// Checks `components` against Tarjan's on `graph` (sequential: time and memory linear in the
/// graph).
pub fn validate(graph: &Graph, components: &Components) -> Result<()> {
    compare_with_reference(components, &tarjan(graph))
}

/// The first vertex whose label differs from the reference's, as an error.
pub fn compare_with_reference(components: &Components, reference: &Components) -> Result<()> {
    let (found, expected) = (&components.labels, &reference.labels);
    if found.len() != expected.len() {
        return Err(Error::Verification(format!(
            "strongly connected components: {} labels for a graph of {} vertices",
            found.len(),
            expected.len()
        )));
    }
    match (0..found.len()).find(|&v| found[v] != expected[v]) {
        None => Ok(()),
        Some(v) => Err(Error::Verification(format!(
            "strongly connected components: vertex {v} is labelled {} but Tarjan's algorithm puts it in the \
             component of {}",
            found[v], expected[v]
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};

    #[test]
    fn a_wrong_label_is_named_by_its_vertex() {
        let graph = GraphBuilder::new().build(EdgeList::new(3, vec![(0, 1), (1, 0), (1, 2)], false)).unwrap();
        assert!(validate(&graph, &Components { labels: vec![0, 0, 2] }).is_ok());
        let error = validate(&graph, &Components { labels: vec![0, 0, 0] }).unwrap_err().to_string();
        assert!(error.contains("vertex 2 is labelled 0"), "{error}");
    }
}
