//! The app's persisted settings: a small JSON file in the user's config folder.
//!
//! The file is `$RIICHI_LENS_CONFIG_DIR/app.json` when that variable is set (tests use it),
//! else `$XDG_CONFIG_HOME/riichi-lens/app.json`, else `~/.config/riichi-lens/app.json`
//! (`%APPDATA%\riichi-lens\app.json` on Windows). A missing or unreadable file gives the
//! defaults; it is written (to a temporary file renamed into place) whenever a setting
//! changes, so a crash never leaves half a file.

use super::i18n::Lang;
use crate::capture::Resolution;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// What the app remembers between runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Settings {
    /// The camera last picked (index).
    pub camera: Option<u32>,
    /// The camera resolution asked for (`None`: the camera's default).
    pub resolution: Option<Resolution>,
    /// The scoring rules preset.
    pub rules: String,
    pub lang: Lang,
    /// Serve the stream overlay at `http://127.0.0.1:<overlay_port>/overlay`.
    pub serve_overlay: bool,
    pub overlay_port: u16,
    /// The window's inner size (points) when it was last resized.
    pub window: Option<[u32; 2]>,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            camera: None,
            resolution: Some(Resolution::new(1280, 720)),
            rules: "tenhou".into(),
            lang: Lang::En,
            serve_overlay: false,
            overlay_port: 7878,
            window: None,
        }
    }
}

/// The settings file's path (see the module docs); `None` when no home folder is known.
pub fn settings_path() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(dir) = var("RIICHI_LENS_CONFIG_DIR") {
        return Some(PathBuf::from(dir).join("app.json"));
    }
    let base = if cfg!(windows) {
        var("APPDATA").map(PathBuf::from)
    } else {
        var("XDG_CONFIG_HOME")
            .map(PathBuf::from)
            .or_else(|| var("HOME").map(|h| PathBuf::from(h).join(".config")))
    }?;
    Some(base.join("riichi-lens").join("app.json"))
}

impl Settings {
    /// Reads `path`; anything wrong with it gives the defaults (and a note for the status
    /// line), never an error that would stop the app from starting.
    pub fn load(path: Option<&Path>) -> (Settings, Option<String>) {
        let Some(path) = path else {
            return (Settings::default(), None);
        };
        match std::fs::read(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => (Settings::default(), None),
            Err(e) => (
                Settings::default(),
                Some(format!("cannot read {}: {e}", path.display())),
            ),
            Ok(bytes) => match serde_json::from_slice::<Settings>(&bytes) {
                Ok(s) => (s, None),
                Err(e) => (
                    Settings::default(),
                    Some(format!(
                        "ignored the settings in {} ({e}); using defaults",
                        path.display()
                    )),
                ),
            },
        }
    }

    /// Writes the settings to `path`, creating its folder.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        let json = serde_json::to_vec_pretty(self).map_err(std::io::Error::other)?;
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, json)?;
        std::fs::rename(&tmp, path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_survives_a_bad_file() {
        let dir = std::env::temp_dir().join(format!("rl-settings-{}", std::process::id()));
        let path = dir.join("app.json");
        let s = Settings {
            lang: Lang::Ja,
            camera: Some(2),
            rules: "wrc".into(),
            ..Settings::default()
        };
        s.save(&path).unwrap();
        assert_eq!(Settings::load(Some(&path)), (s, None));
        std::fs::write(&path, b"{not json").unwrap();
        let (loaded, note) = Settings::load(Some(&path));
        assert_eq!(loaded, Settings::default());
        assert!(note.unwrap().contains("using defaults"));
        std::fs::write(&path, br#"{"lang": "ja"}"#).unwrap();
        assert_eq!(Settings::load(Some(&path)).0.lang, Lang::Ja);
        let _ = std::fs::remove_dir_all(dir);
    }
}
