//! Resource usage of every kernel, read from NVIDIA's PTX assembler (`ptxas -v`).
//!
//! ptxas comes from the PyPI package `nvidia-cuda-nvcc-cu12` (pinned in `scripts/setup`,
//! installed under `.tools/`); no CUDA toolkit is needed. It is looked up in `$WARPATH_PTXAS`,
//! then `.tools/ptxas/nvidia/cuda_nvcc/bin/ptxas` under the source tree, then `PATH`, then
//! `/usr/local/cuda/bin/ptxas`.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::{Error, Result};
use crate::gpu::ptx::PTX;

/// Architectures CI assembles the PTX for: Ampere and Hopper.
pub const ARCHITECTURES: [&str; 2] = ["sm_80", "sm_90"];

/// What ptxas reports for one kernel on one architecture.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelResources {
    pub kernel: String,
    pub arch: String,
    pub registers: u32,
    pub shared_bytes: u32,
    pub stack_bytes: u32,
    pub spill_store_bytes: u32,
    pub spill_load_bytes: u32,
}

#[path = "ptxas_path.rs"]
mod ptxas_path;

/// Finds ptxas (where [`ptxas_path::locate_ptxas`] looks, which `build.rs` shares), or says how
/// to install it.
pub fn find_ptxas() -> Result<PathBuf> {
    ptxas_path::locate_ptxas(Path::new(env!("CARGO_MANIFEST_DIR"))).ok_or_else(|| {
        Error::InvalidArgument(
            "ptxas is missing: run scripts/setup --ptxas (it installs the PyPI package nvidia-cuda-nvcc-cu12 into .tools/), \
             or set WARPATH_PTXAS to a ptxas binary"
                .into(),
        )
    })
}

/// Assembles the embedded PTX for `arch` and returns each kernel's resources.
pub fn assemble(ptxas: &Path, arch: &str) -> Result<Vec<KernelResources>> {
    let dir = std::env::temp_dir().join(format!("warpath-ptxas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let ptx_path = dir.join("warpath_kernels.ptx");
    std::fs::write(&ptx_path, PTX).map_err(|e| Error::io(&ptx_path, e))?;
    let output = Command::new(ptxas)
        .arg(format!("-arch={arch}"))
        .arg("-v")
        .arg(&ptx_path)
        .arg("-o")
        .arg(dir.join(format!("warpath_{arch}.cubin")))
        .output()
        .map_err(|e| Error::io(ptxas, e))?;
    let _ = std::fs::remove_dir_all(&dir);
    let report = String::from_utf8_lossy(&output.stderr).into_owned() + &String::from_utf8_lossy(&output.stdout);
    if !output.status.success() {
        return Err(Error::InvalidArgument(format!("ptxas rejected the kernels for {arch}:\n{report}")));
    }
    Ok(parse_report(&report, arch))
}

/// Parses `ptxas -v` output: a "Compiling entry function 'NAME'" line opens each kernel, and
/// the lines after it give the stack frame, spills, registers and shared memory. The stack and
/// spill line belongs to the function named by the "Function properties for NAME" line before
/// it, which is not always the kernel: ptxas also reports the device functions a kernel
/// calls (Rust's panic handlers, for one), and their zeros must not overwrite the kernel's.
pub fn parse_report(report: &str, arch: &str) -> Vec<KernelResources> {
    let mut kernels: Vec<KernelResources> = Vec::new();
    let mut properties_of_kernel = false;
    for line in report.lines() {
        if let Some(rest) = line.split("Compiling entry function '").nth(1) {
            let name = rest.split('\'').next().unwrap_or_default();
            kernels.push(KernelResources { kernel: name.to_string(), arch: arch.to_string(), ..Default::default() });
            properties_of_kernel = false;
            continue;
        }
        if let Some(rest) = line.split("Function properties for ").nth(1) {
            properties_of_kernel = kernels.last().is_some_and(|k| k.kernel == rest.trim());
            continue;
        }
        let Some(current) = kernels.last_mut() else { continue };
        if line.contains("bytes stack frame") && properties_of_kernel {
            current.stack_bytes = number_before(line, "bytes stack frame");
            current.spill_store_bytes = number_before(line, "bytes spill stores");
            current.spill_load_bytes = number_before(line, "bytes spill loads");
        }
        if line.contains("Used") && line.contains("registers") {
            current.registers = number_before(line, "registers");
            current.shared_bytes = number_before(line, "bytes smem");
        }
    }
    kernels
}

/// The integer just before `unit` in `line` (0 when absent).
fn number_before(line: &str, unit: &str) -> u32 {
    line.find(unit)
        .and_then(|end| line[..end].split_whitespace().last())
        .and_then(|word| word.parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// ptxas reports the device functions a kernel calls after the kernel's own properties;
    /// their zeros belong to them (found when `warpath kernels` showed no spills for a kernel
    /// that spilled 532 bytes).
    #[test]
    fn a_called_function_does_not_overwrite_the_kernels_spills() {
        let report = "ptxas info    : Compiling entry function 'bfs_persistent' for 'sm_90'\n\
            ptxas info    : Function properties for bfs_persistent\n\
            \x20   264 bytes stack frame, 532 bytes spill stores, 712 bytes spill loads\n\
            ptxas info    : Used 64 registers, used 1 barriers, 264 bytes cumulative stack size, 12480 bytes smem\n\
            ptxas info    : Function properties for _RNvNtCsbSE61zFgCyu_4core9panicking9panic_fmt\n\
            \x20   0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
            ptxas info    : Compiling entry function 'bfs_init' for 'sm_90'\n\
            ptxas info    : Function properties for bfs_init\n\
            \x20   0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n\
            ptxas info    : Used 16 registers, used 0 barriers, 0 bytes smem\n";
        let kernels = parse_report(report, "sm_90");
        assert_eq!(kernels.len(), 2);
        let persistent = &kernels[0];
        assert_eq!(
            (persistent.registers, persistent.stack_bytes, persistent.spill_store_bytes, persistent.spill_load_bytes),
            (64, 264, 532, 712)
        );
        assert_eq!((kernels[1].registers, kernels[1].spill_store_bytes), (16, 0));
    }

    #[test]
    fn parses_a_ptxas_report() {
        let report = "ptxas info    : 0 bytes gmem\n\
            ptxas info    : Compiling entry function 'bfs_init' for 'sm_90'\n\
            ptxas info    : Function properties for bfs_init\n\
            \x20   8 bytes stack frame, 4 bytes spill stores, 12 bytes spill loads\n\
            ptxas info    : Used 18 registers, used 1 barriers, 2048 bytes smem\n";
        let kernels = parse_report(report, "sm_90");
        assert_eq!(
            kernels,
            vec![KernelResources {
                kernel: "bfs_init".into(),
                arch: "sm_90".into(),
                registers: 18,
                shared_bytes: 2048,
                stack_bytes: 8,
                spill_store_bytes: 4,
                spill_load_bytes: 12,
            }]
        );
    }
}
