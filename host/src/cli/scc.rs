//! `warpath scc GRAPH`: strongly connected components (an undirected graph's are its connected
//! components), their count and sizes, the phases and the time; `--out` writes every vertex's
//! component, `--verify` checks them against Tarjan's algorithm, `--json` prints one JSON object.

use serde::Serialize;

use warpath::engine::BackendUsed;
use warpath::scc::{verify, SccFinder, SccPhase};
use warpath::Result;

use super::args::SccArgs;
use super::json::{print_envelope, Envelope};

/// The `--json` object's `result`.
#[derive(Serialize)]
struct SccJson {
    undirected: bool,
    components: u64,
    largest_component: u64,
    largest_component_share: f64,
    /// Components of one vertex.
    single_vertex_components: u64,
    phases: Vec<PhaseJson>,
    out: Option<String>,
}

#[derive(Serialize)]
struct PhaseJson {
    phase: &'static str,
    time_ms: f64,
    decided: u64,
    rounds: u32,
}

impl From<&SccPhase> for PhaseJson {
    fn from(phase: &SccPhase) -> Self {
        PhaseJson {
            phase: phase.name,
            time_ms: phase.time.as_secs_f64() * 1e3,
            decided: phase.decided,
            rounds: phase.rounds,
        }
    }
}

pub fn run(args: &SccArgs) -> Result<()> {
    let (graph, load_ms) = super::checked_load(&args.graph, args.out.as_deref())?;
    let found = SccFinder::new(&graph, args.graph.backend())?.run_with(args.pivot_search)?;
    for warning in &found.warnings {
        eprintln!("warpath: warning: {warning}");
    }
    let components = &found.result.components;
    if let Some(path) = &args.out {
        super::results::write_components(&graph, components, path)?;
    }
    if args.verify {
        verify::validate(&graph, components)?;
    }
    let count = components.count();
    let sizes = components.sizes();
    let largest = components.largest().map_or(0, |(_, size)| size);
    let singles = sizes.iter().filter(|&&size| size == 1).count() as u64;
    let share = largest as f64 / graph.num_vertices().max(1) as f64;
    let time_ms = found.time.as_secs_f64() * 1e3;
    let name = &args.graph.input.graph;
    if args.json {
        let envelope = Envelope {
            time_ms: Some(time_ms),
            end_to_end_ms: Some(found.end_to_end_time.as_secs_f64() * 1e3),
            verified: args.verify.then_some(true),
            warnings: found.warnings.clone(),
            ..Envelope::new("scc", name, graph.num_vertices() as u64, graph.num_edges(), load_ms).ran_on(&found.backend)
        };
        let json = SccJson {
            undirected: graph.is_undirected(),
            components: count,
            largest_component: largest,
            largest_component_share: share,
            single_vertex_components: singles,
            phases: found.result.phases.iter().map(PhaseJson::from).collect(),
            out: args.out.as_ref().map(|p| p.display().to_string()),
        };
        return print_envelope(&envelope, &json);
    }
    println!("graph: {name} (loaded in {load_ms:.1} ms)");
    let method = match found.backend {
        BackendUsed::Gpu { .. } => "trimming, forward-backward, two-way coloring",
        BackendUsed::Cpu { .. } => "trimming, forward-backward, coloring, Tarjan's for the rest",
    };
    println!("backend: {}: {method}", found.backend);
    println!("vertices: {}", graph.num_vertices());
    if graph.is_undirected() {
        println!("edges: {} (undirected: the components are the connected components)", graph.num_edges() / 2);
    } else {
        println!("edges: {} (directed)", graph.num_edges());
    }
    println!("components: {count} ({singles} of one vertex)");
    println!("largest component: {largest} vertices ({:.2}%)", 100.0 * share);
    let phases: Vec<String> = found
        .result
        .phases
        .iter()
        .map(|p| match p.rounds {
            0 => format!("{} {:.3} ms ({} decided)", p.name, p.time.as_secs_f64() * 1e3, p.decided),
            rounds => {
                format!("{} {:.3} ms ({} decided, {rounds} rounds)", p.name, p.time.as_secs_f64() * 1e3, p.decided)
            }
        })
        .collect();
    println!("phases: {}", phases.join(", "));
    println!("time: {time_ms:.3} ms");
    if args.verify {
        println!("verified: ok");
    }
    Ok(())
}
