use clap::{Args, Parser, Subcommand};

/// Breadth-first search on big sparse graphs, on the GPU when there is one.
///
/// GRAPH is a file (.mtx, .txt/.el SNAP edge list, .gr DIMACS, .wgr warpath binary; any of
/// the text formats may end in .gz) or a generator spec: kron:SCALE[:EDGEFACTOR],
/// rmat:SCALE:EDGEFACTOR:A,B,C, urand:SCALE[:EDGEFACTOR], grid2d:W[xH], grid3d:N.
#[derive(Parser, Debug)]
#[command(name = "warpath", version, about, long_about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run one breadth-first search and report its speed.
    Bfs(BfsArgs),
    /// Print vertex and edge counts, degree statistics and symmetry.
    Info(InfoArgs),
    /// Write a graph in warpath's binary format (.wgr), which loads at disk speed.
    Convert(ConvertArgs),
    /// Assemble the kernels with ptxas and print registers, spills and shared memory.
    Kernels,
}

#[derive(Args, Debug)]
pub struct GraphInput {
    /// A graph file or a generator spec (see `warpath --help`).
    pub graph: String,
    /// Treat an edge list or DIMACS file as undirected (adds every reverse edge).
    #[arg(long)]
    pub undirected: bool,
    /// Seed for generators and for picking a random source.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

#[derive(Args, Debug)]
pub struct BfsArgs {
    #[command(flatten)]
    pub input: GraphInput,
    /// Source vertex, numbered as in the file (1-based for .mtx and .gr). Default: a seeded
    /// random vertex with edges, as Graph500 picks roots.
    #[arg(long)]
    pub source: Option<u64>,
    /// Where to run: auto (GPU if present, else CPU), gpu, cpu.
    #[arg(long, default_value = "auto")]
    pub backend: warpath::bfs::Backend,
    /// Check the BFS tree Graph500-style; exit 1 if it is wrong.
    #[arg(long)]
    pub verify: bool,
    /// Write `vertex distance parent` per line (-1 for unreached) to this file.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub gpu: GpuTuning,
}

/// How the GPU traverses (ignored on the CPU).
#[derive(Args, Debug, Clone)]
pub struct GpuTuning {
    /// GPU traversal: `persistent` (direction-optimizing, one kernel for all levels) or
    /// `per-level` (top-down, one launch per level: the baseline).
    #[arg(long, default_value = "persistent", value_parser = ["persistent", "per-level"])]
    pub gpu_kernel: String,
    /// Never step bottom-up (persistent kernel).
    #[arg(long)]
    pub top_down: bool,
    /// Beamer's alpha: go bottom-up when frontier edges x alpha exceed the unvisited edges.
    #[arg(long, default_value_t = 15.0)]
    pub alpha: f32,
    /// Beamer's beta: back to top-down when the frontier x beta is below the vertex count.
    #[arg(long, default_value_t = 18.0)]
    pub beta: f32,
    /// Never hand small frontiers to a single block (persistent kernel).
    #[arg(long)]
    pub no_small_path: bool,
}

impl GpuTuning {
    pub fn kernel(&self) -> warpath::bfs::GpuKernel {
        match self.gpu_kernel.as_str() {
            "per-level" => warpath::bfs::GpuKernel::PerLevel,
            _ => warpath::bfs::GpuKernel::Persistent(warpath::bfs::gpu_persistent::GpuBfsParams {
                alpha: self.alpha,
                beta: self.beta,
                bottom_up: !self.top_down,
                small_frontiers: !self.no_small_path,
            }),
        }
    }
}

#[derive(Args, Debug)]
pub struct InfoArgs {
    #[command(flatten)]
    pub input: GraphInput,
}

#[derive(Args, Debug)]
pub struct ConvertArgs {
    #[command(flatten)]
    pub input: GraphInput,
    /// The .wgr file to write.
    pub output: std::path::PathBuf,
}
