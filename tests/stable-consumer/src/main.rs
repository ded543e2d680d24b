//! What a library user writes: a graph, prepared once, traversed from many sources, distances
//! read and checked against the sequential BFS. Prints the embedded PTX's header line last,
//! for `run` to compare with the committed PTX's.

use warpath::bfs::{bfs_sequential, random_sources, Backend, Traverser};
use warpath::graph::UNREACHED;
use warpath::input::{load_graph, LoadOptions};

fn main() -> warpath::Result<()> {
    let graph = load_graph("kron:10", &LoadOptions { seed: 7, ..LoadOptions::default() })?;
    let traverser = Traverser::new(&graph, Backend::Auto)?;
    for warning in traverser.warnings() {
        eprintln!("{warning}");
    }
    let sources = random_sources(&graph, 7, 8);
    assert_eq!(sources.len(), 8);
    for source in sources {
        let traversal = traverser.run(source)?;
        let distances = &traversal.result.distances;
        assert_eq!(distances, &bfs_sequential(&graph, source).distances, "source {source}");
        let reached = distances.iter().filter(|&&d| d != UNREACHED).count();
        println!(
            "source {}: {reached} reached, depth {} on {}",
            graph.external_id(source),
            traversal.result.depth(),
            traversal.backend
        );
    }
    println!("{}", warpath::gpu::ptx::PTX.lines().next().unwrap_or_default());
    Ok(())
}
