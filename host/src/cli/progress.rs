//! Progress display on stderr for long work (loading big graphs, many roots), drawn only when
//! stdout is a terminal, so piped and logged output stays clean.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

fn visible() -> bool {
    std::io::stdout().is_terminal()
}

/// A spinner with `message`, ticking on its own until finished.
pub fn spinner(message: &str) -> ProgressBar {
    if !visible() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
    bar.set_style(ProgressStyle::with_template("{spinner} {msg} ({elapsed})").expect("valid template"));
    bar.set_message(message.to_string());
    bar.enable_steady_tick(Duration::from_millis(120));
    bar
}

/// A bar counting `len` items (roots), with `message` in front.
pub fn bar(len: u64, message: &str) -> ProgressBar {
    if !visible() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} ({elapsed}, eta {eta})")
            .expect("valid template")
            .progress_chars("=> "),
    );
    bar.set_message(message.to_string());
    bar
}
