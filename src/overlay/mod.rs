//! The stream overlay: a small read-only web server that shows the recognized hand, the last
//! confirmed win's score and the tracked game's table on a transparent page for OBS's browser
//! source, updated live over Server-Sent Events, with the same data as JSON for bots.
//!
//! - [`state`]: the [`State`] shown (and its documented JSON).
//! - [`hub`]: [`Hub`], the current state and its change notifications; publishing never
//!   waits for clients.
//! - [`server`]: [`serve`], the axum server with its safety limits.
//! - [`assets`]: the bundled page and tile images.
//! - [`source`]: the producers of headless mode (photos, the game database, the demo).
//!
//! Headless mode (`riichi-lens overlay`) is [`run`]; the desktop app embeds the same pieces:
//! a [`Hub`], [`serve`] on its tokio runtime, and [`source::show_reading`] for each reading.
//!
//! ```no_run
//! # async fn demo() -> Result<(), riichi_lens::overlay::ServeError> {
//! use riichi_lens::overlay::{serve, source, Hub};
//! let hub = Hub::new();
//! let server = serve("127.0.0.1:7878".parse().unwrap(), hub.clone(), false).await?;
//! hub.publish(source::demo_state()); // from any thread; never blocks
//! println!("{}", server.url());
//! # Ok(()) }
//! ```

pub mod assets;
pub mod hub;
pub mod server;
pub mod source;
pub mod state;

pub use hub::Hub;
pub use server::{serve, serve_with, Options, ServeError, Server};
pub use state::State;

use crate::jsonl::Request;
use source::{Source, SourceError};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use thiserror::Error;

/// What headless mode runs.
#[derive(Clone, Debug)]
pub struct Config {
    /// `--source`: an image, a folder of images, a camera index or a video (`None` with
    /// `demo`).
    pub source: Option<String>,
    /// Show the fixed demo hand, score and table.
    pub demo: bool,
    pub addr: SocketAddr,
    pub allow_remote: bool,
    /// Scoring rules: a preset name (`tenhou`, `mahjongsoul`, `wrc`, `ema`, `sanma`).
    pub rules: String,
    /// The game database to follow (`None`: no table unless `game` is given).
    pub db: Option<PathBuf>,
    /// The game to follow (`None`: the current game).
    pub game: Option<i64>,
    /// Time each photo of a folder stays on screen.
    pub interval: Duration,
}

/// Why headless mode could not run.
#[derive(Debug, Error)]
pub enum OverlayError {
    #[error(transparent)]
    Source(#[from] SourceError),
    #[error(transparent)]
    Serve(#[from] ServeError),
    #[error("rules: {0}")]
    Rules(#[from] crate::rules::RulesError),
    #[error(transparent)]
    Table(#[from] crate::table::TableError),
    #[error("cannot start the async runtime: {0}")]
    Runtime(#[from] std::io::Error),
}

/// Runs headless mode until Ctrl-C (or SIGTERM): serves the overlay and feeds it from the
/// source. A missing camera, an unreadable video, or a non-loopback address without
/// `allow_remote`, is an error before anything starts; missing models are not (the page's
/// `source` says so).
pub fn run(config: Config) -> Result<(), OverlayError> {
    let source = match (&config.source, config.demo) {
        (Some(text), _) => Some(Source::parse(text)?),
        (None, _) => None,
    };
    if let Some(source) = &source {
        source.check()?;
    }
    let base = Request {
        rules: serde_json::Value::String(config.rules.clone()),
        ..Request::default()
    };
    crate::rules::Rules::from_json(&base.rules)?;
    let db = match (&config.db, config.game) {
        (Some(db), _) => Some(db.clone()),
        (None, Some(_)) => Some(crate::table::cli::default_db_path()?),
        (None, None) => None,
    };
    server::check_bind_address(config.addr, config.allow_remote)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let hub = Hub::new();
        if config.demo {
            hub.publish(source::demo_state());
        }
        let server = serve(config.addr, hub.clone(), config.allow_remote).await?;
        eprintln!(
            "overlay: {} (state as JSON: http://{}/api/state); Ctrl-C stops",
            server.url(),
            server.local_addr()
        );
        let stop = Arc::new(AtomicBool::new(false));
        match source {
            Some(Source::Images(path)) => {
                let (hub, stop) = (hub.clone(), stop.clone());
                let interval = config.interval;
                std::thread::Builder::new()
                    .name("overlay-recognizer".into())
                    .spawn(move || source::run_images(path, hub, base, interval, stop))?;
            }
            Some(live @ (Source::Camera(_) | Source::Video(_))) => {
                let (hub, stop) = (hub.clone(), stop.clone());
                if let Some(spec) = live.spec() {
                    std::thread::Builder::new()
                        .name("overlay-live".into())
                        .spawn(move || source::run_live(spec, hub, base, stop))?;
                }
            }
            None => {}
        }
        if let Some(db) = db {
            let (hub, stop) = (hub.clone(), stop.clone());
            let game = config.game;
            std::thread::Builder::new()
                .name("overlay-table".into())
                .spawn(move || source::run_table(db, game, hub, stop))?;
        }
        stopped().await;
        eprintln!("overlay: stopping");
        stop.store(true, Ordering::Relaxed);
        server.shutdown().await;
        Ok(())
    })
}

/// Waits for Ctrl-C, or SIGTERM on Unix.
async fn stopped() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        if let Ok(mut term) = signal(SignalKind::terminate()) {
            tokio::select! {
                _ = tokio::signal::ctrl_c() => {}
                _ = term.recv() => {}
            }
            return;
        }
    }
    let _ = tokio::signal::ctrl_c().await;
}
