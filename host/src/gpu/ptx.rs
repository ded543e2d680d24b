//! The kernels built from `device/` by `build.rs`, embedded in the library: the PTX, and the
//! cubins ptxas assembled from it at build time where a ptxas was found (`ptx/cubins.rs`).

use std::fmt;
use std::path::PathBuf;

/// PTX text of every warpath kernel but [`HOPPER_PTX`]'s (target sm_80; the driver
/// JIT-compiles it for newer GPUs).
pub const PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/warpath_kernels.ptx"));

/// PTX text of the kernels that use Hopper's thread-block clusters (target sm_90: loaded only
/// on GPUs of compute capability 9.0 or more; `warpath_interface::names::HOPPER`).
pub const HOPPER_PTX: &str = include_str!(concat!(env!("OUT_DIR"), "/warpath_hopper.ptx"));

/// [`HOPPER_PTX`] assembled for sm_90, where the build made it.
pub const HOPPER_CUBINS: [Cubin; 1] =
    [Cubin { major: 9, minor: 0, image: include_bytes!(concat!(env!("OUT_DIR"), "/warpath_hopper.sm_90.cubin")) }];

/// Names of the kernel entry points in [`PTX`], in the order they appear.
pub fn kernel_names() -> Vec<&'static str> {
    entry_names(PTX)
}

/// Names of the kernel entry points in a PTX module, in the order they appear.
pub fn entry_names(ptx: &'static str) -> Vec<&'static str> {
    ptx.lines()
        .filter_map(|line| line.trim().strip_prefix(".visible .entry "))
        .map(|rest| rest.trim_end_matches('(').trim())
        .collect()
}

/// [`PTX`] assembled by ptxas for one architecture, `sm_<major><minor>`.
#[derive(Clone, Copy, Debug)]
pub struct Cubin {
    pub major: i32,
    pub minor: i32,
    /// The ELF image; empty when the build made none (no ptxas, or ptxas failed).
    pub image: &'static [u8],
}

/// The cubins of this build, one per architecture `ptx/cubins.rs` assembles.
pub const CUBINS: [Cubin; 2] = [
    Cubin { major: 8, minor: 0, image: include_bytes!(concat!(env!("OUT_DIR"), "/warpath_kernels.sm_80.cubin")) },
    Cubin { major: 9, minor: 0, image: include_bytes!(concat!(env!("OUT_DIR"), "/warpath_kernels.sm_90.cubin")) },
];

/// The cubin a device of compute capability `device` can run: machine code runs on the
/// architecture it was assembled for and on later minor versions of the same major one (sm_80
/// on 8.6 and 8.9), never across majors. The newest such, among those that were made.
pub fn matching_cubin(cubins: &[Cubin], device: (i32, i32)) -> Option<&Cubin> {
    let (major, minor) = device;
    cubins
        .iter()
        .filter(|cubin| !cubin.image.is_empty() && cubin.major == major && cubin.minor <= minor)
        .max_by_key(|cubin| cubin.minor)
}

/// Which form of the kernels to load.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelForm {
    /// The cubin matching the device ([`matching_cubin`]), else the PTX.
    CubinIfMatching,
    /// The PTX, JIT-compiled by the driver (and cached by it for the next process).
    Ptx,
    /// A module from a file instead of the embedded ones: a cubin (an ELF image) or PTX text.
    /// For trying a kernel change without rebuilding warpath: the file must define every
    /// kernel with the parameters this build passes.
    File(PathBuf),
}

impl KernelForm {
    /// [`KernelForm::File`] when `WARPATH_KERNELS` names a file, [`KernelForm::Ptx`] when
    /// `WARPATH_JIT=1` (to compare with the driver's compilation), else
    /// [`KernelForm::CubinIfMatching`].
    pub fn from_env() -> Self {
        if let Some(path) = std::env::var_os("WARPATH_KERNELS").filter(|path| !path.is_empty()) {
            return KernelForm::File(PathBuf::from(path));
        }
        match std::env::var("WARPATH_JIT").as_deref() {
            Ok("1") => KernelForm::Ptx,
            _ => KernelForm::CubinIfMatching,
        }
    }
}

/// What a [`crate::gpu::GpuContext`] loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LoadedKernels {
    Cubin {
        major: i32,
        minor: i32,
    },
    Ptx,
    /// The module of a [`KernelForm::File`].
    File,
}

impl fmt::Display for LoadedKernels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadedKernels::Cubin { major, minor } => write!(f, "cubin sm_{major}{minor}"),
            LoadedKernels::Ptx => write!(f, "PTX, JIT by the driver"),
            LoadedKernels::File => write!(f, "the module WARPATH_KERNELS names"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const IMAGE: &[u8] = b"\x7fELF";

    fn arch_of(cubins: &[Cubin], device: (i32, i32)) -> Option<(i32, i32)> {
        matching_cubin(cubins, device).map(|cubin| (cubin.major, cubin.minor))
    }

    #[test]
    fn a_device_gets_the_newest_cubin_of_its_major_version_not_above_its_minor() {
        let cubins = [Cubin { major: 8, minor: 0, image: IMAGE }, Cubin { major: 9, minor: 0, image: IMAGE }];
        assert_eq!(arch_of(&cubins, (8, 0)), Some((8, 0)));
        assert_eq!(arch_of(&cubins, (8, 6)), Some((8, 0)));
        assert_eq!(arch_of(&cubins, (9, 0)), Some((9, 0)));
        // Blackwell: no cubin of major 10, so the PTX.
        assert_eq!(arch_of(&cubins, (10, 0)), None);
        assert_eq!(arch_of(&cubins, (7, 5)), None);
        let with_sm86 = [cubins[0], Cubin { major: 8, minor: 6, image: IMAGE }, cubins[1]];
        assert_eq!(arch_of(&with_sm86, (8, 9)), Some((8, 6)));
        assert_eq!(arch_of(&with_sm86, (8, 0)), Some((8, 0)));
    }

    #[test]
    fn a_cubin_the_build_did_not_make_is_never_chosen() {
        let none_made = [Cubin { major: 8, minor: 0, image: &[] }, Cubin { major: 9, minor: 0, image: &[] }];
        assert_eq!(arch_of(&none_made, (8, 0)), None);
        assert_eq!(arch_of(&none_made, (9, 0)), None);
        assert_eq!(LoadedKernels::Cubin { major: 9, minor: 0 }.to_string(), "cubin sm_90");
        assert_eq!(LoadedKernels::Ptx.to_string(), "PTX, JIT by the driver");
    }
}
