//! The final score: turns table points into final points by a convention
//! (target, oka, uma, rounding, ties, penalties), all switches in [`Rules`].
//!
//! Steps, in this order:
//! 1. rank by points; ties by seat order from the first dealer, or shared
//!    ([`TieRule::Split`]: tied players share the oka and uma of the places
//!    they occupy);
//! 2. `(points + oka share − target) / 1000`, rounded per [`Rounding`];
//! 3. add the uma (shared as above);
//! 4. with [`Rules::top_absorbs_rounding`], the top player's score is set so
//!    that the rounding changes nothing to the total;
//! 5. subtract final-score penalties (EMA chombo).
//!
//! Final points are exact: they are kept in 1/120 of a point, which holds
//! every tenth of a point and every share of an uma split two, three or
//! four ways.

use super::rules::{Rounding, Rules, TieRule};
use super::{Seat, TableError};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Add, Sub};

/// Units per final point.
const UNIT: i64 = 120;

/// A final score in points (1 point = 1,000 table points), exact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct FinalPoints(i64);

impl FinalPoints {
    /// A whole number of final points.
    pub fn whole(points: i64) -> FinalPoints {
        FinalPoints(points * UNIT)
    }

    /// Tenths of a final point (e.g. `from_tenths(-203)` is −20.3).
    pub fn from_tenths(tenths: i64) -> FinalPoints {
        FinalPoints(tenths * (UNIT / 10))
    }

    /// Exactly `raw / 1000` for table points that are multiples of 25.
    fn from_table_points(raw: i64) -> FinalPoints {
        FinalPoints(raw * 3 / 25)
    }

    pub fn as_f64(self) -> f64 {
        self.0 as f64 / UNIT as f64
    }

    /// Whether this is a whole number of points.
    pub fn is_whole(self) -> bool {
        self.0 % UNIT == 0
    }

    /// The value rounded to hundredths, as a string without sign for
    /// positives ("46", "-18", "12.3", "6.67").
    pub fn to_plain_string(self) -> String {
        let hundredths = (self.0 * 100).div_euclid(UNIT)
            + i64::from((self.0 * 100).rem_euclid(UNIT) * 2 >= UNIT);
        let neg = hundredths < 0;
        let a = hundredths.unsigned_abs();
        let (int, frac) = (a / 100, a % 100);
        let sign = if neg { "-" } else { "" };
        if frac == 0 {
            format!("{sign}{int}")
        } else if frac % 10 == 0 {
            format!("{sign}{int}.{}", frac / 10)
        } else {
            format!("{sign}{int}.{frac:02}")
        }
    }
}

impl fmt::Display for FinalPoints {
    /// With an explicit sign: "+46", "-18", "0", "+12.3".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.to_plain_string();
        if self.0 > 0 {
            write!(f, "+{s}")
        } else {
            f.write_str(&s)
        }
    }
}

impl Add for FinalPoints {
    type Output = FinalPoints;
    fn add(self, o: FinalPoints) -> FinalPoints {
        FinalPoints(self.0 + o.0)
    }
}

impl Sub for FinalPoints {
    type Output = FinalPoints;
    fn sub(self, o: FinalPoints) -> FinalPoints {
        FinalPoints(self.0 - o.0)
    }
}

impl std::iter::Sum for FinalPoints {
    fn sum<I: Iterator<Item = FinalPoints>>(iter: I) -> FinalPoints {
        iter.fold(FinalPoints(0), Add::add)
    }
}

impl Serialize for FinalPoints {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.as_f64())
    }
}

impl<'de> Deserialize<'de> for FinalPoints {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FinalPoints, D::Error> {
        let v = f64::deserialize(d)?;
        Ok(FinalPoints((v * UNIT as f64).round() as i64))
    }
}

/// One player's line of the final result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    pub seat: Seat,
    /// 1-based; tied players share a place under [`TieRule::Split`].
    pub place: usize,
    /// Table points at the end.
    pub points: i64,
    /// Uma (and oka) received, before rounding of the points part.
    pub uma: FinalPoints,
    /// Penalty taken from the final score (table points, e.g. 20,000).
    pub penalty: i64,
    /// The final score.
    pub score: FinalPoints,
}

/// The final result, best place first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalResult {
    pub standings: Vec<Standing>,
}

impl FinalResult {
    /// The final score of a seat.
    pub fn score_of(&self, seat: Seat) -> Option<FinalPoints> {
        self.standings
            .iter()
            .find(|s| s.seat == seat)
            .map(|s| s.score)
    }

    /// Final scores in seat order.
    pub fn scores_by_seat(&self) -> Vec<FinalPoints> {
        let mut v: Vec<(Seat, FinalPoints)> =
            self.standings.iter().map(|s| (s.seat, s.score)).collect();
        v.sort_by_key(|&(s, _)| s);
        v.into_iter().map(|(_, p)| p).collect()
    }

    /// The sum of all final scores.
    pub fn total(&self) -> FinalPoints {
        self.standings.iter().map(|s| s.score).sum()
    }
}

/// Computes the final result from table points by seat (seat 0 = first
/// dealer) and final-score penalties in table points by seat.
pub fn settle(points: &[i64], penalties: &[i64], rules: &Rules) -> Result<FinalResult, TableError> {
    rules.validate()?;
    let n = rules.player_count();
    if points.len() != n || penalties.len() != n {
        return Err(TableError::WrongPlayerCount {
            expected: n,
            got: points.len(),
        });
    }
    if let Some(p) = points
        .iter()
        .chain(penalties)
        .find(|p| **p % 100 != 0 || p.abs() > 1_000_000_000_000_000)
    {
        return Err(TableError::InvalidPoints(format!(
            "table points must be multiples of 100 (got {p})"
        )));
    }
    // Best first; ties by seat order.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(points[i]), i));

    let oka = FinalPoints::from_table_points(rules.oka_points());
    let bonus_oka: Vec<FinalPoints> = (0..n)
        .map(|place| if place == 0 { oka } else { FinalPoints(0) })
        .collect();
    let bonus_uma: Vec<FinalPoints> = rules.uma.iter().map(|&u| FinalPoints::whole(u)).collect();

    // Group tied players (only under TieRule::Split).
    let mut place_of = vec![0usize; n];
    let mut oka_share = vec![FinalPoints(0); n];
    let mut uma_share = vec![FinalPoints(0); n];
    let mut a = 0;
    while a < n {
        let mut b = a + 1;
        if rules.ties == TieRule::Split {
            while b < n && points[order[b]] == points[order[a]] {
                b += 1;
            }
        }
        let k = (b - a) as i64;
        let oka_sum: FinalPoints = bonus_oka[a..b].iter().copied().sum();
        let uma_sum: FinalPoints = bonus_uma[a..b].iter().copied().sum();
        for &i in &order[a..b] {
            place_of[i] = a + 1;
            // Exact: oka is a multiple of 12 units and uma of 120, k <= 4.
            oka_share[i] = FinalPoints(oka_sum.0 / k);
            uma_share[i] = FinalPoints(uma_sum.0 / k);
        }
        a = b;
    }

    let base: Vec<FinalPoints> = (0..n)
        .map(|i| FinalPoints::from_table_points(points[i] - rules.target_points) + oka_share[i])
        .collect();
    let rounded: Vec<FinalPoints> = base
        .iter()
        .map(|&b| match rules.rounding {
            Rounding::Exact => b,
            // Nearest, ties toward minus infinity: ceil((b − ½) / 1).
            Rounding::HalfDown => FinalPoints(-(UNIT / 2 - b.0).div_euclid(UNIT) * UNIT),
            // Nearest, ties toward plus infinity: floor(b + ½).
            Rounding::HalfUp => FinalPoints((b.0 + UNIT / 2).div_euclid(UNIT) * UNIT),
        })
        .collect();
    let mut score: Vec<FinalPoints> = (0..n).map(|i| rounded[i] + uma_share[i]).collect();
    if rules.top_absorbs_rounding && rules.rounding != Rounding::Exact {
        let top = order[0];
        let exact_total: FinalPoints = (0..n).map(|i| base[i] + uma_share[i]).sum();
        let others: FinalPoints = (0..n).filter(|&i| i != top).map(|i| score[i]).sum();
        score[top] = exact_total - others;
    }
    for i in 0..n {
        score[i] = score[i] - FinalPoints::from_table_points(penalties[i]);
    }
    let standings = order
        .iter()
        .map(|&i| Standing {
            seat: Seat::ALL[i],
            place: place_of[i],
            points: points[i],
            uma: uma_share[i] + oka_share[i],
            penalty: penalties[i],
            score: score[i],
        })
        .collect();
    Ok(FinalResult { standings })
}
