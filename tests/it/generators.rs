//! Synthetic graphs: spec parsing, sizes, determinism and structure.

use crate::common;

use common::adjacency;
use warpath::generate::{generate, looks_like_spec, GeneratorSpec};
use warpath::{Error, Graph};

fn spec(s: &str) -> GeneratorSpec {
    s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn max_degree(g: &Graph) -> u64 {
    (0..g.num_vertices() as u32).map(|v| g.degree(v)).max().unwrap_or(0)
}

fn average_degree(g: &Graph) -> f64 {
    g.num_edges() as f64 / g.num_vertices() as f64
}

/// Every generator promises an undirected, clean graph with 0-based ids.
fn assert_clean_undirected(g: &Graph) {
    assert!(g.is_undirected());
    assert_eq!(g.id_base(), 0);
    for v in 0..g.num_vertices() as u32 {
        let list = g.neighbors(v);
        assert!(list.windows(2).all(|w| w[0] < w[1]), "list of {v} not sorted and unique");
        assert!(!list.contains(&v), "self-loop at {v}");
        assert!(list.iter().all(|&u| g.neighbors(u).binary_search(&v).is_ok()), "asymmetric at {v}");
    }
}

/// `dkron` keeps Kronecker's draws directed: the same edges as `kron` once each is taken both
/// ways, and a graph that is not symmetric.
#[test]
fn directed_kronecker_is_kroneckers_edges_directed() {
    let directed = generate(&spec("dkron:9"), 3).unwrap();
    let undirected = generate(&spec("kron:9"), 3).unwrap();
    assert!(!directed.is_undirected() && undirected.is_undirected());
    assert_eq!(directed.num_vertices(), undirected.num_vertices());
    let mut both_ways: Vec<(u32, u32)> = (0..directed.num_vertices() as u32)
        .flat_map(|u| directed.neighbors(u).iter().flat_map(move |&v| [(u, v), (v, u)]))
        .collect();
    both_ways.sort_unstable();
    both_ways.dedup();
    let kron: Vec<(u32, u32)> = (0..undirected.num_vertices() as u32)
        .flat_map(|u| undirected.neighbors(u).iter().map(move |&v| (u, v)))
        .collect();
    assert_eq!(both_ways, kron);
    let one_way = (0..directed.num_vertices() as u32)
        .any(|u| directed.neighbors(u).iter().any(|&v| directed.neighbors(v).binary_search(&u).is_err()));
    assert!(one_way, "some edge has no reverse");
}

// ---- spec strings ----

#[test]
fn specs_parse_with_defaults_and_display_back() {
    let cases = [
        ("kron:14", GeneratorSpec::Kronecker { scale: 14, edge_factor: 16 }, "kron:14:16"),
        ("kron:10:8", GeneratorSpec::Kronecker { scale: 10, edge_factor: 8 }, "kron:10:8"),
        ("dkron:12", GeneratorSpec::DirectedKronecker { scale: 12, edge_factor: 16 }, "dkron:12:16"),
        (
            "rmat:12:4:0.45,0.15,0.15",
            GeneratorSpec::Rmat { scale: 12, edge_factor: 4, a: 0.45, b: 0.15, c: 0.15 },
            "rmat:12:4:0.45,0.15,0.15",
        ),
        ("urand:9", GeneratorSpec::Uniform { scale: 9, edge_factor: 16 }, "urand:9:16"),
        ("grid2d:5", GeneratorSpec::Grid2d { width: 5, height: 5 }, "grid2d:5x5"),
        ("grid2d:4x3", GeneratorSpec::Grid2d { width: 4, height: 3 }, "grid2d:4x3"),
        ("grid3d:3", GeneratorSpec::Grid3d { n: 3 }, "grid3d:3"),
    ];
    for (text, expected, shown) in cases {
        let parsed = spec(text);
        assert_eq!(parsed, expected, "{text}");
        assert_eq!(parsed.to_string(), shown);
        assert_eq!(spec(shown), parsed, "Display must parse back");
    }
}

#[test]
fn malformed_specs_show_the_expected_form() {
    let cases = [
        ("kron:", "kron:SCALE[:EDGEFACTOR]"),
        ("kron:x", "kron:SCALE[:EDGEFACTOR]"),
        ("kron:10:16:3", "kron:SCALE[:EDGEFACTOR]"),
        ("dkron:x", "dkron:SCALE[:EDGEFACTOR]"),
        ("rmat:10:16", "rmat:SCALE:EDGEFACTOR:A,B,C"),
        ("rmat:10:16:0.5,0.2", "rmat:SCALE:EDGEFACTOR:A,B,C"),
        ("rmat:10:16:0.5,x,0.1", "rmat:SCALE:EDGEFACTOR:A,B,C"),
        ("urand:-3", "urand:SCALE[:EDGEFACTOR]"),
        ("grid2d:4x", "grid2d:W[xH]"),
        ("grid3d:2:2", "grid3d:N"),
        ("kron:10:0", "edge factor must be at least 1"),
        ("grid2d:0x7", "at least 1"),
        ("rmat:10:16:0.6,0.3,0.2", "sum to less than 1"),
        ("rmat:10:16:0.5,0.25,0.25", "sum to less than 1"),
        ("rmat:10:16:0.7,-0.1,0.1", "non-negative"),
        ("rmat:10:16:NaN,0.1,0.1", "non-negative"),
        ("kron:31:4294967295", "cannot be held in memory"),
    ];
    for (text, needle) in cases {
        let err = text.parse::<GeneratorSpec>().unwrap_err();
        assert!(matches!(err, Error::InvalidArgument(_)), "{text}: {err:?}");
        assert!(err.to_string().contains(needle), "{text}: `{needle}` missing from: {err}");
    }
}

#[test]
fn oversized_specs_are_too_many_vertices() {
    for (text, vertices) in
        [("kron:32", 1u64 << 32), ("urand:40:1", 1 << 40), ("grid2d:65536", 1 << 32), ("grid3d:1626", 1626u64.pow(3))]
    {
        match text.parse::<GeneratorSpec>() {
            Err(Error::TooManyVertices { vertices: got }) => assert_eq!(got, vertices, "{text}"),
            other => panic!("{text}: expected TooManyVertices, got {other:?}"),
        }
    }
    // Specs built in code are checked by `generate` too.
    let err = generate(&GeneratorSpec::Kronecker { scale: 33, edge_factor: 1 }, 1).unwrap_err();
    assert!(matches!(err, Error::TooManyVertices { .. }), "{err:?}");
}

#[test]
fn spec_detection_goes_by_generator_name() {
    for s in ["kron:10", "rmat:1:1:0.1,0.1,0.1", "urand:3", "grid2d:4", "grid3d:2", "kron:bad"] {
        assert!(looks_like_spec(s), "{s}");
    }
    for s in ["graph.mtx", "kron", "kron.txt", "C:\\graphs\\a.mtx", "data/kron:10.txt", "foo:1"] {
        assert!(!looks_like_spec(s), "{s}");
    }
}

// ---- graphs ----

#[test]
fn kronecker_has_the_promised_size_and_is_clean() {
    let g = generate(&spec("kron:10"), 1).unwrap();
    assert_eq!(g.num_vertices(), 1024);
    // 16384 generated edges, stored both ways, minus self-loops and duplicates.
    assert!(g.num_edges() <= 2 * 16 * 1024);
    assert!(g.num_edges() > 16 * 1024, "{} edges: far too many lost", g.num_edges());
    assert_clean_undirected(&g);
}

#[test]
fn kronecker_degrees_are_skewed() {
    let g = generate(&spec("kron:14"), 7).unwrap();
    let (max, avg) = (max_degree(&g) as f64, average_degree(&g));
    assert!(max > 20.0 * avg, "max degree {max} is not > 20 x the average {avg:.1}");
}

#[test]
fn kronecker_permutation_spreads_hubs_away_from_low_ids() {
    // Without the relabelling, vertex 0 is the hub at every seed.
    let hubs: Vec<u32> = (1..=4)
        .map(|seed| {
            let g = generate(&spec("kron:10"), seed).unwrap();
            (0..1024).max_by_key(|&v| g.degree(v)).unwrap()
        })
        .collect();
    assert!(hubs.iter().any(|&h| h != hubs[0]), "the hub is always vertex {}", hubs[0]);
}

#[test]
fn generators_are_deterministic_and_seed_sensitive() {
    for text in ["kron:9", "rmat:9:8:0.45,0.15,0.15", "urand:9"] {
        let s = spec(text);
        let a = generate(&s, 42).unwrap();
        assert_eq!(a, generate(&s, 42).unwrap(), "{text}: same seed, different graphs");
        assert_ne!(a, generate(&s, 43).unwrap(), "{text}: seeds 42 and 43 gave the same graph");
    }
}

#[test]
fn output_does_not_depend_on_the_thread_count() {
    let s = spec("kron:11:8");
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
        pool.install(|| generate(&s, 5).unwrap())
    };
    assert_eq!(on(1), on(3));
}

#[test]
fn rmat_parameters_shape_the_degrees() {
    // a = b = c = d = 0.25 is a uniform graph: no hubs; Graph500's initiator makes hubs.
    let flat = generate(&spec("rmat:12:8:0.25,0.25,0.25"), 3).unwrap();
    let skewed = generate(&spec("rmat:12:8:0.57,0.19,0.19"), 3).unwrap();
    assert_eq!(flat.num_vertices(), 4096);
    assert_clean_undirected(&flat);
    let flat_ratio = max_degree(&flat) as f64 / average_degree(&flat);
    let skewed_ratio = max_degree(&skewed) as f64 / average_degree(&skewed);
    assert!(flat_ratio < 3.0, "uniform R-MAT has max/avg degree {flat_ratio:.1}");
    assert!(skewed_ratio > 10.0, "Graph500 R-MAT has max/avg degree {skewed_ratio:.1}");
    // Kronecker is R-MAT with Graph500's parameters.
    assert_eq!(generate(&spec("kron:12:8"), 3).unwrap(), skewed);
}

#[test]
fn uniform_graph_has_the_promised_size_and_no_hubs() {
    let g = generate(&spec("urand:12:8"), 11).unwrap();
    assert_eq!(g.num_vertices(), 4096);
    assert!(g.num_edges() <= 2 * 8 * 4096);
    // Collisions are rare at this density: almost every edge survives.
    assert!(g.num_edges() > 2 * 8 * 4096 * 99 / 100, "{} edges", g.num_edges());
    assert!((max_degree(&g) as f64) < 3.0 * average_degree(&g));
    assert_clean_undirected(&g);
}

#[test]
fn grid2d_is_exactly_a_grid() {
    let (w, h) = (4u32, 3u32);
    let g = generate(&spec("grid2d:4x3"), 0).unwrap();
    assert_eq!(g.num_vertices(), 12);
    assert_eq!(g.num_edges(), 2 * ((w - 1) * h + w * (h - 1)) as u64);
    assert_clean_undirected(&g);
    for y in 0..h {
        for x in 0..w {
            let mut expected = Vec::new();
            if y > 0 {
                expected.push(x + (y - 1) * w);
            }
            if x > 0 {
                expected.push(x - 1 + y * w);
            }
            if x + 1 < w {
                expected.push(x + 1 + y * w);
            }
            if y + 1 < h {
                expected.push(x + (y + 1) * w);
            }
            assert_eq!(g.neighbors(x + y * w), &expected[..], "vertex ({x}, {y})");
        }
    }
    let mut degrees: Vec<u64> = (0..12).map(|v| g.degree(v)).collect();
    degrees.sort_unstable();
    assert_eq!(degrees, vec![2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4]);
    assert_eq!(generate(&spec("grid2d:1"), 0).unwrap().num_edges(), 0);
}

#[test]
fn grid3d_is_exactly_a_grid() {
    let n = 3u32;
    let g = generate(&spec("grid3d:3"), 0).unwrap();
    assert_eq!(g.num_vertices(), 27);
    assert_eq!(g.num_edges(), 2 * 3 * (n * n * (n - 1)) as u64);
    assert_clean_undirected(&g);
    let id = |x: u32, y: u32, z: u32| x + y * n + z * n * n;
    assert_eq!(
        g.neighbors(id(1, 1, 1)),
        &[id(1, 1, 0), id(1, 0, 1), id(0, 1, 1), id(2, 1, 1), id(1, 2, 1), id(1, 1, 2)]
    );
    assert_eq!(g.neighbors(id(0, 0, 0)), &[id(1, 0, 0), id(0, 1, 0), id(0, 0, 1)]);
    assert_eq!(g.neighbors(id(2, 1, 0)), &[id(2, 0, 0), id(1, 1, 0), id(2, 2, 0), id(2, 1, 1)]);
    let mut histogram = [0; 7];
    for v in 0..27 {
        histogram[g.degree(v) as usize] += 1;
    }
    // 8 corners, 12 edge middles, 6 face centres, 1 centre.
    assert_eq!(histogram, [0, 0, 0, 8, 12, 6, 1]);
    // Grids ignore the seed.
    assert_eq!(adjacency(&g), adjacency(&generate(&spec("grid3d:3"), 99).unwrap()));
}
