//! Finding and loading ONNX Runtime and the model files.
//!
//! `ort` is built with `load-dynamic`, so the shared library is loaded at run time from the
//! PyPI wheel `onnxruntime==1.31.1` that `scripts/setup.sh` installs into `.venv`. Loading it
//! with `ort::init_from(<absolute path>)` before anything else avoids ort's panic on a missing
//! library; every failure here is a [`VisionError`] that names the fix.

use super::VisionError;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// The library file name inside the wheel.
pub const LIBRARY_NAME: &str = "libonnxruntime.so.1.31.1";

/// Where the library is looked for, in order: `ORT_DYLIB_PATH`, next to the executable, the
/// `.venv` of the current directory, the `.venv` of the source checkout.
pub fn library_candidates() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(path) = std::env::var_os("ORT_DYLIB_PATH") {
        out.push(PathBuf::from(path));
    }
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(Path::to_path_buf))
    {
        out.push(dir.join(LIBRARY_NAME));
    }
    let mut roots = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        roots.push(cwd);
    }
    roots.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")));
    for root in roots {
        let lib = root.join(".venv").join("lib");
        if let Ok(entries) = std::fs::read_dir(&lib) {
            for entry in entries.flatten() {
                out.push(
                    entry
                        .path()
                        .join("site-packages/onnxruntime/capi")
                        .join(LIBRARY_NAME),
                );
            }
        }
    }
    out
}

/// The first existing library candidate, as an absolute path.
pub fn locate_library() -> Result<PathBuf, VisionError> {
    let candidates = library_candidates();
    candidates
        .iter()
        .find(|p| p.is_file())
        .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
        .ok_or_else(|| VisionError::LibraryNotFound {
            looked: candidates
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        })
}

static ENVIRONMENT: OnceLock<Result<ort::environment::Environment, String>> = OnceLock::new();

/// The process-wide ONNX Runtime environment, loading the library on first use.
pub fn environment() -> Result<&'static ort::environment::Environment, VisionError> {
    let result = ENVIRONMENT.get_or_init(|| {
        let path = locate_library().map_err(|e| e.to_string())?;
        let builder = ort::init_from(&path).map_err(|e| {
            VisionError::LibraryLoad {
                path: path.display().to_string(),
                message: e.to_string(),
            }
            .to_string()
        })?;
        builder
            .with_name("riichi-lens")
            .build()
            .map_err(|e| format!("could not start ONNX Runtime from {}: {e}", path.display()))
    });
    result
        .as_ref()
        .map_err(|message| VisionError::Runtime(message.clone()))
}

/// The folder holding the models: `RIICHI_LENS_MODELS`, else `models/` beside the executable's
/// checkout, the current directory or the source checkout.
pub fn models_dir() -> Result<PathBuf, VisionError> {
    let mut candidates = Vec::new();
    if let Some(dir) = std::env::var_os("RIICHI_LENS_MODELS") {
        candidates.push(PathBuf::from(dir));
    }
    if let Ok(cwd) = std::env::current_dir() {
        candidates.push(cwd.join("models"));
    }
    candidates.push(Path::new(env!("CARGO_MANIFEST_DIR")).join("models"));
    candidates
        .iter()
        .find(|d| d.join("tile_detector.onnx").is_file())
        .cloned()
        .ok_or_else(|| VisionError::ModelNotFound {
            path: candidates
                .first()
                .map(|d| d.join("tile_detector.onnx").display().to_string())
                .unwrap_or_default(),
        })
}
