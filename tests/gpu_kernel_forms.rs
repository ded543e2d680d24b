//! The kernels load and run both from the cubin made at build time for the device's
//! architecture and from the PTX the driver JIT-compiles (`WARPATH_JIT=1`), and the context
//! says which it loaded. Skips, saying why, on machines without a CUDA device.

mod common;

use common::say_skipping;
use warpath::gpu::ptx::{matching_cubin, KernelForm, LoadedKernels, CUBINS};
use warpath::gpu::{selftest, GpuContext};

fn open_or_skip(test: &str, form: KernelForm) -> Option<GpuContext> {
    match GpuContext::with_device_and_kernels(0, form) {
        Ok(gpu) => Some(gpu),
        Err(err) if err.is_unavailable() && std::env::var_os("WARPATH_REQUIRE_GPU").is_none() => {
            say_skipping(test, &err.to_string());
            None
        }
        Err(err) => panic!("{test}: the GPU is required here but unusable: {err}"),
    }
}

/// A kernel runs and computes every thread's indices right.
fn check_a_kernel_runs(gpu: &GpuContext) {
    let (grid, block) = (3u32, 64u32);
    let rows = selftest::indices(gpu, grid, block).unwrap();
    assert_eq!(rows.len(), (grid * block) as usize);
    for (global, row) in rows.iter().enumerate() {
        let global = global as u32;
        assert_eq!(
            row[..4],
            [global % block, global / block, block, grid],
            "thread {global} ({})",
            gpu.loaded_kernels()
        );
    }
}

#[test]
fn the_matching_cubin_is_loaded_and_runs() {
    let Some(gpu) = open_or_skip("the_matching_cubin_is_loaded_and_runs", KernelForm::CubinIfMatching) else { return };
    let expected = match matching_cubin(&CUBINS, gpu.compute_capability()) {
        Some(cubin) => LoadedKernels::Cubin { major: cubin.major, minor: cubin.minor },
        None => {
            let (major, minor) = gpu.compute_capability();
            say_skipping(
                "the cubin half of the_matching_cubin_is_loaded_and_runs",
                &format!("this build has no cubin for compute capability {major}.{minor} (no ptxas at build time?)"),
            );
            LoadedKernels::Ptx
        }
    };
    assert_eq!(gpu.loaded_kernels(), expected, "the driver refused the cubin, or another was chosen");
    check_a_kernel_runs(&gpu);
}

#[test]
fn the_ptx_is_loaded_when_asked_for_and_runs() {
    let Some(gpu) = open_or_skip("the_ptx_is_loaded_when_asked_for_and_runs", KernelForm::Ptx) else { return };
    assert_eq!(gpu.loaded_kernels(), LoadedKernels::Ptx);
    check_a_kernel_runs(&gpu);
}

#[test]
fn a_module_named_by_file_is_loaded_and_runs() {
    let scratch = common::Scratch::new("kernel-forms");
    let ptx_file = scratch.file("kernels.ptx", warpath::gpu::ptx::PTX.as_bytes());
    let test = "a_module_named_by_file_is_loaded_and_runs";
    let Some(gpu) = open_or_skip(test, KernelForm::File(ptx_file)) else { return };
    assert_eq!(gpu.loaded_kernels(), LoadedKernels::File);
    check_a_kernel_runs(&gpu);
    let missing = scratch.path("missing.cubin");
    let err = GpuContext::with_device_and_kernels(0, KernelForm::File(missing.clone())).err().expect("a missing file");
    assert!(err.to_string().contains(&missing.display().to_string()), "{err}");
}
