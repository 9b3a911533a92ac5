//! What the overlay shows, as one serializable [`State`]: the hand on the table, the last
//! confirmed win with its score, the tracked game's table, and where the data comes from.
//!
//! This is also the documented JSON of `GET /api/state` and of every `/api/events` event
//! (see `src/overlay/README-section.md`). Field names are stable; new fields may be added.

use crate::hand::{Meld, MeldKind};
use crate::jsonl::{Request, RequestError, Tiles};
use crate::notation::{format_meld, format_tiles, parse_hand, parse_tiles, NotationError};
use crate::score::Score;
use crate::shape::completing_tiles;
use crate::table::{wind_name, Game, Seat};
use crate::tile::{Tile, Wind};
use crate::vision::layout::UNCERTAIN_BELOW;
use crate::vision::{Face, PhotoReading};
use serde::{Serialize, Serializer};
use std::time::{SystemTime, UNIX_EPOCH};

/// Everything the overlay page shows.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct State {
    /// Increases by one on every change; set by the [`Hub`](super::Hub).
    pub version: u64,
    /// When this version was published, RFC 3339 UTC with milliseconds; set by the hub.
    pub updated_at: String,
    /// Identifies the running server; changes when the program restarts (versions restart
    /// from 1 then). Set by the hub.
    pub instance: String,
    /// Where the hands come from and whether that works.
    pub source: SourceStatus,
    /// The hand seen now, if any.
    pub hand: Option<HandView>,
    /// The last confirmed win (kept while later readings are incomplete).
    pub score: Option<ScoreView>,
    /// The tracked game's table, when `--db`/`--game` name one.
    pub table: Option<TableView>,
    /// Where the table comes from, when a game is tracked.
    pub table_source: Option<SourceStatus>,
}

impl State {
    /// Whether two states show the same thing (ignores version, time and instance).
    pub fn same_content(&self, other: &State) -> bool {
        self.source == other.source
            && self.hand == other.hand
            && self.score == other.score
            && self.table == other.table
            && self.table_source == other.table_source
    }
}

/// The health of a data source.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SourceStatus {
    /// `images`, `camera`, `video`, `demo`, `game` (the table database) or `none`.
    pub kind: String,
    /// The image folder, file or database path.
    pub name: Option<String>,
    pub status: Status,
    /// A message for the streamer: what failed and how to fix it.
    pub message: Option<String>,
    /// The photo being shown (image sources).
    pub current: Option<String>,
}

impl SourceStatus {
    pub fn new(kind: &str, name: Option<String>, status: Status, message: Option<String>) -> Self {
        SourceStatus {
            kind: kind.to_string(),
            name,
            status,
            message,
            current: None,
        }
    }
}

/// Whether a source works.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Not started yet (e.g. the models are loading).
    #[default]
    Starting,
    /// Working.
    Running,
    /// Failed; `message` says why. The server keeps running.
    Error,
}

/// One tile as shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TileView {
    /// Notation: `5p`, `0p` (red five), `1z` (East) … `7z` (red dragon).
    pub tile: String,
    /// The recognizer is not sure of this tile (low confidence, or changed to make the hand
    /// complete).
    pub uncertain: bool,
    /// Lying across the row (the called tile of a meld).
    #[serde(skip_serializing_if = "is_false")]
    pub sideways: bool,
    /// Shown face down (the ends of a closed kan); `tile` still says what it is.
    #[serde(skip_serializing_if = "is_false")]
    pub face_down: bool,
    /// The fourth tile of an added kan, stacked on the sideways tile before it.
    #[serde(skip_serializing_if = "is_false")]
    pub stacked: bool,
}

fn is_false(b: &bool) -> bool {
    !*b
}

impl TileView {
    pub fn new(tile: Tile, uncertain: bool) -> TileView {
        TileView {
            tile: tile.to_string(),
            uncertain,
            sideways: false,
            face_down: false,
            stacked: false,
        }
    }
}

/// A called or declared meld.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MeldView {
    /// `chi`, `pon`, `open_kan`, `closed_kan` or `added_kan`.
    pub kind: &'static str,
    /// The meld in notation, e.g. `[3*45s]`.
    pub notation: String,
    /// In laid-out order, with display flags.
    pub tiles: Vec<TileView>,
}

/// The hand on the table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HandView {
    /// The whole hand in notation (`123m456p11z [789s]`).
    pub notation: String,
    /// Concealed tiles in reading order, the winning tile last.
    pub concealed: Vec<TileView>,
    /// The winning tile.
    pub win: String,
    /// Whether the winning tile was set apart (otherwise the last tile is assumed).
    pub win_set_apart: bool,
    pub melds: Vec<MeldView>,
    pub dora_indicators: Vec<TileView>,
    /// Whether the tiles make a complete hand.
    pub complete: bool,
    /// Why this hand is not scored, when it is not (`not_complete`, `no_yaku`, …).
    pub problem: Option<Problem>,
    /// For a hand a tile short, the tiles one more of which would complete it (a hand shown
    /// before its winning tile: its waits), in tile order; empty otherwise.
    pub completing: Vec<TileView>,
}

/// A machine-readable kind and a human message.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub kind: String,
    pub message: String,
}

impl From<&RequestError> for Problem {
    fn from(e: &RequestError) -> Problem {
        Problem {
            kind: e.kind().to_string(),
            message: e.to_string(),
        }
    }
}

fn tile_views(tiles: &[Tile]) -> Vec<TileView> {
    tiles.iter().map(|&t| TileView::new(t, false)).collect()
}

fn meld_kind_name(kind: MeldKind) -> &'static str {
    match kind {
        MeldKind::Chi => "chi",
        MeldKind::Pon => "pon",
        MeldKind::OpenKan => "open_kan",
        MeldKind::ClosedKan => "closed_kan",
        MeldKind::AddedKan => "added_kan",
    }
}

impl MeldView {
    /// `uncertain[j]`: whether tile `j` of the meld is doubtful.
    pub fn new(meld: &Meld, uncertain: &[bool]) -> MeldView {
        let tiles = meld.tiles();
        let called = meld.called_index();
        // The stacked fourth tile of an added kan: the last tile that is not the called one.
        let stacked = match (meld.kind(), called) {
            (MeldKind::AddedKan, Some(c)) => (0..tiles.len()).rev().find(|&j| j != c),
            _ => None,
        };
        let views = tiles
            .iter()
            .enumerate()
            .map(|(j, &t)| TileView {
                sideways: called == Some(j) || stacked == Some(j),
                face_down: meld.kind() == MeldKind::ClosedKan && (j == 0 || j == 3),
                stacked: stacked == Some(j),
                ..TileView::new(t, uncertain.get(j).copied().unwrap_or(false))
            })
            .collect();
        MeldView {
            kind: meld_kind_name(meld.kind()),
            notation: format_meld(meld),
            tiles: views,
        }
    }
}

impl HandView {
    /// A hand from notation (concealed tiles with the winning tile last, melds inline) and
    /// dora indicators. Nothing is uncertain; `complete` is checked by the scorer elsewhere,
    /// so it is taken as given.
    pub fn from_notation(
        hand: &str,
        dora_indicators: &str,
        win_set_apart: bool,
        complete: bool,
    ) -> Result<HandView, NotationError> {
        let parsed = parse_hand(hand)?;
        let dora = parse_tiles(dora_indicators)?;
        let completing = if complete {
            Vec::new()
        } else {
            completing_tiles(&parsed.tiles, &parsed.melds, &dora)
        };
        let win = parsed
            .tiles
            .last()
            .map(|t| t.to_string())
            .unwrap_or_default();
        Ok(HandView {
            notation: hand_notation(&parsed.tiles, &parsed.melds),
            concealed: parsed
                .tiles
                .iter()
                .map(|&t| TileView::new(t, false))
                .collect(),
            win,
            win_set_apart,
            melds: parsed.melds.iter().map(|m| MeldView::new(m, &[])).collect(),
            dora_indicators: tile_views(&dora),
            complete,
            problem: None,
            completing: tile_views(&completing),
        })
    }

    /// The hand read from a photo, with the recognizer's doubts; `None` when no hand row
    /// was found.
    pub fn from_reading(reading: &PhotoReading) -> Option<HandView> {
        let hand = reading.hand.as_ref()?;
        let layout = &reading.layout;
        let doubtful = |i: usize| hand.uncertain.contains(&i);
        let concealed_ids: Vec<usize> =
            layout.concealed.iter().copied().chain(layout.win).collect();
        let concealed = hand
            .concealed
            .iter()
            .enumerate()
            .map(|(k, &t)| TileView::new(t, concealed_ids.get(k).is_some_and(|&i| doubtful(i))))
            .collect();
        let melds =
            hand.melds
                .iter()
                .enumerate()
                .map(|(m, meld)| {
                    let flags: Vec<bool> = match layout.melds.get(m) {
                        Some(spot) if hand.melds.len() == layout.melds.len() => {
                            let backs = spot.tiles.iter().any(|&i| {
                                reading.tiles.get(i).is_some_and(|d| d.tile == Face::Back)
                            });
                            if backs {
                                // Face-down tiles were read as the meld's kind: doubt the whole meld.
                                let any = spot.tiles.iter().any(|&i| doubtful(i));
                                vec![any; meld.tiles().len()]
                            } else {
                                spot.tiles.iter().map(|&i| doubtful(i)).collect()
                            }
                        }
                        _ => Vec::new(),
                    };
                    MeldView::new(meld, &flags)
                })
                .collect();
        let dora_ids = reading.dora_ids();
        let dora_indicators = hand
            .dora_indicators
            .iter()
            .enumerate()
            .map(|(k, &t)| {
                let low = dora_ids.get(k).is_some_and(|&i| {
                    doubtful(i)
                        || reading
                            .tiles
                            .get(i)
                            .is_some_and(|d| d.confidence < UNCERTAIN_BELOW)
                });
                TileView::new(t, low)
            })
            .collect();
        Some(HandView {
            notation: hand.notation(),
            concealed,
            win: hand.win.to_string(),
            win_set_apart: hand.win_set_apart,
            melds,
            dora_indicators,
            complete: hand.complete,
            problem: None,
            completing: tile_views(&hand.completing_tiles()),
        })
    }

    /// The scoring request for this hand: concealed tiles, melds, winning tile and dora
    /// indicators, with the given conditions (e.g. rules, seat) taken from `base`.
    pub fn request(&self, base: &Request) -> Request {
        let concealed: String = self.concealed.iter().map(|t| t.tile.as_str()).collect();
        Request {
            hand: concealed,
            melds: self.melds.iter().map(|m| m.notation.clone()).collect(),
            win: Some(self.win.clone()),
            dora_indicators: Tiles::List(
                self.dora_indicators
                    .iter()
                    .map(|t| t.tile.clone())
                    .collect(),
            ),
            ..base.clone()
        }
    }
}

fn hand_notation(tiles: &[Tile], melds: &[Meld]) -> String {
    let mut out = format_tiles(tiles);
    for meld in melds {
        out.push(' ');
        out.push_str(&format_meld(meld));
    }
    out
}

/// A scored win: the hand, the conditions it was scored under, and the scorer's result
/// (the same fields as `riichi-lens score --json`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreView {
    /// The hand in notation.
    pub hand: String,
    pub win: String,
    pub tsumo: bool,
    /// `E` (dealer), `S`, `W`, `N`.
    #[serde(serialize_with = "wind_letter")]
    pub seat_wind: Wind,
    #[serde(serialize_with = "wind_letter")]
    pub round_wind: Wind,
    pub dora_indicators: Vec<String>,
    #[serde(flatten)]
    pub result: Score,
}

fn wind_letter<S: Serializer>(w: &Wind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(&w.letter().to_string())
}

impl ScoreView {
    /// Scores a request; the view keeps the conditions next to the result.
    pub fn score(request: &Request) -> Result<ScoreView, RequestError> {
        let (hand, ctx, rules) = request.build()?;
        let result = crate::score::score(&hand, &ctx, &rules).map_err(RequestError::from)?;
        let mut notation = format_tiles(hand.concealed());
        for meld in hand.melds() {
            notation.push(' ');
            notation.push_str(&format_meld(meld));
        }
        Ok(ScoreView {
            hand: notation,
            win: hand.win().to_string(),
            tsumo: ctx.is_tsumo(),
            seat_wind: ctx.seat_wind,
            round_wind: ctx.round_wind,
            dora_indicators: ctx.dora_indicators.iter().map(|t| t.to_string()).collect(),
            result,
        })
    }
}

/// One player at the tracked table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerView {
    /// Seat number from the first dealer (0 = East of the first hand).
    pub seat: usize,
    pub name: String,
    pub points: i64,
    /// Seat wind in the current hand: `E`, `S`, `W`, `N`.
    #[serde(serialize_with = "wind_letter")]
    pub wind: Wind,
    pub dealer: bool,
    /// Declared riichi in the current hand.
    pub riichi: bool,
}

/// The tracked game's table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableView {
    /// The game's id in the database (`None` for the demo table).
    pub game_id: Option<i64>,
    /// Round wind: `east`, `south`, `west`, `north`.
    pub round: String,
    /// Hand number within the round, from 1.
    pub hand_number: u8,
    /// E.g. `East 2`.
    pub round_label: String,
    pub honba: u32,
    /// Riichi sticks (1,000 each) on the table.
    pub sticks: u32,
    /// Players in seat order.
    pub players: Vec<PlayerView>,
    pub finished: bool,
    /// Why the game ended, once it has.
    pub end: Option<String>,
}

impl TableView {
    pub fn from_game(game: &Game, game_id: Option<i64>) -> TableView {
        let state = game.state();
        let dealer = game.dealer();
        let players = game
            .seats()
            .map(|seat: Seat| PlayerView {
                seat: seat.index(),
                name: game.players()[seat.index()].clone(),
                points: game.points()[seat.index()],
                wind: game.seat_wind(seat),
                dealer: seat == dealer,
                riichi: state.riichi.contains(&seat),
            })
            .collect();
        TableView {
            game_id,
            round: wind_name(game.round_wind()).to_ascii_lowercase(),
            hand_number: game.hand_number(),
            round_label: format!("{} {}", wind_name(game.round_wind()), game.hand_number()),
            honba: game.honba(),
            sticks: game.riichi_sticks(),
            players,
            finished: game.is_finished(),
            end: game.end_reason().map(|r| r.to_string()),
        }
    }
}

/// The current time as RFC 3339 UTC with milliseconds (`2026-11-22T10:04:05.123Z`).
pub fn now_rfc3339() -> String {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    rfc3339(since.as_secs() as i64, since.subsec_millis())
}

/// Formats Unix seconds and milliseconds as RFC 3339 UTC.
pub fn rfc3339(secs: i64, millis: u32) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_doubted_dora_indicator_is_marked_uncertain() {
        use crate::notation::parse_tile;
        use crate::vision::layout::{Layout, ReadHand};
        // Detection indices: the concealed tiles 0-12, the winning tile 13, two dora
        // indicators 14 and 15, the second doubted (a face far off the tiles' tint).
        let hand = crate::notation::parse_hand("123m456p789s1122z").unwrap();
        let reading = PhotoReading {
            width: 100,
            height: 100,
            tiles: Vec::new(),
            layout: Layout {
                concealed: (0..13).collect(),
                win: Some(13),
                melds: vec![],
                dora: vec![14, 15],
                unplaced: vec![],
            },
            hand: Some(ReadHand {
                concealed: hand.tiles.clone(),
                melds: vec![],
                win: parse_tile("2z").unwrap(),
                win_set_apart: false,
                dora_indicators: vec![parse_tile("3m").unwrap(), parse_tile("8p").unwrap()],
                uncertain: vec![15],
                corrected: vec![],
                complete: true,
            }),
        };
        let view = HandView::from_reading(&reading).unwrap();
        let doubts: Vec<(&str, bool)> = view
            .dora_indicators
            .iter()
            .map(|t| (t.tile.as_str(), t.uncertain))
            .collect();
        assert_eq!(doubts, [("3m", false), ("8p", true)]);
    }

    #[test]
    fn formats_rfc3339() {
        assert_eq!(rfc3339(0, 0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(951_782_400, 5), "2000-02-29T00:00:00.005Z");
        assert_eq!(rfc3339(1_795_341_845, 123), "2026-11-22T10:04:05.123Z");
    }

    #[test]
    fn hand_from_notation_marks_melds() {
        let h =
            HandView::from_notation("234m067p345s22s (8888m) [3*45s]", "1s", true, true).unwrap();
        assert_eq!(h.win, "2s");
        assert_eq!(h.concealed.len(), 11);
        let kan = &h.melds[0];
        assert_eq!(kan.kind, "closed_kan");
        assert!(kan.tiles[0].face_down && kan.tiles[3].face_down && !kan.tiles[1].face_down);
        let chi = &h.melds[1];
        assert_eq!(chi.notation, "[3*45s]");
        assert!(chi.tiles[0].sideways && !chi.tiles[1].sideways);
        let added =
            HandView::from_notation("123m456p11z {5*555p} [789s]", "", false, true).unwrap();
        let kan = &added.melds[0];
        assert_eq!(kan.kind, "added_kan");
        assert!(kan.tiles[0].sideways && kan.tiles[3].stacked && kan.tiles[3].sideways);
        assert!(added.completing.is_empty());
    }

    #[test]
    fn a_hand_a_tile_short_names_its_waits() {
        let waits = |hand: &str, dora: &str| {
            let h = HandView::from_notation(hand, dora, false, false).unwrap();
            h.completing
                .iter()
                .map(|t| t.tile.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(waits("23m456p11z [789s] [1*23p]", ""), ["1m", "4m"]);
        // The four 4m among the dora indicators leave the 1m alone.
        assert_eq!(waits("23m456p11z [789s] [1*23p]", "4444m"), ["1m"]);
        assert!(waits("234m456p11z [789s] [1*23p]", "").is_empty());
    }

    #[test]
    fn scores_with_conditions() {
        let h = HandView::from_notation("234m067p345s22s (8888m)", "1s", true, true).unwrap();
        let base = Request {
            tsumo: true,
            riichi: true,
            seat_wind: Some("W".into()),
            ..Request::default()
        };
        let s = ScoreView::score(&h.request(&base)).unwrap();
        assert_eq!(s.result.han, 6);
        assert_eq!(s.hand, "234m067p34522s (8888m)");
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["limit"], "haneman");
        assert_eq!(json["seat_wind"], "W");
        assert_eq!(json["points"]["total"], 12000);
    }
}
