//! Fu: the minipoints of a reading, with a line for every reason, rounded up to tens.

use crate::shape::{Set, SetKind, Shape, Wait};
use crate::tile::Kind;
use crate::yaku::Analysis;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

/// Why fu were added.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuReason {
    /// Every hand's 20 fu.
    Base,
    /// A closed hand won by ron.
    ClosedRon,
    /// A self-drawn win (not with pinfu).
    Tsumo,
    /// An open hand that earned nothing else is counted as 30.
    OpenPinfu,
    /// Seven pairs are a fixed 25 (50 under the Kansai rule).
    Chiitoitsu,
    OpenTriplet(Kind),
    ClosedTriplet(Kind),
    OpenKan(Kind),
    ClosedKan(Kind),
    PairDragon(Kind),
    PairSeatWind(Kind),
    PairRoundWind(Kind),
    WaitKanchan,
    WaitPenchan,
    WaitTanki,
    /// Up to the next ten.
    RoundUp,
}

impl FuReason {
    /// The snake_case name used in JSON.
    pub fn name(self) -> &'static str {
        match self {
            FuReason::Base => "base",
            FuReason::ClosedRon => "closed_ron",
            FuReason::Tsumo => "tsumo",
            FuReason::OpenPinfu => "open_pinfu",
            FuReason::Chiitoitsu => "chiitoitsu",
            FuReason::OpenTriplet(_) => "open_triplet",
            FuReason::ClosedTriplet(_) => "closed_triplet",
            FuReason::OpenKan(_) => "open_kan",
            FuReason::ClosedKan(_) => "closed_kan",
            FuReason::PairDragon(_) => "pair_dragon",
            FuReason::PairSeatWind(_) => "pair_seat_wind",
            FuReason::PairRoundWind(_) => "pair_round_wind",
            FuReason::WaitKanchan => "wait_kanchan",
            FuReason::WaitPenchan => "wait_penchan",
            FuReason::WaitTanki => "wait_tanki",
            FuReason::RoundUp => "round_up",
        }
    }

    /// The tile the reason is about, if any.
    pub fn tile(self) -> Option<Kind> {
        match self {
            FuReason::OpenTriplet(k)
            | FuReason::ClosedTriplet(k)
            | FuReason::OpenKan(k)
            | FuReason::ClosedKan(k)
            | FuReason::PairDragon(k)
            | FuReason::PairSeatWind(k)
            | FuReason::PairRoundWind(k) => Some(k),
            _ => None,
        }
    }
}

/// One line of a fu breakdown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FuItem {
    pub reason: FuReason,
    pub fu: u8,
}

impl Serialize for FuItem {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let tile = self.reason.tile();
        let mut map = s.serialize_map(Some(2 + usize::from(tile.is_some())))?;
        map.serialize_entry("reason", self.reason.name())?;
        if let Some(kind) = tile {
            map.serialize_entry("tile", &kind.to_string())?;
        }
        map.serialize_entry("fu", &self.fu)?;
        map.end()
    }
}

/// The lines of a breakdown; they add up to the rounded total.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fu {
    items: [FuItem; 12],
    len: usize,
}

impl Fu {
    fn new() -> Fu {
        Fu {
            items: [FuItem {
                reason: FuReason::Base,
                fu: 0,
            }; 12],
            len: 0,
        }
    }

    fn add(&mut self, reason: FuReason, fu: u8) {
        if self.len < self.items.len() {
            self.items[self.len] = FuItem { reason, fu };
            self.len += 1;
        }
    }

    pub fn items(&self) -> &[FuItem] {
        &self.items[..self.len]
    }

    /// The rounded fu of the hand.
    pub fn total(&self) -> u8 {
        self.items().iter().map(|i| i.fu).sum()
    }

    fn round_up(&mut self) {
        let raw = self.total();
        let rounded = raw.div_ceil(10) * 10;
        if rounded > raw {
            self.add(FuReason::RoundUp, rounded - raw);
        }
    }
}

fn set_fu(set: &Set) -> Option<(FuReason, u8)> {
    let k = set.first;
    let (reason, simple_fu) = match (set.kind, set.open) {
        (SetKind::Sequence, _) => return None,
        (SetKind::Triplet, true) => (FuReason::OpenTriplet(k), 2),
        (SetKind::Triplet, false) => (FuReason::ClosedTriplet(k), 4),
        (SetKind::Kan, true) => (FuReason::OpenKan(k), 8),
        (SetKind::Kan, false) => (FuReason::ClosedKan(k), 16),
    };
    Some((
        reason,
        if k.is_terminal_or_honor() {
            simple_fu * 2
        } else {
            simple_fu
        },
    ))
}

/// The fu of one reading. `pinfu` says whether the pinfu yaku applies to it.
pub fn count(a: &Analysis, pinfu: bool) -> Fu {
    let mut fu = Fu::new();
    let (sets, pair, wait) = match a.shape {
        Shape::Chiitoitsu { .. } => {
            fu.add(
                FuReason::Chiitoitsu,
                if a.rules.chiitoitsu_50_fu { 50 } else { 25 },
            );
            return fu;
        }
        Shape::Kokushi { .. } => return fu,
        Shape::Standard { sets, pair, wait } => (sets, *pair, *wait),
    };
    fu.add(FuReason::Base, 20);
    let tsumo = a.ctx.is_tsumo();
    if a.closed && !tsumo {
        fu.add(FuReason::ClosedRon, 10);
    }
    if pinfu {
        return fu;
    }
    if tsumo {
        fu.add(FuReason::Tsumo, 2);
    }
    for (reason, value) in sets.iter().filter_map(set_fu) {
        fu.add(reason, value);
    }
    let seat = a.ctx.seat_wind.kind();
    let round = a.ctx.round_wind.kind();
    if pair.is_dragon() {
        fu.add(FuReason::PairDragon(pair), 2);
    }
    if pair == seat {
        fu.add(FuReason::PairSeatWind(pair), 2);
    }
    if pair == round && (pair != seat || a.rules.double_wind_pair_fu == 4) {
        fu.add(FuReason::PairRoundWind(pair), 2);
    }
    match wait {
        Wait::Kanchan => fu.add(FuReason::WaitKanchan, 2),
        Wait::Penchan => fu.add(FuReason::WaitPenchan, 2),
        Wait::Tanki => fu.add(FuReason::WaitTanki, 2),
        Wait::Ryanmen | Wait::Shanpon => {}
    }
    if !a.closed && fu.total() == 20 {
        fu.add(FuReason::OpenPinfu, 10);
    }
    fu.round_up();
    fu
}
