//! The PTX committed in `ptx/` (what a build without the pinned nightly embeds, a stable
//! toolchain's for one) is what the current sources build. Where rustup has the pinned
//! nightly (CI, scripts/test), build.rs built the kernels and the two are compared whole;
//! elsewhere the committed file's header is checked against the sources' hash.

use crate::common;

#[path = "../../ptx/inputs.rs"]
mod ptx_inputs;

use std::path::{Path, PathBuf};

use common::Scratch;
use ptx_inputs::{header, header_hash, inputs_hash, staleness, COMMITTED, COMMITTED_HOPPER_PTX, COMMITTED_PTX, INPUTS};

fn root() -> PathBuf {
    common::source_tree()
}

fn committed(file: &str) -> String {
    std::fs::read_to_string(root().join(file)).unwrap_or_else(|e| panic!("read {file}: {e}"))
}

#[test]
fn the_committed_ptx_is_what_the_sources_build() {
    let current = inputs_hash(&root()).unwrap();
    for (file, built) in COMMITTED.into_iter().zip([warpath::gpu::ptx::PTX, warpath::gpu::ptx::HOPPER_PTX]) {
        let committed = committed(file);
        if let Some(problem) = staleness(file, &committed, &current) {
            panic!("{problem}");
        }
        if env!("WARPATH_PTX_ORIGIN") == "built" {
            if committed != built {
                let line = committed.lines().zip(built.lines()).position(|(a, b)| a != b);
                let at = line.map_or("in length".to_string(), |l| format!("from line {}", l + 1));
                panic!(
                    "{file} has the header of these sources but differs {at} from the PTX they build \
                     (a nondeterministic build, or an edited file): run scripts/update-ptx"
                );
            }
        } else {
            eprintln!("committed_ptx: the kernels were not built here (no pinned nightly); {file}'s header checked only");
        }
    }
}

#[test]
fn a_header_naming_other_sources_or_none_is_stale() {
    let committed = committed(COMMITTED_PTX);
    let current = header_hash(&committed).expect("a header").to_string();
    assert_eq!(staleness(COMMITTED_PTX, &committed, &current), None);

    let other = committed.replacen(&current, "0123456789abcdef", 1);
    let problem = staleness(COMMITTED_PTX, &other, &current).expect("another hash is stale");
    assert!(problem.contains("0123456789abcdef") && problem.ends_with("run scripts/update-ptx"), "{problem}");

    let headless = committed.split_once('\n').unwrap().1;
    let problem = staleness(COMMITTED_HOPPER_PTX, headless, &current).expect("no header is stale");
    assert!(problem.starts_with(COMMITTED_HOPPER_PTX) && problem.contains("no inputs header"), "{problem}");
    assert!(problem.ends_with("run scripts/update-ptx"), "{problem}");

    assert_eq!(header_hash(&header(&current)), Some(current.as_str()));
}

/// Copies every input of the kernel build from `from` into `to`.
fn copy_inputs(from: &Path, to: &Path) {
    fn copy(from: &Path, to: &Path) {
        if from.is_dir() {
            std::fs::create_dir_all(to).unwrap();
            for entry in std::fs::read_dir(from).unwrap() {
                let entry = entry.unwrap();
                copy(&entry.path(), &to.join(entry.file_name()));
            }
        } else {
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(from, to).unwrap();
        }
    }
    for input in INPUTS {
        copy(&from.join(input), &to.join(input));
    }
}

#[test]
fn the_inputs_hash_follows_the_contents_not_the_place() {
    let scratch = Scratch::new("ptx-inputs");
    copy_inputs(&root(), &scratch.dir);
    let here = inputs_hash(&root()).unwrap();
    assert_eq!(inputs_hash(&scratch.dir).unwrap(), here, "the same files elsewhere");

    let kernel = scratch.dir.join("device/src/lib.rs");
    let mut source = std::fs::read_to_string(&kernel).unwrap();
    source.push_str("\n// an edit\n");
    std::fs::write(&kernel, source).unwrap();
    assert_ne!(inputs_hash(&scratch.dir).unwrap(), here, "an edited kernel source");

    std::fs::write(scratch.dir.join("interface/src/new_module.rs"), "").unwrap();
    let with_new_file = inputs_hash(&scratch.dir).unwrap();
    std::fs::remove_file(scratch.dir.join("interface/src/new_module.rs")).unwrap();
    assert_ne!(with_new_file, inputs_hash(&scratch.dir).unwrap(), "a new file, even empty");
}

/// The build script's newest output (cargo keeps it beside the test executables, under
/// `build/warpath-*/output`), or `None` where these executables run away from their build.
fn newest_build_script_output() -> Option<String> {
    let profile_dir = std::env::current_exe().ok()?.parent()?.parent()?.to_path_buf();
    let outputs = std::fs::read_dir(profile_dir.join("build")).ok()?.filter_map(|entry| {
        let entry = entry.ok()?;
        let name = entry.file_name().to_string_lossy().into_owned();
        let output = entry.path().join("output");
        let modified = std::fs::metadata(&output).ok()?.modified().ok()?;
        (name.starts_with("warpath-") && !name.starts_with("warpath-interface")).then_some((modified, output))
    });
    let (_, newest) = outputs.max()?;
    std::fs::read_to_string(newest).ok()
}

/// A git command must not rebuild warpath: `git status`, `git add` and every commit rewrite
/// `.git/index`, so the build script watches HEAD, the branch and the sources, never the index.
#[test]
fn git_commands_do_not_rebuild_warpath() {
    let Some(output) = newest_build_script_output() else {
        common::say_skipping("git_commands_do_not_rebuild_warpath", "no build script output beside this executable");
        return;
    };
    let watched: Vec<&str> = output.lines().filter_map(|l| l.strip_prefix("cargo:rerun-if-changed=")).collect();
    assert!(!watched.iter().any(|path| path.ends_with("index")), "the index is watched: {watched:?}");
    if output.contains("WARPATH_BUILD_COMMIT=") {
        assert!(watched.iter().any(|path| path.ends_with("HEAD")), "a commit stamp that HEAD's moves do not renew: {watched:?}");
    }
}
