//! `warpath bfs`, `bench` and `suite` over partitions: the printout, the per-level exchange
//! table, verification, `--out` equal to the single-partition run's distances, JSON (bfs's
//! object, bench's reports checked against `bfs --verify` from the same root), the scaling of
//! a list of counts, the suite's partitioned table and reports, and the one-line errors for a
//! bad partition count and for `--gpus`/`--rank` without NCCL.

use crate::common;

use common::{assert_one_line_error, stderr, stdout, warpath, Scratch};

#[test]
fn bfs_over_partitions_prints_levels_and_verifies() {
    // The CPU's printout: on a machine with a GPU, --backend auto would run the parts there.
    let out = warpath(&["bfs", "kron:10", "--partitions", "3", "--verify", "--source", "0", "--backend", "cpu"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for line in ["backend: cpu (3 partitions, one thread each)", "source: 0", "vertices: 1024", "verified: ok"] {
        assert!(text.lines().any(|l| l.starts_with(line)), "`{line}` missing from:\n{text}");
    }
    assert!(text.lines().any(|l| l.starts_with("exchange: ") && l.ends_with(" bytes")), "{text}");
    assert!(text.contains("exchange B") && text.contains("top-down"), "{text}");
}

#[test]
fn distances_written_by_every_partition_count_are_the_same() {
    let scratch = Scratch::new("cli-multi-out");
    let mut written = Vec::new();
    for parts in ["1", "2", "7"] {
        let path = scratch.dir.join(format!("bfs-{parts}.txt"));
        let out = warpath(&["bfs", "urand:9", "--partitions", parts, "--source", "5", "--out", path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        // Vertex and distance: parents may differ between equally valid trees.
        let text = std::fs::read_to_string(&path).unwrap();
        let columns: Vec<String> = text.lines().map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" ")).collect();
        assert_eq!(columns.len(), 512);
        written.push(columns);
    }
    assert_eq!(written[0], written[1]);
    assert_eq!(written[0], written[2]);
}

#[test]
fn bfs_over_partitions_as_json() {
    let out = warpath(&["bfs", "grid2d:30", "--partitions", "4", "--json", "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["result"]["partitions"], 4);
    assert_eq!(json["verified"], true);
    assert_eq!(json["result"]["reached"], 900);
    let levels = json["result"]["levels"].as_array().unwrap();
    assert_eq!(levels.len() as u64, json["result"]["depth"].as_u64().unwrap() + 1);
    assert!(levels.iter().all(|l| l["exchange_bytes"].is_u64() && l["time_ms"].is_f64()));
}

#[test]
fn bench_over_partitions_reports_scaling_against_one_partition() {
    let out = warpath(&["bench", "kron:10", "--partitions", "2", "--roots", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for needle in ["roots: 3 (each validated)", "GTEPS: harmonic mean", "exchange: median", "one partition, same roots"]
    {
        assert!(text.contains(needle), "`{needle}` missing from:\n{text}");
    }
    assert!(text.contains("speedup") && text.contains("on 2 ranks"), "{text}");
}

#[test]
fn bad_partition_requests_are_one_line_errors() {
    assert_one_line_error(&warpath(&["bfs", "kron:8", "--partitions", "0"]), &["--partitions must be at least 1"]);
    assert_one_line_error(&warpath(&["bfs", "kron:8", "--partitions", "2", "--gpus", "0"]), &["--gpus"]);
    assert_one_line_error(&warpath(&["bfs", "kron:8", "--rank", "0"]), &["--world-size"]);
    assert_one_line_error(&warpath(&["bench", "kron:8", "--partitions", "2,0"]), &["--partitions must be at least 1"]);
    assert_one_line_error(&warpath(&["bfs", "kron:8", "--partitions", "1,2"]), &["--partitions takes one count here"]);
    assert_one_line_error(&warpath(&["bench", "kron:8", "--partitions", "2", "--plot", "x.svg"]), &["--plot"]);
    assert_one_line_error(
        &warpath(&["bench", "kron:8", "--rank", "0", "--world-size", "2", "--nccl-id", "id"]),
        &["bench runs every rank in one process"],
    );
    assert_one_line_error(
        &warpath(&["suite", "--quick", "--rank", "0", "--world-size", "2", "--nccl-id", "id"]),
        &["suite runs every rank in one process"],
    );
    // The BFS's tuning of its exchanges means nothing to cc, which does not take it.
    for flag in ["--hub-degree", "--padded-pairs", "--sparse-frontier-share", "--bottom-up-chunks", "--chunk-spare-sms"]
    {
        assert_one_line_error(
            &warpath(&["cc", "kron:8", "--partitions", "2", flag, "64"]),
            &[flag, "unexpected argument"],
        );
        assert_one_line_error(&warpath(&["cc", "kron:8", flag, "64"]), &[flag, "unexpected argument"]);
    }
    // A bottom-up level runs in one launch at least, in 64 at most.
    for chunks in ["0", "65"] {
        let out = warpath(&["bfs", "kron:8", "--partitions", "2", "--bottom-up-chunks", chunks]);
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(stderr(&out).contains("--bottom-up-chunks"), "{}", stderr(&out));
    }
    // On CPU ranks the stretches change nothing: the same tree.
    let out = warpath(&["bfs", "kron:9", "--partitions", "3", "--bottom-up-chunks", "4", "--verify"]);
    assert!(out.status.success() && stdout(&out).contains("verified: ok"), "{}", stderr(&out));
}

/// The value printed after `key: ` on a line of `text`.
fn printed(text: &str, key: &str) -> String {
    let prefix = format!("{key}: ");
    let line = text.lines().find(|l| l.starts_with(&prefix)).unwrap_or_else(|| panic!("no `{key}:` in:\n{text}"));
    line[prefix.len()..].to_string()
}

#[test]
fn bench_over_partitions_writes_reports_a_script_can_read() {
    let scratch = Scratch::new("cli-multi-json");
    let path = scratch.path("bench.json");
    let args = ["bench", "kron:10", "--partitions", "3", "--roots", "4", "--backend", "cpu"];
    let out = warpath(&[&args[..], &["--json", path.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(printed(&stdout(&out), "json"), path.display().to_string());
    let envelope: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    // The envelope every command's --json shares, its figures the largest rank count's.
    assert_eq!((envelope["command"].as_str(), envelope["graph"].as_str()), (Some("bench"), Some("kron:10")));
    let reports = envelope["result"]["runs"].as_array().unwrap();
    // One partition first (the baseline), then the three.
    assert_eq!(reports.len(), 2);
    assert_eq!((reports[0]["payload"]["ranks"].as_u64(), reports[1]["payload"]["ranks"].as_u64()), (Some(1), Some(3)));
    let report = &reports[1];
    assert_eq!(report["schema_version"], warpath::bench::SCHEMA_VERSION);
    assert_eq!(report["algorithm"], "bfs-partitioned");
    assert_eq!((report["graph"]["name"].as_str(), report["graph"]["vertices"].as_u64()), (Some("kron:10"), Some(1024)));
    assert_eq!(report["payload"]["backend"], "cpu (3 partitions, one thread each)");
    assert_eq!(report["payload"]["bounds"].as_array().unwrap().len(), 4);
    assert_eq!(report["summary"]["validated"], 4);
    let scaling = &report["payload"]["scaling"];
    assert!(scaling["speedup"].as_f64().unwrap() > 0.0, "{scaling}");
    assert_eq!(scaling["baseline_median_ms"], reports[0]["summary"]["time_ms"]["median"]);
    assert_eq!(envelope["time_ms"], report["summary"]["time_ms"]["median"]);
    let trials = report["trials"].as_array().unwrap();
    assert_eq!(trials.len(), 4);
    // The same roots on one partition.
    let roots =
        |r: &serde_json::Value| r["trials"].as_array().unwrap().iter().map(|t| t["source"].clone()).collect::<Vec<_>>();
    assert_eq!(roots(report), roots(&reports[0]));
    for trial in trials {
        let levels = trial["levels"].as_array().unwrap();
        assert_eq!(levels.len() as u64, trial["depth"].as_u64().unwrap() + 1, "{trial}");
        let bytes: u64 = levels.iter().map(|l| l["exchange_bytes"].as_u64().unwrap()).sum();
        assert_eq!(bytes, trial["exchange_bytes"].as_u64().unwrap());
        assert!(trial["gteps"].as_f64().unwrap() > 0.0 && levels.iter().all(|l| l["direction"].is_string()));
    }
    // The first root's figures are those of a verified `bfs` from it.
    let first = &trials[0];
    let source = first["source"].as_u64().unwrap().to_string();
    let bfs = warpath(&["bfs", "kron:10", "--partitions", "3", "--source", &source, "--json", "--verify"]);
    assert!(bfs.status.success(), "{}", stderr(&bfs));
    let bfs: serde_json::Value = serde_json::from_slice(&bfs.stdout).unwrap();
    assert_eq!(bfs["verified"], true);
    assert_eq!((&bfs["result"]["reached"], &bfs["result"]["depth"]), (&first["reached"], &first["depth"]));
    let frontiers = |levels: &serde_json::Value| {
        levels.as_array().unwrap().iter().map(|l| l["frontier"].clone()).collect::<Vec<_>>()
    };
    assert_eq!(frontiers(&bfs["result"]["levels"]), frontiers(&first["levels"]));
    // The library reads them back as partitioned reports, and a BFS reader refuses them by name.
    let text = std::fs::read_to_string(&path).unwrap();
    let typed: Vec<warpath::bench::PartitionedBenchReport> =
        warpath::bench::json::parse_reports_of("bfs-partitioned", &text).unwrap();
    assert_eq!(typed[1].trials.len(), 4);
    let single = serde_json::to_string(&reports[1]).unwrap();
    assert!(warpath::bench::json::parse_report(&single).unwrap_err().contains("bfs-partitioned"));
}

#[test]
fn bench_measures_a_list_of_partition_counts_on_the_same_roots() {
    let scratch = Scratch::new("cli-multi-scaling");
    let path = scratch.path("scaling.json");
    let out =
        warpath(&["bench", "urand:10", "--partitions", "4,1,2", "--roots", "2", "--json", path.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let table: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("scaling ("))
        .skip(1)
        .take_while(|l| !l.starts_with("levels"))
        .collect();
    let header = table[0].split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(header, "ranks median ms GTEPS speedup efficiency exchange B backend", "{text}");
    let ranks: Vec<&str> = table[1..].iter().map(|l| l.split_whitespace().next().unwrap()).collect();
    assert_eq!(ranks, ["1", "2", "4"], "{text}");
    // One partition against itself: 1.00x, efficiency 1.00, nothing exchanged.
    assert!(table[1].split_whitespace().skip(3).take(3).eq(["1.00", "1.00", "0"]), "{text}");
    assert!(text.contains("on 4 ranks"), "{text}");
    let reports: Vec<warpath::bench::PartitionedBenchReport> =
        warpath::bench::json::parse_reports_of("bfs-partitioned", &std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(reports.iter().map(|r| r.payload.ranks).collect::<Vec<_>>(), [1, 2, 4]);
    for report in &reports {
        let scaling = report.payload.scaling.unwrap();
        assert!((scaling.efficiency - scaling.speedup / report.payload.ranks as f64).abs() < 1e-9);
        assert_eq!(report.trials.len(), 2);
        assert_eq!(report.trials[0].source, reports[0].trials[0].source);
    }
}

#[test]
fn the_suite_runs_the_partitioned_bench_on_every_graph() {
    let scratch = Scratch::new("cli-multi-suite");
    let out_dir = scratch.path("results");
    let suite = |extra: &str| {
        let args = format!("suite --quick --only grid2d --no-gpu --no-cc --no-sssp --no-many {extra}");
        let out = warpath(&[args.split_whitespace().collect(), vec!["--out-dir", out_dir.to_str().unwrap()]].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    };
    let text = suite("--roots 2 --partitions 2");
    assert!(
        text.lines().any(|l| l.starts_with("grid2d:64 (partitioned): GTEPS 1 ranks ") && l.contains("2 ranks")),
        "{text}"
    );
    let json = std::path::PathBuf::from(printed(&text, "json (partitioned)"));
    assert!(json.starts_with(&out_dir) && json.ends_with(warpath::bench::suite::PARTITIONED_JSON), "{text}");
    let reports: Vec<warpath::bench::PartitionedBenchReport> =
        warpath::bench::json::parse_reports_of("bfs-partitioned", &std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(
        reports.iter().map(|r| (r.graph.name.as_str(), r.payload.ranks)).collect::<Vec<_>>(),
        [("grid2d:64", 1), ("grid2d:64", 2)]
    );
    assert!(reports.iter().all(|r| r.summary.validated == 2 && r.graph.vertices == 4096));
    let table = std::fs::read_to_string(printed(&text, "table")).unwrap();
    assert!(table.contains("## Partitioned BFS"), "{table}");
    assert_eq!(table.lines().filter(|l| l.starts_with("| grid2d:64 | ")).count(), 3, "{table}");
    assert!(table.lines().any(|l| l.starts_with("| grid2d:64 | 2 | ")), "{table}");
    // Without ranks, no partitioned table or file.
    let text = suite("--roots 1");
    assert!(!text.contains("partitioned"), "{text}");
}

#[cfg(not(feature = "nccl"))]
#[test]
fn gpus_and_ranks_need_the_nccl_feature() {
    assert_one_line_error(&warpath(&["bfs", "kron:8", "--gpus", "0,1"]), &["--gpus needs the nccl feature"]);
    assert_one_line_error(
        &warpath(&["bfs", "kron:8", "--rank", "0", "--world-size", "2", "--nccl-id", "id"]),
        &["--rank needs the nccl feature"],
    );
    assert_one_line_error(&warpath(&["bench", "kron:8", "--gpus", "all"]), &["--gpus needs the nccl feature"]);
}

#[test]
fn bfs_over_a_2d_grid_verifies_and_writes_the_same_distances() {
    let out = warpath(&["bfs", "kron:10", "--partitions", "4", "--layout", "2d", "--backend", "cpu", "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(printed(&text, "backend"), "cpu (4 partitions on a 2x2 grid, top-down, one thread each)");
    assert!(text.lines().any(|l| l == "verified: ok"), "{text}");
    assert!(text.contains("exchange B") && text.contains("top-down") && !text.contains("bottom-up"), "{text}");
    // An explicit grid, as JSON.
    let args = ["bfs", "grid2d:30", "--partitions", "6", "--layout", "3x2", "--backend", "cpu", "--json", "--verify"];
    let out = warpath(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((json["result"]["partitions"].as_u64(), json["verified"].as_bool()), (Some(6), Some(true)));
    assert_eq!(json["backend"], "cpu");
    assert_eq!(json["backend_detail"], "cpu (6 partitions on a 3x2 grid, top-down, one thread each)");
    assert_eq!(json["result"]["reached"], 900);
    // The distances written are the 1D run's.
    let scratch = Scratch::new("cli-multi-2d-out");
    let mut written = Vec::new();
    for layout in ["1d", "2d"] {
        let path = scratch.dir.join(format!("bfs-{layout}.txt"));
        let args = ["bfs", "urand:9", "--partitions", "6", "--layout", layout, "--backend", "cpu", "--source", "5"];
        let out = warpath(&[&args[..], &["--out", path.to_str().unwrap()]].concat());
        assert!(out.status.success(), "{}", stderr(&out));
        let text = std::fs::read_to_string(&path).unwrap();
        written.push(text.lines().map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" ")).collect::<Vec<_>>());
    }
    assert_eq!(written[0].len(), 512);
    assert_eq!(written[0], written[1]);
}

#[test]
fn a_2d_layout_without_ranks_or_its_grid_is_a_one_line_error() {
    assert_one_line_error(&warpath(&["bfs", "kron:8", "--layout", "2d"]), &["--layout 2d needs the ranks of its grid"]);
    assert_one_line_error(
        &warpath(&["cc", "kron:8", "--partitions", "4", "--layout", "2d", "--backend", "cpu"]),
        &["--layout 2d runs the partitioned BFS only"],
    );
    assert_one_line_error(
        &warpath(&["bfs", "kron:8", "--partitions", "4", "--layout", "2x3"]),
        &["2x3 grid has 6 ranks, not the 4 partitions"],
    );
    assert_one_line_error(
        &warpath(&["bfs", "kron:8", "--partitions", "4", "--layout", "3d"]),
        &["`3d` is not a layout"],
    );
    assert_one_line_error(
        &warpath(&["bench", "kron:8", "--partitions", "4,6", "--layout", "2x2"]),
        &["2x2 grid has 4 ranks, not the 6 partitions"],
    );
}

#[test]
fn bench_over_2d_grids_scales_against_the_1x1_grid() {
    let scratch = Scratch::new("cli-multi-2d-bench");
    let path = scratch.path("grids.json");
    let args = ["bench", "kron:10", "--partitions", "4,6", "--layout", "2d", "--backend", "cpu", "--roots", "3"];
    let out = warpath(&[&args[..], &["--json", path.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("roots: 3 (each validated)") && text.contains("on 6 ranks"), "{text}");
    let reports: Vec<warpath::bench::PartitionedBenchReport> =
        warpath::bench::json::parse_reports_of("bfs-partitioned", &std::fs::read_to_string(&path).unwrap()).unwrap();
    let backends: Vec<&str> = reports.iter().map(|r| r.payload.backend.as_str()).collect();
    assert_eq!(
        backends,
        [
            "cpu (1 partition on a 1x1 grid, top-down, one thread each)",
            "cpu (4 partitions on a 2x2 grid, top-down, one thread each)",
            "cpu (6 partitions on a 2x3 grid, top-down, one thread each)",
        ]
    );
    for report in &reports {
        assert!(!report.payload.bottom_up);
        assert_eq!(report.payload.bounds.len(), report.payload.ranks + 1);
        assert_eq!(report.trials[0].source, reports[0].trials[0].source);
        assert!(report.trials.iter().all(|t| t.details.levels.iter().all(|l| l.direction == "top-down")));
    }
}
