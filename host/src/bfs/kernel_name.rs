//! The BFS GPU kernels by name: the one vocabulary of the command line (`bfs --gpu-kernel`,
//! `bench --gpu-kernel`, `suite --gpu-kernels`), the bench reports' `gpu_kernel` field and the
//! suite's table columns.

use crate::bfs::gpu::PersistentParams;
use crate::bfs::strategy::TopDownStrategy;
use crate::bfs::traverser::GpuKernel;
use crate::error::{Error, Result};

/// One of warpath's BFS GPU kernels (or `auto`, which picks one for the graph), by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum KernelName {
    /// Picks one of the others for the graph by its size ([`GpuKernel::Auto`]).
    Auto,
    /// The persistent kernel with direction switching (Beamer et al., XBFS).
    DirectionOptimizing,
    /// The persistent kernel never stepping bottom-up: Merrill et al.'s expand-contract.
    TopDown,
    /// Top-down over edge queues, contraction and expansion fused (Merrill et al. 5.2).
    ContractExpand,
    /// Top-down over edge queues, contraction and expansion apart (Merrill et al. 5.3).
    TwoPhase,
    /// Two-phase on big queues, contract-expand on small ones (Merrill et al. 5.4).
    Hybrid,
    /// One top-down launch and one host read-back per level: the relaunch arrangement, kept as
    /// the baseline.
    PerLevel,
    /// Every level in one Hopper thread-block cluster, its frontiers as bitmaps in distributed
    /// shared memory ([`GpuKernel::Cluster`]).
    Cluster,
}

impl KernelName {
    /// Every name, `auto` first.
    pub const ALL: [KernelName; 8] = [
        KernelName::Auto,
        KernelName::DirectionOptimizing,
        KernelName::TopDown,
        KernelName::ContractExpand,
        KernelName::TwoPhase,
        KernelName::Hybrid,
        KernelName::PerLevel,
        KernelName::Cluster,
    ];

    /// The kernels a comparison can run side by side on any graph and GPU, in the order of the
    /// suite's columns: all but `auto`, whose pick differs by graph, and `cluster`, which needs
    /// a Hopper GPU and a graph its shared memory holds (a list may still name it).
    pub const COMPARABLE: [KernelName; 6] = [
        KernelName::DirectionOptimizing,
        KernelName::TopDown,
        KernelName::ContractExpand,
        KernelName::TwoPhase,
        KernelName::Hybrid,
        KernelName::PerLevel,
    ];

    /// The name on the command line, in tables and in JSON reports.
    pub fn name(self) -> &'static str {
        match self {
            KernelName::Auto => "auto",
            KernelName::DirectionOptimizing => "direction-optimizing",
            KernelName::TopDown => "top-down",
            KernelName::ContractExpand => "contract-expand",
            KernelName::TwoPhase => "two-phase",
            KernelName::Hybrid => "hybrid",
            KernelName::PerLevel => "per-level",
            KernelName::Cluster => "cluster",
        }
    }

    /// Older names still accepted: `persistent` (the kernel's name before top-down became one
    /// of its modes) and `expand-contract` (Merrill et al.'s name for the persistent top-down).
    pub fn aliases(self) -> &'static [&'static str] {
        match self {
            KernelName::DirectionOptimizing => &["persistent"],
            KernelName::TopDown => &["expand-contract"],
            _ => &[],
        }
    }

    /// Whether it is the persistent kernel, the one that reads [`PersistentParams`].
    pub fn is_persistent(self) -> bool {
        matches!(self, KernelName::DirectionOptimizing | KernelName::TopDown)
    }

    /// The kernel to give [`crate::bfs::Traverser::set_gpu_kernel`]. `params` tune the
    /// persistent kernel (for `auto`, when it picks that one); `direction-optimizing` and
    /// `top-down` set their `bottom_up` as their names say, the other kernels ignore them.
    pub fn kernel(self, params: PersistentParams) -> GpuKernel {
        match self {
            KernelName::Auto => GpuKernel::Auto(params),
            KernelName::DirectionOptimizing => GpuKernel::Persistent(PersistentParams { bottom_up: true, ..params }),
            KernelName::TopDown => GpuKernel::Persistent(PersistentParams { bottom_up: false, ..params }),
            KernelName::ContractExpand => GpuKernel::TopDown(TopDownStrategy::ContractExpand),
            KernelName::TwoPhase => GpuKernel::TopDown(TopDownStrategy::TwoPhase),
            KernelName::Hybrid => GpuKernel::TopDown(TopDownStrategy::Hybrid),
            KernelName::PerLevel => GpuKernel::PerLevel,
            KernelName::Cluster => GpuKernel::Cluster,
        }
    }

    /// Which one `kernel` is, its tuning aside: what to report for a resolved kernel
    /// ([`crate::bfs::Traverser::resolved_gpu_kernel`]); an unresolved one is `auto`.
    pub fn of(kernel: &GpuKernel) -> KernelName {
        match kernel {
            GpuKernel::Auto(_) | GpuKernel::TopDown(TopDownStrategy::Auto) => KernelName::Auto,
            GpuKernel::Persistent(params) if params.bottom_up => KernelName::DirectionOptimizing,
            GpuKernel::Persistent(_) | GpuKernel::TopDown(TopDownStrategy::ExpandContract) => KernelName::TopDown,
            GpuKernel::TopDown(TopDownStrategy::ContractExpand) => KernelName::ContractExpand,
            GpuKernel::TopDown(TopDownStrategy::TwoPhase) => KernelName::TwoPhase,
            GpuKernel::TopDown(TopDownStrategy::Hybrid) => KernelName::Hybrid,
            GpuKernel::PerLevel => KernelName::PerLevel,
            GpuKernel::Cluster => KernelName::Cluster,
        }
    }

    /// A comma-separated list of kernels to compare, or `all` ([`Self::COMPARABLE`]);
    /// duplicates are dropped, order is kept. `auto` is refused: a comparison has one column
    /// per kernel, and `auto` picks a different one by graph.
    ///
    /// ```
    /// use warpath::bfs::KernelName;
    /// assert_eq!(KernelName::parse_list("per-level,top-down")?, [KernelName::PerLevel, KernelName::TopDown]);
    /// assert_eq!(KernelName::parse_list("all")?, KernelName::COMPARABLE);
    /// assert!(KernelName::parse_list("bottom-up").is_err());
    /// assert!(KernelName::parse_list("auto").is_err());
    /// # Ok::<(), warpath::Error>(())
    /// ```
    pub fn parse_list(list: &str) -> Result<Vec<KernelName>> {
        let mut kernels = Vec::new();
        for name in list.split(',').map(str::trim) {
            let named: Vec<KernelName> = match name {
                "all" => KernelName::COMPARABLE.to_vec(),
                _ => vec![name.parse()?],
            };
            for kernel in named {
                if kernel == KernelName::Auto {
                    return Err(Error::InvalidArgument(
                        "a comparison takes kernels by name, not auto: it has a column per kernel, and auto \
                         picks a different one by graph"
                            .into(),
                    ));
                }
                if !kernels.contains(&kernel) {
                    kernels.push(kernel);
                }
            }
        }
        Ok(kernels)
    }
}

impl std::fmt::Display for KernelName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for KernelName {
    type Err = Error;

    /// A name or an alias ([`KernelName::aliases`]), exactly as spelled.
    fn from_str(s: &str) -> Result<Self> {
        KernelName::ALL.into_iter().find(|k| k.name() == s || k.aliases().contains(&s)).ok_or_else(|| {
            let what =
                if s.is_empty() { "an empty GPU kernel name".to_string() } else { format!("unknown GPU kernel `{s}`") };
            let names: Vec<&str> = KernelName::ALL.iter().map(|k| k.name()).collect();
            Error::InvalidArgument(format!("{what}: expected {} (or all, to compare them)", names.join(", ")))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_aliases_and_kernels_agree() {
        for k in KernelName::ALL {
            assert_eq!(k.name().parse::<KernelName>().unwrap(), k);
            for alias in k.aliases() {
                assert_eq!(alias.parse::<KernelName>().unwrap(), k);
            }
            assert_eq!(KernelName::of(&k.kernel(PersistentParams::default())), k);
            assert_eq!(KernelName::of(&k.kernel(PersistentParams::top_down())), k);
        }
        assert_eq!(KernelName::of(&GpuKernel::default()), KernelName::Auto);
        assert_eq!(KernelName::of(&GpuKernel::TopDown(TopDownStrategy::ExpandContract)), KernelName::TopDown);
    }

    #[test]
    fn unknown_names_list_the_known_ones() {
        let err = "bottom-up".parse::<KernelName>().unwrap_err().to_string();
        assert!(err.contains("unknown GPU kernel `bottom-up`"), "{err}");
        assert!(
            err.contains(
                "expected auto, direction-optimizing, top-down, contract-expand, two-phase, hybrid, per-level"
            ),
            "{err}"
        );
        assert!("".parse::<KernelName>().unwrap_err().to_string().contains("an empty GPU kernel name"));
        assert!("Top-Down".parse::<KernelName>().is_err());
    }
}
