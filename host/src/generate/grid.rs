//! Regular grids: the worst case for level-synchronous BFS (diameter in the thousands, a few
//! vertices per level), and graphs whose exact structure tests can check.

use crate::graph::EdgeList;

/// A `width × height` 5-point grid: vertex `(x, y)` is `x + y·width`, joined to its right
/// and lower neighbours; undirected, ids 0-based. The caller has checked the vertex count.
pub fn grid2d_edges(width: u64, height: u64) -> EdgeList {
    let id = |x: u64, y: u64| (x + y * width) as u32;
    let mut edges = Vec::with_capacity((2 * width * height) as usize);
    for y in 0..height {
        for x in 0..width {
            if x + 1 < width {
                edges.push((id(x, y), id(x + 1, y)));
            }
            if y + 1 < height {
                edges.push((id(x, y), id(x, y + 1)));
            }
        }
    }
    EdgeList::new(width * height, edges, true)
}

/// An `n × n × n` 7-point grid: vertex `(x, y, z)` is `x + y·n + z·n²`, joined to its
/// neighbours along each axis; undirected, ids 0-based. The caller has checked `n³`.
pub fn grid3d_edges(n: u64) -> EdgeList {
    let id = |x: u64, y: u64, z: u64| (x + y * n + z * n * n) as u32;
    let mut edges = Vec::with_capacity((3 * n * n * n) as usize);
    for z in 0..n {
        for y in 0..n {
            for x in 0..n {
                if x + 1 < n {
                    edges.push((id(x, y, z), id(x + 1, y, z)));
                }
                if y + 1 < n {
                    edges.push((id(x, y, z), id(x, y + 1, z)));
                }
                if z + 1 < n {
                    edges.push((id(x, y, z), id(x, y, z + 1)));
                }
            }
        }
    }
    EdgeList::new(n * n * n, edges, true)
}
