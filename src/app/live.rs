//! The app's side of the live pipeline: starts the capture and recognizer threads
//! ([`crate::capture::pipeline`]), receives their events without ever blocking the UI,
//! keeps the newest frame as a texture and the newest reading, locks in a stable hand, and
//! measures the recognized frames per second.

use crate::capture::pipeline::{Capture, CaptureEvent, Recognized, Stable, Worker, WorkerEvent};
use crate::capture::{still, Frame, OpenOptions, SourceSpec};
use crate::vision::Recognizer;
use eframe::egui;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Readings in a row needed to lock in a hand from a camera or video.
pub const LIVE_LOCK_FRAMES: usize = 3;

/// Wakes the UI from another thread. The context only exists once the UI has run, so it
/// is filled in then; until that, events simply wait in the channel.
#[derive(Clone, Default)]
pub struct Waker(Arc<Mutex<Option<egui::Context>>>);

impl Waker {
    pub fn set(&self, ctx: &egui::Context) {
        if let Ok(mut c) = self.0.lock() {
            if c.is_none() {
                *c = Some(ctx.clone());
            }
        }
    }

    pub fn wake(&self) {
        if let Ok(c) = self.0.lock() {
            if let Some(ctx) = c.as_ref() {
                ctx.request_repaint();
            }
        }
    }
}

/// The state of the source.
#[derive(Clone, Debug, PartialEq)]
pub enum SourceState {
    None,
    Opening,
    Running,
    /// The source has no more frames (end of video, a still image shown).
    Ended,
    /// What went wrong, for the user.
    Failed(String),
}

/// The state of the recognizer.
#[derive(Clone, Debug, PartialEq)]
pub enum RecognizerState {
    Loading,
    Ready,
    /// Why it could not be loaded (missing model or library, corrupt file).
    Failed(String),
}

enum Event {
    Capture(u64, CaptureEvent),
    Worker(WorkerEvent),
}

/// The live pipeline as the UI sees it.
pub struct Live {
    waker: Waker,
    tx: Sender<Event>,
    rx: Receiver<Event>,
    frames: Arc<crate::capture::pipeline::Latest<Frame>>,
    worker: Option<Worker>,
    capture: Option<Capture>,
    /// Increases with every source started, so late events of an old source are ignored.
    generation: u64,
    pub spec: Option<SourceSpec>,
    /// For folder sources: the images and the one shown.
    pub folder: Option<(Vec<PathBuf>, usize)>,
    pub source: SourceState,
    pub recognizer: RecognizerState,
    /// The newest frame (shown in the live view).
    pub frame: Option<Frame>,
    pub texture: Option<egui::TextureHandle>,
    texture_frame: Option<(u64, u64)>,
    /// The newest reading.
    pub latest: Option<Arc<Recognized>>,
    pub stable: Stable<Arc<Recognized>>,
    /// Set when a hand has just been locked in; the app takes it.
    pub just_locked: Option<Arc<Recognized>>,
    /// When each reading of the last 2 s arrived, and the recognizer's time on it.
    recognized_at: VecDeque<(Instant, Duration)>,
    /// Frames a second through the recognizer (over the last 2 s).
    pub fps: f32,
    /// The recognizer's mean time per frame over the last 2 s.
    pub mean_took: Option<Duration>,
}

impl Live {
    /// Starts the recognizer thread with `load`.
    pub fn new(
        load: impl FnOnce() -> Result<Recognizer, crate::vision::VisionError> + Send + 'static,
    ) -> Live {
        let (tx, rx) = channel();
        let waker = Waker::default();
        let worker_tx = tx.clone();
        let worker_waker = waker.clone();
        let worker = Worker::start(load, move |event| {
            let _ = worker_tx.send(Event::Worker(event));
            worker_waker.wake();
        });
        Live {
            waker,
            tx,
            rx,
            frames: Arc::default(),
            worker: Some(worker),
            capture: None,
            generation: 0,
            spec: None,
            folder: None,
            source: SourceState::None,
            recognizer: RecognizerState::Loading,
            frame: None,
            texture: None,
            texture_frame: None,
            latest: None,
            stable: Stable::new(LIVE_LOCK_FRAMES),
            just_locked: None,
            recognized_at: VecDeque::new(),
            fps: 0.0,
            mean_took: None,
        }
    }

    /// Opens a source (stopping the current one). A folder is shown one image at a time.
    pub fn open(&mut self, spec: SourceSpec) {
        self.folder = None;
        if let SourceSpec::Folder(dir) = &spec {
            let listed = still::images_in(dir);
            let empty = format!("no JPEG or PNG images in {}", dir.display());
            match listed {
                Ok(files) if !files.is_empty() => {
                    self.folder = Some((files, 0));
                    self.spec = Some(spec);
                    self.show_folder_image();
                }
                Ok(_) => self.fail(spec, empty),
                Err(e) => self.fail(spec, e.to_string()),
            }
            return;
        }
        self.start(spec.clone());
        self.spec = Some(spec);
    }

    fn fail(&mut self, spec: SourceSpec, message: String) {
        self.stop();
        self.spec = Some(spec);
        self.source = SourceState::Failed(message);
    }

    /// Steps through a folder source (`+1` next, `-1` previous), wrapping around.
    pub fn step_folder(&mut self, delta: isize) {
        if let Some((files, at)) = &mut self.folder {
            let n = files.len() as isize;
            *at = ((*at as isize + delta).rem_euclid(n)) as usize;
            self.show_folder_image();
        }
    }

    fn show_folder_image(&mut self) {
        if let Some((files, at)) = &self.folder {
            if let Some(file) = files.get(*at).cloned() {
                self.start(SourceSpec::Image(file));
            }
        }
    }

    fn stop(&mut self) {
        if let Some(c) = self.capture.take() {
            c.stop();
        }
        self.generation += 1;
        self.frame = None;
        self.latest = None;
        self.just_locked = None;
        self.stable.reset();
        self.recognized_at.clear();
        self.fps = 0.0;
        let _ = self.frames.try_take();
    }

    fn start(&mut self, spec: SourceSpec) {
        self.stop();
        // Still images are read once, so one reading is all the evidence there will be.
        self.stable = Stable::new(if spec.is_live() { LIVE_LOCK_FRAMES } else { 1 });
        self.source = SourceState::Opening;
        let generation = self.generation;
        let tx = self.tx.clone();
        let waker = self.waker.clone();
        let frames = self.frames.clone();
        let feeder = self.worker.as_ref().map(Worker::feeder);
        self.capture = Some(Capture::start(spec, OpenOptions::default(), move |event| {
            match event {
                CaptureEvent::Frame(frame) => {
                    // Frames bypass the channel: only the newest is ever kept.
                    frames.put(frame.clone());
                    if let Some(f) = &feeder {
                        f.submit(frame, generation);
                    }
                }
                other => {
                    let _ = tx.send(Event::Capture(generation, other));
                }
            }
            waker.wake();
        }));
    }

    /// Takes what the threads reported; call once per UI frame. Never blocks.
    pub fn poll(&mut self, ctx: &egui::Context) {
        self.waker.set(ctx);
        while let Ok(event) = self.rx.try_recv() {
            match event {
                Event::Capture(g, _) if g != self.generation => {}
                Event::Capture(_, CaptureEvent::Opened) => self.source = SourceState::Running,
                Event::Capture(_, CaptureEvent::Ended) => self.source = SourceState::Ended,
                Event::Capture(_, CaptureEvent::Failed(e)) => {
                    self.source = SourceState::Failed(e.to_string())
                }
                Event::Capture(_, CaptureEvent::Skipped(e)) => {
                    self.source = SourceState::Failed(e.to_string())
                }
                Event::Capture(_, CaptureEvent::Frame(_)) => {}
                Event::Worker(WorkerEvent::Ready) => self.recognizer = RecognizerState::Ready,
                Event::Worker(WorkerEvent::LoadFailed(e)) => {
                    self.recognizer = RecognizerState::Failed(e.to_string())
                }
                Event::Worker(WorkerEvent::Recognized(r)) => self.recognized(*r),
            }
        }
        if let Some(frame) = self.frames.try_take() {
            self.frame = Some(frame);
        }
        self.update_texture(ctx);
    }

    fn recognized(&mut self, r: Recognized) {
        if r.tag != self.generation {
            return;
        }
        let now = Instant::now();
        self.recognized_at.push_back((now, r.took));
        while self
            .recognized_at
            .front()
            .is_some_and(|(t, _)| now.duration_since(*t) > Duration::from_secs(2))
        {
            self.recognized_at.pop_front();
        }
        let n = self.recognized_at.len();
        if let Some((first, _)) = self.recognized_at.front() {
            let span = now.duration_since(*first).as_secs_f32();
            self.fps = if n > 1 && span > 0.0 {
                (n - 1) as f32 / span
            } else {
                0.0
            };
        }
        let total: Duration = self.recognized_at.iter().map(|(_, took)| *took).sum();
        self.mean_took = u32::try_from(n.max(1)).ok().map(|n| total / n);
        let r = Arc::new(r);
        let key = r
            .reading
            .as_ref()
            .ok()
            .and_then(|reading| reading.hand.as_ref())
            .filter(|h| h.complete)
            .map(|h| {
                format!(
                    "{} / {}",
                    h.notation(),
                    crate::notation::format_tiles(&h.dora_indicators)
                )
            });
        if let Some(locked) = self.stable.feed(key, r.clone()) {
            self.just_locked = Some(locked.clone());
        }
        self.latest = Some(r);
    }

    fn update_texture(&mut self, ctx: &egui::Context) {
        let Some(frame) = &self.frame else { return };
        let id = (self.generation, frame.number);
        if self.texture_frame == Some(id) {
            return;
        }
        self.texture_frame = Some(id);
        let image = egui::ColorImage::from_rgb(
            [frame.image.width as usize, frame.image.height as usize],
            &frame.image.pixels,
        );
        match &mut self.texture {
            Some(t) => t.set(image, egui::TextureOptions::LINEAR),
            None => {
                self.texture = Some(ctx.load_texture("live", image, egui::TextureOptions::LINEAR))
            }
        }
    }

    /// Frames the recognizer had no time for.
    pub fn dropped(&self) -> u64 {
        self.worker.as_ref().map_or(0, Worker::dropped)
    }

    /// Whether the recognizer thread is still waiting for nothing (for tests: the first
    /// reading of a still image has arrived).
    pub fn has_reading(&self) -> bool {
        self.latest.is_some()
    }

    /// Which image of a folder is shown, as `3/7`.
    pub fn folder_position(&self) -> Option<String> {
        self.folder
            .as_ref()
            .map(|(files, at)| format!("{}/{}", at + 1, files.len()))
    }
}

impl Drop for Live {
    fn drop(&mut self) {
        if let Some(c) = self.capture.take() {
            c.stop();
        }
        if let Some(w) = self.worker.take() {
            drop(w);
        }
    }
}
