//! The table and the scoring core together: hands scored by the core (through
//! the JSON request interface the app uses) are applied to games, and the
//! table uses the core's winds.

use riichi_lens::jsonl::Request;
use riichi_lens::table::game::TableState;
use riichi_lens::table::{Event, Game, HandPoints, Preset, Rules, Seat, TableError, TsumoSplit};
use riichi_lens::tile::Wind;
use riichi_lens::Score;

fn s(i: usize) -> Seat {
    Seat::new(i).unwrap()
}

fn game(rules: Rules) -> Game {
    let names = ["Alice", "Bob", "Carol", "Dave"][..rules.player_count()]
        .iter()
        .map(|x| x.to_string())
        .collect();
    Game::new(rules, names).unwrap()
}

fn score(json: &str) -> Score {
    let request: Request = serde_json::from_str(json).unwrap();
    request.score().unwrap_or_else(|e| panic!("{json}: {e}"))
}

/// Riichi, 40 fu (closed West triplet, tanki on North), by the given seat wind.
fn riichi_hand(seat_wind: Wind, tsumo: bool, extra: &str) -> Score {
    score(&format!(
        r#"{{"hand":"123m456p789s33344z","win":"4z","riichi":true,"tsumo":{tsumo},"seat_wind":"{}"{extra}}}"#,
        seat_wind.letter()
    ))
}

fn assert_conserved(g: &Game) {
    assert_eq!(
        g.total_on_table(),
        g.player_count() as i64 * g.rules().start_points
    );
}

#[test]
fn a_scored_ron_moves_points() {
    let sc = score(r#"{"hand":"123m456p789s33344z","win":"4z","riichi":true,"seat_wind":"S"}"#);
    assert_eq!(sc.points.ron, Some(1300));
    assert_eq!(HandPoints::from(&sc), HandPoints::Ron { points: 1300 });
    assert_eq!(
        HandPoints::from(&sc.points),
        HandPoints::Ron { points: 1300 }
    );

    let mut g = game(Rules::preset(Preset::Wiki));
    let bob = s(1);
    assert_eq!(g.seat_wind(bob), Wind::South);
    g.apply(&Event::Riichi { seat: bob }).unwrap();
    let ev = Event::from_score(bob, Some(s(2)), &sc).unwrap();
    assert_eq!(
        ev,
        Event::win(bob, Some(s(2)), HandPoints::Ron { points: 1300 }, None).unwrap()
    );
    let o = g.apply(&ev).unwrap();
    // Bob gets the hand and his own riichi stick back; Carol pays the hand.
    assert_eq!(o.deltas, vec![0, 2300, -1300, 0]);
    assert_eq!(g.points(), &[25_000, 26_300, 23_700, 25_000]);
    assert_eq!(
        (g.round_wind(), g.hand_number(), g.honba()),
        (Wind::East, 2, 0)
    );
    assert_conserved(&g);
}

#[test]
fn honba_and_sticks_of_the_request_are_not_counted_twice() {
    let mut g = game(Rules::preset(Preset::Wiki));
    g.apply(&Event::ExhaustiveDraw { tenpai: vec![] }).unwrap();
    g.apply(&Event::Riichi { seat: s(3) }).unwrap();
    assert_eq!((g.hand_number(), g.honba(), g.riichi_sticks()), (2, 1, 1));
    // Carol is South now; the request describes the table as it is.
    let carol = s(2);
    let sc = riichi_hand(
        g.seat_wind(carol),
        false,
        &format!(
            r#","honba":{},"riichi_sticks":{}"#,
            g.honba(),
            g.riichi_sticks()
        ),
    );
    assert_eq!(sc.points.ron, Some(1600)); // 1,300 + 300 honba
    assert_eq!(sc.points.total, 2600); // and the stick
    assert_eq!(sc.points.payers[0].hand, 1300);
    assert_eq!(HandPoints::from(&sc), HandPoints::Ron { points: 1300 });
    let o = g
        .apply(&Event::from_score(carol, Some(s(0)), &sc).unwrap())
        .unwrap();
    // The table adds its own honba and sticks, once.
    assert_eq!(o.deltas, vec![-1600, 0, 2600, 0]);
    assert_conserved(&g);
}

#[test]
fn scored_tsumos_by_a_non_dealer_and_by_the_dealer() {
    let mut g = game(Rules::preset(Preset::Wiki));
    // Bob (South): riichi + menzen tsumo, 2 han 40 fu: 700/1,300.
    let sc = riichi_hand(g.seat_wind(s(1)), true, "");
    assert_eq!((sc.han, sc.fu), (2, 40));
    assert_eq!(
        HandPoints::from(&sc),
        HandPoints::Tsumo {
            dealer: 1300,
            non_dealer: 700
        }
    );
    g.apply(&Event::Riichi { seat: s(1) }).unwrap();
    let o = g
        .apply(&Event::from_score(s(1), None, &sc).unwrap())
        .unwrap();
    assert_eq!(o.deltas, vec![-1300, 3700, -700, -700]);
    assert_conserved(&g);

    // Bob now deals (East): 1,300 all.
    assert_eq!(g.seat_wind(s(1)), Wind::East);
    let sc = riichi_hand(g.seat_wind(s(1)), true, "");
    assert_eq!(
        HandPoints::from(&sc),
        HandPoints::Tsumo {
            dealer: 0,
            non_dealer: 1300
        }
    );
    g.apply(&Event::Riichi { seat: s(1) }).unwrap();
    let o = g
        .apply(&Event::from_score(s(1), None, &sc).unwrap())
        .unwrap();
    assert_eq!(o.deltas, vec![-1300, 4900, -1300, -1300]);
    // The dealer keeps the deal with one counter.
    assert_eq!((g.dealer(), g.honba()), (s(1), 1));
    assert_conserved(&g);
}

#[test]
fn the_kind_of_win_must_match() {
    let ron = riichi_hand(Wind::South, false, "");
    let tsumo = riichi_hand(Wind::South, true, "");
    assert!(matches!(
        Event::from_score(s(1), None, &ron),
        Err(TableError::PointsKindMismatch)
    ));
    assert!(matches!(
        Event::from_score(s(1), Some(s(0)), &tsumo),
        Err(TableError::PointsKindMismatch)
    ));
    // A non-dealer's hand cannot be applied as the dealer's tsumo ("N all").
    let mut g = game(Rules::preset(Preset::Wiki));
    let dealer_hand = riichi_hand(Wind::East, true, "");
    let e = g
        .apply(&Event::from_score(s(1), None, &dealer_hand).unwrap())
        .unwrap_err();
    assert!(e.to_string().contains("not the dealer"), "{e}");
    assert_eq!(g.points(), &[25_000; 4]);
}

#[test]
fn three_players_with_north_bisection() {
    let mut rules = Rules::preset(Preset::Sanma);
    rules.tsumo_split = TsumoSplit::NorthBisection;
    let mut g = game(rules);
    // Scored with the core's sanma rules (tsumo loss): the dealer pays 1,300,
    // West 700; the table adds half of North's 700 (rounded up) to each.
    let sc = score(
        r#"{"hand":"999m456p789s33344z","win":"4z","riichi":true,"tsumo":true,"seat_wind":"S","rules":"sanma"}"#,
    );
    assert_eq!(sc.points.payers.len(), 2);
    assert_eq!(
        HandPoints::from(&sc),
        HandPoints::Tsumo {
            dealer: 1300,
            non_dealer: 700
        }
    );
    g.apply(&Event::Riichi { seat: s(1) }).unwrap();
    let o = g
        .apply(&Event::from_score(s(1), None, &sc).unwrap())
        .unwrap();
    assert_eq!(o.deltas, vec![-1700, 3800, -1100]);
    assert_conserved(&g);
}

#[test]
fn the_table_uses_the_core_wind_and_stores_it_as_before() {
    let mut g = game(Rules::preset(Preset::Wiki));
    let round: riichi_lens::Wind = g.round_wind();
    assert_eq!(round, Wind::East);
    // The request's seat wind comes straight from the table.
    assert_eq!(
        Wind::parse(&g.seat_wind(s(2)).letter().to_string()),
        Some(Wind::West)
    );
    let v = serde_json::to_value(g.state()).unwrap();
    assert_eq!(v["round"], "east");
    for _ in 0..4 {
        g.apply(&Event::ExhaustiveDraw { tenpai: vec![] }).unwrap();
    }
    assert_eq!(g.round_wind(), Wind::South);
    assert_eq!(g.hand_label(), "South 1, 4 honba");
    let v = serde_json::to_value(g.state()).unwrap();
    assert_eq!(v["round"], "south");
    let back: TableState = serde_json::from_value(v).unwrap();
    assert_eq!(&back, g.state());
    let mut bad = serde_json::to_value(g.state()).unwrap();
    bad["round"] = "up".into();
    assert!(serde_json::from_value::<TableState>(bad).is_err());
}
