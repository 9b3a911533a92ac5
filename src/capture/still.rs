//! Still sources: one image, or the images of a folder in name order.

use super::{is_image, CaptureError, Frame, FrameSource, Rgb};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn file_name(path: &Path) -> Option<String> {
    path.file_name().map(|n| n.to_string_lossy().into_owned())
}

/// Reads one image file into a frame.
pub fn read_image(path: &Path, number: u64) -> Result<Frame, CaptureError> {
    let image = Rgb::open(path).map_err(|e| CaptureError::Image {
        path: path.to_path_buf(),
        message: e.to_string(),
    })?;
    Ok(Frame {
        image: Arc::new(image),
        number,
        name: file_name(path),
    })
}

/// The JPEG and PNG files directly in `folder` (hidden files skipped), sorted by name.
pub fn images_in(folder: &Path) -> Result<Vec<PathBuf>, CaptureError> {
    let entries = std::fs::read_dir(folder).map_err(|_| CaptureError::NotFound(folder.into()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.is_file()
                && is_image(p)
                && !p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// One image: gives its frame once, then ends.
pub struct ImageSource {
    path: PathBuf,
    done: bool,
}

impl ImageSource {
    /// Checks that the file exists and looks like an image; it is decoded on the first frame.
    pub fn open(path: &Path) -> Result<ImageSource, CaptureError> {
        if !path.is_file() {
            return Err(CaptureError::NotFound(path.into()));
        }
        if !is_image(path) {
            return Err(CaptureError::NotAnImage(path.into()));
        }
        Ok(ImageSource {
            path: path.into(),
            done: false,
        })
    }
}

impl FrameSource for ImageSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, CaptureError> {
        if std::mem::replace(&mut self.done, true) {
            return Ok(None);
        }
        read_image(&self.path, 0).map(Some)
    }
}

/// The images of a folder, listed when opened, one frame each, optionally `interval` apart.
/// An unreadable image is an [`CaptureError::Image`] for that frame; the next call goes on
/// with the next file.
pub struct FolderSource {
    files: Vec<PathBuf>,
    next: usize,
    interval: Option<Duration>,
    last: Option<Instant>,
}

impl FolderSource {
    pub fn open(folder: &Path, interval: Option<Duration>) -> Result<FolderSource, CaptureError> {
        let files = images_in(folder)?;
        if files.is_empty() {
            return Err(CaptureError::EmptyFolder(folder.into()));
        }
        Ok(FolderSource {
            files,
            next: 0,
            interval,
            last: None,
        })
    }

    /// The files, in the order they are given.
    pub fn files(&self) -> &[PathBuf] {
        &self.files
    }
}

impl FrameSource for FolderSource {
    fn next_frame(&mut self) -> Result<Option<Frame>, CaptureError> {
        let Some(path) = self.files.get(self.next).cloned() else {
            return Ok(None);
        };
        if let (Some(interval), Some(last)) = (self.interval, self.last) {
            let wait = interval.saturating_sub(last.elapsed());
            std::thread::sleep(wait);
        }
        self.last = Some(Instant::now());
        let number = self.next as u64;
        self.next += 1;
        read_image(&path, number).map(Some)
    }
}
