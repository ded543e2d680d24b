//! TEMPORARY until the cpubfs branch merges.
pub mod gpu_topdown;
pub struct BfsResult { pub source: u32, pub distances: Vec<u32>, pub parents: Vec<u32> }
