//! Helpers shared by the integration tests: scratch directories and fixture files.

#![allow(dead_code)] // each test binary uses a different subset

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

/// A fresh directory under the system temp dir, removed when dropped.
pub struct Scratch {
    pub dir: PathBuf,
}

impl Scratch {
    pub fn new(label: &str) -> Scratch {
        static COUNTER: AtomicU32 = AtomicU32::new(0);
        let unique = format!("warpath-test-{label}-{}-{}", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed));
        let dir = std::env::temp_dir().join(unique);
        std::fs::create_dir_all(&dir).expect("create scratch dir");
        Scratch { dir }
    }

    /// Writes `contents` to `name` in the scratch dir, gzip-compressed if `name` ends in `.gz`.
    pub fn file(&self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.dir.join(name);
        if name.ends_with(".gz") {
            let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
            encoder.write_all(contents).unwrap();
            std::fs::write(&path, encoder.finish().unwrap()).unwrap();
        } else {
            std::fs::write(&path, contents).unwrap();
        }
        path
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The sorted neighbor lists of every vertex, for comparing whole graphs in one assertion.
pub fn adjacency(g: &warpath::Graph) -> Vec<Vec<u32>> {
    (0..g.num_vertices() as u32).map(|v| g.neighbors(v).to_vec()).collect()
}

/// Asserts that `err` renders with the file name and `path:line:` prefix, and mentions `needle`.
pub fn assert_parse_error(err: &warpath::Error, path: &Path, line: u64, needle: &str) {
    let text = err.to_string();
    match err {
        warpath::Error::Parse { line: got, .. } => assert_eq!(*got, line, "wrong line in: {text}"),
        other => panic!("expected a parse error, got {other:?}"),
    }
    assert!(text.starts_with(&format!("{}:{line}: expected ", path.display())), "{text}");
    assert!(text.contains(needle), "`{needle}` missing from: {text}");
}
