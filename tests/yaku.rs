//! One test per yaku and yakuman: the yaku is found with the right han (closed and open where
//! the value differs), and is absent from a near-miss hand.

mod common;
use common::{error_kind, han_of, names, score};

fn has(json: &str, name: &str, han: u32) {
    let s = score(json);
    assert_eq!(han_of(&s, name), Some(han), "{json}: {:?}", names(&s));
}

fn lacks(json: &str, name: &str) {
    let s = score(json);
    assert_eq!(han_of(&s, name), None, "{json}: {:?}", names(&s));
}

#[test]
fn riichi_and_double_riichi() {
    has(
        r#"{"hand":"123m456p789s11122z","win":"2z","riichi":true}"#,
        "riichi",
        1,
    );
    let s = score(r#"{"hand":"123m456p789s11122z","win":"2z","double_riichi":true}"#);
    assert_eq!(han_of(&s, "double_riichi"), Some(2));
    assert_eq!(han_of(&s, "riichi"), None);
}

#[test]
fn ippatsu() {
    has(
        r#"{"hand":"123m456p789s11122z","win":"2z","riichi":true,"ippatsu":true}"#,
        "ippatsu",
        1,
    );
}

#[test]
fn menzen_tsumo() {
    has(
        r#"{"hand":"123m456p789s11122z","win":"2z","tsumo":true}"#,
        "menzen_tsumo",
        1,
    );
    lacks(
        r#"{"hand":"456p789s11122z","melds":["[123m]"],"win":"2z","tsumo":true,"haitei":true}"#,
        "menzen_tsumo",
    );
}

#[test]
fn pinfu() {
    has(
        r#"{"hand":"123m456p123789s55m","win":"1s","riichi":true}"#,
        "pinfu",
        1,
    );
    // A kanchan wait is not pinfu, nor a value pair, nor an open hand.
    lacks(
        r#"{"hand":"123m456p789s123s55m","win":"2s","riichi":true}"#,
        "pinfu",
    );
    lacks(
        r#"{"hand":"123m456p789s234s77z","win":"4s","riichi":true}"#,
        "pinfu",
    );
    lacks(
        r#"{"hand":"456p678s234s55m","melds":["[234m]"],"win":"4s"}"#,
        "pinfu",
    );
}

#[test]
fn tanyao_open_by_option() {
    has(
        r#"{"hand":"234m456p678s22888s","win":"8s","riichi":true}"#,
        "tanyao",
        1,
    );
    has(
        r#"{"hand":"456p678s22888s","melds":["[234m]"],"win":"8s"}"#,
        "tanyao",
        1,
    );
    assert_eq!(
        error_kind(
            r#"{"hand":"456p678s22888s","melds":["[234m]"],"win":"8s","rules":{"open_tanyao":false}}"#
        ),
        "no_yaku"
    );
}

#[test]
fn iipeikou_and_ryanpeikou() {
    has(
        r#"{"hand":"112233m456p789s55z","win":"3m","riichi":true}"#,
        "iipeikou",
        1,
    );
    let s = score(r#"{"hand":"112233m445566p55z","win":"3m","riichi":true}"#);
    assert_eq!(han_of(&s, "ryanpeikou"), Some(3));
    assert_eq!(han_of(&s, "iipeikou"), None);
    assert_eq!(
        han_of(&s, "chiitoitsu"),
        None,
        "ryanpeikou outscores seven pairs"
    );
    lacks(
        r#"{"hand":"123m456p789s55z","melds":["[123m]"],"win":"5z","haitei":true,"tsumo":true}"#,
        "iipeikou",
    );
}

#[test]
fn yakuhai() {
    has(
        r#"{"hand":"123m456p789s55z666z","win":"6z"}"#,
        "yakuhai_hatsu",
        1,
    );
    has(
        r#"{"hand":"123m456p789s11z555z","win":"1m"}"#,
        "yakuhai_haku",
        1,
    );
    has(
        r#"{"hand":"123m456p789s11z777z","win":"7z"}"#,
        "yakuhai_chun",
        1,
    );
    let s = score(r#"{"hand":"123m456p789s111z55m","win":"5m","seat_wind":"E","round_wind":"E"}"#);
    assert_eq!(han_of(&s, "yakuhai_seat_wind"), Some(1));
    assert_eq!(han_of(&s, "yakuhai_round_wind"), Some(1));
    let s = score(r#"{"hand":"123m456p789s222z55m","win":"5m","seat_wind":"S","round_wind":"E"}"#);
    assert_eq!(han_of(&s, "yakuhai_seat_wind"), Some(1));
    assert_eq!(han_of(&s, "yakuhai_round_wind"), None);
    assert_eq!(
        error_kind(r#"{"hand":"123m456p789s333z55m","win":"5m","seat_wind":"S"}"#),
        "no_yaku"
    );
}

#[test]
fn haitei_houtei_rinshan_chankan() {
    has(
        r#"{"hand":"456p789s11122z","melds":["[123m]"],"win":"2z","tsumo":true,"haitei":true}"#,
        "haitei",
        1,
    );
    has(
        r#"{"hand":"456p789s11122z","melds":["[123m]"],"win":"2z","houtei":true}"#,
        "houtei",
        1,
    );
    has(
        r#"{"hand":"456p789s11122z","melds":["[1111m]"],"win":"2z","tsumo":true,"rinshan":true}"#,
        "rinshan",
        1,
    );
    has(
        r#"{"hand":"456p789s123m11z","melds":["[999m]"],"win":"1m","chankan":true}"#,
        "chankan",
        1,
    );
}

#[test]
fn sanshoku() {
    has(
        r#"{"hand":"123m123p123s789m55z","win":"9m","riichi":true}"#,
        "sanshoku_doujun",
        2,
    );
    has(
        r#"{"hand":"123p123s789m55z","melds":["[123m]"],"win":"9m"}"#,
        "sanshoku_doujun",
        1,
    );
    has(
        r#"{"hand":"222m222p222s789m55z","win":"9m","riichi":true}"#,
        "sanshoku_doukou",
        2,
    );
    has(
        r#"{"hand":"222p222s789m55z","melds":["[222m]"],"win":"9m"}"#,
        "sanshoku_doukou",
        2,
    );
}

#[test]
fn ittsu() {
    has(
        r#"{"hand":"123456789m789p55z","win":"9m","riichi":true}"#,
        "ittsu",
        2,
    );
    has(
        r#"{"hand":"456789m789p55z","melds":["[123m]"],"win":"9m"}"#,
        "ittsu",
        1,
    );
}

#[test]
fn chanta_and_junchan() {
    has(
        r#"{"hand":"123m789p123s999s11z","win":"1z","riichi":true}"#,
        "chanta",
        2,
    );
    has(
        r#"{"hand":"789p123s999s11z","melds":["[123m]"],"win":"1z"}"#,
        "chanta",
        1,
    );
    let s = score(r#"{"hand":"123m789p123s999s11m","win":"1m","riichi":true}"#);
    assert_eq!(han_of(&s, "junchan"), Some(3));
    assert_eq!(han_of(&s, "chanta"), None);
    has(
        r#"{"hand":"789p123s999s11m","melds":["[123m]"],"win":"1m"}"#,
        "junchan",
        2,
    );
}

#[test]
fn toitoi_sanankou_sankantsu() {
    has(
        r#"{"hand":"222p333s55z","melds":["[777m]","[999p]"],"win":"5z"}"#,
        "toitoi",
        2,
    );
    has(
        r#"{"hand":"222m444p666s789s55z","win":"9s","riichi":true}"#,
        "sanankou",
        2,
    );
    // A triplet completed by ron is not concealed.
    lacks(
        r#"{"hand":"222m444p666s789s55z","win":"6s","riichi":true}"#,
        "sanankou",
    );
    has(
        r#"{"hand":"789s55z","melds":["(2222m)","[4444p]","{6666s}"],"win":"5z"}"#,
        "sankantsu",
        2,
    );
}

#[test]
fn honroutou_and_shousangen() {
    let s = score(r#"{"hand":"111m999p11z","melds":["[999s]","[222z]"],"win":"1z"}"#);
    assert_eq!(han_of(&s, "honroutou"), Some(2));
    assert_eq!(han_of(&s, "toitoi"), Some(2));
    has(
        r#"{"hand":"123m456p55z666z777z","win":"3m"}"#,
        "shousangen",
        2,
    );
}

#[test]
fn chiitoitsu() {
    let s = score(r#"{"hand":"1133m5577p22s4466z","win":"6z","riichi":true}"#);
    assert_eq!(han_of(&s, "chiitoitsu"), Some(2));
    assert_eq!(s.fu, 25);
    let s = score(
        r#"{"hand":"1133m5577p22s4466z","win":"6z","riichi":true,"rules":{"chiitoitsu_50_fu":true}}"#,
    );
    assert_eq!((han_of(&s, "chiitoitsu"), s.fu), (Some(1), 50));
}

#[test]
fn honitsu_and_chinitsu() {
    has(r#"{"hand":"123456789m11z222z","win":"2z"}"#, "honitsu", 3);
    has(
        r#"{"hand":"456789m11z222z","melds":["[123m]"],"win":"2z"}"#,
        "honitsu",
        2,
    );
    has(
        r#"{"hand":"23456778999m","melds":["[111m]"],"win":"9m"}"#,
        "chinitsu",
        5,
    );
    has(r#"{"hand":"11223345678999p","win":"9p"}"#, "chinitsu", 6);
}

#[test]
fn renhou_by_option() {
    let base = r#"{"hand":"123m456p789s33322z","win":"2z","seat_wind":"S","renhou":true"#;
    assert_eq!(error_kind(&format!("{base}}}")), "no_yaku");
    let s = score(&format!(r#"{base},"rules":{{"renhou":"mangan"}}}}"#));
    assert_eq!(han_of(&s, "renhou"), Some(5));
    assert_eq!(s.points.ron, Some(8000));
    let s = score(&format!(r#"{base},"rules":{{"renhou":"yakuman"}}}}"#));
    assert_eq!((s.yakuman, s.points.ron), (1, Some(32000)));
}

#[test]
fn nagashi_mangan() {
    let s =
        score(r#"{"hand":"123m456p789s11122z","win":"2z","nagashi_mangan":true,"seat_wind":"S"}"#);
    assert_eq!(names(&s), vec!["nagashi_mangan"]);
    assert_eq!(
        (s.points.tsumo_dealer, s.points.tsumo_non_dealer),
        (Some(4000), Some(2000))
    );
}

fn yakuman(json: &str, name: &str, count: u32) {
    let s = score(json);
    assert_eq!(
        han_of(&s, name),
        Some(13 * count),
        "{json}: {:?}",
        names(&s)
    );
    assert!(
        s.yaku.iter().all(|y| !y.name.is_dora()),
        "no dora in yakuman hands"
    );
}

#[test]
fn kokushi_and_thirteen_wait() {
    yakuman(r#"{"hand":"19m19p19s12345677z","win":"1z"}"#, "kokushi", 1);
    yakuman(
        r#"{"hand":"19m19p19s12345677z","win":"7z"}"#,
        "kokushi_13",
        1,
    );
    yakuman(
        r#"{"hand":"19m19p19s12345677z","win":"7z","rules":"mahjongsoul"}"#,
        "kokushi_13",
        2,
    );
}

#[test]
fn suuankou_and_tanki() {
    yakuman(
        r#"{"hand":"222m444p666s999s55z","win":"9s","tsumo":true}"#,
        "suuankou",
        1,
    );
    // The same tiles won by ron on the triplet are only sanankou toitoi.
    let s = score(r#"{"hand":"222m444p666s999s55z","win":"9s"}"#);
    assert_eq!(s.yakuman, 0);
    yakuman(
        r#"{"hand":"222m444p666s999s55z","win":"5z"}"#,
        "suuankou_tanki",
        1,
    );
    yakuman(
        r#"{"hand":"222m444p666s999s55z","win":"5z","rules":"mahjongsoul"}"#,
        "suuankou_tanki",
        2,
    );
}

#[test]
fn dragon_and_wind_yakuman() {
    yakuman(r#"{"hand":"123m555666777z11p","win":"1p"}"#, "daisangen", 1);
    yakuman(
        r#"{"hand":"123m11122233344z","win":"4z"}"#,
        "shousuushii",
        1,
    );
    yakuman(r#"{"hand":"111222333444z55m","win":"5m"}"#, "daisuushii", 1);
    yakuman(
        r#"{"hand":"111222333444z55m","win":"5m","rules":"mahjongsoul"}"#,
        "daisuushii",
        2,
    );
}

#[test]
fn one_kind_yakuman() {
    let s = score(r#"{"hand":"11122233355577z","win":"7z"}"#);
    assert_eq!(han_of(&s, "tsuuiisou"), Some(13));
    assert_eq!(s.yakuman, 2, "tsuuiisou and daisangen stack");
    let s = score(r#"{"hand":"11122233355577z","win":"7z","rules":{"yakuman_stacking":false}}"#);
    assert_eq!(s.yakuman, 1);
    yakuman(r#"{"hand":"11223344556677z","win":"7z"}"#, "tsuuiisou", 1);
    yakuman(r#"{"hand":"223344666888s66z","win":"8s"}"#, "ryuuiisou", 1);
    yakuman(
        r#"{"hand":"111999m11199p999s","win":"9s"}"#,
        "chinroutou",
        1,
    );
}

#[test]
fn chuuren_and_pure_nine_wait() {
    yakuman(r#"{"hand":"11123455678999m","win":"2m"}"#, "chuuren", 1);
    yakuman(r#"{"hand":"11123455678999m","win":"5m"}"#, "chuuren_9", 1);
    yakuman(
        r#"{"hand":"11123455678999m","win":"5m","rules":"mahjongsoul"}"#,
        "chuuren_9",
        2,
    );
}

#[test]
fn suukantsu() {
    yakuman(
        r#"{"hand":"55z","melds":["(2222m)","[4444p]","{6666s}","[7777s]"],"win":"5z","tsumo":true,"rinshan":true}"#,
        "suukantsu",
        1,
    );
}

#[test]
fn tenhou_chiihou() {
    yakuman(
        r#"{"hand":"123m456p789s11122z","win":"2z","tsumo":true,"tenhou":true}"#,
        "tenhou",
        1,
    );
    yakuman(
        r#"{"hand":"123m456p789s11122z","win":"2z","tsumo":true,"chiihou":true,"seat_wind":"W"}"#,
        "chiihou",
        1,
    );
}

#[test]
fn dora_kinds_are_separate_entries() {
    let s = score(
        r#"{"hand":"234m406p678s22888s","win":"8s","riichi":true,"dora_indicators":"1m","ura_indicators":"7s"}"#,
    );
    assert_eq!(han_of(&s, "dora"), Some(1));
    assert_eq!(han_of(&s, "aka_dora"), Some(1));
    assert_eq!(han_of(&s, "ura_dora"), Some(4));
    // Indicators wrap: 9→1, North→East, red dragon→white dragon.
    let s = score(
        r#"{"hand":"123m456p789s11155z","win":"5z","riichi":true,"dora_indicators":"4z7z9m"}"#,
    );
    assert_eq!(han_of(&s, "dora"), Some(3 + 2 + 1));
    // Dora alone never make a hand winnable.
    assert_eq!(
        error_kind(r#"{"hand":"123m456p789s33322z","win":"2z","dora_indicators":"2z"}"#),
        "no_yaku"
    );
    // Red fives count as plain fives when the set has none.
    let s = score(r#"{"hand":"234m406p678s22888s","win":"8s","riichi":true,"rules":"ema"}"#);
    assert_eq!(han_of(&s, "aka_dora"), None);
}
