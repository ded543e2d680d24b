//! Checks a connected-components labeling, apart from the code that computed it (as GAPBS's
//! `CCVerifier`): every edge joins two vertices of one label; the labels are canonical (each
//! names the smallest vertex of its class, which labels itself); and there are as many classes
//! as the sequential reference finds components. The first check makes every class a union of
//! components; with the counts equal, every class is one component.

use rayon::prelude::*;

use crate::cc::cpu_reference::components_sequential;
use crate::cc::Components;
use crate::error::{Error, Result};
use crate::graph::Graph;

/// Checks `components` against `graph`, computing the reference count by sequential union-find.
pub fn validate(graph: &Graph, components: &Components) -> Result<()> {
    validate_with_count(graph, components, components_sequential(graph).count())
}

/// Checks `components` against `graph` and a reference count of components computed before (a
/// benchmark checks every trial against one count).
pub fn validate_with_count(graph: &Graph, components: &Components, reference_count: u64) -> Result<()> {
    let fail = |message: String| Err(Error::Verification(format!("connected components: {message}")));
    let labels = &components.labels;
    let n = graph.num_vertices();
    if labels.len() != n {
        return fail(format!("{} labels for a graph of {n} vertices", labels.len()));
    }
    let not_canonical = (0..n).into_par_iter().find_first(|&v| {
        let label = labels[v] as usize;
        label > v || label >= n || labels[label] as usize != label
    });
    if let Some(v) = not_canonical {
        let label = labels[v];
        return fail(match labels.get(label as usize) {
            None => format!("vertex {v} has label {label}, which is not a vertex"),
            Some(_) if label as usize > v => format!(
                "vertex {v} has label {label}, not the smallest vertex of its component (labels name the smallest)"
            ),
            Some(&other) => format!("vertex {v} has label {label}, but vertex {label} has label {other}, not itself"),
        });
    }
    let split = (0..n as u32).into_par_iter().find_map_first(|u| {
        graph.neighbors(u).iter().find(|&&v| labels[v as usize] != labels[u as usize]).map(|&v| (u, v))
    });
    if let Some((u, v)) = split {
        return fail(format!(
            "the edge {u} -> {v} joins vertices of two labels ({} and {})",
            labels[u as usize], labels[v as usize]
        ));
    }
    let count = components.count();
    if count != reference_count {
        return fail(format!("{count} components, but the graph has {reference_count}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};

    fn message(result: Result<()>) -> String {
        match result {
            Err(Error::Verification(message)) => message,
            other => panic!("expected a verification error, got {other:?}"),
        }
    }

    #[test]
    fn wrong_labelings_are_refused_with_the_reason() {
        // {0, 1}, {2, 3}, {4}.
        let graph = GraphBuilder::new().build(EdgeList::new(5, vec![(0, 1), (2, 3)], true)).unwrap();
        let right = Components { labels: vec![0, 0, 2, 2, 4] };
        validate(&graph, &right).unwrap();
        let cases = [
            (vec![0, 0, 0, 0, 4], "2 components, but the graph has 3"),
            (vec![0, 1, 2, 2, 4], "the edge 0 -> 1 joins vertices of two labels (0 and 1)"),
            (vec![1, 1, 2, 2, 4], "vertex 0 has label 1, not the smallest"),
            (vec![0, 0, 2, 2, 9], "vertex 4 has label 9, which is not a vertex"),
            (vec![0, 0, 2, 0, 4], "the edge 2 -> 3 joins vertices of two labels (2 and 0)"),
            (vec![0, 0, 2, 1, 4], "vertex 3 has label 1, but vertex 1 has label 0, not itself"),
            (vec![0, 0, 2, 2], "4 labels for a graph of 5 vertices"),
        ];
        for (labels, expected) in cases {
            let text = message(validate(&graph, &Components { labels: labels.clone() }));
            assert!(text.starts_with("connected components: ") && text.contains(expected), "{labels:?}: {text}");
        }
    }
}
