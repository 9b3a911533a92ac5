//! The JSON interface of the scorer: a request object (one line of `score --jsonl` input)
//! turned into a hand, a win context and rules, and a result or error object back.
//!
//! No I/O here: the binary reads lines and writes what [`score_line`] returns.

use crate::context::{FirstTurn, Riichi, WinContext, WinMethod};
use crate::hand::Hand;
use crate::notation::{parse_hand, parse_meld, parse_tile, parse_tiles, NotationError, ParsedHand};
use crate::rules::{Rules, RulesError};
use crate::score::{score, Score, ScoreError};
use crate::shape::completing_tiles;
use crate::tile::{Tile, Wind};
use serde::Deserialize;
use serde_json::{json, Value};
use thiserror::Error;

/// One scoring request. Field names are the JSON keys; every field but `hand` is optional.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Request {
    /// Concealed tiles including the winning tile; melds may also be written inline.
    pub hand: String,
    pub melds: Vec<String>,
    /// The winning tile; defaults to the last concealed tile of `hand`.
    pub win: Option<String>,
    pub tsumo: bool,
    pub riichi: bool,
    pub double_riichi: bool,
    pub ippatsu: bool,
    pub haitei: bool,
    pub houtei: bool,
    pub rinshan: bool,
    pub chankan: bool,
    pub tenhou: bool,
    pub chiihou: bool,
    pub renhou: bool,
    pub nagashi_mangan: bool,
    pub seat_wind: Option<String>,
    pub round_wind: Option<String>,
    pub dora_indicators: Tiles,
    pub ura_indicators: Tiles,
    pub honba: u32,
    pub riichi_sticks: u32,
    pub kita: u8,
    /// The discarder's seat on a ron (for wareme and per-payer output).
    pub discarder: Option<String>,
    /// The wareme seat, when the wareme rule is on.
    pub wareme: Option<String>,
    /// A preset name, or an object with `preset` and switch overrides.
    pub rules: Value,
}

/// Tiles given as one notation string (`"3m7z"`) or a list of strings (`["3m", "7z"]`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(untagged)]
pub enum Tiles {
    // Untagged variants are tried in order: the common case goes first.
    Text(String),
    List(Vec<String>),
    #[default]
    None,
}

impl Tiles {
    fn parse(&self) -> Result<Vec<Tile>, NotationError> {
        match self {
            Tiles::None => Ok(Vec::new()),
            Tiles::Text(text) => parse_tiles(text),
            Tiles::List(items) => {
                let mut out = Vec::new();
                for item in items {
                    out.extend(parse_tiles(item)?);
                }
                Ok(out)
            }
        }
    }
}

/// Why a request could not be scored.
#[derive(Debug, Error)]
pub enum RequestError {
    #[error("invalid JSON: {0}")]
    Json(#[from] serde_json::Error),
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("{field}: {message}")]
    Field {
        field: &'static str,
        message: String,
    },
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Score(#[from] ScoreError),
}

impl RequestError {
    /// A stable snake_case name for the error object's `kind`.
    pub fn kind(&self) -> &'static str {
        match self {
            RequestError::Json(_) => "invalid_json",
            RequestError::Notation(_) => "notation",
            RequestError::Field { .. } => "bad_field",
            RequestError::Rules(_) => "rules",
            RequestError::Score(e) => e.kind(),
        }
    }

    /// `{"error": message, "kind": kind}`.
    pub fn to_json(&self) -> Value {
        json!({"error": self.to_string(), "kind": self.kind()})
    }
}

fn wind(field: &'static str, value: &Option<String>) -> Result<Option<Wind>, RequestError> {
    value
        .as_deref()
        .map(|text| {
            Wind::parse(text).ok_or_else(|| RequestError::Field {
                field,
                message: format!("{text:?} is not a wind (E, S, W or N)"),
            })
        })
        .transpose()
}

fn bad(field: &'static str, message: &str) -> RequestError {
    RequestError::Field {
        field,
        message: message.to_string(),
    }
}

impl Request {
    /// Builds the scorer's inputs from the request.
    pub fn build(&self) -> Result<(Hand, WinContext, Rules), RequestError> {
        let parsed = self.tiles()?;
        let win = match &self.win {
            Some(text) => parse_tile(text)?,
            None => *parsed
                .tiles
                .last()
                .ok_or_else(|| bad("hand", "no concealed tiles"))?,
        };
        let rules = Rules::from_json(&self.rules)?;
        let first_turn = match (self.tenhou, self.chiihou, self.renhou) {
            (false, false, false) => FirstTurn::None,
            (true, false, false) => FirstTurn::Tenhou,
            (false, true, false) => FirstTurn::Chiihou,
            (false, false, true) => FirstTurn::Renhou,
            _ => return Err(bad("tenhou", "only one of tenhou, chiihou and renhou")),
        };
        let ctx = WinContext {
            method: if self.tsumo {
                WinMethod::Tsumo
            } else {
                WinMethod::Ron
            },
            riichi: match (self.riichi, self.double_riichi) {
                (_, true) => Riichi::Double,
                (true, _) => Riichi::Riichi,
                _ => Riichi::None,
            },
            ippatsu: self.ippatsu,
            haitei: self.haitei,
            houtei: self.houtei,
            rinshan: self.rinshan,
            chankan: self.chankan,
            first_turn,
            seat_wind: wind("seat_wind", &self.seat_wind)?.unwrap_or_default(),
            round_wind: wind("round_wind", &self.round_wind)?.unwrap_or_default(),
            dora_indicators: self.dora_indicators.parse()?,
            ura_indicators: self.ura_indicators.parse()?,
            kita: self.kita,
            honba: self.honba,
            riichi_sticks: self.riichi_sticks,
            discarder: wind("discarder", &self.discarder)?,
            wareme: wind("wareme", &self.wareme)?,
            nagashi_mangan: self.nagashi_mangan,
        };
        let hand = Hand::new(parsed.tiles, parsed.melds, win).map_err(ScoreError::from)?;
        Ok((hand, ctx, rules))
    }

    /// The concealed tiles of `hand` and the melds of `hand` and `melds` together.
    fn tiles(&self) -> Result<ParsedHand, NotationError> {
        let mut parsed = parse_hand(&self.hand)?;
        for meld in &self.melds {
            parsed.melds.push(parse_meld(meld)?);
        }
        Ok(parsed)
    }

    /// Builds and scores.
    pub fn score(&self) -> Result<Score, RequestError> {
        let (hand, ctx, rules) = self.build()?;
        Ok(score(&hand, &ctx, &rules)?)
    }

    /// For a hand given a tile short (most often typed without its winning tile), the tiles
    /// that would complete it (see [`completing_tiles`]); empty otherwise, or when the tiles
    /// do not parse.
    pub fn completing_tiles(&self) -> Vec<Tile> {
        match (self.tiles(), self.dora_indicators.parse()) {
            (Ok(parsed), Ok(dora)) => completing_tiles(&parsed.tiles, &parsed.melds, &dora),
            _ => Vec::new(),
        }
    }

    /// `error`'s message for this request: for a hand a tile short, with the tiles that would
    /// complete it ("…; one tile short: 2m or 5m would complete it").
    pub fn error_message(&self, error: &RequestError) -> String {
        message(error, &self.completing_after(error))
    }

    /// The error object of `error` for this request: `{"error", "kind"}` (see
    /// [`RequestError::to_json`]) with [`Request::error_message`], and for a hand a tile short
    /// `completing`, the tiles that would complete it.
    pub fn error_json(&self, error: &RequestError) -> Value {
        let tiles = self.completing_after(error);
        let mut out = json!({"error": message(error, &tiles), "kind": error.kind()});
        if !tiles.is_empty() {
            out["completing"] = tiles.iter().map(Tile::to_string).collect();
        }
        out
    }

    /// [`Request::completing_tiles`] when `error` says the hand has too few tiles.
    fn completing_after(&self, error: &RequestError) -> Vec<Tile> {
        if error.kind() == "wrong_tile_count" {
            self.completing_tiles()
        } else {
            Vec::new()
        }
    }
}

/// `error`'s message, with the tiles that would complete a hand a tile short when there are any.
fn message(error: &RequestError, completing: &[Tile]) -> String {
    match either(completing) {
        Some(tiles) => format!("{error}; one tile short: {tiles} would complete it"),
        None => error.to_string(),
    }
}

/// Tiles as a choice, "2m or 5m"; `None` for none.
pub fn either(tiles: &[Tile]) -> Option<String> {
    let names: Vec<String> = tiles.iter().map(Tile::to_string).collect();
    (!names.is_empty()).then(|| names.join(" or "))
}

/// Scores one JSON line, returning the result or error object as one line of JSON.
pub fn score_line(line: &str) -> String {
    let request = match serde_json::from_str::<Request>(line) {
        Ok(request) => request,
        Err(e) => return RequestError::from(e).to_json().to_string(),
    };
    match request.score() {
        Ok(score) => serde_json::to_string(&score).unwrap_or_else(|e| {
            json!({"error": format!("could not encode the result: {e}"), "kind": "internal"})
                .to_string()
        }),
        Err(error) => request.error_json(&error).to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(line: &str) -> Value {
        serde_json::from_str(&score_line(line)).unwrap()
    }

    #[test]
    fn a_hand_a_tile_short_names_the_tiles_that_would_complete_it() {
        let out = parse(r#"{"hand": "123m456p789s1155z"}"#);
        assert_eq!(out["kind"], "wrong_tile_count");
        assert_eq!(out["completing"], json!(["1z", "5z"]));
        let message = out["error"].as_str().unwrap();
        assert!(
            message.ends_with("found 13; one tile short: 1z or 5z would complete it"),
            "{message}"
        );
        // With melds and dora indicators: the four 4m shown leave the 1m alone.
        let out = parse(
            r#"{"hand": "23m456p11z", "melds": ["[789s]", "[1*23p]"], "dora_indicators": "4444m"}"#,
        );
        assert_eq!(out["completing"], json!(["1m"]));
        // Two tiles short, or a wrong tile count the other way: no hint.
        for line in [
            r#"{"hand": "123m456p789s115z"}"#,
            r#"{"hand": "123m456p789s111555z"}"#,
        ] {
            let out = parse(line);
            assert_eq!(out["kind"], "wrong_tile_count");
            assert!(out.get("completing").is_none(), "{out}");
            assert!(!out["error"].as_str().unwrap().contains("one tile short"));
        }
    }

    #[test]
    fn scores_a_line() {
        let out = parse(
            r#"{"hand": "123m456p789s33344z", "win": "4z", "riichi": true, "seat_wind": "S"}"#,
        );
        assert_eq!(out["han"], 1);
        assert_eq!(out["fu"], 40);
        assert_eq!(out["yaku"][0]["name"], "riichi");
        assert_eq!(out["points"]["ron"], 1300);
        assert_eq!(out["points"]["total"], 1300);
        assert!(out["limit"].is_null());
    }

    #[test]
    fn errors_are_objects_with_a_kind() {
        let cases = [
            ("not json", "invalid_json"),
            (r#"{"hand": "123x"}"#, "notation"),
            (r#"{"hand": "123m"}"#, "wrong_tile_count"),
            (r#"{"hand": "123m456p789s11223z"}"#, "not_complete"),
            (
                r#"{"hand": "123m456p789s33344z", "win": "4z", "seat_wind": "S"}"#,
                "no_yaku",
            ),
            (
                r#"{"hand": "123m456p789s11122z", "win": "2z", "ippatsu": true}"#,
                "impossible_conditions",
            ),
            (
                r#"{"hand": "123m456p789s11122z", "win": "2z", "riichi": true, "rules": "nope"}"#,
                "rules",
            ),
            (
                r#"{"hand": "123m456p789s11122z", "win": "2z", "seat_wind": "X"}"#,
                "bad_field",
            ),
            (r#"{"hand": "123m", "bogus": 1}"#, "invalid_json"),
        ];
        for (line, kind) in cases {
            let out = parse(line);
            assert_eq!(out["kind"], kind, "{line}: {out}");
            assert!(out["error"].as_str().is_some_and(|e| !e.is_empty()));
        }
    }

    #[test]
    fn indicators_as_string_or_list() {
        let a = parse(
            r#"{"hand": "234m567p22s345678s", "win": "8s", "tsumo": true, "dora_indicators": "1m4p"}"#,
        );
        let b = parse(
            r#"{"hand": "234m567p22s345678s", "win": "8s", "tsumo": true, "dora_indicators": ["1m", "4p"]}"#,
        );
        assert_eq!(a, b);
        assert_eq!(a["han"], 5);
    }
}
