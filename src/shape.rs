//! Readings of a winning hand: every way its tiles split into four sets and a pair (or seven
//! pairs, or thirteen orphans), combined with every place the winning tile can sit (the wait).
//!
//! The scorer evaluates each reading and keeps the best, so this module's job is to enumerate
//! all of them without allocating: readings are handed to a callback one at a time.

use crate::hand::{counts, Hand, Meld, MeldKind};
use crate::tile::{Kind, Suit, Tile};

/// What a set is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetKind {
    Sequence,
    Triplet,
    Kan,
}

/// One set of a standard hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Set {
    pub kind: SetKind,
    /// The tile of a triplet or kan, the lowest tile of a sequence.
    pub first: Kind,
    /// Open for fu and concealed-triplet counting: a called meld, or a triplet completed by ron.
    pub open: bool,
    /// Set apart as a meld (called, or a declared kan), as opposed to concealed in the hand.
    pub melded: bool,
}

impl Set {
    /// Whether the set contains `kind`.
    pub fn contains(&self, kind: Kind) -> bool {
        match self.kind {
            SetKind::Sequence => {
                kind.suit() == self.first.suit()
                    && (self.first.number()..self.first.number() + 3).contains(&kind.number())
            }
            _ => kind == self.first,
        }
    }

    /// Whether any tile of the set is a terminal or honor (chanta's test for each set).
    pub fn has_terminal_or_honor(&self) -> bool {
        match self.kind {
            SetKind::Sequence => matches!(self.first.number(), 1 | 7),
            _ => self.first.is_terminal_or_honor(),
        }
    }

    /// Triplets and kans.
    pub fn is_triplet_like(&self) -> bool {
        self.kind != SetKind::Sequence
    }
}

/// Where the winning tile sat.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// Two-sided sequence wait.
    Ryanmen,
    /// Closed (middle) sequence wait.
    Kanchan,
    /// Edge wait: 12 waiting on 3, or 89 on 7.
    Penchan,
    /// Pair wait.
    Tanki,
    /// Dual-pair wait: the winning tile completed a triplet.
    Shanpon,
}

/// A reading of the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// Four sets and a pair.
    Standard {
        sets: [Set; 4],
        pair: Kind,
        wait: Wait,
    },
    /// Seven distinct pairs.
    Chiitoitsu { pairs: [Kind; 7] },
    /// Thirteen orphans; `thirteen_wait` when the hand waited on all thirteen.
    Kokushi { thirteen_wait: bool },
}

const ORPHANS: [usize; 13] = [0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33];

/// Calls `visit` with every reading of `hand`. `tsumo` decides whether a triplet completed
/// by the winning tile counts as concealed.
pub fn for_each_reading(hand: &Hand, tsumo: bool, mut visit: impl FnMut(&Shape)) {
    let mut counts = hand.concealed_counts();
    let win = hand.win().kind();
    if hand.melds().is_empty() {
        if let Some(shape) = kokushi(&counts, win) {
            visit(&shape);
        }
        if let Some(shape) = chiitoitsu(&counts) {
            visit(&shape);
        }
    }

    let mut sets = [Set {
        kind: SetKind::Sequence,
        first: Kind::EAST,
        open: false,
        melded: false,
    }; 4];
    for (slot, meld) in sets.iter_mut().zip(hand.melds()) {
        *slot = Set {
            kind: match meld.kind() {
                MeldKind::Chi => SetKind::Sequence,
                MeldKind::Pon => SetKind::Triplet,
                _ => SetKind::Kan,
            },
            first: meld.first_kind(),
            open: meld.is_open(),
            melded: true,
        };
    }
    let melded = hand.melds().len();
    // Sets take three tiles of one suit, so without the pair every suit's count is a multiple
    // of three and every honor's count is 0 or 3. Testing that first skips pair choices that
    // cannot split.
    let mut suit_totals = [0u8; 4];
    for (total, suit) in suit_totals.iter_mut().zip(counts.chunks(9)) {
        *total = suit.iter().sum();
    }
    let odd_honors = counts[27..].iter().filter(|&&c| c % 3 != 0).count();
    for pair in 0..Kind::COUNT {
        if counts[pair] < 2 {
            continue;
        }
        let suit = pair / 9;
        let splits = suit_totals
            .iter()
            .enumerate()
            .all(|(s, &n)| (n - if s == suit { 2 } else { 0 }) % 3 == 0);
        let honors_ok = if pair >= 27 {
            // The pair's own honor must be left at 0 or 3 (count 2 or 5 is impossible).
            let others = odd_honors - usize::from(counts[pair] % 3 != 0);
            others == 0 && (counts[pair] - 2) % 3 == 0
        } else {
            odd_honors == 0
        };
        if !splits || !honors_ok {
            continue;
        }
        counts[pair] -= 2;
        let pair_kind = Kind::from_index(pair).unwrap_or(Kind::EAST);
        split_sets(&mut counts, 0, &mut sets, melded, &mut |sets| {
            for_each_wait(sets, melded, pair_kind, win, tsumo, &mut visit);
        });
        counts[pair] += 2;
    }
}

fn kokushi(counts: &[u8; Kind::COUNT], win: Kind) -> Option<Shape> {
    let total: u8 = ORPHANS.iter().map(|&i| counts[i]).sum();
    let all_present = ORPHANS.iter().all(|&i| counts[i] >= 1);
    (total == 14 && all_present).then(|| Shape::Kokushi {
        thirteen_wait: counts[win.index()] == 2,
    })
}

fn chiitoitsu(counts: &[u8; Kind::COUNT]) -> Option<Shape> {
    let mut pairs = [Kind::EAST; 7];
    let mut n = 0;
    for (index, &count) in counts.iter().enumerate() {
        match count {
            0 => {}
            2 if n < 7 => {
                pairs[n] = Kind::from_index(index)?;
                n += 1;
            }
            _ => return None,
        }
    }
    (n == 7).then_some(Shape::Chiitoitsu { pairs })
}

/// Splits the remaining concealed tiles into sets, filling `sets[filled..]`.
fn split_sets<F: FnMut(&[Set; 4])>(
    counts: &mut [u8; Kind::COUNT],
    from: usize,
    sets: &mut [Set; 4],
    filled: usize,
    done: &mut F,
) {
    let Some(i) = (from..Kind::COUNT).find(|&i| counts[i] > 0) else {
        if filled == 4 {
            done(sets);
        }
        return;
    };
    if filled == 4 {
        return;
    }
    let kind = Kind::from_index(i).unwrap_or(Kind::EAST);
    if counts[i] >= 3 {
        counts[i] -= 3;
        sets[filled] = Set {
            kind: SetKind::Triplet,
            first: kind,
            open: false,
            melded: false,
        };
        split_sets(counts, i, sets, filled + 1, done);
        counts[i] += 3;
    }
    if kind.suit() != Suit::Honor && kind.number() <= 7 && counts[i + 1] > 0 && counts[i + 2] > 0 {
        counts[i] -= 1;
        counts[i + 1] -= 1;
        counts[i + 2] -= 1;
        sets[filled] = Set {
            kind: SetKind::Sequence,
            first: kind,
            open: false,
            melded: false,
        };
        split_sets(counts, i, sets, filled + 1, done);
        counts[i] += 1;
        counts[i + 1] += 1;
        counts[i + 2] += 1;
    }
}

/// Visits every wait the winning tile can complete in one split.
fn for_each_wait(
    sets: &[Set; 4],
    melded: usize,
    pair: Kind,
    win: Kind,
    tsumo: bool,
    visit: &mut impl FnMut(&Shape),
) {
    if pair == win {
        visit(&Shape::Standard {
            sets: *sets,
            pair,
            wait: Wait::Tanki,
        });
    }
    for index in melded..4 {
        let set = sets[index];
        if !set.contains(win) {
            continue;
        }
        // Identical concealed sets give identical readings: visit only the first.
        if sets[melded..index].contains(&set) {
            continue;
        }
        let mut reading = *sets;
        let wait = match set.kind {
            SetKind::Sequence => {
                let pos = win.number() - set.first.number();
                match (pos, set.first.number()) {
                    (1, _) => Wait::Kanchan,
                    (0, 7) | (2, 1) => Wait::Penchan,
                    _ => Wait::Ryanmen,
                }
            }
            _ => {
                reading[index].open = !tsumo;
                Wait::Shanpon
            }
        };
        visit(&Shape::Standard {
            sets: reading,
            pair,
            wait,
        });
    }
}

/// The tiles one more of which, as the winning tile, would make `concealed` and `melds` a
/// complete hand, in tile order: the waits of a hand a tile short (thirteen tiles, a kan
/// counted as three); empty otherwise. None that would have the hand and the dora indicators
/// `dora` show a fifth copy of a kind (see [`wins_as_shown`]). Asked of a photo read a tile
/// short (most often its winning tile missed), of a hand corrected in the app, and of a
/// request typed without its winning tile.
pub fn completing_tiles(concealed: &[Tile], melds: &[Meld], dora: &[Tile]) -> Vec<Tile> {
    Kind::all()
        .map(Tile::plain)
        .filter(|&tile| {
            let mut tiles = concealed.to_vec();
            tiles.push(tile);
            Hand::new(tiles, melds.to_vec(), tile).is_ok_and(|hand| wins_as_shown(&hand, dora))
        })
        .collect()
}

/// Whether `hand` is complete and, with the dora indicators `dora`, shows no kind more than
/// four times: a hand the table can hold.
pub fn wins_as_shown(hand: &Hand, dora: &[Tile]) -> bool {
    if counts(hand.all_tiles().chain(dora.iter().copied()))
        .iter()
        .any(|&c| c > 4)
    {
        return false;
    }
    let mut complete = false;
    for_each_reading(hand, false, |_| complete = true);
    complete
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_hand, parse_tile};

    fn readings(text: &str, win: &str, tsumo: bool) -> Vec<Shape> {
        let parsed = parse_hand(text).unwrap();
        let hand = Hand::new(parsed.tiles, parsed.melds, parse_tile(win).unwrap()).unwrap();
        let mut out = Vec::new();
        for_each_reading(&hand, tsumo, |s| out.push(*s));
        out
    }

    fn waits(shapes: &[Shape]) -> Vec<Wait> {
        shapes
            .iter()
            .filter_map(|s| match s {
                Shape::Standard { wait, .. } => Some(*wait),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn one_hand_many_waits() {
        // 344556m: the 4m finishes 345 in the middle (kanchan) or 456 on the edge (ryanmen).
        let shapes = readings("344556m789p11122z", "4m", false);
        let w = waits(&shapes);
        assert!(w.contains(&Wait::Ryanmen));
        assert!(w.contains(&Wait::Kanchan));
    }

    #[test]
    fn penchan_and_tanki_and_shanpon() {
        assert_eq!(
            waits(&readings("12m3m456p789s11122z", "3m", false)),
            vec![Wait::Penchan]
        );
        assert_eq!(
            waits(&readings("123m456p789s11122z", "1z", false)),
            vec![Wait::Shanpon]
        );
        assert_eq!(
            waits(&readings("123m456p789s22211z", "1z", false)),
            vec![Wait::Tanki]
        );
    }

    #[test]
    fn ron_on_a_triplet_opens_it() {
        let shapes = readings("123m456p789s11122z", "1z", false);
        let Shape::Standard { sets, .. } = shapes[0] else {
            panic!("expected a standard shape")
        };
        assert!(sets.iter().any(|s| s.first == Kind::EAST && s.open));
        let shapes = readings("123m456p789s11122z", "1z", true);
        let Shape::Standard { sets, .. } = shapes[0] else {
            panic!("expected a standard shape")
        };
        assert!(sets.iter().all(|s| !s.open));
    }

    #[test]
    fn seven_pairs_also_read_as_ryanpeikou() {
        let shapes = readings("112233m445566p77z", "7z", false);
        assert!(shapes.iter().any(|s| matches!(s, Shape::Chiitoitsu { .. })));
        assert!(shapes.iter().any(|s| matches!(s, Shape::Standard { .. })));
    }

    #[test]
    fn kokushi_waits() {
        let shapes = readings("19m19p19s12345677z", "7z", false);
        assert_eq!(
            shapes,
            vec![Shape::Kokushi {
                thirteen_wait: true
            }]
        );
        let shapes = readings("19m19p19s12345677z", "1z", false);
        assert_eq!(
            shapes,
            vec![Shape::Kokushi {
                thirteen_wait: false
            }]
        );
    }

    #[test]
    fn four_of_a_kind_is_not_two_pairs() {
        let shapes = readings("11112233m445566p", "6p", false);
        assert!(!shapes.iter().any(|s| matches!(s, Shape::Chiitoitsu { .. })));
    }

    #[test]
    fn melds_fill_the_first_slots() {
        let shapes = readings("456p789s11z [123m] (2222z)", "1z", true);
        assert_eq!(shapes.len(), 1);
        let Shape::Standard { sets, .. } = shapes[0] else {
            panic!("expected a standard shape")
        };
        assert!(sets[0].melded && sets[0].open);
        assert!(sets[1].melded && !sets[1].open && sets[1].kind == SetKind::Kan);
    }

    #[test]
    fn not_a_winning_hand_has_no_readings() {
        assert!(readings("123m456p789s11223z", "3z", false).is_empty());
    }
}
