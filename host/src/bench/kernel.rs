//! The GPU traversals a benchmark can compare, by the names the suite, the markdown table and
//! the JSON reports use: `direction-optimizing`, `top-down` (the expand-contract strategy),
//! `contract-expand`, `two-phase`, `hybrid` and `per-level`.

use crate::bfs::gpu::persistent::PersistentParams;
use crate::bfs::{GpuKernel, TopDownStrategy};
use crate::error::{Error, Result};

/// One of warpath's GPU traversals.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GpuTraversal {
    /// The persistent kernel with Beamer's direction switching (the default).
    DirectionOptimizing,
    /// The persistent kernel, never stepping bottom-up: Merrill et al.'s expand-contract.
    TopDown,
    /// The other three top-down strategies, over edge queues.
    ContractExpand,
    TwoPhase,
    Hybrid,
    /// One top-down launch and one host read-back per level: the baseline.
    PerLevel,
}

impl GpuTraversal {
    /// All of them, in the order of the suite's columns.
    pub const ALL: [GpuTraversal; 6] = [
        GpuTraversal::DirectionOptimizing,
        GpuTraversal::TopDown,
        GpuTraversal::ContractExpand,
        GpuTraversal::TwoPhase,
        GpuTraversal::Hybrid,
        GpuTraversal::PerLevel,
    ];

    /// The name used on the command line, in tables and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            GpuTraversal::DirectionOptimizing => "direction-optimizing",
            GpuTraversal::TopDown => "top-down",
            GpuTraversal::ContractExpand => "contract-expand",
            GpuTraversal::TwoPhase => "two-phase",
            GpuTraversal::Hybrid => "hybrid",
            GpuTraversal::PerLevel => "per-level",
        }
    }

    /// The kernel to give [`crate::bfs::Traverser::set_gpu_kernel`], with default parameters.
    pub fn kernel(self) -> GpuKernel {
        match self {
            GpuTraversal::DirectionOptimizing => GpuKernel::Persistent(PersistentParams::default()),
            GpuTraversal::TopDown => GpuKernel::Persistent(PersistentParams::top_down()),
            GpuTraversal::ContractExpand => GpuKernel::TopDown(TopDownStrategy::ContractExpand),
            GpuTraversal::TwoPhase => GpuKernel::TopDown(TopDownStrategy::TwoPhase),
            GpuTraversal::Hybrid => GpuKernel::TopDown(TopDownStrategy::Hybrid),
            GpuTraversal::PerLevel => GpuKernel::PerLevel,
        }
    }

    /// Which one `kernel` is (its tuning aside). An unresolved `auto` kernel counts as the
    /// persistent one, an unresolved `auto` strategy as `top-down`;
    /// [`crate::bfs::Traverser::resolved_gpu_kernel`] says what they run.
    pub fn of(kernel: &GpuKernel) -> GpuTraversal {
        match kernel {
            GpuKernel::Persistent(params) | GpuKernel::Auto(params) if params.bottom_up => {
                GpuTraversal::DirectionOptimizing
            }
            GpuKernel::Auto(_) => GpuTraversal::TopDown,
            GpuKernel::Persistent(_) => GpuTraversal::TopDown,
            GpuKernel::TopDown(TopDownStrategy::ContractExpand) => GpuTraversal::ContractExpand,
            GpuKernel::TopDown(TopDownStrategy::TwoPhase) => GpuTraversal::TwoPhase,
            GpuKernel::TopDown(TopDownStrategy::Hybrid) => GpuTraversal::Hybrid,
            GpuKernel::TopDown(TopDownStrategy::ExpandContract | TopDownStrategy::Auto) => GpuTraversal::TopDown,
            GpuKernel::PerLevel => GpuTraversal::PerLevel,
        }
    }

    /// A comma-separated list of names, or `all`; duplicates are dropped, order is kept.
    ///
    /// ```
    /// use warpath::bench::kernel::GpuTraversal;
    /// assert_eq!(GpuTraversal::parse_list("per-level,top-down")?, [GpuTraversal::PerLevel, GpuTraversal::TopDown]);
    /// assert_eq!(GpuTraversal::parse_list("all")?, GpuTraversal::ALL);
    /// assert!(GpuTraversal::parse_list("bottom-up").is_err());
    /// # Ok::<(), warpath::Error>(())
    /// ```
    pub fn parse_list(list: &str) -> Result<Vec<GpuTraversal>> {
        let mut kernels = Vec::new();
        for name in list.split(',').map(str::trim) {
            let add: Vec<GpuTraversal> = if name == "all" { GpuTraversal::ALL.to_vec() } else { vec![name.parse()?] };
            for kernel in add {
                if !kernels.contains(&kernel) {
                    kernels.push(kernel);
                }
            }
        }
        Ok(kernels)
    }
}

impl std::fmt::Display for GpuTraversal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for GpuTraversal {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        GpuTraversal::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| {
            let what =
                if s.is_empty() { "an empty GPU kernel name".to_string() } else { format!("unknown GPU kernel `{s}`") };
            Error::InvalidArgument(format!(
                "{what}: expected direction-optimizing, top-down, contract-expand, two-phase, hybrid, per-level or all"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_kernels_agree() {
        for k in GpuTraversal::ALL {
            assert_eq!(k.name().parse::<GpuTraversal>().unwrap(), k);
            assert_eq!(GpuTraversal::of(&k.kernel()), k);
        }
        assert_eq!(GpuTraversal::of(&GpuKernel::default()), GpuTraversal::DirectionOptimizing);
    }
}
