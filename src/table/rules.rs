//! Rule switches for the table flow and the final score, and the named
//! presets. A [`Rules`] value is stored with every game, so a game keeps the
//! rules it was started with even if a preset changes later.
//!
//! Every preset is only a starting point: each field is public and the CLI
//! can override the common ones.

use super::TableError;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Three-player (sanma) or four-player game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PlayerCount {
    Three,
    Four,
}

impl PlayerCount {
    pub fn get(self) -> usize {
        match self {
            PlayerCount::Three => 3,
            PlayerCount::Four => 4,
        }
    }
}

/// How long the regular game lasts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GameLength {
    /// East round only (tonpuusen).
    EastOnly,
    /// East then South round (hanchan).
    Hanchan,
}

/// What happens when several players call ron on the same discard.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MultiRon {
    /// Head bump: only the winner closest to the discarder in turn order is paid.
    Atamahane,
    /// Double ron pays both winners; a triple ron is an abortive draw (sanchahou).
    DoubleTripleAborts,
    /// Every winner is paid, triple ron included (EMA).
    All,
}

/// Who receives the honba (counter) bonus when several winners are paid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum HonbaSplit {
    /// Every paid winner gets the honba bonus from the discarder.
    EachWinner,
    /// Only the winner closest to the discarder in turn order gets it.
    ClosestWinner,
}

/// Riichi sticks still on the table when the game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LeftoverSticks {
    /// They stay on the table and count for nobody (EMA).
    Lost,
    /// They go to the top player (ties: seat order from the first dealer).
    ToTop,
}

/// Tsumo payments at a three-player table, where the North share is missing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TsumoSplit {
    /// Tsumo-son: the missing player's share is simply not paid.
    TsumoLoss,
    /// North bisection: the missing non-dealer share is split between the two
    /// payers (each half rounded up to 100).
    NorthBisection,
}

/// Rounding of `(points + oka − target) / 1000` in the final score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// No rounding (EMA): one decimal.
    Exact,
    /// Nearest integer, .5 rounds down (Japanese Mahjong Wiki: 500 points are dropped).
    HalfDown,
    /// Nearest integer, .5 rounds up (500 points count as 1,000).
    HalfUp,
}

/// Players tied on points at the end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// The player closer to the first dealer in seat order ranks higher.
    SeatOrder,
    /// Tied players share the uma (and oka) of the places they occupy.
    Split,
}

/// Penalty for a chombo (serious foul). The hand is replayed either way: same
/// dealer, same honba, riichi deposits of that hand are returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChomboRule {
    /// Deducted from the offender's final score, not from the table points
    /// (EMA: 20,000 points = 20 final points).
    FinalPenalty { points: u32 },
    /// Reverse mangan paid at the table: a non-dealer pays 4,000 to the dealer
    /// and 2,000 to each other player; a dealer pays 4,000 to each player.
    ReverseMangan,
}

/// All switches of a game: the table flow and the final score.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Rules {
    /// Name of the preset the rules came from (informative).
    pub preset: String,
    pub players: PlayerCount,
    /// Points every player starts with.
    pub start_points: i64,
    /// Target ("return") points subtracted in the final score.
    pub target_points: i64,
    /// Oka: `(target − start) × players` goes to the top player in the final score.
    pub oka: bool,
    /// Uma per place, in final points (thousands), first place first.
    pub uma: Vec<i64>,
    pub rounding: Rounding,
    /// After rounding, the top player's score is set so that rounding changes
    /// nothing to the total (with all sticks paid out, the total is zero).
    pub top_absorbs_rounding: bool,
    pub ties: TieRule,
    pub length: GameLength,
    /// When the last round ends and nobody reached the target, play one more
    /// round (West after South, South after East) in sudden death: the game
    /// ends after the first hand that leaves someone at or above the target.
    pub extension: bool,
    /// Tobi: the game ends as soon as a player is below zero.
    pub tobi: bool,
    /// Agari-yame / tenpai-yame: at the final hand (and during the extension)
    /// the game ends when the dealer keeps the deal by winning or being tenpai
    /// while top.
    pub agari_yame: bool,
    pub multi_ron: MultiRon,
    pub honba_split: HonbaSplit,
    /// Honba bonus per counter on a ron (paid by the discarder).
    pub honba_ron: u32,
    /// Honba bonus per counter paid by each payer of a tsumo.
    pub honba_tsumo_each: u32,
    pub leftover_sticks: LeftoverSticks,
    /// Total noten payment at an exhaustive draw, split among the tenpai players.
    pub noten_total: u32,
    /// Only used with three players.
    pub tsumo_split: TsumoSplit,
    /// Riichi needs at least 1,000 points.
    pub riichi_needs_1000: bool,
    pub chombo: ChomboRule,
    /// Pao (liability) for daisangen / daisuushii.
    pub pao: bool,
    /// Abortive draws may be recorded.
    pub abortive_draws: bool,
}

/// Named presets. See `README-section.md` for the full table of switches.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Preset {
    /// EMA Riichi Competition Rules (2016).
    Ema,
    /// The common Japanese rules described by the Japanese Mahjong Wiki (Tenhou-like flow).
    Wiki,
    /// "Shanghai Second Dynasty" club settlement (oka, 500 rounds up, uma 10-20).
    Shanghai,
    /// Three-player game (sanma).
    Sanma,
}

impl Preset {
    pub const ALL: [Preset; 4] = [Preset::Ema, Preset::Wiki, Preset::Shanghai, Preset::Sanma];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Ema => "ema",
            Preset::Wiki => "wiki",
            Preset::Shanghai => "shanghai",
            Preset::Sanma => "sanma",
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = TableError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "ema" => Ok(Preset::Ema),
            "wiki" | "tenhou" | "japanese" => Ok(Preset::Wiki),
            "shanghai" => Ok(Preset::Shanghai),
            "sanma" | "3p" => Ok(Preset::Sanma),
            _ => Err(TableError::Input(format!(
                "unknown preset `{s}` (known: ema, wiki (alias tenhou), shanghai, sanma)"
            ))),
        }
    }
}

impl Rules {
    /// The rules of a named preset.
    pub fn preset(preset: Preset) -> Rules {
        // The Japanese club / online flow shared by `wiki`, `shanghai` and `sanma`.
        let japanese = Rules {
            preset: preset.name().to_string(),
            players: PlayerCount::Four,
            start_points: 25_000,
            target_points: 30_000,
            oka: true,
            uma: vec![20, 10, -10, -20],
            rounding: Rounding::HalfDown,
            top_absorbs_rounding: true,
            ties: TieRule::SeatOrder,
            length: GameLength::Hanchan,
            extension: true,
            tobi: true,
            agari_yame: true,
            multi_ron: MultiRon::DoubleTripleAborts,
            // Tenhou-style "kamicha-tori": with a double ron the honba and the
            // riichi sticks go to the winner closest to the discarder.
            honba_split: HonbaSplit::ClosestWinner,
            honba_ron: 300,
            honba_tsumo_each: 100,
            leftover_sticks: LeftoverSticks::ToTop,
            noten_total: 3_000,
            tsumo_split: TsumoSplit::TsumoLoss,
            riichi_needs_1000: true,
            chombo: ChomboRule::ReverseMangan,
            pao: true,
            abortive_draws: true,
        };
        match preset {
            // EMA RCR 2016: 30,000 start and target, no oka, uma 15/5/-5/-15,
            // no rounding, tied players share uma; East + South round only,
            // no bust, no agari-yame, no abortive draws. Double and triple ron
            // are allowed and the discarder pays each winner separately. The
            // RCR say each counter "increases the value of a winning hand" by
            // 300, so we give the honba to every paid winner, while the riichi
            // sticks go to the winner closest to the discarder's right (turn
            // order). When East is among the winners, East keeps the deal and a
            // counter is added. Sticks left at the end are not awarded. As
            // there is no bust, we let a player below 1,000 declare riichi.
            // Chombo: -20,000 points applied to the final score. Pao for
            // daisangen and daisuushii.
            Preset::Ema => Rules {
                preset: preset.name().to_string(),
                start_points: 30_000,
                target_points: 30_000,
                oka: false,
                uma: vec![15, 5, -5, -15],
                rounding: Rounding::Exact,
                top_absorbs_rounding: false,
                ties: TieRule::Split,
                extension: false,
                tobi: false,
                agari_yame: false,
                multi_ron: MultiRon::All,
                honba_split: HonbaSplit::EachWinner,
                leftover_sticks: LeftoverSticks::Lost,
                riichi_needs_1000: false,
                chombo: ChomboRule::FinalPenalty { points: 20_000 },
                abortive_draws: false,
                ..japanese
            },
            // Japanese Mahjong Wiki: 25,000 start, 30,000 target, oka 20,000
            // to the top, round with 500 dropped, uma 20/10/-10/-20, the top
            // absorbs rounding; bust, agari-yame and West extension on.
            Preset::Wiki => japanese,
            // Shanghai Second Dynasty: start 25,000 (clubs use 25,000-30,000,
            // override with --start), goal 30,000, oka to the top, round to
            // 1,000 with 500 rounding up, uma 10-20 (5-10 also common).
            Preset::Shanghai => Rules {
                rounding: Rounding::HalfUp,
                ..japanese
            },
            // Sanma: 35,000 start, 40,000 target (oka 15,000), uma 15/0/-15,
            // tsumo-loss. Noten payments: 2,000 in all (one tenpai player gets
            // 1,000 from each noten player; two tenpai players get 1,000 each).
            // Clubs vary (some keep 3,000): override with --noten.
            Preset::Sanma => Rules {
                players: PlayerCount::Three,
                start_points: 35_000,
                target_points: 40_000,
                uma: vec![15, 0, -15],
                noten_total: 2_000,
                ..japanese
            },
        }
    }

    /// Number of players.
    pub fn player_count(&self) -> usize {
        self.players.get()
    }

    /// The oka in table points (0 when oka is off).
    pub fn oka_points(&self) -> i64 {
        if self.oka {
            (self.target_points - self.start_points) * self.player_count() as i64
        } else {
            0
        }
    }

    /// Checks that the switches are consistent and that every amount keeps
    /// table points in multiples of 100.
    pub fn validate(&self) -> Result<(), TableError> {
        let n = self.player_count();
        let bad = |m: String| Err(TableError::InvalidRules(m));
        if self.uma.len() != n {
            return bad(format!(
                "uma needs {n} values (one per place), got {}",
                self.uma.len()
            ));
        }
        if self.start_points <= 0 || self.start_points % 100 != 0 || self.start_points > 10_000_000
        {
            return bad("start points must be a positive multiple of 100".into());
        }
        if self.target_points < 0
            || self.target_points % 100 != 0
            || self.target_points > 10_000_000
        {
            return bad("target points must be a multiple of 100".into());
        }
        if self.oka && self.target_points < self.start_points {
            return bad("oka needs a target at least as high as the start points".into());
        }
        if self.uma.iter().any(|u| u.abs() > 1_000_000) {
            return bad("uma values are out of range".into());
        }
        if self.honba_ron % 100 != 0 || self.honba_tsumo_each % 100 != 0 {
            return bad("honba values must be multiples of 100".into());
        }
        if self.honba_ron > 100_000 || self.honba_tsumo_each > 100_000 {
            return bad("honba values are out of range".into());
        }
        if self.noten_total > 1_000_000 {
            return bad("noten payment is out of range".into());
        }
        for k in 1..n as u32 {
            let (each_gets, each_pays) = (self.noten_total / k, self.noten_total / (n as u32 - k));
            if self.noten_total % k != 0
                || self.noten_total % (n as u32 - k) != 0
                || each_gets % 100 != 0
                || each_pays % 100 != 0
            {
                return bad(format!(
                    "noten total {} cannot be split in multiples of 100 with {k} tenpai player(s)",
                    self.noten_total
                ));
            }
        }
        if let ChomboRule::FinalPenalty { points } = self.chombo {
            if points % 100 != 0 || points > 10_000_000 {
                return bad("chombo penalty must be a multiple of 100".into());
            }
        }
        Ok(())
    }
}

/// Parses an uma: `15,5,-5,-15` (one value per place), or a spread `A-B`
/// meaning `B,A,-A,-B` for four players and `B,0,-B` for three (`10-20` →
/// 20/10/-10/-20).
pub fn parse_uma(s: &str, players: usize) -> Result<Vec<i64>, TableError> {
    let err = || {
        TableError::Input(format!(
            "invalid uma `{s}`: use one value per place (e.g. 20,10,-10,-20) or a spread like 10-20"
        ))
    };
    let s = s.trim();
    if s.contains(',') {
        let v = s
            .split(',')
            .map(|x| x.trim().parse::<i64>().map_err(|_| err()))
            .collect::<Result<Vec<_>, _>>()?;
        return Ok(v);
    }
    let (a, b) = s.split_once('-').ok_or_else(err)?;
    let a: i64 = a.trim().parse().map_err(|_| err())?;
    let b: i64 = b.trim().parse().map_err(|_| err())?;
    if a < 0 || b < 0 {
        return Err(err());
    }
    Ok(match players {
        3 => vec![b, 0, -b],
        _ => vec![b, a, -a, -b],
    })
}
