//! Argument parsing and dispatch for the `riichi-lens` binary.

mod app;
mod batch;
mod overlay;
mod photo;
mod score;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Reads a photo of a winning Riichi mahjong hand and scores it exactly. With no command,
/// opens the desktop app.
#[derive(Debug, Parser)]
#[command(name = "riichi-lens", version, about)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Open the desktop app (the default): camera or photos in, confirmed hand and score out.
    App(app::AppArgs),
    /// Score a hand given in notation, or JSON lines from stdin with --jsonl.
    Score(score::ScoreArgs),
    /// Detect and read every tile in a photo.
    Recognize(photo::RecognizeArgs),
    /// Recognize a photo of a winning hand and score it.
    ScorePhoto(photo::ScorePhotoArgs),
    /// Read and score every photo in folders or a list of files, resumably, in parallel.
    Batch(batch::BatchArgs),
    /// Track a whole game: new, riichi, win, draw, undo, show, end, export.
    Game(riichi_lens::table::cli::GameArgs),
    /// Serve the stream overlay (a page for OBS and /api/state) fed by photos or --demo.
    Overlay(overlay::OverlayArgs),
}

/// Runs a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command.unwrap_or(Command::App(app::AppArgs::default())) {
        Command::App(args) => app::run(args),
        Command::Score(args) => score::run(args),
        Command::Recognize(args) => photo::recognize(args),
        Command::ScorePhoto(args) => photo::score_photo(args),
        Command::Batch(args) => batch::run(args),
        Command::Game(args) => {
            let stdout = std::io::stdout();
            riichi_lens::table::cli::run(args, &mut stdout.lock())?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Overlay(args) => overlay::run(args),
    }
}
