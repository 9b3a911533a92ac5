//! The live pipeline: a capture thread pulls frames from a source, a recognizer thread reads
//! the newest one, and results go to a callback (the app's UI, the overlay's hub).
//!
//! Frames are handed over through a [`Latest`] slot that keeps only the newest frame: when the
//! recognizer is slower than the camera, the frames it had no time for are dropped (and
//! counted) instead of queueing, so what it reads is never more than one frame old and
//! memory stays flat. Neither thread ever waits for the consumer of the results.

use super::{CaptureError, Frame, OpenOptions, SourceSpec};
use crate::vision::{LiveMemo, PhotoReading, Recognizer, VisionError};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A slot holding only the newest value: [`Latest::put`] replaces what is there, and
/// [`Latest::take`] waits for a value and empties the slot.
#[derive(Debug)]
pub struct Latest<T> {
    slot: Mutex<(Option<T>, bool)>,
    ready: Condvar,
}

impl<T> Default for Latest<T> {
    fn default() -> Self {
        Latest {
            slot: Mutex::new((None, false)),
            ready: Condvar::new(),
        }
    }
}

impl<T> Latest<T> {
    fn lock(&self) -> MutexGuard<'_, (Option<T>, bool)> {
        // A panic while holding this lock cannot leave the slot inconsistent (it is a plain
        // replace), so a poisoned lock is used as is.
        self.slot.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stores `value`; returns whether an older value was replaced unread.
    pub fn put(&self, value: T) -> bool {
        let mut slot = self.lock();
        let replaced = slot.0.replace(value).is_some();
        self.ready.notify_all();
        replaced
    }

    /// Waits for a value and takes it; `None` once closed.
    pub fn take(&self) -> Option<T> {
        let mut slot = self.lock();
        loop {
            if slot.1 {
                return None;
            }
            if let Some(v) = slot.0.take() {
                return Some(v);
            }
            slot = self.ready.wait(slot).unwrap_or_else(|p| p.into_inner());
        }
    }

    /// Takes a value if one is there, without waiting.
    pub fn try_take(&self) -> Option<T> {
        self.lock().0.take()
    }

    /// Wakes every waiter; later `take`s return `None`.
    pub fn close(&self) {
        self.lock().1 = true;
        self.ready.notify_all();
    }
}

/// What the capture thread reports.
#[derive(Debug)]
pub enum CaptureEvent {
    /// The source is open.
    Opened,
    Frame(Frame),
    /// One frame failed but the source goes on (an unreadable image in a folder).
    Skipped(CaptureError),
    /// The source has no more frames (end of a video, last image).
    Ended,
    /// The source cannot go on (could not open, camera unplugged, ffmpeg failed).
    Failed(CaptureError),
}

/// A running capture thread. Dropping it (or [`Capture::stop`]) stops the thread after the
/// frame it is waiting for.
#[derive(Debug)]
pub struct Capture {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Capture {
    /// Opens `spec` on a new thread and reports every frame and state change to `sink`.
    pub fn start(
        spec: SourceSpec,
        options: OpenOptions,
        sink: impl FnMut(CaptureEvent) + Send + 'static,
    ) -> Capture {
        Capture::start_with(move || super::open(&spec, options), sink)
    }

    /// Like [`Capture::start`] with any source: `open` runs on the new thread (tests pass
    /// sources that fail on purpose).
    pub fn start_with(
        open: impl FnOnce() -> Result<Box<dyn super::FrameSource>, CaptureError> + Send + 'static,
        mut sink: impl FnMut(CaptureEvent) + Send + 'static,
    ) -> Capture {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let handle = std::thread::Builder::new()
            .name("capture".into())
            .spawn(move || {
                let mut source = match open() {
                    Ok(s) => s,
                    Err(e) => return sink(CaptureEvent::Failed(e)),
                };
                sink(CaptureEvent::Opened);
                while !stopped.load(Ordering::Relaxed) {
                    match source.next_frame() {
                        Ok(Some(frame)) => sink(CaptureEvent::Frame(frame)),
                        Ok(None) => return sink(CaptureEvent::Ended),
                        Err(e @ CaptureError::Image { .. }) => sink(CaptureEvent::Skipped(e)),
                        Err(e) => return sink(CaptureEvent::Failed(e)),
                    }
                }
            })
            .ok();
        Capture { stop, handle }
    }

    /// Asks the thread to stop after its current frame.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Stops and waits for the thread (at most one frame time, or until a blocked camera
    /// read returns).
    pub fn join(mut self) {
        self.stop();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        // Not joined: a camera read can block for a frame time, and the UI must not wait.
        self.stop();
    }
}

/// One recognized frame.
#[derive(Clone, Debug)]
pub struct Recognized {
    pub frame: Frame,
    /// The tag the frame was submitted with (e.g. which source it came from).
    pub tag: u64,
    /// The reading, or why this frame could not be read.
    pub reading: Result<PhotoReading, String>,
    /// Time the recognizer spent on the frame.
    pub took: Duration,
}

/// What the recognizer thread reports.
#[derive(Debug)]
pub enum WorkerEvent {
    /// The models are loaded.
    Ready,
    /// The recognizer could not be loaded (missing model or library, corrupt file): shown
    /// to the user; the thread ends.
    LoadFailed(VisionError),
    Recognized(Box<Recognized>),
}

/// The recognizer thread: reads the newest submitted frame, reports the reading, waits for
/// the next one.
#[derive(Debug)]
pub struct Worker {
    feeder: Feeder,
    handle: Option<JoinHandle<()>>,
}

/// Hands frames to a [`Worker`] from any thread (the capture thread holds one).
#[derive(Clone, Debug)]
pub struct Feeder {
    input: Arc<Latest<(Frame, u64)>>,
    dropped: Arc<AtomicU64>,
}

impl Feeder {
    /// Hands a frame to the recognizer with a `tag` that comes back in [`Recognized`],
    /// replacing a frame it has not started on.
    pub fn submit(&self, frame: Frame, tag: u64) {
        if self.input.put((frame, tag)) {
            self.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }
}

impl Worker {
    /// Starts the thread; `load` runs on it (loading the models takes a moment and must not
    /// block the UI).
    pub fn start(
        load: impl FnOnce() -> Result<Recognizer, VisionError> + Send + 'static,
        mut sink: impl FnMut(WorkerEvent) + Send + 'static,
    ) -> Worker {
        let input: Arc<Latest<(Frame, u64)>> = Arc::default();
        let frames = input.clone();
        let handle = std::thread::Builder::new()
            .name("recognizer".into())
            .spawn(move || {
                let mut recognizer = match load() {
                    Ok(r) => r,
                    Err(e) => {
                        frames.close();
                        return sink(WorkerEvent::LoadFailed(e));
                    }
                };
                sink(WorkerEvent::Ready);
                // The frames of one camera or video, whose second opinions are remembered
                // (`Recognizer::read_frame`); a still and another source start afresh.
                let mut live: Option<(u64, LiveMemo)> = None;
                while let Some((frame, tag)) = frames.take() {
                    let start = Instant::now();
                    let reading = if frame.name.is_some() {
                        live = None;
                        recognizer.read_photo(&frame.image)
                    } else {
                        if live.as_ref().is_some_and(|(t, _)| *t != tag) {
                            live = None;
                        }
                        let (_, memo) = live.get_or_insert_with(|| (tag, LiveMemo::default()));
                        recognizer.read_frame(&frame.image, memo).map(|(r, _)| r)
                    }
                    .map_err(|e| e.to_string());
                    sink(WorkerEvent::Recognized(Box::new(Recognized {
                        frame,
                        tag,
                        reading,
                        took: start.elapsed(),
                    })));
                }
            })
            .ok();
        Worker {
            feeder: Feeder {
                input,
                dropped: Arc::default(),
            },
            handle,
        }
    }

    /// A handle for submitting frames from another thread.
    pub fn feeder(&self) -> Feeder {
        self.feeder.clone()
    }

    /// Hands a frame to the recognizer (see [`Feeder::submit`]).
    pub fn submit(&self, frame: Frame, tag: u64) {
        self.feeder.submit(frame, tag);
    }

    /// Frames replaced before the recognizer got to them.
    pub fn dropped(&self) -> u64 {
        self.feeder.dropped.load(Ordering::Relaxed)
    }

    /// Stops the thread after its current frame and waits for it.
    pub fn join(mut self) {
        self.feeder.input.close();
        if let Some(h) = self.handle.take() {
            let _ = h.join();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.feeder.input.close();
    }
}

/// Locks in a hand that stays the same across frames: a reading counts once it has been
/// seen `need` times in a row, and the locked hand then stays until another hand is stable,
/// so a hand passing over the tiles or one blurred frame does not change it.
#[derive(Clone, Debug)]
pub struct Stable<T> {
    need: usize,
    candidate: Option<(String, T)>,
    run: usize,
    locked: Option<(String, T)>,
}

impl<T: Clone> Stable<T> {
    pub fn new(need: usize) -> Stable<T> {
        Stable {
            need: need.max(1),
            candidate: None,
            run: 0,
            locked: None,
        }
    }

    /// Feeds one frame's reading, identified by `key` (e.g. the hand in notation; `None`
    /// when no complete hand was read). Returns the value when it has just been locked in.
    pub fn feed(&mut self, key: Option<String>, value: T) -> Option<&T> {
        let Some(key) = key else {
            self.candidate = None;
            self.run = 0;
            return None;
        };
        match &mut self.candidate {
            Some((k, v)) if *k == key => {
                self.run += 1;
                *v = value;
            }
            _ => {
                self.candidate = Some((key, value));
                self.run = 1;
            }
        }
        if self.run < self.need {
            return None;
        }
        let candidate = self.candidate.as_ref()?;
        if self.locked.as_ref().is_some_and(|(k, _)| *k == candidate.0) {
            // Already locked: keep the newest frame of it.
            self.locked = Some(candidate.clone());
            return None;
        }
        self.locked = Some(candidate.clone());
        self.locked.as_ref().map(|(_, v)| v)
    }

    /// The locked-in value.
    pub fn locked(&self) -> Option<&T> {
        self.locked.as_ref().map(|(_, v)| v)
    }

    /// How many frames in a row the current candidate has been seen, and how many are needed.
    pub fn progress(&self) -> (usize, usize) {
        (self.run.min(self.need), self.need)
    }

    /// Forgets everything (a new source).
    pub fn reset(&mut self) {
        *self = Stable::new(self.need);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn latest_keeps_only_the_newest() {
        let slot = Latest::default();
        assert!(!slot.put(1));
        assert!(slot.put(2));
        assert_eq!(slot.take(), Some(2));
        assert_eq!(slot.try_take(), None);
        slot.put(3);
        slot.close();
        assert_eq!(slot.take(), None);
    }

    #[test]
    fn a_take_waits_for_a_put_from_another_thread() {
        let slot = Arc::new(Latest::default());
        let writer = slot.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(20));
            writer.put(7);
        });
        assert_eq!(slot.take(), Some(7));
        t.join().unwrap();
    }

    #[test]
    fn stable_locks_after_n_equal_readings_and_holds() {
        let mut s = Stable::new(3);
        assert!(s.feed(Some("a".into()), 1).is_none());
        assert!(s.feed(Some("a".into()), 2).is_none());
        assert_eq!(s.feed(Some("a".into()), 3), Some(&3));
        assert_eq!(s.feed(Some("a".into()), 4), None);
        assert_eq!(s.locked(), Some(&4));
        // Noise and a different hand seen twice do not replace the locked one.
        s.feed(None, 0);
        s.feed(Some("b".into()), 5);
        s.feed(Some("b".into()), 6);
        assert_eq!(s.locked(), Some(&4));
        assert_eq!(s.progress(), (2, 3));
        assert_eq!(s.feed(Some("b".into()), 7), Some(&7));
        s.reset();
        assert_eq!(s.locked(), None);
    }
}
