//! Every yaku and yakuman: one small named function each, in the tables [`YAKU`] and
//! [`YAKUMAN`], and the [`Yaku`] names used in output.
//!
//! A yaku function looks at one reading of the hand ([`Analysis`]) and returns the han it is
//! worth there (open-hand reductions included), or `None`. A yakuman function returns how many
//! yakuman it is worth (2 for the double forms when the rules say so).

use crate::context::{FirstTurn, Riichi, WinContext};
use crate::rules::{Renhou, Rules};
use crate::shape::{Set, SetKind, Shape, Wait};
use crate::tile::{Kind, Suit};
use serde::{Serialize, Serializer};

/// Every yaku, yakuman and dora entry that can appear in a score. The snake_case names are the
/// JSON names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Yaku {
    Riichi,
    DoubleRiichi,
    Ippatsu,
    MenzenTsumo,
    Pinfu,
    Tanyao,
    Iipeikou,
    YakuhaiHaku,
    YakuhaiHatsu,
    YakuhaiChun,
    YakuhaiSeatWind,
    YakuhaiRoundWind,
    Haitei,
    Houtei,
    Rinshan,
    Chankan,
    SanshokuDoujun,
    SanshokuDoukou,
    Ittsu,
    Chanta,
    Junchan,
    Toitoi,
    Sanankou,
    Sankantsu,
    Honroutou,
    Shousangen,
    Chiitoitsu,
    Ryanpeikou,
    Honitsu,
    Chinitsu,
    NagashiMangan,
    Renhou,
    Kokushi,
    Kokushi13,
    Suuankou,
    SuuankouTanki,
    Daisangen,
    Shousuushii,
    Daisuushii,
    Tsuuiisou,
    Ryuuiisou,
    Chinroutou,
    Chuuren,
    Chuuren9,
    Suukantsu,
    Tenhou,
    Chiihou,
    RenhouYakuman,
    Dora,
    AkaDora,
    UraDora,
    /// North tiles set aside in three-player games.
    Kita,
}

impl Yaku {
    /// The snake_case romaji name used in JSON and text output.
    pub fn name(self) -> &'static str {
        use Yaku::*;
        match self {
            Riichi => "riichi",
            DoubleRiichi => "double_riichi",
            Ippatsu => "ippatsu",
            MenzenTsumo => "menzen_tsumo",
            Pinfu => "pinfu",
            Tanyao => "tanyao",
            Iipeikou => "iipeikou",
            YakuhaiHaku => "yakuhai_haku",
            YakuhaiHatsu => "yakuhai_hatsu",
            YakuhaiChun => "yakuhai_chun",
            YakuhaiSeatWind => "yakuhai_seat_wind",
            YakuhaiRoundWind => "yakuhai_round_wind",
            Haitei => "haitei",
            Houtei => "houtei",
            Rinshan => "rinshan",
            Chankan => "chankan",
            SanshokuDoujun => "sanshoku_doujun",
            SanshokuDoukou => "sanshoku_doukou",
            Ittsu => "ittsu",
            Chanta => "chanta",
            Junchan => "junchan",
            Toitoi => "toitoi",
            Sanankou => "sanankou",
            Sankantsu => "sankantsu",
            Honroutou => "honroutou",
            Shousangen => "shousangen",
            Chiitoitsu => "chiitoitsu",
            Ryanpeikou => "ryanpeikou",
            Honitsu => "honitsu",
            Chinitsu => "chinitsu",
            NagashiMangan => "nagashi_mangan",
            Renhou => "renhou",
            Kokushi => "kokushi",
            Kokushi13 => "kokushi_13",
            Suuankou => "suuankou",
            SuuankouTanki => "suuankou_tanki",
            Daisangen => "daisangen",
            Shousuushii => "shousuushii",
            Daisuushii => "daisuushii",
            Tsuuiisou => "tsuuiisou",
            Ryuuiisou => "ryuuiisou",
            Chinroutou => "chinroutou",
            Chuuren => "chuuren",
            Chuuren9 => "chuuren_9",
            Suukantsu => "suukantsu",
            Tenhou => "tenhou",
            Chiihou => "chiihou",
            RenhouYakuman => "renhou_yakuman",
            Dora => "dora",
            AkaDora => "aka_dora",
            UraDora => "ura_dora",
            Kita => "kita",
        }
    }

    /// Dora-like entries add han but never make a hand winnable.
    pub fn is_dora(self) -> bool {
        matches!(
            self,
            Yaku::Dora | Yaku::AkaDora | Yaku::UraDora | Yaku::Kita
        )
    }
}

impl Serialize for Yaku {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl std::fmt::Display for Yaku {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One reading of a hand with everything the yaku functions look at.
pub struct Analysis<'a> {
    pub shape: &'a Shape,
    pub ctx: &'a WinContext,
    pub rules: &'a Rules,
    /// Copies of each kind in the whole hand, melds included.
    pub counts: &'a [u8; Kind::COUNT],
    /// No called melds.
    pub closed: bool,
    pub win: Kind,
    /// What the tiles alone say, the same for every reading.
    pub facts: &'a TileFacts,
}

/// Facts about a hand's tiles that do not depend on how they are read, computed once per
/// hand rather than once per reading and yaku.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TileFacts {
    all_simple: bool,
    all_terminal_or_honor: bool,
    all_honor: bool,
    all_green: bool,
    all_terminal: bool,
    has_honor: bool,
    /// The single suit of a flush hand, and whether honors appear.
    flush: Option<(Suit, bool)>,
}

/// Sets of kinds as 34-bit masks (bit `i` = the kind with index `i`).
mod mask {
    pub const MAN: u64 = 0x1ff;
    pub const PIN: u64 = MAN << 9;
    pub const SOU: u64 = MAN << 18;
    pub const HONOR: u64 = 0x7f << 27;
    /// 1 and 9 of each suit.
    pub const TERMINAL: u64 = 0x101 | 0x101 << 9 | 0x101 << 18;
    pub const SIMPLE: u64 = (MAN | PIN | SOU) & !TERMINAL;
    /// 2s 3s 4s 6s 8s and the green dragon.
    pub const GREEN: u64 = 0b1010_1110 << 18 | 1 << 32;
}

impl TileFacts {
    /// The facts of a hand with these copies of each kind (melds included).
    pub fn of(counts: &[u8; Kind::COUNT]) -> TileFacts {
        let present = counts
            .iter()
            .enumerate()
            .fold(0u64, |m, (i, &c)| m | (u64::from(c > 0) << i));
        let only = |allowed: u64| present & !allowed == 0;
        let has_honor = present & mask::HONOR != 0;
        let suits = [
            (Suit::Man, mask::MAN),
            (Suit::Pin, mask::PIN),
            (Suit::Sou, mask::SOU),
        ];
        let mut present_suits = suits.iter().filter(|(_, m)| present & m != 0);
        let flush = match (present_suits.next(), present_suits.next()) {
            (Some(&(suit, _)), None) => Some((suit, has_honor)),
            _ => None,
        };
        TileFacts {
            all_simple: only(mask::SIMPLE),
            all_terminal_or_honor: only(mask::TERMINAL | mask::HONOR),
            all_honor: only(mask::HONOR),
            all_green: only(mask::GREEN),
            all_terminal: only(mask::TERMINAL),
            has_honor,
            flush,
        }
    }
}

impl Analysis<'_> {
    fn sets(&self) -> Option<&[Set; 4]> {
        match self.shape {
            Shape::Standard { sets, .. } => Some(sets),
            _ => None,
        }
    }

    fn pair(&self) -> Option<Kind> {
        match self.shape {
            Shape::Standard { pair, .. } => Some(*pair),
            _ => None,
        }
    }

    /// Closed and open values of a yaku that loses a han when open.
    fn open_reduced(&self, closed_han: u8) -> u8 {
        if self.closed {
            closed_han
        } else {
            closed_han - 1
        }
    }

    fn triplet_of(&self, kind: Kind) -> bool {
        self.sets()
            .is_some_and(|sets| sets.iter().any(|s| s.is_triplet_like() && s.first == kind))
    }

    fn count_sets(&self, test: impl Fn(&Set) -> bool) -> usize {
        self.sets()
            .map_or(0, |sets| sets.iter().filter(|s| test(s)).count())
    }

    /// Pairs of identical concealed sequences (1 for iipeikou, 2 for ryanpeikou).
    fn peikou(&self) -> usize {
        let Some(sets) = self.sets() else { return 0 };
        if !self.closed {
            return 0;
        }
        let mut seen = [0u8; Kind::COUNT];
        for set in sets.iter().filter(|s| s.kind == SetKind::Sequence) {
            seen[set.first.index()] += 1;
        }
        seen.iter().map(|&n| usize::from(n / 2)).sum()
    }

    /// The single suit of a flush hand, and whether honors appear.
    fn flush(&self) -> Option<(Suit, bool)> {
        self.facts.flush
    }

    fn is_value_pair(&self, kind: Kind) -> bool {
        kind.is_dragon() || kind == self.ctx.seat_wind.kind() || kind == self.ctx.round_wind.kind()
    }

    /// Every set and the pair hold a terminal or honor, with at least one sequence; the flag
    /// says whether honors are allowed (chanta) or not (junchan).
    fn outside_hand(&self, honors: bool) -> bool {
        let (Some(sets), Some(pair)) = (self.sets(), self.pair()) else {
            return false;
        };
        sets.iter().all(Set::has_terminal_or_honor)
            && pair.is_terminal_or_honor()
            && sets.iter().any(|s| s.kind == SetKind::Sequence)
            && honors == self.facts.has_honor
    }

    fn concealed_triplets(&self) -> usize {
        self.count_sets(|s| s.is_triplet_like() && !s.open)
    }
}

/// A yaku's name and its test.
pub struct YakuRule {
    pub yaku: Yaku,
    pub check: fn(&Analysis) -> Option<u8>,
}

/// The ordinary yaku, in output order.
pub const YAKU: &[YakuRule] = &[
    YakuRule {
        yaku: Yaku::Riichi,
        check: riichi,
    },
    YakuRule {
        yaku: Yaku::DoubleRiichi,
        check: double_riichi,
    },
    YakuRule {
        yaku: Yaku::Ippatsu,
        check: ippatsu,
    },
    YakuRule {
        yaku: Yaku::MenzenTsumo,
        check: menzen_tsumo,
    },
    YakuRule {
        yaku: Yaku::Pinfu,
        check: pinfu,
    },
    YakuRule {
        yaku: Yaku::Tanyao,
        check: tanyao,
    },
    YakuRule {
        yaku: Yaku::Iipeikou,
        check: iipeikou,
    },
    YakuRule {
        yaku: Yaku::YakuhaiHaku,
        check: yakuhai_haku,
    },
    YakuRule {
        yaku: Yaku::YakuhaiHatsu,
        check: yakuhai_hatsu,
    },
    YakuRule {
        yaku: Yaku::YakuhaiChun,
        check: yakuhai_chun,
    },
    YakuRule {
        yaku: Yaku::YakuhaiSeatWind,
        check: yakuhai_seat_wind,
    },
    YakuRule {
        yaku: Yaku::YakuhaiRoundWind,
        check: yakuhai_round_wind,
    },
    YakuRule {
        yaku: Yaku::Haitei,
        check: haitei,
    },
    YakuRule {
        yaku: Yaku::Houtei,
        check: houtei,
    },
    YakuRule {
        yaku: Yaku::Rinshan,
        check: rinshan,
    },
    YakuRule {
        yaku: Yaku::Chankan,
        check: chankan,
    },
    YakuRule {
        yaku: Yaku::SanshokuDoujun,
        check: sanshoku_doujun,
    },
    YakuRule {
        yaku: Yaku::SanshokuDoukou,
        check: sanshoku_doukou,
    },
    YakuRule {
        yaku: Yaku::Ittsu,
        check: ittsu,
    },
    YakuRule {
        yaku: Yaku::Chanta,
        check: chanta,
    },
    YakuRule {
        yaku: Yaku::Junchan,
        check: junchan,
    },
    YakuRule {
        yaku: Yaku::Toitoi,
        check: toitoi,
    },
    YakuRule {
        yaku: Yaku::Sanankou,
        check: sanankou,
    },
    YakuRule {
        yaku: Yaku::Sankantsu,
        check: sankantsu,
    },
    YakuRule {
        yaku: Yaku::Honroutou,
        check: honroutou,
    },
    YakuRule {
        yaku: Yaku::Shousangen,
        check: shousangen,
    },
    YakuRule {
        yaku: Yaku::Chiitoitsu,
        check: chiitoitsu,
    },
    YakuRule {
        yaku: Yaku::Ryanpeikou,
        check: ryanpeikou,
    },
    YakuRule {
        yaku: Yaku::Honitsu,
        check: honitsu,
    },
    YakuRule {
        yaku: Yaku::Chinitsu,
        check: chinitsu,
    },
    YakuRule {
        yaku: Yaku::Renhou,
        check: renhou,
    },
];

/// The yakuman, in output order.
pub const YAKUMAN: &[YakuRule] = &[
    YakuRule {
        yaku: Yaku::Kokushi,
        check: kokushi,
    },
    YakuRule {
        yaku: Yaku::Kokushi13,
        check: kokushi_13,
    },
    YakuRule {
        yaku: Yaku::Suuankou,
        check: suuankou,
    },
    YakuRule {
        yaku: Yaku::SuuankouTanki,
        check: suuankou_tanki,
    },
    YakuRule {
        yaku: Yaku::Daisangen,
        check: daisangen,
    },
    YakuRule {
        yaku: Yaku::Shousuushii,
        check: shousuushii,
    },
    YakuRule {
        yaku: Yaku::Daisuushii,
        check: daisuushii,
    },
    YakuRule {
        yaku: Yaku::Tsuuiisou,
        check: tsuuiisou,
    },
    YakuRule {
        yaku: Yaku::Ryuuiisou,
        check: ryuuiisou,
    },
    YakuRule {
        yaku: Yaku::Chinroutou,
        check: chinroutou,
    },
    YakuRule {
        yaku: Yaku::Chuuren,
        check: chuuren,
    },
    YakuRule {
        yaku: Yaku::Chuuren9,
        check: chuuren_9,
    },
    YakuRule {
        yaku: Yaku::Suukantsu,
        check: suukantsu,
    },
    YakuRule {
        yaku: Yaku::Tenhou,
        check: tenhou,
    },
    YakuRule {
        yaku: Yaku::Chiihou,
        check: chiihou,
    },
    YakuRule {
        yaku: Yaku::RenhouYakuman,
        check: renhou_yakuman,
    },
];

fn when(condition: bool, han: u8) -> Option<u8> {
    condition.then_some(han)
}

/// The value of a yakuman that the double-yakuman rule makes worth two.
fn special_yakuman(a: &Analysis, condition: bool) -> Option<u8> {
    when(condition, if a.rules.double_yakuman { 2 } else { 1 })
}

pub fn riichi(a: &Analysis) -> Option<u8> {
    when(a.ctx.riichi == Riichi::Riichi, 1)
}

pub fn double_riichi(a: &Analysis) -> Option<u8> {
    when(a.ctx.riichi == Riichi::Double, 2)
}

pub fn ippatsu(a: &Analysis) -> Option<u8> {
    when(a.ctx.ippatsu, 1)
}

pub fn menzen_tsumo(a: &Analysis) -> Option<u8> {
    when(a.closed && a.ctx.is_tsumo(), 1)
}

/// Closed, four sequences, a pair that earns no fu, and a two-sided wait.
pub fn pinfu(a: &Analysis) -> Option<u8> {
    let Shape::Standard { sets, pair, wait } = a.shape else {
        return None;
    };
    when(
        a.closed
            && *wait == Wait::Ryanmen
            && sets.iter().all(|s| s.kind == SetKind::Sequence)
            && !a.is_value_pair(*pair),
        1,
    )
}

pub fn tanyao(a: &Analysis) -> Option<u8> {
    when((a.closed || a.rules.open_tanyao) && a.facts.all_simple, 1)
}

pub fn iipeikou(a: &Analysis) -> Option<u8> {
    when(a.peikou() == 1, 1)
}

pub fn yakuhai_haku(a: &Analysis) -> Option<u8> {
    when(a.triplet_of(Kind::HAKU), 1)
}

pub fn yakuhai_hatsu(a: &Analysis) -> Option<u8> {
    when(a.triplet_of(Kind::HATSU), 1)
}

pub fn yakuhai_chun(a: &Analysis) -> Option<u8> {
    when(a.triplet_of(Kind::CHUN), 1)
}

pub fn yakuhai_seat_wind(a: &Analysis) -> Option<u8> {
    when(a.triplet_of(a.ctx.seat_wind.kind()), 1)
}

pub fn yakuhai_round_wind(a: &Analysis) -> Option<u8> {
    when(a.triplet_of(a.ctx.round_wind.kind()), 1)
}

pub fn haitei(a: &Analysis) -> Option<u8> {
    when(a.ctx.haitei, 1)
}

pub fn houtei(a: &Analysis) -> Option<u8> {
    when(a.ctx.houtei, 1)
}

pub fn rinshan(a: &Analysis) -> Option<u8> {
    when(a.ctx.rinshan, 1)
}

pub fn chankan(a: &Analysis) -> Option<u8> {
    when(a.ctx.chankan, 1)
}

/// Has a set of `kind` starting at `number` in each of the three suits.
fn three_suits(a: &Analysis, test: impl Fn(&Set) -> bool) -> bool {
    let Some(sets) = a.sets() else { return false };
    sets.iter().filter(|s| test(s)).any(|base| {
        let n = base.first.number();
        [Suit::Man, Suit::Pin, Suit::Sou].iter().all(|&suit| {
            sets.iter()
                .any(|s| test(s) && s.first.suit() == suit && s.first.number() == n)
        })
    })
}

pub fn sanshoku_doujun(a: &Analysis) -> Option<u8> {
    when(
        three_suits(a, |s| s.kind == SetKind::Sequence),
        a.open_reduced(2),
    )
}

pub fn sanshoku_doukou(a: &Analysis) -> Option<u8> {
    when(three_suits(a, Set::is_triplet_like), 2)
}

pub fn ittsu(a: &Analysis) -> Option<u8> {
    let sets = a.sets()?;
    let has = |suit: Suit, n: u8| {
        sets.iter()
            .any(|s| s.kind == SetKind::Sequence && s.first.suit() == suit && s.first.number() == n)
    };
    let found = [Suit::Man, Suit::Pin, Suit::Sou]
        .iter()
        .any(|&suit| has(suit, 1) && has(suit, 4) && has(suit, 7));
    when(found, a.open_reduced(2))
}

pub fn chanta(a: &Analysis) -> Option<u8> {
    when(a.outside_hand(true), a.open_reduced(2))
}

pub fn junchan(a: &Analysis) -> Option<u8> {
    when(a.outside_hand(false), a.open_reduced(3))
}

pub fn toitoi(a: &Analysis) -> Option<u8> {
    when(a.count_sets(Set::is_triplet_like) == 4, 2)
}

pub fn sanankou(a: &Analysis) -> Option<u8> {
    when(a.concealed_triplets() == 3, 2)
}

pub fn sankantsu(a: &Analysis) -> Option<u8> {
    when(a.count_sets(|s| s.kind == SetKind::Kan) == 3, 2)
}

pub fn honroutou(a: &Analysis) -> Option<u8> {
    when(a.facts.all_terminal_or_honor, 2)
}

pub fn shousangen(a: &Analysis) -> Option<u8> {
    let pair = a.pair()?;
    let dragon_sets = a.count_sets(|s| s.is_triplet_like() && s.first.is_dragon());
    when(pair.is_dragon() && dragon_sets == 2, 2)
}

pub fn chiitoitsu(a: &Analysis) -> Option<u8> {
    let han = if a.rules.chiitoitsu_50_fu { 1 } else { 2 };
    when(matches!(a.shape, Shape::Chiitoitsu { .. }), han)
}

pub fn ryanpeikou(a: &Analysis) -> Option<u8> {
    when(a.peikou() == 2, 3)
}

pub fn honitsu(a: &Analysis) -> Option<u8> {
    when(matches!(a.flush(), Some((_, true))), a.open_reduced(3))
}

pub fn chinitsu(a: &Analysis) -> Option<u8> {
    when(matches!(a.flush(), Some((_, false))), a.open_reduced(6))
}

/// Renhou in its mangan form: 5 han, so the hand is worth at least mangan.
pub fn renhou(a: &Analysis) -> Option<u8> {
    when(
        a.ctx.first_turn == FirstTurn::Renhou && a.rules.renhou == Renhou::Mangan,
        5,
    )
}

pub fn kokushi(a: &Analysis) -> Option<u8> {
    when(
        matches!(
            a.shape,
            Shape::Kokushi {
                thirteen_wait: false
            }
        ),
        1,
    )
}

pub fn kokushi_13(a: &Analysis) -> Option<u8> {
    special_yakuman(
        a,
        matches!(
            a.shape,
            Shape::Kokushi {
                thirteen_wait: true
            }
        ),
    )
}

fn four_concealed_triplets(a: &Analysis) -> bool {
    a.concealed_triplets() == 4
}

pub fn suuankou(a: &Analysis) -> Option<u8> {
    let tanki = matches!(
        a.shape,
        Shape::Standard {
            wait: Wait::Tanki,
            ..
        }
    );
    when(four_concealed_triplets(a) && !tanki, 1)
}

pub fn suuankou_tanki(a: &Analysis) -> Option<u8> {
    let tanki = matches!(
        a.shape,
        Shape::Standard {
            wait: Wait::Tanki,
            ..
        }
    );
    special_yakuman(a, four_concealed_triplets(a) && tanki)
}

pub fn daisangen(a: &Analysis) -> Option<u8> {
    when(
        a.count_sets(|s| s.is_triplet_like() && s.first.is_dragon()) == 3,
        1,
    )
}

fn wind_triplets(a: &Analysis) -> usize {
    a.count_sets(|s| s.is_triplet_like() && s.first.is_wind())
}

pub fn shousuushii(a: &Analysis) -> Option<u8> {
    let pair = a.pair()?;
    when(pair.is_wind() && wind_triplets(a) == 3, 1)
}

pub fn daisuushii(a: &Analysis) -> Option<u8> {
    special_yakuman(a, wind_triplets(a) == 4)
}

pub fn tsuuiisou(a: &Analysis) -> Option<u8> {
    when(a.facts.all_honor, 1)
}

pub fn ryuuiisou(a: &Analysis) -> Option<u8> {
    when(a.facts.all_green, 1)
}

pub fn chinroutou(a: &Analysis) -> Option<u8> {
    when(a.facts.all_terminal, 1)
}

/// The suit counts of a closed one-suit hand shaped 1112345678999 plus one tile.
fn nine_gates(a: &Analysis) -> Option<[u8; 9]> {
    if !a.closed || !matches!(a.shape, Shape::Standard { .. }) {
        return None;
    }
    if a.count_sets(|s| s.melded) > 0 {
        return None;
    }
    let (suit, false) = a.flush()? else {
        return None;
    };
    let base = Kind::new(suit, 1)?.index();
    let mut counts = [0u8; 9];
    counts.copy_from_slice(&a.counts[base..base + 9]);
    let shaped = counts[0] >= 3 && counts[8] >= 3 && counts[1..8].iter().all(|&c| c >= 1);
    shaped.then_some(counts)
}

pub fn chuuren(a: &Analysis) -> Option<u8> {
    let counts = nine_gates(a)?;
    when(!pure_nine_wait(&counts, a.win), 1)
}

/// Whether the hand without the winning tile is exactly 1112345678999.
fn pure_nine_wait(counts: &[u8; 9], win: Kind) -> bool {
    let mut before = *counts;
    before[win.number() as usize - 1] -= 1;
    before == [3, 1, 1, 1, 1, 1, 1, 1, 3]
}

pub fn chuuren_9(a: &Analysis) -> Option<u8> {
    let counts = nine_gates(a)?;
    special_yakuman(a, pure_nine_wait(&counts, a.win))
}

pub fn suukantsu(a: &Analysis) -> Option<u8> {
    when(a.count_sets(|s| s.kind == SetKind::Kan) == 4, 1)
}

pub fn tenhou(a: &Analysis) -> Option<u8> {
    when(a.ctx.first_turn == FirstTurn::Tenhou, 1)
}

pub fn chiihou(a: &Analysis) -> Option<u8> {
    when(a.ctx.first_turn == FirstTurn::Chiihou, 1)
}

pub fn renhou_yakuman(a: &Analysis) -> Option<u8> {
    when(
        a.ctx.first_turn == FirstTurn::Renhou && a.rules.renhou == Renhou::Yakuman,
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_masks_match_the_kind_predicates() {
        let bit = |k: Kind| 1u64 << k.index();
        for kind in Kind::all() {
            assert_eq!(mask::SIMPLE & bit(kind) != 0, kind.is_simple(), "{kind:?}");
            assert_eq!(
                mask::TERMINAL & bit(kind) != 0,
                kind.is_terminal(),
                "{kind:?}"
            );
            assert_eq!(mask::HONOR & bit(kind) != 0, kind.is_honor(), "{kind:?}");
            assert_eq!(mask::GREEN & bit(kind) != 0, kind.is_green(), "{kind:?}");
            let suit_mask = match kind.suit() {
                Suit::Man => mask::MAN,
                Suit::Pin => mask::PIN,
                Suit::Sou => mask::SOU,
                Suit::Honor => mask::HONOR,
            };
            assert!(suit_mask & bit(kind) != 0, "{kind:?}");
        }
    }
}
