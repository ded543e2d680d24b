//! `warpath sssp`: shortest paths from one source or the nearest of several, on the GPU or by
//! parallel delta-stepping on the CPU, as far as a cutoff or a target on request, with the path
//! to a vertex and Graph500 kernel 3's checks on request.

use std::time::Instant;

use serde_json::json;

use warpath::bench::sssp::{render_trace, SsspTraceRecord, NO_CPU_TRACE};
use warpath::engine::BackendUsed;
use warpath::graph::UNREACHED;
use warpath::sssp::{verify, PathFinder, PathsRun, SsspRun};
use warpath::{Error, Graph, Result};

use super::args::SsspArgs;
use super::json::{print_envelope, Envelope};

/// A vertex asked about (`--target`, `--path-to`): its distance and its path, as the summary
/// and `--json` show them.
struct Destination {
    vertex: u32,
    /// External ids, the source first; None when unreached or without parents.
    path: Option<Vec<u64>>,
}

impl Destination {
    fn of(graph: &Graph, run: &SsspRun, vertex: u32) -> Result<Destination> {
        let path = if run.parents.is_empty() { None } else { run.path_to(vertex)? };
        let path = path.map(|path| path.into_iter().map(|v| graph.external_id(v)).collect());
        Ok(Destination { vertex, path })
    }

    fn json(&self, graph: &Graph, run: &SsspRun) -> serde_json::Value {
        json!({
            "vertex": graph.external_id(self.vertex),
            "distance": run.distances.get(self.vertex as usize),
            "path": self.path,
        })
    }

    /// `V at distance D: S ... V`, or `V unreached`.
    fn line(&self, graph: &Graph, run: &SsspRun) -> String {
        let external = graph.external_id(self.vertex);
        if !run.distances.is_reached(self.vertex as usize) {
            return format!("{external} unreached");
        }
        let distance = run.distances.show(self.vertex as usize);
        match &self.path {
            Some(path) => {
                let hops: Vec<String> = path.iter().map(u64::to_string).collect();
                format!("{external} at distance {distance}: {}", hops.join(" "))
            }
            None => format!("{external} at distance {distance}"),
        }
    }
}

pub fn run(args: &SsspArgs) -> Result<()> {
    let mut options = args.options()?;
    if let Some(path) = &args.out {
        super::check_output(path, &args.graph.input)?;
    }
    let memory = super::host_memory_for(&args.graph);
    let loading = Instant::now();
    let graph = super::load_weighted(&args.graph.input, &args.weights, memory)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1e3;
    let input = &args.graph.input;
    let sources = match &args.sources {
        Some(listed) => listed
            .iter()
            .map(|&external| super::named_vertex(graph.degrees(), external, "source", input))
            .collect::<Result<Vec<u32>>>()?,
        None => vec![super::source_vertex(graph.degrees(), args.source.vertex, input)?],
    };
    let source = sources[0];
    options.target = args.target.map(|v| super::named_vertex(graph.degrees(), v, "target", input)).transpose()?;
    let path_to = args.path_to.map(|v| super::named_vertex(graph.degrees(), v, "--path-to", input)).transpose()?;
    warpath::sssp::check_limits(&graph, &options).map_err(|err| match err {
        Error::InvalidArgument(message) => Error::InvalidArgument(format!("--cutoff: {message}")),
        other => other,
    })?;
    let placement = args.graph.placement_options();
    let finder = PathFinder::with_placement(&graph, args.graph.backend(), &placement, &options)?;
    // The strategy that runs, for the report (`auto` names one on the GPU).
    let options = finder.resolved(&options);
    let delta = finder.delta(&options)?;
    let (found, gpu_trace) = finder.run_traced_from(&sources, &options)?;
    for warning in &found.warnings {
        eprintln!("warpath: warning: {warning}");
    }
    if let Some(path) = &args.out {
        write_result(&graph, &found, path)?;
    }
    let verified = if args.verify {
        verify::validate(&graph, &found.result)?;
        Some(if options.distances_only { "ok (distances: no tree to check)" } else { "ok" })
    } else {
        None
    };

    let run = &found.result;
    let seconds = found.time.as_secs_f64();
    let component_edges = run.distances.edges_in_component(&graph);
    let gteps = if seconds > 0.0 { component_edges as f64 / seconds / 1e9 } else { 0.0 };
    let per_edge = run.relaxations as f64 / graph.num_edges().max(1) as f64;
    let weights = graph.weight_range().map_or_else(|| "none (every edge weighs 1)".to_string(), |r| r.to_string());
    let on_cpu = matches!(found.backend, BackendUsed::Cpu { .. });
    let algorithm = if on_cpu {
        format!("delta-stepping on the CPU (delta {delta})")
    } else if options.strategy.is_bucketed() {
        format!("{} on the GPU (delta {delta})", options.strategy.name())
    } else {
        format!("{} on the GPU", options.strategy.name())
    };

    let external_sources: Vec<u64> = run.sources.iter().map(|&s| graph.external_id(s)).collect();
    let target = options.target.map(|v| Destination::of(&graph, run, v)).transpose()?;
    let path = path_to.map(|v| Destination::of(&graph, run, v)).transpose()?;

    let trace = match (&gpu_trace, args.trace) {
        (Some(recorded), true) => {
            Some(SsspTraceRecord::of(graph.external_id(source), options.strategy, run, found.time, recorded))
        }
        _ => None,
    };

    if args.json {
        let envelope = Envelope {
            place_ms: finder.placed().map(|placed| placed.upload_time().as_secs_f64() * 1e3),
            time_ms: Some(seconds * 1e3),
            end_to_end_ms: Some(found.end_to_end_time.as_secs_f64() * 1e3),
            // True once checked (a failed check exits before this), null when not asked.
            verified: verified.map(|_| true),
            warnings: found.warnings.clone(),
            ..Envelope::new("sssp", &args.graph.input.graph, graph.num_vertices() as u64, graph.num_edges(), load_ms)
                .ran_on(&found.backend)
        };
        let mut report = json!({
            "undirected": graph.is_undirected(),
            "weights": weights,
            "algorithm": algorithm,
            "strategy": options.strategy.name(),
            "delta": delta,
            "distances_only": options.distances_only,
            "source": graph.external_id(source),
            "sources": external_sources,
            "cutoff": options.cutoff,
            "target": target.as_ref().map(|t| t.json(&graph, run)),
            "path_to": path.as_ref().map(|p| p.json(&graph, run)),
            "reach": run.reach,
            "reached": run.distances.reached(),
            "max_distance": run.distances.farthest().and_then(|v| run.distances.get(v)),
            "relaxations": run.relaxations,
            "relaxations_per_edge": per_edge,
            "edges_in_component": component_edges,
            "gteps": gteps,
        });
        if args.trace {
            report["trace"] = serde_json::to_value(&trace).expect("the trace encodes as JSON");
        }
        print_envelope(&envelope, &report)?;
    } else {
        println!("graph: {} (loaded in {load_ms:.1} ms)", args.graph.input.graph);
        println!("backend: {}", found.backend);
        println!("algorithm: {algorithm}");
        if options.distances_only {
            println!("labels: distances only (no parents)");
        }
        println!("weights: {weights}");
        match &external_sources[..] {
            [one] => println!("source: {one}"),
            several => {
                let listed: Vec<String> = several.iter().map(u64::to_string).collect();
                println!("sources: {} (distances to the nearest)", listed.join(", "));
            }
        }
        if let Some(cutoff) = options.cutoff {
            println!("cutoff: {cutoff} (farther vertices reported unreached)");
        }
        if let Some(target) = &target {
            println!("target: {}", target.line(&graph, run));
        }
        if let Some(path) = &path {
            println!("path to {}", path.line(&graph, run));
        }
        println!("vertices: {}", graph.num_vertices());
        println!("edges: {}", graph.num_edges());
        println!("reached: {}", run.distances.reached());
        let farthest = run.distances.farthest();
        println!("max distance: {}", farthest.map_or_else(|| "inf".to_string(), |v| run.distances.show(v)));
        println!("time: {:.3} ms", seconds * 1e3);
        println!("end-to-end: {:.3} ms", found.end_to_end_time.as_secs_f64() * 1e3);
        println!("relaxations: {} ({per_edge:.2} per edge)", run.relaxations);
        println!("GTEPS: {gteps:.3} (edges of the reached component / time)");
        if let Some(verdict) = verified {
            println!("verified: {verdict}");
        }
        match &trace {
            Some(trace) => print!("\n{}", render_trace(trace)),
            None if args.trace => print!("{NO_CPU_TRACE}"),
            None => {}
        }
    }
    if let Some(path) = &args.out {
        if !args.json {
            println!("out: {}", path.display());
        }
    }
    Ok(())
}

/// One line per vertex, numbered as in the input: `vertex distance parent` (unreached: `inf`
/// and -1), or `vertex distance` after a header line for a distances-only run; with several
/// sources, the nearest source last (-1 when unreached).
fn write_result(graph: &Graph, found: &PathsRun, path: &std::path::Path) -> Result<()> {
    let run = &found.result;
    warpath::output::write_output(path, |out| {
        if run.parents.is_empty() {
            let nearest = if run.nearest_source.is_empty() { "" } else { " source" };
            writeln!(out, "# vertex distance{nearest} (distances only: no parents; inf for unreached)")?;
        }
        // Written straight to the output, a line a vertex: no string built per line.
        for v in 0..graph.num_vertices() as u32 {
            write!(out, "{} {}", graph.external_id(v), run.distances.show(v as usize))?;
            for column in [&run.parents, &run.nearest_source] {
                match column.get(v as usize) {
                    None => {}
                    Some(&UNREACHED) => write!(out, " -1")?,
                    Some(&u) => write!(out, " {}", graph.external_id(u))?,
                }
            }
            writeln!(out)?;
        }
        Ok(())
    })
}
