//! Scoring throughput over a fixed mix of 2,000 winning hands (`benches/hands.jsonl`,
//! generated once with `tests/differential/reference.py --n 2000 --seed 7`, inputs only).
//!
//! - `score/score`: `riichi_lens::score` on pre-built `(Hand, WinContext, Rules)` values.
//! - `score/score_line`: JSON line in, JSON line out (`riichi_lens::jsonl::score_line`).
//!
//! Both measure one pass over all 2,000 hands per iteration (`Throughput::Elements(2000)`).
//! After criterion, the bench times the same two loops itself (best and median of N passes)
//! and prints microseconds per hand; `scripts/bench-score.sh` reads those `per-hand` lines.
//!
//! Run: `cargo bench --bench score`. Under `cargo test` (no `--bench` flag) each benchmark
//! runs once as a smoke test and the extra timing does a single pass.

#[path = "support/thread_cpu.rs"]
mod thread_cpu;

use criterion::{Criterion, Throughput};
use riichi_lens::jsonl::{score_line, Request};
use riichi_lens::{score, Hand, Rules, WinContext};
use std::hint::black_box;
use std::time::{Duration, Instant};
use thread_cpu::thread_cpu;

const HANDS: &str = include_str!("hands.jsonl");

type Input = (Hand, WinContext, Rules);

fn lines() -> Vec<&'static str> {
    HANDS.lines().filter(|l| !l.trim().is_empty()).collect()
}

fn inputs(lines: &[&str]) -> Vec<Input> {
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            let request: Request = serde_json::from_str(line)
                .unwrap_or_else(|e| panic!("hands.jsonl line {}: {e}", i + 1));
            let built = request
                .build()
                .unwrap_or_else(|e| panic!("hands.jsonl line {}: {e}", i + 1));
            // Every hand of the mix is a valid winning hand: the bench measures scoring,
            // not the error path.
            if let Err(e) = score(&built.0, &built.1, &built.2) {
                panic!("hands.jsonl line {} does not score: {e}", i + 1);
            }
            built
        })
        .collect()
}

fn score_all(inputs: &[Input]) -> u32 {
    let mut han = 0;
    for (hand, ctx, rules) in inputs {
        let result = score(black_box(hand), black_box(ctx), black_box(rules));
        han += black_box(result).map_or(0, |s| s.han);
    }
    han
}

fn score_lines(lines: &[&str]) -> usize {
    let mut bytes = 0;
    for line in lines {
        bytes += black_box(score_line(black_box(line))).len();
    }
    bytes
}

/// Best and median of one pass over `passes` passes (after one warm-up pass): wall time,
/// and this thread's CPU time where the platform reports it.
struct Timing {
    wall: (Duration, Duration),
    cpu: Option<(Duration, Duration)>,
}

fn best_and_median(mut times: Vec<Duration>) -> (Duration, Duration) {
    times.sort();
    (times[0], times[times.len() / 2])
}

fn time_passes(passes: usize, mut pass: impl FnMut()) -> Timing {
    pass();
    let mut wall = Vec::with_capacity(passes);
    let mut cpu = Vec::with_capacity(passes);
    for _ in 0..passes {
        let cpu_start = thread_cpu();
        let start = Instant::now();
        pass();
        wall.push(start.elapsed());
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu()) {
            cpu.push(b.saturating_sub(a));
        }
    }
    Timing {
        wall: best_and_median(wall),
        cpu: (cpu.len() == passes).then(|| best_and_median(cpu)),
    }
}

fn per_hand_us(d: Duration, hands: usize) -> f64 {
    d.as_secs_f64() * 1e6 / hands as f64
}

fn report(name: &str, timing: &Timing, hands: usize, passes: usize, measuring: bool) {
    let (best, median) = timing.wall;
    print!(
        "per-hand {name}: best {:.3} us, median {:.3} us",
        per_hand_us(best, hands),
        per_hand_us(median, hands),
    );
    if let Some((best, median)) = timing.cpu {
        print!(
            "; thread cpu best {:.3} us, median {:.3} us",
            per_hand_us(best, hands),
            per_hand_us(median, hands),
        );
    }
    let note = if measuring {
        ""
    } else {
        " [smoke test without --bench: not a measurement]"
    };
    println!(" ({hands} hands x {passes} passes){note}");
}

fn main() {
    let benchmarking = std::env::args().any(|a| a == "--bench");
    let lines = lines();
    let inputs = inputs(&lines);
    let n = inputs.len();

    let mut criterion = Criterion::default().configure_from_args();
    {
        let mut group = criterion.benchmark_group("score");
        group.throughput(Throughput::Elements(n as u64));
        group.bench_function("score", |b| b.iter(|| score_all(&inputs)));
        group.bench_function("score_line", |b| b.iter(|| score_lines(&lines)));
        group.finish();
    }
    criterion.final_summary();

    let passes = if benchmarking { 200 } else { 1 };
    let timing = time_passes(passes, || {
        black_box(score_all(&inputs));
    });
    report("score", &timing, n, passes, benchmarking);
    let passes = if benchmarking { 50 } else { 1 };
    let timing = time_passes(passes, || {
        black_box(score_lines(&lines));
    });
    report("score_line", &timing, n, passes, benchmarking);
}
