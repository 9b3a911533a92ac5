//! The resumable state of a batch: an SQLite file.
//!
//! - `results`: one row per distinct photo, keyed by the SHA-256 of the file's bytes: the
//!   [`Outcome`] (what was read, or why nothing could be) and the output row as first written.
//! - `files`: which hash each file had when last seen.
//! - `thumbnails`: report thumbnails by hash.
//! - `meta`: the schema version and the identity of the reader (model) that made the results.
//!
//! WAL journal with `synchronous = FULL`; each finished photo is committed in its own
//! `IMMEDIATE` transaction, so a process killed at any moment leaves every committed result
//! and nothing half-written.

use super::report::Thumbnail;
use super::row::{Outcome, Row};
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    sha256      TEXT PRIMARY KEY,
    outcome     TEXT NOT NULL,
    row         TEXT NOT NULL,
    finished_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
    path    TEXT PRIMARY KEY,
    sha256  TEXT NOT NULL,
    seen_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS thumbnails (
    sha256 TEXT PRIMARY KEY,
    jpeg   BLOB NOT NULL,
    width  INTEGER NOT NULL,
    height INTEGER NOT NULL
);
";

const SCHEMA_VERSION: &str = "1";

/// A state problem: SQLite, an unreadable stored value, or results of another reader.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("state {path}: {message}")]
    Sqlite { path: String, message: String },
    #[error("state {path} holds results made by {stored}, but this run reads with {current}; delete the state file or give another --state to read the photos again")]
    ReaderChanged {
        path: String,
        stored: String,
        current: String,
    },
    #[error("state {path}: the stored result for {sha256} is unreadable: {message}")]
    Corrupt {
        path: String,
        sha256: String,
        message: String,
    },
}

/// The open state file.
pub struct State {
    conn: Connection,
    path: PathBuf,
}

fn now() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

impl State {
    /// Opens or creates the state at `path` for results of `reader` (an identity of the model,
    /// e.g. a hash of its files). A state made by another reader is refused.
    pub fn open(path: &Path, reader: &str) -> Result<State, StateError> {
        let fail = |e: rusqlite::Error| StateError::Sqlite {
            path: path.display().to_string(),
            message: e.to_string(),
        };
        let conn = Connection::open(path).map_err(fail)?;
        let state = State {
            conn,
            path: path.to_path_buf(),
        };
        state.init(reader)?;
        Ok(state)
    }

    fn sql(&self, e: rusqlite::Error) -> StateError {
        StateError::Sqlite {
            path: self.path.display().to_string(),
            message: e.to_string(),
        }
    }

    fn init(&self, reader: &str) -> Result<(), StateError> {
        let conn = &self.conn;
        conn.busy_timeout(Duration::from_secs(10))
            .map_err(|e| self.sql(e))?;
        let _mode: String = conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(|e| self.sql(e))?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(|e| self.sql(e))?;
        conn.execute_batch(SCHEMA).map_err(|e| self.sql(e))?;
        let tx = conn.unchecked_transaction().map_err(|e| self.sql(e))?;
        let stored: Option<String> = tx
            .query_row("SELECT value FROM meta WHERE key = 'reader'", [], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.sql(e))?;
        match stored {
            Some(stored) if stored != reader => {
                return Err(StateError::ReaderChanged {
                    path: self.path.display().to_string(),
                    stored,
                    current: reader.to_string(),
                })
            }
            Some(_) => {}
            None => {
                tx.execute(
                    "INSERT OR REPLACE INTO meta (key, value) VALUES ('reader', ?1), ('schema', ?2)",
                    params![reader, SCHEMA_VERSION],
                )
                .map_err(|e| self.sql(e))?;
            }
        }
        tx.commit().map_err(|e| self.sql(e))
    }

    /// The path of the state file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Hashes that have a result.
    pub fn finished(&self) -> Result<HashSet<String>, StateError> {
        let mut stmt = self
            .conn
            .prepare("SELECT sha256 FROM results")
            .map_err(|e| self.sql(e))?;
        let hashes = stmt
            .query_map([], |r| r.get::<_, String>(0))
            .and_then(|rows| rows.collect::<Result<HashSet<_>, _>>())
            .map_err(|e| self.sql(e))?;
        Ok(hashes)
    }

    /// Number of stored results.
    pub fn result_count(&self) -> Result<usize, StateError> {
        self.conn
            .query_row("SELECT COUNT(*) FROM results", [], |r| r.get::<_, i64>(0))
            .map(|n| n as usize)
            .map_err(|e| self.sql(e))
    }

    /// Notes that `path` has `sha256` (one transaction, none when already noted).
    pub fn record_file(&self, path: &str, sha256: &str) -> Result<(), StateError> {
        if self.file_hash(path)?.as_deref() == Some(sha256) {
            return Ok(());
        }
        self.conn
            .execute(
                "INSERT OR REPLACE INTO files (path, sha256, seen_at) VALUES (?1, ?2, ?3)",
                params![path, sha256, now()],
            )
            .map(|_| ())
            .map_err(|e| self.sql(e))
    }

    /// The hash `path` had when last seen.
    pub fn file_hash(&self, path: &str) -> Result<Option<String>, StateError> {
        self.conn
            .query_row("SELECT sha256 FROM files WHERE path = ?1", [path], |r| {
                r.get(0)
            })
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// Commits a finished photo: its outcome, the row first written for it, the file it came
    /// from and its thumbnail, in one transaction. A result already stored for the hash is
    /// kept.
    pub fn commit(
        &mut self,
        path: &str,
        sha256: &str,
        outcome: &Outcome,
        row: &Row,
        thumbnail: Option<&Thumbnail>,
    ) -> Result<(), StateError> {
        let encode = |e: serde_json::Error| StateError::Corrupt {
            path: self.path.display().to_string(),
            sha256: sha256.to_string(),
            message: e.to_string(),
        };
        let outcome = serde_json::to_string(outcome).map_err(encode)?;
        let row = serde_json::to_string(row).map_err(encode)?;
        let path_text = self.path.display().to_string();
        let sql = |e: rusqlite::Error| StateError::Sqlite {
            path: path_text.clone(),
            message: e.to_string(),
        };
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)
            .map_err(sql)?;
        let time = now();
        tx.execute(
            "INSERT OR IGNORE INTO results (sha256, outcome, row, finished_at) VALUES (?1, ?2, ?3, ?4)",
            params![sha256, outcome, row, time],
        )
        .map_err(sql)?;
        tx.execute(
            "INSERT OR REPLACE INTO files (path, sha256, seen_at) VALUES (?1, ?2, ?3)",
            params![path, sha256, time],
        )
        .map_err(sql)?;
        if let Some(t) = thumbnail {
            tx.execute(
                "INSERT OR REPLACE INTO thumbnails (sha256, jpeg, width, height) VALUES (?1, ?2, ?3, ?4)",
                params![sha256, t.jpeg, t.width, t.height],
            )
            .map_err(sql)?;
        }
        tx.commit().map_err(sql)
    }

    /// The stored outcome of a photo.
    pub fn outcome(&self, sha256: &str) -> Result<Option<Outcome>, StateError> {
        self.stored_json(sha256, "outcome")
    }

    /// The output row first written for a photo.
    pub fn first_row(&self, sha256: &str) -> Result<Option<Row>, StateError> {
        self.stored_json(sha256, "row")
    }

    fn stored_json<T: serde::de::DeserializeOwned>(
        &self,
        sha256: &str,
        column: &str,
    ) -> Result<Option<T>, StateError> {
        let text: Option<String> = self
            .conn
            .query_row(
                &format!("SELECT {column} FROM results WHERE sha256 = ?1"),
                [sha256],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql(e))?;
        text.map(|t| {
            serde_json::from_str(&t).map_err(|e| StateError::Corrupt {
                path: self.path.display().to_string(),
                sha256: sha256.to_string(),
                message: e.to_string(),
            })
        })
        .transpose()
    }

    /// A stored thumbnail.
    pub fn thumbnail(&self, sha256: &str) -> Result<Option<Thumbnail>, StateError> {
        self.conn
            .query_row(
                "SELECT jpeg, width, height FROM thumbnails WHERE sha256 = ?1",
                [sha256],
                |r| {
                    Ok(Thumbnail {
                        jpeg: r.get(0)?,
                        width: r.get(1)?,
                        height: r.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(|e| self.sql(e))
    }

    /// Stores a thumbnail.
    pub fn put_thumbnail(&self, sha256: &str, t: &Thumbnail) -> Result<(), StateError> {
        self.conn
            .execute(
                "INSERT OR REPLACE INTO thumbnails (sha256, jpeg, width, height) VALUES (?1, ?2, ?3, ?4)",
                params![sha256, t.jpeg, t.width, t.height],
            )
            .map(|_| ())
            .map_err(|e| self.sql(e))
    }
}
