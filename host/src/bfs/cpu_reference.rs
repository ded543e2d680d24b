//! The sequential reference BFS. It is deliberately the textbook algorithm with nothing
//! clever in it, so that it can be trusted as the answer every other kernel (parallel CPU,
//! GPU) is compared against.

use crate::bfs::BfsResult;
use crate::graph::{Graph, UNREACHED};

/// Plain queue-based breadth-first search over out-edges (Cormen et al., "Introduction to
/// Algorithms", section 22.2). Each vertex's parent is the first frontier vertex, in queue
/// order, that has an edge to it.
///
/// Panics if `source` is not a vertex; use [`check_source`](crate::bfs::check_source) on
/// user input first.
pub fn bfs_sequential(g: &Graph, source: u32) -> BfsResult {
    let n = g.num_vertices();
    assert!((source as usize) < n, "BFS source {source} is not a vertex (the graph has {n})");
    let mut distances = vec![UNREACHED; n];
    let mut parents = vec![UNREACHED; n];
    distances[source as usize] = 0;
    parents[source as usize] = source;

    // Every vertex enters the queue at most once, so one array of n slots with a read
    // cursor is the whole queue; no ring buffer or deque is needed.
    let mut queue = Vec::with_capacity(n);
    queue.push(source);
    let mut head = 0;
    while head < queue.len() {
        let u = queue[head];
        head += 1;
        let next_distance = distances[u as usize] + 1;
        for &v in g.neighbors(u) {
            if distances[v as usize] == UNREACHED {
                distances[v as usize] = next_distance;
                parents[v as usize] = u;
                queue.push(v);
            }
        }
    }
    BfsResult { source, distances, parents }
}
