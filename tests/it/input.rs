//! `load_graph`: one string naming either a generator spec or a file.

use crate::common;

use common::Scratch;
use warpath::generate::{generate, GeneratorSpec};
use warpath::input::{load_graph, LoadOptions};
use warpath::Error;

#[test]
fn specs_are_generated_with_the_given_seed() {
    let opts = LoadOptions { undirected: false, seed: 9, ..LoadOptions::default() };
    let loaded = load_graph("kron:8:4", &opts).unwrap();
    let spec: GeneratorSpec = "kron:8:4".parse().unwrap();
    assert_eq!(loaded, generate(&spec, 9).unwrap());
    assert_ne!(loaded, load_graph("kron:8:4", &LoadOptions { seed: 10, ..opts }).unwrap());
}

#[test]
fn bad_specs_are_reported_as_specs_not_missing_files() {
    let err = load_graph("kron:big", &LoadOptions::default()).unwrap_err();
    assert!(err.to_string().contains("kron:SCALE"), "{err}");
}

#[test]
fn files_are_read_with_the_undirected_option() {
    let scratch = Scratch::new("input");
    let path = scratch.file("g.txt", b"0 1\n1 2\n");
    let name = path.to_str().unwrap();
    let directed = load_graph(name, &LoadOptions::default()).unwrap();
    assert_eq!(directed.num_edges(), 2);
    let undirected = load_graph(name, &LoadOptions { undirected: true, seed: 0, ..LoadOptions::default() }).unwrap();
    assert_eq!(undirected.num_edges(), 4);
    assert!(undirected.is_undirected());
}

#[test]
fn a_missing_file_is_named_with_a_hint() {
    let scratch = Scratch::new("input-missing");
    let path = scratch.path("absent.mtx.gz");
    let err = load_graph(path.to_str().unwrap(), &LoadOptions::default()).unwrap_err();
    let text = err.to_string();
    // An I/O error a caller can match, with the path.
    assert!(
        matches!(&err, Error::Io { path: at, source } if at == &path && source.kind() == std::io::ErrorKind::NotFound),
        "{err:?}"
    );
    assert!(text.starts_with(&path.display().to_string()), "{text}");
    assert!(text.contains("no such file") && text.contains("kron:"), "{text}");
}
