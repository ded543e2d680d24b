//! The kernels around the shortest-paths runs: `sssp_init` (distances and marks),
//! `sssp_parents` (the shortest-path tree from the settled distances), `sssp_weight_sum`
//! (the sum and minimum of the weights, from which the host chooses delta) and `sssp_unpack`
//! (the results split for the download).
//!
//! Parents are found after the distances settle rather than during relaxation: integer
//! distances take all 64 bits, so a distance and a parent do not pack into one word for one
//! atomic, and a parent written beside a racing `atom.min` can belong to a candidate that lost.
//! One pass over the reached vertices' lists costs about one relaxation sweep, and only runs
//! when parents are asked for. A parent `u` of `v` is any in-neighbor on a shortest path,
//! `dist[u] + w == dist[v]`; where `dist[u] < dist[v]` that can form no cycle, but equal
//! distances (zero weights, or a float weight lost to rounding) could, so such an edge only
//! counts once `u` got its parent in an earlier pass (levels), and passes repeat until one sets
//! nothing. Graph500's kernel 3 validation asks the same of the tree (section 8.3 of its
//! specification). Where every tight edge ascends (`flags::PARENTS_ASCENDING`: unit weights,
//! integer weights of at least 1), one pass settles it without levels.

use crate::operators::gather::{gather_tile, EdgeVisitor, TileScratch, BATCH};
use crate::prelude::*;
use crate::sssp::{WeightReader, UNREACHED as UNREACHED_DISTANCE};
use warpath_interface::sssp::{
    flags, packed_distance, packed_word, weight_kind, widened, SsspInitParams, SsspParentsParams, SsspUnpackParams,
    SsspWeightSumParams, FLOAT_WEIGHT_SCALE, SSSP_BLOCK,
};

const BLOCK: usize = SSSP_BLOCK as usize;

/// Whether `v` is one of the `count` sorted vertex ids of `sources` (a binary search: each
/// vertex asks once, so the sources need no second pass that would race with the first).
///
/// # Safety
/// `sources` holds `count` entries.
#[inline(always)]
unsafe fn is_source(sources: *const u32, count: u32, v: u32) -> bool {
    let (mut low, mut high) = (0u32, count);
    while low < high {
        let middle = low + (high - low) / 2;
        // SAFETY: `middle < count`.
        let at = unsafe { *sources.add(middle as usize) };
        if at == v {
            return true;
        }
        if at < v {
            low = middle + 1;
        } else {
            high = middle;
        }
    }
    false
}

/// `sssp_init`: every distance unreached but the sources', 0 (packed: 0 from the source
/// itself; narrow: 4-byte words, `flags::NARROW_DISTANCES`); every mark 0.
///
/// # Safety
/// `distances` holds `n` entries (`n` 4-byte words when narrow), `marks` `mark_words`;
/// `sources` holds `source_count` sorted ids `< n`.
#[inline(always)]
pub unsafe fn init(params: SsspInitParams) {
    let SsspInitParams { distances, marks, sources, mark_words, n, source_count, word_flags } = params;
    let packed = word_flags & flags::PACKED_PARENTS != 0;
    let narrow = word_flags & flags::NARROW_DISTANCES != 0;
    for v in grid_stride(n as u64) {
        // SAFETY: `v < n`; `sources` holds `source_count` entries.
        unsafe {
            let own = is_source(sources, source_count, v as u32);
            if narrow {
                *distances.cast::<u32>().add(v as usize) = if own { 0 } else { u32::MAX };
            } else {
                let source = if packed { packed_word(0, v as u32) } else { 0 };
                *distances.add(v as usize) = if own { source } else { UNREACHED_DISTANCE };
            }
        }
    }
    for i in grid_stride(mark_words) {
        // SAFETY: `i < mark_words`.
        unsafe { *marks.add(i as usize) = 0 };
    }
}

/// Visits the edges of reached vertices, setting parents (see the module documentation).
struct ParentFinder {
    targets: *const u32,
    reader: WeightReader,
    distances: *const u64,
    parents: *mut u32,
    levels: *mut u32,
    pass: u32,
    set: u32,
    /// `flags::PARENTS_ASCENDING`.
    ascending: bool,
}

impl ParentFinder {
    /// Takes `owner` as `v`'s parent when the edge of `weight` lies on a shortest path and
    /// would close no cycle.
    #[inline(always)]
    unsafe fn consider(&mut self, valid: bool, v: u32, weight: u32, owner: u32) {
        if !valid {
            return;
        }
        if self.ascending {
            // SAFETY: as below. Racing writers of `v`'s parent all write tight owners, so any
            // one of them is a parent; the distances are read before anything else, and the
            // levels (a random access an edge) not at all.
            unsafe {
                let to = *self.distances.add(v as usize);
                if to != UNREACHED_DISTANCE && self.reader.extend(*self.distances.add(owner as usize), weight) == to {
                    *self.parents.add(v as usize) = owner;
                }
            }
            return;
        }
        // SAFETY: `owner` and `v` are vertices `< n`; the arrays hold `n` entries.
        unsafe {
            let level = self.levels.add(v as usize);
            if *level != UNREACHED {
                return;
            }
            // Plain loads, through L1: the distances are settled, nothing writes them now.
            let from = *self.distances.add(owner as usize);
            let to = *self.distances.add(v as usize);
            let tight = self.reader.extend(from, weight) == to;
            // Strictly shorter: no cycle. Equal: only from a vertex placed in an earlier pass.
            if tight && (from < to || core::ptr::read_volatile(self.levels.add(owner as usize)) < self.pass) {
                *self.parents.add(v as usize) = owner;
                *level = self.pass;
                self.set += 1;
            }
        }
    }
}

impl EdgeVisitor for ParentFinder {
    type Loaded = ([u32; BATCH], [u32; BATCH]);

    #[inline(always)]
    unsafe fn visit(&mut self, valid: bool, edge: u64, owner: u32) {
        if valid {
            // SAFETY: a valid edge lies in `owner`'s list.
            unsafe {
                let v = *self.targets.add(edge as usize);
                let weight = self.reader.weight(edge);
                self.consider(true, v, weight, owner);
            }
        }
    }

    #[inline(always)]
    unsafe fn load(&mut self, edges: [u64; BATCH]) -> Self::Loaded {
        // SAFETY: every edge lies in a list of the graph.
        unsafe {
            (
                core::array::from_fn(|k| *self.targets.add(edges[k] as usize)),
                core::array::from_fn(|k| self.reader.weight(edges[k])),
            )
        }
    }

    #[inline(always)]
    unsafe fn visit_loaded(&mut self, valid: [bool; BATCH], loaded: Self::Loaded, owners: [u32; BATCH]) {
        // Slot by slot, as the delta-stepping visitor does (a rolled loop keeps the batch's
        // arrays in local memory).
        const _: () = assert!(BATCH == 2, "visit_loaded names each slot");
        // SAFETY (both): targets of the graph's edges.
        unsafe {
            self.consider(valid[0], loaded.0[0], loaded.1[0], owners[0]);
            self.consider(valid[1], loaded.0[1], loaded.1[1], owners[1]);
        }
    }
}

/// `sssp_parents`: pass 0 sets every source as its own parent (level 0) and every other parent
/// and level unset; each later pass gathers the lists of the reached vertices, tile by tile
/// (scan+warp+CTA, Merrill et al. 2012, section 4.1), setting the parents it may and adding
/// their number to `control[0]`.
///
/// # Safety
/// Blocks of `SSSP_BLOCK` threads. `offsets` has `n + 1` entries and `targets` (and `weights`,
/// unless unit) `offsets[n]`, every target `< n`; `distances` are the settled distances from
/// the `source_count` sorted ids of `sources`; `parents` and `levels` hold `n` entries;
/// `control` a word.
#[inline(always)]
pub unsafe fn parents(params: SsspParentsParams) {
    // SAFETY: declared once, before any control flow.
    let scratch = unsafe { TileScratch::<BLOCK>::declare() };
    let SsspParentsParams {
        offsets,
        targets,
        weights,
        distances,
        parents,
        levels,
        control,
        sources,
        n,
        source_count,
        pass,
        flags,
    } = params;
    if pass == 0 {
        for v in grid_stride(n as u64) {
            // SAFETY: `sources` holds `source_count` entries.
            let own = unsafe { is_source(sources, source_count, v as u32) };
            // SAFETY: `v < n`.
            unsafe {
                *parents.add(v as usize) = if own { v as u32 } else { UNREACHED };
                *levels.add(v as usize) = if own { 0 } else { UNREACHED };
            }
        }
        return;
    }
    let mut finder = ParentFinder {
        targets,
        reader: WeightReader { kind: weight_kind(flags), weights },
        distances,
        parents,
        levels,
        pass,
        set: 0,
        ascending: flags & flags::PARENTS_ASCENDING != 0,
    };
    let tiles = n.div_ceil(SSSP_BLOCK);
    let mut tile = block_idx();
    while tile < tiles {
        let u = tile * SSSP_BLOCK + thread_idx();
        // SAFETY: `u < n` where read.
        let (start, end) = unsafe {
            if u < n && *distances.add(u as usize) != UNREACHED_DISTANCE {
                (*offsets.add(u as usize), *offsets.add(u as usize + 1))
            } else {
                (0, 0)
            }
        };
        // SAFETY: the lists of reached vertices of the graph.
        unsafe { gather_tile(&scratch, u, start, end, WARP_SIZE as u64, &mut finder) };
        tile += grid_dim();
    }
    let set = warp_sum_u64(finder.set as u64);
    if lane_id() == 0 && set > 0 {
        // SAFETY: `control` is a global word.
        unsafe { atomic_add_u64(control, set) };
    }
}

/// `sssp_weight_sum`: `sum[0]` += every weight, `sum[1]` = min(`sum[1]`, every weight), and
/// `sum[2]` = min(`sum[2]`, `u64::MAX` - every weight) (the largest, by the one atomic minimum),
/// floats in units of 2^-16 capped at 2^32 each (so the sum of up to 2^32 weights fits).
///
/// # Safety
/// `weights` holds `m` words of the flag word's kind (not unit); `sum` three words.
#[inline(always)]
pub unsafe fn weight_sum(params: SsspWeightSumParams) {
    let SsspWeightSumParams { weights, sum, m, flags: flag_word } = params;
    let float = weight_kind(flag_word) == flags::WEIGHTS_F32;
    let (mut total, mut smallest, mut largest) = (0u64, u64::MAX, 0u64);
    for e in grid_stride(m) {
        // SAFETY: `e < m`.
        let word = unsafe { *weights.add(e as usize) };
        let value =
            if float { (f32::from_bits(word) * FLOAT_WEIGHT_SCALE).min(4294967296.0) as u64 } else { word as u64 };
        total += value;
        smallest = smallest.min(value);
        largest = largest.max(value);
    }
    let total = warp_sum_u64(total);
    let smallest = crate::sssp::warp_min_u64(smallest);
    let below_largest = crate::sssp::warp_min_u64(u64::MAX - largest);
    if lane_id() == 0 {
        // SAFETY: `sum` holds three global words.
        unsafe {
            atomic_add_u64(sum, total);
            atomic_min_u64(sum.add(1), smallest);
            atomic_min_u64(sum.add(2), below_largest);
        }
    }
}

/// `sssp_unpack`: the results split for the download, one thread a vertex. Packed words
/// ([`flags::PACKED_PARENTS`]) give their parent to `parents` (unless null) and keep their
/// distance; float runs write each word's float to `floats`. The host then reads the arrays
/// back as the caller reads them, where a pass of its own over the words cost more than the
/// bus (bench/NOTES.md 104). Narrow words ([`flags::NARROW_DISTANCES`]) are widened from
/// `narrow` into `words` first.
///
/// # Safety
/// `words` holds `n` entries; `parents` (unless null), `narrow` (when narrow) and, for float
/// weights, `floats` too.
#[inline(always)]
pub unsafe fn unpack(params: SsspUnpackParams) {
    let SsspUnpackParams { narrow, words, parents, floats, n, flags: flag_word } = params;
    let packed = flag_word & flags::PACKED_PARENTS != 0;
    let float = weight_kind(flag_word) == flags::WEIGHTS_F32;
    let from_narrow = flag_word & flags::NARROW_DISTANCES != 0;
    for v in grid_stride(n as u64) {
        // SAFETY: `v < n`; the arrays read and written hold `n` entries (the contract).
        unsafe {
            let word = words.add(v as usize);
            let value = if from_narrow { widened(*narrow.add(v as usize)) } else { *word };
            if from_narrow {
                *word = value;
            }
            if packed {
                if !parents.is_null() {
                    *parents.add(v as usize) = if value == UNREACHED_DISTANCE { UNREACHED } else { value as u32 };
                }
                *word = packed_distance(value);
            } else if float {
                *floats.add(v as usize) =
                    if value == UNREACHED_DISTANCE { f32::INFINITY } else { f32::from_bits(value as u32) };
            }
        }
    }
}

warpath_interface::sssp_init_fields!(warpath_interface::kernel_entry => init);
warpath_interface::sssp_parents_fields!(warpath_interface::kernel_entry => parents);
warpath_interface::sssp_weight_sum_fields!(warpath_interface::kernel_entry => weight_sum);
warpath_interface::sssp_unpack_fields!(warpath_interface::kernel_entry => unpack);
