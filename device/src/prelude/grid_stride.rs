//! The grid-stride loop: each thread takes indices `global_idx, global_idx + threads, ...`,
//! so one launch of any size covers any `n` and consecutive threads touch consecutive
//! elements (coalesced).

use crate::prelude::{global_idx, global_threads};

pub struct GridStride {
    next: u64,
    end: u64,
    stride: u64,
}

impl Iterator for GridStride {
    type Item = u64;

    #[inline(always)]
    fn next(&mut self) -> Option<u64> {
        if self.next < self.end {
            let i = self.next;
            self.next += self.stride;
            Some(i)
        } else {
            None
        }
    }
}

/// This thread's indices in `0..n`.
#[inline(always)]
pub fn grid_stride(n: u64) -> GridStride {
    GridStride { next: global_idx() as u64, end: n, stride: global_threads() as u64 }
}
