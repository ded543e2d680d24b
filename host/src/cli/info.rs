use rayon::prelude::*;

use warpath::Result;

use super::args::InfoArgs;

pub fn run(args: &InfoArgs) -> Result<()> {
    let graph = super::load(&args.input)?;
    let n = graph.num_vertices();
    let mut degrees: Vec<u64> = (0..n as u32).into_par_iter().map(|v| graph.degree(v)).collect();
    degrees.par_sort_unstable();
    let isolated = degrees.partition_point(|&d| d == 0);
    let mean = if n > 0 { graph.num_edges() as f64 / n as f64 } else { 0.0 };
    let symmetric = graph.is_symmetric();

    println!("graph: {}", args.input.graph);
    println!("vertices: {n}");
    println!("edges: {} (directed, as stored)", graph.num_edges());
    if symmetric {
        println!("undirected edges: {}", graph.num_edges() / 2);
    }
    println!("symmetric: {}", if symmetric { "yes" } else { "no" });
    println!("vertex ids: {}-based", graph.id_base());
    if n > 0 {
        println!(
            "out-degree: min {}, median {}, mean {mean:.2}, max {}",
            degrees[0],
            degrees[n / 2],
            degrees[n - 1]
        );
    }
    println!("vertices without out-edges: {isolated}");
    Ok(())
}
