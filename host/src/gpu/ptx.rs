//! The PTX module built from `device/` by `build.rs`, embedded in the library.

/// PTX text of every warpath kernel (target sm_80; the driver JIT-compiles it for newer GPUs).
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/warpath_kernels.ptx"));

/// Names of the kernel entry points in [`PTX`], in the order they appear.
pub fn kernel_names() -> Vec<&'static str> {
    PTX.lines()
        .filter_map(|line| line.trim().strip_prefix(".visible .entry "))
        .map(|rest| rest.trim_end_matches('(').trim())
        .collect()
}
