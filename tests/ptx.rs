//! The embedded PTX: self-contained, holding every kernel the host launches, and accepted by
//! NVIDIA's assembler for Ampere (sm_80) and Hopper (sm_90) with no register spills in the
//! traversal kernels, except the persistent ones, whose spills must stay under a ceiling.
//! Needs ptxas (scripts/setup installs it from PyPI); no GPU.

use warpath::gpu::ptx::{kernel_names, PTX};
use warpath::gpu::ptxas::{assemble, find_ptxas, ARCHITECTURES};

const HOST_LAUNCHED: [&str; 17] = [
    "test_search",
    "bfs_edge_queue",
    "test_warp_match",
    "bfs_persistent_init",
    "bfs_persistent",
    "test_block_scan",
    "bfs_init",
    "bfs_topdown_expand",
    "test_indices",
    "test_warp_vote",
    "test_shuffle",
    "test_bits",
    "test_shared_reverse",
    "test_atomics_u32",
    "test_atomics_u64",
    "test_grid_stride",
    "test_warp_append",
];

#[test]
fn ptx_defines_every_kernel_the_host_launches() {
    let names = kernel_names();
    for kernel in HOST_LAUNCHED {
        assert!(names.contains(&kernel), "kernel {kernel} missing from the PTX; it has {names:?}");
    }
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

#[test]
fn ptxas_assembles_every_kernel_for_ampere_and_hopper() {
    let ptxas = find_ptxas().unwrap_or_else(|e| panic!("{e}"));
    for arch in ARCHITECTURES {
        let kernels = assemble(&ptxas, arch).unwrap_or_else(|e| panic!("{e}"));
        let assembled: Vec<&str> = kernels.iter().map(|k| k.kernel.as_str()).collect();
        for kernel in HOST_LAUNCHED {
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
    let bounds = format!(".maxntid {}, 1, 1", warpath::gpu::kernels::PERSISTENT_BLOCK);
    let entry = PTX.split(".visible .entry bfs_persistent(").nth(1).expect("bfs_persistent is in the PTX");
    let header = &entry[..entry.find('{').expect("a kernel body")];
    assert!(header.contains(&bounds), "bfs_persistent lacks `{bounds}`:\n{header}");
    assert!(header.contains(".minnctapersm 4"));
}
