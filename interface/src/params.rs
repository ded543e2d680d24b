//! Kernel parameter structs and the macros that declare them and the kernels' entry points.

/// A device address of `T`s as the host holds it: 64 bits, never dereferenced on the host.
#[repr(transparent)]
pub struct DeviceAddress<T> {
    pub address: u64,
    marker: core::marker::PhantomData<fn() -> T>,
}

impl<T> DeviceAddress<T> {
    /// A null address: the kernels read it as "absent" where their contract allows it.
    pub const NULL: DeviceAddress<T> = DeviceAddress::new(0);

    pub const fn new(address: u64) -> DeviceAddress<T> {
        DeviceAddress { address, marker: core::marker::PhantomData }
    }
}

impl<T> Clone for DeviceAddress<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for DeviceAddress<T> {}

impl<T> core::fmt::Debug for DeviceAddress<T> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "{:#x}", self.address)
    }
}

/// A parameter that points to device memory the kernel reads: on the device the raw pointer
/// (so LLVM sees a pointer parameter of a kernel, which it knows points into global memory),
/// on the host the address as 64 bits. Both are 8 bytes, aligned to 8.
#[cfg(target_arch = "nvptx64")]
pub type DevicePtr<T> = *const T;
/// A parameter that points to device memory the kernel writes (see [`DevicePtr`]).
#[cfg(target_arch = "nvptx64")]
pub type DevicePtrMut<T> = *mut T;
/// A parameter that points to device memory the kernel reads (see the device's definition).
#[cfg(not(target_arch = "nvptx64"))]
pub type DevicePtr<T> = DeviceAddress<T>;
/// A parameter that points to device memory the kernel writes.
#[cfg(not(target_arch = "nvptx64"))]
pub type DevicePtrMut<T> = DeviceAddress<T>;

/// Where one field of a kernel's parameter struct lies: the kernel takes it as one parameter,
/// in field order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamField {
    pub name: &'static str,
    pub offset: usize,
    pub size: usize,
    pub align: usize,
}

/// The parameter struct of the kernel named [`KernelParams::KERNEL`], declared by
/// [`kernel_params!`]: each field is one kernel parameter, in the order of [`KernelParams::FIELDS`].
pub trait KernelParams: Copy {
    const KERNEL: &'static str;
    const FIELDS: &'static [ParamField];
}

/// Declares a kernel's parameter struct from its field list (the expansion of a
/// `*_fields!` macro of this crate): `#[repr(C)]`, every field `pub`, and its
/// [`KernelParams`] impl naming the kernel and listing the fields.
#[macro_export]
macro_rules! kernel_params {
    (
        $(#[$meta:meta])*
        kernel $kernel:ident, in [$($module:tt)*], struct $name:ident {
            $($(#[$field_meta:meta])* $field:ident : $ty:ty),* $(,)?
        }
    ) => {
        $(#[$meta])*
        #[repr(C)]
        #[derive(Clone, Copy)]
        #[cfg_attr(not(target_arch = "nvptx64"), derive(Debug))]
        pub struct $name {
            $($(#[$field_meta])* pub $field: $ty),*
        }

        impl $crate::KernelParams for $name {
            const KERNEL: &'static str = stringify!($kernel);
            const FIELDS: &'static [$crate::ParamField] = &[$($crate::ParamField {
                name: stringify!($field),
                offset: core::mem::offset_of!($name, $field),
                size: core::mem::size_of::<$ty>(),
                align: core::mem::align_of::<$ty>(),
            }),*];
        }
    };
}

/// Declares, in the kernel crate, the entry point of a kernel from its field list (the
/// expansion of a `*_fields!` macro of this crate, with `=> function` appended): a
/// `#[no_mangle]` kernel named as the list says, one parameter per field in field order,
/// which rebuilds the parameter struct and hands it to `function`
/// (`unsafe fn(Params)`, which carries the kernel's safety contract and its documentation).
#[macro_export]
macro_rules! kernel_entry {
    (
        $(#[$meta:meta])*
        kernel $kernel:ident, in [$($module:tt)*], struct $name:ident {
            $($(#[$field_meta:meta])* $field:ident : $ty:ty),* $(,)?
        }
        => $run:path
    ) => {
        /// The entry point of the kernel; see the function it calls for what it does and its
        /// contract.
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $kernel($($field: $ty),*) {
            let params = $($module)*::$name { $($field),* };
            // SAFETY: the kernel's contract is that of the function it forwards to.
            unsafe { $run(params) }
        }
    };
}
