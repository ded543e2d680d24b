//! What a traversal did, level by level: the trace every BFS (CPU or GPU) can return beside
//! its result, and that `bench --trace` prints and the JSON report records.

use std::fmt;
use std::time::Duration;

/// Which way one BFS level was expanded.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Frontier vertices push to their out-neighbors.
    TopDown,
    /// Unvisited vertices look for a parent among their in-neighbors.
    BottomUp,
}

impl fmt::Display for Direction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Direction::TopDown => "top-down",
            Direction::BottomUp => "bottom-up",
        })
    }
}

/// What one level of a traversal did ([`crate::bfs::bfs_parallel_with`], or a GPU kernel's trace).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelTrace {
    /// The distance of the frontier vertices this level expanded from.
    pub level: u32,
    pub direction: Direction,
    /// Vertices in the frontier at the start of the level.
    pub frontier: u64,
    /// Edges actually looked at: every out-edge of the frontier top-down; in-edges up to the
    /// first parent found bottom-up (the early exit that makes bottom-up pay).
    pub edges_inspected: u64,
    /// Graph bytes the level read (offsets and lists, as stored: compressed lists count their
    /// varint bytes), and the same reads in whole 32-byte sectors, which is what crosses the
    /// bus when the graph is in mapped host memory. Counted by the GPU kernels; 0 on the CPU.
    pub bytes_read: u64,
    pub bus_bytes: u64,
    /// Wall time of the level, including any conversion between queue and bitmap.
    pub time: Duration,
    /// `m_f` and `m_u` as the switching rule saw them: out-edges of the frontier and of the
    /// vertices in no frontier yet (0 where the traversal does not record them).
    pub frontier_edges: u64,
    pub unvisited_edges: u64,
    /// How the frontier was generated, where the traversal records it (the persistent GPU
    /// kernel).
    pub generation: Option<Generation>,
    /// The switching rule's verdict in words, where the traversal records it.
    pub decision: Option<String>,
}

/// How one level of the persistent kernel wrote the next frontier (XBFS section 4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontierOutput {
    /// Top-down, every claimed vertex appended to the next queue (XBFS's scan-free).
    ScanFree,
    /// Top-down, claimed vertices only marked in the next frontier bitmap, which the predicted
    /// bottom-up level reads as it is (XBFS's single-scan).
    SingleScan,
    /// Bottom-up, the next frontier as a bitmap of ballots.
    Ballot,
    /// Bottom-up, the bitmap and, emitted directly, the queue the predicted top-down level
    /// reads (XBFS's no frontier queue generation, by direct emission).
    BallotAndQueue,
    /// Bottom-up over the queue of unvisited vertices that XBFS's double-scan packed; the next
    /// frontier as a bitmap, set by atomic OR.
    DoubleScan,
    /// Double-scan, and the next queue emitted directly as well.
    DoubleScanAndQueue,
}

/// A frontier converted at the start of a level because the level before wrote the other form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FrontierConversion {
    /// A bitmap packed into a queue, one scan of its words.
    Packed,
    /// A queue scattered into a bitmap.
    Scattered,
}

/// The frontier generation of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Generation {
    pub conversion: Option<FrontierConversion>,
    pub output: FrontierOutput,
    /// XBFS's `lambda` predicted that the next level switches direction (only levels run by
    /// the whole grid predict).
    pub predicted_switch: bool,
    /// Block 0 expanded the level alone (a small frontier, Luo et al.'s single-block path).
    pub alone: bool,
}

impl fmt::Display for FrontierOutput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FrontierOutput::ScanFree => "scan-free",
            FrontierOutput::SingleScan => "single-scan",
            FrontierOutput::Ballot => "ballot",
            FrontierOutput::BallotAndQueue => "ballot+queue",
            FrontierOutput::DoubleScan => "double-scan",
            FrontierOutput::DoubleScanAndQueue => "double-scan+queue",
        })
    }
}

impl fmt::Display for FrontierConversion {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FrontierConversion::Packed => "packed",
            FrontierConversion::Scattered => "scattered",
        })
    }
}

impl fmt::Display for Generation {
    /// `packed > scan-free`, `single-scan (predicted)`, ...: conversion, output, prediction.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(conversion) = self.conversion {
            write!(f, "{conversion} > ")?;
        }
        write!(f, "{}", self.output)?;
        if self.predicted_switch {
            f.write_str(" (predicted)")?;
        }
        if self.alone {
            f.write_str(", one block")?;
        }
        Ok(())
    }
}
