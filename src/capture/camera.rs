//! Webcams through `nokhwa` (Video4Linux on Linux, AVFoundation on macOS, Media Foundation
//! on Windows).
//!
//! Frames are taken in whatever format the camera offers and decoded here: MJPEG with the
//! `image` crate (nokhwa's own MJPEG decoder needs a C library), YUYV and NV12 with
//! nokhwa's converters. Calls into the backend are wrapped in `catch_unwind` because a
//! backend panic (seen with some drivers) must become an error message, not a crash.

use super::{CaptureError, Frame, FrameSource, Resolution, Rgb};
use nokhwa::pixel_format::RgbFormat;
use nokhwa::utils::{
    ApiBackend, CameraFormat, CameraIndex, FrameFormat, RequestedFormat, RequestedFormatType,
};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A camera the system lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CameraInfo {
    pub index: u32,
    pub name: String,
}

fn guarded<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(f)).map_err(|panic| {
        let message = panic
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "unknown failure".into());
        format!("{what} failed inside the camera backend: {message}")
    })
}

/// The cameras present, by index. An empty list is not an error; a backend that cannot be
/// asked (no V4L support, no permission) is.
pub fn list() -> Result<Vec<CameraInfo>, CaptureError> {
    let found = guarded("listing cameras", || nokhwa::query(ApiBackend::Auto))
        .map_err(CaptureError::NoCamera)?
        .map_err(|e| CaptureError::NoCamera(e.to_string()))?;
    Ok(found
        .into_iter()
        .filter_map(|info| {
            let index = info.index().as_index().ok()?;
            Some(CameraInfo {
                index,
                name: info.human_name(),
            })
        })
        .collect())
}

/// An open camera streaming frames.
pub struct CameraSource {
    camera: nokhwa::Camera,
    index: u32,
    number: u64,
}

/// The camera format closest to `want` (size first, then MJPEG, then frame rate): MJPEG is
/// preferred because uncompressed formats are limited to low frame rates at 720p and above.
fn closest(formats: &[CameraFormat], want: Resolution) -> Option<CameraFormat> {
    formats.iter().copied().min_by_key(|f| {
        let dw = i64::from(f.width()) - i64::from(want.width);
        let dh = i64::from(f.height()) - i64::from(want.height);
        (
            dw * dw + dh * dh,
            f.format() != FrameFormat::MJPEG,
            std::cmp::Reverse(f.frame_rate()),
        )
    })
}

/// Whether the system lists camera `index`: `NoCamera` when it lists none,
/// `CameraNotFound` (naming the cameras there are) when not this one.
pub fn check_present(index: u32) -> Result<(), CaptureError> {
    let cameras = list()?;
    if cameras.is_empty() {
        return Err(CaptureError::NoCamera(
            "the system lists no video capture device".into(),
        ));
    }
    if !cameras.iter().any(|c| c.index == index) {
        return Err(CaptureError::CameraNotFound {
            index,
            present: present(&cameras),
        });
    }
    Ok(())
}

fn present(cameras: &[CameraInfo]) -> String {
    if cameras.is_empty() {
        return "none".into();
    }
    cameras
        .iter()
        .map(|c| format!("{} ({})", c.index, c.name))
        .collect::<Vec<_>>()
        .join(", ")
}

impl CameraSource {
    /// Opens camera `index` at the resolution closest to `resolution` (`None`: its default)
    /// and starts streaming.
    pub fn open(index: u32, resolution: Option<Resolution>) -> Result<CameraSource, CaptureError> {
        check_present(index)?;
        let open_error = |message: String| CaptureError::CameraOpen { index, message };
        let request = RequestedFormat::new::<RgbFormat>(RequestedFormatType::None);
        let mut camera = guarded("opening the camera", || {
            nokhwa::Camera::new(CameraIndex::Index(index), request)
        })
        .map_err(open_error)?
        .map_err(|e| open_error(e.to_string()))?;
        if let Some(want) = resolution {
            // Best effort: a camera that cannot list or switch formats keeps its default.
            let formats = guarded("listing formats", || camera.compatible_camera_formats())
                .ok()
                .and_then(Result::ok)
                .unwrap_or_default();
            if let Some(format) = closest(&formats, want) {
                let wanted = [format.format()];
                let request =
                    RequestedFormat::with_formats(RequestedFormatType::Exact(format), &wanted);
                let _ = guarded("setting the format", || camera.set_camera_requset(request));
            }
        }
        guarded("starting the stream", || camera.open_stream())
            .map_err(open_error)?
            .map_err(|e| open_error(e.to_string()))?;
        Ok(CameraSource {
            camera,
            index,
            number: 0,
        })
    }

    /// The format the camera streams in.
    pub fn format(&self) -> CameraFormat {
        self.camera.camera_format()
    }
}

/// Turns one camera buffer into RGB.
pub fn decode(format: FrameFormat, width: u32, height: u32, data: &[u8]) -> Result<Rgb, String> {
    let pixels = width as usize * height as usize;
    let rgb = match format {
        FrameFormat::MJPEG => return Rgb::decode(data).map_err(|e| e.to_string()),
        FrameFormat::YUYV => {
            nokhwa::utils::yuyv422_to_rgb(data, false).map_err(|e| e.to_string())?
        }
        FrameFormat::NV12 => {
            nokhwa::utils::nv12_to_rgb(nokhwa::utils::Resolution::new(width, height), data, false)
                .map_err(|e| e.to_string())?
        }
        FrameFormat::RAWRGB => data.to_vec(),
        FrameFormat::RAWBGR => data
            .chunks_exact(3)
            .flat_map(|p| [p[2], p[1], p[0]])
            .collect(),
        FrameFormat::GRAY => data.iter().flat_map(|&g| [g, g, g]).collect(),
    };
    if rgb.len() < pixels * 3 {
        return Err(format!(
            "{} bytes for a {width}×{height} {format} frame",
            data.len()
        ));
    }
    let mut rgb = rgb;
    rgb.truncate(pixels * 3);
    Rgb::new(width, height, rgb).map_err(|e| e.to_string())
}

impl FrameSource for CameraSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, CaptureError> {
        let index = self.index;
        let lost = |message: String| CaptureError::CameraLost { index, message };
        let buffer = guarded("reading a frame", || self.camera.frame())
            .map_err(lost)?
            .map_err(|e| lost(e.to_string()))?;
        let res = buffer.resolution();
        let image = decode(
            buffer.source_frame_format(),
            res.width(),
            res.height(),
            buffer.buffer(),
        )
        .map_err(|message| CaptureError::CameraFrame { index, message })?;
        Ok(Some(Frame::next(image, &mut self.number)))
    }
}

impl Drop for CameraSource {
    fn drop(&mut self) {
        let _ = guarded("stopping the stream", || self.camera.stop_stream());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_closest_format() {
        let formats = [
            CameraFormat::new_from(640, 480, FrameFormat::YUYV, 30),
            CameraFormat::new_from(1280, 720, FrameFormat::YUYV, 10),
            CameraFormat::new_from(1280, 720, FrameFormat::MJPEG, 30),
            CameraFormat::new_from(1920, 1080, FrameFormat::MJPEG, 30),
        ];
        let got = closest(&formats, Resolution::new(1280, 720)).unwrap();
        assert_eq!(got.format(), FrameFormat::MJPEG);
        assert_eq!(got.width(), 1280);
        assert!(closest(&[], Resolution::new(1, 1)).is_none());
    }

    #[test]
    fn decodes_raw_formats() {
        let rgb = decode(FrameFormat::RAWBGR, 2, 1, &[1, 2, 3, 4, 5, 6]).unwrap();
        assert_eq!(rgb.pixels, vec![3, 2, 1, 6, 5, 4]);
        let gray = decode(FrameFormat::GRAY, 2, 1, &[7, 9]).unwrap();
        assert_eq!(gray.pixels, vec![7, 7, 7, 9, 9, 9]);
        assert!(decode(FrameFormat::RAWRGB, 4, 4, &[0; 5]).is_err());
        assert!(decode(FrameFormat::MJPEG, 4, 4, b"not a jpeg").is_err());
    }
}
