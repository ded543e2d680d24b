//! The partitioned connected components' merge kernels (the host's `multi::cc`): a rank has
//! found its part's components with `cc_persistent` over its local graph (ids `0..owned` its
//! own vertices, `owned..` the ghosts its lists name; `first` the global id of local vertex 0)
//! and names each local component by a global vertex: `first + label` for a label below
//! `owned`, else the ghost's global id. These kernels trade those names between ranks and
//! apply the merged result, without the labels leaving the device.

/// Threads per block of the merge kernels.
pub const CC_PART_BLOCK: u32 = 256;

/// An empty slot of `cc_part_join`'s hash table: no pair of names packs to 0, since a pair is
/// kept only when its two names differ (the larger one, in the low word, is then at least 1).
pub const EMPTY_SLOT: u64 = 0;

/// An empty slot of the names table `cc_part_union` builds: a slot holds a name and its
/// parent, `(name + 1) << 32 | parent`, never 0.
pub const EMPTY_NAME: u64 = 0;

/// `cc_part_union`'s phases, one launch each over every gathered pair.
pub mod union_phase {
    /// Both names of every pair into the table, each its own parent.
    pub const INSERT: u32 = 0;
    /// Every pair's two trees joined: the higher root hooked under the lower.
    pub const LINK: u32 = 1;
    /// Every name's parent set to its root.
    pub const COMPRESS: u32 = 2;
}

/// The field list of `cc_part_name_ghosts`'s parameters.
#[macro_export]
macro_rules! cc_part_name_ghosts_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `cc_part_name_ghosts`'s parameters: for each of the `ghosts` ghosts, the pair
            /// (its global id, its local component's name) into `sent` (two words a ghost, in
            /// ghost order: each owner's ghosts are one stretch).
            kernel cc_part_name_ghosts, in [$crate::cc::partitioned], struct CcPartNameGhostsParams {
                labels: $crate::DevicePtr<u32>,
                ghost_globals: $crate::DevicePtr<u32>,
                ghosts: u32,
                owned: u32,
                first: u32,
                sent: $crate::DevicePtrMut<u32>,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `cc_part_join`'s parameters.
#[macro_export]
macro_rules! cc_part_join_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `cc_part_join`'s parameters: `pairs_len` pairs (a vertex this rank owns, the
            /// sender's name for it) from the other ranks; each pair whose name differs from
            /// this rank's own name for the vertex is a pair of names of one component, kept
            /// once: inserted into `table` (`table_mask + 1` slots, a power of two, zeroed) and,
            /// when new, appended to `joined` (the smaller name first; room for `pairs_len`
            /// pairs) at `joined_len` (zeroed).
            kernel cc_part_join, in [$crate::cc::partitioned], struct CcPartJoinParams {
                labels: $crate::DevicePtr<u32>,
                ghost_globals: $crate::DevicePtr<u32>,
                owned: u32,
                first: u32,
                pairs: $crate::DevicePtr<u32>,
                pairs_len: u32,
                table: $crate::DevicePtrMut<u64>,
                table_mask: u32,
                joined: $crate::DevicePtrMut<u32>,
                joined_len: $crate::DevicePtrMut<u32>,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `cc_part_union`'s parameters.
#[macro_export]
macro_rules! cc_part_union_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `cc_part_union`'s parameters: every rank's joined pairs of names (`pairs_len`
            /// pairs, gathered; a pair of two equal names joins nothing, which padding uses)
            /// merged in the names table (`table_mask + 1` slots, a power of two, at least
            /// twice the pairs' names, zeroed before the first phase), one
            /// [`union_phase`](crate::cc::partitioned::union_phase) a launch.
            kernel cc_part_union, in [$crate::cc::partitioned], struct CcPartUnionParams {
                pairs: $crate::DevicePtr<u32>,
                pairs_len: u32,
                table: $crate::DevicePtrMut<u64>,
                table_mask: u32,
                phase: u32,
            }
            $(=> $run)?
        }
    };
}

/// The field list of `cc_part_relabel`'s parameters.
#[macro_export]
macro_rules! cc_part_relabel_fields {
    ($callback:path $(=> $run:path)?) => {
        $callback! {
            /// `cc_part_relabel`'s parameters: each owned vertex's component into `components`
            /// (global ids): its local component's name, or where the names table
            /// (`cc_part_union`'s, compressed; null where no pair was gathered) holds that
            /// name, its root there.
            kernel cc_part_relabel, in [$crate::cc::partitioned], struct CcPartRelabelParams {
                labels: $crate::DevicePtr<u32>,
                ghost_globals: $crate::DevicePtr<u32>,
                owned: u32,
                first: u32,
                table: $crate::DevicePtr<u64>,
                table_mask: u32,
                components: $crate::DevicePtrMut<u32>,
            }
            $(=> $run)?
        }
    };
}

crate::cc_part_name_ghosts_fields!(crate::kernel_params);
crate::cc_part_join_fields!(crate::kernel_params);
crate::cc_part_union_fields!(crate::kernel_params);
crate::cc_part_relabel_fields!(crate::kernel_params);
