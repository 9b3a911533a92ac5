//! The scoring entry point: [`score`] checks a hand and its win context against the rules,
//! evaluates every reading, and returns the best [`Score`] with yaku, fu lines and payments.

use crate::context::{FirstTurn, Riichi, WinContext, WinMethod};
use crate::fu::{self, FuItem};
use crate::hand::{Hand, HandError};
use crate::payment::{self, Limit, Points, Table};
use crate::rules::Rules;
use crate::shape::{for_each_reading, Shape, Wait};
use crate::tile::{Kind, Suit, Tile};
use crate::yaku::{Analysis, TileFacts, Yaku, YAKU, YAKUMAN};
use serde::Serialize;
use thiserror::Error;

/// A yaku in a score and the han it brought.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct YakuHan {
    pub name: Yaku,
    pub han: u32,
}

/// The scored hand.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Score {
    /// Han including dora; for yakuman hands 13 per yakuman.
    pub han: u32,
    /// Fu after rounding (not used for yakuman hands).
    pub fu: u8,
    pub yaku: Vec<YakuHan>,
    /// Number of yakuman (0 for an ordinary hand).
    pub yakuman: u32,
    pub limit: Option<Limit>,
    pub fu_breakdown: Vec<FuItem>,
    pub points: Points,
    /// The reading that scored best.
    #[serde(skip)]
    pub wait: Option<Wait>,
}

/// Why a hand cannot be scored.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ScoreError {
    #[error(transparent)]
    Hand(#[from] HandError),
    #[error("not a complete hand: the tiles do not form four sets and a pair, seven pairs or thirteen orphans")]
    NotComplete,
    #[error("no yaku: the hand is complete but has no yaku (dora alone do not count)")]
    NoYaku,
    #[error("{count} copies of {kind} counting the dora indicators: a set has only four")]
    FifthCopy { kind: Kind, count: usize },
    #[error("{count} red fives of the {suit:?} suit, but the rules' set has {allowed}")]
    TooManyRedFives {
        suit: Suit,
        count: usize,
        allowed: u8,
    },
    #[error("impossible win conditions: {0}")]
    Impossible(&'static str),
    #[error("{0} is not in a three-player set (2m-8m are removed)")]
    NotInSanma(Tile),
    #[error(transparent)]
    Overflow(#[from] payment::Overflow),
}

impl ScoreError {
    /// A stable snake_case name for JSON error objects.
    pub fn kind(&self) -> &'static str {
        match self {
            ScoreError::Hand(HandError::WrongTileCount { .. }) => "wrong_tile_count",
            ScoreError::Hand(HandError::TooManyMelds) => "too_many_melds",
            ScoreError::Hand(HandError::FifthCopy { .. }) | ScoreError::FifthCopy { .. } => {
                "fifth_copy"
            }
            ScoreError::Hand(HandError::WinNotInHand(_)) => "win_not_in_hand",
            ScoreError::NotComplete => "not_complete",
            ScoreError::NoYaku => "no_yaku",
            ScoreError::TooManyRedFives { .. } => "too_many_red_fives",
            ScoreError::Impossible(_) => "impossible_conditions",
            ScoreError::NotInSanma(_) => "not_in_sanma",
            ScoreError::Overflow(_) => "points_overflow",
        }
    }
}

/// Scores a winning hand. See the crate docs for an example.
pub fn score(hand: &Hand, ctx: &WinContext, rules: &Rules) -> Result<Score, ScoreError> {
    let tally = check(hand, ctx, rules)?;
    if ctx.nagashi_mangan {
        return nagashi(ctx, rules);
    }
    let all = tally.all;
    let dora = count_dora(&tally, ctx, rules);
    let closed = hand.is_closed();
    let win = hand.win().kind();
    let facts = TileFacts::of(&all);
    let mut best: Option<Candidate> = None;
    let mut complete = false;
    for_each_reading(hand, ctx.is_tsumo(), |shape| {
        complete = true;
        let analysis = Analysis {
            shape,
            ctx,
            rules,
            counts: &all,
            closed,
            win,
            facts: &facts,
        };
        if let Some(candidate) = evaluate(&analysis, &dora) {
            if best.as_ref().is_none_or(|b| candidate.beats(b)) {
                best = Some(candidate);
            }
        }
    });
    let best = match (best, complete) {
        (Some(best), _) => best,
        (None, true) => return Err(ScoreError::NoYaku),
        (None, false) => return Err(ScoreError::NotComplete),
    };
    best.into_score(ctx, rules)
}

/// Dora, red fives, ura dora and North tiles, in output order.
type DoraCounts = [(Yaku, u32); 4];

fn count_dora(tally: &Tally, ctx: &WinContext, rules: &Rules) -> DoraCounts {
    let three = rules.three_player();
    let hits = |indicators: &[Tile]| -> u32 {
        indicators
            .iter()
            .map(|t| u32::from(tally.all[t.kind().dora_after(three).index()]))
            .sum()
    };
    let red = tally
        .red_in_hand
        .iter()
        .zip(rules.red_fives)
        .filter(|(_, allowed)| *allowed > 0)
        .map(|(n, _)| *n as u32)
        .sum();
    let ura = if ctx.has_riichi() && rules.ura_dora {
        hits(&ctx.ura_indicators)
    } else {
        0
    };
    [
        (Yaku::Dora, hits(&ctx.dora_indicators)),
        (Yaku::AkaDora, red),
        (Yaku::UraDora, ura),
        (Yaku::Kita, u32::from(ctx.kita)),
    ]
}

fn suit_index(suit: Suit) -> usize {
    match suit {
        Suit::Man => 0,
        Suit::Pin => 1,
        _ => 2,
    }
}

/// A scored reading, kept without allocation until the best one is known.
struct Candidate {
    yaku: [(Yaku, u8); 24],
    len: usize,
    han: u32,
    yakuman: u32,
    fu: fu::Fu,
    base: u64,
    limit: Option<Limit>,
    dora: DoraCounts,
    wait: Option<Wait>,
}

impl Candidate {
    /// Points first; at equal points a real yakuman outranks a counted one (a referee calls
    /// suuankou, not kazoe yakuman), then more han, then more fu.
    fn beats(&self, other: &Candidate) -> bool {
        let key = |c: &Candidate| (c.base, c.yakuman, c.han, c.fu.total());
        key(self) > key(other)
    }

    fn into_score(self, ctx: &WinContext, rules: &Rules) -> Result<Score, ScoreError> {
        let mut yaku: Vec<YakuHan> = self.yaku[..self.len]
            .iter()
            .map(|&(name, han)| YakuHan {
                name,
                han: u32::from(han),
            })
            .collect();
        if self.yakuman == 0 || rules.aotenjou {
            yaku.extend(
                self.dora
                    .iter()
                    .filter(|(_, n)| *n > 0)
                    .map(|&(name, han)| YakuHan { name, han }),
            );
        }
        let points = payment::pay(self.base, &table(ctx), rules)?;
        Ok(Score {
            han: self.han,
            fu: self.fu.total(),
            yaku,
            yakuman: self.yakuman,
            limit: self.limit,
            fu_breakdown: self.fu.items().to_vec(),
            points,
            wait: self.wait,
        })
    }
}

fn table(ctx: &WinContext) -> Table {
    Table {
        winner: ctx.seat_wind,
        tsumo: ctx.is_tsumo(),
        discarder: ctx.discarder,
        honba: ctx.honba,
        riichi_sticks: ctx.riichi_sticks,
        wareme: ctx.wareme,
    }
}

fn evaluate(a: &Analysis, dora: &DoraCounts) -> Option<Candidate> {
    let mut yaku = [(Yaku::Dora, 0u8); 24];
    let mut len = 0;
    let mut yakuman = 0u32;
    let mut best_single = 0u32;
    for rule in YAKUMAN {
        if let Some(n) = (rule.check)(a) {
            yaku[len] = (rule.yaku, 13 * n);
            len += 1;
            yakuman += u32::from(n);
            best_single = best_single.max(u32::from(n));
        }
    }
    if yakuman > 0 && !a.rules.yakuman_stacking {
        yakuman = best_single;
    }
    let mut han = 0u32;
    if yakuman == 0 {
        for rule in YAKU {
            if let Some(h) = (rule.check)(a) {
                yaku[len] = (rule.yaku, h);
                len += 1;
                han += u32::from(h);
            }
        }
        // Double riichi replaces riichi; ryanpeikou contains iipeikou (the checks already
        // keep those exclusive), and junchan excludes chanta by the honor test.
        if han == 0 {
            return None;
        }
        han += dora.iter().map(|(_, n)| n).sum::<u32>();
    }
    let pinfu = yaku[..len].iter().any(|(y, _)| *y == Yaku::Pinfu);
    let fu = fu::count(a, pinfu);
    let (base, limit) = if yakuman > 0 {
        let dora_han = if a.rules.aotenjou {
            dora.iter().map(|(_, n)| n).sum::<u32>()
        } else {
            0
        };
        payment::base_points(dora_han, fu.total(), yakuman, a.rules)
    } else {
        payment::base_points(han, fu.total(), 0, a.rules)
    };
    let wait = match a.shape {
        Shape::Standard { wait, .. } => Some(*wait),
        _ => None,
    };
    Some(Candidate {
        yaku,
        len,
        han: if yakuman > 0 { 13 * yakuman } else { han },
        yakuman,
        fu,
        base,
        limit,
        dora: *dora,
        wait,
    })
}

fn nagashi(ctx: &WinContext, rules: &Rules) -> Result<Score, ScoreError> {
    let mut table = table(ctx);
    table.tsumo = true;
    Ok(Score {
        han: 5,
        fu: 0,
        yaku: vec![YakuHan {
            name: Yaku::NagashiMangan,
            han: 5,
        }],
        yakuman: 0,
        limit: Some(Limit::Mangan),
        fu_breakdown: Vec::new(),
        points: payment::pay(2000, &table, rules)?,
        wait: None,
    })
}

/// The hand's tiles counted once for the checks, the readings and the dora.
struct Tally {
    /// Copies of each kind in the hand, melds included (indicators excluded).
    all: [u8; Kind::COUNT],
    /// Red fives in the hand per suit (man, pin, sou).
    red_in_hand: [usize; 3],
}

/// Rejects win conditions that cannot happen together, and tiles the rules' set lacks.
fn check(hand: &Hand, ctx: &WinContext, rules: &Rules) -> Result<Tally, ScoreError> {
    let tsumo = ctx.method == WinMethod::Tsumo;
    let has_kan = hand.melds().iter().any(|m| m.kind().is_kan());
    let impossible = [
        (
            ctx.ippatsu && ctx.riichi == Riichi::None,
            "ippatsu without riichi",
        ),
        (
            ctx.riichi != Riichi::None && !hand.is_closed(),
            "riichi with an open hand",
        ),
        (ctx.rinshan && !has_kan, "rinshan without a kan"),
        (ctx.rinshan && !tsumo, "rinshan on a ron"),
        (
            ctx.rinshan && ctx.ippatsu,
            "ippatsu after the winner's own kan",
        ),
        (ctx.haitei && ctx.rinshan, "haitei together with rinshan"),
        (
            ctx.haitei && !tsumo,
            "haitei on a ron (the last discard is houtei)",
        ),
        (
            ctx.houtei && tsumo,
            "houtei on a tsumo (the last draw is haitei)",
        ),
        (ctx.chankan && tsumo, "chankan on a tsumo"),
        (ctx.chankan && ctx.houtei, "chankan together with houtei"),
        (
            !ctx.ura_indicators.is_empty() && ctx.riichi == Riichi::None,
            "ura dora without riichi",
        ),
        (
            ctx.first_turn == FirstTurn::Tenhou && (!ctx.is_dealer() || !tsumo),
            "tenhou is a dealer's tsumo",
        ),
        (
            ctx.first_turn == FirstTurn::Chiihou && (ctx.is_dealer() || !tsumo),
            "chiihou is a non-dealer's tsumo",
        ),
        (
            ctx.first_turn == FirstTurn::Renhou && (ctx.is_dealer() || tsumo),
            "renhou is a non-dealer's ron",
        ),
        (
            ctx.first_turn != FirstTurn::None && !hand.melds().is_empty(),
            "a first-turn win with melds",
        ),
        (
            ctx.first_turn != FirstTurn::None && ctx.riichi != Riichi::None,
            "a first-turn win with riichi",
        ),
        (
            ctx.first_turn != FirstTurn::None
                && (ctx.haitei || ctx.houtei || ctx.rinshan || ctx.chankan),
            "a first-turn win with haitei, houtei, rinshan or chankan",
        ),
        (
            ctx.dora_indicators.len() > 5 || ctx.ura_indicators.len() > 5,
            "more than five dora or ura dora indicators",
        ),
        (
            ctx.kita > 0 && !rules.three_player(),
            "North tiles set aside (kita) outside a three-player game",
        ),
        (ctx.kita > 4, "more than four North tiles set aside"),
        (
            ctx.nagashi_mangan && !rules.nagashi_mangan,
            "nagashi mangan is off in these rules",
        ),
        (
            ctx.discarder.is_some() && (tsumo || ctx.discarder == Some(ctx.seat_wind)),
            "a discarder on a tsumo, or the winner as the discarder",
        ),
        (
            rules.three_player()
                && (ctx.seat_wind == crate::tile::Wind::North
                    || ctx.discarder == Some(crate::tile::Wind::North)),
            "a North seat in a three-player game",
        ),
    ];
    if let Some((_, why)) = impossible.iter().find(|(bad, _)| *bad) {
        return Err(ScoreError::Impossible(why));
    }
    // One pass over every physical tile: copies, red fives per suit, and the first tile a
    // three-player set lacks. The hand comes first so its own counts can be kept.
    let mut copies = [0u8; Kind::COUNT];
    let mut reds = [0usize; 3];
    let mut not_in_sanma = None;
    let three_player = rules.three_player();
    let mut tally = |tile: Tile, copies: &mut [u8; Kind::COUNT], reds: &mut [usize; 3]| {
        let kind = tile.kind();
        copies[kind.index()] = copies[kind.index()].saturating_add(1);
        if tile.is_red() {
            reds[suit_index(kind.suit())] += 1;
        }
        if three_player && not_in_sanma.is_none() && kind.suit() == Suit::Man && !kind.is_terminal()
        {
            not_in_sanma = Some(tile);
        }
    };
    for tile in hand.all_tiles() {
        tally(tile, &mut copies, &mut reds);
    }
    let all = copies;
    let red_in_hand = reds;
    for &tile in ctx.dora_indicators.iter().chain(&ctx.ura_indicators) {
        tally(tile, &mut copies, &mut reds);
    }
    if let Some(index) = copies.iter().position(|&c| c > 4) {
        return Err(ScoreError::FifthCopy {
            kind: Kind::from_index(index).unwrap_or(Kind::EAST),
            count: usize::from(copies[index]),
        });
    }
    for ((suit, allowed), count) in [Suit::Man, Suit::Pin, Suit::Sou]
        .into_iter()
        .zip(rules.red_fives)
        .zip(reds)
    {
        if allowed > 0 && count > usize::from(allowed) {
            return Err(ScoreError::TooManyRedFives {
                suit,
                count,
                allowed,
            });
        }
    }
    if let Some(tile) = not_in_sanma {
        return Err(ScoreError::NotInSanma(tile));
    }
    Ok(Tally { all, red_in_hand })
}
