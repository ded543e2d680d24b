//! `warpath cc GRAPH`: connected components (weakly connected for a directed graph), their
//! count and sizes, the time and the rate; `--out` writes every vertex's component, `--verify`
//! checks the labels, `--json` prints one JSON object instead of the text.

use std::time::Instant;

use serde::Serialize;

use warpath::bench::cc::PhaseRecord;
use warpath::cc::{isolated_vertices, verify, CcAlgorithm, ComponentFinder};
use warpath::engine::BackendUsed;
use warpath::Result;

use super::args::CcArgs;
use super::json::{print_envelope, Envelope};

/// The `--json` object's `result`: what the text says beside the envelope's fields, with units
/// in the names.
#[derive(Serialize)]
struct CcJson {
    cc_algorithm: &'static str,
    neighbor_rounds: u32,
    samples: u32,
    /// How the GPU's Afforest starts its labels (`vertex`, `smaller-neighbor`).
    init: &'static str,
    round_compression: bool,
    giant_hooks: bool,
    /// GPU block-local linking as asked (`auto`, `off`, a range of ids); whether it ran shows
    /// as a `local link` phase.
    local_link: String,
    /// GPU vertices a thread takes at once, as asked (`auto`, `1`, `4`).
    vertex_batch: &'static str,
    /// The GPU neighbor rounds' order, as asked (`auto`, `ids`, `scattered`).
    round_order: &'static str,
    /// Where the GPU holds the lists (`device`, `zero-copy`); null on the CPU.
    placement: Option<String>,
    compressed: bool,
    undirected: bool,
    components: u64,
    largest_component: u64,
    largest_component_share: f64,
    isolated_vertices: u64,
    edges_per_second: f64,
    phases: Vec<PhaseRecord>,
    out: Option<String>,
}

pub fn run(args: &CcArgs) -> Result<()> {
    if args.multi.requested() {
        return super::multi::run_cc(args);
    }
    let options = args.tuning.options()?;
    let (graph, load_ms) = super::checked_load(&args.graph, args.out.as_deref())?;

    let finder =
        ComponentFinder::with_options(&graph, args.graph.backend(), &args.graph.placement_options(), &options)?;
    for warning in finder.warnings() {
        eprintln!("warpath: warning: {warning}");
    }
    let started = Instant::now();
    let found = finder.run(&options)?;
    let run_wall = started.elapsed();
    let (run, time) = (found.result, found.time);
    let place = finder.placed().map(|placed| placed.upload_time());
    let end_to_end = run_wall + place.unwrap_or_default();
    let components = &run.components;
    let seconds = time.as_secs_f64();
    let rate = if seconds > 0.0 { graph.num_edges() as f64 / seconds } else { 0.0 };
    let count = components.count();
    let largest = components.largest().map_or(0, |(_, size)| size);
    let share = largest as f64 / graph.num_vertices().max(1) as f64;
    let isolated = isolated_vertices(&graph);
    let backend = finder.backend();

    if let Some(path) = &args.out {
        super::results::write_components(&graph, components, path)?;
    }
    if args.verify {
        verify::validate(&graph, components)?;
    }

    let name = &args.graph.input.graph;
    if args.json {
        let envelope = Envelope {
            place_ms: place.map(|place| place.as_secs_f64() * 1e3),
            time_ms: Some(seconds * 1e3),
            // The run as the caller waits for it: the kernel, the labels' download, the host's work.
            end_to_end_ms: Some(run_wall.as_secs_f64() * 1e3),
            verified: args.verify.then_some(true),
            warnings: finder.warnings().to_vec(),
            ..Envelope::new("cc", name, graph.num_vertices() as u64, graph.num_edges(), load_ms).ran_on(&backend)
        };
        let json = CcJson {
            cc_algorithm: options.algorithm.name(),
            neighbor_rounds: options.neighbor_rounds,
            samples: options.samples,
            init: options.init.name(),
            round_compression: options.round_compression,
            giant_hooks: options.giant_hooks,
            local_link: options.local_link.name(),
            vertex_batch: options.vertex_batch.name(),
            round_order: options.round_order.name(),
            placement: finder.placement().map(|p| p.to_string()),
            compressed: finder.is_compressed(),
            undirected: graph.is_undirected(),
            components: count,
            largest_component: largest,
            largest_component_share: share,
            isolated_vertices: isolated,
            edges_per_second: rate,
            phases: run.phases.iter().map(PhaseRecord::from).collect(),
            out: args.out.as_ref().map(|p| p.display().to_string()),
        };
        return print_envelope(&envelope, &json);
    }

    println!("graph: {name} (loaded in {load_ms:.1} ms)");
    match &backend {
        BackendUsed::Gpu { .. } => println!("backend: {backend}"),
        BackendUsed::Cpu { .. } => println!("backend: {backend}: the parallel CPU code, no GPU"),
    }
    let tuning = match options.algorithm {
        CcAlgorithm::Afforest if options.samples == 0 => {
            format!(" (neighbor rounds {}, sampling off)", options.neighbor_rounds)
        }
        CcAlgorithm::Afforest => format!(" (neighbor rounds {}, samples {})", options.neighbor_rounds, options.samples),
        CcAlgorithm::ShiloachVishkin => String::new(),
    };
    println!("cc algorithm: {}{tuning}", options.algorithm);
    if let Some(placement) = finder.placement() {
        println!("placement: {placement}{}", if finder.is_compressed() { " (compressed lists)" } else { "" });
    }
    println!("vertices: {}", graph.num_vertices());
    if graph.is_undirected() {
        println!("edges: {} (directed, as stored; {} undirected)", graph.num_edges(), graph.num_edges() / 2);
    } else {
        println!("edges: {} (directed: weakly connected components)", graph.num_edges());
    }
    println!("components: {count}");
    println!("largest component: {largest} vertices ({:.2}%)", 100.0 * share);
    println!("isolated vertices: {isolated}");
    println!("time: {:.3} ms", seconds * 1e3);
    println!("end-to-end: {:.3} ms", end_to_end.as_secs_f64() * 1e3);
    let run_ms = run_wall.as_secs_f64() * 1e3;
    let rest = format!(
        "the kernel {:.3} ms, the labels' download and the rest {:.3} ms",
        seconds * 1e3,
        run_ms - seconds * 1e3
    );
    match place {
        Some(place) => println!(
            "stages: load {load_ms:.1} ms, place {:.1} ms, run {run_ms:.3} ms ({rest})",
            place.as_secs_f64() * 1e3
        ),
        None => println!("stages: load {load_ms:.1} ms, run {run_ms:.3} ms"),
    }
    println!("rate: {rate:.4e} edges/s (edges as stored / time)");
    if args.verify {
        println!("verified: ok");
    }
    Ok(())
}
