//! `warpath sssp` and `warpath bench --algorithm sssp` on the command line: what they print,
//! the `--out` file, `--json`, `--verify` on every dataset, and one line with exit code 2 for
//! every bad input.

use crate::common;

use std::process::Output;

use common::{bench_report, warpath, Scratch};

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn line<'a>(text: &'a str, key: &str) -> &'a str {
    text.lines().find_map(|l| l.strip_prefix(key)).unwrap_or_else(|| panic!("no `{key}` line in\n{text}"))
}

/// 1 -> 2 (7), 2 -> 3 (2), 1 -> 3 (20), 3 -> 1 (1); 4 reaches nothing and is not reached.
const DIMACS: &[u8] = b"c tiny\np sp 4 4\na 1 2 7\na 2 3 2\na 1 3 20\na 3 1 1\n";

#[test]
fn sssp_prints_its_summary_and_writes_vertex_distance_parent() {
    let scratch = Scratch::new("cli-sssp-out");
    let gr = scratch.file("g.gr", DIMACS);
    let out_file = scratch.path("paths.txt");
    let out = warpath(&[
        "sssp",
        gr.to_str().unwrap(),
        "--source",
        "1",
        "--backend",
        "cpu",
        "--verify",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert!(line(&text, "backend: ").starts_with("cpu"), "{text}");
    assert!(line(&text, "algorithm: ").starts_with("delta-stepping on the CPU"), "{text}");
    assert_eq!(line(&text, "weights: "), "u32 weights from 1 to 20");
    assert_eq!(line(&text, "source: "), "1");
    assert_eq!(line(&text, "reached: "), "3");
    assert_eq!(line(&text, "max distance: "), "9");
    // Four edges, each relaxed at least once (delta-stepping may relax one again).
    let relaxations: u64 = line(&text, "relaxations: ").split(' ').next().unwrap().parse().unwrap();
    assert!(relaxations >= 4, "{text}");
    assert_eq!(line(&text, "verified: "), "ok");
    line(&text, "time: ");
    line(&text, "GTEPS: ");
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(written, "1 0 1\n2 7 1\n3 9 2\n4 inf -1\n");

    // Distances only: a header, then two columns.
    let out = warpath(&[
        "sssp",
        gr.to_str().unwrap(),
        "--source",
        "2",
        "--backend",
        "cpu",
        "--distances-only",
        "--verify",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert!(line(&text, "verified: ").starts_with("ok"), "{text}");
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(written.lines().skip(1).collect::<Vec<_>>(), ["1 3", "2 0", "3 2", "4 inf"]);
    assert!(written.starts_with('#'));
}

#[test]
fn json_real_weights_and_unit_weights() {
    let out = warpath(&["sssp", "kron:9", "--weights", "graph500", "--backend", "cpu", "--verify", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["verified"], true);
    assert!(report["result"]["max_distance"].as_f64().unwrap() > 0.0, "a number: {report}");
    // The default; on the CPU it names no GPU strategy (on a GPU the report names the one it took).
    assert_eq!(report["result"]["strategy"], "auto", "the default");
    let unchecked = warpath(&["sssp", "kron:9", "--weights", "uniform", "--backend", "cpu", "--json"]);
    let unchecked: serde_json::Value = serde_json::from_str(&stdout(&unchecked)).unwrap();
    assert!(unchecked["verified"].is_null(), "not checked, not false: {unchecked}");
    assert!(report["result"]["weights"].as_str().unwrap().starts_with("f32 weights"), "{report}");
    assert!(report["result"]["relaxations_per_edge"].as_f64().unwrap() >= 1.0, "{report}");
    assert!(report["result"]["reached"].as_u64().unwrap() > 1);

    let out = warpath(&["sssp", "grid2d:10", "--source", "0", "--backend", "cpu", "--verify"]);
    let text = stdout(&out);
    assert_eq!(line(&text, "max distance: "), "18");
    assert!(common::stderr_of(&out).contains("every edge weighs 1"), "{}", common::stderr_of(&out));
}

#[test]
fn short_help_is_one_line_a_flag() {
    let short = stdout(&warpath(&["sssp", "-h"]));
    for line in short.lines().skip_while(|l| !l.is_empty()) {
        let flag_or_argument = line.starts_with("  -") || line.starts_with("      --") || line.starts_with("  <");
        let heading = !line.starts_with(' ') && (line.ends_with(':') || line.starts_with("Usage:"));
        assert!(line.is_empty() || heading || flag_or_argument, "`{line}` in:\n{short}");
    }
    for needle in ["--delta", "--strategy", "--split-threshold", "--weights", "--backend", "--verify"] {
        assert!(short.contains(needle), "`{needle}` missing from sssp -h:\n{short}");
    }
    let long = stdout(&warpath(&["sssp", "--help"]));
    assert!(long.contains("kernel 3") && long.lines().count() > short.lines().count(), "{long}");
}

#[test]
fn bad_input_is_one_line_and_exit_code_2() {
    let scratch = Scratch::new("cli-sssp-bad");
    let gr = scratch.file("g.gr", DIMACS);
    let g = gr.to_str().unwrap();
    common::assert_one_line_error(
        &warpath(&["sssp", g, "--source", "9", "--backend", "cpu"]),
        &["source vertex 9", "out of range"],
    );
    let negative = scratch.file("neg.gr", b"p sp 3 2\na 1 2 4\na 2 3 -6\n");
    common::assert_one_line_error(
        &warpath(&["sssp", negative.to_str().unwrap(), "--backend", "cpu"]),
        &["neg.gr:3", "-6", "negative"],
    );
    common::assert_one_line_error(&warpath(&["sssp", g, "--delta", "0", "--backend", "cpu"]), &["--delta", "positive"]);
    common::assert_one_line_error(
        &warpath(&["sssp", g, "--split-threshold", "8", "--backend", "cpu"]),
        &["--split-threshold"],
    );
    common::assert_one_line_error(&warpath(&["sssp", g, "--strategy", "fastest"]), &["fastest"]);
    // The output may not be the input, and nothing is written on failure.
    common::assert_one_line_error(&warpath(&["sssp", g, "--backend", "cpu", "--out", g]), &["g.gr"]);
    assert_eq!(std::fs::read(&gr).unwrap(), DIMACS);
}

#[test]
fn bench_runs_sssp_from_graph500_roots_and_writes_json() {
    let scratch = Scratch::new("cli-sssp-bench");
    let json = scratch.path("sssp.json");
    let out = warpath(&[
        "bench",
        "kron:9",
        "--algorithm",
        "sssp",
        "--weights",
        "uniform:1:255",
        "--roots",
        "5",
        "--backend",
        "cpu",
        "--json",
        json.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert!(text.contains("roots: 5 (all validated"), "{text}");
    assert!(line(&text, "relaxations per edge: ").contains("median"), "{text}");
    let report = bench_report(&json);
    assert_eq!(report["algorithm"], "sssp");
    assert_eq!(report["trials"].as_array().unwrap().len(), 5);
    for trial in report["trials"].as_array().unwrap() {
        assert!(trial["relaxations_per_edge"].as_f64().unwrap() > 0.0, "{trial}");
        assert!(trial["gteps"].as_f64().unwrap() > 0.0, "{trial}");
    }
    assert_eq!(report["payload"]["weights"], "u32 weights from 1 to 255");
    common::assert_one_line_error(
        &warpath(&["bench", "kron:8", "--algorithm", "sssp", "--plot", "levels.svg", "--backend", "cpu"]),
        &["--plot", "--algorithm sssp"],
    );
}

#[test]
fn trace_is_accepted_and_says_the_cpu_records_none() {
    let scratch = Scratch::new("cli-sssp-trace");
    let json = scratch.path("sssp.json");
    let out = warpath(&[
        "bench",
        "kron:8",
        "--algorithm",
        "sssp",
        "--weights",
        "uniform:1:255",
        "--roots",
        "2",
        "--backend",
        "cpu",
        "--trace",
        "--json",
        json.to_str().unwrap(),
    ]);
    let text = stdout(&out);
    assert!(line(&text, "trace: ").starts_with("none (the CPU's delta-stepping records no buckets"), "{text}");
    let report = bench_report(&json);
    assert_eq!(
        (&report["flags"]["trace"], &report["payload"]["trace"]),
        (&serde_json::json!(true), &serde_json::Value::Null)
    );

    let text = stdout(&warpath(&["sssp", "kron:8", "--weights", "uniform:1:255", "--backend", "cpu", "--trace"]));
    assert!(line(&text, "trace: ").starts_with("none (the CPU's"), "{text}");
    let out = warpath(&["sssp", "kron:8", "--backend", "cpu", "--trace", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(report["result"].get("trace").is_some_and(|t| t.is_null()), "{report}");
    let out = warpath(&["sssp", "kron:8", "--backend", "cpu", "--json"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert!(report["result"].get("trace").is_none(), "no trace key unless asked: {report}");
}

#[test]
fn sssp_verify_passes_on_every_dataset_on_the_cpu() {
    let Some(dir) = common::datasets_dir("sssp_verify_passes_on_every_dataset_on_the_cpu") else { return };
    for file in common::dataset_files(&dir) {
        let name = file.to_str().unwrap();
        // USA-road-d.NY with its own arc lengths; the rest with GAPBS's weights (some files have
        // none, bcsstk13 negative matrix values).
        let mut args = vec!["sssp", name, "--backend", "cpu", "--verify"];
        if !name.contains("USA-road") {
            args.extend(["--weights", "uniform:1:255"]);
        }
        let text = stdout(&warpath(&args));
        assert_eq!(line(&text, "verified: "), "ok", "{name}");
    }
}

#[test]
fn targets_cutoffs_several_sources_and_paths_on_the_command_line() {
    let scratch = Scratch::new("cli-sssp-queries");
    let gr = scratch.file("g.gr", DIMACS);
    let g = gr.to_str().unwrap();
    // 1 -> 2 -> 3 is 9 long, shorter than the 20 of 1 -> 3.
    let text = stdout(&warpath(&["sssp", g, "--source", "1", "--target", "3", "--backend", "cpu", "--verify"]));
    assert_eq!(line(&text, "target: "), "3 at distance 9: 1 2 3");
    assert_eq!(line(&text, "verified: "), "ok");
    // A cutoff of 8 keeps 1 and 2 only.
    let text =
        stdout(&warpath(&["sssp", g, "-r", "1", "--cutoff", "8", "--path-to", "2", "--backend", "cpu", "--verify"]));
    assert_eq!(line(&text, "reached: "), "2");
    assert_eq!(line(&text, "path to "), "2 at distance 7: 1 2");
    assert!(line(&text, "cutoff: ").starts_with('8'), "{text}");
    // Two sources: 3 is its own nearest, 1 is nearer to 3 (1) than to 2 (3).
    let out_file = scratch.path("nearest.txt");
    let out = warpath(
        &["sssp", g, "--sources", "2,3", "--path-to", "1", "--backend", "cpu", "--verify", "--json", "--out"]
            .into_iter()
            .chain([out_file.to_str().unwrap()])
            .collect::<Vec<_>>(),
    );
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["result"]["sources"], serde_json::json!([2, 3]));
    assert_eq!(report["result"]["path_to"]["path"], serde_json::json!([3, 1]));
    assert_eq!(report["result"]["path_to"]["distance"], 1.0);
    assert_eq!(report["verified"], true);
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert_eq!(written, "1 1 3 3\n2 0 2 2\n3 0 3 3\n4 inf -1 -1\n");
    let out = warpath(&["sssp", g, "--sources", "1,3", "--target", "2", "--cutoff", "5", "--json", "--backend", "cpu"]);
    let report: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["result"]["target"]["distance"], serde_json::Value::Null, "2 lies 7 beyond 1: past the cutoff");
    assert_eq!(report["result"]["cutoff"], 5.0);

    for (args, needles) in [
        (&["--source", "1", "--sources", "2,3"][..], &["--sources", "--source"][..]),
        (&["--target", "9"], &["target vertex 9", "out of range"]),
        (&["--path-to", "0"], &["--path-to vertex 0", "out of range"]),
        (&["--cutoff", "-1"], &["--cutoff", "non-negative"]),
        (&["--cutoff", "2.5"], &["--cutoff", "whole number"]),
        (&["--sources", "1,7"], &["source vertex 7", "out of range"]),
        (&["--path-to", "2", "--distances-only"], &["--path-to", "--distances-only"]),
    ] {
        let mut full = vec!["sssp", g, "--backend", "cpu"];
        full.extend_from_slice(args);
        common::assert_one_line_error(&warpath(&full), needles);
    }
}
