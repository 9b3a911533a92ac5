//! Final score conventions: the worked examples, rounding, ties, oka, uma,
//! penalties.

use riichi_lens::table::{settle, FinalPoints, Preset, Rounding, Rules, Seat, TableError, TieRule};

fn scores(points: &[i64], rules: &Rules) -> Vec<f64> {
    let r = settle(points, &vec![0; points.len()], rules).unwrap();
    r.scores_by_seat().iter().map(|p| p.as_f64()).collect()
}

#[test]
fn japanese_wiki_worked_example() {
    // Raw 35,700 / 32,400 / 22,200 / 9,700, start 25,000, target 30,000,
    // oka 20,000 to the top, uma 20/10/-10/-20 → +46 / +12 / −18 / −40.
    let rules = Rules::preset(Preset::Wiki);
    assert_eq!(rules.oka_points(), 20_000);
    let r = settle(&[35_700, 32_400, 22_200, 9_700], &[0; 4], &rules).unwrap();
    let by_place: Vec<String> = r.standings.iter().map(|s| s.score.to_string()).collect();
    assert_eq!(by_place, ["+46", "+12", "-18", "-40"]);
    assert_eq!(r.total(), FinalPoints::whole(0));
    // Same table in another seat order.
    assert_eq!(
        scores(&[9_700, 22_200, 35_700, 32_400], &rules),
        [-40.0, -18.0, 46.0, 12.0]
    );
    let first = &r.standings[0];
    assert_eq!((first.seat, first.place), (Seat::new(0).unwrap(), 1));
}

#[test]
fn ema_is_exact_with_decimals() {
    let rules = Rules::preset(Preset::Ema);
    assert_eq!(rules.oka_points(), 0);
    let r = settle(&[40_300, 31_200, 27_500, 21_000], &[0; 4], &rules).unwrap();
    let s: Vec<String> = r.standings.iter().map(|s| s.score.to_string()).collect();
    assert_eq!(s, ["+25.3", "+6.2", "-7.5", "-24"]);
    assert_eq!(r.total(), FinalPoints::whole(0));
    assert_eq!(r.standings[0].score, FinalPoints::from_tenths(253));
}

#[test]
fn ema_tie_shares_the_uma() {
    // Two players tied first share 15 + 5: +10 uma each.
    let rules = Rules::preset(Preset::Ema);
    let r = settle(&[38_000, 24_000, 38_000, 20_000], &[0; 4], &rules).unwrap();
    assert_eq!(r.standings[0].place, 1);
    assert_eq!(r.standings[1].place, 1);
    assert_eq!(r.standings[0].uma, FinalPoints::whole(10));
    assert_eq!(r.standings[1].uma, FinalPoints::whole(10));
    assert_eq!(
        scores(&[38_000, 24_000, 38_000, 20_000], &rules),
        [18.0, -11.0, 18.0, -25.0]
    );
    // Three tied: (15 + 5 − 5) / 3 = +5 each.
    assert_eq!(
        scores(&[31_000, 31_000, 31_000, 27_000], &rules),
        [6.0, 6.0, 6.0, -18.0]
    );
    // Tied second and third: (5 − 5) / 2 = 0.
    assert_eq!(
        scores(&[40_000, 27_000, 27_000, 26_000], &rules),
        [25.0, -3.0, -3.0, -19.0]
    );
}

#[test]
fn split_that_is_not_a_whole_number() {
    // Uma 20/10/-10/-20 shared by three tied players: 20/3 each.
    let mut rules = Rules::preset(Preset::Ema);
    rules.uma = vec![20, 10, -10, -20];
    let r = settle(&[30_000, 30_000, 30_000, 30_000], &[0; 4], &rules).unwrap();
    assert_eq!(r.total(), FinalPoints::whole(0));
    let r = settle(&[32_000, 32_000, 32_000, 24_000], &[0; 4], &rules).unwrap();
    assert_eq!(r.standings[0].score.to_string(), "+8.67");
    assert_eq!(r.standings[3].score.to_string(), "-26");
    assert_eq!(r.total(), FinalPoints::whole(0));
}

#[test]
fn wiki_ties_by_seat_order_or_split() {
    let mut rules = Rules::preset(Preset::Wiki);
    // Seat 1 and seat 3 tied at 32,500: seat 1 is closer to the first dealer.
    let pts = [27_500, 32_500, 7_500, 32_500];
    let r = settle(&pts, &[0; 4], &rules).unwrap();
    assert_eq!(r.standings[0].seat, Seat::new(1).unwrap());
    assert_eq!(r.standings[1].seat, Seat::new(3).unwrap());
    // 2nd: 2.5 → 2 (500 dropped), +10 → 12; 3rd: −2.5 → −3, −10 → −13;
    // 4th: −22.5 → −23, −20 → −43; the top absorbs: 44.
    assert_eq!(scores(&pts, &rules), [-13.0, 44.0, -43.0, 12.0]);
    // Split: the tied players share oka and uma of 1st and 2nd:
    // (20 + 20 + 10) / 2 = 25 each; points part 2.5 + 10 = 12.5 → 12.
    rules.ties = TieRule::Split;
    let r = settle(&pts, &[0; 4], &rules).unwrap();
    assert_eq!((r.standings[0].place, r.standings[1].place), (1, 1));
    assert_eq!(r.standings[0].uma, FinalPoints::whole(25));
    // Seat 3: 12 + 15 = 27; seat 1 (top by seat order) absorbs the rounding: 29.
    assert_eq!(scores(&pts, &rules), [-13.0, 29.0, -43.0, 27.0]);
}

#[test]
fn rounding_half_down_and_half_up() {
    let pts = [32_500, 32_500, 27_500, 7_500];
    // Wiki: 500 rounds down (also for negatives: −7,500 → −8).
    let wiki = Rules::preset(Preset::Wiki);
    assert_eq!(scores(&pts, &wiki), [44.0, 12.0, -13.0, -43.0]);
    // Shanghai Second Dynasty: 500 rounds up, uma 10-20.
    let shanghai = Rules::preset(Preset::Shanghai);
    assert_eq!(shanghai.rounding, Rounding::HalfUp);
    // 2nd 2.5 → 3 + 10; 3rd −2.5 → −2 − 10; 4th −22.5 → −22 − 20; top absorbs.
    assert_eq!(scores(&pts, &shanghai), [41.0, 13.0, -12.0, -42.0]);
    // Uma spread 5-10.
    let mut s5 = shanghai.clone();
    s5.uma = riichi_lens::table::rules::parse_uma("5-10", 4).unwrap();
    assert_eq!(s5.uma, vec![10, 5, -5, -10]);
    assert_eq!(scores(&pts, &s5), [31.0, 8.0, -7.0, -32.0]);
    // A 30,000 start with the Shanghai goal: no oka.
    let mut s30 = shanghai;
    s30.start_points = 30_000;
    assert_eq!(s30.oka_points(), 0);
    assert_eq!(
        scores(&[45_500, 30_000, 24_500, 20_000], &s30),
        [35.0, 10.0, -15.0, -30.0]
    );
}

#[test]
fn top_absorbs_only_when_asked() {
    let mut rules = Rules::preset(Preset::Wiki);
    rules.top_absorbs_rounding = false;
    let pts = [35_700, 32_400, 22_200, 9_700];
    // Without absorption the top keeps its own rounding: 25.7 → 26 + 20.
    assert_eq!(scores(&pts, &rules), [46.0, 12.0, -18.0, -40.0]);
    let pts = [32_500, 32_500, 27_500, 7_500];
    // 22.5 → 22 + 20 = 42: the total is then −2, not 0.
    assert_eq!(scores(&pts, &rules), [42.0, 12.0, -13.0, -43.0]);
}

#[test]
fn sanma_final_score() {
    let rules = Rules::preset(Preset::Sanma);
    assert_eq!(rules.oka_points(), 15_000);
    // 50,000 + 15,000 − 40,000 = 25 + 15; 0 + 0; −25 − 15.
    assert_eq!(
        scores(&[15_000, 50_000, 40_000], &rules),
        [-40.0, 40.0, 0.0]
    );
}

#[test]
fn penalties_come_off_the_final_score() {
    let rules = Rules::preset(Preset::Ema);
    let r = settle(
        &[40_300, 31_200, 27_500, 21_000],
        &[0, 20_000, 0, 0],
        &rules,
    )
    .unwrap();
    assert_eq!(
        r.score_of(Seat::new(1).unwrap()).unwrap().to_string(),
        "-13.8"
    );
    assert_eq!(r.standings[1].penalty, 20_000);
}

#[test]
fn bad_input_is_an_error() {
    let rules = Rules::preset(Preset::Wiki);
    assert!(matches!(
        settle(&[25_000; 3], &[0; 3], &rules),
        Err(TableError::WrongPlayerCount { .. })
    ));
    assert!(matches!(
        settle(&[25_050, 25_000, 25_000, 24_950], &[0; 4], &rules),
        Err(TableError::InvalidPoints(_))
    ));
    let mut bad = rules.clone();
    bad.uma = vec![10, -10];
    assert!(matches!(
        settle(&[25_000; 4], &[0; 4], &bad),
        Err(TableError::InvalidRules(_))
    ));
}

#[test]
fn final_points_display() {
    assert_eq!(FinalPoints::whole(46).to_string(), "+46");
    assert_eq!(FinalPoints::whole(-18).to_string(), "-18");
    assert_eq!(FinalPoints::whole(0).to_string(), "0");
    assert_eq!(FinalPoints::from_tenths(-203).to_string(), "-20.3");
    assert_eq!(FinalPoints::from_tenths(5).to_plain_string(), "0.5");
    assert_eq!(
        serde_json::to_string(&FinalPoints::from_tenths(253)).unwrap(),
        "25.3"
    );
}
