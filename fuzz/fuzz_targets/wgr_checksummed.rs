//! Any bytes read as a `.wgr` file after their last four bytes are made the CRC-32 of the
//! rest, so that mutated headers, offsets, lists and weights reach the structure checks
//! instead of stopping at the checksum.
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| warpath_fuzz::read_as("wgr", &warpath_fuzz::with_checksum(bytes)));
