//! Part of `build.rs`: assembles the PTX it embeds into cubins with NVIDIA's ptxas, so that a
//! process on a matching GPU loads machine code instead of having the driver JIT-compile 1.4 MB
//! of PTX at its first start (issue 23). `host/src/gpu/ptx.rs` embeds one file per
//! [`CUBIN_ARCHITECTURES`] entry, empty where none was made: no ptxas (a plain stable build),
//! or ptxas failed (a build warning; the process then loads the PTX as before).
//!
//! Not one of `ptx/inputs.rs`'s inputs: cubins are made from the PTX, never committed, and
//! changing how they are made changes no PTX.

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use crate::ptxas_path::{locate_ptxas, PTXAS_VARIABLE};

/// ptxas runs on `ptx_file`, the module `name`, one process for each of `architectures`,
/// started by [`start_assembly`]; [`Assembly::finish`] writes into `out_dir`
/// `<name>.<arch>.cubin` each, beside ptxas's `-v` report of its kernels' resources,
/// `<name>.<arch>.ptxas.txt` (which `tests/it/ptx.rs` reads instead of assembling the same PTX
/// again); `host/src/gpu/ptx.rs` lists the same cubins.
pub struct Assembly {
    out_dir: std::path::PathBuf,
    name: String,
    ptxas: std::path::PathBuf,
    key: String,
    runs: Vec<(String, std::path::PathBuf, std::io::Result<Child>)>,
}

/// Starts assembling `ptx_file` for each of `architectures` (all at once: ptxas runs on one
/// core), or does what is needed at once and returns `None`: no ptxas (the cubins empty), or
/// the same ptxas already assembled the same PTX (build.rs reruns for every host source edit,
/// and ptxas takes tens of seconds of CPU per architecture).
pub fn start_assembly(
    source_root: &Path,
    out_dir: &Path,
    name: &str,
    architectures: &[&str],
    ptx_file: &Path,
    ptx: &str,
) -> Option<Assembly> {
    println!("cargo:rerun-if-env-changed={PTXAS_VARIABLE}");
    let Some(ptxas) = locate_ptxas(source_root) else {
        // A build with no ptxas is normal (a stable consumer): the PTX alone is embedded, and
        // no report of an earlier build's PTX is left for the tests to read.
        for &arch in architectures {
            write_bytes_if_changed(&cubin_path(out_dir, name, arch), &[]);
            let _ = fs::remove_file(report_path(out_dir, name, arch));
        }
        return None;
    };
    if ptxas.exists() {
        println!("cargo:rerun-if-changed={}", ptxas.display());
    }
    let modified = fs::metadata(&ptxas).and_then(|meta| meta.modified()).ok();
    let key = format!("{}\n{modified:?}\n{:016x}\n", ptxas.display(), fnv1a64(ptx.as_bytes()));
    let all_present = architectures.iter().all(|arch| {
        cubin_path(out_dir, name, arch).metadata().is_ok_and(|m| m.len() > 0)
            && report_path(out_dir, name, arch).exists()
    });
    if all_present && fs::read_to_string(key_path(out_dir, name)).ok().as_deref() == Some(key.as_str()) {
        return None;
    }
    let runs = architectures
        .iter()
        .map(|arch| {
            let partial = out_dir.join(format!("{name}.{arch}.cubin.partial"));
            let child = Command::new(&ptxas)
                .args(["-O3", "-v", &format!("-arch={arch}")])
                .arg(ptx_file)
                .arg("-o")
                .arg(&partial)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn();
            (arch.to_string(), partial, child)
        })
        .collect();
    Some(Assembly { out_dir: out_dir.to_path_buf(), name: name.to_string(), ptxas, key, runs })
}

impl Assembly {
    /// Waits for every ptxas and writes the cubins and reports; one that failed leaves an empty
    /// cubin and a build warning (the process then loads the PTX there).
    pub fn finish(self) {
        let Assembly { out_dir, name, ptxas, key, runs } = self;
        let mut all_made = true;
        for (arch, partial, child) in runs {
            let outcome = child.and_then(|child| child.wait_with_output());
            let made = match outcome {
                Ok(output) if output.status.success() => {
                    write_bytes_if_changed(&report_path(&out_dir, &name, &arch), &output.stderr);
                    fs::read(&partial).map_err(|err| err.to_string())
                }
                Ok(output) => {
                    Err(String::from_utf8_lossy(&output.stderr).lines().next().unwrap_or("no message").to_string())
                }
                Err(err) => Err(err.to_string()),
            };
            let _ = fs::remove_file(&partial);
            match made {
                Ok(image) => write_bytes_if_changed(&cubin_path(&out_dir, &name, &arch), &image),
                Err(problem) => {
                    all_made = false;
                    println!(
                        "cargo:warning={} could not assemble the kernels for {arch} ({problem}); \
                         warpath loads them as PTX there, compiled by the driver at a process's first start",
                        ptxas.display()
                    );
                    write_bytes_if_changed(&cubin_path(&out_dir, &name, &arch), &[]);
                    let _ = fs::remove_file(report_path(&out_dir, &name, &arch));
                }
            }
        }
        // A failure is not remembered: the next build tries again, and warns again.
        let key_file = key_path(&out_dir, &name);
        if all_made {
            if let Err(err) = fs::write(&key_file, key) {
                println!("cargo:warning=cannot write {}: {err}", key_file.display());
            }
        } else {
            let _ = fs::remove_file(&key_file);
        }
    }
}

fn key_path(out_dir: &Path, name: &str) -> std::path::PathBuf {
    out_dir.join(format!("{name}.cubins.key"))
}

fn cubin_path(out_dir: &Path, name: &str, arch: &str) -> std::path::PathBuf {
    out_dir.join(format!("{name}.{arch}.cubin"))
}

fn report_path(out_dir: &Path, name: &str, arch: &str) -> std::path::PathBuf {
    out_dir.join(format!("{name}.{arch}.ptxas.txt"))
}

/// Rewrites only on change, so that cargo does not recompile the library for an equal file.
fn write_bytes_if_changed(path: &Path, contents: &[u8]) {
    if fs::read(path).ok().as_deref() != Some(contents) {
        fs::write(path, contents).unwrap_or_else(|err| crate::fail(&format!("cannot write {}: {err}", path.display())));
    }
}

/// 64-bit FNV-1a, as `ptx/inputs.rs` hashes: a cache key that is the same in every build.
fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3))
}
