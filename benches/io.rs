//! Criterion benches of the readers and the binary format: a SNAP edge list, a Matrix
//! Market file and a weighted `.wel` (each written to a temp dir from a kron:14 graph), the
//! smallest dataset (read unweighted) when
//! `../shared/datasets` (or `$WARPATH_DATASETS`) has one, and `.wgr` write and read.
//! `cargo bench -p warpath-benches --bench io`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use warpath::formats::{read_graph, write_wgr, ReadOptions};
use warpath::generate::{attach_weights, generate, WeightSpec};
use warpath::Graph;

struct TempDir(PathBuf);

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir() -> TempDir {
    let dir = std::env::temp_dir().join(format!("warpath-bench-io-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    TempDir(dir)
}

fn write_text(graph: &Graph, path: &Path, header: &str, base: u32) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("create file"));
    out.write_all(header.as_bytes()).unwrap();
    for u in 0..graph.num_vertices() as u32 {
        for &v in graph.neighbors(u) {
            writeln!(out, "{}\t{}", u + base, v + base).unwrap();
        }
    }
    out.flush().unwrap();
}

/// `u v w` lines, 0-based, as GAPBS writes `.wel` files.
fn write_weighted(graph: &Graph, path: &Path) {
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).expect("create file"));
    for u in 0..graph.num_vertices() as u32 {
        let weights = graph.neighbor_weights(u).unwrap();
        for (i, &v) in graph.neighbors(u).iter().enumerate() {
            writeln!(out, "{u} {v} {}", weights.get(i)).unwrap();
        }
    }
    out.flush().unwrap();
}

fn smallest_dataset() -> Option<PathBuf> {
    let dir = std::env::var_os("WARPATH_DATASETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"));
    let mut files: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "gz"))
        .filter_map(|p| Some((std::fs::metadata(&p).ok()?.len(), p)))
        .collect();
    files.sort();
    files.into_iter().next().map(|(_, p)| p)
}

fn readers(c: &mut Criterion) {
    let dir = temp_dir();
    let graph = generate(&"kron:14".parse().unwrap(), 1).unwrap();
    let snap = dir.0.join("kron14.txt");
    write_text(&graph, &snap, "# kron:14, both directions\n", 0);
    let mtx = dir.0.join("kron14.mtx");
    let header = format!(
        "%%MatrixMarket matrix coordinate pattern general\n{n} {n} {m}\n",
        n = graph.num_vertices(),
        m = graph.num_edges()
    );
    write_text(&graph, &mtx, &header, 1);
    let wel = dir.0.join("kron14.wel");
    write_weighted(&attach_weights(graph.clone(), &WeightSpec::GAPBS, 1).unwrap(), &wel);

    let mut group = c.benchmark_group("read");
    group.sample_size(10).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(300));
    group.throughput(Throughput::Elements(graph.num_edges()));
    // As BFS reads them: a dataset with weights (or negative matrix values) is read unweighted.
    let options = ReadOptions { ignore_weights: true, ..ReadOptions::default() };
    group.bench_function("snap kron:14", |b| b.iter(|| read_graph(&snap, &options).unwrap()));
    group.bench_function("mtx kron:14", |b| b.iter(|| read_graph(&mtx, &options).unwrap()));
    let weighted = ReadOptions::default();
    group.bench_function("wel kron:14 weighted", |b| b.iter(|| read_graph(&wel, &weighted).unwrap()));
    if let Some(dataset) = smallest_dataset() {
        let name = dataset.file_name().unwrap().to_string_lossy().into_owned();
        group.throughput(Throughput::Bytes(std::fs::metadata(&dataset).unwrap().len()));
        group.bench_function(format!("dataset {name}"), |b| b.iter(|| read_graph(&dataset, &options).unwrap()));
    }
    group.finish();
}

fn wgr(c: &mut Criterion) {
    let dir = temp_dir();
    let graph = generate(&"kron:16".parse().unwrap(), 1).unwrap();
    let path = dir.0.join("kron16.wgr");
    let mut group = c.benchmark_group("wgr");
    group.sample_size(10).measurement_time(Duration::from_secs(2)).warm_up_time(Duration::from_millis(300));
    group.throughput(Throughput::Elements(graph.num_edges()));
    group.bench_function("write kron:16", |b| b.iter(|| write_wgr(&graph, &path).unwrap()));
    write_wgr(&graph, &path).unwrap();
    group.bench_function("read kron:16", |b| {
        b.iter_batched(|| (), |()| read_graph(&path, &ReadOptions::default()).unwrap(), BatchSize::PerIteration)
    });
    group.finish();
}

criterion_group!(benches, readers, wgr);
criterion_main!(benches);
