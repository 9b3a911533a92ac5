//! Recognized frames per second at 720p through the app's live pipeline: a capture thread
//! producing 1280×720 frames at 30 fps, the recognizer thread reading the newest one
//! (stale frames dropped), exactly as `riichi-lens app` runs them (without the window).
//!
//!     cargo bench --bench app_fps            # or scripts/bench-app.sh
//!
//! Two frame sources, both at a camera's 30 fps:
//! - `video`: an MPEG-4 clip of a sample photo decoded by the ffmpeg subprocess (the
//!   `--source clip.mp4` path);
//! - `mjpeg`: the sample JPEG decoded in-process for every frame, as a webcam's MJPEG
//!   frames are (the camera path's decoding, without a camera);
//! - `far`: the same with the sample shrunk to half size in the middle of the frame
//!   (`far_frame` of `tests/photo_fixtures`), a hand seen from further away, whose tiles are
//!   narrow enough that the detector runs a second time on a larger input.
//!
//! For each, the recognizer runs with 1 and 2 ONNX Runtime threads per model (the app uses
//! `vision::default_threads`: 2 on a machine of two cores or more). Prints frames recognized
//! per second (at most the source's 30), frames dropped, and the recognizer's mean time per
//! frame (its headroom: 1000 / ms is the rate it could sustain). Timings depend on the
//! machine and on what else runs; nothing here asserts them.

#[path = "../tests/photo_fixtures/mod.rs"]
mod photo_fixtures;

use photo_fixtures::common::video::still_clip;
use riichi_lens::capture::pipeline::{Capture, CaptureEvent, Worker, WorkerEvent};
use riichi_lens::capture::{Frame, OpenOptions, SourceSpec};
use riichi_lens::vision::Recognizer;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;
use std::time::{Duration, Instant};

const PHOTO: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/photos/01-pinfu.jpg");
const SECONDS: u64 = 12;
const WARMUP: Duration = Duration::from_secs(2);

/// Hands a frame to the recognizer.
type Submit = Box<dyn Fn(Frame) + Send>;
/// Stops a frame source.
type Stop = Box<dyn FnOnce()>;

struct Outcome {
    fps: f64,
    dropped: u64,
    mean_ms: f64,
    hand_ok: bool,
}

fn make_clip(dir: &Path) -> PathBuf {
    let clip = dir.join("hand-720p30.mp4");
    still_clip(Path::new(PHOTO), &clip, SECONDS + 4, 30, Some("1280x720"));
    clip
}

/// Runs the pipeline for `SECONDS` (after a warm-up) with frames from `start_source`.
fn measure(threads: usize, start_source: impl FnOnce(Submit) -> Stop) -> Outcome {
    let (tx, rx) = mpsc::channel();
    let worker = Worker::start(
        move || Recognizer::load(&riichi_lens::vision::runtime::models_dir()?, threads),
        move |e| {
            let _ = tx.send(e);
        },
    );
    match rx.recv() {
        Ok(WorkerEvent::Ready) => {}
        Ok(WorkerEvent::LoadFailed(e)) => panic!("the recognizer: {e}"),
        other => panic!("unexpected {other:?}"),
    }
    let feeder = worker.feeder();
    let stop = start_source(Box::new(move |frame| feeder.submit(frame, 0)));
    let begin = Instant::now();
    let (mut n, mut total, mut hand_ok) = (0u64, Duration::ZERO, true);
    let dropped_at_start = std::cell::Cell::new(None);
    let mut first = None;
    while begin.elapsed() < WARMUP + Duration::from_secs(SECONDS) {
        let Ok(WorkerEvent::Recognized(r)) = rx.recv_timeout(Duration::from_secs(5)) else {
            continue;
        };
        if begin.elapsed() < WARMUP {
            continue;
        }
        if dropped_at_start.get().is_none() {
            dropped_at_start.set(Some(worker.dropped()));
            first = Some(Instant::now());
            continue;
        }
        n += 1;
        total += r.took;
        let hand = r.reading.ok().and_then(|x| x.hand).map(|h| h.notation());
        hand_ok &= hand.as_deref() == Some("56778889m345675p");
    }
    let span = first.map_or(1.0, |f| f.elapsed().as_secs_f64());
    let dropped = worker.dropped() - dropped_at_start.get().unwrap_or(0);
    stop();
    worker.join();
    Outcome {
        fps: n as f64 / span,
        dropped,
        mean_ms: total.as_secs_f64() * 1000.0 / n.max(1) as f64,
        hand_ok,
    }
}

fn video(clip: PathBuf) -> impl FnOnce(Submit) -> Stop {
    move |submit| {
        let capture = Capture::start(
            SourceSpec::Video(clip),
            OpenOptions {
                realtime: true,
                folder_interval: None,
            },
            move |e| {
                if let CaptureEvent::Frame(f) = e {
                    submit(f);
                }
            },
        );
        Box::new(move || capture.join())
    }
}

/// The sample photo as a far shot, JPEG-encoded as a webcam would send it.
fn far_jpeg(photo: &[u8]) -> Vec<u8> {
    let near = riichi_lens::vision::picture::Rgb::decode(photo).expect("the sample decodes");
    let far = photo_fixtures::far_frame(&near);
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90)
        .encode(
            &far.pixels,
            far.width,
            far.height,
            image::ExtendedColorType::Rgb8,
        )
        .expect("JPEG encoding");
    out
}

/// Frames of one JPEG at 30 fps, decoded by the camera path's MJPEG decoder.
fn mjpeg(jpeg: Vec<u8>) -> impl FnOnce(Submit) -> Stop {
    move |submit| {
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = stop.clone();
        let thread = std::thread::spawn(move || {
            let period = Duration::from_secs_f64(1.0 / 30.0);
            let mut next = Instant::now();
            let mut number = 0;
            while !stopped.load(Ordering::Relaxed) {
                // What the camera source does with each MJPEG frame.
                let image = riichi_lens::capture::camera::decode(
                    nokhwa::utils::FrameFormat::MJPEG,
                    1280,
                    720,
                    &jpeg,
                )
                .expect("decodes");
                submit(Frame {
                    image: Arc::new(image),
                    number,
                    name: None,
                });
                number += 1;
                next += period;
                std::thread::sleep(next.saturating_duration_since(Instant::now()));
            }
        });
        Box::new(move || {
            stop.store(true, Ordering::Relaxed);
            let _ = thread.join();
        })
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` runs this too, so keep that quick.
    if !std::env::args().any(|a| a == "--bench") {
        println!("app_fps: run with `cargo bench --bench app_fps`");
        return;
    }
    let dir = std::env::temp_dir().join(format!("rl-app-fps-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let clip = make_clip(&dir);
    println!(
        "720p (1280x720) at 30 fps, {SECONDS} s each after {} s warm-up, {} cores",
        WARMUP.as_secs(),
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    let near = std::fs::read(PHOTO).expect("the sample photo");
    let far = far_jpeg(&near);
    for (name, threads) in [
        ("video", 1),
        ("video", 2),
        ("mjpeg", 1),
        ("mjpeg", 2),
        ("far", 1),
        ("far", 2),
    ] {
        let out = match name {
            "video" => measure(threads, video(clip.clone())),
            "mjpeg" => measure(threads, mjpeg(near.clone())),
            _ => measure(threads, mjpeg(far.clone())),
        };
        println!(
            "{name:5} source, {threads} ORT thread(s)/model: {:5.1} recognized frames/s, {:5} frames dropped, {:5.1} ms/frame in the recognizer, hand read right every time: {}",
            out.fps, out.dropped, out.mean_ms, out.hand_ok
        );
    }
    let _ = std::fs::remove_dir_all(dir);
}
