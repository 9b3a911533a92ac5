//! Recognition speed on the photo fixtures (`datasets/fixtures/`, 1280×720 JPEGs) and on
//! 12-megapixel JPEGs made from them.
//!
//! - `recognize/frame_720p/1_thread` and `/2_threads`: `Recognizer::read_photo` (detector,
//!   crops, classifier, layout, hand-aware decoding) on an already decoded 1280×720 frame, the
//!   20 fixtures in turn, with 1 or 2 ONNX Runtime intra-op threads per model.
//! - `recognize/frame_720p_far/1_thread`: the same on far shots (also timed with 2 threads
//!   below), each fixture shrunk to half size in the middle of a 1280×720 frame (the border
//!   pixels repeated outwards), so its median box is 12–19 pixels wide at the detector's 640
//!   input and the detector runs a second time on a larger input (`Settings::zoom_below`).
//!   They are also written as PNG to `target/tmp/bench-far-frames/` for the peer's run.
//! - `recognize/frame_720p_incomplete/1_thread`: the same on the fixtures with their winning
//!   tile painted over in the table's colour, so no hand is complete and the faint boxes are
//!   tried one by one (`Recognizer::complete_hand`), and the second detector reads each
//!   again; the worst case of a photo.
//! - `recognize/frame_720p_incomplete_live/1_thread`: those frames as a live view reads them
//!   (`Recognizer::read_frame`), each 16 times in a row as from a still camera: the second
//!   detector is asked about the first reading and its declining remembered for the other 15.
//!   The own timing below reads them so with 1 and with 2 threads a model (the app's default on
//!   two cores), and prints the mean as well as the median.
//! - `recognize/decode_12mp`: decoding one 4000×3000 JPEG in full (`Rgb::decode`, EXIF
//!   applied), and `recognize/decode_12mp_reduced`: at the reduced size `riichi-lens batch`
//!   decodes it (`decode_for_reading`: half size here).
//! - `recognize/photo_12mp/full`: decode in full + `read_photo` on one 4000×3000 JPEG, 1
//!   thread; `recognize/photo_12mp/reduced`: `read_encoded` (reduced decode, decoded again
//!   only if a tile is too narrow): what one `riichi-lens batch` worker does per photo, less
//!   hashing and the state commit.
//! - `pixels/crops/two_readings_of_every_tile_of_a_frame`: cutting the crops of every tile of
//!   the first fixture read along its box and a quarter turn from it (`picture::crops`), as
//!   the two-way reading does; `pixels/face_value/every_tile_of_a_frame`: the dark-face rule's
//!   measure (`picture::face_value`) of one crop of every tile of that fixture.
//!
//! The 12 MP JPEGs are made at bench time (not committed) into
//! `target/tmp/bench-12mp-photos/`: three per fixture, each fixture padded top and bottom by
//! mirroring to 4:3 (1280×960), resized ×3.125 to 4000×3000 (Catmull-Rom), given mild noise
//! (±4 levels, a different seed for each of the three, so the files are as large as phone
//! photos rather than smooth upscales, and distinct) and encoded at quality 90. Sixty photos
//! make the batch run long enough that its start-up (loading the models) weighs as it does
//! in an archive rather than in a handful of files.
//! `scripts/bench-recognize.sh` runs this bench, then `riichi-lens batch` and the peer
//! `mahjong-detector` on the same files.
//!
//! After criterion the bench times the same work itself and prints `per-frame` / `per-photo`
//! lines (best and median, milliseconds) that the script reads. Without `--bench` (under
//! `cargo test --all-targets`) it makes one 12 MP photo and runs each benchmark once as a
//! smoke test.

#[path = "../tests/photo_fixtures/mod.rs"]
mod photo_fixtures;
#[path = "support/thread_cpu.rs"]
mod thread_cpu;

use criterion::{Criterion, Throughput};
use riichi_lens::vision::picture::{self, Rgb};
use riichi_lens::vision::{
    decode_for_reading, runtime, LiveMemo, Recognizer, SECOND_OPINION_REMEMBERED,
};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};
use thread_cpu::thread_cpu;

const PHOTO_W: u32 = 4000;
const PHOTO_H: u32 = 3000;

fn fixture_jpegs() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/fixtures");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("jpg"))
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no fixtures in {}", dir.display());
    out
}

/// The folder of generated 12 MP JPEGs.
pub fn photos_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-12mp-photos")
}

/// A 4000×3000 JPEG made from a 1280×720 fixture (see the module comment).
fn make_12mp(frame: &Rgb, seed: u32) -> Vec<u8> {
    use fast_image_resize as fr;
    let (w, h) = (frame.width as usize, frame.height as usize);
    let pad = (w * 3 / 4).saturating_sub(h) / 2;
    let th = h + 2 * pad;
    let mut tall = vec![0u8; w * th * 3];
    for y in 0..th {
        // mirror rows above and below the frame
        let sy = if y < pad {
            (pad - y).min(h - 1)
        } else if y >= pad + h {
            (h - 1).saturating_sub(y - pad - h + 1)
        } else {
            y - pad
        };
        tall[y * w * 3..(y + 1) * w * 3]
            .copy_from_slice(&frame.pixels[sy * w * 3..(sy + 1) * w * 3]);
    }
    let mut pixels = photo_fixtures::resized(
        &tall,
        (w as u32, th as u32),
        (PHOTO_W, PHOTO_H),
        fr::FilterType::CatmullRom,
    );
    let mut state = 0x9e37_79b9u32 ^ seed;
    for p in pixels.iter_mut() {
        // xorshift noise in -4..=4
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (state % 9) as i16 - 4;
        *p = (i16::from(*p) + n).clamp(0, 255) as u8;
    }
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90)
        .encode(&pixels, PHOTO_W, PHOTO_H, image::ExtendedColorType::Rgb8)
        .expect("JPEG encoding");
    out
}

/// The folder the far shots are written to as PNG, for the peer's run.
pub fn far_frames_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("bench-far-frames")
}

fn write_far_frames(frames: &[Rgb]) {
    let dir = far_frames_dir();
    std::fs::create_dir_all(&dir).expect("far-frame folder");
    for (i, frame) in frames.iter().enumerate() {
        image::save_buffer(
            dir.join(format!("far-{i:02}.png")),
            &frame.pixels,
            frame.width,
            frame.height,
            image::ExtendedColorType::Rgb8,
        )
        .expect("write far frame");
    }
}

/// Photos made from each fixture.
const PHOTOS_PER_FIXTURE: usize = 3;

/// Readings of one still frame in a row in the live-view benches: the second detector asked
/// once, then its declining remembered as long as a live view remembers it.
const STILL: usize = SECOND_OPINION_REMEMBERED + 1;

/// Makes the 12 MP JPEGs that are missing (`per_fixture` from each of the first `count`
/// fixtures) and returns their paths.
fn ensure_photos(fixtures: &[PathBuf], count: usize, per_fixture: usize) -> Vec<PathBuf> {
    let dir = photos_dir();
    std::fs::create_dir_all(&dir).expect("photo folder");
    let mut out = Vec::new();
    for (i, fixture) in fixtures.iter().take(count).enumerate() {
        let name = fixture
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("photo");
        let mut frame = None;
        for v in 0..per_fixture {
            let path = dir.join(format!("{name}-{v}-12mp.jpg"));
            if !path.is_file() {
                let frame =
                    frame.get_or_insert_with(|| Rgb::open(fixture).expect("fixture decodes"));
                let tmp = path.with_extension("part");
                let seed = (i * PHOTOS_PER_FIXTURE + v) as u32;
                std::fs::write(&tmp, make_12mp(frame, seed)).expect("write photo");
                std::fs::rename(&tmp, &path).expect("rename photo");
            }
            out.push(path);
        }
    }
    out
}

fn best_and_median(mut times: Vec<Duration>) -> (f64, f64) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    (ms(times[0]), ms(times[times.len() / 2]))
}

fn report(name: &str, times: Vec<Duration>, measuring: bool) {
    let n = times.len();
    let (best, median) = best_and_median(times);
    let note = if measuring {
        ""
    } else {
        " [smoke test without --bench: not a measurement]"
    };
    println!("{name}: best {best:.2} ms, median {median:.2} ms ({n} runs){note}");
}

fn main() {
    let benchmarking = std::env::args().any(|a| a == "--bench");
    let fixtures = fixture_jpegs();
    let frames: Vec<Rgb> = fixtures
        .iter()
        .take(if benchmarking { fixtures.len() } else { 2 })
        .map(|p| Rgb::open(p).expect("fixture decodes"))
        .collect();
    let far_frames: Vec<Rgb> = frames.iter().map(photo_fixtures::far_frame).collect();
    let incomplete_frames: Vec<Rgb> = photo_fixtures::load_all()
        .iter()
        .take(frames.len())
        .map(photo_fixtures::incomplete_frame)
        .collect();
    if benchmarking {
        write_far_frames(&far_frames);
    }
    let photos = if benchmarking {
        ensure_photos(&fixtures, fixtures.len(), PHOTOS_PER_FIXTURE)
    } else {
        ensure_photos(&fixtures, 1, 1)
    };
    let photo_bytes: Vec<Vec<u8>> = photos
        .iter()
        .map(|p| std::fs::read(p).expect("photo readable"))
        .collect();
    let models = runtime::models_dir().expect("models folder");
    let mut one = Recognizer::load(&models, 1).expect("recognizer (1 thread)");
    let mut two = Recognizer::load(&models, 2).expect("recognizer (2 threads)");

    let mut criterion = Criterion::default().configure_from_args();
    {
        let mut group = criterion.benchmark_group("recognize");
        group.throughput(Throughput::Elements(1));
        group.sample_size(20);
        let mut next = 0usize;
        group.bench_function("frame_720p/1_thread", |b| {
            b.iter(|| {
                next = (next + 1) % frames.len();
                black_box(one.read_photo(&frames[next]).expect("read"))
            })
        });
        group.bench_function("frame_720p/2_threads", |b| {
            b.iter(|| {
                next = (next + 1) % frames.len();
                black_box(two.read_photo(&frames[next]).expect("read"))
            })
        });
        group.bench_function("frame_720p_far/1_thread", |b| {
            b.iter(|| {
                next = (next + 1) % far_frames.len();
                black_box(one.read_photo(&far_frames[next]).expect("read"))
            })
        });
        group.bench_function("frame_720p_incomplete/1_thread", |b| {
            b.iter(|| {
                next = (next + 1) % incomplete_frames.len();
                black_box(one.read_photo(&incomplete_frames[next]).expect("read"))
            })
        });
        // A still camera over a hand being laid out: each frame is read as a live view reads
        // it, `STILL` times in a row, so the second detector is asked about it once and its
        // declining remembered for the rest (`Recognizer::read_frame`).
        let mut memo = LiveMemo::default();
        let mut read = 0usize;
        group.bench_function("frame_720p_incomplete_live/1_thread", |b| {
            b.iter(|| {
                let frame = &incomplete_frames[(read / STILL) % incomplete_frames.len()];
                read += 1;
                black_box(one.read_frame(frame, &mut memo).expect("read"))
            })
        });
        group.sample_size(10);
        group.bench_function("decode_12mp", |b| {
            b.iter(|| {
                next = (next + 1) % photo_bytes.len();
                black_box(Rgb::decode(&photo_bytes[next]).expect("decode"))
            })
        });
        group.bench_function("decode_12mp_reduced", |b| {
            b.iter(|| {
                next = (next + 1) % photo_bytes.len();
                black_box(decode_for_reading(&photo_bytes[next]).expect("decode"))
            })
        });
        group.bench_function("photo_12mp/full", |b| {
            b.iter(|| {
                next = (next + 1) % photo_bytes.len();
                let rgb = Rgb::decode(&photo_bytes[next]).expect("decode");
                black_box(one.read_photo(&rgb).expect("read"))
            })
        });
        group.bench_function("photo_12mp/reduced", |b| {
            b.iter(|| {
                next = (next + 1) % photo_bytes.len();
                black_box(one.read_encoded(&photo_bytes[next]).expect("read"))
            })
        });
        group.finish();
    }
    {
        // One crop per tile of a frame, as `read_boxes` measures them for the dark-face rule.
        let boxes: Vec<_> = one
            .recognize(&frames[0])
            .expect("read")
            .iter()
            .map(|d| d.rotated)
            .collect();
        let batch = picture::crops(&frames[0], &boxes);
        let mut group = criterion.benchmark_group("pixels");
        group.throughput(Throughput::Elements(boxes.len() as u64));
        // What `read_along` cuts: each tile read along the hand's up axis and across it.
        let along_and_across: Vec<_> = boxes
            .iter()
            .flat_map(|b| [*b, b.quarter_turned()])
            .collect();
        group.bench_function("crops/two_readings_of_every_tile_of_a_frame", |b| {
            b.iter(|| picture::crops(black_box(&frames[0]), black_box(&along_and_across)))
        });
        group.bench_function("face_value/every_tile_of_a_frame", |b| {
            b.iter(|| {
                batch
                    .chunks_exact(picture::CROP_LEN)
                    .map(|crop| picture::face_value(black_box(crop)))
                    .sum::<f32>()
            })
        });
        group.finish();
    }
    criterion.final_summary();

    // Own timing: every frame / photo in turn, after one warm-up pass.
    let passes = if benchmarking { 5 } else { 1 };
    let sets = [
        ("", &frames),
        (" far (zoomed)", &far_frames),
        (" incomplete hand", &incomplete_frames),
    ];
    for (set, frames) in sets {
        for (label, recognizer) in [("1 thread", &mut one), ("2 threads", &mut two)] {
            for frame in frames {
                black_box(recognizer.read_photo(frame).expect("read"));
            }
            let mut times = Vec::new();
            for _ in 0..passes {
                for frame in frames {
                    let start = Instant::now();
                    black_box(recognizer.read_photo(frame).expect("read"));
                    times.push(start.elapsed());
                }
            }
            report(
                &format!("per-frame 720p{set} recognize ({label})"),
                times,
                benchmarking,
            );
        }
    }
    // The app reads its live view with `default_threads()` a model: two on the reference machine.
    let still = if benchmarking { STILL } else { 2 };
    for (label, recognizer) in [("1 thread", &mut one), ("2 threads", &mut two)] {
        let mut times = Vec::new();
        let mut memo = LiveMemo::default();
        for frame in &incomplete_frames {
            for _ in 0..still {
                let start = Instant::now();
                black_box(recognizer.read_frame(frame, &mut memo).expect("read"));
                times.push(start.elapsed());
            }
        }
        let mean = times.iter().sum::<Duration>().as_secs_f64() * 1e3 / times.len() as f64;
        report(
            &format!(
                "per-frame 720p incomplete hand, live view, each frame {still} times ({label}; mean {mean:.2} ms)"
            ),
            times,
            benchmarking,
        );
    }
    let passes = if benchmarking { 2 } else { 1 };
    let (mut decode, mut whole) = (Vec::new(), Vec::new());
    let (mut reduced, mut read, mut cpu) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..passes {
        for bytes in &photo_bytes {
            let start = Instant::now();
            let rgb = Rgb::decode(bytes).expect("decode");
            decode.push(start.elapsed());
            black_box(one.read_photo(&rgb).expect("read"));
            whole.push(start.elapsed());

            let cpu_start = thread_cpu();
            let start = Instant::now();
            let photo = decode_for_reading(bytes).expect("decode");
            reduced.push(start.elapsed());
            black_box(one.read_reduced(photo, bytes).expect("read"));
            read.push(start.elapsed());
            if let (Some(a), Some(b)) = (cpu_start, thread_cpu()) {
                cpu.push(b.saturating_sub(a));
            }
        }
    }
    report("per-photo 12mp full decode", decode, benchmarking);
    report(
        "per-photo 12mp full decode+recognize (1 thread)",
        whole,
        benchmarking,
    );
    report("per-photo 12mp reduced decode", reduced, benchmarking);
    report(
        "per-photo 12mp decode+recognize (1 thread)",
        read,
        benchmarking,
    );
    if !cpu.is_empty() {
        report(
            "per-photo 12mp decode+recognize (1 thread), thread cpu",
            cpu,
            benchmarking,
        );
    }
    let mut cpu = Vec::new();
    for frame in &frames {
        let cpu_start = thread_cpu();
        black_box(one.read_photo(frame).expect("read"));
        if let (Some(a), Some(b)) = (cpu_start, thread_cpu()) {
            cpu.push(b.saturating_sub(a));
        }
    }
    if !cpu.is_empty() {
        report(
            "per-frame 720p recognize (1 thread), thread cpu",
            cpu,
            benchmarking,
        );
    }
    println!("photos: {}", photos_dir().display());
    if benchmarking {
        println!("far frames: {}", far_frames_dir().display());
    }
}
