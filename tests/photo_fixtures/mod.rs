//! The labelled photo fixtures of `datasets/fixtures/` (format: `datasets/README.md`) and the
//! comparison of what the recognizer reads on them with their ground truth. Shared by
//! `tests/e2e_photos.rs` and `examples/fixture_report.rs`.

#![allow(dead_code)]

#[path = "../common/mod.rs"]
pub mod common;

use common::yaku_multiset;
use riichi_lens::hand::MeldKind;
use riichi_lens::notation::{format_tiles, parse_tile};
use riichi_lens::tile::Tile;
use riichi_lens::vision::layout::ReadHand;
use riichi_lens::vision::picture::Rgb;
use riichi_lens::vision::{Detection, Face, PhotoReading, Recognizer};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

/// One fixture: its JSON ground truth and where its image is.
pub struct Fixture {
    pub name: String,
    pub image: PathBuf,
    pub truth: Value,
}

pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/fixtures")
}

/// Every fixture, sorted by name.
pub fn load_all() -> Vec<Fixture> {
    load_dir(&fixtures_dir())
}

/// Every fixture of `dir` (a directory laid out like `datasets/fixtures/`), sorted by name.
pub fn load_dir(dir: &Path) -> Vec<Fixture> {
    let mut out = Vec::new();
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display()));
    for entry in entries {
        let path = entry.expect("directory entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("json") {
            continue;
        }
        let text = std::fs::read_to_string(&path).expect("fixture JSON readable");
        let truth: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{}: not JSON: {e}", path.display()));
        let image = dir.join(truth["image"].as_str().expect("fixture names its image"));
        out.push(Fixture {
            name: truth["name"]
                .as_str()
                .expect("fixture has a name")
                .to_string(),
            image,
            truth,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

fn tile(code: &Value) -> Tile {
    let code = code.as_str().expect("tile code is a string");
    parse_tile(code).unwrap_or_else(|e| panic!("bad tile code {code}: {e}"))
}

fn tiles(codes: &Value) -> Vec<Tile> {
    codes
        .as_array()
        .expect("tile list")
        .iter()
        .map(tile)
        .collect()
}

fn meld_kind(name: &str) -> MeldKind {
    match name {
        "chi" => MeldKind::Chi,
        "pon" => MeldKind::Pon,
        "open_kan" => MeldKind::OpenKan,
        "closed_kan" => MeldKind::ClosedKan,
        "added_kan" => MeldKind::AddedKan,
        other => panic!("unknown meld kind {other}"),
    }
}

/// The ground truth's hand in notation, the way `ReadHand::notation` writes it.
pub fn truth_notation(truth: &Value) -> String {
    let hand = &truth["hand"];
    let mut concealed = tiles(&hand["concealed"]);
    concealed.push(tile(&hand["win"]));
    let mut out = format_tiles(&concealed);
    for meld in hand["melds"].as_array().expect("melds") {
        out.push(' ');
        out.push_str(&format!(
            "{}:{}",
            meld["kind"].as_str().unwrap_or("?"),
            format_tiles(&tiles(&meld["tiles"]))
        ));
    }
    out
}

/// The riichi-lens request for a hand read from the photo, with the fixture's win conditions.
pub fn request_for(hand: &ReadHand, conditions: &Value) -> Value {
    let mut request = conditions.as_object().cloned().unwrap_or_default();
    request.insert("hand".into(), json!(format_tiles(&hand.concealed)));
    request.insert(
        "melds".into(),
        json!(hand.melds.iter().map(|m| m.to_string()).collect::<Vec<_>>()),
    );
    request.insert("win".into(), json!(hand.win.to_string()));
    request.insert(
        "dora_indicators".into(),
        json!(format_tiles(&hand.dora_indicators)),
    );
    Value::Object(request)
}

/// How a `score --jsonl` result differs from the reference's expected result (empty: same).
pub fn score_differences(expected: &Value, actual: &Value) -> Vec<String> {
    if let Some(error) = actual.get("error") {
        return vec![format!("scoring error: {error}")];
    }
    let mut out = Vec::new();
    for field in ["han", "yakuman"] {
        if actual[field] != expected[field] {
            out.push(format!(
                "{field} {} (expected {})",
                actual[field], expected[field]
            ));
        }
    }
    if expected["yakuman"].as_i64().unwrap_or(0) == 0 && actual["fu"] != expected["fu"] {
        out.push(format!("fu {} (expected {})", actual["fu"], expected["fu"]));
    }
    let (ey, ay) = (yaku_multiset(expected), yaku_multiset(actual));
    if ey != ay {
        out.push(format!("yaku {ay:?} (expected {ey:?})"));
    }
    for f in ["total", "ron", "tsumo_dealer", "tsumo_non_dealer"] {
        let get = |v: &Value| v["points"].get(f).cloned().unwrap_or(Value::Null);
        if get(actual) != get(expected) {
            out.push(format!(
                "points.{f} {} (expected {})",
                get(actual),
                get(expected)
            ));
        }
    }
    out
}

/// Scores a request with riichi-lens (the `score --jsonl` path).
pub fn score(request: &Value) -> Value {
    let line = riichi_lens::jsonl::score_line(&request.to_string());
    serde_json::from_str(&line).expect("score_line prints JSON")
}

/// What the recognizer made of one fixture.
#[derive(Debug, Default)]
pub struct Outcome {
    pub name: String,
    pub truth_tiles: usize,
    /// Ground-truth tiles (dead-wall backs included) found once with their true face and, in
    /// the hand or the dora indicators, their true orientation: the per-tile measure of the
    /// synthetic test sets, taken on winning hands.
    pub tiles_right: usize,
    /// The same for the tiles of the hand and the dora indicators alone (what is scored).
    pub hand_tiles: usize,
    pub hand_tiles_right: usize,
    /// The same with each concealed tile's face as the decoded hand reports it (the
    /// hand-aware decoding may change a reading).
    pub hand_tiles_decoded_right: usize,
    pub detected: usize,
    /// Tiles of the hand or dora indicators no detection lies on (`index:code`).
    pub missed: Vec<String>,
    /// Face-down dead-wall tiles (beside the dora indicators) no detection lies on: they are
    /// not part of the hand, so they are reported, not required.
    pub wall_missed: Vec<String>,
    /// Face-up detections on no ground-truth tile, or a second one on the same tile.
    pub extra: Vec<String>,
    /// Face-down detections on no ground-truth tile: harmless unless the layout puts them in
    /// the hand, which the layout check catches.
    pub extra_backs: Vec<String>,
    /// Matched tiles whose most probable face is not the true one (`index:true->read`).
    pub top1_wrong: Vec<String>,
    /// Matched tiles whose sideways flag is wrong.
    pub sideways_wrong: Vec<String>,
    /// Tiles of the hand or the dora indicators (not the face-down dead-wall tiles) missed, or
    /// read with a wrong top-1 face or orientation, and face-up false detections.
    pub hand_tiles_wrong: Vec<String>,
    /// Where the layout puts tiles elsewhere than the ground truth.
    pub layout_wrong: Vec<String>,
    /// How the decoded hand differs from the ground truth.
    pub hand_wrong: Vec<String>,
    /// The hand read, in notation, when one was.
    pub hand_read: Option<String>,
    pub hand_truth: String,
    /// Tiles the hand-aware decoding changed.
    pub corrected: usize,
    /// Whether the reading asks the user to check it: no hand, an incomplete one, or a tile
    /// marked uncertain.
    pub flagged: bool,
    /// How the score of the hand read differs from the reference's expected score.
    pub score_wrong: Vec<String>,
    pub points_read: Option<i64>,
    pub points_expected: i64,
}

impl Outcome {
    /// Every tile found once with its true face (the most probable reading, before the
    /// hand-aware decoding) and orientation, and the layout right.
    pub fn tiles_exact(&self) -> bool {
        self.missed.is_empty()
            && self.extra.is_empty()
            && self.top1_wrong.is_empty()
            && self.sideways_wrong.is_empty()
            && self.layout_wrong.is_empty()
    }

    /// The decoded hand is the true hand.
    pub fn decoded_hand_right(&self) -> bool {
        self.missed.is_empty()
            && self.extra.is_empty()
            && self.sideways_wrong.is_empty()
            && self.layout_wrong.is_empty()
            && self.hand_wrong.is_empty()
    }

    /// The most probable reading of every tile of the hand and of the dora indicators is right
    /// (found, true face, true orientation): the hand before the hand-aware decoding.
    pub fn top1_hand_right(&self) -> bool {
        self.hand_tiles_wrong.is_empty()
    }

    /// The hand read (concealed tiles, winning tile, melds, dora indicators) and its points
    /// are right, whatever else was detected around it.
    pub fn hand_and_points_right(&self) -> bool {
        self.hand_wrong.is_empty() && self.score_wrong.is_empty()
    }

    /// Tiles, layout, decoded hand and points all as in the ground truth.
    pub fn exact(&self) -> bool {
        self.decoded_hand_right() && self.score_wrong.is_empty()
    }

    /// One line: what went wrong, or `exact`.
    pub fn summary(&self) -> String {
        let mut parts = Vec::new();
        let list = |label: &str, v: &Vec<String>| format!("{label} {}", v.join(" "));
        if !self.missed.is_empty() {
            parts.push(list("missed", &self.missed));
        }
        if !self.extra.is_empty() {
            parts.push(list("extra", &self.extra));
        }
        if !self.wall_missed.is_empty() {
            parts.push(list("(wall missed", &self.wall_missed) + ")");
        }
        if !self.extra_backs.is_empty() {
            parts.push(list("(extra backs", &self.extra_backs) + ")");
        }
        if !self.top1_wrong.is_empty() {
            parts.push(list("top-1 misread", &self.top1_wrong));
        }
        if !self.sideways_wrong.is_empty() {
            parts.push(list("sideways wrong", &self.sideways_wrong));
        }
        if !self.layout_wrong.is_empty() {
            parts.push(list("layout", &self.layout_wrong));
        }
        if !self.hand_wrong.is_empty() {
            parts.push(list("hand", &self.hand_wrong));
        }
        if !self.score_wrong.is_empty() {
            parts.push(list("score", &self.score_wrong));
        }
        if parts.is_empty() {
            "exact".into()
        } else {
            parts.join("; ")
        }
    }
}

/// Whether the centre of `d` lies on the ground-truth tile `t` (its rotated face rectangle).
fn lies_on(d: &Detection, t: &Value) -> Option<f32> {
    let r = &t["rotated"];
    let f = |k: &str| r[k].as_f64().unwrap_or(f64::NAN) as f32;
    let (cx, cy, w, h, phi) = (f("cx"), f("cy"), f("w"), f("h"), f("phi"));
    let (dx, dy) = (d.rotated.cx - cx, d.rotated.cy - cy);
    let along_up = dx * phi.cos() + dy * phi.sin();
    let across = -dx * phi.sin() + dy * phi.cos();
    (along_up.abs() <= h / 2.0 && across.abs() <= w / 2.0).then(|| dx.hypot(dy))
}

/// Matches detections to ground-truth tiles: `matched[gt] = Some(detection)`; the rest of the
/// detections are extras.
fn match_tiles(dets: &[Detection], truth: &[Value]) -> (Vec<Option<usize>>, Vec<usize>) {
    let mut best: Vec<Option<(usize, f32)>> = vec![None; truth.len()];
    let mut extra = Vec::new();
    for (i, d) in dets.iter().enumerate() {
        let on = truth
            .iter()
            .enumerate()
            .filter_map(|(g, t)| lies_on(d, t).map(|dist| (g, dist)))
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match on {
            None => extra.push(i),
            Some((g, dist)) => match best[g] {
                Some((_, other)) if other <= dist => extra.push(i),
                Some((j, _)) => {
                    extra.push(j);
                    best[g] = Some((i, dist));
                }
                None => best[g] = Some((i, dist)),
            },
        }
    }
    extra.sort_unstable();
    (best.into_iter().map(|b| b.map(|(i, _)| i)).collect(), extra)
}

/// Compares a reading of the fixture's photo with its ground truth.
pub fn compare(fixture: &Fixture, reading: &PhotoReading) -> Outcome {
    let truth = &fixture.truth;
    let gt: &Vec<Value> = truth["tiles"].as_array().expect("tiles");
    let mut out = Outcome {
        name: fixture.name.clone(),
        truth_tiles: gt.len(),
        detected: reading.tiles.len(),
        hand_truth: truth_notation(truth),
        points_expected: truth["expected"]["points"]["total"].as_i64().unwrap_or(-1),
        ..Outcome::default()
    };
    let (matched, extra) = match_tiles(&reading.tiles, gt);
    // The face the decoded hand gives each concealed tile, the winning tile last.
    let mut decoded: Vec<Option<Tile>> = vec![None; reading.tiles.len()];
    if let Some(hand) = &reading.hand {
        let ids = reading.layout.concealed.iter().chain(&reading.layout.win);
        for (&i, &t) in ids.zip(&hand.concealed) {
            decoded[i] = Some(t);
        }
    }
    // detection index -> ground-truth index
    let mut truth_of = vec![None; reading.tiles.len()];
    for (g, m) in matched.iter().enumerate() {
        let code = gt[g]["tile"].as_str().unwrap_or("?");
        let in_hand = gt[g]["role"].as_str() != Some("wall");
        out.hand_tiles += usize::from(in_hand);
        let mut wrong = Vec::new();
        match m {
            None if !in_hand => out.wall_missed.push(format!("{g}:{code}")),
            None => {
                out.missed.push(format!("{g}:{code}"));
                wrong.push(format!("{g}:{code} missed"));
            }
            Some(i) => {
                truth_of[*i] = Some(g);
                let d = &reading.tiles[*i];
                let read = d.tile.notation();
                if read != code {
                    out.top1_wrong.push(format!("{g}:{code}->{read}"));
                    wrong.push(format!("{g}:{code}->{read}"));
                }
                // A face-down dead-wall tile has no orientation that matters.
                let turned_wrong =
                    in_hand && d.sideways != gt[g]["sideways"].as_bool().unwrap_or(false);
                if turned_wrong {
                    out.sideways_wrong.push(format!("{g}:{code}"));
                    wrong.push(format!("{g}:{code} sideways {}", d.sideways));
                }
                if read == code && !turned_wrong {
                    out.tiles_right += 1;
                    out.hand_tiles_right += usize::from(in_hand);
                }
                let reported = decoded[*i].map_or(read, |t| t.to_string());
                if in_hand && reported == code && !turned_wrong {
                    out.hand_tiles_decoded_right += 1;
                }
            }
        }
        if in_hand {
            out.hand_tiles_wrong.extend(wrong);
        }
    }
    for i in extra {
        let d = &reading.tiles[i];
        let [x1, y1, x2, y2] = d.bounds;
        let text = format!("{}@[{x1:.0},{y1:.0},{x2:.0},{y2:.0}]", d.tile.notation());
        // A face-up false detection joins the hand or the dora indicators.
        if d.tile != Face::Back {
            out.hand_tiles_wrong.push(format!("extra {text}"));
            out.extra.push(text);
        } else {
            out.extra_backs.push(text);
        }
    }

    // Layout, by ground-truth index.
    let to_truth =
        |ids: &[usize]| -> Vec<Option<usize>> { ids.iter().map(|&i| truth_of[i]).collect() };
    let want = |v: &Value| -> Vec<Option<usize>> {
        v.as_array()
            .expect("index list")
            .iter()
            .map(|x| x.as_u64().map(|x| x as usize))
            .collect()
    };
    let layout = &reading.layout;
    let lt = &truth["layout"];
    fn check(out: &mut Outcome, what: &str, got: Vec<Option<usize>>, want: Vec<Option<usize>>) {
        if got != want {
            out.layout_wrong
                .push(format!("{what} {got:?} (expected {want:?})"));
        }
    }
    check(
        &mut out,
        "concealed",
        to_truth(&layout.concealed),
        want(&lt["concealed"]),
    );
    check(
        &mut out,
        "win",
        to_truth(&layout.win.into_iter().collect::<Vec<_>>()),
        vec![lt["win"].as_u64().map(|x| x as usize)],
    );
    check(&mut out, "dora", to_truth(&layout.dora), want(&lt["dora"]));
    // Dead-wall tiles are set aside (unplaced) when found; a hand tile never is.
    let walls = want(&lt["wall"]);
    let misplaced: Vec<Option<usize>> = to_truth(&layout.unplaced)
        .into_iter()
        .filter(|g| g.is_some() && !walls.contains(g))
        .collect();
    check(&mut out, "unplaced", misplaced, Vec::new());
    let truth_melds = lt["melds"].as_array().expect("melds");
    if layout.melds.len() != truth_melds.len() {
        out.layout_wrong.push(format!(
            "{} melds (expected {})",
            layout.melds.len(),
            truth_melds.len()
        ));
    } else {
        for (n, (spot, tm)) in layout.melds.iter().zip(truth_melds).enumerate() {
            let mut got = to_truth(&spot.tiles);
            let mut want = want(&tm["tiles"]);
            got.sort();
            want.sort();
            check(&mut out, &format!("meld {n} tiles"), got, want);
            let kind = meld_kind(tm["kind"].as_str().unwrap_or("?"));
            if spot.closed_kan != (kind == MeldKind::ClosedKan)
                || spot.stacked != (kind == MeldKind::AddedKan)
            {
                out.layout_wrong.push(format!(
                    "meld {n}: closed_kan {} stacked {} (expected {})",
                    spot.closed_kan, spot.stacked, tm["kind"]
                ));
            }
            let want_called = tm["called"].as_u64().map(|x| x as usize);
            if spot.called != want_called {
                out.layout_wrong.push(format!(
                    "meld {n}: called {:?} (expected {want_called:?})",
                    spot.called
                ));
            }
        }
    }

    // The decoded hand.
    let hand_truth = &truth["hand"];
    match &reading.hand {
        None => {
            out.hand_wrong.push("no hand read".into());
            out.flagged = true;
        }
        Some(hand) => {
            out.hand_read = Some(hand.notation());
            out.flagged = !hand.complete || !hand.uncertain.is_empty();
            out.corrected = hand.corrected.len();
            let mut concealed = tiles(&hand_truth["concealed"]);
            let win = tile(&hand_truth["win"]);
            concealed.push(win);
            if hand.concealed != concealed {
                out.hand_wrong.push(format!(
                    "concealed {} (expected {})",
                    format_tiles(&hand.concealed),
                    format_tiles(&concealed)
                ));
            }
            if hand.win != win || !hand.win_set_apart {
                out.hand_wrong.push(format!(
                    "win {} set apart {} (expected {win} set apart)",
                    hand.win, hand.win_set_apart
                ));
            }
            let dora = tiles(&hand_truth["dora_indicators"]);
            if hand.dora_indicators != dora {
                out.hand_wrong.push(format!(
                    "dora indicators {} (expected {})",
                    format_tiles(&hand.dora_indicators),
                    format_tiles(&dora)
                ));
            }
            let truth_melds = hand_truth["melds"].as_array().expect("melds");
            if hand.melds.len() != truth_melds.len() {
                out.hand_wrong.push(format!(
                    "{} melds read (expected {})",
                    hand.melds.len(),
                    truth_melds.len()
                ));
            } else {
                for (n, (meld, tm)) in hand.melds.iter().zip(truth_melds).enumerate() {
                    let kind = meld_kind(tm["kind"].as_str().unwrap_or("?"));
                    let mut want = tiles(&tm["tiles"]);
                    let mut got = meld.tiles().to_vec();
                    // Kans: face-down and stacked tiles have no reading order; compare as sets.
                    if matches!(kind, MeldKind::ClosedKan | MeldKind::AddedKan) {
                        want.sort();
                        got.sort();
                    }
                    let want_called = tm["called"].as_u64().map(|x| x as usize);
                    if meld.kind() != kind || got != want || meld.called_index() != want_called {
                        out.hand_wrong.push(format!(
                            "meld {n} {meld} (expected {}:{} called {want_called:?})",
                            tm["kind"].as_str().unwrap_or("?"),
                            format_tiles(&want)
                        ));
                    }
                }
            }
            let actual = score(&request_for(hand, &truth["conditions"]));
            out.points_read = actual["points"]["total"].as_i64();
            out.score_wrong = score_differences(&truth["expected"], &actual);
        }
    }
    out
}

/// Reads one fixture's photo and compares it with the ground truth.
pub fn run(recognizer: &mut Recognizer, fixture: &Fixture) -> Outcome {
    let rgb =
        Rgb::open(&fixture.image).unwrap_or_else(|e| panic!("{}: {e}", fixture.image.display()));
    run_on(recognizer, fixture, &rgb)
}

/// Reads `rgb` as the photo of `fixture` and compares.
pub fn run_on(recognizer: &mut Recognizer, fixture: &Fixture, rgb: &Rgb) -> Outcome {
    assert_eq!(
        (u64::from(rgb.width), u64::from(rgb.height)),
        (
            fixture.truth["width"].as_u64().unwrap_or(0),
            fixture.truth["height"].as_u64().unwrap_or(0)
        ),
        "{}: image size differs from its ground truth",
        fixture.name
    );
    let reading = recognizer
        .read_photo(rgb)
        .unwrap_or_else(|e| panic!("{}: {e}", fixture.name));
    compare(fixture, &reading)
}

/// A far shot made from a photo: shrunk to half size (box filter) in the middle of a frame of
/// the same size whose border repeats the shrunk photo's edge pixels.
pub fn far_frame(image: &Rgb) -> Rgb {
    let (w, h) = (image.width, image.height);
    let (hw, hh) = (w / 2, h / 2);
    let small = resized(
        &image.pixels,
        (w, h),
        (hw, hh),
        fast_image_resize::FilterType::Box,
    );
    let (ox, oy) = far_offset(w, h);
    let mut pixels = vec![0u8; (w * h * 3) as usize];
    for y in 0..h {
        let sy = y.saturating_sub(oy).min(hh - 1);
        for x in 0..w {
            let sx = x.saturating_sub(ox).min(hw - 1);
            let (d, s) = (((y * w + x) * 3) as usize, ((sy * hw + sx) * 3) as usize);
            pixels[d..d + 3].copy_from_slice(&small[s..s + 3]);
        }
    }
    Rgb::new(w, h, pixels).expect("frame size")
}

/// The fixture's photo with its winning tile painted over in the table's colour (the median
/// of the photo's border pixels), so the hand read from it lacks a tile (or two: the paint
/// reaches a third of a tile beyond the face, into a neighbour not set apart).
pub fn incomplete_frame(fixture: &Fixture) -> Rgb {
    let mut rgb = Rgb::open(&fixture.image).expect("fixture image");
    let (w, h) = (rgb.width as usize, rgb.height as usize);
    let mut border: Vec<[u8; 3]> = (0..w)
        .flat_map(|x| [(x, 0), (x, h - 1)])
        .chain((0..h).flat_map(|y| [(0, y), (w - 1, y)]))
        .map(|(x, y)| {
            let i = (y * w + x) * 3;
            [rgb.pixels[i], rgb.pixels[i + 1], rgb.pixels[i + 2]]
        })
        .collect();
    let table: [u8; 3] = std::array::from_fn(|c| {
        border.sort_by_key(|p| p[c]);
        border[border.len() / 2][c]
    });
    let win = fixture.truth["layout"]["win"].as_u64().expect("win index") as usize;
    let b: Vec<f64> = fixture.truth["tiles"][win]["box"]
        .as_array()
        .expect("box")
        .iter()
        .map(|v| v.as_f64().expect("coordinate"))
        .collect();
    // The face's box grown by a third of its size, so the tile's sides go too.
    let grow = (b[2] - b[0]).max(b[3] - b[1]) / 3.0;
    let clamp = |v: f64, n: usize| (v.max(0.0) as usize).min(n);
    for y in clamp(b[1] - grow, h)..clamp(b[3] + grow, h) {
        for x in clamp(b[0] - grow, w)..clamp(b[2] + grow, w) {
            let i = (y * w + x) * 3;
            rgb.pixels[i..i + 3].copy_from_slice(&table);
        }
    }
    rgb
}

/// RGB pixels of `size` resized to `to` with `filter`.
pub fn resized(
    pixels: &[u8],
    size: (u32, u32),
    to: (u32, u32),
    filter: fast_image_resize::FilterType,
) -> Vec<u8> {
    use fast_image_resize as fr;
    let src = fr::images::ImageRef::new(size.0, size.1, pixels, fr::PixelType::U8x3)
        .expect("source image");
    let mut dst = fr::images::Image::new(to.0, to.1, fr::PixelType::U8x3);
    let options = fr::ResizeOptions::new().resize_alg(fr::ResizeAlg::Convolution(filter));
    fr::Resizer::new()
        .resize(&src, &mut dst, &options)
        .expect("resize");
    dst.into_vec()
}

/// Where [`far_frame`] puts the shrunk photo's top-left pixel.
fn far_offset(width: u32, height: u32) -> (u32, u32) {
    ((width - width / 2) / 2, (height - height / 2) / 2)
}

/// The fixture as [`far_frame`] shows it: every tile's box moved and halved with the photo.
pub fn far_fixture(fixture: &Fixture) -> Fixture {
    let w = fixture.truth["width"].as_u64().unwrap_or(0) as u32;
    let h = fixture.truth["height"].as_u64().unwrap_or(0) as u32;
    let (ox, oy) = far_offset(w, h);
    // pixel centres: x in the photo is at (x + 0.5) / 2 - 0.5 in the shrunk copy
    let point = |x: f64, y: f64| {
        (
            (x + 0.5) / 2.0 - 0.5 + f64::from(ox),
            (y + 0.5) / 2.0 - 0.5 + f64::from(oy),
        )
    };
    moved_fixture(fixture, point, 0.5, 0.0)
}

/// The fixture as its photo turned half a turn ([`Rgb::half_turned`]) shows it: every tile's
/// box mirrored through the photo's centre, its up axis the other way.
pub fn half_turned_fixture(fixture: &Fixture) -> Fixture {
    let w = fixture.truth["width"].as_f64().unwrap_or(0.0);
    let h = fixture.truth["height"].as_f64().unwrap_or(0.0);
    let point = |x: f64, y: f64| (w - 1.0 - x, h - 1.0 - y);
    moved_fixture(fixture, point, 1.0, std::f64::consts::PI)
}

/// The fixture as its photo turned a quarter clockwise ([`Rgb::turned_clockwise`]), or
/// anticlockwise, shows it: every tile's box turned with the photo, whose width and height
/// swap.
pub fn quarter_turned_fixture(fixture: &Fixture, clockwise: bool) -> Fixture {
    let w = fixture.truth["width"].as_f64().unwrap_or(0.0);
    let h = fixture.truth["height"].as_f64().unwrap_or(0.0);
    let quarter = std::f64::consts::FRAC_PI_2;
    let mut turned = if clockwise {
        moved_fixture(fixture, |x, y| (h - 1.0 - y, x), 1.0, quarter)
    } else {
        moved_fixture(fixture, |x, y| (y, w - 1.0 - x), 1.0, -quarter)
    };
    turned.truth["width"] = fixture.truth["height"].clone();
    turned.truth["height"] = fixture.truth["width"].clone();
    turned
}

/// The fixture with every tile's box moved by `point` (its corners and centre), its sides
/// scaled by `k` and its up axis turned by `turn`.
fn moved_fixture(
    fixture: &Fixture,
    point: impl Fn(f64, f64) -> (f64, f64),
    k: f64,
    turn: f64,
) -> Fixture {
    let mut truth = fixture.truth.clone();
    for t in truth["tiles"].as_array_mut().expect("tiles") {
        let b: Vec<f64> = t["box"]
            .as_array()
            .expect("box")
            .iter()
            .map(|v| v.as_f64().unwrap_or(f64::NAN))
            .collect();
        let (p, q) = (point(b[0], b[1]), point(b[2], b[3]));
        t["box"] = json!([p.0.min(q.0), p.1.min(q.1), p.0.max(q.0), p.1.max(q.1)]);
        let r = &mut t["rotated"];
        let get = |r: &Value, k: &str| r[k].as_f64().unwrap_or(f64::NAN);
        let (cx, cy, rw, rh, phi) = (
            get(r, "cx"),
            get(r, "cy"),
            get(r, "w"),
            get(r, "h"),
            get(r, "phi"),
        );
        let (cx, cy) = point(cx, cy);
        r["cx"] = json!(cx);
        r["cy"] = json!(cy);
        r["w"] = json!(rw * k);
        r["h"] = json!(rh * k);
        r["phi"] = json!(phi + turn);
    }
    Fixture {
        name: fixture.name.clone(),
        image: fixture.image.clone(),
        truth,
    }
}
