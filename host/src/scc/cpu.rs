//! Strongly connected components on every CPU core: trimming, one forward-backward search from
//! a pivot, then coloring rounds (see the module above for the papers), and Tarjan's algorithm
//! on one core for what is left once it is few vertices (the Multistep method's last step:
//! Slota, Rajamanickam and Madduri, IPDPS 2014, section 3). Every vertex starts undecided; each
//! phase decides some, labelling them with a component id, and the labels are made canonical
//! (each component's smallest vertex) at the end.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

use rayon::prelude::*;

use crate::cc::Components;
use crate::graph::Graph;
use crate::scc::cpu_reference::tarjan_within;
use crate::scc::{SccPhase, SccRun};

/// Not yet decided: the vertex's component is unknown.
const UNDECIDED: u32 = u32::MAX;

/// Undecided vertices at or below which the rest goes to Tarjan's algorithm on one core, not to
/// more coloring rounds: each round is passes over every vertex and a search, where one walk
/// over the few vertices left and their edges decides them all (web-NotreDame's rest after the
/// pivot's component: bench/NOTES.md 129).
const SERIAL_AT_MOST: u64 = 1 << 20;

/// The graph both ways and every vertex's component so far.
struct State<'g> {
    out: &'g Graph,
    inn: &'g Graph,
    /// A vertex's component id once decided (any member's id; canonical at the end).
    component: Vec<AtomicU32>,
}

impl State<'_> {
    fn undecided(&self, v: u32) -> bool {
        self.component[v as usize].load(Relaxed) == UNDECIDED
    }

    fn undecided_count(&self) -> u64 {
        self.component.par_iter().filter(|c| c.load(Relaxed) == UNDECIDED).count() as u64
    }
}

/// Every vertex labelled by the smallest vertex of its strongly connected component; an
/// undirected graph's are its connected components (each edge is stored both ways, so the same
/// searches find them).
pub fn strongly_connected(graph: &Graph) -> SccRun {
    strongly_connected_with(graph, SERIAL_AT_MOST)
}

/// [`strongly_connected`], handing the rest to Tarjan's algorithm once at most `serial_at_most`
/// vertices are undecided (0: coloring to the end).
fn strongly_connected_with(graph: &Graph, serial_at_most: u64) -> SccRun {
    let inn = graph.in_lists();
    let state = State {
        out: graph,
        inn: &inn,
        component: (0..graph.num_vertices()).into_par_iter().map(|_| AtomicU32::new(UNDECIDED)).collect(),
    };
    let mut phases = Vec::new();
    let mut timed = |name, phase: &mut dyn FnMut() -> u64| {
        let started = Instant::now();
        let decided = phase();
        phases.push(SccPhase { name, time: started.elapsed(), decided, rounds: 0 });
        decided
    };
    timed("trimming", &mut || trim(&state));
    timed("forward-backward", &mut || forward_backward(&state));
    loop {
        let left = state.undecided_count();
        if left == 0 {
            break;
        }
        if left <= serial_at_most {
            timed("tarjan", &mut || serial_rest(&state));
            break;
        }
        timed("trimming", &mut || trim(&state));
        if timed("coloring", &mut || color(&state)) == 0 {
            break;
        }
    }
    SccRun { components: canonical(&state), phases }
}

/// Peels every undecided vertex with no undecided in-neighbor or out-neighbor (each a component
/// of its own), in rounds, until none is left; returns how many it decided.
fn trim(state: &State) -> u64 {
    let n = state.out.num_vertices();
    let count = |g: &Graph, v: u32| g.neighbors(v).iter().filter(|&&u| u != v && state.undecided(u)).count() as u32;
    let ins: Vec<AtomicU32> = (0..n as u32)
        .into_par_iter()
        .map(|v| AtomicU32::new(if state.undecided(v) { count(state.inn, v) } else { 0 }))
        .collect();
    let outs: Vec<AtomicU32> = (0..n as u32)
        .into_par_iter()
        .map(|v| AtomicU32::new(if state.undecided(v) { count(state.out, v) } else { 0 }))
        .collect();
    let peelable = |v: u32| ins[v as usize].load(Relaxed) == 0 || outs[v as usize].load(Relaxed) == 0;
    let mut frontier: Vec<u32> = (0..n as u32).into_par_iter().filter(|&v| state.undecided(v) && peelable(v)).collect();
    let mut decided = 0u64;
    while !frontier.is_empty() {
        // Claim: a vertex may be queued twice in one round (both counts reached 0).
        frontier.retain(|&v| state.component[v as usize].compare_exchange(UNDECIDED, v, Relaxed, Relaxed).is_ok());
        decided += frontier.len() as u64;
        frontier =
            frontier
                .par_iter()
                .flat_map_iter(|&v| {
                    let after_out = state.out.neighbors(v).iter().filter(move |&&u| u != v).filter_map(|&u| {
                        (state.undecided(u) && ins[u as usize].fetch_sub(1, Relaxed) == 1).then_some(u)
                    });
                    let after_in = state.inn.neighbors(v).iter().filter(move |&&u| u != v).filter_map(|&u| {
                        (state.undecided(u) && outs[u as usize].fetch_sub(1, Relaxed) == 1).then_some(u)
                    });
                    after_out.chain(after_in).collect::<Vec<u32>>()
                })
                .collect();
    }
    decided
}

/// Marks every undecided vertex `graph` reaches from `start` through undecided vertices of the
/// same `color` (all of them where `color` is None), level by level on all cores.
fn reach(state: &State, graph: &Graph, starts: &[u32], color: Option<&[AtomicU32]>) -> Vec<AtomicBool> {
    let n = graph.num_vertices();
    let seen: Vec<AtomicBool> = (0..n).into_par_iter().map(|_| AtomicBool::new(false)).collect();
    for &s in starts {
        seen[s as usize].store(true, Relaxed);
    }
    let mut frontier = starts.to_vec();
    while !frontier.is_empty() {
        frontier = frontier
            .par_iter()
            .flat_map_iter(|&v| {
                let own = color.map(|c| c[v as usize].load(Relaxed));
                let seen = &seen;
                graph.neighbors(v).iter().filter_map(move |&u| {
                    let same = own.is_none_or(|own| color.unwrap()[u as usize].load(Relaxed) == own);
                    (same && state.undecided(u) && !seen[u as usize].swap(true, Relaxed)).then_some(u)
                })
            })
            .collect();
    }
    seen
}

/// The component of the pivot (the undecided vertex of the largest in-degree times out-degree):
/// what it reaches forward and backward. Returns the vertices decided.
fn forward_backward(state: &State) -> u64 {
    let n = state.out.num_vertices() as u32;
    let pivot = (0..n)
        .into_par_iter()
        .filter(|&v| state.undecided(v))
        .max_by_key(|&v| (state.out.degree(v) * state.inn.degree(v), std::cmp::Reverse(v)));
    let Some(pivot) = pivot else { return 0 };
    let forward = reach(state, state.out, &[pivot], None);
    let backward = reach(state, state.inn, &[pivot], None);
    (0..n)
        .into_par_iter()
        .filter(|&v| forward[v as usize].load(Relaxed) && backward[v as usize].load(Relaxed))
        .map(|v| state.component[v as usize].store(pivot, Relaxed))
        .count() as u64
}

/// One coloring round: every undecided vertex takes the largest id that reaches it through
/// undecided vertices; a color's own vertex is its root, and the vertices of that color that
/// reach the root (backward from it) are its component. Every color with a root decides at least
/// the root, so each round decides something while vertices remain. Returns the vertices decided.
fn color(state: &State) -> u64 {
    let n = state.out.num_vertices() as u32;
    let colors: Vec<AtomicU32> = (0..n).into_par_iter().map(AtomicU32::new).collect();
    let changed = AtomicBool::new(true);
    while changed.swap(false, Relaxed) {
        (0..n).into_par_iter().filter(|&v| state.undecided(v)).for_each(|v| {
            let mine = colors[v as usize].load(Relaxed);
            for &u in state.out.neighbors(v) {
                if state.undecided(u) && colors[u as usize].fetch_max(mine, Relaxed) < mine {
                    changed.store(true, Relaxed);
                }
            }
        });
    }
    let roots: Vec<u32> =
        (0..n).into_par_iter().filter(|&v| state.undecided(v) && colors[v as usize].load(Relaxed) == v).collect();
    let members = reach(state, state.inn, &roots, Some(&colors));
    let decided = AtomicU64::new(0);
    (0..n).into_par_iter().filter(|&v| state.undecided(v) && members[v as usize].load(Relaxed)).for_each(|v| {
        state.component[v as usize].store(colors[v as usize].load(Relaxed), Relaxed);
        decided.fetch_add(1, Relaxed);
    });
    decided.into_inner()
}

/// Tarjan's algorithm on the undecided vertices and the edges between them: every one decided.
/// Returns how many.
fn serial_rest(state: &State) -> u64 {
    let mut decided = 0u64;
    tarjan_within(
        state.out,
        |v| state.undecided(v),
        |members| {
            for &u in members {
                state.component[u as usize].store(members[0], Relaxed);
            }
            decided += members.len() as u64;
        },
    );
    decided
}

/// Each vertex's component named by its smallest member.
fn canonical(state: &State) -> Components {
    let n = state.component.len();
    let smallest: Vec<AtomicU32> = (0..n).into_par_iter().map(|_| AtomicU32::new(u32::MAX)).collect();
    (0..n as u32).into_par_iter().for_each(|v| {
        let id = state.component[v as usize].load(Relaxed);
        smallest[id as usize].fetch_min(v, Relaxed);
    });
    let labels =
        (0..n).into_par_iter().map(|v| smallest[state.component[v].load(Relaxed) as usize].load(Relaxed)).collect();
    Components { labels }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::generate::{generate, GeneratorSpec};
    use crate::graph::{EdgeList, GraphBuilder};
    use crate::scc::cpu_reference::tarjan;

    fn directed(n: u64, edges: Vec<(u32, u32)>) -> Graph {
        GraphBuilder::new().build(EdgeList::new(n, edges, false)).unwrap()
    }

    /// A pseudo-random directed graph: `m` edges over `n` vertices, seeded.
    fn random(n: u32, m: usize, seed: u64) -> Graph {
        let mut state = seed;
        let mut next = || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as u32 % n
        };
        directed(n as u64, (0..m).map(|_| (next(), next())).collect())
    }

    #[test]
    fn every_phase_agrees_with_tarjan_on_random_graphs() {
        for (n, m, seed) in [(50, 60, 1), (200, 300, 2), (1000, 1500, 3), (1000, 4000, 4), (3000, 2000, 5)] {
            let graph = random(n, m, seed);
            // Coloring to the end, Tarjan's for the rest after the pivot, and Tarjan's after a
            // round of coloring (a rest of at most a tenth).
            for serial_at_most in [0, u64::MAX, n as u64 / 10] {
                let run = strongly_connected_with(&graph, serial_at_most);
                assert_eq!(run.components, tarjan(&graph), "n {n}, m {m}, seed {seed}, serial {serial_at_most}");
                let decided: u64 = run.phases.iter().map(|phase| phase.decided).sum();
                assert_eq!(decided, n as u64, "every vertex decided once");
                let serial = run.phases.iter().any(|phase| phase.name == "tarjan");
                let after_pivot: u64 = run.phases[..2].iter().map(|phase| phase.decided).sum();
                match serial_at_most {
                    0 => assert!(!serial, "{:?}", run.phases),
                    u64::MAX => assert_eq!(serial, after_pivot < n as u64, "{:?}", run.phases),
                    _ => {}
                }
            }
        }
    }

    #[test]
    fn chains_of_cycles_self_loops_and_isolated_vertices() {
        // 0 <-> 1 -> 2 <-> 3 -> 4 (self-loop), 5 isolated, 6 -> 6 -> 7 -> 6 a cycle of two.
        let graph = directed(8, vec![(0, 1), (1, 0), (1, 2), (2, 3), (3, 2), (3, 4), (4, 4), (6, 7), (7, 6)]);
        assert_eq!(strongly_connected(&graph).components.labels, vec![0, 0, 2, 2, 4, 5, 6, 6]);
        let empty = directed(0, vec![]);
        assert!(strongly_connected(&empty).components.labels.is_empty());
    }

    #[test]
    fn an_undirected_graph_gives_its_connected_components() {
        let graph = generate(&"grid2d:10x4".parse::<GeneratorSpec>().unwrap(), 1).unwrap();
        let labels = strongly_connected(&graph).components.labels;
        assert!(labels.iter().all(|&label| label == 0));
    }
}
