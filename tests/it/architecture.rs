//! The one-way doors of ARCHITECTURE.md that matter most, checked on our own source: the
//! shared rooms (`engine`, the GPU runtime `gpu`) import no algorithm and nothing above them
//! (the harness, the CLI), so every algorithm can stand on them without a circle of imports;
//! and the library below the CLI imports neither the CLI nor, outside the harness, the harness;
//! and between files, no circle of imports.

use crate::common;

use std::path::{Path, PathBuf};

/// The rooms no shared room may import: the algorithms, the graph placed for all of them, the
/// harness, the CLI.
const ABOVE_THE_SHARED_ROOMS: [&str; 7] = ["bfs", "cc", "scc", "sssp", "placed", "bench", "cli"];

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
                let open_use =
                    statement.trim_start().split_whitespace().any(|word| word == "use") && !code.ends_with(';');
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
    let below = ["bfs", "engine", "gpu", "graph", "formats", "generate", "input.rs", "error", "multi", "placed.rs"];
    let found = violations(&below, &["bench", "cli"]);
    assert!(found.is_empty(), "the library imports the harness or the CLI:\n{}", found.join("\n"));
}

/// `multi` (the partitioned algorithms) stands on the algorithms and the shared rooms; none of
/// them imports it, so a single-GPU build path never depends on the communicator.
#[test]
fn no_room_below_the_partitioned_algorithms_imports_them() {
    let below =
        ["bfs", "cc", "scc", "sssp", "engine", "gpu", "graph", "formats", "generate", "input.rs", "error", "output.rs"];
    let found = violations(&below, &["multi"]);
    assert!(found.is_empty(), "a room below multi imports it:\n{}", found.join("\n"));
}

/// `placed` (one graph placed for every algorithm) stands on the algorithms; none of them, and
/// nothing they stand on, imports it: each algorithm's finder is a view it makes.
#[test]
fn no_algorithm_imports_the_graph_placed_for_all_of_them() {
    let below =
        ["bfs", "cc", "scc", "sssp", "multi", "engine", "gpu", "graph", "formats", "generate", "input.rs", "error"];
    let found = violations(&below, &["placed"]);
    assert!(found.is_empty(), "a room below placed imports it:\n{}", found.join("\n"));
}

/// `error` is the bottom room: every other imports it, and it imports none of them (the GPU
/// runtime's errors live there and `gpu` re-exports them).
#[test]
fn the_error_room_imports_no_other_room() {
    let rooms = [
        "bfs", "cc", "scc", "sssp", "placed", "bench", "cli", "multi", "engine", "gpu", "graph", "formats", "generate",
        "input", "memory", "output",
    ];
    let found = violations(&["error"], &rooms);
    assert!(found.is_empty(), "the error room imports a room above it:\n{}", found.join("\n"));
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
                if ABOVE_THE_SHARED_ROOMS
                    .iter()
                    .any(|algorithm| code.contains(&format!("warpath_interface::{algorithm}")))
                {
                    found.push(format!("{}:{}: {}", file.display(), number + 1, code.trim()));
                }
            }
        }
    }
    assert!(found.is_empty(), "the shared rooms use an algorithm's interface:\n{}", found.join("\n"));
}

/// The module (`a::b`) a file of `host/src` is: a folder's `mod.rs` (or a crate root) is the
/// folder's. The binary's files (`main.rs`, `cli/`) form their own crate, named `bin` here.
fn module_of(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let file = parts.pop().unwrap();
    let stem = file.trim_end_matches(".rs").to_string();
    let crate_root = parts.is_empty() && (stem == "lib" || stem == "main");
    let mut module = if parts.first().is_some_and(|p| p == "cli") || (crate_root && stem == "main") {
        vec!["bin".to_string()]
    } else {
        Vec::new()
    };
    module.extend(parts);
    if stem != "mod" && !crate_root {
        module.push(stem);
    }
    module
}

/// Every path `code` names from the crate root: `crate::a::b` (as `[a, b]`, in `crate_name`'s
/// crate) and `super::a` relative to `parent`, with grouped imports (`{a::b, c}`) spread out.
fn paths_named(code: &str, crate_name: &[String], parent: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for (prefix, base) in [("crate::", crate_name), ("super::", parent)] {
        for (at, _) in code.match_indices(prefix) {
            let before = code[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                continue; // `self::super::`, `x::crate::`: not a path from the root
            }
            spread(&code[at + prefix.len()..], base.to_vec(), &mut found);
        }
    }
    found
}

/// Appends to `found` the paths that `rest` (what follows a `crate::` or `::`) names after
/// `path`, descending into `{...}` groups.
fn spread(rest: &str, mut path: Vec<String>, found: &mut Vec<Vec<String>>) {
    let mut rest = rest.trim_start();
    loop {
        if let Some(group) = rest.strip_prefix('{') {
            for item in top_level_items(group) {
                spread(item, path.clone(), found);
            }
            return;
        }
        let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        if name.is_empty() {
            break;
        }
        path.push(name.clone());
        rest = &rest[name.len()..];
        match rest.strip_prefix("::") {
            Some(after) => rest = after.trim_start(),
            None => break,
        }
    }
    found.push(path);
}

/// The import graph of `host/src` by file: an edge from a module to each other module it names
/// a path into (the longest module prefix of the path), leaving out a file's test module and
/// the edges between a folder's module and its own files (one room, whose `mod.rs` declares
/// and re-exports them).
fn import_graph(root: &Path) -> std::collections::BTreeMap<String, std::collections::BTreeSet<String>> {
    use std::collections::{BTreeMap, BTreeSet};
    let files = rust_files(root);
    let modules: BTreeMap<Vec<String>, PathBuf> =
        files.iter().map(|file| (module_of(file.strip_prefix(root).unwrap()), file.clone())).collect();
    let name = |module: &[String]| if module.is_empty() { "crate".to_string() } else { module.join("::") };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, file) in &modules {
        let text = std::fs::read_to_string(file).unwrap();
        let text = match text.find("#[cfg(test)]\nmod tests") {
            Some(at) => &text[..at],
            None => &text[..],
        };
        let code: String = text.lines().map(code_of).collect::<Vec<_>>().join("\n");
        let crate_name: Vec<String> =
            if module.first().is_some_and(|m| m == "bin") { vec!["bin".into()] } else { vec![] };
        // `super::` in a folder's `mod.rs` is the folder's parent; in a file, the file's folder.
        let parent = module[..module.len().saturating_sub(1)].to_vec();
        let edges = graph.entry(name(module)).or_default();
        for path in paths_named(&code, &crate_name, &parent) {
            let Some(target) = (1..=path.len()).rev().map(|k| &path[..k]).find(|k| modules.contains_key(*k)) else {
                continue;
            };
            let related = target.starts_with(module) || module.starts_with(target);
            if !related {
                edges.insert(name(target));
            }
        }
    }
    graph
}

/// The circles of `graph` (its strongly connected components of two modules or more), each
/// sorted, by Tarjan's algorithm.
fn circles(graph: &std::collections::BTreeMap<String, std::collections::BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g std::collections::BTreeMap<String, std::collections::BTreeSet<String>>,
        index: std::collections::HashMap<&'g str, (usize, usize)>,
        stack: Vec<&'g str>,
        on_stack: std::collections::HashSet<&'g str>,
        found: Vec<Vec<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, v: &'g str) {
            let at = self.index.len();
            self.index.insert(v, (at, at));
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    let low = self.index[w].1.min(self.index[v].1);
                    self.index.get_mut(v).unwrap().1 = low;
                } else if self.on_stack.contains(w) {
                    let low = self.index[w].0.min(self.index[v].1);
                    self.index.get_mut(v).unwrap().1 = low;
                }
            }
            if self.index[v].0 == self.index[v].1 {
                let mut component = Vec::new();
                while let Some(w) = self.stack.pop() {
                    self.on_stack.remove(w);
                    component.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if component.len() > 1 {
                    component.sort();
                    self.found.push(component);
                }
            }
        }
    }
    let mut walk =
        Walk { graph, index: Default::default(), stack: Vec::new(), on_stack: Default::default(), found: Vec::new() };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.found.sort();
    walk.found
}

/// No two files of `host/src` import each other, directly or through others (issue 53, item
/// 4): a folder's `mod.rs` and its own files count as one room.
#[test]
fn no_circle_of_imports_between_files() {
    let found = circles(&import_graph(&common::source_tree().join("host/src")));
    assert!(found.is_empty(), "files import each other in a circle: {found:?}");
}

#[test]
fn the_import_graph_follows_crate_and_super_paths_and_finds_circles() {
    let root = std::env::temp_dir().join(format!("warpath-circles-{}", std::process::id()));
    let write = |path: &str, text: &str| {
        let file = root.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    };
    write("lib.rs", "pub mod a;\npub mod b;\nmod c;\n");
    write("a/mod.rs", "mod x;\nmod y;\npub use x::X;\n");
    write("a/x.rs", "use super::y::Y; // crate::c in a comment\n");
    write("a/y.rs", "use crate::{b::B, a::x::X};\n#[cfg(test)]\nmod tests {\n    use crate::c::C;\n}\n");
    write("b.rs", "pub fn f() { crate::c::g() }\n");
    write("c.rs", "use crate::b;\n");
    let graph = import_graph(&root);
    std::fs::remove_dir_all(&root).unwrap();
    let edges = |m: &str| graph[m].iter().cloned().collect::<Vec<_>>();
    assert_eq!(edges("a::x"), ["a::y"]);
    assert_eq!(edges("a::y"), ["a::x", "b"], "the test module's import is left out");
    assert!(edges("a").is_empty(), "a folder and its own files are one room");
    assert_eq!(circles(&graph), [vec!["a::x".to_string(), "a::y".to_string()], vec!["b".to_string(), "c".to_string()]]);
}
