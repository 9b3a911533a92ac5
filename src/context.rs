//! The circumstances of a win: how it was won, the riichi and timing flags, the winds, the
//! dora indicators and the sticks on the table. Everything the tiles alone do not tell.

use crate::tile::{Tile, Wind};

/// How the winning tile was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum WinMethod {
    /// On another player's discard (or a kan robbed for chankan).
    #[default]
    Ron,
    /// Self-drawn.
    Tsumo,
}

/// Whether, and how, the winner declared riichi.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Riichi {
    #[default]
    None,
    Riichi,
    /// Declared on the first uninterrupted discard.
    Double,
}

/// A win on the very first turn, before any call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum FirstTurn {
    #[default]
    None,
    /// The dealer's initial 14 tiles were complete.
    Tenhou,
    /// A non-dealer's first draw completed the hand.
    Chiihou,
    /// A non-dealer won on a discard before their first draw.
    Renhou,
}

/// Everything about a win besides the tiles.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct WinContext {
    pub method: WinMethod,
    pub riichi: Riichi,
    pub ippatsu: bool,
    /// Won on the last tile of the wall (tsumo).
    pub haitei: bool,
    /// Won on the last discard (ron).
    pub houtei: bool,
    /// Won on the replacement tile after a kan.
    pub rinshan: bool,
    /// Won by robbing a kan.
    pub chankan: bool,
    pub first_turn: FirstTurn,
    /// The winner's seat; East is the dealer.
    pub seat_wind: Wind,
    pub round_wind: Wind,
    pub dora_indicators: Vec<Tile>,
    /// Only counted with riichi.
    pub ura_indicators: Vec<Tile>,
    /// North tiles set aside in a three-player game (each is a dora).
    pub kita: u8,
    pub honba: u32,
    /// Riichi sticks on the table, collected by the winner.
    pub riichi_sticks: u32,
    /// The player who dealt in, for a ron; needed for wareme.
    pub discarder: Option<Wind>,
    /// The wareme seat when the `wareme` rule is on.
    pub wareme: Option<Wind>,
    /// A nagashi mangan at an exhaustive draw instead of a won hand.
    pub nagashi_mangan: bool,
}

impl WinContext {
    pub fn is_tsumo(&self) -> bool {
        self.method == WinMethod::Tsumo
    }

    pub fn is_dealer(&self) -> bool {
        self.seat_wind == Wind::East
    }

    pub fn has_riichi(&self) -> bool {
        self.riichi != Riichi::None
    }
}
