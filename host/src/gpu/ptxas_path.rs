//! Where NVIDIA's PTX assembler is looked for: shared by the library ([`super::find_ptxas`]) and
//! `build.rs` (which includes this file with `#[path]`), so both find the same one. Std only.

use std::path::{Path, PathBuf};

/// Where `scripts/setup` installs ptxas (PyPI's `nvidia-cuda-nvcc-cu12`), under the source tree.
pub const BUNDLED_PTXAS: &str = ".tools/ptxas/nvidia/cuda_nvcc/bin/ptxas";

/// The environment variable that names a ptxas binary, tried first; set but empty, it says
/// there is none (a build then makes no cubins: quicker, for kernel work).
pub const PTXAS_VARIABLE: &str = "WARPATH_PTXAS";

/// A CUDA toolkit's ptxas at its usual place, tried last.
const TOOLKIT_PTXAS: &str = "/usr/local/cuda/bin/ptxas";

/// The ptxas to use, first found of: `$WARPATH_PTXAS` (taken as given; none if empty),
/// [`BUNDLED_PTXAS`] under `source_root`, `ptxas` on the `PATH`, [`TOOLKIT_PTXAS`]; `None` when
/// there is none.
pub fn locate_ptxas(source_root: &Path) -> Option<PathBuf> {
    if let Some(path) = std::env::var_os(PTXAS_VARIABLE) {
        return (!path.is_empty()).then(|| PathBuf::from(path));
    }
    let bundled = source_root.join(BUNDLED_PTXAS);
    if bundled.is_file() {
        return Some(bundled);
    }
    let on_path = std::env::var_os("PATH")
        .iter()
        .flat_map(std::env::split_paths)
        .map(|dir| dir.join("ptxas"))
        .find(|candidate| candidate.is_file());
    on_path.or_else(|| Some(PathBuf::from(TOOLKIT_PTXAS)).filter(|toolkit| toolkit.is_file()))
}
