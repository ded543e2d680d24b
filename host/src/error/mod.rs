//! One error type for the library. Every variant names what went wrong and, where it can,
//! what the user should do about it; the CLI prints `Display` and exits with code 2.

mod gpu;

use std::fmt;
use std::io;
use std::path::PathBuf;

pub use gpu::GpuError;

/// Anything that can go wrong while reading, building or traversing a graph. More variants
/// may come: a `match` needs an arm for the others.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The operating system refused to read or write a file, or it does not exist
    /// (`source.kind()` is [`io::ErrorKind::NotFound`], and its message says what to give).
    Io { path: PathBuf, source: io::Error },
    /// A text graph file is malformed: `line` is 1-based, `expected` says what should be there.
    Parse { path: PathBuf, line: u64, expected: String },
    /// A file is structurally wrong in a way not tied to one line (bad header, checksum, truncation).
    Format { path: PathBuf, problem: String },
    /// The graph has more vertices than a `u32` vertex id can name.
    TooManyVertices { vertices: u64 },
    /// Loading or building the graph would need more memory than is available (see
    /// [`crate::memory`]); `what` names the file or generator spec.
    OutOfMemory { what: String, needed: u64, vertices: u64, edges: u64, available: u64 },
    /// A BFS source that is out of range or has no edges.
    InvalidSource { vertex: u64, problem: String },
    /// A generator spec or command-line value that cannot be understood.
    InvalidArgument(String),
    /// The GPU could not be used: no driver, no device, out of memory, a failed launch.
    Gpu(GpuError),
    /// A result failed its algorithm's verifier (BFS: Graph500-style validation); the message
    /// says which check, and its algorithm where that is not BFS.
    Verification(String),
    /// Other ranks of a partitioned run (`ranks`, of `world`) failed a step every rank takes
    /// alone, so this one stopped too (`multi::agree_on`); their own errors say why.
    RankFailed { ranks: Vec<usize>, world: usize },
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Io { path, source } => write!(f, "{}: {}", path.display(), source),
            Error::Parse { path, line, expected } => {
                write!(f, "{}:{}: expected {}", path.display(), line, expected)
            }
            Error::Format { path, problem } => write!(f, "{}: {}", path.display(), problem),
            // At most `graph::MAX_VERTICES`, `u32::MAX` (the graph's tests hold the two together).
            Error::TooManyVertices { vertices } => write!(
                f,
                "the graph has {vertices} vertices, but warpath stores vertex ids as u32 and can hold at most {}",
                u32::MAX
            ),
            Error::OutOfMemory { what, needed, vertices, edges, available } => write!(
                f,
                "{what}: needs about {} for {vertices} vertices and {edges} edges, {} available",
                show_bytes(*needed),
                show_bytes(*available)
            ),
            Error::InvalidSource { vertex, problem } => write!(f, "source vertex {vertex} {problem}"),
            Error::InvalidArgument(message) => f.write_str(message),
            Error::Gpu(err) => write!(f, "GPU: {err}"),
            Error::Verification(message) => write!(f, "verification failed: {message}"),
            Error::RankFailed { ranks, world } => {
                let names: Vec<String> = ranks.iter().map(usize::to_string).collect();
                let (rank, its) =
                    if ranks.len() == 1 { ("rank", "its own error says") } else { ("ranks", "their own errors say") };
                write!(
                    f,
                    "{rank} {} of {world} failed before the ranks met ({its} why), so this rank stops too",
                    names.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Io { source, .. } => Some(source),
            Error::Gpu(err) => Some(err),
            _ => None,
        }
    }
}

impl From<GpuError> for Error {
    fn from(err: GpuError) -> Self {
        Error::Gpu(err)
    }
}

impl Error {
    /// Whether this refuses a file's weight that is no valid edge weight (negative, not
    /// finite): the file is then read by reading it without its weights, which a caller may
    /// offer by its own name for that (the error says it in words).
    pub fn is_refused_weight(&self) -> bool {
        matches!(self, Error::Parse { expected, .. } if expected.ends_with(WEIGHT_RULE))
    }

    /// Whether this refuses a SNAP file whose header's edge count disagrees with its lines
    /// (`ReadOptions::allow_count_mismatch` reads it as it is, which a caller may offer by its
    /// own name).
    pub fn is_count_mismatch(&self) -> bool {
        matches!(self, Error::Format { problem, .. } if problem.ends_with(COUNT_MISMATCH_RULE))
    }

    /// Whether this refuses to write an unweighted graph as a weighted edge list (`.wel`).
    pub fn is_unweighted_wel(&self) -> bool {
        matches!(self, Error::InvalidArgument(message) if message.ends_with(UNWEIGHTED_WEL))
    }

    pub(crate) fn io(path: impl Into<PathBuf>, source: io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }
}

/// What an error about a weight adds after the value, so the user knows why it was refused
/// and how to read the file anyway.
pub(crate) const WEIGHT_RULE: &str = "edge weights must be non-negative and finite, as shortest paths need them; \
                           read the file without weights to use its edges alone";

/// Why an unweighted graph is not written as `.wel`: the end of that error's message (a caller
/// may name its own way to add weights).
pub(crate) const UNWEIGHTED_WEL: &str =
    ".wel files hold weights, but this graph has none; write a .el, or give the graph weights first";

/// What an error about a SNAP header's edge count ends with.
pub(crate) const COUNT_MISMATCH_RULE: &str = "To read it as it is, allow the count to differ from the lines";

/// Bytes as the guard's message shows them: gigabytes (10^9) with one decimal, or megabytes
/// for less than a tenth of a gigabyte.
pub(crate) fn show_bytes(bytes: u64) -> String {
    if bytes >= 100_000_000 {
        format!("{:.1} GB", bytes as f64 / 1e9)
    } else {
        format!("{:.1} MB", bytes as f64 / 1e6)
    }
}
