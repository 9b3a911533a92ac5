//! Finding the photos: files given directly, and image files below given folders.

use std::path::{Path, PathBuf};

/// Extensions of the photos looked for (compared case-insensitively).
pub const EXTENSIONS: [&str; 3] = ["jpg", "jpeg", "png"];

/// Whether a path names a photo by its extension.
pub fn is_photo_name(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| EXTENSIONS.iter().any(|x| x.eq_ignore_ascii_case(e)))
}

/// What [`discover`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Found {
    /// The photos, sorted by path, each once.
    pub photos: Vec<PathBuf>,
    /// Files given directly that are not `.jpg`, `.jpeg` or `.png` (left out).
    pub skipped: Vec<PathBuf>,
}

/// Expands files and folders into photos. Folders are searched recursively for `.jpg`,
/// `.jpeg` and `.png` files (any case), skipping names starting with `.` (hidden files, macOS
/// `._` resource forks) and not following links to folders. A path that does not exist is an
/// error.
pub fn discover(inputs: &[PathBuf]) -> std::io::Result<Found> {
    let mut found = Found::default();
    for input in inputs {
        let meta = std::fs::metadata(input)
            .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", input.display())))?;
        if meta.is_dir() {
            walk(input, &mut found.photos)?;
        } else if is_photo_name(input) {
            found.photos.push(input.clone());
        } else {
            found.skipped.push(input.clone());
        }
    }
    found.photos.sort();
    found.photos.dedup();
    Ok(found)
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| std::io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
    for entry in entries {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        let kind = entry.file_type()?;
        if kind.is_dir() {
            walk(&path, out)?;
        } else if is_photo_name(&path) && (kind.is_file() || path.is_file()) {
            out.push(path);
        }
    }
    Ok(())
}
