//! Where the overlay's state comes from in headless mode (`riichi-lens overlay`): photos
//! recognized on a dedicated thread, the tracked game's table read from its database, or
//! the fixed demo state. Each producer only calls [`Hub::update`], which never waits for
//! the web clients.

use super::hub::Hub;
use super::state::{HandView, Problem, ScoreView, SourceStatus, State, Status, TableView};
use crate::capture::is_image;
use crate::capture::pipeline::{Capture, CaptureEvent, Stable, Worker, WorkerEvent};
use crate::capture::{CaptureError, OpenOptions, SourceSpec};
use crate::jsonl::Request;
use crate::table::{Event, Game, HandPoints, Preset, Rules as TableRules, Seat, Store};
use crate::vision::picture::Rgb;
use crate::vision::{PhotoReading, Recognizer};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime};
use thiserror::Error;

/// What `--source` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// One photo (re-read when it changes) or a folder of photos (shown in turn).
    Images(PathBuf),
    /// A webcam by index, read through the capture module.
    Camera(u32),
    /// A video file, decoded by `ffmpeg` through the capture module.
    Video(PathBuf),
}

/// Why a source cannot be used.
#[derive(Debug, Error)]
pub enum SourceError {
    #[error("{0}: no such file or folder (--source takes an image, a folder of images, a video or a camera index)")]
    NotFound(String),
    #[error("{0}: not a JPEG or PNG image, nor a video")]
    NotAnImage(String),
    /// The camera or video cannot be opened (no such camera, no ffmpeg, not a video).
    #[error(transparent)]
    Capture(#[from] CaptureError),
}

impl Source {
    /// Reads `--source`: a camera index (digits), a video file, an image or a folder.
    pub fn parse(text: &str) -> Result<Source, SourceError> {
        match SourceSpec::parse(text) {
            Ok(SourceSpec::Camera { index, .. }) => Ok(Source::Camera(index)),
            Ok(SourceSpec::Video(path)) => Ok(Source::Video(path)),
            Ok(SourceSpec::Image(path) | SourceSpec::Folder(path)) => Ok(Source::Images(path)),
            Err(CaptureError::NotFound(_)) => Err(SourceError::NotFound(text.to_string())),
            Err(CaptureError::NotAnImage(_)) => Err(SourceError::NotAnImage(text.to_string())),
            Err(e) => Err(e.into()),
        }
    }

    /// Checks, before anything is served, that a camera is present or a video readable, so
    /// a wrong `--source` is an error at once rather than a message on the page.
    pub fn check(&self) -> Result<(), SourceError> {
        match self {
            Source::Images(_) => Ok(()),
            Source::Camera(index) => Ok(crate::capture::camera::check_present(*index)?),
            Source::Video(path) => crate::capture::video::probe(path)
                .map(|_| ())
                .map_err(Into::into),
        }
    }

    /// The capture module's description of a camera or video source.
    pub fn spec(&self) -> Option<SourceSpec> {
        match self {
            Source::Images(_) => None,
            Source::Camera(index) => Some(SourceSpec::Camera {
                index: *index,
                resolution: Some(crate::capture::Resolution::new(1280, 720)),
            }),
            Source::Video(path) => Some(SourceSpec::Video(path.clone())),
        }
    }
}

/// Shows one recognized photo: the hand seen, and when it is a complete, scorable hand, its
/// score as the new confirmed win (scored with `base`'s conditions: rules, seat, …). An
/// incomplete or unscorable hand keeps the previous win and says why in `hand.problem`.
pub fn show_reading(state: &mut State, reading: &PhotoReading, base: &Request) {
    let mut hand = HandView::from_reading(reading);
    if let Some(h) = hand.as_mut() {
        if h.complete {
            match ScoreView::score(&h.request(base)) {
                Ok(score) => state.score = Some(score),
                Err(e) => h.problem = Some(Problem::from(&e)),
            }
        } else {
            h.problem = Some(Problem {
                kind: "not_complete".into(),
                message: "the tiles read do not make a complete hand".into(),
            });
        }
    }
    state.hand = hand;
}

/// Sleeps up to `time`, waking early when `stop` is set. Returns whether to go on.
fn nap(stop: &AtomicBool, time: Duration) -> bool {
    let end = Instant::now() + time;
    while !stop.load(Ordering::Relaxed) {
        let now = Instant::now();
        if now >= end {
            return true;
        }
        std::thread::sleep((end - now).min(Duration::from_millis(50)));
    }
    false
}

fn images_in(path: &Path) -> Vec<PathBuf> {
    if path.is_file() {
        return vec![path.to_path_buf()];
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map(|dir| {
            dir.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file() && is_image(p))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files
}

type Stamp = (Option<SystemTime>, u64);

fn stamp(path: &Path) -> Stamp {
    std::fs::metadata(path)
        .map(|m| (m.modified().ok(), m.len()))
        .unwrap_or((None, 0))
}

/// Recognizes the photos of `path` in turn, `interval` apart, until `stop` is set; runs on
/// the calling thread (start it on its own thread). A folder is listed again on every pass,
/// so photos dropped into it appear; a photo is recognized again only when it changes.
/// Missing models or ONNX Runtime are shown in `source` and retried every 10 s.
pub fn run_images(
    path: PathBuf,
    hub: Hub,
    base: Request,
    interval: Duration,
    stop: Arc<AtomicBool>,
) {
    let name = Some(path.display().to_string());
    let status = |status: Status, message: Option<String>, current: Option<String>| {
        let name = name.clone();
        move |s: &mut State| {
            s.source = SourceStatus {
                current,
                ..SourceStatus::new("images", name, status, message)
            }
        }
    };
    hub.update(status(
        Status::Starting,
        Some("loading the tile recognizer".into()),
        None,
    ));
    let mut recognizer = loop {
        match Recognizer::load_default() {
            Ok(r) => break r,
            Err(e) => {
                hub.update(status(Status::Error, Some(e.to_string()), None));
                if !nap(&stop, Duration::from_secs(10)) {
                    return;
                }
            }
        }
    };
    let mut seen: HashMap<PathBuf, (Stamp, Result<PhotoReading, String>)> = HashMap::new();
    while !stop.load(Ordering::Relaxed) {
        let files = images_in(&path);
        if files.is_empty() {
            hub.update(status(
                Status::Error,
                Some(format!("no JPEG or PNG photos in {}", path.display())),
                None,
            ));
            if !nap(&stop, interval.max(Duration::from_secs(1))) {
                return;
            }
            continue;
        }
        seen.retain(|p, _| files.contains(p));
        for file in files {
            if stop.load(Ordering::Relaxed) {
                return;
            }
            let now = stamp(&file);
            let fresh = seen.get(&file).is_some_and(|(s, _)| *s == now);
            if !fresh {
                let reading = Rgb::open(&file)
                    .and_then(|rgb| recognizer.read_photo(&rgb))
                    .map_err(|e| e.to_string());
                seen.insert(file.clone(), (now, reading));
            }
            let current = file.file_name().map(|n| n.to_string_lossy().into_owned());
            match &seen[&file].1 {
                Ok(reading) => {
                    let set_status = status(Status::Running, None, current);
                    hub.update(|s| {
                        set_status(s);
                        show_reading(s, reading, &base);
                    });
                }
                Err(message) => {
                    hub.update(status(Status::Running, Some(message.clone()), current));
                }
            }
            if !nap(&stop, interval) {
                return;
            }
        }
    }
}

/// Readings in a row that must agree before a camera or video hand is shown, so a hand
/// reaching over the tiles does not flash on stream.
pub const LIVE_LOCK_FRAMES: usize = 3;

/// Feeds the overlay from a camera or video until `stop` is set: frames go to a recognizer
/// thread (stale frames are dropped, so a slow recognizer never lags behind), and a hand is
/// shown once it has been read the same way [`LIVE_LOCK_FRAMES`] times in a row. A camera
/// that fails or disappears is shown as an error on the page and opened again every 5 s;
/// a video that ends is shown as ended. Runs on the calling thread.
pub fn run_live(spec: SourceSpec, hub: Hub, base: Request, stop: Arc<AtomicBool>) {
    let kind = match spec {
        SourceSpec::Camera { .. } => "camera",
        _ => "video",
    };
    let name = Some(spec.describe());
    let status = move |status: Status, message: Option<String>| {
        let name = name.clone();
        move |s: &mut State| s.source = SourceStatus::new(kind, name, status, message)
    };
    hub.update(status(
        Status::Starting,
        Some("loading the tile recognizer".into()),
    ));
    let (tx, rx) = std::sync::mpsc::channel();
    let worker_tx = tx.clone();
    let worker = Worker::start(crate::app::load_recognizer, move |e| {
        let _ = worker_tx.send(Err(e));
    });
    let mut stable: Stable<PhotoReading> = Stable::new(LIVE_LOCK_FRAMES);
    let mut capture: Option<Capture> = None;
    let mut retry_at: Option<Instant> = Some(Instant::now());
    let mut generation = 0u64;
    while !stop.load(Ordering::Relaxed) {
        if retry_at.is_some_and(|t| Instant::now() >= t) {
            retry_at = None;
            generation += 1;
            let feeder = worker.feeder();
            let tx = tx.clone();
            let g = generation;
            capture = Some(Capture::start(
                spec.clone(),
                OpenOptions::default(),
                move |e| match e {
                    CaptureEvent::Frame(frame) => feeder.submit(frame, g),
                    other => {
                        let _ = tx.send(Ok((g, other)));
                    }
                },
            ));
        }
        let event = match rx.recv_timeout(Duration::from_millis(100)) {
            Ok(e) => e,
            Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
            Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => break,
        };
        match event {
            Ok((g, _)) if g != generation => {}
            Ok((_, CaptureEvent::Opened)) => {
                hub.update(status(Status::Running, None));
            }
            Ok((_, CaptureEvent::Ended)) => {
                hub.update(status(Status::Running, Some("the video has ended".into())));
            }
            Ok((_, CaptureEvent::Failed(e) | CaptureEvent::Skipped(e))) => {
                let retry = matches!(spec, SourceSpec::Camera { .. });
                let message = if retry {
                    format!("{e} (trying again every 5 s)")
                } else {
                    e.to_string()
                };
                hub.update(status(Status::Error, Some(message)));
                if retry {
                    capture = None;
                    retry_at = Some(Instant::now() + Duration::from_secs(5));
                }
            }
            Ok((_, CaptureEvent::Frame(_))) => {}
            Err(WorkerEvent::Ready) => {}
            Err(WorkerEvent::LoadFailed(e)) => {
                // Without a recognizer there is nothing to show; say why and stop.
                hub.update(status(Status::Error, Some(e.to_string())));
                break;
            }
            Err(WorkerEvent::Recognized(r)) => {
                let Ok(reading) = r.reading else { continue };
                let key = reading
                    .hand
                    .as_ref()
                    .filter(|h| h.complete)
                    .map(|h| h.notation());
                if let Some(locked) = stable.feed(key, reading) {
                    let locked = locked.clone();
                    hub.update(|s| show_reading(s, &locked, &base));
                }
            }
        }
    }
    drop(capture);
    drop(worker);
}

/// Follows a game in the table database (read-only use): re-read as soon as the database
/// files change (checked every 100 ms) and at least every second. `game: None` follows the
/// current game (the most recently used unfinished one), so a new game shows up by itself.
pub fn run_table(db: PathBuf, game: Option<i64>, hub: Hub, stop: Arc<AtomicBool>) {
    let name = Some(db.display().to_string());
    let show = |view: Result<TableView, String>| {
        let name = name.clone();
        move |s: &mut State| match view {
            Ok(view) => {
                s.table = Some(view);
                s.table_source = Some(SourceStatus::new("game", name, Status::Running, None));
            }
            Err(message) => {
                s.table = None;
                s.table_source = Some(SourceStatus::new(
                    "game",
                    name,
                    Status::Error,
                    Some(message),
                ));
            }
        }
    };
    let mut wal = db.clone().into_os_string();
    wal.push("-wal");
    let wal = PathBuf::from(wal);
    let mut store: Option<Store> = None;
    let mut last: Option<(Stamp, Stamp)> = None;
    let mut read_at = Instant::now() - Duration::from_secs(10);
    while !stop.load(Ordering::Relaxed) {
        let files = (stamp(&db), stamp(&wal));
        if last != Some(files) || read_at.elapsed() >= Duration::from_secs(1) {
            last = Some(files);
            read_at = Instant::now();
            let view = if !db.is_file() {
                store = None;
                Err(format!(
                    "no game database at {} (start a game with `riichi-lens game new`)",
                    db.display()
                ))
            } else {
                if store.is_none() {
                    store = Store::open(&db).ok();
                }
                match &store {
                    None => Err(format!("cannot open the game database {}", db.display())),
                    Some(store) => read_table(store, game),
                }
            };
            hub.update(show(view));
        }
        if !nap(&stop, Duration::from_millis(100)) {
            return;
        }
    }
}

fn read_table(store: &Store, game: Option<i64>) -> Result<TableView, String> {
    let id = match game {
        Some(id) => id,
        None => store
            .current_game()
            .map_err(|e| e.to_string())?
            .ok_or("no unfinished game in the database: start one with `riichi-lens game new`, or pass --game ID")?,
    };
    let game = store.load_game(id).map_err(|e| e.to_string())?;
    Ok(TableView::from_game(&game, Some(id)))
}

/// The fixed example shown by `--demo` (and in the README's screenshots): a riichi tsumo
/// haneman with a red five, a closed kan and a dora indicator, and a game in East 3.
pub fn demo_state() -> State {
    let hand = HandView::from_notation("234m067p345s22s (8888m)", "1s", true, true)
        .expect("the demo hand is valid notation");
    let request = Request {
        tsumo: true,
        riichi: true,
        seat_wind: Some("W".into()),
        honba: 1,
        riichi_sticks: 1,
        ..Request::default()
    };
    let score = ScoreView::score(&hand.request(&request)).ok();
    State {
        source: SourceStatus::new("demo", None, Status::Running, None),
        hand: Some(hand),
        score,
        table: demo_game().map(|g| TableView::from_game(&g, None)),
        ..State::default()
    }
}

/// East 3, 1 honba, one riichi stick on the table, Bob in riichi.
fn demo_game() -> Option<Game> {
    let names = ["Alice", "Bob", "Carol", "Dave"].map(String::from).to_vec();
    let seat = |i| Seat::new(i).expect("seat 0..=3");
    let events = [
        Event::win(
            seat(0),
            Some(seat(1)),
            HandPoints::Ron { points: 5800 },
            None,
        )
        .ok()?,
        Event::win(
            seat(2),
            None,
            HandPoints::Tsumo {
                dealer: 2000,
                non_dealer: 1000,
            },
            None,
        )
        .ok()?,
        Event::ExhaustiveDraw {
            tenpai: vec![seat(3)],
        },
        Event::Riichi { seat: seat(1) },
    ];
    Game::from_events(TableRules::preset(Preset::Wiki), names, &events).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sources() {
        assert_eq!(Source::parse("0").unwrap(), Source::Camera(0));
        assert!(matches!(
            Source::parse("clip.MP4"),
            Err(SourceError::NotFound(_))
        ));
        assert!(matches!(
            Source::parse("/no/such/dir"),
            Err(SourceError::NotFound(_))
        ));
        assert!(matches!(
            Source::parse("Cargo.toml"),
            Err(SourceError::NotAnImage(_))
        ));
        assert_eq!(Source::parse("src").unwrap(), Source::Images("src".into()));
    }

    #[test]
    fn demo_is_complete() {
        let s = demo_state();
        let score = s.score.expect("the demo hand scores");
        assert_eq!(score.result.han, 6);
        assert_eq!(score.result.limit.map(|l| l.name()), Some("haneman".into()));
        let table = s.table.expect("the demo game folds");
        assert_eq!(table.round_label, "East 3");
        assert_eq!((table.honba, table.sticks), (1, 1));
        assert!(table.players[1].riichi);
        assert!(table.players[2].dealer);
        let total: i64 = table.players.iter().map(|p| p.points).sum();
        assert_eq!(total + 1000, 100_000);
    }
}
