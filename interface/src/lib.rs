//! Everything warpath's host (`host/`) and its GPU kernels (`device/`) must agree on, defined
//! once and compiled for both sides: the kernels' names and parameter lists, the control
//! blocks they share with the host, their flag words with named bits, and the layout of the
//! trace records they write. Organised by algorithm ([`bfs`], [`cc`], [`scc`], [`sssp`]), the
//! kernels over a placed graph itself in [`graph`], with the kernel names in [`names`].
//!
//! A kernel's parameters are one `#[repr(C)]` struct, declared with [`kernel_params!`] from a
//! field list that the interface keeps in one macro per kernel (`bfs_persistent_fields!` and
//! the like). The device expands the same list with [`kernel_entry!`] into the kernel's entry
//! point, one PTX parameter per field in field order, and rebuilds the struct inside; the
//! host launches with the struct, one parameter per field from [`KernelParams::FIELDS`]. The
//! kernel does not take the struct by value: rustc's `ptx-kernel` ABI would pass it as one
//! `.param` byte array, but as an array of integers, so the pointers read out of it would lose
//! what LLVM infers for pointer parameters of a kernel (that they point into global memory),
//! and every load and store through them would become a generic one.
//!
//! `no_std` and dependency-free (the optional `bytemuck` feature adds the host's `Pod`
//! derives), so the kernel crate builds it for `nvptx64-nvidia-cuda`.
#![no_std]

pub mod bfs;
pub mod cc;
pub mod cluster;
pub mod compressed;
pub mod graph;
pub mod names;
mod params;
pub mod scc;
pub mod sssp;

pub use params::{DeviceAddress, DevicePtr, DevicePtrMut, KernelParams, ParamField};

#[cfg(test)]
mod tests;
