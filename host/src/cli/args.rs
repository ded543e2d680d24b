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
    /// Write a graph in warpath's binary format (.wgr), which loads at disk speed; --compress
    /// stores the neighbor lists as delta-varints.
    Convert(ConvertArgs),
    /// Assemble the kernels with ptxas and print registers, spills and shared memory.
    Kernels,
    /// Benchmark BFS from many roots (Graph500-style): times, GTEPS, depth, per-level traces.
    Bench(BenchArgs),
    /// Run the standard benchmark suite on GPU and CPU and write a markdown table.
    Suite(SuiteArgs),
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
    /// Check the BFS tree Graph500-style; exit 1 if it is wrong. With --distances-only, check
    /// the distances by the same rules without the tree (every edge spans at most one level
    /// forward, and every reached vertex but the source has an in-neighbor one level closer).
    #[arg(long)]
    pub verify: bool,
    /// Write `vertex distance parent` per line (-1 for unreached) to this file; with
    /// --distances-only, `vertex distance` per line after a `#` header line naming the columns.
    #[arg(long)]
    pub out: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub gpu: GpuTuning,
}

/// How the GPU traverses (ignored on the CPU).
#[derive(Args, Debug, Clone)]
pub struct GpuTuning {
    /// GPU traversal: `auto` (the persistent direction-optimizing kernel on graphs of 2^24
    /// edges or more and 8 or more a vertex, the contract-expand top-down strategy on the rest,
    /// where it is faster; measured in bench/NOTES.md, entry 21), `persistent`
    /// (direction-optimizing, one kernel for all levels) or `per-level` (top-down, one launch
    /// per level: the baseline). Any of the persistent kernel's tuning options below makes
    /// `auto` choose it.
    #[arg(long, default_value = "auto", value_parser = ["auto", "persistent", "per-level"])]
    pub gpu_kernel: String,
    /// Never step bottom-up: with --gpu-kernel auto the top-down strategy `auto` picks, with
    /// persistent its top-down path (expand-contract).
    #[arg(long)]
    pub top_down: bool,
    /// Top-down only, by one of Merrill et al.'s strategies: expand-contract (the same as
    /// --top-down), contract-expand, two-phase, hybrid (edge queues: 8 bytes an edge, 16 with
    /// parents), or auto (chosen from the graph's average degree).
    #[arg(long, conflicts_with = "gpu_kernel", value_parser = ["expand-contract", "contract-expand", "two-phase", "hybrid", "auto"])]
    pub strategy: Option<String>,
    /// How each level picks its direction (persistent kernel): `beamer` (Beamer et al.: go
    /// bottom-up when the frontier grows and its edges x alpha exceed the unvisited edges,
    /// back to top-down when it shrinks below n / beta), `xbfs` (XBFS section 4.3: bottom-up
    /// exactly while the frontier's edges are at least alpha x all edges) or `checks`
    /// (bottom-up exactly while the frontier's edges are at least alpha x the edges a bottom-up
    /// pass is estimated to check).
    /// Default checks, chosen by measurement on the suite (bench/NOTES.md, entry 46).
    #[arg(long = "switch", value_parser = ["beamer", "xbfs", "checks"])]
    pub switch_rule: Option<String>,
    /// The switching rule's alpha. Default: 15 for beamer (Beamer's), 0.03 for xbfs (measured
    /// best on the suite; XBFS's paper uses 0.1), 0.5 for checks.
    #[arg(long, value_parser = parse_threshold, allow_negative_numbers = true)]
    pub alpha: Option<f32>,
    /// Beamer's beta: back to top-down when the frontier x beta is below the vertex count
    /// (default 18).
    #[arg(long, value_parser = parse_threshold, allow_negative_numbers = true)]
    pub beta: Option<f32>,
    /// How frontiers are generated (persistent kernel; XBFS section 4): `adaptive` (the level
    /// before a switch that XBFS's lambda predicts writes the next frontier the way the next
    /// direction reads it: a bitmap marked during top-down, a queue emitted during bottom-up)
    /// or `fixed` (top-down always writes a queue, bottom-up a bitmap; conversions by scans),
    /// or `double-scan` (adaptive, and bottom-up levels run over a queue of the unvisited
    /// vertices that XBFS's double-scan packs, instead of over the visited bitmap's words;
    /// synchronous, static balance, graph in device memory). Default adaptive.
    #[arg(long, value_parser = ["adaptive", "fixed", "double-scan"])]
    pub frontier_generation: Option<String>,
    /// How bottom-up levels share out their vertices (persistent kernel; XBFS section 5.1):
    /// `static` (bitmap words in grid-stride order, one thread per vertex), `thread` (words
    /// fetched from an atomic work counter, one thread per vertex) or `warp` (words fetched
    /// likewise, each vertex's in-list searched by a whole warp).
    /// Default static.
    #[arg(long, value_parser = ["static", "thread", "warp"])]
    pub bottom_up_balance: Option<String>,
    /// Asynchronous bottom-up (persistent kernel; XBFS section 5.2, Algorithm 3): a bottom-up
    /// level over a large frontier also labels two levels deep the vertices whose in-lists
    /// reach the next frontier but not this one, so the next level need not search them.
    #[arg(long)]
    pub async_bottom_up: bool,
    /// Bitmap words a warp takes at once in synchronous, statically balanced bottom-up levels
    /// (persistent kernel): `auto` (the most, up to 32, that still gives every warp of the grid
    /// a chunk), or 1, 2, 4, 8, 16 or 32 (1 is one word at a time). Default auto.
    #[arg(long, value_parser = ["auto", "1", "2", "4", "8", "16", "32"])]
    pub bottom_up_chunk: Option<String>,
    /// Never hand small frontiers to a single block (persistent kernel).
    #[arg(long)]
    pub no_small_path: bool,
    /// Where the graph lives for the GPU: `auto` (device memory if it fits the budget, else
    /// zero-copy), `device`, or `zero-copy` (pinned host memory mapped into the GPU).
    #[arg(long, default_value = "auto", value_parser = ["auto", "device", "zero-copy"])]
    pub placement: String,
    /// Device memory warpath may use, in bytes or with a K, M, G or T suffix (powers of 1024).
    /// Default: the free memory less 512 MiB.
    #[arg(long, value_parser = parse_bytes)]
    pub vram_budget: Option<u64>,
    /// Give the GPU delta-varint compressed neighbor lists, decoded by the kernels: fewer
    /// bytes in device memory and over the bus (persistent kernel only).
    #[arg(long)]
    pub compressed: bool,
    /// Label distances only, no parents: the persistent kernel skips every parent write and
    /// the device holds no parents array (4 bytes a vertex less). Validation then checks the
    /// distances alone. Only the persistent kernel has this variant: the per-level kernel
    /// (--gpu-kernel per-level) always writes parents and refuses the option with an error. The
    /// CPU computes parents and drops them, so results look the same on both backends.
    #[arg(long)]
    pub distances_only: bool,
    /// With zero-copy lists, do not keep each list's first two in-neighbors in device memory
    /// (8 bytes a vertex, 9 compressed; kept by default when they fit the budget, so most
    /// bottom-up searches never cross the bus). For measuring what they save.
    #[arg(long)]
    pub no_list_heads: bool,
}

/// A switching threshold: a number, zero or more (`inf` allowed: never switch back, or always
/// switch).
pub fn parse_threshold(text: &str) -> Result<f32, String> {
    let value: f32 = text.trim().parse().map_err(|_| format!("`{text}` is not a number"))?;
    if value.is_nan() || value < 0.0 {
        return Err(format!("`{text}` is not a threshold: use a number of 0 or more"));
    }
    Ok(value)
}

/// `6G`, `512M`, `4096`: a byte count with an optional binary suffix.
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let text = text.trim();
    let (digits, shift) = match text.char_indices().last() {
        Some((i, c)) if c.is_ascii_alphabetic() => {
            let shift = match c.to_ascii_uppercase() {
                'K' => 10,
                'M' => 20,
                'G' => 30,
                'T' => 40,
                _ => return Err(format!("unknown size suffix `{c}` in `{text}`: use K, M, G or T")),
            };
            (&text[..i], shift)
        }
        _ => (text, 0),
    };
    let value: u64 = digits.parse().map_err(|_| format!("`{text}` is not a byte count such as 6G, 512M or 4096"))?;
    value.checked_mul(1 << shift).ok_or_else(|| format!("`{text}` is too large"))
}

impl GpuTuning {
    pub fn options(&self) -> warpath::bfs::GpuOptions {
        let placement = match self.placement.as_str() {
            "device" => Some(warpath::gpu::Placement::Device),
            "zero-copy" => Some(warpath::gpu::Placement::ZeroCopy),
            _ => None,
        };
        warpath::bfs::GpuOptions {
            placement,
            vram_budget: self.vram_budget,
            compressed: self.compressed,
            distances_only: self.distances_only,
            no_list_heads: self.no_list_heads,
        }
    }

    pub fn kernel(&self) -> warpath::bfs::GpuKernel {
        use warpath::bfs::{GpuKernel, TopDownStrategy};
        if let Some(strategy) = &self.strategy {
            return GpuKernel::TopDown(strategy.parse().expect("clap admits only known strategies"));
        }
        match self.gpu_kernel.as_str() {
            "per-level" => GpuKernel::PerLevel,
            "persistent" => GpuKernel::Persistent(self.persistent_params()),
            _ if self.tunes_the_persistent_kernel() => GpuKernel::Persistent(self.persistent_params()),
            _ if self.top_down => GpuKernel::TopDown(TopDownStrategy::Auto),
            _ => GpuKernel::Auto(self.persistent_params()),
        }
    }

    /// The persistent kernel's parameters: the defaults, with the options given.
    fn persistent_params(&self) -> warpath::bfs::gpu::persistent::PersistentParams {
        let defaults = warpath::bfs::gpu::persistent::PersistentParams::default();
        let switch_rule = self.switch_rule();
        warpath::bfs::gpu::persistent::PersistentParams {
            switch_rule,
            alpha: self.alpha.unwrap_or(switch_rule.default_alpha()),
            beta: self.beta.unwrap_or(defaults.beta),
            adaptive_frontier: self.frontier_generation.as_deref().map_or(defaults.adaptive_frontier, |g| g != "fixed"),
            bottom_up: !self.top_down,
            small_frontiers: !self.no_small_path,
            bottom_up_balance: self
                .bottom_up_balance
                .as_deref()
                .map_or(defaults.bottom_up_balance, |b| b.parse().expect("clap admits only known balances")),
            async_bottom_up: self.async_bottom_up,
            double_scan: self.frontier_generation.as_deref() == Some("double-scan"),
            bottom_up_chunk: match self.bottom_up_chunk.as_deref() {
                None | Some("auto") => defaults.bottom_up_chunk,
                Some(words) => words.parse().expect("clap admits only powers of two up to 32"),
            },
        }
    }

    /// Whether an option that only the persistent kernel reads was given.
    fn tunes_the_persistent_kernel(&self) -> bool {
        self.switch_rule.is_some()
            || self.alpha.is_some()
            || self.beta.is_some()
            || self.frontier_generation.is_some()
            || self.bottom_up_balance.is_some()
            || self.async_bottom_up
            || self.bottom_up_chunk.is_some()
            || self.no_small_path
    }

    fn switch_rule(&self) -> warpath::bfs::SwitchRule {
        let default = warpath::bfs::gpu::persistent::PersistentParams::default().switch_rule;
        self.switch_rule.as_deref().map_or(default, |r| r.parse().expect("clap admits only known rules"))
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
    /// Store the neighbor lists delta-varint compressed (smaller file; decoded on loading).
    #[arg(long)]
    pub compress: bool,
}

#[derive(Args, Debug)]
pub struct BenchArgs {
    #[command(flatten)]
    pub input: GraphInput,
    /// Timed traversals, from seeded random roots with edges (after one untimed warm-up).
    #[arg(long, default_value_t = 64)]
    pub roots: usize,
    /// Where to run: auto (GPU if present, else CPU), gpu, cpu.
    #[arg(long, default_value = "auto")]
    pub backend: warpath::bfs::Backend,
    /// Print a per-level table (direction, frontier, edges inspected, time) for the first root.
    #[arg(long)]
    pub trace: bool,
    /// Write every figure as JSON (schema: bench/SCHEMA.md).
    #[arg(long, value_name = "FILE")]
    pub json: Option<std::path::PathBuf>,
    /// Draw frontier size and time per level of the first root to an .svg file.
    #[arg(long, value_name = "FILE.svg")]
    pub plot: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub gpu: GpuTuning,
}

#[derive(Args, Debug)]
pub struct SuiteArgs {
    /// Small graphs of the same families (seconds, for CI); datasets only with --datasets.
    #[arg(long)]
    pub quick: bool,
    /// Timed roots per graph and backend.
    #[arg(long, default_value_t = 16)]
    pub roots: usize,
    /// Seed for the generators and the roots.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Folder of datasets (.gz files) to add. Default: $WARPATH_DATASETS, else
    /// ../shared/datasets when it exists (not in --quick mode).
    #[arg(long, value_name = "DIR")]
    pub datasets: Option<std::path::PathBuf>,
    /// Run no datasets.
    #[arg(long, conflicts_with = "datasets")]
    pub no_datasets: bool,
    /// Only the graphs whose spec or file name contains one of these (comma-separated).
    #[arg(long, value_delimiter = ',', value_name = "NAMES")]
    pub only: Vec<String>,
    /// Run the CPU only.
    #[arg(long)]
    pub no_gpu: bool,
    /// GPU traversals to compare, comma-separated: direction-optimizing, top-down, per-level,
    /// or all (each runs the same roots; the table gets a column per kernel).
    #[arg(long, value_name = "LIST", default_value = "direction-optimizing")]
    pub gpu_kernels: String,
    /// Folder for the markdown table and JSON.
    #[arg(long, value_name = "DIR", default_value = "bench/results")]
    pub out_dir: std::path::PathBuf,
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::{parse_bytes, Cli, Command, GpuTuning};
    use warpath::bfs::gpu::persistent::{BottomUpBalance, PersistentParams};
    use warpath::bfs::{GpuKernel, SwitchRule};

    /// The GPU tuning of `warpath ARGS...` (a `bfs` or `bench` command line).
    fn tuning(args: &[&str]) -> GpuTuning {
        let cli = Cli::try_parse_from([&["warpath"][..], args].concat()).unwrap();
        match cli.command {
            Command::Bfs(args) => args.gpu,
            Command::Bench(args) => args.gpu,
            _ => panic!("neither bfs nor bench: {args:?}"),
        }
    }

    /// The persistent kernel's parameters of `warpath ARGS...`.
    fn persistent(args: &[&str]) -> PersistentParams {
        match tuning(args).kernel() {
            GpuKernel::Persistent(p) | GpuKernel::Auto(p) => p,
            other => panic!("not the persistent kernel but {other:?}: {args:?}"),
        }
    }

    #[test]
    fn bottom_up_balance_reaches_the_persistent_kernel() {
        let balance_of = |extra: &[&str]| persistent(&[&["bench", "kron:10"][..], extra].concat()).bottom_up_balance;
        assert_eq!(balance_of(&[]), BottomUpBalance::Static);
        assert_eq!(balance_of(&["--bottom-up-balance", "static"]), BottomUpBalance::Static);
        assert_eq!(balance_of(&["--bottom-up-balance", "thread"]), BottomUpBalance::Thread);
        assert_eq!(balance_of(&["--bottom-up-balance", "warp"]), BottomUpBalance::Warp);
        let err = Cli::try_parse_from(["warpath", "bfs", "kron:10", "--bottom-up-balance", "Warp"]).unwrap_err();
        assert_eq!(err.kind(), clap::error::ErrorKind::InvalidValue);
    }

    #[test]
    fn bottom_up_chunk_reaches_the_persistent_kernel_and_bad_widths_are_refused() {
        let chunk_of = |extra: &[&str]| persistent(&[&["bench", "kron:10"][..], extra].concat()).bottom_up_chunk;
        assert_eq!(chunk_of(&[]), 0);
        assert_eq!(chunk_of(&["--bottom-up-chunk", "auto"]), 0);
        assert_eq!(chunk_of(&["--bottom-up-chunk", "1"]), 1);
        assert_eq!(chunk_of(&["--bottom-up-chunk", "32"]), 32);
        let kernel = tuning(&["bench", "kron:10", "--bottom-up-chunk", "8"]).kernel();
        assert!(matches!(kernel, GpuKernel::Persistent(_)), "the option picks the persistent kernel: {kernel:?}");
        for bad in ["3", "64", "0"] {
            let err = Cli::try_parse_from(["warpath", "bfs", "kron:10", "--bottom-up-chunk", bad]).unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::InvalidValue, "width {bad}");
        }
    }

    #[test]
    fn switching_rule_and_thresholds_reach_the_persistent_kernel_and_bad_ones_are_refused() {
        let params = |extra: &[&str]| persistent(&[&["bfs", "kron:10"][..], extra].concat());
        let default = params(&[]);
        assert_eq!((default.switch_rule, default.alpha, default.adaptive_frontier), (SwitchRule::Checks, 0.5, true));
        let beamer = params(&["--switch", "beamer", "--frontier-generation", "fixed"]);
        assert_eq!((beamer.switch_rule, beamer.alpha, beamer.adaptive_frontier), (SwitchRule::Beamer, 15.0, false));
        let double_scan = params(&["--frontier-generation", "double-scan"]);
        assert!(double_scan.double_scan && double_scan.adaptive_frontier);
        assert!(!default.double_scan && !beamer.double_scan);
        assert_eq!(params(&["--alpha", "0.2"]).alpha, 0.2);
        assert_eq!(params(&["--beta", "inf"]).beta, f32::INFINITY);
        for bad in [["--alpha", "-1"], ["--alpha", "nan"], ["--beta", "much"], ["--switch", "gap"]] {
            let err = Cli::try_parse_from([&["warpath", "bfs", "kron:10"][..], &bad[..]].concat()).unwrap_err();
            let text = err.to_string();
            assert!(text.contains(bad[1]), "{bad:?}: {text}");
        }
    }

    #[test]
    fn async_bottom_up_reaches_the_persistent_kernel_for_bfs_and_bench() {
        let async_of = |args: &[&str]| persistent(args).async_bottom_up;
        for command in ["bfs", "bench"] {
            assert!(!async_of(&[command, "kron:10"]), "{command}: off by default");
            assert!(async_of(&[command, "kron:10", "--async-bottom-up"]), "{command}");
            assert!(async_of(&[command, "kron:10", "--async-bottom-up", "--bottom-up-balance", "warp"]), "{command}");
            let err = Cli::try_parse_from(["warpath", command, "kron:10", "--async-bottom-up=yes"]).unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::TooManyValues, "{command}: a switch takes no value");
        }
    }

    #[test]
    fn distances_only_reaches_the_options_of_bfs_and_bench() {
        for command in ["bfs", "bench"] {
            let options = |extra: &[&str]| tuning(&[&[command, "kron:10"][..], extra].concat()).options();
            assert!(!options(&[]).distances_only, "{command}");
            assert!(options(&["--distances-only"]).distances_only, "{command}");
        }
    }

    #[test]
    fn strategy_selects_a_top_down_kernel_and_conflicts_with_the_per_level_one() {
        use warpath::bfs::TopDownStrategy;
        for command in ["bfs", "bench"] {
            let kernel = |extra: &[&str]| tuning(&[&[command, "kron:10"][..], extra].concat()).kernel();
            for strategy in TopDownStrategy::ALL {
                assert_eq!(kernel(&["--strategy", strategy.name()]), GpuKernel::TopDown(strategy), "{command}");
            }
            let err = Cli::try_parse_from(["warpath", command, "kron:10", "--strategy", "fused"]).unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::InvalidValue, "{command}");
            let err = Cli::try_parse_from([
                "warpath",
                command,
                "kron:10",
                "--strategy",
                "hybrid",
                "--gpu-kernel",
                "per-level",
            ])
            .unwrap_err();
            assert_eq!(err.kind(), clap::error::ErrorKind::ArgumentConflict, "{command}");
        }
    }

    #[test]
    fn the_default_kernel_is_auto_and_persistent_options_choose_the_persistent_kernel() {
        use warpath::bfs::TopDownStrategy;
        let kernel = |extra: &[&str]| tuning(&[&["bfs", "kron:10"][..], extra].concat()).kernel();
        assert_eq!(kernel(&[]), GpuKernel::Auto(PersistentParams::default()));
        assert_eq!(kernel(&["--top-down"]), GpuKernel::TopDown(TopDownStrategy::Auto));
        let persistent_top_down =
            GpuKernel::Persistent(PersistentParams { bottom_up: false, ..PersistentParams::default() });
        assert_eq!(kernel(&["--gpu-kernel", "persistent", "--top-down"]), persistent_top_down);
        for option in [
            &["--switch", "beamer"][..],
            &["--alpha", "0.1"],
            &["--beta", "20"],
            &["--frontier-generation", "fixed"],
            &["--bottom-up-balance", "warp"],
            &["--async-bottom-up"],
            &["--no-small-path"],
        ] {
            assert!(matches!(kernel(option), GpuKernel::Persistent(_)), "{option:?} picks the persistent kernel");
        }
        assert_eq!(kernel(&["--gpu-kernel", "per-level"]), GpuKernel::PerLevel);
    }

    #[test]
    fn byte_counts_with_suffixes() {
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert_eq!(parse_bytes("6G"), Ok(6 << 30));
        assert_eq!(parse_bytes("512m"), Ok(512 << 20));
        assert_eq!(parse_bytes("1T"), Ok(1 << 40));
        assert!(parse_bytes("6X").unwrap_err().contains("suffix"));
        assert!(parse_bytes("G").is_err());
        assert!(parse_bytes("lots").is_err());
        assert!(parse_bytes("99999999999T").unwrap_err().contains("too large"));
    }
}
