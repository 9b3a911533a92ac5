//! What is kept per photo and what is written per input file.
//!
//! A photo's [`Outcome`] (what the recognizer read, or why the photo could not be read) depends
//! only on the file's bytes, so it is stored in the state under the file's SHA-256. The output
//! [`Row`] adds the win conditions of one input file (sidecar, CSV, defaults) and the score; it
//! is cheap to build again, so editing a sidecar and re-running re-scores without re-reading.

use crate::jsonl::{Request, RequestError};
use crate::notation::{format_meld, format_tiles};
use crate::vision::{PhotoReading, VisionError};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::io::Write;

/// One detected tile as written in the output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TileRow {
    /// Notation of the most probable face (`5p`, `0p`, `1z`), or `back`.
    pub tile: String,
    /// Axis-aligned `[x1, y1, x2, y2]` in pixels of the (EXIF-rotated) photo.
    #[serde(rename = "box")]
    pub bounds: [f32; 4],
    pub confidence: f32,
    /// Lying across the row (a called tile).
    pub sideways: bool,
}

/// `{"error": message, "kind": kind}`, as in the JSON-lines scorer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowError {
    pub error: String,
    pub kind: String,
}

impl RowError {
    pub fn new(kind: &str, error: impl Into<String>) -> RowError {
        RowError {
            error: error.into(),
            kind: kind.to_string(),
        }
    }

    /// A recognizer or decoding error, with its [`vision_kind`].
    pub fn from_vision(error: &VisionError) -> RowError {
        RowError::new(vision_kind(error), error.to_string())
    }

    /// A scorer error, with the scorer's own kind.
    pub fn from_request(error: &RequestError) -> RowError {
        RowError::new(error.kind(), error.to_string())
    }
}

/// The error kind of a [`VisionError`]: `decode`, `too_large`, `io`, `runtime`,
/// `bad_model_output` or `setup` (library or model missing).
pub fn vision_kind(error: &VisionError) -> &'static str {
    match error {
        VisionError::Decode(_) => "decode",
        VisionError::TooLarge { .. } => "too_large",
        VisionError::Io { .. } => "io",
        VisionError::Runtime(_) => "runtime",
        VisionError::BadModelOutput(_) => "bad_model_output",
        VisionError::LibraryNotFound { .. }
        | VisionError::LibraryLoad { .. }
        | VisionError::ModelNotFound { .. } => "setup",
    }
}

/// The tiles of a hand read from a photo, in notation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadTiles {
    /// Concealed tiles including the winning tile.
    pub concealed: String,
    pub melds: Vec<String>,
    pub win: String,
    /// Dora indicators seen on the photo (may be empty).
    pub dora_indicators: String,
    /// Whether the tiles form a complete hand.
    pub complete: bool,
}

/// What the recognizer read from a photo; independent of the win conditions.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reading {
    pub width: u32,
    pub height: u32,
    pub tiles: Vec<TileRow>,
    /// `None` when no hand could be made of the tiles.
    pub hand: Option<ReadTiles>,
    /// Indices into `tiles` whose reading is doubtful.
    pub uncertain: Vec<usize>,
}

impl Reading {
    pub fn from_photo(photo: &PhotoReading) -> Reading {
        Reading {
            width: photo.width,
            height: photo.height,
            tiles: photo
                .tiles
                .iter()
                .map(|d| TileRow {
                    tile: d.tile.notation(),
                    bounds: d.bounds,
                    confidence: d.confidence,
                    sideways: d.sideways,
                })
                .collect(),
            hand: photo.hand.as_ref().map(|h| ReadTiles {
                concealed: format_tiles(&h.concealed),
                melds: h.melds.iter().map(format_meld).collect(),
                win: h.win.to_string(),
                dora_indicators: format_tiles(&h.dora_indicators),
                complete: h.complete,
            }),
            uncertain: photo
                .hand
                .as_ref()
                .map(|h| h.uncertain.clone())
                .unwrap_or_default(),
        }
    }
}

/// What is stored per distinct photo (per SHA-256): the reading, or why there is none.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    Read(Reading),
    Failed(RowError),
}

/// One line of the output: one input file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Row {
    /// The path as found (as given on the command line, or below a given folder).
    pub file: String,
    /// SHA-256 of the file's bytes, lower-case hex; `null` when the file could not be read.
    pub sha256: Option<String>,
    /// Size of the decoded (EXIF-rotated) photo; the tile boxes are in these pixels.
    pub width: Option<u32>,
    pub height: Option<u32>,
    pub tiles: Vec<TileRow>,
    /// The hand that was scored (or failed to score), in notation.
    pub hand: Option<String>,
    /// Indices into `tiles` whose reading is doubtful.
    pub uncertain: Vec<usize>,
    /// The scorer's result object (as `score --jsonl` writes it).
    pub score: Option<Value>,
    pub error: Option<RowError>,
}

impl Row {
    /// A row for a file that produced nothing but an error.
    pub fn failed(file: &str, sha256: Option<&str>, error: RowError) -> Row {
        Row {
            file: file.to_string(),
            sha256: sha256.map(str::to_string),
            width: None,
            height: None,
            tiles: Vec::new(),
            hand: None,
            uncertain: Vec::new(),
            score: None,
            error: Some(error),
        }
    }

    /// Scores a stored outcome under one file's conditions (`Err` when its sidecar is bad).
    pub fn build(
        file: &str,
        sha256: &str,
        outcome: &Outcome,
        conditions: &Result<Map<String, Value>, RowError>,
    ) -> Row {
        let reading = match outcome {
            Outcome::Failed(error) => return Row::failed(file, Some(sha256), error.clone()),
            Outcome::Read(reading) => reading,
        };
        let mut row = Row {
            file: file.to_string(),
            sha256: Some(sha256.to_string()),
            width: Some(reading.width),
            height: Some(reading.height),
            tiles: reading.tiles.clone(),
            hand: reading.hand.as_ref().map(read_notation),
            uncertain: reading.uncertain.clone(),
            score: None,
            error: None,
        };
        let conditions = match conditions {
            Ok(c) => c,
            Err(error) => {
                row.error = Some(error.clone());
                return row;
            }
        };
        let Some(request) = request_json(reading.hand.as_ref(), conditions) else {
            row.error = Some(RowError::new(
                "no_hand",
                "no hand could be read from the photo (give one in a sidecar to score it)",
            ));
            return row;
        };
        row.hand = Some(request_notation(&request));
        let request = match serde_json::from_value::<Request>(Value::Object(request)) {
            Ok(request) => request,
            Err(e) => {
                row.error = Some(RowError::from_request(&RequestError::from(e)));
                return row;
            }
        };
        match request.score() {
            Ok(score) => match serde_json::to_value(&score) {
                Ok(value) => row.score = Some(value),
                Err(e) => {
                    row.error = Some(RowError::new(
                        "internal",
                        format!("could not encode the result: {e}"),
                    ))
                }
            },
            Err(error) => {
                row.error = Some(RowError::new(error.kind(), request.error_message(&error)))
            }
        }
        row
    }

    /// The score's `han`, `fu`, … as numbers, when scored.
    fn score_u64(&self, path: &[&str]) -> Option<u64> {
        let mut value = self.score.as_ref()?;
        for key in path {
            value = value.get(key)?;
        }
        value.as_u64()
    }
}

fn read_notation(read: &ReadTiles) -> String {
    let mut out = read.concealed.clone();
    for meld in &read.melds {
        out.push(' ');
        out.push_str(meld);
    }
    out
}

/// The request object for a reading under some conditions, or `None` when there is no hand.
///
/// The photo gives `hand`, `melds`, `win` and `dora_indicators`; the conditions override any
/// field. A `hand` in the conditions replaces all the tiles read (concealed tiles, melds and
/// the winning tile), while `melds` or `win` alone replace only that part.
pub fn request_json(
    read: Option<&ReadTiles>,
    conditions: &Map<String, Value>,
) -> Option<Map<String, Value>> {
    let mut request = Map::new();
    if let Some(read) = read {
        if !read.dora_indicators.is_empty() {
            request.insert(
                "dora_indicators".into(),
                read.dora_indicators.clone().into(),
            );
        }
        if !conditions.contains_key("hand") {
            request.insert("hand".into(), read.concealed.clone().into());
            if !read.melds.is_empty() {
                request.insert("melds".into(), read.melds.clone().into());
            }
            request.insert("win".into(), read.win.clone().into());
        }
    }
    for (key, value) in conditions {
        request.insert(key.clone(), value.clone());
    }
    request.contains_key("hand").then_some(request)
}

/// `hand` followed by `melds`, as one notation string.
fn request_notation(request: &Map<String, Value>) -> String {
    let mut out = match request.get("hand") {
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
        None => String::new(),
    };
    if let Some(Value::Array(melds)) = request.get("melds") {
        for meld in melds {
            out.push(' ');
            match meld {
                Value::String(s) => out.push_str(s),
                other => out.push_str(&other.to_string()),
            }
        }
    }
    out
}

/// Writes one JSON object per row.
pub fn write_jsonl(rows: &[Row], out: &mut impl Write) -> std::io::Result<()> {
    for row in rows {
        serde_json::to_writer(&mut *out, row)?;
        out.write_all(b"\n")?;
    }
    Ok(())
}

/// The CSV columns, in order.
pub const CSV_COLUMNS: [&str; 13] = [
    "file",
    "sha256",
    "hand",
    "han",
    "fu",
    "yaku",
    "limit",
    "total",
    "ron",
    "tsumo_dealer",
    "tsumo_non_dealer",
    "error_kind",
    "error",
];

/// Writes a header and one line per row (RFC 4180 quoting, `\n` line ends). Numbers of an
/// unscored row and absent payments are empty cells; `yaku` joins the yaku names with `;`.
pub fn write_csv(rows: &[Row], out: &mut impl Write) -> std::io::Result<()> {
    let header: Vec<String> = CSV_COLUMNS.iter().map(|c| c.to_string()).collect();
    super::csv::write_record(out, &header)?;
    let number = |n: Option<u64>| n.map(|n| n.to_string()).unwrap_or_default();
    for row in rows {
        let score = row.score.as_ref();
        let yaku = score
            .and_then(|s| s.get("yaku"))
            .and_then(Value::as_array)
            .map(|list| {
                list.iter()
                    .filter_map(|y| y.get("name").and_then(Value::as_str))
                    .collect::<Vec<_>>()
                    .join(";")
            })
            .unwrap_or_default();
        let limit = score
            .and_then(|s| s.get("limit"))
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let record = vec![
            row.file.clone(),
            row.sha256.clone().unwrap_or_default(),
            row.hand.clone().unwrap_or_default(),
            number(row.score_u64(&["han"])),
            number(row.score_u64(&["fu"])),
            yaku,
            limit,
            number(row.score_u64(&["points", "total"])),
            number(row.score_u64(&["points", "ron"])),
            number(row.score_u64(&["points", "tsumo_dealer"])),
            number(row.score_u64(&["points", "tsumo_non_dealer"])),
            row.error
                .as_ref()
                .map(|e| e.kind.clone())
                .unwrap_or_default(),
            row.error
                .as_ref()
                .map(|e| e.error.clone())
                .unwrap_or_default(),
        ];
        super::csv::write_record(out, &record)?;
    }
    Ok(())
}
