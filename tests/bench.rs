//! The benchmark harness: statistics against hand-computed cases, the JSON report round trip,
//! and `warpath bench` and `warpath suite --quick` end to end (on the CPU where there is no GPU).

mod common;

use std::process::Command;

use common::Scratch;
use warpath::bench::json::{parse_report, Flags};
use warpath::bench::stats::{harmonic_mean, median, Spread};
use warpath::bench::{read_report, run_bench, write_report, BenchOptions, BenchReport, RootRecord, Summary};
use warpath::bfs::{Backend, Traverser};
use warpath::generate::generate;

fn record(source: u64, time_ms: f64, edges: u64, depth: u32, reached: u64) -> RootRecord {
    RootRecord {
        source,
        time_ms,
        end_to_end_ms: time_ms + 1.0,
        depth,
        reached,
        edges_in_component: edges,
        graph500_edges: edges / 2,
        gteps: edges as f64 / (time_ms / 1e3) / 1e9,
        graph500_gteps: (edges / 2) as f64 / (time_ms / 1e3) / 1e9,
    }
}

#[test]
fn summary_by_hand() {
    // 4e6 edges in 1, 2 and 4 ms: 4, 2 and 1 GTEPS; harmonic mean 3 / (1/4 + 1/2 + 1) = 12/7.
    let records =
        [record(1, 2.0, 4_000_000, 3, 10), record(2, 1.0, 4_000_000, 5, 30), record(3, 4.0, 4_000_000, 4, 20)];
    let s = Summary::of(&records).unwrap();
    assert_eq!(s.roots, 3);
    assert_eq!(s.time_ms, Spread { min: 1.0, median: 2.0, max: 4.0 });
    assert_eq!(s.end_to_end_ms, Spread { min: 2.0, median: 3.0, max: 5.0 });
    assert!((s.hmean_gteps - 12.0 / 7.0).abs() < 1e-12, "{}", s.hmean_gteps);
    assert!((s.hmean_graph500_gteps - 6.0 / 7.0).abs() < 1e-12, "{}", s.hmean_graph500_gteps);
    assert_eq!(s.depth, Spread { min: 3.0, median: 4.0, max: 5.0 });
    assert_eq!(s.reached, Spread { min: 10.0, median: 20.0, max: 30.0 });
    assert!(Summary::of(&[]).is_none());
    // The harmonic mean is below the arithmetic mean (7/3) unless all rates are equal.
    assert!((harmonic_mean(&[2.5, 2.5, 2.5]).unwrap() - 2.5).abs() < 1e-12);
    assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
}

#[test]
fn edges_in_component_by_hand() {
    // A path 0-1-2 and a triangle 3-4-5: from 0, 3 vertices, 2 undirected edges, 4 directed.
    let g = common::build(6, vec![(0, 1), (1, 2), (3, 4), (4, 5), (5, 3)], true);
    let t = Traverser::new(&g, Backend::Cpu).unwrap();
    let run = run_bench(&g, &t, &BenchOptions { roots: 6, seed: 9, trace: false }, &mut |_| {}).unwrap();
    for r in &run.roots {
        let (reached, directed, graph500) = if r.source < 3 { (3, 4, 2) } else { (3, 6, 3) };
        assert_eq!(
            (r.reached, r.edges_in_component, r.graph500_edges),
            (reached, directed, graph500),
            "root {}",
            r.source
        );
    }
    // Directed input: Graph500's count is the directed edges. 0 -> 1 -> 2, 2 -> 0, 3 -> 0.
    let d = common::build(4, vec![(0, 1), (1, 2), (2, 0), (3, 0)], false);
    let t = Traverser::new(&d, Backend::Cpu).unwrap();
    let run = run_bench(&d, &t, &BenchOptions { roots: 4, seed: 2, trace: false }, &mut |_| {}).unwrap();
    for r in &run.roots {
        let expected = if r.source == 3 { (4, 4) } else { (3, 3) };
        assert_eq!((r.reached, r.edges_in_component), expected, "root {}", r.source);
        assert_eq!(r.graph500_edges, r.edges_in_component);
    }
}

#[test]
fn json_report_round_trips() {
    let scratch = Scratch::new("bench-json");
    let graph = generate(&"kron:10".parse().unwrap(), 1).unwrap();
    let traverser = Traverser::new(&graph, Backend::Cpu).unwrap();
    let run = run_bench(&graph, &traverser, &BenchOptions { roots: 4, seed: 5, trace: true }, &mut |_| {}).unwrap();
    let flags = Flags { roots: 4, seed: 5, backend: "cpu".into(), undirected: false, trace: true };
    let report = BenchReport::new("kron:10", &graph, flags, 1.5, run);
    let path = scratch.path("report.json");
    write_report(&report, &path).unwrap();
    let back = read_report(&path).unwrap();
    assert_eq!(back, report);
    assert_eq!(back.roots.len(), 4);
    assert!(!back.trace.as_ref().unwrap().levels.is_empty());

    // Another schema version is refused with a message saying so.
    let text = std::fs::read_to_string(&path).unwrap().replacen("\"schema_version\": 1", "\"schema_version\": 99", 1);
    let err = parse_report(&text).unwrap_err();
    assert!(err.contains("schema version 99"), "{err}");
    assert!(parse_report("{}").unwrap_err().contains("no schema_version"));
}

fn warpath(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_warpath")).args(args).output().expect("run warpath");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn value<'a>(stdout: &'a str, key: &str) -> &'a str {
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no `{key}:` line in:\n{stdout}"))
}

#[test]
fn bench_command_end_to_end() {
    let scratch = Scratch::new("bench-cli");
    let json = scratch.path("out.json");
    let svg = scratch.path("levels.svg");
    let (ok, stdout, stderr) = warpath(&[
        "bench",
        "kron:10",
        "--roots",
        "4",
        "--backend",
        "cpu",
        "--trace",
        "--json",
        json.to_str().unwrap(),
        "--plot",
        svg.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}\n{stderr}");
    assert!(value(&stdout, "backend").starts_with("cpu"));
    assert!(value(&stdout, "roots").starts_with("4 "));
    assert!(value(&stdout, "verified").starts_with("ok (4/4"));
    assert!(stdout.contains("top-down"), "no trace table:\n{stdout}");
    let report = read_report(&json).unwrap();
    assert_eq!(report.graph.name, "kron:10");
    assert_eq!(report.device.backend, "cpu");
    assert_eq!(report.roots.len(), 4);
    let gteps: f64 = value(&stdout, "GTEPS").split(' ').next().unwrap().parse().unwrap();
    assert!((gteps - report.summary.hmean_gteps).abs() < 1e-3);
    for r in &report.roots {
        assert!(r.reached > 1 && r.depth >= 1 && r.edges_in_component == 2 * r.graph500_edges);
    }
    let plot = std::fs::read_to_string(&svg).unwrap();
    assert!(
        plot.starts_with("<svg") && plot.contains("frontier vertices") && plot.contains("<polyline"),
        "{plot:.200}"
    );

    let (ok, _, stderr) = warpath(&["bench", "kron:8", "--plot", scratch.path("x.png").to_str().unwrap()]);
    assert!(!ok && stderr.contains("SVG only"), "{stderr}");
    let (ok, _, stderr) = warpath(&["bench", "kron:8", "--roots", "0", "--backend", "cpu"]);
    assert!(!ok && stderr.contains("at least one root"), "{stderr}");
}

#[test]
fn quick_suite_end_to_end() {
    let scratch = Scratch::new("bench-suite");
    let datasets = Scratch::new("bench-suite-data");
    // A small directed SNAP file stands in for the datasets: a 200-vertex cycle with chords.
    let edges: String = (0..200).map(|v| format!("{v}\t{}\n{v}\t{}\n", (v + 1) % 200, (v * 7) % 200)).collect();
    datasets.file("cycle.txt.gz", format!("# test graph\n{edges}").as_bytes());
    let out_dir = scratch.path("results");
    let (ok, stdout, stderr) = warpath(&[
        "suite",
        "--quick",
        "--roots",
        "2",
        "--datasets",
        datasets.dir.to_str().unwrap(),
        "--out-dir",
        out_dir.to_str().unwrap(),
    ]);
    assert!(ok, "{stdout}\n{stderr}");
    let table_path = value(&stdout, "table");
    let table = std::fs::read_to_string(table_path).unwrap();
    assert!(table_path.ends_with("-quick.md"), "{table_path}");
    for graph in [
        "grid2d:64",
        "grid3d:16",
        "kron:10",
        "urand:10:16",
        "rmat:10:16:0.45,0.15,0.15",
        "kron:11",
        "kron:12",
        "cycle.txt.gz",
    ] {
        assert!(table.contains(&format!("| {graph} |")), "{graph} missing from:\n{table}");
    }
    assert!(table.contains("grid5pt.5000 (scaled down)"), "{table}");
    assert!(table.contains("- commit: "), "{table}");
    let reports: Vec<BenchReport> =
        serde_json::from_str(&std::fs::read_to_string(value(&stdout, "json")).unwrap()).unwrap();
    let cpu: Vec<&BenchReport> = reports.iter().filter(|r| r.device.backend == "cpu").collect();
    assert_eq!(cpu.len(), 8);
    assert!(cpu.iter().all(|r| r.roots.len() == 2 && r.summary.validated == 2));
    let cycle = cpu.iter().find(|r| r.graph.name.ends_with("cycle.txt.gz")).unwrap();
    assert_eq!((cycle.graph.vertices, cycle.graph.undirected), (200, false));
}
