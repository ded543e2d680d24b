//! Where a result came from: the commit, the date, the GPU driver.

use std::time::{SystemTime, UNIX_EPOCH};

/// The commit warpath was built from: `$WARPATH_COMMIT` at run time if set (scripts that copy
/// binaries to another machine can pass it on), else what `git rev-parse HEAD` said at build
/// time (with `-dirty` when tracked files differed), else `unknown`.
pub fn commit() -> String {
    if let Some(commit) = std::env::var("WARPATH_COMMIT").ok().filter(|c| !c.trim().is_empty()) {
        return commit.trim().to_string();
    }
    option_env!("WARPATH_BUILD_COMMIT").filter(|c| !c.is_empty()).unwrap_or("unknown").to_string()
}

/// The NVIDIA driver's release from `nvidia-smi` (e.g. `550.54.15`), or `unknown` when it
/// cannot be asked. The CUDA version the driver supports comes from the driver API instead
/// ([`crate::gpu::GpuContext::driver_version`]) and is reported beside it.
pub fn driver_version() -> String {
    std::process::Command::new("nvidia-smi")
        .args(["--query-gpu=driver_version", "--format=csv,noheader"])
        .output()
        .ok()
        .filter(|out| out.status.success())
        .and_then(|out| String::from_utf8(out.stdout).ok())
        .and_then(|text| text.lines().next().map(|l| l.trim().to_string()))
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "unknown".into())
}

/// Now, in UTC, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_utc() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    format_utc(secs)
}

/// `secs` after the Unix epoch as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn format_utc(secs: u64) -> String {
    let (days, rest) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rest / 3600, rest % 3600 / 60, rest % 60)
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar
/// (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms").
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_by_hand() {
        assert_eq!(format_utc(0), "1970-01-01T00:00:00Z");
        // 2000-03-01 is day 11017; 2024-02-29 12:34:56 is 1709210096.
        assert_eq!(format_utc(11_017 * 86_400), "2000-03-01T00:00:00Z");
        assert_eq!(format_utc(1_709_210_096), "2024-02-29T12:34:56Z");
        assert_eq!(format_utc(951_782_399), "2000-02-28T23:59:59Z");
    }
}
