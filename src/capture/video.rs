//! Video files, decoded by an `ffmpeg` subprocess that writes raw `rgb24` frames to a pipe.
//!
//! No codec is linked into the binary: `ffprobe` reads the frame size (after the file's
//! rotation), `ffmpeg` decodes, and this module only reads fixed-size frames from its
//! standard output. The child is killed when the source is dropped.

use super::{CaptureError, Frame, FrameSource, Rgb};
use crate::vision::picture::MAX_SIDE;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A video being decoded.
pub struct VideoSource {
    path: PathBuf,
    width: u32,
    height: u32,
    child: Child,
    stdout: ChildStdout,
    stderr: Option<JoinHandle<String>>,
    stderr_tail: Arc<Mutex<String>>,
    number: u64,
    ended: bool,
}

fn video_error(path: &Path, message: impl Into<String>) -> CaptureError {
    CaptureError::Video {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

fn spawn_error(program: &str, e: std::io::Error) -> CaptureError {
    if e.kind() == std::io::ErrorKind::NotFound {
        CaptureError::FfmpegMissing(format!("`{program}` is not on PATH"))
    } else {
        CaptureError::FfmpegMissing(format!("cannot start `{program}`: {e}"))
    }
}

/// The displayed frame size of the first video stream: ffprobe reports the coded size, and
/// ffmpeg turns frames by the stream's rotation when decoding, so a quarter turn swaps them.
pub fn probe(path: &Path) -> Result<(u32, u32), CaptureError> {
    let out = Command::new("ffprobe")
        .args([
            "-v",
            "error",
            "-select_streams",
            "v:0",
            "-show_entries",
            "stream=width,height:stream_side_data=rotation",
            "-of",
            "json",
        ])
        .arg(path)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| spawn_error("ffprobe", e))?;
    if !out.status.success() {
        let message = String::from_utf8_lossy(&out.stderr).trim().to_string();
        return Err(video_error(
            path,
            if message.is_empty() {
                "ffprobe could not read it".to_string()
            } else {
                message
            },
        ));
    }
    let json: serde_json::Value = serde_json::from_slice(&out.stdout)
        .map_err(|e| video_error(path, format!("unexpected ffprobe output: {e}")))?;
    let stream = json["streams"]
        .get(0)
        .ok_or_else(|| video_error(path, "no video stream"))?;
    let dim = |key: &str| {
        stream[key]
            .as_u64()
            .and_then(|v| u32::try_from(v).ok())
            .filter(|&v| v > 0 && v <= MAX_SIDE)
    };
    let (Some(w), Some(h)) = (dim("width"), dim("height")) else {
        return Err(video_error(
            path,
            format!("unsupported frame size (1 to {MAX_SIDE} pixels a side)"),
        ));
    };
    let rotation = stream["side_data_list"]
        .as_array()
        .into_iter()
        .flatten()
        .find_map(|d| d["rotation"].as_f64())
        .unwrap_or(0.0);
    let quarter = ((rotation / 90.0).round() as i64).rem_euclid(2) == 1;
    Ok(if quarter { (h, w) } else { (w, h) })
}

impl VideoSource {
    /// Starts decoding `path`; with `realtime` frames come at the video's own rate (ffmpeg's
    /// `-re`), otherwise as fast as they decode.
    pub fn open(path: &Path, realtime: bool) -> Result<VideoSource, CaptureError> {
        if !path.is_file() {
            return Err(CaptureError::NotFound(path.into()));
        }
        let (width, height) = probe(path)?;
        let mut command = Command::new("ffmpeg");
        command.args(["-nostdin", "-hide_banner", "-loglevel", "error"]);
        if realtime {
            command.arg("-re");
        }
        command
            .arg("-i")
            .arg(path)
            .args([
                "-map", "0:v:0", "-f", "rawvideo", "-pix_fmt", "rgb24", "pipe:1",
            ])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = command.spawn().map_err(|e| spawn_error("ffmpeg", e))?;
        let stdout = child
            .stdout
            .take()
            .ok_or_else(|| video_error(path, "no pipe from ffmpeg"))?;
        // Drain stderr on its own thread so a chatty ffmpeg never blocks on a full pipe;
        // keep the tail for error messages.
        let stderr_tail = Arc::new(Mutex::new(String::new()));
        let stderr = child.stderr.take().map(|mut err| {
            let tail = stderr_tail.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 4096];
                while let Ok(n) = err.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if let Ok(mut t) = tail.lock() {
                        t.push_str(&String::from_utf8_lossy(&buf[..n]));
                        if t.len() > 4096 {
                            let cut = t.len() - 4096;
                            let cut = (cut..t.len()).find(|&i| t.is_char_boundary(i)).unwrap_or(0);
                            t.drain(..cut);
                        }
                    }
                }
                String::new()
            })
        });
        Ok(VideoSource {
            path: path.into(),
            width,
            height,
            child,
            stdout,
            stderr,
            stderr_tail,
            number: 0,
            ended: false,
        })
    }

    /// The frame size.
    pub fn size(&self) -> (u32, u32) {
        (self.width, self.height)
    }

    fn finish(&mut self) -> Result<Option<Frame>, CaptureError> {
        self.ended = true;
        let status = self.child.wait();
        if let Some(h) = self.stderr.take() {
            let _ = h.join();
        }
        let message = self
            .stderr_tail
            .lock()
            .map(|t| t.trim().to_string())
            .unwrap_or_default();
        match status {
            Ok(s) if s.success() => Ok(None),
            // A video that gave frames and then hit a broken packet still ended; only a
            // video that gave nothing at all is an error.
            _ if self.number > 0 => Ok(None),
            Ok(s) => Err(video_error(
                &self.path,
                if message.is_empty() {
                    format!("ffmpeg exited with {s}")
                } else {
                    message
                },
            )),
            Err(e) => Err(video_error(&self.path, e.to_string())),
        }
    }
}

/// Reads until `buf` is full; returns how many bytes were read (less only at end of stream).
fn read_full(r: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match r.read(&mut buf[filled..]) {
            Ok(0) => break,
            Ok(n) => filled += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(filled)
}

impl FrameSource for VideoSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, CaptureError> {
        if self.ended {
            return Ok(None);
        }
        let len = self.width as usize * self.height as usize * 3;
        let mut pixels = vec![0u8; len];
        let filled = read_full(&mut self.stdout, &mut pixels)
            .map_err(|e| video_error(&self.path, e.to_string()))?;
        if filled < len {
            return self.finish();
        }
        let image = Rgb::new(self.width, self.height, pixels)
            .map_err(|e| video_error(&self.path, e.to_string()))?;
        Ok(Some(Frame::next(image, &mut self.number)))
    }
}

impl Drop for VideoSource {
    fn drop(&mut self) {
        if !self.ended {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
