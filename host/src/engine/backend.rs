//! Where a traversal runs: what the caller asks for, and what it got.

use crate::error::{Error, Result};

/// Where the caller wants the traversal to run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Backend {
    /// The GPU if one is usable, else the CPU (with a warning saying why).
    #[default]
    Auto,
    /// The GPU or an error.
    Gpu,
    /// All CPU cores.
    Cpu,
}

impl Backend {
    pub const ALL: [Backend; 3] = [Backend::Auto, Backend::Gpu, Backend::Cpu];

    pub fn name(self) -> &'static str {
        match self {
            Backend::Auto => "auto",
            Backend::Gpu => "gpu",
            Backend::Cpu => "cpu",
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Backend {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        Backend::ALL
            .into_iter()
            .find(|b| b.name() == s)
            .ok_or_else(|| Error::InvalidArgument(format!("unknown backend `{s}`: expected auto, gpu or cpu")))
    }
}

/// Where a traversal did run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BackendUsed {
    Gpu { device: String },
    Cpu { threads: usize },
}

impl BackendUsed {
    /// `gpu` or `cpu`, without the details the display adds (which GPU, how many threads).
    pub fn kind(&self) -> &'static str {
        match self {
            BackendUsed::Gpu { .. } => "gpu",
            BackendUsed::Cpu { .. } => "cpu",
        }
    }
}

impl std::fmt::Display for BackendUsed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BackendUsed::Gpu { device } => write!(f, "gpu ({device})"),
            BackendUsed::Cpu { threads } => write!(f, "cpu ({threads} threads)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_names_round_trip_and_unknown_ones_are_refused() {
        for backend in Backend::ALL {
            assert_eq!(backend.name().parse::<Backend>().unwrap(), backend);
        }
        let err = "tpu".parse::<Backend>().unwrap_err().to_string();
        assert!(err.contains("`tpu`") && err.contains("auto, gpu or cpu"), "{err}");
    }
}
