//! The capture module's sources: folders and images, videos made here with ffmpeg (installed
//! by scripts/setup.sh), a camera that is not there, and the pipeline from a video through
//! the recognizer.

mod common;

use common::video::still_clip;
use riichi_lens::capture::pipeline::{Capture, CaptureEvent, Worker, WorkerEvent};
use riichi_lens::capture::video::VideoSource;
use riichi_lens::capture::{self, camera, CaptureError, FrameSource, OpenOptions, SourceSpec};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::mpsc;
use std::time::Duration;

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/photos");

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rl-capture-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ffmpeg(args: &[&str]) {
    let out = Command::new("ffmpeg")
        .args(["-nostdin", "-hide_banner", "-loglevel", "error", "-y"])
        .args(args)
        .output()
        .expect("ffmpeg is installed by scripts/setup.sh");
    assert!(
        out.status.success(),
        "ffmpeg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn all_frames(mut source: Box<dyn FrameSource>) -> Vec<capture::Frame> {
    let mut frames = Vec::new();
    while let Some(f) = source.next_frame().unwrap() {
        frames.push(f);
        assert!(frames.len() < 1000, "a finite source ends");
    }
    frames
}

#[test]
fn a_folder_gives_its_images_in_name_order_then_ends() {
    let spec = SourceSpec::parse(SAMPLES).unwrap();
    assert_eq!(spec, SourceSpec::Folder(SAMPLES.into()));
    let frames = all_frames(capture::open(&spec, OpenOptions::default()).unwrap());
    let names: Vec<_> = frames.iter().map(|f| f.name.clone().unwrap()).collect();
    assert_eq!(
        names,
        ["01-pinfu.jpg", "02-closed-kan.jpg", "03-tilted.jpg"]
    );
    assert!(frames
        .iter()
        .all(|f| (f.image.width, f.image.height) == (1280, 720)));
    assert_eq!(
        frames.iter().map(|f| f.number).collect::<Vec<_>>(),
        [0, 1, 2]
    );
}

#[test]
fn a_folder_skips_a_bad_image_and_goes_on() {
    let dir = temp_dir("bad");
    std::fs::write(dir.join("a.jpg"), b"not a jpeg").unwrap();
    std::fs::copy(Path::new(SAMPLES).join("01-pinfu.jpg"), dir.join("b.jpg")).unwrap();
    std::fs::write(dir.join(".hidden.jpg"), b"skipped").unwrap();
    std::fs::write(dir.join("notes.txt"), b"skipped").unwrap();
    let mut source =
        capture::open(&SourceSpec::Folder(dir.clone()), OpenOptions::default()).unwrap();
    let err = source.next_frame().unwrap_err();
    assert!(matches!(err, CaptureError::Image { .. }), "{err}");
    assert!(err.to_string().contains("a.jpg"), "{err}");
    let frame = source.next_frame().unwrap().unwrap();
    assert_eq!(frame.name.as_deref(), Some("b.jpg"));
    assert!(source.next_frame().unwrap().is_none());
    let empty = temp_dir("empty");
    let err = capture::open(&SourceSpec::Folder(empty.clone()), OpenOptions::default())
        .err()
        .unwrap();
    assert!(matches!(err, CaptureError::EmptyFolder(_)), "{err}");
    let _ = std::fs::remove_dir_all(dir);
    let _ = std::fs::remove_dir_all(empty);
}

#[test]
fn an_image_gives_one_frame() {
    let path = Path::new(SAMPLES).join("02-closed-kan.jpg");
    let spec = SourceSpec::parse(path.to_str().unwrap()).unwrap();
    assert_eq!(spec, SourceSpec::Image(path.clone()));
    let frames = all_frames(capture::open(&spec, OpenOptions::default()).unwrap());
    assert_eq!(frames.len(), 1);
    assert_eq!(frames[0].name.as_deref(), Some("02-closed-kan.jpg"));
    let err = SourceSpec::parse("/no/such/photo.jpg").unwrap_err();
    assert!(err.to_string().contains("no such file"), "{err}");
    let err = SourceSpec::parse(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).unwrap_err();
    assert!(matches!(err, CaptureError::NotAnImage(_)), "{err}");
}

#[test]
fn a_video_made_with_ffmpeg_gives_every_frame() {
    let dir = temp_dir("video");
    let clip = dir.join("test.mp4");
    ffmpeg(&[
        "-f",
        "lavfi",
        "-i",
        "testsrc=size=320x240:rate=10",
        "-frames:v",
        "12",
        "-c:v",
        "mpeg4",
        clip.to_str().unwrap(),
    ]);
    assert_eq!(
        SourceSpec::parse(clip.to_str().unwrap()).unwrap(),
        SourceSpec::Video(clip.clone())
    );
    let source = VideoSource::open(&clip, false).unwrap();
    assert_eq!(source.size(), (320, 240));
    let frames = all_frames(Box::new(source));
    assert_eq!(frames.len(), 12);
    assert!(frames.iter().all(|f| f.image.pixels.len() == 320 * 240 * 3));
    // testsrc's frames differ from one another (a moving pattern and a counter).
    assert_ne!(frames[0].image.pixels, frames[11].image.pixels);

    // Real-time playback paces frames at the video's rate (10 fps: ~1.1 s for 12 frames).
    let start = std::time::Instant::now();
    let frames = all_frames(Box::new(VideoSource::open(&clip, true).unwrap()));
    assert_eq!(frames.len(), 12);
    assert!(
        start.elapsed() >= Duration::from_millis(700),
        "{:?}",
        start.elapsed()
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_file_that_is_not_a_video_is_an_error_not_a_panic() {
    let dir = temp_dir("notvideo");
    let fake = dir.join("fake.mp4");
    std::fs::write(&fake, b"this is not a video").unwrap();
    let err = VideoSource::open(&fake, false).err().unwrap();
    assert!(matches!(err, CaptureError::Video { .. }), "{err}");
    assert!(err.to_string().contains("fake.mp4"), "{err}");
    // Through the capture thread it is a Failed event.
    let (tx, rx) = mpsc::channel();
    let capture = Capture::start(SourceSpec::Video(fake), OpenOptions::default(), move |e| {
        let _ = tx.send(e);
    });
    match rx.recv_timeout(Duration::from_secs(10)).unwrap() {
        CaptureEvent::Failed(CaptureError::Video { .. }) => {}
        other => panic!("{other:?}"),
    }
    capture.join();
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_missing_camera_is_a_clear_error() {
    // Listing never panics; on a machine without cameras it is empty.
    let listed = camera::list();
    let err = capture::open(
        &SourceSpec::Camera {
            index: 97,
            resolution: None,
        },
        OpenOptions::default(),
    )
    .err()
    .expect("no machine has a camera 97");
    let text = err.to_string();
    match err {
        CaptureError::NoCamera(_) => assert!(text.contains("no camera found"), "{text}"),
        CaptureError::CameraNotFound { index, .. } => {
            assert_eq!(index, 97);
            assert!(text.contains("camera 97 not found"), "{text}");
        }
        other => panic!("unexpected {other:?} (listed: {listed:?})"),
    }
    // The capture thread reports it as a failure event, and stops.
    let (tx, rx) = mpsc::channel();
    let capture = Capture::start(
        SourceSpec::Camera {
            index: 97,
            resolution: None,
        },
        OpenOptions::default(),
        move |e| {
            let _ = tx.send(e);
        },
    );
    assert!(matches!(
        rx.recv_timeout(Duration::from_secs(10)).unwrap(),
        CaptureEvent::Failed(CaptureError::NoCamera(_) | CaptureError::CameraNotFound { .. })
    ));
    capture.join();
}

#[test]
fn a_video_of_a_hand_is_read_through_the_pipeline() {
    // A 2-second clip of a sample photo, as a camera pointed at a hand would give.
    let dir = temp_dir("pipeline");
    let clip = dir.join("hand.mp4");
    let photo = Path::new(SAMPLES).join("01-pinfu.jpg");
    still_clip(&photo, &clip, 2, 5, None);
    let (tx, rx) = mpsc::channel();
    let worker_tx = tx.clone();
    let worker = Worker::start(riichi_lens::app::load_recognizer, move |e| {
        let _ = worker_tx.send(Err(e));
    });
    let feeder = worker.feeder();
    let capture = Capture::start(
        SourceSpec::Video(clip),
        OpenOptions {
            realtime: false,
            folder_interval: None,
        },
        move |e| match e {
            CaptureEvent::Frame(f) => feeder.submit(f, 1),
            other => {
                let _ = tx.send(Ok(other));
            }
        },
    );
    let mut hands = Vec::new();
    let mut ended = false;
    while hands.is_empty() || !ended {
        match rx
            .recv_timeout(Duration::from_secs(60))
            .expect("pipeline events")
        {
            Ok(CaptureEvent::Ended) => ended = true,
            Ok(CaptureEvent::Failed(e)) => panic!("{e}"),
            Ok(_) => {}
            Err(WorkerEvent::LoadFailed(e)) => panic!("the recognizer: {e}"),
            Err(WorkerEvent::Ready) => {}
            Err(WorkerEvent::Recognized(r)) => {
                assert_eq!(r.tag, 1);
                let reading = r.reading.expect("a reading");
                hands.push(reading.hand.map(|h| h.notation()));
            }
        }
    }
    // The clip has 10 frames; a slower recognizer drops stale ones, but reads at least one,
    // and every frame it reads gives the hand.
    assert!(!hands.is_empty() && hands.len() <= 10, "{hands:?}");
    assert!(
        hands
            .iter()
            .all(|h| h.as_deref() == Some("56778889m345675p")),
        "{hands:?}"
    );
    capture.join();
    worker.join();
    let _ = std::fs::remove_dir_all(dir);
}

/// A camera that gives a few frames and is then unplugged.
struct UnpluggedCamera {
    frames_left: u32,
}

impl FrameSource for UnpluggedCamera {
    fn next_frame(&mut self) -> Result<Option<capture::Frame>, CaptureError> {
        if self.frames_left == 0 {
            return Err(CaptureError::CameraLost {
                index: 0,
                message: "No such device (os error 19)".into(),
            });
        }
        self.frames_left -= 1;
        let image = riichi_lens::vision::picture::Rgb::new(4, 4, vec![128; 48]).unwrap();
        Ok(Some(capture::Frame {
            image: std::sync::Arc::new(image),
            number: u64::from(3 - self.frames_left),
            name: None,
        }))
    }
}

#[test]
fn a_camera_that_disappears_ends_the_capture_with_a_message() {
    let (tx, rx) = mpsc::channel();
    let capture = Capture::start_with(
        || Ok(Box::new(UnpluggedCamera { frames_left: 3 }) as Box<dyn FrameSource>),
        move |e| {
            let _ = tx.send(e);
        },
    );
    let mut events = Vec::new();
    while let Ok(e) = rx.recv_timeout(Duration::from_secs(10)) {
        events.push(e);
    }
    capture.join();
    assert!(matches!(events[0], CaptureEvent::Opened), "{events:?}");
    assert_eq!(
        events
            .iter()
            .filter(|e| matches!(e, CaptureEvent::Frame(_)))
            .count(),
        3
    );
    match events.last() {
        Some(CaptureEvent::Failed(e @ CaptureError::CameraLost { .. })) => {
            let text = e.to_string();
            assert!(text.contains("camera 0 stopped giving frames"), "{text}");
            assert!(text.contains("unplugged"), "{text}");
        }
        other => panic!("{other:?}"),
    }
}
