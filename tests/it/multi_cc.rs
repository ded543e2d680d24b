//! The partitioned connected components on 1 to 7 ranks in one process: every run's labels are
//! the sequential union-find's (each component named by its smallest vertex) and pass the
//! verifier, on Kronecker, uniform, grid, directed and many-component graphs, with Afforest's
//! options and Shiloach-Vishkin. The same checks run with every rank's local components found
//! on the GPU (all parts on the first GPU, their lists plain or compressed; skipped without one).

use crate::common;

use common::{build, gpu_or_skip, rmat, shuffled_paths, Rng};
use warpath::cc::{components_sequential, verify, CcAlgorithm, CcOptions};
use warpath::engine::PlacementOptions;
use warpath::generate::{generate, GeneratorSpec};
use warpath::gpu::Placement;
use warpath::multi::cc::{
    components_gpu_in_process, components_in_process, components_rank, gather_components, CpuCcPart,
    PartitionedComponents,
};
use warpath::multi::{partition_1d, run_ranks, Communicator, Partition};
use warpath::Graph;

const WORLDS: [usize; 5] = [1, 2, 3, 4, 7];

fn generated(spec: &str) -> Graph {
    generate(&spec.parse::<GeneratorSpec>().unwrap(), 5).unwrap()
}

/// Where a check finds each part's components: on its thread, or on the GPU.
/// `whole`: the graph cut, where the caller hands it over (an undirected part's transpose is then
/// read off it instead of sorted out of the part).
type Runner = fn(&Partition, Option<&Graph>, &CcOptions, usize) -> Vec<PartitionedComponents>;

fn on_threads(
    partition: &Partition,
    whole: Option<&Graph>,
    options: &CcOptions,
    runs: usize,
) -> Vec<PartitionedComponents> {
    components_in_process(partition, whole, options, runs).unwrap()
}

fn on_gpu(
    partition: &Partition,
    whole: Option<&Graph>,
    options: &CcOptions,
    runs: usize,
) -> Vec<PartitionedComponents> {
    components_gpu_in_process(partition, whole, options, &PlacementOptions::default(), runs).unwrap()
}

/// On the GPU with every part's lists zero-copy, as a part larger than its GPU is placed.
fn on_gpu_zero_copy(
    partition: &Partition,
    whole: Option<&Graph>,
    options: &CcOptions,
    runs: usize,
) -> Vec<PartitionedComponents> {
    let zero_copy = PlacementOptions { placement: Some(Placement::ZeroCopy), ..Default::default() };
    components_gpu_in_process(partition, whole, options, &zero_copy, runs).unwrap()
}

/// On the GPU with every part's lists delta-varint compressed, read by the compressed Afforest
/// kernel.
fn on_gpu_compressed(
    partition: &Partition,
    whole: Option<&Graph>,
    options: &CcOptions,
    runs: usize,
) -> Vec<PartitionedComponents> {
    let compressed = PlacementOptions { compressed: true, ..Default::default() };
    components_gpu_in_process(partition, whole, options, &compressed, runs).unwrap()
}

/// Every world size, two runs each (the part prepared once): the sequential labels, verified,
/// and the merge accounted. Even world sizes hand over the graph (an undirected part's
/// transpose read off it), odd ones do not (sorted out of the part).
fn check_graph_on(name: &str, g: &Graph, options: &CcOptions, run: Runner) {
    let expected = components_sequential(g);
    for world in WORLDS {
        let partition = partition_1d(g, None, world).unwrap();
        let whole = (world % 2 == 0).then_some(g);
        let runs = run(&partition, whole, options, 2);
        assert_eq!(runs.len(), 2);
        for result in runs {
            let context = format!("{name}, {world} ranks, {options:?}");
            assert_eq!(result.components, expected, "{context}");
            verify::validate(g, &result.components).unwrap_or_else(|e| panic!("{context}: {e}"));
            assert_eq!(result.ranks, world);
            let timing = result.timing;
            assert!(timing.time >= timing.local && timing.time >= timing.merge, "{context}: {timing:?}");
            // Each step is timed inside a rank's merge, so none exceeds the slowest merge.
            let steps = timing.steps;
            let each = [steps.names, steps.join, steps.gather, steps.union, steps.relabel];
            assert!(each.iter().all(|&step| step <= timing.merge), "{context}: {timing:?}");
            if world == 1 {
                assert_eq!((timing.exchange_bytes, timing.joined_pairs), (0, 0), "{context}");
            }
        }
    }
}

fn check_graph(name: &str, g: &Graph, options: &CcOptions) {
    check_graph_on(name, g, options, on_threads);
}

/// Many components, isolated vertices and components that cross every part boundary: random
/// short chains over a sparse id space.
fn many_components() -> Graph {
    let mut rng = Rng::new(17);
    let n = 3000u32;
    let edges = (0..900).map(|_| (rng.next_below(n as u64) as u32, rng.next_below(n as u64) as u32)).collect();
    build(n as u64, edges, true)
}

#[test]
fn kronecker_uniform_and_grid_graphs() {
    for spec in ["kron:11", "urand:11", "grid2d:40x30"] {
        check_graph(spec, &generated(spec), &CcOptions::default());
    }
}

#[test]
fn directed_graphs_give_weakly_connected_components() {
    check_graph("directed rmat", &rmat(11, 12_000, 3, false), &CcOptions::default());
}

#[test]
fn many_components_every_algorithm_and_option() {
    let g = many_components();
    for options in [
        CcOptions::default(),
        CcOptions { samples: 0, ..CcOptions::default() },
        CcOptions { neighbor_rounds: 0, ..CcOptions::default() },
        CcOptions { algorithm: CcAlgorithm::ShiloachVishkin, ..CcOptions::default() },
    ] {
        check_graph("many components", &g, &options);
    }
    check_graph("shuffled paths", &shuffled_paths(), &CcOptions::default());
}

/// One process per GPU gathers the labels through the communicator: the same labelling as the
/// concatenation of the ranks'.
#[test]
fn the_labels_gathered_through_the_communicator_are_the_concatenated_ones() {
    let g = generated("kron:10");
    let partition = partition_1d(&g, None, 3).unwrap();
    let gathered = run_ranks(3, |comm| {
        let part = &partition.parts[comm.rank()];
        let rank = components_rank(comm, &CpuCcPart::new(part, None), &CcOptions::default())?;
        gather_components(comm, part, rank)
    });
    let expected = components_sequential(&g);
    for run in gathered {
        assert_eq!(run.unwrap().components, expected);
    }
}

#[test]
fn a_world_unlike_the_partition_is_an_error() {
    let g = generated("kron:8");
    let partition = partition_1d(&g, None, 2).unwrap();
    let answers = run_ranks(3, |comm| {
        let part = &partition.parts[comm.rank() % 2];
        components_rank(comm, &CpuCcPart::new(part, None), &CcOptions::default()).map(|_| ())
    });
    for answer in answers {
        let message = answer.unwrap_err().to_string();
        assert!(message.contains("2 parts but the communicator 3 ranks"), "{message}");
    }
}

/// The GPU path: each part's components found by the single-GPU Afforest kernel (and
/// Shiloach-Vishkin's), the ranks threads sharing the first GPU.
#[test]
fn gpu_ranks_give_the_same_labels() {
    if gpu_or_skip("gpu_ranks_give_the_same_labels").is_none() {
        return;
    }
    for spec in ["kron:11", "urand:11", "grid2d:40x30"] {
        check_graph_on(spec, &generated(spec), &CcOptions::default(), on_gpu);
    }
    check_graph_on("directed rmat", &rmat(11, 12_000, 3, false), &CcOptions::default(), on_gpu);
    check_graph_on("kron:11 zero-copy", &generated("kron:11"), &CcOptions::default(), on_gpu_zero_copy);
    check_graph_on("kron:11 compressed", &generated("kron:11"), &CcOptions::default(), on_gpu_compressed);
    check_graph_on("directed rmat compressed", &rmat(11, 12_000, 3, false), &CcOptions::default(), on_gpu_compressed);
    let g = many_components();
    let sv = CcOptions { algorithm: CcAlgorithm::ShiloachVishkin, ..CcOptions::default() };
    for options in [CcOptions::default(), CcOptions { samples: 0, ..CcOptions::default() }, sv] {
        check_graph_on("many components", &g, &options, on_gpu);
    }
    check_graph_on("many components compressed, Shiloach-Vishkin", &g, &sv, on_gpu_compressed);
    // Paths whose ids are shuffled over the parts: the pairs chain names of every rank, in no
    // order, so the union's hooks move roots down chains.
    check_graph_on("shuffled paths", &shuffled_paths(), &CcOptions::default(), on_gpu);
}
