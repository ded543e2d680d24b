//! `warpath sssp`: shortest paths from one source or the nearest of several, on the GPU or by
//! parallel delta-stepping on the CPU, as far as a cutoff or a target on request, with the path
//! to a vertex and Graph500 kernel 3's checks on request.

use std::time::Instant;

use clap::{Args, ValueEnum};
use serde_json::json;

use warpath::bench::sssp::{render_trace, SsspTraceRecord, NO_CPU_TRACE};
use warpath::engine::BackendUsed;
use warpath::graph::UNREACHED;
use warpath::sssp::{verify, Fusion, PathFinder, PathsRun, SsspOptions, SsspRun, SsspStrategy};
use warpath::{Error, Graph, Result};

use super::args::{GraphArgs, WeightArgs};

#[derive(Args, Debug)]
pub struct SsspArgs {
    #[command(flatten)]
    pub graph: GraphArgs,
    #[command(flatten)]
    pub weights: WeightArgs,
    #[arg(
        long,
        short = 'r',
        visible_alias = "root",
        value_name = "V",
        value_parser = super::args::parse_vertex_id,
        allow_negative_numbers = true,
        help = "Source vertex, numbered as in the file",
        long_help = "Source vertex, numbered as in the file (1-based for .mtx and .gr). Default: a seeded \
                     random vertex with edges, as Graph500 picks roots. -r and --root are GAPBS's spellings."
    )]
    pub source: Option<u64>,
    #[arg(
        long,
        value_name = "V,V,...",
        value_delimiter = ',',
        num_args = 1..,
        conflicts_with = "source",
        value_parser = super::args::parse_vertex_id,
        allow_negative_numbers = true,
        help = "Several sources: distances to the nearest",
        long_help = "Several source vertices, comma-separated, numbered as --source's: every vertex gets the \
                     distance to its nearest source, and --out's last column says which source that is (found \
                     from the parents, which are computed even with --distances-only). Not with --source."
    )]
    pub sources: Option<Vec<u64>>,
    #[arg(
        long,
        value_name = "V",
        value_parser = super::args::parse_vertex_id,
        allow_negative_numbers = true,
        help = "Stop once V is settled; print its distance and path",
        long_help = "Stop once vertex V (numbered as --source's) is settled and print its distance and its path \
                     from the source (no path with --distances-only). Vertices farther than V are reported \
                     unreached; a V no source reaches stops nothing."
    )]
    pub target: Option<u64>,
    #[arg(
        long,
        value_name = "D",
        allow_negative_numbers = true,
        help = "Settle nothing farther than distance D",
        long_help = "Settle nothing farther than distance D: vertices within D get exact distances, the rest are \
                     reported unreached. A non-negative number, whole for integer and unit weights."
    )]
    pub cutoff: Option<f64>,
    #[arg(
        long,
        value_name = "V",
        value_parser = super::args::parse_vertex_id,
        allow_negative_numbers = true,
        help = "Print the path from the source to V and its length",
        long_help = "Print the shortest path from the (nearest) source to vertex V, numbered as --source's, and \
                     its length; `unreached` when there is none. Needs the parents: not with --distances-only."
    )]
    pub path_to: Option<u64>,
    #[arg(
        long,
        value_name = "D",
        help = "Delta-stepping's bucket width",
        long_help = "Delta-stepping's bucket width (a positive number; integer weights round it up). Default: \
                     from the graph, the average weight times 8 over the average out-degree."
    )]
    pub delta: Option<f64>,
    #[arg(
        long,
        value_enum,
        value_name = "S",
        default_value_t = StrategyArg::NearFar,
        help = "How the GPU distributes the work",
        long_help = "How the GPU distributes the work: near-far (the default) or delta-stepping (buckets on the \
                     device, one persistent launch), or seed 002's node-based, edge-based, workload-decomposition, \
                     node-splitting and hierarchical. The CPU always runs delta-stepping."
    )]
    pub strategy: StrategyArg,
    #[arg(
        long,
        value_name = "N",
        help = "Node splitting's degree threshold",
        long_help = "Node splitting's degree threshold: vertices of higher degree are split into virtual \
                     vertices. Default: from the degree histogram. Only with --strategy node-splitting."
    )]
    pub split_threshold: Option<u32>,
    #[arg(long, help = "Compute distances only, no parents")]
    pub distances_only: bool,
    #[arg(
        long,
        value_enum,
        default_value_t = FusionArg::Rounds,
        value_name = "F",
        hide_short_help = true,
        help = "GPU bucket fusion: off, rounds or async",
        long_help = "GPU bucket fusion (GraphIt, CGO 2020), where every list is short, as on roads and \
                     meshes: block 0 keeps relaxing what its small light steps put back into the current \
                     bucket. `rounds` (default): rounds with their queue in shared memory; `async`: one \
                     worklist in shared memory that every warp takes from as soon as entries are queued, no \
                     barrier between rounds; `off`: every light round is a step of the bucket loop."
    )]
    pub fusion: FusionArg,
    #[arg(
        long,
        value_enum,
        default_value_t = DeltaWidth::Fixed,
        value_name = "W",
        help = "GPU delta-stepping: buckets of a fixed width, or adaptive",
        long_help = "GPU delta-stepping: every bucket as wide as --delta (fixed), or each bucket's width chosen on \
                     the device from the work in flight, in multiples of --delta (adaptive: ADDS's dynamic delta)."
    )]
    pub delta_width: DeltaWidth,
    #[arg(
        long,
        help = "Check the result by Graph500's kernel-3 rules; exit 1 if it is wrong",
        long_help = "Check the result by Graph500's kernel-3 rules and exit 1 if it is wrong: the parents form a \
                     tree rooted at the sources, every tree edge's distances differ by its weight, no edge offers a \
                     shorter path, exactly the vertices the sources reach (within --cutoff or --target) are \
                     reached, and each vertex's nearest source has a shortest path to it."
    )]
    pub verify: bool,
    #[arg(
        long,
        value_name = "FILE",
        help = "Write `vertex distance parent` per line to FILE",
        long_help = "Write `vertex distance parent` per line to FILE (unreached: `inf` and -1), vertices \
                     numbered as in the input; with --distances-only, `vertex distance` after a `#` header line; \
                     with --sources, the nearest source last. Written whole or not at all; .gz compresses."
    )]
    pub out: Option<std::path::PathBuf>,
    #[arg(long, help = "Print the summary as one JSON object instead of text")]
    pub json: bool,
    #[arg(
        long,
        help = "Print the GPU's per-bucket trace",
        long_help = "Print what the GPU's kernels recorded: per bucket for delta-stepping and near-far (index, \
                     vertices settled, light rounds, relaxations, time), per iteration for seed 002's strategies \
                     (worklist length, relaxations, time); with --json, as `trace`. The CPU records none."
    )]
    pub trace: bool,
}

/// What `bench --algorithm sssp` reads beside the shared options (`--distances-only` is the
/// GPU tuning's).
#[derive(Args, Debug)]
pub struct SsspBenchArgs {
    #[command(flatten)]
    pub weights: WeightArgs,
    #[arg(
        long,
        value_name = "D",
        help_heading = "Shortest paths (--algorithm sssp)",
        help = "Delta-stepping's bucket width (default: from the graph)"
    )]
    pub delta: Option<f64>,
    #[arg(
        long,
        value_enum,
        default_value_t = StrategyArg::NearFar,
        value_name = "S",
        help_heading = "Shortest paths (--algorithm sssp)",
        help = "How the GPU distributes the work (as `sssp --strategy`)"
    )]
    pub sssp_strategy: StrategyArg,
    #[arg(
        long,
        value_enum,
        default_value_t = FusionArg::Rounds,
        value_name = "F",
        help_heading = "Shortest paths (--algorithm sssp)",
        hide_short_help = true,
        help = "GPU bucket fusion: off, rounds or async (as `sssp --fusion`)"
    )]
    pub fusion: FusionArg,
    #[arg(
        long,
        value_enum,
        default_value_t = DeltaWidth::Fixed,
        value_name = "W",
        help_heading = "Shortest paths (--algorithm sssp)",
        hide_short_help = true,
        help = "Fixed or adaptive bucket widths (as `sssp --delta-width`)"
    )]
    pub delta_width: DeltaWidth,
}

/// Delta-stepping's bucket width on the GPU: `--delta` for every bucket, or adapted on the
/// device ([`SsspOptions::adaptive_delta`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum DeltaWidth {
    Fixed,
    Adaptive,
}

/// [`Fusion`] as a clap value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum FusionArg {
    Off,
    Rounds,
    Async,
}

impl From<FusionArg> for Fusion {
    fn from(arg: FusionArg) -> Fusion {
        match arg {
            FusionArg::Off => Fusion::Off,
            FusionArg::Rounds => Fusion::Rounds,
            FusionArg::Async => Fusion::Async,
        }
    }
}

/// [`SsspStrategy`] as a clap value, by the names the library gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum StrategyArg {
    DeltaStepping,
    NearFar,
    NodeBased,
    EdgeBased,
    WorkloadDecomposition,
    NodeSplitting,
    Hierarchical,
}

impl From<StrategyArg> for SsspStrategy {
    fn from(arg: StrategyArg) -> SsspStrategy {
        match arg {
            StrategyArg::DeltaStepping => SsspStrategy::DeltaStepping,
            StrategyArg::NearFar => SsspStrategy::NearFar,
            StrategyArg::NodeBased => SsspStrategy::NodeBased,
            StrategyArg::EdgeBased => SsspStrategy::EdgeBased,
            StrategyArg::WorkloadDecomposition => SsspStrategy::WorkloadDecomposition,
            StrategyArg::NodeSplitting => SsspStrategy::NodeSplitting,
            StrategyArg::Hierarchical => SsspStrategy::Hierarchical,
        }
    }
}

impl SsspArgs {
    /// The options, refused before anything is loaded where they contradict each other.
    pub fn options(&self) -> Result<SsspOptions> {
        let strategy = SsspStrategy::from(self.strategy);
        if self.split_threshold.is_some() && strategy != SsspStrategy::NodeSplitting {
            return Err(Error::InvalidArgument(format!(
                "--split-threshold is node splitting's; --strategy {} does not read it",
                strategy.name()
            )));
        }
        if let Some(delta) = self.delta {
            if !(delta.is_finite() && delta > 0.0) {
                return Err(Error::InvalidArgument(format!("--delta must be a positive number, not {delta}")));
            }
        }
        if let Some(cutoff) = self.cutoff {
            if cutoff.is_nan() || cutoff < 0.0 {
                return Err(Error::InvalidArgument(format!("--cutoff must be a non-negative distance, not {cutoff}")));
            }
        }
        if self.path_to.is_some() && self.distances_only {
            return Err(Error::InvalidArgument(
                "--path-to needs the parents, which --distances-only leaves out: drop one of them".into(),
            ));
        }
        Ok(SsspOptions {
            strategy,
            delta: self.delta,
            split_threshold: self.split_threshold,
            distances_only: self.distances_only,
            fusion: self.fusion.into(),
            adaptive_delta: self.delta_width == DeltaWidth::Adaptive,
            // Set once the graph is loaded and the target has an internal id.
            target: None,
            cutoff: self.cutoff,
        })
    }
}

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
        None => vec![super::source_vertex(graph.degrees(), args.source, input)?],
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
    let delta = finder.delta(&options)?;
    let (found, gpu_trace) = finder.run_traced_from(&sources, &options)?;
    for warning in &found.warnings {
        eprintln!("warpath: warning: {warning}");
    }
    if let Some(path) = &args.out {
        write_result(&graph, &found, path)?;
    }
    let verified = if args.verify {
        verify::validate(&graph, &found.run)?;
        Some(if options.distances_only { "ok (distances: no tree to check)" } else { "ok" })
    } else {
        None
    };

    let run = &found.run;
    let seconds = run.time.as_secs_f64();
    let component_edges = run.distances.edges_in_component(&graph);
    let gteps = if seconds > 0.0 { component_edges as f64 / seconds / 1e9 } else { 0.0 };
    let per_edge = run.relaxations as f64 / graph.num_edges().max(1) as f64;
    let weights = graph.weight_range().map_or_else(|| "none (every edge weighs 1)".to_string(), |r| r.to_string());
    let on_cpu = matches!(found.backend, BackendUsed::Cpu { .. });
    let algorithm = if on_cpu {
        format!("delta-stepping on the CPU (delta {delta})")
    } else if matches!(options.strategy, SsspStrategy::DeltaStepping | SsspStrategy::NearFar) {
        format!("{} on the GPU (delta {delta})", options.strategy.name())
    } else {
        format!("{} on the GPU", options.strategy.name())
    };

    let external_sources: Vec<u64> = run.sources.iter().map(|&s| graph.external_id(s)).collect();
    let target = options.target.map(|v| Destination::of(&graph, run, v)).transpose()?;
    let path = path_to.map(|v| Destination::of(&graph, run, v)).transpose()?;

    let trace = match (&gpu_trace, args.trace) {
        (Some(recorded), true) => Some(SsspTraceRecord::of(graph.external_id(source), options.strategy, run, recorded)),
        _ => None,
    };

    if args.json {
        let mut report = json!({
            "graph": args.graph.input.graph,
            "vertices": graph.num_vertices(),
            "edges": graph.num_edges(),
            "undirected": graph.is_undirected(),
            "weights": weights,
            "backend": found.backend.to_string(),
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
            "load_ms": load_ms,
            "time_ms": seconds * 1e3,
            "end_to_end_ms": found.end_to_end_time.as_secs_f64() * 1e3,
            "relaxations": run.relaxations,
            "relaxations_per_edge": per_edge,
            "edges_in_component": component_edges,
            "gteps": gteps,
            // True once checked (a failed check exits before this), null when not asked.
            "verified": verified.map(|_| true),
            "warnings": found.warnings,
        });
        if args.trace {
            report["trace"] = serde_json::to_value(&trace).expect("the trace encodes as JSON");
        }
        println!("{}", serde_json::to_string_pretty(&report).expect("the summary encodes as JSON"));
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
    let run = &found.run;
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
