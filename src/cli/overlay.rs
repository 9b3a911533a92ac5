//! `riichi-lens overlay`: the stream overlay in headless mode.

use clap::Args;
use riichi_lens::overlay::{self, Config};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, Args)]
pub struct OverlayArgs {
    /// Where hands come from: a photo (re-read when it changes), a folder of photos (shown in
    /// turn), a camera index (0, 1, …) or a video file (decoded by ffmpeg). Camera and video
    /// hands are shown once they read the same in 3 frames in a row.
    #[arg(long, required_unless_present = "demo", conflicts_with = "demo")]
    source: Option<String>,
    /// Show a fixed example hand, score and table (no model needed).
    #[arg(long)]
    demo: bool,
    /// The port to serve on.
    #[arg(long, default_value_t = 7878)]
    port: u16,
    /// The address to serve on. Anything but a loopback address needs --allow-remote.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST))]
    bind: IpAddr,
    /// Allow a non-loopback --bind address: the overlay is then readable (not writable) by
    /// anyone who can reach it.
    #[arg(long)]
    allow_remote: bool,
    /// Scoring rules preset for recognized hands.
    #[arg(long, default_value = "tenhou")]
    rules: String,
    /// Show the table of a game from this database (default with --game: the `game`
    /// command's database).
    #[arg(long)]
    db: Option<PathBuf>,
    /// The game to show (default: the current game of --db).
    #[arg(long)]
    game: Option<i64>,
    /// Seconds each photo of a folder stays on screen.
    #[arg(long, default_value_t = 3.0)]
    interval: f64,
}

pub fn run(args: OverlayArgs) -> anyhow::Result<ExitCode> {
    if !(args.interval.is_finite() && (0.1..=3600.0).contains(&args.interval)) {
        anyhow::bail!("--interval must be between 0.1 and 3600 seconds");
    }
    overlay::run(Config {
        source: args.source,
        demo: args.demo,
        addr: SocketAddr::new(args.bind, args.port),
        allow_remote: args.allow_remote,
        rules: args.rules,
        db: args.db,
        game: args.game,
        interval: Duration::from_secs_f64(args.interval),
    })?;
    Ok(ExitCode::SUCCESS)
}
