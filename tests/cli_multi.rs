//! `warpath bfs` and `bench` over partitions: the printout, the per-level exchange table,
//! verification, `--out` equal to the single-partition run's distances, JSON, and the
//! one-line errors for a bad partition count and for `--gpus`/`--rank` without NCCL.

mod common;


use common::{Scratch, assert_one_line_error, stderr, stdout, warpath};

#[test]
fn bfs_over_partitions_prints_levels_and_verifies() {
    let out = warpath(&["bfs", "kron:10", "--partitions", "3", "--verify", "--source", "0"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for line in ["backend: cpu (3 partitions, one thread each)", "source: 0", "vertices: 1024", "verified: ok"] {
        assert!(text.lines().any(|l| l.starts_with(line)), "`{line}` missing from:\n{text}");
    }
    assert!(text.lines().any(|l| l.starts_with("exchange: ") && l.ends_with(" bytes")), "{text}");
    assert!(text.contains("exchange B") && text.contains("top-down"), "{text}");
}

#[test]
fn distances_written_by_every_partition_count_are_the_same() {
    let scratch = Scratch::new("cli-multi-out");
    let mut written = Vec::new();
    for parts in ["1", "2", "7"] {
        let path = scratch.dir.join(format!("bfs-{parts}.txt"));
        let out = warpath(&["bfs", "urand:9", "--partitions", parts, "--source", "5", "--out", path.to_str().unwrap()]);
        assert!(out.status.success(), "{}", stderr(&out));
        // Vertex and distance: parents may differ between equally valid trees.
        let text = std::fs::read_to_string(&path).unwrap();
        let columns: Vec<String> = text.lines().map(|l| l.split(' ').take(2).collect::<Vec<_>>().join(" ")).collect();
        assert_eq!(columns.len(), 512);
        written.push(columns);
    }
    assert_eq!(written[0], written[1]);
    assert_eq!(written[0], written[2]);
}

#[test]
fn bfs_over_partitions_as_json() {
    let out = warpath(&["bfs", "grid2d:30", "--partitions", "4", "--json", "--verify"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["partitions"], 4);
    assert_eq!(json["verified"], true);
    assert_eq!(json["reached"], 900);
    let levels = json["levels"].as_array().unwrap();
    assert_eq!(levels.len() as u64, json["depth"].as_u64().unwrap() + 1);
    assert!(levels.iter().all(|l| l["exchange_bytes"].is_u64() && l["time_ms"].is_f64()));
}

#[test]
fn bench_over_partitions_reports_scaling_against_one_partition() {
    let out = warpath(&["bench", "kron:10", "--partitions", "2", "--roots", "3"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    for needle in
        ["roots: 3 (each validated)", "GTEPS: harmonic mean", "exchange: median", "one partition, same roots"]
    {
        assert!(text.contains(needle), "`{needle}` missing from:\n{text}");
    }
    assert!(text.contains("speedup") && text.contains("on 2 ranks"), "{text}");
}

#[test]
fn bad_partition_requests_are_one_line_errors() {
    assert_one_line_error(&warpath(&["bfs", "kron:8", "--partitions", "0"]), &["--partitions must be at least 1"]);
    assert_one_line_error(&warpath(&["bfs", "kron:8", "--partitions", "2", "--gpus", "0"]), &["--gpus"]);
    assert_one_line_error(&warpath(&["bfs", "kron:8", "--rank", "0"]), &["--world-size"]);
    assert_one_line_error(&warpath(&["bench", "kron:8", "--partitions", "2", "--json", "x.json"]), &["--json"]);
}

#[cfg(not(feature = "nccl"))]
#[test]
fn gpus_and_ranks_need_the_nccl_feature() {
    assert_one_line_error(&warpath(&["bfs", "kron:8", "--gpus", "0,1"]), &["--gpus needs the nccl feature"]);
    assert_one_line_error(
        &warpath(&["bfs", "kron:8", "--rank", "0", "--world-size", "2", "--nccl-id", "id"]),
        &["--rank needs the nccl feature"],
    );
    assert_one_line_error(&warpath(&["bench", "kron:8", "--gpus", "all"]), &["--gpus needs the nccl feature"]);
}
