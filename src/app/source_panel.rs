//! The source bar: pick a camera (and its resolution), a video, an image or a folder, or the
//! bundled samples; step through a folder; see the source's state.

use super::i18n::Lang;
use super::live::{Live, SourceState};
use super::settings::Settings;
use crate::capture::{camera, Resolution, SourceSpec};
use eframe::egui;
use std::path::PathBuf;

/// The kinds of source offered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Camera,
    Video,
    Image,
    Folder,
    Samples,
}

/// The source bar's state.
pub struct SourcePanel {
    pub kind: Kind,
    /// The path typed for a video, image or folder.
    pub path: String,
    /// Cameras found by the last look (`Err`: why none could be listed).
    pub cameras: Result<Vec<camera::CameraInfo>, String>,
    pub samples: Option<PathBuf>,
    /// The file picker, while it is open.
    dialog: Option<egui_file::FileDialog>,
}

/// What a dropped path opens as: a folder of images, a video (by the extensions of
/// [`crate::capture::VIDEO_EXTENSIONS`]), or an image. Unlike [`SourceSpec::parse`] it never
/// fails: a file that is neither opens as an image and the source shows why it cannot be read.
pub fn spec_for_path(path: PathBuf) -> SourceSpec {
    if path.is_dir() {
        SourceSpec::Folder(path)
    } else if crate::capture::is_video(&path) {
        SourceSpec::Video(path)
    } else {
        SourceSpec::Image(path)
    }
}

/// The bundled sample photos: `samples/photos` in the current folder, beside the
/// executable's checkout, or in the source checkout.
pub fn samples_dir() -> Option<PathBuf> {
    let mut candidates = Vec::new();
    if let Ok(cwd) = std::env::current_dir() {
        candidates.push(cwd.join("samples/photos"));
    }
    if let Some(dir) = std::env::current_exe()
        .ok()
        .and_then(|e| e.parent().map(|p| p.to_path_buf()))
    {
        candidates.push(dir.join("samples/photos"));
        candidates.push(dir.join("../../samples/photos"));
    }
    candidates.push(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("samples/photos"));
    candidates.into_iter().find(|p| p.is_dir())
}

/// Lists the cameras, as a result the UI can show.
pub fn find_cameras() -> Result<Vec<camera::CameraInfo>, String> {
    camera::list().map_err(|e| e.to_string())
}

impl SourcePanel {
    pub fn new(cameras: Result<Vec<camera::CameraInfo>, String>) -> SourcePanel {
        SourcePanel {
            kind: Kind::Samples,
            path: String::new(),
            cameras,
            samples: samples_dir(),
            dialog: None,
        }
    }

    /// Follows the source actually opened (from the command line or the start-up choice).
    pub fn follow(&mut self, spec: &SourceSpec) {
        let path = |p: &std::path::Path| p.display().to_string();
        match spec {
            SourceSpec::Camera { .. } => self.kind = Kind::Camera,
            SourceSpec::Video(p) => (self.kind, self.path) = (Kind::Video, path(p)),
            SourceSpec::Image(p) => (self.kind, self.path) = (Kind::Image, path(p)),
            SourceSpec::Folder(p) if Some(p) == self.samples.as_ref() => self.kind = Kind::Samples,
            SourceSpec::Folder(p) => (self.kind, self.path) = (Kind::Folder, path(p)),
        }
    }

    /// Draws the bar; opens a source on the live pipeline when asked.
    pub fn show(
        &mut self,
        ui: &mut egui::Ui,
        lang: Lang,
        live: &mut Live,
        settings: &mut Settings,
    ) {
        ui.horizontal_wrapped(|ui| {
            ui.label(egui::RichText::new(lang.tr("Source")).strong());
            for (kind, name) in [
                (Kind::Camera, "Camera"),
                (Kind::Video, "Video"),
                (Kind::Image, "Image"),
                (Kind::Folder, "Folder"),
                (Kind::Samples, "Samples"),
            ] {
                ui.selectable_value(&mut self.kind, kind, lang.tr(name));
            }
            ui.separator();
            match self.kind {
                Kind::Camera => self.camera_controls(ui, lang, live, settings),
                Kind::Samples => {
                    if ui.button(lang.tr("Open")).clicked() {
                        match &self.samples {
                            Some(dir) => live.open(SourceSpec::Folder(dir.clone())),
                            None => live.open(SourceSpec::Folder("samples/photos".into())),
                        }
                    }
                }
                _ => {
                    let field = ui.add(
                        egui::TextEdit::singleline(&mut self.path)
                            .desired_width(320.0)
                            .hint_text(match self.kind {
                                Kind::Video => "clip.mp4",
                                Kind::Image => "hand.jpg",
                                _ => "photos/",
                            }),
                    );
                    let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
                    let field_label = ui.button(lang.tr("Open"));
                    field.labelled_by(field_label.id);
                    if ui.button(lang.tr("Browse…")).clicked() {
                        self.open_dialog(lang);
                    }
                    if field_label.clicked() || enter {
                        live.open(self.typed_spec());
                    }
                }
            }
            if let Some(pos) = live.folder_position() {
                ui.separator();
                if ui
                    .button("<")
                    .on_hover_text(lang.tr("Previous image"))
                    .clicked()
                {
                    live.step_folder(-1);
                }
                ui.label(pos);
                if ui
                    .button(">")
                    .on_hover_text(lang.tr("Next image"))
                    .clicked()
                {
                    live.step_folder(1);
                }
            }
        });
        if let Some(dialog) = &mut self.dialog {
            let picked = dialog
                .show(ui.ctx())
                .selected()
                .then(|| dialog.path().map(|p| p.display().to_string()))
                .flatten();
            if !dialog.visible() {
                self.dialog = None;
            }
            if let Some(path) = picked {
                self.path = path;
                live.open(self.typed_spec());
            }
        }
        match &live.source {
            SourceState::Failed(message) => {
                ui.colored_label(ui.visuals().error_fg_color, message);
            }
            SourceState::Ended if matches!(live.spec, Some(SourceSpec::Video(_))) => {
                ui.label(lang.tr("The video has ended; Open plays it again."));
            }
            SourceState::Opening => {
                ui.label(format!(
                    "{} …",
                    live.spec
                        .as_ref()
                        .map(SourceSpec::describe)
                        .unwrap_or_default()
                ));
            }
            _ => {}
        }
    }

    /// The source the path field names, as the selected kind.
    fn typed_spec(&self) -> SourceSpec {
        let path = PathBuf::from(self.path.trim());
        match self.kind {
            Kind::Video => SourceSpec::Video(path),
            Kind::Image => SourceSpec::Image(path),
            _ => SourceSpec::Folder(path),
        }
    }

    /// Opens the file picker for the selected kind, starting beside the path typed so far.
    fn open_dialog(&mut self, lang: Lang) {
        let mut dialog = match self.kind {
            Kind::Folder => egui_file::FileDialog::select_folder(),
            _ => egui_file::FileDialog::open_file(),
        }
        .title(lang.tr(match self.kind {
            Kind::Video => "Open a video",
            Kind::Image => "Open an image",
            _ => "Open a folder of images",
        }))
        .show_new_folder(false)
        .show_rename(false);
        let typed = PathBuf::from(self.path.trim());
        let start = if typed.is_dir() {
            Some(typed)
        } else {
            typed
                .parent()
                .filter(|p| p.is_dir())
                .map(|p| p.to_path_buf())
        };
        if let Some(dir) = start.or_else(|| self.samples.clone()) {
            dialog = dialog.initial_path(dir);
        }
        dialog.open();
        self.dialog = Some(dialog);
    }

    fn camera_controls(
        &mut self,
        ui: &mut egui::Ui,
        lang: Lang,
        live: &mut Live,
        settings: &mut Settings,
    ) {
        match &self.cameras {
            Ok(list) if !list.is_empty() => {
                let current = settings.camera.unwrap_or(list[0].index);
                let name = list
                    .iter()
                    .find(|c| c.index == current)
                    .map(|c| format!("{}: {}", c.index, c.name))
                    .unwrap_or_else(|| current.to_string());
                let mut chosen = current;
                egui::ComboBox::from_id_salt("camera")
                    .selected_text(name)
                    .show_ui(ui, |ui| {
                        for c in list {
                            ui.selectable_value(
                                &mut chosen,
                                c.index,
                                format!("{}: {}", c.index, c.name),
                            );
                        }
                    });
                settings.camera = Some(chosen);
                let res_text = settings
                    .resolution
                    .map(|r| r.to_string())
                    .unwrap_or_else(|| lang.tr("default").into());
                ui.label(lang.tr("Resolution"));
                egui::ComboBox::from_id_salt("resolution")
                    .selected_text(res_text)
                    .show_ui(ui, |ui| {
                        ui.selectable_value(&mut settings.resolution, None, lang.tr("default"));
                        for r in Resolution::COMMON {
                            ui.selectable_value(&mut settings.resolution, Some(r), r.to_string());
                        }
                    });
                if ui.button(lang.tr("Open")).clicked() {
                    live.open(SourceSpec::Camera {
                        index: chosen,
                        resolution: settings.resolution,
                    });
                }
            }
            Ok(_) => {
                ui.label("no camera found");
            }
            Err(e) => {
                ui.label(e.as_str());
            }
        }
        if ui.button(lang.tr("Refresh")).clicked() {
            self.cameras = find_cameras();
        }
    }
}
