//! The `riichi-lens game ...` command line: record a game hand by hand from
//! a terminal. The binary wires [`GameArgs`] as a subcommand and calls
//! [`run`]; everything else (parsing players, points, output) lives here.
//!
//! The database is `--db PATH`, by default
//! `$XDG_DATA_HOME/riichi-lens/games.sqlite3` (or
//! `~/.local/share/riichi-lens/games.sqlite3`). Commands act on `--game ID`,
//! by default the most recently used unfinished game.

use super::event::{AbortiveReason, Event, HandPoints, RonWin};
use super::game::{Game, Outcome};
use super::rules::{
    parse_uma, ChomboRule, GameLength, HonbaSplit, LeftoverSticks, MultiRon, Preset, Rounding,
    Rules, TieRule, TsumoSplit,
};
use super::store::{describe, Store};
use super::wind::wind_name;
use super::{Seat, TableError, Wind};
use crate::payment::{base_points, pay, Table as PayTable};
use crate::rules::{Rules as CoreRules, SanmaTsumo};
use clap::{Args, Subcommand, ValueEnum};
use std::io::Write;
use std::path::PathBuf;

/// Track a whole game at the table: `riichi-lens game new|riichi|win|draw|chombo|undo|show|end|list|resume|export|presets`.
#[derive(Debug, Clone, Args)]
pub struct GameArgs {
    /// SQLite database of games [default: $XDG_DATA_HOME/riichi-lens/games.sqlite3]
    #[arg(long, global = true, value_name = "PATH")]
    pub db: Option<PathBuf>,
    /// Game to act on [default: the most recently used unfinished game]
    #[arg(long, global = true, value_name = "ID")]
    pub game: Option<i64>,
    #[command(subcommand)]
    pub command: GameCommand,
}

/// The game subcommands.
#[derive(Debug, Clone, Subcommand)]
pub enum GameCommand {
    /// Start a new game.
    New(NewArgs),
    /// A player declares riichi (places a 1,000 deposit).
    Riichi {
        /// Seat number (0 = first dealer), player name, or seat wind (east, south, ...)
        player: String,
    },
    /// A win: tsumo, or ron by one or several players on the same discard.
    Win(WinArgs),
    /// Exhaustive draw (with the tenpai players) or abortive draw.
    Draw(DrawArgs),
    /// A chombo (penalty per the rules; the hand is replayed).
    Chombo {
        /// Seat number, player name, or seat wind
        player: String,
    },
    /// Remove the last recorded event.
    Undo,
    /// Show the table (and the final result once the game is over).
    Show,
    /// Stop the game now and show the final result.
    End,
    /// List all games.
    List,
    /// Make a game the current one.
    Resume {
        /// Game id
        id: i64,
    },
    /// Export a game as JSON or CSV.
    Export(ExportArgs),
    /// Show the presets and their switches.
    Presets,
}

/// On/off switch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Switch {
    On,
    Off,
}

impl Switch {
    fn get(self) -> bool {
        self == Switch::On
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RoundingArg {
    Exact,
    HalfDown,
    HalfUp,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TiesArg {
    Seat,
    Split,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum MultiRonArg {
    Atamahane,
    Double,
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum HonbaArg {
    Each,
    Closest,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LeftoverArg {
    Lost,
    Top,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TsumoSplitArg {
    Loss,
    Bisect,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AbortiveArg {
    NineTerminals,
    FourWinds,
    FourRiichi,
    FourKans,
    TripleRon,
    Other,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    Json,
    Csv,
}

/// `game new`: players and rules.
#[derive(Debug, Clone, Args)]
pub struct NewArgs {
    /// Player names in seat order from the first dealer: -p A -p B ... or -p A,B,C,D
    #[arg(long = "players", short = 'p', value_delimiter = ',', required = true, num_args = 1..)]
    pub players: Vec<String>,
    /// Rules preset: ema, wiki (alias tenhou), shanghai, sanma
    #[arg(long, default_value = "wiki")]
    pub preset: String,
    /// Start points
    #[arg(long)]
    pub start: Option<i64>,
    /// Target (return) points
    #[arg(long)]
    pub target: Option<i64>,
    /// Uma: one value per place (20,10,-10,-20) or a spread (10-20)
    #[arg(long, allow_hyphen_values = true)]
    pub uma: Option<String>,
    /// Oka to the top player
    #[arg(long)]
    pub oka: Option<Switch>,
    /// Rounding of the final score
    #[arg(long)]
    pub rounding: Option<RoundingArg>,
    /// Ties at the end: seat order, or split the uma
    #[arg(long)]
    pub ties: Option<TiesArg>,
    /// East round only
    #[arg(long, conflicts_with = "hanchan")]
    pub east_only: bool,
    /// East and South rounds
    #[arg(long)]
    pub hanchan: bool,
    /// Extension round when nobody reached the target
    #[arg(long)]
    pub extension: Option<Switch>,
    /// Bust (tobi) below zero
    #[arg(long)]
    pub tobi: Option<Switch>,
    /// Agari-yame / tenpai-yame at the final hand
    #[arg(long)]
    pub agari_yame: Option<Switch>,
    /// Multiple ron
    #[arg(long)]
    pub multi_ron: Option<MultiRonArg>,
    /// Honba with several winners: to each winner or to the closest one
    #[arg(long)]
    pub honba_split: Option<HonbaArg>,
    /// Riichi sticks left at the end: lost, or to the top player
    #[arg(long)]
    pub leftover: Option<LeftoverArg>,
    /// Total noten payment at an exhaustive draw
    #[arg(long)]
    pub noten: Option<u32>,
    /// Three players: tsumo loss or north bisection
    #[arg(long)]
    pub tsumo_3p: Option<TsumoSplitArg>,
    /// Forbid riichi below 1,000 points
    #[arg(long)]
    pub riichi_min: Option<Switch>,
    /// Chombo: `mangan` (reverse mangan at the table) or `final:POINTS` (from the final score)
    #[arg(long)]
    pub chombo: Option<String>,
    /// Pao for daisangen / daisuushii
    #[arg(long)]
    pub pao: Option<Switch>,
    /// Allow abortive draws
    #[arg(long)]
    pub abortive: Option<Switch>,
}

/// `game win`.
#[derive(Debug, Clone, Args)]
pub struct WinArgs {
    /// Winner (seat number, name or seat wind); repeat for a multiple ron
    #[arg(long, required = true)]
    pub winner: Vec<String>,
    /// The discarder (ron)
    #[arg(long, conflicts_with = "tsumo", required_unless_present = "tsumo")]
    pub ron_from: Option<String>,
    /// Win by self-draw
    #[arg(long)]
    pub tsumo: bool,
    /// Points, one per winner: ron `7700`; tsumo `2000/3900` (non-dealer/dealer) or `4000all`
    #[arg(long, conflicts_with_all = ["han", "fu"])]
    pub points: Vec<String>,
    /// Han, one per winner (13+ = yakuman); fu not needed from 5 han
    #[arg(long)]
    pub han: Vec<u8>,
    /// Fu, one per winner
    #[arg(long)]
    pub fu: Vec<u8>,
    /// The player liable (pao) for daisangen / daisuushii (single winner)
    #[arg(long)]
    pub pao: Option<String>,
}

/// `game draw`.
#[derive(Debug, Clone, Args)]
pub struct DrawArgs {
    /// Tenpai players at an exhaustive draw: --tenpai 0,2 (none: everybody noten)
    #[arg(long, value_delimiter = ',', conflicts_with = "abortive")]
    pub tenpai: Vec<String>,
    /// Abortive draw instead, with its reason
    #[arg(long)]
    pub abortive: Option<AbortiveArg>,
}

/// `game export`.
#[derive(Debug, Clone, Args)]
pub struct ExportArgs {
    #[arg(long, value_enum, default_value = "json")]
    pub format: ExportFormat,
    /// Write to this file instead of standard output
    #[arg(long)]
    pub out: Option<PathBuf>,
}

/// The default database path.
pub fn default_db_path() -> Result<PathBuf, TableError> {
    let base = match std::env::var_os("XDG_DATA_HOME") {
        Some(d) if !d.is_empty() && PathBuf::from(&d).is_absolute() => PathBuf::from(d),
        _ => match std::env::var_os("HOME") {
            Some(h) if !h.is_empty() => PathBuf::from(h).join(".local").join("share"),
            _ => {
                return Err(TableError::Input(
                    "cannot find a data directory (no XDG_DATA_HOME or HOME): pass --db PATH"
                        .into(),
                ))
            }
        },
    };
    Ok(base.join("riichi-lens").join("games.sqlite3"))
}

/// Runs a `game` subcommand, writing human-readable output to `out`.
pub fn run(args: GameArgs, out: &mut dyn Write) -> Result<(), TableError> {
    let path = match args.db {
        Some(p) => p,
        None => default_db_path()?,
    };
    if let Some(dir) = path.parent() {
        if !dir.as_os_str().is_empty() {
            std::fs::create_dir_all(dir)?;
        }
    }
    let mut store = Store::open(&path)?;
    let current = |store: &Store| -> Result<i64, TableError> {
        match args.game {
            Some(id) => Ok(id),
            None => store.current_game()?.ok_or(TableError::NoCurrentGame),
        }
    };
    match args.command {
        GameCommand::New(new) => {
            let rules = rules_from_args(&new)?;
            let names: Vec<String> = new.players.iter().map(|p| p.trim().to_string()).collect();
            if names.iter().any(|n| n.is_empty()) {
                return Err(TableError::Input("player names cannot be empty".into()));
            }
            let id = store.create_game(&rules, &names)?;
            let game = store.load_game(id)?;
            writeln!(out, "Started game {id} ({} rules).", rules.preset)?;
            print_table(out, id, &game, None)?;
        }
        GameCommand::Riichi { player } => {
            let id = current(&store)?;
            let game = store.load_game(id)?;
            let seat = parse_seat(&game, &player)?;
            record(&mut store, out, id, &Event::Riichi { seat })?;
        }
        GameCommand::Win(win) => {
            let id = current(&store)?;
            let game = store.load_game(id)?;
            let event = win_event(&game, &win)?;
            record(&mut store, out, id, &event)?;
        }
        GameCommand::Draw(draw) => {
            let id = current(&store)?;
            let game = store.load_game(id)?;
            let event = match draw.abortive {
                Some(reason) => Event::AbortiveDraw {
                    reason: match reason {
                        AbortiveArg::NineTerminals => AbortiveReason::NineTerminals,
                        AbortiveArg::FourWinds => AbortiveReason::FourWinds,
                        AbortiveArg::FourRiichi => AbortiveReason::FourRiichi,
                        AbortiveArg::FourKans => AbortiveReason::FourKans,
                        AbortiveArg::TripleRon => AbortiveReason::TripleRon,
                        AbortiveArg::Other => AbortiveReason::Other,
                    },
                },
                None => Event::ExhaustiveDraw {
                    tenpai: draw
                        .tenpai
                        .iter()
                        .filter(|t| !t.trim().is_empty())
                        .map(|t| parse_seat(&game, t))
                        .collect::<Result<_, _>>()?,
                },
            };
            record(&mut store, out, id, &event)?;
        }
        GameCommand::Chombo { player } => {
            let id = current(&store)?;
            let game = store.load_game(id)?;
            let seat = parse_seat(&game, &player)?;
            record(&mut store, out, id, &Event::Chombo { seat })?;
        }
        GameCommand::Undo => {
            let id = current_or_latest(&store, args.game)?;
            let (game, removed) = store.undo(id)?;
            writeln!(out, "Undid: {}", describe(&game, &removed))?;
            print_table(out, id, &game, None)?;
        }
        GameCommand::Show => {
            let id = current_or_latest(&store, args.game)?;
            let game = store.load_game(id)?;
            print_table(out, id, &game, None)?;
        }
        GameCommand::End => {
            let id = current(&store)?;
            record(&mut store, out, id, &Event::EndGame)?;
        }
        GameCommand::List => {
            let games = store.list_games()?;
            if games.is_empty() {
                writeln!(out, "No games yet.")?;
            }
            for g in games {
                let players: Vec<String> = g
                    .players
                    .iter()
                    .zip(&g.points)
                    .map(|(n, p)| format!("{n} {p}"))
                    .collect();
                writeln!(
                    out,
                    "#{:<4} {:<8} {:<20} {:>3} events  {}",
                    g.id,
                    g.preset,
                    g.position,
                    g.events,
                    players.join(" | ")
                )?;
            }
        }
        GameCommand::Resume { id } => {
            let game = store.resume(id)?;
            if game.is_finished() {
                writeln!(out, "Game {id} is over (undo its last event to reopen it).")?;
            } else {
                writeln!(out, "Game {id} is now the current game.")?;
            }
            print_table(out, id, &game, None)?;
        }
        GameCommand::Export(export) => {
            let id = current_or_latest(&store, args.game)?;
            let text = match export.format {
                ExportFormat::Json => {
                    let mut s = store.export_json(id)?;
                    s.push('\n');
                    s
                }
                ExportFormat::Csv => store.export_csv(id)?,
            };
            match export.out {
                Some(path) => {
                    std::fs::write(&path, text)?;
                    writeln!(out, "Wrote {}", path.display())?;
                }
                None => out.write_all(text.as_bytes())?,
            }
        }
        GameCommand::Presets => print_presets(out)?,
    }
    Ok(())
}

/// `--game`, else the current game, else the most recent game (finished or not).
fn current_or_latest(store: &Store, game: Option<i64>) -> Result<i64, TableError> {
    if let Some(id) = game {
        return Ok(id);
    }
    if let Some(id) = store.current_game()? {
        return Ok(id);
    }
    store
        .list_games()?
        .first()
        .map(|g| g.id)
        .ok_or(TableError::NoCurrentGame)
}

fn record(
    store: &mut Store,
    out: &mut dyn Write,
    id: i64,
    event: &Event,
) -> Result<(), TableError> {
    let (game, outcome) = store.append_event(id, event)?;
    writeln!(out, "{}", describe(&game, event))?;
    for note in &outcome.notes {
        writeln!(out, "  {note}")?;
    }
    print_table(out, id, &game, Some(&outcome))
}

fn rules_from_args(a: &NewArgs) -> Result<Rules, TableError> {
    let preset: Preset = a.preset.parse()?;
    let mut r = Rules::preset(preset);
    if r.player_count() != a.players.len() {
        return Err(TableError::Input(format!(
            "the {} preset is for {} players but {} names were given{}",
            preset,
            r.player_count(),
            a.players.len(),
            if a.players.len() == 3 {
                " (use --preset sanma for three players)"
            } else {
                ""
            }
        )));
    }
    if let Some(v) = a.start {
        r.start_points = v;
    }
    if let Some(v) = a.target {
        r.target_points = v;
    }
    if let Some(u) = &a.uma {
        r.uma = parse_uma(u, r.player_count())?;
    }
    if let Some(v) = a.oka {
        r.oka = v.get();
    }
    if let Some(v) = a.rounding {
        r.rounding = match v {
            RoundingArg::Exact => Rounding::Exact,
            RoundingArg::HalfDown => Rounding::HalfDown,
            RoundingArg::HalfUp => Rounding::HalfUp,
        };
    }
    if let Some(v) = a.ties {
        r.ties = match v {
            TiesArg::Seat => TieRule::SeatOrder,
            TiesArg::Split => TieRule::Split,
        };
    }
    if a.east_only {
        r.length = GameLength::EastOnly;
    }
    if a.hanchan {
        r.length = GameLength::Hanchan;
    }
    if let Some(v) = a.extension {
        r.extension = v.get();
    }
    if let Some(v) = a.tobi {
        r.tobi = v.get();
    }
    if let Some(v) = a.agari_yame {
        r.agari_yame = v.get();
    }
    if let Some(v) = a.multi_ron {
        r.multi_ron = match v {
            MultiRonArg::Atamahane => MultiRon::Atamahane,
            MultiRonArg::Double => MultiRon::DoubleTripleAborts,
            MultiRonArg::All => MultiRon::All,
        };
    }
    if let Some(v) = a.honba_split {
        r.honba_split = match v {
            HonbaArg::Each => HonbaSplit::EachWinner,
            HonbaArg::Closest => HonbaSplit::ClosestWinner,
        };
    }
    if let Some(v) = a.leftover {
        r.leftover_sticks = match v {
            LeftoverArg::Lost => LeftoverSticks::Lost,
            LeftoverArg::Top => LeftoverSticks::ToTop,
        };
    }
    if let Some(v) = a.noten {
        r.noten_total = v;
    }
    if let Some(v) = a.tsumo_3p {
        r.tsumo_split = match v {
            TsumoSplitArg::Loss => TsumoSplit::TsumoLoss,
            TsumoSplitArg::Bisect => TsumoSplit::NorthBisection,
        };
    }
    if let Some(v) = a.riichi_min {
        r.riichi_needs_1000 = v.get();
    }
    if let Some(c) = &a.chombo {
        r.chombo = parse_chombo(c)?;
    }
    if let Some(v) = a.pao {
        r.pao = v.get();
    }
    if let Some(v) = a.abortive {
        r.abortive_draws = v.get();
    }
    r.validate()?;
    Ok(r)
}

fn parse_chombo(s: &str) -> Result<ChomboRule, TableError> {
    let s = s.trim().to_ascii_lowercase();
    if s == "mangan" {
        return Ok(ChomboRule::ReverseMangan);
    }
    if s == "final" {
        return Ok(ChomboRule::FinalPenalty { points: 20_000 });
    }
    if let Some(p) = s.strip_prefix("final:") {
        if let Ok(points) = p.trim().parse::<u32>() {
            return Ok(ChomboRule::FinalPenalty { points });
        }
    }
    Err(TableError::Input(format!(
        "invalid chombo rule `{s}`: use `mangan` or `final:20000`"
    )))
}

/// A seat from a number (0 = first dealer), a player name, or a seat wind
/// of the current hand.
fn parse_seat(game: &Game, s: &str) -> Result<Seat, TableError> {
    let t = s.trim();
    if let Some(i) = game
        .players()
        .iter()
        .position(|n| n.eq_ignore_ascii_case(t))
    {
        return game.seat(i);
    }
    if let Ok(i) = t.parse::<usize>() {
        return game.seat(i);
    }
    if let Some(w) = Wind::parse(t) {
        if let Some(seat) = game.seats().find(|&seat| game.seat_wind(seat) == w) {
            return Ok(seat);
        }
    }
    Err(TableError::UnknownPlayer(t.to_string()))
}

fn parse_amount(s: &str) -> Result<u32, TableError> {
    let t: String = s.chars().filter(|c| *c != '_' && *c != ',').collect();
    t.trim()
        .parse::<u32>()
        .map_err(|_| TableError::Input(format!("invalid points `{s}`")))
}

/// Parses `--points` for a ron (`7700`) or a tsumo (`2000/3900`, `4000all`).
fn parse_points(s: &str, tsumo: bool) -> Result<HandPoints, TableError> {
    let t = s.trim().to_ascii_lowercase();
    if !tsumo {
        if t.contains('/') || t.ends_with("all") {
            return Err(TableError::Input(format!(
                "`{s}` looks like tsumo payments; a ron takes one amount, e.g. 7700"
            )));
        }
        return Ok(HandPoints::Ron {
            points: parse_amount(&t)?,
        });
    }
    if let Some(all) = t.strip_suffix("all") {
        let v = parse_amount(all.trim_end_matches(['-', ' ']))?;
        return Ok(HandPoints::Tsumo {
            dealer: 0,
            non_dealer: v,
        });
    }
    if let Some((nd, d)) = t.split_once('/') {
        return Ok(HandPoints::Tsumo {
            dealer: parse_amount(d)?,
            non_dealer: parse_amount(nd)?,
        });
    }
    Err(TableError::Input(format!(
        "tsumo points `{s}`: use NON_DEALER/DEALER (e.g. 2000/3900) or NNNNall (e.g. 4000all)"
    )))
}

fn win_event(game: &Game, win: &WinArgs) -> Result<Event, TableError> {
    let winners: Vec<Seat> = win
        .winner
        .iter()
        .map(|w| parse_seat(game, w))
        .collect::<Result<_, _>>()?;
    let pao = win
        .pao
        .as_deref()
        .map(|p| parse_seat(game, p))
        .transpose()?;
    if winners.len() > 1 && (win.tsumo || pao.is_some()) {
        return Err(TableError::Input(
            "several winners are only possible for a ron, without --pao".into(),
        ));
    }
    let points: Vec<HandPoints> = if !win.points.is_empty() {
        if win.points.len() != winners.len() {
            return Err(TableError::Input(format!(
                "{} winner(s) but {} --points value(s)",
                winners.len(),
                win.points.len()
            )));
        }
        win.points
            .iter()
            .map(|p| parse_points(p, win.tsumo))
            .collect::<Result<_, _>>()?
    } else if !win.han.is_empty() {
        if win.han.len() != winners.len() || (!win.fu.is_empty() && win.fu.len() != winners.len()) {
            return Err(TableError::Input(
                "give one --han (and one --fu) per winner".into(),
            ));
        }
        winners
            .iter()
            .enumerate()
            .map(|(i, &w)| {
                han_fu_points(
                    win.han[i],
                    win.fu.get(i).copied(),
                    w == game.dealer(),
                    win.tsumo,
                    game.player_count(),
                )
            })
            .collect::<Result<_, _>>()?
    } else {
        return Err(TableError::Input(
            "give the value of the hand: --points, or --han and --fu".into(),
        ));
    };
    match &win.ron_from {
        Some(d) => {
            let discarder = parse_seat(game, d)?;
            let winners = winners
                .iter()
                .zip(&points)
                .map(|(&winner, p)| match *p {
                    HandPoints::Ron { points } => Ok(RonWin {
                        winner,
                        points,
                        pao,
                    }),
                    HandPoints::Tsumo { .. } => Err(TableError::PointsKindMismatch),
                })
                .collect::<Result<_, _>>()?;
            Ok(Event::Ron { discarder, winners })
        }
        None => Event::win(winners[0], None, points[0], pao),
    }
}

/// The payments of a hand given as `--han` / `--fu`, by the scoring core's
/// payment functions ([`base_points`], [`pay`]) under its default limits:
/// mangan from 5 han or a base above 2,000 (no kiriage mangan), haneman
/// 6–7 han, baiman 8–10, sanbaiman 11–12, counted yakuman from 13. Below 5 han
/// the fu must be given (20, 25, 30, ..., 130); from 5 han it is not used.
fn han_fu_points(
    han: u8,
    fu: Option<u8>,
    dealer: bool,
    tsumo: bool,
    players: usize,
) -> Result<HandPoints, TableError> {
    if han == 0 {
        return Err(TableError::Input("a win needs at least 1 han".into()));
    }
    let fu = if han >= 5 {
        fu.unwrap_or(0)
    } else {
        let fu = fu.ok_or_else(|| TableError::Input(format!("{han} han needs --fu")))?;
        if !(20..=130).contains(&fu) || (fu != 25 && fu % 10 != 0) {
            return Err(TableError::Input(format!(
                "invalid fu {fu}: use 20, 25, 30, ..., 130"
            )));
        }
        fu
    };
    let rules = CoreRules {
        players: if players == 3 { 3 } else { 4 },
        // The table applies its own three-player split (`--tsumo-3p`): the
        // core must give the plain payments.
        sanma_tsumo: SanmaTsumo::Loss,
        ..CoreRules::default()
    };
    let (base, _) = base_points(u32::from(han), fu, 0, &rules);
    let table = PayTable {
        winner: if dealer { Wind::East } else { Wind::South },
        tsumo,
        discarder: None,
        honba: 0,
        riichi_sticks: 0,
        wareme: None,
    };
    let points = pay(base, &table, &rules).map_err(|e| TableError::Input(e.to_string()))?;
    Ok(HandPoints::from(&points))
}

fn signed(v: i64) -> String {
    if v > 0 {
        format!("+{v}")
    } else {
        v.to_string()
    }
}

fn print_table(
    out: &mut dyn Write,
    id: i64,
    game: &Game,
    outcome: Option<&Outcome>,
) -> Result<(), TableError> {
    if let Some(reason) = game.end_reason() {
        writeln!(
            out,
            "Game {id} ({}) is over: {reason}.",
            game.rules().preset
        )?;
    } else {
        writeln!(
            out,
            "Game {id} ({}): {}, riichi sticks on the table: {}",
            game.rules().preset,
            game.hand_label(),
            game.riichi_sticks()
        )?;
    }
    let width = game
        .players()
        .iter()
        .map(|n| n.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    for seat in game.seats() {
        let i = seat.index();
        let wind = if game.is_finished() {
            String::new()
        } else {
            let mut w = wind_name(game.seat_wind(seat)).to_string();
            if game.state().riichi.contains(&seat) {
                w.push_str(" (riichi)");
            }
            w
        };
        let delta = outcome
            .map(|o| o.deltas[i])
            .filter(|&d| d != 0)
            .map(|d| format!("  {}", signed(d)))
            .unwrap_or_default();
        let line = format!(
            "  {i}  {:<width$}  {:>7}  {wind}{delta}",
            game.players()[i],
            game.points()[i],
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    if let Some(result) = game.final_result() {
        writeln!(out, "Final result:")?;
        for s in &result.standings {
            let penalty = if s.penalty != 0 {
                format!("  (chombo penalty -{})", s.penalty)
            } else {
                String::new()
            };
            writeln!(
                out,
                "  {}. {:<width$}  {:>7}  {:>6}{penalty}",
                s.place,
                game.players()[s.seat.index()],
                s.points,
                s.score.to_string(),
            )?;
        }
    }
    Ok(())
}

fn print_presets(out: &mut dyn Write) -> Result<(), TableError> {
    for p in Preset::ALL {
        let r = Rules::preset(p);
        let uma: Vec<String> = r.uma.iter().map(|u| u.to_string()).collect();
        writeln!(out, "{p}:")?;
        writeln!(
            out,
            "  players {}, start {}, target {}, oka {}, uma {}, rounding {:?}, top absorbs rounding {}, ties {:?}",
            r.player_count(),
            r.start_points,
            r.target_points,
            if r.oka { r.oka_points().to_string() } else { "off".into() },
            uma.join("/"),
            r.rounding,
            r.top_absorbs_rounding,
            r.ties
        )?;
        writeln!(
            out,
            "  length {:?}, extension {}, tobi {}, agari-yame {}, multi ron {:?}, honba split {:?}, leftover sticks {:?}",
            r.length, r.extension, r.tobi, r.agari_yame, r.multi_ron, r.honba_split, r.leftover_sticks
        )?;
        writeln!(
            out,
            "  honba {}/{} each, noten {}, 3p tsumo {:?}, riichi needs 1000 {}, chombo {:?}, pao {}, abortive draws {}",
            r.honba_ron,
            r.honba_tsumo_each,
            r.noten_total,
            r.tsumo_split,
            r.riichi_needs_1000,
            r.chombo,
            r.pao,
            r.abortive_draws
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn han_fu_convenience() {
        assert_eq!(
            han_fu_points(3, Some(40), false, false, 4).unwrap(),
            HandPoints::Ron { points: 5200 }
        );
        assert_eq!(
            han_fu_points(4, Some(30), false, false, 4).unwrap(),
            HandPoints::Ron { points: 7700 }
        );
        assert_eq!(
            han_fu_points(4, Some(40), true, false, 4).unwrap(),
            HandPoints::Ron { points: 12000 }
        );
        assert_eq!(
            han_fu_points(1, Some(30), false, true, 4).unwrap(),
            HandPoints::Tsumo {
                dealer: 500,
                non_dealer: 300
            }
        );
        assert_eq!(
            han_fu_points(3, Some(30), false, true, 4).unwrap(),
            HandPoints::Tsumo {
                dealer: 2000,
                non_dealer: 1000
            }
        );
        assert_eq!(
            han_fu_points(6, None, true, true, 4).unwrap(),
            HandPoints::Tsumo {
                dealer: 0,
                non_dealer: 6000
            }
        );
        assert_eq!(
            han_fu_points(13, None, false, false, 4).unwrap(),
            HandPoints::Ron { points: 32000 }
        );
        assert_eq!(
            han_fu_points(2, Some(25), false, false, 4).unwrap(),
            HandPoints::Ron { points: 1600 }
        );
        // Three players: the same payments (the table splits North's share itself).
        assert_eq!(
            han_fu_points(3, Some(30), false, true, 3).unwrap(),
            HandPoints::Tsumo {
                dealer: 2000,
                non_dealer: 1000
            }
        );
        assert_eq!(
            han_fu_points(4, Some(30), true, true, 3).unwrap(),
            HandPoints::Tsumo {
                dealer: 0,
                non_dealer: 3900
            }
        );
        assert_eq!(
            han_fu_points(5, Some(35), false, false, 3).unwrap(),
            HandPoints::Ron { points: 8000 }
        );
        assert!(han_fu_points(0, Some(30), false, false, 4).is_err());
        assert!(han_fu_points(3, None, false, false, 4).is_err());
        assert!(han_fu_points(3, Some(35), false, false, 4).is_err());
    }

    #[test]
    fn points_parsing() {
        assert_eq!(
            parse_points("2000/3900", true).unwrap(),
            HandPoints::Tsumo {
                dealer: 3900,
                non_dealer: 2000
            }
        );
        assert_eq!(
            parse_points("4000all", true).unwrap(),
            HandPoints::Tsumo {
                dealer: 0,
                non_dealer: 4000
            }
        );
        assert_eq!(
            parse_points("7,700", false).unwrap(),
            HandPoints::Ron { points: 7700 }
        );
        assert!(parse_points("2000/3900", false).is_err());
        assert!(parse_points("abc", false).is_err());
        assert!(parse_points("4000", true).is_err());
    }
}
