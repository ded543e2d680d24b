//! The direction-switching rules of the persistent kernels in plain `f32` arithmetic, run by
//! the kernels and by the host (`host/src/bfs/switching.rs`), so the trace's explanations and
//! the tests' checks of every recorded decision run the kernel's own code.

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
    /// `n_u`: vertices with in-edges in no frontier yet (those a bottom-up pass searches).
    pub unvisited_vertices: f32,
    /// The level before went bottom-up.
    pub bottom_up: bool,
}

/// Which rule decides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleKind {
    /// Beamer et al. (SC 2012).
    Beamer,
    /// XBFS's edge-check rule (section 4.3).
    Xbfs,
    /// The edge check against an estimate of the bottom-up pass's own checks
    /// ([`Rule::bottom_up_checks`]).
    Checks,
}

/// A switching rule with its parameters, on a graph of `n` vertices and `edges` edges.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rule {
    pub kind: RuleKind,
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
    /// Checks: bottom-up exactly while the edge check is at least `alpha` times what the
    /// bottom-up pass is estimated to check.
    #[inline(always)]
    pub fn wants_bottom_up(&self, c: &SwitchCounters) -> bool {
        match self.kind {
            RuleKind::Xbfs => return c.frontier_edges >= self.alpha * self.edges,
            RuleKind::Checks => return c.frontier_edges >= self.alpha * self.bottom_up_checks(c),
            RuleKind::Beamer => {}
        }
        let growing = c.frontier > c.previous_frontier;
        if c.bottom_up {
            !(c.frontier * self.beta < self.n && !growing)
        } else {
            growing && c.frontier_edges * self.alpha > c.unvisited_edges
        }
    }

    /// What a bottom-up pass at a level with these counters would read, in edge checks. Each
    /// unvisited vertex with in-edges scans its in-list until it meets the frontier; an
    /// in-edge comes from the frontier with probability about `m_f / |E|` (the frontier's
    /// share of edge endpoints), so the vertex checks about `min(in-degree, |E| / m_f)` edges,
    /// and all of them together at most `min(m_u, n_u * |E| / m_f)` (the mean's bound: an
    /// overestimate where degrees are skewed, which leans to top-down). To that, one read of
    /// each such vertex's offsets and of every visited-bitmap word, which a pass pays however
    /// few edges it checks. XBFS's `alpha * |E|` fixes the threshold; this one falls as the
    /// frontier's edges rise, so a frontier of a few hundred vertices whose in-edges the rest
    /// of the graph rarely meets (a social graph's second level) stays top-down, and one of a
    /// few hubs that most vertices neighbor (a Kronecker graph's) does not.
    #[inline(always)]
    pub fn bottom_up_checks(&self, c: &SwitchCounters) -> f32 {
        let checks_per_vertex = self.edges / c.frontier_edges.max(1.0);
        (c.unvisited_vertices * checks_per_vertex).min(c.unvisited_edges) + c.unvisited_vertices + self.n / 32.0
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
        let next_frontier = now.frontier * lambda_frontier;
        let next = SwitchCounters {
            frontier: next_frontier,
            previous_frontier: now.frontier,
            frontier_edges: next_edges,
            previous_edges: now.frontier_edges,
            unvisited_edges: (now.unvisited_edges - next_edges).max(0.0),
            unvisited_vertices: (now.unvisited_vertices - next_frontier).max(0.0),
            bottom_up,
        };
        self.wants_bottom_up(&next) != bottom_up
    }
}
