//! SQLite store: create, append, undo, list, resume, reopen, exports, errors.

use riichi_lens::table::{Event, HandPoints, Preset, Rules, Seat, Store, TableError};
use std::path::PathBuf;

fn s(i: usize) -> Seat {
    Seat::new(i).unwrap()
}

fn names() -> Vec<String> {
    ["Alice", "Bob", "Carol", "Dave"]
        .iter()
        .map(|x| x.to_string())
        .collect()
}

/// A database path in a folder of its own, removed when the returned guard drops, pass or fail.
fn temp_db(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix(&format!("riichi-lens-table-{tag}-"))
        .tempdir()
        .unwrap();
    let path = dir.path().join("games.sqlite3");
    (dir, path)
}

fn ron(discarder: usize, winner: usize, points: u32) -> Event {
    Event::win(
        s(winner),
        Some(s(discarder)),
        HandPoints::Ron { points },
        None,
    )
    .unwrap()
}

#[test]
fn append_undo_reopen() {
    let (_dir, path) = temp_db("reopen");
    let id = {
        let mut store = Store::open(&path).unwrap();
        let id = store
            .create_game(&Rules::preset(Preset::Wiki), &names())
            .unwrap();
        store
            .append_event(id, &Event::Riichi { seat: s(1) })
            .unwrap();
        let (game, outcome) = store.append_event(id, &ron(2, 1, 7700)).unwrap();
        assert_eq!(outcome.deltas, vec![0, 8700, -7700, 0]);
        assert_eq!(game.points(), &[25_000, 32_700, 17_300, 25_000]);
        // A rejected event is not stored.
        assert!(store.append_event(id, &ron(1, 1, 1000)).is_err());
        assert_eq!(store.events(id).unwrap().len(), 2);
        id
    };
    // WAL mode is on.
    let conn = rusqlite::Connection::open(&path).unwrap();
    let mode: String = conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    drop(conn);

    let mut store = Store::open(&path).unwrap();
    let game = store.load_game(id).unwrap();
    assert_eq!(game.events().len(), 2);
    assert_eq!(game.hand_label(), "East 2, 0 honba");
    let (game, removed) = store.undo(id).unwrap();
    assert_eq!(removed, ron(2, 1, 7700));
    assert_eq!(game.points(), &[25_000, 24_000, 25_000, 25_000]);
    assert_eq!(game.riichi_sticks(), 1);
    let (game, _) = store.undo(id).unwrap();
    assert_eq!(game.events().len(), 0);
    assert!(matches!(store.undo(id), Err(TableError::NothingToUndo)));
    let events: Vec<(i64, Event)> = store.events(id).unwrap();
    assert!(events.is_empty());
    // Appending after undo reuses the sequence numbers.
    store.append_event(id, &ron(2, 1, 1000)).unwrap();
    assert_eq!(store.events(id).unwrap()[0].0, 1);
}

#[test]
fn current_game_list_and_resume() {
    let mut store = Store::open_in_memory().unwrap();
    assert_eq!(store.current_game().unwrap(), None);
    let a = store
        .create_game(&Rules::preset(Preset::Wiki), &names())
        .unwrap();
    let b = store
        .create_game(&Rules::preset(Preset::Ema), &names())
        .unwrap();
    assert_eq!(store.current_game().unwrap(), Some(b));
    // Recording in game a makes it current.
    store
        .append_event(a, &Event::Riichi { seat: s(0) })
        .unwrap();
    assert_eq!(store.current_game().unwrap(), Some(a));
    store.resume(b).unwrap();
    assert_eq!(store.current_game().unwrap(), Some(b));
    // A finished game is never the current one; undo reopens it.
    store.append_event(b, &Event::EndGame).unwrap();
    assert_eq!(store.current_game().unwrap(), Some(a));
    assert!(matches!(
        store.append_event(b, &Event::Riichi { seat: s(0) }),
        Err(TableError::GameOver)
    ));
    store.undo(b).unwrap();
    assert_eq!(store.current_game().unwrap(), Some(b));

    let list = store.list_games().unwrap();
    assert_eq!(list.len(), 2);
    assert_eq!(list[0].id, b);
    assert_eq!(list[1].preset, "wiki");
    assert_eq!(list[1].points, vec![24_000, 25_000, 25_000, 25_000]);
    assert_eq!(list[1].events, 1);
    assert!(!list[1].finished);

    assert!(matches!(
        store.load_game(99),
        Err(TableError::UnknownGame(99))
    ));
    assert!(matches!(
        store.append_event(99, &Event::EndGame),
        Err(TableError::UnknownGame(99))
    ));
    assert!(matches!(
        store.create_game(&Rules::preset(Preset::Sanma), &names()),
        Err(TableError::WrongPlayerCount { .. })
    ));
}

#[test]
fn exports() {
    let mut store = Store::open_in_memory().unwrap();
    let id = store
        .create_game(&Rules::preset(Preset::Wiki), &names())
        .unwrap();
    store
        .append_event(id, &Event::Riichi { seat: s(0) })
        .unwrap();
    store.append_event(id, &ron(2, 1, 7700)).unwrap();
    let json = store.export_json(id).unwrap();
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["players"][1], "Bob");
    assert_eq!(v["rules"]["preset"], "wiki");
    assert_eq!(v["events"][1]["event"]["type"], "ron");
    assert_eq!(v["events"][1]["hand"], "East 1, 0 honba");
    assert_eq!(v["events"][1]["deltas"][1], 8700);
    assert_eq!(v["events"][1]["points_after"][0], 24_000);
    assert_eq!(v["finished"], false);
    assert!(v["final_result"].is_null());

    let csv = store.export_csv(id).unwrap();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 3);
    assert!(lines[0].starts_with("seq,hand,event,description,Alice delta,"));
    assert!(
        lines[2].starts_with("2,\"East 1, 0 honba\",ron,"),
        "{}",
        lines[2]
    );

    store.append_event(id, &Event::EndGame).unwrap();
    let v: serde_json::Value = serde_json::from_str(&store.export_json(id).unwrap()).unwrap();
    assert_eq!(v["finished"], true);
    assert_eq!(v["final_result"][0]["name"], "Bob");
    assert_eq!(v["final_result"][0]["place"], 1);
    let csv = store.export_csv(id).unwrap();
    let last = csv.lines().last().unwrap();
    assert!(last.starts_with(",,final,"), "{last}");
    // Bob: 33,700 + 1 leftover stick = 34,700 + 20,000 − 30,000 = 24.7 → top absorbs.
    let total: f64 = v["final_result"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["score"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 0.0);
}

#[test]
fn corrupt_rows_are_reported() {
    let (_dir, path) = temp_db("corrupt");
    let mut store = Store::open(&path).unwrap();
    let id = store
        .create_game(&Rules::preset(Preset::Wiki), &names())
        .unwrap();
    store
        .append_event(id, &Event::Riichi { seat: s(0) })
        .unwrap();
    drop(store);
    let conn = rusqlite::Connection::open(&path).unwrap();
    conn.execute("UPDATE events SET event = '{\"type\":\"nope\"}'", [])
        .unwrap();
    drop(conn);
    let store = Store::open(&path).unwrap();
    assert!(matches!(
        store.load_game(id),
        Err(TableError::Corrupt { seq: 1, .. })
    ));
}
