//! Any bytes read as a `.mtx` file: no panic, bounded memory, a valid graph when it loads.
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| warpath_fuzz::read_as("mtx", bytes));
