//! `riichi-lens batch`: read and score a folder of photos, resumably, in parallel.

use anyhow::Context;
use clap::Args;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use riichi_lens::batch::{self, Batch, BatchError, Conditions, Options, Readers, Status};
use riichi_lens::vision::{runtime, Recognizer, MOST_THREADS, SECOND_DETECTOR};
use sha2::{Digest, Sha256};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Photos (.jpg, .jpeg, .png) and folders to search for them recursively.
    #[arg(required = true, value_name = "DIR|FILE")]
    inputs: Vec<PathBuf>,
    /// Results: JSON lines, or CSV when the name ends in .csv.
    #[arg(long, value_name = "results.jsonl|results.csv")]
    out: PathBuf,
    /// Also write a self-contained HTML report with thumbnails and tile boxes.
    #[arg(long, value_name = "report.html")]
    report: Option<PathBuf>,
    /// The resumable state (default: <out>.state.sqlite3).
    #[arg(long, value_name = "STATE.sqlite3")]
    state: Option<PathBuf>,
    /// Win conditions per photo: a CSV with a `file` column and request field columns.
    #[arg(long, value_name = "conditions.csv")]
    conditions: Option<PathBuf>,
    /// Photos read at once (default: the available cores).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Rule preset for photos whose sidecar or CSV row gives none: tenhou, mahjongsoul, wrc,
    /// ema, sanma.
    #[arg(long, value_name = "PRESET")]
    rules: Option<String>,
}

/// ONNX Runtime threads for each worker's models: one worker a core reads fastest (the
/// default), and fewer workers than cores (`--jobs`) share the others as threads, at most
/// [`MOST_THREADS`] each (with `--jobs 1` on two cores, 7.52 and 8.23 photos/s against
/// 6.63 and 7.17 with one thread, the same rows; README, "Scoring many photos").
fn reader_threads(jobs: Option<usize>, cores: usize) -> usize {
    jobs.map_or(1, |jobs| (cores / jobs.max(1)).clamp(1, MOST_THREADS))
}

/// An identity of the models: the SHA-256 of the model files (the second detector's where
/// there is one) and the crate version.
fn model_id(models: &Path) -> anyhow::Result<String> {
    let mut hasher = Sha256::new();
    let mut names = vec!["tile_detector.onnx", "tile_classifier.onnx"];
    if models.join(SECOND_DETECTOR).is_file() {
        names.push(SECOND_DETECTOR);
    }
    for name in names {
        let path = models.join(name);
        let bytes = std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?;
        hasher.update(Sha256::digest(&bytes));
    }
    let digest = hasher.finalize();
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    Ok(format!(
        "riichi-lens {} models {hex}",
        env!("CARGO_PKG_VERSION")
    ))
}

pub fn run(args: BatchArgs) -> anyhow::Result<ExitCode> {
    if args.jobs == Some(0) {
        anyhow::bail!("--jobs must be at least 1");
    }
    // Everything that can be wrong with the setup fails here, before any work.
    let found = batch::discover(&args.inputs)?;
    for skipped in &found.skipped {
        eprintln!(
            "warning: skipping {}: not a .jpg, .jpeg or .png file",
            skipped.display()
        );
    }
    if found.photos.is_empty() {
        eprintln!("warning: no .jpg, .jpeg or .png photos found");
    }
    let mut conditions = Conditions::new(args.rules.as_deref())?;
    if let Some(csv) = &args.conditions {
        conditions = conditions.with_csv_file(csv)?;
        let unmatched = conditions.unmatched(found.photos.iter().map(PathBuf::as_path));
        if !unmatched.is_empty() {
            eprintln!(
                "warning: {} row(s) of {} match no photo: {}",
                unmatched.len(),
                csv.display(),
                unmatched.join(", ")
            );
        }
    }
    let models = runtime::models_dir()?;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = reader_threads(args.jobs, cores);
    let readers = Readers::new({
        let models = models.clone();
        move || Recognizer::load(&models, threads)
    })
    .context("cannot load the tile recognizer")?;
    let options = Options {
        state: args
            .state
            .clone()
            .unwrap_or_else(|| Options::default_state(&args.out)),
        jobs: args.jobs.unwrap_or(0),
        thumbnails: args.report.is_some(),
        reader_id: model_id(&models)?,
    };
    let batch = Arc::new(Batch::open(options, conditions)?);
    stop_on_ctrl_c(Arc::downgrade(&batch));

    let total = found.photos.len() as u64;
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::stderr()
    } else {
        ProgressDrawTarget::hidden()
    };
    let bar = ProgressBar::with_draw_target(Some(total), target);
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40.cyan/blue} {pos}/{len} photos  {per_sec}  ETA {eta}  {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let progress = |path: &Path, status: Status| {
        if status == Status::Computed {
            bar.set_message(path.display().to_string());
        }
        bar.inc(1);
    };
    let summary = match batch.run(&found.photos, &readers, &progress) {
        Ok(summary) => summary,
        Err(BatchError::Stopped) => {
            bar.abandon();
            let kept = batch.state().result_count()?;
            eprintln!(
                "stopped: {kept} photos are in {}; run the same command again to go on ({} not written)",
                batch.state().path().display(),
                args.out.display()
            );
            return Ok(ExitCode::from(130));
        }
        Err(e) => return Err(e.into()),
    };
    bar.finish_and_clear();

    batch.write_output(&summary.rows, &args.out)?;
    if let Some(report) = &args.report {
        batch.write_report(&summary.rows, report)?;
    }
    eprintln!(
        "{} photos: {} read now, {} from the state, {} duplicates, {} not read ({} rows with an error); wrote {}{}",
        summary.rows.len(),
        summary.computed,
        summary.reused,
        summary.duplicates,
        summary.failed,
        summary.errors(),
        args.out.display(),
        args.report
            .as_ref()
            .map(|r| format!(" and {}", r.display()))
            .unwrap_or_default()
    );
    Ok(ExitCode::SUCCESS)
}

/// First Ctrl-C: finish the photos being read, start no more, keep the state. Second: quit at
/// once (the state is safe either way: every result is committed on its own).
fn stop_on_ctrl_c(batch: std::sync::Weak<Batch>) {
    std::thread::spawn(move || {
        let Ok(runtime) = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
        else {
            return;
        };
        runtime.block_on(async move {
            if tokio::signal::ctrl_c().await.is_err() {
                return;
            }
            eprintln!("\nstopping after the photos being read (Ctrl-C again to quit at once)");
            if let Some(batch) = batch.upgrade() {
                batch.stop();
            }
            let _ = tokio::signal::ctrl_c().await;
            std::process::exit(130);
        });
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fewer_workers_than_cores_share_the_others_as_threads() {
        assert_eq!(reader_threads(None, 2), 1);
        assert_eq!(reader_threads(Some(2), 2), 1);
        assert_eq!(reader_threads(Some(4), 2), 1);
        assert_eq!(reader_threads(Some(1), 1), 1);
        assert_eq!(reader_threads(Some(1), 2), 2);
        assert_eq!(reader_threads(Some(3), 8), 2);
        // Never more threads a model than a single photo gets.
        assert_eq!(reader_threads(Some(1), 64), MOST_THREADS);
    }
}
