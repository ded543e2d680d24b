//! Validation of BFS results, beside the traversals (as the GAP Benchmark Suite keeps each
//! kernel's verifier in the kernel's file) but called only by their users, so that no
//! traversal grades its own work. Every check is a scan over vertices or edges, run in parallel, because it is
//! applied to graphs of hundreds of millions of edges after every GPU run.

use std::sync::atomic::{AtomicBool, Ordering::Relaxed};

use rayon::prelude::*;

use crate::bfs::BfsResult;
use crate::error::{Error, Result};
use crate::graph::{Graph, UNREACHED};

/// Checks that `result` is a correct BFS tree of `g`, following the validation rules of the
/// Graph500 specification (section "Validation", kernel 2), adapted to directed graphs:
///
/// 1. both arrays have one entry per vertex, and the source is a vertex;
/// 2. the root is its own parent, at distance 0;
/// 3. a vertex has a distance exactly when it has a parent (unreached vertices have neither);
/// 4. every reached non-root vertex has a reached parent, the tree edge parent -> child is an
///    edge of the graph, and the child is exactly one level below the parent;
/// 5. for every edge `u -> v` with `u` reached, `v` is reached and `dist[v] <= dist[u] + 1`.
///
/// Rule 4 makes distances strictly decrease towards the root, so the parent pointers have no
/// cycles and every reached vertex leads back to the root. Rule 5 makes the tree span
/// everything reachable from the root and the distances shortest: with rule 4 they are then
/// exactly the BFS levels.
///
/// When several rules are broken, the error reports the first problem in the order above and
/// then in vertex order, so the message is the same on every run.
///
/// A result without parents (a distances-only traversal) is refused with a message pointing to
/// [`validate_distances`]; [`validate`] picks the right check.
pub fn validate_bfs_tree(g: &Graph, result: &BfsResult) -> Result<()> {
    tree_rules(g, result)?;
    match edge_error(g, &result.distances, "", |_| {}) {
        Some(message) => Err(Error::Verification(message)),
        None => Ok(()),
    }
}

/// What a validated BFS of one source leaves to compare another traversal from the same source
/// with ([`validate_bfs_tree_against`]): how many vertices it reached and the sum of their
/// distances. Take it only from a result that passed [`validate_bfs_tree`] or
/// [`validate_distances`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ValidatedLevels {
    pub source: u32,
    pub reached: u64,
    pub distance_sum: u64,
}

impl ValidatedLevels {
    /// The summary of `result`, which the caller validated.
    pub fn of(result: &BfsResult) -> ValidatedLevels {
        let distance_sum = result.distances.par_iter().filter(|&&d| d != UNREACHED).map(|&d| d as u64).sum();
        ValidatedLevels { source: result.source, reached: result.reached(), distance_sum }
    }
}

/// Checks `result` against the levels of a validated traversal from the same source
/// (`reference`) without reading every edge: rules 1-4 of [`validate_bfs_tree`], then the same
/// number of vertices reached and the same sum of distances. That is as strong as rule 5:
/// rules 2 and 4 give every reached vertex a path from the root of its distance's length in the
/// graph, so no distance is below the true one and every reached vertex is reachable; with as
/// many vertices reached as the reference (all the reachable ones) and the same sum, no
/// distance can be above the true one either. Costs one pass over the vertices and a search
/// of each parent's list, where rule 5 reads every edge.
pub fn validate_bfs_tree_against(g: &Graph, result: &BfsResult, reference: &ValidatedLevels) -> Result<()> {
    if reference.source != result.source {
        return Err(Error::InvalidArgument(format!(
            "the reference levels are from source {}, the traversal from {}",
            g.external_id(reference.source),
            g.external_id(result.source)
        )));
    }
    tree_rules(g, result)?;
    let levels = ValidatedLevels::of(result);
    if levels.reached != reference.reached {
        return Err(Error::Verification(format!(
            "{} vertices reached where a validated traversal from the same source reached {}",
            levels.reached, reference.reached
        )));
    }
    if levels.distance_sum != reference.distance_sum {
        return Err(Error::Verification(format!(
            "the reached vertices' distances sum to {} where a validated traversal from the same source gives \
             {}: some distance is longer than the shortest path",
            levels.distance_sum, reference.distance_sum
        )));
    }
    Ok(())
}

/// Rules 1-4 of [`validate_bfs_tree`]: the arrays, the root, and every tree edge a graph edge
/// one level down.
fn tree_rules(g: &Graph, result: &BfsResult) -> Result<()> {
    let n = g.num_vertices();
    let fail = |message: String| Err(Error::Verification(message));
    let name = |v: u32| g.external_id(v);

    if !result.has_parents() {
        return Err(Error::InvalidArgument(
            "this BFS result has no parents (a distances-only traversal), so there is no tree to validate: \
             check its distances with bfs::verify::validate_distances (or bfs::verify::validate, which picks the check)"
                .into(),
        ));
    }

    for (what, len) in [("distance", result.distances.len()), ("parent", result.parents.len())] {
        if len != n {
            return fail(format!("the {what} array has {len} entries but the graph has {n} vertices"));
        }
    }
    let root = result.source;
    if root as usize >= n {
        return fail(format!("the source {} is not a vertex (the graph has {n})", name(root)));
    }
    let (dist, parent) = (&result.distances, &result.parents);
    if parent[root as usize] != root {
        return fail(format!(
            "the root {} must be its own parent, but its parent is {}",
            name(root),
            describe(g, parent[root as usize])
        ));
    }
    if dist[root as usize] != 0 {
        return fail(format!(
            "the root {} must be at distance 0, but is at {}",
            name(root),
            describe_distance(dist[root as usize])
        ));
    }

    let tree_error = (0..n as u32).into_par_iter().find_map_first(|v| {
        if v == root {
            return None;
        }
        let (d, p) = (dist[v as usize], parent[v as usize]);
        match (d == UNREACHED, p == UNREACHED) {
            (true, true) => return None,
            (true, false) => {
                return Some(format!("vertex {} is marked unreached but has parent {}", name(v), describe(g, p)))
            }
            (false, true) => return Some(format!("vertex {} has distance {d} but no parent", name(v))),
            (false, false) => {}
        }
        if p as usize >= n {
            return Some(format!("vertex {} has parent {p}, which is not a vertex", name(v)));
        }
        if p == v {
            return Some(format!("vertex {} is its own parent but is not the root", name(v)));
        }
        let pd = dist[p as usize];
        if pd == UNREACHED {
            return Some(format!("vertex {} has parent {}, which is unreached", name(v), name(p)));
        }
        if d != pd + 1 {
            return Some(format!(
                "vertex {} is at distance {d} but its parent {} is at {pd}; a tree edge spans exactly one level",
                name(v),
                name(p)
            ));
        }
        // An undirected graph stores the edge both ways: search the shorter list (a parent is
        // often a hub, its child rarely).
        let has_edge = if g.is_undirected() && g.degree(v) < g.degree(p) {
            g.neighbors(v).binary_search(&p).is_ok()
        } else {
            g.neighbors(p).binary_search(&v).is_ok()
        };
        if !has_edge {
            return Some(format!(
                "vertex {} has parent {}, but the graph has no edge {} -> {}",
                name(v),
                name(p),
                name(p),
                name(v)
            ));
        }
        None
    });
    match tree_error {
        Some(message) => fail(message),
        None => Ok(()),
    }
}

/// The edge rule both validations share: for every edge `u -> v` with `u` reached, `v` is
/// reached (else the message, with `unreached_hint` after it) and `dist[v] <= dist[u] + 1`.
/// `one_level_below(v)` is called for every such edge with `dist[v] == dist[u] + 1`. Returns the
/// first problem in vertex order, as a message.
fn edge_error(g: &Graph, dist: &[u32], unreached_hint: &str, one_level_below: impl Fn(u32) + Sync) -> Option<String> {
    let name = |v: u32| g.external_id(v);
    (0..g.num_vertices() as u32).into_par_iter().find_map_first(|u| {
        let du = dist[u as usize];
        if du == UNREACHED {
            return None;
        }
        g.neighbors(u).iter().find_map(|&v| {
            let dv = dist[v as usize];
            // `du < UNREACHED = u32::MAX`, so `du + 1` does not overflow.
            if dv == UNREACHED {
                Some(format!(
                    "vertex {} is marked unreached, but the edge {} -> {} leads to it from distance {du}{unreached_hint}",
                    name(v),
                    name(u),
                    name(v)
                ))
            } else if dv > du + 1 {
                Some(format!(
                    "vertex {} is at distance {dv}, but the edge {} -> {} reaches it from distance {du}; \
                     a BFS distance is at most one more than any in-neighbor's",
                    name(v),
                    name(u),
                    name(v)
                ))
            } else {
                if dv == du + 1 {
                    one_level_below(v);
                }
                None
            }
        })
    })
}

/// A parent entry for a message: an external id, or what the raw value means.
fn describe(g: &Graph, parent: u32) -> String {
    if parent == UNREACHED {
        "unset (UNREACHED)".into()
    } else if parent as usize >= g.num_vertices() {
        format!("{parent}, which is not a vertex")
    } else {
        g.external_id(parent).to_string()
    }
}

fn describe_distance(d: u32) -> String {
    if d == UNREACHED {
        "UNREACHED".into()
    } else {
        d.to_string()
    }
}

/// Validates `result` as fully as its labels allow: the BFS tree ([`validate_bfs_tree`]) when it
/// has parents, the distances alone ([`validate_distances`]) after a distances-only traversal.
pub fn validate(g: &Graph, result: &BfsResult) -> Result<()> {
    if result.has_parents() {
        validate_bfs_tree(g, result)
    } else {
        validate_distances(g, result)
    }
}

/// Checks the distances of `result` (its parents, if any, are ignored) in O(n + m), with no
/// reference BFS: the Graph500 validation rules with the tree taken out.
///
/// 1. the distance array has one entry per vertex, and the source is a vertex;
/// 2. the source is at distance 0;
/// 3. no edge `u -> v` leads from a reached `u` to an unreached `v`;
/// 4. no edge `u -> v` with both ends reached has `dist[v] > dist[u] + 1` (on an undirected
///    graph, which stores both directions, the ends of every edge are at most one level apart);
/// 5. every reached vertex other than the source has an in-neighbor exactly one level closer.
///
/// Rule 5 gives every reached vertex a path of its distance's length from a vertex at distance
/// 0, which rule 5 itself allows only for the source (a second vertex at 0 would need an
/// in-neighbor at -1): so no distance is below the true one, and only vertices the source reaches
/// are reached. Rules 3 and 4, followed along a shortest path, make every reachable vertex
/// reached and no distance above the true one. Together: exactly the BFS levels.
///
/// Errors name the broken rule and the vertex: the first problem in the order above, then in
/// vertex order, so the message is the same on every run.
pub fn validate_distances(g: &Graph, result: &BfsResult) -> Result<()> {
    let n = g.num_vertices();
    let fail = |message: String| Err(Error::Verification(message));
    let name = |v: u32| g.external_id(v);

    let dist = &result.distances;
    if dist.len() != n {
        return fail(format!("the distance array has {} entries but the graph has {n} vertices", dist.len()));
    }
    let root = result.source;
    if root as usize >= n {
        return fail(format!("the source {} is not a vertex (the graph has {n})", name(root)));
    }
    if dist[root as usize] != 0 {
        return fail(format!(
            "the source {} must be at distance 0, but is at {}",
            name(root),
            describe_distance(dist[root as usize])
        ));
    }

    // Marked for every vertex that some in-neighbor reaches from exactly one level closer,
    // during the edge scan, so rule 5 needs no transpose.
    let found_from_level_before: Vec<AtomicBool> = (0..n).into_par_iter().map(|_| AtomicBool::new(false)).collect();
    let edge_error = edge_error(g, dist, " (an unreached vertex has no reached in-neighbor)", |v| {
        found_from_level_before[v as usize].store(true, Relaxed)
    });
    if let Some(message) = edge_error {
        return fail(message);
    }

    let orphan = (0..n as u32).into_par_iter().find_first(|&v| {
        v != root && dist[v as usize] != UNREACHED && !found_from_level_before[v as usize].load(Relaxed)
    });
    match orphan {
        Some(v) => {
            let d = dist[v as usize];
            let closer = if d == 0 {
                "the source alone is at distance 0".to_string()
            } else {
                format!("none is at distance {}", d - 1)
            };
            fail(format!(
                "vertex {} is at distance {d}, but no in-neighbor is one level closer ({closer}); \
                 every reached vertex but the source is found from the level before it",
                name(v)
            ))
        }
        None => Ok(()),
    }
}
