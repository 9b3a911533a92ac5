//! What can happen at the table. Events are the only input of a game: the
//! state is a fold over them, and they are what the store persists (one JSON
//! value per event).

use super::{Seat, TableError};
use crate::payment::Points;
use crate::score::Score;
use crate::tile::Wind;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The value of a scored hand as the table needs it: what the payers owe,
/// WITHOUT honba and riichi sticks. This is the bridge from the scoring core:
/// `HandPoints::from(&score)` (or `from(&score.points)`) reads the hand-only
/// shares ([`Share::hand`](crate::payment::Share::hand)) of a
/// [`Score`]; the table adds honba and riichi sticks itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HandPoints {
    /// Win by ron: the discarder pays `points` (e.g. 7,700).
    Ron { points: u32 },
    /// Win by tsumo. Non-dealer winner: the dealer pays `dealer`, every other
    /// player pays `non_dealer` (e.g. 3,900 / 2,000). Dealer winner: every
    /// player pays `non_dealer` ("4,000 all"); `dealer` is then 0 (or equal
    /// to `non_dealer`).
    Tsumo { dealer: u32, non_dealer: u32 },
}

impl HandPoints {
    /// What a single liable player (pao) pays for a tsumo: the sum of the
    /// four-player tsumo payments (e.g. 16,000 + 2 × 8,000 = 32,000 for a
    /// non-dealer yakuman), whatever the number of players.
    pub(crate) fn tsumo_total_4p(dealer: u32, non_dealer: u32, winner_is_dealer: bool) -> i64 {
        if winner_is_dealer {
            3 * i64::from(non_dealer)
        } else {
            i64::from(dealer) + 2 * i64::from(non_dealer)
        }
    }
}

/// The hand-only payments of a scored hand. The table splits three-player
/// tsumos itself ([`TsumoSplit`](super::TsumoSplit)), so score three-player
/// hands with the core's tsumo-loss setting (the `sanma` preset's default);
/// the table has no wareme, so score without it. Amounts beyond `u32`
/// saturate (and are then refused when the event is applied).
impl From<&Points> for HandPoints {
    fn from(points: &Points) -> HandPoints {
        let amount = |hand: u64| u32::try_from(hand).unwrap_or(u32::MAX);
        let hand_of = |dealer: bool| {
            points
                .payers
                .iter()
                .find(|s| (s.from == Some(Wind::East)) == dealer)
                .map(|s| amount(s.hand))
        };
        if points.ron.is_some() {
            // A ron has exactly one payer, the discarder (whose wind may be unknown).
            return HandPoints::Ron {
                points: points.payers.first().map_or(0, |s| amount(s.hand)),
            };
        }
        HandPoints::Tsumo {
            // No payer is East when the dealer won: "N all".
            dealer: hand_of(true).unwrap_or(0),
            non_dealer: hand_of(false).unwrap_or(0),
        }
    }
}

/// The hand-only payments of a scored hand (see `From<&Points>` above).
impl From<&Score> for HandPoints {
    fn from(score: &Score) -> HandPoints {
        HandPoints::from(&score.points)
    }
}

impl fmt::Display for HandPoints {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            HandPoints::Ron { points } => write!(f, "{points}"),
            HandPoints::Tsumo { dealer, non_dealer } if dealer == 0 || dealer == non_dealer => {
                write!(f, "{non_dealer} all")
            }
            HandPoints::Tsumo { dealer, non_dealer } => write!(f, "{non_dealer}/{dealer}"),
        }
    }
}

/// One winner of a ron.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RonWin {
    pub winner: Seat,
    /// The ron value without honba (e.g. 7,700).
    pub points: u32,
    /// The player liable (pao) for a daisangen / daisuushii, if any: they
    /// pay half of the hand, the discarder the other half and the honba.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pao: Option<Seat>,
}

/// Why a hand was aborted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbortiveReason {
    /// Kyuushu kyuuhai: nine different terminals and honors.
    NineTerminals,
    /// Suufon renda: four identical winds discarded on the first go-around.
    FourWinds,
    /// Suucha riichi: all four players declared riichi.
    FourRiichi,
    /// Suukaikan: four kans by different players.
    FourKans,
    /// Sanchahou: three players called ron on one discard.
    TripleRon,
    Other,
}

impl fmt::Display for AbortiveReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            AbortiveReason::NineTerminals => "nine terminals",
            AbortiveReason::FourWinds => "four winds",
            AbortiveReason::FourRiichi => "four riichi",
            AbortiveReason::FourKans => "four kans",
            AbortiveReason::TripleRon => "triple ron",
            AbortiveReason::Other => "other",
        })
    }
}

/// Something that happened at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// A riichi declaration that stood (the 1,000 deposit is placed).
    Riichi { seat: Seat },
    /// A win by self-draw. Amounts exclude honba and riichi sticks; see
    /// [`HandPoints::Tsumo`] for their meaning.
    Tsumo {
        winner: Seat,
        dealer: u32,
        non_dealer: u32,
        /// The player liable (pao): pays the whole hand and the honba.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pao: Option<Seat>,
    },
    /// One or several players win on the same discard.
    Ron {
        discarder: Seat,
        winners: Vec<RonWin>,
    },
    /// Exhaustive draw, with the players who were tenpai.
    ExhaustiveDraw { tenpai: Vec<Seat> },
    /// Abortive draw.
    AbortiveDraw { reason: AbortiveReason },
    /// A chombo by this player.
    Chombo { seat: Seat },
    /// The game is stopped here (time limit, or the table agrees).
    EndGame,
}

impl Event {
    /// Builds the win event for a scored hand: a ron when `discarder` is
    /// given (the points must be [`HandPoints::Ron`]), otherwise a tsumo.
    pub fn win(
        winner: Seat,
        discarder: Option<Seat>,
        points: HandPoints,
        pao: Option<Seat>,
    ) -> Result<Event, TableError> {
        match (discarder, points) {
            (Some(discarder), HandPoints::Ron { points }) => Ok(Event::Ron {
                discarder,
                winners: vec![RonWin {
                    winner,
                    points,
                    pao,
                }],
            }),
            (None, HandPoints::Tsumo { dealer, non_dealer }) => Ok(Event::Tsumo {
                winner,
                dealer,
                non_dealer,
                pao,
            }),
            _ => Err(TableError::PointsKindMismatch),
        }
    }

    /// Builds the win event for a hand scored by the core: a ron on
    /// `discarder`'s discard when given (the hand must have been scored as a
    /// ron), otherwise a tsumo. Only the hand's value is taken (see
    /// [`HandPoints`]'s `From<&Score>`): the game adds its own honba and
    /// riichi sticks, whatever the score request said about them.
    pub fn from_score(
        winner: Seat,
        discarder: Option<Seat>,
        score: &Score,
    ) -> Result<Event, TableError> {
        Event::win(winner, discarder, HandPoints::from(score), None)
    }

    /// Builds a ron by several players on one discard.
    pub fn multi_ron(discarder: Seat, winners: &[(Seat, HandPoints)]) -> Result<Event, TableError> {
        let winners = winners
            .iter()
            .map(|&(winner, p)| match p {
                HandPoints::Ron { points } => Ok(RonWin {
                    winner,
                    points,
                    pao: None,
                }),
                HandPoints::Tsumo { .. } => Err(TableError::PointsKindMismatch),
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Event::Ron { discarder, winners })
    }

    /// A short name of the event kind (used in CSV exports).
    pub fn kind(&self) -> &'static str {
        match self {
            Event::Riichi { .. } => "riichi",
            Event::Tsumo { .. } => "tsumo",
            Event::Ron { .. } => "ron",
            Event::ExhaustiveDraw { .. } => "exhaustive_draw",
            Event::AbortiveDraw { .. } => "abortive_draw",
            Event::Chombo { .. } => "chombo",
            Event::EndGame => "end_game",
        }
    }

    /// Whether the event ends the current hand.
    pub fn ends_hand(&self) -> bool {
        !matches!(self, Event::Riichi { .. } | Event::Chombo { .. })
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Riichi { seat } => write!(f, "riichi by seat {seat}"),
            Event::Tsumo {
                winner,
                dealer,
                non_dealer,
                pao,
            } => {
                let p = HandPoints::Tsumo {
                    dealer: *dealer,
                    non_dealer: *non_dealer,
                };
                write!(f, "tsumo by seat {winner} for {p}")?;
                if let Some(p) = pao {
                    write!(f, " (pao: seat {p})")?;
                }
                Ok(())
            }
            Event::Ron { discarder, winners } => {
                write!(f, "ron on seat {discarder}'s discard:")?;
                for (i, w) in winners.iter().enumerate() {
                    let sep = if i == 0 { " " } else { ", " };
                    write!(f, "{sep}seat {} for {}", w.winner, w.points)?;
                    if let Some(p) = w.pao {
                        write!(f, " (pao: seat {p})")?;
                    }
                }
                Ok(())
            }
            Event::ExhaustiveDraw { tenpai } => {
                if tenpai.is_empty() {
                    write!(f, "exhaustive draw, nobody tenpai")
                } else {
                    let t: Vec<String> = tenpai.iter().map(|s| s.to_string()).collect();
                    write!(f, "exhaustive draw, tenpai: seat {}", t.join(", "))
                }
            }
            Event::AbortiveDraw { reason } => write!(f, "abortive draw ({reason})"),
            Event::Chombo { seat } => write!(f, "chombo by seat {seat}"),
            Event::EndGame => write!(f, "game ended"),
        }
    }
}
