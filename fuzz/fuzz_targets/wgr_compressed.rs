//! Any bytes read as a `.wgr` file, seeded with compressed ones (flag bit 1): as
//! [`warpath_fuzz::read_as`] does, and also kept compressed, whose decoding must be a valid
//! graph that lists the same neighbors.
#![no_main]

use warpath::formats::wgr;

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    warpath_fuzz::read_as("wgr", bytes);
    if let Ok(compressed) = wgr::read_compressed(&warpath_fuzz::input_path("wgr")) {
        let graph = compressed.decode();
        warpath_fuzz::assert_valid(&graph);
        assert_eq!(graph.num_edges(), compressed.num_edges(), "decoding changed the edge count");
        for v in 0..graph.num_vertices() as u32 {
            assert!(compressed.neighbors(v).eq(graph.neighbors(v).iter().copied()), "decoding changed vertex {v}'s list");
        }
    }
});
