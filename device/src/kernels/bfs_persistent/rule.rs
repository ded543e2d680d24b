//! The direction-switching rules in plain `f32` arithmetic, shared verbatim by the kernel and
//! the host: `host/src/bfs/switching.rs` `include!`s this file, so the trace's explanations and
//! the tests' checks of every recorded decision run the kernel's own code. Only `core` here.

/// What a rule looks at, for the level deciding or for a predicted next level.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SwitchCounters {
    pub frontier: f32,
    pub previous_frontier: f32,
    /// `m_f`: out-edges of the frontier (XBFS's edge check).
    pub frontier_edges: f32,
    pub previous_edges: f32,
    /// `m_u`: out-edges of the vertices in no frontier yet.
    pub unvisited_edges: f32,
    /// The level before went bottom-up.
    pub bottom_up: bool,
}

/// A switching rule with its parameters, on a graph of `n` vertices and `edges` edges.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    /// XBFS's edge-check rule (section 4.3) instead of Beamer's.
    pub xbfs: bool,
    pub alpha: f32,
    pub beta: f32,
    pub n: f32,
    pub edges: f32,
}

impl Rule {
    /// Whether a level with these counters goes bottom-up. Beamer's rule: go bottom-up when
    /// the frontier's edges outweigh the unvisited edges divided by alpha and the frontier is
    /// growing; return to top-down once the frontier is shrinking and smaller than n / beta.
    /// XBFS's: bottom-up exactly while the edge check `m_f` is at least `alpha * |E|`.
    #[inline(always)]
    pub fn wants_bottom_up(&self, c: &SwitchCounters) -> bool {
        if self.xbfs {
            return c.frontier_edges >= self.alpha * self.edges;
        }
        let growing = c.frontier > c.previous_frontier;
        if c.bottom_up {
            !(c.frontier * self.beta < self.n && !growing)
        } else {
            growing && c.frontier_edges * self.alpha > c.unvisited_edges
        }
    }

    /// XBFS's prediction (section 4.3, equations 1 and 2): with `lambda`, the ratio of this
    /// level's edge check to the previous level's (and the same ratio of frontier sizes), the
    /// next level's counters are this level's times `lambda`; whether the rule would then
    /// take the other direction than `bottom_up` (this level's). Nothing is predicted at the
    /// first level, which has no ratio.
    #[inline(always)]
    pub fn predicts_switch(&self, now: &SwitchCounters, bottom_up: bool) -> bool {
        if now.previous_frontier == 0.0 {
            return false;
        }
        let lambda = now.frontier_edges / now.previous_edges.max(1.0);
        let lambda_frontier = now.frontier / now.previous_frontier;
        let next_edges = now.frontier_edges * lambda;
        let next = SwitchCounters {
            frontier: now.frontier * lambda_frontier,
            previous_frontier: now.frontier,
            frontier_edges: next_edges,
            previous_edges: now.frontier_edges,
            unvisited_edges: (now.unvisited_edges - next_edges).max(0.0),
            bottom_up,
        };
        self.wants_bottom_up(&next) != bottom_up
    }
}
