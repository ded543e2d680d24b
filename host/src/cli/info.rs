use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use warpath::bfs::multi_source;
use warpath::formats::ReadOptions;
use warpath::graph::{CompressedGraph, WeightRange};
use warpath::Result;

use super::args::{DiameterArg, GraphInput, InfoArgs};
use super::json::{print_envelope, Envelope};

pub fn run(args: &InfoArgs) -> Result<()> {
    // info tells what a file holds: weights no algorithm may run on (a matrix's negative
    // values) are described, not refused.
    let (graph, stages, values) = super::load_described(&args.input, &args.weights, None, true)?;
    let n = graph.num_vertices();
    let mut degrees: Vec<u64> = (0..n as u32).into_par_iter().map(|v| graph.degree(v)).collect();
    degrees.par_sort_unstable();
    let symmetric = graph.is_symmetric();
    let compressed = CompressedGraph::encode(&graph);
    let report = InfoReport {
        graph: args.input.graph.clone(),
        read_ms: stages.read.as_secs_f64() * 1e3,
        build_ms: stages.build.as_secs_f64() * 1e3,
        load_ms: (stages.read + stages.build).as_secs_f64() * 1e3,
        vertices: n as u64,
        edges_directed: graph.num_edges(),
        edges_undirected: symmetric.then(|| graph.num_edges() / 2),
        symmetric,
        vertex_id_base: graph.id_base(),
        out_degree: (n > 0).then(|| DegreeReport {
            min: degrees[0],
            median: degrees[n / 2],
            mean: graph.num_edges() as f64 / n as f64,
            max: degrees[n - 1],
        }),
        vertices_without_out_edges: degrees.partition_point(|&d| d == 0) as u64,
        weights: match values {
            Some(values) => Some(WeightReport {
                kind: values.kind.to_string(),
                min: values.range.map(|(min, _)| min),
                max: values.range.map(|(_, max)| max),
                problem: Some(values.problem()),
            }),
            None => graph.weight_kind().map(|kind| {
                let (min, max) = match graph.weight_range() {
                    Some(WeightRange::U32 { min, max }) => (Some(f64::from(min)), Some(f64::from(max))),
                    Some(WeightRange::F32 { min, max }) => (Some(f64::from(min)), Some(f64::from(max))),
                    None => (None, None),
                };
                WeightReport { kind: kind.to_string(), min, max, problem: None }
            }),
        },
        compressed_bytes: compressed.compressed_bytes(),
        plain_csr_bytes: compressed.raw_bytes(),
        compression_ratio: compressed.ratio(),
        stored_compressed: stored_compressed(&args.input)?,
        diameter: args.diameter.map(|how| diameter(&graph, how, args.input.seed)),
    };
    if args.json {
        // No algorithm ran: no backend and no run times.
        let envelope = Envelope::new("info", &report.graph, report.vertices, report.edges_directed, report.load_ms);
        return print_envelope(&envelope, &report);
    }
    report.print_text(&graph);
    Ok(())
}

/// What `info` reports: printed as text, or with `--json` inside the envelope (what it does not
/// say under `result`).
#[derive(Serialize)]
struct InfoReport {
    graph: String,
    /// Reading (and parsing, inflating) the file, or generating the edges.
    read_ms: f64,
    /// Building the CSR from the edges.
    build_ms: f64,
    /// `read_ms + build_ms`, as every command's `--json` says its load.
    load_ms: f64,
    vertices: u64,
    /// Directed edges as stored (an undirected edge counts twice).
    edges_directed: u64,
    /// For a symmetric graph, half of `edges_directed`.
    edges_undirected: Option<u64>,
    symmetric: bool,
    /// 0 or 1: how the file numbers vertices.
    vertex_id_base: u32,
    /// None for a graph without vertices.
    out_degree: Option<DegreeReport>,
    vertices_without_out_edges: u64,
    /// None for a graph without weights.
    weights: Option<WeightReport>,
    /// The neighbor lists delta-varint compressed.
    compressed_bytes: u64,
    plain_csr_bytes: u64,
    compression_ratio: f64,
    /// A `.wgr` file whose lists are stored compressed (false for standard input or a pipe,
    /// which are read only once).
    stored_compressed: bool,
    /// With `--diameter`.
    diameter: Option<DiameterReport>,
}

#[derive(Serialize)]
struct DiameterReport {
    /// Hops of the longest shortest path found.
    hops: u32,
    /// Its ends, as numbered in the file.
    from: u64,
    to: u64,
    /// The diameter itself, or (double sweeps) a lower bound of it.
    exact: bool,
    searches: usize,
    time_ms: f64,
}

/// Graphs of at most this many vertices get the exact diameter under `--diameter auto`.
const EXACT_DIAMETER_UP_TO: usize = 100_000;

/// `info --diameter`: exact, or double sweeps from a seeded random vertex with edges.
fn diameter(graph: &warpath::Graph, how: DiameterArg, seed: u64) -> DiameterReport {
    let started = std::time::Instant::now();
    let exact = match how {
        DiameterArg::Exact => true,
        DiameterArg::Sweep => false,
        DiameterArg::Auto => graph.num_vertices() <= EXACT_DIAMETER_UP_TO,
    };
    let found = if exact {
        multi_source::diameter_exact(graph)
    } else {
        let start = warpath::bfs::random_sources_in(graph.degrees(), seed, 1).first().copied().unwrap_or(0);
        multi_source::diameter_double_sweep(graph, start, 8)
    };
    DiameterReport {
        hops: found.hops,
        from: graph.external_id(found.from),
        to: graph.external_id(found.to),
        exact: found.exact,
        searches: found.searches,
        time_ms: started.elapsed().as_secs_f64() * 1e3,
    }
}

#[derive(Serialize)]
struct DegreeReport {
    min: u64,
    median: u64,
    mean: f64,
    max: u64,
}

#[derive(Serialize)]
struct WeightReport {
    /// `u32` or `f32`.
    kind: String,
    /// None when there are no edges.
    min: Option<f64>,
    max: Option<f64>,
    /// Why the file's weights are no edge weights (`negative`, `infinite`, `not a number`,
    /// `too large for u32`/`f32`), when some are not: the graph was then read without them, and
    /// `min` and `max` are the file's values. None for weights the graph holds.
    problem: Option<&'static str>,
}

impl InfoReport {
    fn print_text(&self, graph: &warpath::Graph) {
        println!("graph: {}", self.graph);
        println!("read: {:.3} s", self.read_ms / 1e3);
        println!("build: {:.3} s", self.build_ms / 1e3);
        println!("vertices: {}", self.vertices);
        println!("edges: {} (directed, as stored)", self.edges_directed);
        if let Some(undirected) = self.edges_undirected {
            println!("undirected edges: {undirected}");
        }
        println!("symmetric: {}", if self.symmetric { "yes" } else { "no" });
        println!("vertex ids: {}-based", self.vertex_id_base);
        if let Some(d) = &self.out_degree {
            println!("out-degree: min {}, median {}, mean {:.2}, max {}", d.min, d.median, d.mean, d.max);
        }
        println!("vertices without out-edges: {}", self.vertices_without_out_edges);
        // The library's own wording of the range (`u32 weights from 1 to 255`).
        match (&self.weights, graph.weight_kind(), graph.weight_range()) {
            (Some(WeightReport { kind, min, max, problem: Some(problem) }), _, _) => {
                let range = match (min, max) {
                    (Some(min), Some(max)) => format!("{kind} weights from {min} to {max}"),
                    _ => format!("{kind} weights, none a number"),
                };
                println!(
                    "weights: {range} (some {problem}: sssp needs --ignore-weights or {})",
                    valid_weights(problem)
                );
            }
            (_, None, _) => println!("weights: none"),
            (_, Some(kind), None) => println!("weights: {kind}, no edges"),
            (_, Some(_), Some(range)) => println!("weights: {range}"),
        }
        println!(
            "compression: {} bytes as delta-varint (ratio {:.2} of the plain CSR's {} bytes){}",
            self.compressed_bytes,
            self.compression_ratio,
            self.plain_csr_bytes,
            if self.stored_compressed { "; stored compressed in the file" } else { "" }
        );
        if let Some(d) = &self.diameter {
            let how = if d.exact {
                format!("exact, every vertex's eccentricity, {} searches", d.searches)
            } else {
                format!("at least: double sweeps, {} searches", d.searches)
            };
            println!("diameter: {} hops, from {} to {} ({how}; {:.1} ms)", d.hops, d.from, d.to, d.time_ms);
        }
    }
}

/// What the weights a [`WeightValues::problem`](warpath::graph::WeightValues::problem) refuses
/// would have to be instead.
fn valid_weights(problem: &str) -> &'static str {
    match problem {
        "negative" => "non-negative weights",
        "infinite" | "not a number" => "finite weights",
        _ => "weights within their type's range",
    }
}

/// Whether GRAPH names a `.wgr` file whose lists are stored compressed. Standard input and
/// pipes, read once by the load, are not read again to tell: false.
fn stored_compressed(input: &GraphInput) -> Result<bool> {
    let (graph, format) = (&input.graph, input.format.map(Into::into));
    if graph == warpath::input::STDIN || (format.is_none() && warpath::generate::looks_like_spec(graph)) {
        return Ok(false);
    }
    warpath::formats::stored_compressed(Path::new(graph), &ReadOptions { format, ..ReadOptions::DEFAULT })
}
