//! The Python package's lock file (`python/Cargo.lock`, its own workspace) pins every package it
//! shares with warpath's (`Cargo.lock`, which the stable consumer copies) to the same version.
//! `python/run-tests` builds the module in the stable consumer's target folder to reuse that
//! build of warpath and its dependencies; one differing version (a proc-macro's, say) makes cargo
//! build warpath again, a minute of the 2-core test run (bench/NOTES.md 144).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Each package's versions in a Cargo.lock: `name = ` and `version = ` lines of its
/// `[[package]]` tables.
fn locked_versions(lock: &str) -> BTreeMap<String, BTreeSet<String>> {
    let mut versions: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for table in lock.split("[[package]]").skip(1) {
        let field = |key: &str| {
            table
                .lines()
                .find_map(|line| line.strip_prefix(key)?.strip_prefix(" = \"")?.strip_suffix('"').map(str::to_owned))
        };
        if let (Some(name), Some(version)) = (field("name"), field("version")) {
            versions.entry(name).or_default().insert(version);
        }
    }
    versions
}

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    std::fs::read_to_string(&path).unwrap_or_else(|err| panic!("{}: {err}", path.display()))
}

#[test]
fn the_python_lock_pins_every_shared_package_as_warpaths_does() {
    let warpath = locked_versions(&read("Cargo.lock"));
    let python = locked_versions(&read("python/Cargo.lock"));
    let shared: Vec<&String> = python.keys().filter(|name| warpath.contains_key(*name)).collect();
    assert!(shared.len() >= 20, "the two lock files share only {shared:?}");
    // warpath's lock may hold more versions of a package (its command's dependencies); each one
    // the Python package locks must be among them.
    let differing: Vec<String> = shared
        .iter()
        .filter(|name| !python[**name].is_subset(&warpath[**name]))
        .map(|name| format!("{name}: python {:?}, warpath {:?}", python[*name], warpath[*name]))
        .collect();
    assert!(differing.is_empty(), "align python/Cargo.lock (cargo update -p NAME --precise VERSION): {differing:?}");
}

#[test]
fn the_lock_reader_finds_names_and_versions() {
    let lock = "version = 4\n\n[[package]]\nname = \"syn\"\nversion = \"2.0.1\"\n\n[[package]]\nname = \"syn\"\nversion = \"3.0.9\"\nsource = \"x\"\n";
    let versions = locked_versions(lock);
    assert_eq!(versions.len(), 1);
    assert_eq!(versions["syn"], BTreeSet::from(["2.0.1".to_string(), "3.0.9".to_string()]));
}
