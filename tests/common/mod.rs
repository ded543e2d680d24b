//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use warpath::gpu::GpuContext;

/// The GPU, or `None` with a printed reason when this machine has none. On the GPU machine
/// `WARPATH_REQUIRE_GPU=1` turns a missing GPU into a failure, so a run there cannot pass by
/// skipping.
pub fn gpu_or_skip(test: &str) -> Option<GpuContext> {
    match GpuContext::new() {
        Ok(gpu) => Some(gpu),
        Err(err) if err.is_unavailable() && std::env::var_os("WARPATH_REQUIRE_GPU").is_none() => {
            say_skipping(test, &err.to_string());
            None
        }
        Err(err) => panic!("{test}: the GPU is required here but unusable: {err}"),
    }
}

/// Writes straight to stderr: libtest captures `eprintln!` of passing tests, and a skip must
/// be seen.
pub fn say_skipping(test: &str, why: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "skipping {test}: {why}");
}

/// The real-graph datasets: `$WARPATH_DATASETS`, else `../shared/datasets` beside the checkout.
/// `None` (with the reason printed) when neither exists.
pub fn datasets_dir(test: &str) -> Option<PathBuf> {
    let dir = std::env::var_os("WARPATH_DATASETS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets"));
    if dir.is_dir() {
        Some(dir)
    } else {
        say_skipping(test, &format!("no datasets folder at {} (set WARPATH_DATASETS)", dir.display()));
        None
    }
}

/// Every dataset file in `dir` (the `.gz` graph files), sorted by name.
pub fn dataset_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("datasets folder is readable")
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "gz"))
        .collect();
    files.sort();
    files
}

/// A small deterministic generator for test inputs (SplitMix64).
pub struct TestRng(pub u64);

impl TestRng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn next_u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
}
