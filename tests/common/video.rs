//! Videos for the tests and benches: a still photo held as a clip, made by `ffmpeg` (installed
//! by `scripts/setup.sh`), as a camera pointed at a hand would give.

use std::path::Path;
use std::process::Command;

/// Writes `out`: `photo` held for `seconds` at `fps` frames per second, MPEG-4 at high quality,
/// scaled to `size` (`"1280x720"`) when given.
pub fn still_clip(photo: &Path, out: &Path, seconds: u64, fps: u32, size: Option<&str>) {
    let mut ffmpeg = Command::new("ffmpeg");
    ffmpeg
        .args(["-nostdin", "-loglevel", "error", "-y", "-loop", "1", "-i"])
        .arg(photo)
        .args(["-t", &seconds.to_string(), "-r", &fps.to_string()]);
    if let Some(size) = size {
        ffmpeg.args(["-s", size]);
    }
    let status = ffmpeg
        .args(["-c:v", "mpeg4", "-q:v", "2"])
        .arg(out)
        .status()
        .expect("ffmpeg (scripts/setup.sh installs it)");
    assert!(status.success(), "ffmpeg could not make {}", out.display());
}
