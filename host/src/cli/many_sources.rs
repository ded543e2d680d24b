//! `warpath bfs GRAPH --sources V,V,..|FILE|random:N`: a BFS from every source at once (issue 55,
//! item 1), each source's reach and depth; `--out` writes `source vertex distance` for every
//! reached pair, `--verify` checks every source's distances by the Graph500 rules, `--json`
//! prints the envelope.

use serde::Serialize;

use warpath::bfs::{check_source, verify, BfsResult};
use warpath::graph::UNREACHED;
use warpath::{Error, Graph, Result};

use super::args::{parse_vertex_id, BfsArgs, GraphInput};
use super::json::{print_envelope, Envelope};

/// Distances held at once, sources times vertices: 2^31 of 4 bytes (8 GiB).
const MAX_DISTANCES: u64 = 1 << 31;

/// Where `--sources` names its vertices.
enum SourceSpec {
    /// Vertices as the file numbers them.
    Listed(Vec<u64>),
    /// `random:N`.
    Random(usize),
}

/// `random:N`, a comma-separated list of vertex ids, or else a file of them.
fn parse_spec(spec: &str) -> Result<SourceSpec> {
    if let Some(count) = spec.strip_prefix("random:") {
        return match count.parse::<usize>() {
            Ok(n) if n > 0 => Ok(SourceSpec::Random(n)),
            _ => Err(Error::InvalidArgument(format!("--sources random:N takes a positive count, not `{count}`"))),
        };
    }
    let looks_listed = spec
        .split(',')
        .all(|part| !part.trim().is_empty() && part.trim().bytes().all(|b| b.is_ascii_digit() || b == b'-'));
    if looks_listed {
        let ids = spec.split(',').map(parse_vertex_id).collect::<std::result::Result<Vec<_>, _>>();
        return ids.map(SourceSpec::Listed).map_err(|e| Error::InvalidArgument(format!("--sources: {e}")));
    }
    let text = std::fs::read_to_string(spec).map_err(|e| {
        Error::InvalidArgument(format!("--sources {spec}: not a list of vertices, and not a readable file: {e}"))
    })?;
    let mut ids = Vec::new();
    for (line, content) in text.lines().enumerate() {
        let content = content.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        ids.push(parse_vertex_id(content).map_err(|e| Error::InvalidArgument(format!("{spec}:{}: {e}", line + 1)))?);
    }
    if ids.is_empty() {
        return Err(Error::InvalidArgument(format!("{spec}: no source vertex in the file")));
    }
    Ok(SourceSpec::Listed(ids))
}

/// The sources' internal ids, each checked as `--source` is.
fn resolve(spec: &str, graph: &Graph, input: &GraphInput) -> Result<Vec<u32>> {
    let sources = match parse_spec(spec)? {
        SourceSpec::Random(count) => super::random_sources(graph.degrees(), count, input)?,
        SourceSpec::Listed(external) => external
            .into_iter()
            .map(|id| super::named_vertex(graph.degrees(), id, "source", input))
            .collect::<Result<Vec<_>>>()?,
    };
    for &source in &sources {
        check_source(graph, source)?;
    }
    let held = sources.len() as u64 * graph.num_vertices() as u64;
    if held > MAX_DISTANCES {
        return Err(Error::InvalidArgument(format!(
            "--sources: {} sources of {} vertices would hold {} GiB of distances; ask for fewer sources",
            sources.len(),
            graph.num_vertices(),
            held * 4 >> 30
        )));
    }
    Ok(sources)
}

/// One source's line of the report.
#[derive(Serialize)]
struct SourceReport {
    /// As numbered in the file.
    source: u64,
    reached: u64,
    depth: u32,
}

/// The `--json` object's `result`.
#[derive(Serialize)]
struct ManySourcesJson {
    /// `bit-parallel` (64 sources a pass) or `one traversal a source` (a GPU graph without
    /// plain in-lists on the device).
    searches: &'static str,
    sources: Vec<SourceReport>,
    out: Option<String>,
}

pub fn run(args: &BfsArgs, spec: &str) -> Result<()> {
    let kernel = super::requested_kernel(&args.gpu)?;
    let (graph, load_ms) = super::checked_load(&args.graph, args.out.as_deref())?;
    let sources = resolve(spec, &graph, &args.graph.input)?;
    let traverser = super::prepare(&graph, &args.graph, &args.gpu, kernel)?;
    let run = traverser.run_many(&sources)?;
    let searches = traverser.many_searches();
    let reports: Vec<SourceReport> = sources
        .iter()
        .zip(&run.result)
        .map(|(&source, distances)| {
            let (reached, depth) = distances
                .iter()
                .filter(|&&d| d != UNREACHED)
                .fold((0u64, 0u32), |(reached, depth), &d| (reached + 1, depth.max(d)));
            SourceReport { source: graph.external_id(source), reached, depth }
        })
        .collect();
    if let Some(path) = &args.out {
        super::results::write_pairs(&graph, &sources, &run.result, path)?;
    }
    // The distances are not needed after the check, which takes them.
    let verification = args.verify.then(|| {
        sources.iter().zip(run.result).try_for_each(|(&source, distances)| {
            verify::validate(&graph, &BfsResult { source, distances, parents: Vec::new() })
        })
    });
    let time_ms = run.time.as_secs_f64() * 1e3;
    let end_to_end_ms = run.end_to_end_time.as_secs_f64() * 1e3;
    let name = &args.graph.input.graph;
    if args.json {
        let envelope = Envelope {
            place_ms: traverser.placement_time().map(|placed| placed.as_secs_f64() * 1e3),
            time_ms: Some(time_ms),
            end_to_end_ms: Some(end_to_end_ms),
            verified: verification.as_ref().map(Result::is_ok),
            warnings: run.warnings.clone(),
            ..Envelope::new("bfs", name, graph.num_vertices() as u64, graph.num_edges(), load_ms).ran_on(&run.backend)
        };
        let json =
            ManySourcesJson { searches, sources: reports, out: args.out.as_ref().map(|p| p.display().to_string()) };
        print_envelope(&envelope, &json)?;
        return verification.unwrap_or(Ok(()));
    }
    // The traverser's own warnings were printed as it was prepared.
    for warning in run.warnings.iter().filter(|w| !traverser.warnings().contains(w)) {
        eprintln!("warpath: warning: {warning}");
    }
    println!("graph: {name} (loaded in {load_ms:.1} ms)");
    println!("backend: {} ({searches})", run.backend);
    println!("vertices: {}", graph.num_vertices());
    println!("sources: {}", sources.len());
    println!("{:>12} {:>12} {:>8}", "source", "reached", "depth");
    for report in &reports {
        println!("{:>12} {:>12} {:>8}", report.source, report.reached, report.depth);
    }
    println!("time: {time_ms:.3} ms ({:.3} ms a source)", time_ms / sources.len() as f64);
    println!("end-to-end: {end_to_end_ms:.3} ms");
    if let Some(Ok(())) = verification {
        println!("verified: ok (every source's distances, by the Graph500 rules without the tree)");
    }
    verification.unwrap_or(Ok(()))
}
