//! Fu rules, the worked examples from the rule references, best-reading choice, and every
//! bad-input error.

mod common;
use common::{error_kind, score};
use riichi_lens::fu::FuReason;

fn fu_reasons(json: &str) -> Vec<(&'static str, u8)> {
    score(json)
        .fu_breakdown
        .iter()
        .map(|i| (i.reason.name(), i.fu))
        .collect()
}

#[test]
fn breakdown_adds_up_to_the_rounded_fu() {
    for json in [
        r#"{"hand":"123m456p789s11122z","win":"2z","riichi":true}"#,
        r#"{"hand":"222m444p666s789s55z","win":"9s","riichi":true,"tsumo":true}"#,
        r#"{"hand":"1133m5577p22s4466z","win":"6z","riichi":true}"#,
    ] {
        let s = score(json);
        let sum: u32 = s.fu_breakdown.iter().map(|i| u32::from(i.fu)).sum();
        assert_eq!(sum, u32::from(s.fu), "{json}");
        assert_eq!(s.fu % 5, 0);
    }
}

#[test]
fn base_closed_ron_and_tsumo_fu() {
    let r = fu_reasons(r#"{"hand":"123m456p789s123s55m","win":"2s","riichi":true}"#);
    assert_eq!(
        r,
        vec![
            ("base", 20),
            ("closed_ron", 10),
            ("wait_kanchan", 2),
            ("round_up", 8)
        ]
    );
    let r = fu_reasons(r#"{"hand":"123m456p789s123s55m","win":"2s","riichi":true,"tsumo":true}"#);
    assert_eq!(
        r,
        vec![
            ("base", 20),
            ("tsumo", 2),
            ("wait_kanchan", 2),
            ("round_up", 6)
        ]
    );
}

#[test]
fn pinfu_fu_is_20_tsumo_and_30_ron() {
    assert_eq!(
        score(r#"{"hand":"123m456p123789s55m","win":"1s","tsumo":true}"#).fu,
        20
    );
    assert_eq!(
        score(r#"{"hand":"123m456p123789s55m","win":"1s","riichi":true}"#).fu,
        30
    );
}

#[test]
fn open_pinfu_shape_ron_is_30() {
    let r = fu_reasons(r#"{"hand":"456p678s234s55m","melds":["[234m]"],"win":"4s"}"#);
    assert_eq!(r, vec![("base", 20), ("open_pinfu", 10)]);
    // On tsumo the 2 fu are counted and rounded instead.
    let r = fu_reasons(r#"{"hand":"456p678s234s55m","melds":["[234m]"],"win":"4s","tsumo":true}"#);
    assert_eq!(r, vec![("base", 20), ("tsumo", 2), ("round_up", 8)]);
}

#[test]
fn set_fu_by_openness_kind_and_terminal() {
    let s = score(
        r#"{"hand":"555m99p","melds":["[555p]","(9999s)","[1111m]"],"win":"9p","tsumo":true,"rinshan":true}"#,
    );
    let items: Vec<_> = s.fu_breakdown.iter().map(|i| (i.reason, i.fu)).collect();
    let k = |t: &str| riichi_lens::notation::parse_tile(t).unwrap().kind();
    assert!(items.contains(&(FuReason::OpenTriplet(k("5p")), 2)));
    assert!(items.contains(&(FuReason::ClosedKan(k("9s")), 32)));
    assert!(items.contains(&(FuReason::OpenKan(k("1m")), 16)));
    assert!(items.contains(&(FuReason::ClosedTriplet(k("5m")), 4)));
    let s = score(
        r#"{"hand":"55m999p","melds":["[555p]","(9999s)","[1111m]"],"win":"5m","tsumo":true,"rinshan":true}"#,
    );
    assert!(s
        .fu_breakdown
        .iter()
        .any(|i| i.reason == FuReason::ClosedTriplet(k("9p")) && i.fu == 8));
}

#[test]
fn pair_fu_and_double_wind_option() {
    let east_pair = r#"{"hand":"123m456p789s123s11z","win":"3s","riichi":true}"#;
    let r = fu_reasons(east_pair);
    assert!(r.contains(&("pair_seat_wind", 2)) && r.contains(&("pair_round_wind", 2)));
    let s = score(r#"{"hand":"123m456p789s123s11z","win":"3s","riichi":true,"rules":"wrc"}"#);
    let pair_fu: u8 = s
        .fu_breakdown
        .iter()
        .filter(|i| i.reason.name().starts_with("pair"))
        .map(|i| i.fu)
        .sum();
    assert_eq!(pair_fu, 2);
    let r = fu_reasons(r#"{"hand":"123m456p789s123s66z","win":"3s","riichi":true}"#);
    assert!(r.contains(&("pair_dragon", 2)));
}

#[test]
fn tanki_and_penchan_wait_fu() {
    let r = fu_reasons(r#"{"hand":"123m456p789s123s55m","win":"5m","riichi":true}"#);
    assert!(r.contains(&("wait_tanki", 2)));
    let r = fu_reasons(r#"{"hand":"123m456p789s123s55m","win":"3s","riichi":true}"#);
    assert!(r.contains(&("wait_penchan", 2)));
}

#[test]
fn highest_scoring_reading_wins() {
    // 111222333m: three concealed triplets (sanankou) or three identical sequences; on a
    // tsumo the triplet reading is worth more.
    let s = score(r#"{"hand":"111222333m456p55s","win":"5s","tsumo":true}"#);
    assert!(
        s.yaku.iter().any(|y| y.name.name() == "sanankou"),
        "{:?}",
        s.yaku
    );
    // 11223344556677p: chiitoitsu or ryanpeikou; ryanpeikou chinitsu is worth more.
    let s = score(r#"{"hand":"11223344556677p","win":"7p","riichi":true}"#);
    assert!(
        s.yaku.iter().any(|y| y.name.name() == "ryanpeikou"),
        "{:?}",
        s.yaku
    );
}

#[test]
fn worked_examples_from_the_references() {
    // Non-dealer toitoi ron, 40 fu 2 han = 2,600: 20 + two concealed simple triplets (4 + 4)
    // + open 777m (2) + open 999p (4) + tanki (2) = 36, rounded to 40.
    let s = score(r#"{"hand":"22244455s","melds":["[777m]","[999p]"],"win":"5s","seat_wind":"S"}"#);
    assert_eq!(
        (s.han, s.fu, s.points.ron),
        (2, 40, Some(2600)),
        "{:?} {:?}",
        s.yaku,
        s.fu_breakdown
    );
    // Dealer tsumo 30 fu 4 han = 3,900 all (riichi, tsumo, two dora; kanchan 24 fu → 30).
    let s = score(
        r#"{"hand":"123m456p789s123s55m","win":"2s","riichi":true,"tsumo":true,"dora_indicators":"4m"}"#,
    );
    assert_eq!(
        (s.han, s.fu, s.points.tsumo_non_dealer),
        (4, 30, Some(3900)),
        "{:?}",
        s.yaku
    );
    assert_eq!(s.points.tsumo_dealer, None);
    // Non-dealer pinfu tsumo 20 fu 4 han = 1,300 / 2,600 (riichi, tsumo, pinfu, tanyao).
    let s = score(
        r#"{"hand":"234m567p234678s55m","win":"2s","riichi":true,"tsumo":true,"seat_wind":"S"}"#,
    );
    assert_eq!((s.han, s.fu), (4, 20), "{:?}", s.yaku);
    assert_eq!(
        (s.points.tsumo_dealer, s.points.tsumo_non_dealer),
        (Some(2600), Some(1300))
    );
}

#[test]
fn ninety_fu_one_han() {
    // 20 + closed ron 10 + closed kan of 9s 32 + closed kan of 5p 16 + chun pair 2 + kanchan 2
    // = 82, rounded to 90; riichi is the only yaku.
    let json = r#"{"hand":"234m678p77z","melds":["(9999s)","(5555p)"],"win":"7p","riichi":true,"seat_wind":"S"}"#;
    let s = score(json);
    assert_eq!(
        (s.han, s.fu, s.points.ron),
        (1, 90, Some(2900)),
        "{:?} {:?}",
        s.yaku,
        s.fu_breakdown
    );
    let dealer = score(&json.replace(r#""seat_wind":"S""#, r#""seat_wind":"E""#));
    assert_eq!(
        (dealer.han, dealer.fu, dealer.points.ron),
        (1, 90, Some(4400))
    );
}

#[test]
fn honba_and_sticks_go_to_the_winner() {
    // Non-dealer riichi, 1 han 40 fu (20 + 10 + closed West triplet 8 + tanki 2) = 1,300.
    let s = score(
        r#"{"hand":"123m456p789s33344z","win":"4z","riichi":true,"seat_wind":"S","honba":2,"riichi_sticks":1}"#,
    );
    assert_eq!(s.points.ron, Some(1300 + 600));
    assert_eq!(s.points.total, 1300 + 600 + 1000);
}

#[test]
fn impossible_conditions_are_errors() {
    let base = r#""hand":"123m456p789s11122z","win":"2z""#;
    for extra in [
        r#""ippatsu":true"#,
        r#""rinshan":true,"tsumo":true"#,
        r#""haitei":true"#,
        r#""houtei":true,"tsumo":true"#,
        r#""chankan":true,"tsumo":true"#,
        r#""tenhou":true,"tsumo":true,"seat_wind":"S""#,
        r#""tenhou":true"#,
        r#""chiihou":true,"tsumo":true"#,
        r#""renhou":true,"tsumo":true,"seat_wind":"S""#,
        r#""ura_indicators":"1m""#,
        r#""riichi":true,"tenhou":true,"tsumo":true"#,
        r#""kita":1"#,
    ] {
        let json = format!("{{{base},{extra}}}");
        assert_eq!(error_kind(&json), "impossible_conditions", "{json}");
    }
    assert_eq!(
        error_kind(r#"{"hand":"456p789s11122z","melds":["[123m]"],"win":"2z","riichi":true}"#),
        "impossible_conditions"
    );
    assert_eq!(
        error_kind(
            r#"{"hand":"456p789s11122z","melds":["(1111m)"],"win":"2z","tsumo":true,"rinshan":true,"haitei":true}"#
        ),
        "impossible_conditions"
    );
}

#[test]
fn tile_errors() {
    assert_eq!(error_kind(r#"{"hand":"123m456p789s1112x"}"#), "notation");
    assert_eq!(error_kind(r#"{"hand":"11111m456p789s222z"}"#), "fifth_copy");
    assert_eq!(
        error_kind(
            r#"{"hand":"123m456p789s11122z","win":"2z","riichi":true,"dora_indicators":"2z2z2z"}"#
        ),
        "fifth_copy"
    );
    assert_eq!(
        error_kind(r#"{"hand":"123m456p789s1122z"}"#),
        "wrong_tile_count"
    );
    assert_eq!(
        error_kind(r#"{"hand":"123m456p789s11122z","win":"3z"}"#),
        "win_not_in_hand"
    );
    assert_eq!(
        error_kind(r#"{"hand":"123m456p789s11223z","riichi":true}"#),
        "not_complete"
    );
    assert_eq!(
        error_kind(r#"{"hand":"123m406p789s00s222z","win":"2z","riichi":true}"#),
        "too_many_red_fives"
    );
    assert_eq!(
        error_kind(r#"{"hand":"234m456p789s11122z","win":"2z","riichi":true,"rules":"sanma"}"#),
        "not_in_sanma"
    );
}

#[test]
fn payments_too_large_for_64_bits_are_an_error() {
    // Found while fuzzing: both used to overflow inside the payment arithmetic.
    assert_eq!(
        error_kind(
            r#"{"hand":"123m456p789s11155z","riichi":true,"honba":4294967295,"riichi_sticks":4294967295,"rules":{"honba_value":4294967295}}"#
        ),
        "points_overflow"
    );
    assert_eq!(
        error_kind(
            r#"{"hand":"11122233344455z","tsumo":true,"rules":{"aotenjou":true,"yakuman_stacking":true,"double_yakuman":true}}"#
        ),
        "points_overflow"
    );
    // Large but representable values are still paid exactly: 4,294,967,295 riichi sticks
    // are 4,294,967,295,000 points on top of the 1,000-point hand.
    let s = score(r#"{"hand":"123m456p789s11155z","riichi":true,"riichi_sticks":4294967295}"#);
    assert_eq!(s.points.riichi_sticks, 4_294_967_295_000);
    assert_eq!(
        s.points.total,
        s.points.ron.unwrap() + s.points.riichi_sticks
    );
    // Aotenjou stays exact up to where 64 bits run out: a 30-fu 35-han ron is
    // 30 × 2^37 base points, × 4 for a non-dealer ron, rounded up to 100.
    let s =
        score(r#"{"hand":"11122233344455z","win":"5z","seat_wind":"S","rules":{"aotenjou":true}}"#);
    let base = u64::from(s.fu) << (2 + s.han);
    assert_eq!(s.points.ron, Some((base * 4).div_ceil(100) * 100));
}

#[test]
fn the_score_command_names_the_tiles_a_hand_typed_a_tile_short_waits_on() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_riichi-lens"))
        .args(["score", "123m456p789s1155z"])
        .output()
        .expect("riichi-lens runs");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("found 13; one tile short: 1z or 5z would complete it"),
        "{stderr}"
    );
}
