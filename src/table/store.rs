//! Persistence: every game and every event in an embedded SQLite database.
//!
//! - WAL journal with `synchronous = FULL`: a committed event survives a
//!   crash of the process (and of the machine).
//! - Each event is validated against the folded game and written in one
//!   `IMMEDIATE` transaction, so concurrent writers cannot interleave and a
//!   crash leaves either the whole event or nothing.
//! - Events are stored as one JSON value per row; the state is never stored,
//!   it is always folded again from the events (undo = delete the last row).
//! - Exports: JSON (game, rules, events with their effects, final result)
//!   and CSV (one row per event).

use super::event::Event;
use super::game::{Game, Outcome, TableState};
use super::rules::Rules;
use super::settle::FinalResult;
use super::TableError;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use serde::Serialize;
use std::path::Path;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    created_at  INTEGER NOT NULL,
    touched     INTEGER NOT NULL,
    players     TEXT    NOT NULL,
    rules       TEXT    NOT NULL,
    finished    INTEGER NOT NULL DEFAULT 0,
    event_count INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    game_id     INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    seq         INTEGER NOT NULL,
    event       TEXT    NOT NULL,
    recorded_at INTEGER NOT NULL,
    PRIMARY KEY (game_id, seq)
);
";

/// A line of the game list.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GameSummary {
    pub id: i64,
    /// Unix seconds.
    pub created_at: i64,
    pub players: Vec<String>,
    pub preset: String,
    pub events: usize,
    pub finished: bool,
    /// E.g. "South 3, 1 honba" or "finished".
    pub position: String,
    pub points: Vec<i64>,
}

/// The game database.
pub struct Store {
    conn: Connection,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl Store {
    /// Opens (and creates if needed) the database at `path`.
    pub fn open(path: impl AsRef<Path>) -> Result<Store, TableError> {
        Store::init(Connection::open(path)?)
    }

    /// A throw-away database in memory (tests).
    pub fn open_in_memory() -> Result<Store, TableError> {
        Store::init(Connection::open_in_memory()?)
    }

    fn init(conn: Connection) -> Result<Store, TableError> {
        conn.busy_timeout(Duration::from_secs(5))?;
        // journal_mode returns the resulting mode ("memory" for in-memory databases).
        let _mode: String = conn.query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.execute_batch(SCHEMA)?;
        Ok(Store { conn })
    }

    /// Creates a game and returns its id. `names` are in seat order from the first dealer.
    pub fn create_game(&mut self, rules: &Rules, names: &[String]) -> Result<i64, TableError> {
        Game::new(rules.clone(), names.to_vec())?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let touched: i64 =
            tx.query_row("SELECT COALESCE(MAX(touched), 0) + 1 FROM games", [], |r| {
                r.get(0)
            })?;
        tx.execute(
            "INSERT INTO games (created_at, touched, players, rules) VALUES (?1, ?2, ?3, ?4)",
            params![
                now(),
                touched,
                serde_json::to_string(names)?,
                serde_json::to_string(rules)?
            ],
        )?;
        let id = tx.last_insert_rowid();
        tx.commit()?;
        Ok(id)
    }

    /// Validates `event` against the game and appends it, in one transaction.
    pub fn append_event(&mut self, id: i64, event: &Event) -> Result<(Game, Outcome), TableError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut game = load(&tx, id)?;
        let outcome = game.apply(event)?;
        let seq = game.events().len() as i64;
        tx.execute(
            "INSERT INTO events (game_id, seq, event, recorded_at) VALUES (?1, ?2, ?3, ?4)",
            params![id, seq, serde_json::to_string(event)?, now()],
        )?;
        update_game_row(&tx, id, &game)?;
        tx.commit()?;
        Ok((game, outcome))
    }

    /// Removes the last event of a game. Returns the game as it is now and the removed event.
    pub fn undo(&mut self, id: i64) -> Result<(Game, Event), TableError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut game = load(&tx, id)?;
        let removed = game.undo()?;
        let seq = game.events().len() as i64 + 1;
        tx.execute(
            "DELETE FROM events WHERE game_id = ?1 AND seq = ?2",
            params![id, seq],
        )?;
        update_game_row(&tx, id, &game)?;
        tx.commit()?;
        Ok((game, removed))
    }

    /// Loads a game by folding its events.
    pub fn load_game(&self, id: i64) -> Result<Game, TableError> {
        load(&self.conn, id)
    }

    /// The most recently used unfinished game.
    pub fn current_game(&self) -> Result<Option<i64>, TableError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM games WHERE finished = 0 ORDER BY touched DESC, id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Makes a game the most recently used one (so it becomes the current game
    /// if unfinished) and returns it.
    pub fn resume(&mut self, id: i64) -> Result<Game, TableError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let game = load(&tx, id)?;
        update_game_row(&tx, id, &game)?;
        tx.commit()?;
        Ok(game)
    }

    /// All games, newest first.
    pub fn list_games(&self) -> Result<Vec<GameSummary>, TableError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, created_at, players, rules FROM games ORDER BY touched DESC, id DESC",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?
            .collect::<Result<Vec<_>, _>>()?;
        let mut out = Vec::with_capacity(rows.len());
        for (id, created_at, _, _) in rows {
            let game = load(&self.conn, id)?;
            out.push(GameSummary {
                id,
                created_at,
                players: game.players().to_vec(),
                preset: game.rules().preset.clone(),
                events: game.events().len(),
                finished: game.is_finished(),
                position: if game.is_finished() {
                    "finished".to_string()
                } else {
                    game.hand_label()
                },
                points: game.points().to_vec(),
            });
        }
        Ok(out)
    }

    /// The stored events of a game with their sequence numbers (1-based).
    pub fn events(&self, id: i64) -> Result<Vec<(i64, Event)>, TableError> {
        load_events(&self.conn, id)
    }

    /// The whole game as JSON: players, rules, every event with its effect,
    /// the state, and the final result once the game is over.
    pub fn export_json(&self, id: i64) -> Result<String, TableError> {
        let (game, created_at) = load_with_meta(&self.conn, id)?;
        let export = JsonExport {
            id,
            created_at,
            players: game.players().to_vec(),
            rules: game.rules().clone(),
            events: replay(&game),
            state: game.state().clone(),
            finished: game.is_finished(),
            final_result: game.final_result().map(|r| named(&game, r)),
        };
        Ok(serde_json::to_string_pretty(&export)?)
    }

    /// The game as CSV: one row per event (hand, description, point changes,
    /// points after, honba, sticks, notes); once the game is over, a last row
    /// `final` carries the final scores in the `final` columns.
    pub fn export_csv(&self, id: i64) -> Result<String, TableError> {
        let game = load(&self.conn, id)?;
        let names = game.players();
        let mut header = vec![
            "seq".to_string(),
            "hand".into(),
            "event".into(),
            "description".into(),
        ];
        header.extend(names.iter().map(|n| format!("{n} delta")));
        header.extend(names.iter().map(|n| format!("{n} points")));
        header.extend(["honba".to_string(), "sticks".into(), "notes".into()]);
        header.extend(names.iter().map(|n| format!("{n} final")));
        let mut out = csv_line(&header);
        for row in replay(&game) {
            let mut cells = vec![
                row.seq.to_string(),
                row.hand.clone(),
                row.event.kind().to_string(),
                row.description.clone(),
            ];
            cells.extend(row.deltas.iter().map(|d| d.to_string()));
            cells.extend(row.points_after.iter().map(|p| p.to_string()));
            cells.push(row.honba_after.to_string());
            cells.push(row.sticks_after.to_string());
            cells.push(row.notes.join("; "));
            cells.extend(names.iter().map(|_| String::new()));
            out.push_str(&csv_line(&cells));
        }
        if let Some(result) = game.final_result() {
            let mut cells = vec![
                String::new(),
                String::new(),
                "final".to_string(),
                game.end_reason().map(|r| r.to_string()).unwrap_or_default(),
            ];
            cells.extend(names.iter().map(|_| String::new()));
            cells.extend(game.points().iter().map(|p| p.to_string()));
            cells.push(game.honba().to_string());
            cells.push(game.riichi_sticks().to_string());
            cells.push(String::new());
            cells.extend(result.scores_by_seat().iter().map(|s| s.to_plain_string()));
            out.push_str(&csv_line(&cells));
        }
        Ok(out)
    }
}

fn update_game_row(conn: &Connection, id: i64, game: &Game) -> Result<(), TableError> {
    conn.execute(
        "UPDATE games SET finished = ?2, event_count = ?3,
                touched = (SELECT COALESCE(MAX(touched), 0) + 1 FROM games)
         WHERE id = ?1",
        params![id, game.is_finished(), game.events().len() as i64],
    )?;
    Ok(())
}

fn load_events(conn: &Connection, id: i64) -> Result<Vec<(i64, Event)>, TableError> {
    let mut stmt = conn.prepare("SELECT seq, event FROM events WHERE game_id = ?1 ORDER BY seq")?;
    let rows = stmt
        .query_map([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))?
        .collect::<Result<Vec<_>, _>>()?;
    rows.into_iter()
        .map(|(seq, json)| {
            serde_json::from_str(&json)
                .map(|e| (seq, e))
                .map_err(|e| TableError::Corrupt {
                    game: id,
                    seq,
                    message: e.to_string(),
                })
        })
        .collect()
}

fn load_with_meta(conn: &Connection, id: i64) -> Result<(Game, i64), TableError> {
    let row: Option<(String, String, i64)> = conn
        .query_row(
            "SELECT players, rules, created_at FROM games WHERE id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?;
    let (players, rules, created_at) = row.ok_or(TableError::UnknownGame(id))?;
    let corrupt = |message: String| TableError::Corrupt {
        game: id,
        seq: 0,
        message,
    };
    let names: Vec<String> = serde_json::from_str(&players).map_err(|e| corrupt(e.to_string()))?;
    let rules: Rules = serde_json::from_str(&rules).map_err(|e| corrupt(e.to_string()))?;
    let events = load_events(conn, id)?;
    for (i, (seq, _)) in events.iter().enumerate() {
        if *seq != i as i64 + 1 {
            return Err(TableError::Corrupt {
                game: id,
                seq: *seq,
                message: "gap in event numbers".into(),
            });
        }
    }
    let list: Vec<Event> = events.into_iter().map(|(_, e)| e).collect();
    let game = Game::from_events(rules, names, &list).map_err(|(i, e)| TableError::Corrupt {
        game: id,
        seq: i as i64 + 1,
        message: e.to_string(),
    })?;
    Ok((game, created_at))
}

fn load(conn: &Connection, id: i64) -> Result<Game, TableError> {
    load_with_meta(conn, id).map(|(g, _)| g)
}

/// One event of an export, with its effect.
#[derive(Debug, Clone, Serialize)]
struct ReplayRow {
    seq: usize,
    /// The hand in which the event happened, e.g. "East 1, 0 honba".
    hand: String,
    event: Event,
    description: String,
    deltas: Vec<i64>,
    points_after: Vec<i64>,
    honba_after: u32,
    sticks_after: u32,
    notes: Vec<String>,
}

fn replay(game: &Game) -> Vec<ReplayRow> {
    let mut g = Game::new(game.rules().clone(), game.players().to_vec())
        .expect("a loaded game has valid rules");
    let mut rows = Vec::new();
    for (i, (event, _)) in game.history().iter().enumerate() {
        let hand = g.hand_label();
        let outcome = g.apply(event).expect("a loaded game replays");
        rows.push(ReplayRow {
            seq: i + 1,
            hand,
            event: event.clone(),
            description: describe(&g, event),
            deltas: outcome.deltas,
            points_after: g.points().to_vec(),
            honba_after: g.honba(),
            sticks_after: g.riichi_sticks(),
            notes: outcome.notes,
        });
    }
    rows
}

/// An event described with player names.
pub(crate) fn describe(game: &Game, event: &Event) -> String {
    let name = |s: super::Seat| {
        game.players()
            .get(s.index())
            .cloned()
            .unwrap_or_else(|| format!("seat {s}"))
    };
    match event {
        Event::Riichi { seat } => format!("{} declares riichi", name(*seat)),
        Event::Tsumo {
            winner,
            dealer,
            non_dealer,
            pao,
        } => {
            let p = super::HandPoints::Tsumo {
                dealer: *dealer,
                non_dealer: *non_dealer,
            };
            let mut s = format!("{} wins by tsumo ({p})", name(*winner));
            if let Some(p) = pao {
                s.push_str(&format!(", {} liable (pao)", name(*p)));
            }
            s
        }
        Event::Ron { discarder, winners } => {
            let w: Vec<String> = winners
                .iter()
                .map(|w| {
                    let mut s = format!("{} ({})", name(w.winner), w.points);
                    if let Some(p) = w.pao {
                        s.push_str(&format!(" with {} liable (pao)", name(p)));
                    }
                    s
                })
                .collect();
            format!("ron on {}'s discard: {}", name(*discarder), w.join(", "))
        }
        Event::ExhaustiveDraw { tenpai } => {
            if tenpai.is_empty() {
                "exhaustive draw, nobody tenpai".to_string()
            } else {
                let t: Vec<String> = tenpai.iter().map(|s| name(*s)).collect();
                format!("exhaustive draw, tenpai: {}", t.join(", "))
            }
        }
        Event::AbortiveDraw { reason } => format!("abortive draw ({reason})"),
        Event::Chombo { seat } => format!("chombo by {}", name(*seat)),
        Event::EndGame => "game stopped".to_string(),
    }
}

#[derive(Serialize)]
struct NamedStanding {
    name: String,
    #[serde(flatten)]
    standing: super::Standing,
}

fn named(game: &Game, result: FinalResult) -> Vec<NamedStanding> {
    result
        .standings
        .into_iter()
        .map(|s| NamedStanding {
            name: game.players()[s.seat.index()].clone(),
            standing: s,
        })
        .collect()
}

#[derive(Serialize)]
struct JsonExport {
    id: i64,
    created_at: i64,
    players: Vec<String>,
    rules: Rules,
    events: Vec<ReplayRow>,
    state: TableState,
    finished: bool,
    final_result: Option<Vec<NamedStanding>>,
}

fn csv_line(cells: &[String]) -> String {
    let mut line = cells
        .iter()
        .map(|c| {
            if c.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", c.replace('"', "\"\""))
            } else {
                c.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(",");
    line.push('\n');
    line
}
