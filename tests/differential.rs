//! Differential test: riichi-lens vs the reference Python library `mahjong==2.1.0`.
//!
//! `tests/differential/reference.py` generates 20,000 random winning hands from a
//! fixed seed and scores them with the reference library; every `input` line is
//! piped through `riichi-lens score --jsonl` and the results are compared.
//! See `tests/differential/README.md`.
//!
//! Needs the Python virtualenv at `.venv` (create it with `scripts/setup.sh`), or
//! a Python with `mahjong==2.1.0` installed given as `RIICHI_PYTHON`.

mod common;

use common::yaku_multiset;
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

const SEED: u64 = 20261122;
const HANDS: usize = 20_000;
const MIN_COMPARED: usize = 19_000;
const MAX_SHOWN: usize = 20;

/// Disagreement categories that are known rule differences where the reference
/// library deviates from Tenhou rules: (category prefix, reason).
/// Keep in sync with `ALLOWED` in tests/differential/compare.py and the README.
const ALLOWED: &[(&str, &str)] = &[];

fn python() -> PathBuf {
    if let Some(p) = std::env::var_os("RIICHI_PYTHON") {
        return PathBuf::from(p);
    }
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".venv/bin/python");
    if !p.exists() {
        panic!(
            "differential test needs the reference Python environment, but {} does not exist.\n\
             Run `scripts/setup.sh` (it creates .venv and installs tests/differential/requirements.txt),\n\
             or point RIICHI_PYTHON at a python that has mahjong==2.1.0 installed.",
            p.display()
        );
    }
    p
}

/// `None` when the results agree, else a category label like "fu" or "yaku -pinfu/1 +tanyao/1".
fn disagreement(expected: &Value, actual: &Value) -> Option<String> {
    if actual.get("error").is_some() {
        return Some(format!("error:{}", actual["kind"].as_str().unwrap_or("?")));
    }
    let mut diffs: Vec<String> = Vec::new();
    if actual["han"] != expected["han"] {
        diffs.push("han".into());
    }
    let yakuman = expected["yakuman"].as_i64().unwrap_or(0);
    if actual["yakuman"].as_i64().unwrap_or(0) != yakuman {
        diffs.push("yakuman".into());
    }
    if yakuman == 0 && actual["fu"] != expected["fu"] {
        diffs.push("fu".into());
    }
    let (ey, ay) = (yaku_multiset(expected), yaku_multiset(actual));
    let yaku_differs = ey != ay;
    if yaku_differs {
        diffs.push("yaku".into());
    }
    for f in ["total", "ron", "tsumo_dealer", "tsumo_non_dealer"] {
        let get = |v: &Value| v["points"].get(f).cloned().unwrap_or(Value::Null);
        if get(actual) != get(expected) {
            diffs.push(format!("points.{f}"));
        }
    }
    if diffs.is_empty() {
        return None;
    }
    if yaku_differs {
        let mut missing: Vec<String> = Vec::new();
        let mut extra = ay.clone();
        for y in &ey {
            match extra.iter().position(|x| x == y) {
                Some(i) => {
                    extra.remove(i);
                }
                None => missing.push(format!("-{}/{}", y.0, y.1)),
            }
        }
        let extra: Vec<String> = extra.iter().map(|y| format!("+{}/{}", y.0, y.1)).collect();
        return Some(format!("yaku {}", [missing, extra].concat().join(" ")));
    }
    Some(diffs.join(","))
}

#[test]
fn differential_against_python_mahjong() {
    let python = python();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let ref_path =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("differential-{SEED}.jsonl"));

    let status = Command::new(&python)
        .arg(root.join("tests/differential/reference.py"))
        .args([
            "--n",
            &HANDS.to_string(),
            "--seed",
            &SEED.to_string(),
            "--quiet",
            "--out",
        ])
        .arg(&ref_path)
        .status()
        .unwrap_or_else(|e| panic!("cannot run {}: {e}; run scripts/setup.sh", python.display()));
    assert!(
        status.success(),
        "reference.py failed ({status}); run scripts/setup.sh"
    );

    let text = std::fs::read_to_string(&ref_path).expect("read reference output");
    let records: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("reference line is JSON"))
        .collect();
    let inputs: Vec<String> = records.iter().map(|r| r["input"].to_string()).collect();

    let mut child = Command::new(env!("CARGO_BIN_EXE_riichi-lens"))
        .args(["score", "--jsonl"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("spawn riichi-lens");
    let mut stdin = child.stdin.take().unwrap();
    let payload = inputs.join("\n") + "\n";
    let writer = std::thread::spawn(move || {
        // A broken pipe shows up below as missing output lines.
        let _ = stdin.write_all(payload.as_bytes());
    });
    let output = child.wait_with_output().expect("riichi-lens output");
    writer.join().unwrap();
    assert!(
        output.status.success(),
        "riichi-lens score --jsonl exited with {}",
        output.status
    );
    let stdout = String::from_utf8(output.stdout).expect("utf-8 output");
    let outputs: Vec<&str> = stdout.lines().collect();
    assert_eq!(
        outputs.len(),
        inputs.len(),
        "one output line per input line"
    );

    let mut compared = 0usize;
    let mut failures = 0usize;
    let mut allowed: BTreeMap<&str, usize> = BTreeMap::new();
    let mut categories: BTreeMap<String, usize> = BTreeMap::new();
    for (i, rec) in records.iter().enumerate() {
        let actual: Value = serde_json::from_str(outputs[i])
            .unwrap_or_else(|_| serde_json::json!({"error": outputs[i], "kind": "bad_json"}));
        compared += 1;
        let Some(cat) = disagreement(&rec["expected"], &actual) else {
            continue;
        };
        if let Some((prefix, _)) = ALLOWED.iter().find(|(p, _)| cat.starts_with(p)) {
            *allowed.entry(prefix).or_default() += 1;
            continue;
        }
        failures += 1;
        if failures <= MAX_SHOWN {
            eprintln!(
                "--- disagreement #{failures} [{cat}]\n  input:    {}\n  expected: {}\n  actual:   {}",
                inputs[i], rec["expected"], outputs[i]
            );
        }
        *categories.entry(cat).or_default() += 1;
    }
    for (cat, n) in &categories {
        eprintln!("{n:6}  {cat}");
    }
    for (prefix, n) in &allowed {
        eprintln!("{n:6}  allowed: {prefix}");
    }
    eprintln!("{compared} compared, {failures} disagreements");
    assert!(
        compared >= MIN_COMPARED,
        "only {compared} hands compared (want >= {MIN_COMPARED})"
    );
    assert_eq!(
        failures, 0,
        "{failures} disagreements with mahjong==2.1.0 (first {MAX_SHOWN} printed above)"
    );
}
