//! `warpath cc` as a user meets it: the printout, the `--out` file in the input's numbering,
//! `--verify`, `--json`, bad input refused in one line; `bench --algorithm cc` and the suite's
//! connected components. CPU backend only, so it runs everywhere.

use crate::common;

use common::{assert_one_line_error, stderr, stdout, value_of as value, warpath, Scratch};
use warpath::bench::cc::{CcPayload, CcSummary, CcTrial};
use warpath::bench::json::read_report_of;

/// A 1-based directed DIMACS file: 2 -> 1, 3 -> 2 (one weak component {1, 2, 3}), 4 alone,
/// 5 -> 6.
const SMALL_DIRECTED: &[u8] = b"p sp 6 3\na 2 1 7\na 3 2 7\na 5 6 7\n";

#[test]
fn cc_prints_the_contract_and_verifies() {
    let out = warpath(&["cc", "grid2d:20x10", "--backend", "cpu", "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(value(&text, "backend").starts_with("cpu ("), "{text}");
    assert!(value(&text, "backend").contains("no GPU"), "{text}");
    assert_eq!(value(&text, "cc algorithm"), "afforest (neighbor rounds 2, samples 1024)");
    assert_eq!(value(&text, "vertices"), "200");
    assert_eq!(value(&text, "edges"), "740 (directed, as stored; 370 undirected)");
    assert_eq!(value(&text, "components"), "1");
    assert_eq!(value(&text, "largest component"), "200 vertices (100.00%)");
    assert_eq!(value(&text, "isolated vertices"), "0");
    assert_eq!(value(&text, "verified"), "ok");
    assert!(value(&text, "time").ends_with(" ms"), "{text}");
    assert!(value(&text, "rate").ends_with(" edges/s (edges as stored / time)"), "{text}");
}

#[test]
fn out_file_names_components_by_their_smallest_vertex_in_the_files_numbering() {
    let scratch = Scratch::new("cli-cc-out");
    let graph = scratch.file("g.gr", SMALL_DIRECTED);
    let expected = "1 1\n2 1\n3 1\n4 4\n5 5\n6 5\n";
    for extra in [&[][..], &["--cc-algorithm", "shiloach-vishkin"], &["--rounds", "0", "--samples", "0"]] {
        let out_path = scratch.path("cc.txt");
        let args = ["cc", graph.to_str().unwrap(), "--backend", "cpu", "--verify", "--out", out_path.to_str().unwrap()];
        let out = warpath(&[&args[..], extra].concat());
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert_eq!(value(&text, "components"), "3", "{extra:?}");
        assert_eq!(value(&text, "isolated vertices"), "1", "{extra:?}");
        assert_eq!(value(&text, "largest component"), "3 vertices (50.00%)", "{extra:?}");
        assert_eq!(value(&text, "edges"), "3 (directed: weakly connected components)", "{extra:?}");
        assert_eq!(std::fs::read_to_string(&out_path).unwrap(), expected, "{extra:?}");
    }
    // Gzip when the name says so.
    let gz = scratch.path("cc.txt.gz");
    let out = warpath(&["cc", graph.to_str().unwrap(), "--backend", "cpu", "--out", gz.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let mut text = String::new();
    std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(std::fs::File::open(&gz).unwrap()), &mut text)
        .unwrap();
    assert_eq!(text, expected);
}

#[test]
fn options_show_in_the_printout() {
    let out = warpath(&["cc", "kron:8", "--backend", "cpu", "--rounds", "0", "--samples", "0", "--sample-seed", "9"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(value(&stdout(&out), "cc algorithm"), "afforest (neighbor rounds 0, sampling off)");
    let out = warpath(&["cc", "kron:8", "--backend", "cpu", "--cc-algorithm", "shiloach-vishkin", "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(value(&stdout(&out), "cc algorithm"), "shiloach-vishkin");
}

#[test]
fn json_is_one_object_with_what_the_text_says() {
    let scratch = Scratch::new("cli-cc-json");
    let graph = scratch.file("g.gr", SMALL_DIRECTED);
    let out = warpath(&["cc", graph.to_str().unwrap(), "--backend", "cpu", "--verify", "--json"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(json["backend"], "cpu");
    assert_eq!(json["result"]["cc_algorithm"], "afforest");
    assert_eq!((json["vertices"].as_u64(), json["edges"].as_u64()), (Some(6), Some(3)));
    assert_eq!(json["result"]["undirected"], false);
    assert_eq!(
        (json["result"]["components"].as_u64(), json["result"]["largest_component"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(json["result"]["largest_component_share"].as_f64(), Some(0.5));
    assert_eq!(json["result"]["isolated_vertices"].as_u64(), Some(1));
    assert_eq!(json["verified"], true);
    // The GPU's Afforest choices, as asked (the CPU runs its own Afforest whatever they are).
    assert_eq!(
        (json["result"]["init"].as_str(), json["result"]["giant_hooks"].as_bool()),
        (Some("vertex"), Some(true))
    );
    assert_eq!(json["result"]["round_compression"], false);
    assert!(json["time_ms"].as_f64().is_some() && json["result"]["edges_per_second"].as_f64().is_some());
    let phases: Vec<&str> =
        json["result"]["phases"].as_array().unwrap().iter().map(|p| p["phase"].as_str().unwrap()).collect();
    assert_eq!(phases, ["neighbor round 1", "neighbor round 2", "sampling", "final link", "compression"]);
    // Without --verify, `verified` is null.
    let out = warpath(&["cc", "grid2d:4", "--backend", "cpu", "--json"]);
    let json: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(json["verified"].is_null() && json["result"]["placement"].is_null());
    // On the CPU nothing is placed; the run as the caller waits for it holds the algorithm's time.
    assert!(json["place_ms"].is_null(), "{json}");
    assert!(json["end_to_end_ms"].as_f64().unwrap() >= json["time_ms"].as_f64().unwrap(), "{json}");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    let scratch = Scratch::new("cli-cc-bad");
    let graph = scratch.file("g.gr", SMALL_DIRECTED);
    let g = graph.to_str().unwrap();
    assert_one_line_error(&warpath(&["cc", "missing.mtx", "--backend", "cpu"]), &["missing.mtx"]);
    assert_one_line_error(&warpath(&["cc", "kron:x", "--backend", "cpu"]), &["kron:x"]);
    // Never over the input.
    assert_one_line_error(&warpath(&["cc", g, "--backend", "cpu", "--out", g]), &["g.gr"]);
    assert_eq!(std::fs::read(&graph).unwrap(), SMALL_DIRECTED);
    assert_one_line_error(
        &warpath(&["cc", g, "--backend", "cpu", "--cc-algorithm", "shiloach-vishkin", "--rounds", "3"]),
        &["--rounds", "shiloach-vishkin"],
    );
    assert_one_line_error(&warpath(&["cc", g, "--cc-algorithm", "ecl"]), &["ecl", "afforest", "shiloach-vishkin"]);
    assert_one_line_error(&warpath(&["cc", g, "--rounds", "-1"]), &["-1"]);
    assert_one_line_error(&warpath(&["cc", g, "--samples", "many"]), &["many"]);
    assert_one_line_error(&warpath(&["cc", g, "--giant-hooks", "maybe"]), &["maybe", "--giant-hooks"]);
    assert_one_line_error(&warpath(&["cc", g, "--cc-init", "ecl"]), &["ecl", "vertex", "smaller-neighbor"]);
    assert_one_line_error(&warpath(&["cc", g, "--local-link", "300"]), &["300", "256", "2048"]);
    assert_one_line_error(&warpath(&["cc", g, "--local-link", "on"]), &["on", "auto, off"]);
    assert_one_line_error(&warpath(&["cc", g, "--vertex-batch", "2"]), &["`2` is not auto, 1 or 4"]);
    assert_one_line_error(&warpath(&["cc", g, "--round-order", "random"]), &["`random` is not auto, ids or scattered"]);
    assert_one_line_error(
        &warpath(&["cc", g, "--backend", "cpu", "--cc-algorithm", "shiloach-vishkin", "--round-order", "ids"]),
        &["--round-order", "shiloach-vishkin"],
    );
    assert_one_line_error(
        &warpath(&["cc", g, "--backend", "cpu", "--cc-algorithm", "shiloach-vishkin", "--local-link", "off"]),
        &["--local-link", "shiloach-vishkin"],
    );
    assert_one_line_error(
        &warpath(&["cc", g, "--backend", "cpu", "--cc-algorithm", "shiloach-vishkin", "--giant-hooks", "off"]),
        &["--giant-hooks", "shiloach-vishkin"],
    );
    // An output folder that does not exist: refused before the work.
    assert_one_line_error(
        &warpath(&["cc", g, "--backend", "cpu", "--out", "/nonexistent/dir/cc.txt"]),
        &["nonexistent"],
    );
}

#[test]
fn rounds_and_samples_are_bounded_and_say_their_range() {
    // A million rounds on four vertices ran 11 s and printed 111 MB of JSON; billions of
    // samples ran minutes on the CPU.
    for command in [&["cc", "grid2d:2"][..], &["bench", "grid2d:2", "--algorithm", "cc"]] {
        let refused = |extra: &[&str]| warpath(&[command, &["--backend", "cpu"], extra].concat());
        assert_one_line_error(&refused(&["--rounds", "1000000"]), &["--rounds", "1000000", "0 to 64"]);
        assert_one_line_error(&refused(&["--rounds", "65"]), &["--rounds", "65", "0 to 64"]);
        assert_one_line_error(&refused(&["--samples", "4000000000"]), &["--samples", "4000000000", "2048"]);
        assert_one_line_error(&refused(&["--samples", "2049"]), &["--samples", "2049", "2048"]);
    }
    // The bounds themselves are taken.
    let out = warpath(&["cc", "grid2d:4", "--backend", "cpu", "--verify", "--rounds", "64", "--samples", "2048"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(value(&stdout(&out), "cc algorithm"), "afforest (neighbor rounds 64, samples 2048)");
    // -h says the ranges.
    let help = stdout(&warpath(&["cc", "-h"]));
    assert!(help.contains("neighbor rounds, 0 to 64") && help.contains("samples, 0 to 2048"), "{help}");
}

#[test]
fn bench_runs_cc_validates_every_trial_and_writes_its_report() {
    let scratch = Scratch::new("cli-cc-bench");
    let json = scratch.path("cc.json");
    let out = warpath(&[
        "bench",
        "kron:9",
        "--algorithm",
        "cc",
        "--trials",
        "3",
        "--backend",
        "cpu",
        "--rounds",
        "1",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(value(&text, "cc algorithm"), "afforest (neighbor rounds 1, samples 1024)");
    assert_eq!(value(&text, "verified"), "ok (3/3 runs validated)");
    assert!(value(&text, "time").starts_with("min "), "{text}");
    assert!(text.contains("phases of run 1:") && text.contains("final link"), "{text}");
    // The stages paid once: read and build (and on a GPU the placement, not in any trial).
    assert!(text.contains("stages, once per run:") && text.contains("  build "), "{text}");
    let report = read_report_of::<CcTrial, CcSummary, CcPayload>("cc", &json).unwrap();
    assert!(report.placement.is_none(), "nothing is placed on the CPU");
    assert_eq!((report.algorithm.as_str(), report.trials.len(), report.summary.validated), ("cc", 3, 3));
    assert_eq!(value(&text, "components"), report.summary.details.components.to_string());
    assert!(report.trials.iter().all(|t| t.source.is_none() && t.edges == report.graph.edges));
    assert_eq!(report.payload.neighbor_rounds, 1);
    let phases: Vec<&str> = report.payload.phases.iter().map(|p| p.phase.as_str()).collect();
    assert_eq!(phases, ["neighbor round 1", "sampling", "final link", "compression"]);
    // A BFS reader refuses a CC report by name.
    let err = warpath::bench::read_report(&json).unwrap_err().to_string();
    assert!(err.contains("of `cc`, not of `bfs`"), "{err}");
}

#[test]
fn bench_refuses_options_of_the_other_algorithm() {
    assert_one_line_error(&warpath(&["bench", "kron:6", "--rounds", "3"]), &["--rounds", "--algorithm cc"]);
    assert_one_line_error(
        &warpath(&["bench", "kron:6", "--algorithm", "cc", "--gpu-kernel", "per-level"]),
        &["--gpu-kernel", "--algorithm cc"],
    );
    assert_one_line_error(&warpath(&["bench", "kron:6", "--algorithm", "cc", "--plot", "x.svg"]), &["--plot"]);
    assert_one_line_error(&warpath(&["bench", "kron:6", "--algorithm", "sort"]), &["sort", "bfs", "cc"]);
}

#[test]
fn the_suite_runs_cc_beside_bfs_unless_told_not_to() {
    let scratch = Scratch::new("cli-cc-suite");
    let run = |extra: &[&str]| {
        let out_dir = scratch.path("results");
        let args = [
            "suite",
            "--quick",
            "--roots",
            "2",
            "--only",
            "grid2d",
            "--no-gpu",
            "--out-dir",
            out_dir.to_str().unwrap(),
        ];
        let out = warpath(&[&args[..], extra].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let text = run(&[]);
    let table = std::fs::read_to_string(value(&text, "table")).unwrap();
    let cc_table = table.split("## Connected components").nth(1).expect("a connected-components table");
    let row = cc_table.lines().find(|l| l.starts_with("| grid2d:64 |")).unwrap();
    // vertices, edges, one component of all 4096 vertices, the GPU not asked for.
    assert!(row.starts_with("| grid2d:64 | 4096 | 16128 | 1 | 4096 | n/a |"), "{row}");
    assert!(row.contains("n/a (the GPU did not run: not asked for)"), "{row}");
    let cc_json = value(&text, "json (cc)");
    let reports: Vec<warpath::bench::CcReport> =
        serde_json::from_str(&std::fs::read_to_string(cc_json).unwrap()).unwrap();
    assert_eq!(reports.len(), 1);
    assert_eq!((reports[0].device.backend.as_str(), reports[0].summary.validated), ("cpu", 2));
    // The BFS reports stay in suite.json, which reads as BFS reports.
    let bfs: Vec<warpath::bench::BenchReport> =
        serde_json::from_str(&std::fs::read_to_string(value(&text, "json")).unwrap()).unwrap();
    assert_eq!(bfs.len(), 1);
    let text = run(&["--no-cc"]);
    assert!(!text.contains("json (cc)"), "{text}");
    assert!(!std::fs::read_to_string(value(&text, "table")).unwrap().contains("Connected components"));
}

#[test]
fn cc_verifies_on_every_dataset_on_the_cpu() {
    let Some(dir) = common::datasets_dir("cc_verifies_on_every_dataset_on_the_cpu") else { return };
    for file in common::dataset_files(&dir) {
        let out = warpath(&["cc", file.to_str().unwrap(), "--backend", "cpu", "--verify"]);
        assert!(out.status.success(), "{}: {}", file.display(), stderr(&out));
        assert_eq!(value(&stdout(&out), "verified"), "ok", "{}", file.display());
    }
}

/// `cc --partitions N`: the partitioned components, the same `--out` file as one partition's,
/// verified, with the merge's exchange in the text and in `--json`.
#[test]
fn cc_over_partitions_writes_the_same_labels_and_verifies() {
    let scratch = Scratch::new("cli-cc-partitions");
    let mut written = Vec::new();
    for parts in ["1", "3"] {
        let path = scratch.dir.join(format!("cc-{parts}.txt"));
        let out = warpath(&[
            "cc",
            "kron:10",
            "--partitions",
            parts,
            "--backend",
            "cpu",
            "--verify",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert!(value(&text, "backend").starts_with("cpu ("), "{text}");
        assert_eq!(value(&text, "verified"), "ok");
        assert!(value(&text, "exchange").contains("pairs of components joined across parts"), "{text}");
        written.push(std::fs::read_to_string(&path).unwrap());
    }
    assert_eq!(written[0], written[1]);
    let single = scratch.dir.join("cc-single.txt");
    let out = warpath(&["cc", "kron:10", "--backend", "cpu", "--out", single.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&single).unwrap(), written[0]);

    let out = warpath(&["cc", "urand:10", "--partitions", "4", "--backend", "cpu", "--json", "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((json["result"]["partitions"].as_u64(), json["verified"].as_bool()), (Some(4), Some(true)));
    assert!(json["result"]["exchange_bytes"].as_u64().unwrap() > 0, "{json}");
    assert!(json["time_ms"].as_f64().unwrap() >= json["result"]["merge_ms"].as_f64().unwrap());
}

/// `bench --algorithm cc --partitions 1,2,3`: every run validated, one line a rank count, and a
/// report a script can read.
#[test]
fn bench_runs_partitioned_cc_on_every_count() {
    let scratch = Scratch::new("cli-cc-bench-partitions");
    let path = scratch.dir.join("cc.json");
    let out = warpath(&[
        "bench",
        "kron:10",
        "--algorithm",
        "cc",
        "--partitions",
        "1,2,3",
        "--trials",
        "2",
        "--backend",
        "cpu",
        "--json",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("every run validated"), "{text}");
    let envelope: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(envelope["command"], "bench");
    let rows = envelope["result"]["runs"].as_array().unwrap();
    let ranks: Vec<u64> = rows.iter().map(|r| r["ranks"].as_u64().unwrap()).collect();
    assert_eq!(ranks, [1, 2, 3]);
    assert!(rows.iter().all(|r| r["trials"].as_array().unwrap().len() == 2 && r["speedup"].as_f64().unwrap() > 0.0));
    assert_eq!(rows[0]["exchange_bytes"], 0);
    assert_eq!(envelope["time_ms"], rows[2]["time_ms"]);
    assert!(rows[2]["exchange_bytes"].as_u64().unwrap() > 0);
    assert_one_line_error(
        &warpath(&["bench", "kron:8", "--algorithm", "sssp", "--partitions", "2"]),
        &["the partitioned bench runs bfs and cc"],
    );
    let two_d = ["kron:8", "--partitions", "4", "--layout", "2d", "--backend", "cpu"];
    for command in [&["cc"][..], &["bench", "--algorithm", "cc"]] {
        let out = warpath(&[command, &two_d[..]].concat());
        assert_one_line_error(&out, &["--layout 2d runs the partitioned BFS only"]);
    }
}
