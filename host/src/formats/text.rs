//! Header line reading and number parsing shared by the text formats.
//!
//! Graph files run to hundreds of millions of lines, so parsing works on raw bytes:
//! lines and tokens as byte slices of the blocks read, integers accumulated digit by digit.
//! `str::parse` would need a UTF-8 check and a `&str` per token for no gain. The per-token
//! helpers are `#[inline]` so that every reader gets them inlined whichever codegen unit it
//! lands in.

use std::path::Path;

use crate::error::{Error, WEIGHT_RULE};
use crate::graph::Weight;

/// The longest line a text graph file may have. Real lines are tens of bytes; the cap keeps a
/// file without newlines (a binary file, `/dev/zero`, a gzip bomb) from growing the line
/// buffer without bound.
pub(crate) const MAX_LINE_BYTES: u64 = 1 << 20;

/// What an error about a short last line without a newline adds.
pub(crate) const TRUNCATED_HINT: &str =
    "; it is the last line and has no newline: the file looks truncated (an interrupted download or copy?)";

/// What a line longer than [`MAX_LINE_BYTES`] is told.
pub(crate) fn long_line(line: &[u8]) -> String {
    format!(
        "a line of at most {} MiB, found a longer one starting {}; this is not a text graph file",
        MAX_LINE_BYTES >> 20,
        show(line)
    )
}

/// An error reading `path`, saying what is wrong with a gzip stream in words.
pub(crate) fn read_error(path: &Path, error: std::io::Error) -> Error {
    use std::io::ErrorKind::{InvalidData, InvalidInput, UnexpectedEof};
    let corrupt = matches!(error.kind(), InvalidInput | InvalidData | UnexpectedEof);
    if corrupt && crate::output::is_gzipped(path) {
        return Error::Format {
            path: path.to_path_buf(),
            problem: format!(
                "its gzip data is corrupt ({error}): a damaged or cut-short download, or bytes after the \
                 compressed data; check it with `gzip -t`"
            ),
        };
    }
    Error::io(path, error)
}

/// Splits a line on ASCII whitespace (spaces and tabs, however many).
#[inline]
pub(crate) fn tokens(line: &[u8]) -> impl Iterator<Item = &[u8]> {
    line.split(|b| b.is_ascii_whitespace()).filter(|t| !t.is_empty())
}

/// True for a line holding nothing but whitespace.
#[inline]
pub(crate) fn is_blank(line: &[u8]) -> bool {
    line.iter().all(|b| b.is_ascii_whitespace())
}

/// An unsigned decimal integer, or `None` for anything else (signs, letters, overflow).
#[inline]
pub(crate) fn parse_u64(token: &[u8]) -> Option<u64> {
    if token.is_empty() {
        return None;
    }
    let mut value: u64 = 0;
    for &b in token {
        let digit = b.wrapping_sub(b'0');
        if digit > 9 {
            return None;
        }
        value = value.checked_mul(10)?.checked_add(digit as u64)?;
    }
    Some(value)
}

/// A signed decimal integer (an optional `+` or `-`, then digits).
#[inline]
pub(crate) fn parse_i64(token: &[u8]) -> Option<i64> {
    let (negative, digits) = match token.first() {
        Some(b'-') => (true, &token[1..]),
        Some(b'+') => (false, &token[1..]),
        _ => (false, token),
    };
    let magnitude = parse_u64(digits)?;
    if negative {
        0i64.checked_sub_unsigned(magnitude)
    } else {
        i64::try_from(magnitude).ok()
    }
}

/// A decimal floating-point number as Matrix Market writes them (`1.5`, `-2e-3`, `7`).
/// Only value columns use this, so `str::parse` (which needs a `&str`) is fine here.
pub(crate) fn parse_real(token: &[u8]) -> Option<f64> {
    std::str::from_utf8(token).ok().and_then(|s| s.parse::<f64>().ok())
}

/// True for a real number, including `inf` and `NaN`: read without weights, a matrix file
/// holding them is still well formed.
pub(crate) fn is_real(token: &[u8]) -> bool {
    parse_real(token).is_some()
}


/// An integer edge weight, or what the error should say was expected instead (naming the
/// value). `what` names the field, e.g. "arc weight in the fourth column".
pub(crate) fn integer_weight(token: &[u8], what: &str) -> std::result::Result<u32, String> {
    let too_large = || format!("an integer {what} of at most {} (u32), found {}", u32::MAX, show(token));
    match parse_i64(token) {
        Some(w) if w < 0 => {
            Err(format!("a non-negative integer {what}, found {} (negative); {WEIGHT_RULE}", show(token)))
        }
        Some(w) => u32::try_from(w).map_err(|_| too_large()),
        None if !token.is_empty() && token.iter().all(u8::is_ascii_digit) => Err(too_large()),
        None => Err(format!("an integer {what}, found {}", show(token))),
    }
}

/// A real edge weight, stored as `f32`, or what the error should say was expected instead
/// (naming the value and what is wrong with it). `what` names the field.
pub(crate) fn real_weight(token: &[u8], what: &str) -> std::result::Result<f32, String> {
    let Some(value) = parse_real(token) else {
        return Err(format!("a real number as the {what}, found {}", show(token)));
    };
    crate::graph::weights::f32_weight(value)
        .map_err(|problem| format!("a non-negative, finite {what}, found {} ({problem}); {WEIGHT_RULE}", show(token)))
}

/// A value column of a body line (an edge weight), kept or only checked: what the body
/// parsers of the formats share.
pub(crate) trait Column: Sync {
    /// `u32` or `f32` when kept, `()` when only checked (taking no memory).
    type Value: Weight;
    /// The value of `token`, or what the error should say was expected instead.
    fn value(&self, token: &[u8]) -> std::result::Result<Self::Value, String>;
}

/// An integer weight kept as `u32`; `what` names the field, e.g. "weight in the third column".
pub(crate) struct KeepInteger(pub &'static str);

impl Column for KeepInteger {
    type Value = u32;
    #[inline]
    fn value(&self, token: &[u8]) -> std::result::Result<u32, String> {
        integer_weight(token, self.0)
    }
}

/// A real weight kept as `f32`; `what` names the field.
pub(crate) struct KeepReal(pub &'static str);

impl Column for KeepReal {
    type Value = f32;
    #[inline]
    fn value(&self, token: &[u8]) -> std::result::Result<f32, String> {
        real_weight(token, self.0)
    }
}

/// An integer value only checked to be one, whatever its sign; `expected` is what the
/// error says, e.g. "an integer weight in the third column".
pub(crate) struct CheckInteger(pub &'static str);

impl Column for CheckInteger {
    type Value = ();
    #[inline]
    fn value(&self, token: &[u8]) -> std::result::Result<(), String> {
        match parse_i64(token) {
            Some(_) => Ok(()),
            None => Err(format!("{}, found {}", self.0, show(token))),
        }
    }
}

/// A real value (`inf` and `NaN` included) only checked to be one.
pub(crate) struct CheckReal(pub &'static str);

impl Column for CheckReal {
    type Value = ();
    #[inline]
    fn value(&self, token: &[u8]) -> std::result::Result<(), String> {
        if is_real(token) {
            Ok(())
        } else {
            Err(format!("{}, found {}", self.0, show(token)))
        }
    }
}

/// A line as shown inside an error message: lossy UTF-8, cut short if long, in backticks,
/// with control characters escaped (`\u{1b}`), so that a file cannot drive the terminal, and
/// so are invisible ones (a byte-order mark, zero-width spaces, direction marks), so that the
/// message shows what is wrong with the line.
pub(crate) fn show(line: &[u8]) -> String {
    const MAX: usize = 60;
    let text = String::from_utf8_lossy(&line[..line.len().min(MAX)]);
    let ellipsis = if line.len() > MAX { "..." } else { "" };
    let invisible = |c: char| matches!(c, '\u{ad}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2060}'..='\u{2064}' | '\u{feff}');
    let escaped: String = text
        .chars()
        .map(|c| if c.is_control() || invisible(c) { c.escape_default().to_string() } else { c.to_string() })
        .collect();
    format!("`{escaped}{ellipsis}`")
}

/// What a vertex id or count that is not a `u64` is: digits too many for one ("too large"),
/// or not a non-negative integer at all.
pub(crate) fn not_a_count(token: &[u8]) -> &'static str {
    if !token.is_empty() && token.iter().all(u8::is_ascii_digit) {
        "too large"
    } else {
        "not a non-negative integer"
    }
}

/// The `Error::Parse` for `line` of `path`.
pub(crate) fn parse_error(path: &Path, line: u64, expected: impl Into<String>) -> Error {
    Error::Parse { path: path.to_path_buf(), line, expected: expected.into() }
}

/// How many edges to reserve room for, given a count a header claims: enough to avoid
/// regrowth on honest files, but bounded so a corrupt header cannot demand terabytes.
pub(crate) fn capacity_hint(declared: u64) -> usize {
    const LIMIT: u64 = 1 << 26;
    declared.min(LIMIT) as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::chunked::Lines;

    #[test]
    fn integers_parse_and_reject_junk() {
        assert_eq!(parse_u64(b"0"), Some(0));
        assert_eq!(parse_u64(b"18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_u64(b"18446744073709551616"), None);
        assert_eq!(parse_u64(b""), None);
        assert_eq!(parse_u64(b"-1"), None);
        assert_eq!(parse_u64(b"12a"), None);
        assert_eq!(parse_i64(b"-9223372036854775808"), Some(i64::MIN));
        assert_eq!(parse_i64(b"+7"), Some(7));
        assert_eq!(parse_i64(b"9223372036854775808"), None);
        assert_eq!(parse_i64(b"-"), None);
    }

    #[test]
    fn weights_parse_and_name_what_is_wrong() {
        let what = "weight in the third column";
        assert_eq!(integer_weight(b"255", what), Ok(255));
        assert_eq!(integer_weight(b"4294967295", what), Ok(u32::MAX));
        let too_big = integer_weight(b"4294967296", what).unwrap_err();
        assert!(too_big.contains("at most 4294967295") && too_big.contains("`4294967296`"), "{too_big}");
        assert!(integer_weight(b"99999999999999999999", what).unwrap_err().contains("at most"));
        let negative = integer_weight(b"-3", what).unwrap_err();
        assert!(
            negative.contains("non-negative integer weight in the third column, found `-3` (negative)"),
            "{negative}"
        );
        assert!(integer_weight(b"1.5", what).unwrap_err().contains("an integer weight in the third column"));
        assert_eq!(real_weight(b"0.5", what), Ok(0.5));
        assert_eq!(real_weight(b"-0", what).map(f32::to_bits), Ok(0));
        assert!(real_weight(b"-1e-3", what).unwrap_err().contains("`-1e-3` (negative)"));
        assert!(real_weight(b"NaN", what).unwrap_err().contains("(not a number)"));
        assert!(real_weight(b"inf", what).unwrap_err().contains("(infinite)"));
        assert!(real_weight(b"1e39", what).unwrap_err().contains("too large for an f32"));
        assert!(real_weight(b"x", what).unwrap_err().contains("a real number"));
    }

    #[test]
    fn lines_strip_crlf_and_count() {
        let data = b"a b\r\nc\n\nlast";
        let mut lines = Lines::new(Box::new(&data[..]), Path::new("x"));
        assert_eq!(lines.next_line().unwrap(), Some((1, &b"a b"[..])));
        assert_eq!(lines.next_line().unwrap(), Some((2, &b"c"[..])));
        assert_eq!(lines.next_line().unwrap(), Some((3, &b""[..])));
        assert_eq!(lines.next_line().unwrap(), Some((4, &b"last"[..])));
        assert_eq!(lines.next_line().unwrap(), None);
        assert_eq!(lines.lines_read(), 4);
    }

    #[test]
    fn lines_are_capped_and_shown_escaped() {
        let long = vec![b'7'; MAX_LINE_BYTES as usize + 10];
        let mut lines = Lines::new(Box::new(std::io::Cursor::new(long)), Path::new("zeros.txt"));
        let err = lines.next_line().unwrap_err().to_string();
        assert!(err.starts_with("zeros.txt:1: expected a line of at most 1 MiB"), "{err}");
        let exact = [vec![b'1'; MAX_LINE_BYTES as usize], vec![b'\n']].concat();
        let mut lines = Lines::new(Box::new(std::io::Cursor::new(exact)), Path::new("x"));
        assert_eq!(lines.next_line().unwrap().unwrap().1.len(), MAX_LINE_BYTES as usize);
        assert_eq!(show(b"a\x1b[31mred\x07"), "`a\\u{1b}[31mred\\u{7}`");
        assert_eq!(show("1\u{feff} 2\u{200b}".as_bytes()), "`1\\u{feff} 2\\u{200b}`");
        assert_eq!(not_a_count(b"18446744073709551616"), "too large");
        assert_eq!(not_a_count(b"-1"), "not a non-negative integer");
    }

    #[test]
    fn a_cut_last_line_is_told_apart() {
        use crate::formats::{snap, ReadOptions};
        let path = Path::new("x.txt");
        let err = snap::read(&b"1 2\n3\n4 5\n"[..], path, &ReadOptions::DEFAULT).unwrap_err().to_string();
        assert!(err.starts_with("x.txt:2: expected two vertex ids") && !err.contains("truncated"), "{err}");
        let err = snap::read(&b"1 2\n3"[..], path, &ReadOptions::DEFAULT).unwrap_err().to_string();
        assert!(err.starts_with("x.txt:2: expected") && err.contains("looks truncated"), "{err}");
    }

    #[test]
    fn a_byte_order_mark_is_skipped_at_the_start_only() {
        let data = b"\xef\xbb\xbf# c\n1 2\n";
        let mut lines = Lines::new(Box::new(&data[..]), Path::new("x"));
        assert_eq!(lines.next_line().unwrap(), Some((1, &b"# c"[..])));
        assert_eq!(lines.next_line().unwrap(), Some((2, &b"1 2"[..])));
        let only = b"\xef\xbb\xbf";
        assert_eq!(Lines::new(Box::new(&only[..]), Path::new("x")).next_line().unwrap(), None);
        let later = b"1 2\n\xef\xbb\xbf3 4\n";
        let mut lines = Lines::new(Box::new(&later[..]), Path::new("x"));
        lines.next_line().unwrap();
        assert_eq!(lines.next_line().unwrap(), Some((2, &b"\xef\xbb\xbf3 4"[..])));
    }

    #[test]
    fn tokens_split_on_mixed_whitespace() {
        let t: Vec<&[u8]> = tokens(b"  1\t 2  3 ").collect();
        assert_eq!(t, vec![&b"1"[..], b"2", b"3"]);
    }
}
