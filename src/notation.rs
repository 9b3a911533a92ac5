//! Tenhou-style text notation for tiles, melds and hands, parsing and formatting.
//!
//! - Tiles: digits followed by a suit letter, `123m456p789s1122z`; `0` is the red five of a
//!   suit; honors are `1z`–`7z` (East, South, West, North, white, green, red) or the capital
//!   letters `E S W N` and `P F C` (white, green, red: *haku/Pai*, *Fa*, *Chun*).
//! - Melds: `[123m]` chi, `[555p]` pon, `[5555p]` open kan, `(5555p)` closed kan, `{5555p}`
//!   added kan. A `*` after a tile marks the sideways (called) tile: `[3*45s]`, `[55*5p]`.
//! - Hands: concealed tiles and melds separated by spaces, `123m456p11z [789s] (5555p)`.
//!
//! Formatting writes tiles in the order given, grouping runs of one suit, so parsing a
//! formatted value gives back the same value.

use crate::hand::{Meld, MeldError, MeldKind};
use crate::tile::{Kind, Suit, Tile};
use thiserror::Error;

/// What is wrong with a piece of notation.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum NotationError {
    #[error("unexpected character {ch:?} at position {at} in {text:?}")]
    UnexpectedChar { ch: char, at: usize, text: String },
    #[error("digits {digits:?} have no suit letter (m, p, s or z) after them in {text:?}")]
    MissingSuit { digits: String, text: String },
    #[error("{digit}{suit} is not a tile (honors are 1z-7z, red fives are 0m, 0p, 0s)")]
    NotATile { digit: char, suit: char },
    #[error("meld {text:?} is not closed with {close:?}")]
    UnclosedMeld { text: String, close: char },
    #[error("bad meld {text:?}: {source}")]
    BadMeld {
        text: String,
        #[source]
        source: MeldError,
    },
    #[error("meld {text:?} must have 3 or 4 tiles")]
    MeldSize { text: String },
    #[error("more than one tile is marked as called in {text:?}")]
    TwoCalledTiles { text: String },
    #[error("empty notation")]
    Empty,
    #[error("expected exactly one tile, found {found} in {text:?}")]
    NotOneTile { found: usize, text: String },
}

/// A parsed hand string: concealed tiles and melds, in the order written.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ParsedHand {
    pub tiles: Vec<Tile>,
    pub melds: Vec<Meld>,
}

fn honor_letter(c: char) -> Option<Kind> {
    let n = match c {
        'E' => 1,
        'S' => 2,
        'W' => 3,
        'N' => 4,
        'P' => 5,
        'F' => 6,
        'C' => 7,
        _ => return None,
    };
    Kind::new(Suit::Honor, n)
}

fn make_tile(digit: char, suit: Suit) -> Result<Tile, NotationError> {
    let bad = || NotationError::NotATile {
        digit,
        suit: suit.letter(),
    };
    let n = digit.to_digit(10).ok_or_else(bad)? as u8;
    if n == 0 {
        Kind::new(suit, 5).and_then(Tile::red).ok_or_else(bad)
    } else {
        Kind::new(suit, n).map(Tile::plain).ok_or_else(bad)
    }
}

/// Parses tiles, keeping whether each was marked with `*`.
fn parse_marked(text: &str) -> Result<Vec<(Tile, bool)>, NotationError> {
    let mut out: Vec<(Tile, bool)> = Vec::new();
    // Digits waiting for their suit letter, with their `*` marks.
    let mut pending: Vec<(char, bool)> = Vec::new();
    let mut marked_honor: Option<usize> = None;
    for (at, ch) in text.char_indices() {
        match ch {
            '0'..='9' => pending.push((ch, false)),
            '*' => match (pending.last_mut(), marked_honor) {
                (Some(last), _) => last.1 = true,
                (None, Some(i)) => out[i] = (out[i].0, true),
                (None, None) => {
                    return Err(NotationError::UnexpectedChar {
                        ch,
                        at,
                        text: text.to_string(),
                    })
                }
            },
            c if c.is_whitespace() => {}
            c => {
                marked_honor = None;
                if let Some(suit) = Suit::from_letter(c) {
                    if pending.is_empty() {
                        return Err(NotationError::UnexpectedChar {
                            ch,
                            at,
                            text: text.to_string(),
                        });
                    }
                    for (digit, mark) in pending.drain(..) {
                        out.push((make_tile(digit, suit)?, mark));
                    }
                } else if let (Some(kind), true) = (honor_letter(c), pending.is_empty()) {
                    out.push((Tile::plain(kind), false));
                    marked_honor = Some(out.len() - 1);
                } else {
                    return Err(NotationError::UnexpectedChar {
                        ch,
                        at,
                        text: text.to_string(),
                    });
                }
            }
        }
    }
    if !pending.is_empty() {
        return Err(NotationError::MissingSuit {
            digits: pending.iter().map(|p| p.0).collect(),
            text: text.to_string(),
        });
    }
    Ok(out)
}

/// Parses a run of tiles such as `123m0p77z` or `EESP`. An empty string gives no tiles.
pub fn parse_tiles(text: &str) -> Result<Vec<Tile>, NotationError> {
    let marked = parse_marked(text)?;
    if let Some(at) = text.find('*') {
        return Err(NotationError::UnexpectedChar {
            ch: '*',
            at,
            text: text.to_string(),
        });
    }
    Ok(marked.into_iter().map(|(t, _)| t).collect())
}

/// Parses exactly one tile, such as `5p`, `0s` or `C`.
pub fn parse_tile(text: &str) -> Result<Tile, NotationError> {
    let tiles = parse_tiles(text)?;
    match tiles.as_slice() {
        [tile] => Ok(*tile),
        _ => Err(NotationError::NotOneTile {
            found: tiles.len(),
            text: text.to_string(),
        }),
    }
}

/// Parses one meld in brackets: `[123m]`, `[555p]`, `[5555p]`, `(5555p)`, `{5555p}`.
pub fn parse_meld(text: &str) -> Result<Meld, NotationError> {
    let text = text.trim();
    let mut chars = text.chars();
    let (open, close) = match chars.next() {
        Some('[') => ('[', ']'),
        Some('(') => ('(', ')'),
        Some('{') => ('{', '}'),
        Some(ch) => {
            return Err(NotationError::UnexpectedChar {
                ch,
                at: 0,
                text: text.to_string(),
            })
        }
        None => return Err(NotationError::Empty),
    };
    if !text.ends_with(close) || text.len() < 2 {
        return Err(NotationError::UnclosedMeld {
            text: text.to_string(),
            close,
        });
    }
    let inner = &text[1..text.len() - 1];
    let marked = parse_marked(inner)?;
    let tiles: Vec<Tile> = marked.iter().map(|m| m.0).collect();
    let called: Vec<usize> = marked
        .iter()
        .enumerate()
        .filter(|(_, m)| m.1)
        .map(|(i, _)| i)
        .collect();
    if called.len() > 1 {
        return Err(NotationError::TwoCalledTiles {
            text: text.to_string(),
        });
    }
    let kind = match (open, tiles.len()) {
        ('(', _) => MeldKind::ClosedKan,
        ('{', _) => MeldKind::AddedKan,
        (_, 4) => MeldKind::OpenKan,
        (_, 3) if tiles.iter().all(|t| t.kind() == tiles[0].kind()) => MeldKind::Pon,
        (_, 3) => MeldKind::Chi,
        _ => {
            return Err(NotationError::MeldSize {
                text: text.to_string(),
            })
        }
    };
    Meld::new(kind, &tiles, called.first().copied()).map_err(|source| NotationError::BadMeld {
        text: text.to_string(),
        source,
    })
}

/// Parses a hand: concealed tiles and bracketed melds, in any order, spaces optional.
pub fn parse_hand(text: &str) -> Result<ParsedHand, NotationError> {
    let mut hand = ParsedHand::default();
    let mut rest = text;
    let mut offset = 0;
    while !rest.is_empty() {
        let start = rest.find(['[', '(', '{']).unwrap_or(rest.len());
        hand.tiles.extend(parse_tiles(&rest[..start])?);
        if start == rest.len() {
            break;
        }
        let close = match rest.as_bytes()[start] {
            b'[' => ']',
            b'(' => ')',
            _ => '}',
        };
        let end = rest[start..]
            .find(close)
            .ok_or_else(|| NotationError::UnclosedMeld {
                text: text[offset + start..].to_string(),
                close,
            })?;
        hand.melds.push(parse_meld(&rest[start..=start + end])?);
        offset += start + end + 1;
        rest = &rest[start + end + 1..];
    }
    if hand.tiles.is_empty() && hand.melds.is_empty() {
        return Err(NotationError::Empty);
    }
    Ok(hand)
}

fn digit(tile: Tile) -> char {
    if tile.is_red() {
        '0'
    } else {
        char::from(b'0' + tile.kind().number())
    }
}

fn write_grouped(out: &mut String, tiles: &[Tile], called: Option<usize>) {
    for (i, tile) in tiles.iter().enumerate() {
        out.push(digit(*tile));
        if called == Some(i) {
            out.push('*');
        }
        let suit = tile.kind().suit();
        if tiles.get(i + 1).map(|t| t.kind().suit()) != Some(suit) {
            out.push(suit.letter());
        }
    }
}

/// Formats tiles in the order given: `[1m, 2m, 5z]` → `12m5z`.
pub fn format_tiles(tiles: &[Tile]) -> String {
    let mut out = String::with_capacity(tiles.len() + 4);
    write_grouped(&mut out, tiles, None);
    out
}

/// Formats a meld in the notation [`parse_meld`] reads.
pub fn format_meld(meld: &Meld) -> String {
    let (open, close) = match meld.kind() {
        MeldKind::ClosedKan => ('(', ')'),
        MeldKind::AddedKan => ('{', '}'),
        _ => ('[', ']'),
    };
    let mut out = String::with_capacity(10);
    out.push(open);
    write_grouped(&mut out, meld.tiles(), meld.called_index());
    out.push(close);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_tiles_and_red_fives() {
        let tiles = parse_tiles("123m0p77z").unwrap();
        assert_eq!(tiles.len(), 6);
        assert!(tiles[3].is_red());
        assert_eq!(tiles[3].kind(), Kind::new(Suit::Pin, 5).unwrap());
        assert_eq!(tiles[5].kind(), Kind::CHUN);
        assert_eq!(format_tiles(&tiles), "123m0p77z");
    }

    #[test]
    fn honor_letters() {
        let tiles = parse_tiles("ESWNPFC").unwrap();
        assert_eq!(format_tiles(&tiles), "1234567z");
        assert_eq!(parse_tile("P").unwrap().kind(), Kind::HAKU);
        // Lower-case p is the pin suit, not the white dragon.
        assert!(parse_tile("p").is_err());
    }

    #[test]
    fn errors_name_the_problem() {
        assert!(matches!(
            parse_tiles("123"),
            Err(NotationError::MissingSuit { .. })
        ));
        assert!(matches!(
            parse_tiles("8z"),
            Err(NotationError::NotATile { .. })
        ));
        assert!(matches!(
            parse_tiles("0z"),
            Err(NotationError::NotATile { .. })
        ));
        assert!(matches!(
            parse_tiles("12x"),
            Err(NotationError::UnexpectedChar { ch: 'x', .. })
        ));
        assert!(matches!(
            parse_tiles("m"),
            Err(NotationError::UnexpectedChar { .. })
        ));
        assert!(matches!(
            parse_tiles("1E"),
            Err(NotationError::UnexpectedChar { .. })
        ));
        assert!(matches!(
            parse_tile("12m"),
            Err(NotationError::NotOneTile { found: 2, .. })
        ));
        assert!(matches!(
            parse_meld("[123m"),
            Err(NotationError::UnclosedMeld { .. })
        ));
        assert!(matches!(
            parse_meld("[12m]"),
            Err(NotationError::MeldSize { .. })
        ));
        assert!(matches!(
            parse_meld("[1*2*3m]"),
            Err(NotationError::TwoCalledTiles { .. })
        ));
        assert!(matches!(
            parse_meld("[124m]"),
            Err(NotationError::BadMeld { .. })
        ));
        assert!(matches!(parse_hand("  "), Err(NotationError::Empty)));
        assert!(matches!(
            parse_hand("123m [456p"),
            Err(NotationError::UnclosedMeld { .. })
        ));
    }

    #[test]
    fn meld_kinds_from_brackets() {
        assert_eq!(parse_meld("[123m]").unwrap().kind(), MeldKind::Chi);
        assert_eq!(parse_meld("[555p]").unwrap().kind(), MeldKind::Pon);
        assert_eq!(parse_meld("[5555p]").unwrap().kind(), MeldKind::OpenKan);
        assert_eq!(parse_meld("(5555p)").unwrap().kind(), MeldKind::ClosedKan);
        assert_eq!(parse_meld("{5555p}").unwrap().kind(), MeldKind::AddedKan);
        assert_eq!(parse_meld("[EEE]").unwrap().kind(), MeldKind::Pon);
        assert_eq!(parse_meld("[E*EE]").unwrap().called_index(), Some(0));
    }

    #[test]
    fn hands_round_trip() {
        for text in [
            "123m456p11z [789s] (5555p)",
            "1122z [3*45s] {55*05p} [0*55m]",
            "19m19p19s1234567z",
            "406m",
        ] {
            let hand = parse_hand(text).unwrap();
            let mut again = format_tiles(&hand.tiles);
            for meld in &hand.melds {
                again.push(' ');
                again.push_str(&format_meld(meld));
            }
            assert_eq!(parse_hand(&again).unwrap(), hand, "{text} -> {again}");
        }
        let hand = parse_hand("[789s]123m(5555p)").unwrap();
        assert_eq!(hand.tiles.len(), 3);
        assert_eq!(hand.melds.len(), 2);
    }
}
