//! `riichi-lens batch` through the library, with fake photo readers (the trained model is not
//! needed): bad files, conditions, duplicates, resuming, a SIGKILL in the middle of a run, the
//! output formats and the report.

use riichi_lens::batch::{
    self, csv, discover, Batch, Conditions, Options, PhotoReader, Readers, Row, State, Status,
};
use riichi_lens::jsonl::Request;
use riichi_lens::notation::{parse_hand, parse_tiles};
use riichi_lens::vision::layout::{Layout, ReadHand};
use riichi_lens::vision::picture::{Reduced, RotatedBox};
use riichi_lens::vision::{Detection, Face, PhotoReading, VisionError, CLASS_COUNT};
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

// ---------------------------------------------------------------------------------------------
// Fixtures

/// A fresh folder under the cargo test temp dir.
fn temp_dir(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("batch-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A small PNG whose first pixel's red value is `id` (the fake reader's key).
fn png(id: u8) -> Vec<u8> {
    let image = image::RgbImage::from_fn(40, 30, |x, y| {
        if (x, y) == (0, 0) {
            image::Rgb([id, 0, 0])
        } else {
            image::Rgb([(x * 6) as u8, (y * 8) as u8, 128])
        }
    });
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png).unwrap();
    out.into_inner()
}

/// A valid JPEG.
fn jpeg() -> Vec<u8> {
    let image = image::RgbImage::from_fn(256, 192, |x, y| {
        image::Rgb([(x % 256) as u8, ((x * y) % 251) as u8, (y % 256) as u8])
    });
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 90)
        .encode(image.as_raw(), 256, 192, image::ExtendedColorType::Rgb8)
        .unwrap();
    out
}

/// A PNG signature and IHDR announcing `width` × `height`, then nothing.
fn png_header(width: u32, height: u32) -> Vec<u8> {
    let mut out = vec![0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];
    let mut chunk = b"IHDR".to_vec();
    chunk.extend(width.to_be_bytes());
    chunk.extend(height.to_be_bytes());
    chunk.extend([8, 2, 0, 0, 0]); // 8-bit RGB
    out.extend(13u32.to_be_bytes());
    out.extend(&chunk);
    out.extend(crc32(&chunk).to_be_bytes());
    out
}

fn crc32(data: &[u8]) -> u32 {
    let mut crc = 0xffff_ffffu32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// The hands the fake reader sees, by photo id (`id % HANDS.len()`); ids ≥ 200 read no hand.
const HANDS: [(&str, &str); 4] = [
    ("234m567p22s345678s", "8s"),      // pinfu tanyao (ron), more with tsumo
    ("123m456p789s33344z", "4z"),      // no yaku without riichi or tsumo
    ("22244455s [777m] [999p]", "5s"), // toitoi
    ("123m456p11z [789s] (7777p)", "1z"), // needs tsumo/rinshan
];

fn detection(tile: &str, i: usize) -> Detection {
    let face = if tile == "back" {
        Face::Back
    } else {
        Face::Tile(parse_tiles(tile).unwrap()[0])
    };
    let mut probs = [0.0f32; CLASS_COUNT];
    let confidence = if i == 2 { 0.45 } else { 0.97 };
    probs[face.class()] = confidence;
    let rotated = RotatedBox {
        cx: 10.0 + 31.0 * i as f32,
        cy: 20.0,
        w: 30.0,
        h: 40.0,
        phi: -std::f32::consts::FRAC_PI_2,
    };
    Detection {
        tile: face,
        bounds: rotated.bounds(),
        confidence,
        sideways: false,
        detector_score: 0.9,
        rotated,
        probs,
        turned: None,
    }
}

/// What the fake reader returns for photo `id`.
fn fake_reading(id: u8, width: u32, height: u32) -> PhotoReading {
    if id >= 200 {
        return PhotoReading {
            width,
            height,
            tiles: vec![detection("1m", 0)],
            layout: Layout::default(),
            hand: None,
        };
    }
    let (text, win) = HANDS[id as usize % HANDS.len()];
    let parsed = parse_hand(text).unwrap();
    let tiles = parsed
        .tiles
        .iter()
        .enumerate()
        .map(|(i, t)| detection(&t.to_string(), i))
        .collect();
    PhotoReading {
        width,
        height,
        tiles,
        layout: Layout::default(),
        hand: Some(ReadHand {
            concealed: parsed.tiles,
            melds: parsed.melds,
            win: parse_tiles(win).unwrap()[0],
            win_set_apart: true,
            dora_indicators: parse_tiles("1m").unwrap(),
            uncertain: vec![2],
            corrected: vec![],
            complete: true,
        }),
    }
}

/// Shared log of the photo ids a set of fake readers read.
type Calls = Arc<Mutex<Vec<u8>>>;

/// Reads the id in the first pixel. Ids 250.. fail: 250 with a runtime error, 251 panics.
struct FakeReader {
    calls: Calls,
    delay: Duration,
}

impl PhotoReader for FakeReader {
    fn read(
        &mut self,
        photo: Reduced,
        _bytes: &[u8],
    ) -> Result<(Reduced, PhotoReading), VisionError> {
        let id = photo.image.pixels[0];
        self.calls.lock().unwrap().push(id);
        std::thread::sleep(self.delay);
        match id {
            250 => Err(VisionError::Runtime("the fake model failed".into())),
            251 => panic!("the fake model panicked"),
            _ => {
                let reading = fake_reading(id, photo.full_width, photo.full_height);
                Ok((photo, reading))
            }
        }
    }
}

fn readers(calls: &Calls, delay: Duration) -> Readers<FakeReader> {
    let calls = calls.clone();
    Readers::new(move || {
        Ok(FakeReader {
            calls: calls.clone(),
            delay,
        })
    })
    .unwrap()
}

fn options(dir: &Path) -> Options {
    Options {
        state: dir.join("state.sqlite3"),
        jobs: 2,
        thumbnails: false,
        reader_id: "fake reader 1".into(),
    }
}

/// Runs a batch over `photos` and returns the summary and the ids read.
fn run(
    dir: &Path,
    photos: &[PathBuf],
    conditions: Conditions,
) -> (batch::Summary, Vec<u8>, HashMap<PathBuf, Status>) {
    let calls = Calls::default();
    let readers = readers(&calls, Duration::ZERO);
    let batch = Batch::open(options(dir), conditions).unwrap();
    let statuses = Mutex::new(HashMap::new());
    let summary = batch
        .run(photos, &readers, &|path: &Path, status| {
            statuses.lock().unwrap().insert(path.to_path_buf(), status);
        })
        .unwrap();
    let mut ids = calls.lock().unwrap().clone();
    ids.sort();
    (summary, ids, statuses.into_inner().unwrap())
}

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&path, bytes).unwrap();
    path
}

fn row<'a>(rows: &'a [Row], name: &str) -> &'a Row {
    rows.iter()
        .find(|r| r.file.ends_with(name))
        .unwrap_or_else(|| panic!("no row for {name}"))
}

fn kind(row: &Row) -> Option<&str> {
    row.error.as_ref().map(|e| e.kind.as_str())
}

/// The score a request gets from the scorer directly.
fn expected_score(request: Value) -> Value {
    let request: Request = serde_json::from_value(request).unwrap();
    serde_json::to_value(request.score().unwrap()).unwrap()
}

fn no_conditions() -> Conditions {
    Conditions::new(None).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Tests

#[test]
fn bad_files_become_error_rows_and_the_run_goes_on() {
    let dir = temp_dir("bad");
    let good = jpeg();
    let photos = vec![
        write(&dir, "a_good.png", &png(0)),
        write(
            &dir,
            "b_corrupt.png",
            &[0x89, b'P', b'N', b'G', 1, 2, 3, 4, 5, 6, 7, 8, 9],
        ),
        write(&dir, "c_truncated.jpg", &good[..good.len() / 3]),
        write(&dir, "c_truncated_png.png", &{
            let p = png(0);
            p[..p.len() - 30].to_vec()
        }),
        write(
            &dir,
            "d_text.jpg",
            b"this is not a photo, just text renamed to .jpg\n",
        ),
        write(&dir, "e_bomb.png", &png_header(20_000, 20_000)),
        write(&dir, "f_good.JPG", &good),
        write(&dir, "g_empty.jpeg", b""),
        write(&dir, "h_no_hand.png", &png(200)),
        write(&dir, "i_reader_fails.png", &png(250)),
        write(&dir, "j_reader_panics.png", &png(251)),
        dir.join("k_missing.png"),
    ];
    let (summary, ids, statuses) = run(&dir, &photos, no_conditions());
    let rows = &summary.rows;
    assert_eq!(rows.len(), photos.len());
    for (row, path) in rows.iter().zip(&photos) {
        assert_eq!(row.file, path.to_string_lossy());
    }
    assert_eq!(kind(row(rows, "a_good.png")), None);
    assert!(row(rows, "a_good.png").score.is_some());
    assert_eq!(kind(row(rows, "b_corrupt.png")), Some("decode"));
    assert_eq!(kind(row(rows, "c_truncated.jpg")), Some("decode"));
    assert_eq!(kind(row(rows, "c_truncated_png.png")), Some("decode"));
    assert_eq!(kind(row(rows, "d_text.jpg")), Some("decode"));
    assert_eq!(kind(row(rows, "e_bomb.png")), Some("too_large"));
    assert!(row(rows, "e_bomb.png")
        .error
        .as_ref()
        .unwrap()
        .error
        .contains("20000"));
    assert_eq!(kind(row(rows, "g_empty.jpeg")), Some("decode"));
    assert_eq!(kind(row(rows, "h_no_hand.png")), Some("no_hand"));
    assert_eq!(row(rows, "h_no_hand.png").tiles.len(), 1);
    assert_eq!(kind(row(rows, "i_reader_fails.png")), Some("runtime"));
    assert_eq!(kind(row(rows, "j_reader_panics.png")), Some("runtime"));
    assert!(row(rows, "j_reader_panics.png")
        .error
        .as_ref()
        .unwrap()
        .error
        .contains("panicked"));
    assert_eq!(kind(row(rows, "k_missing.png")), Some("io"));
    assert_eq!(row(rows, "k_missing.png").sha256, None);
    // The valid JPEG decodes and is read.
    assert!(
        !row(rows, "f_good.JPG").tiles.is_empty(),
        "{:?}",
        row(rows, "f_good.JPG")
    );
    // Only decodable photos reach the reader.
    assert_eq!(ids.len(), 5, "{ids:?}");
    assert_eq!(statuses[&photos[9]], Status::Failed);
    assert_eq!(statuses[&photos[11]], Status::Failed);
    assert_eq!(statuses[&photos[1]], Status::Computed);
    assert_eq!(summary.computed, 9);
    assert_eq!(summary.failed, 3);

    // A second run reads only the photos whose failure was not stored (reader errors).
    let (again, ids, _) = run(&dir, &photos, no_conditions());
    assert_eq!(ids, vec![250, 251]);
    assert_eq!(again.reused, 9);
    assert_eq!(again.rows, summary.rows);
}

#[test]
fn rows_hold_the_tiles_hand_and_score() {
    let dir = temp_dir("rows");
    let photos = vec![write(&dir, "p.png", &png(0))];
    let (summary, _, _) = run(&dir, &photos, no_conditions());
    let row = &summary.rows[0];
    assert_eq!(
        row.sha256.as_deref(),
        Some(batch::sha256_hex(&png(0)).as_str())
    );
    assert_eq!((row.width, row.height), (Some(40), Some(30)));
    assert_eq!(row.tiles.len(), 14);
    assert_eq!(row.tiles[0].tile, "2m");
    assert_eq!(row.uncertain, vec![2]);
    assert_eq!(row.hand.as_deref(), Some("234m567p22345678s"));
    // The read dora indicator (1m) makes 2m a dora.
    let expected = expected_score(json!({
        "hand": "234m567p22s345678s", "win": "8s", "dora_indicators": "1m"
    }));
    assert_eq!(row.score.as_ref(), Some(&expected));
    let json: Value = serde_json::to_value(row).unwrap();
    for key in [
        "file",
        "sha256",
        "tiles",
        "hand",
        "uncertain",
        "score",
        "error",
    ] {
        assert!(json.get(key).is_some(), "no {key}");
    }
    assert_eq!(json["tiles"][0]["box"].as_array().unwrap().len(), 4);
    assert!(json["tiles"][2]["confidence"].as_f64().unwrap() < 0.5);
}

#[test]
fn sidecar_and_csv_conditions_are_applied() {
    let dir = temp_dir("conditions");
    let photos = vec![
        write(&dir, "a.png", &png(1)),       // CSV: riichi, seat S, honba 2
        write(&dir, "b.png", &png(5)),       // CSV: tsumo false; sidecar: tsumo true
        write(&dir, "sub/c.png", &png(200)), // no hand read; the sidecar gives one
        write(&dir, "d.png", &png(9)),       // sidecar with a typo
        write(&dir, "e.png", &png(13)),      // nothing: hand 1 has no yaku on a ron
        write(&dir, "f.png", &png(2)),       // CSV: rules wrc, dora overridden
        write(&dir, "g.png", &png(3)),       // sidecar: a hand typed a tile short
    ];
    write(
        &dir,
        "conditions.csv",
        b"file,riichi,seat_wind,honba,tsumo,rules,dora_indicators\n\
          a.png,1,S,2,,,\n\
          b.png,,,,false,,\n\
          f.png,,,,,wrc,9p\n",
    );
    write(&dir, "b.json", br#"{"tsumo": true, "riichi": true}"#);
    write(
        &dir,
        "sub/c.json",
        br#"{"hand": "123m456p789s11122z", "win": "2z", "tsumo": true, "round_wind": "S"}"#,
    );
    write(&dir, "d.json", br#"{"richi": true}"#);
    write(&dir, "g.json", br#"{"hand": "123m456p789s1155z"}"#);
    let conditions = no_conditions()
        .with_csv_file(&dir.join("conditions.csv"))
        .unwrap();
    assert!(conditions
        .unmatched(photos.iter().map(PathBuf::as_path))
        .is_empty());
    let (summary, _, _) = run(&dir, &photos, conditions);
    let rows = &summary.rows;

    let a = row(rows, "a.png");
    assert_eq!(
        a.score.as_ref().unwrap(),
        &expected_score(
            json!({"hand": "123m456p789s33344z", "win": "4z", "dora_indicators": "1m",
            "riichi": true, "seat_wind": "S", "honba": 2})
        )
    );
    assert_eq!(a.score.as_ref().unwrap()["points"]["honba"], 600);

    let b = row(rows, "b.png");
    assert_eq!(
        b.score.as_ref().unwrap(),
        &expected_score(
            json!({"hand": "123m456p789s33344z", "win": "4z", "dora_indicators": "1m",
            "riichi": true, "tsumo": true})
        )
    );

    let c = row(rows, "c.png");
    assert_eq!(c.hand.as_deref(), Some("123m456p789s11122z"));
    assert_eq!(c.tiles.len(), 1, "the tiles read are still reported");
    assert_eq!(
        c.score.as_ref().unwrap(),
        &expected_score(
            json!({"hand": "123m456p789s11122z", "win": "2z", "tsumo": true,
            "round_wind": "S"})
        )
    );

    let d = row(rows, "d.png");
    assert_eq!(kind(d), Some("sidecar"));
    assert!(d.error.as_ref().unwrap().error.contains("richi"), "{d:?}");
    assert_eq!(d.tiles.len(), 14);

    assert_eq!(kind(row(rows, "e.png")), Some("no_yaku"));

    let f = row(rows, "f.png");
    assert_eq!(
        f.score.as_ref().unwrap(),
        &expected_score(
            json!({"hand": "22244455s", "melds": ["[777m]", "[999p]"], "win": "5s",
            "dora_indicators": "9p", "rules": "wrc"})
        )
    );
    assert_eq!(f.hand.as_deref(), Some("22244455s [777m] [999p]"));

    // A hand a tile short: the error names the tiles that would complete it.
    let g = row(rows, "g.png");
    assert_eq!(kind(g), Some("wrong_tile_count"));
    assert!(
        g.error
            .as_ref()
            .unwrap()
            .error
            .ends_with("found 13; one tile short: 1z or 5z would complete it"),
        "{g:?}"
    );

    // Conditions changed after the run: the rows are scored again, the photos not read again.
    write(&dir, "d.json", br#"{"riichi": true}"#);
    let (again, ids, _) = run(&dir, &photos, no_conditions());
    assert!(ids.is_empty(), "{ids:?}");
    assert!(row(&again.rows, "d.png").score.is_some());
    assert_eq!(kind(row(&again.rows, "a.png")), Some("no_yaku"));
}

#[test]
fn rules_default_applies_under_csv_and_sidecar() {
    let dir = temp_dir("rules");
    let photos = vec![write(&dir, "a.png", &png(2)), write(&dir, "b.png", &png(6))];
    write(&dir, "b.json", br#"{"rules": "tenhou"}"#);
    let conditions = Conditions::new(Some("wrc")).unwrap();
    let (summary, _, _) = run(&dir, &photos, conditions);
    let base = json!({"hand": "22244455s", "melds": ["[777m]", "[999p]"], "win": "5s",
        "dora_indicators": "1m"});
    let mut wrc = base.clone();
    wrc["rules"] = json!("wrc");
    assert_eq!(
        summary.rows[0].score.as_ref().unwrap(),
        &expected_score(wrc)
    );
    assert_eq!(
        summary.rows[1].score.as_ref().unwrap(),
        &expected_score(base)
    );
}

#[test]
fn a_renamed_duplicate_is_not_read_again() {
    let dir = temp_dir("dup");
    let bytes = png(4);
    let photos = vec![
        write(&dir, "IMG_1.png", &bytes),
        write(&dir, "copy of IMG_1.png", &bytes),
        write(&dir, "other.png", &png(7)),
    ];
    let (summary, ids, statuses) = run(&dir, &photos, no_conditions());
    assert_eq!(ids.len(), 2, "{ids:?}");
    assert_eq!(summary.computed + summary.duplicates, 3);
    assert_eq!(summary.duplicates, 1);
    let statuses: HashSet<Status> = statuses.values().copied().collect();
    assert!(statuses.contains(&Status::Duplicate));
    let (a, b) = (&summary.rows[0], &summary.rows[1]);
    assert!(a.file.ends_with("IMG_1.png") && b.file.ends_with("copy of IMG_1.png"));
    assert_eq!(a.sha256, b.sha256);
    assert_eq!(a.score, b.score);
    assert!(a.score.is_some());

    // Another copy in a later run: taken from the state.
    let mut more = photos.clone();
    more.push(write(&dir, "IMG_1 (2).png", &bytes));
    let (summary, ids, _) = run(&dir, &more, no_conditions());
    assert!(ids.is_empty(), "{ids:?}");
    assert_eq!(summary.reused, 4);
    assert_eq!(summary.rows[3].score, summary.rows[0].score);
    let state = State::open(&dir.join("state.sqlite3"), "fake reader 1").unwrap();
    assert_eq!(state.result_count().unwrap(), 2);
    assert_eq!(
        state.file_hash(&more[3].to_string_lossy()).unwrap(),
        summary.rows[0].sha256
    );
}

#[test]
fn a_resumed_run_reads_only_the_missing_photos() {
    let dir = temp_dir("resume");
    let photos: Vec<PathBuf> = (0..8u8)
        .map(|i| write(&dir, &format!("p{i}.png"), &png(i)))
        .collect();
    let (first, ids, _) = run(&dir, &photos[..3], no_conditions());
    assert_eq!(ids, vec![0, 1, 2]);
    assert_eq!(first.rows.len(), 3);
    let (summary, ids, _) = run(&dir, &photos, no_conditions());
    assert_eq!(ids, vec![3, 4, 5, 6, 7]);
    assert_eq!((summary.reused, summary.computed), (3, 5));
    let files: Vec<&str> = summary.rows.iter().map(|r| r.file.as_str()).collect();
    let expected: Vec<String> = photos
        .iter()
        .map(|p| p.to_string_lossy().to_string())
        .collect();
    assert_eq!(files, expected);
    assert_eq!(summary.rows[..3], first.rows[..]);

    // Same rows as a run from scratch.
    let fresh = temp_dir("resume-fresh");
    let (scratch, _, _) = run(&fresh, &photos, no_conditions());
    assert_eq!(scratch.rows, summary.rows);
}

#[test]
fn a_state_of_another_reader_is_refused() {
    let dir = temp_dir("reader");
    let photos = vec![write(&dir, "a.png", &png(0))];
    run(&dir, &photos, no_conditions());
    let mut other = options(&dir);
    other.reader_id = "fake reader 2".into();
    let error = Batch::open(other, no_conditions()).err().unwrap();
    assert!(error.to_string().contains("fake reader 1"), "{error}");
}

#[test]
fn jsonl_and_csv_outputs_parse_back() {
    let dir = temp_dir("outputs");
    let photos = vec![
        write(&dir, "plain.png", &png(0)),
        write(&dir, "with, comma \"and quote\".png", &png(3)),
        write(&dir, "bad.jpg", b"nope"),
        write(&dir, "toitoi.png", &png(2)),
    ];
    write(
        &dir,
        "with, comma \"and quote\".json",
        br#"{"tsumo": true, "rinshan": true}"#,
    );
    let calls = Calls::default();
    let readers = readers(&calls, Duration::ZERO);
    let batch = Batch::open(options(&dir), no_conditions()).unwrap();
    let summary = batch.run(&photos, &readers, &|_, _| {}).unwrap();
    let jsonl = dir.join("out.jsonl");
    let csv_path = dir.join("out.CSV");
    batch.write_output(&summary.rows, &jsonl).unwrap();
    batch.write_output(&summary.rows, &csv_path).unwrap();

    let text = std::fs::read_to_string(&jsonl).unwrap();
    let parsed: Vec<Row> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(parsed, summary.rows);
    let values: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(values[2]["error"]["kind"], "decode");
    assert!(values[2]["score"].is_null() && values[2]["hand"].is_null());

    let records = csv::parse(&std::fs::read_to_string(&csv_path).unwrap()).unwrap();
    assert_eq!(records.len(), 5);
    assert_eq!(
        records[0].1,
        batch::row::CSV_COLUMNS.map(String::from).to_vec()
    );
    let col = |name: &str| {
        batch::row::CSV_COLUMNS
            .iter()
            .position(|c| *c == name)
            .unwrap()
    };
    for ((_, record), row) in records[1..].iter().zip(&summary.rows) {
        assert_eq!(record.len(), 13);
        assert_eq!(record[col("file")], row.file);
        assert_eq!(record[col("hand")], row.hand.clone().unwrap_or_default());
        match &row.score {
            Some(score) => {
                assert_eq!(record[col("han")], score["han"].to_string());
                assert_eq!(record[col("total")], score["points"]["total"].to_string());
                let names: Vec<&str> = score["yaku"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|y| y["name"].as_str().unwrap())
                    .collect();
                assert_eq!(record[col("yaku")], names.join(";"));
                assert_eq!(record[col("error_kind")], "");
            }
            None => {
                assert_eq!(record[col("han")], "");
                assert_eq!(record[col("error_kind")], row.error.as_ref().unwrap().kind);
            }
        }
    }
    let rinshan = &records[2].1;
    assert_eq!(rinshan[col("file")], photos[1].to_string_lossy());
    assert!(
        rinshan[col("yaku")].split(';').any(|y| y == "rinshan"),
        "{rinshan:?}"
    );
    // A dealer's tsumo: paid by each other player, no ron.
    assert_eq!(rinshan[col("ron")], "");
    assert_eq!(rinshan[col("tsumo_dealer")], "");
    assert_ne!(rinshan[col("tsumo_non_dealer")], "");
    let toitoi = &records[4].1;
    assert_eq!(toitoi[col("yaku")], "toitoi");
    assert_ne!(toitoi[col("ron")], "");
    assert!(dir.read_dir().unwrap().all(|e| !e
        .unwrap()
        .file_name()
        .to_string_lossy()
        .ends_with(".tmp")));
}

#[test]
fn the_report_is_self_contained_and_escaped() {
    let dir = temp_dir("report");
    let photos = vec![
        write(&dir, "a<b>&c.png", &png(0)),
        write(&dir, "no_hand.png", &png(200)),
        write(&dir, "bad.jpg", b"<script>alert(1)</script>"),
    ];
    // Read once without thumbnails, then ask for a report: the thumbnails are made then.
    run(&dir, &photos, no_conditions());
    let calls = Calls::default();
    let readers = readers(&calls, Duration::ZERO);
    let mut opts = options(&dir);
    opts.thumbnails = true;
    let batch = Batch::open(opts, no_conditions()).unwrap();
    let summary = batch.run(&photos, &readers, &|_, _| {}).unwrap();
    assert!(calls.lock().unwrap().is_empty());
    let report = dir.join("report.html");
    batch.write_report(&summary.rows, &report).unwrap();
    let html = std::fs::read_to_string(&report).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert_eq!(html.matches("data:image/jpeg;base64,").count(), 2);
    assert_eq!(html.matches("<svg").count(), 2);
    assert_eq!(html.matches("<rect").count(), 15);
    assert!(html.contains("a&lt;b&gt;&amp;c.png"));
    assert!(!html.contains("a<b>"));
    assert!(!html.contains("<script"));
    assert!(html.contains("no_hand"));
    assert!(html.contains("pinfu"));
    assert!(
        html.contains("stroke=\"#ff7a00\""),
        "the uncertain tile is coloured"
    );
    assert!(
        !html.contains("src=\"http"),
        "nothing is loaded from elsewhere"
    );
    // The thumbnails are now in the state.
    let state = State::open(&dir.join("state.sqlite3"), "fake reader 1").unwrap();
    let thumb = state
        .thumbnail(summary.rows[0].sha256.as_ref().unwrap())
        .unwrap()
        .unwrap();
    assert_eq!((thumb.width, thumb.height), (40, 30));
}

#[test]
fn thumbnails_are_made_while_reading_when_asked() {
    let dir = temp_dir("thumbs");
    let photos = vec![write(&dir, "a.png", &png(0))];
    let calls = Calls::default();
    let readers = readers(&calls, Duration::ZERO);
    let mut opts = options(&dir);
    opts.thumbnails = true;
    let batch = Batch::open(opts, no_conditions()).unwrap();
    let summary = batch.run(&photos, &readers, &|_, _| {}).unwrap();
    // The file is gone, yet the report has its picture.
    std::fs::remove_file(&photos[0]).unwrap();
    let report = dir.join("r.html");
    batch.write_report(&summary.rows, &report).unwrap();
    let html = std::fs::read_to_string(&report).unwrap();
    assert_eq!(html.matches("data:image/jpeg;base64,").count(), 1);
}

#[test]
fn discovery_is_recursive_sorted_and_case_insensitive() {
    let dir = temp_dir("discover");
    for name in [
        "b/2.JPG",
        "b/1.jpeg",
        "a.png",
        "b/c/d.Png",
        "notes.txt",
        "b/1.json",
        ".hidden/x.jpg",
        "b/._x.jpg",
    ] {
        write(&dir, name, b"x");
    }
    let given = dir.join("notes.txt");
    let found = discover(&[dir.clone(), dir.join("a.png"), given.clone()]).unwrap();
    let names: Vec<String> = found
        .photos
        .iter()
        .map(|p| p.strip_prefix(&dir).unwrap().to_string_lossy().to_string())
        .collect();
    assert_eq!(names, ["a.png", "b/1.jpeg", "b/2.JPG", "b/c/d.Png"]);
    assert_eq!(found.skipped, vec![given]);
    assert!(discover(&[dir.join("nope")]).is_err());
}

#[test]
fn bad_conditions_files_fail_before_any_work() {
    let dir = temp_dir("badcsv");
    let path = write(&dir, "c.csv", b"file,riichi\na.png,perhaps\n");
    let error = no_conditions().with_csv_file(&path).unwrap_err();
    assert!(error.to_string().contains("line 2"), "{error}");
    assert!(Conditions::new(Some("no-such-preset")).is_err());
    let conditions = no_conditions()
        .with_csv("c.csv", "file,seat_wind\nIMG_9.png,S\n")
        .unwrap();
    assert_eq!(
        conditions.unmatched([Path::new("x/IMG_1.png")]),
        vec!["IMG_9.png".to_string()]
    );
}

#[test]
fn a_missing_model_fails_before_any_work() {
    let result = Readers::<FakeReader>::new(|| {
        Err(VisionError::ModelNotFound {
            path: "models/tile_detector.onnx".into(),
        })
    });
    assert!(result.is_err());
}

#[test]
fn one_reader_per_worker_at_most() {
    let dir = temp_dir("pool");
    let photos: Vec<PathBuf> = (0..12u8)
        .map(|i| write(&dir, &format!("p{i:02}.png"), &png(i)))
        .collect();
    let calls = Calls::default();
    let readers = readers(&calls, Duration::from_millis(20));
    let mut opts = options(&dir);
    opts.jobs = 3;
    let batch = Batch::open(opts, no_conditions()).unwrap();
    assert_eq!(batch.jobs(), 3);
    batch.run(&photos, &readers, &|_, _| {}).unwrap();
    assert!(readers.made() <= 3, "{} readers", readers.made());
    assert_eq!(calls.lock().unwrap().len(), 12);
}

#[test]
fn a_stopped_run_keeps_what_it_read() {
    let dir = temp_dir("stop");
    let photos: Vec<PathBuf> = (0..20u8)
        .map(|i| write(&dir, &format!("p{i:02}.png"), &png(i)))
        .collect();
    let calls = Calls::default();
    let readers = readers(&calls, Duration::from_millis(10));
    let batch = Batch::open(options(&dir), no_conditions()).unwrap();
    let done = Mutex::new(0);
    let result = batch.run(&photos, &readers, &|_, _| {
        let mut done = done.lock().unwrap();
        *done += 1;
        if *done == 4 {
            batch.stop();
        }
    });
    assert!(
        matches!(result, Err(batch::BatchError::Stopped)),
        "{result:?}"
    );
    let read = calls.lock().unwrap().len();
    assert!((4..20).contains(&read), "{read} read");
    assert_eq!(batch.state().result_count().unwrap(), read);
    drop(batch);
    let (summary, ids, _) = run(&dir, &photos, no_conditions());
    assert_eq!(ids.len(), 20 - read);
    assert_eq!((summary.reused, summary.computed), (read, 20 - read));
}

// ---------------------------------------------------------------------------------------------
// SIGKILL in the middle of a run

const KILL_CHILD_ENV: &str = "RIICHI_LENS_BATCH_KILL_CHILD_DIR";

fn kill_photos(dir: &Path) -> Vec<PathBuf> {
    let mut photos = Vec::new();
    for i in 0..30u8 {
        photos.push(dir.join(format!("photos/p{i:02}.png")));
    }
    // A duplicate of p00 under another name.
    photos.push(dir.join("photos/z_copy.png"));
    photos
}

/// Child mode: only does something when the parent set the environment variable. Reads the
/// photos slowly and prints `COMMITTED <sha256>` after each committed result.
#[test]
fn kill_child() {
    let Ok(dir) = std::env::var(KILL_CHILD_ENV) else {
        return;
    };
    let dir = PathBuf::from(dir);
    let calls = Calls::default();
    let readers = readers(&calls, Duration::from_millis(100));
    let batch = Batch::open(options(&dir), no_conditions()).unwrap();
    let photos = kill_photos(&dir);
    let summary = batch
        .run(&photos, &readers, &|path: &Path, status| {
            if status == Status::Computed {
                let sha = batch::sha256_hex(&std::fs::read(path).unwrap());
                let stdout = std::io::stdout();
                let mut out = stdout.lock();
                writeln!(out, "COMMITTED {sha}").unwrap();
                out.flush().unwrap();
            }
        })
        .unwrap();
    batch
        .write_output(&summary.rows, &dir.join("out.jsonl"))
        .unwrap();
    println!("FINISHED");
}

#[test]
fn kill_9_in_the_middle_loses_and_repeats_nothing() {
    let dir = temp_dir("kill");
    let photos = kill_photos(&dir);
    let mut id_of_sha = HashMap::new();
    for (i, path) in photos.iter().enumerate() {
        let id = if i == 30 { 0 } else { i as u8 };
        let bytes = png(id);
        id_of_sha.insert(batch::sha256_hex(&bytes), id);
        write(
            &dir,
            &path.strip_prefix(&dir).unwrap().to_string_lossy(),
            &bytes,
        );
    }
    let mut committed: HashSet<String> = HashSet::new();
    for round in 0..2 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "kill_child", "--nocapture", "--test-threads=1"])
            .env(KILL_CHILD_ENV, &dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let wanted = committed.len() + 6 + 2 * round;
        let start = Instant::now();
        while committed.len() < wanted && start.elapsed() < Duration::from_secs(60) {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(sha) = line.strip_prefix("COMMITTED ") {
                        assert!(committed.insert(sha.to_string()), "{sha} committed twice");
                    }
                    assert_ne!(line, "FINISHED", "the child finished before the kill");
                }
                _ => break,
            }
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        assert!(
            committed.len() >= wanted,
            "the child committed only {}",
            committed.len()
        );
        // Every reported commit is in the state; nothing else is half there.
        let state = State::open(&dir.join("state.sqlite3"), "fake reader 1").unwrap();
        let finished = state.finished().unwrap();
        assert!(
            committed.is_subset(&finished),
            "a committed result was lost"
        );
        for sha in &finished {
            assert!(state.outcome(sha).unwrap().is_some());
        }
        // Results committed after the last line read count as committed too.
        committed.extend(finished);
    }
    assert!(
        committed.len() < 30,
        "the kills came too late to test anything"
    );

    // Resume in this process: only the photos without a result are read.
    let calls = Calls::default();
    let readers = readers(&calls, Duration::ZERO);
    let batch = Batch::open(options(&dir), no_conditions()).unwrap();
    let summary = batch.run(&photos, &readers, &|_, _| {}).unwrap();
    let read: Vec<u8> = calls.lock().unwrap().clone();
    let committed_ids: HashSet<u8> = committed.iter().map(|s| id_of_sha[s]).collect();
    let read_ids: HashSet<u8> = read.iter().copied().collect();
    assert_eq!(
        read.len(),
        read_ids.len(),
        "a photo was read twice: {read:?}"
    );
    assert!(
        committed_ids.is_disjoint(&read_ids),
        "committed results were read again: {:?}",
        committed_ids.intersection(&read_ids).collect::<Vec<_>>()
    );
    assert_eq!(committed_ids.len() + read_ids.len(), 30);
    batch
        .write_output(&summary.rows, &dir.join("out.jsonl"))
        .unwrap();
    let text = std::fs::read_to_string(dir.join("out.jsonl")).unwrap();
    let files: Vec<String> = text
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["file"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let expected: Vec<String> = photos
        .iter()
        .map(|p| p.to_string_lossy().to_string())
        .collect();
    assert_eq!(files, expected, "every file exactly once, in input order");
    assert!(summary
        .rows
        .iter()
        .all(|r| r.sha256.is_some() && !r.tiles.is_empty() && r.hand.is_some()));
    let (first, copy) = (&summary.rows[0], &summary.rows[30]);
    assert_eq!((&first.sha256, &first.score), (&copy.sha256, &copy.score));
    assert_eq!(batch.state().result_count().unwrap(), 30);
}
