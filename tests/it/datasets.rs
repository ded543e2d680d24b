//! The real graphs in `../shared/datasets/`, checked against the counts in its MANIFEST.md.
//!
//! Expected numbers, from the MANIFEST (m = edge lines; the builder drops self-loops and
//! repeated lines, and an undirected edge is stored twice):
//! - directed edges stored = m − self-loops − repeated lines;
//! - undirected view = the MANIFEST's "unique undirected edges".
//!
//! Skipped, with a note, where the datasets folder is absent.

use crate::common;

use std::path::PathBuf;

use warpath::formats::{read_graph, ReadOptions};
use warpath::Graph;

fn dataset(name: &str) -> Option<PathBuf> {
    let path = common::datasets_dir(name)?.join(name);
    assert!(path.is_file(), "{} is missing from the datasets folder", path.display());
    Some(path)
}

/// Edges of the undirected view: each unordered pair {u, v} with an edge either way, once.
fn undirected_edges(g: &Graph) -> u64 {
    if g.is_undirected() {
        return g.num_edges() / 2;
    }
    (0..g.num_vertices() as u32)
        .map(|u| g.neighbors(u).iter().filter(|&&v| u < v || g.neighbors(v).binary_search(&u).is_err()).count() as u64)
        .sum()
}

struct Expected {
    vertices: usize,
    /// Directed edges stored when read as the file describes itself.
    stored_edges: u64,
    undirected_edges: u64,
    undirected: bool,
    id_base: u32,
}

fn check(name: &str, expected: Expected) {
    let Some(path) = dataset(name) else { return };
    // Unweighted: bcsstk13's values include negative ones, which a weighted read refuses.
    let options = ReadOptions { ignore_weights: true, ..ReadOptions::default() };
    let g = read_graph(&path, &options).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.num_vertices(), expected.vertices, "{name}: vertices");
    assert_eq!(g.num_edges(), expected.stored_edges, "{name}: stored edges");
    assert_eq!(undirected_edges(&g), expected.undirected_edges, "{name}: undirected edges");
    assert_eq!(g.is_undirected(), expected.undirected, "{name}: direction");
    assert_eq!(g.id_base(), expected.id_base, "{name}: id base");
}

#[test]
fn bcsstk13_symmetric_real_matrix() {
    // 42,943 entries, 2,003 of them the diagonal: 40,940 undirected edges.
    check(
        "bcsstk13.mtx.gz",
        Expected { vertices: 2003, stored_edges: 2 * 40_940, undirected_edges: 40_940, undirected: true, id_base: 1 },
    );
}

#[test]
fn luxembourg_osm_symmetric_pattern() {
    check(
        "luxembourg_osm.mtx.gz",
        Expected { vertices: 114_599, stored_edges: 239_332, undirected_edges: 119_666, undirected: true, id_base: 1 },
    );
}

#[test]
fn usroads_48_symmetric_pattern() {
    check(
        "usroads-48.mtx.gz",
        Expected {
            vertices: 126_146,
            stored_edges: 2 * 161_950,
            undirected_edges: 161_950,
            undirected: true,
            id_base: 1,
        },
    );
}

#[test]
fn email_enron_lists_both_directions() {
    // 367,662 lines, no self-loops or repeats, every edge both ways: 183,831 undirected.
    let Some(path) = dataset("Email-Enron.txt.gz") else { return };
    let g = read_graph(&path, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.num_vertices(), 36_692);
    assert_eq!(g.num_edges(), 367_662);
    assert_eq!(undirected_edges(&g), 183_831);
    assert!(!g.is_undirected() && g.is_symmetric());
    assert_eq!(g.id_base(), 0);
}

#[test]
fn soc_slashdot_crlf_with_self_loops() {
    // 948,464 lines, 78,303 self-loops, no repeats.
    check(
        "soc-Slashdot0902.txt.gz",
        Expected {
            vertices: 82_168,
            stored_edges: 948_464 - 78_303,
            undirected_edges: 504_230,
            undirected: false,
            id_base: 0,
        },
    );
}

#[test]
fn soc_slashdot_read_as_undirected() {
    let Some(path) = dataset("soc-Slashdot0902.txt.gz") else { return };
    let g =
        read_graph(&path, &ReadOptions { undirected: true, ..ReadOptions::DEFAULT }).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.num_vertices(), 82_168);
    assert_eq!(g.num_edges(), 2 * 504_230);
    assert!(g.is_undirected());
}

#[test]
fn web_notredame_crlf_with_self_loops() {
    // 1,497,134 lines, 27,455 self-loops, no repeats.
    check(
        "web-NotreDame.txt.gz",
        Expected {
            vertices: 325_729,
            stored_edges: 1_497_134 - 27_455,
            undirected_edges: 1_090_108,
            undirected: false,
            id_base: 0,
        },
    );
}

#[test]
fn usa_road_ny_dimacs_with_repeated_arcs() {
    // 733,846 arc lines, 3,746 of them repeats; every segment is two opposite arcs,
    // so the 730,100 distinct arcs make 365,050 undirected edges.
    let Some(path) = dataset("USA-road-d.NY.gr.gz") else { return };
    let g = read_graph(&path, &ReadOptions::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(g.num_vertices(), 264_346);
    assert_eq!(g.num_edges(), 733_846 - 3_746);
    assert_eq!(undirected_edges(&g), 365_050);
    assert!(!g.is_undirected() && g.is_symmetric());
    assert_eq!(g.id_base(), 1);
}
