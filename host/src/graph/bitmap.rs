//! One bit per vertex, set by many threads at once: the CPU BFS's frontiers and a part's
//! ghost marks (`multi::partition`).

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

use rayon::prelude::*;

pub(crate) struct Bitmap {
    words: Vec<AtomicU64>,
}

impl Bitmap {
    /// `n` bits, all clear.
    pub(crate) fn new(n: usize) -> Self {
        Bitmap { words: (0..n.div_ceil(64)).map(|_| AtomicU64::new(0)).collect() }
    }

    pub(crate) fn get(&self, v: u32) -> bool {
        self.words[v as usize / 64].load(Relaxed) & (1 << (v % 64)) != 0
    }

    pub(crate) fn set(&self, v: u32) {
        self.words[v as usize / 64].fetch_or(1 << (v % 64), Relaxed);
    }

    pub(crate) fn clear(&self) {
        self.words.par_iter().for_each(|word| word.store(0, Relaxed));
    }

    /// The words, 64 vertices each, for whole-word reads and stores.
    pub(crate) fn words(&self) -> &[AtomicU64] {
        &self.words
    }

    /// The bits as words, once no thread sets them any more.
    pub(crate) fn into_words(self) -> Vec<u64> {
        self.words.into_iter().map(AtomicU64::into_inner).collect()
    }
}
