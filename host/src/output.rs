//! Output files written whole or not at all: every output goes to a temporary file beside its
//! target and is renamed into place only when complete, so an interrupted run (a kill, a full
//! disk, an error halfway) leaves the old file or none, never a fragment under the final name.
//! Outputs are also checked before the work starts: never the input graph itself, and in a
//! folder that can be written.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, Result};

/// A file being written under a temporary name beside `target`; [`AtomicFile::commit`] renames
/// it into place, and dropping it uncommitted removes it.
#[derive(Debug)]
pub struct AtomicFile {
    temp: PathBuf,
    target: PathBuf,
    file: Option<File>,
}

impl AtomicFile {
    /// Creates the temporary file for `target` (empty). Its name ends with the target's file
    /// name, so code that looks at the extension (`.gz`, `.svg`) sees the same one.
    pub fn create(target: &Path) -> Result<AtomicFile> {
        static COUNTER: AtomicU64 = AtomicU64::new(0);
        let name = target.file_name().ok_or_else(|| {
            Error::InvalidArgument(format!("{}: an output must name a file, not a folder", target.display()))
        })?;
        if target.is_dir() {
            return Err(Error::InvalidArgument(format!(
                "{}: is a folder; give a file name for the output",
                target.display()
            )));
        }
        let mut temp_name = format!(".warpath-{}-{}.", std::process::id(), COUNTER.fetch_add(1, Ordering::Relaxed));
        temp_name.push_str(&name.to_string_lossy());
        let temp = target.with_file_name(temp_name);
        let file = File::create(&temp).map_err(|e| Error::io(target, e))?;
        Ok(AtomicFile { temp, target: target.to_path_buf(), file: Some(file) })
    }

    /// Where the content goes until [`AtomicFile::commit`], for writers that open a path
    /// themselves.
    pub fn temp_path(&self) -> &Path {
        &self.temp
    }

    /// The open temporary file.
    pub fn file(&mut self) -> &mut File {
        self.file.as_mut().expect("the file is open until commit")
    }

    /// Flushes the content to disk and renames it to the target, replacing any file there.
    pub fn commit(mut self) -> Result<()> {
        let file = self.file.take().expect("the file is open until commit");
        file.sync_all().map_err(|e| Error::io(&self.target, e))?;
        drop(file);
        std::fs::rename(&self.temp, &self.target).map_err(|e| Error::io(&self.target, e))?;
        // Renamed: nothing left for Drop to remove.
        self.temp = PathBuf::new();
        Ok(())
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if !self.temp.as_os_str().is_empty() {
            self.file.take();
            let _ = std::fs::remove_file(&self.temp);
        }
    }
}

/// Writes `path` whole or not at all (see [`AtomicFile`]), through a large buffer, and
/// gzip-compressed when `path` ends in `.gz`.
pub fn write_atomically(path: &Path, body: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Result<()> {
    let io_error = |e| Error::io(path, e);
    let mut atomic = AtomicFile::create(path)?;
    {
        let buffered = BufWriter::with_capacity(1 << 20, atomic.file());
        if crate::formats::is_gzipped(path) {
            let mut encoder = flate2::write::GzEncoder::new(buffered, flate2::Compression::fast());
            body(&mut encoder).map_err(io_error)?;
            encoder.finish().map_err(io_error)?.flush().map_err(io_error)?;
        } else {
            let mut out = buffered;
            body(&mut out).map_err(io_error)?;
            out.flush().map_err(io_error)?;
        }
    }
    atomic.commit()
}

/// Checks, before any work, that `output` can be written and is not the input graph `input`
/// (a file path or a generator spec): the folder exists and takes a new file (one is created
/// and removed), and `output` is neither a folder nor the same file as `input`.
pub fn check_output(output: &Path, input: &str) -> Result<()> {
    if !crate::generate::looks_like_spec(input) && same_file(output, Path::new(input)) {
        return Err(Error::InvalidArgument(format!(
            "{}: is the input graph; writing there would destroy it. Give another output file",
            output.display()
        )));
    }
    drop(AtomicFile::create(output)?);
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
            assert!(atomic.temp_path().to_string_lossy().ends_with("result.txt"));
        }
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1, "the temporary file is removed");
        let failed = write_atomically(&target, |out| {
            out.write_all(b"partial")?;
            Err(io::Error::other("disk full"))
        });
        assert!(failed.unwrap_err().to_string().contains("disk full"));
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "old");
        write_atomically(&target, |out| out.write_all(b"new")).unwrap();
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "new");
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn gz_targets_are_compressed() {
        let dir = scratch("gz");
        let target = dir.join("x.txt.gz");
        write_atomically(&target, |out| out.write_all(b"1 2\n")).unwrap();
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
}
