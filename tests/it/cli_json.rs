//! Output a script can read: `bfs --json` and `info --json` (one JSON object on stdout, the
//! same figures as the text), `--vram-budget` in every unit form, and where `suite` writes.
//! CPU backend only, so it runs everywhere.

use crate::common;

use std::path::Path;
use std::process::{Command, Output};

use common::{assert_one_line_error, stdout, Scratch};
use serde_json::Value;

fn warpath_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_warpath")).args(args).current_dir(dir).output().expect("run warpath")
}

fn warpath(args: &[&str]) -> Output {
    warpath_in(&common::source_tree(), args)
}

/// The one JSON object `warpath ARGS` printed, after checking that it succeeded and printed
/// exactly one line.
fn json_of(args: &[&str]) -> Value {
    let out = warpath(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 1, "one line of JSON expected:\n{text}");
    let value: Value = serde_json::from_str(&text).unwrap_or_else(|err| panic!("not JSON ({err}):\n{text}"));
    assert!(value.is_object(), "{text}");
    value
}

/// The keys of every command's `--json` envelope (bench/SCHEMA.md, "Command output"), sorted:
/// these and no other.
const ENVELOPE_KEYS: [&str; 14] = [
    "backend",
    "backend_detail",
    "command",
    "edges",
    "end_to_end_ms",
    "envelope_version",
    "graph",
    "load_ms",
    "place_ms",
    "result",
    "time_ms",
    "verified",
    "vertices",
    "warnings",
];

/// The keys of the JSON object `value`, sorted.
fn keys_of(value: &Value) -> Vec<&str> {
    let mut keys: Vec<&str> = value.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort_unstable();
    keys
}

/// The value after `name: ` on the line of `text` that starts with it.
fn text_field<'t>(text: &'t str, name: &str) -> &'t str {
    let prefix = format!("{name}: ");
    text.lines().find_map(|l| l.strip_prefix(&prefix)).unwrap_or_else(|| panic!("no `{name}:` in\n{text}"))
}

#[test]
fn bfs_json_has_the_figures_of_the_text() {
    let args = ["bfs", "grid2d:20x10", "--backend", "cpu", "--verify", "--source", "0"];
    let json = json_of(&[&args[..], &["--json"]].concat());
    assert_eq!(json["graph"], "grid2d:20x10");
    assert_eq!(json["backend"], "cpu");
    assert!(json["backend_detail"].as_str().unwrap().starts_with("cpu ("), "{json}");
    assert_eq!(json["result"]["gpu"], Value::Null, "no GPU part on the CPU");
    assert_eq!(json["result"]["source"], 0);
    assert_eq!(json["vertices"], 200);
    assert_eq!(json["edges"], 740);
    assert_eq!(json["result"]["edges_undirected"], 370);
    assert_eq!(json["result"]["reached"], 200);
    assert_eq!(json["result"]["depth"], 28);
    assert_eq!(json["result"]["distances_only"], false);
    assert_eq!(json["verified"], true);
    for timed in ["load_ms", "time_ms", "end_to_end_ms"] {
        assert!(json[timed].as_f64().is_some_and(|t| t >= 0.0), "{timed}: {json}");
    }
    assert!(json["result"]["gteps"].as_f64().is_some_and(|r| r >= 0.0), "{json}");

    // The text run says the same.
    let out = warpath(&args);
    let text = stdout(&out);
    for (name, field) in [("source", "source"), ("vertices", "vertices"), ("reached", "reached"), ("depth", "depth")] {
        let value = if field == "vertices" { &json[field] } else { &json["result"][field] };
        assert_eq!(text_field(&text, name), value.to_string(), "{name}");
    }
    assert!(text_field(&text, "edges").starts_with("740 (directed, as stored; 370 undirected)"));
}

#[test]
fn bfs_json_without_verify_says_null_and_keeps_the_out_file() {
    let scratch = Scratch::new("cli-json-out");
    let graph = scratch.file("g.gr", b"p sp 4 3\na 1 2 7\na 2 3 7\na 4 1 7\n");
    let out_file = scratch.path("bfs.txt");
    let json = json_of(&[
        "bfs",
        graph.to_str().unwrap(),
        "--backend",
        "cpu",
        "--source",
        "1",
        "--distances-only",
        "--out",
        out_file.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(json["verified"], Value::Null);
    assert_eq!(json["result"]["source"], 1, "numbered as in the file");
    assert_eq!((json["vertices"].as_u64(), json["edges"].as_u64()), (Some(4), Some(3)));
    assert_eq!(json["result"]["edges_undirected"], Value::Null, "a directed graph");
    assert_eq!((json["result"]["reached"].as_u64(), json["result"]["depth"].as_u64()), (Some(3), Some(2)));
    assert_eq!(json["result"]["distances_only"], true);
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(written.starts_with("# vertex distance") && written.ends_with("3 2\n4 -1\n"), "{written}");
}

#[test]
fn a_bad_input_with_json_is_still_one_error_line_and_no_json() {
    let out = warpath(&["bfs", "grid2d:4", "--backend", "cpu", "--source", "99", "--json"]);
    assert_one_line_error(&out, &["99", "out of range"]);
    assert_eq!(stdout(&out), "");
}

#[test]
fn info_json_has_the_figures_of_the_text() {
    let scratch = Scratch::new("cli-json-info");
    // 1-based DIMACS with u32 weights: 1 -> 2 (5), 2 -> 3 (9), 3 -> 1 (7); vertex 4 has no edges.
    let graph = scratch.file("g.gr", b"p sp 4 3\na 1 2 5\na 2 3 9\na 3 1 7\n");
    let path = graph.to_str().unwrap();
    let json = json_of(&["info", path, "--json"]);
    assert_eq!(json["graph"], path);
    assert_eq!((json["vertices"].as_u64(), json["edges"].as_u64()), (Some(4), Some(3)));
    assert_eq!(json["result"]["edges_undirected"], Value::Null);
    assert_eq!(json["result"]["symmetric"], false);
    assert_eq!(json["result"]["vertex_id_base"], 1);
    assert_eq!(json["result"]["out_degree"]["min"], 0);
    assert_eq!(json["result"]["out_degree"]["max"], 1);
    assert_eq!(json["result"]["out_degree"]["mean"], 0.75);
    assert_eq!(json["result"]["vertices_without_out_edges"], 1);
    assert_eq!(json["result"]["weights"]["kind"], "u32");
    assert_eq!(
        (json["result"]["weights"]["min"].as_f64(), json["result"]["weights"]["max"].as_f64()),
        (Some(5.0), Some(9.0))
    );
    assert_eq!(json["result"]["stored_compressed"], false);
    let (compressed, plain) =
        (json["result"]["compressed_bytes"].as_u64().unwrap(), json["result"]["plain_csr_bytes"].as_u64().unwrap());
    assert!(compressed > 0 && plain > 0, "{json}");
    assert!((json["result"]["compression_ratio"].as_f64().unwrap() - compressed as f64 / plain as f64).abs() < 1e-12);

    let text = stdout(&warpath(&["info", path]));
    assert_eq!(text_field(&text, "vertices"), "4");
    assert_eq!(text_field(&text, "weights"), "u32 weights from 5 to 9");
    assert!(text_field(&text, "compression").starts_with(&format!("{compressed} bytes as delta-varint")), "{text}");

    let unweighted = json_of(&["info", "grid2d:3", "--json"]);
    assert_eq!(unweighted["result"]["weights"], Value::Null);
    assert_eq!(unweighted["result"]["symmetric"], true);
    assert_eq!(unweighted["result"]["edges_undirected"], 12);
}

#[test]
fn every_commands_json_is_one_line_in_the_same_envelope() {
    let runs: [&[&str]; 9] = [
        &["bfs", "grid2d:12", "--source", "0"],
        &["bfs", "grid2d:12", "--sources", "0,5"],
        &["cc", "grid2d:12"],
        &["scc", "grid2d:12"],
        &["closeness", "grid2d:12"],
        &["sssp", "grid2d:12", "--weights", "uniform:1:9", "--source", "0"],
        &["bfs", "grid2d:12", "--source", "0", "--partitions", "2"],
        &["cc", "grid2d:12", "--partitions", "2"],
        &["info", "grid2d:12"],
    ];
    for run in runs {
        for verify in [false, true] {
            if verify && run[0] == "info" {
                continue;
            }
            let verify_flag: &[&str] = if verify { &["--verify"] } else { &[] };
            // `info` runs nothing, so it takes no backend.
            let backend: &[&str] = if run[0] == "info" { &[] } else { &["--backend", "cpu"] };
            let json = json_of(&[run, backend, &["--json"], verify_flag].concat());
            let what = format!("{run:?} verify {verify}: {json}");
            // The envelope (bench/SCHEMA.md, "Command output"): these keys and `result`, no other.
            assert_eq!(keys_of(&json), ENVELOPE_KEYS, "{what}");
            assert_eq!(json["envelope_version"], 1, "{what}");
            assert_eq!(json["command"], run[0], "{what}");
            assert_eq!(json["graph"], "grid2d:12", "{what}");
            assert_eq!((json["vertices"].as_u64(), json["edges"].as_u64()), (Some(144), Some(528)), "{what}");
            assert!(json["load_ms"].as_f64().is_some_and(|t| t >= 0.0), "{what}");
            assert!(json["warnings"].is_array() && json["result"].is_object(), "{what}");
            for shared in ENVELOPE_KEYS {
                assert!(json["result"].get(shared).is_none(), "{shared} twice: {what}");
            }
            if run[0] == "info" {
                for absent in ["backend", "backend_detail", "place_ms", "time_ms", "end_to_end_ms", "verified"] {
                    assert!(json[absent].is_null(), "{absent}: {what}");
                }
                continue;
            }
            assert_eq!(json["backend"], "cpu", "{what}");
            assert!(json["backend_detail"].as_str().is_some_and(|d| d.starts_with("cpu")), "{what}");
            assert!(json["time_ms"].as_f64().is_some_and(|t| t >= 0.0), "{what}");
            assert!(json["end_to_end_ms"].as_f64().is_some_and(|t| t >= 0.0), "{what}");
            // Cutting the graph into parts is a partitioned run's placement; the CPU places nothing.
            let partitioned = run.contains(&"--partitions");
            assert_eq!(json["place_ms"].is_f64(), partitioned, "{what}");
            // True once checked (a failed check exits 1 before printing), null when not asked.
            assert_eq!(json["verified"], if verify { Value::Bool(true) } else { Value::Null }, "{what}");
        }
    }
}

#[test]
fn bench_json_is_the_same_envelope_with_the_report_whole_under_result() {
    let scratch = common::Scratch::new("cli-json-bench");
    let runs: [&[&str]; 5] = [
        &["--algorithm", "bfs"],
        &["--algorithm", "cc"],
        &["--algorithm", "sssp", "--weights", "uniform:1:9"],
        &["--algorithm", "bfs", "--partitions", "2"],
        &["--algorithm", "cc", "--partitions", "2"],
    ];
    for run in runs {
        let base = ["bench", "grid2d:12", "--roots", "2", "--backend", "cpu"];
        // `-` prints the envelope in place of the text; a file gets the same line.
        let json = json_of(&[&base[..], run, &["--json", "-"]].concat());
        let file = scratch.path("bench.json");
        let out = warpath(&[&base[..], run, &["--json", file.to_str().unwrap()]].concat());
        assert!(out.status.success(), "{run:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout(&out).contains("json: "), "the text, then where the JSON went");
        let written: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
        let what = format!("{run:?}: {json}");
        assert_eq!(keys_of(&json), ENVELOPE_KEYS, "{what}");
        assert_eq!(keys_of(&written), ENVELOPE_KEYS, "{what}: the file");
        assert_eq!((json["envelope_version"].as_u64(), json["command"].as_str()), (Some(1), Some("bench")), "{what}");
        assert_eq!((json["graph"].as_str(), json["backend"].as_str()), (Some("grid2d:12"), Some("cpu")), "{what}");
        assert_eq!((json["vertices"].as_u64(), json["edges"].as_u64()), (Some(144), Some(528)), "{what}");
        assert_eq!(json["verified"], true, "{what}: every trial is validated");
        assert!(json["time_ms"].as_f64().is_some_and(|t| t >= 0.0), "{what}");
        // The report whole under `result` (a partitioned bench's under `runs`), so that
        // `warpath::bench::json` reads it back.
        let partitioned = run.contains(&"--partitions");
        // Cutting the graph into parts is a partitioned run's placement; the CPU places nothing.
        assert_eq!(json["place_ms"].is_f64(), partitioned, "{what}");
        let report = if partitioned { &json["result"]["runs"][1] } else { &json["result"] };
        assert!(report.is_object(), "{what}");
        if !partitioned {
            assert_eq!(report["summary"]["time_ms"]["median"], json["time_ms"], "{what}");
            assert!(warpath::bench::json::parse_any_report(&json.to_string()).is_ok(), "{what}");
        }
    }
}

#[test]
fn bench_scc_checks_every_run_against_tarjan_and_refuses_an_undirected_graph() {
    let scratch = Scratch::new("cli-json-bench-scc");
    // {0, 1, 2} a cycle, 2 -> 3, {3, 4} a cycle: two components.
    let file = scratch.path("cycles.el");
    std::fs::write(&file, "0 1\n1 2\n2 0\n2 3\n3 4\n4 3\n").unwrap();
    let path = file.to_str().unwrap();
    let json = json_of(&["bench", path, "--algorithm", "scc", "--trials", "2", "--backend", "cpu", "--json", "-"]);
    assert_eq!(keys_of(&json), ENVELOPE_KEYS, "{json}");
    assert_eq!((json["command"].as_str(), json["backend"].as_str()), (Some("bench"), Some("cpu")), "{json}");
    assert_eq!((json["vertices"].as_u64(), json["edges"].as_u64()), (Some(5), Some(6)), "{json}");
    assert_eq!(json["verified"], true, "{json}: every trial equal to Tarjan's");
    let report = &json["result"];
    assert_eq!(report["algorithm"], "scc", "{json}");
    assert_eq!(report["summary"]["components"], 2, "{json}");
    assert_eq!(report["summary"]["largest_component"], 3, "{json}");
    assert!(report["payload"]["tarjan_ms"].as_f64().is_some_and(|t| t >= 0.0), "{json}");
    assert!(warpath::bench::json::parse_any_report(&json.to_string()).is_ok(), "{json}");
    let text = stdout(&warpath(&["bench", path, "--algorithm", "scc", "--trials", "2", "--backend", "cpu"]));
    assert!(text.contains("tarjan: ") && text.contains("verified: ok (2/2 runs equal to Tarjan's)"), "{text}");
    let out = warpath(&["bench", "grid2d:4", "--algorithm", "scc", "--backend", "cpu"]);
    assert_one_line_error(&out, &["grid2d:4", "connected components", "--algorithm cc"]);
}

#[test]
fn bench_closeness_is_exact_and_checked_and_refuses_graphs_too_big_for_it() {
    let json =
        json_of(&["bench", "grid2d:8", "--algorithm", "closeness", "--trials", "2", "--backend", "cpu", "--json", "-"]);
    assert_eq!(keys_of(&json), ENVELOPE_KEYS, "{json}");
    assert_eq!((json["command"].as_str(), json["verified"].as_bool()), (Some("bench"), Some(true)), "{json}");
    let report = &json["result"];
    assert_eq!((report["algorithm"].as_str(), report["payload"]["passes"].as_u64()), (Some("closeness"), Some(1)));
    assert!(report["summary"]["mean_closeness"].as_f64().is_some_and(|c| c > 0.0 && c < 1.0), "{json}");
    assert!(warpath::bench::json::parse_any_report(&json.to_string()).is_ok(), "{json}");
    let out = warpath(&["bench", "kron:17", "--algorithm", "closeness", "--backend", "cpu"]);
    assert_one_line_error(&out, &["kron:17", "exact closeness takes graphs of 2 to 100000 vertices"]);
}

#[test]
fn vram_budget_takes_every_unit_form_and_refuses_others_in_one_line() {
    for budget in ["6GB", "6GiB", "6G", "1.5G", "512M", "512MiB", "536870912"] {
        let out = warpath(&["bfs", "grid2d:4", "--backend", "cpu", "--vram-budget", budget]);
        assert!(out.status.success(), "{budget}: {}", String::from_utf8_lossy(&out.stderr));
    }
    let out = warpath(&["bfs", "grid2d:4", "--backend", "cpu", "--vram-budget", "6XB"]);
    assert_one_line_error(&out, &["--vram-budget", "unknown size suffix `XB`"]);
    let out = warpath(&["bfs", "grid2d:4", "--backend", "cpu", "--vram-budget", "1.5"]);
    assert_one_line_error(&out, &["--vram-budget", "whole number of bytes"]);
    let help = stdout(&warpath(&["bfs", "--help"]));
    assert!(help.contains("powers of 1000") && help.contains("powers of 1024"), "{help}");
}

/// The single run folder under `dir`, and the files in it.
fn run_folder_files(dir: &Path) -> (String, Vec<String>) {
    let folders: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap()).collect();
    assert_eq!(folders.len(), 1, "one run folder in {}", dir.display());
    let folder = &folders[0];
    let mut files: Vec<String> = std::fs::read_dir(folder.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    (folder.file_name().to_string_lossy().into_owned(), files)
}

#[test]
fn suite_writes_into_warpath_suite_here_or_into_the_out_dir_given() {
    let scratch = Scratch::new("cli-suite-out");
    let quick = ["suite", "--quick", "--no-gpu", "--roots", "1", "--only", "grid2d"];

    let out = warpath_in(&scratch.dir, &quick);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let entries: Vec<_> = std::fs::read_dir(&scratch.dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(entries, ["warpath-suite"], "nothing else is written in the current directory");
    let (folder, files) = run_folder_files(&scratch.dir.join("warpath-suite"));
    assert!(folder.ends_with("-cpu-suite-quick"), "{folder}");
    assert_eq!(files, ["suite-cc.json", "suite-many.json", "suite-sssp.json", "suite.json", "suite.md"]);
    assert!(stdout(&out).contains(&format!("table: warpath-suite/{folder}/suite.md")), "{}", stdout(&out));

    let given = scratch.path("elsewhere/results");
    let out = warpath_in(&scratch.dir, &[&quick[..], &["--out-dir", given.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let (_, files) = run_folder_files(&given);
    assert_eq!(files, ["suite-cc.json", "suite-many.json", "suite-sssp.json", "suite.json", "suite.md"]);
    let report = std::fs::read_to_string(given.read_dir().unwrap().next().unwrap().unwrap().path().join("suite.json"));
    assert!(serde_json::from_str::<Value>(&report.unwrap()).is_ok());
}
