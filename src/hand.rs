//! A winning hand as the player shows it: concealed tiles (winning tile included), called or
//! declared melds, and which tile completed the hand.
//!
//! Construction checks everything that can be checked without the rules: meld shapes, the tile
//! count, five copies of a kind, and that the winning tile is in the concealed part.

use crate::tile::{Kind, Suit, Tile};
use thiserror::Error;

/// The ways a meld can be formed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MeldKind {
    /// A called sequence (always open).
    Chi,
    /// A called triplet.
    Pon,
    /// A kan called from a discard (daiminkan).
    OpenKan,
    /// A kan declared from four concealed tiles (ankan); the hand stays closed.
    ClosedKan,
    /// A kan made by adding the fourth tile to a pon (shouminkan).
    AddedKan,
}

impl MeldKind {
    pub fn is_kan(self) -> bool {
        matches!(
            self,
            MeldKind::OpenKan | MeldKind::ClosedKan | MeldKind::AddedKan
        )
    }

    /// Whether the meld opens the hand: every meld but a closed kan does.
    pub fn is_open(self) -> bool {
        self != MeldKind::ClosedKan
    }

    fn tile_count(self) -> usize {
        if self.is_kan() {
            4
        } else {
            3
        }
    }
}

/// Which player a called tile came from, seen from the caller.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CalledFrom {
    /// The player on the left (kamicha), who discards just before the caller.
    Left,
    /// The player opposite (toimen).
    Across,
    /// The player on the right (shimocha).
    Right,
}

/// Why a group of tiles is not a meld.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MeldError {
    #[error("a {kind:?} has {expected} tiles, found {found}")]
    WrongSize {
        kind: MeldKind,
        expected: usize,
        found: usize,
    },
    #[error("a chi must be three consecutive tiles of one suit, found {0}")]
    NotASequence(String),
    #[error("a pon or kan must be copies of one tile, found {0}")]
    NotCopies(String),
    #[error("a closed kan has no called tile")]
    ClosedKanCalled,
    #[error("called tile index {index} is outside the meld")]
    CalledOutOfRange { index: usize },
}

/// A meld: three or four tiles set apart on the table, in the order the player laid them out.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Meld {
    kind: MeldKind,
    tiles: [Tile; 4],
    called: Option<u8>,
}

impl Meld {
    /// Builds a meld, checking its shape. `called` is the index of the sideways (called) tile
    /// in `tiles`, when known; its position tells which player it came from.
    pub fn new(kind: MeldKind, tiles: &[Tile], called: Option<usize>) -> Result<Meld, MeldError> {
        let expected = kind.tile_count();
        if tiles.len() != expected {
            return Err(MeldError::WrongSize {
                kind,
                expected,
                found: tiles.len(),
            });
        }
        match called {
            Some(_) if kind == MeldKind::ClosedKan => return Err(MeldError::ClosedKanCalled),
            Some(index) if index >= expected => return Err(MeldError::CalledOutOfRange { index }),
            _ => {}
        }
        let text = crate::notation::format_tiles(tiles);
        let kinds: Vec<Kind> = tiles.iter().map(|t| t.kind()).collect();
        if kind == MeldKind::Chi {
            if !is_sequence(&kinds) {
                return Err(MeldError::NotASequence(text));
            }
        } else if kinds.iter().any(|&k| k != kinds[0]) {
            return Err(MeldError::NotCopies(text));
        }
        let mut array = [tiles[0]; 4];
        array[..expected].copy_from_slice(tiles);
        Ok(Meld {
            kind,
            tiles: array,
            called: called.map(|i| i as u8),
        })
    }

    pub fn kind(&self) -> MeldKind {
        self.kind
    }

    /// The tiles in laid-out order.
    pub fn tiles(&self) -> &[Tile] {
        &self.tiles[..self.kind.tile_count()]
    }

    /// The lowest kind in the meld: the tile of a pon or kan, the start of a chi.
    pub fn first_kind(&self) -> Kind {
        self.tiles()
            .iter()
            .map(|t| t.kind())
            .min()
            .unwrap_or(self.tiles[0].kind())
    }

    pub fn is_open(&self) -> bool {
        self.kind.is_open()
    }

    /// Index of the sideways tile in [`Meld::tiles`], when it was marked.
    pub fn called_index(&self) -> Option<usize> {
        self.called.map(usize::from)
    }

    /// Who the called tile came from, read from where the sideways tile lies: left for the
    /// first position, right for the last, across in between (the way players lay out calls).
    pub fn called_from(&self) -> Option<CalledFrom> {
        let index = self.called_index()?;
        Some(match self.kind {
            MeldKind::Chi => CalledFrom::Left,
            _ if index == 0 => CalledFrom::Left,
            _ if index + 1 == self.kind.tile_count() => CalledFrom::Right,
            _ => CalledFrom::Across,
        })
    }
}

impl std::fmt::Debug for Meld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", crate::notation::format_meld(self))
    }
}

impl std::fmt::Display for Meld {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", crate::notation::format_meld(self))
    }
}

impl serde::Serialize for Meld {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// Why tiles do not form a winning-hand shape.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HandError {
    #[error("wrong tile count: with {melds} meld(s) the concealed part needs {expected} tiles (winning tile included), found {found}")]
    WrongTileCount {
        melds: usize,
        expected: usize,
        found: usize,
    },
    #[error("more than four melds")]
    TooManyMelds,
    #[error("{count} copies of {kind}: a set has only four")]
    FifthCopy { kind: Kind, count: usize },
    #[error("the winning tile {0} is not among the concealed tiles")]
    WinNotInHand(Tile),
}

/// A hand at the moment of winning.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hand {
    concealed: Vec<Tile>,
    melds: Vec<Meld>,
    win: Tile,
}

impl Hand {
    /// Checks the shape: `3 × melds + concealed = 14`, at most four of a kind, and the winning
    /// tile among the concealed tiles (a red winning tile must match a red tile).
    pub fn new(concealed: Vec<Tile>, melds: Vec<Meld>, win: Tile) -> Result<Hand, HandError> {
        if melds.len() > 4 {
            return Err(HandError::TooManyMelds);
        }
        let expected = 14 - 3 * melds.len();
        if concealed.len() != expected {
            return Err(HandError::WrongTileCount {
                melds: melds.len(),
                expected,
                found: concealed.len(),
            });
        }
        let hand = Hand {
            concealed,
            melds,
            win,
        };
        let counts = hand.all_counts();
        if let Some((index, &count)) = counts.iter().enumerate().find(|(_, &c)| c > 4) {
            return Err(HandError::FifthCopy {
                kind: Kind::from_index(index).unwrap_or(Kind::EAST),
                count: count as usize,
            });
        }
        if !hand.concealed.contains(&win) {
            return Err(HandError::WinNotInHand(win));
        }
        Ok(hand)
    }

    /// Concealed tiles, winning tile included.
    pub fn concealed(&self) -> &[Tile] {
        &self.concealed
    }

    pub fn melds(&self) -> &[Meld] {
        &self.melds
    }

    pub fn win(&self) -> Tile {
        self.win
    }

    /// No called meld (closed kans keep a hand closed).
    pub fn is_closed(&self) -> bool {
        self.melds.iter().all(|m| !m.is_open())
    }

    /// Every physical tile of the hand: concealed and melded.
    pub fn all_tiles(&self) -> impl Iterator<Item = Tile> + '_ {
        self.concealed
            .iter()
            .copied()
            .chain(self.melds.iter().flat_map(|m| m.tiles().iter().copied()))
    }

    /// Copies of each kind among concealed tiles.
    pub fn concealed_counts(&self) -> [u8; Kind::COUNT] {
        counts(self.concealed.iter().copied())
    }

    /// Copies of each kind in the whole hand, melds included.
    pub fn all_counts(&self) -> [u8; Kind::COUNT] {
        counts(self.all_tiles())
    }
}

/// Whether `kinds`, in any order, are three consecutive kinds of one suit: a chi's shape.
pub fn is_sequence(kinds: &[Kind]) -> bool {
    let mut kinds = kinds.to_vec();
    kinds.sort();
    let Some(&first) = kinds.first() else {
        return false;
    };
    kinds.len() == 3
        && first.suit() != Suit::Honor
        && kinds[1] == first.offset_in_suit(1).unwrap_or(first)
        && kinds[2] == first.offset_in_suit(2).unwrap_or(first)
        && kinds[1] != first
}

/// Copies of each kind among `tiles`.
pub fn counts(tiles: impl IntoIterator<Item = Tile>) -> [u8; Kind::COUNT] {
    let mut counts = [0u8; Kind::COUNT];
    for tile in tiles {
        counts[tile.kind().index()] = counts[tile.kind().index()].saturating_add(1);
    }
    counts
}

impl std::fmt::Display for Hand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", crate::notation::format_tiles(&self.concealed))?;
        for meld in &self.melds {
            write!(f, " {meld}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::{parse_meld, parse_tiles};

    fn tiles(s: &str) -> Vec<Tile> {
        parse_tiles(s).unwrap()
    }

    #[test]
    fn meld_shapes_are_checked() {
        assert!(Meld::new(MeldKind::Chi, &tiles("345s"), None).is_ok());
        assert!(Meld::new(MeldKind::Chi, &tiles("435s"), None).is_ok());
        assert!(matches!(
            Meld::new(MeldKind::Chi, &tiles("135s"), None),
            Err(MeldError::NotASequence(_))
        ));
        assert!(matches!(
            Meld::new(MeldKind::Chi, &tiles("123z"), None),
            Err(MeldError::NotASequence(_))
        ));
        assert!(matches!(
            Meld::new(MeldKind::Chi, &tiles("899s"), None),
            Err(MeldError::NotASequence(_))
        ));
        assert!(matches!(
            Meld::new(MeldKind::Pon, &tiles("556p"), None),
            Err(MeldError::NotCopies(_))
        ));
        assert!(Meld::new(MeldKind::Pon, &tiles("505p"), None).is_ok());
        // The chi shape alone, as the photo layout asks it of a meld's faces: any order, a
        // red five as its kind, three kinds exactly.
        let kinds = |s: &str| -> Vec<Kind> { tiles(s).iter().map(|t| t.kind()).collect() };
        assert!(is_sequence(&kinds("640p")) && is_sequence(&kinds("789m")));
        for not in ["799m", "891m", "567z", "45p", "3456s"] {
            assert!(!is_sequence(&kinds(not)), "{not}");
        }
        assert!(!is_sequence(&[]));
        assert!(matches!(
            Meld::new(MeldKind::OpenKan, &tiles("555p"), None),
            Err(MeldError::WrongSize { .. })
        ));
        assert_eq!(
            Meld::new(MeldKind::ClosedKan, &tiles("5555p"), Some(1)),
            Err(MeldError::ClosedKanCalled)
        );
    }

    #[test]
    fn called_tile_position_names_the_source() {
        assert_eq!(
            parse_meld("[5*55p]").unwrap().called_from(),
            Some(CalledFrom::Left)
        );
        assert_eq!(
            parse_meld("[55*5p]").unwrap().called_from(),
            Some(CalledFrom::Across)
        );
        assert_eq!(
            parse_meld("[555*p]").unwrap().called_from(),
            Some(CalledFrom::Right)
        );
        assert_eq!(
            parse_meld("[55*55p]").unwrap().called_from(),
            Some(CalledFrom::Across)
        );
        assert_eq!(parse_meld("[555p]").unwrap().called_from(), None);
    }

    #[test]
    fn hand_checks_count_copies_and_winning_tile() {
        let ok = Hand::new(tiles("123m456p789s11122z"), vec![], tiles("2z")[0]);
        assert!(ok.is_ok());
        assert!(matches!(
            Hand::new(tiles("123m456p789s1112z"), vec![], tiles("2z")[0]),
            Err(HandError::WrongTileCount { .. })
        ));
        assert!(matches!(
            Hand::new(tiles("11111m456p789s222z"), vec![], tiles("2z")[0]),
            Err(HandError::FifthCopy { .. })
        ));
        assert!(matches!(
            Hand::new(tiles("123m456p789s11122z"), vec![], tiles("3z")[0]),
            Err(HandError::WinNotInHand(_))
        ));
        let kan = parse_meld("(1111m)").unwrap();
        assert!(matches!(
            Hand::new(tiles("1m456p789s1122z"), vec![kan], tiles("2z")[0]),
            Err(HandError::FifthCopy { .. })
        ));
        let red = Hand::new(tiles("123m406p789s11122z"), vec![], tiles("5p")[0]);
        assert!(matches!(red, Err(HandError::WinNotInHand(_))));
    }
}
