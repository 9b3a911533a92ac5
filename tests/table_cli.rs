//! The `game` command line, driven through clap exactly as the binary does.

use clap::{Parser, Subcommand};
use riichi_lens::table::cli::{run, GameArgs};
use riichi_lens::table::TableError;
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(name = "riichi-lens")]
struct Cli {
    #[command(subcommand)]
    command: Top,
}

#[derive(Subcommand)]
enum Top {
    Game(GameArgs),
}

/// A database path in a folder of its own, removed when the returned guard drops, pass or fail.
fn temp_db(tag: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::Builder::new()
        .prefix(&format!("riichi-lens-table-cli-{tag}-"))
        .tempdir()
        .unwrap();
    let path = dir.path().join("games.sqlite3");
    (dir, path)
}

fn game(db: &Path, args: &str) -> Result<String, TableError> {
    let mut argv = vec![
        "riichi-lens".to_string(),
        "game".to_string(),
        "--db".to_string(),
        db.display().to_string(),
    ];
    argv.extend(args.split_whitespace().map(String::from));
    let cli = Cli::try_parse_from(&argv).map_err(|e| TableError::Input(e.to_string()))?;
    let Top::Game(args) = cli.command;
    let mut out = Vec::new();
    run(args, &mut out)?;
    Ok(String::from_utf8(out).unwrap())
}

fn ok(db: &Path, args: &str) -> String {
    game(db, args).unwrap_or_else(|e| panic!("game {args}: {e}"))
}

#[test]
fn a_whole_game_from_the_command_line() {
    let (_dir, db) = temp_db("whole");
    let out = ok(&db, "new --players Alice,Bob,Carol,Dave --preset wiki");
    assert!(out.contains("Started game 1 (wiki rules)"), "{out}");
    let out = ok(&db, "riichi Bob");
    assert!(out.contains("Bob declares riichi"), "{out}");
    let out = ok(&db, "win --winner 1 --ron-from 2 --points 7700");
    assert!(out.contains("+8700"), "{out}");
    assert!(out.contains("East 2, 0 honba"), "{out}");
    // Bob deals now; seat winds work as names.
    let out = ok(&db, "win --winner east --tsumo --points 2600all");
    assert!(out.contains("+7800"), "{out}");
    let out = ok(&db, "win --winner 3 --tsumo --han 3 --fu 30");
    // 1,000/2,000 + 1 counter: Bob (dealer) pays 2,100.
    assert!(out.contains("-2100"), "{out}");
    let out = ok(&db, "draw --tenpai Alice,2");
    assert!(out.contains("+1500"), "{out}");
    let out = ok(&db, "draw --abortive four-winds");
    assert!(out.contains("abortive draw (four winds)"), "{out}");
    // Double ron.
    let out = ok(
        &db,
        "win --ron-from 0 --winner 1 --points 1000 --winner 3 --points 2000",
    );
    assert!(out.contains("ron on Alice's discard"), "{out}");
    let out = ok(&db, "undo");
    assert!(out.starts_with("Undid: ron"), "{out}");
    let out = ok(&db, "show");
    assert!(out.contains("Game 1 (wiki)"), "{out}");
    let out = ok(&db, "end");
    assert!(out.contains("is over: ended at the table"), "{out}");
    assert!(out.contains("Final result:"), "{out}");
    // No current game any more.
    assert!(matches!(
        game(&db, "riichi 0"),
        Err(TableError::NoCurrentGame)
    ));
    assert!(matches!(
        game(&db, "--game 1 riichi 0"),
        Err(TableError::GameOver)
    ));
    let out = ok(&db, "list");
    assert!(out.contains("#1"), "{out}");
    assert!(out.contains("finished"), "{out}");
    let csv = ok(&db, "export --format csv");
    assert!(csv.lines().last().unwrap().starts_with(",,final,"), "{csv}");
    let json = ok(&db, "export --format json");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["finished"], true);
}

#[test]
fn errors_are_messages_not_panics() {
    let (_dir, db) = temp_db("errors");
    assert!(matches!(game(&db, "show"), Err(TableError::NoCurrentGame)));
    assert!(game(&db, "new --players A,B,C --preset wiki")
        .unwrap_err()
        .to_string()
        .contains("--preset sanma"));
    assert!(game(&db, "new --players A,B,C,D --preset nope").is_err());
    assert!(game(&db, "new --players A,B,C,D --uma 1,2").is_err());
    ok(&db, "new --players A,B,C,D --preset ema --uma 10-30");
    let e = game(&db, "win --winner A --ron-from A --points 1000").unwrap_err();
    assert!(matches!(e, TableError::WinnerIsDiscarder(_)), "{e}");
    let e = game(&db, "win --winner Zed --ron-from A --points 1000").unwrap_err();
    assert!(matches!(e, TableError::UnknownPlayer(_)), "{e}");
    let e = game(&db, "win --winner 1 --ron-from 0 --points 2000/3900").unwrap_err();
    assert!(e.to_string().contains("tsumo"), "{e}");
    let e = game(&db, "win --winner 1 --tsumo --points 7700").unwrap_err();
    assert!(e.to_string().contains("NON_DEALER/DEALER"), "{e}");
    let e = game(&db, "win --winner 0 --tsumo --points 2000/3900").unwrap_err();
    assert!(e.to_string().contains("dealer"), "{e}");
    let e = game(&db, "win --winner 1 --tsumo --points 4000all").unwrap_err();
    assert!(e.to_string().contains("not the dealer"), "{e}");
    let e = game(&db, "win --winner 1 --ron-from 0 --han 3").unwrap_err();
    assert!(e.to_string().contains("--fu"), "{e}");
    let e = game(&db, "win --winner 1 --ron-from 0").unwrap_err();
    assert!(e.to_string().contains("--points"), "{e}");
    let e = game(&db, "riichi 7").unwrap_err();
    assert!(
        matches!(e, TableError::SeatOutOfRange { seat: 7, .. }),
        "{e}"
    );
    let e = game(&db, "draw --abortive other").unwrap_err();
    assert!(matches!(e, TableError::AbortiveDrawsDisabled), "{e}");
    let e = game(&db, "--game 42 show").unwrap_err();
    assert!(matches!(e, TableError::UnknownGame(42)), "{e}");
    // The EMA game with its custom uma works.
    let out = ok(&db, "end");
    assert!(out.contains("Final result:"), "{out}");
}

#[test]
fn sanma_and_resume() {
    let (_dir, db) = temp_db("sanma");
    ok(&db, "new -p A -p B -p C --preset sanma --tsumo-3p bisect");
    ok(&db, "new -p W,X,Y,Z --preset shanghai --start 30000");
    // The newest game is current; resume the first one.
    let out = ok(&db, "resume 1");
    assert!(out.contains("Game 1 is now the current game"), "{out}");
    let out = ok(&db, "win --winner 1 --tsumo --points 1000/2000");
    assert!(out.contains("+4000"), "{out}");
    let out = ok(&db, "presets");
    assert!(out.contains("sanma:"), "{out}");
}
