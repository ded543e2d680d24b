//! The benchmark harness: statistics against hand-computed cases, the JSON report round trip
//! (schema 3, and 1 and 2 still read), a second algorithm through the same harness, the GPU
//! kernel list, the suite's table with several GPU
//! kernels (from hand-labelled reports), and `warpath bench` and `warpath suite --quick` end to
//! end (on the CPU where there is no GPU; on the GPU with every kernel where there is one).

use crate::common;

use std::process::Command;

use common::Scratch;
use warpath::bench::bfs::GpuParams;
use warpath::bench::json::{parse_report, Flags};
use warpath::bench::stats::{harmonic_mean, median, Spread};
use warpath::bench::suite::{run_suite, SuiteOptions, SuiteResult, SuiteRow};
use warpath::bench::{
    read_report, run_bench, run_kernel, write_report, BenchKernel, BenchOptions, BenchReport, BfsSummary, BfsTrial,
    Environment, LoadStage, RootRecord, Summary, Timed,
};
use warpath::bfs::gpu::edge_queue::GpuEdgeQueue;
use warpath::bfs::gpu::per_level::GpuTopDown;
use warpath::bfs::gpu::{BottomUpBalance, BottomUpLaunch, GpuPersistent};
use warpath::bfs::{Backend, KernelName, SwitchRule, Traverser};
use warpath::generate::generate;
use warpath::Graph;

/// A load of 1.5 ms: 1 ms reading, 0.5 ms building.
const LOAD: LoadStage = LoadStage { read_ms: 1.0, build_ms: 0.5 };

fn record(source: u64, time_ms: f64, edges: u64, depth: u32, reached: u64) -> RootRecord {
    RootRecord {
        source: Some(source),
        time_ms,
        end_to_end_ms: time_ms + 1.0,
        edges,
        gteps: edges as f64 / (time_ms / 1e3) / 1e9,
        details: BfsTrial {
            depth,
            reached,
            graph500_edges: edges / 2,
            graph500_gteps: (edges / 2) as f64 / (time_ms / 1e3) / 1e9,
            download_ms: 0.5,
            download_bytes: 8 * reached,
        },
    }
}

#[test]
fn summary_by_hand() {
    // 4e6 edges in 1, 2 and 4 ms: 4, 2 and 1 GTEPS; harmonic mean 3 / (1/4 + 1/2 + 1) = 12/7.
    let records =
        [record(1, 2.0, 4_000_000, 3, 10), record(2, 1.0, 4_000_000, 5, 30), record(3, 4.0, 4_000_000, 4, 20)];
    let s = Summary::<BfsSummary>::of(&records).unwrap();
    assert_eq!((s.trials, s.validated), (3, 3));
    assert_eq!(s.time_ms, Spread { min: 1.0, median: 2.0, max: 4.0 });
    assert_eq!(s.end_to_end_ms, Spread { min: 2.0, median: 3.0, max: 5.0 });
    assert!((s.hmean_gteps - 12.0 / 7.0).abs() < 1e-12, "{}", s.hmean_gteps);
    let d = &s.details;
    assert!((d.hmean_graph500_gteps - 6.0 / 7.0).abs() < 1e-12, "{}", d.hmean_graph500_gteps);
    assert_eq!(d.depth, Spread { min: 3.0, median: 4.0, max: 5.0 });
    assert_eq!(d.reached, Spread { min: 10.0, median: 20.0, max: 30.0 });
    assert!(Summary::<BfsSummary>::of::<BfsTrial>(&[]).is_none());
    // The harmonic mean is below the arithmetic mean (7/3) unless all rates are equal.
    assert!((harmonic_mean(&[2.5, 2.5, 2.5]).unwrap() - 2.5).abs() < 1e-12);
    assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.5));
}

#[test]
fn edges_in_component_by_hand() {
    // A path 0-1-2 and a triangle 3-4-5: from 0, 3 vertices, 2 undirected edges, 4 directed.
    let g = common::build(6, vec![(0, 1), (1, 2), (3, 4), (4, 5), (5, 3)], true);
    let t = Traverser::new(&g, Backend::Cpu).unwrap();
    let run = run_bench(&g, &t, &BenchOptions { trials: 6, seed: 9, trace: false, traced: 0 }, &mut |_| {}).unwrap();
    for r in &run.trials {
        let source = r.source.unwrap();
        let (reached, directed, graph500) = if source < 3 { (3, 4, 2) } else { (3, 6, 3) };
        assert_eq!(
            (r.details.reached, r.edges, r.details.graph500_edges),
            (reached, directed, graph500),
            "root {source}"
        );
    }
    // Directed input: Graph500's count is the directed edges. 0 -> 1 -> 2, 2 -> 0, 3 -> 0.
    let d = common::build(4, vec![(0, 1), (1, 2), (2, 0), (3, 0)], false);
    let t = Traverser::new(&d, Backend::Cpu).unwrap();
    let run = run_bench(&d, &t, &BenchOptions { trials: 4, seed: 2, trace: false, traced: 0 }, &mut |_| {}).unwrap();
    for r in &run.trials {
        let expected = if r.source == Some(3) { (4, 4) } else { (3, 3) };
        assert_eq!((r.details.reached, r.edges), expected, "root {:?}", r.source);
        assert_eq!(r.details.graph500_edges, r.edges);
    }
}

#[test]
fn json_report_round_trips() {
    let scratch = Scratch::new("bench-json");
    let graph = generate(&"kron:10".parse().unwrap(), 1).unwrap();
    let traverser = Traverser::new(&graph, Backend::Cpu).unwrap();
    let run = run_bench(&graph, &traverser, &BenchOptions { trials: 4, seed: 5, trace: true, traced: 0 }, &mut |_| {})
        .unwrap();
    let report = BenchReport::new("kron:10", &graph, Flags::new(4, 5, "cpu", false, true), LOAD, run);
    // On the CPU no GPU kernel, device memory or CUDA version is recorded.
    assert_eq!(
        (report.schema_version, report.algorithm.as_str(), report.flags.gpu_kernel.as_deref()),
        (5, "bfs", None)
    );
    assert_eq!((report.peak_device_bytes, report.device_graph_bytes), (None, None));
    assert_eq!(report.device.cuda_driver, None);
    let path = scratch.path("report.json");
    write_report(&report, &path).unwrap();
    let back = read_report(&path).unwrap();
    assert_eq!(back, report);
    assert_eq!(back.trials.len(), 4);
    assert!(!back.payload.trace.as_ref().unwrap().levels.is_empty());

    // A GPU report's new fields survive the round trip too (labelled by hand: no GPU needed).
    let gpu = relabel(&report, KernelName::TopDown, 2.0, 123_456);
    write_report(&gpu, &path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\"gpu_kernel\": \"top-down\"") && text.contains("\"peak_device_bytes\": 123456"), "{text}");
    assert_eq!(read_report(&path).unwrap(), gpu);

    // Version 2 (roots, BFS's fields at the top and in flags) reads as the same report.
    let v2 = in_version_2_shape(&serde_json::from_str(&text).unwrap());
    assert!(v2.get("payload").is_none() && v2["roots"][0].get("edges_in_component").is_some());
    let old = parse_report(&v2.to_string()).unwrap();
    assert_eq!(old, BenchReport { schema_version: 2, ..gpu.clone() });
    // Version 1 (no gpu_kernel, gpu_params or cuda_driver) still reads, with those as null.
    let mut v1 = v2;
    v1["schema_version"] = 1.into();
    v1["flags"].as_object_mut().unwrap().retain(|k, _| !k.starts_with("gpu_"));
    v1["device"].as_object_mut().unwrap().remove("cuda_driver");
    let old = parse_report(&v1.to_string()).unwrap();
    assert_eq!(
        (old.schema_version, old.flags.gpu_kernel, old.payload.gpu_params, old.device.cuda_driver),
        (1, None, None, None)
    );
    assert_eq!((old.trials, old.payload.trace), (gpu.trials.clone(), gpu.payload.trace.clone()));

    // Asynchronous bottom-up shows in the JSON and the header; reports written before it
    // existed read as off.
    let mut with_async = relabel(&report, KernelName::DirectionOptimizing, 2.0, 123_456);
    with_async.payload.gpu_params.as_mut().unwrap().async_bottom_up = true;
    write_report(&with_async, &path).unwrap();
    let async_text = std::fs::read_to_string(&path).unwrap();
    assert!(async_text.contains("\"async_bottom_up\": true"), "{async_text}");
    assert_eq!(read_report(&path).unwrap(), with_async);
    let header = warpath::bench::report::render(&with_async);
    assert!(header.contains("bottom-up balance static, async bottom-up on, first bottom-up level auto)"), "{header}");
    assert!(!warpath::bench::report::render(&gpu).contains("async"), "off by default, and then not shown");
    let mut before_async: serde_json::Value = serde_json::from_str(&async_text).unwrap();
    before_async["payload"]["gpu_params"].as_object_mut().unwrap().remove("async_bottom_up");
    let before_async = parse_report(&before_async.to_string()).unwrap();
    assert_eq!(before_async.payload.gpu_params.map(|p| p.async_bottom_up), Some(false));

    // The switching rule, frontier generation and each traced level's rule counters, frontier
    // generation and verdict survive the round trip and show in the report; reports written
    // before them read as Beamer's rule, fixed generation and no per-level details.
    let mut switching = relabel(&report, KernelName::DirectionOptimizing, 2.0, 123_456);
    switching.payload.gpu_params.as_mut().unwrap().switch_rule = SwitchRule::Xbfs;
    switching.payload.gpu_params.as_mut().unwrap().alpha = 0.03;
    let level = &mut switching.payload.trace.as_mut().unwrap().levels[0];
    level.frontier_edges = 12;
    level.unvisited_edges = 34;
    level.generation = Some("packed > scan-free".into());
    level.decision = Some("m_f 12 < alpha*|E| 600: top-down".into());
    write_report(&switching, &path).unwrap();
    let switching_text = std::fs::read_to_string(&path).unwrap();
    assert!(switching_text.contains("\"switch_rule\": \"xbfs\""), "{switching_text}");
    assert_eq!(read_report(&path).unwrap(), switching);
    let rendered = warpath::bench::report::render(&switching);
    assert!(
        rendered.contains("(persistent; xbfs rule, alpha 0.03, beta 18, adaptive frontier generation"),
        "{rendered}"
    );
    assert!(rendered.contains("switching and frontier generation:"), "{rendered}");
    assert!(
        rendered.contains("packed > scan-free") && rendered.contains("m_f 12 < alpha*|E| 600: top-down"),
        "{rendered}"
    );
    let mut before_switching: serde_json::Value = serde_json::from_str(&switching_text).unwrap();
    let params = before_switching["payload"]["gpu_params"].as_object_mut().unwrap();
    params.remove("switch_rule");
    params.remove("adaptive_frontier");
    for level in before_switching["payload"]["trace"]["levels"].as_array_mut().unwrap() {
        let level = level.as_object_mut().unwrap();
        for key in ["frontier_edges", "unvisited_edges", "generation", "decision"] {
            level.remove(key);
        }
    }
    let before_switching = parse_report(&before_switching.to_string()).unwrap();
    let params = before_switching.payload.gpu_params.unwrap();
    assert_eq!((params.switch_rule, params.adaptive_frontier), (SwitchRule::Beamer, false));
    let first = &before_switching.payload.trace.as_ref().unwrap().levels[0];
    assert_eq!((first.frontier_edges, first.generation.as_deref(), first.decision.as_deref()), (0, None, None));
    assert!(!warpath::bench::report::render(&before_switching).contains("switching and frontier generation"));

    // Another schema version is refused with a message saying so.
    let text = text.replacen("\"schema_version\": 5", "\"schema_version\": 99", 1);
    let err = parse_report(&text).unwrap_err();
    assert!(err.contains("schema version 99") && err.contains("versions 1 to 5"), "{err}");
    assert!(parse_report("{}").unwrap_err().contains("no schema_version"));
}

/// The stages: reading and building (version 5), the placement (once per run) and each root's
/// download survive the round trip and show in the stage table; a version 4 report reads with
/// the load as one stage, a version 3 report, written before the placement, as it is, with no
/// placement and downloads of 0.
#[test]
fn stages_round_trip_and_version_3_reads_without_them() {
    let scratch = Scratch::new("bench-stages");
    let graph = generate(&"kron:10".parse().unwrap(), 1).unwrap();
    let traverser = Traverser::new(&graph, Backend::Cpu).unwrap();
    let run = run_bench(&graph, &traverser, &BenchOptions { trials: 3, seed: 5, trace: false, traced: 0 }, &mut |_| {})
        .unwrap();
    // On the CPU nothing is placed or downloaded, and end-to-end is the traversal.
    assert_eq!(warpath::bench::PlacementStage::of(traverser.placed()).unwrap(), None);
    for trial in &run.trials {
        assert_eq!((trial.details.download_ms, trial.details.download_bytes), (0.0, 0));
        assert_eq!(trial.end_to_end_ms, trial.time_ms);
    }
    let cpu = BenchReport::new("kron:10", &graph, Flags::new(3, 5, "cpu", false, false), LOAD, run);
    let table = warpath::bench::report::stage_lines(&cpu);
    assert!(table.contains("  read                        1.0 ms\n  build                       0.5 ms\n"), "{table}");
    assert!(table.contains("traverse") && !table.contains("load (read + build)"), "{table}");
    assert_eq!(cpu.load_ms, 1.5);
    let head = "graph: kron:10 (loaded in 1.5 ms: read 1.0 ms, build 0.5 ms)";
    assert!(warpath::bench::report::render(&cpu).starts_with(head));
    assert!(!table.contains("  place ") && !table.contains("  download "), "{table}");

    // A GPU run's stages, labelled by hand (no GPU needed): 2 GB placed in 50 ms is 40 GB/s,
    // 80% of a 50 GB/s bus; 8 MB downloaded in 0.2 ms, 40 GB/s, 80% of 50 GB/s.
    let mut gpu = relabel(&cpu, KernelName::DirectionOptimizing, 2.0, 123_456);
    for trial in &mut gpu.trials {
        trial.details.download_ms = 0.2;
        trial.details.download_bytes = 8_000_000;
        trial.end_to_end_ms = trial.time_ms + 0.25;
    }
    gpu = gpu.with_placement(Some(warpath::bench::PlacementStage {
        ms: 50.0,
        bytes: 2_000_000_000,
        placement: "device".into(),
        bytes_per_s: 40e9,
        pinned_host_to_device_bytes_per_s: 50e9,
        pinned_device_to_host_bytes_per_s: 50e9,
        copies: vec![
            warpath::bench::stages::PlacementCopy {
                what: "the graph's neighbor lists".into(),
                bytes: 1_900_000_000,
                path: "staged".into(),
                allocate_ms: 1.0,
                copy_ms: 39.0,
            },
            warpath::bench::stages::PlacementCopy {
                what: "the bitmap of empty lists".into(),
                bytes: 1000,
                path: "pageable".into(),
                allocate_ms: 0.0,
                copy_ms: 0.5,
            },
        ],
    }));
    let table = warpath::bench::report::stage_lines(&gpu);
    assert!(table.contains("40.00 GB/s  (device; 80% of the pinned host-to-device 50.00 GB/s)"), "{table}");
    // Arrays of a megabyte or more are listed, each at its own rate; the rest is what they leave.
    assert!(table.contains("the graph's neighbor lists           1900000000 bytes    47.50 GB/s  staged      allocate 1.0 ms, copy 39.0 ms"), "{table}");
    assert!(!table.contains("the bitmap of empty lists"), "{table}");
    assert!(
        table.contains(
            "the rest                                  9.5 ms  (host work and waits beside the 2 arrays' 40.5 ms)"
        ),
        "{table}"
    );
    assert!(table.contains("8000000 bytes    40.00 GB/s (80% of the pinned device-to-host 50.00 GB/s)"), "{table}");
    assert!(table.contains("(beyond traverse + download: 0.050 ms)"), "{table}");
    assert!(warpath::bench::report::render(&gpu).contains(&table));
    let path = scratch.path("stages.json");
    write_report(&gpu, &path).unwrap();
    assert_eq!(read_report(&path).unwrap(), gpu);

    // Version 4 had the load as one stage: it reads with `load` null, shown as one line.
    let mut v4: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    v4["schema_version"] = 4.into();
    v4.as_object_mut().unwrap().remove("load");
    let old = parse_report(&v4.to_string()).unwrap();
    assert_eq!((old.schema_version, old.load, old.load_ms), (4, None, 1.5));
    let table = warpath::bench::report::stage_lines(&old);
    assert!(table.contains("  load (read + build)         1.5 ms\n") && !table.contains("  read "), "{table}");
    assert!(warpath::bench::report::render(&old).starts_with("graph: kron:10 (loaded in 1.5 ms)\n"));

    let mut v3 = v4;
    v3["schema_version"] = 3.into();
    v3.as_object_mut().unwrap().remove("placement");
    v3["summary"].as_object_mut().unwrap().remove("download_ms");
    for trial in v3["trials"].as_array_mut().unwrap() {
        let trial = trial.as_object_mut().unwrap();
        trial.remove("download_ms");
        trial.remove("download_bytes");
    }
    let old = parse_report(&v3.to_string()).unwrap();
    assert_eq!((old.schema_version, old.placement, old.summary.details.download_ms), (3, None, None));
    assert!(old.trials.iter().all(|t| t.details.download_ms == 0.0 && t.details.download_bytes == 0));
    assert_eq!(old.payload, gpu.payload);
}

/// A version 3 BFS report as version 2 wrote it: `roots` with `edges_in_component`, the GPU
/// tuning and distances-only flag in `flags`, trace and bus at the top, no algorithm or payload.
fn in_version_2_shape(v3: &serde_json::Value) -> serde_json::Value {
    let mut v2 = v3.clone();
    let report = v2.as_object_mut().unwrap();
    report.insert("schema_version".into(), 2.into());
    report.remove("algorithm");
    let serde_json::Value::Object(payload) = report.remove("payload").unwrap() else { panic!("payload") };
    let mut roots = report.remove("trials").unwrap();
    for root in roots.as_array_mut().unwrap() {
        let root = root.as_object_mut().unwrap();
        let edges = root.remove("edges").unwrap();
        root.insert("edges_in_component".into(), edges);
    }
    report.insert("roots".into(), roots);
    let trials = report["summary"].as_object_mut().unwrap().remove("trials").unwrap();
    report["summary"].as_object_mut().unwrap().insert("roots".into(), trials);
    let flags = report["flags"].as_object_mut().unwrap();
    let trials = flags.remove("trials").unwrap();
    flags.insert("roots".into(), trials);
    for (key, value) in payload {
        match key.as_str() {
            "gpu_params" | "distances_only" => report["flags"].as_object_mut().unwrap().insert(key, value),
            _ => report.insert(key, value),
        };
    }
    v2
}

/// The suite results committed under bench/results (schema version 2, GPU and CPU runs) still
/// read, as BFS reports with their GPU tuning and rates where version 2 had them.
#[test]
fn committed_version_2_results_still_read() {
    let results = common::source_tree().join("bench/results");
    let text = std::fs::read_to_string(results.join("2026-11-23-ced169f-h100-suite/suite.json")).unwrap();
    let raw: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(raw.len(), 28);
    for value in &raw {
        assert_eq!(value["schema_version"], 2);
        let report = parse_report(&value.to_string()).unwrap();
        assert_eq!(report.algorithm, "bfs");
        assert_eq!(report.flags.gpu_kernel.as_deref(), value["flags"]["gpu_kernel"].as_str());
        assert_eq!(report.payload.gpu_params.is_some(), !value["flags"]["gpu_params"].is_null());
        assert_eq!(report.trials.len(), value["roots"].as_array().unwrap().len());
        assert_eq!(report.summary.trials, value["summary"]["roots"].as_u64().unwrap() as usize);
        assert_eq!(report.summary.hmean_gteps, value["summary"]["hmean_gteps"].as_f64().unwrap());
        for (trial, root) in report.trials.iter().zip(value["roots"].as_array().unwrap()) {
            assert_eq!(
                (trial.source, trial.edges),
                (root["source"].as_u64(), root["edges_in_component"].as_u64().unwrap())
            );
            assert_eq!(trial.details.depth as u64, root["depth"].as_u64().unwrap());
        }
    }
    let err = warpath::bench::json::parse_report_of::<BfsTrial, BfsSummary, ()>("cc", &raw[0].to_string()).unwrap_err();
    assert_eq!(err, "a benchmark report of `bfs`, not of `cc`");
}

/// A second algorithm through the same harness, for the test below: in-degrees counted by
/// scanning every list (the "kernel"), validated against the transpose's out-degrees (its own
/// verifier, built once when the kernel is prepared). `corrupt_run` makes that run's output wrong.
struct InDegrees<'g> {
    graph: &'g Graph,
    reference: Vec<u64>,
    runs: usize,
    corrupt_run: Option<usize>,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct InDegreeTrial {
    largest_in_degree: u64,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
struct InDegreePayload {
    without_in_edges: u64,
    traced: bool,
}

impl<'g> InDegrees<'g> {
    fn new(graph: &'g Graph, corrupt_run: Option<usize>) -> Self {
        let transpose = graph.transpose();
        let reference = (0..graph.num_vertices() as u32).map(|v| transpose.degree(v)).collect();
        InDegrees { graph, reference, runs: 0, corrupt_run }
    }
}

impl BenchKernel for InDegrees<'_> {
    const ALGORITHM: &'static str = "in-degrees";
    type Input = ();
    type Output = Vec<u64>;
    type Details = InDegreeTrial;
    type SummaryDetails = ();
    type Payload = InDegreePayload;

    fn inputs(&self, trials: usize, _seed: u64) -> warpath::Result<Vec<()>> {
        Ok(vec![(); trials])
    }
    fn source(&self, _: ()) -> Option<u64> {
        None
    }
    fn run(&mut self, _: ()) -> warpath::Result<Timed<Vec<u64>>> {
        let started = std::time::Instant::now();
        let mut counts = vec![0u64; self.graph.num_vertices()];
        for &target in self.graph.targets() {
            counts[target as usize] += 1;
        }
        self.runs += 1;
        if self.corrupt_run == Some(self.runs) {
            counts[0] += 1;
        }
        let time = started.elapsed();
        Ok(Timed { output: counts, time, end_to_end: time })
    }
    fn validate(&self, _: (), counts: &Vec<u64>) -> warpath::Result<()> {
        match counts.iter().zip(&self.reference).position(|(got, want)| got != want) {
            None => Ok(()),
            Some(v) => Err(warpath::Error::Verification(format!(
                "vertex {v}: counted in-degree {}, the transpose says {}",
                counts[v], self.reference[v]
            ))),
        }
    }
    fn counted_edges(&self, _: (), _: &Vec<u64>) -> u64 {
        self.graph.num_edges()
    }
    fn details(&self, _: (), counts: &Vec<u64>, _seconds: f64) -> InDegreeTrial {
        InDegreeTrial { largest_in_degree: counts.iter().copied().max().unwrap_or(0) }
    }
    fn payload(&mut self, _: (), options: &BenchOptions) -> warpath::Result<InDegreePayload> {
        Ok(InDegreePayload {
            without_in_edges: self.reference.iter().filter(|&&d| d == 0).count() as u64,
            traced: options.trace,
        })
    }
    fn environment(&self) -> Environment {
        Environment::without_gpu(warpath::bfs::BackendUsed::Cpu { threads: 1 })
    }
}

#[test]
fn a_second_algorithm_runs_through_the_same_harness() {
    // A directed star into vertex 0 from 1..=4, plus 4 -> 5: in-degrees 4, 0, 0, 0, 0, 1.
    let graph = common::build(6, vec![(1, 0), (2, 0), (3, 0), (4, 0), (4, 5)], false);
    let mut kernel = InDegrees::new(&graph, None);
    let mut ticks = Vec::new();
    let options = BenchOptions { trials: 3, seed: 1, trace: true, traced: 0 };
    let run = run_kernel(&mut kernel, &options, &mut |done| ticks.push(done)).unwrap();
    // One warm-up and three timed trials, each validated.
    assert_eq!((kernel.runs, ticks, run.algorithm), (4, vec![1, 2, 3], "in-degrees"));
    assert_eq!((run.summary.trials, run.summary.validated), (3, 3));
    for trial in &run.trials {
        assert_eq!((trial.source, trial.edges, trial.details.largest_in_degree), (None, 5, 4));
    }
    assert_eq!(run.payload, InDegreePayload { without_in_edges: 4, traced: true });

    // Its report: the generic columns, its own beside them, its payload; read back as itself,
    // as any algorithm's, and refused as BFS.
    let scratch = Scratch::new("bench-second-algorithm");
    let path = scratch.path("in-degrees.json");
    let report = warpath::bench::Report::new("star", &graph, Flags::new(3, 1, "cpu", false, true), LOAD, run);
    write_report(&report, &path).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!((value["schema_version"].as_u64(), value["algorithm"].as_str()), (Some(5), Some("in-degrees")));
    assert_eq!(value["trials"][0]["largest_in_degree"], 4);
    assert_eq!(value["trials"][0]["edges"], 5);
    assert!(value["trials"][0]["source"].is_null());
    assert_eq!(value["payload"], serde_json::json!({ "without_in_edges": 4, "traced": true }));
    let back = warpath::bench::json::read_report_of::<InDegreeTrial, (), InDegreePayload>("in-degrees", &path).unwrap();
    assert_eq!(back, report);
    let any = warpath::bench::json::parse_any_report(&text).unwrap();
    assert_eq!((any.algorithm.as_str(), any.trials.len(), &any.payload), ("in-degrees", 3, &value["payload"]));
    let err = read_report(&path).unwrap_err().to_string();
    assert!(err.contains("a benchmark report of `in-degrees`, not of `bfs`"), "{err}");

    // A wrong output in any timed trial fails the run, naming the run; the warm-up is run 1.
    let mut wrong = InDegrees::new(&graph, Some(3));
    let err = run_kernel(&mut wrong, &options, &mut |_| {}).unwrap_err();
    assert!(matches!(&err, warpath::Error::Verification(m) if m.starts_with("trial (run 2): vertex 0")), "{err}");
}

/// `report` (a CPU run) relabelled as a run of `kernel` on a GPU `speedup` times faster, with
/// `bytes` of device memory: stands in for a GPU run where there is no GPU.
fn relabel(report: &BenchReport, kernel: KernelName, speedup: f64, bytes: u64) -> BenchReport {
    let mut gpu = report.clone();
    gpu.device.backend = "gpu".into();
    gpu.device.name = "Test GPU 80GB".into();
    gpu.device.driver = Some("999.99".into());
    gpu.device.cuda_driver = Some("12.8".into());
    gpu.device.cpu_threads = None;
    gpu.flags.backend = "gpu".into();
    gpu.flags.gpu_kernel = Some(kernel.name().into());
    gpu.payload.gpu_params = match kernel {
        KernelName::PerLevel => None,
        _ => Some(GpuParams {
            switch_rule: warpath::bfs::SwitchRule::Beamer,
            adaptive_frontier: true,
            alpha: 15.0,
            beta: 18.0,
            bottom_up: kernel == KernelName::DirectionOptimizing,
            small_frontiers: true,
            bottom_up_balance: BottomUpBalance::Static,
            async_bottom_up: false,
            bottom_up_chunk: 0,
            bottom_up_launch: BottomUpLaunch::Auto,
        }),
    };
    gpu.summary.hmean_gteps *= speedup;
    gpu.summary.time_ms.median /= speedup;
    gpu.device_graph_bytes = Some(bytes / 2);
    gpu.peak_device_bytes = Some(bytes);
    gpu
}

#[test]
fn gpu_kernel_lists() {
    use KernelName::*;
    assert_eq!(KernelName::parse_list("direction-optimizing").unwrap(), [DirectionOptimizing]);
    assert_eq!(KernelName::parse_list("per-level, top-down").unwrap(), [PerLevel, TopDown]);
    assert_eq!(
        KernelName::parse_list("all").unwrap(),
        [DirectionOptimizing, TopDown, ContractExpand, TwoPhase, Hybrid, PerLevel]
    );
    assert_eq!(
        KernelName::parse_list("top-down,all,top-down").unwrap(),
        [TopDown, DirectionOptimizing, ContractExpand, TwoPhase, Hybrid, PerLevel]
    );
    assert_eq!(KernelName::parse_list("two-phase,hybrid").unwrap(), [TwoPhase, Hybrid]);
    // `all` leaves out the cluster, which a list may still name.
    assert_eq!(KernelName::parse_list("all,cluster").unwrap().last(), Some(&Cluster));
    // The aliases of --gpu-kernel name the same kernels.
    assert_eq!(KernelName::parse_list("persistent,expand-contract").unwrap(), [DirectionOptimizing, TopDown]);
    for bad in ["bottom-up", "top-down,", "", "Top-Down"] {
        let err = KernelName::parse_list(bad).unwrap_err().to_string();
        assert!(
            err.contains(
                "expected auto, direction-optimizing, top-down, contract-expand, two-phase, hybrid, per-level, cluster \
                 (or all"
            ),
            "{bad:?}: {err}"
        );
    }
    assert!(KernelName::parse_list("bottom-up").unwrap_err().to_string().contains("`bottom-up`"));
    assert!(KernelName::parse_list("hybrid,auto").unwrap_err().to_string().contains("not auto"));
    // The suite refuses a bad name before loading anything, exit code 2.
    let out = Command::new(env!("CARGO_BIN_EXE_warpath"))
        .args(["suite", "--quick", "--gpu-kernels", "top-down,warp-centric", "--out-dir", "/nonexistent/x"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("unknown GPU kernel `warp-centric`"), "{stderr}");
}

fn cpu_report(name: &str, graph: &Graph, roots: usize) -> BenchReport {
    let traverser = Traverser::new(graph, Backend::Cpu).unwrap();
    assert_eq!((traverser.device_bytes(), traverser.device_graph_bytes()), (None, None));
    assert!(traverser.gpu().is_none());
    let run =
        run_bench(graph, &traverser, &BenchOptions { trials: roots, seed: 1, trace: false, traced: 0 }, &mut |_| {})
            .unwrap();
    BenchReport::new(name, graph, Flags::new(roots, 1, "cpu", false, false), LOAD, run)
}

#[test]
fn suite_table_with_several_gpu_kernels() {
    let kron = generate(&"kron:8".parse().unwrap(), 1).unwrap();
    let grid = generate(&"grid2d:16".parse().unwrap(), 1).unwrap();
    let kron_cpu = cpu_report("kron:8", &kron, 3);
    let grid_cpu = cpu_report("grid2d:16", &grid, 3);
    let kernels = [KernelName::DirectionOptimizing, KernelName::TopDown, KernelName::PerLevel];
    // kron: top-down fastest (5x the CPU); grid: per-level fastest (3x).
    let kron_row = SuiteRow {
        graph: "kron:8".into(),
        merrill: None,
        c2050: None,
        gpu: vec![
            relabel(&kron_cpu, kernels[0], 4.0, 3 * 1048576),
            relabel(&kron_cpu, kernels[1], 5.0, 5 * 1048576),
            relabel(&kron_cpu, kernels[2], 2.0, 7 * 1048576),
        ],
        gpu_missing: None,
        cpu: kron_cpu.clone(),
    };
    let grid_row = SuiteRow {
        graph: "grid2d:16".into(),
        merrill: Some("grid5pt.5000"),
        c2050: None,
        gpu: vec![
            relabel(&grid_cpu, kernels[0], 1.5, 1048576),
            relabel(&grid_cpu, kernels[1], 1.0, 1048576),
            relabel(&grid_cpu, kernels[2], 3.0, 2 * 1048576),
        ],
        gpu_missing: None,
        cpu: grid_cpu.clone(),
    };
    // A graph the GPU could not take: the row says why.
    let no_room = SuiteRow {
        gpu: Vec::new(),
        gpu_missing: Some("out of device memory".into()),
        graph: "kron:9".into(),
        ..grid_row.clone()
    };
    assert_eq!(kron_row.best_gpu().unwrap().flags.gpu_kernel.as_deref(), Some("top-down"));
    assert_eq!(grid_row.best_gpu().unwrap().flags.gpu_kernel.as_deref(), Some("per-level"));
    assert!(no_room.best_gpu().is_none());
    let result = SuiteResult {
        date: "2026-01-02T03:04:05Z".into(),
        commit: "abc".into(),
        quick: true,
        roots: 3,
        seed: 1,
        gpu_kernels: kernels.iter().map(|k| k.name().to_string()).collect(),
        rows: vec![kron_row, grid_row, no_room],
        cc_rows: Vec::new(),
        sssp_rows: Vec::new(),
        partitioned_rows: Vec::new(),
        many_rows: Vec::new(),
    };
    let md = result.markdown();
    assert!(md.contains("- GPU: Test GPU 80GB (driver 999.99, CUDA 12.8)"), "{md}");
    assert!(
        md.contains("- GPU kernels: direction-optimizing, top-down, per-level (the fastest per graph in bold"),
        "{md}"
    );
    let header = md.lines().find(|l| l.starts_with("| graph |")).unwrap();
    for k in kernels {
        assert!(
            header.contains(&format!("| GPU GTEPS {k} |")) && header.contains(&format!("| GPU median ms {k} |")),
            "{header}"
        );
    }
    let cells = |graph: &str| -> Vec<String> {
        let line =
            md.lines().find(|l| l.starts_with(&format!("| {graph} |"))).unwrap_or_else(|| panic!("{graph}: {md}"));
        line.split('|').map(|c| c.trim().to_string()).collect()
    };
    let columns: Vec<String> = header.split('|').map(|c| c.trim().to_string()).collect();
    let col = |name: &str| columns.iter().position(|c| c == name).unwrap_or_else(|| panic!("no column {name}"));
    let kron = cells("kron:8");
    let g = kron_cpu.summary.hmean_gteps;
    assert_eq!(kron[col("GPU GTEPS direction-optimizing")], format!("{:.3}", g * 4.0));
    assert_eq!(kron[col("GPU GTEPS top-down")], format!("**{:.3}**", g * 5.0));
    assert_eq!(kron[col("GPU GTEPS per-level")], format!("{:.3}", g * 2.0));
    assert_eq!(kron[col("GPU/CPU (fastest GPU kernel)")], "5.0x (top-down)");
    assert_eq!(kron[col("device memory (fastest)")], "5.0 MiB");
    assert_eq!(kron[col("GPU median ms top-down")], format!("{:.3}", kron_cpu.summary.time_ms.median / 5.0));
    assert_eq!((kron[col("read ms")].as_str(), kron[col("build ms")].as_str()), ("1.0", "0.5"));
    let grid = cells("grid2d:16");
    assert_eq!(grid[col("GPU GTEPS per-level")], format!("**{:.3}**", grid_cpu.summary.hmean_gteps * 3.0));
    assert!(!grid[col("GPU GTEPS direction-optimizing")].contains("**"));
    assert_eq!(grid[col("GPU/CPU (fastest GPU kernel)")], "3.0x (per-level)");
    let missing = cells("kron:9");
    assert_eq!(missing[col("GPU GTEPS top-down")], "n/a");
    assert_eq!(missing[col("GPU/CPU (fastest GPU kernel)")], "n/a (GPU: out of device memory)");
    assert!(md.lines().filter(|l| l.starts_with('|')).all(|l| l.matches('|').count() == header.matches('|').count()));

    // The JSON has each kernel's report, then the CPU's, per graph.
    let reports: Vec<BenchReport> = serde_json::from_str(&result.json()).unwrap();
    let labels: Vec<Option<&str>> = reports.iter().map(|r| r.flags.gpu_kernel.as_deref()).collect();
    let per_graph = [Some("direction-optimizing"), Some("top-down"), Some("per-level"), None];
    assert_eq!(labels, [&per_graph[..], &per_graph[..], &[None][..]].concat());
    assert_eq!(reports[1], result.rows[0].gpu[1]);
}

/// On a GPU (skipped without one): every kernel runs on the same roots, names itself in the
/// reports, and records what it allocates.
#[test]
fn gpu_suite_runs_every_kernel() {
    let Some(gpu) = common::gpu_or_skip("gpu_suite_runs_every_kernel") else { return };
    drop(gpu);
    let options = SuiteOptions {
        quick: true,
        roots: 2,
        only: vec!["kron".into()],
        gpu_kernels: KernelName::COMPARABLE.to_vec(),
        ..Default::default()
    };
    let result = run_suite(&options, &mut |_| {}).unwrap();
    assert_eq!(
        result.rows.len(),
        3,
        "kron:10, kron:11, kron:12? {:?}",
        result.rows.iter().map(|r| &r.graph).collect::<Vec<_>>()
    );
    for row in &result.rows {
        assert_eq!(row.gpu.len(), KernelName::COMPARABLE.len(), "{}: {:?}", row.graph, row.gpu_missing);
        let graph = warpath::input::load_graph(
            &row.graph,
            &warpath::input::LoadOptions { undirected: false, seed: 1, ..Default::default() },
        )
        .unwrap();
        let n = graph.num_vertices() as u32;
        let cpu_roots: Vec<Option<u64>> = row.cpu.trials.iter().map(|r| r.source).collect();
        for (report, kernel) in row.gpu.iter().zip(KernelName::COMPARABLE) {
            assert_eq!(report.flags.gpu_kernel.as_deref(), Some(kernel.name()));
            assert_eq!(report.device.backend, "gpu");
            assert!(report.device.cuda_driver.as_deref().is_some_and(|v| v.contains('.')), "{:?}", report.device);
            let per_vertex = match kernel {
                KernelName::PerLevel => GpuTopDown::bytes_needed(n),
                KernelName::ContractExpand | KernelName::TwoPhase | KernelName::Hybrid => {
                    GpuEdgeQueue::bytes_needed(n, graph.num_edges(), false)
                }
                _ => GpuPersistent::bytes_needed(n, graph.num_edges()),
            };
            assert_eq!(report.peak_device_bytes, Some(report.device_graph_bytes.unwrap() + per_vertex));
            assert_eq!(report.trials.iter().map(|r| r.source).collect::<Vec<_>>(), cpu_roots);
            assert_eq!(report.summary.validated, 2);
        }
    }
    // The 64-root batch ran beside the first kernel's traversals, and closeness on the GPU.
    for (row, many) in result.rows.iter().zip(&result.many_rows) {
        let batch = row.gpu[0].payload.batch.as_ref().expect("a batch on the GPU");
        assert_eq!((batch.roots, batch.searches.as_str()), (64, "bit-parallel"), "{}", row.graph);
        assert_eq!(many.closeness_gpu.as_ref().map(|r| r.summary.validated), Some(2), "{}", row.graph);
    }
    let md = result.markdown();
    assert!(md.contains("**") && md.contains("x (") && !md.contains("GPU: none"), "{md}");

    // `warpath bench` names its kernel and its device memory in the printout and the JSON.
    let scratch = Scratch::new("bench-gpu-kernel");
    // `bench kron:10` on the GPU with `flags`, its JSON written as `name`: the printout and report.
    let gpu_bench = |flags: &[&str], name: &str| {
        let json = scratch.path(name);
        let common = ["bench", "kron:10", "--roots", "2", "--backend", "gpu", "--json", json.to_str().unwrap()];
        let (ok, stdout, stderr) = warpath(&[&common[..], flags].concat());
        assert!(ok, "{stdout}\n{stderr}");
        (stdout, read_report(&json).unwrap())
    };
    let (stdout, report) = gpu_bench(&["--gpu-kernel", "persistent", "--top-down"], "top-down.json");
    assert!(
        value(&stdout, "gpu kernel").starts_with(
            "top-down (persistent; checks rule, alpha 0.5, beta 18, adaptive frontier generation, bottom-up off"
        ),
        "{stdout}"
    );
    assert!(value(&stdout, "device memory").contains("allocated by warpath, computed"), "{stdout}");
    assert_eq!(report.flags.gpu_kernel.as_deref(), Some("top-down"));
    assert_eq!(report.payload.gpu_params.map(|p| p.bottom_up), Some(false));
    assert!(report.peak_device_bytes > report.device_graph_bytes);

    // The bottom-up balancing shows in the header and the JSON.
    let (stdout, report) = gpu_bench(&["--gpu-kernel", "persistent", "--bottom-up-balance", "warp"], "warp.json");
    assert!(
        value(&stdout, "gpu kernel")
            .ends_with("bottom-up on, small-frontier path on, bottom-up balance warp, first bottom-up level auto)"),
        "{stdout}"
    );
    assert_eq!(report.payload.gpu_params.map(|p| p.bottom_up_balance), Some(BottomUpBalance::Warp));

    // So does the asynchronous bottom-up.
    let (stdout, report) = gpu_bench(&["--gpu-kernel", "persistent", "--async-bottom-up"], "async.json");
    assert!(
        value(&stdout, "gpu kernel")
            .ends_with("bottom-up balance static, async bottom-up on, first bottom-up level auto)"),
        "{stdout}"
    );
    assert_eq!(report.payload.gpu_params.map(|p| p.async_bottom_up), Some(true));

    // And where the first bottom-up level runs.
    let (stdout, report) = gpu_bench(&["--gpu-kernel", "persistent", "--bottom-up-launch", "apart"], "apart.json");
    assert!(value(&stdout, "gpu kernel").ends_with("first bottom-up level apart)"), "{stdout}");
    assert_eq!(report.payload.gpu_params.map(|p| p.bottom_up_launch), Some(BottomUpLaunch::Apart));

    // An edge-queue strategy names itself, with no persistent tuning; auto names what it chose.
    let (stdout, report) = gpu_bench(&["--strategy", "two-phase"], "two-phase.json");
    assert_eq!(value(&stdout, "gpu kernel"), "two-phase (top-down over edge queues, one persistent launch)");
    assert_eq!((report.flags.gpu_kernel.as_deref(), report.payload.gpu_params), (Some("two-phase"), None));
    let (_, report) = gpu_bench(&["--strategy", "auto"], "auto.json");
    assert_eq!(report.flags.gpu_kernel.as_deref(), Some("contract-expand"), "kron:10 is small");
    // So does the default kernel, `auto`, and `--top-down` under it.
    let (stdout, report) = gpu_bench(&[], "default.json");
    assert_eq!(report.flags.gpu_kernel.as_deref(), Some("contract-expand"), "kron:10 is small: {stdout}");
    let (_, report) = gpu_bench(&["--top-down"], "default-top-down.json");
    assert_eq!(report.flags.gpu_kernel.as_deref(), Some("contract-expand"));
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
    assert!(!stdout.contains("gpu kernel:") && !stdout.contains("device memory:"), "{stdout}");
    assert!(value(&stdout, "roots").starts_with("4 "));
    assert!(value(&stdout, "verified").starts_with("ok (4/4"));
    assert!(stdout.contains("top-down"), "no trace table:\n{stdout}");
    let report = read_report(&json).unwrap();
    assert_eq!(report.graph.name, "kron:10");
    assert_eq!(report.device.backend, "cpu");
    assert_eq!(report.trials.len(), 4);
    let gteps: f64 = value(&stdout, "GTEPS").split(' ').next().unwrap().parse().unwrap();
    assert!((gteps - report.summary.hmean_gteps).abs() < 1e-3);
    for r in &report.trials {
        assert!(r.details.reached > 1 && r.details.depth >= 1 && r.edges == 2 * r.details.graph500_edges);
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

/// `--trace-trial K` traces the K-th root drawn (and implies `--trace`); past `--roots` it is
/// refused in one line.
#[test]
fn bench_traces_the_trial_asked_for() {
    let scratch = Scratch::new("bench-trace-trial");
    let json = scratch.path("third.json");
    let args = ["bench", "kron:10", "--roots", "4", "--backend", "cpu", "--trace-trial", "3"];
    let (ok, stdout, stderr) = warpath(&[&args[..], &["--json", json.to_str().unwrap()]].concat());
    assert!(ok, "{stdout}\n{stderr}");
    assert!(stdout.contains("top-down"), "no trace table:\n{stdout}");
    let report = read_report(&json).unwrap();
    let trace = report.payload.trace.as_ref().expect("a trace without --trace");
    assert_eq!(Some(trace.source), report.trials[2].source, "the third root is traced");
    assert_ne!(report.trials[2].source, report.trials[0].source);
    let (ok, _, stderr) = warpath(&["bench", "kron:10", "--roots", "4", "--backend", "cpu", "--trace-trial", "5"]);
    assert!(!ok && stderr.trim().lines().count() == 1 && stderr.contains("only 4 trials"), "{stderr}");
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
        "--gpu-kernels",
        "all",
    ]);
    assert!(ok, "{stdout}\n{stderr}");
    let table_path = value(&stdout, "table");
    let table = std::fs::read_to_string(table_path).unwrap();
    // A run folder under --out-dir: DATE-COMMIT-DEVICE-suite-quick/suite.md.
    let folder = std::path::Path::new(table_path).parent().unwrap();
    assert_eq!(folder.parent().unwrap(), out_dir);
    let folder = folder.file_name().unwrap().to_str().unwrap();
    assert!(table_path.ends_with("suite.md") && folder.ends_with("-suite-quick"), "{table_path}");
    assert!(value(&stdout, "json").ends_with(&format!("{folder}/suite.json")), "{stdout}");
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
    assert!(
        table.contains(
            "| GPU GTEPS direction-optimizing | GPU GTEPS top-down | GPU GTEPS contract-expand | GPU GTEPS two-phase \
             | GPU GTEPS hybrid | GPU GTEPS per-level |"
        ),
        "{table}"
    );
    let reports: Vec<BenchReport> =
        serde_json::from_str(&std::fs::read_to_string(value(&stdout, "json")).unwrap()).unwrap();
    let cpu: Vec<&BenchReport> = reports.iter().filter(|r| r.device.backend == "cpu").collect();
    assert_eq!(cpu.len(), 8);
    assert!(cpu.iter().all(|r| r.trials.len() == 2 && r.summary.validated == 2));
    let gpu: Vec<&BenchReport> = reports.iter().filter(|r| r.device.backend == "gpu").collect();
    if table.contains("- GPU: none") {
        // No GPU here: every row says why, and only the CPU reports were written.
        assert!(gpu.is_empty());
        assert_eq!(table.matches("| n/a (GPU: ").count(), 8, "{table}");
    } else {
        assert_eq!(gpu.len(), KernelName::COMPARABLE.len() * 8);
        assert!(gpu.iter().all(|r| r.flags.gpu_kernel.is_some() && r.peak_device_bytes.is_some()));
    }
    let cycle = cpu.iter().find(|r| r.graph.name.ends_with("cycle.txt.gz")).unwrap();
    assert_eq!((cycle.graph.vertices, cycle.graph.undirected), (200, false));
}

#[test]
fn every_algorithm_shares_the_header_and_the_timing_lines() {
    use warpath::bench::report::{header, render, timing_lines, HeaderLines};
    let graph = generate(&"grid2d:8".parse().unwrap(), 1).unwrap();
    let report = cpu_report("grid2d:8", &graph, 2);
    // Another algorithm's lines go between the backend and the rest of the header.
    let lines = HeaderLines { how_it_ran: "labels: components\n", directed_edges: "directed", workspace: "labels" };
    let head = header(&report, &lines);
    assert!(head.starts_with("graph: grid2d:8 (loaded in "), "{head}");
    assert!(head.contains(")\nlabels: components\ncommit: "), "{head}");
    assert!(head.contains("\nvertices: 64\nedges: 224 (directed, as stored; 112 undirected)\n"), "{head}");
    let timing = timing_lines(&report.summary, "rate", "vertices labelled");
    assert!(timing.starts_with("time: min ") && timing.contains("\nend-to-end: min "), "{timing}");
    assert!(timing.ends_with(&format!("rate: {:.3} (harmonic mean; vertices labelled)\n", report.summary.hmean_gteps)));
    // BFS's report is that header and those lines, with its own between and after them.
    let bfs = render(&report);
    assert!(
        bfs.starts_with(&header(&report, &HeaderLines { how_it_ran: "", directed_edges: "", workspace: "BFS arrays" }))
    );
    assert!(bfs.contains(&timing_lines(&report.summary, "GTEPS", "directed edges in the reached component")), "{bfs}");
}

/// The README's headline table is what `scripts/headline` writes from bench/headline.json (each
/// row checked for its keys there); skips, saying so, where python3 is missing.
#[test]
fn the_readme_headline_is_generated_from_headline_json() {
    let tree = common::source_tree();
    let rows: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(tree.join("bench/headline.json")).unwrap()).unwrap();
    assert!(!rows.is_empty());
    for row in &rows {
        assert!(row["median_ms"].as_f64().is_some_and(|ms| ms > 0.0), "{row}");
        assert!(row["runs"].as_u64().is_some_and(|runs| runs > 0), "{row}");
        let results = tree.join("bench").join(row["results"].as_str().unwrap());
        assert!(results.is_dir(), "{row}: no folder {}", results.display());
    }
    match std::process::Command::new("python3").arg(tree.join("scripts/headline")).arg("--check").output() {
        Ok(out) => assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr)),
        Err(e) => common::say_skipping("the_readme_headline_is_generated_from_headline_json", &format!("python3: {e}")),
    }
}
