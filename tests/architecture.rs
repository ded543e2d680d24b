//! The one-way doors of ARCHITECTURE.md that matter most, checked on our own source: the
//! shared rooms (`engine`, the GPU runtime `gpu`) import no algorithm and nothing above them
//! (the harness, the CLI), so every algorithm can stand on them without a circle of imports;
//! and the library below the CLI imports neither the CLI nor, outside the harness, the harness.

mod common;

use std::path::{Path, PathBuf};

/// The rooms no shared room may import: the algorithms, the harness, the CLI.
const ABOVE_THE_SHARED_ROOMS: [&str; 5] = ["bfs", "cc", "sssp", "bench", "cli"];

fn source_dir(room: &str) -> PathBuf {
    common::source_tree().join("host/src").join(room)
}

/// Every `.rs` file under `dir`, or `dir` itself when it is one file.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    if dir.is_file() {
        return vec![dir.to_path_buf()];
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files.extend(rust_files(&path));
        } else if path.extension().is_some_and(|e| e == "rs") {
            files.push(path);
        }
    }
    files
}

/// The code of a line, its `//` comment dropped (comments may name other rooms freely).
fn code_of(line: &str) -> &str {
    line.split("//").next().unwrap_or("")
}

/// The names of `rooms` that `code` reaches by a `crate::` path, either directly
/// (`crate::bfs::...`) or inside a grouped import (`use crate::{bfs::{A, B}, graph}`).
fn rooms_named(code: &str, rooms: &[&str]) -> Vec<String> {
    let mut named = Vec::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let heads = match rest.strip_prefix('{') {
            Some(group) => top_level_items(group),
            None => vec![rest],
        };
        for head in heads {
            let name: String = head.trim().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
            if rooms.contains(&name.as_str()) {
                named.push(name);
            }
        }
    }
    named
}

/// The comma-separated items of a `{...}` group whose opening brace is already consumed.
fn top_level_items(group: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                return items;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(&group[start..]);
    items
}

/// `file:line: names crate::ROOM` for every import or path in the rooms' files that names one
/// of `forbidden`.
fn violations(rooms: &[&str], forbidden: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for room in rooms {
        for file in rust_files(&source_dir(room)) {
            let text = std::fs::read_to_string(&file).unwrap();
            // A `use` spread over lines is read as one statement, up to its `;`.
            let mut statement = String::new();
            let mut first_line = 0;
            for (number, line) in text.lines().enumerate() {
                let code = code_of(line).trim();
                if statement.is_empty() {
                    first_line = number + 1;
                }
                statement.push_str(code);
                statement.push(' ');
                let open_use = statement.trim_start().split_whitespace().any(|word| word == "use")
                    && !code.ends_with(';');
                if !open_use {
                    for name in rooms_named(&statement, forbidden) {
                        found.push(format!("{}:{first_line}: names crate::{name}", file.display()));
                    }
                    statement.clear();
                }
            }
        }
    }
    found
}

#[test]
fn the_engine_and_the_gpu_runtime_import_no_algorithm_harness_or_cli() {
    let found = violations(&["engine", "gpu"], &ABOVE_THE_SHARED_ROOMS);
    assert!(found.is_empty(), "the shared rooms import a room above them:\n{}", found.join("\n"));
}

#[test]
fn the_library_below_the_cli_imports_neither_the_cli_nor_the_harness() {
    let below = ["bfs", "engine", "gpu", "graph", "formats", "generate", "input.rs", "error.rs", "multi"];
    let found = violations(&below, &["bench", "cli"]);
    assert!(found.is_empty(), "the library imports the harness or the CLI:\n{}", found.join("\n"));
}

/// `multi` (the partitioned algorithms) stands on the algorithms and the shared rooms; none of
/// them imports it, so a single-GPU build path never depends on the communicator.
#[test]
fn no_room_below_the_partitioned_algorithms_imports_them() {
    let below = ["bfs", "cc", "sssp", "engine", "gpu", "graph", "formats", "generate", "input.rs", "error.rs", "output.rs"];
    let found = violations(&below, &["multi"]);
    assert!(found.is_empty(), "a room below multi imports it:\n{}", found.join("\n"));
}

#[test]
fn the_scan_sees_imports_in_every_shape() {
    let rooms = ABOVE_THE_SHARED_ROOMS;
    assert_eq!(rooms_named("use crate::bfs::Traverser;", &rooms), ["bfs"]);
    assert_eq!(rooms_named("use crate::{ graph::Graph, bench, cli::args };", &rooms), ["bench", "cli"]);
    assert_eq!(rooms_named("use crate::{graph::{Graph, EdgeList}, bfs};", &rooms), ["bfs"]);
    assert_eq!(rooms_named("let x = crate::sssp::run(g);", &rooms), ["sssp"]);
    assert!(rooms_named("use crate::graph::Graph;", &rooms).is_empty());
    assert!(rooms_named("use crate::bfs_like::X;", &rooms).is_empty());
    assert_eq!(code_of("let a = 1; // see crate::bfs"), "let a = 1; ");
}

#[test]
fn the_scan_reads_a_use_over_several_lines() {
    let dir = std::env::temp_dir().join(format!("warpath-architecture-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("sample.rs");
    std::fs::write(&file, "use crate::{\n    graph::Graph,\n    bench::stats,\n};\nfn f() {}\n").unwrap();
    let found = violations(&[file.to_str().unwrap()], &["bench"]);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].ends_with("sample.rs:1: names crate::bench"), "{found:?}");
}

#[test]
fn the_engine_and_the_gpu_runtime_use_no_algorithm_part_of_the_interface_crate() {
    let mut found = Vec::new();
    for room in ["engine", "gpu"] {
        for file in rust_files(&source_dir(room)) {
            let text = std::fs::read_to_string(&file).unwrap();
            for (number, line) in text.lines().enumerate() {
                let code = code_of(line);
                if ABOVE_THE_SHARED_ROOMS.iter().any(|algorithm| code.contains(&format!("warpath_interface::{algorithm}")))
                {
                    found.push(format!("{}:{}: {}", file.display(), number + 1, code.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "the shared rooms use an algorithm's interface:\n{}", found.join("\n"));
}
