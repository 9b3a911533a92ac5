//! End to end on the labelled photo fixtures of `datasets/fixtures/` (rendered by
//! `datasets/make_fixtures.py`; format in `datasets/README.md`): photo → tiles → layout → hand →
//! score with the committed models, against ground truth from the scene generator and expected
//! scores from the reference library `mahjong==2.1.0`.
//!
//! Needs ONNX Runtime (`scripts/setup.sh` puts it in `.venv`) and `models/*.onnx`.

mod photo_fixtures;

use photo_fixtures::{
    compare, far_fixture, far_frame, half_turned_fixture, load_all, quarter_turned_fixture, run,
    run_on, score, score_differences, Fixture, Outcome,
};
use riichi_lens::vision::picture::Rgb;
use riichi_lens::vision::{
    LiveMemo, PhotoReading, Recognizer, SecondOpinion, Settings, SECOND_OPINION_REMEMBERED,
};

/// The recipe in `datasets/fixture_hands.py` has 20 scenes.
const FIXTURES: usize = 20;

/// The ground truth is whole and consistent: every tile has a role the layout lists once, and
/// riichi-lens scores each true hand as the reference library did. A failure here is a fixture
/// or scorer problem, not a recognition one.
#[test]
fn fixture_ground_truth_is_consistent_and_scores_as_the_reference() {
    let fixtures = load_all();
    assert_eq!(fixtures.len(), FIXTURES, "fixtures in datasets/fixtures");
    for f in &fixtures {
        let t = &f.truth;
        assert!(
            f.image.is_file(),
            "{}: {} missing",
            f.name,
            f.image.display()
        );
        let tiles = t["tiles"].as_array().expect("tiles");
        let layout = &t["layout"];
        let mut listed: Vec<u64> = Vec::new();
        for key in ["concealed", "dora", "wall"] {
            listed.extend(
                layout[key]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap()),
            );
        }
        listed.push(layout["win"].as_u64().unwrap());
        for meld in layout["melds"].as_array().unwrap() {
            listed.extend(
                meld["tiles"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|v| v.as_u64().unwrap()),
            );
        }
        listed.sort_unstable();
        let all: Vec<u64> = (0..tiles.len() as u64).collect();
        assert_eq!(listed, all, "{}: the layout lists every tile once", f.name);
        for (i, tile) in tiles.iter().enumerate() {
            let code = tile["tile"].as_str().unwrap();
            assert_eq!(
                code == "back",
                tile["back"].as_bool().unwrap(),
                "{}: tile {i}",
                f.name
            );
            assert!(
                tile["visible"].as_f64().unwrap() >= 0.9,
                "{}: tile {i} hidden",
                f.name
            );
        }
        let expected = &t["expected"];
        let diff = score_differences(expected, &score(&t["request"]));
        assert!(
            diff.is_empty(),
            "{}: true hand scores differently: {diff:?}",
            f.name
        );
        assert!(
            expected["points"]["total"].as_i64().unwrap() > 0,
            "{}",
            f.name
        );
    }
}

fn table(outcomes: &[Outcome]) -> String {
    let mut out = String::new();
    for o in outcomes {
        out.push_str(&format!(
            "{:26} {:>2}/{:<2} tiles  points {:>6} (expected {:>6})  {}\n",
            o.name,
            o.detected,
            o.truth_tiles,
            o.points_read.map_or("-".into(), |p| p.to_string()),
            o.points_expected,
            o.summary()
        ));
    }
    out
}

/// The fixtures the committed models read exactly: all of them since 2026-11-24 (evening), when
/// the runtime began to split a box drawn over an added kan's two stacked tiles (07; see
/// `datasets/README.md`, "Results on the committed models"). With the version-3 models
/// (2026-11-23) 06, 16, 17 and 20 joined the list and 10 and 19 left it (they were read exactly
/// by version 2); 10 and 19 came back with reading changes the same day; 16 left it with the
/// version-4 classifier (2026-11-24), which read a far 5s 4s from a box drawn off the tile, and
/// came back with the version-5 models the same day (top-1 misreads a far 4s, the hand-aware
/// decoding puts it right).
const READ_EXACTLY: [&str; 20] = [
    "01-closed-normal",
    "02-red-normal",
    "03-chi-normal",
    "04-pon-normal",
    "05-closed-kan-normal",
    "06-open-kan-normal",
    "07-added-kan-normal",
    "08-two-melds-normal",
    "09-closed-tilted",
    "10-chi-tilted",
    "11-closed-kan-tilted",
    "12-red-tilted",
    "13-closed-dim",
    "14-pon-dim",
    "15-two-melds-dim",
    "16-closed-far",
    "17-chi-far",
    "18-any-far",
    "19-any-steep",
    "20-pon-steep",
];

/// The fixtures of [`READ_EXACTLY`] are read exactly: each tile of the hand and each dora
/// indicator found once with its face and orientation, the layout (concealed tiles, winning
/// tile, melds with their called tile, closed kans, dora indicators) and the decoded hand as in
/// the ground truth, and the points those tiles score with the fixture's win conditions equal
/// to the reference's. Face-down dead-wall tiles beside the indicators are reported, not
/// required: they are not part of the hand.
#[test]
fn photos_are_read_and_scored_exactly() {
    let mut recognizer =
        Recognizer::load_default().unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
    let fixtures = load_all();
    assert_eq!(fixtures.len(), FIXTURES, "fixtures in datasets/fixtures");
    let outcomes: Vec<Outcome> = fixtures.iter().map(|f| run(&mut recognizer, f)).collect();
    assert_read_exactly(&outcomes, &READ_EXACTLY);
}

/// Prints the outcomes and asserts that each fixture named in `exact` is among them and was
/// read exactly.
fn assert_read_exactly(outcomes: &[Outcome], exact: &[&str]) {
    let report = table(outcomes);
    eprint!("{report}");
    for name in exact {
        assert!(
            outcomes.iter().any(|o| o.name == *name),
            "{name} is not among the fixtures"
        );
    }
    let wrong: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| exact.contains(&o.name.as_str()) && !o.exact())
        .collect();
    assert!(
        wrong.is_empty(),
        "read exactly before, not now: {}\n{report}",
        wrong
            .iter()
            .map(|o| format!("{} ({})", o.name, o.summary()))
            .collect::<Vec<_>>()
            .join("; ")
    );
}

/// The fixtures not read exactly as far shots ([`far_frame`]: the photo shrunk to half size in
/// the middle of a frame of the same size, so its median box is 12 to 19 pixels wide at the
/// detector's 640-pixel input); the other 18 are. The detector runs a second time on a larger
/// input when the boxes of its first pass are that narrow (`Settings::zoom_below`), over the
/// part of it around the first pass's boxes (`Settings::zoom_margin`); measured 2026-11-24 with
/// the version-5 models: 17 of 20 read exactly (18 with the second pass over the whole input,
/// 6 without the second pass); 18 since the layout picks a pon's called tile by the tiles'
/// spacing when the readings cannot tell (2026-11-25; 20, the steep shot's pon of 1p). Not
/// read: 07 (the added kan's stacked pair, two 4p missed), 08 (a dora indicator missed).
const FAR_NOT_READ: [&str; 2] = ["07-added-kan-normal", "08-two-melds-normal"];

/// Every fixture read from its photo as `change` changes it, against the ground truth
/// `change` gives for the changed photo (`None`: the fixture's own).
fn read_changed(change: impl Fn(&Fixture, &Rgb) -> (Option<Fixture>, Rgb)) -> Vec<Outcome> {
    read_changed_by(recognizer_with(|_| {}), change)
}

/// [`read_changed`] with `recognizer`.
fn read_changed_by(
    mut recognizer: Recognizer,
    change: impl Fn(&Fixture, &Rgb) -> (Option<Fixture>, Rgb),
) -> Vec<Outcome> {
    load_all()
        .iter()
        .map(|f| {
            let rgb = Rgb::open(&f.image).unwrap_or_else(|e| panic!("{}: {e}", f.name));
            let (truth, changed) = change(f, &rgb);
            run_on(&mut recognizer, truth.as_ref().unwrap_or(f), &changed)
        })
        .collect()
}

/// Far shots of the fixtures are read exactly, but for those of [`FAR_NOT_READ`].
#[test]
fn far_shots_are_read_through_a_larger_detector_input() {
    let outcomes = read_changed(|f, rgb| (Some(far_fixture(f)), far_frame(rgb)));
    let far_exact: Vec<&str> = READ_EXACTLY
        .into_iter()
        .filter(|name| !FAR_NOT_READ.contains(name))
        .collect();
    assert_eq!(far_exact.len(), 18);
    assert_read_exactly(&outcomes, &far_exact);
}

/// The fixtures' photos turned half a turn, as a hand shot from across the table (or the far
/// player's, under a camera over the table) shows: each is read exactly. The layout reads a
/// hand as its owner lays it out, so each had been read backwards, the melds taken into the
/// concealed row and the winning tile set apart at its start, until the tiles were laid out
/// both ways and the way that reads as an owner lays a hand kept (`reads_better_turned`):
/// none of the 20 had been read as when upright, nor any of 100 held-out fixtures so turned
/// (94 of them since, 98 since the photo is turned too and read again).
#[test]
fn photos_turned_half_a_turn_are_read_as_shown() {
    let outcomes = read_changed(|f, rgb| (Some(half_turned_fixture(f)), rgb.half_turned()));
    assert_read_exactly(&outcomes, &READ_EXACTLY);
}

/// The fixtures' photos turned a quarter either way, as a hand beside a camera over the table,
/// or a phone photo taken on its side without an orientation tag, shows: each is read
/// exactly, its boxes where they lie in the turned photo. The recognizer turns a photo whose
/// tiles lie across it upright and reads it again (`Recognizer::read_found`); the models had
/// read the tiles as they lay, and 7 of the 20 each way had lost a meld or read a tile
/// otherwise.
#[test]
fn photos_turned_a_quarter_are_read_as_upright() {
    for clockwise in [true, false] {
        let outcomes = read_changed(|f, rgb| {
            let turned = if clockwise {
                rgb.turned_clockwise()
            } else {
                rgb.turned_anticlockwise()
            };
            (Some(quarter_turned_fixture(f, clockwise)), turned)
        });
        assert_read_exactly(&outcomes, &READ_EXACTLY);
    }
}

/// Held-out seed 89's 11, a closed hand with a kan of white dragons tilted about 25°: the
/// detector's boxes gave an up axis 29° from the photo's width, so the layout found one
/// concealed tile and no meld. Read exactly since a photo whose tiles lie across it is turned a
/// quarter and read again (`lie_across`): turned, the boxes give the tiles' own axis.
#[test]
fn a_tilted_hand_whose_boxes_lie_across_is_read_turned() {
    assert_regressions_read_exactly(&["seed89-11-"]);
}

/// Held-out seed 12's 08 turned a quarter clockwise: the detector gives most of its boxes'
/// up axes turned a quarter, along the photo's height, so that 12 of its 15 tiles read clearly
/// sideways and the layout made no hand of them (one 5m). The tiles' rows run along that axis,
/// so the photo is turned upright and read again (`rows_along`); now as upright.
#[test]
fn boxes_drawn_a_quarter_off_are_read_in_the_photo_turned_upright() {
    let mut recognizer =
        Recognizer::load_default().unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
    assert_read_as_upright(&mut recognizer, &regressions(&["seed12-08-"])[0], true);
}

/// Asserts that `fixture`'s photo turned a quarter reads the hand, winning tile and dora
/// indicators its upright photo reads.
fn assert_read_as_upright(recognizer: &mut Recognizer, fixture: &Fixture, clockwise: bool) {
    let mut hand_of = |rgb: &Rgb| {
        let reading = recognizer.read_photo(rgb).expect("read");
        reading
            .hand
            .map(|h| (h.notation(), h.win, h.win_set_apart, h.dora_indicators))
    };
    let rgb = Rgb::open(&fixture.image).expect("fixture image");
    let upright = hand_of(&rgb);
    assert!(upright.is_some(), "{}: no hand upright", fixture.name);
    let turned = hand_of(&if clockwise {
        rgb.turned_clockwise()
    } else {
        rgb.turned_anticlockwise()
    });
    assert_eq!(
        turned, upright,
        "{} turned (clockwise: {clockwise})",
        fixture.name
    );
}

/// The recognizer, fixture 01 (a closed hand with room below it) and its photo.
fn fixture_01() -> (Recognizer, photo_fixtures::Fixture, Rgb) {
    let recognizer =
        Recognizer::load_default().unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
    let fixture = load_all()
        .into_iter()
        .find(|f| f.name == "01-closed-normal")
        .expect("fixture 01");
    let rgb = Rgb::open(&fixture.image).expect("fixture image");
    (recognizer, fixture, rgb)
}

/// A JPEG of `image` enlarged `k` times (Catmull-Rom) and set at `offset` on a canvas of
/// `size` (grey elsewhere), at quality 92.
fn large_jpeg(image: &Rgb, k: f32, offset: (u32, u32), size: (u32, u32)) -> Vec<u8> {
    use fast_image_resize as fr;
    let (w, h) = (
        (image.width as f32 * k).round() as u32,
        (image.height as f32 * k).round() as u32,
    );
    let big = photo_fixtures::resized(
        &image.pixels,
        (image.width, image.height),
        (w, h),
        fr::FilterType::CatmullRom,
    );
    let mut canvas = image::RgbImage::from_pixel(size.0, size.1, image::Rgb([96, 110, 100]));
    let big = image::RgbImage::from_raw(w, h, big).expect("enlarged");
    image::imageops::replace(&mut canvas, &big, i64::from(offset.0), i64::from(offset.1));
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 92)
        .encode(&canvas, size.0, size.1, image::ExtendedColorType::Rgb8)
        .expect("encode");
    out
}

/// Large photos are decoded at a reduced size (JPEG DCT scaling) when their tiles allow, and
/// read as well as in full: a sample enlarged 2.25× to 2880×1620 is decoded at half size and
/// read exactly, boxes in full-size pixels; the sample at its own size in the middle of a
/// 2880×1620 canvas (its tiles too narrow at half size) is decoded again in full and read as
/// the photo decoded in full is.
#[test]
fn large_photos_are_read_from_a_reduced_decode() {
    let (mut recognizer, fixture, rgb) = fixture_01();
    let size = (2880, 1620);

    let bytes = large_jpeg(&rgb, 2.25, (0, 0), size);
    let (photo, mut reading) = recognizer.read_encoded(&bytes).expect("read");
    assert_eq!((photo.reduction, photo.image.width), (2, 1440));
    assert_eq!((reading.width, reading.height), size);
    for tile in &mut reading.tiles {
        tile.rotated = tile.rotated.scaled(1.0 / 2.25);
    }
    let outcome = compare(&fixture, &reading);
    assert!(outcome.exact(), "enlarged: {}", outcome.summary());

    let bytes = large_jpeg(&rgb, 1.0, (800, 450), size);
    let (photo, reading) = recognizer.read_encoded(&bytes).expect("read");
    assert_eq!((photo.reduction, photo.image.width), (1, 2880));
    let full = recognizer
        .read_photo(&Rgb::decode(&bytes).expect("decode"))
        .expect("read in full");
    // The detector saw slightly different pixels (the half-size decode), so confidences, and
    // with them which tiles are marked uncertain, may differ; the hand may not.
    let tiles_read = |r: &riichi_lens::vision::PhotoReading| {
        r.hand.clone().map(|mut h| {
            h.uncertain.clear();
            h
        })
    };
    assert!(reading.hand.is_some());
    assert_eq!(tiles_read(&reading), tiles_read(&full));
    // A peak just at the detector's threshold (the sample's dead-wall back beside the dora
    // indicator scores 0.31 in one decode with the version-5 detector) may fall either side of
    // it; every detection clear of the threshold must be found by both.
    let clear = |r: &riichi_lens::vision::PhotoReading| {
        let margin = recognizer.settings.score_threshold + 0.05;
        r.tiles
            .iter()
            .filter(|t| t.detector_score >= margin)
            .map(|t| t.tile)
            .collect::<Vec<_>>()
    };
    let (mut clear_reduced, mut clear_full) = (clear(&reading), clear(&full));
    clear_reduced.sort();
    clear_full.sort();
    assert_eq!(clear_reduced, clear_full);
    assert!(reading.tiles.len().abs_diff(full.tiles.len()) <= 1);
}

/// A large phone photo taken on its side: the sample enlarged 2.25× and turned a quarter
/// clockwise (1620×2880) is decoded at half size, turned upright, read exactly, and its boxes
/// given in the full-size pixels of the photo as taken.
#[test]
fn a_large_photo_turned_a_quarter_is_read_from_a_reduced_decode() {
    let (mut recognizer, fixture, rgb) = fixture_01();
    let bytes = large_jpeg(&rgb.turned_clockwise(), 2.25, (0, 0), (1620, 2880));
    let (photo, mut reading) = recognizer.read_encoded(&bytes).expect("read");
    assert_eq!((photo.reduction, photo.image.width), (2, 810));
    assert_eq!((reading.width, reading.height), (1620, 2880));
    for tile in &mut reading.tiles {
        tile.rotated = tile.rotated.scaled(1.0 / 2.25);
    }
    let outcome = compare(&quarter_turned_fixture(&fixture, true), &reading);
    assert!(outcome.exact(), "turned: {}", outcome.summary());
}

/// A tile the detector scores under its threshold is found again when the hand lacks it: with
/// the threshold raised just over the faintest hand tile of fixture 01, the sure boxes make
/// thirteen tiles, and of the faint boxes the one that completes the hand is that tile, read
/// as it was. Without faint boxes and the row's gaps the hand stays incomplete; with the gaps
/// and no faint boxes the tile is read in its gap.
#[test]
fn a_faint_tile_that_completes_the_hand_is_added() {
    let (mut recognizer, fixture, rgb) = fixture_01();
    let default = recognizer.read_photo(&rgb).expect("read");
    assert!(compare(&fixture, &default).exact());
    let layout = &default.layout;
    let mut scores: Vec<f32> = layout
        .concealed
        .iter()
        .chain(&layout.win)
        .chain(layout.melds.iter().flat_map(|m| &m.tiles))
        .map(|&i| default.tiles[i].detector_score)
        .collect();
    scores.sort_by(f32::total_cmp);
    assert!(
        scores[1] - scores[0] > 0.01,
        "the two faintest hand tiles score {} and {}",
        scores[0],
        scores[1]
    );
    recognizer.settings.score_threshold = 0.5 * (scores[0] + scores[1]);
    // The rules under test are the first detector's: the second would complete the hand.
    recognizer.settings.second_opinion = false;
    let hand = |r: &riichi_lens::vision::PhotoReading| {
        r.hand
            .clone()
            .map(|h| (h.concealed, h.melds, h.win, h.complete))
    };

    recognizer.settings.faint_threshold = 0.0;
    recognizer.settings.row_gaps = false;
    let without = recognizer
        .read_photo(&rgb)
        .expect("read without faint boxes");
    let without = hand(&without).expect("a hand row");
    assert!(!without.3, "thirteen tiles: {:?}", without.0);

    recognizer.settings.faint_threshold = 0.08;
    let with = recognizer.read_photo(&rgb).expect("read with faint boxes");
    assert_eq!(hand(&with), hand(&default));
    assert!(hand(&with).is_some_and(|h| h.3));

    // Without faint boxes, the row's gap where the tile lies is read instead, to the same hand.
    recognizer.settings.faint_threshold = 0.0;
    recognizer.settings.row_gaps = true;
    let gaps = recognizer
        .read_photo(&rgb)
        .expect("read with the row's gaps");
    assert_eq!(hand(&gaps), hand(&default));
}

/// A tile the detector scores under its threshold is kept wherever it lies when the classifier
/// reads it surely (`Settings::faint_sure`): no hand asks for a dora indicator, so before the
/// rule a faint indicator was lost (seven of the eight held-out fixtures it put right had).
/// With the threshold raised just over fixture 01's dora indicator (and so over eleven more of
/// its tiles), the indicator is read as before; with the rule off it is gone.
#[test]
fn a_faint_box_read_surely_is_kept_as_a_tile() {
    let (mut recognizer, fixture, rgb) = fixture_01();
    let default = recognizer.read_photo(&rgb).expect("read");
    assert!(compare(&fixture, &default).exact());
    let indicators = |r: &riichi_lens::vision::PhotoReading| {
        r.hand
            .as_ref()
            .map(|h| h.dora_indicators.clone())
            .unwrap_or_default()
    };
    let [indicator] = default.layout.dora[..] else {
        panic!(
            "fixture 01 has one dora indicator: {:?}",
            default.layout.dora
        );
    };
    let indicator = &default.tiles[indicator];
    assert!(indicator.confidence >= recognizer.settings.faint_sure);
    recognizer.settings.score_threshold = indicator.detector_score + 0.001;

    let with = recognizer
        .read_photo(&rgb)
        .expect("read with sure faint boxes");
    assert_eq!(indicators(&with), indicators(&default));
    let kept = with
        .tiles
        .iter()
        .filter(|t| t.detector_score < recognizer.settings.score_threshold)
        .count();
    assert!(kept >= 1, "no faint box kept");

    recognizer.settings.faint_sure = 2.0;
    let without = recognizer.read_photo(&rgb).expect("read without");
    assert!(
        indicators(&without).is_empty(),
        "{:?}",
        indicators(&without)
    );
}

/// No faint box, and no reading of the row's gaps, joins a hand whose missing tile is not in
/// the photo: with each fixture's winning tile painted over, every tile read is a sure box (a
/// tile read in a gap has a detector score of 0). No hand reads as complete unless
/// the hand-aware decoding changed readings to make it, which marks them for the user to check
/// (it can: up to three changed readings may make fourteen tiles of a row's thirteen and a
/// meld laid out as part of the row). A hand read a tile short names the winning tile among
/// those that would complete it (`ReadHand::completing_tiles`, which `recognize` and
/// `score-photo` print): what the user is asked to look for is what the photo lost.
#[test]
fn no_faint_box_stands_in_for_a_tile_that_is_gone() {
    let mut recognizer =
        Recognizer::load_default().unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
    let threshold = recognizer.settings.score_threshold;
    let mut named = Vec::new();
    for fixture in load_all() {
        let frame = photo_fixtures::incomplete_frame(&fixture);
        let reading = recognizer.read_photo(&frame).expect("read");
        let faint: Vec<_> = reading
            .tiles
            .iter()
            .filter(|t| t.detector_score < threshold)
            .map(|t| (t.tile.notation(), t.detector_score))
            .collect();
        assert!(faint.is_empty(), "{}: faint boxes {faint:?}", fixture.name);
        let hand = reading.hand.expect("the rest of the hand row is read");
        assert!(
            !hand.complete || !hand.corrected.is_empty(),
            "{}: {} read as complete as it stands",
            fixture.name,
            hand.notation()
        );
        let tiles = hand.completing_tiles();
        if tiles.is_empty() {
            continue;
        }
        let win = fixture.truth["hand"]["win"].as_str().expect("winning tile");
        let win = riichi_lens::notation::parse_tiles(win).expect("a tile")[0];
        assert!(
            tiles.iter().any(|t| t.kind() == win.kind()),
            "{}: {} names {tiles:?}, not {win}",
            fixture.name,
            hand.notation()
        );
        named.push(fixture.name);
    }
    // 13 of the 20 on 2026-12-07; the rest read no hand a tile short (a meld taken into the row,
    // or a tile read where the winning tile was) and name nothing.
    assert!(named.len() >= FIXTURES / 2, "only {named:?}");
}

/// Copies the face of the ground-truth tile `truth` (its `rotated` box) from `from` onto `to`,
/// centred at `at` and turned by `turn` radians (nearest-pixel sampling).
fn paste_turned(from: &Rgb, to: &mut Rgb, truth: &serde_json::Value, turn: f32, at: (f32, f32)) {
    let r = &truth["rotated"];
    let f = |k: &str| r[k].as_f64().expect("rotated box") as f32;
    let (cx, cy, w, h, phi) = (f("cx"), f("cy"), f("w"), f("h"), f("phi"));
    let (c, s) = (turn.cos(), turn.sin());
    let reach = 0.55 * w.hypot(h);
    let width = to.width as i64;
    for y in (at.1 - reach) as i64..=(at.1 + reach) as i64 {
        for x in (at.0 - reach) as i64..=(at.0 + reach) as i64 {
            let (dx, dy) = (x as f32 - at.0, y as f32 - at.1);
            let (sx, sy) = (c * dx + s * dy, -s * dx + c * dy);
            let along = sx * phi.cos() + sy * phi.sin();
            let across = -sx * phi.sin() + sy * phi.cos();
            if along.abs() > 0.52 * h || across.abs() > 0.52 * w {
                continue;
            }
            let (px, py) = ((cx + sx).round() as i64, (cy + sy).round() as i64);
            let inside = |x: i64, y: i64, img: &Rgb| {
                (0..i64::from(img.width)).contains(&x) && (0..i64::from(img.height)).contains(&y)
            };
            if inside(px, py, from) && inside(x, y, to) {
                let src = 3 * (py * i64::from(from.width) + px) as usize;
                let dst = 3 * (y * width + x) as usize;
                to.pixels[dst..dst + 3].copy_from_slice(&from.pixels[src..src + 3]);
            }
        }
    }
}

/// Loose tiles lying at an angle to the hand (set aside, knocked over) are read along their
/// own angle, not snapped to the hand's: four tiles of fixture 01's row, copied into the empty
/// table below it turned 30° to 60°, are each read as the tile they are, and confidently (read
/// only along the hand's axes, the 3m scored 0.39, and the reference pipeline took the 7m for
/// a 5m).
#[test]
fn loose_tiles_at_an_angle_are_read_as_themselves() {
    let (mut recognizer, fixture, rgb) = fixture_01();
    let truth = fixture.truth["tiles"].as_array().expect("tiles");
    let placed: [(usize, f32, (f32, f32)); 4] = [
        (1, 30.0, (220.0, 590.0)),
        (2, -40.0, (460.0, 600.0)),
        (8, 55.0, (700.0, 590.0)),
        (11, -60.0, (930.0, 600.0)),
    ];
    let mut scene = rgb.clone();
    for &(i, degrees, at) in &placed {
        paste_turned(&rgb, &mut scene, &truth[i], degrees.to_radians(), at);
    }
    let read = recognizer.recognize(&scene).expect("recognize");
    for &(i, degrees, (x, y)) in &placed {
        let code = truth[i]["tile"].as_str().expect("code");
        let d = read
            .iter()
            .find(|d| (d.rotated.cx - x).hypot(d.rotated.cy - y) < 25.0)
            .unwrap_or_else(|| panic!("{code} turned {degrees}° not detected"));
        assert_eq!(d.tile.notation(), code, "{code} turned {degrees}°");
        assert!(d.confidence > 0.8, "{code} turned {degrees}°: {d:?}");
    }
}

/// The fixtures of `datasets/regressions/` whose names start with one of `prefixes`, one each.
fn regressions(prefixes: &[&str]) -> Vec<Fixture> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("datasets/regressions");
    let fixtures: Vec<_> = photo_fixtures::load_dir(&dir)
        .into_iter()
        .filter(|f| prefixes.iter().any(|p| f.name.starts_with(p)))
        .collect();
    assert_eq!(
        fixtures.len(),
        prefixes.len(),
        "fixtures {prefixes:?} in {dir:?}"
    );
    fixtures
}

/// Reads the held-out fixtures kept in `datasets/regressions/` because a runtime rule was made
/// for them (rendered by `datasets/make_fixtures.py` with the seed their name gives) whose
/// names start with one of `prefixes`, asserts each is read exactly, and returns what was read
/// of each, in name order.
fn assert_regressions_read_exactly(prefixes: &[&str]) -> Vec<Outcome> {
    let mut recognizer =
        Recognizer::load_default().unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
    let fixtures = regressions(prefixes);
    let outcomes: Vec<Outcome> = fixtures.iter().map(|f| run(&mut recognizer, f)).collect();
    let names: Vec<&str> = fixtures.iter().map(|f| f.name.as_str()).collect();
    assert_read_exactly(&outcomes, &names);
    outcomes
}

/// Melds whose gaps were measured wrong, so that the runs between the gaps split into no
/// melds: in seed 127's 04 the box over a chi's called 8s covers only its left part, so it
/// joined the chi 2-3-4m before it and left 7s-9s alone; in seed 73's 06 a pon of 1m ran into
/// a pon of 9p, whose copies look alike a quarter turned and were read upright. Both were
/// scored as no hand before the meld runs were cut again as a whole, at the widest gaps into
/// melds their faces can be (`layout::meld_sizes`); now exactly.
#[test]
fn melds_cut_at_a_gap_measured_wrong_are_read() {
    assert_regressions_read_exactly(&["seed127-04-", "seed73-06-"]);
}

/// A closed hand whose winning tile is set apart, and a gap measured wrong before the pair's
/// first tile (seed 107's 18, a far shot): the first lone tile was taken for the winning tile
/// and the real one, alone after it, for a meld too short to be one, so the hand read one tile
/// short. Since fewer than three tiles after a set-apart tile are no meld (the last lone tile
/// is then the winning one), it is read exactly.
#[test]
fn a_lone_tile_after_a_set_apart_one_is_the_winning_tile() {
    assert_regressions_read_exactly(&["seed107-18-"]);
}

/// A concealed tile whose neighbour's box was drawn off it, over part of it (seed 97's 12: a
/// 3s's box over half the 4s beside it; 112's 13: the same with a 3s and a 4s in dim light):
/// the two boxes overlapped like a second box over one tile, and the 4s, scored lower, was
/// dropped, so the hand read one tile short. Since two upright boxes of different faces whose
/// neighbours leave room for both are both kept (`layout::drop_doubled`), both read exactly.
#[test]
fn a_box_drawn_over_part_of_the_next_tile_is_no_second_box() {
    assert_regressions_read_exactly(&["seed97-12-", "seed112-13-"]);
}

/// A concealed run that lost two of its four tiles to the detector (seed 88's 10: the first 9p
/// and a 6s had no box), so that one concealed tile was left: with fewer than two the row's
/// gaps were not read at all, as with every hand of four melds. Since the row's line and pitch
/// are then taken from neighbouring upright tiles within the melds (`row_gap_places`), both
/// missing tiles are read in its gaps, and the hand exactly.
#[test]
fn a_row_with_one_concealed_tile_left_is_read_for_missing_tiles() {
    assert_regressions_read_exactly(&["seed88-10-"]);
}

/// An added kan of 9s with two tiles the detector drew no box over (seed 83's 10): reading the
/// row's gap found one and made a pon of the other three, a complete hand scored without the
/// kan (4,800 for 8,300), flagged since a pon with a tile read where no box was drawn is marked
/// uncertain (`layout::kan_doubts`). Read exactly since the stacked pair is also looked for a
/// sixth closer to the row (see `an_added_kan_stretched_by_its_tiles_sides_is_found`).
#[test]
fn a_pon_with_a_tile_read_in_a_gap_is_flagged() {
    assert_regressions_never_wrong_unflagged(&["seed83-10-"]);
    assert_regressions_read_exactly(&["seed83-10-"]);
}

/// Added kans read as pons (seed 44's 06, of 4p; 84's 20, of 2p in a steep shot): the
/// detector's boxes over the pon's upright tiles take in their near sides, so the stacked pair
/// was looked for where a tile of that measure would lie, its upper place a third of a tile
/// beyond its tile, and read there 0.44 sure. Since the places are tried again a sixth closer to
/// the row and read at 0.85 or more there (`TIGHT_SIDE`, `TIGHT_CONFIDENCE`), both are read
/// exactly. Other art 54's 07 (and seed 19's 14, kept for `a_tile_missing_from_the_row_is_read_in_its_gap`)
/// are pons with nothing stacked, whose called tile both closer places straddle, each half on it,
/// read as the pon's tile 0.75 and 0.79 sure: at the measured places' 0.7 they were read as
/// added kans; they stay pons.
#[test]
fn an_added_kan_stretched_by_its_tiles_sides_is_found() {
    assert_regressions_read_exactly(&["seed44-06-", "seed84-20-", "alt54-07-", "seed19-14-"]);
}

/// In each the detector drew a box over each half of a called (sideways) 4p, and each half
/// reads as an upright 2p. Before the two halves were joined into one box
/// (`Recognizer::join_tile_parts`), all three were read wrong (a 2p for the called 4p, or a
/// false 2p beside it); now exactly.
#[test]
fn the_halves_of_a_called_tile_are_read_as_one_tile() {
    assert_regressions_read_exactly(&["seed14-15-", "seed18-15-", "seed26-04-"]);
}

/// In each the detector drew one box over an added kan's two stacked tiles and none over the
/// other (seed 33's 20 has two such kans), so the kan was read as a pon: a complete hand all
/// the same, scored without the kan. Before the layout looked for the stacked pair where it
/// would lie on each pon (`Recognizer::stack_added_tiles`), all four were read wrong; now
/// exactly. With the version-12 classifier two needed more: in 33's 20 the box over a stacked
/// pair of 1p reads 5p, so the pon's kind is now its upright tiles'; in 36's 19 the upper
/// tile of a stacked pair reads as the pon's tile at 0.75 and, snapped to the hand's axes,
/// as "not a tile", so the pair's reading needs 0.7 (`ADDED_CONFIDENCE`) and the veto judges
/// a box by the readings it keeps.
#[test]
fn an_added_kan_boxed_as_one_tile_is_read_as_a_kan() {
    assert_regressions_read_exactly(&["seed26-07-", "seed33-20-", "seed36-19-", "seed37-06-"]);
}

/// An added kan of a tile that looks alike a quarter turned (9p), whose called copy the layout
/// took for another: in seed 22's 07 one box covers the stacked pair on the middle copy while
/// the last copy reads sideways; in seed 32's 06 the stacked pair's lower tile reads upright and
/// its upper one was taken for a dora indicator. Both were scored as a pon before the stacked
/// pair was looked for on every copy of a pon, the pair's slot taken as the called one
/// (`layout::called_slot`) and a second box over its upper tile dropped; now exactly.
#[test]
fn an_added_kan_on_a_copy_the_layout_did_not_call_is_found() {
    assert_regressions_read_exactly(&["seed22-07-", "seed32-06-"]);
}

/// An added kan of 1s in a steep shot, in other art (other art seed 48's 19): its stacked pair,
/// with no box of its own, lay a third of a radian from where the pon's upright tiles put it,
/// and cut at that angle its crops read under the bar (0.58, and a green dragon), so the hand
/// was scored as a pon without a word. The measured places turned to the called tile's own box
/// (`turned_to_called`) are read last; there the pair reads as 1s. Now exactly.
#[test]
fn an_added_kan_is_read_turned_to_its_called_tile() {
    assert_regressions_read_exactly(&["alt48-19-"]);
}

/// Hands read one tile too many: a box over no tile, which the classifier reads as one, in the
/// hand row (seed 14's 07: a 4p beside an added kan; 35's 11: an 8p in the gap before the
/// winning tile, scored 0.35 by the detector; 24's 04: a back at 0.37 between the winning tile
/// and the melds, which the layout left unplaced but which hid that the winning tile was set
/// apart). Before the weakest tiles were tried left out (`PhotoReading::without_a_weak_tile`),
/// all three were read wrong; now exactly.
#[test]
fn a_weak_box_that_spoils_the_hand_is_left_out() {
    assert_regressions_read_exactly(&["seed14-07-", "seed24-04-", "seed35-11-"]);
}

/// A wall of seventeen face-down tiles left on the table beyond the dead wall's row
/// (`make_fixtures.py --live-wall 1.0`; seed 9's 03, whose pale backs read as white dragons,
/// and 16's 07): a longer row than the hand, it was taken for the hand row and the hand for
/// dora indicators. Since the hand is the row with the most tiles face up, both read exactly.
/// A wall of pale backs read as seventeen white dragons (16's 08) had more tiles face up than
/// the hand: no more than four of a kind count, and five or more blank faces in a row are
/// backs. The layout's unit tests `a_wall_of_backs_beside_the_hand_is_not_the_hand` and
/// `a_wall_read_as_white_dragons_is_not_the_hand` hold the rules on their own.
#[test]
fn a_wall_left_on_the_table_is_not_the_hand() {
    assert_regressions_read_exactly(&["wall9-03-", "wall16-07-", "wall16-08-"]);
}

/// A wall of pale backs the detector drew few boxes over, one of them read as a white dragon
/// and taken for a dora indicator (wall seed 8's 18, its hand otherwise read right): a crop
/// one pitch beside it reads as a blank face of its own tint and lightness, so it lies in a
/// row of blank faces and is taken for a back. Beside a white dragon indicator alone on cream
/// table (wall 25's 03) or grey table (other art 8's 11) the table reads as a blank face too,
/// but off the indicator's tint or lightness, and the indicator stays. The unit test
/// `a_white_dragon_indicators_neighbours_are_read_where_no_tile_is` holds where it looks.
#[test]
fn a_white_dragon_in_a_row_of_pale_backs_is_a_back() {
    assert_regressions_read_exactly(&["wall8-18-", "wall25-03-", "alt8-11-"]);
}

/// A far shot with a wall beside the hand (wall seed 19's 16): the box of the first of three
/// 3s was drawn over part of the second, whose own box, less sure, was dropped as a second box
/// over one tile, and the hand read one 3s short. The 9s before and the third 3s leave room for
/// both, and kept, the second box completes the hand: it is kept, and marked for the user to
/// check. The layout's unit test
/// `a_box_of_the_same_face_as_the_one_beside_it_is_named_where_both_fit` holds the rule.
#[test]
fn a_second_box_of_the_same_face_is_kept_where_it_completes_the_hand() {
    let outcomes = assert_regressions_read_exactly(&["wall19-16-"]);
    assert!(outcomes[0].flagged, "{}", outcomes[0].summary());
}

/// A back the detector scored surely (0.64) between the winning tile and the melds (other art
/// 42's 14): it hid that the winning tile was set apart, and too sure to count as weak, it was
/// never tried left out. Since a face-down tile of the hand row outside a closed kan is tried
/// left out whatever its score, it reads exactly.
#[test]
fn a_back_in_the_hand_row_outside_a_kan_is_left_out() {
    assert_regressions_read_exactly(&["alt42-14-"]);
}

/// Tiles the detector drew small boxes over parts of: a 4p's halves read as 2p (seed 14's 11,
/// a concealed row with three 4p, two of them boxed in halves), a dora 4s boxed in two halves
/// and read as a 2s (seed 28's 19), a far shot's 4s boxed small beside a box straddling it and
/// the 3s before it (seed 18's 18: the whole 4s takes the straddling box's place too, and the
/// row's gap then reads the 3s). Before a box small against the tiles around it was read again
/// as the whole tile reaching from either of its ends, kept when that reads surely as more pips
/// of the same suit (`Recognizer::join_upright_parts`), none was read exactly; now each is.
#[test]
fn a_box_over_part_of_a_tile_is_read_as_the_whole_tile() {
    assert_regressions_read_exactly(&["seed14-11-", "seed18-18-", "seed28-19-"]);
}

/// A called 4p boxed over one half only, which reads as an upright 2p (seed 122's 04: the pon
/// 444p's third tile; 37's 10: a chi's first): the hand-aware decoding read it back as a 4p, but
/// upright, so the pon's called tile was put on the first 4p (scored right, its meld wrong) and
/// the chi's run was not read as a meld at all (no hand). Since such a part is also read as the
/// sideways tile reaching along the row from either of its ends (`UprightPart::wholes`),
/// both are read exactly.
#[test]
fn a_box_over_half_of_a_called_tile_is_read_as_the_whole_sideways_tile() {
    assert_regressions_read_exactly(&["seed122-04-", "seed37-10-"]);
}

/// A box beside its tile: the detector drew a 4s's box a fifth to a third of a tile off
/// across the row, over one column of its sticks, which read as a 2s, and the hand-aware
/// decoding read the hand into another complete one (seed 43's 17: 33240556664s, 7 han for 9;
/// 83's 03, two such 4s: 32242s, 9 han for 7). Before an upright tile of few pips was read
/// again with its box shifted across the row (`Recognizer::shift_boxes_beside`), both were
/// scored wrong; now both are read exactly. Seed 21's 10, whose called 4p's half reads as an
/// upright 2p and as a 4p shifted, stays exact: a box shorter than its neighbours' tiles is
/// not moved.
#[test]
fn a_box_beside_its_tile_is_moved_onto_it() {
    assert_regressions_read_exactly(&["seed43-17-", "seed83-03-", "seed21-10-"]);
}

/// A white dragon shown alone as the dora indicator: the detector scores it 0.07-0.18 (a blank
/// ivory rectangle with no tile beside it; among other indicators one scores 0.5-0.8), so the
/// hand was read without it. Before a complete hand read without a dora indicator had its faint
/// boxes read for a white dragon of the faces' colour (`Recognizer::find_blank_dora`), none of
/// the three was read exactly; now each is, and with the rule off each loses its indicator.
#[test]
fn a_white_dragon_shown_alone_as_dora_indicator_is_found() {
    let prefixes = ["seed17-17-", "seed25-03-", "seed52-01-"];
    assert_regressions_read_exactly(&prefixes);
    let missed = prefixes.map(|p| (p, ":5z"));
    assert_each_read_with(&missed, |s| s.blank_dora_threshold = 0.0, |o| &o.missed);
}

/// A lone dora indicator the detector scores faintly, read as a face under the 0.9 a white
/// dragon needed (seed 66's 14: a white dragon read 0.90 sure at 0.17; other art 76's 03: a 3s
/// read 0.95 sure at 0.26), of the faces' tint: since any face read 0.85 sure is looked for
/// (`LONE_DORA_SURE`), both are read exactly, and both lose the indicator with the rule off.
#[test]
fn a_lone_dora_indicator_scored_faintly_is_found_by_its_tint() {
    let prefixes = ["seed66-14-", "alt76-03-"];
    assert_regressions_read_exactly(&prefixes);
    let missed = [("seed66-14-", ":5z"), ("alt76-03-", ":3s")];
    assert_each_read_with(&missed, |s| s.blank_dora_threshold = 0.0, |o| &o.missed);
}

/// A kan read as a pon because the detector drew no box over its fourth tile (seed 65's 06: the
/// called white dragon of an open kan; other art 18's 06: the called 9s of one): the hand is
/// complete either way, so it was scored without the kan's fu and without a word. Before the
/// places of each pon's fourth tile were read (`Recognizer::fill_kan_gaps`), neither was read
/// exactly; now both are, and with the gap rules off each misses the kan's tile again.
#[test]
fn a_kans_fourth_tile_with_no_box_is_read_where_it_lies() {
    assert_regressions_read_exactly(&["seed65-06-", "alt18-06-"]);
    let missed = [("seed65-06-", ":5z"), ("alt18-06-", ":9s")];
    assert_each_read_with(&missed, |s| s.row_gaps = false, |o| &o.missed);
}

/// A dora indicator the detector drew no box over, in a gap of the dead wall (seed 116's 04:
/// the second 3s of two, between the first and a back): read exactly since the wall's gaps are
/// read (`Recognizer::fill_wall_gaps`), and missed with the gap rules off.
#[test]
fn a_dora_indicator_with_no_box_is_read_in_the_dead_walls_gap() {
    assert_regressions_read_exactly(&["seed116-04-"]);
    let missed = [("seed116-04-", ":3s")];
    assert_each_read_with(&missed, |s| s.row_gaps = false, |o| &o.missed);
}

/// A white dragon dora indicator the layout took for a back of the dead wall beside it (a
/// blank face in the wall's row, seed 50's 05, other art 57's 05 and 71's 19): of the backs
/// read again, it alone has the faces' tint (0.000-0.004 off; the pale coloured backs
/// 0.047-0.124), so it is the indicator (`Recognizer::find_blank_dora_among_backs`). With the
/// rule off each is read with one indicator too few.
#[test]
fn a_white_dragon_indicator_taken_for_a_back_is_told_by_its_tint() {
    let prefixes = ["seed50-05-", "alt57-05-", "alt71-19-"];
    assert_regressions_read_exactly(&prefixes);
    let misread = prefixes.map(|p| (p, ":5z->back"));
    assert_each_read_with(
        &misread,
        |s| s.blank_dora_threshold = 0.0,
        |o| &o.top1_wrong,
    );
}

/// The white dragon indicators told among the dead wall's backs (the fixtures of the test
/// above and of `a_lone_white_dragon_indicator_read_as_a_back_is_found`) had boxes of their
/// own: each keeps its box's detector score, and so is not taken for a tile read where the
/// detector drew none (`Detection::read_at_a_place`), which marks the pon holding one uncertain.
#[test]
fn a_white_dragon_told_among_backs_keeps_its_box_score() {
    let mut recognizer =
        Recognizer::load_default().unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
    let prefixes = [
        "seed50-05-",
        "alt57-05-",
        "alt71-19-",
        "alt72-08-",
        "seed113-04-",
    ];
    for fixture in regressions(&prefixes) {
        let rgb = Rgb::open(&fixture.image).expect("fixture photo");
        let reading = recognizer.read_photo(&rgb).expect("read");
        let dragons: Vec<_> = reading
            .dora_ids()
            .into_iter()
            .map(|i| &reading.tiles[i])
            .filter(|d| d.tile.notation() == "5z")
            .collect();
        assert!(
            !dragons.is_empty(),
            "{}: no white dragon indicator",
            fixture.name
        );
        for d in dragons {
            assert!(!d.read_at_a_place(), "{}: {d:?}", fixture.name);
        }
    }
}

/// Reads each regression fixture of `cases` (its name's prefix, and how an entry of the
/// outcome's list `listed` ends) with the settings changed by `change`, and asserts that its
/// list holds such an entry: a tile missed (`:5z`) or misread (`:5z->back`) with a rule off.
fn assert_each_read_with(
    cases: &[(&str, &str)],
    change: impl FnOnce(&mut Settings),
    listed: impl Fn(&Outcome) -> &Vec<String>,
) {
    let mut recognizer = recognizer_with(change);
    for &(prefix, end) in cases {
        let fixture = &regressions(&[prefix])[0];
        let outcome = run(&mut recognizer, fixture);
        assert!(
            listed(&outcome).iter().any(|m| m.ends_with(end)),
            "{}: {}",
            fixture.name,
            outcome.summary()
        );
    }
}

/// The dead wall's three pale ivory backs without an indicator beside them (`alt35-06`, a set in
/// other art): one, read as a faint white dragon 0.96 sure, is a slightly other colour than the
/// faces (0.047 off, see `picture::tint_difference`) and is not taken for a dora indicator.
#[test]
fn a_pale_back_of_the_dead_wall_is_not_taken_for_a_dora_indicator() {
    assert_regressions_read_exactly(&["alt35-06-"]);
}

/// Hands read incomplete because the detector drew no box, not even a faint one, over a tile
/// of the hand row (seed 11's 09: a 3s inside a tilted row; 19's 14: a white dragon of a pon;
/// 24's 11: a white dragon and a back of a closed kan; 36's 10: a tilted row). Before the row's
/// gaps and ends were read (`Recognizer::fill_row_gaps`), none was read exactly; now each is.
///
/// Seed 16's 19, also kept there, was read wrong with the version-12 classifier (model card,
/// "Version 12 classifier"): a box straddling the steep row's first two tiles, which version 8
/// vetoed, reads as the second of them along its own angle, so the row's end was read beside it
/// and the first tile was not. Since a first step of 1.3 to 1.6 pitches has the places one and
/// two pitches beyond the second tile read in the first box's stead, it is read exactly again.
/// One more, 33's 12, is still read wrong: version 8 read the row's gaps right only by way of a
/// faint reading it was sure of and version 12 is not.
#[test]
fn a_tile_missing_from_the_row_is_read_in_its_gap() {
    assert_regressions_read_exactly(&[
        "seed11-09-",
        "seed16-19-",
        "seed19-14-",
        "seed24-11-",
        "seed36-10-",
    ]);
}

/// A box over the seam between a pon's upright 6s and its called one (seed 10's 20): read
/// sideways, the way the layout lays a called tile, it is "not a tile" (0.84), but its upright
/// reading (0.68) carried it past the veto, which judges both readings before the layout, and
/// the pon was read as four 6s. Before the tiles were judged again by the reading they are laid
/// by (`PhotoReading::lay_out`), it was read wrong with the version-12 classifier; now exactly.
#[test]
fn a_box_over_the_seam_of_two_tiles_is_dropped_by_the_way_it_is_laid() {
    assert_regressions_read_exactly(&["seed10-20-"]);
}

/// Added kans whose added tile, or the called tile under it, was read upright (seed 40's 07:
/// of white dragons; other art 34's 07: of 4p), faces that look alike a quarter turned: the
/// pair was not stacked, so the kan was read as an open one (the score is the same) with its
/// called tile elsewhere. Read exactly since two copies of one face as close across the row as
/// a sideways tile is deep are stacked whichever way they are read to lie
/// (`layout::STACK_SAME_ACROSS`).
#[test]
fn an_added_kans_pair_read_upright_is_stacked() {
    assert_regressions_read_exactly(&["seed40-07-", "alt34-07-"]);
}

/// Chis whose called tile lies first, as a chi's does (other art 21's 10: 4p-5p-6p; seed 83's
/// 20, a steep shot: 6p-5p-7p), but whose 5p (also alike a quarter turned) the detector drew
/// a little more turned, so it was taken for the called tile. Read exactly since another tile
/// of a chi must read clearly turned to be the called one (`layout::CHI_ELSEWHERE_EVIDENCE`);
/// and the 4p laid sideways, read only 0.48 sure turned, is as sure as its upright reading
/// (0.97): other art 21's 10 is no longer flagged for the user.
#[test]
fn a_chis_called_tile_is_the_first_unless_another_reads_clearly_turned() {
    let outcomes = assert_regressions_read_exactly(&["alt21-10-", "seed83-20-"]);
    assert!(outcomes[0].name.starts_with("alt21-10-"));
    assert!(!outcomes[0].flagged, "{}", outcomes[0].summary());
}

/// Added kans of white dragons whose stacked white dragon the detector drew no box over (seed
/// 86's 07; other art 65's 18, a far shot; seed 101's 14, a dim shot), which the other
/// added-kan rule leaves alone: read as pons, each hand was scored short of the kan's fu with
/// nothing flagged. Read exactly since both places of the stacked pair beyond the called tile
/// are read and must read as white dragons in the faces' tint, the lower one 0.9 sure and the
/// upper one 0.6 (`Recognizer::stack_blank_added_kans`; seed 101's 14's upper place reads
/// 0.73), and the pair found so is marked for the user to check.
#[test]
fn an_added_kan_of_white_dragons_with_no_box_is_read_and_flagged() {
    for outcome in assert_regressions_read_exactly(&["seed86-07-", "alt65-18-", "seed101-14-"]) {
        assert!(outcome.flagged, "{}: {}", outcome.name, outcome.summary());
    }
}

/// Pons of white dragons with nothing stacked whose places on the near side of the row read
/// as a stacked pair would (seed 66's 17: the lower place 0.75 sure a white dragon, the upper
/// 0.94; other art 92's 07: 0.90 and 0.76), the upper one taking in the row's near edge and
/// the tiles' ivory sides. Read as pons since added kans of white dragons are looked for beyond
/// the called tile only, up the photo, where a player adds the fourth tile
/// (`blank_stack_places`).
#[test]
fn a_white_dragon_pon_is_no_kan_by_the_row_s_near_side() {
    for outcome in assert_regressions_read_exactly(&["seed66-17-", "alt92-07-"]) {
        assert!(!outcome.flagged, "{}: {}", outcome.name, outcome.summary());
    }
}

/// Clutter beside the hand read as a dora indicator (other art 63's 07: a letter of the table's
/// pattern read as a 2p 0.98 sure; seed 116's 15: the table beside the indicator read as a white
/// dragon), which no hand constrains: each added a han per tile it pointed at (other art 63's 07
/// scored 26,000 for 18,000 without a word). Read exactly since an indicator the detector scored
/// under 0.5 whose face is more than 0.15 off the faces' tint is dropped
/// (`Recognizer::drop_off_tint_dora`).
#[test]
fn clutter_off_the_faces_tint_is_no_dora_indicator() {
    assert_regressions_read_exactly(&["alt63-07-", "seed116-15-"]);
}

/// Melds whose tiles' top readings make no meld, laid as the meld nearest them: seed 49's 11, a
/// closed kan of 5p whose right back has no box and whose left back reads as a called white
/// dragon, laid as the pon 5p 0p 5p (12,000 for a 32,000 suuankou); seed 48's 19, an added kan
/// of 1s whose stacked tile has no box and whose called one reads 8p, laid as a pon of 1s
/// (7,900 for 8,000). Both scores were wrong without a word, as the decoding took its best
/// option for a meld as read; still read wrong, each is now flagged for the user, since a face
/// the decoding gives a meld's tile that its crop gave under 1 % is marked uncertain
/// (`layout::UNSUPPORTED_FACE`). A score is never wrong without a flag.
#[test]
fn a_meld_face_the_decoding_forces_is_flagged() {
    assert_regressions_never_wrong_unflagged(&["seed48-19-", "seed49-11-"]);
}

/// Kans of white dragons in sets whose backs are ivory too, so that the classifier reads all
/// four tiles alike: other art 27's 10, a closed kan, its places fitting an open kan with the
/// fourth tile called a little better (9,000 for 13,000), and other art 43's 06, an open kan,
/// its places fitting a closed kan a hair better (fu 60 for 50); both wrong without a word.
/// Still read wrong, each is flagged since a kan of four blank faces whose places fit their
/// reading less than twice as well as the next is marked doubtful (`layout::PLACES_CLEAR_RATIO`).
#[test]
fn a_kan_of_blank_faces_its_places_do_not_tell_is_flagged() {
    assert_regressions_never_wrong_unflagged(&["alt27-10-", "alt43-06-"]);
}

/// A grid of black keys on the table read as a 6s indicator the detector scored 0.44 (seed 13's
/// 09): grey, it has no tint to tell it by (0.03 off the faces'), but it is under a third as
/// light as the faces. Read exactly since an indicator scored under 0.5 and under 0.45 of the
/// faces' lightness is dropped (`DARK_DORA`).
#[test]
fn dark_clutter_is_no_dora_indicator() {
    assert_regressions_read_exactly(&["seed13-09-"]);
}

/// A dead wall of coloured backs whose only face up is a white dragon, read as a back like its
/// neighbours (other art 72's 08, 4,200 for 9,600 without a word; seed 113's 04): no indicator
/// was read, so the dead wall's backs were not looked at again. Read exactly since they are,
/// whether or not another indicator was read (`Recognizer::find_blank_dora_among_backs`).
#[test]
fn a_lone_white_dragon_indicator_read_as_a_back_is_found() {
    assert_regressions_read_exactly(&["alt72-08-", "seed113-04-"]);
}

/// Lone white dragon indicators of dim shots, which the detector scored faintly and the
/// classifier read 0.85 (other art 66's 14, 12,000 for 16,000 without a word) and 0.81 (seed
/// 44's 13) sure, under the 0.85 a faint lone indicator had to read. Read exactly since 0.8 is
/// enough within the faces' tint (`LONE_DORA_SURE`).
#[test]
fn a_lone_white_dragon_indicator_in_dim_light_is_found() {
    assert_regressions_read_exactly(&["alt66-14-", "seed44-13-"]);
}

/// A die beside the hand read as a 2s indicator the detector scored 0.40 (seed 105's 09): white
/// with black pips, it has the faces' tint and lightness, but its side is 0.56 of the tiles'.
/// Read exactly since an indicator scored under 0.5 and not of the tiles' size is dropped
/// (`FAINT_SIZE`).
#[test]
fn a_die_is_no_dora_indicator() {
    assert_regressions_read_exactly(&["seed105-09-"]);
}

/// A black card with a grid beside the dead wall read as an 8p indicator, which the detector
/// scored 0.60 (other art 9's 03): 0.41 off the faces' tint, it was kept as an indicator and
/// added a han the hand did not have (9 han for 8) without a word. Still read so, it is now
/// flagged, since an indicator more than 0.15 off the faces' tint that is kept is marked
/// uncertain (`flag_off_tint_dora`).
#[test]
fn a_dora_indicator_unlike_the_tiles_is_flagged() {
    assert_regressions_never_wrong_unflagged(&["alt9-03-"]);
}

/// Reads the regressions whose names start with one of `prefixes` and asserts that each is
/// read right (hand and points) or flagged for the user to check.
fn assert_regressions_never_wrong_unflagged(prefixes: &[&str]) {
    let mut recognizer =
        Recognizer::load_default().unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
    for fixture in regressions(prefixes) {
        let outcome = run(&mut recognizer, &fixture);
        assert!(
            outcome.flagged || outcome.hand_and_points_right(),
            "{}: wrong without a flag: {}",
            outcome.name,
            outcome.summary()
        );
    }
}

/// Sets with pale backs, which read as white dragons. Seed 27's 10: a closed kan of white
/// dragons, four blank faces evenly spaced, was read as an open kan (one taken for the called
/// tile: 9,000 points for 13,000) before such four were read as a closed kan
/// (`layout::blank_closed_kan`). Seed 33's 14: of the dead wall's three backs one read as a
/// back and two as white dragon indicators (dora 5z1m5z for 1m) before blanks in a row with a
/// back were read as backs too. Now both exactly.
#[test]
fn pale_backs_read_as_white_dragons_are_read_as_backs_by_their_place() {
    assert_regressions_read_exactly(&["seed27-10-", "seed33-14-"]);
}

/// Warm light (red up a fifth, blue down a quarter) tints the faces beyond the synthetic
/// scenes' range; the recognizer lifts such a photo's tint back to that range and reads it
/// again (`picture::light_gains`). Every fixture then reads as in white light. Without the
/// lift, 19-any-steep's 7s read as a 6s under that light and its hand scored a false suuankou
/// (measured 2026-11-25).
#[test]
fn photos_in_warm_light_are_read_as_in_white_light() {
    let outcomes = read_changed(|_, rgb| (None, rgb.with_gains([1.2, 0.95, 0.75])));
    assert_read_exactly(&outcomes, &READ_EXACTLY);
}

/// Dim light (every channel at 0.3) darkens the faces beyond the synthetic scenes' range; a
/// photo whose tiles do not then lay out a complete hand, or whose faces are darker than the
/// synthetic scenes' (`Settings::dark_below`), is brightened and read again
/// (`picture::light_gains`, `Settings::dim_below`). Every fixture then reads as in white
/// light. Read as they are, 14-pon-dim and 15-two-melds-dim lost most of their tiles and
/// 13-closed-dim its set-apart winning tile (measured 2026-11-25).
#[test]
fn photos_in_dim_light_are_read_as_in_white_light() {
    let outcomes = read_changed(|_, rgb| (None, rgb.with_gains([0.3, 0.3, 0.3])));
    assert_read_exactly(&outcomes, &READ_EXACTLY);
}

/// A photo darker than the synthetic scenes the models were trained on (its faces' brightest
/// channel under 80, `Settings::dark_below`) is brightened and read again even when its tiles
/// already lay out a complete hand, which in such light too often holds a tile misread or
/// misses some: read as they were, seed 15's 13 (a dim closed hand) read a 4s as a 2s (the
/// hand-aware decoding put the hand right) and seed 93's 14 (a dim pon) missed three of the
/// dead wall's backs. Brightened, every tile of both is read (measured 2026-12-07).
#[test]
fn a_photo_darker_than_the_models_know_is_brightened_whatever_it_reads() {
    assert_the_rule_reads_them(
        &["seed15-13-", "seed93-14-"],
        |s| s.dark_below = 0.0,
        |outcome| !outcome.tiles_exact() || !outcome.wall_missed.is_empty(),
    );
}

/// Photos of a dim room are noisy, and brightening one brightens its noise: such a photo is
/// smoothed before it is read when its noise so brightened is over
/// `Settings::smooth_noise_above` (`Rgb::noise_level`, `Rgb::smoothed`). Held-out seed 41's 07
/// and seed 46's 09, each re-shot by `scripts/photo-conditions.sh` as `dimnoisy` (every channel
/// at 0.25, then noise of 6 levels): read brightened but not smoothed, the first missed two
/// backs of its closed kan and read a third as an 8p, the second missed two concealed tiles,
/// each hand flagged and not exactly read; smoothed, both are read exactly (measured
/// 2026-12-07).
#[test]
fn a_noisy_dark_photo_is_smoothed_before_it_is_read() {
    assert_the_rule_reads_them(
        &["dimnoisy41-07-", "dimnoisy46-09-"],
        |s| s.smooth_noise_above = f32::INFINITY,
        |outcome| !outcome.exact() && outcome.flagged,
    );
}

/// A webcam that sets its exposure by a dark mat overexposes the tiles: their faces clip at
/// white and their ink pales. Such a photo is read again with its levels darkened
/// (`Settings::clipped_above`, `Rgb::with_gamma`), and the better reading kept. Held-out seed
/// 41's 07 and seed 43's 08, each re-shot by `scripts/photo-conditions.sh` as `bright` (every
/// channel at 1.5): read as they are, the first took a back of its closed kan for a white dragon
/// and the second a 4m of its open kan for a red five; each lost its kan and scored wrong
/// (24,000 points for 36,000, 5,200 for 10,000). Darkened, both are read exactly (measured
/// 2026-12-07).
#[test]
fn an_overexposed_photo_is_read_again_darkened() {
    assert_the_rule_reads_them(
        &["bright41-07-", "bright43-08-"],
        |s| s.clipped_above = 0.0,
        |outcome| !outcome.hand_and_points_right(),
    );
}

/// Asserts that each regression fixture of `prefixes` reads as `worse` says with the rule
/// turned off (`rule_off` made to the settings), and every tile of it exactly with the
/// defaults.
fn assert_the_rule_reads_them(
    prefixes: &[&str],
    rule_off: impl FnOnce(&mut Settings),
    worse: impl Fn(&Outcome) -> bool,
) {
    for (name, outcome) in read_regressions_with(prefixes, rule_off) {
        assert!(
            worse(&outcome),
            "{name} read with the rule off: {}",
            outcome.summary()
        );
    }
    for outcome in assert_regressions_read_exactly(prefixes) {
        assert_eq!(outcome.summary(), "exact", "{}", outcome.name);
    }
}

/// The fixtures overexposed (every channel at 1.5: the faces clip at white, the ink pales) are
/// read again darkened (`Settings::clipped_above`): all but 08-two-melds-normal, whose white
/// dragon dora indicator is lost in the glare either way, read exactly. With the rule off,
/// 19-any-steep also loses its pair of white dragons and with them its hand (measured
/// 2026-12-07).
#[test]
fn the_fixtures_overexposed_are_read_darkened() {
    let overexposed = |_: &Fixture, rgb: &Rgb| (None, rgb.with_gains([1.5; 3]));
    let exact: Vec<&str> = READ_EXACTLY
        .into_iter()
        .filter(|&name| name != "08-two-melds-normal")
        .collect();
    assert_read_exactly(&read_changed(overexposed), &exact);
    let off = read_changed_by(recognizer_with(|s| s.clipped_above = 0.0), overexposed);
    let steep = off
        .iter()
        .find(|o| o.name == "19-any-steep")
        .expect("19-any-steep is a fixture");
    assert!(
        !steep.hand_and_points_right(),
        "19-any-steep overexposed, read as it is: {}",
        steep.summary()
    );
}

/// A veil of light (each channel 0.4 of the way to a grey of 200: haze, glare over the lens, a
/// webcam's lifted blacks) lifts the photo's blacks beyond the synthetic scenes' range; the
/// recognizer takes it off before it reads (`Settings::haze_black`, `Rgb::with_black`). Every
/// fixture then reads as in clear air. Read as they are, 20-pon-steep took a dead wall back
/// for a white dragon indicator (7,700 points for 1,000) and seven more lost dead wall backs
/// (measured 2026-12-07).
#[test]
fn photos_under_a_veil_of_light_are_read_as_in_clear_air() {
    let outcomes = read_changed(|_, rgb| (None, veiled(rgb)));
    assert_read_exactly(&outcomes, &READ_EXACTLY);
}

/// `rgb` seen through a veil: each channel 0.4 of the way to 200.
fn veiled(rgb: &Rgb) -> Rgb {
    let pixels = rgb
        .pixels
        .iter()
        .map(|&v| (0.6 * v as f32 + 80.0).round() as u8)
        .collect();
    Rgb::new(rgb.width, rgb.height, pixels).expect("same size")
}

/// Hands the first detector leaves incomplete and the second reads exactly (2026-11-27, eighth
/// session): seed 88's 19, a steep shot whose red 5s got no box; seed 81's 10, a false box read
/// as a 4p between the concealed tiles; seed 74's 11, a 4s and a south wind without boxes;
/// other art 84's 18, a far shot whose three white dragons got none. With the second opinion
/// turned off each reads flagged and not exactly, with it each reads exactly.
#[test]
fn a_hand_the_first_detector_leaves_incomplete_is_read_with_the_second() {
    let prefixes = ["seed88-19-", "seed81-10-", "seed74-11-", "alt84-18-"];
    let models = riichi_lens::vision::runtime::models_dir().expect("the models folder");
    assert!(
        models.join(riichi_lens::vision::SECOND_DETECTOR).is_file(),
        "the second detector is committed"
    );
    for (name, outcome) in read_with_the_first_detector_alone(&prefixes) {
        assert!(
            !outcome.exact() && outcome.flagged,
            "{name} read with the first detector alone: {}",
            outcome.summary()
        );
    }
    // With the default settings, the second opinion on.
    assert_regressions_read_exactly(&prefixes);
}

/// A live view of a hand being laid out (each fixture with its winning tile painted over, so
/// neither detector can complete it): every first frame reads as the photo does, and a memo
/// carried over from another hand remembers nothing of this one. Two such hands read in turn,
/// as a borderline box coming and going would make one hand read two ways: the second
/// detector is asked about each once and declines; each is then not asked about for
/// `SECOND_OPINION_REMEMBERED` frames, each read as the first was; then each is asked again.
#[test]
fn a_live_view_does_not_ask_the_second_detector_again_about_a_hand_it_declined() {
    let mut recognizer =
        Recognizer::load_default().unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
    let mut memo = LiveMemo::default();
    let mut declined = Vec::new();
    for fixture in load_all() {
        let frame = photo_fixtures::incomplete_frame(&fixture);
        let photo = recognizer.read_photo(&frame).expect("read");
        let (first, opinion) = recognizer.read_frame(&frame, &mut memo).expect("read");
        assert_eq!(
            json(&first),
            json(&photo),
            "{}: frame and photo",
            fixture.name
        );
        assert_ne!(opinion, SecondOpinion::Remembered, "{}", fixture.name);
        if opinion == SecondOpinion::Declined && declined.len() < 2 {
            declined.push((fixture.name, frame, json(&first)));
        }
    }
    assert_eq!(
        declined.len(),
        2,
        "incomplete hands the second detector declined"
    );
    let mut memo = LiveMemo::default();
    let mut read_each = |expected: SecondOpinion| {
        for (name, frame, first) in &declined {
            let (reading, opinion) = recognizer.read_frame(frame, &mut memo).expect("read");
            assert_eq!(opinion, expected, "{name}");
            assert_eq!(&json(&reading), first, "{name}: read again");
        }
    };
    read_each(SecondOpinion::Declined);
    for _ in 0..SECOND_OPINION_REMEMBERED {
        read_each(SecondOpinion::Remembered);
    }
    read_each(SecondOpinion::Declined);
}

/// A live view remembers only what the second detector declined: a hand it completes (seed
/// 88's 19, whose red 5s the first detector misses) is asked about on every frame and read as
/// the photo is, and a complete hand with a yaku is never asked about.
#[test]
fn a_live_view_asks_the_second_detector_on_every_frame_it_completes() {
    let mut recognizer =
        Recognizer::load_default().unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
    let fixture = &regressions(&["seed88-19-"])[0];
    let frame = Rgb::open(&fixture.image).expect("fixture image");
    let photo = recognizer.read_photo(&frame).expect("read");
    let mut memo = LiveMemo::default();
    for _ in 0..2 {
        let (reading, opinion) = recognizer.read_frame(&frame, &mut memo).expect("read");
        assert_eq!(opinion, SecondOpinion::Taken);
        assert_eq!(json(&reading), json(&photo));
    }
    let complete = &load_all()[0];
    let frame = Rgb::open(&complete.image).expect("fixture image");
    let (reading, opinion) = recognizer.read_frame(&frame, &mut memo).expect("read");
    assert!(
        reading
            .hand
            .as_ref()
            .is_some_and(|h| h.complete && h.has_a_yaku()),
        "{} reads complete with a yaku",
        complete.name
    );
    assert_eq!(opinion, SecondOpinion::NotAsked, "{}", complete.name);
}

/// A reading as JSON, to compare two readings whole.
fn json(reading: &PhotoReading) -> serde_json::Value {
    serde_json::to_value(reading).expect("a reading serializes")
}

/// A recognizer of the committed models with the default settings changed by `change`.
fn recognizer_with(change: impl FnOnce(&mut Settings)) -> Recognizer {
    let mut recognizer =
        Recognizer::load_default().unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
    change(&mut recognizer.settings);
    recognizer
}

/// The regression fixtures of `prefixes` read with the second opinion turned off, with their
/// names.
fn read_with_the_first_detector_alone(prefixes: &[&str]) -> Vec<(String, Outcome)> {
    read_regressions_with(prefixes, |settings| settings.second_opinion = false)
}

/// The regression fixtures of `prefixes` read with the settings changed by `change` (a rule
/// turned off, to show what it does), with their names.
fn read_regressions_with(
    prefixes: &[&str],
    change: impl FnOnce(&mut Settings),
) -> Vec<(String, Outcome)> {
    let mut recognizer = recognizer_with(change);
    regressions(prefixes)
        .into_iter()
        .map(|fixture| (fixture.name.clone(), run(&mut recognizer, &fixture)))
        .collect()
}

/// An open hand read complete but without a yaku (other art 73's 10, tilted: the 6s of its chi
/// 6s 7s 8s read 9s, which lost tanyao): a won hand has a yaku, so the second detector is asked
/// as for an incomplete hand, and its reading, complete with a yaku, is kept
/// (`ReadHand::has_a_yaku`). With the second opinion turned off the hand reads complete and
/// unflagged and scores "no yaku"; with it, exactly. A first reading left incomplete still
/// takes the second's complete one without a yaku of its tiles: seed 88's 19 (above) won on
/// the last discard.
#[test]
fn an_open_hand_read_without_a_yaku_is_read_with_the_second_detector() {
    let prefixes = ["alt73-10-"];
    for (name, outcome) in read_with_the_first_detector_alone(&prefixes) {
        assert!(
            !outcome.flagged && outcome.score_wrong.iter().any(|w| w.contains("no yaku")),
            "{name} read with the first detector alone: {}",
            outcome.summary()
        );
    }
    assert_regressions_read_exactly(&prefixes);
}

/// A closed kan with one dora indicator read (other art 13's 19, steep, over a busy table): the
/// second indicator, a 6s beside the 9m, got no box, and the hand was scored two han short
/// without a word. A kan calls for one more indicator (`lacks_kan_dora`), so the place one
/// pitch past the dead wall's row is read (`wall_end_places`): the 6s there, read 0.57 sure, is
/// taken and marked for the user to check. Now exactly, flagged.
#[test]
fn a_dora_indicator_a_kan_calls_for_is_read_past_the_dead_walls_end() {
    let outcomes = assert_regressions_read_exactly(&["alt13-19-"]);
    assert!(outcomes[0].flagged, "{}", outcomes[0].summary());
}

/// A concealed row whose 4p leans sideways by a hair of its two readings (wall seed 24's 13,
/// dim, with a wall beside the hand): the lean marked the first run as holding a called tile, so
/// the 7s and 8s after a small gap and the set-apart 6s were read as a chi, and the hand scored
/// wrong without a flag. A tile of the first run marks it only when its box lies sideways
/// (`layout::FIRST_RUN_MARK`); now exactly.
#[test]
fn a_concealed_tile_leaning_sideways_makes_no_meld_of_the_tiles_after_it() {
    assert_regressions_read_exactly(&["wall24-13-"]);
}
