//! The name of every kernel in the PTX module: the host loads each by this string, and the
//! device's `#[no_mangle]` entry points carry the same names (the kernels with a parameter
//! struct take theirs from the struct's field list; a host test checks every name below
//! against the `.entry` points of the embedded PTX, and that the PTX has no other).

use crate::bfs::cluster::BfsClusterParams;
use crate::bfs::edge_queue::BfsEdgeQueueParams;
use crate::bfs::multi_source::{BfsMultiSourceCountParams, BfsMultiSourceDistancesParams, BfsMultiSourceLevelParams};
use crate::bfs::partitioned::{
    BfsPartBeginLevelParams, BfsPartBottomUpCompressedParams, BfsPartBottomUpParams, BfsPartGlobalTargetsParams,
    BfsPartHubFlagsParams, BfsPartHubListsParams, BfsPartInitParams, BfsPartLocalFrontierParams,
    BfsPartPackGhostsParams, BfsPartPackQueueParams, BfsPartReceiveParams, BfsPartScatterIdsParams,
    BfsPartShiftIdsParams, BfsPartTopDownCompressedParams, BfsPartTopDownLongCompressedParams,
    BfsPartTopDownLongParams, BfsPartTopDownParams,
};
use crate::bfs::per_level::{BfsInitParams, BfsTopdownExpandParams};
use crate::bfs::persistent::{
    BfsPersistentBottomUpParams, BfsPersistentBottomUpWordsParams, BfsPersistentCompressedParams,
    BfsPersistentInitParams, BfsPersistentParams,
};
use crate::cc::cluster::CcClusterParams;
use crate::cc::partitioned::{CcPartJoinParams, CcPartNameGhostsParams, CcPartRelabelParams, CcPartUnionParams};
use crate::cc::{CcPersistentCompressedParams, CcPersistentParams};
use crate::graph::GraphListHeadsParams;
use crate::scc::SccPassParams;
use crate::sssp::{
    SsspClusterParams, SsspDecomposedParams, SsspDeltaSteppingParams, SsspInitParams, SsspParentsParams,
    SsspRelaxApartParams, SsspUnpackParams, SsspWeightSumParams, SsspWorklistParams,
};
use crate::KernelParams;

pub const BFS_INIT: &str = BfsInitParams::KERNEL;
pub const BFS_TOPDOWN_EXPAND: &str = BfsTopdownExpandParams::KERNEL;
pub const BFS_MULTI_SOURCE_LEVEL: &str = BfsMultiSourceLevelParams::KERNEL;
pub const BFS_MULTI_SOURCE_COUNT: &str = BfsMultiSourceCountParams::KERNEL;
pub const BFS_MULTI_SOURCE_DISTANCES: &str = BfsMultiSourceDistancesParams::KERNEL;
pub const BFS_PERSISTENT_INIT: &str = BfsPersistentInitParams::KERNEL;
pub const BFS_PERSISTENT: &str = BfsPersistentParams::KERNEL;
pub const BFS_PERSISTENT_COMPRESSED: &str = BfsPersistentCompressedParams::KERNEL;
pub const BFS_PERSISTENT_BOTTOM_UP: &str = BfsPersistentBottomUpParams::KERNEL;
pub const BFS_PERSISTENT_BOTTOM_UP_WORDS: &str = BfsPersistentBottomUpWordsParams::KERNEL;
pub const BFS_EDGE_QUEUE: &str = BfsEdgeQueueParams::KERNEL;
pub const BFS_PART_INIT: &str = BfsPartInitParams::KERNEL;
pub const BFS_PART_TOP_DOWN: &str = BfsPartTopDownParams::KERNEL;
pub const BFS_PART_TOP_DOWN_LONG: &str = BfsPartTopDownLongParams::KERNEL;
pub const BFS_PART_TOP_DOWN_COMPRESSED: &str = BfsPartTopDownCompressedParams::KERNEL;
pub const BFS_PART_TOP_DOWN_LONG_COMPRESSED: &str = BfsPartTopDownLongCompressedParams::KERNEL;
pub const BFS_PART_HUB_FLAGS: &str = BfsPartHubFlagsParams::KERNEL;
pub const BFS_PART_HUB_LISTS: &str = BfsPartHubListsParams::KERNEL;
pub const BFS_PART_PACK_GHOSTS: &str = BfsPartPackGhostsParams::KERNEL;
pub const BFS_PART_RECEIVE: &str = BfsPartReceiveParams::KERNEL;
pub const BFS_PART_LOCAL_FRONTIER: &str = BfsPartLocalFrontierParams::KERNEL;
pub const BFS_PART_GLOBAL_TARGETS: &str = BfsPartGlobalTargetsParams::KERNEL;
pub const BFS_PART_BEGIN_LEVEL: &str = BfsPartBeginLevelParams::KERNEL;
pub const BFS_PART_PACK_QUEUE: &str = BfsPartPackQueueParams::KERNEL;
pub const BFS_PART_SHIFT_IDS: &str = BfsPartShiftIdsParams::KERNEL;
pub const BFS_PART_SCATTER_IDS: &str = BfsPartScatterIdsParams::KERNEL;
pub const BFS_PART_BOTTOM_UP: &str = BfsPartBottomUpParams::KERNEL;
pub const BFS_PART_BOTTOM_UP_COMPRESSED: &str = BfsPartBottomUpCompressedParams::KERNEL;

/// The BFS kernels.
pub const BFS: [&str; 28] = [
    BFS_INIT,
    BFS_TOPDOWN_EXPAND,
    BFS_MULTI_SOURCE_LEVEL,
    BFS_MULTI_SOURCE_COUNT,
    BFS_MULTI_SOURCE_DISTANCES,
    BFS_PERSISTENT_INIT,
    BFS_PERSISTENT,
    BFS_PERSISTENT_COMPRESSED,
    BFS_PERSISTENT_BOTTOM_UP,
    BFS_PERSISTENT_BOTTOM_UP_WORDS,
    BFS_EDGE_QUEUE,
    BFS_PART_INIT,
    BFS_PART_TOP_DOWN,
    BFS_PART_TOP_DOWN_LONG,
    BFS_PART_TOP_DOWN_COMPRESSED,
    BFS_PART_TOP_DOWN_LONG_COMPRESSED,
    BFS_PART_HUB_FLAGS,
    BFS_PART_HUB_LISTS,
    BFS_PART_PACK_GHOSTS,
    BFS_PART_RECEIVE,
    BFS_PART_LOCAL_FRONTIER,
    BFS_PART_GLOBAL_TARGETS,
    BFS_PART_BEGIN_LEVEL,
    BFS_PART_PACK_QUEUE,
    BFS_PART_SHIFT_IDS,
    BFS_PART_SCATTER_IDS,
    BFS_PART_BOTTOM_UP,
    BFS_PART_BOTTOM_UP_COMPRESSED,
];

pub const CC_PERSISTENT: &str = CcPersistentParams::KERNEL;
pub const CC_PERSISTENT_COMPRESSED: &str = CcPersistentCompressedParams::KERNEL;
pub const CC_PART_NAME_GHOSTS: &str = CcPartNameGhostsParams::KERNEL;
pub const CC_PART_JOIN: &str = CcPartJoinParams::KERNEL;
pub const CC_PART_UNION: &str = CcPartUnionParams::KERNEL;
pub const CC_PART_RELABEL: &str = CcPartRelabelParams::KERNEL;

/// The connected-components kernels.
pub const CC: [&str; 6] =
    [CC_PERSISTENT, CC_PERSISTENT_COMPRESSED, CC_PART_NAME_GHOSTS, CC_PART_JOIN, CC_PART_UNION, CC_PART_RELABEL];

pub const GRAPH_LIST_HEADS: &str = GraphListHeadsParams::KERNEL;

/// The kernels over a placed graph itself, which the runtime runs for no algorithm in particular.
pub const GRAPH: [&str; 1] = [GRAPH_LIST_HEADS];

pub const SCC_PASS: &str = SccPassParams::KERNEL;

/// The strongly-connected-components kernels.
pub const SCC: [&str; 1] = [SCC_PASS];

pub const SSSP_INIT: &str = SsspInitParams::KERNEL;
pub const SSSP_DELTA_STEPPING: &str = SsspDeltaSteppingParams::KERNEL;
pub const SSSP_RELAX_APART: &str = SsspRelaxApartParams::KERNEL;
pub const SSSP_WORKLIST: &str = SsspWorklistParams::KERNEL;
pub const SSSP_DECOMPOSED: &str = SsspDecomposedParams::KERNEL;
pub const SSSP_PARENTS: &str = SsspParentsParams::KERNEL;
pub const SSSP_WEIGHT_SUM: &str = SsspWeightSumParams::KERNEL;
pub const SSSP_UNPACK: &str = SsspUnpackParams::KERNEL;

/// The shortest-paths kernels.
pub const SSSP: [&str; 8] = [
    SSSP_INIT,
    SSSP_DELTA_STEPPING,
    SSSP_RELAX_APART,
    SSSP_WORKLIST,
    SSSP_DECOMPOSED,
    SSSP_PARENTS,
    SSSP_WEIGHT_SUM,
    SSSP_UNPACK,
];

pub const SSSP_CLUSTER: &str = SsspClusterParams::KERNEL;

/// The kernels of the second module, built for sm_90 (Hopper) and loaded only on such GPUs:
/// they use thread-block clusters, which the sm_80 module cannot express.
pub const HOPPER: [&str; 3] = [SSSP_CLUSTER, BFS_CLUSTER, CC_CLUSTER];

pub const BFS_CLUSTER: &str = BfsClusterParams::KERNEL;
pub const CC_CLUSTER: &str = CcClusterParams::KERNEL;

/// The self-test kernels of the prelude and the operators (the device's `selftest` module; the
/// host's `gpu::selftest` launches them), one per piece.
pub mod selftest {
    pub const INDICES: &str = "test_indices";
    pub const GRID_STRIDE: &str = "test_grid_stride";
    pub const WARP_VOTE: &str = "test_warp_vote";
    pub const WARP_MATCH: &str = "test_warp_match";
    pub const WARP_APPEND: &str = "test_warp_append";
    pub const SHUFFLE: &str = "test_shuffle";
    pub const BITS: &str = "test_bits";
    pub const SHARED_REVERSE: &str = "test_shared_reverse";
    pub const BLOCK_SCAN: &str = "test_block_scan";
    pub const SEARCH: &str = "test_search";
    pub const ATOMICS_U32: &str = "test_atomics_u32";
    pub const ATOMICS_U64: &str = "test_atomics_u64";
    pub const REDUCE_MIN_U64: &str = "test_reduce_min_u64";
    pub const VARINT_DECODE: &str = "test_varint_decode";
    pub const GATHER_TILE: &str = "test_gather_tile";
    pub const SHARED_LISTS: &str = "test_shared_lists";

    /// Every self-test kernel.
    pub const ALL: [&str; 16] = [
        INDICES,
        GRID_STRIDE,
        WARP_VOTE,
        WARP_MATCH,
        WARP_APPEND,
        SHUFFLE,
        BITS,
        SHARED_REVERSE,
        BLOCK_SCAN,
        SEARCH,
        ATOMICS_U32,
        ATOMICS_U64,
        REDUCE_MIN_U64,
        VARINT_DECODE,
        GATHER_TILE,
        SHARED_LISTS,
    ];
}

/// Every kernel in the PTX module.
pub fn all() -> impl Iterator<Item = &'static str> {
    BFS.into_iter().chain(CC).chain(GRAPH).chain(SCC).chain(SSSP).chain(selftest::ALL)
}
