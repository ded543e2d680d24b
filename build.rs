//! Puts the PTX of the kernel crate in `device/` into `$OUT_DIR/warpath_kernels.ptx`, which
//! `host/src/gpu/ptx.rs` embeds. Two ways, so that the library builds on any toolchain:
//!
//! - where rustup has the nightly pinned in `rust-toolchain.toml`, it builds `device/` with it,
//!   whatever toolchain builds warpath itself: `rustup run <channel> cargo rustc` for rustc's
//!   `nvptx64-nvidia-cuda` target with `-Zbuild-std=core` (no prebuilt `core` exists for nvptx)
//!   and `--emit=asm`. The kernel crate is a `cdylib` so that rustc runs fat LTO over it and
//!   `core` and the emitted assembly is one self-contained PTX module; the final "link" would
//!   need `llvm-bitcode-linker`, which is not installed, and is not needed, so the linker is `true`;
//! - elsewhere (a stable toolchain alone, no rustup) it takes the PTX committed in `ptx/`, which
//!   `scripts/update-ptx` writes, and warns when the sources changed since.
//!
//! Either way the PTX starts with a header naming the hash of its inputs (`ptx/inputs.rs`).
//! Two modules are built ([`MODULES`]): every kernel for sm_80, and the kernels that use
//! Hopper's thread-block clusters for sm_90 (`warpath_hopper.ptx`). Where ptxas is found, the
//! PTX is also assembled into cubins (`ptx/cubins.rs`), which the runtime loads instead on a
//! matching GPU.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{exit, Command, Stdio};

use warpath_interface::bfs::edge_queue::EDGE_QUEUE_BLOCK;
use warpath_interface::bfs::persistent::PERSISTENT_BLOCK;
use warpath_interface::cc::CC_BLOCK;
use warpath_interface::cluster::CLUSTER_BLOCK;
use warpath_interface::names;
use warpath_interface::sssp::SSSP_BLOCK;

#[path = "ptx/cubins.rs"]
mod cubins;
#[path = "ptx/inputs.rs"]
mod ptx_inputs;
#[path = "host/src/gpu/ptxas_path.rs"]
mod ptxas_path;

/// A PTX module built from `device/`: its file name in `$OUT_DIR` (and of its cubins), the
/// committed copy, the architecture it targets, the kernel-crate feature that selects its
/// kernels, their launch bounds, and the architectures its cubins are assembled for.
struct Module {
    name: &'static str,
    committed: &'static str,
    target_cpu: &'static str,
    feature: Option<&'static str>,
    launch_bounds: &'static [(&'static str, u32, u32)],
    cubins: &'static [&'static str],
}

/// The two modules: every kernel for the oldest architecture warpath runs on, Ampere (A100),
/// which the driver JIT-compiles for newer GPUs where no cubin matches; and the kernels that use
/// Hopper's thread-block clusters, which only sm_90 can express, for Hopper and later.
const MODULES: [Module; 2] = [
    Module {
        name: "warpath_kernels",
        committed: ptx_inputs::COMMITTED_PTX,
        target_cpu: "sm_80",
        feature: None,
        launch_bounds: &LAUNCH_BOUNDS,
        cubins: &["sm_80", "sm_90"],
    },
    Module {
        name: "warpath_hopper",
        committed: ptx_inputs::COMMITTED_HOPPER_PTX,
        target_cpu: "sm_90",
        feature: Some("hopper"),
        launch_bounds: &HOPPER_LAUNCH_BOUNDS,
        cubins: &["sm_90"],
    },
];

fn main() {
    emit_commit();
    let root = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    for watched in ptx_inputs::INPUTS.iter().chain(&ptx_inputs::COMMITTED) {
        println!("cargo:rerun-if-changed={watched}");
    }
    // Where rustup looks for toolchains: a different one may have the nightly, or lack it.
    println!("cargo:rerun-if-env-changed=RUSTUP_HOME");
    println!("cargo:rerun-if-env-changed=WARPATH_DEVICE_FEATURES");
    let hash = ptx_inputs::inputs_hash(&root)
        .unwrap_or_else(|err| fail(&format!("cannot read the kernel build's inputs: {err}")));
    // For tests/it/committed_ptx.rs: the hash of the sources this build saw, and where its PTX came from.
    println!("cargo:rustc-env=WARPATH_PTX_INPUTS={hash}");
    let out_dir = PathBuf::from(env::var("OUT_DIR").unwrap());
    let channel = pinned_channel(&root);
    let built = nightly_installed(&channel);
    let origin = if built { "built" } else { "committed" };
    println!("cargo:rustc-env=WARPATH_PTX_ORIGIN={origin}");
    // scripts/update-ptx copies the PTX from here only when it was built.
    let origin_file = out_dir.join("ptx-origin");
    fs::write(&origin_file, origin)
        .unwrap_or_else(|err| fail(&format!("cannot write {}: {err}", origin_file.display())));
    // Cargo runs this script only once all of warpath's dependencies are built, and the library
    // waits for it: on a 2-core machine it is on the build's longest path. So both modules'
    // kernel builds run at once (each rustc mostly on one core), and a module's ptxas starts as
    // soon as its PTX is written, beside the other module's build (bench/NOTES.md 144).
    let kernel_builds: Vec<Option<KernelBuild>> =
        MODULES.iter().map(|module| built.then(|| start_kernel_build(&root, &out_dir, &channel, module))).collect();
    let mut assemblies = Vec::new();
    for (module, kernel_build) in MODULES.iter().zip(kernel_builds) {
        let ptx = match kernel_build {
            Some(kernel_build) => {
                let ptx = kernel_build.finish();
                check_self_contained(&ptx);
                format!("{}{}", ptx_inputs::header(&hash), apply_launch_bounds(&ptx, module.launch_bounds))
            }
            None => committed_ptx(&root, &hash, &channel, module.committed),
        };
        let ptx_file = out_dir.join(format!("{}.ptx", module.name));
        write_if_changed(&ptx_file, &ptx);
        assemblies.push(cubins::start_assembly(&root, &out_dir, module.name, module.cubins, &ptx_file, &ptx));
    }
    for assembly in assemblies.into_iter().flatten() {
        assembly.finish();
    }
}

/// The toolchain `rust-toolchain.toml` pins (`channel = "nightly-..."`).
fn pinned_channel(root: &Path) -> String {
    let path = root.join("rust-toolchain.toml");
    let text = fs::read_to_string(&path).unwrap_or_else(|err| fail(&format!("cannot read {}: {err}", path.display())));
    text.lines()
        .find_map(|line| {
            let value = line.trim().strip_prefix("channel")?.trim_start().strip_prefix('=')?;
            Some(value.trim().trim_matches('"').to_string())
        })
        .unwrap_or_else(|| fail(&format!("{}: no `channel = \"...\"` line", path.display())))
}

/// Whether rustup is on the PATH and has `channel` installed (it is not asked to install it).
fn nightly_installed(channel: &str) -> bool {
    Command::new("rustup")
        .args(["run", channel, "rustc", "--version"])
        .env("RUSTUP_AUTO_INSTALL", "0")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}

/// A build of `device/` under way, started by [`start_kernel_build`].
struct KernelBuild {
    channel: String,
    child: std::process::Child,
    ptx_path: PathBuf,
}

/// Starts building `device/` with the pinned nightly for `module`; [`KernelBuild::finish`]
/// returns its PTX as rustc wrote it. Its artifacts go to `$WARPATH_DEVICE_TARGET_DIR` where
/// that is set (scripts/test gives its builds one folder: they build the same kernels, whatever
/// the host's profile), else into this build's own output folder.
fn start_kernel_build(root: &Path, out_dir: &Path, channel: &str, module: &Module) -> KernelBuild {
    println!("cargo:rerun-if-env-changed=WARPATH_DEVICE_TARGET_DIR");
    let target_dir = env::var_os("WARPATH_DEVICE_TARGET_DIR")
        .filter(|dir| !dir.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| out_dir.join("device-target"));
    // Each module in a folder of its own: one build's features would otherwise undo the other's.
    let target_dir = match module.feature {
        Some(feature) => target_dir.join(feature),
        None => target_dir,
    };
    let mut command = Command::new("rustup");
    command
        .current_dir(root.join("device"))
        .args(["run", channel, "cargo", "rustc", "--release", "--target", "nvptx64-nvidia-cuda", "-Zbuild-std=core"])
        .arg("--target-dir")
        .arg(&target_dir);
    // Diagnostic kernel features (device/Cargo.toml), for scripts/tallied-cubin only:
    // scripts/update-ptx refuses to commit PTX built with them.
    match module.feature {
        Some(feature) => {
            command.args(["--features", feature]);
        }
        None => {
            if let Ok(features) = env::var("WARPATH_DEVICE_FEATURES") {
                if !features.is_empty() {
                    command.args(["--features", &features]);
                }
            }
        }
    }
    command.args(["--", "--emit=asm", "-C", &format!("target-cpu={}", module.target_cpu), "-C", "linker=true"]);
    // What the outer cargo set for the host build must not reach the nvptx build: its compiler
    // (perhaps stable) and wrappers, clippy's wrapper, coverage or sanitizer flags, a host
    // --target, profile overrides that would change the PTX.
    for (var, _) in env::vars_os() {
        let Some(name) = var.to_str() else { continue };
        let exact = [
            "CARGO",
            "RUSTC",
            "RUSTDOC",
            "RUSTC_WRAPPER",
            "RUSTC_WORKSPACE_WRAPPER",
            "RUSTC_LINKER",
            "RUSTFLAGS",
            "RUSTDOCFLAGS",
            "RUSTUP_TOOLCHAIN",
            "__CARGO_DEFAULT_LIB_METADATA",
        ];
        let prefixes = ["CARGO_ENCODED_", "CARGO_BUILD_", "CARGO_TARGET_", "CARGO_PROFILE_"];
        if exact.contains(&name) || prefixes.iter().any(|prefix| name.starts_with(prefix)) {
            command.env_remove(name);
        }
    }
    let child = command
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|err| fail(&format!("could not run rustup for the kernel crate: {err}")));
    KernelBuild {
        channel: channel.to_string(),
        child,
        ptx_path: target_dir.join("nvptx64-nvidia-cuda/release/deps/warpath_device.s"),
    }
}

impl KernelBuild {
    /// Waits for the build and returns its PTX; a failed build ends this script.
    fn finish(self) -> String {
        let channel = &self.channel;
        let output = self
            .child
            .wait_with_output()
            .unwrap_or_else(|err| fail(&format!("could not wait for the kernel crate's build: {err}")));
        let diagnostics = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            eprint!("{diagnostics}");
            fail(&format!(
                "building the GPU kernels in device/ with {channel} failed (see the errors above).\n\
                 The kernel build needs the rust-src component of that toolchain: \
                 `rustup component add rust-src --toolchain {channel}` (scripts/setup does it for you)."
            ));
        }
        // Cargo shows a build script's output only when it fails, so the kernel crate's warnings
        // would pass unseen: hand each one, with its location, to cargo as a warning of ours.
        for warning in kernel_warnings(&diagnostics) {
            println!("cargo:warning=device/: {warning}");
        }
        fs::read_to_string(&self.ptx_path).unwrap_or_else(|err| {
            fail(&format!("the kernel build produced no PTX at {}: {err}", self.ptx_path.display()))
        })
    }
}

/// The committed PTX, with a warning when the sources it was built from have changed since.
fn committed_ptx(root: &Path, hash: &str, channel: &str, committed: &str) -> String {
    let path = root.join(committed);
    let ptx = fs::read_to_string(&path).unwrap_or_else(|err| {
        fail(&format!(
            "rustup has no {channel} to build the GPU kernels with, and {} cannot be read: {err}",
            path.display()
        ))
    });
    if let Some(problem) = ptx_inputs::staleness(committed, &ptx, hash) {
        println!("cargo:warning={problem}; without {channel} in rustup to build them, warpath embeds these kernels as they are");
    }
    ptx
}

/// The warnings in the kernel build's diagnostics, each as "message (file:line:column)",
/// without cargo's closing count.
fn kernel_warnings(diagnostics: &str) -> Vec<String> {
    let lines: Vec<&str> = diagnostics.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let message = line.strip_prefix("warning: ")?;
            if message.starts_with('`') && message.contains("generated") {
                return None;
            }
            let location = lines[i + 1..].iter().take(3).find_map(|l| l.trim_start().strip_prefix("--> "));
            Some(match location {
                Some(location) => format!("{message} ({location})"),
                None => message.to_string(),
            })
        })
        .collect()
}

/// A PTX module that declares an `.extern .func` calls code it does not contain; the driver
/// would refuse to load it at run time, far from the cause. Refuse it here instead.
fn check_self_contained(ptx: &str) {
    let undefined: Vec<&str> = ptx.lines().map(str::trim).filter(|line| line.starts_with(".extern .func")).collect();
    if !undefined.is_empty() {
        fail(&format!(
            "the kernel PTX calls functions it does not define (a kernel used something from core that was not inlined, \
             or an intrinsic with no nvptx lowering):\n  {}",
            undefined.join("\n  ")
        ));
    }
}

/// CUDA C++'s `__launch_bounds__(threads, blocks_per_sm)`, which rustc cannot express: PTX's
/// `.maxntid` and `.minnctapersm` directives, inserted between a kernel's parameter list and
/// its body. They make ptxas cap registers so that many blocks fit on a multiprocessor.
/// Kernel names and block sizes come from the interface crate, as the host launches by them.
const LAUNCH_BOUNDS: [(&str, u32, u32); 9] = [
    // 256 threads, 4 blocks per SM: 32 resident warps per SM and at most 64 registers each, as
    // 512 x 2 had, but four independent tile chains an SM where 512 x 2 had two (NOTES 34).
    (names::BFS_PERSISTENT, PERSISTENT_BLOCK, 4),
    (names::BFS_PERSISTENT_COMPRESSED, PERSISTENT_BLOCK, 4),
    // 256 threads, 6 blocks per SM (at most 40 registers): the level a split launch leaves
    // runs at 48 warps an SM where the persistent kernel holds 32, the point of running it
    // apart; 8 (32 registers) spilled and measured slower (NOTES 135).
    (names::BFS_PERSISTENT_BOTTOM_UP, PERSISTENT_BLOCK, 6),
    // 256 threads, 8 blocks per SM (32 registers): word by word, the chunks compiled away, it
    // fits 64 warps an SM, as the partitioned rank's bottom-up kernel (NOTES 135).
    (names::BFS_PERSISTENT_BOTTOM_UP_WORDS, PERSISTENT_BLOCK, 8),
    // 256 threads, 3 blocks per SM (at most 80 registers): the inlined level paths would take
    // 100 and leave 2 blocks, which big levels measured 30-40% slower with (NOTES 31).
    (names::BFS_EDGE_QUEUE, EDGE_QUEUE_BLOCK, 3),
    // 256 threads, 4 blocks per SM (at most 64 registers): the batched walks of the CC
    // phases would take 72 and leave 3 blocks, a quarter fewer threads to hide latency with.
    (names::CC_PERSISTENT, CC_BLOCK, 4),
    (names::CC_PERSISTENT_COMPRESSED, CC_BLOCK, 4),
    // 256 threads, 3 blocks per SM (at most 80 registers, where it took 104 and left 2): the
    // big grid steps of Kronecker and uniform graphs are latency-bound and gain from more
    // warps; 4 (64 registers) spills into block 0's chains on roads (NOTES 95). Roads launch
    // it on 2 a multiprocessor (the launcher's rule).
    (names::SSSP_DELTA_STEPPING, SSSP_BLOCK, 3),
    // 256 threads, 6 blocks per SM (40 registers): a deferred round's relaxations apart, at 48
    // warps an SM where the bucket loop holds 24; 8 (32 registers) spilled and measured 1-3%
    // slower (NOTES 139).
    (names::SSSP_RELAX_APART, SSSP_BLOCK, 6),
];

/// The Hopper module's: one block of 1,024 threads a multiprocessor, so at most 64 registers a
/// thread (ptxas would otherwise take more and the launch would fail).
const HOPPER_LAUNCH_BOUNDS: [(&str, u32, u32); 3] = [
    (names::SSSP_CLUSTER, CLUSTER_BLOCK, 1),
    (names::BFS_CLUSTER, CLUSTER_BLOCK, 1),
    (names::CC_CLUSTER, CLUSTER_BLOCK, 1),
];

fn apply_launch_bounds(ptx: &str, bounds: &[(&str, u32, u32)]) -> String {
    let mut out = String::with_capacity(ptx.len() + 128);
    let mut pending: Option<(u32, u32)> = None;
    let mut applied = 0;
    for line in ptx.lines() {
        if let Some(name) = line.trim().strip_prefix(".visible .entry ") {
            let name = name.trim_end_matches('(');
            pending = bounds.iter().find(|(kernel, _, _)| *kernel == name).map(|&(_, t, b)| (t, b));
        }
        if line.trim() == "{" {
            if let Some((threads, blocks)) = pending.take() {
                out.push_str(&format!(".maxntid {threads}, 1, 1\n.minnctapersm {blocks}\n"));
                applied += 1;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    if applied != bounds.len() {
        fail(&format!("launch bounds: found {applied} of the {} kernels listed in build.rs", bounds.len()));
    }
    out
}

fn write_if_changed(path: &Path, contents: &str) {
    if fs::read_to_string(path).ok().as_deref() != Some(contents) {
        fs::write(path, contents).unwrap_or_else(|err| fail(&format!("cannot write {}: {err}", path.display())));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("error: {message}");
    exit(1);
}

/// Records the git commit as `WARPATH_BUILD_COMMIT` for benchmark reports (`bench::meta`),
/// with `-dirty` when tracked files differ from it. Without git, or outside a checkout, it
/// records nothing and the reports say `unknown`. Reruns when HEAD or the branch moves, or the
/// sources change; never on `.git/index`, which `git status`, `git add` and every commit
/// rewrite: watching it rebuilt warpath (and every crate that depends on it by path) after
/// each git command.
fn emit_commit() {
    let git = |args: &[&str]| -> Option<String> {
        let out = Command::new("git").args(args).output().ok()?;
        let text = String::from_utf8(out.stdout).ok()?.trim().to_string();
        (out.status.success() && !text.is_empty()).then_some(text)
    };
    let Some(commit) = git(&["rev-parse", "HEAD"]) else { return };
    if let Some(path) = git(&["rev-parse", "--path-format=absolute", "--git-path", "HEAD"]) {
        println!("cargo:rerun-if-changed={path}");
    }
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        if let Some(path) = git(&["rev-parse", "--path-format=absolute", "--git-path", &branch]) {
            println!("cargo:rerun-if-changed={path}");
        }
    }
    // Edits to the sources rerun this too, so `-dirty` follows them.
    println!("cargo:rerun-if-changed=host/src");
    let dirty = git(&["status", "--porcelain", "--untracked-files=no"]).is_some();
    println!("cargo:rustc-env=WARPATH_BUILD_COMMIT={commit}{}", if dirty { "-dirty" } else { "" });
}
