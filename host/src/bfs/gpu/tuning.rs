//! The persistent BFS's tuning: which rule switches direction and its parameters, how bottom-up
//! levels balance their words, and XBFS's options, with what keeps them from running together.
//! Apart from the kernel's host side (`persistent`) so that its launchers (`launch`) read them
//! without importing the runner that imports them.

use crate::bfs::switching::SwitchRule;
use warpath_interface::bfs::persistent::Balance;

/// How the persistent kernel's bottom-up levels share the bitmap words (32 vertices each)
/// out among warps (XBFS, Gaihre et al., HPDC 2019, section 5.1; the device crate's `Balance`
/// documents each).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BottomUpBalance {
    /// Words in grid-stride order, one lane per vertex (XBFS's static solution).
    #[default]
    Static,
    /// Words fetched from an atomic work counter as warps finish, one lane per vertex
    /// (XBFS Algorithm 1, thread-centric dynamic balancing).
    Thread,
    /// Words fetched from the work counter, each vertex's in-list searched by the whole warp
    /// (XBFS Algorithm 2, warp-centric).
    Warp,
}

impl BottomUpBalance {
    pub const ALL: [BottomUpBalance; 3] = [BottomUpBalance::Static, BottomUpBalance::Thread, BottomUpBalance::Warp];

    /// The name used on the command line, in reports and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            BottomUpBalance::Static => "static",
            BottomUpBalance::Thread => "thread",
            BottomUpBalance::Warp => "warp",
        }
    }

    /// The balance as the kernels' flags name it.
    pub fn kernel_balance(self) -> Balance {
        match self {
            BottomUpBalance::Static => Balance::Static,
            BottomUpBalance::Thread => Balance::Thread,
            BottomUpBalance::Warp => Balance::Warp,
        }
    }
}

impl std::fmt::Display for BottomUpBalance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BottomUpBalance {
    type Err = crate::Error;

    fn from_str(s: &str) -> crate::Result<Self> {
        BottomUpBalance::ALL.into_iter().find(|b| b.name() == s).ok_or_else(|| {
            crate::Error::InvalidArgument(format!("unknown bottom-up balance `{s}`: expected static, thread or warp"))
        })
    }
}

/// Where the first level of each bottom-up stretch runs (the persistent kernel's flag
/// `SPLIT_BOTTOM_UP`): inside the one cooperative launch, or as a launch of its own at full
/// occupancy between two launches of the persistent kernel, as the partitioned BFS's rank runs
/// its bottom-up levels (issue 53, item 7; bench/NOTES.md entry 135).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BottomUpLaunch {
    /// Every bottom-up level apart, one bitmap word a warp at a time (unless a chunk is asked
    /// for), on graphs of at least [`BottomUpLaunch::APART_FROM_VERTICES`] vertices; inside on
    /// smaller ones.
    #[default]
    Auto,
    /// Always a launch of its own.
    Apart,
    /// Every bottom-up level a launch of its own, not only each stretch's first.
    Every,
    /// Always inside the persistent kernel.
    Inside,
}

impl BottomUpLaunch {
    /// The name used on the command line, in reports and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            BottomUpLaunch::Auto => "auto",
            BottomUpLaunch::Apart => "apart",
            BottomUpLaunch::Every => "every",
            BottomUpLaunch::Inside => "inside",
        }
    }

    /// The smallest graph `Auto` runs the level apart on: where its search of every unvisited
    /// vertex's in-list outweighs two more launches and a read of the control block (bench/NOTES.md
    /// entry 135).
    pub const APART_FROM_VERTICES: u64 = 1 << 25;

    /// Whether the level runs apart on a graph of `n` vertices.
    pub fn apart(self, n: u64) -> bool {
        match self {
            BottomUpLaunch::Auto => n >= Self::APART_FROM_VERTICES,
            BottomUpLaunch::Apart | BottomUpLaunch::Every => true,
            BottomUpLaunch::Inside => false,
        }
    }

    /// Whether every bottom-up level runs apart on a graph of `n` vertices, not only each
    /// stretch's first: `Every`, and `Auto` wherever it splits, where the levels apart also
    /// take one bitmap word a warp at a time unless a chunk was asked for (bench/NOTES.md 138).
    pub fn every(self, n: u64) -> bool {
        match self {
            BottomUpLaunch::Auto => self.apart(n),
            BottomUpLaunch::Every => true,
            BottomUpLaunch::Apart | BottomUpLaunch::Inside => false,
        }
    }
}

/// Tuning of the persistent BFS.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PersistentParams {
    /// Which rule picks each level's direction; `alpha` and `beta` are its parameters
    /// (XBFS's rule has only `alpha`, a fraction of the edges).
    pub switch_rule: SwitchRule,
    pub alpha: f32,
    pub beta: f32,
    /// Adaptive frontier generation (XBFS section 4): the level before a predicted switch
    /// writes the next frontier the way the next direction reads it.
    pub adaptive_frontier: bool,
    pub bottom_up: bool,
    pub small_frontiers: bool,
    /// How bottom-up levels balance their work.
    pub bottom_up_balance: BottomUpBalance,
    /// Asynchronous bottom-up (XBFS section 5.2, Algorithm 3): a bottom-up pass over a large
    /// frontier also labels, two levels deep, the vertices it finds with no parent in the
    /// frontier but one in the next frontier being written, so the next pass skips them.
    pub async_bottom_up: bool,
    /// XBFS's double-scan (section 4.2): bottom-up levels run over a packed queue of the
    /// unvisited vertices instead of the visited bitmap's words. Synchronous, static balance
    /// and a graph in device memory only.
    pub double_scan: bool,
    /// Bitmap words a warp takes at once in synchronous, statically balanced bottom-up levels
    /// (a power of two up to 32; 1 is the word-by-word loop), or 0 to let the kernel choose
    /// from the graph's size. Graphs read over the bus always take 1.
    pub bottom_up_chunk: u32,
    /// Where each bottom-up stretch's first level runs (synchronous levels over plain lists
    /// only; the others always run inside).
    pub bottom_up_launch: BottomUpLaunch,
}

/// What keeps XBFS's double-scan frontier generation from running as asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DoubleScanConflict {
    /// Asynchronous bottom-up levels were asked for too.
    AsyncBottomUp,
    /// A bottom-up balance other than static was asked for too.
    Balance,
    /// The graph is in mapped host memory.
    ZeroCopy,
}

impl std::fmt::Display for DoubleScanConflict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            DoubleScanConflict::AsyncBottomUp => {
                "double-scan frontier generation runs synchronous bottom-up levels: turn asynchronous bottom-up off"
            }
            DoubleScanConflict::Balance => {
                "double-scan frontier generation balances its queue statically: use the static bottom-up balance"
            }
            DoubleScanConflict::ZeroCopy => {
                "double-scan frontier generation needs the graph in device memory, and this one is in mapped host \
                 memory: give a VRAM budget that holds it, or use adaptive frontier generation"
            }
        })
    }
}

impl Default for PersistentParams {
    /// The checks rule with alpha = 0.5 (chosen by measurement on the suite against XBFS's
    /// rule at 0.03, the default before it; bench/NOTES.md, entry 46),
    /// adaptive frontier generation, bottom-up and the small-frontier path on, bottom-up
    /// levels balanced statically and synchronous (no asynchronous labeling).
    fn default() -> Self {
        PersistentParams {
            switch_rule: SwitchRule::Checks,
            alpha: SwitchRule::Checks.default_alpha(),
            beta: 18.0,
            adaptive_frontier: true,
            bottom_up: true,
            small_frontiers: true,
            bottom_up_balance: BottomUpBalance::Static,
            async_bottom_up: false,
            double_scan: false,
            bottom_up_chunk: 0,
            bottom_up_launch: BottomUpLaunch::Auto,
        }
    }
}

impl PersistentParams {
    /// The defaults, never going bottom-up: the persistent kernel's top-down path, Merrill et
    /// al.'s expand-contract strategy.
    pub fn top_down() -> Self {
        PersistentParams { bottom_up: false, ..Self::default() }
    }

    /// Why these parameters cannot run double-scan bottom-up levels on a graph that is (or is
    /// not) `zero_copy`; None when they can, or ask for none.
    pub fn double_scan_conflict(&self, zero_copy: bool) -> Option<DoubleScanConflict> {
        if !self.double_scan {
            return None;
        }
        if self.async_bottom_up {
            Some(DoubleScanConflict::AsyncBottomUp)
        } else if self.bottom_up_balance != BottomUpBalance::Static {
            Some(DoubleScanConflict::Balance)
        } else if zero_copy {
            Some(DoubleScanConflict::ZeroCopy)
        } else {
            None
        }
    }

    /// Whether the first level of each bottom-up stretch runs as a launch of its own on a graph
    /// of `n` vertices, `compressed` or not, in mapped host memory (`zero_copy`) or not: as
    /// [`Self::bottom_up_launch`] says where the level can (synchronous, statically balanced,
    /// over the visited bitmap, plain lists in device memory), else never.
    pub fn splits_bottom_up(&self, n: u64, compressed: bool, zero_copy: bool) -> bool {
        self.bottom_up
            && !self.async_bottom_up
            && !self.double_scan
            && self.bottom_up_balance == BottomUpBalance::Static
            && !compressed
            && !zero_copy
            && self.bottom_up_launch.apart(n)
    }

    /// The defaults with Beamer's rule and the paper's alpha = 15, beta = 18.
    pub fn beamer() -> Self {
        PersistentParams {
            switch_rule: SwitchRule::Beamer,
            alpha: SwitchRule::Beamer.default_alpha(),
            ..Self::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_bottom_up_level_runs_apart_on_big_plain_graphs_only() {
        let defaults = PersistentParams::default();
        let big = BottomUpLaunch::APART_FROM_VERTICES;
        assert!(defaults.splits_bottom_up(big, false, false));
        assert!(!defaults.splits_bottom_up(big - 1, false, false));
        assert!(!defaults.splits_bottom_up(big, true, false));
        assert!(!defaults.splits_bottom_up(big, false, true));
        let apart = PersistentParams { bottom_up_launch: BottomUpLaunch::Apart, ..defaults };
        assert!(apart.splits_bottom_up(1, false, false));
        assert!(!PersistentParams { async_bottom_up: true, ..apart }.splits_bottom_up(1, false, false));
        assert!(!PersistentParams { double_scan: true, ..apart }.splits_bottom_up(1, false, false));
        assert!(!PersistentParams { bottom_up: false, ..apart }.splits_bottom_up(1, false, false));
        for balance in [BottomUpBalance::Thread, BottomUpBalance::Warp] {
            assert!(!PersistentParams { bottom_up_balance: balance, ..apart }.splits_bottom_up(1, false, false));
        }
        let inside = PersistentParams { bottom_up_launch: BottomUpLaunch::Inside, ..defaults };
        assert!(!inside.splits_bottom_up(big, false, false));
        // Where `auto` splits it splits every bottom-up level; `apart` only each stretch's first.
        assert!(BottomUpLaunch::Auto.every(big) && !BottomUpLaunch::Auto.every(big - 1));
        assert!(BottomUpLaunch::Every.every(1) && BottomUpLaunch::Every.apart(1));
        assert!(!BottomUpLaunch::Apart.every(big) && !BottomUpLaunch::Inside.every(big));
    }

    #[test]
    fn bottom_up_balance_names_round_trip() {
        for balance in BottomUpBalance::ALL {
            assert_eq!(balance.name().parse::<BottomUpBalance>().unwrap(), balance);
            assert_eq!(serde_json::to_string(&balance).unwrap(), format!("\"{balance}\""));
        }
        assert_eq!(BottomUpBalance::default(), BottomUpBalance::Static);
        let kernel: Vec<Balance> = BottomUpBalance::ALL.iter().map(|b| b.kernel_balance()).collect();
        assert_eq!(kernel, [Balance::Static, Balance::Thread, Balance::Warp]);
        let err = "dynamic".parse::<BottomUpBalance>().unwrap_err().to_string();
        assert!(err.contains("`dynamic`") && err.contains("static, thread or warp"), "{err}");
    }
}
