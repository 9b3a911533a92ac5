//! Crash test: a child process (this test binary, re-executed in child mode)
//! records events as fast as it can and reports each commit; the parent
//! kills it with SIGKILL mid-way, reopens the database and checks that every
//! reported event is there and that every game still folds consistently.

use riichi_lens::table::{Event, Game, HandPoints, Preset, Rules, Seat, Store};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const CHILD_ENV: &str = "RIICHI_LENS_TABLE_CRASH_CHILD_DB";

fn names() -> Vec<String> {
    ["Alice", "Bob", "Carol", "Dave"]
        .iter()
        .map(|x| x.to_string())
        .collect()
}

/// A deterministic, endless stream of valid events: riichi, draws and wins.
fn next_event(game: &Game, k: u64) -> Event {
    let n = game.player_count();
    let seat = |i: u64| Seat::new((i % n as u64) as usize).unwrap();
    let dealer = game.dealer();
    match k % 5 {
        0 if game.points()[seat(k).index()] >= 1000 && !game.state().riichi.contains(&seat(k)) => {
            Event::Riichi { seat: seat(k) }
        }
        1 => Event::ExhaustiveDraw {
            tenpai: vec![seat(k / 5)],
        },
        2 => {
            let winner = seat(k / 3 + 1);
            let discarder = seat(winner.index() as u64 + 1);
            Event::win(
                winner,
                Some(discarder),
                HandPoints::Ron { points: 2000 },
                None,
            )
            .unwrap()
        }
        3 => {
            let winner = seat(k / 7);
            let p = if winner == dealer {
                HandPoints::Tsumo {
                    dealer: 0,
                    non_dealer: 700,
                }
            } else {
                HandPoints::Tsumo {
                    dealer: 1300,
                    non_dealer: 700,
                }
            };
            Event::win(winner, None, p, None).unwrap()
        }
        _ => Event::ExhaustiveDraw { tenpai: vec![] },
    }
}

/// Child mode: only does something when the parent set the environment variable.
#[test]
fn crash_child() {
    let Ok(path) = std::env::var(CHILD_ENV) else {
        return;
    };
    let mut store = Store::open(&path).unwrap();
    let rules = Rules::preset(Preset::Wiki);
    let mut id = store.create_game(&rules, &names()).unwrap();
    let stdout = std::io::stdout();
    let mut k: u64 = 0;
    loop {
        let game = store.load_game(id).unwrap();
        if game.is_finished() {
            id = store.create_game(&rules, &names()).unwrap();
            continue;
        }
        let event = next_event(&game, k);
        k += 1;
        let (_, _) = store.append_event(id, &event).unwrap();
        let seq = store.events(id).unwrap().len();
        // Reported only after the commit returned.
        let mut out = stdout.lock();
        writeln!(out, "COMMITTED {id} {seq}").unwrap();
        out.flush().unwrap();
    }
}

#[test]
fn kill_between_events_loses_nothing() {
    let dir = tempfile::Builder::new()
        .prefix("riichi-lens-table-crash-")
        .tempdir()
        .unwrap();
    let db = dir.path().join("games.sqlite3");

    for round in 0..3 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "crash_child", "--nocapture", "--test-threads=1"])
            .env(CHILD_ENV, &db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut lines = BufReader::new(stdout).lines();
        let mut committed: Vec<(i64, usize)> = Vec::new();
        let start = Instant::now();
        // Let it write a good number of events (more each round), then SIGKILL.
        let wanted = 40 + 30 * round;
        while committed.len() < wanted && start.elapsed() < Duration::from_secs(60) {
            match lines.next() {
                Some(Ok(line)) => {
                    if let Some(rest) = line.strip_prefix("COMMITTED ") {
                        let mut it = rest.split_whitespace();
                        let id: i64 = it.next().unwrap().parse().unwrap();
                        let seq: usize = it.next().unwrap().parse().unwrap();
                        committed.push((id, seq));
                    }
                }
                _ => break,
            }
        }
        child.kill().unwrap(); // SIGKILL on Unix
        let _ = child.wait();
        assert!(
            committed.len() >= wanted,
            "the child reported only {} commits",
            committed.len()
        );

        // Reopen: every reported commit is there, every game folds, points are conserved.
        let store = Store::open(&db).unwrap();
        for &(id, seq) in &committed {
            let events = store.events(id).unwrap();
            assert!(
                events.len() >= seq,
                "game {id}: event {seq} was reported committed but only {} are stored",
                events.len()
            );
        }
        let games = store.list_games().unwrap();
        assert!(!games.is_empty());
        for g in &games {
            let game = store.load_game(g.id).unwrap();
            assert_eq!(game.total_on_table(), 4 * 25_000);
            let events = store.events(g.id).unwrap();
            for (i, (seq, _)) in events.iter().enumerate() {
                assert_eq!(*seq, i as i64 + 1);
            }
        }
    }
}
