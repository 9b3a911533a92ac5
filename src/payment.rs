//! Points: base points from han and fu, the limit names, and who pays what (ron, tsumo,
//! honba, riichi sticks, three-player and wareme payments).

use crate::rules::{Kazoe, Rules, SanmaTsumo};
use crate::tile::Wind;
use serde::{Serialize, Serializer};
use thiserror::Error;

/// The payments do not fit in 64 bits: an aotenjou hand of some fifty han or more, or
/// honba and riichi stick counts (or a honba value) in the billions.
#[derive(Clone, Copy, Debug, Error, PartialEq, Eq)]
#[error("the points do not fit in 64 bits: the hand value, honba or riichi sticks are too large")]
pub struct Overflow;

/// A named hand value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limit {
    Mangan,
    Haneman,
    Baiman,
    Sanbaiman,
    /// 13+ han without a yakuman.
    KazoeYakuman,
    /// One or more yakuman.
    Yakuman(u8),
}

impl Limit {
    pub fn name(self) -> String {
        match self {
            Limit::Mangan => "mangan".into(),
            Limit::Haneman => "haneman".into(),
            Limit::Baiman => "baiman".into(),
            Limit::Sanbaiman => "sanbaiman".into(),
            Limit::KazoeYakuman => "kazoe_yakuman".into(),
            Limit::Yakuman(1) => "yakuman".into(),
            Limit::Yakuman(2) => "double_yakuman".into(),
            Limit::Yakuman(3) => "triple_yakuman".into(),
            Limit::Yakuman(4) => "quadruple_yakuman".into(),
            Limit::Yakuman(n) => format!("{n}x_yakuman"),
        }
    }
}

impl Serialize for Limit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.name())
    }
}

/// Points with thousands separators, as score sheets print them: `12,000`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Rounds a payment up to the next 100.
pub fn round_up_100(points: u64) -> u64 {
    points.div_ceil(100).saturating_mul(100)
}

/// `base × multiple`, rounded up to 100, or `Overflow`.
fn share(base: u64, multiple: u64) -> Result<u64, Overflow> {
    let raw = base.checked_mul(multiple).ok_or(Overflow)?;
    raw.div_ceil(100).checked_mul(100).ok_or(Overflow)
}

/// Base points (the "basic points" every payment is a multiple of) and the limit reached.
/// `han` includes dora; `yakuman` is the number of yakuman (0 for an ordinary hand).
pub fn base_points(han: u32, fu: u8, yakuman: u32, rules: &Rules) -> (u64, Option<Limit>) {
    if rules.aotenjou {
        let han = han + 13 * yakuman;
        // Saturates: a base this large cannot be paid, and `pay` says so.
        let base = 1u64
            .checked_shl(2 + han)
            .and_then(|b| b.checked_mul(u64::from(fu)))
            .unwrap_or(u64::MAX);
        return (base, None);
    }
    if yakuman > 0 {
        return (
            8000 * u64::from(yakuman),
            Some(Limit::Yakuman(yakuman.min(255) as u8)),
        );
    }
    let (base, limit) = match han {
        13.. if rules.kazoe == Kazoe::Yakuman => (8000, Limit::KazoeYakuman),
        11.. => (6000, Limit::Sanbaiman),
        10 if rules.sanbaiman_from_10_han => (6000, Limit::Sanbaiman),
        8.. => (4000, Limit::Baiman),
        6 | 7 => (3000, Limit::Haneman),
        5 => (2000, Limit::Mangan),
        _ => {
            let base = u64::from(fu) << (2 + han);
            if base >= 2000 || (rules.kiriage && base == 1920) {
                (2000, Limit::Mangan)
            } else {
                return (base, None);
            }
        }
    };
    (base, Some(limit))
}

/// One payer's share of a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Share {
    /// The payer's seat; `None` for a ron whose discarder was not given.
    #[serde(serialize_with = "serialize_seat")]
    pub from: Option<Wind>,
    /// The hand's value paid by this player, honba excluded.
    pub hand: u64,
    /// This player's honba payment.
    pub honba: u64,
}

fn serialize_seat<S: Serializer>(seat: &Option<Wind>, s: S) -> Result<S::Ok, S::Error> {
    match seat {
        Some(w) => s.serialize_str(&w.letter().to_string()),
        None => s.serialize_str("discarder"),
    }
}

/// Everything the winner receives and who pays it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Points {
    /// What the winner receives: hand, honba and riichi sticks.
    pub total: u64,
    /// Paid by the discarder on a ron, honba included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ron: Option<u64>,
    /// Paid by the dealer on a non-dealer's tsumo, honba included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tsumo_dealer: Option<u64>,
    /// Paid by each non-dealer on a tsumo, honba included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tsumo_non_dealer: Option<u64>,
    /// The honba part of `total`.
    pub honba: u64,
    /// The riichi sticks part of `total`.
    pub riichi_sticks: u64,
    /// Every payment, payer by payer (for tables and multiple ron).
    pub payers: Vec<Share>,
}

/// The table situation a payment depends on.
#[derive(Clone, Copy, Debug)]
pub struct Table {
    pub winner: Wind,
    pub tsumo: bool,
    pub discarder: Option<Wind>,
    pub honba: u32,
    pub riichi_sticks: u32,
    pub wareme: Option<Wind>,
}

/// Splits a hand worth `base` points into payments; `Overflow` when a payment does not fit
/// in 64 bits.
pub fn pay(base: u64, table: &Table, rules: &Rules) -> Result<Points, Overflow> {
    let dealer = table.winner == Wind::East;
    let players = usize::from(rules.players);
    let others = (players - 1) as u64;
    let wareme_factor = |payer: Option<Wind>| {
        let involved = table.wareme.is_some()
            && rules.wareme
            && (table.wareme == Some(table.winner) || (payer.is_some() && payer == table.wareme));
        if involved {
            2
        } else {
            1
        }
    };
    let mut payers = Vec::with_capacity(3);
    if table.tsumo {
        // Both factors are u32, so the product fits in u64.
        let honba_each = u64::from(rules.honba_value) / others * u64::from(table.honba);
        // In three-player games North does not exist; split mode shares its part.
        let missing_share = |multiple: u64| match (players, rules.sanma_tsumo) {
            (3, SanmaTsumo::Split) => share(share(base, multiple)? / 2, 1),
            _ => Ok(0),
        };
        for seat in Wind::ALL.into_iter().take(players) {
            if seat == table.winner {
                continue;
            }
            let payer_multiple = if dealer || seat == Wind::East { 2 } else { 1 };
            let north_multiple = if dealer { 2 } else { 1 };
            let hand = share(base, payer_multiple)?
                .checked_add(missing_share(north_multiple)?)
                .and_then(|h| h.checked_mul(wareme_factor(Some(seat))))
                .ok_or(Overflow)?;
            payers.push(Share {
                from: Some(seat),
                hand,
                honba: honba_each,
            });
        }
    } else {
        let multiple = if dealer { 6 } else { 4 };
        payers.push(Share {
            from: table.discarder,
            hand: share(base, multiple)?
                .checked_mul(wareme_factor(table.discarder))
                .ok_or(Overflow)?,
            honba: u64::from(rules.honba_value) * u64::from(table.honba),
        });
    }
    let sticks = 1000 * u64::from(table.riichi_sticks);
    let add = |a: u64, b: u64| a.checked_add(b).ok_or(Overflow);
    let mut honba = 0;
    let mut total = sticks;
    for p in &payers {
        honba = add(honba, p.honba)?;
        total = add(total, add(p.hand, p.honba)?)?;
    }
    let paid = |dealer_seat: bool| {
        payers
            .iter()
            .find(|p| (p.from == Some(Wind::East)) == dealer_seat)
            .map(|p| p.hand + p.honba)
    };
    let (ron, tsumo_dealer, tsumo_non_dealer) = if !table.tsumo {
        (Some(payers[0].hand + payers[0].honba), None, None)
    } else if dealer {
        (None, None, paid(false))
    } else {
        (None, paid(true), paid(false))
    };
    Ok(Points {
        total,
        ron,
        tsumo_dealer,
        tsumo_non_dealer,
        honba,
        riichi_sticks: sticks,
        payers,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Preset;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(900), "900");
        assert_eq!(thousands(12_000), "12,000");
        assert_eq!(thousands(163_900), "163,900");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    /// Every table in these tests fits in 64 bits.
    fn pay(base: u64, table: &Table, rules: &Rules) -> Points {
        super::pay(base, table, rules).unwrap()
    }

    fn table(winner: Wind, tsumo: bool) -> Table {
        Table {
            winner,
            tsumo,
            discarder: None,
            honba: 0,
            riichi_sticks: 0,
            wareme: None,
        }
    }

    fn ron(han: u32, fu: u8, dealer: bool) -> u64 {
        let rules = Rules::default();
        let (base, _) = base_points(han, fu, 0, &rules);
        let winner = if dealer { Wind::East } else { Wind::South };
        pay(base, &table(winner, false), &rules).ron.unwrap()
    }

    fn tsumo(han: u32, fu: u8, dealer: bool) -> (Option<u64>, u64) {
        let rules = Rules::default();
        let (base, _) = base_points(han, fu, 0, &rules);
        let winner = if dealer { Wind::East } else { Wind::South };
        let p = pay(base, &table(winner, true), &rules);
        (p.tsumo_dealer, p.tsumo_non_dealer.unwrap())
    }

    /// The standard payment tables, row by row: (fu, [1..4 han]) with 0 for impossible cells.
    const NON_DEALER_RON: &[(u8, [u64; 4])] = &[
        (20, [0, 1300, 2600, 5200]),
        (25, [0, 1600, 3200, 6400]),
        (30, [1000, 2000, 3900, 7700]),
        (40, [1300, 2600, 5200, 8000]),
        (50, [1600, 3200, 6400, 8000]),
        (60, [2000, 3900, 7700, 8000]),
        (70, [2300, 4500, 8000, 8000]),
        (80, [2600, 5200, 8000, 8000]),
        (90, [2900, 5800, 8000, 8000]),
        (100, [3200, 6400, 8000, 8000]),
        (110, [3600, 7100, 8000, 8000]),
    ];

    const DEALER_RON: &[(u8, [u64; 4])] = &[
        (20, [0, 2000, 3900, 7700]),
        (25, [0, 2400, 4800, 9600]),
        (30, [1500, 2900, 5800, 11600]),
        (40, [2000, 3900, 7700, 12000]),
        (50, [2400, 4800, 9600, 12000]),
        (60, [2900, 5800, 11600, 12000]),
        (70, [3400, 6800, 12000, 12000]),
        (80, [3900, 7700, 12000, 12000]),
        (90, [4400, 8700, 12000, 12000]),
        (100, [4800, 9600, 12000, 12000]),
        (110, [5300, 10600, 12000, 12000]),
    ];

    /// (fu, [(dealer pays, non-dealer pays); 4]) for a non-dealer tsumo.
    const NON_DEALER_TSUMO: &[(u8, [(u64, u64); 4])] = &[
        (20, [(0, 0), (700, 400), (1300, 700), (2600, 1300)]),
        (25, [(0, 0), (0, 0), (1600, 800), (3200, 1600)]),
        (30, [(500, 300), (1000, 500), (2000, 1000), (3900, 2000)]),
        (40, [(700, 400), (1300, 700), (2600, 1300), (4000, 2000)]),
        (50, [(800, 400), (1600, 800), (3200, 1600), (4000, 2000)]),
        (60, [(1000, 500), (2000, 1000), (3900, 2000), (4000, 2000)]),
        (70, [(1200, 600), (2300, 1200), (4000, 2000), (4000, 2000)]),
        (80, [(1300, 700), (2600, 1300), (4000, 2000), (4000, 2000)]),
        (90, [(1500, 800), (2900, 1500), (4000, 2000), (4000, 2000)]),
        (100, [(1600, 800), (3200, 1600), (4000, 2000), (4000, 2000)]),
        (110, [(1800, 900), (3600, 1800), (4000, 2000), (4000, 2000)]),
    ];

    /// (fu, [each pays; 4]) for a dealer tsumo.
    const DEALER_TSUMO: &[(u8, [u64; 4])] = &[
        (20, [0, 700, 1300, 2600]),
        (25, [0, 0, 1600, 3200]),
        (30, [500, 1000, 2000, 3900]),
        (40, [700, 1300, 2600, 4000]),
        (50, [800, 1600, 3200, 4000]),
        (60, [1000, 2000, 3900, 4000]),
        (70, [1200, 2300, 4000, 4000]),
        (80, [1300, 2600, 4000, 4000]),
        (90, [1500, 2900, 4000, 4000]),
        (100, [1600, 3200, 4000, 4000]),
        (110, [1800, 3600, 4000, 4000]),
    ];

    #[test]
    fn ron_tables() {
        for (dealer, table) in [(false, NON_DEALER_RON), (true, DEALER_RON)] {
            for &(fu, row) in table {
                for (i, &expected) in row.iter().enumerate() {
                    if expected > 0 {
                        assert_eq!(
                            ron(i as u32 + 1, fu, dealer),
                            expected,
                            "{fu} fu {} han",
                            i + 1
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn tsumo_tables() {
        for &(fu, row) in NON_DEALER_TSUMO {
            for (i, &(from_dealer, from_other)) in row.iter().enumerate() {
                if from_dealer > 0 {
                    assert_eq!(
                        tsumo(i as u32 + 1, fu, false),
                        (Some(from_dealer), from_other),
                        "{fu} fu {} han",
                        i + 1
                    );
                }
            }
        }
        for &(fu, row) in DEALER_TSUMO {
            for (i, &each) in row.iter().enumerate() {
                if each > 0 {
                    assert_eq!(tsumo(i as u32 + 1, fu, true), (None, each));
                }
            }
        }
    }

    #[test]
    fn limits() {
        let rules = Rules::default();
        let cases = [
            (5, 30, 12000, 8000, Limit::Mangan),
            (6, 30, 18000, 12000, Limit::Haneman),
            (7, 30, 18000, 12000, Limit::Haneman),
            (8, 30, 24000, 16000, Limit::Baiman),
            (10, 30, 24000, 16000, Limit::Baiman),
            (11, 30, 36000, 24000, Limit::Sanbaiman),
            (12, 30, 36000, 24000, Limit::Sanbaiman),
            (13, 30, 48000, 32000, Limit::KazoeYakuman),
        ];
        for (han, fu, dealer, non_dealer, limit) in cases {
            let (base, got) = base_points(han, fu, 0, &rules);
            assert_eq!(got, Some(limit));
            assert_eq!(
                pay(base, &table(Wind::East, false), &rules).ron,
                Some(dealer)
            );
            assert_eq!(
                pay(base, &table(Wind::West, false), &rules).ron,
                Some(non_dealer)
            );
        }
        let (base, limit) = base_points(0, 0, 2, &rules);
        assert_eq!(limit, Some(Limit::Yakuman(2)));
        assert_eq!(
            pay(base, &table(Wind::West, false), &rules).ron,
            Some(64000)
        );
        let wrc = Preset::Wrc.rules();
        assert_eq!(base_points(14, 30, 0, &wrc).1, Some(Limit::Sanbaiman));
    }

    #[test]
    fn kiriage_and_regional_sanbaiman() {
        let mut rules = Rules::default();
        assert_eq!(base_points(4, 30, 0, &rules), (1920, None));
        assert_eq!(base_points(3, 60, 0, &rules), (1920, None));
        rules.kiriage = true;
        assert_eq!(base_points(4, 30, 0, &rules), (2000, Some(Limit::Mangan)));
        assert_eq!(base_points(3, 60, 0, &rules), (2000, Some(Limit::Mangan)));
        assert_eq!(base_points(10, 30, 0, &rules).1, Some(Limit::Baiman));
        rules.sanbaiman_from_10_han = true;
        assert_eq!(base_points(9, 30, 0, &rules).1, Some(Limit::Baiman));
        assert_eq!(base_points(10, 30, 0, &rules).1, Some(Limit::Sanbaiman));
    }

    #[test]
    fn aotenjou_has_no_limits() {
        let rules = Rules {
            aotenjou: true,
            ..Rules::default()
        };
        let (base, limit) = base_points(8, 40, 0, &rules);
        assert_eq!(limit, None);
        assert_eq!(
            pay(base, &table(Wind::South, false), &rules).ron,
            Some(163_900)
        );
        let (base, _) = base_points(10, 40, 0, &rules);
        assert_eq!(
            pay(base, &table(Wind::South, false), &rules).ron,
            Some(655_400)
        );
    }

    #[test]
    fn honba_and_sticks() {
        let rules = Rules::default();
        let (base, _) = base_points(2, 40, 0, &rules);
        let t = Table {
            honba: 2,
            riichi_sticks: 3,
            ..table(Wind::South, false)
        };
        let p = pay(base, &t, &rules);
        assert_eq!(p.ron, Some(2600 + 600));
        assert_eq!(p.total, 2600 + 600 + 3000);
        let t = Table { tsumo: true, ..t };
        let p = pay(base, &t, &rules);
        assert_eq!(p.tsumo_dealer, Some(1300 + 200));
        assert_eq!(p.tsumo_non_dealer, Some(700 + 200));
        assert_eq!(p.total, 1500 + 900 * 2 + 3000);
        let big = Rules {
            honba_value: 1500,
            ..Rules::default()
        };
        let p = pay(base, &Table { honba: 1, ..t }, &big);
        assert_eq!(p.tsumo_non_dealer, Some(700 + 500));
    }

    #[test]
    fn wareme_doubles_payments_involving_its_seat() {
        let rules = Rules {
            wareme: true,
            ..Rules::default()
        };
        let (base, _) = base_points(2, 40, 0, &rules);
        let t = Table {
            tsumo: true,
            wareme: Some(Wind::West),
            ..table(Wind::South, true)
        };
        let p = pay(base, &t, &rules);
        let west = p
            .payers
            .iter()
            .find(|s| s.from == Some(Wind::West))
            .unwrap();
        let north = p
            .payers
            .iter()
            .find(|s| s.from == Some(Wind::North))
            .unwrap();
        assert_eq!((west.hand, north.hand), (1400, 700));
        let t = Table {
            wareme: Some(Wind::South),
            ..t
        };
        assert_eq!(pay(base, &t, &rules).total, 2 * (1300 + 700 + 700));
    }

    #[test]
    fn three_player_tsumo() {
        let rules = Preset::Sanma.rules();
        let (base, _) = base_points(3, 30, 0, &rules);
        let p = pay(base, &table(Wind::South, true), &rules);
        assert_eq!(p.payers.len(), 2);
        assert_eq!(p.total, 2000 + 1000);
        let split = Rules {
            sanma_tsumo: SanmaTsumo::Split,
            ..rules
        };
        let p = pay(base, &table(Wind::South, true), &split);
        // North's 1,000 is split: dealer 2,000 + 500, West 1,000 + 500.
        assert_eq!(p.tsumo_dealer, Some(2500));
        assert_eq!(p.tsumo_non_dealer, Some(1500));
    }
}
