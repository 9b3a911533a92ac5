//! `riichi-lens recognize` and `riichi-lens score-photo`: one photo in, tiles and score out.

use super::score::{print_score, Conditions};
use anyhow::Context;
use clap::Args;
use riichi_lens::vision::{annotate, picture::Rgb, PhotoReading, Recognizer};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct RecognizeArgs {
    /// A JPEG or PNG photo of a hand.
    image: PathBuf,
    /// Print every tile and the layout as JSON.
    #[arg(long)]
    json: bool,
    /// Write a copy of the photo with boxes and labels drawn on it (PNG).
    #[arg(long, value_name = "OUT.png")]
    annotate: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct ScorePhotoArgs {
    /// A JPEG or PNG photo of a winning hand.
    image: PathBuf,
    #[command(flatten)]
    conditions: Conditions,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
}

fn read(image: &std::path::Path) -> anyhow::Result<(Rgb, PhotoReading)> {
    let rgb = Rgb::open(image)?;
    let mut recognizer = Recognizer::load_default()?;
    let reading = recognizer.read_photo(&rgb)?;
    Ok((rgb, reading))
}

pub fn recognize(args: RecognizeArgs) -> anyhow::Result<ExitCode> {
    let (mut rgb, reading) = read(&args.image)?;
    let uncertain = reading
        .hand
        .as_ref()
        .map(|h| h.uncertain.clone())
        .unwrap_or_default();
    if let Some(out) = &args.annotate {
        annotate::draw(&mut rgb, &reading.tiles, &uncertain);
        std::fs::write(out, annotate::png(&rgb)?)
            .with_context(|| format!("writing {}", out.display()))?;
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        serde_json::to_writer_pretty(&mut out, &reading)?;
        writeln!(out)?;
        return Ok(ExitCode::SUCCESS);
    }
    writeln!(
        out,
        "{} tiles found in {}×{}",
        reading.tiles.len(),
        reading.width,
        reading.height
    )?;
    for (i, d) in reading.tiles.iter().enumerate() {
        let [x1, y1, x2, y2] = d.bounds;
        let flag = if uncertain.contains(&i) {
            "  (check)"
        } else {
            ""
        };
        let side = if d.sideways { " sideways" } else { "" };
        writeln!(
            out,
            "  {:>4}  {:5.1}%  [{x1:.0}, {y1:.0}, {x2:.0}, {y2:.0}]{side}{flag}",
            d.tile.notation(),
            d.confidence * 100.0
        )?;
    }
    match &reading.hand {
        Some(hand) => {
            writeln!(out, "Hand    {}", hand.notation())?;
            let how = if hand.win_set_apart {
                "set apart"
            } else {
                "assumed: last tile"
            };
            writeln!(out, "Win     {} ({how})", hand.win)?;
            if !hand.dora_indicators.is_empty() {
                writeln!(
                    out,
                    "Dora    {} (indicators)",
                    riichi_lens::notation::format_tiles(&hand.dora_indicators)
                )?;
            }
            if !hand.complete {
                writeln!(out, "Note    the tiles read do not make a complete hand; check the highlighted tiles")?;
                if let Some(tiles) = completing(hand) {
                    writeln!(
                        out,
                        "        one tile short: {tiles} would complete it (is the winning tile in the photo?)"
                    )?;
                }
            }
        }
        None => writeln!(out, "No hand row found")?,
    }
    Ok(ExitCode::SUCCESS)
}

pub fn score_photo(args: ScorePhotoArgs) -> anyhow::Result<ExitCode> {
    let (_, reading) = read(&args.image)?;
    let hand = reading.hand.context("no hand row was found in the photo")?;
    let mut conditions = args.conditions.clone();
    if conditions.dora.is_none() && !hand.dora_indicators.is_empty() {
        conditions.dora = Some(riichi_lens::notation::format_tiles(&hand.dora_indicators));
    }
    if conditions.win.is_none() {
        conditions.win = Some(hand.win.to_string());
    }
    let melds = hand.melds.iter().map(|m| m.to_string()).collect();
    let request =
        conditions.request(riichi_lens::notation::format_tiles(&hand.concealed), melds)?;
    if !args.json {
        println!(
            "Read    {}{}",
            hand.notation(),
            if hand.complete {
                String::new()
            } else if let Some(tiles) = completing(&hand) {
                format!("  (not a complete hand: one tile short, {tiles} would complete it)")
            } else {
                "  (not a complete hand)".to_string()
            }
        );
    }
    print_score(&request, args.json)?;
    Ok(ExitCode::SUCCESS)
}

/// The tiles that would complete a hand read a tile short, as "2m or 5m"; `None` when it is not
/// one tile short (see [`riichi_lens::vision::layout::ReadHand::completing_tiles`]).
fn completing(hand: &riichi_lens::vision::layout::ReadHand) -> Option<String> {
    riichi_lens::jsonl::either(&hand.completing_tiles())
}
