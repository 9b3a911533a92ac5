//! Win conditions per photo: the fields of a JSON-lines request (`tsumo`, `riichi`,
//! `seat_wind`, …) that a photo cannot show.
//!
//! For each field, in priority order: a sidecar JSON next to the photo (`IMG_1.jpg` →
//! `IMG_1.json`), the row of a conditions CSV for the photo, the defaults (`--rules`). Fields
//! merge one by one: a sidecar holding only `"riichi": true` keeps the CSV's seat wind.

use super::csv;
use super::row::RowError;
use crate::jsonl::Request;
use crate::rules::Rules;
use serde_json::{json, Map, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// A problem with the conditions CSV or the defaults; fatal, reported before any work.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{source_name}{}: {message}", line.map(|l| format!(", line {l}")).unwrap_or_default())]
pub struct ConditionsError {
    /// The CSV file, or `--rules`.
    pub source_name: String,
    pub line: Option<usize>,
    pub message: String,
}

/// How a CSV column's text becomes a JSON value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Bool,
    Integer,
    Text,
    /// Whitespace-separated items (`melds`).
    List,
    /// A preset name, or a JSON object (`{"preset": "wrc", "kiriage": false}`).
    Rules,
}

/// The type of a request field, found by asking the request type itself which JSON values it
/// accepts, so new request fields work in the CSV without changes here.
fn column_type(name: &str) -> Option<Column> {
    if name == "rules" {
        return Some(Column::Rules);
    }
    let accepts = |value: Value| {
        let mut object = Map::new();
        object.insert(name.to_string(), value);
        serde_json::from_value::<Request>(Value::Object(object)).is_ok()
    };
    if accepts(json!(true)) {
        Some(Column::Bool)
    } else if accepts(json!(1)) {
        Some(Column::Integer)
    } else if accepts(json!("x")) {
        Some(Column::Text)
    } else if accepts(json!(["x"])) {
        Some(Column::List)
    } else {
        None
    }
}

fn cell_value(column: Column, text: &str) -> Result<Value, String> {
    match column {
        Column::Bool => match text.to_ascii_lowercase().as_str() {
            "true" | "1" => Ok(Value::Bool(true)),
            "false" | "0" => Ok(Value::Bool(false)),
            _ => Err(format!("{text:?} is not true, false, 1 or 0")),
        },
        Column::Integer => text
            .parse::<u64>()
            .map(Value::from)
            .map_err(|_| format!("{text:?} is not a whole number")),
        Column::Text => Ok(Value::String(text.to_string())),
        Column::List => Ok(Value::Array(
            text.split_whitespace()
                .map(|s| Value::String(s.to_string()))
                .collect(),
        )),
        Column::Rules if text.starts_with('{') => serde_json::from_str(text)
            .map_err(|e| format!("rules {text:?} is not a JSON object: {e}")),
        Column::Rules => Ok(Value::String(text.to_string())),
    }
}

/// The request fields every photo starts from, and the CSV table.
#[derive(Clone, Debug, Default)]
pub struct Conditions {
    defaults: Map<String, Value>,
    /// CSV rows by their `file` cell.
    table: HashMap<String, Map<String, Value>>,
}

impl Conditions {
    /// No CSV; `rules` (a preset name) applies to every photo unless a sidecar or the CSV says
    /// otherwise.
    pub fn new(rules: Option<&str>) -> Result<Conditions, ConditionsError> {
        let mut defaults = Map::new();
        if let Some(preset) = rules {
            let value = Value::String(preset.to_string());
            Rules::from_json(&value).map_err(|e| ConditionsError {
                source_name: "--rules".into(),
                line: None,
                message: e.to_string(),
            })?;
            defaults.insert("rules".into(), value);
        }
        Ok(Conditions {
            defaults,
            table: HashMap::new(),
        })
    }

    /// Adds a conditions CSV read from `path`.
    pub fn with_csv_file(self, path: &Path) -> Result<Conditions, ConditionsError> {
        let text = std::fs::read_to_string(path).map_err(|e| ConditionsError {
            source_name: path.display().to_string(),
            line: None,
            message: e.to_string(),
        })?;
        self.with_csv(&path.display().to_string(), &text)
    }

    /// Adds a conditions CSV: a header row of request field names with a `file` column, then
    /// one row per photo (by file name or by path as found). Empty cells are not given;
    /// booleans are `true`/`false`/`1`/`0`; `melds` is a space-separated list; `rules` a preset
    /// name or a JSON object. Every cell and row is checked here.
    pub fn with_csv(
        mut self,
        source_name: &str,
        text: &str,
    ) -> Result<Conditions, ConditionsError> {
        let fail = |line: Option<usize>, message: String| ConditionsError {
            source_name: source_name.to_string(),
            line,
            message,
        };
        let records = csv::parse(text).map_err(|e| fail(Some(e.line), e.message))?;
        let mut records = records.into_iter();
        let Some((header_line, header)) = records.next() else {
            return Err(fail(
                None,
                "empty: expected a header row with a `file` column".into(),
            ));
        };
        let mut key_column = None;
        let mut columns: Vec<(String, Column)> = Vec::new();
        for (i, name) in header.iter().enumerate() {
            if name == "file" {
                if key_column.replace(i).is_some() {
                    return Err(fail(Some(header_line), "two `file` columns".into()));
                }
                columns.push((name.clone(), Column::Text));
                continue;
            }
            if columns.iter().any(|(n, _)| n == name) {
                return Err(fail(Some(header_line), format!("two `{name}` columns")));
            }
            let Some(column) = column_type(name) else {
                return Err(fail(
                    Some(header_line),
                    format!("unknown column `{name}`: columns are `file` and request field names (tsumo, riichi, seat_wind, round_wind, honba, riichi_sticks, dora_indicators, ura_indicators, rules, …)"),
                ));
            };
            columns.push((name.clone(), column));
        }
        let Some(key_column) = key_column else {
            return Err(fail(Some(header_line), "no `file` column".into()));
        };
        for (line, record) in records {
            if record.len() > columns.len() {
                return Err(fail(
                    Some(line),
                    format!("{} cells for {} columns", record.len(), columns.len()),
                ));
            }
            let key = record.get(key_column).cloned().unwrap_or_default();
            if key.is_empty() {
                return Err(fail(Some(line), "empty `file` cell".into()));
            }
            let mut fields = Map::new();
            for (i, text) in record.iter().enumerate() {
                let (name, column) = &columns[i];
                if i == key_column || text.is_empty() {
                    continue;
                }
                let value = cell_value(*column, text)
                    .map_err(|m| fail(Some(line), format!("{name}: {m}")))?;
                fields.insert(name.clone(), value);
            }
            serde_json::from_value::<Request>(Value::Object(fields.clone()))
                .map_err(|e| fail(Some(line), e.to_string()))?;
            if let Some(rules) = fields.get("rules") {
                Rules::from_json(rules).map_err(|e| fail(Some(line), e.to_string()))?;
            }
            if self.table.insert(key.clone(), fields).is_some() {
                return Err(fail(Some(line), format!("a second row for {key:?}")));
            }
        }
        Ok(self)
    }

    fn csv_row(&self, path: &Path) -> Option<&Map<String, Value>> {
        let full = path.to_string_lossy();
        self.table.get(full.as_ref()).or_else(|| {
            let name = path.file_name()?.to_string_lossy();
            self.table.get(name.as_ref())
        })
    }

    /// CSV rows that match none of `inputs` (probably typos), by their `file` cell, sorted.
    pub fn unmatched<'a>(&self, inputs: impl IntoIterator<Item = &'a Path>) -> Vec<String> {
        let mut used = std::collections::HashSet::new();
        for path in inputs {
            let full = path.to_string_lossy().to_string();
            if self.table.contains_key(&full) {
                used.insert(full);
            } else if let Some(name) = path.file_name() {
                used.insert(name.to_string_lossy().to_string());
            }
        }
        let mut out: Vec<String> = self
            .table
            .keys()
            .filter(|k| !used.contains(*k))
            .cloned()
            .collect();
        out.sort();
        out
    }

    /// The merged conditions of one photo, or a `sidecar` error when its sidecar is unreadable
    /// or not a valid request object.
    pub fn for_file(&self, path: &Path) -> Result<Map<String, Value>, RowError> {
        let mut fields = self.defaults.clone();
        if let Some(row) = self.csv_row(path) {
            fields.extend(row.iter().map(|(k, v)| (k.clone(), v.clone())));
        }
        if let Some(sidecar) = read_sidecar(path)? {
            fields.extend(sidecar);
        }
        Ok(fields)
    }
}

/// The sidecar of a photo: the same path with a `.json` extension.
pub fn sidecar_path(photo: &Path) -> PathBuf {
    photo.with_extension("json")
}

/// Reads and checks a photo's sidecar, if there is one.
pub fn read_sidecar(photo: &Path) -> Result<Option<Map<String, Value>>, RowError> {
    let path = sidecar_path(photo);
    if !path.is_file() {
        return Ok(None);
    }
    let fail = |message: String| RowError::new("sidecar", format!("{}: {message}", path.display()));
    let text = std::fs::read_to_string(&path).map_err(|e| fail(e.to_string()))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| fail(format!("invalid JSON: {e}")))?;
    let Value::Object(fields) = value else {
        return Err(fail("expected a JSON object of request fields".into()));
    };
    serde_json::from_value::<Request>(Value::Object(fields.clone()))
        .map_err(|e| fail(e.to_string()))?;
    Ok(Some(fields))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn column_types_come_from_the_request() {
        assert_eq!(column_type("riichi"), Some(Column::Bool));
        assert_eq!(column_type("honba"), Some(Column::Integer));
        assert_eq!(column_type("kita"), Some(Column::Integer));
        assert_eq!(column_type("seat_wind"), Some(Column::Text));
        assert_eq!(column_type("dora_indicators"), Some(Column::Text));
        assert_eq!(column_type("hand"), Some(Column::Text));
        assert_eq!(column_type("melds"), Some(Column::List));
        assert_eq!(column_type("rules"), Some(Column::Rules));
        assert_eq!(column_type("riichii"), None);
    }

    #[test]
    fn csv_rows_are_checked() {
        let ok = Conditions::new(None)
            .unwrap()
            .with_csv("c.csv", "file,riichi,honba,melds,rules\na.jpg,1,2,[123m] (5555p),\"{\"\"preset\"\": \"\"wrc\"\"}\"\nb.jpg,false,,,mahjongsoul\n")
            .unwrap();
        let a = ok.for_file(Path::new("x/a.jpg")).unwrap();
        assert_eq!(a["riichi"], true);
        assert_eq!(a["honba"], 2);
        assert_eq!(a["melds"], json!(["[123m]", "(5555p)"]));
        assert_eq!(a["rules"]["preset"], "wrc");
        let b = ok.for_file(Path::new("b.jpg")).unwrap();
        assert_eq!(b.get("honba"), None);
        assert_eq!(b["rules"], "mahjongsoul");
        let fails = [
            "riichi\n1\n",
            "file,riichii\na.jpg,1\n",
            "file,riichi\na.jpg,maybe\n",
            "file,kita\na.jpg,300\n",
            "file,rules\na.jpg,nope\n",
            "file\na.jpg\na.jpg\n",
            "file,riichi\na.jpg,1,2\n",
        ];
        for text in fails {
            let e = Conditions::new(None).unwrap().with_csv("c.csv", text);
            assert!(e.is_err(), "{text:?} accepted");
        }
        let e = Conditions::new(None)
            .unwrap()
            .with_csv("c.csv", "file,riichi\na.jpg,1\nb.jpg,maybe\n")
            .unwrap_err();
        assert_eq!(e.line, Some(3));
        assert!(e.to_string().starts_with("c.csv, line 3: riichi:"), "{e}");
        assert!(Conditions::new(Some("nope")).is_err());
    }
}
