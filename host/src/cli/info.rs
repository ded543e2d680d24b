use std::path::Path;

use rayon::prelude::*;

use warpath::formats::Format;
use warpath::graph::CompressedGraph;
use warpath::Result;

use super::args::InfoArgs;

pub fn run(args: &InfoArgs) -> Result<()> {
    let (graph, stages) = super::load_weighted_staged(&args.input, &args.weights)?;
    let n = graph.num_vertices();
    let mut degrees: Vec<u64> = (0..n as u32).into_par_iter().map(|v| graph.degree(v)).collect();
    degrees.par_sort_unstable();
    let isolated = degrees.partition_point(|&d| d == 0);
    let mean = if n > 0 { graph.num_edges() as f64 / n as f64 } else { 0.0 };
    let symmetric = graph.is_symmetric();

    println!("graph: {}", args.input.graph);
    println!("read: {:.3} s", stages.read.as_secs_f64());
    println!("build: {:.3} s", stages.build.as_secs_f64());
    println!("vertices: {n}");
    println!("edges: {} (directed, as stored)", graph.num_edges());
    if symmetric {
        println!("undirected edges: {}", graph.num_edges() / 2);
    }
    println!("symmetric: {}", if symmetric { "yes" } else { "no" });
    println!("vertex ids: {}-based", graph.id_base());
    if n > 0 {
        println!("out-degree: min {}, median {}, mean {mean:.2}, max {}", degrees[0], degrees[n / 2], degrees[n - 1]);
    }
    println!("vertices without out-edges: {isolated}");
    match (graph.weight_kind(), graph.weight_range()) {
        (None, _) => println!("weights: none"),
        (Some(kind), None) => println!("weights: {kind}, no edges"),
        (Some(_), Some(range)) => println!("weights: {range}"),
    }
    let compressed = CompressedGraph::encode(&graph);
    println!(
        "compression: {} bytes as delta-varint (ratio {:.2} of the plain CSR's {} bytes){}",
        compressed.compressed_bytes(),
        compressed.ratio(),
        compressed.raw_bytes(),
        if stored_compressed(&args.input.graph)? { "; stored compressed in the file" } else { "" }
    );
    Ok(())
}

/// Whether GRAPH names a `.wgr` file whose lists are stored compressed.
fn stored_compressed(input: &str) -> Result<bool> {
    let path = Path::new(input);
    if warpath::generate::looks_like_spec(input) || Format::from_path(path).ok() != Some(Format::Wgr) {
        return Ok(false);
    }
    warpath::formats::wgr::is_compressed(path)
}
