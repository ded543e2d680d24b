//! The memory guard: before a graph is read or generated, the bytes its load and build will
//! need are estimated from what is known up front (a header's counts, a generator spec, the
//! largest id seen) and compared with the memory this process may use, so that a tiny file
//! claiming billions of vertices is refused with one line instead of dying in an allocation or
//! under the kernel's OOM killer.
//!
//! The memory available is, in order: an explicit limit (the CLI's `--memory-limit`), the
//! `WARPATH_MEMORY_LIMIT` environment variable, else the smaller of the cgroup's headroom
//! (v2 `memory.max` less `memory.current`, or v1 `memory.limit_in_bytes` less its usage) and
//! `MemAvailable` from `/proc/meminfo`. Where none of these can be read, nothing is refused.

use std::path::Path;

use crate::error::{Error, Result};

/// The environment variable that sets the memory limit in bytes (with an optional K, M, G or T
/// suffix, powers of 1024), for when detection is wrong or a test wants a small limit.
pub const LIMIT_VARIABLE: &str = "WARPATH_MEMORY_LIMIT";

/// What a graph will take: its vertex and edge counts as known before it is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphSize {
    pub vertices: u64,
    /// Edges as listed (in a file, or made by a generator), before cleaning.
    pub edges: u64,
    /// Every edge is stored both ways.
    pub undirected: bool,
    /// Bytes of weight per edge (0 unweighted, 4 for `u32` or `f32`).
    pub weight_bytes: u64,
}

impl GraphSize {
    /// Peak bytes of reading the edge list and building the CSR from it (see
    /// [`crate::graph::GraphBuilder::build`]): first the list (8 bytes an edge and its weight)
    /// beside the unsorted lists (a target and a weight per stored edge) and two `u64` per
    /// vertex; then the unsorted and the final lists together, with three `u64` per vertex.
    pub fn build_bytes(&self) -> u128 {
        let (v, e, w) = (self.vertices as u128, self.edges as u128, self.weight_bytes as u128);
        let stored = if self.undirected { 2 * e } else { e };
        let listing = e * (8 + w) + stored * (4 + w) + 16 * v;
        let sorting = 2 * stored * (4 + w) + 24 * v;
        listing.max(sorting)
    }

    /// The most listed edges for which [`GraphSize::build_bytes`] stays within `available`
    /// bytes, the vertex count and the rest as they are: how far an edge list read from a
    /// stream of unknown length may grow.
    pub fn most_edges(&self, available: u64) -> u64 {
        // build_bytes grows with the edges: the largest count that fits, by bisection.
        let fits = |edges: u64| GraphSize { edges, ..*self }.build_bytes() <= available as u128;
        if !fits(0) {
            return 0;
        }
        let (mut low, mut high) = (0u64, u64::MAX);
        while low < high {
            let middle = low + (high - low).div_ceil(2);
            if fits(middle) {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        low
    }

    /// Bytes of a built CSR read as it is stored (a `.wgr` file): offsets, targets, weights.
    pub fn stored_bytes(&self) -> u128 {
        8 * (self.vertices as u128 + 1) + self.edges as u128 * (4 + self.weight_bytes as u128)
    }
}

/// Refuses with [`Error::OutOfMemory`] when `needed` bytes exceed the memory available;
/// `what` names the input (a file or a generator spec). `limit` is an explicit limit that
/// overrides the environment and the detected memory.
pub fn check(what: &str, size: GraphSize, needed: u128, limit: Option<u64>) -> Result<()> {
    let Some(available) = available(limit) else {
        return Ok(());
    };
    if needed <= available as u128 {
        return Ok(());
    }
    Err(Error::OutOfMemory {
        what: what.to_string(),
        needed: u64::try_from(needed).unwrap_or(u64::MAX),
        vertices: size.vertices,
        edges: size.edges,
        available,
    })
}

/// The memory the guard compares needs with: `limit` when given, else the environment's, else
/// the detected memory; `None` where none is known (then nothing is refused).
pub(crate) fn available(limit: Option<u64>) -> Option<u64> {
    limit.or_else(limit_from_environment).or_else(detected_available)
}

/// [`check`] for a file whose edge list will be built into a CSR.
pub(crate) fn check_build(path: &Path, size: GraphSize, limit: Option<u64>) -> Result<()> {
    check(&path.display().to_string(), size, size.build_bytes(), limit)
}

/// The limit in `WARPATH_MEMORY_LIMIT`, if set and readable. A value that does not read as a
/// byte count is ignored with a warning rather than failing every command; the warning is
/// printed once, however many times a load asks (a text file's reader and the build each do).
fn limit_from_environment() -> Option<u64> {
    static WARNED: std::sync::Once = std::sync::Once::new();
    let text = std::env::var(LIMIT_VARIABLE).ok()?;
    match parse_bytes(&text) {
        Ok(bytes) => Some(bytes),
        Err(problem) => {
            WARNED.call_once(|| eprintln!("warpath: warning: {LIMIT_VARIABLE} ignored: {problem}"));
            None
        }
    }
}

/// What [`parse_bytes`] reads, for help texts.
pub const BYTE_COUNT_FORMS: &str = "bytes (4096), or a number with a unit: K, M, G, T or KiB, MiB, GiB, TiB \
(powers of 1024: 6G = 6GiB), KB, MB, GB, TB (powers of 1000: 6GB = 6,000,000,000 bytes); fractions \
allowed with a unit (1.5G), case ignored";

/// A byte count: `4096`, or a number with a unit, `6G`, `6GiB`, `6GB`, `1.5G`, `512m`. K, M, G
/// and T alone are binary (as `free -g` and earlier warpath read them), as are KiB ... TiB; KB
/// ... TB are decimal. A fraction is rounded down to whole bytes.
pub fn parse_bytes(text: &str) -> std::result::Result<u64, String> {
    let text = text.trim();
    let number_end = text.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(text.len());
    let (number, unit) = (&text[..number_end], text[number_end..].trim_start());
    let not_a_count = || format!("`{text}` is not a byte count such as 6G, 6GB, 1.5GiB, 512M or 4096");
    if number.is_empty() {
        return Err(not_a_count());
    }
    let multiplier: u64 = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KIB" => 1 << 10,
        "M" | "MIB" => 1 << 20,
        "G" | "GIB" => 1 << 30,
        "T" | "TIB" => 1 << 40,
        "KB" => 1_000,
        "MB" => 1_000_000,
        "GB" => 1_000_000_000,
        "TB" => 1_000_000_000_000,
        _ => return Err(format!("unknown size suffix `{unit}` in `{text}`: use K, M, G, T, KiB ... TiB or KB ... TB")),
    };
    let (whole, fraction) = number.split_once('.').unwrap_or((number, ""));
    if whole.is_empty() && fraction.is_empty() || fraction.contains('.') {
        return Err(not_a_count());
    }
    let digits = |s: &str| if s.is_empty() { Ok(0) } else { s.parse::<u128>().map_err(|_| not_a_count()) };
    let (whole, scale) = (digits(whole)?, 10u128.checked_pow(fraction.len() as u32).ok_or_else(not_a_count)?);
    // Exact: (whole + fraction / scale) * multiplier, rounded down.
    let bytes = whole
        .checked_mul(scale)
        .and_then(|w| w.checked_add(digits(fraction).ok()?))
        .and_then(|n| n.checked_mul(u128::from(multiplier)))
        .map(|n| n / scale)
        .ok_or_else(not_a_count)?;
    if multiplier == 1 && !fraction.is_empty() {
        return Err(format!("`{text}` is not a whole number of bytes"));
    }
    u64::try_from(bytes).map_err(|_| format!("`{text}` is too large"))
}

/// The memory this process may still use: the smaller of the cgroup's headroom and
/// `MemAvailable`, or `None` where neither can be read (not Linux).
pub fn detected_available() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| mem_available(&text));
    match (meminfo, cgroup_headroom()) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// `MemAvailable` of a `/proc/meminfo` text, in bytes.
fn mem_available(meminfo: &str) -> Option<u64> {
    let line = meminfo.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The limit of this process's memory cgroup less its usage; `None` when unlimited or unknown.
fn cgroup_headroom() -> Option<u64> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let number = |text: Option<String>| text.and_then(|t| t.trim().parse::<u64>().ok());
    // cgroup v2: the process's own group, as /proc/self/cgroup names it (`0::/path`).
    let group = read("/proc/self/cgroup")
        .and_then(|text| text.lines().find_map(|l| l.strip_prefix("0::").map(str::to_string)))
        .unwrap_or_default();
    for dir in [format!("/sys/fs/cgroup{group}"), "/sys/fs/cgroup".to_string()] {
        if let Some(limit) = number(read(&format!("{dir}/memory.max"))) {
            let used = number(read(&format!("{dir}/memory.current"))).unwrap_or(0);
            return Some(limit.saturating_sub(used));
        }
    }
    // cgroup v1; an unlimited group reports a huge number, which min() with MemAvailable absorbs.
    let limit = number(read("/sys/fs/cgroup/memory/memory.limit_in_bytes"))?;
    let used = number(read("/sys/fs/cgroup/memory/memory.usage_in_bytes")).unwrap_or(0);
    Some(limit.saturating_sub(used))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_bytes_count_lists_vertices_and_weights() {
        let directed = GraphSize { vertices: 10, edges: 100, undirected: false, weight_bytes: 0 };
        // Listing: 800 + 400 + 160; sorting: 800 + 240.
        assert_eq!(directed.build_bytes(), 1360);
        let undirected_weighted = GraphSize { undirected: true, weight_bytes: 4, ..directed };
        // Listing: 1200 + 1600 + 160; sorting: 3200 + 240.
        assert_eq!(undirected_weighted.build_bytes(), 3440);
        assert_eq!(directed.stored_bytes(), 88 + 400);
        // 12 bytes an edge and 160 for the vertices: 1360 bytes hold 100 edges, 1371 no more.
        assert_eq!(directed.most_edges(1360), 100);
        assert_eq!(directed.most_edges(1371), 100);
        assert_eq!(directed.most_edges(1372), 101);
        assert_eq!(directed.most_edges(100), 0);
        assert_eq!(GraphSize { vertices: 0, ..directed }.most_edges(u64::MAX), u64::MAX / 12);
        let huge = GraphSize { vertices: u32::MAX as u64, edges: u64::MAX, undirected: true, weight_bytes: 4 };
        assert!(huge.build_bytes() > u64::MAX as u128);
    }

    #[test]
    fn explicit_limits_refuse_with_the_counts() {
        let size = GraphSize { vertices: 4_000_000_000, edges: 3, undirected: false, weight_bytes: 0 };
        let err = check("big.mtx", size, size.build_bytes(), Some(1 << 30)).unwrap_err().to_string();
        assert_eq!(err, "big.mtx: needs about 96.0 GB for 4000000000 vertices and 3 edges, 1.1 GB available");
        assert!(check("small.mtx", size, 1000, Some(1 << 30)).is_ok());
    }

    #[test]
    fn meminfo_and_byte_counts_parse() {
        let meminfo = "MemTotal:       24000000 kB\nMemFree:  100 kB\nMemAvailable:   20000000 kB\n";
        assert_eq!(mem_available(meminfo), Some(20_000_000 * 1024));
        assert_eq!(mem_available("MemTotal: 5 kB\n"), None);
        assert_eq!(parse_bytes("1G"), Ok(1 << 30));
        assert_eq!(parse_bytes(" 512m "), Ok(512 << 20));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert!(parse_bytes("12Q").unwrap_err().contains("unknown size suffix"));
        assert!(parse_bytes("99999999999T").unwrap_err().contains("too large"));
    }

    #[test]
    fn this_machine_reports_some_memory() {
        if cfg!(target_os = "linux") {
            assert!(detected_available().is_some_and(|bytes| bytes > 0));
        }
    }
}
