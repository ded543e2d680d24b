//! Validation of shortest paths by Graph500's kernel-3 rules, beside the algorithms but called
//! only by their users (as `bfs::verify`), and the comparison with the Dijkstra reference that
//! the tests make. Every check but the tree's cycle check is a parallel scan over vertices or
//! edges.

use rayon::prelude::*;

use crate::error::{Error, Result};
use crate::graph::{Graph, Weights, UNREACHED};
use crate::sssp::cpu_delta::shortest_path_tree;
use crate::sssp::{with_weights, Distance, Distances, SsspRun};

/// How far a real distance may stray from the reference's, relative to it (and absolute below
/// 1), in [`compare_with_reference`]: sums taken in another order (on the GPU, say) may round
/// differently. [`validate`] needs no tolerance: it checks each edge in the same `f32`
/// arithmetic that produced the distances, as Graph500's validation does.
pub const FLOAT_TOLERANCE: f64 = 1e-5;

/// Checks `run` as shortest paths from its sources (`run.sources`, internal ids; a vertex's
/// distance is to its nearest source) on `graph`, no farther than `run.reach` when the run had
/// a cutoff or a target, by the rules of Graph500's kernel-3 validation, with the graph's
/// weights (unit weights when it has none):
///
/// 1. one distance per vertex (and one parent, unless the run has none); integer distances
///    for integer and unit weights, real ones for real weights, none negative or NaN, none
///    beyond the reach;
/// 2. every source is at distance 0 and, with parents, is its own parent;
/// 3. with parents: a vertex is reached exactly when it has a parent; every tree edge
///    parent -> child is an edge of the graph whose weight is exactly the difference of their
///    distances; following parents from any reached vertex leads to a source (no cycle, even
///    across zero-weight edges);
/// 4. no edge offers a shorter path: for every edge `u -> v` with `u` reached, `v` is reached
///    and `dist[v] <= dist[u] + w` (unless `dist[u] + w` lies beyond the reach);
/// 5. without parents: every reached vertex lies on a path of tight edges (`dist[u] + w ==
///    dist[v]`) from a source;
/// 6. with several sources: every reached vertex's nearest source is a source (itself for a
///    source) from which a path of tight edges through vertices of the same nearest source
///    leads to it, so no other source is nearer.
///
/// Rules 3 or 5 with 4 make the reached set exactly what the sources reach (within the
/// reach) and every distance the length of a shortest path. The first problem found (in the
/// order above, then by vertex) is reported as [`Error::Verification`], the same on every run.
pub fn validate(graph: &Graph, run: &SsspRun) -> Result<()> {
    let n = graph.num_vertices();
    let fail = |message: String| Err(Error::Verification(message));
    if run.distances.len() != n {
        return fail(format!("the distance array has {} entries but the graph has {n} vertices", run.distances.len()));
    }
    if !run.parents.is_empty() && run.parents.len() != n {
        return fail(format!("the parent array has {} entries but the graph has {n} vertices", run.parents.len()));
    }
    if run.sources.is_empty() {
        return fail("the run names no source".into());
    }
    if let Some(&source) = run.sources.iter().find(|&&s| s as usize >= n) {
        return fail(format!("the source {} is not a vertex (the graph has {n})", graph.external_id(source)));
    }
    if !run.nearest_source.is_empty() && run.nearest_source.len() != n {
        return fail(format!(
            "the nearest-source array has {} entries but the graph has {n} vertices",
            run.nearest_source.len()
        ));
    }
    let kind = |d: &Distances| if matches!(d, Distances::Int(_)) { "integer" } else { "real" };
    let mismatch = || {
        let weights = match graph.weights() {
            Some(Weights::F32(_)) => "real weights",
            Some(Weights::U32(_)) => "integer weights",
            None => "no weights (unit weights)",
        };
        fail(format!("the distances are {} but the graph has {weights}", kind(&run.distances)))
    };
    let error = with_weights!(graph, |weight| {
        match typed(&run.distances, &weight) {
            Some(distances) => check(graph, run, distances, &weight),
            None => return mismatch(),
        }
    });
    match error {
        Some(message) => fail(message),
        None => Ok(()),
    }
}

/// `distances` as the slice of the type `weight` sums in, or `None` when they differ.
fn typed<'a, D: Distance>(distances: &'a Distances, _weight: &impl Fn(usize) -> D) -> Option<&'a [D]> {
    let any: &dyn std::any::Any = match distances {
        Distances::Int(d) => d,
        Distances::Float(d) => d,
    };
    any.downcast_ref::<Vec<D>>().map(Vec::as_slice)
}

fn check<D: Distance>(graph: &Graph, run: &SsspRun, dist: &[D], weight: &(impl Fn(usize) -> D + Sync)) -> Option<String> {
    let (sources, parents) = (&run.sources[..], &run.parents[..]);
    let name = |v: u32| graph.external_id(v);
    let reached = |v: u32| dist[v as usize] != D::INFINITY;
    let is_source = |v: u32| sources.binary_search(&v).is_ok();
    let limit = run.reach.map(D::at_most);
    let within = |d: D| limit.is_none_or(|limit| d <= limit);
    let offsets = graph.offsets();
    if !sources.is_sorted() {
        return Some("the sources are not sorted".into());
    }

    let out_of_range = (0..dist.len() as u32).into_par_iter().find_first(|&v| {
        let d = dist[v as usize];
        d.partial_cmp(&D::ZERO).is_none_or(|o| o == std::cmp::Ordering::Less)
    });
    if let Some(v) = out_of_range {
        return Some(format!("vertex {} has distance {:?}, which is negative or not a number", name(v), dist[v as usize]));
    }
    let beyond = (0..dist.len() as u32).into_par_iter().find_first(|&v| reached(v) && !within(dist[v as usize]));
    if let (Some(v), Some(reach)) = (beyond, run.reach) {
        return Some(format!("vertex {} has distance {:?}, beyond the reach {reach}", name(v), dist[v as usize]));
    }
    if let Some(&source) = sources.iter().find(|&&s| dist[s as usize] != D::ZERO) {
        return Some(format!("the source {} must be at distance 0, but is at {:?}", name(source), dist[source as usize]));
    }

    if !parents.is_empty() {
        if let Some(&source) = sources.iter().find(|&&s| parents[s as usize] != s) {
            return Some(format!(
                "the source {} must be its own parent, but its parent is {}",
                name(source),
                show_vertex(graph, parents[source as usize])
            ));
        }
        let tree_error = (0..dist.len() as u32).into_par_iter().find_map_first(|v| {
            if is_source(v) {
                return None;
            }
            let p = parents[v as usize];
            match (reached(v), p == UNREACHED) {
                (false, true) => return None,
                (false, false) => {
                    return Some(format!("vertex {} is unreached but has parent {}", name(v), show_vertex(graph, p)))
                }
                (true, true) => return Some(format!("vertex {} has distance {:?} but no parent", name(v), dist[v as usize])),
                (true, false) => {}
            }
            if p as usize >= dist.len() {
                return Some(format!("vertex {} has parent {p}, which is not a vertex", name(v)));
            }
            if !reached(p) {
                return Some(format!("vertex {} has parent {}, which is unreached", name(v), name(p)));
            }
            let Ok(i) = graph.neighbors(p).binary_search(&v) else {
                return Some(format!(
                    "vertex {} has parent {}, but the graph has no edge {} -> {}",
                    name(v),
                    name(p),
                    name(p),
                    name(v)
                ));
            };
            let w = weight(offsets[p as usize] as usize + i);
            let through_parent = dist[p as usize].add(w);
            if through_parent != dist[v as usize] {
                return Some(format!(
                    "vertex {} is at distance {:?} but its parent {} is at {:?} and the edge between weighs {w:?}: a \
                     tree edge's distances differ by its weight",
                    name(v),
                    dist[v as usize],
                    name(p),
                    dist[p as usize]
                ));
            }
            None
        });
        if tree_error.is_some() {
            return tree_error;
        }
        if let Some(message) = cycle_error(graph, sources, parents) {
            return Some(message);
        }
    }

    let edge_error = (0..dist.len() as u32).into_par_iter().filter(|&u| reached(u)).find_map_first(|u| {
        let first = offsets[u as usize] as usize;
        graph.neighbors(u).iter().enumerate().find_map(|(i, &v)| {
            let w = weight(first + i);
            let offered = dist[u as usize].add(w);
            if !reached(v) && within(offered) {
                Some(format!(
                    "vertex {} is unreached, but the edge {} -> {} leads to it from a reached vertex",
                    name(v),
                    name(u),
                    name(v)
                ))
            } else if reached(v) && offered < dist[v as usize] {
                Some(format!(
                    "vertex {} is at distance {:?}, but the edge {} -> {} (weight {w:?}) offers {offered:?} from {} at \
                     {:?}",
                    name(v),
                    dist[v as usize],
                    name(u),
                    name(v),
                    name(u),
                    dist[u as usize]
                ))
            } else {
                None
            }
        })
    });
    if edge_error.is_some() {
        return edge_error;
    }

    if parents.is_empty() {
        let tree = shortest_path_tree(graph, sources, dist, weight, |_, _| true);
        let unsupported = (0..dist.len() as u32).into_par_iter().find_first(|&v| reached(v) && tree[v as usize] == UNREACHED);
        if let Some(v) = unsupported {
            return Some(format!(
                "vertex {} is at distance {:?}, but no path from a source has that length",
                name(v),
                dist[v as usize]
            ));
        }
    }

    let nearest = &run.nearest_source[..];
    if sources.len() > 1 && nearest.is_empty() {
        return Some("the run has several sources but no nearest source per vertex".into());
    }
    if !nearest.is_empty() {
        let label_error = (0..dist.len() as u32).into_par_iter().find_map_first(|v| {
            let label = nearest[v as usize];
            match (reached(v), label == UNREACHED) {
                (false, true) => None,
                (false, false) => Some(format!("vertex {} is unreached but has nearest source {}", name(v), name(label))),
                (true, true) => Some(format!("vertex {} is reached but has no nearest source", name(v))),
                (true, false) if !is_source(label) => {
                    Some(format!("vertex {} has nearest source {}, which is not a source", name(v), show_vertex(graph, label)))
                }
                (true, false) if is_source(v) && label != v => {
                    Some(format!("the source {} must be its own nearest source, not {}", name(v), name(label)))
                }
                _ => None,
            }
        });
        if label_error.is_some() {
            return label_error;
        }
        let tree = shortest_path_tree(graph, sources, dist, weight, |u, v| nearest[u as usize] == nearest[v as usize]);
        let unsupported = (0..dist.len() as u32).into_par_iter().find_first(|&v| reached(v) && tree[v as usize] == UNREACHED);
        if let Some(v) = unsupported {
            return Some(format!(
                "vertex {} is at distance {:?}, but no path of that length leads to it from its nearest source {}",
                name(v),
                dist[v as usize],
                name(nearest[v as usize])
            ));
        }
    }
    None
}

/// The first vertex whose parents lead around a cycle instead of to `source`, if any. Each
/// vertex is walked until it meets one already known to lead to the source, so every vertex is
/// walked once.
fn cycle_error(graph: &Graph, sources: &[u32], parents: &[u32]) -> Option<String> {
    const UNKNOWN: u8 = 0;
    const ON_WALK: u8 = 1;
    const LEADS_TO_SOURCE: u8 = 2;
    let mut state = vec![UNKNOWN; parents.len()];
    for &source in sources {
        state[source as usize] = LEADS_TO_SOURCE;
    }
    let mut walk = Vec::new();
    for start in 0..parents.len() as u32 {
        if parents[start as usize] == UNREACHED {
            continue;
        }
        let mut v = start;
        while state[v as usize] == UNKNOWN {
            state[v as usize] = ON_WALK;
            walk.push(v);
            v = parents[v as usize];
        }
        if state[v as usize] == ON_WALK {
            return Some(format!(
                "the parents of vertex {} lead around a cycle through vertex {}, not to a source",
                graph.external_id(start),
                graph.external_id(v)
            ));
        }
        for &w in &walk {
            state[w as usize] = LEADS_TO_SOURCE;
        }
        walk.clear();
    }
    None
}

fn show_vertex(graph: &Graph, v: u32) -> String {
    if v == UNREACHED {
        "none".into()
    } else {
        graph.external_id(v).to_string()
    }
}

/// Compares `found` with the `reference` distances (from [`crate::sssp::dijkstra`]): the same
/// reached set, integer distances equal, real ones within [`FLOAT_TOLERANCE`]. The first
/// difference, by vertex, is an [`Error::Verification`].
pub fn compare_with_reference(graph: &Graph, found: &Distances, reference: &Distances) -> Result<()> {
    let fail = |message: String| Err(Error::Verification(message));
    if found.len() != reference.len() {
        return fail(format!("{} distances, but the reference has {}", found.len(), reference.len()));
    }
    let differs = |v: usize| match (found, reference) {
        (Distances::Int(a), Distances::Int(b)) => a[v] != b[v],
        (Distances::Float(a), Distances::Float(b)) => {
            let (a, b) = (a[v] as f64, b[v] as f64);
            if a.is_finite() && b.is_finite() {
                (a - b).abs() > FLOAT_TOLERANCE * b.abs().max(1.0)
            } else {
                a != b
            }
        }
        _ => true,
    };
    if std::mem::discriminant(found) != std::mem::discriminant(reference) {
        return fail("the distances are not of the reference's type (integer or real)".into());
    }
    match (0..found.len()).into_par_iter().find_first(|&v| differs(v)) {
        Some(v) => fail(format!(
            "vertex {} is at distance {}, but Dijkstra's algorithm gives {}",
            graph.external_id(v as u32),
            found.show(v),
            reference.show(v)
        )),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{EdgeList, GraphBuilder};
    use crate::sssp::dijkstra;

    fn graph() -> Graph {
        // 0 -1- 1 -2- 2, 0 -5- 2, 3 alone.
        let list = EdgeList::new(4, vec![(0, 1), (1, 2), (0, 2)], true).with_weights(Weights::U32(vec![1, 2, 5]));
        GraphBuilder::new().build(list).unwrap()
    }

    fn message(result: Result<()>) -> String {
        match result {
            Err(Error::Verification(message)) => message,
            other => panic!("expected a verification error, got {other:?}"),
        }
    }

    #[test]
    fn dijkstra_passes_and_every_kind_of_wrong_answer_is_named() {
        let g = graph();
        let good = dijkstra(&g, 0);
        validate(&g, &good).unwrap();
        let with = |distances: Vec<u64>, parents: Vec<u32>| SsspRun { distances: Distances::Int(distances), parents, ..good.clone() };
        let inf = crate::sssp::UNREACHED_INT;
        // A distance too long: the edge 0 -> 2 offers a shorter path... through a tree that is
        // consistent with it.
        let long = with(vec![0, 1, 5, inf], vec![0, 0, 0, UNREACHED]);
        assert!(message(validate(&g, &long)).contains("offers 3"), "{}", message(validate(&g, &long)));
        // A tree edge whose distances do not differ by its weight.
        let bad_edge = with(vec![0, 1, 3, inf], vec![0, 0, 0, UNREACHED]);
        assert!(message(validate(&g, &bad_edge)).contains("differ by its weight"));
        // Wrong reach: 3 claimed reached (with no edge to it).
        let reach = with(vec![0, 1, 3, 7], vec![0, 0, 1, 2]);
        assert!(message(validate(&g, &reach)).contains("no edge"));
        // Wrong reach, the other way: 2 left out.
        let short = with(vec![0, 1, inf, inf], vec![0, 0, UNREACHED, UNREACHED]);
        assert!(message(validate(&g, &short)).contains("vertex 2 is unreached"));
        // A broken tree: the source not its own parent.
        let root = with(vec![0, 1, 3, inf], vec![1, 0, 1, UNREACHED]);
        assert!(message(validate(&g, &root)).contains("its own parent"));
        // Distances only: a distance no path has, though no edge offers a shorter one.
        let unsupported = with(vec![0, 1, 2, inf], Vec::new());
        assert!(message(validate(&g, &unsupported)).contains("no path from a source"));
        // The wrong type of distances.
        let real = SsspRun { distances: Distances::Float(vec![0.0; 4]), ..good.clone() };
        assert!(message(validate(&g, &real)).contains("integer weights"));
    }

    #[test]
    fn zero_weight_cycles_in_the_tree_are_caught() {
        // 1 and 2 joined by a zero-weight edge, both at distance 5 from 0.
        let list = EdgeList::new(3, vec![(0, 1), (1, 2), (0, 2)], true).with_weights(Weights::U32(vec![5, 0, 5]));
        let g = GraphBuilder::new().build(list).unwrap();
        let cycle = SsspRun { distances: Distances::Int(vec![0, 5, 5]), parents: vec![0, 2, 1], ..dijkstra(&g, 0) };
        assert!(message(validate(&g, &cycle)).contains("cycle"));
    }

    #[test]
    fn the_reference_comparison_is_exact_for_integers_and_tolerant_for_reals() {
        let g = graph();
        let reference = dijkstra(&g, 0).distances;
        compare_with_reference(&g, &reference, &reference).unwrap();
        let Distances::Int(mut off) = reference.clone() else { unreachable!() };
        off[2] += 1;
        assert!(message(compare_with_reference(&g, &Distances::Int(off), &reference)).contains("vertex 2"));
        let close = Distances::Float(vec![0.0, 1000.0001]);
        compare_with_reference(&g, &close, &Distances::Float(vec![0.0, 1000.0])).unwrap();
        let far = Distances::Float(vec![0.0, 1000.5]);
        assert!(compare_with_reference(&g, &far, &Distances::Float(vec![0.0, 1000.0])).is_err());
    }
}
