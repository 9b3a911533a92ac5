//! Helpers shared by the tests: score a JSON request and read the result; [`video`] makes clips.

#![allow(dead_code)]

pub mod video;

use riichi_lens::jsonl::Request;
use riichi_lens::score::Score;

/// Scores a request given as JSON (the `score --jsonl` format).
pub fn score(json: &str) -> Score {
    let request: Request = serde_json::from_str(json).expect("valid request JSON");
    match request.score() {
        Ok(score) => score,
        Err(e) => panic!("{json}: {e}"),
    }
}

/// The error kind a request fails with.
pub fn error_kind(json: &str) -> String {
    let request: Request = serde_json::from_str(json).expect("valid request JSON");
    match request.score() {
        Ok(score) => panic!("{json} scored {score:?}, expected an error"),
        Err(e) => e.kind().to_string(),
    }
}

/// The han of `name` in the score, if present.
pub fn han_of(score: &Score, name: &str) -> Option<u32> {
    score
        .yaku
        .iter()
        .find(|y| y.name.name() == name)
        .map(|y| y.han)
}

/// The yaku names of a score, in order.
pub fn names(score: &Score) -> Vec<&'static str> {
    score.yaku.iter().map(|y| y.name.name()).collect()
}

/// The `yaku` list of a JSON result as sorted `(name, han)` pairs, for comparing results whose
/// yaku come in different orders.
pub fn yaku_multiset(v: &serde_json::Value) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = v["yaku"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|y| {
                    (
                        y["name"].as_str().unwrap_or("?").to_string(),
                        y["han"].as_i64().unwrap_or(-1),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}
