//! `warpath closeness` as a user meets it (issue 55, item 2): exact values in `--out` (NetworkX's
//! closeness and harmonic centrality), a sampled run with its bounds, exact runs on whichever
//! backend (the same values), `--verify`, `--json`, and
//! the GPU asked for while the CPU runs; and `info --diameter`, exact or by double sweeps.

use crate::common;

use common::{assert_one_line_error, stderr, stdout, value_of as value, warpath, Scratch};

#[test]
fn a_path_of_three_has_networkxs_values() {
    let scratch = Scratch::new("cli-closeness");
    let graph = scratch.file("path.el", b"0 1\n1 2\n");
    let out_path = scratch.path("closeness.txt");
    let g = graph.to_str().unwrap();
    let out =
        warpath(&["closeness", g, "--undirected", "--backend", "cpu", "--verify", "--out", out_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(value(&text, "closeness").starts_with("exact"), "{text}");
    assert_eq!(value(&text, "verified"), "ok (16 vertices against one BFS each)");
    // The middle vertex: distances 1 and 1; an end: 1 and 2 (NetworkX: 1.0, 2/3; harmonic 2, 1.5).
    let expected = format!("0 {} 1.5\n1 1 2\n2 {} 1.5\n", 2.0f64 / 3.0, 2.0f64 / 3.0);
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), expected);

    let out = warpath(&["closeness", g, "--undirected", "--backend", "cpu", "--no-wf-improved", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["command"], "closeness");
    assert_eq!(json["result"]["exact"], true);
    assert_eq!(json["result"]["wf_improved"], false);
    assert_eq!(json["result"]["top"][0]["vertex"], 1);
    assert_eq!(json["result"]["top"][0]["harmonic"], 2.0);
}

#[test]
fn a_big_graph_is_sampled_with_its_bound_and_the_gpu_is_not_used() {
    for backend in ["cpu", "gpu"] {
        let out = warpath(&[
            "closeness",
            "grid2d:30x30",
            "--exact-up-to",
            "100",
            "--samples",
            "200",
            "--backend",
            backend,
            "--verify",
            "--json",
        ]);
        assert!(out.status.success(), "{backend}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!(json["result"]["exact"], false);
        assert_eq!(json["result"]["sampled"]["samples"], 200);
        assert!(json["result"]["sampled"]["epsilon"].as_f64().unwrap() < 0.25, "{json}");
        assert_eq!(json["verified"], true);
        let warned =
            json["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains("sampled closeness"));
        assert_eq!(warned, backend == "gpu", "{json}");
        assert_eq!(json["backend"], "cpu", "{json}");
    }
}

/// Exact closeness runs on the GPU where there is one (`auto`), else on the CPU saying why; the
/// values are the same either way.
#[test]
fn exact_closeness_runs_where_the_backend_says() {
    let has_gpu = warpath::gpu::GpuContext::new().is_ok();
    let mut answers = Vec::new();
    for backend in ["auto", "cpu"] {
        let out = warpath(&["closeness", "kron:9", "--backend", backend, "--verify", "--top", "5", "--json"]);
        assert!(out.status.success(), "{backend}: {}", stderr(&out));
        let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
        assert_eq!((json["result"]["exact"].as_bool(), json["verified"].as_bool()), (Some(true), Some(true)), "{json}");
        let on_gpu = json["backend"] == "gpu";
        assert_eq!(on_gpu, has_gpu && backend == "auto", "{json}");
        let fell_back =
            json["warnings"].as_array().unwrap().iter().any(|w| w.as_str().unwrap().contains("running on the CPU"));
        assert_eq!(fell_back, !has_gpu && backend == "auto", "{json}");
        answers.push((json["result"]["mean_closeness"].clone(), json["result"]["top"].clone()));
    }
    assert_eq!(answers[0], answers[1], "the GPU's values are the CPU's");
}

#[test]
fn bad_requests_are_refused_in_one_line() {
    let scratch = Scratch::new("cli-closeness-bad");
    let lone = scratch.file("one.el", b"0 0\n");
    assert_one_line_error(
        &warpath(&["closeness", lone.to_str().unwrap(), "--backend", "cpu"]),
        &["at least two vertices"],
    );
    assert_one_line_error(&warpath(&["closeness", "grid2d:4x4", "--samples", "0"]), &["--samples"]);
}

#[test]
fn info_finds_the_diameter_exactly_or_bounds_it_by_sweeps() {
    // A 13 x 7 grid: corner to corner, 12 + 6 hops.
    let out = warpath(&["info", "grid2d:13x7", "--diameter"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(value(&text, "diameter").starts_with("18 hops, from "), "{text}");
    assert!(value(&text, "diameter").contains("(exact, every vertex's eccentricity, 91 searches;"), "{text}");
    let out = warpath(&["info", "grid2d:13x7", "--diameter", "sweep", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let diameter = &json["result"]["diameter"];
    assert_eq!(diameter["exact"], false);
    assert_eq!(diameter["hops"], 18, "a mesh's double sweep finds the corner-to-corner path: {json}");
    assert!(diameter["searches"].as_u64().unwrap() <= 8);
    let out = warpath(&["info", "grid2d:13x7", "--json"]);
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(json["result"]["diameter"].is_null(), "not asked: {json}");
}
