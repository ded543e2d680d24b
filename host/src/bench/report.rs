//! The text a benchmark prints: `key: value` lines (as `warpath bfs` prints them, so scripts
//! can read both). Every algorithm's report starts with the same [`header`] and has the same
//! [`timing_lines`]; BFS ([`render`]) adds a table with one row per root, its own summary lines
//! and the per-level trace table.

use std::fmt::Write;

use crate::bench::bfs::{BusRecord, LevelRecord, RootRecord};
use crate::bench::harness::Summary;
use crate::bench::json::{BenchReport, Report};
use crate::bench::stats::{median, Spread};

/// How a directed graph's bottom-up steps find in-edges, said on its `edges:` line: the
/// backends build the transpose for every directed graph (undirected ones serve themselves).
pub const DIRECTED_IN_EDGES: &str = "directed; bottom-up steps read its transpose, built on loading";

/// What an algorithm adds to the lines every report starts with ([`header`]).
pub struct HeaderLines<'a> {
    /// Lines (each ending in a newline) saying how the algorithm ran, printed after the backend:
    /// the GPU kernel and its tuning, say.
    pub how_it_ran: &'a str,
    /// What the `edges:` line says of a directed graph.
    pub directed_edges: &'a str,
    /// What the device memory beside the graph holds, for the `device memory:` line.
    pub workspace: &'a str,
}

/// The lines every algorithm's report starts with: graph, backend, how the algorithm ran,
/// driver, commit, vertices, edges, device memory and the graph's place on the GPU.
pub fn header<D, S, P>(report: &Report<D, S, P>, lines: &HeaderLines) -> String {
    let mut out = String::new();
    let g = &report.graph;
    let _ = match &report.load {
        Some(load) => writeln!(
            out,
            "graph: {} (loaded in {:.1} ms: read {:.1} ms, build {:.1} ms)",
            g.name, report.load_ms, load.read_ms, load.build_ms
        ),
        None => writeln!(out, "graph: {} (loaded in {:.1} ms)", g.name, report.load_ms),
    };
    match report.device.cpu_threads {
        Some(threads) => writeln!(out, "backend: cpu ({threads} threads)"),
        None => writeln!(out, "backend: {} ({})", report.device.backend, report.device.name),
    }
    .expect("writing to a String");
    out.push_str(lines.how_it_ran);
    if let Some(driver) = &report.device.driver {
        match &report.device.cuda_driver {
            Some(cuda) => writeln!(out, "driver: {driver} (CUDA {cuda})"),
            None => writeln!(out, "driver: {driver}"),
        }
        .expect("writing to a String");
    }
    let _ = writeln!(out, "commit: {}", report.commit);
    let _ = writeln!(out, "vertices: {}", g.vertices);
    let _ = writeln!(
        out,
        "edges: {} ({})",
        g.edges,
        if g.undirected {
            format!("directed, as stored; {} undirected", g.edges / 2)
        } else {
            lines.directed_edges.into()
        }
    );
    match (report.peak_device_bytes, report.device_graph_bytes) {
        (Some(total), Some(graph)) => {
            let _ = writeln!(
                out,
                "device memory: {total} bytes ({}; graph {}, {} {}; allocated by warpath, computed)",
                mib(total),
                mib(graph),
                lines.workspace,
                mib(total.saturating_sub(graph))
            );
        }
        (None, Some(graph)) => {
            let _ = writeln!(out, "device memory: {graph} bytes for the graph ({})", mib(graph));
        }
        _ => {}
    }
    if let Some(layout) = &report.graph_on_gpu {
        let _ = writeln!(
            out,
            "graph on the GPU: {} ({}), {} lists, {} ({}; the plain CSR takes {}, ratio {:.2})",
            layout.placement,
            match &layout.offsets_placement {
                Some(offsets) if layout.list_heads => format!("offsets and first in-neighbors {offsets}"),
                Some(offsets) => format!("offsets {offsets}"),
                None => "offsets with the lists".into(),
            },
            if layout.compressed { "compressed" } else { "plain" },
            layout.stored_bytes,
            mib(layout.stored_bytes),
            mib(layout.plain_bytes),
            layout.stored_bytes as f64 / layout.plain_bytes.max(1) as f64
        );
    }
    out
}

/// The summary lines every algorithm has: the spread of the trials' times, alone and end to
/// end, and the harmonic mean of their rates (`rate`, e.g. `GTEPS`, counting `counted`).
pub fn timing_lines<S>(summary: &Summary<S>, rate: &str, counted: &str) -> String {
    format!(
        "time: {}\nend-to-end: {}\n{rate}: {:.3} (harmonic mean; {counted})\n",
        spread_ms(&summary.time_ms),
        spread_ms(&summary.end_to_end_ms),
        summary.hmean_gteps
    )
}

/// A BFS report: the [`header`], the per-root table, the summary, and the trace when there
/// is one.
pub fn render(report: &BenchReport) -> String {
    let s = &report.summary;
    let g = &report.graph;
    let mut how_it_ran = String::new();
    if let Some(kernel) = &report.flags.gpu_kernel {
        let tuning = match &report.payload.gpu_params {
            Some(p) => format!(
                " (persistent; {} rule, alpha {}, beta {}, {} frontier generation, bottom-up {}, small-frontier path {}, bottom-up balance {}{}, first bottom-up level {})",
                p.switch_rule,
                p.alpha,
                p.beta,
                if p.adaptive_frontier { "adaptive" } else { "fixed" },
                if p.bottom_up { "on" } else { "off" },
                if p.small_frontiers { "on" } else { "off" },
                p.bottom_up_balance,
                if p.async_bottom_up { ", async bottom-up on".to_string() } else { chunk_note(p.bottom_up_chunk) },
                p.bottom_up_launch.name()
            ),
            None if kernel == "per-level" => " (one launch per level)".into(),
            None if kernel == "cluster" => " (top-down, one launch of one thread-block cluster)".into(),
            None => " (top-down over edge queues, one persistent launch)".into(),
        };
        let _ = writeln!(how_it_ran, "gpu kernel: {kernel}{tuning}");
    }
    if report.payload.distances_only {
        let _ = writeln!(how_it_ran, "labels: distances only (no parents; validated by the distance rules)");
    }
    let lines = HeaderLines { how_it_ran: &how_it_ran, directed_edges: DIRECTED_IN_EDGES, workspace: "BFS arrays" };
    let mut out = header(report, &lines);
    let _ = writeln!(out);
    out.push_str(&roots_table(&report.trials));
    let _ = writeln!(out);
    let _ = writeln!(out, "roots: {} (seed {}; one untimed warm-up)", s.trials, report.flags.seed);
    out.push_str(&timing_lines(s, "GTEPS", "directed edges in the reached component"));
    let _ = writeln!(
        out,
        "GTEPS (Graph500): {:.3} (harmonic mean; {} in the reached component)",
        s.details.hmean_graph500_gteps,
        if g.undirected { "undirected input edges" } else { "directed input edges" }
    );
    if let Some(note) = small_component_note(&report.trials) {
        let _ = writeln!(out, "{note}");
    }
    let _ = writeln!(out, "depth: {}", spread_count(&s.details.depth));
    let _ = writeln!(out, "reached: {}", spread_count(&s.details.reached));
    let _ = writeln!(out, "verified: ok ({}/{} traversals validated)", s.validated, s.trials);
    let _ = writeln!(out);
    out.push_str(&stage_lines(report));
    if let Some(trace) = &report.payload.trace {
        let _ = writeln!(out);
        let _ = writeln!(out, "trace of root {} ({:.3} ms traced):", trace.source, trace.time_ms);
        if let Some(factor) = trace.redundant_expansion {
            let _ = writeln!(out, "redundant expansion factor: {factor:.4} (vertices enqueued / vertices reached)");
        }
        out.push_str(&levels_table(&trace.levels));
    }
    if let Some(bus) = &report.payload.bus {
        out.push_str(&bus_lines(bus));
    }
    out
}

/// Arrays below this are not listed under the placement (they still count in its rest).
const PLACEMENT_LINE_MIN_BYTES: u64 = 1 << 20;

/// The stages a bench run pays once, whatever the algorithm: read, build and the graph's
/// placement on the GPU (by array), each against the bus where it crosses it.
pub fn once_lines<D, S, P>(report: &Report<D, S, P>) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "stages, once per run:");
    match &report.load {
        Some(load) => {
            let _ = writeln!(out, "  {:<20} {:>10.1} ms", "read", load.read_ms);
            let _ = writeln!(out, "  {:<20} {:>10.1} ms", "build", load.build_ms);
        }
        None => {
            let _ = writeln!(out, "  {:<20} {:>10.1} ms", "load (read + build)", report.load_ms);
        }
    }
    if let Some(place) = &report.placement {
        let _ = writeln!(
            out,
            "  {:<20} {:>10.1} ms  {:>12} bytes  {:>7.2} GB/s  ({}; {:.0}% of the pinned host-to-device {:.2} GB/s)",
            "place",
            place.ms,
            place.bytes,
            place.bytes_per_s / 1e9,
            place.placement,
            100.0 * place.bytes_per_s / place.pinned_host_to_device_bytes_per_s,
            place.pinned_host_to_device_bytes_per_s / 1e9
        );
        // Where the placement went, by array; the rest is host work and waiting.
        for copy in place.copies.iter().filter(|copy| copy.bytes >= PLACEMENT_LINE_MIN_BYTES) {
            let seconds = (copy.allocate_ms + copy.copy_ms) / 1e3;
            let _ = writeln!(
                out,
                "    {:<34} {:>12} bytes  {:>7.2} GB/s  {:<11} allocate {:.1} ms, copy {:.1} ms",
                copy.what,
                copy.bytes,
                copy.bytes as f64 / seconds.max(1e-9) / 1e9,
                copy.path,
                copy.allocate_ms,
                copy.copy_ms
            );
        }
        if !place.copies.is_empty() {
            let arrays: f64 = place.copies.iter().map(|copy| copy.allocate_ms + copy.copy_ms).sum();
            let _ = writeln!(
                out,
                "    {:<34} {:>10.1} ms  (host work and waits beside the {} arrays' {:.1} ms)",
                "the rest",
                place.ms - arrays,
                place.copies.len(),
                arrays
            );
        }
    }
    out
}

/// The stage table of a BFS report: read, build and placement once, then the median root's
/// traversal, download and end-to-end time, each copy against the pinned bandwidth. A report
/// written before schema version 5 has the load as one stage.
pub fn stage_lines(report: &BenchReport) -> String {
    let mut out = once_lines(report);
    let column = |f: fn(&crate::bench::RootRecord) -> f64| report.trials.iter().map(f).collect::<Vec<f64>>();
    let (Some(traverse), Some(download), Some(end_to_end)) = (
        median(&column(|r| r.time_ms)),
        median(&column(|r| r.details.download_ms)),
        median(&column(|r| r.end_to_end_ms)),
    ) else {
        return out;
    };
    let _ = writeln!(out, "stages, per root (median of {}):", report.trials.len());
    let _ = writeln!(out, "  {:<20} {:>10.3} ms", "traverse", traverse);
    let bytes = report.trials.first().map_or(0, |r| r.details.download_bytes);
    if bytes > 0 {
        let rate = bytes as f64 / (download / 1e3);
        let against = match &report.placement {
            Some(place) => format!(
                " ({:.0}% of the pinned device-to-host {:.2} GB/s)",
                100.0 * rate / place.pinned_device_to_host_bytes_per_s,
                place.pinned_device_to_host_bytes_per_s / 1e9
            ),
            None => String::new(),
        };
        let _ = writeln!(
            out,
            "  {:<20} {:>10.3} ms  {:>12} bytes  {:>7.2} GB/s{against}",
            "download",
            download,
            bytes,
            rate / 1e9
        );
    }
    let _ = writeln!(
        out,
        "  {:<20} {:>10.3} ms  (beyond traverse + download: {:.3} ms)",
        "end-to-end",
        end_to_end,
        end_to_end - traverse - download
    );
    out
}

/// What the traced BFS moved over the bus, against the bus's measured copy bandwidth.
pub fn bus_lines(bus: &BusRecord) -> String {
    let seconds = bus.time_ms / 1e3;
    let floor_ms = bus.bus_bytes as f64 / bus.copy_bytes_per_s * 1e3;
    format!(
        "bus: host-to-device copy bandwidth {:.1} GB/s (pinned, this run)\n\
         bus: the traced BFS read {} bytes of offsets and lists ({}), {} bytes in 32-byte sectors ({:.2}x)\n\
         bus: of those reads, {} bytes were neighbor lists ({}): the sectors are {:.2}x the list bytes\n\
         bus: {:.3} ms at {:.1} GB/s = {:.0}% of the copy bandwidth; sectors / bandwidth = {:.3} ms, so {:.2}x that floor\n",
        bus.copy_bytes_per_s / 1e9,
        bus.list_bytes,
        mib(bus.list_bytes),
        bus.bus_bytes,
        bus.bus_bytes as f64 / bus.list_bytes.max(1) as f64,
        bus.edge_list_bytes,
        mib(bus.edge_list_bytes),
        bus.bus_bytes as f64 / bus.edge_list_bytes.max(1) as f64,
        bus.time_ms,
        bus.bus_bytes as f64 / seconds / 1e9,
        100.0 * bus.bus_bytes as f64 / seconds / bus.copy_bytes_per_s,
        floor_ms,
        bus.time_ms / floor_ms
    )
}

/// One row per root.
pub fn roots_table(roots: &[RootRecord]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>5} {:>12} {:>10} {:>14} {:>6} {:>12} {:>14} {:>14} {:>8} {:>10}",
        "run", "root", "time (ms)", "end-to-end", "depth", "reached", "edges", "Graph500 edges", "GTEPS", "G500 GTEPS"
    );
    for (i, r) in roots.iter().enumerate() {
        let _ = writeln!(
            out,
            "{:>5} {:>12} {:>10.3} {:>14.3} {:>6} {:>12} {:>14} {:>14} {:>8.3} {:>10.3}",
            i + 1,
            r.source.map_or_else(|| "-".to_string(), |root| root.to_string()),
            r.time_ms,
            r.end_to_end_ms,
            r.details.depth,
            r.details.reached,
            r.edges,
            r.details.graph500_edges,
            r.gteps,
            r.details.graph500_gteps
        );
    }
    out
}

/// One row per BFS level.
pub fn levels_table(levels: &[LevelRecord]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:>6} {:>10} {:>12} {:>16} {:>14} {:>14} {:>10}",
        "level", "direction", "frontier", "edges inspected", "bytes read", "bus bytes", "time (ms)"
    );
    for l in levels {
        let _ = writeln!(
            out,
            "{:>6} {:>10} {:>12} {:>16} {:>14} {:>14} {:>10.3}",
            l.level, l.direction, l.frontier, l.edges_inspected, l.bytes_read, l.bus_bytes, l.time_ms
        );
    }
    // The switching rule's inputs and verdict, and the frontier generation, where recorded:
    // a second table keeps the first one's columns (which scripts read) as they were.
    if levels.iter().any(|l| l.decision.is_some() || l.generation.is_some()) {
        let _ = writeln!(out, "switching and frontier generation:");
        let _ = writeln!(out, "{:>6} {:>14} {:>14}  {:<34} decision", "level", "m_f", "m_u", "frontier generation");
        for l in levels {
            let _ = writeln!(
                out,
                "{:>6} {:>14} {:>14}  {:<34} {}",
                l.level,
                l.frontier_edges,
                l.unvisited_edges,
                l.generation.as_deref().unwrap_or("-"),
                l.decision.as_deref().unwrap_or("-")
            );
        }
    }
    out
}

/// Bytes as MiB with one decimal.
pub fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / 1048576.0)
}

fn spread_ms(s: &Spread) -> String {
    format!("min {:.3} ms, median {:.3} ms, max {:.3} ms", s.min, s.median, s.max)
}

fn spread_count(s: &Spread) -> String {
    // The median of an even sample can fall between two integers.
    let median = if s.median.fract() == 0.0 { format!("{}", s.median) } else { format!("{:.1}", s.median) };
    format!("min {}, median {median}, max {}", s.min, s.max)
}

/// A harmonic mean is pulled toward its smallest term: a root in a component of a few edges
/// (a random vertex of a graph with many components) takes the mean near zero. Says so,
/// with the median, when some root's rate is under 1% of the median's; None otherwise.
fn small_component_note(roots: &[RootRecord]) -> Option<String> {
    let rates: Vec<f64> = roots.iter().map(|r| r.gteps).collect();
    let typical = median(&rates)?;
    let small: Vec<&RootRecord> = roots.iter().filter(|r| r.gteps < 0.01 * typical).collect();
    let fewest = small.iter().map(|r| r.edges).min()?;
    Some(format!(
        "GTEPS note: {} of {} roots reached small components (the smallest has {fewest} edges), which pull the \
         harmonic means down; median GTEPS over the roots: {typical:.3}",
        small.len(),
        roots.len()
    ))
}

/// How a report names a bottom-up chunk width other than the kernel's choice.
fn chunk_note(words: u32) -> String {
    match words {
        0 => String::new(),
        1 => ", one bitmap word at a time".into(),
        words => format!(", chunks of {words} bitmap words"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::bfs::BfsTrial;

    fn root(edges: u64, time_ms: f64) -> RootRecord {
        let gteps = edges as f64 / (time_ms / 1e3) / 1e9;
        RootRecord {
            source: Some(0),
            time_ms,
            end_to_end_ms: time_ms,
            edges,
            gteps,
            details: BfsTrial {
                depth: 3,
                reached: edges / 4 + 1,
                graph500_edges: edges,
                graph500_gteps: gteps,
                download_ms: 0.0,
                download_bytes: 0,
            },
        }
    }

    #[test]
    fn a_root_in_a_tiny_component_is_named_beside_the_harmonic_means() {
        let big = [root(360_000, 1.0), root(360_000, 1.2), root(360_000, 0.9)];
        assert_eq!(small_component_note(&big), None);
        let mut mixed = big.to_vec();
        mixed.push(root(2, 0.15));
        let note = small_component_note(&mixed).unwrap();
        assert!(note.contains("1 of 4 roots") && note.contains("has 2 edges"), "{note}");
        assert!(note.contains("median GTEPS over the roots: 0.330"), "{note}");
        assert_eq!(small_component_note(&[]), None);
    }
}
