//! What the committed PTX, `ptx/warpath_kernels.ptx` and `ptx/warpath_hopper.ptx`, was built from. Shared by `build.rs`
//! (which writes the header on every kernel build and, without the pinned nightly, checks the
//! committed file's header) and by `tests/committed_ptx.rs` (which fails when the committed
//! file is not what the current sources build), so both hash the same way.
//!
//! The PTX's first line names a hash of its inputs: every file under [`INPUTS`], by path and
//! contents. FNV-1a (64 bits) is enough: it detects edits, and no one gains by forging it.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The committed PTX, relative to the repository root.
pub const COMMITTED_PTX: &str = "ptx/warpath_kernels.ptx";
/// The committed PTX of the Hopper module (the kernels that need sm_90).
pub const COMMITTED_HOPPER_PTX: &str = "ptx/warpath_hopper.ptx";
/// Both committed files.
pub const COMMITTED: [&str; 2] = [COMMITTED_PTX, COMMITTED_HOPPER_PTX];

/// The files and folders the kernel build reads, relative to the repository root: the kernel
/// crate, the interface crate it shares with the host, the pinned toolchain, and build.rs with
/// this file (build.rs post-processes the PTX: launch bounds, the header).
pub const INPUTS: [&str; 8] = [
    "build.rs",
    "ptx/inputs.rs",
    "rust-toolchain.toml",
    "device/Cargo.toml",
    "device/Cargo.lock",
    "device/src",
    "interface/Cargo.toml",
    "interface/src",
];

/// What the header line starts with; the hash follows.
const HEADER_PREFIX: &str = "// warpath-ptx-inputs: fnv1a64:";

/// The hash of every file under [`INPUTS`] below `root`, as 16 hex digits.
pub fn inputs_hash(root: &Path) -> io::Result<String> {
    let mut files = Vec::new();
    for input in INPUTS {
        collect_files(&root.join(input), &mut files)?;
    }
    files.sort();
    let mut hash = Fnv1a64::new();
    for file in &files {
        let relative = file.strip_prefix(root).unwrap_or(file);
        // '/' on every system, so that the hash is the same wherever the repository is.
        let name: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        let contents = fs::read(file)?;
        hash.write(name.join("/").as_bytes());
        hash.write(&[0]);
        hash.write(&(contents.len() as u64).to_le_bytes());
        hash.write(&contents);
    }
    Ok(format!("{:016x}", hash.0))
}

fn collect_files(path: &Path, files: &mut Vec<PathBuf>) -> io::Result<()> {
    if path.is_dir() {
        for entry in fs::read_dir(path)? {
            collect_files(&entry?.path(), files)?;
        }
    } else {
        files.push(path.to_path_buf());
    }
    Ok(())
}

/// The first line of a PTX built from inputs of hash `hash`.
pub fn header(hash: &str) -> String {
    format!("{HEADER_PREFIX}{hash} (written by build.rs; scripts/update-ptx refreshes ptx/)\n")
}

/// The inputs' hash that `ptx`'s header names, if it has the header.
pub fn header_hash(ptx: &str) -> Option<&str> {
    let line = ptx.lines().next()?.strip_prefix(HEADER_PREFIX)?;
    line.split_whitespace().next()
}

/// Why `ptx`, the contents of the committed file `file`, is not the PTX of inputs hashing to
/// `current`, or `None` when its header says it is.
pub fn staleness(file: &str, ptx: &str, current: &str) -> Option<String> {
    match header_hash(ptx) {
        Some(hash) if hash == current => None,
        Some(hash) => Some(format!(
            "{file} was built from other sources (inputs {hash}; these sources are {current}): \
             run scripts/update-ptx"
        )),
        None => Some(format!("{file} has no inputs header on its first line: run scripts/update-ptx")),
    }
}

/// 64-bit FNV-1a.
struct Fnv1a64(u64);

impl Fnv1a64 {
    fn new() -> Self {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 = (self.0 ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}
