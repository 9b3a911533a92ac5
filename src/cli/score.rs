//! `riichi-lens score`: one hand from flags, or a JSON-lines stream from stdin.

use anyhow::{bail, Context};
use clap::Args;
use riichi_lens::jsonl::{score_line, Request, Tiles};
use riichi_lens::payment::thousands;
use riichi_lens::score::Score;
use std::io::{BufRead, Write};
use std::process::ExitCode;

#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// The concealed tiles including the winning tile, e.g. "123m456p789s1122z"; melds may
    /// be written inline: "123m456p11z [789s] (5555p)".
    hand: Option<String>,
    /// Melds: [123m] chi, [555p] pon, [5555p] open kan, (5555p) closed kan, {5555p} added kan.
    #[arg(long, num_args = 1..)]
    melds: Vec<String>,
    #[command(flatten)]
    pub conditions: Conditions,
    /// Print the result as JSON.
    #[arg(long)]
    json: bool,
    /// Read one JSON request per line from stdin, write one result per line to stdout.
    #[arg(long, conflicts_with = "hand")]
    jsonl: bool,
}

/// Win conditions, shared by `score` and `score-photo`.
#[derive(Debug, Args, Clone)]
pub struct Conditions {
    /// The winning tile (default: the set-apart or last concealed tile).
    #[arg(long)]
    pub win: Option<String>,
    #[arg(long)]
    tsumo: bool,
    #[arg(long)]
    riichi: bool,
    #[arg(long)]
    double_riichi: bool,
    #[arg(long)]
    ippatsu: bool,
    #[arg(long)]
    haitei: bool,
    #[arg(long)]
    houtei: bool,
    #[arg(long)]
    rinshan: bool,
    #[arg(long)]
    chankan: bool,
    #[arg(long)]
    tenhou: bool,
    #[arg(long)]
    chiihou: bool,
    #[arg(long)]
    renhou: bool,
    /// Score a nagashi mangan (the hand is not looked at).
    #[arg(long)]
    nagashi_mangan: bool,
    /// Dora indicators, e.g. "3m7z".
    #[arg(long)]
    pub dora: Option<String>,
    /// Ura dora indicators (riichi only).
    #[arg(long)]
    ura: Option<String>,
    /// The winner's seat wind: E (dealer), S, W, N.
    #[arg(long, default_value = "E")]
    seat: String,
    /// The round wind.
    #[arg(long = "round", default_value = "E")]
    round_wind: String,
    #[arg(long, default_value_t = 0)]
    honba: u32,
    /// Riichi sticks on the table.
    #[arg(long, default_value_t = 0)]
    sticks: u32,
    /// North tiles set aside (three-player games).
    #[arg(long, default_value_t = 0)]
    kita: u8,
    /// The discarder's seat on a ron.
    #[arg(long)]
    discarder: Option<String>,
    /// Rule preset: tenhou, mahjongsoul, wrc, ema, sanma.
    #[arg(long, default_value = "tenhou")]
    rules: String,
    /// Override a rule switch: --set kiriage=true --set honba_value=1500.
    #[arg(long = "set", value_name = "SWITCH=VALUE")]
    overrides: Vec<String>,
}

pub fn run(args: ScoreArgs) -> anyhow::Result<ExitCode> {
    if args.jsonl {
        return jsonl();
    }
    let Some(hand) = args.hand.clone() else {
        bail!("give a hand, e.g. riichi-lens score \"123m456p789s11122z\" --win 2z --riichi, or --jsonl");
    };
    let request = args.conditions.request(hand, args.melds.clone())?;
    print_score(&request, args.json)?;
    Ok(ExitCode::SUCCESS)
}

/// Scores a request and prints it readable or as JSON.
pub fn print_score(request: &Request, json: bool) -> anyhow::Result<()> {
    let score = request
        .score()
        .map_err(|e| anyhow::anyhow!("{}", request.error_message(&e)))?;
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if json {
        serde_json::to_writer_pretty(&mut out, &score)?;
        writeln!(out)?;
    } else {
        write_readable(&mut out, request, &score)?;
    }
    Ok(())
}

impl Conditions {
    /// A scoring request for `hand` and `melds` under these conditions.
    pub fn request(&self, hand: String, melds: Vec<String>) -> anyhow::Result<Request> {
        let args = self;
        let rules = if args.overrides.is_empty() {
            serde_json::Value::String(args.rules.clone())
        } else {
            let mut map = serde_json::Map::new();
            map.insert("preset".into(), args.rules.clone().into());
            for item in &args.overrides {
                let (key, value) = item
                    .split_once('=')
                    .with_context(|| format!("--set {item:?}: expected SWITCH=VALUE"))?;
                let value = serde_json::from_str(value)
                    .unwrap_or_else(|_| serde_json::Value::String(value.to_string()));
                map.insert(key.to_string(), value);
            }
            serde_json::Value::Object(map)
        };
        Ok(Request {
            hand,
            melds,
            win: args.win.clone(),
            tsumo: args.tsumo,
            riichi: args.riichi,
            double_riichi: args.double_riichi,
            ippatsu: args.ippatsu,
            haitei: args.haitei,
            houtei: args.houtei,
            rinshan: args.rinshan,
            chankan: args.chankan,
            tenhou: args.tenhou,
            chiihou: args.chiihou,
            renhou: args.renhou,
            nagashi_mangan: args.nagashi_mangan,
            seat_wind: Some(args.seat.clone()),
            round_wind: Some(args.round_wind.clone()),
            dora_indicators: args.dora.clone().map_or(Tiles::None, Tiles::Text),
            ura_indicators: args.ura.clone().map_or(Tiles::None, Tiles::Text),
            honba: args.honba,
            riichi_sticks: args.sticks,
            kita: args.kita,
            discarder: args.discarder.clone(),
            wareme: None,
            rules,
        })
    }
}

/// Streams stdin to stdout; a bad line yields an error object and the run goes on.
fn jsonl() -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    for line in stdin.lock().lines() {
        let line = line.context("reading stdin")?;
        if line.trim().is_empty() {
            continue;
        }
        writeln!(out, "{}", score_line(&line))?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn write_readable(out: &mut impl Write, request: &Request, score: &Score) -> std::io::Result<()> {
    let (hand, ctx, _) = match request.build() {
        Ok(built) => built,
        Err(_) => return Ok(()),
    };
    let how = if ctx.is_tsumo() { "tsumo" } else { "ron" };
    writeln!(out, "Hand    {hand}  (win {} by {how})", hand.win())?;
    for (i, y) in score.yaku.iter().enumerate() {
        let label = if i == 0 { "Yaku" } else { "" };
        writeln!(out, "{label:<8}{:<22}{:>3} han", y.name.name(), y.han)?;
    }
    let value = match score.limit {
        Some(limit) if score.yakuman > 0 => limit.name(),
        Some(limit) => format!("{} han {} fu, {}", score.han, score.fu, limit.name()),
        None => format!("{} han {} fu", score.han, score.fu),
    };
    writeln!(out, "Value   {value}")?;
    if score.yakuman == 0 && !score.fu_breakdown.is_empty() {
        let lines: Vec<String> = score
            .fu_breakdown
            .iter()
            .map(|item| match item.reason.tile() {
                Some(tile) => format!("{} {tile} {}", item.reason.name(), item.fu),
                None => format!("{} {}", item.reason.name(), item.fu),
            })
            .collect();
        writeln!(out, "Fu      {}", lines.join(", "))?;
    }
    let p = &score.points;
    let pays = match (p.ron, p.tsumo_dealer, p.tsumo_non_dealer) {
        (Some(ron), _, _) => format!("{} from the discarder", thousands(ron)),
        (None, Some(dealer), Some(other)) => {
            format!(
                "{} from the dealer, {} from each other player",
                thousands(dealer),
                thousands(other)
            )
        }
        (None, None, Some(each)) => format!("{} all", thousands(each)),
        _ => String::new(),
    };
    writeln!(out, "Payment {pays}")?;
    writeln!(
        out,
        "Total   {} (honba {}, riichi sticks {})",
        thousands(p.total),
        thousands(p.honba),
        thousands(p.riichi_sticks)
    )
}
