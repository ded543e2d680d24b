//! One graph, placed once, serving every algorithm: load a graph (a file or a generator spec;
//! `kron:12` by default) with seeded weights, place it on the GPU (or all CPU cores when there
//! is none), run BFS, connected components and shortest paths on that one placement, each
//! checked by its verifier, then the same BFS and components over in-process ranks (threads
//! standing in for GPUs, their parts on the GPU where there is one) of a partition of the
//! graph, whose answers must equal the single placement's.
//!
//! `cargo run --release --example one_graph -- [GRAPH]`; it builds on stable Rust with
//! `--no-default-features`.

use warpath::bfs::random_sources;
use warpath::engine::Backend;
use warpath::input::{load_graph, LoadOptions};
use warpath::multi::{partition_1d, PartitionedOptions, Ranks};
use warpath::PlacedGraph;

fn main() -> warpath::Result<()> {
    let input = std::env::args().nth(1).unwrap_or_else(|| "kron:12".into());
    let options = LoadOptions { weights: Some("uniform:1:255".parse()?), ..LoadOptions::default() };
    let graph = load_graph(&input, &options)?;
    let placed = PlacedGraph::new(&graph, Backend::Auto)?;
    for warning in placed.warnings() {
        eprintln!("warning: {warning}");
    }
    println!(
        "{input}: {} vertices, {} edges, on {} (placed once in {:?})",
        graph.num_vertices(),
        graph.num_edges(),
        placed.backend(),
        placed.upload_time()
    );
    let Some(&source) = random_sources(&graph, 1, 1).first() else {
        println!("no vertex has an edge: nothing to traverse");
        return Ok(());
    };

    let traversal = placed.bfs(source)?;
    warpath::bfs::verify::validate(&graph, &traversal.result)?;
    println!(
        "bfs from {}: depth {}, {:?}",
        graph.external_id(source),
        traversal.result.depth(),
        traversal.time
    );

    let components = placed.components(&Default::default())?;
    warpath::cc::verify::validate(&graph, &components.result.components)?;
    println!("components: {}, {:?}", components.result.components.count(), components.time);

    let paths = placed.shortest_paths(source, &Default::default())?;
    warpath::sssp::verify::validate(&graph, &paths.result)?;
    println!("shortest paths: {} reached, {:?}", paths.result.distances.reached(), paths.end_to_end_time);

    // The partitioned BFS and components over in-process ranks: threads standing in for GPUs,
    // each rank's part on the GPU where there is one (every part on the first GPU), else on the
    // rank's thread. Their answers must equal the single placement's.
    let ranks = Ranks::threads(4, placed.placed().is_some());
    let transpose = (!graph.is_undirected()).then(|| graph.transpose());
    let partition = partition_1d(&graph, transpose.as_ref(), ranks.count())?;
    let partitioned = ranks.run(&partition, &[source], &PartitionedOptions::default())?.remove(0);
    assert_eq!(partitioned.result.distances, traversal.result.distances, "the partitioned BFS's distances");
    let joined = ranks.components(&partition, Some(&graph), &Default::default(), &Default::default(), 1)?;
    assert_eq!(joined[0].components, components.result.components, "the partitioned components");
    println!(
        "over in-process ranks, {}: the same distances in {:?}, the same components in {:?}",
        ranks.describe(),
        partitioned.time,
        joined[0].timing.time
    );
    Ok(())
}
