//! Weights on the command line: `info` reports them, `convert` keeps them in `.wgr`, seeded
//! weights attach to any graph, and refused weights or combinations give one line and exit 2.

use crate::common;

use std::process::Output;

use common::{warpath, Scratch};

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn assert_one_line_error(out: &Output, needle: &str) {
    common::assert_one_line_error(out, &[needle]);
}

fn weights_line(text: &str) -> &str {
    text.lines().find(|l| l.starts_with("weights: ")).expect("a weights line")
}

#[test]
fn info_reports_the_weights_of_a_dimacs_file_and_convert_keeps_them() {
    let scratch = Scratch::new("cli-weights-dimacs");
    let gr = scratch.file("g.gr", "p sp 3 3\na 1 2 7\na 2 3 2\na 3 1 40\n".as_bytes());
    let wgr = scratch.path("g.wgr");
    assert_eq!(weights_line(&stdout(&warpath(&["info", gr.to_str().unwrap()]))), "weights: u32 weights from 2 to 40");
    let converted = stdout(&warpath(&["convert", gr.to_str().unwrap(), wgr.to_str().unwrap()]));
    assert!(converted.contains("u32 weights from 2 to 40"), "{converted}");
    assert_eq!(weights_line(&stdout(&warpath(&["info", wgr.to_str().unwrap()]))), "weights: u32 weights from 2 to 40");
    let ignored = stdout(&warpath(&["info", gr.to_str().unwrap(), "--ignore-weights"]));
    assert_eq!(weights_line(&ignored), "weights: none");
}

#[test]
fn seeded_weights_attach_to_generated_graphs_within_their_range() {
    let uniform = stdout(&warpath(&["info", "kron:10", "--weights", "uniform:3:9"]));
    let line = weights_line(&uniform);
    assert!(line.starts_with("weights: u32 weights from "), "{line}");
    let bounds: Vec<u64> = line.split(' ').filter_map(|w| w.parse().ok()).collect();
    assert!(bounds.len() == 2 && bounds[0] >= 3 && bounds[1] <= 9 && bounds[0] <= bounds[1], "{line}");
    let graph500 = stdout(&warpath(&["info", "kron:10", "--weights", "graph500"]));
    assert!(weights_line(&graph500).starts_with("weights: f32 weights from "), "{graph500}");
    assert_eq!(weights_line(&stdout(&warpath(&["info", "kron:10"]))), "weights: none");
}

#[test]
fn refused_weights_and_combinations_are_one_line() {
    let scratch = Scratch::new("cli-weights-refused");
    let gr = scratch.file("neg.gr", "p sp 2 1\na 1 2 -5\n".as_bytes());
    assert_one_line_error(&warpath(&["sssp", gr.to_str().unwrap(), "--backend", "cpu"]), "neg.gr:2");
    let ok = stdout(&warpath(&["info", gr.to_str().unwrap(), "--ignore-weights"]));
    assert_eq!(weights_line(&ok), "weights: none");
    assert_one_line_error(
        &warpath(&["info", "kron:8", "--weights", "uniform:9:3"]),
        "the lowest weight 9 is above the highest 3",
    );
    let road = scratch.file("road.gr", "p sp 2 1\na 1 2 5\n".as_bytes());
    let out = scratch.path("road.wgr");
    assert_one_line_error(
        &warpath(&["convert", road.to_str().unwrap(), out.to_str().unwrap(), "--compress"]),
        "compressed .wgr files hold no weights",
    );
    assert!(!out.exists(), "a refused convert must not write its output");
    // A weighted edge list of a graph without weights: the command line names its flag.
    let wel = scratch.path("kron.wel");
    common::assert_one_line_error(
        &warpath(&["convert", "kron:6", wel.to_str().unwrap()]),
        &["kron.wel", ".wel files hold weights", "--weights"],
    );
    assert!(!wel.exists(), "a refused convert must not write its output");
}

/// A real Matrix Market file with a negative value on line 4, as bcsstk13 (a stiffness
/// matrix) has on its line 17.
const NEGATIVE_MTX: &[u8] = b"%%MatrixMarket matrix coordinate real general\n3 3 3\n1 2 1.5\n2 3 -3.25\n3 1 2\n";

#[test]
fn negative_weights_are_refused_naming_the_flag_that_reads_the_edges_alone() {
    let scratch = Scratch::new("cli-weights-negative-hint");
    let mtx = scratch.file("neg.mtx", NEGATIVE_MTX);
    let gr = scratch.file("neg.gr", b"p sp 2 1\na 1 2 -5\n");
    let wgr = scratch.path("neg.wgr");
    let (m, w) = (mtx.to_str().unwrap(), wgr.to_str().unwrap());
    for args in [
        &["sssp", m, "--backend", "cpu"][..],
        &["bench", m, "--algorithm", "sssp", "--backend", "cpu", "--roots", "1"],
        // A .wgr holds only valid edge weights: convert refuses rather than drop them unasked.
        &["convert", m, w],
    ] {
        let out = warpath(args);
        common::assert_one_line_error(&out, &["neg.mtx:4:", "`-3.25` (negative)", "--ignore-weights"]);
    }
    assert!(!wgr.exists(), "a refused convert must not write its output");
    let out = warpath(&["sssp", gr.to_str().unwrap(), "--backend", "cpu"]);
    common::assert_one_line_error(&out, &["neg.gr:2:", "(negative)", "--ignore-weights"]);
    // Only a refused weight gets the hint: a malformed value is not read by ignoring it.
    let bad = scratch.file("bad.mtx", b"%%MatrixMarket matrix coordinate real general\n2 2 1\n1 2 x\n");
    let out = warpath(&["sssp", bad.to_str().unwrap(), "--backend", "cpu"]);
    common::assert_one_line_error(&out, &["bad.mtx:3:", "a real number"]);
    assert!(!common::stderr(&out).contains("--ignore-weights"), "{}", common::stderr(&out));
    // And the flag named does read them.
    let text = stdout(&warpath(&["sssp", m, "--backend", "cpu", "--source", "1", "--verify", "--ignore-weights"]));
    assert!(text.contains("verified: ok"), "{text}");
    stdout(&warpath(&["convert", m, w, "--ignore-weights"]));
    assert_eq!(weights_line(&stdout(&warpath(&["info", w]))), "weights: none");
}

#[test]
fn info_describes_weights_that_sssp_refuses() {
    let scratch = Scratch::new("cli-weights-info-negative");
    let mtx = scratch.file("neg.mtx.gz", NEGATIVE_MTX);
    let m = mtx.to_str().unwrap();
    assert_eq!(
        weights_line(&stdout(&warpath(&["info", m]))),
        "weights: f32 weights from -3.25 to 2 (some negative: sssp needs --ignore-weights or non-negative weights)"
    );
    let json: serde_json::Value = serde_json::from_str(&stdout(&warpath(&["info", m, "--json"]))).unwrap();
    assert_eq!(
        json["result"]["weights"],
        serde_json::json!({"kind": "f32", "min": -3.25, "max": 2.0, "problem": "negative"})
    );
    assert_eq!(json["edges"], 3, "the edges are all read");
    let gr = scratch.file("neg.gr", b"p sp 2 1\na 1 2 -5\n");
    assert_eq!(
        weights_line(&stdout(&warpath(&["info", gr.to_str().unwrap()]))),
        "weights: u32 weights from -5 to -5 (some negative: sssp needs --ignore-weights or non-negative weights)"
    );
    let wel = scratch.file("big.wel", b"0 1 5000000000\n");
    let line = weights_line(&stdout(&warpath(&["info", wel.to_str().unwrap()]))).to_string();
    assert!(line.contains("from 5000000000 to 5000000000 (some too large for u32"), "{line}");
    // Valid weights read as before, with no problem named.
    let ok = scratch.file("ok.gr", b"p sp 2 1\na 1 2 5\n");
    let json: serde_json::Value =
        serde_json::from_str(&stdout(&warpath(&["info", ok.to_str().unwrap(), "--json"]))).unwrap();
    assert_eq!(json["result"]["weights"], serde_json::json!({"kind": "u32", "min": 5.0, "max": 5.0, "problem": null}));
}

#[test]
fn bad_arguments_are_one_line_too() {
    for args in [
        &["bench", "kron:8", "--roots", "18446744073709551615"][..],
        &["bench", "kron:8", "--roots", "4294967296"],
        &["bfs", "kron:8", "--no-such-flag"],
        &["bfs", "kron:8", "--backend", "tpu"],
    ] {
        assert_one_line_error(&warpath(args), "warpath: error:");
    }
    let help = warpath(&["bfs", "-h"]);
    assert_eq!(help.status.code(), Some(0), "help is not an error");
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage:"));
}
