//! Tarjan's strongly connected components (SIAM J. Computing 1972), sequential and iterative
//! (an explicit stack, so a path of millions of vertices does not overflow the thread's): the
//! reference every other code is checked against.

use crate::cc::Components;
use crate::graph::Graph;

const NONE: u32 = u32::MAX;

/// Every vertex labelled by the smallest vertex of its strongly connected component.
pub fn tarjan(graph: &Graph) -> Components {
    let mut labels = vec![NONE; graph.num_vertices()];
    tarjan_within(
        graph,
        |_| true,
        |members| {
            let smallest = *members.iter().min().expect("a component has a vertex");
            for &u in members {
                labels[u as usize] = smallest;
            }
        },
    );
    Components { labels }
}

/// Tarjan's algorithm over the vertices `include` accepts and the edges between them (the
/// subgraph they induce): `component(members)` once for each of its strongly connected
/// components. The CPU algorithm leaves it the few vertices its parallel phases have not decided.
pub fn tarjan_within(graph: &Graph, include: impl Fn(u32) -> bool, mut component: impl FnMut(&[u32])) {
    let n = graph.num_vertices();
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut stack: Vec<u32> = Vec::new();
    // The search's own stack: a vertex and how far along its list it is.
    let mut calls: Vec<(u32, usize)> = Vec::new();
    let mut next = 0u32;
    for root in 0..n as u32 {
        if index[root as usize] != NONE || !include(root) {
            continue;
        }
        calls.push((root, 0));
        while let Some(&(v, at)) = calls.last() {
            let vi = v as usize;
            if at == 0 && index[vi] == NONE {
                index[vi] = next;
                low[vi] = next;
                next += 1;
                stack.push(v);
                on_stack[vi] = true;
            }
            if let Some(&w) = graph.neighbors(v).get(at) {
                calls.last_mut().expect("the search is under way").1 += 1;
                let wi = w as usize;
                if !include(w) {
                    continue;
                }
                if index[wi] == NONE {
                    calls.push((w, 0));
                } else if on_stack[wi] {
                    low[vi] = low[vi].min(index[wi]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent as usize] = low[parent as usize].min(low[vi]);
            }
            if low[vi] == index[vi] {
                let start = stack.iter().rposition(|&u| u == v).expect("v is on the stack");
                let members = stack.split_off(start);
                for &u in &members {
                    on_stack[u as usize] = false;
                }
                component(&members);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};

    fn directed(n: u64, edges: &[(u32, u32)]) -> Graph {
        GraphBuilder::new().build(EdgeList::new(n, edges.to_vec(), false)).unwrap()
    }

    #[test]
    fn cycles_are_components_and_the_rest_stand_alone() {
        // 1 -> 2 -> 3 -> 1 a cycle, 0 -> 1 and 3 -> 4 into and out of it, 5 <-> 6 a pair.
        let graph = directed(7, &[(0, 1), (1, 2), (2, 3), (3, 1), (3, 4), (5, 6), (6, 5)]);
        assert_eq!(tarjan(&graph).labels, vec![0, 1, 1, 1, 4, 5, 5]);
    }

    #[test]
    fn a_long_path_closed_into_a_cycle_needs_no_deep_recursion() {
        let n = 1_000_000u32;
        let edges: Vec<(u32, u32)> = (0..n).map(|v| (v, (v + 1) % n)).collect();
        let graph = directed(n as u64, &edges);
        assert!(tarjan(&graph).labels.iter().all(|&label| label == 0));
    }
}
