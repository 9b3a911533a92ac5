//! Table tracker: follows a whole riichi game (not one hand) and produces the
//! final result under the conventions clubs and tournaments actually use.
//!
//! A scored hand enters the table as a [`HandPoints`] value (what the payers
//! owe, without honba and riichi sticks): `HandPoints::from(&score)` takes it
//! from the scoring core's [`Score`](crate::Score), and [`Event::from_score`]
//! builds the win event directly. Winds are the core's [`Wind`] (re-exported
//! here); [`wind`] adds what only the table needs.
//!
//! Layout (each submodule documents what it owns):
//! - [`rules`]: the rule switches ([`Rules`]) and the named presets ([`Preset`]).
//! - [`event`]: what can happen at the table ([`Event`], [`HandPoints`]).
//! - [`game`]: the table state as a pure fold over events ([`Game`]).
//! - [`settle`](mod@settle): the final score (oka, uma, rounding, ties) ([`settle()`]).
//! - [`store`]: persistence of games in SQLite, one transaction per event ([`Store`]).
//! - [`cli`]: the `riichi-lens game ...` command line ([`cli::GameArgs`], [`cli::run`]).
//! - [`wind`]: wind names, seat winds and round progression for the core's [`Wind`].
//!
//! Seats are numbered from the first dealer (seat 0 is East in the first
//! hand) in turn order: seat 1 plays after seat 0, and so on.
//!
//! ```
//! use riichi_lens::table::{Event, HandPoints, Preset, Rules, Seat, Store};
//!
//! let mut store = Store::open_in_memory()?; // Store::open(path) for a file
//! let names: Vec<String> = ["Alice", "Bob", "Carol", "Dave"].map(String::from).into();
//! let id = store.create_game(&Rules::preset(Preset::Wiki), &names)?;
//! let (alice, bob) = (Seat::new(0).unwrap(), Seat::new(1).unwrap());
//! store.append_event(id, &Event::Riichi { seat: bob })?;
//! // A scored hand enters the table as HandPoints (without honba and sticks).
//! let ron = Event::win(bob, Some(alice), HandPoints::Ron { points: 7700 }, None)?;
//! let (game, outcome) = store.append_event(id, &ron)?;
//! assert_eq!(outcome.deltas, vec![-7700, 8700, 0, 0]);
//! assert_eq!(game.hand_label(), "East 2, 0 honba");
//!
//! // Or straight from the scoring core, with the table's (core) winds:
//! let carol = Seat::new(2).unwrap();
//! let request = format!(
//!     r#"{{"hand":"123m456p789s33344z","win":"4z","riichi":true,"seat_wind":"{}"}}"#,
//!     game.seat_wind(carol).letter(),
//! );
//! let score = serde_json::from_str::<riichi_lens::jsonl::Request>(&request)?
//!     .score()
//!     .expect("a scorable hand");
//! assert_eq!(HandPoints::from(&score), HandPoints::Ron { points: 1300 });
//! let (_, outcome) = store.append_event(id, &Event::from_score(carol, Some(alice), &score)?)?;
//! assert_eq!(outcome.deltas, vec![-1300, 0, 1300, 0]);
//! # Ok::<(), riichi_lens::table::TableError>(())
//! ```

pub mod cli;
pub mod event;
pub mod game;
pub mod rules;
pub mod settle;
pub mod store;
pub mod wind;

use serde::{Deserialize, Serialize};
use std::fmt;

/// The core's wind type, used for round and seat winds.
pub use crate::tile::Wind;
pub use event::{AbortiveReason, Event, HandPoints, RonWin};
pub use game::{EndReason, Game, Outcome};
pub use rules::{
    ChomboRule, GameLength, HonbaSplit, LeftoverSticks, MultiRon, PlayerCount, Preset, Rounding,
    Rules, TieRule, TsumoSplit,
};
pub use settle::{settle, FinalPoints, FinalResult, Standing};
pub use store::{GameSummary, Store};
pub use wind::{next_round, seat_wind, wind_name};

/// Everything that can go wrong at the table. No variant is a bug: each one
/// describes bad input or an environment problem with a message for the user.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    #[error("unknown game id {0}")]
    UnknownGame(i64),
    #[error("no unfinished game: start one with `game new` or pass --game ID")]
    NoCurrentGame,
    #[error("the game is over; no more events can be recorded (undo the last event to reopen it)")]
    GameOver,
    #[error("seat {seat} does not exist at a table of {players} players (seats are 0..{players})")]
    SeatOutOfRange { seat: usize, players: usize },
    #[error("unknown player or seat `{0}`")]
    UnknownPlayer(String),
    #[error("the winner (seat {0}) cannot also be the discarder")]
    WinnerIsDiscarder(Seat),
    #[error("seat {0} is listed twice")]
    DuplicateSeat(Seat),
    #[error("a ron needs at least one winner")]
    NoWinner,
    #[error("a tsumo needs tsumo payments (e.g. 2000/3900 or 4000all) and a ron needs one amount (e.g. 7700)")]
    PointsKindMismatch,
    #[error("invalid points: {0}")]
    InvalidPoints(String),
    #[error("seat {seat} has {points} points; this preset forbids riichi with fewer than 1,000")]
    RiichiInsufficientPoints { seat: Seat, points: i64 },
    #[error("seat {0} has already declared riichi this hand")]
    AlreadyRiichi(Seat),
    #[error("pao (liability payment) is disabled by the rules")]
    PaoDisabled,
    #[error("the liable player (pao) cannot be the winner (seat {0})")]
    PaoIsWinner(Seat),
    #[error("abortive draws are not used under these rules")]
    AbortiveDrawsDisabled,
    #[error("invalid rules: {0}")]
    InvalidRules(String),
    #[error("expected {expected} player names, got {got}")]
    WrongPlayerCount { expected: usize, got: usize },
    #[error("nothing to undo")]
    NothingToUndo,
    #[error("invalid input: {0}")]
    Input(String),
    #[error("stored game {game} is corrupt at event {seq}: {message}")]
    Corrupt {
        game: i64,
        seq: i64,
        message: String,
    },
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("JSON error: {0}")]
    Json(#[from] serde_json::Error),
    #[error("I/O error: {0}")]
    Io(#[from] std::io::Error),
}

/// A seat at the table, counted in turn order from the first dealer
/// (seat 0 = East of the first hand). At most four seats exist; whether seat
/// 3 exists depends on the game (3 or 4 players) and is checked by [`Game`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct Seat(u8);

impl Seat {
    /// All seats of a four-player table.
    pub const ALL: [Seat; 4] = [Seat(0), Seat(1), Seat(2), Seat(3)];

    /// The seat with this index, if it can exist at all (0..=3).
    pub fn new(index: usize) -> Option<Seat> {
        (index < 4).then_some(Seat(index as u8))
    }

    /// The index of this seat (0 = first dealer).
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

impl TryFrom<u8> for Seat {
    type Error = String;
    fn try_from(v: u8) -> Result<Self, Self::Error> {
        Seat::new(usize::from(v)).ok_or_else(|| format!("seat {v} out of range 0..=3"))
    }
}

impl From<Seat> for u8 {
    fn from(s: Seat) -> u8 {
        s.0
    }
}

impl fmt::Display for Seat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
