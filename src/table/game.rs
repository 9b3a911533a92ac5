//! The table state and its rules of motion. A [`Game`] is a pure fold over
//! its events: [`Game::apply`] validates an event against the current state
//! and either applies all of it or nothing; [`Game::undo`] drops the last
//! event and folds again from the start.
//!
//! Invariant (checked by the property tests): the players' points plus
//! 1,000 per riichi stick on the table always equal `players × start points`.
//! Chombo penalties that are taken from the final score (EMA) are kept apart
//! and do not touch the table points.

use super::event::{AbortiveReason, Event, HandPoints, RonWin};
use super::rules::{
    ChomboRule, GameLength, HonbaSplit, LeftoverSticks, MultiRon, Rules, TsumoSplit,
};
use super::settle::{settle, FinalResult};
use super::wind::{next_round, seat_wind, wind_name};
use super::{Seat, TableError, Wind};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Largest amount accepted for one hand (six dealer yakuman are 288,000).
const MAX_HAND_POINTS: u32 = 10_000_000;

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum EndReason {
    /// The last round (or the extension round) was played out.
    AllRoundsPlayed,
    /// A player went below zero (tobi).
    Tobi { seat: Seat },
    /// The dealer won or was tenpai in the final hand while top.
    AgariYame,
    /// During the extension round a player reached the target.
    TargetReached,
    /// Stopped by an `EndGame` event.
    Manual,
}

impl fmt::Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EndReason::AllRoundsPlayed => write!(f, "all rounds played"),
            EndReason::Tobi { seat } => write!(f, "seat {seat} went below zero (tobi)"),
            EndReason::AgariYame => write!(f, "the dealer stopped while top (agari-yame)"),
            EndReason::TargetReached => write!(f, "target reached in the extension round"),
            EndReason::Manual => write!(f, "ended at the table"),
        }
    }
}

/// The state of the table between two events.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableState {
    /// Round (prevailing) wind, stored as `"east"`, `"south"`, ...
    #[serde(with = "super::wind::lowercase")]
    pub round: Wind,
    /// Hand number within the round, from 1; the dealer is seat `hand − 1`.
    pub hand: u8,
    /// Honba (continuance counters).
    pub honba: u32,
    /// Riichi sticks (1,000 each) on the table.
    pub sticks: u32,
    /// Table points by seat.
    pub points: Vec<i64>,
    /// Penalties taken from the final score, in table points, by seat.
    pub penalties: Vec<i64>,
    /// Players who declared riichi in the current hand.
    pub riichi: Vec<Seat>,
    /// Set once the game is over.
    pub end: Option<EndReason>,
}

/// What one event did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Change of table points by seat (payments, deposits, sticks collected).
    pub deltas: Vec<i64>,
    /// Change of the number of riichi sticks on the table.
    pub sticks_delta: i64,
    /// Winners who were paid, closest to the discarder first.
    pub paid_winners: Vec<Seat>,
    /// Human-readable remarks (head bump, triple ron abort, ...).
    pub notes: Vec<String>,
    /// The event ended the hand (a chombo replays it, a riichi does not end it).
    pub hand_ended: bool,
    /// The event ended the game.
    pub game_over: Option<EndReason>,
}

/// A game: player names, rules, the events so far and the resulting state.
#[derive(Debug, Clone)]
pub struct Game {
    rules: Rules,
    names: Vec<String>,
    state: TableState,
    history: Vec<(Event, Outcome)>,
}

impl Game {
    /// A new game. `names` are in seat order from the first dealer.
    pub fn new(rules: Rules, names: Vec<String>) -> Result<Game, TableError> {
        rules.validate()?;
        let n = rules.player_count();
        if names.len() != n {
            return Err(TableError::WrongPlayerCount {
                expected: n,
                got: names.len(),
            });
        }
        let state = TableState {
            round: Wind::East,
            hand: 1,
            honba: 0,
            sticks: 0,
            points: vec![rules.start_points; n],
            penalties: vec![0; n],
            riichi: Vec::new(),
            end: None,
        };
        Ok(Game {
            rules,
            names,
            state,
            history: Vec::new(),
        })
    }

    /// Folds a list of events. On a bad event, returns its index and the error.
    pub fn from_events(
        rules: Rules,
        names: Vec<String>,
        events: &[Event],
    ) -> Result<Game, (usize, TableError)> {
        let mut g = Game::new(rules, names).map_err(|e| (0, e))?;
        for (i, e) in events.iter().enumerate() {
            g.apply(e).map_err(|err| (i, err))?;
        }
        Ok(g)
    }

    /// Applies one event: all of it, or nothing when it is invalid.
    pub fn apply(&mut self, event: &Event) -> Result<Outcome, TableError> {
        if self.state.end.is_some() {
            return Err(TableError::GameOver);
        }
        let mut st = self.state.clone();
        let before_points = st.points.clone();
        let before_sticks = st.sticks;
        let mut step = Step {
            rules: &self.rules,
            st: &mut st,
            paid: Vec::new(),
            notes: Vec::new(),
            hand_ended: event.ends_hand(),
        };
        step.run(event)?;
        let Step {
            paid,
            notes,
            hand_ended,
            ..
        } = step;
        let outcome = Outcome {
            deltas: st
                .points
                .iter()
                .zip(&before_points)
                .map(|(a, b)| a - b)
                .collect(),
            sticks_delta: i64::from(st.sticks) - i64::from(before_sticks),
            paid_winners: paid,
            notes,
            hand_ended,
            game_over: st.end,
        };
        self.state = st;
        self.history.push((event.clone(), outcome.clone()));
        Ok(outcome)
    }

    /// Removes the last event and folds the rest again. Returns the removed event.
    pub fn undo(&mut self) -> Result<Event, TableError> {
        let (last, _) = self.history.pop().ok_or(TableError::NothingToUndo)?;
        let events: Vec<Event> = self.history.iter().map(|(e, _)| e.clone()).collect();
        let g = Game::from_events(self.rules.clone(), self.names.clone(), &events)
            .map_err(|(_, e)| e)?;
        *self = g;
        Ok(last)
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Player names in seat order.
    pub fn players(&self) -> &[String] {
        &self.names
    }

    pub fn player_count(&self) -> usize {
        self.names.len()
    }

    /// The seats of this table.
    pub fn seats(&self) -> impl Iterator<Item = Seat> {
        Seat::ALL.into_iter().take(self.names.len())
    }

    /// The seat with this index, checked against the table size.
    pub fn seat(&self, index: usize) -> Result<Seat, TableError> {
        seat_checked(index, self.player_count())
    }

    pub fn state(&self) -> &TableState {
        &self.state
    }

    /// Table points by seat.
    pub fn points(&self) -> &[i64] {
        &self.state.points
    }

    pub fn round_wind(&self) -> Wind {
        self.state.round
    }

    pub fn hand_number(&self) -> u8 {
        self.state.hand
    }

    pub fn honba(&self) -> u32 {
        self.state.honba
    }

    pub fn riichi_sticks(&self) -> u32 {
        self.state.sticks
    }

    pub fn dealer(&self) -> Seat {
        dealer_of(&self.state)
    }

    /// The seat wind of a seat in the current hand.
    pub fn seat_wind(&self, seat: Seat) -> Wind {
        seat_wind(seat, self.dealer(), self.player_count())
    }

    /// E.g. "East 2, 1 honba".
    pub fn hand_label(&self) -> String {
        format!(
            "{} {}, {} honba",
            wind_name(self.state.round),
            self.state.hand,
            self.state.honba
        )
    }

    pub fn is_finished(&self) -> bool {
        self.state.end.is_some()
    }

    pub fn end_reason(&self) -> Option<EndReason> {
        self.state.end
    }

    /// The events so far.
    pub fn events(&self) -> impl ExactSizeIterator<Item = &Event> {
        self.history.iter().map(|(e, _)| e)
    }

    /// The events with what each one did.
    pub fn history(&self) -> &[(Event, Outcome)] {
        &self.history
    }

    /// The final result, once the game is over.
    pub fn final_result(&self) -> Option<FinalResult> {
        if self.is_finished() {
            Some(self.standings())
        } else {
            None
        }
    }

    /// The result if the game ended now (riichi sticks on the table count
    /// for nobody until the game is over).
    pub fn standings(&self) -> FinalResult {
        // The rules were validated in `Game::new` and the vectors have the
        // table's size, so `settle` cannot fail here.
        settle(&self.state.points, &self.state.penalties, &self.rules)
            .expect("validated rules and consistent state")
    }

    /// Points plus riichi sticks: always `players × start points`.
    pub fn total_on_table(&self) -> i64 {
        self.state.points.iter().sum::<i64>() + 1000 * i64::from(self.state.sticks)
    }
}

fn seat_checked(index: usize, players: usize) -> Result<Seat, TableError> {
    match Seat::new(index) {
        Some(s) if index < players => Ok(s),
        _ => Err(TableError::SeatOutOfRange {
            seat: index,
            players,
        }),
    }
}

fn dealer_of(st: &TableState) -> Seat {
    Seat::ALL[usize::from(st.hand.saturating_sub(1)) % 4]
}

/// Rounds up to the next multiple of 100.
fn ceil100(x: i64) -> i64 {
    (x + 99).div_euclid(100) * 100
}

fn check_amount(v: u32, what: &str) -> Result<(), TableError> {
    if v == 0 || v % 100 != 0 || v > MAX_HAND_POINTS {
        return Err(TableError::InvalidPoints(format!(
            "{what} must be a positive multiple of 100 (got {v})"
        )));
    }
    Ok(())
}

enum HonbaNext {
    Increment,
    Reset,
}

/// One event being applied to a scratch copy of the state.
struct Step<'a> {
    rules: &'a Rules,
    st: &'a mut TableState,
    paid: Vec<Seat>,
    notes: Vec<String>,
    hand_ended: bool,
}

impl Step<'_> {
    fn n(&self) -> usize {
        self.rules.player_count()
    }

    fn seat(&self, s: Seat) -> Result<Seat, TableError> {
        seat_checked(s.index(), self.n())
    }

    fn dealer(&self) -> Seat {
        dealer_of(self.st)
    }

    fn pay(&mut self, from: Seat, to: Seat, amount: i64) {
        self.st.points[from.index()] -= amount;
        self.st.points[to.index()] += amount;
    }

    fn collect_sticks(&mut self, winner: Seat) {
        self.st.points[winner.index()] += 1000 * i64::from(self.st.sticks);
        self.st.sticks = 0;
    }

    /// Turn-order distance from `from` to `to` (1 = the next player).
    fn distance(&self, from: Seat, to: Seat) -> usize {
        (to.index() + self.n() - from.index()) % self.n()
    }

    fn check_pao(&self, pao: Option<Seat>, winner: Seat) -> Result<Option<Seat>, TableError> {
        match pao {
            None => Ok(None),
            Some(_) if !self.rules.pao => Err(TableError::PaoDisabled),
            Some(p) => {
                let p = self.seat(p)?;
                if p == winner {
                    return Err(TableError::PaoIsWinner(winner));
                }
                Ok(Some(p))
            }
        }
    }

    fn run(&mut self, event: &Event) -> Result<(), TableError> {
        match event {
            Event::Riichi { seat } => self.riichi(*seat),
            Event::Tsumo {
                winner,
                dealer,
                non_dealer,
                pao,
            } => self.tsumo(*winner, *dealer, *non_dealer, *pao),
            Event::Ron { discarder, winners } => self.ron(*discarder, winners),
            Event::ExhaustiveDraw { tenpai } => self.exhaustive_draw(tenpai),
            Event::AbortiveDraw { reason } => {
                if !self.rules.abortive_draws {
                    return Err(TableError::AbortiveDrawsDisabled);
                }
                self.notes.push(format!("abortive draw: {reason}"));
                self.finish_hand(true, false, HonbaNext::Increment);
                Ok(())
            }
            Event::Chombo { seat } => self.chombo(*seat),
            Event::EndGame => {
                self.end(EndReason::Manual);
                Ok(())
            }
        }
    }

    fn riichi(&mut self, seat: Seat) -> Result<(), TableError> {
        let seat = self.seat(seat)?;
        if self.st.riichi.contains(&seat) {
            return Err(TableError::AlreadyRiichi(seat));
        }
        let points = self.st.points[seat.index()];
        if self.rules.riichi_needs_1000 && points < 1000 {
            return Err(TableError::RiichiInsufficientPoints { seat, points });
        }
        self.st.points[seat.index()] -= 1000;
        self.st.sticks += 1;
        self.st.riichi.push(seat);
        Ok(())
    }

    fn tsumo(
        &mut self,
        winner: Seat,
        dealer_pays: u32,
        non_dealer_pays: u32,
        pao: Option<Seat>,
    ) -> Result<(), TableError> {
        let winner = self.seat(winner)?;
        let dealer = self.dealer();
        let winner_is_dealer = winner == dealer;
        check_amount(non_dealer_pays, "the non-dealer payment")?;
        if winner_is_dealer {
            if dealer_pays != 0 && dealer_pays != non_dealer_pays {
                return Err(TableError::InvalidPoints(format!(
                    "the winner is the dealer: give one payment for all ({non_dealer_pays} all), not {non_dealer_pays}/{dealer_pays}"
                )));
            }
        } else if dealer_pays == 0 {
            return Err(TableError::InvalidPoints(format!(
                "seat {winner} is not the dealer: give the non-dealer and dealer payments (e.g. 1000/2000), not one payment for all"
            )));
        } else {
            check_amount(dealer_pays, "the dealer payment")?;
        }
        let pao = self.check_pao(pao, winner)?;
        let honba = i64::from(self.st.honba);
        if let Some(p) = pao {
            // The liable player pays the whole hand as if it were a ron, honba included.
            let total = HandPoints::tsumo_total_4p(dealer_pays, non_dealer_pays, winner_is_dealer)
                + i64::from(self.rules.honba_ron) * honba;
            self.pay(p, winner, total);
            self.notes
                .push(format!("pao: seat {p} pays the whole tsumo ({total})"));
        } else {
            let bisect = self.n() == 3 && self.rules.tsumo_split == TsumoSplit::NorthBisection;
            let honba_each = i64::from(self.rules.honba_tsumo_each) * honba;
            for q in Seat::ALL.into_iter().take(self.n()) {
                if q == winner {
                    continue;
                }
                let mut amount = if !winner_is_dealer && q == dealer {
                    i64::from(dealer_pays)
                } else {
                    i64::from(non_dealer_pays)
                };
                if bisect {
                    amount += ceil100(i64::from(non_dealer_pays) / 2);
                }
                self.pay(q, winner, amount + honba_each);
            }
        }
        self.collect_sticks(winner);
        self.paid.push(winner);
        self.finish_hand(
            winner_is_dealer,
            winner_is_dealer,
            if winner_is_dealer {
                HonbaNext::Increment
            } else {
                HonbaNext::Reset
            },
        );
        Ok(())
    }

    fn ron(&mut self, discarder: Seat, winners: &[RonWin]) -> Result<(), TableError> {
        let discarder = self.seat(discarder)?;
        if winners.is_empty() {
            return Err(TableError::NoWinner);
        }
        let mut checked: Vec<RonWin> = Vec::with_capacity(winners.len());
        for w in winners {
            let winner = self.seat(w.winner)?;
            if winner == discarder {
                return Err(TableError::WinnerIsDiscarder(winner));
            }
            if checked.iter().any(|c| c.winner == winner) {
                return Err(TableError::DuplicateSeat(winner));
            }
            check_amount(w.points, "the ron value")?;
            let pao = self.check_pao(w.pao, winner)?;
            checked.push(RonWin {
                winner,
                points: w.points,
                pao,
            });
        }
        // Closest to the discarder in turn order first.
        checked.sort_by_key(|w| self.distance(discarder, w.winner));
        let paid: Vec<RonWin> = match self.rules.multi_ron {
            MultiRon::Atamahane => {
                for w in &checked[1..] {
                    self.notes.push(format!(
                        "head bump: seat {} is not paid (seat {} is closer to the discarder)",
                        w.winner, checked[0].winner
                    ));
                }
                vec![checked[0]]
            }
            MultiRon::DoubleTripleAborts if checked.len() >= 3 => {
                self.notes
                    .push(format!("abortive draw: {}", AbortiveReason::TripleRon));
                self.finish_hand(true, false, HonbaNext::Increment);
                return Ok(());
            }
            MultiRon::DoubleTripleAborts | MultiRon::All => checked,
        };
        let honba_bonus = i64::from(self.rules.honba_ron) * i64::from(self.st.honba);
        for (i, w) in paid.iter().enumerate() {
            let bonus = if i == 0 || self.rules.honba_split == HonbaSplit::EachWinner {
                honba_bonus
            } else {
                0
            };
            let value = i64::from(w.points);
            match w.pao {
                Some(p) if p != discarder => {
                    // Pao on a ron: the liable player and the discarder share
                    // the hand; the discarder alone pays the honba.
                    let half = ceil100(value / 2);
                    self.pay(p, w.winner, half);
                    self.pay(discarder, w.winner, value - half + bonus);
                    self.notes.push(format!(
                        "pao: seat {p} pays half of seat {}'s hand",
                        w.winner
                    ));
                }
                _ => self.pay(discarder, w.winner, value + bonus),
            }
            self.paid.push(w.winner);
        }
        self.collect_sticks(paid[0].winner);
        let dealer_won = self.paid.contains(&self.dealer());
        self.finish_hand(
            dealer_won,
            dealer_won,
            if dealer_won {
                HonbaNext::Increment
            } else {
                HonbaNext::Reset
            },
        );
        Ok(())
    }

    fn exhaustive_draw(&mut self, tenpai: &[Seat]) -> Result<(), TableError> {
        let mut seen: Vec<Seat> = Vec::with_capacity(tenpai.len());
        for &s in tenpai {
            let s = self.seat(s)?;
            if seen.contains(&s) {
                return Err(TableError::DuplicateSeat(s));
            }
            seen.push(s);
        }
        let n = self.n();
        let k = seen.len();
        if k > 0 && k < n {
            let total = i64::from(self.rules.noten_total);
            let gets = total / k as i64;
            let pays = total / (n - k) as i64;
            for s in Seat::ALL.into_iter().take(n) {
                if seen.contains(&s) {
                    self.st.points[s.index()] += gets;
                } else {
                    self.st.points[s.index()] -= pays;
                }
            }
        }
        let dealer_tenpai = seen.contains(&self.dealer());
        self.finish_hand(dealer_tenpai, dealer_tenpai, HonbaNext::Increment);
        Ok(())
    }

    fn chombo(&mut self, seat: Seat) -> Result<(), TableError> {
        let seat = self.seat(seat)?;
        // The hand is replayed: riichi deposits of this hand go back.
        for s in std::mem::take(&mut self.st.riichi) {
            self.st.points[s.index()] += 1000;
            self.st.sticks -= 1;
        }
        match self.rules.chombo {
            ChomboRule::FinalPenalty { points } => {
                self.st.penalties[seat.index()] += i64::from(points);
                self.notes.push(format!(
                    "chombo: {points} points will be taken from seat {seat}'s final score"
                ));
            }
            ChomboRule::ReverseMangan => {
                let dealer = self.dealer();
                for q in Seat::ALL.into_iter().take(self.n()) {
                    if q == seat {
                        continue;
                    }
                    let amount = if seat == dealer || q == dealer {
                        4000
                    } else {
                        2000
                    };
                    self.pay(seat, q, amount);
                }
                self.notes
                    .push(format!("chombo: seat {seat} pays a reverse mangan"));
            }
        }
        if self.rules.tobi {
            if let Some(s) = self.busted() {
                self.end(EndReason::Tobi { seat: s });
            }
        }
        Ok(())
    }

    fn busted(&self) -> Option<Seat> {
        Seat::ALL
            .into_iter()
            .take(self.n())
            .filter(|s| self.st.points[s.index()] < 0)
            .min_by_key(|s| (self.st.points[s.index()], s.index()))
    }

    /// The top player: most points, ties to the seat closest to the first dealer.
    fn top(&self) -> Seat {
        top_seat(&self.st.points)
    }

    fn end(&mut self, reason: EndReason) {
        self.st.end = Some(reason);
        if self.rules.leftover_sticks == LeftoverSticks::ToTop && self.st.sticks > 0 {
            let top = self.top();
            self.notes.push(format!(
                "{} leftover riichi stick(s) go to seat {top}",
                self.st.sticks
            ));
            self.collect_sticks(top);
        }
    }

    /// Ends a hand: honba, dealer rotation, and the end-of-game checks.
    /// `renchan`: the dealer keeps the deal. `yame_eligible`: the dealer kept
    /// it by winning or being tenpai (agari-yame / tenpai-yame may apply).
    fn finish_hand(&mut self, renchan: bool, yame_eligible: bool, honba: HonbaNext) {
        self.hand_ended = true;
        self.st.riichi.clear();
        match honba {
            HonbaNext::Increment => self.st.honba += 1,
            HonbaNext::Reset => self.st.honba = 0,
        }
        if self.rules.tobi {
            if let Some(s) = self.busted() {
                self.end(EndReason::Tobi { seat: s });
                return;
            }
        }
        let last = match self.rules.length {
            GameLength::EastOnly => Wind::East,
            GameLength::Hanchan => Wind::South,
        };
        let n = self.n();
        let target = self.rules.target_points;
        let reached = self.st.points.iter().any(|&p| p >= target);
        let dealer_top = self.top() == self.dealer();
        let in_extension = self.st.round > last;
        // Sudden death, unless the dealer keeps the deal while not top.
        if in_extension && reached && (dealer_top || !renchan) {
            self.end(EndReason::TargetReached);
            return;
        }
        if renchan {
            let all_last = self.st.round == last && usize::from(self.st.hand) == n;
            if self.rules.agari_yame
                && yame_eligible
                && all_last
                && dealer_top
                && (!self.rules.extension || reached)
            {
                self.end(EndReason::AgariYame);
            }
            return;
        }
        // The deal passes to the next player.
        if usize::from(self.st.hand) < n {
            self.st.hand += 1;
            return;
        }
        let next = next_round(self.st.round);
        let extension = next_round(last);
        match next {
            Some(w) if w <= last => {
                self.st.round = w;
                self.st.hand = 1;
            }
            Some(w)
                if Some(w) == extension && !in_extension && self.rules.extension && !reached =>
            {
                self.notes.push(format!(
                    "nobody reached {target}: the game goes on into the {} round",
                    wind_name(w)
                ));
                self.st.round = w;
                self.st.hand = 1;
            }
            _ => self.end(EndReason::AllRoundsPlayed),
        }
    }
}

/// The top seat by points; ties go to the seat closest to the first dealer.
pub(crate) fn top_seat(points: &[i64]) -> Seat {
    let mut best = 0usize;
    for (i, &p) in points.iter().enumerate() {
        if p > points[best] {
            best = i;
        }
    }
    Seat::ALL[best.min(3)]
}
