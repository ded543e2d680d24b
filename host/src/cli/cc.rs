//! `warpath cc GRAPH`: connected components (weakly connected for a directed graph), their
//! count and sizes, the time and the rate; `--out` writes every vertex's component, `--verify`
//! checks the labels, `--json` prints one JSON object instead of the text.

use std::time::Instant;

use clap::{Args, ValueEnum};
use serde::Serialize;

use warpath::bench::cc::PhaseRecord;
use warpath::cc::{isolated_vertices, verify, CcAlgorithm, CcInit, CcOptions, ComponentFinder, Components};
use warpath::engine::BackendUsed;
use warpath::{Error, Graph, Result};

use super::args::GraphArgs;

#[derive(Args, Debug)]
pub struct CcArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    #[arg(
        long,
        help = "Check the labels; exit 1 if they are wrong",
        long_help = "Check the labels and exit 1 if they are wrong: every edge joins two vertices of one \
                     label, each label is the smallest vertex of its component, and there are as many \
                     components as a sequential union-find finds."
    )]
    pub verify: bool,
    #[arg(
        long,
        value_name = "FILE",
        help = "Write `vertex component` per line to FILE",
        long_help = "Write `vertex component` per line to FILE (gzip-compressed when it ends in .gz), each \
                     component named by its smallest vertex, both numbered as in the input file: the same \
                     file on every backend and every run."
    )]
    pub out: Option<std::path::PathBuf>,
    #[arg(long, help = "Print one JSON object on stdout instead of the text")]
    pub json: bool,
    #[command(flatten)]
    pub tuning: CcTuning,
    #[command(flatten)]
    pub multi: super::multi::MultiArgs,
}

/// How connected components are computed: what `cc` and `bench --algorithm cc` share.
#[derive(Args, Debug, Clone, Default)]
pub struct CcTuning {
    #[arg(
        long,
        value_enum,
        value_name = "ALGORITHM",
        help_heading = "Connected components",
        help = "afforest (default) or shiloach-vishkin",
        long_help = "afforest (Sutton et al., IPDPS 2018: neighbor rounds, sampling, a final link of the \
                     vertices outside the largest component; the default) or shiloach-vishkin (hooking over \
                     every edge until nothing changes, for comparison)."
    )]
    pub cc_algorithm: Option<CcAlgorithmArg>,
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_rounds,
        help_heading = "Connected components",
        help = format!("Afforest's neighbor rounds, 0 to {MAX_ROUNDS} (default 2)"),
        long_help = format!(
            "Afforest's neighbor rounds, 0 to {MAX_ROUNDS}: round r links every vertex to its r-th neighbor \
             (default 2). Each round is a pass over every vertex and a phase of the trace and --json."
        )
    )]
    pub rounds: Option<u32>,
    #[arg(
        long,
        value_name = "N",
        value_parser = parse_samples,
        help_heading = "Connected components",
        help = format!("Vertices Afforest samples, 0 to {} (default 1024; 0: off)", warpath::cc::MAX_SAMPLES),
        long_help = format!(
            "Vertices Afforest samples to find the largest intermediate component, whose vertices the final \
             phase skips: 0 to {} (default 1024; the most the GPU counts in one block's shared memory); 0 \
             turns sampling off, and the final phase visits every vertex.",
            warpath::cc::MAX_SAMPLES
        )
    )]
    pub samples: Option<u32>,
    #[arg(
        long,
        value_name = "SEED",
        help_heading = "Connected components",
        hide_short_help = true,
        help = "Seed of Afforest's sampling",
        long_help = "Seed of Afforest's sampling (the same seed samples the same vertices)."
    )]
    pub sample_seed: Option<u64>,
    #[arg(
        long,
        value_enum,
        value_name = "INIT",
        help_heading = "Connected components",
        hide_short_help = true,
        help = "How the GPU's Afforest starts its labels: vertex or smaller-neighbor",
        long_help = "How the GPU's Afforest starts its labels: vertex (every vertex its own root, round 0 links \
                     it to its first neighbor) or smaller-neighbor (ECL-CC's: a vertex takes its first \
                     neighbor as its label where that is smaller, without a walk or a swap, in place of \
                     round 0). The CPU starts from vertex."
    )]
    pub cc_init: Option<CcInitArg>,
    #[arg(
        long,
        value_name = "on|off",
        value_parser = clap::builder::BoolishValueParser::new(),
        hide_possible_values = true,
        help_heading = "Connected components",
        hide_short_help = true,
        help = "GPU Afforest: point every label at its root after each round but the last",
        long_help = "GPU Afforest: point every label at its root after each neighbor round but the last, as the \
                     GAP suite's Afforest does (on or off); without it the walks compress the paths they take."
    )]
    pub round_compression: Option<bool>,
    #[arg(
        long,
        value_name = "on|off",
        value_parser = clap::builder::BoolishValueParser::new(),
        hide_possible_values = true,
        help_heading = "Connected components",
        hide_short_help = true,
        help = "GPU Afforest: sample after the first round and hook every tree meeting the giant under it",
        long_help = "GPU Afforest: sample after the first neighbor round, then hook every tree that meets the \
                     sampled giant component under the giant's root whatever their order, so that no thread \
                     waits on a swap of that root (on or off); labels stay the smallest vertex of each \
                     component."
    )]
    pub giant_hooks: Option<bool>,
}

/// The most neighbor rounds `--rounds` takes. A round costs a pass over every vertex and
/// records a phase (a line of the trace, an object of --json), while after a few rounds most
/// vertices have no further neighbor to link: Afforest and the GAP suite use 2, and an
/// unbounded count turned a typo into minutes of no-op passes and megabytes of JSON.
const MAX_ROUNDS: u32 = 64;

/// `--rounds`: 0 to [`MAX_ROUNDS`].
fn parse_rounds(text: &str) -> std::result::Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(rounds) if rounds <= MAX_ROUNDS => Ok(rounds),
        _ => Err(format!("`{text}` is not a round count: give 0 to {MAX_ROUNDS} (Afforest uses 2)")),
    }
}

/// `--samples`: 0 to the GPU's [`MAX_SAMPLES`](warpath::cc::MAX_SAMPLES), on every
/// backend: the CPU draws them one at a time, so billions took minutes, and a count the GPU
/// refuses would make the result depend on the backend.
fn parse_samples(text: &str) -> std::result::Result<u32, String> {
    let max = warpath::cc::MAX_SAMPLES;
    match text.trim().parse::<u32>() {
        Ok(samples) if samples <= max => Ok(samples),
        _ => Err(format!("`{text}` is not a sample count: give 0 (sampling off) to {max}")),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CcAlgorithmArg {
    Afforest,
    ShiloachVishkin,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CcInitArg {
    Vertex,
    SmallerNeighbor,
}

impl CcTuning {
    /// The Afforest options given, by flag.
    pub fn given(&self) -> Vec<&'static str> {
        [
            ("--cc-algorithm", self.cc_algorithm.is_some()),
            ("--rounds", self.rounds.is_some()),
            ("--samples", self.samples.is_some()),
            ("--sample-seed", self.sample_seed.is_some()),
            ("--cc-init", self.cc_init.is_some()),
            ("--round-compression", self.round_compression.is_some()),
            ("--giant-hooks", self.giant_hooks.is_some()),
        ]
        .into_iter()
        .filter_map(|(flag, given)| given.then_some(flag))
        .collect()
    }

    /// The options asked for; Afforest's parameters given with Shiloach-Vishkin are refused.
    pub fn options(&self) -> Result<CcOptions> {
        let defaults = CcOptions::default();
        let algorithm = match self.cc_algorithm {
            None | Some(CcAlgorithmArg::Afforest) => CcAlgorithm::Afforest,
            Some(CcAlgorithmArg::ShiloachVishkin) => CcAlgorithm::ShiloachVishkin,
        };
        if algorithm == CcAlgorithm::ShiloachVishkin {
            if let Some(flag) = self.given().into_iter().find(|&flag| flag != "--cc-algorithm") {
                return Err(Error::InvalidArgument(format!(
                    "{flag} tunes Afforest, and --cc-algorithm shiloach-vishkin does not read it: drop {flag}"
                )));
            }
        }
        Ok(CcOptions {
            algorithm,
            neighbor_rounds: self.rounds.unwrap_or(defaults.neighbor_rounds),
            samples: self.samples.unwrap_or(defaults.samples),
            seed: self.sample_seed.unwrap_or(defaults.seed),
            init: match self.cc_init {
                None => defaults.init,
                Some(CcInitArg::Vertex) => CcInit::Vertex,
                Some(CcInitArg::SmallerNeighbor) => CcInit::SmallerNeighbor,
            },
            round_compression: self.round_compression.unwrap_or(defaults.round_compression),
            giant_hooks: self.giant_hooks.unwrap_or(defaults.giant_hooks),
        })
    }
}

/// The `--json` object: what the text says, with units in the names.
#[derive(Serialize)]
struct CcJson<'a> {
    graph: &'a str,
    load_ms: f64,
    /// `gpu` or `cpu`.
    backend: &'static str,
    /// The GPU's name, or `N CPU threads`.
    device: String,
    cc_algorithm: &'static str,
    neighbor_rounds: u32,
    samples: u32,
    /// How the GPU's Afforest starts its labels (`vertex`, `smaller-neighbor`).
    init: &'static str,
    round_compression: bool,
    giant_hooks: bool,
    /// Where the GPU holds the lists (`device`, `zero-copy`); null on the CPU.
    placement: Option<String>,
    compressed: bool,
    vertices: u64,
    /// Directed edges as stored (an undirected edge twice).
    edges: u64,
    undirected: bool,
    components: u64,
    largest_component: u64,
    largest_component_share: f64,
    isolated_vertices: u64,
    time_ms: f64,
    /// The graph's placement on the GPU (null on the CPU), paid once before the run.
    place_ms: Option<f64>,
    /// The run as the caller waits for it: the kernel, the labels' download and the host's work.
    run_ms: f64,
    /// `place_ms + run_ms`.
    end_to_end_ms: f64,
    edges_per_second: f64,
    phases: Vec<PhaseRecord>,
    /// Whether `--verify` passed; null without it.
    verified: Option<bool>,
    out: Option<String>,
}

pub fn run(args: &CcArgs) -> Result<()> {
    if args.multi.requested() {
        return super::multi::run_cc(args);
    }
    let options = args.tuning.options()?;
    if let Some(path) = &args.out {
        super::check_output(path, &args.graph.input)?;
    }
    let memory = super::host_memory_for(&args.graph);
    let loading = Instant::now();
    let graph = super::load(&args.graph.input, memory)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1e3;

    let finder =
        ComponentFinder::with_options(&graph, args.graph.backend(), &args.graph.placement_options(), &options)?;
    for warning in finder.warnings() {
        eprintln!("warpath: warning: {warning}");
    }
    let started = Instant::now();
    let run = finder.run(&options)?;
    let run_wall = started.elapsed();
    let place = finder.placed().map(|placed| placed.upload_time());
    let end_to_end = run_wall + place.unwrap_or_default();
    let components = &run.components;
    let seconds = run.time.as_secs_f64();
    let rate = if seconds > 0.0 { graph.num_edges() as f64 / seconds } else { 0.0 };
    let count = components.count();
    let largest = components.largest().map_or(0, |(_, size)| size);
    let share = largest as f64 / graph.num_vertices().max(1) as f64;
    let isolated = isolated_vertices(&graph);
    let backend = finder.backend();

    if let Some(path) = &args.out {
        write_components(&graph, components, path)?;
    }
    if args.verify {
        verify::validate(&graph, components)?;
    }

    let name = &args.graph.input.graph;
    if args.json {
        let json = CcJson {
            graph: name,
            load_ms,
            backend: match backend {
                BackendUsed::Gpu { .. } => "gpu",
                BackendUsed::Cpu { .. } => "cpu",
            },
            device: match &backend {
                BackendUsed::Gpu { device } => device.clone(),
                BackendUsed::Cpu { threads } => format!("{threads} CPU threads"),
            },
            cc_algorithm: options.algorithm.name(),
            neighbor_rounds: options.neighbor_rounds,
            samples: options.samples,
            init: options.init.name(),
            round_compression: options.round_compression,
            giant_hooks: options.giant_hooks,
            placement: finder.placement().map(|p| p.to_string()),
            compressed: finder.is_compressed(),
            vertices: graph.num_vertices() as u64,
            edges: graph.num_edges(),
            undirected: graph.is_undirected(),
            components: count,
            largest_component: largest,
            largest_component_share: share,
            isolated_vertices: isolated,
            time_ms: seconds * 1e3,
            place_ms: place.map(|place| place.as_secs_f64() * 1e3),
            run_ms: run_wall.as_secs_f64() * 1e3,
            end_to_end_ms: end_to_end.as_secs_f64() * 1e3,
            edges_per_second: rate,
            phases: run.phases.iter().map(PhaseRecord::from).collect(),
            verified: args.verify.then_some(true),
            out: args.out.as_ref().map(|p| p.display().to_string()),
        };
        let text = serde_json::to_string_pretty(&json)
            .map_err(|e| Error::InvalidArgument(format!("cannot encode the result as JSON: {e}")))?;
        println!("{text}");
        return Ok(());
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
    let rest = format!("the kernel {:.3} ms, the labels' download and the rest {:.3} ms", seconds * 1e3, run_ms - seconds * 1e3);
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

/// Writes `vertex component` per line in the file's numbering (gzip-compressed when `path` ends
/// in `.gz`), whole or not at all. Labels are the smallest internal id of each component, and
/// the file's numbering only shifts ids, so they name the smallest vertex there too.
pub(super) fn write_components(graph: &Graph, components: &Components, path: &std::path::Path) -> Result<()> {
    warpath::output::write_output(path, |out| {
        for (v, &label) in components.labels.iter().enumerate() {
            writeln!(out, "{} {}", graph.external_id(v as u32), graph.external_id(label))?;
        }
        Ok(())
    })
}
