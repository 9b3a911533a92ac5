//! Starts the real `riichi-lens` binary under Xvfb (a virtual X display; scripts/setup.sh
//! installs it, with Mesa's software OpenGL) on a sample photo, takes screenshots with
//! ffmpeg's x11grab until the window shows the photo and the UI, and checks that it did.
//! The last screenshot is kept in the target folder (`app_smoke.png`) for a look.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const SIZE: (u32, u32) = (1400, 860);

/// Kills and reaps the child when dropped, so a failing assertion leaves no processes.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// An X server stopped with SIGTERM when dropped: SIGKILL would leave its `/tmp/.X{n}-lock`
/// behind, and after enough runs on one machine every display looked taken.
struct XServer(Child);

impl Drop for XServer {
    fn drop(&mut self) {
        let terminated = Command::new("kill")
            .args(["-TERM", &self.0.id().to_string()])
            .status()
            .is_ok_and(|s| s.success());
        if !terminated {
            let _ = self.0.kill();
        }
        let _ = self.0.wait();
    }
}

fn tool(name: &str) -> PathBuf {
    for dir in std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .unwrap_or_default()
    {
        let candidate = dir.join(name);
        if candidate.is_file() {
            return candidate;
        }
    }
    panic!("{name} is not installed: run scripts/setup.sh (it installs xvfb and ffmpeg)");
}

/// Starts Xvfb on a display it picks itself (`-displayfd`): the server skips displays in
/// use and clears lock files whose server has gone, which a fixed range cannot.
fn start_xvfb() -> (XServer, String) {
    let screen = format!("{}x{}x24", SIZE.0, SIZE.1);
    let errors = std::env::temp_dir().join(format!("rl-smoke-xvfb-{}.log", std::process::id()));
    let mut child = Command::new(tool("Xvfb"))
        .args([
            "-displayfd",
            "1",
            "-screen",
            "0",
            &screen,
            "-nolisten",
            "tcp",
        ])
        .stdout(Stdio::piped())
        .stderr(std::fs::File::create(&errors).unwrap())
        .spawn()
        .expect("start Xvfb");
    let stdout = child.stdout.take().expect("Xvfb's stdout is piped");
    let server = XServer(child);
    // Xvfb writes the display number once it accepts connections, and closes the pipe if it
    // dies first; the thread keeps a hung server from hanging the test.
    let (sender, receiver) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut line = String::new();
        let _ = std::io::BufRead::read_line(&mut std::io::BufReader::new(stdout), &mut line);
        let _ = sender.send(line);
    });
    let line = receiver
        .recv_timeout(Duration::from_secs(30))
        .unwrap_or_default();
    let number = line.trim();
    assert!(
        !number.is_empty() && number.bytes().all(|b| b.is_ascii_digit()),
        "Xvfb gave no display number ({line:?}): {}",
        std::fs::read_to_string(&errors).unwrap_or_default()
    );
    let _ = std::fs::remove_file(errors);
    (server, format!(":{number}"))
}

fn screenshot(display: &str, out: &Path) -> Option<image::RgbImage> {
    let status = Command::new(tool("ffmpeg"))
        .args(["-nostdin", "-loglevel", "error", "-y", "-f", "x11grab"])
        .args(["-video_size", &format!("{}x{}", SIZE.0, SIZE.1)])
        .args(["-i", display, "-frames:v", "1"])
        .arg(out)
        .status()
        .ok()?;
    if !status.success() {
        return None;
    }
    image::open(out).ok().map(|i| i.to_rgb8())
}

fn distinct_colors(image: &image::RgbImage) -> usize {
    let mut seen = std::collections::HashSet::new();
    for p in image.pixels() {
        seen.insert(p.0);
    }
    seen.len()
}

/// Pixels with a strong hue in a band of the right-hand panel: the UI there is grey text on
/// grey (0 such pixels measured), the tile art is red, blue and green (~2,900 measured).
fn colourful_pixels(image: &image::RgbImage, x0: u32, y0: u32, h: u32) -> usize {
    let mut n = 0;
    for y in y0..(y0 + h).min(image.height()) {
        for x in x0..image.width() {
            let p = image.get_pixel(x, y).0;
            let (max, min) = (p.iter().max().unwrap_or(&0), p.iter().min().unwrap_or(&0));
            if max - min > 40 {
                n += 1;
            }
        }
    }
    n
}

#[test]
fn the_app_opens_a_window_showing_the_photo_and_the_hand_read() {
    let (_xvfb, display) = start_xvfb();
    let config = std::env::temp_dir().join(format!("rl-smoke-{}", std::process::id()));
    let photo = concat!(env!("CARGO_MANIFEST_DIR"), "/samples/photos/01-pinfu.jpg");
    let log = std::env::temp_dir().join(format!("rl-smoke-{}.log", std::process::id()));
    let app = Command::new(env!("CARGO_BIN_EXE_riichi-lens"))
        .args(["app", "--source", photo])
        .env("DISPLAY", &display)
        .env("RIICHI_LENS_CONFIG_DIR", &config)
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .expect("start the app");
    let mut app = Reaped(app);
    let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("app_smoke.png");
    // An empty X screen is one colour; the window with the photo has thousands. The hand's
    // tile images appear at the top of the right-hand panel once the photo has been read;
    // before that the panel holds grey text. Wait for both (startup, model loading and the
    // first reading take a few seconds on a slow machine).
    let start = Instant::now();
    let (mut colors, mut hand_colors) = (0, 0);
    while start.elapsed() < Duration::from_secs(90) {
        if let Ok(Some(status)) = app.0.try_wait() {
            panic!(
                "the app exited with {status}: {}",
                std::fs::read_to_string(&log).unwrap_or_default()
            );
        }
        if let Some(image) = screenshot(&display, &shot) {
            assert_eq!(image.dimensions(), SIZE);
            colors = distinct_colors(&image);
            hand_colors = colourful_pixels(&image, SIZE.0 - 480, 60, 60);
            if colors > 5000 && hand_colors > 500 {
                break;
            }
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    let log_text = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(
        colors > 5000,
        "the screen stayed (nearly) blank: {colors} colours; log: {log_text}"
    );
    assert!(
        hand_colors > 500,
        "no tile images where the hand is shown: {hand_colors} colourful pixels; log: {log_text}"
    );
    // Still running after the screenshot: nothing crashed on the way.
    assert!(app.0.try_wait().unwrap().is_none());
    let _ = std::fs::remove_dir_all(config);
    let _ = std::fs::remove_file(log);
}
