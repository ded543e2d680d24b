//! `--json`: what a command says, as one JSON object on stdout for scripts, in place of its
//! text. Field names carry their units (`time_ms`, `compressed_bytes`); warnings and errors
//! still go to stderr. Every command with `--json` prints through [`print_json`].

use serde::Serialize;
use warpath::engine::BackendUsed;

/// Help of every `--json` flag.
pub const JSON_HELP: &str = "Print one JSON object on stdout instead of the text";
pub const JSON_LONG_HELP: &str = "Print what the text says as one JSON object on one line of stdout, for \
scripts; field names carry their units (time_ms, ...). Warnings and errors still go to stderr.";

/// `backend` of every `--json` object: `gpu` or `cpu` (`backend_detail` says which GPU, or how
/// many threads).
pub fn backend_kind(backend: &BackendUsed) -> &'static str {
    match backend {
        BackendUsed::Gpu { .. } => "gpu",
        BackendUsed::Cpu { .. } => "cpu",
    }
}

/// Prints `value` as one JSON object on one line of stdout.
pub fn print_json(value: &impl Serialize) -> warpath::Result<()> {
    let text = serde_json::to_string(value)
        .map_err(|err| warpath::Error::InvalidArgument(format!("cannot write the JSON output: {err}")))?;
    println!("{text}");
    Ok(())
}
