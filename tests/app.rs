//! The desktop app's UI driven through egui_kittest (no window, no GPU): the real
//! `RiichiApp::ui` with the real recognizer on a bundled sample photo.

mod common;

use common::video::still_clip;
use egui_kittest::kittest::Queryable;
use egui_kittest::Harness;
use riichi_lens::app::egui;
use riichi_lens::app::i18n::Lang;
use riichi_lens::app::live::RecognizerState;
use riichi_lens::app::{AppOptions, RiichiApp};
use riichi_lens::capture::SourceSpec;
use riichi_lens::vision::Recognizer;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const SAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/photos");

fn config_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("rl-app-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn options(source: SourceSpec, config: &Path) -> AppOptions {
    AppOptions {
        source: Some(source),
        settings_path: Some(config.join("app.json")),
        no_camera_probe: true,
        ..AppOptions::default()
    }
}

/// The bundled photo most tests read.
fn pinfu() -> PathBuf {
    Path::new(SAMPLES).join("01-pinfu.jpg")
}

/// The app on [`pinfu`], its first reading made.
fn app_on_pinfu(config: &Path) -> Harness<'static, RiichiApp> {
    let mut h = harness(RiichiApp::new(options(SourceSpec::Image(pinfu()), config)));
    step_until(&mut h, "the first reading", RiichiApp::has_reading);
    h
}

fn harness(app: RiichiApp) -> Harness<'static, RiichiApp> {
    let builder = Harness::builder().with_size([1400.0, 900.0]);
    // Without a CJK font (scripts/setup.sh installs one) the "日本語" label has no glyphs.
    let has_cjk = riichi_lens::app::i18n::cjk_font_candidates()
        .iter()
        .any(|p| p.is_file());
    let builder = if has_cjk {
        builder
    } else {
        builder.allow_missing_glyphs()
    };
    builder.build_ui_state(|ui, app: &mut RiichiApp| app.ui(ui), app)
}

/// Steps the UI until `done` (the recognizer runs on its own thread, in real time).
fn step_until(h: &mut Harness<'_, RiichiApp>, what: &str, done: impl Fn(&RiichiApp) -> bool) {
    let start = Instant::now();
    while !done(h.state()) {
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "timed out waiting for {what}"
        );
        std::thread::sleep(Duration::from_millis(20));
        h.step();
    }
    h.run_steps(3);
}

#[test]
fn capture_correct_a_tile_toggle_tsumo_and_read_the_score() {
    let config = config_dir("flow");
    let mut h = app_on_pinfu(&config);
    assert_eq!(h.state().recognizer_state(), &RecognizerState::Ready);

    h.get_by_label("Capture (Space)").click();
    h.run_steps(3);
    assert!(h.state().frozen.is_some());
    // The hand read from the photo, as tile images, the winning 5p last.
    let hand = h.state().editor.hand.clone().expect("a hand");
    assert_eq!(hand.notation(), "56778889m345675p");
    h.get_by_label("Hand tile 14: 5p");
    h.get_by_label("Dora indicator 1: 6p");
    // Ron, dealer, pinfu + dora: 2 han 30 fu.
    h.get_by_label("2,900 points");
    h.get_by_label("2 han 30 fu");
    h.get_by_label("Ron 2,900");

    // Correct the 9m to a 6m through the palette: now tanyao too.
    h.get_by_label("Hand tile 8: 9m").click();
    h.run_steps(3);
    h.get_by_label("Palette 6m").click();
    h.run_steps(3);
    assert!(
        h.query_by_label("Palette 6m").is_none(),
        "the palette closes"
    );
    h.get_by_label("Hand tile 8: 6m");
    h.get_by_label("5,800 points");

    // Tsumo: pinfu tsumo, menzen tsumo, tanyao, dora, 4 han 20 fu, 2,600 from each.
    h.get_by_label("Tsumo").click();
    h.run_steps(3);
    h.get_by_label("7,800 points");
    h.get_by_label("Tsumo 2,600 all");
    h.get_by_label("4 han 20 fu");
    h.get_by_label("Menzen tsumo");
    h.get_by_label("Tanyao");
    let request = h.state().request().unwrap();
    assert_eq!(request.hand, "56778886m345675p");
    assert!(request.tsumo);

    // Copy as text puts the result on the clipboard.
    // The button is at the bottom of the scrolling side panel.
    h.get_by_label("Copy as text").scroll_to_me();
    h.run_steps(3);
    h.get_by_label("Copy as text").click();
    let mut copied: Vec<String> = Vec::new();
    for _ in 0..4 {
        h.step();
        copied.extend(
            h.output()
                .platform_output
                .commands
                .iter()
                .filter_map(|c| match c {
                    egui::OutputCommand::CopyText(text) => Some(text.clone()),
                    _ => None,
                }),
        );
    }
    assert_eq!(copied.len(), 1, "{copied:?}");
    let text = &copied[0];
    assert!(
        text.starts_with("Hand: 56778886m345675p (Winning tile 5p, Tsumo)"),
        "{text}"
    );
    assert!(text.contains("7,800 points — 4 han 20 fu"), "{text}");
    assert!(text.contains("Tsumo 2,600 all"), "{text}");
    assert!(text.contains("  Tanyao 1"), "{text}");
    h.run_steps(2);
    h.get_by_label("Copied");
    let _ = std::fs::remove_dir_all(config);
}

#[test]
fn space_freezes_and_the_editor_takes_notation() {
    let config = config_dir("space");
    let mut h = app_on_pinfu(&config);
    h.key_press(egui::Key::Space);
    h.run_steps(3);
    assert!(h.state().frozen.is_some(), "space captures");
    h.get_by_label("Resume live").click();
    h.run_steps(3);
    assert!(h.state().frozen.is_none());
    // Seat South and one honba: non-dealer ron 2,000 + 300.
    h.get_by_label("Seat S").click();
    h.run_steps(2);
    h.get_by_label("Honba +").click();
    h.run_steps(2);
    assert_eq!(h.state().conditions.honba, 1);
    h.get_by_label("2,300 points");
    let _ = std::fs::remove_dir_all(config);
}

#[test]
fn japanese_labels_and_settings_are_kept() {
    let config = config_dir("ja");
    let photo = pinfu();
    let mut h = harness(RiichiApp::new(options(
        SourceSpec::Image(photo.clone()),
        &config,
    )));
    step_until(&mut h, "the first reading", RiichiApp::has_reading);
    h.get_by_label("日本語").click();
    h.run_steps(3);
    h.get_by_label("キャプチャ (Space)").click();
    h.run_steps(3);
    h.get_by_label("2,900点");
    h.get_by_label("ツモ").click();
    h.run_steps(3);
    h.get_by_label("3,900点");
    h.get_by_label("門前清自摸和");
    drop(h);
    // The language was saved and a new app starts in Japanese.
    let saved = std::fs::read_to_string(config.join("app.json")).unwrap();
    assert!(saved.contains(r#""lang": "ja""#), "{saved}");
    let app = RiichiApp::new(options(SourceSpec::Image(photo), &config));
    assert_eq!(app.settings.lang, Lang::Ja);
    let _ = std::fs::remove_dir_all(config);
}

#[test]
fn a_missing_model_is_a_message_and_the_hand_can_be_typed() {
    let config = config_dir("nomodel");
    let photo = pinfu();
    let app = RiichiApp::with_recognizer(options(SourceSpec::Image(photo), &config), || {
        Recognizer::load(Path::new("/nonexistent/models"), 1)
    });
    let mut h = harness(app);
    step_until(&mut h, "the load failure", |a| {
        matches!(a.recognizer_state(), RecognizerState::Failed(_))
    });
    h.get_by_label_contains("tile_detector.onnx not found");
    // The frame is still shown, and a hand can be typed in notation and scored. (Its arrival
    // moves the editor down: a click before it could miss the notation field.)
    step_until(&mut h, "the frame", RiichiApp::has_frame);
    assert!(h.state().editor.hand.is_none());
    h.get_by_label("Notation").click();
    h.run_steps(1);
    // Typed a tile short, the editor offers the one tile that completes it.
    h.get_by_label("Notation").type_text("123m456p789s3334z");
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    h.get_by_label("One tile short: which is the winning tile?");
    assert_eq!(h.query_all_by_label_contains("Complete with").count(), 1);
    h.get_by_label("Complete with 4z").click();
    h.run_steps(3);
    assert!(h
        .query_by_label("One tile short: which is the winning tile?")
        .is_none());
    assert_eq!(
        h.state().editor.hand.as_ref().map(|x| x.notation()),
        Some("123m456p789s33344z".to_string())
    );
    // No yaku by ron without riichi: a message, not a crash.
    h.get_by_label_contains("no yaku");
    h.get_by_label("Riichi").click();
    h.run_steps(3);
    h.get_by_label("2,000 points");
    let _ = std::fs::remove_dir_all(config);
}

#[test]
fn a_folder_is_stepped_through() {
    let config = config_dir("folder");
    let mut h = harness(RiichiApp::new(options(
        SourceSpec::Folder(SAMPLES.into()),
        &config,
    )));
    step_until(&mut h, "the first reading", RiichiApp::has_reading);
    h.get_by_label("1/3");
    h.get_by_label(">").click();
    h.run_steps(2);
    h.get_by_label("2/3");
    step_until(&mut h, "the second image's hand", |a| {
        a.editor
            .hand
            .as_ref()
            .is_some_and(|hand| hand.melds.len() == 1)
    });
    // 02-closed-kan.jpg: dora and red fives only, so no yaku by a plain ron; riichi makes it
    // a haneman (riichi, 4 dora, 2 red fives).
    h.get_by_label_contains("no yaku");
    h.get_by_label("Riichi").click();
    h.run_steps(3);
    h.get_by_label("18,000 points");
    h.get_by_label("7 han 60 fu, Haneman");
    // The closed kan is drawn as it lies on the table: its outer tiles face down.
    assert_eq!(h.query_all_by_label_contains("(face down)").count(), 2);
    let _ = std::fs::remove_dir_all(config);
}

/// A plain HTTP/1.1 GET on 127.0.0.1 (the overlay server), returning the body.
fn http_get(url_base: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let addr = url_base
        .trim_start_matches("http://")
        .split('/')
        .next()
        .unwrap()
        .to_string();
    let mut stream = std::net::TcpStream::connect(&addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
        .split_once("\r\n\r\n")
        .map(|(_, body)| body.to_string())
        .unwrap_or_default()
}

#[test]
fn the_app_serves_the_overlay_with_its_confirmed_hand() {
    let config = config_dir("overlay");
    let photo = pinfu();
    let mut opts = options(SourceSpec::Image(photo), &config);
    opts.overlay_port = Some(0);
    let mut h = harness(RiichiApp::new(opts));
    step_until(&mut h, "the first reading", RiichiApp::has_reading);
    h.get_by_label("Tsumo").click();
    h.run_steps(3);
    let url = h.state().overlay_url().expect("serving").to_string();
    assert!(url.starts_with("http://127.0.0.1:"), "{url}");
    let state: serde_json::Value =
        serde_json::from_str(&http_get(&url, "/api/state")).expect("JSON state");
    assert_eq!(state["source"]["kind"], "app");
    assert_eq!(state["hand"]["notation"], "56778889m345675p");
    assert_eq!(state["score"]["points"]["total"], 3900);
    assert!(http_get(&url, "/overlay").contains("<html"));
    let _ = std::fs::remove_dir_all(config);
}

#[test]
fn a_missing_camera_is_a_message_and_the_app_goes_on() {
    let config = config_dir("camera");
    let mut h = harness(RiichiApp::new(options(
        SourceSpec::Camera {
            index: 97,
            resolution: None,
        },
        &config,
    )));
    step_until(&mut h, "the camera failure", |a| {
        matches!(
            a.source_state(),
            riichi_lens::app::live::SourceState::Failed(_)
        )
    });
    let found = h.query_by_label_contains("no camera found").is_some()
        || h.query_by_label_contains("camera 97 not found").is_some();
    assert!(found, "the reason is shown");
    // The rest of the app works: open a photo instead.
    h.get_by_label("Samples").click();
    h.run_steps(2);
    h.get_by_label("Open").click();
    step_until(&mut h, "a reading of the samples", RiichiApp::has_reading);
    h.get_by_label("1/3");
    let _ = std::fs::remove_dir_all(config);
}

#[test]
fn with_no_camera_and_no_source_the_samples_open() {
    let config = config_dir("default");
    let app = RiichiApp::new(AppOptions {
        source: None,
        settings_path: Some(config.join("app.json")),
        // As on a machine without cameras: the camera search finds none.
        no_camera_probe: true,
        ..AppOptions::default()
    });
    let mut h = harness(app);
    step_until(&mut h, "a reading of the samples", RiichiApp::has_reading);
    h.get_by_label("1/3");
    h.get_by_label("2,900 points");
    let _ = std::fs::remove_dir_all(config);
}

#[test]
fn a_video_plays_locks_in_its_hand_and_ends() {
    let config = config_dir("video");
    std::fs::create_dir_all(&config).unwrap();
    let clip = config.join("hand.mp4");
    let photo = pinfu();
    still_clip(&photo, &clip, 2, 10, None);
    let mut h = harness(RiichiApp::new(options(SourceSpec::Video(clip), &config)));
    // A live source locks in after 3 equal readings; the editor follows the locked hand.
    step_until(&mut h, "the locked-in hand", |a| a.editor.hand.is_some());
    h.get_by_label("Locked in");
    h.get_by_label("2,900 points");
    step_until(&mut h, "the end of the video", |a| {
        *a.source_state() == riichi_lens::app::live::SourceState::Ended
    });
    h.get_by_label("The video has ended; Open plays it again.");
    // The last frame and the hand stay.
    h.get_by_label("2,900 points");
    let _ = std::fs::remove_dir_all(config);
}

#[test]
fn escape_right_click_and_typed_melds() {
    let config = config_dir("keys");
    let mut h = app_on_pinfu(&config);
    h.get_by_label("Capture (Space)").click();
    h.run_steps(3);
    // Escape closes the palette without a change.
    h.get_by_label("Hand tile 1: 5m").click();
    h.run_steps(2);
    h.get_by_label("Palette 1m");
    h.key_press(egui::Key::Escape);
    h.run_steps(2);
    assert!(h.query_by_label("Palette 1m").is_none());
    h.get_by_label("Hand tile 1: 5m");
    // Right-click: make the 9m the winning tile (it moves to the end).
    h.get_by_label("Hand tile 8: 9m").click_secondary();
    h.run_steps(2);
    h.get_by_label("Make it the winning tile").click();
    h.run_steps(3);
    assert_eq!(
        h.state().editor.hand.as_ref().unwrap().notation(),
        "5677888m345675p9m"
    );
    h.get_by_label("Hand tile 14: 9m");
    // A meld typed in notation, applied with Enter.
    h.get_by_label("Add meld").click();
    h.run_steps(1);
    h.get_by_label("Add meld").type_text("[7*89s]");
    h.run_steps(1);
    h.key_press(egui::Key::Enter);
    h.run_steps(3);
    let hand = h.state().editor.hand.clone().unwrap();
    assert_eq!(hand.notation(), "5677888m345675p9m [7*89s]");
    h.get_by_label("Meld 1 tile 1: 7s (called)");
    let _ = std::fs::remove_dir_all(config);
}

/// A file dropped on the window, as the windowing layer hands it over.
#[derive(Debug)]
struct Dropped(PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &Path {
        &self.0
    }
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn a_dropped_photo_or_folder_becomes_the_source() {
    let config = config_dir("drop");
    let mut h = app_on_pinfu(&config);
    let tilted = Path::new(SAMPLES).join("03-tilted.jpg");
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(tilted.clone())));
    h.run_steps(2);
    assert_eq!(h.state().source_spec(), Some(&SourceSpec::Image(tilted)));
    step_until(&mut h, "the dropped photo's hand", |a| {
        a.editor
            .hand
            .as_ref()
            .is_some_and(|hand| hand.notation() == "456m22678p123340s")
    });
    h.get_by_label("5,800 points");
    h.input_mut()
        .dropped_files
        .push(std::sync::Arc::new(Dropped(SAMPLES.into())));
    h.run_steps(2);
    assert_eq!(
        h.state().source_spec(),
        Some(&SourceSpec::Folder(SAMPLES.into()))
    );
    step_until(&mut h, "the folder's first reading", RiichiApp::has_reading);
    h.get_by_label("1/3");
    let _ = std::fs::remove_dir_all(config);
}

#[test]
fn browse_picks_an_image_with_the_file_dialog() {
    let config = config_dir("browse");
    let mut h = app_on_pinfu(&config);
    h.get_by_label("Image").click();
    h.run_steps(2);
    h.get_by_label("Browse…").click();
    h.run_steps(3);
    // The picker starts in the folder of the path typed (the first photo's).
    h.get_by_label_contains("Open an image");
    h.get_by_label_contains("03-tilted.jpg").click();
    h.run_steps(2);
    // The picker's own Open button is the last one drawn.
    h.query_all_by_label("Open")
        .last()
        .expect("the picker's Open button")
        .click();
    h.run_steps(3);
    let tilted = Path::new(SAMPLES).join("03-tilted.jpg");
    assert_eq!(h.state().source_spec(), Some(&SourceSpec::Image(tilted)));
    assert!(
        h.query_by_label_contains("Open an image").is_none(),
        "closed"
    );
    let _ = std::fs::remove_dir_all(config);
}

#[test]
fn the_window_size_is_remembered() {
    let config = config_dir("window");
    let photo = pinfu();
    let mut h = harness(RiichiApp::new(options(SourceSpec::Image(photo), &config)));
    let viewport = h
        .input_mut()
        .viewports
        .get_mut(&egui::ViewportId::ROOT)
        .expect("the root viewport");
    viewport.inner_rect = Some(egui::Rect::from_min_size(
        egui::pos2(0.0, 0.0),
        egui::vec2(1111.0, 777.0),
    ));
    // Kept only once the size has held for a second.
    h.run_steps(2);
    assert_eq!(h.state().settings.window, None);
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(1100) {
        std::thread::sleep(Duration::from_millis(50));
        h.step();
    }
    h.run_steps(2);
    assert_eq!(h.state().settings.window, Some([1111, 777]));
    drop(h);
    let saved = std::fs::read_to_string(config.join("app.json")).unwrap();
    let saved: serde_json::Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(saved["window"], serde_json::json!([1111, 777]));
    let _ = std::fs::remove_dir_all(config);
}
