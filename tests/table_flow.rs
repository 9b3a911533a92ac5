//! Table flow: payments, riichi, honba, dealer rotation, multiple ron,
//! noten payments, chombo, pao, and every way a game ends.

use riichi_lens::table::{
    AbortiveReason, EndReason, Event, Game, HandPoints, LeftoverSticks, MultiRon, Preset, RonWin,
    Rules, Seat, TableError, Wind,
};

fn s(i: usize) -> Seat {
    Seat::new(i).unwrap()
}

fn names(n: usize) -> Vec<String> {
    ["Alice", "Bob", "Carol", "Dave"][..n]
        .iter()
        .map(|x| x.to_string())
        .collect()
}

fn game(preset: Preset) -> Game {
    let rules = Rules::preset(preset);
    let n = rules.player_count();
    Game::new(rules, names(n)).unwrap()
}

fn game_with(rules: Rules) -> Game {
    let n = rules.player_count();
    Game::new(rules, names(n)).unwrap()
}

fn ron(discarder: usize, winner: usize, points: u32) -> Event {
    Event::win(
        s(winner),
        Some(s(discarder)),
        HandPoints::Ron { points },
        None,
    )
    .unwrap()
}

fn tsumo(winner: usize, non_dealer: u32, dealer: u32) -> Event {
    Event::win(
        s(winner),
        None,
        HandPoints::Tsumo { dealer, non_dealer },
        None,
    )
    .unwrap()
}

fn draw(tenpai: &[usize]) -> Event {
    Event::ExhaustiveDraw {
        tenpai: tenpai.iter().map(|&i| s(i)).collect(),
    }
}

fn multi(discarder: usize, winners: &[(usize, u32)]) -> Event {
    let w: Vec<(Seat, HandPoints)> = winners
        .iter()
        .map(|&(i, p)| (s(i), HandPoints::Ron { points: p }))
        .collect();
    Event::multi_ron(s(discarder), &w).unwrap()
}

fn apply_all(g: &mut Game, events: &[Event]) {
    for e in events {
        g.apply(e).unwrap_or_else(|err| panic!("{e}: {err}"));
    }
}

fn assert_conserved(g: &Game) {
    let n = g.player_count() as i64;
    assert_eq!(g.total_on_table(), n * g.rules().start_points);
}

#[test]
fn new_game_state() {
    let g = game(Preset::Wiki);
    assert_eq!(g.points(), &[25_000; 4]);
    assert_eq!(
        (g.round_wind(), g.hand_number(), g.honba()),
        (Wind::East, 1, 0)
    );
    assert_eq!(g.dealer(), s(0));
    assert_eq!(g.seat_wind(s(0)), Wind::East);
    assert_eq!(g.seat_wind(s(3)), Wind::North);
    assert_eq!(g.hand_label(), "East 1, 0 honba");
    let e = game(Preset::Ema);
    assert_eq!(e.points(), &[30_000; 4]);
    let sanma = game(Preset::Sanma);
    assert_eq!(sanma.points(), &[35_000; 3]);
    assert!(matches!(
        Game::new(Rules::preset(Preset::Wiki), names(3)),
        Err(TableError::WrongPlayerCount {
            expected: 4,
            got: 3
        })
    ));
}

#[test]
fn non_dealer_ron_passes_the_deal_and_clears_honba() {
    let mut g = game(Preset::Wiki);
    let o = g.apply(&ron(2, 1, 7700)).unwrap();
    assert_eq!(o.deltas, vec![0, 7700, -7700, 0]);
    assert!(o.hand_ended);
    assert_eq!(g.points(), &[25_000, 32_700, 17_300, 25_000]);
    assert_eq!(
        (g.round_wind(), g.hand_number(), g.honba()),
        (Wind::East, 2, 0)
    );
    assert_eq!(g.dealer(), s(1));
    assert_eq!(g.seat_wind(s(1)), Wind::East);
    assert_eq!(g.seat_wind(s(0)), Wind::North);
}

#[test]
fn dealer_keeps_the_deal_and_honba_is_paid() {
    let mut g = game(Preset::Wiki);
    // Dealer ron: keeps the deal, one counter.
    g.apply(&ron(1, 0, 12_000)).unwrap();
    assert_eq!((g.hand_number(), g.honba(), g.dealer()), (1, 1, s(0)));
    // With one counter a ron pays 300 more.
    let o = g.apply(&ron(2, 0, 2900)).unwrap();
    assert_eq!(o.deltas, vec![3200, 0, -3200, 0]);
    assert_eq!(g.honba(), 2);
    // A tsumo with two counters: 100 × 2 more from each payer.
    let o = g.apply(&tsumo(2, 1000, 2000)).unwrap();
    assert_eq!(o.deltas, vec![-2200, -1200, 4600, -1200]);
    // Non-dealer win: counters cleared, deal passes.
    assert_eq!((g.hand_number(), g.honba(), g.dealer()), (2, 0, s(1)));
    assert_conserved(&g);
}

#[test]
fn dealer_tsumo_all() {
    let mut g = game(Preset::Wiki);
    let o = g.apply(&tsumo(0, 4000, 0)).unwrap();
    assert_eq!(o.deltas, vec![12_000, -4000, -4000, -4000]);
    assert_eq!(g.honba(), 1);
    // "4000/4000" is accepted for a dealer tsumo; other pairs are not.
    assert!(g.apply(&tsumo(0, 4000, 4000)).is_ok());
    let err = g.apply(&tsumo(0, 2000, 3900)).unwrap_err();
    assert!(matches!(err, TableError::InvalidPoints(_)), "{err}");
}

#[test]
fn riichi_deposits_and_sticks_go_to_the_winner() {
    let mut g = game(Preset::Wiki);
    let o = g.apply(&Event::Riichi { seat: s(1) }).unwrap();
    assert_eq!(o.deltas, vec![0, -1000, 0, 0]);
    assert_eq!(o.sticks_delta, 1);
    assert!(!o.hand_ended);
    g.apply(&Event::Riichi { seat: s(2) }).unwrap();
    assert!(matches!(
        g.apply(&Event::Riichi { seat: s(2) }),
        Err(TableError::AlreadyRiichi(_))
    ));
    assert_eq!(g.riichi_sticks(), 2);
    assert_conserved(&g);
    // Sticks stay on the table across a draw, then go to the next winner.
    g.apply(&draw(&[1, 2])).unwrap();
    assert_eq!(g.riichi_sticks(), 2);
    // Riichi can be declared again in the next hand.
    g.apply(&Event::Riichi { seat: s(2) }).unwrap();
    let o = g.apply(&ron(0, 3, 1000)).unwrap();
    // 1,000 + 300 (one counter) + 3 sticks.
    assert_eq!(o.deltas, vec![-1300, 0, 0, 4300]);
    assert_eq!(g.riichi_sticks(), 0);
    assert_conserved(&g);
}

#[test]
fn riichi_below_1000_depends_on_the_preset() {
    // Wiki: seat 2 at 500 points cannot declare riichi.
    let mut g = game(Preset::Wiki);
    g.apply(&ron(2, 1, 24_500)).unwrap();
    assert_eq!(g.points()[2], 500);
    let before = g.state().clone();
    let err = g.apply(&Event::Riichi { seat: s(2) }).unwrap_err();
    assert!(
        matches!(
            err,
            TableError::RiichiInsufficientPoints { points: 500, .. }
        ),
        "{err}"
    );
    assert_eq!(g.state(), &before, "a rejected event changes nothing");
    // EMA: no bust, riichi allowed even below zero.
    let mut e = game(Preset::Ema);
    e.apply(&ron(2, 1, 32_000)).unwrap();
    assert_eq!(e.points()[2], -2000);
    e.apply(&Event::Riichi { seat: s(2) }).unwrap();
    assert_eq!(e.points()[2], -3000);
    assert!(!e.is_finished());
}

#[test]
fn noten_payments() {
    let cases: [(&[usize], [i64; 4]); 5] = [
        (&[1], [-1000, 3000, -1000, -1000]),
        (&[1, 2], [-1500, 1500, 1500, -1500]),
        (&[0, 1, 2], [1000, 1000, 1000, -3000]),
        (&[0, 1, 2, 3], [0, 0, 0, 0]),
        (&[], [0, 0, 0, 0]),
    ];
    for (tenpai, expected) in cases {
        let mut g = game(Preset::Wiki);
        let o = g.apply(&draw(tenpai)).unwrap();
        assert_eq!(o.deltas, expected.to_vec(), "tenpai {tenpai:?}");
        // A counter after every exhaustive draw; the dealer keeps the deal only when tenpai.
        assert_eq!(g.honba(), 1);
        let dealer_tenpai = tenpai.contains(&0);
        assert_eq!(g.dealer(), if dealer_tenpai { s(0) } else { s(1) });
    }
}

#[test]
fn honba_sequence_ema_style() {
    let mut g = game(Preset::Ema);
    g.apply(&draw(&[0])).unwrap(); // dealer tenpai: keeps, 1 counter
    assert_eq!((g.dealer(), g.honba()), (s(0), 1));
    g.apply(&tsumo(0, 1300, 0)).unwrap(); // dealer win: keeps, 2 counters
    assert_eq!((g.dealer(), g.honba()), (s(0), 2));
    g.apply(&draw(&[2])).unwrap(); // dealer noten: passes, counter added
    assert_eq!((g.dealer(), g.honba()), (s(1), 3));
    g.apply(&ron(0, 3, 1000)).unwrap(); // non-dealer win: counters cleared
    assert_eq!((g.dealer(), g.honba()), (s(2), 0));
    assert_conserved(&g);
}

#[test]
fn atamahane_pays_only_the_closest_winner() {
    // Head bump (EMA table flow with atamahane). Discarder seat 2; seat 3 is
    // next in turn order, seat 0 after.
    let mut rules = Rules::preset(Preset::Ema);
    rules.multi_ron = MultiRon::Atamahane;
    let mut g = game_with(rules);
    g.apply(&draw(&[0])).unwrap(); // one counter, dealer keeps
    g.apply(&Event::Riichi { seat: s(0) }).unwrap();
    let o = g.apply(&multi(2, &[(0, 8000), (3, 2000)])).unwrap();
    assert_eq!(o.paid_winners, vec![s(3)]);
    assert_eq!(o.deltas, vec![0, 0, -2300, 3300]);
    assert_eq!(o.notes.len(), 1, "{:?}", o.notes);
    // The dealer (seat 0) was not paid: the deal passes.
    assert_eq!((g.dealer(), g.honba()), (s(1), 0));
    assert_conserved(&g);
}

#[test]
fn double_ron_wiki_honba_and_sticks_to_the_closest() {
    let mut g = game(Preset::Wiki);
    g.apply(&draw(&[1])).unwrap(); // 1 counter, deal to seat 1
    g.apply(&Event::Riichi { seat: s(3) }).unwrap();
    let o = g.apply(&multi(2, &[(1, 3900), (3, 2000)])).unwrap();
    // Seat 3 is closest to the discarder (seat 2): honba and the stick.
    assert_eq!(o.paid_winners, vec![s(3), s(1)]);
    assert_eq!(o.deltas, vec![0, 3900, -6200, 3300]);
    // Seat 1, the dealer, won: keeps the deal, a counter is added.
    assert_eq!((g.dealer(), g.honba()), (s(1), 2));
    assert_conserved(&g);
}

#[test]
fn multiple_ron_ema_honba_to_each_winner_sticks_to_the_closest() {
    let mut g = game(Preset::Ema);
    g.apply(&draw(&[])).unwrap(); // 1 counter, deal to seat 1
    g.apply(&Event::Riichi { seat: s(0) }).unwrap();
    let o = g
        .apply(&multi(2, &[(0, 1000), (3, 2000), (1, 3900)]))
        .unwrap();
    assert_eq!(o.paid_winners, vec![s(3), s(0), s(1)]);
    // Every winner gets 300; seat 3 (closest) gets the stick.
    assert_eq!(o.deltas, vec![1300, 4200, -7800, 3300]);
    assert_eq!((g.dealer(), g.honba()), (s(1), 2));
    assert_conserved(&g);
}

#[test]
fn triple_ron_aborts_under_wiki() {
    let mut g = game(Preset::Wiki);
    g.apply(&Event::Riichi { seat: s(1) }).unwrap();
    let o = g
        .apply(&multi(0, &[(1, 1000), (2, 2000), (3, 3900)]))
        .unwrap();
    assert!(o.paid_winners.is_empty());
    assert_eq!(o.deltas, vec![0; 4]);
    assert!(o.hand_ended);
    // Abortive draw: the dealer keeps, a counter is added, the stick stays.
    assert_eq!((g.dealer(), g.honba(), g.riichi_sticks()), (s(0), 1, 1));
}

#[test]
fn abortive_draws_by_preset() {
    let mut g = game(Preset::Wiki);
    g.apply(&Event::AbortiveDraw {
        reason: AbortiveReason::NineTerminals,
    })
    .unwrap();
    assert_eq!((g.dealer(), g.honba()), (s(0), 1));
    let mut e = game(Preset::Ema);
    assert!(matches!(
        e.apply(&Event::AbortiveDraw {
            reason: AbortiveReason::FourWinds
        }),
        Err(TableError::AbortiveDrawsDisabled)
    ));
}

#[test]
fn invalid_events_are_rejected_and_change_nothing() {
    let mut g = game(Preset::Wiki);
    g.apply(&Event::Riichi { seat: s(0) }).unwrap();
    let before = g.state().clone();
    let bad = [
        ron(1, 1, 1000),
        ron(1, 2, 1050),
        ron(1, 2, 0),
        multi(1, &[(2, 1000), (2, 2000)]),
        Event::Ron {
            discarder: s(1),
            winners: vec![],
        },
        draw(&[1, 1]),
    ];
    for e in &bad {
        assert!(g.apply(e).is_err(), "{e} should be rejected");
        assert_eq!(g.state(), &before);
    }
    assert!(matches!(
        g.apply(&ron(1, 1, 1000)),
        Err(TableError::WinnerIsDiscarder(_))
    ));
    assert!(matches!(
        Event::win(
            s(0),
            Some(s(1)),
            HandPoints::Tsumo {
                dealer: 0,
                non_dealer: 1000
            },
            None
        ),
        Err(TableError::PointsKindMismatch)
    ));
    // Seat 3 does not exist with three players.
    let mut sanma = game(Preset::Sanma);
    assert!(matches!(
        sanma.apply(&ron(3, 1, 1000)),
        Err(TableError::SeatOutOfRange {
            seat: 3,
            players: 3
        })
    ));
    assert_eq!(g.events().len(), 1);
}

#[test]
fn chombo_ema_is_a_final_penalty() {
    let mut g = game(Preset::Ema);
    g.apply(&Event::Riichi { seat: s(1) }).unwrap();
    g.apply(&Event::Riichi { seat: s(2) }).unwrap();
    let o = g.apply(&Event::Chombo { seat: s(1) }).unwrap();
    // Riichi deposits of the hand go back; no table payment; same hand replayed.
    assert_eq!(o.deltas, vec![0, 1000, 1000, 0]);
    assert_eq!(g.riichi_sticks(), 0);
    assert!(!o.hand_ended);
    assert_eq!((g.dealer(), g.honba(), g.hand_number()), (s(0), 0, 1));
    g.apply(&Event::EndGame).unwrap();
    let r = g.final_result().unwrap();
    // All at 30,000: uma shared four ways = 0; seat 1 loses 20.
    assert_eq!(r.score_of(s(1)).unwrap().as_f64(), -20.0);
    assert_eq!(r.score_of(s(0)).unwrap().as_f64(), 0.0);
}

#[test]
fn chombo_wiki_is_a_reverse_mangan() {
    let mut g = game(Preset::Wiki);
    let o = g.apply(&Event::Chombo { seat: s(2) }).unwrap();
    assert_eq!(o.deltas, vec![4000, 2000, -8000, 2000]);
    let o = g.apply(&Event::Chombo { seat: s(0) }).unwrap();
    assert_eq!(o.deltas, vec![-12_000, 4000, 4000, 4000]);
    assert_eq!((g.dealer(), g.honba()), (s(0), 0));
    assert_conserved(&g);
}

#[test]
fn pao_tsumo_and_ron() {
    let mut g = game(Preset::Wiki);
    g.apply(&draw(&[0])).unwrap(); // 1 counter
                                   // Non-dealer yakuman tsumo (8,000/16,000) with seat 2 liable: seat 2 pays 32,000 + 300.
    let e = Event::win(
        s(1),
        None,
        HandPoints::Tsumo {
            dealer: 16_000,
            non_dealer: 8000,
        },
        Some(s(2)),
    )
    .unwrap();
    let o = g.apply(&e).unwrap();
    assert_eq!(o.deltas, vec![0, 32_300, -32_300, 0]);
    assert!(g.is_finished(), "seat 2 went below zero");

    let mut g = game(Preset::Ema);
    g.apply(&draw(&[0])).unwrap(); // 1 counter
                                   // Ron on seat 3's discard, seat 2 liable: half each, the discarder pays the honba.
    let e = Event::Ron {
        discarder: s(3),
        winners: vec![RonWin {
            winner: s(1),
            points: 32_000,
            pao: Some(s(2)),
        }],
    };
    let o = g.apply(&e).unwrap();
    assert_eq!(o.deltas, vec![0, 32_300, -16_000, -16_300]);
    // Liable = discarder: pays everything.
    let e = Event::Ron {
        discarder: s(2),
        winners: vec![RonWin {
            winner: s(1),
            points: 48_000,
            pao: Some(s(2)),
        }],
    };
    let o = g.apply(&e).unwrap();
    assert_eq!(o.deltas, vec![0, 48_000, -48_000, 0]);
    // Pao off, or liable = winner: rejected.
    let mut rules = Rules::preset(Preset::Wiki);
    rules.pao = false;
    let mut g = game_with(rules);
    let e = Event::win(
        s(1),
        Some(s(0)),
        HandPoints::Ron { points: 32_000 },
        Some(s(2)),
    )
    .unwrap();
    assert!(matches!(g.apply(&e), Err(TableError::PaoDisabled)));
    let mut g = game(Preset::Wiki);
    let e = Event::win(
        s(1),
        Some(s(0)),
        HandPoints::Ron { points: 32_000 },
        Some(s(1)),
    )
    .unwrap();
    assert!(matches!(g.apply(&e), Err(TableError::PaoIsWinner(_))));
}

/// E1: Bob wins 8,000 from Carol; then every hand is an all-noten draw.
fn hanchan_with_bob_ahead(preset: Preset) -> Game {
    let mut g = game(preset);
    g.apply(&ron(2, 1, 8000)).unwrap();
    g
}

#[test]
fn hanchan_ends_after_south_4() {
    let mut g = hanchan_with_bob_ahead(Preset::Wiki);
    // E2, E3, E4, S1, S2, S3: six draws, the deal passes each time.
    for _ in 0..6 {
        g.apply(&draw(&[])).unwrap();
    }
    assert_eq!((g.round_wind(), g.hand_number()), (Wind::South, 4));
    assert!(!g.is_finished());
    let o = g.apply(&draw(&[])).unwrap();
    assert_eq!(o.game_over, Some(EndReason::AllRoundsPlayed));
    assert!(matches!(
        g.apply(&Event::Riichi { seat: s(0) }),
        Err(TableError::GameOver)
    ));
    assert!(g.final_result().is_some());
}

#[test]
fn ema_has_no_agari_yame_and_no_extension() {
    // EMA: the game ends when the South round ends, even if nobody reached 30,000.
    let mut g = game(Preset::Ema);
    g.apply(&ron(2, 3, 1000)).unwrap(); // E1: seat 3 31,000 (non-dealer win)
    for _ in 0..6 {
        g.apply(&draw(&[])).unwrap();
    }
    // South 4: seat 3 deals and is top. A dealer win does not end the game.
    assert_eq!(
        (g.round_wind(), g.hand_number(), g.dealer()),
        (Wind::South, 4, s(3))
    );
    g.apply(&tsumo(3, 500, 0)).unwrap();
    assert!(!g.is_finished());
    assert_eq!((g.hand_number(), g.honba()), (4, 7));
    g.apply(&draw(&[3])).unwrap(); // tenpai: still going
    assert!(!g.is_finished());
    let o = g.apply(&draw(&[])).unwrap();
    assert_eq!(o.game_over, Some(EndReason::AllRoundsPlayed));
}

#[test]
fn agari_yame_and_tenpai_yame() {
    // Wiki: seat 3 ahead, South 4, seat 3 deals.
    let setup = || {
        let mut g = game(Preset::Wiki);
        g.apply(&ron(0, 3, 12_000)).unwrap(); // seat 3 at 37,000
        for _ in 0..6 {
            g.apply(&draw(&[])).unwrap();
        }
        assert_eq!(
            (g.round_wind(), g.hand_number(), g.dealer()),
            (Wind::South, 4, s(3))
        );
        g
    };
    let mut g = setup();
    let o = g.apply(&tsumo(3, 500, 0)).unwrap();
    assert_eq!(o.game_over, Some(EndReason::AgariYame));
    let mut g = setup();
    let o = g.apply(&draw(&[3])).unwrap();
    assert_eq!(o.game_over, Some(EndReason::AgariYame));
    // An abortive draw does not stop the game.
    let mut g = setup();
    g.apply(&Event::AbortiveDraw {
        reason: AbortiveReason::FourWinds,
    })
    .unwrap();
    assert!(!g.is_finished());
    // Dealer not top: the game goes on.
    let mut g = game(Preset::Wiki);
    g.apply(&ron(3, 1, 12_000)).unwrap();
    for _ in 0..6 {
        g.apply(&draw(&[])).unwrap();
    }
    g.apply(&tsumo(3, 500, 0)).unwrap();
    assert!(!g.is_finished());
    // Agari-yame switched off.
    let mut rules = Rules::preset(Preset::Wiki);
    rules.agari_yame = false;
    let mut g = game_with(rules);
    g.apply(&ron(0, 3, 12_000)).unwrap();
    for _ in 0..6 {
        g.apply(&draw(&[])).unwrap();
    }
    g.apply(&tsumo(3, 500, 0)).unwrap();
    assert!(!g.is_finished());
}

#[test]
fn west_extension_when_nobody_reached_the_target() {
    let mut g = game(Preset::Wiki);
    for _ in 0..8 {
        g.apply(&draw(&[])).unwrap();
    }
    // Nobody at 30,000 after South 4: West round.
    assert!(!g.is_finished());
    assert_eq!((g.round_wind(), g.hand_number()), (Wind::West, 1));
    // Sudden death: the first hand that leaves someone at 30,000 or more ends it.
    // 1,000 + 8 counters: Bob has 28,400.
    g.apply(&ron(2, 1, 1000)).unwrap();
    assert!(!g.is_finished());
    let o = g.apply(&ron(2, 3, 5200)).unwrap();
    assert_eq!(o.game_over, Some(EndReason::TargetReached));

    // The extension round is the last one: it ends after West 4 at the latest.
    let mut g = game(Preset::Wiki);
    for _ in 0..11 {
        g.apply(&draw(&[])).unwrap();
    }
    assert_eq!((g.round_wind(), g.hand_number()), (Wind::West, 4));
    let o = g.apply(&draw(&[])).unwrap();
    assert_eq!(o.game_over, Some(EndReason::AllRoundsPlayed));

    // Without the extension the game ends after South 4.
    let mut rules = Rules::preset(Preset::Wiki);
    rules.extension = false;
    let mut g = game_with(rules);
    for _ in 0..8 {
        g.apply(&draw(&[])).unwrap();
    }
    assert_eq!(g.end_reason(), Some(EndReason::AllRoundsPlayed));
}

#[test]
fn east_only_game() {
    let mut rules = Rules::preset(Preset::Wiki);
    rules.length = riichi_lens::table::GameLength::EastOnly;
    let mut g = game_with(rules);
    g.apply(&ron(2, 1, 8000)).unwrap();
    for _ in 0..2 {
        g.apply(&draw(&[])).unwrap();
    }
    assert_eq!((g.round_wind(), g.hand_number()), (Wind::East, 4));
    g.apply(&draw(&[])).unwrap();
    assert_eq!(g.end_reason(), Some(EndReason::AllRoundsPlayed));
    // The extension of an East-only game is the South round.
    let mut rules = Rules::preset(Preset::Wiki);
    rules.length = riichi_lens::table::GameLength::EastOnly;
    let mut g = game_with(rules);
    for _ in 0..4 {
        g.apply(&draw(&[])).unwrap();
    }
    assert_eq!((g.round_wind(), g.hand_number()), (Wind::South, 1));
}

#[test]
fn tobi_ends_the_game() {
    let mut g = game(Preset::Wiki);
    let o = g.apply(&ron(2, 1, 32_000)).unwrap();
    assert_eq!(o.game_over, Some(EndReason::Tobi { seat: s(2) }));
    // Exactly zero is not a bust.
    let mut g = game(Preset::Wiki);
    let o = g.apply(&ron(2, 1, 25_000)).unwrap();
    assert_eq!(o.game_over, None);
    // Noten payments can bust too.
    let mut g = game(Preset::Wiki);
    g.apply(&ron(2, 1, 24_500)).unwrap();
    let o = g.apply(&draw(&[0])).unwrap();
    assert_eq!(o.game_over, Some(EndReason::Tobi { seat: s(2) }));
    // EMA: no bust.
    let mut e = game(Preset::Ema);
    let o = e.apply(&ron(2, 1, 48_000)).unwrap();
    assert_eq!(o.game_over, None);
}

#[test]
fn leftover_sticks_at_the_end() {
    // Wiki: to the top player.
    let mut g = hanchan_with_bob_ahead(Preset::Wiki);
    for _ in 0..6 {
        g.apply(&draw(&[])).unwrap();
    }
    g.apply(&Event::Riichi { seat: s(0) }).unwrap();
    g.apply(&Event::Riichi { seat: s(1) }).unwrap();
    // South 4, the dealer (seat 3) is noten: the game ends.
    let o = g.apply(&draw(&[0, 1])).unwrap();
    assert_eq!(o.game_over, Some(EndReason::AllRoundsPlayed));
    assert_eq!(g.riichi_sticks(), 0);
    // Bob: 33,000 − 1,000 (riichi) + 1,500 (noten) + 2 sticks.
    assert_eq!(g.points(), &[25_500, 35_500, 15_500, 23_500]);
    assert_eq!(g.rules().leftover_sticks, LeftoverSticks::ToTop);
    assert_eq!(o.deltas, vec![1500, 3500, -1500, -1500]);
    assert_conserved(&g);
    assert_eq!(g.final_result().unwrap().total().as_f64(), 0.0);

    // EMA: the sticks stay on the table and count for nobody.
    let mut g = hanchan_with_bob_ahead(Preset::Ema);
    g.apply(&Event::Riichi { seat: s(0) }).unwrap();
    g.apply(&Event::EndGame).unwrap();
    assert_eq!(g.riichi_sticks(), 1);
    assert_eq!(g.points(), &[29_000, 38_000, 22_000, 30_000]);
    assert_conserved(&g);
    // Final scores sum to −1 (the lost stick).
    assert_eq!(g.final_result().unwrap().total().as_f64(), -1.0);
}

#[test]
fn three_players_tsumo_loss_and_bisection() {
    let mut g = game(Preset::Sanma);
    assert_eq!(g.seat_wind(s(2)), Wind::West);
    // Non-dealer tsumo 1,000/2,000: the missing North share is lost.
    let o = g.apply(&tsumo(1, 1000, 2000)).unwrap();
    assert_eq!(o.deltas, vec![-2000, 3000, -1000]);
    // Dealer (seat 1) tsumo 2,000 all: two payers.
    let o = g.apply(&tsumo(1, 2000, 0)).unwrap();
    assert_eq!(o.deltas, vec![-2000, 4000, -2000]);
    // Noten payments with 2,000 in all.
    let o = g.apply(&draw(&[0])).unwrap();
    assert_eq!(o.deltas, vec![2000, -1000, -1000]);
    let o = g.apply(&draw(&[0, 2])).unwrap();
    assert_eq!(o.deltas, vec![1000, -2000, 1000]);
    assert_conserved(&g);
    // The deal rotates over three seats: East 1..3, then South.
    let mut g = game(Preset::Sanma);
    for _ in 0..3 {
        g.apply(&draw(&[])).unwrap();
    }
    assert_eq!(
        (g.round_wind(), g.hand_number(), g.dealer()),
        (Wind::South, 1, s(0))
    );

    let mut rules = Rules::preset(Preset::Sanma);
    rules.tsumo_split = riichi_lens::table::TsumoSplit::NorthBisection;
    let mut g = game_with(rules);
    // Non-dealer tsumo 1,000/2,000: each payer adds half of the missing 1,000.
    let o = g.apply(&tsumo(1, 1000, 2000)).unwrap();
    assert_eq!(o.deltas, vec![-2500, 4000, -1500]);
    // Dealer tsumo 2,600 all: each payer adds 1,300.
    let o = g.apply(&tsumo(1, 2600, 0)).unwrap();
    assert_eq!(o.deltas, vec![-3900, 7800, -3900]);
    assert_conserved(&g);
}

#[test]
fn undo_refolds() {
    let mut g = game(Preset::Wiki);
    let events = [
        Event::Riichi { seat: s(1) },
        ron(2, 1, 7700),
        draw(&[0, 3]),
        tsumo(0, 700, 1300),
    ];
    apply_all(&mut g, &events);
    let mut prefix = game(Preset::Wiki);
    apply_all(&mut prefix, &events[..2]);
    assert_eq!(g.undo().unwrap(), events[3]);
    assert_eq!(g.undo().unwrap(), events[2]);
    assert_eq!(g.state(), prefix.state());
    assert_eq!(g.events().len(), 2);
    g.undo().unwrap();
    g.undo().unwrap();
    assert!(matches!(g.undo(), Err(TableError::NothingToUndo)));
    assert_eq!(g.state(), game(Preset::Wiki).state());
    // Undo reopens a finished game.
    let mut g = game(Preset::Wiki);
    g.apply(&Event::EndGame).unwrap();
    g.undo().unwrap();
    assert!(!g.is_finished());
}

#[test]
fn events_round_trip_through_json() {
    let events = [
        Event::Riichi { seat: s(1) },
        ron(2, 1, 7700),
        multi(0, &[(1, 1000), (3, 2000)]),
        tsumo(0, 700, 1300),
        draw(&[0, 3]),
        Event::AbortiveDraw {
            reason: AbortiveReason::FourKans,
        },
        Event::Chombo { seat: s(2) },
        Event::EndGame,
    ];
    for e in &events {
        let json = serde_json::to_string(e).unwrap();
        let back: Event = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, e, "{json}");
    }
    // A seat index out of range is rejected when parsing.
    assert!(serde_json::from_str::<Event>(r#"{"type":"riichi","seat":7}"#).is_err());
}
