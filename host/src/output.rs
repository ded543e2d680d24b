//! Outputs that respect what is at their path. A regular file (or a new path) is written whole
//! or not at all: the content goes to a temporary file beside it and is renamed into place only
//! when complete, so an interrupted run (a kill, a full disk, an error halfway) leaves the old
//! file or none, never a fragment under the final name. Anything else (a character or block
//! device such as `/dev/null`, a FIFO, `-` or `/dev/stdout` for standard output) gets a plain
//! streamed write and is never replaced or removed: renaming a regular file over `/dev/null`
//! would break the whole system, and over a FIFO would leave its reader waiting for ever. A
//! symbolic link is followed, and its target written as above; the link stays.
//!
//! Outputs are also checked before the work starts: never the input graph itself, and in a
//! folder that can be written. The temporaries this process has open are listed, so that an
//! interrupt can remove them ([`remove_temporaries`]).

use std::fs::{File, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::error::{Error, Result};

/// The most symbolic links followed from one output path (Linux's own limit is 40).
const MAX_LINKS: usize = 40;

/// Where an output's bytes go, decided from what is at its path.
#[derive(Debug, PartialEq, Eq)]
pub enum Destination {
    /// Standard output (`-`, `/dev/stdout`): streamed.
    Stdout,
    /// Standard error (`/dev/stderr`): streamed.
    Stderr,
    /// Something that exists and is not a regular file (a device, a FIFO, a socket), reached
    /// through any links: opened for writing as it is, never created, truncated or replaced.
    Stream(PathBuf),
    /// A regular file, or a path where nothing is yet: written beside it and renamed over it.
    /// The path is the links' final target.
    File(PathBuf),
}

/// Whether `path` names standard output (`-`, `/dev/stdout`).
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == "-" || path == Path::new("/dev/stdout")
}

impl Destination {
    /// What is at `path`, through its symbolic links. A folder, or a link chain that loops or
    /// is too long, is refused.
    pub fn of(path: &Path) -> Result<Destination> {
        if is_stdout(path) {
            return Ok(Destination::Stdout);
        }
        if path == Path::new("/dev/stderr") {
            return Ok(Destination::Stderr);
        }
        let target = follow_links(path)?;
        match std::fs::metadata(&target) {
            Ok(meta) if meta.is_dir() => Err(Error::InvalidArgument(format!(
                "{}: is a folder; give a file name for the output",
                path.display()
            ))),
            Ok(meta) if meta.is_file() => Ok(Destination::File(target)),
            Ok(_) => Ok(Destination::Stream(target)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Destination::File(target)),
            Err(e) => Err(Error::io(path, e)),
        }
    }
}

/// `path` with every symbolic link along its last component followed (a link's relative
/// target read from the link's folder). A dangling link yields the path it points at, where
/// the output is then created.
fn follow_links(path: &Path) -> Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let next = std::fs::read_link(&current).map_err(|e| Error::io(path, e))?;
                current = match current.parent() {
                    Some(folder) if next.is_relative() => folder.join(next),
                    _ => next,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(Error::InvalidArgument(format!(
        "{}: more than {MAX_LINKS} symbolic links, or a loop of them; give the output's real path",
        path.display()
    )))
}

/// The temporary files this process is writing, for [`remove_temporaries`].
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn temporaries() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    // A panic while the list was held leaves it whole (pushes and removals only).
    TEMPORARIES.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Removes every temporary output file this process has not yet committed or dropped. For a
/// signal handler (the command line calls it on SIGINT, SIGTERM and SIGHUP before it dies as
/// the signal asks): nothing of a half-written output stays beside its target.
pub fn remove_temporaries() {
    remove_temporaries_where(|_| true);
}

/// Removes the listed temporaries that `chosen` picks (tests pick their own folder's).
fn remove_temporaries_where(chosen: impl Fn(&Path) -> bool) {
    temporaries().retain(|temp| {
        if chosen(temp) {
            let _ = std::fs::remove_file(temp);
        }
        !chosen(temp)
    });
}

/// A file being written under a temporary name beside `target`; [`AtomicFile::commit`] renames
/// it into place, and dropping it uncommitted removes it. Private: [`write_output`] and
/// [`check_output`] make one only for what [`Destination::of`] calls a file, so nothing else
/// (a FIFO, a device) is ever renamed over.
#[derive(Debug)]
struct AtomicFile {
    temp: PathBuf,
    target: PathBuf,
    file: Option<File>,
}

impl AtomicFile {
    /// Creates the temporary file for `target`, a [`Destination::File`] (a regular file or a
    /// new path, never a folder). Its name ends with the target's file name, so code that looks
    /// at the extension (`.gz`, `.svg`) sees the same one.
    fn create(target: &Path) -> Result<AtomicFile> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let name = target.file_name().ok_or_else(|| {
            Error::InvalidArgument(format!("{}: an output must name a file, not a folder", target.display()))
        })?;
        let mut temp_name = format!(".warpath-{}-{}.", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed));
        temp_name.push_str(&name.to_string_lossy());
        let temp = target.with_file_name(temp_name);
        // Listed before it exists, so that an interrupt between the two still removes it.
        temporaries().push(temp.clone());
        let file = match OpenOptions::new().write(true).create_new(true).open(&temp) {
            Ok(file) => file,
            Err(e) => {
                forget_temporary(&temp);
                return Err(Error::io(target, e));
            }
        };
        Ok(AtomicFile { temp, target: target.to_path_buf(), file: Some(file) })
    }

    /// The open temporary file.
    fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("the file is open until commit")
    }

    /// Flushes the content to disk and renames it to the target, replacing any file there.
    fn commit(mut self) -> Result<()> {
        let file = self.file.take().expect("the file is open until commit");
        file.sync_all().map_err(|e| Error::io(&self.target, e))?;
        drop(file);
        std::fs::rename(&self.temp, &self.target).map_err(|e| Error::io(&self.target, e))?;
        forget_temporary(&self.temp);
        // Renamed: nothing left for Drop to remove.
        self.temp = PathBuf::new();
        Ok(())
    }
}

fn forget_temporary(temp: &Path) {
    temporaries().retain(|listed| listed != temp);
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.temp.as_os_str().is_empty() {
            self.file.take();
            let _ = std::fs::remove_file(&self.temp);
            forget_temporary(&self.temp);
        }
    }
}

/// True when `path` names a gzip-compressed file: written compressed here, read through gzip
/// by the readers.
pub(crate) fn is_gzipped(path: &Path) -> bool {
    path.extension().is_some_and(|ext| ext.eq_ignore_ascii_case("gz"))
}

/// Writes `path` as [`Destination::of`] says: a regular file or a new path whole or not at all
/// (see [`AtomicFile`]), anything else streamed; through a large buffer, and gzip-compressed
/// when `path` ends in `.gz`.
pub fn write_output(path: &Path, body: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<()> {
    let io_error = |e| Error::io(path, e);
    let gzipped = is_gzipped(path);
    match Destination::of(path)? {
        Destination::File(target) => {
            let mut atomic = AtomicFile::create(&target)?;
            write_through(atomic.file(), gzipped, body).map_err(io_error)?;
            atomic.commit()
        }
        Destination::Stream(target) => {
            // No create, no truncate: a device or FIFO is written as it is.
            let mut file = OpenOptions::new().write(true).open(&target).map_err(io_error)?;
            write_through(&mut file, gzipped, body).map_err(io_error)
        }
        Destination::Stdout => write_through(&mut io::stdout().lock(), gzipped, body).map_err(io_error),
        Destination::Stderr => write_through(&mut io::stderr().lock(), gzipped, body).map_err(io_error),
    }
}

/// `body` written to `out` through a 1 MiB buffer, gzip-compressed where asked, and flushed.
fn write_through(
    out: &mut dyn Write,
    gzipped: bool,
    body: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let buffered = BufWriter::with_capacity(1 << 20, out);
    if gzipped {
        let mut encoder = flate2::write::GzEncoder::new(buffered, flate2::Compression::fast());
        body(&mut encoder)?;
        encoder.finish()?.flush()
    } else {
        let mut out = buffered;
        body(&mut out)?;
        out.flush()
    }
}

/// Checks, before any work, that `output` can be written and is not the input graph `input`
/// (a file path or a generator spec): `output` is not a folder and not the same file as
/// `input`, and where it is a regular file or a new path, its folder takes a new file (one is
/// created and removed). Streams (devices, FIFOs, standard output) are not opened here: a FIFO
/// would wait for its reader.
pub fn check_output(output: &Path, input: &str) -> Result<()> {
    if !crate::generate::looks_like_spec(input) && input != "-" && same_file(output, Path::new(input)) {
        return Err(Error::InvalidArgument(format!(
            "{}: is the input graph; writing there would destroy it. Give another output file",
            output.display()
        )));
    }
    if let Destination::File(target) = Destination::of(output)? {
        drop(AtomicFile::create(&target)?);
    }
    Ok(())
}

/// True when `a` and `b` name the same existing file (through links or other spellings).
pub fn same_file(a: &Path, b: &Path) -> bool {
    let (Ok(meta_a), Ok(meta_b)) = (std::fs::metadata(a), std::fs::metadata(b)) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta_a.dev() == meta_b.dev() && meta_a.ino() == meta_b.ino()
    }
    #[cfg(not(unix))]
    {
        let _ = (meta_a, meta_b);
        matches!((a.canonicalize(), b.canonicalize()), (Ok(x), Ok(y)) if x == y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("warpath-output-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn an_uncommitted_file_leaves_the_old_one_and_no_temporary() {
        let dir = scratch("uncommitted");
        let target = dir.join("result.txt");
        std::fs::write(&target, "old").unwrap();
        {
            let mut atomic = AtomicFile::create(&target).unwrap();
            atomic.file().write_all(b"half of the new").unwrap();
            assert!(atomic.temp.to_string_lossy().ends_with("result.txt"));
            assert!(temporaries().contains(&atomic.temp), "listed for an interrupt");
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "the temporary file is removed");
        let failed = write_output(&target, |out| {
            out.write_all(b"partial")?;
            Err(io::Error::other("disk full"))
        });
        assert!(failed.unwrap_err().to_string().contains("disk full"));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        write_output(&target, |out| out.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn gz_targets_are_compressed() {
        let dir = scratch("gz");
        let target = dir.join("x.txt.gz");
        write_output(&target, |out| out.write_all(b"1 2\n")).unwrap();
        let bytes = std::fs::read(&target).unwrap();
        assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
        let mut text = String::new();
        io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut text).unwrap();
        assert_eq!(text, "1 2\n");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn outputs_are_checked_against_the_input_and_the_folder() {
        let dir = scratch("check");
        let input = dir.join("g.txt");
        std::fs::write(&input, "0 1\n").unwrap();
        let spelled_otherwise = dir.join(".").join("g.txt");
        let err = check_output(&spelled_otherwise, input.to_str().unwrap()).unwrap_err().to_string();
        assert!(err.contains("is the input graph"), "{err}");
        assert!(check_output(&dir.join("out.txt"), input.to_str().unwrap()).is_ok());
        assert!(!dir.join("out.txt").exists(), "the check leaves nothing behind");
        assert!(check_output(&dir.join("missing").join("out.txt"), "kron:4").is_err());
        assert!(check_output(&dir, "kron:4").unwrap_err().to_string().contains("is a folder"));
        std::fs::remove_dir_all(dir).unwrap();
    }

    /// Runs a command for a test's setup; false where it cannot run or fails (no permission).
    fn try_command(program: &str, args: &[&std::ffi::OsStr]) -> bool {
        std::process::Command::new(program).args(args).status().is_ok_and(|s| s.success())
    }

    #[test]
    fn a_symbolic_link_is_followed_and_stays_a_link() {
        let dir = scratch("link");
        let target = dir.join("real.txt");
        std::fs::write(&target, "old").unwrap();
        let link = dir.join("link.txt");
        std::os::unix::fs::symlink("real.txt", &link).unwrap();
        assert_eq!(Destination::of(&link).unwrap(), Destination::File(dir.join("real.txt")));
        write_output(&link, |out| out.write_all(b"new")).unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        // A dangling link: the output is created where it points.
        let dangling = dir.join("dangling.txt");
        std::os::unix::fs::symlink("later.txt", &dangling).unwrap();
        write_output(&dangling, |out| out.write_all(b"made")).unwrap();
        assert!(std::fs::symlink_metadata(&dangling).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(dir.join("later.txt")).unwrap(), "made");
        // A loop is refused in words.
        std::os::unix::fs::symlink("loop-b", dir.join("loop-a")).unwrap();
        std::os::unix::fs::symlink("loop-a", dir.join("loop-b")).unwrap();
        let err = write_output(&dir.join("loop-a"), |out| out.write_all(b"x")).unwrap_err().to_string();
        assert!(err.contains("symbolic links"), "{err}");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 6, "no temporary left: {dir:?}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_fifo_is_written_as_a_stream_and_stays_a_fifo() {
        let dir = scratch("fifo");
        let fifo = dir.join("pipe.el");
        if !try_command("mkfifo", &[fifo.as_os_str()]) {
            eprintln!("skipped: mkfifo could not make a FIFO here");
            return;
        }
        assert_eq!(Destination::of(&fifo).unwrap(), Destination::Stream(fifo.clone()));
        // The check before the work does not open it (that would wait for a reader).
        check_output(&fifo, "kron:4").unwrap();
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        write_output(&fifo, |out| out.write_all(b"0 1\n")).unwrap();
        assert_eq!(reader.join().unwrap(), "0 1\n");
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "still a FIFO");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary beside it");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_character_device_is_written_in_place_and_never_replaced() {
        let dir = scratch("device");
        let device = dir.join("null");
        // The same device as /dev/null (1, 3), in a folder of the test's own.
        if !try_command("mknod", &[device.as_os_str(), "c".as_ref(), "1".as_ref(), "3".as_ref()]) {
            eprintln!("skipped: mknod is not permitted here (it needs CAP_MKNOD)");
            std::fs::remove_dir_all(dir).unwrap();
            return;
        }
        assert_eq!(Destination::of(&device).unwrap(), Destination::Stream(device.clone()));
        check_output(&device, "kron:4").unwrap();
        write_output(&device, |out| out.write_all(b"0 1\n")).unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::symlink_metadata(&device).unwrap().file_type().is_char_device(), "still a device");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "no temporary beside it");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn standard_streams_are_named_by_dash_and_dev() {
        assert_eq!(Destination::of(Path::new("-")).unwrap(), Destination::Stdout);
        assert_eq!(Destination::of(Path::new("/dev/stdout")).unwrap(), Destination::Stdout);
        assert_eq!(Destination::of(Path::new("/dev/stderr")).unwrap(), Destination::Stderr);
        // /dev/null is a device wherever the test runs: streamed, never renamed over.
        assert_eq!(Destination::of(Path::new("/dev/null")).unwrap(), Destination::Stream("/dev/null".into()));
        write_output(Path::new("/dev/null"), |out| out.write_all(b"nothing")).unwrap();
        use std::os::unix::fs::FileTypeExt;
        assert!(std::fs::metadata("/dev/null").unwrap().file_type().is_char_device());
    }

    #[test]
    fn temporaries_are_removed_on_request() {
        let dir = scratch("interrupt");
        let target = dir.join("big.wgr");
        let mut atomic = AtomicFile::create(&target).unwrap();
        atomic.file().write_all(b"half").unwrap();
        let temp = atomic.temp.clone();
        assert!(temp.exists());
        remove_temporaries_where(|temp| temp.starts_with(&dir));
        assert!(!temp.exists(), "an interrupt's cleanup removes the temporary");
        drop(atomic);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
