//! riichi-lens: reads a photo of a winning Riichi mahjong hand and scores it exactly.
//!
//! The scoring core is pure Rust with no I/O:
//!
//! ```
//! use riichi_lens::{score, Hand, Rules, WinContext, WinMethod};
//! use riichi_lens::notation::{parse_hand, parse_tile};
//!
//! let parsed = parse_hand("234m567p22s345678s").unwrap();
//! let hand = Hand::new(parsed.tiles, parsed.melds, parse_tile("8s").unwrap()).unwrap();
//! let ctx = WinContext { method: WinMethod::Tsumo, ..WinContext::default() };
//! let result = score(&hand, &ctx, &Rules::default()).unwrap();
//! assert_eq!((result.han, result.fu), (3, 20)); // menzen tsumo, pinfu, tanyao
//! ```

pub mod app;
pub mod batch;
pub mod capture;
pub mod context;
pub mod fu;
pub mod hand;
pub mod jsonl;
pub mod notation;
pub mod overlay;
pub mod payment;
pub mod rules;
pub mod score;
pub mod shape;
pub mod table;
pub mod tile;
pub mod vision;
pub mod yaku;

pub use context::{FirstTurn, Riichi, WinContext, WinMethod};
pub use hand::{Hand, Meld, MeldKind};
pub use rules::{Preset, Rules};
pub use score::{score, Score, ScoreError};
pub use tile::{Kind, Suit, Tile, Wind};
