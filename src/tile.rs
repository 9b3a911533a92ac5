//! Tiles: the 34 tile kinds, physical tiles (a kind plus the red-five flag) and winds.
//!
//! A [`Kind`] can only be built from a valid index or a valid suit/number pair, so every `Kind`
//! in the program names a real tile. A [`Tile`] is what a player holds: a kind that may be a red
//! five, and only a suited five can be red.

use std::fmt;

/// The four tile families.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Suit {
    /// Characters (man), notation `m`.
    Man,
    /// Circles (pin), notation `p`.
    Pin,
    /// Bamboo (sou), notation `s`.
    Sou,
    /// Winds and dragons, notation `z`.
    Honor,
}

impl Suit {
    /// The notation letter of the suit.
    pub fn letter(self) -> char {
        match self {
            Suit::Man => 'm',
            Suit::Pin => 'p',
            Suit::Sou => 's',
            Suit::Honor => 'z',
        }
    }

    /// The suit named by a notation letter.
    pub fn from_letter(c: char) -> Option<Suit> {
        match c {
            'm' => Some(Suit::Man),
            'p' => Some(Suit::Pin),
            's' => Some(Suit::Sou),
            'z' => Some(Suit::Honor),
            _ => None,
        }
    }

    fn offset(self) -> u8 {
        match self {
            Suit::Man => 0,
            Suit::Pin => 9,
            Suit::Sou => 18,
            Suit::Honor => 27,
        }
    }
}

/// One of the 34 tile kinds. Indices 0–8 are 1m–9m, 9–17 1p–9p, 18–26 1s–9s, 27–33 the honors
/// East, South, West, North, white, green, red dragon (the order of Tenhou's `1z`–`7z`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Kind(u8);

impl Kind {
    /// How many kinds there are.
    pub const COUNT: usize = 34;
    pub const EAST: Kind = Kind(27);
    pub const SOUTH: Kind = Kind(28);
    pub const WEST: Kind = Kind(29);
    pub const NORTH: Kind = Kind(30);
    /// White dragon (haku).
    pub const HAKU: Kind = Kind(31);
    /// Green dragon (hatsu).
    pub const HATSU: Kind = Kind(32);
    /// Red dragon (chun).
    pub const CHUN: Kind = Kind(33);

    /// The kind at `index` (0..34).
    pub const fn from_index(index: usize) -> Option<Kind> {
        if index < Self::COUNT {
            Some(Kind(index as u8))
        } else {
            None
        }
    }

    /// The kind with this suit and number (1–9 for suits, 1–7 for honors).
    pub fn new(suit: Suit, number: u8) -> Option<Kind> {
        let max = if suit == Suit::Honor { 7 } else { 9 };
        (1..=max)
            .contains(&number)
            .then(|| Kind(suit.offset() + number - 1))
    }

    /// All 34 kinds in index order.
    pub fn all() -> impl Iterator<Item = Kind> {
        (0..Self::COUNT as u8).map(Kind)
    }

    pub const fn index(self) -> usize {
        self.0 as usize
    }

    pub fn suit(self) -> Suit {
        match self.0 {
            0..=8 => Suit::Man,
            9..=17 => Suit::Pin,
            18..=26 => Suit::Sou,
            _ => Suit::Honor,
        }
    }

    /// 1–9 for suited tiles, 1–7 for honors.
    pub fn number(self) -> u8 {
        self.0 - self.suit().offset() + 1
    }

    pub fn is_honor(self) -> bool {
        self.0 >= 27
    }

    pub fn is_wind(self) -> bool {
        (27..=30).contains(&self.0)
    }

    pub fn is_dragon(self) -> bool {
        self.0 >= 31
    }

    /// A suited 1 or 9.
    pub fn is_terminal(self) -> bool {
        !self.is_honor() && matches!(self.number(), 1 | 9)
    }

    /// A terminal or an honor: the tiles tanyao forbids.
    pub fn is_terminal_or_honor(self) -> bool {
        self.is_honor() || self.is_terminal()
    }

    /// A suited 2–8.
    pub fn is_simple(self) -> bool {
        !self.is_terminal_or_honor()
    }

    /// The tiles allowed in ryuuiisou: 2, 3, 4, 6, 8 of bamboo and the green dragon.
    pub fn is_green(self) -> bool {
        self == Kind::HATSU
            || (self.suit() == Suit::Sou && matches!(self.number(), 2 | 3 | 4 | 6 | 8))
    }

    /// The kind `steps` further along its suit, if the suit has it (no wrapping).
    pub fn offset_in_suit(self, steps: u8) -> Option<Kind> {
        Kind::new(self.suit(), self.number() + steps)
    }

    /// The dora this kind indicates. Suits wrap 9→1, winds North→East, dragons red→white.
    /// In three-player games the man suit only has 1 and 9, so they indicate each other.
    pub fn dora_after(self, three_player: bool) -> Kind {
        let n = self.number();
        let next = match self.suit() {
            Suit::Man if three_player && (n == 1 || n == 9) => 10 - n,
            Suit::Honor if n <= 4 => n % 4 + 1,
            Suit::Honor => (n - 4) % 3 + 5,
            _ => n % 9 + 1,
        };
        Kind(self.suit().offset() + next - 1)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.number(), self.suit().letter())
    }
}

impl fmt::Debug for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A physical tile: a kind, possibly a red five. Only 5m, 5p and 5s can be red.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Tile {
    kind: Kind,
    red: bool,
}

impl Tile {
    /// A plain (non-red) tile of this kind.
    pub const fn plain(kind: Kind) -> Tile {
        Tile { kind, red: false }
    }

    /// The red five of `kind`'s suit, if `kind` is a suited five.
    pub fn red(kind: Kind) -> Option<Tile> {
        (!kind.is_honor() && kind.number() == 5).then_some(Tile { kind, red: true })
    }

    pub fn kind(self) -> Kind {
        self.kind
    }

    pub fn is_red(self) -> bool {
        self.red
    }
}

impl From<Kind> for Tile {
    fn from(kind: Kind) -> Tile {
        Tile::plain(kind)
    }
}

impl fmt::Display for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.red {
            write!(f, "0{}", self.kind.suit().letter())
        } else {
            fmt::Display::fmt(&self.kind, f)
        }
    }
}

impl fmt::Debug for Tile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl serde::Serialize for Tile {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// A wind: a seat or the round.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Wind {
    #[default]
    East,
    South,
    West,
    North,
}

impl Wind {
    pub const ALL: [Wind; 4] = [Wind::East, Wind::South, Wind::West, Wind::North];

    /// The honor tile of this wind.
    pub fn kind(self) -> Kind {
        Kind(27 + self as u8)
    }

    /// Parses `E`, `S`, `W`, `N` (any case) or the tiles `1z`–`4z`.
    pub fn parse(s: &str) -> Option<Wind> {
        match s.trim().to_ascii_uppercase().as_str() {
            "E" | "EAST" | "1Z" => Some(Wind::East),
            "S" | "SOUTH" | "2Z" => Some(Wind::South),
            "W" | "WEST" | "3Z" => Some(Wind::West),
            "N" | "NORTH" | "4Z" => Some(Wind::North),
            _ => None,
        }
    }

    pub fn letter(self) -> char {
        ['E', 'S', 'W', 'N'][self as usize]
    }

    /// The next wind in turn order (East → South → West → North → East).
    pub fn next(self) -> Wind {
        Wind::ALL[(self as usize + 1) % 4]
    }
}

impl fmt::Display for Wind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(s: Suit, n: u8) -> Kind {
        Kind::new(s, n).unwrap()
    }

    #[test]
    fn kinds_round_trip_through_suit_and_number() {
        for kind in Kind::all() {
            assert_eq!(Kind::new(kind.suit(), kind.number()), Some(kind));
        }
        assert_eq!(Kind::new(Suit::Honor, 8), None);
        assert_eq!(Kind::new(Suit::Man, 0), None);
        assert_eq!(Kind::from_index(34), None);
    }

    #[test]
    fn classification() {
        assert!(k(Suit::Man, 1).is_terminal());
        assert!(k(Suit::Sou, 5).is_simple());
        assert!(Kind::EAST.is_wind() && !Kind::EAST.is_dragon());
        assert!(Kind::CHUN.is_dragon() && Kind::CHUN.is_terminal_or_honor());
        assert!(k(Suit::Sou, 8).is_green() && !k(Suit::Sou, 5).is_green());
        assert!(Kind::HATSU.is_green() && !Kind::HAKU.is_green());
    }

    #[test]
    fn dora_indicators_wrap() {
        assert_eq!(k(Suit::Man, 9).dora_after(false), k(Suit::Man, 1));
        assert_eq!(k(Suit::Pin, 4).dora_after(false), k(Suit::Pin, 5));
        assert_eq!(Kind::NORTH.dora_after(false), Kind::EAST);
        assert_eq!(Kind::WEST.dora_after(false), Kind::NORTH);
        assert_eq!(Kind::CHUN.dora_after(false), Kind::HAKU);
        assert_eq!(Kind::HAKU.dora_after(false), Kind::HATSU);
        assert_eq!(k(Suit::Man, 1).dora_after(true), k(Suit::Man, 9));
        assert_eq!(k(Suit::Man, 9).dora_after(true), k(Suit::Man, 1));
    }

    #[test]
    fn only_suited_fives_are_red() {
        assert!(Tile::red(k(Suit::Pin, 5)).is_some());
        assert!(Tile::red(k(Suit::Pin, 4)).is_none());
        assert!(Tile::red(Kind::new(Suit::Honor, 5).unwrap()).is_none());
        assert_eq!(Tile::red(k(Suit::Sou, 5)).unwrap().to_string(), "0s");
    }

    #[test]
    fn winds() {
        assert_eq!(Wind::parse("s"), Some(Wind::South));
        assert_eq!(Wind::parse("4z"), Some(Wind::North));
        assert_eq!(Wind::parse("x"), None);
        assert_eq!(Wind::North.next(), Wind::East);
        assert_eq!(Wind::West.kind(), Kind::WEST);
    }
}
