//! The embedded PTX: self-contained, holding every kernel the interface crate names, each
//! with the parameters of its struct, and accepted by
//! NVIDIA's assembler for Ampere (sm_80) and Hopper (sm_90) with no register spills in the
//! traversal kernels, except the persistent ones, whose spills must stay under a ceiling.
//! Needs ptxas (scripts/setup installs it from PyPI); no GPU.

use warpath::gpu::ptx::{entry_names, kernel_names, HOPPER_PTX, PTX};
use warpath::gpu::ptxas::{assemble, find_ptxas, parse_report, KernelResources, ARCHITECTURES};
use warpath_interface::{names, KernelParams};

/// Every kernel the interface crate names is an entry point of the PTX, and the PTX has no
/// other: the host launches by those names.
#[test]
fn ptx_defines_exactly_the_kernels_the_interface_names() {
    let mut in_ptx = kernel_names();
    let mut named: Vec<&str> = names::all().collect();
    in_ptx.sort();
    named.sort();
    assert_eq!(in_ptx, named);
}

/// The sizes of `kernel`'s parameters, in order, as the PTX declares them
/// (`.param .u64 .ptr .align 1 bfs_init_param_0,` and the like).
fn ptx_param_sizes(kernel: &str) -> Vec<usize> {
    param_sizes_in(PTX, kernel)
}

/// [`ptx_param_sizes`] in the module `ptx`.
fn param_sizes_in(ptx: &str, kernel: &str) -> Vec<usize> {
    let entry = ptx.split(&format!(".visible .entry {kernel}(")).nth(1).unwrap_or_else(|| panic!("no entry {kernel}"));
    let list = &entry[..entry.find(')').expect("a parameter list")];
    list.lines()
        .filter_map(|line| line.trim().strip_prefix(".param ."))
        .map(|declaration| {
            let kind = declaration.split_whitespace().next().unwrap();
            kind[1..].parse::<usize>().unwrap_or_else(|_| panic!("{kernel}: parameter type {kind}")) / 8
        })
        .collect()
}

fn check_params<P: KernelParams>() {
    let expected: Vec<usize> = P::FIELDS.iter().map(|field| field.size).collect();
    assert_eq!(ptx_param_sizes(P::KERNEL), expected, "{}: {:?}", P::KERNEL, P::FIELDS);
}

/// Each kernel with a parameter struct takes one parameter per field, of the field's size and
/// in field order: the host hands the driver one field per parameter.
#[test]
fn kernel_parameters_are_the_fields_of_their_structs() {
    use warpath_interface::bfs::{edge_queue::*, per_level::*, persistent::*};
    check_params::<BfsInitParams>();
    check_params::<BfsTopdownExpandParams>();
    check_params::<BfsPersistentInitParams>();
    check_params::<BfsPersistentParams>();
    check_params::<BfsPersistentCompressedParams>();
    check_params::<BfsEdgeQueueParams>();
}

/// The Hopper module (sm_90) defines exactly the kernels `names::HOPPER` lists, each with its
/// struct's parameters, and is self-contained.
#[test]
fn the_hopper_module_holds_exactly_its_kernels() {
    use warpath_interface::sssp::SsspClusterParams;
    let mut in_ptx = entry_names(HOPPER_PTX);
    let mut named = names::HOPPER.to_vec();
    in_ptx.sort();
    named.sort();
    assert_eq!(in_ptx, named);
    assert!(HOPPER_PTX.contains(".target sm_90"), "the Hopper module targets sm_90");
    assert!(!HOPPER_PTX.contains(".extern .func"), "the Hopper module calls functions it does not define");
    let expected: Vec<usize> = SsspClusterParams::FIELDS.iter().map(|field| field.size).collect();
    assert_eq!(param_sizes_in(HOPPER_PTX, SsspClusterParams::KERNEL), expected);
}

#[test]
fn ptx_is_self_contained_and_uses_device_scope_atomics() {
    assert!(!PTX.contains(".extern .func"), "the PTX calls functions it does not define");
    assert!(PTX.contains("atom.global.cas.b32"), "the BFS claims vertices with a global CAS");
    assert!(!PTX.contains(".sys"), "system-scope atomics crept in (core::sync::atomic?)");
}

/// Spill stores (bytes) the persistent kernels may not exceed on either architecture. Their
/// launch bounds (256 threads and 4 blocks per SM since entry 34, 512 x 2 before) hold them to
/// 64 registers, and the level loop with every gathering and bottom-up variant inlined does
/// not fit: 424-532 bytes at e8ca2c9
/// (380 before the XBFS rule and adaptive frontier generation; bench/NOTES.md entry 20), 508-524
/// since the top-down loops visit two edges a thread at once (entry 27), 564-580 with the
/// double-scan bottom-up level (its spills sit in per-level bookkeeping, not in the gathering
/// or search loops: `scripts/spill-map`), 560-564 at 256 x 4 with the pipelined shared-list
/// gathering (entries 34 and 36). A ceiling just above today's figure, so that growth
/// shows here first.
const PERSISTENT_SPILL_CEILING: u32 = 600;

/// Spill stores allowed in the split bottom-up level's two kernels (`bfs_persistent_bottom_up`
/// at 40 registers, `bfs_persistent_bottom_up_words` at 32; NOTES 135): a ceiling just above
/// their figure when they were written.
const SPLIT_LEVEL_SPILL_CEILING: u32 = 64;

/// ptxas's report on the embedded PTX for `arch`: the one the build made when it assembled the
/// cubins (`ptx/cubins.rs`, the same PTX and the same optimization level), else a run of the
/// ptxas `find_ptxas` finds (a build that found none).
fn ptxas_report(arch: &str) -> Vec<KernelResources> {
    let built = std::path::Path::new(env!("OUT_DIR")).join(format!("warpath_kernels.{arch}.ptxas.txt"));
    match std::fs::read_to_string(&built) {
        Ok(report) if !report.is_empty() => parse_report(&report, arch),
        _ => {
            let ptxas = find_ptxas().unwrap_or_else(|e| panic!("{e}"));
            assemble(&ptxas, arch).unwrap_or_else(|e| panic!("{e}"))
        }
    }
}

#[test]
fn ptxas_assembles_every_kernel_for_ampere_and_hopper() {
    for arch in ARCHITECTURES {
        let kernels = ptxas_report(arch);
        let assembled: Vec<&str> = kernels.iter().map(|k| k.kernel.as_str()).collect();
        for kernel in names::all() {
            assert!(assembled.contains(&kernel), "{arch}: ptxas did not report {kernel}: {assembled:?}");
        }
        for k in &kernels {
            assert!(k.registers > 0 && k.registers <= 255, "{arch} {}: {} registers", k.kernel, k.registers);
            if k.kernel == "bfs_persistent" || k.kernel == "bfs_persistent_compressed" {
                assert!(
                    k.spill_store_bytes <= PERSISTENT_SPILL_CEILING,
                    "{arch} {}: {} bytes of spill stores, over the ceiling of {PERSISTENT_SPILL_CEILING}",
                    k.kernel,
                    k.spill_store_bytes
                );
            } else if k.kernel.starts_with("bfs_persistent_bottom_up") {
                // The split level's kernels run the persistent kernel's bottom-up code under a
                // tighter register cap (more warps an SM, NOTES 135): a few words spill (24-28
                // bytes when this was written).
                assert!(
                    k.spill_store_bytes <= SPLIT_LEVEL_SPILL_CEILING,
                    "{arch} {}: {} bytes of spill stores, over the ceiling of {SPLIT_LEVEL_SPILL_CEILING}",
                    k.kernel,
                    k.spill_store_bytes
                );
            } else if k.kernel.starts_with("bfs_") {
                assert_eq!(
                    (k.spill_store_bytes, k.spill_load_bytes, k.stack_bytes),
                    (0, 0, 0),
                    "{arch} {} spills",
                    k.kernel
                );
            }
        }
        let shared = kernels.iter().find(|k| k.kernel == "test_shared_reverse").unwrap();
        assert_eq!(shared.shared_bytes, 2 * 256 * 4, "{arch}: two 256-word shared arrays");
    }
}

#[test]
fn persistent_kernel_launch_bounds_match_the_host_block_size() {
    let bounds = format!(".maxntid {}, 1, 1", warpath_interface::bfs::persistent::PERSISTENT_BLOCK);
    let entry = PTX.split(".visible .entry bfs_persistent(").nth(1).expect("bfs_persistent is in the PTX");
    let header = &entry[..entry.find('{').expect("a kernel body")];
    assert!(header.contains(&bounds), "bfs_persistent lacks `{bounds}`:\n{header}");
    assert!(header.contains(".minnctapersm 4"));
}
