//! warpath's own binary graph format (`.wgr`): a built CSR, stored so that loading it is
//! a few large reads instead of parsing and rebuilding.
//!
//! Layout, all integers little-endian:
//!
//! | bytes | field |
//! |---|---|
//! | 8 | magic `WARPGRPH` |
//! | 4 | format version (`1`) |
//! | 4 | flags: bit 0 = undirected; other bits must be 0 |
//! | 4 | id base (0 or 1) |
//! | 4 | reserved, 0: keeps the arrays 8-byte aligned in the file, for a future mmap loader |
//! | 8 | number of vertices `n` |
//! | 8 | number of stored (directed) edges `m` |
//! | 8·(n+1) | offsets, `u64` |
//! | 4·m | targets, `u32` |
//! | 4 | CRC-32 (IEEE) of every byte before it |

use std::fs::File;
use std::io::{BufWriter, ErrorKind, Read, Write};
use std::path::Path;

use crate::error::{Error, Result};
use crate::graph::{Graph, MAX_VERTICES};

pub const MAGIC: &[u8; 8] = b"WARPGRPH";
pub const VERSION: u32 = 1;
const HEADER_BYTES: u64 = 40;
const FLAG_UNDIRECTED: u32 = 1;

/// Writes `graph` to `path` as `.wgr`, gzip-compressed if `path` ends in `.gz`.
pub fn write(graph: &Graph, path: &Path) -> Result<()> {
    let io = |e| Error::io(path, e);
    let file = File::create(path).map_err(io)?;
    let buffered = BufWriter::with_capacity(1 << 20, file);
    if super::is_gzipped(path) {
        let mut encoder = flate2::write::GzEncoder::new(buffered, flate2::Compression::fast());
        write_to(graph, &mut encoder).map_err(io)?;
        encoder.finish().map_err(io)?.flush().map_err(io)
    } else {
        let mut out = buffered;
        write_to(graph, &mut out).map_err(io)?;
        out.flush().map_err(io)
    }
}

fn write_to(graph: &Graph, out: &mut impl Write) -> std::io::Result<()> {
    let mut crc = crc32fast::Hasher::new();
    let mut put = |bytes: &[u8]| -> std::io::Result<()> {
        crc.update(bytes);
        out.write_all(bytes)
    };
    let flags = if graph.is_undirected() { FLAG_UNDIRECTED } else { 0 };
    let mut header = Vec::with_capacity(HEADER_BYTES as usize);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&VERSION.to_le_bytes());
    header.extend_from_slice(&flags.to_le_bytes());
    header.extend_from_slice(&graph.id_base().to_le_bytes());
    header.extend_from_slice(&0u32.to_le_bytes());
    header.extend_from_slice(&(graph.num_vertices() as u64).to_le_bytes());
    header.extend_from_slice(&graph.num_edges().to_le_bytes());
    put(&header)?;
    if cfg!(target_endian = "little") {
        put(bytemuck::cast_slice(graph.offsets()))?;
        put(bytemuck::cast_slice(graph.targets()))?;
    } else {
        for chunk in graph.offsets().chunks(1 << 16) {
            let le: Vec<u8> = chunk.iter().flat_map(|x| x.to_le_bytes()).collect();
            put(&le)?;
        }
        for chunk in graph.targets().chunks(1 << 16) {
            let le: Vec<u8> = chunk.iter().flat_map(|x| x.to_le_bytes()).collect();
            put(&le)?;
        }
    }
    let sum = crc.finalize();
    out.write_all(&sum.to_le_bytes())
}

/// Reads a `.wgr` file (or `.wgr.gz`), checking its header, its length and its checksum.
pub fn read(path: &Path) -> Result<Graph> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    if super::is_gzipped(path) {
        let decoder = flate2::bufread::MultiGzDecoder::new(std::io::BufReader::with_capacity(1 << 20, file));
        read_from(decoder, path, None)
    } else {
        let length = file.metadata().map_err(|e| Error::io(path, e))?.len();
        read_from(file, path, Some(length))
    }
}

/// `length` is the byte count when known (a plain file), so truncation is reported before
/// any large allocation; a gzip stream is checked as it is read instead.
fn read_from(mut input: impl Read, path: &Path, length: Option<u64>) -> Result<Graph> {
    let format_error = |problem: String| Error::Format { path: path.to_path_buf(), problem };
    let mut crc = crc32fast::Hasher::new();

    if let Some(length) = length {
        if length < HEADER_BYTES + 4 {
            return Err(format_error(format!(
                "is {length} bytes long, too short for a .wgr graph (its header alone is {HEADER_BYTES} bytes); \
                 the file is truncated or not a .wgr file"
            )));
        }
    }
    let mut header = [0u8; HEADER_BYTES as usize];
    read_exact(&mut input, &mut header, path, "header")?;
    crc.update(&header);
    if &header[..8] != MAGIC {
        return Err(format_error(format!(
            "does not start with the .wgr magic bytes `WARPGRPH` (found {:?}); it is not a warpath binary graph. \
             Use the extension that matches its format: .mtx, .txt/.el, .gr",
            String::from_utf8_lossy(&header[..8])
        )));
    }
    let word = |at: usize| u32::from_le_bytes(header[at..at + 4].try_into().unwrap());
    let dword = |at: usize| u64::from_le_bytes(header[at..at + 8].try_into().unwrap());
    let (version, flags, id_base, reserved) = (word(8), word(12), word(16), word(20));
    let (n, m) = (dword(24), dword(32));
    if version != VERSION {
        return Err(format_error(format!(
            "is .wgr format version {version}, but this warpath reads version {VERSION}; \
             convert the graph again from its source file with this warpath"
        )));
    }
    if flags & !FLAG_UNDIRECTED != 0 || reserved != 0 || id_base > 1 {
        return Err(format_error(format!(
            "has header fields this warpath does not know (flags {flags:#x}, id base {id_base}, reserved {reserved:#x}); \
             the file is corrupt or was written by a newer warpath"
        )));
    }
    if n > MAX_VERTICES {
        return Err(Error::TooManyVertices { vertices: n });
    }
    let expected = (n + 1)
        .checked_mul(8)
        .and_then(|o| m.checked_mul(4).and_then(|t| o.checked_add(t)))
        .and_then(|body| body.checked_add(HEADER_BYTES + 4));
    let Some(expected) = expected else {
        return Err(format_error(format!("declares {m} edges, more than any file can hold; the header is corrupt")));
    };
    if let Some(length) = length {
        if length < expected {
            return Err(format_error(format!(
                "is truncated: a graph of {n} vertices and {m} edges needs {expected} bytes, but the file has {length}; \
                 write it again"
            )));
        }
        if length > expected {
            return Err(format_error(format!(
                "has {} unexpected bytes after the end of the graph ({expected} bytes for {n} vertices and {m} edges); \
                 the file is corrupt",
                length - expected
            )));
        }
    }

    let mut offsets: Vec<u64> = read_array(&mut input, n + 1, path, "offsets")?;
    crc.update(bytemuck::cast_slice(&offsets));
    let mut targets: Vec<u32> = read_array(&mut input, m, path, "targets")?;
    crc.update(bytemuck::cast_slice(&targets));
    let mut stored = [0u8; 4];
    read_exact(&mut input, &mut stored, path, "checksum")?;
    if length.is_none() {
        let mut extra = [0u8; 1];
        if input.read(&mut extra).map_err(|e| Error::io(path, e))? != 0 {
            return Err(format_error("has unexpected bytes after the checksum; the file is corrupt".into()));
        }
    }
    let stored = u32::from_le_bytes(stored);
    let computed = crc.finalize();
    if stored != computed {
        return Err(format_error(format!(
            "checksum mismatch (stored {stored:#010x}, computed {computed:#010x}): the file is corrupt; \
             write it again from the source graph"
        )));
    }

    if cfg!(target_endian = "big") {
        offsets.iter_mut().for_each(|x| *x = u64::from_le(*x));
        targets.iter_mut().for_each(|x| *x = u32::from_le(*x));
    }
    let undirected = flags & FLAG_UNDIRECTED != 0;
    let graph = Graph::from_csr(offsets, targets, undirected, id_base).map_err(|e| format_error(e.to_string()))?;
    check_lists(&graph, path)?;
    Ok(graph)
}

/// The reader skips the builder, so it checks what the builder would have guaranteed
/// (sorted lists, no repeats, no self-loops): a correct checksum over a hand-made or buggy
/// file does not make it valid.
fn check_lists(graph: &Graph, path: &Path) -> Result<()> {
    use rayon::prelude::*;
    let bad = (0..graph.num_vertices() as u32).into_par_iter().find_first(|&v| {
        let list = graph.neighbors(v);
        list.windows(2).any(|w| w[0] >= w[1]) || list.binary_search(&v).is_ok()
    });
    match bad {
        Some(v) => Err(Error::Format {
            path: path.to_path_buf(),
            problem: format!(
                "the neighbor list of vertex {v} is not strictly increasing or holds a self-loop; \
                 the file was not written by warpath or is corrupt"
            ),
        }),
        None => Ok(()),
    }
}

/// Reads `count` values straight into a typed vector, in bounded chunks so that a corrupt
/// count in a gzip stream (whose length is unknown) fails at end of input, not at allocation.
fn read_array<T: bytemuck::Pod>(input: &mut impl Read, count: u64, path: &Path, what: &str) -> Result<Vec<T>> {
    const CHUNK: usize = 1 << 24;
    let count = usize::try_from(count).map_err(|_| Error::Format {
        path: path.to_path_buf(),
        problem: format!("declares {count} {what}, more than this machine can address"),
    })?;
    let mut values: Vec<T> = Vec::with_capacity(count.min(CHUNK));
    while values.len() < count {
        let start = values.len();
        let step = (count - start).min(CHUNK);
        values.resize(start + step, T::zeroed());
        read_exact(input, bytemuck::cast_slice_mut(&mut values[start..]), path, what)?;
    }
    Ok(values)
}

fn read_exact(input: &mut impl Read, buf: &mut [u8], path: &Path, what: &str) -> Result<()> {
    input.read_exact(buf).map_err(|e| {
        if e.kind() == ErrorKind::UnexpectedEof {
            Error::Format {
                path: path.to_path_buf(),
                problem: format!("is truncated: it ends inside the {what}; write it again"),
            }
        } else {
            Error::io(path, e)
        }
    })
}
