//! Every test that needs no GPU, in one test executable (one link instead of one a file, which
//! the 2-core test run pays for): a module a former test file, each with its own doc comment.
//! The GPU tests (`tests/gpu_*.rs`) and the NCCL test (`tests/multi_nccl.rs`) stay executables
//! of their own, which `scripts/gpu-build` copies to the GPU machine by name.

#[path = "../common/mod.rs"]
mod common;

mod architecture;
mod bench;
mod cc;
mod cli;
mod cli_cc;
mod cli_closeness;
mod cli_json;
mod cli_multi;
mod cli_bfs_sources;
mod cli_scc;
mod cli_sssp;
mod cli_weights;
mod committed_ptx;
mod compressed;
mod cpu_bfs;
mod datasets;
mod engine;
mod formats;
mod generators;
mod host_memory;
mod hostile;
mod input;
mod multi_bfs;
mod multi_bfs_2d;
mod multi_cc;
mod multi_comm;
mod ptx;
mod python_lock;
mod sssp;
mod verify;
mod weights;
mod wgr;
