//! Fuzzes the JSON-lines scoring interface with arbitrary bytes (as lossy UTF-8).
//!
//! `score_line` must never panic and must always answer one line of valid JSON: an object
//! with `han` (a score) or `error` (with its `kind`).
#![no_main]

use libfuzzer_sys::fuzz_target;
use riichi_lens::jsonl::score_line;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let out = score_line(&line);
    assert!(!out.contains('\n'), "output is not one line: {out:?}");
    let value: Value = match serde_json::from_str(&out) {
        Ok(value) => value,
        Err(e) => panic!("output is not JSON ({e}): {out:?}"),
    };
    let Value::Object(map) = &value else {
        panic!("output is not a JSON object: {out:?}");
    };
    match (map.get("han"), map.get("error")) {
        (Some(han), None) => assert!(han.is_u64(), "han is not a number: {out:?}"),
        (None, Some(error)) => {
            assert!(error.is_string(), "error is not a string: {out:?}");
            assert!(
                map.get("kind").is_some_and(Value::is_string),
                "error without kind: {out:?}"
            );
        }
        _ => panic!("output has neither or both of han and error: {out:?}"),
    }
});
