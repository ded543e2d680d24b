//! Frontier conversions between the two forms a level-synchronous traversal keeps a frontier
//! in: a queue (vertex ids) and a bitmap (one bit per vertex, 32 to a word). Merrill, Garland
//! and Grimshaw (PPoPP 2012) expand from queues; Beamer et al.'s bottom-up (SC 2012) and
//! XBFS's adaptive generation (Gaihre et al., HPDC 2019, section 4) read and write bitmaps,
//! so a traversal that switches between them converts: a queue is scattered into a bitmap,
//! a bitmap packed into a queue by one scan of its words.

use crate::prelude::*;

/// Zeroes `words` words of `bits`, shared out over the grid (the caller passes a grid barrier
/// before anyone sets a bit).
///
/// # Safety
/// `bits` holds `words` words.
#[inline(always)]
pub unsafe fn clear_bitmap(bits: *mut u32, words: u32) {
    for w in grid_stride(words as u64) {
        // SAFETY: `w < words`.
        unsafe { *bits.add(w as usize) = 0 };
    }
}

/// Sets the bit of every vertex of `queue[..len]` in `bits`, shared out over the grid, by
/// atomic OR (several queue entries may share a word).
///
/// # Safety
/// `queue` holds `len` vertex ids, each with its word in `bits`.
#[inline(always)]
pub unsafe fn scatter_queue_to_bitmap(queue: *const u32, len: u32, bits: *mut u32) {
    for i in grid_stride(len as u64) {
        // SAFETY: `i < len`, the queue's length; entries are vertices with words in `bits`.
        unsafe {
            let v = *queue.add(i as usize);
            atomic_or_u32(bits.add(v as usize / 32), 1 << (v % 32));
        }
    }
}

/// Packs the vertices whose bits `word_at(w)` sets, over `words` bitmap words, into `queue`:
/// [`pack_bitmap_words_with`], each vertex written at its position.
///
/// # Safety
/// As for [`pack_bitmap_words_with`]; `queue` has room for `*fill` plus every vertex the words
/// name.
#[inline(always)]
pub unsafe fn pack_bitmap_words<const BLOCK: u32>(
    words: u32,
    queue: *mut u32,
    fill: *mut u32,
    scan: &ScanScratch,
    base: &SharedArray<u32, 2>,
    word_at: impl Fn(u32) -> u32,
) {
    // SAFETY: forwarded from the caller; every position is below the room it promises.
    unsafe {
        pack_bitmap_words_with::<BLOCK>(words, fill, scan, base, word_at, |position, vertex| {
            *queue.add(position as usize) = vertex
        })
    };
}

/// Packs the vertices whose bits `word_at(w)` sets, over `words` bitmap words, into positions
/// `*fill..` of a queue, handing `emit` each vertex (bit `b` of word `w` is vertex `32 w + b`)
/// and its position: each block of `BLOCK` threads takes `BLOCK` words at a time, a block-wide
/// scan of their popcounts places every vertex, and one atomic per block and round on `fill`
/// (the queue's length so far) reserves the space. `word_at` runs once per word, in one thread,
/// so it may also write that word elsewhere (XBFS's double-scan clears the next frontier's word
/// as it reads the visited one). Vertices land in ascending order within each round; rounds in
/// any order. `base` is block-shared scratch for the round's reservation.
///
/// # Safety
/// Every thread of every block calls it (it has block barriers), with `BLOCK` threads a block;
/// `word_at` is safe to call for every `w < words`; `fill` is a counter in global memory;
/// `emit` is safe to call for every position it is handed.
#[inline(always)]
pub unsafe fn pack_bitmap_words_with<const BLOCK: u32>(
    words: u32,
    fill: *mut u32,
    scan: &ScanScratch,
    base: &SharedArray<u32, 2>,
    word_at: impl Fn(u32) -> u32,
    emit: impl Fn(u32, u32),
) {
    let tid = thread_idx();
    let rounds = words.div_ceil(BLOCK);
    let mut round = block_idx();
    while round < rounds {
        let w = round * BLOCK + tid;
        let word = if w < words { word_at(w) } else { 0 };
        let (offset, total) = block_exclusive_scan(popc(word), scan);
        if tid == 0 && total > 0 {
            // SAFETY: `fill` is a counter in global memory (the caller's contract).
            base.set(0, unsafe { atomic_add_u32(fill, total) });
        }
        sync_threads();
        let mut position = base.get(0).wrapping_add(offset);
        let mut remaining = word;
        while remaining != 0 {
            emit(position, w * 32 + remaining.trailing_zeros());
            position += 1;
            remaining &= remaining - 1;
        }
        sync_threads();
        round += grid_dim();
    }
}
