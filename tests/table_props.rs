//! Property tests over random event sequences (valid and invalid):
//! - points + 1,000 × riichi sticks on the table = players × start points,
//!   after every event, for every preset;
//! - a rejected event changes nothing;
//! - the state is a pure fold: refolding the events gives the same state,
//!   and undo gives the state of the shorter prefix;
//! - the final result never panics, and with everything paid out under a
//!   zero-sum convention it sums to zero.

use proptest::prelude::*;
use riichi_lens::table::{
    AbortiveReason, Event, FinalPoints, Game, LeftoverSticks, Preset, RonWin, Rounding, Rules,
    Seat, TsumoSplit,
};

fn seat() -> impl Strategy<Value = Seat> {
    (0usize..4).prop_map(|i| Seat::new(i).unwrap())
}

fn amount() -> impl Strategy<Value = u32> {
    // Mostly valid multiples of 100, sometimes invalid values.
    prop_oneof![
        8 => (1u32..=480).prop_map(|x| x * 100),
        1 => Just(0u32),
        1 => 1u32..100_000,
    ]
}

fn event() -> impl Strategy<Value = Event> {
    prop_oneof![
        4 => seat().prop_map(|seat| Event::Riichi { seat }),
        3 => (seat(), amount(), amount(), prop::option::weighted(0.1, seat())).prop_map(
            |(winner, dealer, non_dealer, pao)| Event::Tsumo { winner, dealer, non_dealer, pao }
        ),
        3 => (
            seat(),
            prop::collection::vec((seat(), amount(), prop::option::weighted(0.1, seat())), 1..=3)
        )
            .prop_map(|(discarder, ws)| Event::Ron {
                discarder,
                winners: ws
                    .into_iter()
                    .map(|(winner, points, pao)| RonWin { winner, points, pao })
                    .collect(),
            }),
        4 => prop::collection::vec(seat(), 0..=4).prop_map(|tenpai| Event::ExhaustiveDraw { tenpai }),
        1 => Just(Event::AbortiveDraw { reason: AbortiveReason::NineTerminals }),
        1 => seat().prop_map(|seat| Event::Chombo { seat }),
        1 => prop_oneof![19 => Just(Event::Riichi { seat: Seat::new(0).unwrap() }), 1 => Just(Event::EndGame)],
    ]
}

fn rules() -> impl Strategy<Value = Rules> {
    (
        prop::sample::select(Preset::ALL.to_vec()),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(p, bisect, flip)| {
            let mut r = Rules::preset(p);
            if bisect {
                r.tsumo_split = TsumoSplit::NorthBisection;
            }
            if flip {
                r.tobi = !r.tobi;
                r.abortive_draws = !r.abortive_draws;
            }
            r
        })
}

fn names(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("P{i}")).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn points_and_sticks_are_conserved(rules in rules(), events in prop::collection::vec(event(), 0..120)) {
        let n = rules.player_count();
        let total = n as i64 * rules.start_points;
        let mut game = Game::new(rules.clone(), names(n)).unwrap();
        let mut accepted = Vec::new();
        for e in &events {
            let before = game.state().clone();
            match game.apply(e) {
                Ok(outcome) => {
                    accepted.push(e.clone());
                    prop_assert_eq!(outcome.deltas.iter().sum::<i64>() + 1000 * outcome.sticks_delta, 0);
                }
                Err(_) => prop_assert_eq!(game.state(), &before, "rejected {} changed the state", e),
            }
            prop_assert_eq!(game.total_on_table(), total, "after {}", e);
            prop_assert!(game.points().iter().all(|p| p % 100 == 0));
            // Never panics, whatever the state.
            let standings = game.standings();
            prop_assert_eq!(standings.standings.len(), n);
        }
        // Pure fold: the accepted events give the same state again.
        let refolded = Game::from_events(rules.clone(), names(n), &accepted).unwrap();
        prop_assert_eq!(refolded.state(), game.state());
        // Undo = the shorter prefix.
        if !accepted.is_empty() {
            let k = accepted.len() / 2;
            let mut undone = game.clone();
            for _ in k..accepted.len() {
                undone.undo().unwrap();
            }
            let prefix = Game::from_events(rules.clone(), names(n), &accepted[..k]).unwrap();
            prop_assert_eq!(undone.state(), prefix.state());
        }
        // A finished game with all sticks paid out sums to zero under the
        // zero-sum conventions (oka from the target, top absorbs rounding).
        if let Some(result) = game.final_result() {
            let penalties: i64 = game.state().penalties.iter().sum();
            let sticks = i64::from(game.riichi_sticks());
            if rules.leftover_sticks == LeftoverSticks::ToTop {
                prop_assert_eq!(sticks, 0);
            }
            let expected = -(penalties + 1000 * sticks) / 1000;
            if rules.rounding == Rounding::Exact || rules.top_absorbs_rounding {
                prop_assert_eq!(result.total(), FinalPoints::whole(expected));
            }
        }
    }
}
