//! Criterion benches of graph construction: the generators (kron:16, urand:16, grid2d:256)
//! and the builder (dedup, self-loops, symmetrize, sort) on a raw Kronecker edge list,
//! unweighted and with `u32` weights.
//! `cargo bench -p warpath-benches --bench build`.

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use warpath::generate::generate;
use warpath::graph::{EdgeList, GraphBuilder, Weights};

fn generators(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate");
    group.sample_size(10).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(300));
    for spec in ["kron:16", "urand:16", "grid2d:256"] {
        let parsed = spec.parse().unwrap();
        group.throughput(Throughput::Elements(generate(&parsed, 1).unwrap().num_edges()));
        group.bench_function(spec, |b| b.iter(|| generate(&parsed, 1).unwrap()));
    }
    group.finish();
}

fn builder(c: &mut Criterion) {
    // The directed edges of kron:16, shuffled by a multiplicative hash and with every edge
    // listed twice, so the builder has sorting and duplicates to remove.
    let graph = generate(&"kron:16".parse().unwrap(), 1).unwrap();
    let mut edges: Vec<(u32, u32)> = (0..graph.num_vertices() as u32)
        .flat_map(|u| graph.neighbors(u).iter().map(move |&v| (u, v)))
        .filter(|(u, v)| u < v)
        .collect();
    edges.sort_by_key(|&(u, v)| ((u as u64) << 32 | v as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    edges.extend_from_within(..);
    let n = graph.num_vertices() as u64;
    let mut group = c.benchmark_group("builder");
    group.sample_size(10).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(300));
    group.throughput(Throughput::Elements(edges.len() as u64));
    group.bench_function("undirected kron:16 edges", |b| {
        b.iter_batched(
            || EdgeList::new(n, edges.clone(), true),
            |list| GraphBuilder::new().build(list).unwrap(),
            BatchSize::LargeInput,
        )
    });
    let weights = Weights::U32((0..edges.len() as u32).map(|i| 1 + i.wrapping_mul(2_654_435_761) % 255).collect());
    group.bench_function("undirected kron:16 edges, u32 weights", |b| {
        b.iter_batched(
            || EdgeList::new(n, edges.clone(), true).with_weights(weights.clone()),
            |list| GraphBuilder::new().build(list).unwrap(),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("directed kron:16 edges", |b| {
        b.iter_batched(
            || EdgeList::new(n, edges.clone(), false),
            |list| GraphBuilder::new().build(list).unwrap(),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

criterion_group!(benches, generators, builder);
criterion_main!(benches);
