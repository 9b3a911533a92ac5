//! The desktop app (`riichi-lens`, `riichi-lens app`): point a camera at a winning hand,
//! capture, confirm the tiles, set the win conditions, read the score.
//!
//! Modules, each owning one part of the window:
//! - [`live`]: the capture and recognizer threads as the UI sees them (newest frame and
//!   reading, stable-hand lock-in, frames per second). Recognition never runs on the UI
//!   thread.
//! - [`live_view`]: the frame with boxes and labels.
//! - [`source_panel`]: choosing the source (camera and resolution, video, image, folder,
//!   bundled samples).
//! - [`hand_editor`]: the confirmed hand as tile images, the correction palette, melds,
//!   dora and ura indicators, the hand in notation.
//! - [`conditions`]: the win-conditions panel and the scoring request.
//! - [`result`]: the score, its breakdown, payments, copy as text.
//! - [`settings`]: what is remembered between runs (camera, resolution, rules, language,
//!   overlay), as JSON in the config folder.
//! - [`i18n`]: English and Japanese labels, and the CJK font.
//! - [`tiles`]: tile textures from the bundled art.
//! - [`overlay_link`]: serving the stream overlay from the app.
//!
//! [`RiichiApp::ui`] draws everything from a plain `egui::Ui`, so UI tests drive it with
//! `egui_kittest` without a window; [`run`] opens the real window with eframe.

pub mod conditions;
pub mod hand_editor;
pub mod i18n;
pub mod live;
pub mod live_view;
pub mod overlay_link;
pub mod result;
pub mod settings;
pub mod source_panel;
pub mod tiles;

use crate::capture::pipeline::Recognized;
use crate::capture::SourceSpec;
use crate::vision::{default_threads, Recognizer, VisionError};
use conditions::Conditions;
pub use eframe::egui;
use hand_editor::{EditableHand, HandEditor};
use i18n::Lang;
use live::{Live, RecognizerState, SourceState};
use settings::Settings;
use source_panel::SourcePanel;
use std::path::PathBuf;
use std::sync::Arc;

/// How the app starts.
#[derive(Clone, Debug, Default)]
pub struct AppOptions {
    /// The source to open; `None`: the remembered camera if present, else the first camera,
    /// else the bundled sample photos.
    pub source: Option<SourceSpec>,
    /// Serve the overlay on this port (overrides the setting for this run).
    pub overlay_port: Option<u16>,
    /// Label language for this run (overrides the setting).
    pub lang: Option<Lang>,
    /// Where settings are kept (`None`: [`settings::settings_path`]).
    pub settings_path: Option<PathBuf>,
    /// Don't look for cameras (tests, and machines where probing devices is unwanted).
    pub no_camera_probe: bool,
}

/// The app.
pub struct RiichiApp {
    live: Live,
    source_panel: SourcePanel,
    pub editor: HandEditor,
    pub conditions: Conditions,
    pub settings: Settings,
    settings_path: Option<PathBuf>,
    saved: Settings,
    /// The frame and reading frozen by Capture; `None` while live.
    pub frozen: Option<Arc<Recognized>>,
    textures: tiles::TileTextures,
    overlay: Option<overlay_link::OverlayLink>,
    overlay_error: Option<String>,
    notice: Option<String>,
    cjk_font: Option<Option<PathBuf>>,
    copied: bool,
    pending_source: Option<SourceSpec>,
    frozen_texture: Option<(Arc<crate::capture::Rgb>, egui::TextureHandle)>,
    /// The window's inner size and since when it has been that size.
    window_seen: Option<([u32; 2], std::time::Instant)>,
}

/// Loads the recognizer with [`default_threads`] per model. Two threads once lost to one here
/// (49–52 against 27–29 ms a 720p frame, benches/app_fps.rs, 2026-11-23) only because ONNX
/// Runtime's pool threads spun after each run and took the core the next run needed; stopped
/// after each run (see [`Recognizer::load`]), two read the same frames in about five sixths of
/// one's time (2026-11-29), and in about three quarters once the detector's thread spun within
/// a run (video and MJPEG sources, README, "The desktop app").
pub fn load_recognizer() -> Result<Recognizer, VisionError> {
    Recognizer::load(&crate::vision::runtime::models_dir()?, default_threads())
}

impl RiichiApp {
    /// Builds the app. The recognizer loads on its own thread; the source opens on the
    /// first frame.
    pub fn new(options: AppOptions) -> RiichiApp {
        RiichiApp::with_recognizer(options, load_recognizer)
    }

    /// Builds the app with a custom recognizer loader (tests: a missing model).
    pub fn with_recognizer(
        options: AppOptions,
        load: impl FnOnce() -> Result<Recognizer, VisionError> + Send + 'static,
    ) -> RiichiApp {
        let settings_path = options
            .settings_path
            .clone()
            .or_else(settings::settings_path);
        let (mut settings, notice) = Settings::load(settings_path.as_deref());
        if let Some(lang) = options.lang {
            settings.lang = lang;
        }
        if let Some(port) = options.overlay_port {
            settings.serve_overlay = true;
            settings.overlay_port = port;
        }
        // Command-line choices are for this run: they are written only along with a change
        // made in the window.
        let saved = settings.clone();
        let cameras = if options.no_camera_probe {
            Err("camera search off".to_string())
        } else {
            source_panel::find_cameras()
        };
        let mut source_panel = SourcePanel::new(cameras);
        let start = options.source.clone().or_else(|| {
            let found = source_panel.cameras.as_ref().ok().filter(|c| !c.is_empty());
            match found {
                Some(list) => {
                    let index = settings
                        .camera
                        .filter(|i| list.iter().any(|c| c.index == *i))
                        .unwrap_or(list[0].index);
                    Some(SourceSpec::Camera {
                        index,
                        resolution: settings.resolution,
                    })
                }
                None => source_panel.samples.clone().map(SourceSpec::Folder),
            }
        });
        if let Some(spec) = &start {
            source_panel.follow(spec);
        }
        RiichiApp {
            live: Live::new(load),
            source_panel,
            editor: HandEditor::default(),
            conditions: Conditions::default(),
            settings,
            settings_path,
            saved,
            frozen: None,
            textures: tiles::TileTextures::default(),
            overlay: None,
            overlay_error: None,
            notice,
            cjk_font: None,
            copied: false,
            pending_source: start,
            frozen_texture: None,
            window_seen: None,
        }
    }

    /// Whether a reading of the current source has arrived (tests wait for it).
    pub fn has_reading(&self) -> bool {
        self.live.has_reading()
    }

    /// Whether a frame of the current source is shown (tests wait for it: the layout shifts
    /// when the first one arrives).
    pub fn has_frame(&self) -> bool {
        self.live.frame.is_some()
    }

    /// The recognizer's state.
    pub fn recognizer_state(&self) -> &RecognizerState {
        &self.live.recognizer
    }

    /// The source's state.
    pub fn source_state(&self) -> &SourceState {
        &self.live.source
    }

    /// The source opened last.
    pub fn source_spec(&self) -> Option<&SourceSpec> {
        self.live.spec.as_ref()
    }

    /// The overlay's address, when it is being served.
    pub fn overlay_url(&self) -> Option<&str> {
        self.overlay.as_ref().map(|o| o.url.as_str())
    }

    /// Freezes the frame: the locked-in reading if there is one, else the newest; its hand
    /// goes to the editor.
    pub fn capture(&mut self) {
        let chosen = self
            .live
            .stable
            .locked()
            .cloned()
            .or_else(|| self.live.latest.clone());
        if let Some(r) = chosen {
            let hand = r.reading.as_ref().ok().and_then(EditableHand::from_reading);
            self.editor.load(hand);
            self.frozen = Some(r);
        }
    }

    /// Back to the live view: the editor follows the locked-in hand again.
    pub fn resume(&mut self) {
        self.frozen = None;
        let locked = self.live.stable.locked().cloned();
        self.editor.load(
            locked
                .as_ref()
                .and_then(|r| r.reading.as_ref().ok())
                .and_then(EditableHand::from_reading),
        );
    }

    /// The scoring request for the confirmed hand, if there is a hand.
    pub fn request(&self) -> Option<crate::jsonl::Request> {
        let hand = self.editor.hand.as_ref()?;
        if hand.concealed.is_empty() {
            return None;
        }
        Some(self.conditions.request(hand, &self.settings.rules))
    }

    fn first_frame(&mut self, ctx: &egui::Context) {
        if self.cjk_font.is_none() {
            // Loaded at start so switching to Japanese needs no restart; egui only rasterizes
            // the glyphs it shows, so the large font costs little until then.
            self.cjk_font = Some(i18n::install_cjk_font(ctx));
        }
        if let Some(spec) = self.pending_source.take() {
            self.live.open(spec);
        }
    }

    /// A file or folder dropped on the window becomes the source (a video by its extension,
    /// else an image; a folder of images).
    fn open_dropped(&mut self, ctx: &egui::Context) {
        let dropped = ctx.input(|i| i.raw.dropped_files.first().map(|f| f.path().to_path_buf()));
        if let Some(path) = dropped {
            let spec = source_panel::spec_for_path(path);
            self.source_panel.follow(&spec);
            self.live.open(spec);
        }
    }

    /// Remembers the window's size once it has stayed the same for a second, so a drag
    /// that resizes it does not write the settings file on every frame.
    fn keep_window_size(&mut self, ctx: &egui::Context) {
        let Some(rect) = ctx.input(|i| i.viewport().inner_rect) else {
            return;
        };
        let size = [rect.width().round() as u32, rect.height().round() as u32];
        let now = std::time::Instant::now();
        match self.window_seen {
            Some((seen, since)) if seen == size => {
                if now.duration_since(since) >= std::time::Duration::from_secs(1) {
                    self.settings.window = Some(size);
                }
            }
            _ => self.window_seen = Some((size, now)),
        }
    }

    fn keep_settings(&mut self) {
        if self.settings == self.saved {
            return;
        }
        self.saved = self.settings.clone();
        if let Some(path) = &self.settings_path {
            if let Err(e) = self.settings.save(path) {
                self.notice = Some(format!("cannot save settings to {}: {e}", path.display()));
            }
        }
    }

    fn keep_overlay(&mut self) {
        match (self.settings.serve_overlay, self.overlay.is_some()) {
            (true, false) if self.overlay_error.is_none() => {
                match overlay_link::OverlayLink::start(self.settings.overlay_port) {
                    Ok(link) => self.overlay = Some(link),
                    Err(e) => self.overlay_error = Some(e),
                }
            }
            (false, _) => {
                self.overlay = None;
                self.overlay_error = None;
            }
            _ => {}
        }
        if let Some(link) = &self.overlay {
            link.show(self.request().as_ref());
        }
    }

    /// Draws the whole window into `ui` (the eframe root, or a kittest harness).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        self.first_frame(&ctx);
        self.live.poll(&ctx);
        if let Some(locked) = self.live.just_locked.take() {
            // While live and untouched, the editor follows the locked-in hand.
            if self.frozen.is_none() && !self.editor.edited {
                let hand = locked
                    .reading
                    .as_ref()
                    .ok()
                    .and_then(EditableHand::from_reading);
                self.editor.load(hand);
            }
        }
        self.open_dropped(&ctx);
        self.keep_window_size(&ctx);
        let typing = ctx.egui_wants_keyboard_input();
        if !typing && ctx.input(|i| i.key_pressed(egui::Key::Space)) {
            if self.frozen.is_some() {
                self.resume();
            } else {
                self.capture();
            }
        }
        let lang = self.settings.lang;

        egui::Panel::top("source").show(ui, |ui| {
            ui.add_space(4.0);
            self.source_panel
                .show(ui, lang, &mut self.live, &mut self.settings);
            ui.add_space(2.0);
        });
        egui::Panel::bottom("status").show(ui, |ui| {
            self.status_bar(ui, lang);
        });
        egui::Panel::right("hand")
            .resizable(true)
            .default_size(520.0)
            .show(ui, |ui| {
                egui::ScrollArea::vertical().show(ui, |ui| {
                    if self.editor.show(ui, lang, &mut self.textures) {
                        // Any correction freezes the frame it belongs to.
                        if self.frozen.is_none() {
                            self.frozen = self
                                .live
                                .stable
                                .locked()
                                .cloned()
                                .or(self.live.latest.clone());
                        }
                        self.copied = false;
                    }
                    ui.separator();
                    let before = self.conditions.clone();
                    self.conditions.show(ui, lang, &mut self.settings.rules);
                    if before != self.conditions {
                        self.copied = false;
                    }
                    ui.separator();
                    let request = self.request();
                    result::show(ui, lang, request.as_ref(), &mut self.copied);
                });
            });
        egui::CentralPanel::default().show(ui, |ui| {
            self.live_panel(ui, lang);
        });
        self.keep_overlay();
        self.keep_settings();
    }

    fn live_panel(&mut self, ui: &mut egui::Ui, lang: Lang) {
        ui.horizontal(|ui| {
            if self.frozen.is_some() {
                ui.label(egui::RichText::new(lang.tr("Frozen")).strong());
                if ui.button(lang.tr("Resume live")).clicked() {
                    self.resume();
                }
            } else {
                let ready = self.live.latest.is_some();
                if ui
                    .add_enabled(
                        ready,
                        egui::Button::new(format!("{} (Space)", lang.tr("Capture"))),
                    )
                    .on_hover_text("Space")
                    .clicked()
                {
                    self.capture();
                }
                let (run, need) = self.live.stable.progress();
                if self.live.stable.locked().is_some() {
                    ui.label(
                        egui::RichText::new(lang.tr("Locked in"))
                            .color(egui::Color32::from_rgb(40, 200, 90)),
                    );
                } else if run > 0 {
                    ui.label(format!("{run}/{need}"));
                }
            }
        });
        let frozen = self.frozen.clone();
        let (frame, reading) = match &frozen {
            Some(r) => (Some(r.frame.clone()), r.reading.as_ref().ok()),
            None => (
                self.live.frame.clone(),
                self.live
                    .latest
                    .as_ref()
                    .and_then(|r| r.reading.as_ref().ok()),
            ),
        };
        let Some(frame) = frame else {
            ui.centered_and_justified(|ui| ui.label(lang.tr("No frame yet")));
            return;
        };
        let size = [frame.image.width, frame.image.height];
        if frozen.is_some() {
            // The frozen frame gets its own texture so the live one can go on updating.
            // Keyed by the frame's own buffer (frame numbers repeat across sources); holding
            // it keeps its address from being reused.
            let texture = match &self.frozen_texture {
                Some((k, t)) if Arc::ptr_eq(k, &frame.image) => t.clone(),
                _ => {
                    let image = egui::ColorImage::from_rgb(
                        [size[0] as usize, size[1] as usize],
                        &frame.image.pixels,
                    );
                    let t = ui
                        .ctx()
                        .load_texture("frozen", image, egui::TextureOptions::LINEAR);
                    self.frozen_texture = Some((frame.image.clone(), t.clone()));
                    t
                }
            };
            live_view::show(ui, &texture, size, reading);
        } else if let Some(texture) = self.live.texture.clone() {
            live_view::show(ui, &texture, size, reading);
        }
    }

    fn status_bar(&mut self, ui: &mut egui::Ui, lang: Lang) {
        ui.horizontal_wrapped(|ui| {
            ui.label(format!("{}:", lang.tr("Recognizer")));
            match &self.live.recognizer {
                RecognizerState::Loading => {
                    ui.label(lang.tr("loading models"));
                }
                RecognizerState::Ready => {
                    ui.label(lang.tr("ready"));
                }
                RecognizerState::Failed(message) => {
                    ui.colored_label(ui.visuals().error_fg_color, message);
                }
            }
            if let Some(spec) = &self.live.spec {
                ui.separator();
                ui.label(spec.describe());
            }
            if self.live.fps > 0.0 {
                ui.separator();
                ui.label(format!("{:.1} fps", self.live.fps));
            }
            if let Some(took) = self.live.mean_took {
                // The recognizer's mean over the last 2 s; with fps it shows the headroom.
                ui.label(format!("{} ms/frame", took.as_millis()));
            }
            ui.separator();
            ui.label(lang.tr("Language"));
            let mut l = self.settings.lang;
            ui.selectable_value(&mut l, Lang::En, "English");
            ui.selectable_value(&mut l, Lang::Ja, "日本語");
            if l != self.settings.lang {
                if l == Lang::Ja && self.cjk_font == Some(None) {
                    self.notice = Some("no CJK font found (install fonts-noto-cjk or set RIICHI_LENS_CJK_FONT); Japanese labels will show as boxes".into());
                }
                self.settings.lang = l;
            }
            ui.separator();
            ui.checkbox(&mut self.settings.serve_overlay, lang.tr("Serve overlay"));
            if let Some(link) = &self.overlay {
                ui.hyperlink_to(link.url.clone(), link.url.clone());
            }
            if let Some(e) = &self.overlay_error {
                ui.colored_label(ui.visuals().error_fg_color, e);
            }
            if let Some(n) = &self.notice {
                ui.separator();
                ui.label(n);
            }
        });
    }
}

impl eframe::App for RiichiApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        RiichiApp::ui(self, ui);
    }
}

/// Why the window could not be opened.
#[derive(Debug, thiserror::Error)]
#[error("cannot open the app's window: {0} (is there a display? under SSH or in CI, run it with xvfb-run)")]
pub struct AppError(String);

/// Opens the window and runs until it is closed.
pub fn run(options: AppOptions) -> Result<(), AppError> {
    let path = options
        .settings_path
        .clone()
        .or_else(settings::settings_path);
    let [w, h] = Settings::load(path.as_deref())
        .0
        .window
        .unwrap_or([1400, 860]);
    let native = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default()
            .with_title("riichi-lens")
            .with_inner_size([w.max(900) as f32, h.max(600) as f32])
            .with_min_inner_size([900.0, 600.0]),
        renderer: eframe::Renderer::Glow,
        ..Default::default()
    };
    eframe::run_native(
        "riichi-lens",
        native,
        Box::new(move |_cc| Ok(Box::new(RiichiApp::new(options)))),
    )
    .map_err(|e| AppError(e.to_string()))
}
