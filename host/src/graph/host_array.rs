//! The big arrays of a graph (offsets, targets) in ordinary memory or in memory that someone
//! else supplies: a [`HostMemory`] provider, such as the GPU runtime's pinned, device-mapped
//! host memory (`gpu::PinnedMemory`). A graph built or read straight into such memory reaches
//! the GPU without a host copy: one DMA for device placement, none at all for zero-copy
//! (issue 23, item 2). Everything else reads the arrays as slices, wherever they live.

use std::any::Any;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use rayon::prelude::*;

/// Who supplies memory for a graph's big arrays instead of the global allocator. Set once for
/// a load ([`crate::input::LoadOptions::host_memory`], [`crate::GraphBuilder::host_memory`]) and
/// kept by the graph, so that its transpose comes from the same memory.
pub trait HostMemory: Send + Sync + fmt::Debug {
    /// `bytes` zeroed bytes aligned to at least 8, or `None` when this memory cannot supply
    /// them (pinned memory can be refused by the operating system's limit): the array then
    /// lives in ordinary memory, and nothing else changes.
    fn allocate_zeroed(&self, bytes: usize) -> Option<Box<dyn HostBlock>>;
}

/// One allocation of a [`HostMemory`], freed when dropped. Whoever understands the concrete
/// type (the GPU runtime, for its pinned blocks) finds it through [`HostBlock::as_any`].
pub trait HostBlock: Send + Sync {
    fn bytes(&self) -> &[u8];
    fn bytes_mut(&mut self) -> &mut [u8];
    fn as_any(&self) -> &dyn Any;
}

/// A provider chosen for the whole process (the GPU runtime's is one per process), hence
/// `'static`: options that carry it stay `Copy`.
pub type MemoryProvider = Option<&'static dyn HostMemory>;

/// An array of plain values in ordinary memory (a `Vec`) or in a block of a [`HostMemory`].
/// It dereferences to a slice either way. Clones share a provided block; writing to a shared
/// block first gives the writer its own copy in ordinary memory, so that a placed graph reading
/// the block never sees it change.
pub struct HostArray<T> {
    storage: Storage<T>,
}

enum Storage<T> {
    Owned(Vec<T>),
    Provided { block: Arc<dyn HostBlock>, len: usize },
}

impl<T: bytemuck::Pod + Send + Sync> HostArray<T> {
    /// `len` zeros from `memory` when it gives them (never for an empty array or a zero-sized
    /// type), else in a `Vec`.
    pub fn zeroed(len: usize, memory: MemoryProvider) -> Self {
        let bytes = len * std::mem::size_of::<T>();
        match memory.filter(|_| bytes > 0).and_then(|memory| memory.allocate_zeroed(bytes)) {
            Some(block) => HostArray { storage: Storage::Provided { block: Arc::from(block), len } },
            None => HostArray { storage: Storage::Owned(bytemuck::zeroed_vec(len)) },
        }
    }

    /// `values` in `memory`: copied there by all cores when it takes them, else kept as they are.
    pub fn moved_into(values: Vec<T>, memory: MemoryProvider) -> Self {
        if memory.is_none() {
            return values.into();
        }
        let mut array = HostArray::zeroed(values.len(), memory);
        if array.is_provided() {
            copy_in_parallel(&mut array, &values);
            array
        } else {
            values.into()
        }
    }

    /// This array in `memory`: a vector's values moved there as by
    /// [`moved_into`](Self::moved_into); provided values stay where they are.
    pub fn into_memory(self, memory: MemoryProvider) -> Self {
        match self.storage {
            Storage::Owned(values) => HostArray::moved_into(values, memory),
            provided => HostArray { storage: provided },
        }
    }

    /// The values as a vector: a vector's own, a provided block's copied out.
    pub fn into_vec(self) -> Vec<T> {
        match self.storage {
            Storage::Owned(values) => values,
            Storage::Provided { block, len } => {
                bytemuck::cast_slice(&block.bytes()[..len * std::mem::size_of::<T>()]).to_vec()
            }
        }
    }

    /// Whether the values live in a provider's block.
    pub fn is_provided(&self) -> bool {
        matches!(self.storage, Storage::Provided { .. })
    }

    /// The provider's block holding the values, for code that knows its concrete type (the
    /// GPU runtime recognises its pinned blocks); `None` for a `Vec`.
    pub fn block(&self) -> Option<&Arc<dyn HostBlock>> {
        match &self.storage {
            Storage::Provided { block, .. } => Some(block),
            Storage::Owned(_) => None,
        }
    }

    pub fn as_slice(&self) -> &[T] {
        match &self.storage {
            Storage::Owned(values) => values,
            Storage::Provided { block, len } => bytemuck::cast_slice(&block.bytes()[..len * std::mem::size_of::<T>()]),
        }
    }

    pub fn as_mut_slice(&mut self) -> &mut [T] {
        if let Storage::Provided { block, len } = &mut self.storage {
            if Arc::get_mut(block).is_none() {
                // Shared (with a clone, or a placed graph): this writer gets its own copy.
                let own: Vec<T> = bytemuck::cast_slice(&block.bytes()[..*len * std::mem::size_of::<T>()]).to_vec();
                self.storage = Storage::Owned(own);
            }
        }
        match &mut self.storage {
            Storage::Owned(values) => values,
            Storage::Provided { block, len } => {
                let block = Arc::get_mut(block).expect("made unique above");
                bytemuck::cast_slice_mut(&mut block.bytes_mut()[..*len * std::mem::size_of::<T>()])
            }
        }
    }
}

/// Copies `from` into `to` (of the same length) in pieces of a megabyte, all cores at once:
/// one core moves only a few GB/s.
fn copy_in_parallel<T: Copy + Send + Sync>(to: &mut [T], from: &[T]) {
    let piece = ((1 << 20) / std::mem::size_of::<T>().max(1)).max(1);
    to.par_chunks_mut(piece).zip(from.par_chunks(piece)).for_each(|(to, from)| to.copy_from_slice(from));
}

impl<T> From<Vec<T>> for HostArray<T> {
    fn from(values: Vec<T>) -> Self {
        HostArray { storage: Storage::Owned(values) }
    }
}

impl<T: bytemuck::Pod + Send + Sync> Deref for HostArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: bytemuck::Pod + Send + Sync> DerefMut for HostArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Clone> Clone for HostArray<T> {
    fn clone(&self) -> Self {
        let storage = match &self.storage {
            Storage::Owned(values) => Storage::Owned(values.clone()),
            Storage::Provided { block, len } => Storage::Provided { block: Arc::clone(block), len: *len },
        };
        HostArray { storage }
    }
}

impl<T: bytemuck::Pod + Send + Sync + PartialEq> PartialEq for HostArray<T> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: bytemuck::Pod + Send + Sync + Eq> Eq for HostArray<T> {}

impl<T: bytemuck::Pod + Send + Sync + fmt::Debug> fmt::Debug for HostArray<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_provided() {
            f.write_str("provided ")?;
        }
        f.debug_list().entries(self.as_slice()).finish()
    }
}
