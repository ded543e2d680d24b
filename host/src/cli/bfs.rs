use std::time::Instant;

use warpath::bfs::{random_source, GpuKernel, KernelName, TopDownStrategy};
use warpath::graph::UNREACHED;
use warpath::bfs::verify;
use warpath::{Error, Graph, Result};

use super::args::BfsArgs;

pub fn run(args: &BfsArgs) -> Result<()> {
    let kernel = super::requested_kernel(&args.gpu)?;
    if let Some(path) = &args.out {
        super::check_output(path, &args.graph.input)?;
    }
    let loading = Instant::now();
    let graph = super::load(&args.graph.input)?;
    let load_ms = loading.elapsed().as_secs_f64() * 1e3;
    let source = match args.source {
        Some(_) if graph.num_vertices() == 0 => {
            return Err(Error::InvalidArgument(format!(
                "{}: the graph is empty (no vertices), so there is no source vertex to start from",
                args.graph.input.graph
            )))
        }
        Some(external) => graph.internal_id(external).ok_or_else(|| Error::InvalidSource {
            vertex: external,
            problem: format!(
                "is out of range: the graph has {} vertices, numbered {}..={}",
                graph.num_vertices(),
                graph.external_id(0),
                graph.external_id((graph.num_vertices() as u32).saturating_sub(1))
            ),
        })?,
        None => random_source(&graph, args.graph.input.seed).ok_or_else(|| {
            Error::InvalidArgument("the graph has no edges, so there is no source to start from".into())
        })?,
    };

    let traverser = super::prepare(&graph, &args.graph, &args.gpu, kernel)?;
    let traversal = traverser.run(source)?;
    let result = &traversal.result;
    let component_edges = result.edges_in_component(&graph);
    let seconds = traversal.traversal_time.as_secs_f64();

    println!("graph: {} (loaded in {load_ms:.1} ms)", args.graph.input.graph);
    println!("backend: {}", traversal.backend);
    if matches!(traversal.backend, warpath::bfs::BackendUsed::Gpu { .. }) {
        let auto = matches!(kernel, GpuKernel::Auto(_) | GpuKernel::TopDown(TopDownStrategy::Auto));
        let chosen = if auto { " (chosen by auto)" } else { "" };
        // The names of --gpu-kernel, as bench and suite print them.
        let resolved = traverser.resolved_gpu_kernel();
        let name = KernelName::of(&resolved);
        match resolved {
            GpuKernel::Persistent(p) | GpuKernel::Auto(p) if p.bottom_up => {
                let async_note = if p.async_bottom_up { ", async bottom-up on" } else { "" };
                println!("gpu kernel: {name} (bottom-up balance {}{async_note}){chosen}", p.bottom_up_balance)
            }
            GpuKernel::Persistent(_) | GpuKernel::Auto(_) => {
                println!("gpu kernel: {name} (the persistent kernel's expand-contract path){chosen}")
            }
            GpuKernel::TopDown(_) => println!("gpu kernel: {name} (top-down over edge queues){chosen}"),
            GpuKernel::PerLevel => println!("gpu kernel: {name}"),
        }
        if let Some(placement) = traverser.placement() {
            println!("placement: {placement}{}", if traverser.is_compressed() { " (compressed lists)" } else { "" });
        }
    }
    if traverser.distances_only() {
        println!("labels: distances only (no parents)");
    }
    println!("source: {}", graph.external_id(source));
    println!("vertices: {}", graph.num_vertices());
    if graph.is_undirected() {
        println!("edges: {} (directed, as stored; {} undirected)", graph.num_edges(), graph.num_edges() / 2);
    } else {
        println!("edges: {} ({})", graph.num_edges(), warpath::bench::report::DIRECTED_IN_EDGES);
    }
    println!("reached: {}", result.reached());
    println!("depth: {}", result.depth());
    println!("time: {:.3} ms", seconds * 1e3);
    println!("end-to-end: {:.3} ms", traversal.end_to_end_time.as_secs_f64() * 1e3);
    if let Some(placed) = traverser.placement_time() {
        println!("place: {:.3} ms (once per graph, not in end-to-end)", placed.as_secs_f64() * 1e3);
    }
    println!("GTEPS: {:.3}", if seconds > 0.0 { component_edges as f64 / seconds / 1e9 } else { 0.0 });

    if let Some(path) = &args.out {
        write_result(&graph, result, path)?;
    }
    if args.verify {
        // The tree when there are parents; the distances by the same rules otherwise.
        verify::validate(&graph, result)?;
        if result.has_parents() {
            println!("verified: ok");
        } else {
            println!("verified: ok (distances, by the Graph500 rules without the tree)");
        }
    }
    Ok(())
}

/// Writes one line per vertex (gzip-compressed when `path` ends in `.gz`), whole or not at all.
fn write_result(graph: &Graph, result: &warpath::bfs::BfsResult, path: &std::path::Path) -> Result<()> {
    warpath::output::write_atomically(path, |out| {
        if !result.has_parents() {
            // A distances-only run has no parent column to fill; the header says why it is missing.
            writeln!(out, "# vertex distance (distances only: no parents; -1 for unreached)")?;
            for v in 0..graph.num_vertices() as u32 {
                let distance = result.distances[v as usize];
                let external = graph.external_id(v);
                if distance == UNREACHED {
                    writeln!(out, "{external} -1")?;
                } else {
                    writeln!(out, "{external} {distance}")?;
                }
            }
            return Ok(());
        }
        for v in 0..graph.num_vertices() as u32 {
            let (distance, parent) = (result.distances[v as usize], result.parents[v as usize]);
            let external = graph.external_id(v);
            if distance == UNREACHED {
                writeln!(out, "{external} -1 -1")?;
            } else {
                writeln!(out, "{external} {distance} {}", graph.external_id(parent))?;
            }
        }
        Ok(())
    })
}
