//! `warpath closeness GRAPH`: every vertex's closeness and harmonic centrality (issue 55, item 2),
//! exact up to `--exact-up-to` vertices (on the GPU where there is one) and sampled above (on the
//! CPU) with the error bound printed; the
//! most central vertices, `--out` for every vertex, `--verify` against one BFS for each of 16
//! vertices, `--json`.

use std::time::Instant;

use serde::Serialize;

use warpath::bfs::multi_source::{
    centrality, check_centrality, sampled_centrality, Centrality, SampledCentrality, CHECKED, CHECK_SEED, CPU_ONLY,
};
use warpath::bfs::{random_sources_in, Traverser};
use warpath::engine::Backend;
use warpath::{Error, Graph, Result};

use super::args::ClosenessArgs;
use super::json::{print_envelope, Envelope};

/// One of the most central vertices.
#[derive(Serialize)]
struct Central {
    /// As numbered in the file.
    vertex: u64,
    closeness: f64,
    harmonic: f64,
}

/// How a sampled run may be off (see `SampledCentrality`).
#[derive(Serialize)]
struct Bounds {
    samples: usize,
    epsilon: f64,
    confidence: f64,
    max_distance: u32,
}

/// The `--json` object's `result`.
#[derive(Serialize)]
struct ClosenessJson {
    wf_improved: bool,
    exact: bool,
    sampled: Option<Bounds>,
    mean_closeness: f64,
    mean_harmonic: f64,
    top: Vec<Central>,
    out: Option<String>,
}

pub fn run(args: &ClosenessArgs) -> Result<()> {
    let (graph, load_ms) = super::checked_load(&args.graph, args.out.as_deref())?;
    let n = graph.num_vertices();
    if n < 2 {
        return Err(Error::InvalidArgument(format!(
            "{}: closeness needs at least two vertices, the graph has {n}",
            args.graph.input.graph
        )));
    }
    let mut warnings = Vec::new();
    let wf_improved = !args.no_wf_improved;
    let exact = n as u64 <= args.exact_up_to;
    let mut backend = warpath::engine::BackendUsed::Cpu { threads: rayon::current_num_threads() };
    // Exact closeness on the backend asked for (the GPU placed here); sampled on the CPU.
    let traverser = match args.graph.backend() {
        Backend::Cpu => None,
        asked if exact => Some(Traverser::new(&graph, asked)?),
        _ => {
            warnings.push(CPU_ONLY.to_string());
            None
        }
    };
    let started = Instant::now();
    let (found, sampled) = if exact {
        match &traverser {
            Some(traverser) => {
                let run = traverser.centrality(wf_improved)?;
                warnings.extend(run.warnings);
                backend = run.backend;
                (run.result, None)
            }
            None => (centrality(&graph, wf_improved), None),
        }
    } else {
        let sources = random_sources_in(graph.degrees(), args.graph.input.seed, args.samples as usize);
        if sources.is_empty() {
            return Err(Error::InvalidArgument(format!(
                "{}: the graph has no edges to sample from",
                args.graph.input.graph
            )));
        }
        let sampled = sampled_centrality(&graph, wf_improved, &sources);
        (sampled.estimate.clone(), Some(sampled))
    };
    let time_ms = started.elapsed().as_secs_f64() * 1e3;
    if let Some(path) = &args.out {
        super::results::write_centrality(&graph, &found, path)?;
    }
    let verification = args.verify.then(|| check(&graph, args, wf_improved, &found, sampled.as_ref()));
    let top = most_central(&graph, &found, args.top);
    let mean_closeness = found.closeness.iter().sum::<f64>() / n as f64;
    let mean_harmonic = found.harmonic.iter().sum::<f64>() / n as f64;
    let name = &args.graph.input.graph;
    if args.json {
        let envelope = Envelope {
            time_ms: Some(time_ms),
            end_to_end_ms: Some(time_ms),
            verified: verification.as_ref().map(Result::is_ok),
            warnings,
            ..Envelope::new("closeness", name, n as u64, graph.num_edges(), load_ms).ran_on(&backend)
        };
        let json = ClosenessJson {
            wf_improved,
            exact: sampled.is_none(),
            sampled: sampled.as_ref().map(|s| Bounds {
                samples: s.sources.len(),
                epsilon: s.epsilon,
                confidence: 1.0 - s.confidence_gap,
                max_distance: s.max_distance,
            }),
            mean_closeness,
            mean_harmonic,
            top,
            out: args.out.as_ref().map(|p| p.display().to_string()),
        };
        print_envelope(&envelope, &json)?;
        return verification.unwrap_or(Ok(()));
    }
    for warning in &warnings {
        eprintln!("warpath: warning: {warning}");
    }
    println!("graph: {name} (loaded in {load_ms:.1} ms)");
    println!("backend: {backend}: bit-parallel searches, 64 sources a pass");
    println!("vertices: {n}");
    match &sampled {
        None => println!("closeness: exact, one search a vertex{}", if wf_improved { "" } else { " (no wf_improved)" }),
        Some(s) => {
            println!(
                "closeness: sampled from {} sources; with probability {:.2} for every vertex, the share of vertices \
                 reaching it within {:.4}, its mean distance from them within {:.4} x the diameter (at least {}), \
                 its harmonic centrality within {:.4} x (n - 1)",
                s.sources.len(),
                1.0 - s.confidence_gap,
                s.epsilon,
                s.epsilon,
                s.max_distance,
                s.epsilon
            );
        }
    }
    println!("mean closeness: {mean_closeness:.6}");
    println!("mean harmonic: {mean_harmonic:.3}");
    println!("time: {time_ms:.1} ms");
    if !top.is_empty() {
        println!("{:>12} {:>12} {:>14}", "vertex", "closeness", "harmonic");
        for c in &top {
            println!("{:>12} {:>12.6} {:>14.3}", c.vertex, c.closeness, c.harmonic);
        }
    }
    if let Some(Ok(())) = verification {
        println!("verified: ok ({CHECKED} vertices against one BFS each)");
    }
    verification.unwrap_or(Ok(()))
}

/// The `k` vertices of the highest closeness (ties: the smaller id first).
fn most_central(graph: &Graph, found: &Centrality, k: usize) -> Vec<Central> {
    let mut order: Vec<u32> = (0..graph.num_vertices() as u32).collect();
    let k = k.min(order.len());
    if k == 0 {
        return Vec::new();
    }
    let by_closeness =
        |a: &u32, b: &u32| found.closeness[*b as usize].total_cmp(&found.closeness[*a as usize]).then(a.cmp(b));
    order.select_nth_unstable_by(k - 1, by_closeness);
    order.truncate(k);
    order.sort_by(by_closeness);
    order
        .into_iter()
        .map(|v| Central {
            vertex: graph.external_id(v),
            closeness: found.closeness[v as usize],
            harmonic: found.harmonic[v as usize],
        })
        .collect()
}

/// Checks [`CHECKED`] seeded random vertices against one sequential BFS each: equal where exact
/// (the harmonic to rounding), within the bounds where sampled.
fn check(
    graph: &Graph,
    args: &ClosenessArgs,
    wf_improved: bool,
    found: &Centrality,
    sampled: Option<&SampledCentrality>,
) -> Result<()> {
    let mut vertices = random_sources_in(graph.degrees(), args.graph.input.seed ^ CHECK_SEED, CHECKED);
    if vertices.is_empty() {
        vertices.push(0);
    }
    check_centrality(graph, wf_improved, found, &vertices, sampled.map(|s| s.epsilon))
}
