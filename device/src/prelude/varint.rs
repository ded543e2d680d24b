//! Decoding delta-varint neighbor lists on the device (Moschou 2026, section 2.1: the
//! compressed CSR that lets a graph too big for GPU memory stream over the bus in fewer
//! bytes). The format is the host's `host/src/graph/compressed.rs`: per list, the first
//! neighbor as `zigzag(t0 - v)`, then `t[i] - t[i-1] - 1`, each a LEB128 varint of 1 to 5
//! bytes.
//!
//! Ids are summed in wrapping `u32` arithmetic: every true id fits `u32`, and the sum of a
//! list's deltas modulo 2^32 is the id whatever the intermediate carries, so the warp decoder
//! can scan deltas without 64-bit shuffles.

use crate::prelude::{ballot_sync, lane_id, lanemask_lt, shfl_idx_sync, warp_inclusive_scan, FULL_MASK, WARP_SIZE};

/// Where a list (or a piece of one) starts decoding.
#[derive(Clone, Copy)]
pub struct ListStart {
    /// The vertex whose list this is: the first varint of a list is relative to it.
    pub vertex: u32,
    /// The neighbor before the first varint to decode; ignored when `at_list_start`.
    pub previous: u32,
    /// Whether the first varint is the list's first (zigzag, relative to `vertex`).
    pub at_list_start: bool,
}

impl ListStart {
    /// The start of `vertex`'s whole list.
    #[inline(always)]
    pub fn list(vertex: u32) -> Self {
        ListStart { vertex, previous: 0, at_list_start: true }
    }

    /// The delta that takes `previous` to the neighbor encoded by `value`, in wrapping
    /// arithmetic: either the first neighbor relative to the vertex or a gap less one.
    #[inline(always)]
    fn delta(&self, value: u64, first: bool, previous: u32) -> u32 {
        if first {
            let signed = ((value >> 1) as i64) ^ -((value & 1) as i64);
            ((self.vertex as i64 + signed) as u32).wrapping_sub(previous)
        } else {
            value as u32 + 1
        }
    }
}

/// One thread's sequential decoder over bytes `pos..end`. It reads aligned 64-bit words and
/// keeps the last one, so a list costs about an eighth of the loads of byte-by-byte reading:
/// over the bus (a zero-copy graph) every load is a request, and requests, not bytes, bound a
/// bottom-up step that reads the first few bytes of millions of lists.
///
/// The byte array must start 8-byte aligned and be readable up to the next multiple of 8
/// past its last byte (the host pads it).
pub struct ThreadDecoder {
    bytes: *const u8,
    pub pos: u64,
    pub end: u64,
    word_index: u64,
    word: u64,
    start: ListStart,
    previous: u32,
}

impl ThreadDecoder {
    /// # Safety
    /// `bytes[pos..end]` is readable, under the alignment and padding rules above.
    #[inline(always)]
    pub unsafe fn new(bytes: *const u8, pos: u64, end: u64, start: ListStart) -> Self {
        ThreadDecoder { bytes, pos, end, word_index: u64::MAX, word: 0, start, previous: start.previous }
    }

    #[inline(always)]
    pub fn has_next(&self) -> bool {
        self.pos < self.end
    }

    #[inline(always)]
    fn next_byte(&mut self) -> u32 {
        let index = self.pos >> 3;
        if index != self.word_index {
            // SAFETY: `pos < end` when called (see `next`), and the padded array covers the
            // aligned word that holds it.
            self.word = unsafe { *(self.bytes as *const u64).add(index as usize) };
            self.word_index = index;
        }
        let byte = ((self.word >> ((self.pos & 7) * 8)) & 0xff) as u32;
        self.pos += 1;
        byte
    }

    /// The next neighbor; call only while [`has_next`](Self::has_next). A malformed varint
    /// (over 5 bytes) is cut at 5 bytes rather than read past the list.
    #[inline(always)]
    pub fn next(&mut self) -> u32 {
        let mut value = 0u64;
        let mut shift = 0;
        loop {
            let byte = self.next_byte();
            value |= ((byte & 0x7f) as u64) << shift;
            shift += 7;
            if byte & 0x80 == 0 || shift >= 35 || self.pos >= self.end {
                break;
            }
        }
        let first = self.start.at_list_start;
        self.previous = self.previous.wrapping_add(self.start.delta(value, first, self.previous));
        self.start.at_list_start = false;
        self.previous
    }
}

/// Decodes bytes `pos..end` with the whole warp, 32 bytes a round: each lane reads one byte,
/// a ballot marks the varints' last bytes, every lane that ends a varint assembles it from up
/// to 5 lanes by shuffles, and an inclusive scan of the deltas turns them into ids. Calls
/// `visit(valid, neighbor)` on all 32 lanes once a round (valid on the lanes that ended a
/// varint). All 32 lanes must call it with the same arguments.
///
/// # Safety
/// `bytes[pos..end]` is readable and holds whole varints.
#[inline(always)]
pub unsafe fn warp_decode(bytes: *const u8, pos: u64, end: u64, start: ListStart, mut visit: impl FnMut(bool, u32)) {
    // SAFETY: forwarded from the caller.
    unsafe {
        warp_decode_until(bytes, pos, end, start, |valid, neighbor| {
            visit(valid, neighbor);
            false
        })
    };
}

/// [`warp_decode`] with early exit: stops after the first round for which `visit` returns
/// true (it must return the same on every lane). Within a round the valid lanes hold
/// consecutive neighbors in list order, lowest lane first. Returns the end of the bytes the
/// warp loaded: the last round's window, `min(its start + 32, end)` (`pos` when the list is
/// empty).
///
/// # Safety
/// `bytes[pos..end]` is readable and holds whole varints.
#[inline(always)]
pub unsafe fn warp_decode_until(
    bytes: *const u8,
    mut pos: u64,
    end: u64,
    start: ListStart,
    mut visit: impl FnMut(bool, u32) -> bool,
) -> u64 {
    let lane = lane_id();
    let mut loaded_end = pos;
    let mut previous = start.previous;
    let mut at_list_start = start.at_list_start;
    while pos < end {
        let index = pos + lane as u64;
        // SAFETY: `index < end`, inside the list.
        let byte = if index < end { unsafe { *bytes.add(index as usize) as u32 } } else { 0x80 };
        loaded_end = (pos + WARP_SIZE as u64).min(end);
        let ends_varint = byte & 0x80 == 0;
        let ends = ballot_sync(FULL_MASK, ends_varint);
        if ends == 0 {
            return loaded_end; // malformed: no varint ends within 32 bytes
        }
        let below = ends & lanemask_lt();
        let first_lane = if below == 0 { 0 } else { WARP_SIZE - below.leading_zeros() };
        let mut value = 0u64;
        let mut k = 0;
        while k < 5 {
            let source = (first_lane + k).min(WARP_SIZE - 1);
            let b = shfl_idx_sync(FULL_MASK, byte, source);
            if first_lane + k <= lane {
                value |= ((b & 0x7f) as u64) << (7 * k);
            }
            k += 1;
        }
        let first = at_list_start && below == 0;
        let delta = if ends_varint { start.delta(value, first, previous) } else { 0 };
        let neighbor = previous.wrapping_add(warp_inclusive_scan(delta));
        if visit(ends_varint, neighbor) {
            return loaded_end;
        }
        let last = WARP_SIZE - 1 - ends.leading_zeros();
        previous = shfl_idx_sync(FULL_MASK, neighbor, last);
        at_list_start = false;
        pos += last as u64 + 1;
    }
    loaded_end
}
