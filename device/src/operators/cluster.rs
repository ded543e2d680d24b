//! Vertices held by one Hopper thread-block cluster (the sm_90 module; `bfs::cluster`,
//! `sssp::cluster`): vertex `v` belongs to block `v % 16`, which keeps a bit for it in each of
//! its bitmaps in dynamic shared memory and, where they fit, its list bounds after them
//! (`warpath_interface::cluster` sizes both). A bitmap is a frontier or a worklist that never
//! overflows and takes each vertex once: another block sets a bit with a posted
//! `red.shared::cluster.or` (nothing waits for it; the cluster barrier makes it visible), and
//! the owner's threads take their words of it, a word a thread, without atomics.
//!
//! A vertex's local index `v / 16` sits in word `local % words`, bit `local / words` (`words`
//! a power of two): the vertices of one word lie `16 * words` ids apart, so a frontier of
//! nearby ids falls into different words, and threads.

use warpath_interface::cluster::{CLUSTER_BLOCK, CLUSTER_BLOCKS};

use crate::prelude::*;

/// A vertex's owner is its id's low bits; its local index the rest.
const OWNER_MASK: u32 = CLUSTER_BLOCKS - 1;
const OWNER_SHIFT: u32 = CLUSTER_BLOCKS.trailing_zeros();
const _: () = assert!(CLUSTER_BLOCKS.is_power_of_two());

/// This block's share of the cluster's vertices: its bitmaps and list bounds.
#[derive(Clone, Copy)]
pub struct ClusterVertices {
    offsets: *const u64,
    n: usize,
    rank: u32,
    words: u32,
    /// `log2(words)`.
    word_shift: u32,
    /// Shared-window address of bitmap 0; the others follow, then the list bounds.
    base: u32,
    bitmaps: u32,
    /// List bounds of this block's vertices kept in shared memory, or 0: read from `offsets`.
    lists: u32,
}

impl ClusterVertices {
    /// This block's vertices, with `bitmaps` bitmaps of `words` words (a power of two) and
    /// `lists` list bounds in its dynamic shared memory, over the CSR offsets of `n` vertices.
    #[inline(always)]
    pub fn new(offsets: *const u64, n: usize, words: u32, bitmaps: u32, lists: u32) -> ClusterVertices {
        let words = words.max(1);
        ClusterVertices {
            offsets,
            n,
            rank: cluster_rank(),
            words,
            word_shift: words.trailing_zeros(),
            base: dynamic_shared_base(),
            bitmaps,
            lists,
        }
    }

    /// This block's rank in the cluster: the owner of the vertices `v` with `v % 16` equal to it.
    #[inline(always)]
    pub fn rank(&self) -> u32 {
        self.rank
    }

    /// The words of a bitmap.
    #[inline(always)]
    pub fn words(&self) -> u32 {
        self.words
    }

    /// Shared-window address of word `word` of bitmap `bitmap` in this block.
    #[inline(always)]
    pub fn word_address(&self, bitmap: u32, word: u32) -> u32 {
        self.base + 4 * (bitmap * self.words + word)
    }

    /// The vertex at bit `bit` of word `word` of this block's bitmaps, and its local index.
    #[inline(always)]
    pub fn vertex(&self, word: u32, bit: u32) -> (u32, u32) {
        let local = bit << self.word_shift | word;
        ((local << OWNER_SHIFT) | self.rank, local)
    }

    /// Sets `v`'s bit in bitmap `bitmap` of its owner, posted.
    ///
    /// # Safety
    /// `v < n`; only such reductions touch that bitmap until the next cluster barrier.
    #[inline(always)]
    pub unsafe fn push(&self, bitmap: u32, v: u32) {
        let local = v >> OWNER_SHIFT;
        let word = self.word_address(bitmap, local & (self.words - 1));
        // SAFETY: `v < n`, so its local index fits its owner's bitmaps (the host sized `words`
        // for `n`); forwarded from the caller.
        unsafe { or_cluster_u32(map_shared_rank(word, v & OWNER_MASK), 1 << (local >> self.word_shift)) };
    }

    /// Takes word `word` of bitmap `bitmap`: returns it and clears it where it was not empty.
    ///
    /// # Safety
    /// The word is this thread's in this barrier interval, and no block pushes into `bitmap`
    /// in it.
    #[inline(always)]
    pub unsafe fn take(&self, bitmap: u32, word: u32) -> u32 {
        let at = self.word_address(bitmap, word);
        // SAFETY: forwarded from the caller.
        unsafe {
            let bits = load_shared_u32(at);
            if bits != 0 {
                store_shared_u32(at, 0);
            }
            bits
        }
    }

    /// Clears every bitmap, then sets `v`'s bit in bitmap `bitmap` where this block owns it
    /// (`v` may be out of range: then no bit), and copies this block's list bounds into shared
    /// memory. Before the first cluster barrier, by every thread of the block.
    ///
    /// # Safety
    /// The dynamic shared memory holds the bitmaps and lists this was made with; `offsets`
    /// has `n + 1` entries below 2^32.
    #[inline(always)]
    pub unsafe fn prepare(&self, bitmap: u32, v: u32) {
        let (owner, local) = (v & OWNER_MASK, v >> OWNER_SHIFT);
        let seeded = (v as usize) < self.n && owner == self.rank;
        let seed_word = bitmap * self.words + (local & (self.words - 1));
        let mut word = thread_idx();
        while word < self.bitmaps * self.words {
            let bits = if seeded && word == seed_word { 1 << (local >> self.word_shift) } else { 0 };
            // SAFETY: inside the block's bitmaps; this thread's word until the barrier.
            unsafe { store_shared_u32(self.base + 4 * word, bits) };
            word += CLUSTER_BLOCK;
        }
        let mut local = thread_idx();
        while local < self.lists {
            let v = (local << OWNER_SHIFT | self.rank) as usize;
            if v < self.n {
                // SAFETY: `v < n`; the entry is inside this block's lists (the contract).
                unsafe {
                    let (begin, end) = (*self.offsets.add(v), *self.offsets.add(v + 1));
                    let at = self.list_address(local);
                    store_shared_u32(at, begin as u32);
                    store_shared_u32(at + 4, (end - begin) as u32);
                }
            }
            local += CLUSTER_BLOCK;
        }
    }

    /// Shared-window address of the list bounds of this block's vertex `local`.
    #[inline(always)]
    fn list_address(&self, local: u32) -> u32 {
        self.base + 4 * self.bitmaps * self.words + 8 * local
    }

    /// `v`'s first edge and the end of its list (`local` its index in its owner, this block).
    ///
    /// # Safety
    /// `v < n`, a vertex of this block.
    #[inline(always)]
    pub unsafe fn list_of(&self, v: u32, local: u32) -> (u64, u64) {
        if self.lists != 0 {
            let at = self.list_address(local);
            // SAFETY: `local < lists` for a vertex of this block; written before the first
            // barrier and never after.
            let (begin, degree) = unsafe { (load_shared_u32(at), load_shared_u32(at + 4)) };
            (begin as u64, begin as u64 + degree as u64)
        } else {
            // SAFETY: `offsets` has `n + 1` entries (the contract).
            unsafe { (*self.offsets.add(v as usize), *self.offsets.add(v as usize + 1)) }
        }
    }
}
