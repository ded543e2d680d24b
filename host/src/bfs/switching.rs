//! The persistent GPU kernel's direction-switching rules on the host, so that a
//! trace can say why each level went the way it did (and tests can check that it did), and
//! the names of the ways it generates frontiers (XBFS section 4), which the trace reports.
//!
//! The rules themselves are the kernel's own source file, compiled here too: the device
//! evaluates them in `f32` from the counters of the level deciding, and this module runs the
//! same code on the counters the trace records, so the two agree bit for bit.

use std::fmt;

use crate::bfs::trace::{Direction, LevelTrace};

/// Which rule picks the direction of each level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SwitchRule {
    /// Beamer et al. (SC 2012): bottom-up once the frontier grows and its edges times `alpha`
    /// outweigh the unvisited vertices' edges (`m_f * alpha > m_u`); back to top-down once the
    /// frontier shrinks below `n / beta`.
    #[default]
    Beamer,
    /// XBFS (Gaihre et al., HPDC 2019, section 4.3): bottom-up exactly while the edge check
    /// `m_f` is at least `alpha * |E|`.
    Xbfs,
    /// Ours: bottom-up exactly while the edge check `m_f` is at least `alpha` times what the
    /// bottom-up pass is estimated to check, `min(m_u, n_u * |E| / m_f)` edges plus a read of
    /// each unvisited vertex's offsets and of every visited-bitmap word (`n / 32`). XBFS's rule
    /// sent a social graph's second level bottom-up, where the pass checked 3.7 times the edges
    /// top-down would. Against the edges the suite's bottom-up levels did check, the estimate
    /// ran 0.98x to 2.1x, mostly 1.0x to 1.3x: it leans high, which keeps a level top-down
    /// (bench/NOTES.md, entry 46).
    Checks,
}

impl SwitchRule {
    pub const ALL: [SwitchRule; 3] = [SwitchRule::Beamer, SwitchRule::Xbfs, SwitchRule::Checks];

    /// The name used on the command line, in reports and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            SwitchRule::Beamer => "beamer",
            SwitchRule::Xbfs => "xbfs",
            SwitchRule::Checks => "checks",
        }
    }

    /// The rule's `alpha` when none is given: Beamer's 15 (the paper's); for XBFS 0.03,
    /// measured best on the suite (the paper's 0.1 stays top-down through levels that
    /// bottom-up halves on Kronecker graphs: kron:24 1.22 against 1.09 ms on an H100).
    pub fn default_alpha(self) -> f32 {
        match self {
            SwitchRule::Beamer => 15.0,
            SwitchRule::Xbfs => 0.03,
            SwitchRule::Checks => CHECKS_DEFAULT_ALPHA,
        }
    }
}

/// The checks rule's `alpha` when none is given: a level goes bottom-up once top-down would
/// check at least half what bottom-up is estimated to (the estimate leans high, and a
/// bottom-up check, a bitmap probe in a list read in order, costs less than a top-down claim).
const CHECKS_DEFAULT_ALPHA: f32 = 0.5;

impl SwitchRule {
    /// The rule as the kernels' flags and rule code name it.
    pub fn kind(self) -> kernel_rule::RuleKind {
        match self {
            SwitchRule::Beamer => kernel_rule::RuleKind::Beamer,
            SwitchRule::Xbfs => kernel_rule::RuleKind::Xbfs,
            SwitchRule::Checks => kernel_rule::RuleKind::Checks,
        }
    }
}

impl fmt::Display for SwitchRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for SwitchRule {
    type Err = crate::Error;

    fn from_str(s: &str) -> crate::Result<Self> {
        SwitchRule::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| {
            crate::Error::InvalidArgument(format!("unknown switching rule `{s}`: expected beamer, xbfs or checks"))
        })
    }
}

/// A rule with its parameters, for a graph of `n` vertices and `edges` edges, of which
/// `in_listed` have in-edges (all of a bottom-up pass's candidates at the first level).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Switching {
    pub rule: SwitchRule,
    pub alpha: f32,
    pub beta: f32,
    pub n: u64,
    pub edges: u64,
    pub in_listed: u64,
}

/// What the rule looks at when a level decides.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwitchInputs {
    pub frontier: u64,
    pub previous_frontier: u64,
    /// `m_f`: out-edges of the frontier.
    pub frontier_edges: u64,
    pub previous_edges: u64,
    /// `m_u`: out-edges of the vertices in no frontier so far.
    pub unvisited_edges: u64,
    /// `n_u`: vertices with in-edges in no frontier so far.
    pub unvisited_vertices: u64,
    /// The previous level went bottom-up.
    pub previous_bottom_up: bool,
}

/// The kernel's own rule code, from the interface crate both sides build, so that the host's
/// verdicts are the kernel's arithmetic and cannot drift from it.
use warpath_interface::bfs::rule as kernel_rule;

impl Switching {
    /// The rule as the kernel holds it.
    fn kernel_rule(&self) -> kernel_rule::Rule {
        kernel_rule::Rule {
            kind: self.rule.kind(),
            alpha: self.alpha,
            beta: self.beta,
            n: self.n as f32,
            edges: self.edges as f32,
        }
    }

    /// The counters as the kernel converts them (each `u64` rounded to the nearest `f32`).
    fn counters(c: &SwitchInputs) -> kernel_rule::SwitchCounters {
        kernel_rule::SwitchCounters {
            frontier: c.frontier as f32,
            previous_frontier: c.previous_frontier as f32,
            frontier_edges: c.frontier_edges as f32,
            previous_edges: c.previous_edges as f32,
            unvisited_edges: c.unvisited_edges as f32,
            unvisited_vertices: c.unvisited_vertices as f32,
            bottom_up: c.previous_bottom_up,
        }
    }

    /// Whether the rule sends a level with these counters bottom-up.
    pub fn wants_bottom_up(&self, c: &SwitchInputs) -> bool {
        self.kernel_rule().wants_bottom_up(&Self::counters(c))
    }

    /// Whether XBFS's `lambda` (the edge-check ratio of this level to the previous one, and
    /// the same ratio of frontier sizes) predicts that the level after this one, going
    /// `bottom_up`, switches direction.
    pub fn predicts_switch(&self, c: &SwitchInputs, bottom_up: bool) -> bool {
        self.kernel_rule().predicts_switch(&Self::counters(c), bottom_up)
    }

    /// The rule's verdict on a level, in words, with the numbers it compared.
    pub fn explain(&self, c: &SwitchInputs) -> String {
        let verdict = if self.wants_bottom_up(c) { "bottom-up" } else { "top-down" };
        match self.rule {
            SwitchRule::Xbfs => {
                let threshold = self.alpha * self.edges as f32;
                let sign = if c.frontier_edges as f32 >= threshold { ">=" } else { "<" };
                format!("m_f {} {sign} alpha*|E| {:.0}: {verdict}", c.frontier_edges, threshold)
            }
            SwitchRule::Checks => {
                let threshold = self.alpha * self.kernel_rule().bottom_up_checks(&Self::counters(c));
                let sign = if c.frontier_edges as f32 >= threshold { ">=" } else { "<" };
                format!(
                    "m_f {} {sign} alpha*checks {:.0} (n_u {}): {verdict}",
                    c.frontier_edges, threshold, c.unvisited_vertices
                )
            }
            SwitchRule::Beamer if c.previous_bottom_up => {
                let shrinking = c.frontier <= c.previous_frontier;
                let small = (c.frontier as f32) * self.beta < self.n as f32;
                format!(
                    "n_f*beta {:.0} {} n {}, {}: {verdict}",
                    c.frontier as f32 * self.beta,
                    if small { "<" } else { ">=" },
                    self.n,
                    if shrinking { "shrinking" } else { "growing" }
                )
            }
            SwitchRule::Beamer => {
                let weighed = c.frontier_edges as f32 * self.alpha;
                format!(
                    "m_f*alpha {:.0} {} m_u {}, {}: {verdict}",
                    weighed,
                    if weighed > c.unvisited_edges as f32 { ">" } else { "<=" },
                    c.unvisited_edges,
                    if c.frontier > c.previous_frontier { "growing" } else { "not growing" }
                )
            }
        }
    }
}

/// The switching rule's inputs at level `level` of a trace (the persistent kernel's, decoded,
/// or the CPU BFS's), as the deciding level saw them: its counters and the level before's, on
/// a graph of `in_listed` vertices with in-edges.
pub fn switch_inputs(levels: &[LevelTrace], level: usize, in_listed: u64) -> SwitchInputs {
    let l = &levels[level];
    let previous = level.checked_sub(1).map(|p| &levels[p]);
    let reached: u64 = levels[..=level].iter().map(|l| l.frontier).sum();
    SwitchInputs {
        unvisited_vertices: in_listed.saturating_sub(reached),
        frontier: l.frontier,
        previous_frontier: previous.map_or(0, |p| p.frontier),
        frontier_edges: l.frontier_edges,
        previous_edges: previous.map_or(0, |p| p.frontier_edges),
        unvisited_edges: l.unvisited_edges,
        previous_bottom_up: previous.is_some_and(|p| p.direction == Direction::BottomUp),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inputs(frontier: u64, previous: u64, m_f: u64, previous_m_f: u64, m_u: u64, bu: bool) -> SwitchInputs {
        SwitchInputs {
            frontier,
            previous_frontier: previous,
            frontier_edges: m_f,
            previous_edges: previous_m_f,
            unvisited_edges: m_u,
            unvisited_vertices: 0,
            previous_bottom_up: bu,
        }
    }

    #[test]
    fn beamer_switches_on_growing_heavy_frontiers_and_back_on_small_shrinking_ones() {
        let s =
            Switching { rule: SwitchRule::Beamer, alpha: 15.0, beta: 18.0, n: 1800, edges: 10_000, in_listed: 1800 };
        // 100 * 15 = 1500 > 1000, growing: bottom-up.
        assert!(s.wants_bottom_up(&inputs(20, 10, 100, 50, 1000, false)));
        // Not growing: stays top-down however heavy.
        assert!(!s.wants_bottom_up(&inputs(10, 10, 100, 50, 1000, false)));
        // 60 * 15 = 900 <= 1000: top-down.
        assert!(!s.wants_bottom_up(&inputs(20, 10, 60, 50, 1000, false)));
        // Bottom-up, shrinking and 99 * 18 < 1800: back to top-down; 100 * 18 = 1800 is not.
        assert!(!s.wants_bottom_up(&inputs(99, 500, 0, 0, 0, true)));
        assert!(s.wants_bottom_up(&inputs(100, 500, 0, 0, 0, true)));
        assert!(s
            .explain(&inputs(20, 10, 100, 50, 1000, false))
            .contains("m_f*alpha 1500 > m_u 1000, growing: bottom-up"));
    }

    #[test]
    fn xbfs_compares_the_edge_check_with_a_fraction_of_the_edges() {
        let s = Switching { rule: SwitchRule::Xbfs, alpha: 0.1, beta: 0.0, n: 100, edges: 10_000, in_listed: 100 };
        assert!(s.wants_bottom_up(&inputs(5, 1, 1000, 10, 0, false)));
        assert!(!s.wants_bottom_up(&inputs(5, 1, 999, 10, 0, false)));
        // No hysteresis: the same test in both directions.
        assert!(!s.wants_bottom_up(&inputs(5, 1, 999, 10, 0, true)));
        assert_eq!(s.explain(&inputs(5, 1, 999, 10, 0, true)), "m_f 999 < alpha*|E| 1000: top-down");
    }

    /// Slashdot's second and third levels from a traced root (bench/NOTES.md, entry 46):
    /// XBFS's rule sends both bottom-up, the checks rule only the third, where bottom-up
    /// checked 65,570 edges against top-down's 614,925 (and 272,671 against 74,146 before).
    #[test]
    fn checks_weighs_the_edge_check_against_the_bottom_up_pass() {
        let (n, edges) = (82_168, 870_161);
        let checks = Switching { rule: SwitchRule::Checks, alpha: 0.5, beta: 18.0, n, edges, in_listed: n };
        let xbfs = Switching { rule: SwitchRule::Xbfs, alpha: 0.03, ..checks };
        let second = SwitchInputs { unvisited_vertices: 81_516, ..inputs(649, 3, 74_146, 666, 795_346, false) };
        let third = SwitchInputs { unvisited_vertices: 60_228, ..inputs(21_288, 649, 614_925, 74_146, 180_421, false) };
        assert!(xbfs.wants_bottom_up(&second) && xbfs.wants_bottom_up(&third));
        assert!(!checks.wants_bottom_up(&second));
        assert!(checks.wants_bottom_up(&third));
        // The second level's estimate is all of m_u (81,516 vertices * 11.7 edges is more),
        // plus 81,516 offsets and 2,567.75 bitmap words: 879,430, halved by alpha.
        assert_eq!(checks.explain(&second), "m_f 74146 < alpha*checks 439715 (n_u 81516): top-down");
        // The third's: 60,228 vertices * 1.415 edges (85,226) + 60,228 + 2,568, halved: 74,011.
        assert!(checks.explain(&third).starts_with("m_f 614925 >= alpha*checks 74011 "), "{}", checks.explain(&third));
        // A road graph's level never goes: m_f alone is under the bitmap's words.
        let road = Switching {
            rule: SwitchRule::Checks,
            alpha: 0.5,
            beta: 18.0,
            n: 264_346,
            edges: 733_846,
            in_listed: 264_346,
        };
        let tail = SwitchInputs { unvisited_vertices: 900, ..inputs(400, 380, 1_100, 1_050, 2_000, false) };
        assert!(!road.wants_bottom_up(&tail));
    }

    #[test]
    fn lambda_predicts_the_level_before_a_switch() {
        let s = Switching { rule: SwitchRule::Xbfs, alpha: 0.1, beta: 0.0, n: 100, edges: 10_000, in_listed: 100 };
        // m_f 400 after 100: lambda 4 predicts 1600 >= 1000, so the next level goes bottom-up.
        assert!(s.predicts_switch(&inputs(40, 10, 400, 100, 5000, false), false));
        // Growing more slowly (lambda 2: 800) predicts nothing.
        assert!(!s.predicts_switch(&inputs(40, 20, 400, 200, 5000, false), false));
        // Bottom-up with the edge check falling (lambda 1/4: 250 < 1000) predicts top-down.
        assert!(s.predicts_switch(&inputs(40, 80, 1000, 4000, 0, true), true));
        // The first level has no ratio.
        assert!(!s.predicts_switch(&inputs(1, 0, 5000, 0, 5000, false), false));
    }

    #[test]
    fn names_round_trip() {
        for rule in SwitchRule::ALL {
            assert_eq!(rule.name().parse::<SwitchRule>().unwrap(), rule);
            assert_eq!(serde_json::to_string(&rule).unwrap(), format!("\"{rule}\""));
        }
        let err = "gap".parse::<SwitchRule>().unwrap_err().to_string();
        assert!(err.contains("`gap`") && err.contains("beamer, xbfs or checks"), "{err}");
    }
}
