//! The overlay page in headless Chromium (Debian's `chromium`): screenshots of the demo state
//! and of a state with every kind of meld, an uncertain tile, a double yakuman and a source
//! error, in English and Japanese. Checks the background is transparent and the panels are
//! drawn; the PNGs are left in the test's temporary folder (printed) to be looked at.
//! Fails with a message naming the fix where Chromium is not installed (`scripts/setup.sh`).

use riichi_lens::jsonl::Request;
use riichi_lens::overlay::state::{HandView, ScoreView, SourceStatus, Status};
use riichi_lens::overlay::{self, source, Hub, State};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

fn chromium() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("CHROMIUM").map(PathBuf::from),
        Some(PathBuf::from("/usr/bin/chromium")),
        Some(PathBuf::from("/usr/bin/chromium-browser")),
    ];
    candidates.into_iter().flatten().find(|p| p.is_file())
}

fn screenshot(chromium: &Path, url: &str, out: &Path) {
    let profile = out.with_extension("profile");
    let _ = std::fs::remove_dir_all(&profile);
    let status = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=1280,400",
            "--default-background-color=00000000",
            "--timeout=3000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("--screenshot={}", out.display()))
        .arg(url)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .expect("chromium runs");
    assert!(status.success(), "chromium failed on {url}");
    let _ = std::fs::remove_dir_all(&profile);
}

/// Alpha of a pixel, and how many pixels are opaque.
fn inspect(png: &Path) -> (image::RgbaImage, usize) {
    let image = image::open(png).expect("a PNG").to_rgba8();
    let opaque = image.pixels().filter(|p| p.0[3] > 200).count();
    (image, opaque)
}

fn variety() -> State {
    let mut hand = HandView::from_notation("123m55p [3*45s] {7*777p} [99*9s]", "4z", false, true)
        .expect("valid notation");
    hand.concealed[1].uncertain = true;
    let kokushi = Request {
        hand: "19m19p19s12345677z".into(),
        win: Some("7z".into()),
        rules: serde_json::json!("mahjongsoul"),
        ..Request::default()
    };
    State {
        source: SourceStatus::new(
            "images",
            Some("photos/".into()),
            Status::Error,
            Some("model file models/tile_detector.onnx not found".into()),
        ),
        hand: Some(hand),
        score: ScoreView::score(&kokushi).ok(),
        table: source::demo_state().table,
        ..State::default()
    }
}

#[test]
fn the_page_renders_in_headless_chromium() {
    let chromium = chromium().expect(
        "chromium is not installed: run scripts/setup.sh as root, \
         or apt-get install chromium fonts-noto-cjk",
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let hub = Hub::new();
    let server = runtime
        .block_on(overlay::serve(
            "127.0.0.1:0".parse().unwrap(),
            hub.clone(),
            false,
        ))
        .unwrap();
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("overlay-shots");
    std::fs::create_dir_all(&dir).unwrap();
    let base = server.url();

    hub.publish(source::demo_state());
    // Chromium's first start on a fresh machine builds its font cache and can use up the
    // screenshot's time budget before the tile images load: start it once, untimed, first.
    screenshot(&chromium, "about:blank", &dir.join("warm-up.png"));
    let mut shots = Vec::new();
    for (name, query) in [("demo-en", ""), ("demo-ja", "?lang=ja")] {
        let out = dir.join(format!("{name}.png"));
        screenshot(&chromium, &format!("{base}{query}"), &out);
        shots.push(out);
    }
    let (image, opaque) = inspect(&shots[0]);
    assert_eq!((image.width(), image.height()), (1280, 400));
    assert_eq!(image.get_pixel(1279, 399).0[3], 0, "transparent background");
    assert_eq!(image.get_pixel(1200, 20).0[3], 0, "transparent background");
    assert!(
        opaque > 40_000,
        "panels and tiles drawn ({opaque} opaque pixels)"
    );
    // The first tile (2m, about x 22..60, y 17..69): mostly its light face.
    let light = (22..60)
        .flat_map(|x| (20..66).map(move |y| (x, y)))
        .filter(|&(x, y)| image.get_pixel(x, y).0.iter().all(|&c| c > 200))
        .count();
    assert!(
        light > 38 * 46 / 2,
        "the first tile's face ({light} light pixels)"
    );

    // Only the table panel, large.
    let out = dir.join("table-only.png");
    screenshot(&chromium, &format!("{base}?panels=table&size=l"), &out);
    let (_, table_only) = inspect(&out);
    assert!(table_only > 10_000 && table_only < opaque, "{table_only}");
    shots.push(out);

    hub.publish(variety());
    std::thread::sleep(Duration::from_millis(50));
    for (name, query) in [
        ("variety-en", "?size=s"),
        ("variety-ja", "?lang=ja&size=s"),
        ("variety-hand-xl", "?size=xl&panels=hand"),
    ] {
        let out = dir.join(format!("{name}.png"));
        screenshot(&chromium, &format!("{base}{query}"), &out);
        shots.push(out);
    }
    for shot in &shots {
        println!("screenshot: {}", shot.display());
    }
    runtime.block_on(server.shutdown());
}
