//! Reads every photo fixture of `datasets/fixtures/` with the models in `models/` (or
//! `RIICHI_LENS_MODELS`) and prints, per fixture, what was read against the ground truth, then
//! how often the hand-aware decoding turned a wrong top-1 reading into the right hand (and the
//! other way round).
//!
//!     cargo run --release --example fixture_report [DIR] [--threads N]
//!
//! `--threads` gives each model N ONNX Runtime threads (1 by default), and cuts the crops on
//! rayon's threads when N > 1, as `riichi-lens recognize` does; the readings do not depend
//! on it.
//! DIR defaults to `datasets/fixtures/`; any directory rendered by `datasets/make_fixtures.py
//! --out DIR --seed N` works, which gives held-out scenes the models were never chosen on.

#[path = "../tests/photo_fixtures/mod.rs"]
mod photo_fixtures;

use photo_fixtures::{fixtures_dir, load_dir, run, Outcome};
use riichi_lens::vision::{runtime, Recognizer};
use sha2::{Digest, Sha256};

fn main() -> anyhow::Result<()> {
    let models = runtime::models_dir()?;
    for name in ["tile_detector.onnx", "tile_classifier.onnx"] {
        let bytes = std::fs::read(models.join(name))?;
        let hash = Sha256::digest(&bytes);
        let hex: String = hash.iter().take(8).map(|b| format!("{b:02x}")).collect();
        println!("model {name}: sha256 {hex}…, {} bytes", bytes.len());
    }
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let mut threads = 1;
    if let Some(at) = args.iter().position(|a| a == "--threads") {
        let n = args.get(at + 1).and_then(|n| n.to_str()?.parse().ok());
        threads = n.ok_or_else(|| anyhow::anyhow!("--threads needs a whole number"))?;
        args.drain(at..at + 2);
    }
    let mut recognizer = Recognizer::load(&models, threads)?;
    let dir = args
        .into_iter()
        .next()
        .map(std::path::PathBuf::from)
        .unwrap_or_else(fixtures_dir);
    let fixtures = load_dir(&dir);
    let outcomes: Vec<Outcome> = fixtures.iter().map(|f| run(&mut recognizer, f)).collect();
    println!();
    println!(
        "{:26} {:>6} {:>6} {:>6} {:>6} {:>6} {:>9}  details",
        "fixture", "tiles", "exact", "top-1", "hand", "points", "corrected"
    );
    let yes = |b: bool| if b { "yes" } else { "no" };
    for o in &outcomes {
        println!(
            "{:26} {:>2}/{:<3} {:>6} {:>6} {:>6} {:>6} {:>9}  {}",
            o.name,
            o.detected,
            o.truth_tiles,
            yes(o.exact()),
            yes(o.top1_hand_right()),
            yes(o.hand_wrong.is_empty()),
            yes(o.hand_and_points_right()),
            o.corrected,
            o.summary()
        );
        if !o.hand_wrong.is_empty() {
            println!(
                "{:26} read {}  /  true {}",
                "",
                o.hand_read.as_deref().unwrap_or("-"),
                o.hand_truth
            );
        }
    }
    let n = outcomes.len();
    let count = |f: &dyn Fn(&Outcome) -> bool| outcomes.iter().filter(|o| f(o)).count();
    let exact = count(&|o| o.exact());
    let tiles_exact = count(&|o| o.tiles_exact());
    let top1 = count(&|o| o.top1_hand_right());
    let decoded = count(&|o| o.hand_wrong.is_empty());
    let points = count(&|o| o.hand_and_points_right());
    let fixed = count(&|o| !o.top1_hand_right() && o.hand_wrong.is_empty());
    let broken = count(&|o| o.top1_hand_right() && !o.hand_wrong.is_empty());
    let corrected_any = count(&|o| o.corrected > 0);
    let tiles: usize = outcomes.iter().map(|o| o.truth_tiles).sum();
    let tiles_right: usize = outcomes.iter().map(|o| o.tiles_right).sum();
    let hand_tiles: usize = outcomes.iter().map(|o| o.hand_tiles).sum();
    let hand_right: usize = outcomes.iter().map(|o| o.hand_tiles_right).sum();
    let decoded_right: usize = outcomes.iter().map(|o| o.hand_tiles_decoded_right).sum();
    let missed: usize = outcomes.iter().map(|o| o.missed.len()).sum();
    let wall_missed: usize = outcomes.iter().map(|o| o.wall_missed.len()).sum();
    let extra_backs: usize = outcomes.iter().map(|o| o.extra_backs.len()).sum();
    let extra: usize = outcomes.iter().map(|o| o.extra.len()).sum();
    let misread: usize = outcomes.iter().map(|o| o.top1_wrong.len()).sum();
    let sideways: usize = outcomes.iter().map(|o| o.sideways_wrong.len()).sum();
    println!();
    println!("exact (every tile, layout, hand, points):          {exact} of {n}");
    println!("every tile found and read right at top-1, layout:  {tiles_exact} of {n}");
    println!("hand and dora tiles right at top-1 (before decoding): {top1} of {n}");
    println!("decoded hand right (tiles, melds, win, dora):       {decoded} of {n}");
    println!("decoded hand and points right:                      {points} of {n}");
    println!(
        "hand-aware decoding: top-1 wrong -> decoded hand right {fixed}; top-1 right -> decoded hand wrong {broken}; tiles changed in {corrected_any} fixtures"
    );
    // What the user sees: a score that is not the hand's (or none), and whether the reading
    // asked them to check it.
    let wrong_score = |o: &Outcome| !o.score_wrong.is_empty() || o.hand_read.is_none();
    let wrong = count(&wrong_score);
    let wrong_flagged = count(&|o| wrong_score(o) && o.flagged);
    let right_flagged = count(&|o| !wrong_score(o) && o.flagged);
    println!(
        "score wrong or none: {wrong} ({wrong_flagged} flagged for the user to check, {} silent); score right but flagged: {right_flagged} of {}",
        wrong - wrong_flagged,
        n - wrong
    );
    let silent: Vec<&str> = outcomes
        .iter()
        .filter(|o| wrong_score(o) && !o.flagged)
        .map(|o| o.name.as_str())
        .collect();
    if !silent.is_empty() {
        println!("silent: {}", silent.join(" "));
    }
    println!(
        "tiles: {tiles} labelled, {missed} hand or dora tiles missed, {wall_missed} dead-wall backs missed, {extra} extra face-up detections, {extra_backs} extra face-down detections, {misread} top-1 misreads, {sideways} sideways flags wrong"
    );
    // Before the hand-aware decoding, so comparable with evaluate.py's synthetic per-tile figure.
    println!(
        "per tile: {tiles_right} of {tiles} found and read right at top-1 ({:.2} %)",
        100.0 * tiles_right as f64 / tiles.max(1) as f64
    );
    println!(
        "per hand or dora tile: {hand_right} of {hand_tiles} found and read right at top-1 ({:.2} %)",
        100.0 * hand_right as f64 / hand_tiles.max(1) as f64
    );
    println!(
        "per hand or dora tile as the decoded hand reports it: {decoded_right} of {hand_tiles} ({:.2} %)",
        100.0 * decoded_right as f64 / hand_tiles.max(1) as f64
    );
    Ok(())
}
