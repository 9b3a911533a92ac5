//! Rule switches and the named presets built from them.
//!
//! A [`Rules`] value is a flat set of switches. Presets ([`Preset`]) are documented starting
//! points; any switch can be overridden on top of one (from JSON, see [`Rules::with_overrides`]).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;
use thiserror::Error;

/// What 13 or more han without a yakuman are worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kazoe {
    /// Counted yakuman (kazoe yakuman).
    Yakuman,
    /// Capped at sanbaiman.
    Sanbaiman,
}

/// How renhou (a non-dealer's ron before their first draw) is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Renhou {
    /// Not a yaku.
    Off,
    /// A 5-han yaku, so the hand is at least mangan.
    Mangan,
    /// A yakuman.
    Yakuman,
}

/// How a three-player game shares a tsumo among two payers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SanmaTsumo {
    /// The absent North's share is simply not paid (tsumo-son).
    Loss,
    /// The absent North's share is split between the two payers (North bisection).
    Split,
}

/// Every switch the scorer honours. Field names are the JSON override keys.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Rules {
    /// Tanyao counts in an open hand (kuitan).
    pub open_tanyao: bool,
    /// Red fives in the set, per suit (man, pin, sou); each is a dora. `[0, 0, 0]` scores red
    /// tiles as plain fives.
    pub red_fives: [u8; 3],
    /// Kan dora indicators are used (the caller supplies them with the other indicators).
    pub kan_dora: bool,
    /// Ura dora count for a riichi hand.
    pub ura_dora: bool,
    /// 13+ han without a yakuman.
    pub kazoe: Kazoe,
    /// 4 han 30 fu and 3 han 60 fu are rounded up to mangan.
    pub kiriage: bool,
    /// No limits: base points grow without cap, a yakuman adds 13 han.
    pub aotenjou: bool,
    /// Kokushi 13-sided wait, suuankou tanki, pure nine-sided chuuren and daisuushii are worth
    /// two yakuman.
    pub double_yakuman: bool,
    /// Several yakuman in one hand add up; when false, a hand is worth at most one yakuman.
    pub yakuman_stacking: bool,
    /// Renhou's value.
    pub renhou: Renhou,
    /// Fu for a pair of a wind that is both seat and round wind (2 or 4).
    pub double_wind_pair_fu: u8,
    /// Kansai rule: chiitoitsu is 1 han 50 fu instead of 2 han 25 fu.
    pub chiitoitsu_50_fu: bool,
    /// Regional rule: 8–9 han are baiman and 10 han is already sanbaiman.
    pub sanbaiman_from_10_han: bool,
    /// Points per honba counter for a win (300 by default; each tsumo payer pays its share).
    pub honba_value: u32,
    /// Wareme: payments to or from the wareme seat are doubled.
    pub wareme: bool,
    /// Nagashi mangan is recognised.
    pub nagashi_mangan: bool,
    /// Number of players: 4, or 3 for sanma (no 2m–8m; North tiles set aside as dora).
    pub players: u8,
    /// Three-player tsumo payments.
    pub sanma_tsumo: SanmaTsumo,
}

impl Default for Rules {
    fn default() -> Rules {
        Preset::Tenhou.rules()
    }
}

/// The named rule sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Preset {
    /// Tenhou ranked games: open tanyao, one red five per suit, counted yakuman, no double
    /// yakuman, no kiriage, no renhou.
    Tenhou,
    /// Mahjong Soul: as Tenhou, with double yakuman for the four special waits/hands.
    Mahjongsoul,
    /// World Riichi Championship: no red fives, kiriage mangan, 13+ han capped at sanbaiman,
    /// no double yakuman, no renhou.
    Wrc,
    /// European Mahjong Association riichi rules: no red fives, no kiriage, 13+ han capped at
    /// sanbaiman, no double yakuman, no nagashi mangan, no renhou.
    Ema,
    /// Three-player Tenhou-style game: 2m–8m removed, North tiles are dora, tsumo loss.
    Sanma,
}

impl Preset {
    pub const ALL: [Preset; 5] = [
        Preset::Tenhou,
        Preset::Mahjongsoul,
        Preset::Wrc,
        Preset::Ema,
        Preset::Sanma,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Preset::Tenhou => "tenhou",
            Preset::Mahjongsoul => "mahjongsoul",
            Preset::Wrc => "wrc",
            Preset::Ema => "ema",
            Preset::Sanma => "sanma",
        }
    }

    /// The switches of this preset.
    pub fn rules(self) -> Rules {
        let tenhou = Rules {
            open_tanyao: true,
            red_fives: [1, 1, 1],
            kan_dora: true,
            ura_dora: true,
            kazoe: Kazoe::Yakuman,
            kiriage: false,
            aotenjou: false,
            double_yakuman: false,
            yakuman_stacking: true,
            renhou: Renhou::Off,
            double_wind_pair_fu: 4,
            chiitoitsu_50_fu: false,
            sanbaiman_from_10_han: false,
            honba_value: 300,
            wareme: false,
            nagashi_mangan: true,
            players: 4,
            sanma_tsumo: SanmaTsumo::Loss,
        };
        match self {
            Preset::Tenhou => tenhou,
            Preset::Mahjongsoul => Rules {
                double_yakuman: true,
                ..tenhou
            },
            Preset::Wrc => Rules {
                red_fives: [0, 0, 0],
                kazoe: Kazoe::Sanbaiman,
                kiriage: true,
                double_wind_pair_fu: 2,
                ..tenhou
            },
            Preset::Ema => Rules {
                red_fives: [0, 0, 0],
                kazoe: Kazoe::Sanbaiman,
                double_wind_pair_fu: 2,
                nagashi_mangan: false,
                ..tenhou
            },
            Preset::Sanma => Rules {
                red_fives: [0, 1, 1],
                players: 3,
                ..tenhou
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A rule set that could not be built.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RulesError {
    #[error("unknown rule preset {0:?} (known: tenhou, mahjongsoul, wrc, ema, sanma)")]
    UnknownPreset(String),
    #[error("bad rule override: {0}")]
    BadOverride(String),
    #[error("invalid rules: {0}")]
    Invalid(&'static str),
}

impl FromStr for Preset {
    type Err = RulesError;

    fn from_str(s: &str) -> Result<Preset, RulesError> {
        let wanted = s.trim().to_ascii_lowercase().replace(['-', '_', ' '], "");
        Preset::ALL
            .into_iter()
            .find(|p| p.name() == wanted || (wanted == "majsoul" && *p == Preset::Mahjongsoul))
            .ok_or_else(|| RulesError::UnknownPreset(s.to_string()))
    }
}

impl Rules {
    /// Applies switch overrides given as a JSON object (`{"kiriage": true}`) on top of `self`.
    /// Unknown keys and ill-typed values are errors.
    pub fn with_overrides(
        &self,
        overrides: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Rules, RulesError> {
        let mut merged = match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(map)) => map,
            _ => return Err(RulesError::BadOverride("rules are not an object".into())),
        };
        for (key, value) in overrides {
            if !merged.contains_key(key) {
                return Err(RulesError::BadOverride(format!("unknown switch {key:?}")));
            }
            merged.insert(key.clone(), value.clone());
        }
        let rules: Rules = serde_json::from_value(serde_json::Value::Object(merged))
            .map_err(|e| RulesError::BadOverride(e.to_string()))?;
        rules.validate()?;
        Ok(rules)
    }

    /// Checks switch values that the type system cannot.
    pub fn validate(&self) -> Result<(), RulesError> {
        if !matches!(self.players, 3 | 4) {
            return Err(RulesError::Invalid("players must be 3 or 4"));
        }
        if !matches!(self.double_wind_pair_fu, 2 | 4) {
            return Err(RulesError::Invalid("double_wind_pair_fu must be 2 or 4"));
        }
        if self.red_fives.iter().any(|&n| n > 4) {
            return Err(RulesError::Invalid("red_fives must be at most 4 per suit"));
        }
        if self.players == 3 && self.red_fives[0] > 0 {
            return Err(RulesError::Invalid(
                "three-player games have no 5m, so no red 5m",
            ));
        }
        Ok(())
    }

    pub fn three_player(&self) -> bool {
        self.players == 3
    }

    /// Builds rules from a JSON value: a preset name, or `{"preset": name, switch: value, …}`.
    pub fn from_json(value: &serde_json::Value) -> Result<Rules, RulesError> {
        match value {
            serde_json::Value::Null => Ok(Rules::default()),
            serde_json::Value::String(name) => Ok(name.parse::<Preset>()?.rules()),
            serde_json::Value::Object(map) => {
                let preset = match map.get("preset") {
                    None => Preset::Tenhou,
                    Some(serde_json::Value::String(name)) => name.parse()?,
                    Some(other) => {
                        return Err(RulesError::BadOverride(format!(
                            "preset must be a name, found {other}"
                        )))
                    }
                };
                let mut overrides = map.clone();
                overrides.remove("preset");
                preset.rules().with_overrides(&overrides)
            }
            other => Err(RulesError::BadOverride(format!(
                "rules must be a preset name or an object, found {other}"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn presets_parse_by_name() {
        for preset in Preset::ALL {
            assert_eq!(preset.name().parse::<Preset>().unwrap(), preset);
            assert!(preset.rules().validate().is_ok());
        }
        assert_eq!(
            "Mahjong-Soul".parse::<Preset>().unwrap(),
            Preset::Mahjongsoul
        );
        assert!(matches!(
            "nope".parse::<Preset>(),
            Err(RulesError::UnknownPreset(_))
        ));
    }

    #[test]
    fn overrides_apply_on_top_of_a_preset() {
        let rules =
            Rules::from_json(&json!({"preset": "wrc", "kiriage": false, "honba_value": 1500}))
                .unwrap();
        assert!(!rules.kiriage);
        assert_eq!(rules.honba_value, 1500);
        assert_eq!(rules.red_fives, [0, 0, 0]);
        assert_eq!(
            Rules::from_json(&json!({"renhou": "yakuman"}))
                .unwrap()
                .renhou,
            Renhou::Yakuman
        );
    }

    #[test]
    fn bad_overrides_are_errors() {
        assert!(matches!(
            Rules::from_json(&json!({"no_such_switch": true})),
            Err(RulesError::BadOverride(_))
        ));
        assert!(matches!(
            Rules::from_json(&json!({"kiriage": "yes"})),
            Err(RulesError::BadOverride(_))
        ));
        assert!(matches!(
            Rules::from_json(&json!({"players": 5})),
            Err(RulesError::Invalid(_))
        ));
        assert!(matches!(
            Rules::from_json(&json!(3)),
            Err(RulesError::BadOverride(_))
        ));
    }
}
