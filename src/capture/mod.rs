//! Frame sources: webcams, video files, single images and folders of images, all producing
//! RGB frames ([`Rgb`]) for the recognizer.
//!
//! - [`SourceSpec`]: what a `--source` argument or the app's source panel names, and
//!   [`SourceSpec::parse`] for the command line form (a camera index, a video, an image, a
//!   folder).
//! - [`camera`]: webcams through `nokhwa` (listing, opening at a resolution, decoding
//!   MJPEG/YUYV/NV12 frames to RGB).
//! - [`video`]: video files decoded by an `ffmpeg` subprocess that pipes raw `rgb24` frames
//!   (no codec code is linked in; `ffmpeg` is a run-time dependency).
//! - [`still`]: one image, or the images of a folder in name order.
//! - [`pipeline`]: the threads that pull frames from a source and recognize the newest one,
//!   dropping stale frames so a slow recognizer never builds a backlog.
//!
//! Every failure is a [`CaptureError`]; a camera that disappears mid-stream is
//! [`CaptureError::CameraLost`], never a panic.

pub mod camera;
pub mod pipeline;
pub mod still;
pub mod video;

pub use crate::vision::picture::Rgb;

use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use thiserror::Error;

/// A frame size in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Resolution {
    pub width: u32,
    pub height: u32,
}

impl Resolution {
    pub const fn new(width: u32, height: u32) -> Resolution {
        Resolution { width, height }
    }

    /// Common webcam sizes, offered when a camera cannot list its own.
    pub const COMMON: [Resolution; 4] = [
        Resolution::new(640, 480),
        Resolution::new(1280, 720),
        Resolution::new(1920, 1080),
        Resolution::new(3840, 2160),
    ];
}

impl fmt::Display for Resolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}×{}", self.width, self.height)
    }
}

/// Where frames come from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SourceSpec {
    /// A webcam by index (`/dev/videoN` on Linux), at the resolution closest to the one asked
    /// for (`None`: the camera's default).
    Camera {
        index: u32,
        resolution: Option<Resolution>,
    },
    /// A video file, decoded by `ffmpeg`.
    Video(PathBuf),
    /// One JPEG or PNG image.
    Image(PathBuf),
    /// The JPEG and PNG images of a folder, in name order.
    Folder(PathBuf),
}

/// File extensions read as video.
pub const VIDEO_EXTENSIONS: &[&str] = &[
    "mp4", "mkv", "webm", "mov", "avi", "m4v", "wmv", "flv", "ts", "mpg", "mpeg", "y4m",
];

pub(crate) fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Whether the file name says JPEG or PNG.
pub fn is_image(path: &Path) -> bool {
    matches!(extension(path).as_str(), "jpg" | "jpeg" | "png")
}

/// Whether the file name says video.
pub fn is_video(path: &Path) -> bool {
    VIDEO_EXTENSIONS.contains(&extension(path).as_str())
}

impl SourceSpec {
    /// Reads a `--source` argument: a camera index (digits only), a folder, a video file or an
    /// image. Files must exist; a camera is only checked when it is opened.
    pub fn parse(text: &str) -> Result<SourceSpec, CaptureError> {
        if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            let index = text
                .parse()
                .map_err(|_| CaptureError::BadSource(text.to_string()))?;
            return Ok(SourceSpec::Camera {
                index,
                resolution: None,
            });
        }
        let path = PathBuf::from(text);
        if path.is_dir() {
            return Ok(SourceSpec::Folder(path));
        }
        if !path.is_file() {
            return Err(CaptureError::NotFound(path));
        }
        if is_video(&path) {
            Ok(SourceSpec::Video(path))
        } else if is_image(&path) {
            Ok(SourceSpec::Image(path))
        } else {
            Err(CaptureError::NotAnImage(path))
        }
    }

    /// A short description for status lines: `camera 0`, `clip.mp4`, …
    pub fn describe(&self) -> String {
        let name = |p: &Path| {
            p.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| p.display().to_string())
        };
        match self {
            SourceSpec::Camera {
                index,
                resolution: Some(r),
            } => format!("camera {index} ({r})"),
            SourceSpec::Camera { index, .. } => format!("camera {index}"),
            SourceSpec::Video(p) | SourceSpec::Image(p) => name(p),
            SourceSpec::Folder(p) => format!("{}/", name(p)),
        }
    }

    /// Whether the source shows a scene that changes by itself (camera, video), as opposed
    /// to still images that only change when the user steps to the next one.
    pub fn is_live(&self) -> bool {
        matches!(self, SourceSpec::Camera { .. } | SourceSpec::Video(_))
    }
}

/// One frame.
#[derive(Clone, Debug)]
pub struct Frame {
    pub image: Arc<Rgb>,
    /// Counts up from 0 for each frame a source produces.
    pub number: u64,
    /// The file the frame came from, for image and folder sources.
    pub name: Option<String>,
}

impl Frame {
    /// An unnamed frame (camera, video) numbered from `counter`, which moves on by one.
    pub(crate) fn next(image: Rgb, counter: &mut u64) -> Frame {
        let number = *counter;
        *counter += 1;
        Frame {
            image: Arc::new(image),
            number,
            name: None,
        }
    }
}

/// Something that produces frames. Sources are opened on the thread that reads them (a
/// camera handle must stay on one thread), so this trait does not require `Send`.
pub trait FrameSource {
    /// The next frame; `Ok(None)` when the source has ended (end of video, last image).
    /// Blocks until the frame is there (a camera's next exposure, a video's next frame).
    fn next_frame(&mut self) -> Result<Option<Frame>, CaptureError>;
}

/// How sources are opened.
#[derive(Clone, Copy, Debug)]
pub struct OpenOptions {
    /// Play videos at their own frame rate (the app, the overlay) instead of as fast as they
    /// decode (benchmarks, tests).
    pub realtime: bool,
    /// Time between two images of a folder (`None`: no wait).
    pub folder_interval: Option<Duration>,
}

impl Default for OpenOptions {
    fn default() -> OpenOptions {
        OpenOptions {
            realtime: true,
            folder_interval: None,
        }
    }
}

/// Opens a source on the calling thread.
pub fn open(spec: &SourceSpec, options: OpenOptions) -> Result<Box<dyn FrameSource>, CaptureError> {
    Ok(match spec {
        SourceSpec::Camera { index, resolution } => {
            Box::new(camera::CameraSource::open(*index, *resolution)?)
        }
        SourceSpec::Video(path) => Box::new(video::VideoSource::open(path, options.realtime)?),
        SourceSpec::Image(path) => Box::new(still::ImageSource::open(path)?),
        SourceSpec::Folder(path) => {
            Box::new(still::FolderSource::open(path, options.folder_interval)?)
        }
    })
}

/// Why a source cannot give frames.
#[derive(Debug, Error)]
pub enum CaptureError {
    #[error("{0:?} is not a source: give a camera index (0, 1, …), a video, an image or a folder")]
    BadSource(String),
    #[error("{}: no such file or folder (a source is a camera index, a video, an image or a folder)", .0.display())]
    NotFound(PathBuf),
    #[error("{}: not a JPEG or PNG image, nor a video ({})", .0.display(), VIDEO_EXTENSIONS.join(", "))]
    NotAnImage(PathBuf),
    #[error("no JPEG or PNG images in {}", .0.display())]
    EmptyFolder(PathBuf),
    #[error("cannot read the image {}: {message}", .path.display())]
    Image { path: PathBuf, message: String },
    #[error("no camera found ({0}); connect one, or open a video, an image or a folder")]
    NoCamera(String),
    #[error("camera {index} not found; cameras present: {present}")]
    CameraNotFound { index: u32, present: String },
    #[error("cannot open camera {index}: {message}")]
    CameraOpen { index: u32, message: String },
    #[error("camera {index} stopped giving frames ({message}); was it unplugged? Pick it again or choose another source")]
    CameraLost { index: u32, message: String },
    #[error("camera {index} sent a frame that could not be decoded: {message}")]
    CameraFrame { index: u32, message: String },
    #[error("ffmpeg is needed to read videos but was not found ({0}); install it (Debian/Ubuntu: apt install ffmpeg)")]
    FfmpegMissing(String),
    #[error("cannot read the video {}: {message}", .path.display())]
    Video { path: PathBuf, message: String },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_sources() {
        assert_eq!(
            SourceSpec::parse("0").unwrap(),
            SourceSpec::Camera {
                index: 0,
                resolution: None
            }
        );
        assert!(matches!(
            SourceSpec::parse("99999999999999"),
            Err(CaptureError::BadSource(_))
        ));
        assert!(matches!(
            SourceSpec::parse("/no/such.mp4"),
            Err(CaptureError::NotFound(_))
        ));
        assert!(matches!(
            SourceSpec::parse("Cargo.toml"),
            Err(CaptureError::NotAnImage(_))
        ));
        assert_eq!(
            SourceSpec::parse("src").unwrap(),
            SourceSpec::Folder("src".into())
        );
        assert!(is_video(Path::new("a/B.MP4")));
        assert!(is_image(Path::new("x.JPeG")));
    }
}
