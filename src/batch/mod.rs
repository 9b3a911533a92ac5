//! Batch scoring of photos: `riichi-lens batch`.
//!
//! - [`discover`]: the photos (files given, and `.jpg`/`.jpeg`/`.png` below folders).
//! - [`conditions`]: win conditions per photo (sidecar JSON, conditions CSV, defaults).
//! - [`state`]: the resumable SQLite state, results keyed by the SHA-256 of each file.
//! - [`row`]: what is stored per photo and what is written per file (JSON lines or CSV).
//! - [`report`]: the self-contained HTML report.
//!
//! [`Batch::run`] reads every photo not yet in the state, in parallel, one [`PhotoReader`] per
//! worker thread, committing each finished photo at once; then the rows are made from the
//! state in input order. The reader is a trait so the pipeline can run without the trained
//! model: [`Recognizer`] is the real one.

pub mod conditions;
pub mod csv;
pub mod discover;
pub mod report;
pub mod row;
pub mod state;

pub use conditions::{Conditions, ConditionsError};
pub use discover::{discover, Found};
pub use report::Thumbnail;
pub use row::{Outcome, Reading, Row, RowError, TileRow};
pub use state::{State, StateError};

use crate::vision::picture::Reduced;
use crate::vision::{self, PhotoReading, Recognizer, VisionError};
use rayon::prelude::*;
use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

/// Reads the tiles of a photo decoded from `bytes` (by [`decode`], possibly at a reduced
/// size), giving back the image it read them from. [`Recognizer`] is the real reader; tests
/// use fakes.
pub trait PhotoReader {
    fn read(
        &mut self,
        photo: Reduced,
        bytes: &[u8],
    ) -> Result<(Reduced, PhotoReading), VisionError>;
}

impl PhotoReader for Recognizer {
    fn read(
        &mut self,
        photo: Reduced,
        bytes: &[u8],
    ) -> Result<(Reduced, PhotoReading), VisionError> {
        self.read_reduced(photo, bytes)
    }
}

type MakeReader<R> = Box<dyn Fn() -> Result<R, VisionError> + Send + Sync>;

/// A pool of readers: a worker takes one, reads a photo and gives it back, so there are never
/// more readers than threads reading at once (a reader's sessions are `&mut`).
pub struct Readers<R> {
    make: MakeReader<R>,
    idle: Mutex<Vec<R>>,
    made: Mutex<usize>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl<R: PhotoReader + Send> Readers<R> {
    /// Makes one reader now, so that a missing library or model is an error before any work.
    pub fn new(
        make: impl Fn() -> Result<R, VisionError> + Send + Sync + 'static,
    ) -> Result<Readers<R>, VisionError> {
        let first = make()?;
        Ok(Readers {
            make: Box::new(make),
            idle: Mutex::new(vec![first]),
            made: Mutex::new(1),
        })
    }

    /// How many readers were made so far.
    pub fn made(&self) -> usize {
        *lock(&self.made)
    }

    fn take(&self) -> Result<R, VisionError> {
        if let Some(reader) = lock(&self.idle).pop() {
            return Ok(reader);
        }
        let reader = (self.make)()?;
        *lock(&self.made) += 1;
        Ok(reader)
    }

    fn give_back(&self, reader: R) {
        lock(&self.idle).push(reader);
    }
}

/// How a batch runs.
#[derive(Clone, Debug)]
pub struct Options {
    /// The state file.
    pub state: PathBuf,
    /// Worker threads; 0 = the available cores.
    pub jobs: usize,
    /// Make report thumbnails while reading (saves decoding the photos again for the report).
    pub thumbnails: bool,
    /// Identity of the reader (e.g. a hash of the model files): a state made by another reader
    /// is refused, so results of an old model are never mixed with new ones.
    pub reader_id: String,
}

impl Options {
    /// The default state file for an output file: `<out>.state.sqlite3`.
    pub fn default_state(out: &Path) -> PathBuf {
        let mut name = out.as_os_str().to_os_string();
        name.push(".state.sqlite3");
        PathBuf::from(name)
    }
}

/// What happened to one file in this run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Read (or found undecodable) now and committed to the state.
    Computed,
    /// Its result was already in the state from an earlier run.
    Reused,
    /// Same bytes as another file of this run; shares its result.
    Duplicate,
    /// Not stored (the file could not be read, or the reader failed); tried again next run.
    Failed,
}

/// A batch failure that stops the run (bad photos never do: they become error rows).
#[derive(Debug, thiserror::Error)]
pub enum BatchError {
    #[error(transparent)]
    State(#[from] StateError),
    #[error("cannot start {jobs} worker threads: {message}")]
    Threads { jobs: usize, message: String },
    #[error("cannot write {path}: {error}")]
    Write { path: String, error: std::io::Error },
    /// [`Batch::stop`] was called: the photos being read were finished and committed, the
    /// others not started.
    #[error("stopped; the photos read so far are kept in the state, run again to go on")]
    Stopped,
}

/// The result of a run.
#[derive(Clone, Debug, Default)]
pub struct Summary {
    /// One row per input photo, in input order.
    pub rows: Vec<Row>,
    /// Files by [`Status`], for the message at the end.
    pub computed: usize,
    pub reused: usize,
    pub duplicates: usize,
    pub failed: usize,
}

impl Summary {
    /// Rows with an error.
    pub fn errors(&self) -> usize {
        self.rows.iter().filter(|r| r.error.is_some()).count()
    }
}

/// SHA-256 of some bytes, lower-case hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    let mut out = String::with_capacity(64);
    for b in digest {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// Decodes a photo, a large JPEG at a reduced size (see [`vision::decode_for_reading`]; truncated JPEGs,
/// non-images and oversized headers are errors), into a row error on failure.
pub fn decode(bytes: &[u8]) -> Result<Reduced, RowError> {
    vision::decode_for_reading(bytes).map_err(|error| RowError::from_vision(&error))
}

pub use crate::vision::picture::jpeg_truncated;

/// Where a file stands after the parallel pass.
enum Seen {
    Hashed(String),
    Unreadable(RowError),
}

/// An open batch: the state, the conditions and the worker threads.
pub struct Batch {
    state: Mutex<State>,
    conditions: Conditions,
    options: Options,
    pool: rayon::ThreadPool,
    stop: AtomicBool,
}

impl Batch {
    /// Opens (or creates) the state and starts the worker threads.
    pub fn open(options: Options, conditions: Conditions) -> Result<Batch, BatchError> {
        let state = State::open(&options.state, &options.reader_id)?;
        let jobs = if options.jobs == 0 {
            std::thread::available_parallelism().map_or(1, |n| n.get())
        } else {
            options.jobs
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .thread_name(|i| format!("riichi-lens-batch-{i}"))
            .build()
            .map_err(|e| BatchError::Threads {
                jobs,
                message: e.to_string(),
            })?;
        Ok(Batch {
            state: Mutex::new(state),
            conditions,
            options,
            pool,
            stop: AtomicBool::new(false),
        })
    }

    /// Asks a running [`Batch::run`] to stop: photos being read are finished and committed,
    /// no new one is started, and the run returns [`BatchError::Stopped`]. Safe to call from
    /// any thread (e.g. a Ctrl-C handler).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Number of worker threads.
    pub fn jobs(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// The state (locked).
    pub fn state(&self) -> MutexGuard<'_, State> {
        lock(&self.state)
    }

    /// Reads every photo whose bytes have no result in the state yet, commits each as soon as
    /// it is done, and returns one row per photo in input order. `progress` is called once per
    /// file, from the worker threads, after the file's result is committed.
    pub fn run<R: PhotoReader + Send>(
        &self,
        photos: &[PathBuf],
        readers: &Readers<R>,
        progress: &(dyn Fn(&Path, Status) + Sync),
    ) -> Result<Summary, BatchError> {
        let conditions: Vec<_> = photos.iter().map(|p| self.conditions.for_file(p)).collect();
        let known = self.state().finished()?;
        let work = Work {
            batch: self,
            readers,
            known: &known,
            claimed: Mutex::new(HashSet::new()),
            transient: Mutex::new(HashMap::new()),
        };
        let seen: Vec<(Seen, Status)> = self.pool.install(|| {
            photos
                .par_iter()
                .zip(conditions.par_iter())
                .map(|(path, conditions)| {
                    if self.stop.load(Ordering::SeqCst) {
                        return Err(BatchError::Stopped);
                    }
                    let done = work.process(path, conditions)?;
                    progress(path, done.1);
                    Ok(done)
                })
                .collect::<Result<Vec<_>, BatchError>>()
        })?;
        if self.stop.load(Ordering::SeqCst) {
            return Err(BatchError::Stopped);
        }

        let mut summary = Summary::default();
        let state = self.state();
        let transient = lock(&work.transient);
        let mut outcomes: HashMap<String, Option<Outcome>> = HashMap::new();
        for ((path, (seen, status)), conditions) in photos.iter().zip(seen).zip(&conditions) {
            match status {
                Status::Computed => summary.computed += 1,
                Status::Reused => summary.reused += 1,
                Status::Duplicate => summary.duplicates += 1,
                Status::Failed => summary.failed += 1,
            }
            let file = path.to_string_lossy();
            let row = match seen {
                Seen::Unreadable(error) => Row::failed(&file, None, error),
                Seen::Hashed(sha) => {
                    if !outcomes.contains_key(&sha) {
                        outcomes.insert(sha.clone(), state.outcome(&sha)?);
                    }
                    match &outcomes[&sha] {
                        Some(outcome) => Row::build(&file, &sha, outcome, conditions),
                        None => {
                            let error = transient.get(&sha).cloned().unwrap_or_else(|| {
                                RowError::new("internal", "no result was stored for this photo")
                            });
                            Row::failed(&file, Some(&sha), error)
                        }
                    }
                }
            };
            summary.rows.push(row);
        }
        Ok(summary)
    }

    /// Writes the rows to `path`: CSV when it ends in `.csv`, JSON lines otherwise. The file is
    /// written beside and renamed into place, so it is never seen half-written.
    pub fn write_output(&self, rows: &[Row], path: &Path) -> Result<(), BatchError> {
        let csv = path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        write_atomically(path, |out| {
            if csv {
                row::write_csv(rows, out)
            } else {
                row::write_jsonl(rows, out)
            }
        })
    }

    /// Writes the HTML report, first making the thumbnails the state lacks (photos read in a
    /// run without a report) from the files, when they still hold the same bytes.
    pub fn write_report(&self, rows: &[Row], path: &Path) -> Result<(), BatchError> {
        let mut missing: Vec<(&str, &str)> = Vec::new();
        {
            let state = self.state();
            let mut seen = HashSet::new();
            for row in rows {
                let (Some(sha), Some(_)) = (&row.sha256, row.width) else {
                    continue;
                };
                if seen.insert(sha.as_str()) && state.thumbnail(sha)?.is_none() {
                    missing.push((sha, &row.file));
                }
            }
        }
        self.pool.install(|| {
            missing.par_iter().try_for_each(|&(sha, file)| {
                let Ok(bytes) = std::fs::read(file) else {
                    return Ok(());
                };
                if sha256_hex(&bytes) != sha {
                    return Ok(());
                }
                // Reduced no further than the thumbnail's size needs.
                let long_side = report::THUMB_MAX_WIDTH.max(report::THUMB_MAX_HEIGHT);
                if let Some(t) = Reduced::decode(&bytes, 8, long_side)
                    .ok()
                    .and_then(|photo| report::thumbnail(&photo.image).ok())
                {
                    self.state().put_thumbnail(sha, &t)?;
                }
                Ok::<(), BatchError>(())
            })
        })?;
        let state = self.state();
        write_atomically(path, |out| {
            report::write_html(rows, &mut |sha| state.thumbnail(sha).ok().flatten(), out)
        })
    }
}

fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut std::io::BufWriter<std::fs::File>) -> std::io::Result<()>,
) -> Result<(), BatchError> {
    let fail = |error: std::io::Error| BatchError::Write {
        path: path.display().to_string(),
        error,
    };
    let mut temp = path.as_os_str().to_os_string();
    temp.push(format!(".{}.tmp", std::process::id()));
    let temp = PathBuf::from(temp);
    let result = (|| {
        let mut out = std::io::BufWriter::new(std::fs::File::create(&temp)?);
        write(&mut out)?;
        out.flush()?;
        out.get_ref().sync_all()?;
        drop(out);
        std::fs::rename(&temp, path)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    result.map_err(fail)
}

/// Shared by the workers of one run.
struct Work<'a, R> {
    batch: &'a Batch,
    readers: &'a Readers<R>,
    /// Hashes with a result from an earlier run.
    known: &'a HashSet<String>,
    /// Hashes taken by a worker in this run.
    claimed: Mutex<HashSet<String>>,
    /// Errors not stored (retried next run), by hash.
    transient: Mutex<HashMap<String, RowError>>,
}

impl<R: PhotoReader + Send> Work<'_, R> {
    fn process(
        &self,
        path: &Path,
        conditions: &Result<serde_json::Map<String, serde_json::Value>, RowError>,
    ) -> Result<(Seen, Status), BatchError> {
        let file = path.to_string_lossy();
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                let error = RowError::from_vision(&VisionError::Io {
                    path: file.to_string(),
                    message: e.to_string(),
                });
                return Ok((Seen::Unreadable(error), Status::Failed));
            }
        };
        let sha = sha256_hex(&bytes);
        let status = if self.known.contains(&sha) {
            Some(Status::Reused)
        } else if !lock(&self.claimed).insert(sha.clone()) {
            Some(Status::Duplicate)
        } else {
            None
        };
        if let Some(status) = status {
            self.batch.state().record_file(&file, &sha)?;
            return Ok((Seen::Hashed(sha), status));
        }
        let mut thumbnail = None;
        let outcome = match decode(&bytes) {
            Err(error) => Outcome::Failed(error),
            Ok(photo) => {
                match self.read(photo, &bytes) {
                    Ok((photo, reading)) => {
                        if self.batch.options.thumbnails {
                            thumbnail = report::thumbnail(&photo.image).ok();
                        }
                        Outcome::Read(Reading::from_photo(&reading))
                    }
                    // Bad pixels stay bad: stored like a decoding failure.
                    Err(e @ (VisionError::Decode(_) | VisionError::TooLarge { .. })) => {
                        Outcome::Failed(RowError::from_vision(&e))
                    }
                    Err(e) => {
                        lock(&self.transient).insert(sha.clone(), RowError::from_vision(&e));
                        self.batch.state().record_file(&file, &sha)?;
                        return Ok((Seen::Hashed(sha), Status::Failed));
                    }
                }
            }
        };
        let row = Row::build(&file, &sha, &outcome, conditions);
        self.batch
            .state()
            .commit(&file, &sha, &outcome, &row, thumbnail.as_ref())?;
        Ok((Seen::Hashed(sha), Status::Computed))
    }

    /// Reads with a reader from the pool; a panicking reader is dropped and reported as a
    /// `runtime` error.
    fn read(&self, photo: Reduced, bytes: &[u8]) -> Result<(Reduced, PhotoReading), VisionError> {
        let mut reader = self.readers.take()?;
        match std::panic::catch_unwind(AssertUnwindSafe(|| reader.read(photo, bytes))) {
            Ok(result) => {
                self.readers.give_back(reader);
                result
            }
            Err(panic) => {
                let message = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".into());
                Err(VisionError::Runtime(format!(
                    "the reader panicked: {message}"
                )))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jpeg(width: u32, height: u32) -> Vec<u8> {
        let pixels: Vec<u8> = (0..width * height * 3)
            .map(|i| (i * 7 % 251) as u8)
            .collect();
        let mut out = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90)
            .encode(&pixels, width, height, image::ExtendedColorType::Rgb8)
            .unwrap();
        out
    }

    #[test]
    fn truncated_jpegs_are_found() {
        let full = jpeg(64, 48);
        assert!(!jpeg_truncated(&full));
        assert!(decode(&full).is_ok());
        for cut in [3, 10, 200, full.len() / 2, full.len() - 2, full.len() - 1] {
            assert!(jpeg_truncated(&full[..cut]), "cut at {cut}");
            assert_eq!(decode(&full[..cut]).unwrap_err().kind, "decode");
        }
        // Data after the end (a motion photo's video) is fine.
        let mut trailer = full.clone();
        trailer.extend_from_slice(b"\0\0\0\x18ftypmp42 trailing video bytes");
        assert!(!jpeg_truncated(&trailer));
        // An APP1 segment holding a whole thumbnail JPEG (with its own FF D9) does not hide a
        // truncated main image.
        let thumb = jpeg(8, 8);
        let mut app1 = vec![0xff, 0xe1];
        app1.extend(((thumb.len() + 2) as u16).to_be_bytes());
        app1.extend(&thumb);
        let mut with_thumb = full[..2].to_vec();
        with_thumb.extend(&app1);
        with_thumb.extend(&full[2..]);
        assert!(!jpeg_truncated(&with_thumb));
        assert!(decode(&with_thumb).is_ok());
        let cut = with_thumb.len() - 100;
        assert!(jpeg_truncated(&with_thumb[..cut]));
        // Not JPEG: left to the decoder.
        assert!(!jpeg_truncated(b"\x89PNG\r\n"));
        assert!(!jpeg_truncated(b""));
    }
}
