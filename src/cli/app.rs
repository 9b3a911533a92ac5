//! `riichi-lens app` (and `riichi-lens` with no arguments): the desktop app.

use clap::Args;
use riichi_lens::app::{i18n::Lang, AppOptions};
use riichi_lens::capture::SourceSpec;
use std::process::ExitCode;

#[derive(Debug, Args, Default)]
pub struct AppArgs {
    /// Open this source: a camera index (0, 1, …), a video file, an image, or a folder of
    /// images. Default: the camera picked last time, else the first camera, else the bundled
    /// sample photos.
    #[arg(long)]
    source: Option<String>,
    /// Also serve the stream overlay at http://127.0.0.1:PORT/overlay (loopback only).
    #[arg(long, value_name = "PORT")]
    overlay: Option<u16>,
    /// Label language for this run: en or ja (default: the saved setting).
    #[arg(long, value_parser = ["en", "ja"])]
    lang: Option<String>,
}

pub fn run(args: AppArgs) -> anyhow::Result<ExitCode> {
    let source = args.source.as_deref().map(SourceSpec::parse).transpose()?;
    riichi_lens::app::run(AppOptions {
        source,
        overlay_port: args.overlay,
        lang: args
            .lang
            .map(|l| if l == "ja" { Lang::Ja } else { Lang::En }),
        ..AppOptions::default()
    })?;
    Ok(ExitCode::SUCCESS)
}
