//! The `warpath` command as a user meets it: exit codes, one-line errors naming the problem,
//! the `bfs` printout and its `--out` file. CPU backend only, so it runs everywhere.

use crate::common;

use std::process::Output;

use common::{assert_one_line_error, bench_report, stderr, stdout, warpath, Scratch};

#[test]
fn bfs_prints_the_contract_and_verifies() {
    let out = warpath(&["bfs", "grid2d:20x10", "--backend", "cpu", "--verify", "--source", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for line in
        ["backend: cpu", "source: 0", "vertices: 200", "edges: 740", "reached: 200", "depth: 28", "verified: ok"]
    {
        assert!(text.lines().any(|l| l.starts_with(line)), "`{line}` missing from:\n{text}");
    }
    assert!(text.lines().any(|l| l.starts_with("time: ") && l.ends_with(" ms")), "{text}");
    assert!(text.lines().any(|l| l.starts_with("GTEPS: ")), "{text}");
}

#[test]
fn bfs_out_file_uses_the_files_ids_and_marks_unreached_vertices() {
    let written = bfs_out_of_small_directed_graph("cli-out", &[]);
    assert_eq!(written, "1 0 1\n2 1 1\n3 2 2\n4 -1 -1\n");
}

/// `bfs --source 1 --backend cpu --verify --out FILE` plus `extra` on a directed, 1-based DIMACS
/// graph: 1 -> 2 -> 3, and 4 -> 1 (4 is unreachable from 1). Returns what FILE holds.
fn bfs_out_of_small_directed_graph(scratch_name: &str, extra: &[&str]) -> String {
    let scratch = Scratch::new(scratch_name);
    let graph = scratch.file("g.gr", b"p sp 4 3\na 1 2 7\na 2 3 7\na 4 1 7\n");
    let out_path = scratch.path("bfs.txt");
    let common = [
        "bfs",
        graph.to_str().unwrap(),
        "--source",
        "1",
        "--backend",
        "cpu",
        "--verify",
        "--out",
        out_path.to_str().unwrap(),
    ];
    let out = warpath(&[&common[..], extra].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    std::fs::read_to_string(&out_path).unwrap()
}

#[test]
fn gapbs_spellings_of_the_source_and_the_trials_are_accepted() {
    for command in ["bfs", "sssp"] {
        for flag in ["--source", "-r", "--root"] {
            let out = warpath(&[command, "grid2d:4", "--backend", "cpu", "--verify", flag, "5"]);
            assert!(out.status.success(), "{command} {flag}: {}", stderr(&out));
            assert!(stdout(&out).lines().any(|l| l == "source: 5"), "{command} {flag}: {}", stdout(&out));
        }
        let help = stdout(&warpath(&[command, "-h"]));
        assert!(help.contains("-r, --source <V>") && help.contains("--root"), "{command}: {help}");
    }
    // GAPBS's -n is the number of trials: bench's --roots.
    let out = warpath(&["bench", "grid2d:4", "--backend", "cpu", "-n", "2"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).lines().any(|l| l.starts_with("roots: 2 ")), "{}", stdout(&out));
}

#[test]
fn a_negative_source_is_a_range_error_not_an_unknown_option() {
    for command in ["bfs", "sssp"] {
        for flag in ["--source", "-r", "--root"] {
            let out = warpath(&[command, "grid2d:4", "--backend", "cpu", flag, "-1"]);
            assert_one_line_error(&out, &["-1", "a vertex id is a non-negative integer", "from 0, or from 1"]);
            assert!(!stderr(&out).contains("-- -1"), "{command} {flag}: {}", stderr(&out));
        }
        let out = warpath(&[command, "grid2d:4", "--backend", "cpu", "--source=-7"]);
        assert_one_line_error(&out, &["--source", "not -7"]);
        let out = warpath(&[command, "grid2d:4", "--backend", "cpu", "--source", "first"]);
        assert_one_line_error(&out, &["--source", "`first` is not a vertex id"]);
    }
}

#[test]
fn a_malformed_file_names_the_file_and_line() {
    let scratch = Scratch::new("cli-malformed");
    let graph = scratch.file("bad.mtx", b"%%MatrixMarket matrix coordinate pattern general\n3 3 2\n1 2\n2 x\n");
    let out = warpath(&["bfs", graph.to_str().unwrap(), "--backend", "cpu"]);
    assert_one_line_error(&out, &["bad.mtx:4:", "expected"]);
}

#[test]
fn a_truncated_file_is_an_error_not_a_panic() {
    let scratch = Scratch::new("cli-truncated");
    let graph = scratch.file("short.mtx", b"%%MatrixMarket matrix coordinate pattern general\n3 3 5\n1 2\n2 3\n");
    let out = warpath(&["info", graph.to_str().unwrap()]);
    assert_one_line_error(&out, &["short.mtx"]);
}

#[test]
fn an_unknown_format_lists_the_supported_ones() {
    let scratch = Scratch::new("cli-format");
    let graph = scratch.file("graph.xyz", b"1 2\n");
    let out = warpath(&["info", graph.to_str().unwrap()]);
    assert_one_line_error(&out, &["graph.xyz", ".mtx"]);
}

#[test]
fn out_of_range_and_isolated_sources_are_reported_as_such() {
    let out = warpath(&["bfs", "grid2d:4", "--source", "16", "--backend", "cpu"]);
    assert_one_line_error(&out, &["source vertex 16", "out of range", "0..=15"]);

    let scratch = Scratch::new("cli-isolated");
    let graph = scratch.file("g.txt", b"0 1\n1 0\n3 0\n");
    let out = warpath(&["bfs", graph.to_str().unwrap(), "--source", "2", "--backend", "cpu"]);
    assert_one_line_error(&out, &["source vertex 2", "no outgoing edges"]);
}

#[test]
fn a_bad_generator_spec_says_what_form_is_expected() {
    let out = warpath(&["bfs", "kron:abc", "--backend", "cpu"]);
    assert_one_line_error(&out, &["kron"]);
}

#[test]
fn convert_writes_a_wgr_that_bfs_reads_back() {
    let scratch = Scratch::new("cli-convert");
    let wgr = scratch.path("g.wgr");
    let out = warpath(&["convert", "kron:8", wgr.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let direct = warpath(&["bfs", "kron:8", "--backend", "cpu", "--source", "3"]);
    let converted = warpath(&["bfs", wgr.to_str().unwrap(), "--backend", "cpu", "--source", "3"]);
    let facts = |out: &Output| -> Vec<String> {
        stdout(out)
            .lines()
            .filter(|l| l.starts_with("reached:") || l.starts_with("depth:") || l.starts_with("edges:"))
            .map(String::from)
            .collect()
    };
    assert_eq!(facts(&direct), facts(&converted));
    assert_eq!(facts(&direct).len(), 3);
}

#[test]
fn convert_writes_a_text_edge_list_that_bfs_reads_back_undirected() {
    let scratch = Scratch::new("cli-convert-text");
    let text = scratch.path("g.el.gz");
    let out = warpath(&["convert", "kron:8", text.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains("--undirected"), "{}", stdout(&out));
    let direct = warpath(&["bfs", "kron:8", "--backend", "cpu", "--source", "3"]);
    let read = warpath(&["bfs", text.to_str().unwrap(), "--undirected", "--backend", "cpu", "--source", "3"]);
    let reached = |out: &Output| stdout(out).lines().find(|l| l.starts_with("reached:")).map(String::from);
    assert!(reached(&direct).is_some());
    assert_eq!(reached(&direct), reached(&read));
    let refused = warpath(&["convert", "kron:8", scratch.path("g.mtx").to_str().unwrap()]);
    assert_one_line_error(&refused, &["g.mtx", ".el"]);
}

#[test]
fn requiring_the_gpu_without_one_is_a_clear_error() {
    if warpath::gpu::GpuContext::new().is_ok() {
        common::say_skipping("requiring_the_gpu_without_one_is_a_clear_error", "this machine has a GPU");
        return;
    }
    let out = warpath(&["bfs", "grid2d:4", "--backend", "gpu"]);
    assert_one_line_error(&out, &["GPU", "no", "; use --backend cpu"]);
}

#[test]
fn auto_falls_back_to_the_cpu_and_says_why() {
    if warpath::gpu::GpuContext::new().is_ok() {
        common::say_skipping("auto_falls_back_to_the_cpu_and_says_why", "this machine has a GPU");
        return;
    }
    let out = warpath(&["bfs", "grid2d:4", "--verify"]);
    assert!(out.status.success());
    assert!(stderr(&out).contains("warning: no usable GPU"), "{}", stderr(&out));
    assert!(stdout(&out).contains("backend: cpu"));
    assert!(stdout(&out).contains("verified: ok"));
}

#[test]
fn bottom_up_balance_takes_static_thread_or_warp() {
    // A bad value is clap's usage error, listing the choices, before any graph is loaded.
    for command in ["bfs", "bench"] {
        let out = warpath(&[command, "grid2d:4", "--backend", "cpu", "--bottom-up-balance", "dynamic"]);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(2), "{command}: {err}");
        for needle in ["--bottom-up-balance", "dynamic", "static", "thread", "warp"] {
            assert!(err.contains(needle), "{command}: `{needle}` missing from: {err}");
        }
    }
    // Every good value is accepted (the CPU backend ignores it).
    for balance in ["static", "thread", "warp"] {
        let out = warpath(&["bfs", "grid2d:8", "--backend", "cpu", "--verify", "--bottom-up-balance", balance]);
        assert!(out.status.success(), "{balance}: {}", stderr(&out));
        assert!(stdout(&out).contains("verified: ok"), "{balance}: {}", stdout(&out));
    }
}

#[test]
fn async_bottom_up_is_a_switch_of_bfs_and_bench() {
    // Accepted by both commands (the CPU backend ignores it); a value is a usage error.
    for command in ["bfs", "bench"] {
        let extra = if command == "bfs" { "--verify" } else { "--roots=2" };
        let out = warpath(&[command, "grid2d:8", "--backend", "cpu", extra, "--async-bottom-up"]);
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        let out = warpath(&[command, "grid2d:4", "--backend", "cpu", "--async-bottom-up=yes"]);
        assert_eq!(out.status.code(), Some(2), "{command}: {}", stderr(&out));
        assert!(stderr(&out).contains("--async-bottom-up"), "{command}: {}", stderr(&out));
    }
}

#[test]
fn bfs_distances_only_verifies_the_distances_and_writes_no_parents() {
    let out = warpath(&["bfs", "kron:10", "--backend", "cpu", "--distances-only", "--verify", "--source", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for line in ["backend: cpu", "labels: distances only", "verified: ok (distances"] {
        assert!(text.lines().any(|l| l.starts_with(line)), "`{line}` missing from:\n{text}");
    }
    // The same reached count and depth as with parents.
    let full = stdout(&warpath(&["bfs", "kron:10", "--backend", "cpu", "--verify", "--source", "0"]));
    assert!(!full.contains("labels:"), "{full}");
    let facts = |text: &str| -> Vec<String> {
        text.lines().filter(|l| l.starts_with("reached:") || l.starts_with("depth:")).map(String::from).collect()
    };
    assert_eq!(facts(&text), facts(&full));
    assert_eq!(facts(&text).len(), 2);

    // --out: `vertex distance` under a header naming the columns; 4 is unreachable from 1.
    let written = bfs_out_of_small_directed_graph("cli-distances-only", &["--distances-only"]);
    assert_eq!(written, "# vertex distance (distances only: no parents; -1 for unreached)\n1 0\n2 1\n3 2\n4 -1\n");
}

#[test]
fn bench_distances_only_validates_and_records_the_variant() {
    let scratch = Scratch::new("cli-bench-distances-only");
    let json = scratch.path("bench.json");
    let out = warpath(&[
        "bench",
        "kron:10",
        "--backend",
        "cpu",
        "--roots",
        "4",
        "--distances-only",
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.lines().any(|l| l.starts_with("labels: distances only")), "{text}");
    let report = bench_report(&json);
    assert_eq!(report["payload"]["distances_only"], serde_json::Value::Bool(true), "{report}");
    assert_eq!(report["summary"]["validated"], 4, "{report}");

    let out = warpath(&["bench", "kron:10", "--backend", "cpu", "--roots", "2", "--json", json.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let report = bench_report(&json);
    assert_eq!(report["payload"]["distances_only"], serde_json::Value::Bool(false), "{report}");
}

#[test]
fn short_help_is_one_line_a_flag_and_long_help_explains() {
    for command in ["bfs", "bench", "suite", "info", "convert"] {
        let out = warpath(&[command, "-h"]);
        assert!(out.status.success(), "{command}: {}", stderr(&out));
        let short = stdout(&out);
        // After the usage line, every line is blank, a heading (`Options:`, `GPU tuning:`), or
        // starts with a flag or argument: no flag's help runs on to a second line.
        for line in short.lines().skip_while(|l| !l.is_empty()) {
            let flag_or_argument = line.starts_with("  -") || line.starts_with("      --") || line.starts_with("  <");
            let heading = !line.starts_with(' ') && (line.ends_with(':') || line.starts_with("Usage:"));
            assert!(line.is_empty() || heading || flag_or_argument, "{command} -h: `{line}` in:\n{short}");
        }
        let long = stdout(&warpath(&[command, "--help"]));
        assert!(long.lines().count() > short.lines().count(), "{command}: --help is the long text");
    }
    let short = stdout(&warpath(&["bfs", "-h"]));
    for needle in ["--backend", "--vram-budget", "--gpu-kernel"] {
        assert!(short.contains(needle), "`{needle}` missing from bfs -h:\n{short}");
    }
    // The kernels' tuning is in --help only, under its heading; its texts point to
    // docs/tuning.md instead of quoting measurements.
    let long = stdout(&warpath(&["bfs", "--help"]));
    assert!(long.contains("GPU tuning:") && long.contains("--alpha") && !short.contains("--alpha"), "{long}");
    assert!(long.contains("docs/tuning.md"), "{long}");
    assert!(!long.contains("bench/NOTES.md, entry"), "{long}");
}

#[test]
fn bfs_bench_and_suite_take_the_same_kernel_names() {
    let names = ["direction-optimizing", "top-down", "contract-expand", "two-phase", "hybrid", "per-level"];
    for name in names.iter().chain(&["auto", "persistent"]) {
        for command in ["bfs", "bench"] {
            let extra = if command == "bfs" { "--verify" } else { "--roots=1" };
            let out = warpath(&[command, "grid2d:6", "--backend", "cpu", extra, "--gpu-kernel", name]);
            assert!(out.status.success(), "{command} --gpu-kernel {name}: {}", stderr(&out));
        }
    }
    let out = warpath(&["bfs", "grid2d:6", "--backend", "cpu", "--gpu-kernel", "bottom-up"]);
    assert_eq!(out.status.code(), Some(2));
    for name in names {
        assert!(stderr(&out).contains(name), "`{name}` missing from: {}", stderr(&out));
    }
    let scratch = Scratch::new("cli-suite-kernels");
    let out = warpath(&[
        "suite",
        "--quick",
        "--no-gpu",
        "--roots",
        "1",
        "--only",
        "grid2d",
        "--gpu-kernels",
        &names.join(","),
        "--out-dir",
        scratch.path("out").to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let out = warpath(&["suite", "--quick", "--no-gpu", "--gpu-kernels", "top-down,bottom-up"]);
    assert_one_line_error(&out, &["`bottom-up`", "per-level"]);
}

#[test]
fn tuning_options_for_another_kernel_are_refused_in_one_line() {
    // Refused before the graph is loaded, on any backend: the kernel was named.
    let out = warpath(&["bench", "grid2d:4", "--backend", "cpu", "--gpu-kernel", "hybrid", "--alpha", "0.5"]);
    assert_one_line_error(&out, &["--alpha", "hybrid", "--gpu-kernel direction-optimizing"]);
    let out = warpath(&["bfs", "grid2d:4", "--backend", "cpu", "--top-down", "--switch", "beamer"]);
    assert_one_line_error(&out, &["--switch", "top-down only"]);
    // The old spellings the GPU scripts use still work.
    let persistent_top_down = ["--gpu-kernel", "persistent", "--top-down"];
    let out = warpath(&[&["bench", "grid2d:6", "--backend", "cpu", "--roots=1"][..], &persistent_top_down].concat());
    assert!(out.status.success(), "{}", stderr(&out));
    let out = warpath(&["bench", "grid2d:6", "--backend", "cpu", "--roots=1", "--strategy", "two-phase"]);
    assert!(out.status.success(), "{}", stderr(&out));
}

/// `bfs --out` on a small graph, to whatever `out` names; the run's output.
fn bfs_out_to(out: &std::path::Path) -> Output {
    warpath(&["bfs", "grid2d:3x2", "--backend", "cpu", "--source", "0", "--out", out.to_str().unwrap()])
}

/// Runs a setup command (mkfifo, mknod); false where it cannot run or is refused.
fn setup_command(program: &str, args: &[&std::ffi::OsStr]) -> bool {
    std::process::Command::new(program).args(args).status().is_ok_and(|s| s.success())
}

/// What `bfs --source 0` on grid2d:3x2 writes: `vertex distance parent`, one line a vertex.
const GRID_3X2_OUT: &str = "0 0 0\n1 1 0\n2 2 1\n3 1 0\n4 2 1\n5 3 2\n";

#[test]
fn out_dash_writes_to_standard_output() {
    let out = warpath(&["bfs", "grid2d:3x2", "--backend", "cpu", "--source", "0", "--out", "-"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(stdout(&out).contains(GRID_3X2_OUT), "{}", stdout(&out));
    assert!(!std::path::Path::new("-").exists(), "no file named -");
}

#[test]
fn out_to_a_fifo_streams_to_its_reader_and_leaves_the_fifo() {
    use std::os::unix::fs::FileTypeExt;
    let scratch = Scratch::new("cli-out-fifo");
    let fifo = scratch.path("pipe");
    if !setup_command("mkfifo", &[fifo.as_os_str()]) {
        eprintln!("skipped: mkfifo could not make a FIFO here");
        return;
    }
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = bfs_out_to(&fifo);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(reader.join().unwrap(), GRID_3X2_OUT);
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO was replaced");
    assert_eq!(std::fs::read_dir(&scratch.dir).unwrap().count(), 1, "nothing beside it");
}

#[test]
fn out_through_a_symbolic_link_writes_its_target_and_keeps_the_link() {
    let scratch = Scratch::new("cli-out-link");
    let target = scratch.file("result.txt", b"old\n");
    let link = scratch.path("link.txt");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = bfs_out_to(&link);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link was replaced");
    assert_eq!(std::fs::read_to_string(&target).unwrap(), GRID_3X2_OUT);
}

#[test]
fn out_to_a_character_device_writes_it_in_place() {
    use std::os::unix::fs::FileTypeExt;
    let scratch = Scratch::new("cli-out-device");
    let device = scratch.path("null");
    // A device like /dev/null (1, 3) in the test's own folder: the real one is never risked.
    if !setup_command("mknod", &[device.as_os_str(), "c".as_ref(), "1".as_ref(), "3".as_ref()]) {
        eprintln!("skipped: mknod is not permitted here (it needs CAP_MKNOD)");
        return;
    }
    let out = bfs_out_to(&device);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(std::fs::symlink_metadata(&device).unwrap().file_type().is_char_device(), "the device was replaced");
    assert_eq!(std::fs::read_dir(&scratch.dir).unwrap().count(), 1, "nothing beside it");
}

#[test]
fn an_interrupted_convert_leaves_no_temporary_and_dies_by_the_signal() {
    use std::os::unix::process::ExitStatusExt;
    let scratch = Scratch::new("cli-interrupt");
    let target = scratch.path("big.el");
    // Large enough to be caught while it writes (hundreds of MB of text on 2 cores).
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_warpath"))
        .args(["convert", "kron:20", target.to_str().unwrap()])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let temporary = || {
        std::fs::read_dir(&scratch.dir).unwrap().filter_map(|e| e.ok()).any(|e| {
            e.file_name().to_string_lossy().starts_with(".warpath-") && e.metadata().is_ok_and(|m| m.len() > 0)
        })
    };
    while !temporary() {
        assert!(child.try_wait().unwrap().is_none(), "convert ended before it could be interrupted");
        assert!(started.elapsed().as_secs() < 120, "no temporary appeared");
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    assert!(setup_command("kill", &["-INT".as_ref(), child.id().to_string().as_ref()]));
    let status = child.wait().unwrap();
    assert_eq!(status.signal(), Some(2), "ended by SIGINT, as the shell expects: {status:?}");
    let left: Vec<_> = std::fs::read_dir(&scratch.dir).unwrap().filter_map(|e| e.ok()).map(|e| e.file_name()).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Runs `warpath ARGS` with `input` on its standard input.
fn warpath_fed(args: &[&str], input: &[u8]) -> Output {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_warpath"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run warpath");
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    // Written from a thread: a refusing warpath may exit before reading, and a large input
    // must not fill the pipe while warpath waits for us.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("wait for warpath");
    writer.join().unwrap();
    out
}

fn gzipped(bytes: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A directed cycle 0 -> 1 -> 2 -> 3 -> 0 and a vertex 4 reached from 3.
const CYCLE_EL: &[u8] = b"0 1\n1 2\n2 3\n3 0\n3 4\n";

/// `key: value` lines' value.
fn field<'a>(text: &'a str, key: &str) -> &'a str {
    let prefix = format!("{key}: ");
    text.lines().find_map(|l| l.strip_prefix(prefix.as_str())).unwrap_or_else(|| panic!("no `{key}` in:\n{text}"))
}

#[test]
fn a_graph_is_read_from_standard_input_with_format_plain_or_gzipped() {
    for input in [CYCLE_EL.to_vec(), gzipped(CYCLE_EL)] {
        let out = warpath_fed(&["bfs", "-", "--format", "el", "--backend", "cpu", "--verify", "--source", "0"], &input);
        assert!(out.status.success(), "{}", stderr(&out));
        let text = stdout(&out);
        assert_eq!((field(&text, "reached"), field(&text, "verified")), ("5", "ok"), "{text}");
    }
    let mtx = b"%%MatrixMarket matrix coordinate integer symmetric\n4 4 3\n2 1 5\n3 2 7\n4 3 9\n";
    let out = warpath_fed(&["info", "-", "--format", "mtx"], mtx);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(field(&text, "graph"), "-");
    assert_eq!(field(&text, "vertices"), "4");
    assert_eq!(field(&text, "undirected edges"), "3");
    assert_eq!(field(&text, "weights"), "u32 weights from 5 to 9");
    // A .wgr is read from a stream in order, as a .wgr.gz always was.
    let scratch = Scratch::new("cli-stdin-wgr");
    let wgr = scratch.path("g.wgr");
    assert!(warpath(&["convert", "grid2d:5", wgr.to_str().unwrap()]).status.success());
    let out =
        warpath_fed(&["cc", "-", "--format", "wgr", "--backend", "cpu", "--verify"], &std::fs::read(&wgr).unwrap());
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(field(&stdout(&out), "vertices"), "25");
    // Errors name standard input.
    let out = warpath_fed(&["bfs", "-", "--format", "el", "--backend", "cpu"], b"0 1\n1 x\n");
    assert_one_line_error(&out, &["standard input:2:"]);
}

#[test]
fn standard_input_without_format_is_refused_naming_the_flag() {
    let out = warpath_fed(&["bfs", "-", "--backend", "cpu"], CYCLE_EL);
    assert_one_line_error(&out, &["-:", "standard input", "--format el|wel|mtx|gr|wgr"]);
    let out = warpath_fed(&["info", "-"], CYCLE_EL);
    assert_one_line_error(&out, &["--format"]);
}

#[test]
fn format_overrides_the_name_and_tells_gzip_by_the_bytes() {
    let scratch = Scratch::new("cli-format");
    // A weighted edge list named .txt: by its name, three columns are refused.
    let data = scratch.file("data.txt", b"0 1 4\n1 2 6\n");
    let d = data.to_str().unwrap();
    assert_one_line_error(&warpath(&["info", d]), &["data.txt:1:", "found 3 columns"]);
    let text = stdout(&warpath(&["info", d, "--format", "wel"]));
    assert_eq!(field(&text, "weights"), "u32 weights from 4 to 6", "{text}");
    // A gzipped file whose name says neither its format nor gzip.
    let blob = scratch.path("graph.bin");
    std::fs::write(&blob, gzipped(CYCLE_EL)).unwrap();
    let b = blob.to_str().unwrap();
    assert_one_line_error(&warpath(&["bfs", b, "--backend", "cpu"]), &["graph.bin", "--format el|wel|mtx|gr|wgr"]);
    let out = warpath(&["bfs", b, "--format", "el", "--backend", "cpu", "--verify", "--source", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(field(&stdout(&out), "reached"), "5");
    // A generator spec is no file: --format with one is refused, not ignored.
    assert_one_line_error(&warpath(&["bfs", "kron:5", "--format", "el"]), &["--format el", "kron:5", "generator spec"]);
}

#[cfg(unix)]
#[test]
fn a_fifo_is_read_once_in_order_with_format() {
    let scratch = Scratch::new("cli-fifo");
    let wgr = scratch.path("g.wgr.gz");
    assert!(warpath(&["convert", "grid2d:5", wgr.to_str().unwrap()]).status.success());
    let cases: [(&str, &str, Vec<u8>, &str); 3] = [
        ("edges", "el", CYCLE_EL.to_vec(), "5"),
        ("edges.gz", "el", gzipped(CYCLE_EL), "5"),
        ("graph", "wgr", std::fs::read(&wgr).unwrap(), "25"),
    ];
    for (name, format, bytes, vertices) in cases {
        let fifo = scratch.path(name);
        let c_path = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
        // SAFETY: a valid NUL-terminated path; mkfifo only creates the node.
        assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0, "mkfifo {name}");
        // Opening a FIFO to write blocks until warpath opens it to read.
        let writer = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::write(fifo, bytes))
        };
        let out = warpath(&["cc", fifo.to_str().unwrap(), "--format", format, "--backend", "cpu", "--verify"]);
        writer.join().unwrap().unwrap();
        assert!(out.status.success(), "{name}: {}", stderr(&out));
        assert_eq!(field(&stdout(&out), "vertices"), vertices, "{name}");
    }
}

/// `-h` fits a screen (at most 40 lines) for every subcommand; the tuning flags it leaves out are
/// in `--help`, and the partitioned BFS's exchange flags only on the commands that run it.
#[test]
fn short_help_fits_a_screen_and_long_help_keeps_the_rest() {
    for command in ["bfs", "cc", "scc", "closeness", "sssp", "info", "bench", "convert", "suite"] {
        let short = stdout(&warpath(&[command, "-h"]));
        assert!(short.lines().count() <= 40, "{command} -h: {} lines\n{short}", short.lines().count());
        let long = stdout(&warpath(&[command, "--help"]));
        assert!(long.lines().count() > short.lines().count(), "{command}: --help says more than -h");
        let exchange = long.contains("--hub-degree");
        assert_eq!(exchange, command == "bfs" || command == "bench", "{command} --help and --hub-degree");
        assert!(!short.contains("--hub-degree"), "{command} -h leaves the exchange flags to --help");
    }
    let long = stdout(&warpath(&["bfs", "--help"]));
    for flag in ["--alpha", "--rank", "--allow-count-mismatch", "--padded-pairs"] {
        assert!(long.contains(flag), "bfs --help lists {flag}");
    }
}
