//! Single-source shortest paths: delta-stepping in one cooperative launch, with near-far as a
//! mode of it ([`delta_stepping`]); seed 002's worklist strategies, one launch an iteration
//! ([`worklist`]); and the initialisation, the parents passes and the weight sum the host
//! chooses delta from (`support`); near-far in one Hopper thread-block cluster (`cluster`, in
//! the sm_90 module only). Their names and parameters are declared in the interface
//! crate (`warpath_interface::sssp`).
//!
//! Distances are `u64` whatever the weights (see the interface crate): integers exactly, `f32`
//! sums as their bits, both lowered by one `atom.min.u64`. A vertex's distance is read with a
//! volatile load, which goes to L2: a relaxation that read an older, larger distance from
//! this multiprocessor's L1 would be lost, since the vertex is queued once per decrease.

#[cfg(feature = "hopper")]
pub mod cluster;
#[cfg(not(feature = "hopper"))]
pub mod delta_stepping;
#[cfg(not(feature = "hopper"))]
pub mod support;
#[cfg(not(feature = "hopper"))]
pub mod worklist;

use crate::prelude::{atomic_exch_u32, atomic_min_u64, lane_id, shfl_idx_sync_u64, warp_aggregated_append, FULL_MASK};
use warpath_interface::sssp::{flags, widened, UNREACHED_DISTANCE};

/// How the kernels read and add weights: what a weight is (the flag word's kind) and the
/// weights array (null for unit weights).
#[derive(Clone, Copy)]
pub struct WeightReader {
    pub kind: u32,
    pub weights: *const u32,
}

impl WeightReader {
    /// The weight of `edge`, as stored (an integer, or an `f32`'s bits; 1 for unit weights).
    ///
    /// # Safety
    /// With a weights array, `edge` lies inside it.
    #[inline(always)]
    pub unsafe fn weight(&self, edge: u64) -> u32 {
        if self.kind == flags::WEIGHTS_UNIT {
            1
        } else {
            // SAFETY: forwarded from the caller.
            unsafe { *self.weights.add(edge as usize) }
        }
    }

    /// `distance + weight` in the kind's arithmetic (`distance` is a reached vertex's).
    #[inline(always)]
    pub fn extend(&self, distance: u64, weight: u32) -> u64 {
        if self.kind == flags::WEIGHTS_F32 {
            (f32::from_bits(distance as u32) + f32::from_bits(weight)).to_bits() as u64
        } else {
            distance + weight as u64
        }
    }

    /// The bucket of `distance` for bucket width `delta` (an integer, or an `f32`'s bits).
    #[inline(always)]
    pub fn bucket(&self, distance: u64, delta: u64) -> u64 {
        if self.kind == flags::WEIGHTS_F32 {
            // Non-negative and finite, so the conversion floors.
            (f32::from_bits(distance as u32) / f32::from_bits(delta as u32)) as u64
        } else {
            distance / delta
        }
    }

    /// Whether an edge of `weight` is light (shorter than `delta`).
    #[inline(always)]
    pub fn is_light(&self, weight: u32, delta: u64) -> bool {
        if self.kind == flags::WEIGHTS_F32 {
            f32::from_bits(weight) < f32::from_bits(delta as u32)
        } else {
            (weight as u64) < delta
        }
    }
}

/// A vertex's distance, from L2 (see the module's documentation).
///
/// # Safety
/// `distances` holds `v + 1` entries or more.
#[inline(always)]
pub unsafe fn distance_of(distances: *const u64, v: u32) -> u64 {
    // SAFETY: forwarded from the caller.
    unsafe { core::ptr::read_volatile(distances.add(v as usize)) }
}

/// A vertex's distance through L1, for steps of the whole grid: the grid barrier before the
/// step invalidated every multiprocessor's L1, so the value read is at most the one the step
/// began with, and a decrease during the step queues the vertex again for the next step,
/// which relaxes from the lower distance (the caveat of the module's documentation does not
/// arise). Not for block 0's steps alone, which pass only block barriers.
///
/// # Safety
/// `distances` holds `v + 1` entries or more, in global memory.
#[inline(always)]
pub unsafe fn distance_in_grid_step(distances: *const u64, v: u32) -> u64 {
    // SAFETY: forwarded from the caller.
    unsafe { crate::prelude::load_cached_u64(distances.add(v as usize)) }
}

/// A run's distance words, 8 bytes each, or 4 with [`flags::NARROW_DISTANCES`] (`u32::MAX`
/// unreached): what is read comes back, and what is offered goes in, as an 8-byte distance
/// either way, so the kernels' arithmetic does not change. The flag is the same for every
/// thread, so its branches never split a warp.
#[derive(Clone, Copy)]
pub struct DistanceWords {
    pub words: *mut u64,
    pub narrow: bool,
}

impl DistanceWords {
    #[inline(always)]
    fn narrow_at(self, v: u32) -> *mut u32 {
        self.words.cast::<u32>().wrapping_add(v as usize)
    }

    /// [`distance_of`] (from L2).
    ///
    /// # Safety
    /// The words hold `v + 1` entries or more, in global memory.
    #[inline(always)]
    pub unsafe fn of(self, v: u32) -> u64 {
        // SAFETY: forwarded from the caller.
        unsafe {
            if self.narrow {
                widened(core::ptr::read_volatile(self.narrow_at(v)))
            } else {
                distance_of(self.words, v)
            }
        }
    }

    /// [`distance_in_grid_step`] (through L1, on steps of the whole grid only).
    ///
    /// # Safety
    /// As for [`Self::of`].
    #[inline(always)]
    pub unsafe fn in_grid_step(self, v: u32) -> u64 {
        // SAFETY: forwarded from the caller.
        unsafe {
            if self.narrow {
                widened(crate::prelude::load_cached_u32(self.narrow_at(v)))
            } else {
                distance_in_grid_step(self.words, v)
            }
        }
    }

    /// The atomic minimum of `v`'s word and `candidate` (below `u32::MAX` when narrow); returns
    /// the distance the word held.
    ///
    /// # Safety
    /// As for [`Self::of`].
    #[inline(always)]
    pub unsafe fn atomic_min(self, v: u32, candidate: u64) -> u64 {
        // SAFETY: forwarded from the caller.
        unsafe {
            if self.narrow {
                widened(crate::prelude::atomic_min_u32(self.narrow_at(v), candidate as u32))
            } else {
                atomic_min_u64(self.words.add(v as usize), candidate)
            }
        }
    }

    /// The atomic minimum without its answer (`red.min`).
    ///
    /// # Safety
    /// As for [`Self::of`].
    #[inline(always)]
    pub unsafe fn reduce_min(self, v: u32, candidate: u64) {
        // SAFETY: forwarded from the caller.
        unsafe {
            if self.narrow {
                crate::prelude::reduce_min_u32(self.narrow_at(v), candidate as u32)
            } else {
                crate::prelude::reduce_min_u64(self.words.add(v as usize), candidate)
            }
        }
    }

    /// [`relax_filtered`] on these words.
    ///
    /// # Safety
    /// As for [`Self::of`].
    #[inline(always)]
    pub unsafe fn relax_filtered(self, v: u32, candidate: u64, read_first: bool) -> bool {
        if !self.narrow {
            // SAFETY: forwarded from the caller.
            return unsafe { relax_filtered(self.words, v, candidate, read_first) };
        }
        // SAFETY: forwarded from the caller.
        unsafe {
            let at = self.narrow_at(v);
            (!read_first || candidate < widened(*at)) && self.atomic_min(v, candidate) > candidate
        }
    }
}

/// Lowers `v`'s distance to `candidate` if that is shorter; true when this call lowered it.
///
/// # Safety
/// `distances` holds `v + 1` entries or more, in global memory.
#[inline(always)]
pub unsafe fn relax(distances: *mut u64, v: u32, candidate: u64) -> bool {
    // SAFETY: forwarded from the caller.
    unsafe { relax_filtered(distances, v, candidate, true) }
}

/// [`relax`], reading the distance first only when `read_first`: the read spares the atomic
/// where most candidates lose (big steps, where atomics contend), the atomic alone spares a
/// round trip to L2 where the chain of dependent accesses is the step's time (block 0 alone).
///
/// # Safety
/// As for [`relax`].
#[inline(always)]
pub unsafe fn relax_filtered(distances: *mut u64, v: u32, candidate: u64, read_first: bool) -> bool {
    // SAFETY: forwarded from the caller.
    unsafe {
        let at = distances.add(v as usize);
        (!read_first || candidate < *at) && atomic_min_u64(at, candidate) > candidate
    }
}

/// Whether `v` still needs a place in the list marked `mark`: true for the first caller with
/// this mark (the marks dedupe a list to at most one entry a vertex).
///
/// # Safety
/// `marks` holds `v + 1` words or more, in global memory.
#[inline(always)]
pub unsafe fn first_to_mark(marks: *mut u32, v: u32, mark: u32) -> bool {
    // SAFETY: forwarded from the caller.
    unsafe { first_to_mark_filtered(marks, v, mark, true) }
}

/// [`first_to_mark`], reading the mark first only when `read_first` (see [`relax_filtered`]).
///
/// # Safety
/// As for [`first_to_mark`].
#[inline(always)]
pub unsafe fn first_to_mark_filtered(marks: *mut u32, v: u32, mark: u32, read_first: bool) -> bool {
    // SAFETY: forwarded from the caller.
    unsafe { (!read_first || *marks.add(v as usize) != mark) && atomic_exch_u32(marks.add(v as usize), mark) != mark }
}

/// Appends `v` to `list` (counted by `len`) where `want`, one atomic per warp. All lanes of a
/// warp call it together.
///
/// # Safety
/// `list` has room for every vertex appended; `len` is a global word only appends change.
#[inline(always)]
pub unsafe fn append(want: bool, v: u32, list: *mut u32, len: *mut u32) {
    // SAFETY: forwarded from the caller.
    unsafe {
        if let Some(slot) = warp_aggregated_append(FULL_MASK, want, len) {
            *list.add(slot as usize) = v;
        }
    }
}

/// The smallest `value` of the warp's lanes (every lane gets it). All lanes call it.
#[inline(always)]
pub fn warp_min_u64(mut value: u64) -> u64 {
    let mut offset = 16;
    while offset > 0 {
        let other = shfl_idx_sync_u64(FULL_MASK, value, lane_id() ^ offset);
        value = value.min(other);
        offset /= 2;
    }
    value
}

/// Unreached, as every SSSP kernel writes it.
pub const UNREACHED: u64 = UNREACHED_DISTANCE;
