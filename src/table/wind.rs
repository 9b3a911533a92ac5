//! What the table needs from winds beyond the core's [`Wind`]: the full
//! English name used in labels (the core displays the letter), seat winds
//! from the dealer's seat, round progression (which does not wrap after
//! North), and the stored JSON form (`"east"`, ...).

use super::Seat;
use crate::tile::Wind;

/// "East", "South", "West" or "North" (the core's `Display` writes `E`, `S`, ...).
pub fn wind_name(wind: Wind) -> &'static str {
    match wind {
        Wind::East => "East",
        Wind::South => "South",
        Wind::West => "West",
        Wind::North => "North",
    }
}

/// The seat wind of `seat` in a hand dealt by `dealer` at a table of
/// `players` (3 or 4): the dealer is East, the next player South, and so on.
pub fn seat_wind(seat: Seat, dealer: Seat, players: usize) -> Wind {
    let n = players.clamp(1, 4);
    Wind::ALL[(seat.index() + n - dealer.index() % n) % n]
}

/// The round after `round`, or `None` after North (unlike [`Wind::next`],
/// rounds do not wrap around).
pub fn next_round(round: Wind) -> Option<Wind> {
    (round != Wind::North).then(|| round.next())
}

/// Serde `with` module for a [`Wind`] stored as its lowercase name
/// (`"east"`, `"south"`, `"west"`, `"north"`): the format the table has
/// always written. Reading also accepts what [`Wind::parse`] accepts.
pub mod lowercase {
    use super::wind_name;
    use crate::tile::Wind;
    use serde::{de, Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(wind: &Wind, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&wind_name(*wind).to_ascii_lowercase())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Wind, D::Error> {
        let text = String::deserialize(d)?;
        Wind::parse(&text).ok_or_else(|| {
            de::Error::invalid_value(
                de::Unexpected::Str(&text),
                &"a wind: east, south, west or north",
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_seats_and_rounds() {
        assert_eq!(wind_name(Wind::North), "North");
        let s = |i| Seat::new(i).unwrap();
        assert_eq!(seat_wind(s(0), s(0), 4), Wind::East);
        assert_eq!(seat_wind(s(0), s(1), 4), Wind::North);
        assert_eq!(seat_wind(s(0), s(1), 3), Wind::West);
        assert_eq!(seat_wind(s(2), s(1), 3), Wind::South);
        assert_eq!(next_round(Wind::East), Some(Wind::South));
        assert_eq!(next_round(Wind::West), Some(Wind::North));
        assert_eq!(next_round(Wind::North), None);
    }

    #[test]
    fn stored_as_lowercase_names() {
        #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
        struct W(#[serde(with = "lowercase")] Wind);
        for w in Wind::ALL {
            let json = serde_json::to_string(&W(w)).unwrap();
            assert_eq!(json, format!("\"{}\"", wind_name(w).to_ascii_lowercase()));
            assert_eq!(serde_json::from_str::<W>(&json).unwrap(), W(w));
        }
        assert!(serde_json::from_str::<W>("\"up\"").is_err());
    }
}
