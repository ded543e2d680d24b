use serde::Serialize;

use warpath::bfs::verify;
use warpath::bfs::{BackendUsed, GpuKernel, KernelName, TopDownStrategy, Traversal, Traverser};
use warpath::{Error, Graph, Result};

use super::args::BfsArgs;
use super::json::{print_envelope, Envelope};

pub fn run(args: &BfsArgs) -> Result<()> {
    if let Some(spec) = &args.sources {
        if args.multi.requested() {
            return Err(Error::InvalidArgument(
                "--sources runs on one GPU or the CPU: drop --partitions or --gpus".into(),
            ));
        }
        return super::many_sources::run(args, spec);
    }
    if args.multi.requested() {
        return super::multi::run_bfs(args);
    }
    let kernel = super::requested_kernel(&args.gpu)?;
    let (graph, load_ms) = super::checked_load(&args.graph, args.out.as_deref())?;
    let source = super::source_vertex(graph.degrees(), args.source.vertex, &args.graph.input)?;

    let traverser = super::prepare(&graph, &args.graph, &args.gpu, kernel)?;
    let traversal = traverser.run(source)?;
    let report = BfsReport::new(args, &graph, &traverser, &traversal, kernel, source, load_ms);
    let result = &traversal.result;
    if !args.json {
        report.print_text();
    }
    if let Some(path) = &args.out {
        super::results::write_result(&graph, result, path)?;
    }
    // The tree when there are parents; the distances by the same rules otherwise.
    let verification = args.verify.then(|| verify::validate(&graph, result));
    if args.json {
        let envelope = Envelope {
            place_ms: report.place_ms,
            time_ms: Some(report.time_ms),
            end_to_end_ms: Some(report.end_to_end_ms),
            verified: verification.as_ref().map(Result::is_ok),
            warnings: traverser.warnings().to_vec(),
            ..Envelope::new("bfs", &report.graph, report.vertices, report.edges_directed, report.load_ms)
                .ran_on(&traversal.backend)
        };
        print_envelope(&envelope, &report)?;
    } else if let Some(Ok(())) = verification {
        if result.has_parents() {
            println!("verified: ok");
        } else {
            println!("verified: ok (distances, by the Graph500 rules without the tree)");
        }
    }
    verification.unwrap_or(Ok(()))
}

/// What `bfs` reports: printed as text, or with `--json` inside the envelope (what it does not
/// say under `result`).
#[derive(Serialize)]
struct BfsReport {
    graph: String,
    load_ms: f64,
    /// `gpu` or `cpu`.
    backend: &'static str,
    /// The backend as the text names it: `gpu (NVIDIA H100 ...)`, `cpu (16 threads)`.
    backend_detail: String,
    /// On the GPU: the kernel that ran and where the graph lives.
    gpu: Option<GpuReport>,
    /// No parents were labelled (`--distances-only`).
    distances_only: bool,
    /// As numbered in the file.
    source: u64,
    vertices: u64,
    /// Directed edges as stored (an undirected edge counts twice).
    edges_directed: u64,
    /// For an undirected graph, half of `edges_directed`.
    edges_undirected: Option<u64>,
    reached: u64,
    depth: u32,
    time_ms: f64,
    end_to_end_ms: f64,
    /// Placing the graph on the GPU, once per graph (not in `end_to_end_ms`); null on the CPU.
    place_ms: Option<f64>,
    gteps: f64,
}

#[derive(Serialize)]
struct GpuReport {
    /// A `--gpu-kernel` name.
    kernel: &'static str,
    /// How that kernel ran, as the text says in parentheses.
    kernel_detail: Option<String>,
    chosen_by_auto: bool,
    /// `device` or `zero-copy`.
    placement: Option<String>,
    compressed_lists: bool,
}

impl BfsReport {
    fn new(
        args: &BfsArgs,
        graph: &Graph,
        traverser: &Traverser,
        traversal: &Traversal,
        kernel: GpuKernel,
        source: u32,
        load_ms: f64,
    ) -> BfsReport {
        let result = &traversal.result;
        let seconds = traversal.time.as_secs_f64();
        let on_gpu = matches!(traversal.backend, BackendUsed::Gpu { .. });
        let gpu = on_gpu.then(|| {
            let resolved = traverser.resolved_gpu_kernel();
            let kernel_detail = match resolved {
                GpuKernel::Persistent(p) | GpuKernel::Auto(p) if p.bottom_up => {
                    let async_note = if p.async_bottom_up { ", async bottom-up on" } else { "" };
                    Some(format!("bottom-up balance {}{async_note}", p.bottom_up_balance))
                }
                GpuKernel::Persistent(_) | GpuKernel::Auto(_) => {
                    Some("the persistent kernel's expand-contract path".to_string())
                }
                GpuKernel::TopDown(_) => Some("top-down over edge queues".to_string()),
                GpuKernel::PerLevel | GpuKernel::Cluster => None,
            };
            GpuReport {
                // The names of --gpu-kernel, as bench and suite print them.
                kernel: KernelName::of(&resolved).name(),
                kernel_detail,
                chosen_by_auto: matches!(kernel, GpuKernel::Auto(_) | GpuKernel::TopDown(TopDownStrategy::Auto)),
                placement: traverser.placement().map(|p| p.to_string()),
                compressed_lists: traverser.is_compressed(),
            }
        });
        BfsReport {
            graph: args.graph.input.graph.clone(),
            load_ms,
            backend: traversal.backend.kind(),
            backend_detail: traversal.backend.to_string(),
            gpu,
            distances_only: traverser.distances_only(),
            source: graph.external_id(source),
            vertices: graph.num_vertices() as u64,
            edges_directed: graph.num_edges(),
            edges_undirected: graph.is_undirected().then(|| graph.num_edges() / 2),
            reached: result.reached(),
            depth: result.depth(),
            time_ms: seconds * 1e3,
            end_to_end_ms: traversal.end_to_end_time.as_secs_f64() * 1e3,
            place_ms: traverser.placement_time().map(|placed| placed.as_secs_f64() * 1e3),
            gteps: if seconds > 0.0 { result.edges_in_component(graph) as f64 / seconds / 1e9 } else { 0.0 },
        }
    }

    fn print_text(&self) {
        println!("graph: {} (loaded in {:.1} ms)", self.graph, self.load_ms);
        println!("backend: {}", self.backend_detail);
        if let Some(gpu) = &self.gpu {
            let detail = gpu.kernel_detail.as_ref().map(|d| format!(" ({d})")).unwrap_or_default();
            let chosen = if gpu.chosen_by_auto { " (chosen by auto)" } else { "" };
            println!("gpu kernel: {}{detail}{chosen}", gpu.kernel);
            if let Some(placement) = &gpu.placement {
                println!("placement: {placement}{}", if gpu.compressed_lists { " (compressed lists)" } else { "" });
            }
        }
        if self.distances_only {
            println!("labels: distances only (no parents)");
        }
        println!("source: {}", self.source);
        println!("vertices: {}", self.vertices);
        match self.edges_undirected {
            Some(undirected) => {
                println!("edges: {} (directed, as stored; {undirected} undirected)", self.edges_directed)
            }
            None => println!("edges: {} ({})", self.edges_directed, warpath::bench::report::DIRECTED_IN_EDGES),
        }
        println!("reached: {}", self.reached);
        println!("depth: {}", self.depth);
        println!("time: {:.3} ms", self.time_ms);
        println!("end-to-end: {:.3} ms", self.end_to_end_ms);
        if let Some(place_ms) = self.place_ms {
            println!("place: {place_ms:.3} ms (once per graph, not in end-to-end)");
        }
        println!("GTEPS: {:.3}", self.gteps);
    }
}
