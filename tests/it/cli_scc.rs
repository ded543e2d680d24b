//! `warpath scc` as a user meets it: the printout, the `--out` file in the input's numbering,
//! `--verify` against Tarjan's algorithm, `--json`, the GPU asked for (it runs there where there
//! is one, else `auto` falls back to the CPU saying why and `gpu` is refused in one line), bad
//! input refused in one line. Runs with and without a GPU.

use crate::common;

use common::{assert_one_line_error, stderr, stdout, value_of as value, warpath, Scratch};

/// A 1-based directed DIMACS file: 1 -> 2 -> 3 -> 1 a cycle, 3 -> 4, 4 -> 5 -> 4 a pair, 6 alone.
const DIRECTED: &[u8] = b"p sp 6 6\na 1 2 1\na 2 3 1\na 3 1 1\na 3 4 1\na 4 5 1\na 5 4 1\n";

#[test]
fn scc_prints_the_components_writes_them_in_the_files_numbering_and_verifies() {
    let scratch = Scratch::new("cli-scc");
    let graph = scratch.file("g.gr", DIRECTED);
    let out_path = scratch.path("scc.txt");
    let out =
        warpath(&["scc", graph.to_str().unwrap(), "--backend", "cpu", "--verify", "--out", out_path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(value(&text, "backend").starts_with("cpu ("), "{text}");
    assert_eq!(value(&text, "vertices"), "6");
    assert_eq!(value(&text, "edges"), "6 (directed)");
    assert_eq!(value(&text, "components"), "3 (1 of one vertex)");
    assert_eq!(value(&text, "largest component"), "3 vertices (50.00%)");
    assert_eq!(value(&text, "verified"), "ok");
    assert!(value(&text, "phases").starts_with("trimming "), "{text}");
    assert_eq!(std::fs::read_to_string(&out_path).unwrap(), "1 1\n2 1\n3 1\n4 4\n5 4\n6 6\n");
    assert!(stderr(&out).is_empty(), "the CPU asked for: no warning: {}", stderr(&out));
}

#[test]
fn an_undirected_graph_gives_its_connected_components_on_whichever_backend() {
    let has_gpu = warpath::gpu::GpuContext::new().is_ok();
    for backend in ["auto", "gpu", "cpu"] {
        let out = warpath(&["scc", "grid2d:9x4", "--backend", backend, "--verify"]);
        if backend == "gpu" && !has_gpu {
            assert_one_line_error(&out, &["GPU", "; use --backend cpu"]);
            continue;
        }
        assert!(out.status.success(), "{backend}: {}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(value(&text, "components"), "1 (0 of one vertex)", "{text}");
        assert_eq!(value(&text, "edges"), "59 (undirected: the components are the connected components)");
        assert_eq!(value(&text, "verified"), "ok");
        let on_gpu = value(&text, "backend").starts_with("gpu");
        assert_eq!(on_gpu, has_gpu && backend != "cpu", "{backend}: {text}");
        if backend == "auto" && !has_gpu {
            assert!(stderr(&out).contains("no usable GPU"), "{backend}: {}", stderr(&out));
        } else {
            assert!(stderr(&out).is_empty(), "{backend}: {}", stderr(&out));
        }
    }
}

#[test]
fn json_says_what_the_text_says() {
    let scratch = Scratch::new("cli-scc-json");
    let graph = scratch.file("g.gr", DIRECTED);
    let out = warpath(&["scc", graph.to_str().unwrap(), "--backend", "cpu", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["command"], "scc");
    assert_eq!(json["result"]["components"], 3);
    assert_eq!(json["result"]["largest_component"], 3);
    assert_eq!(json["result"]["single_vertex_components"], 1);
    let phases = json["result"]["phases"].as_array().unwrap();
    let decided: u64 = phases.iter().map(|p| p["decided"].as_u64().unwrap()).sum();
    assert_eq!(decided, 6, "every vertex decided once: {json}");
}

#[test]
fn a_missing_file_is_one_line() {
    let out = warpath(&["scc", "/no/such/graph.gr", "--backend", "cpu"]);
    assert_eq!(out.status.code(), Some(2));
    assert_one_line_error(&out, &["/no/such/graph.gr"]);
}

/// `--pivot-search` takes bfs or off (each verified, on whichever backend runs: the CPU ignores
/// it); anything else is clap's usage error naming the choices.
#[test]
fn the_pivot_search_is_chosen_by_name() {
    for choice in ["bfs", "off"] {
        let out = warpath(&["scc", "dkron:8", "--pivot-search", choice, "--verify"]);
        assert!(out.status.success(), "{choice}: {}", stderr(&out));
        assert_eq!(value(&stdout(&out), "verified"), "ok", "{choice}");
    }
    let out = warpath(&["scc", "dkron:8", "--pivot-search", "sometimes"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    for needle in ["--pivot-search", "sometimes", "bfs or off"] {
        assert!(stderr(&out).contains(needle), "`{needle}` missing: {}", stderr(&out));
    }
}
