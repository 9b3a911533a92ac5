//! The result panel: the score of the confirmed hand under the win conditions — points in
//! large type, han and fu with the fu breakdown in words, every yaku, the limit name, who
//! pays what, the hand in notation — and the same as plain text for the clipboard.

use super::i18n::Lang;
use crate::jsonl::{Request, RequestError};
use crate::payment::thousands;
use crate::score::Score;
use crate::tile::Wind;
use eframe::egui;

/// A scored request, or why it could not be scored.
pub type Outcome = Result<Score, RequestError>;

/// Scores `request` (a microsecond or so: done every frame rather than cached).
pub fn score(request: &Request) -> Outcome {
    request.score()
}

/// `8,000 points` / `8,000点`: the headline, also what UI tests read.
pub fn points_text(lang: Lang, total: u64) -> String {
    match lang {
        Lang::En => format!("{} points", thousands(total)),
        Lang::Ja => format!("{}点", thousands(total)),
    }
}

/// How the points are paid, in one line: `Ron 7,700`, `Tsumo 2,000 / 4,000`, `Tsumo 4,000 all`.
pub fn payment_line(lang: Lang, score: &Score) -> String {
    let p = &score.points;
    match (p.ron, p.tsumo_dealer, p.tsumo_non_dealer) {
        (Some(ron), _, _) => format!("{} {}", lang.tr("Ron"), thousands(ron)),
        (None, Some(dealer), Some(other)) => format!(
            "{} {} / {}",
            lang.tr("Tsumo"),
            thousands(other),
            thousands(dealer)
        ),
        (None, None, Some(each)) => {
            format!(
                "{} {} {}",
                lang.tr("Tsumo"),
                thousands(each),
                lang.tr("all")
            )
        }
        _ => String::new(),
    }
}

/// `3 han 40 fu, mangan` (yakuman hands: just the limit).
pub fn value_line(lang: Lang, score: &Score) -> String {
    let limit = score.limit.map(|l| lang.limit(&l.name()));
    if score.yakuman > 0 {
        return limit.unwrap_or_default();
    }
    let han_fu = match lang {
        Lang::En => format!("{} han {} fu", score.han, score.fu),
        Lang::Ja => format!("{}翻 {}符", score.han, score.fu),
    };
    match limit {
        Some(l) => format!("{han_fu}, {l}"),
        None => han_fu,
    }
}

fn payer(lang: Lang, from: Option<Wind>, seat: Wind) -> String {
    match from {
        None => lang.tr("Discarder").to_string(),
        Some(w) => {
            let name = lang.wind(&w.letter().to_string()).to_string();
            if w == Wind::East && seat != Wind::East {
                format!(
                    "{name} ({})",
                    if lang == Lang::Ja { "親" } else { "dealer" }
                )
            } else {
                name
            }
        }
    }
}

/// Every payment as `(payer, amount text)`.
pub fn payer_lines(lang: Lang, score: &Score, seat: Wind) -> Vec<(String, String)> {
    score
        .points
        .payers
        .iter()
        .map(|s| {
            let amount = if s.honba > 0 {
                format!(
                    "{} (+{} {})",
                    thousands(s.hand),
                    thousands(s.honba),
                    lang.tr("Honba")
                )
            } else {
                thousands(s.hand)
            };
            (payer(lang, s.from, seat), amount)
        })
        .collect()
}

/// The result as plain text, for "copy as text".
pub fn as_text(lang: Lang, request: &Request, score: &Score) -> String {
    let mut out = String::new();
    let seat = request
        .seat_wind
        .as_deref()
        .and_then(Wind::parse)
        .unwrap_or_default();
    let hand = match request.melds.is_empty() {
        true => request.hand.clone(),
        false => format!("{} {}", request.hand, request.melds.join(" ")),
    };
    let how = if request.tsumo {
        lang.tr("Tsumo")
    } else {
        lang.tr("Ron")
    };
    out.push_str(&format!(
        "{}: {hand} ({} {}, {how})\n",
        lang.tr("Hand"),
        lang.tr("Winning tile"),
        request.win.clone().unwrap_or_default()
    ));
    out.push_str(&format!(
        "{} — {}\n",
        points_text(lang, score.points.total),
        value_line(lang, score)
    ));
    out.push_str(&format!("{}\n", payment_line(lang, score)));
    for y in &score.yaku {
        out.push_str(&format!("  {} {}\n", lang.yaku(y.name.name()), y.han));
    }
    if score.yakuman == 0 {
        for item in &score.fu_breakdown {
            out.push_str(&format!(
                "  {} {}: {}\n",
                lang.tr("Fu"),
                lang.fu_reason(
                    item.reason.name(),
                    item.reason.tile().map(|k| k.to_string())
                ),
                item.fu
            ));
        }
    }
    for (who, amount) in payer_lines(lang, score, seat) {
        out.push_str(&format!("  {who}: {amount}\n"));
    }
    out
}

/// Draws the panel. `copied` shows a short confirmation after the copy button.
pub fn show(ui: &mut egui::Ui, lang: Lang, request: Option<&Request>, copied: &mut bool) {
    ui.heading(lang.tr("Result"));
    let Some(request) = request else {
        ui.label("—");
        return;
    };
    let score = match score(request) {
        Ok(s) => s,
        Err(e) => {
            ui.colored_label(
                ui.visuals().error_fg_color,
                format!("{}: {e}", lang.tr("Not scored")),
            );
            return;
        }
    };
    let seat = request
        .seat_wind
        .as_deref()
        .and_then(Wind::parse)
        .unwrap_or_default();
    ui.label(
        egui::RichText::new(points_text(lang, score.points.total))
            .size(36.0)
            .strong(),
    );
    ui.label(egui::RichText::new(payment_line(lang, &score)).size(20.0));
    ui.label(egui::RichText::new(value_line(lang, &score)).size(20.0));
    if score.points.honba > 0 || score.points.riichi_sticks > 0 {
        ui.label(format!(
            "{} {} · {} {}",
            lang.tr("Honba"),
            thousands(score.points.honba),
            lang.tr("Riichi sticks"),
            thousands(score.points.riichi_sticks)
        ));
    }
    ui.separator();
    egui::Grid::new("yaku")
        .num_columns(2)
        .striped(true)
        .show(ui, |ui| {
            for y in &score.yaku {
                ui.label(lang.yaku(y.name.name()));
                ui.label(match lang {
                    Lang::En => format!("{} han", y.han),
                    Lang::Ja => format!("{}翻", y.han),
                });
                ui.end_row();
            }
        });
    if score.yakuman == 0 && !score.fu_breakdown.is_empty() {
        egui::CollapsingHeader::new(format!("{} {}", lang.tr("Fu"), score.fu))
            .default_open(true)
            .show(ui, |ui| {
                egui::Grid::new("fu").num_columns(2).show(ui, |ui| {
                    for item in &score.fu_breakdown {
                        ui.label(lang.fu_reason(
                            item.reason.name(),
                            item.reason.tile().map(|k| k.to_string()),
                        ));
                        ui.label(item.fu.to_string());
                        ui.end_row();
                    }
                });
            });
    }
    ui.label(egui::RichText::new(lang.tr("Payments")).strong());
    egui::Grid::new("payers").num_columns(2).show(ui, |ui| {
        for (who, amount) in payer_lines(lang, &score, seat) {
            ui.label(who);
            ui.label(amount);
            ui.end_row();
        }
    });
    ui.horizontal(|ui| {
        if ui.button(lang.tr("Copy as text")).clicked() {
            ui.ctx().copy_text(as_text(lang, request, &score));
            *copied = true;
        }
        if *copied {
            ui.label(lang.tr("Copied"));
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_lines() {
        let request = Request {
            hand: "234m567p34678s55m2s".into(),
            win: Some("2s".into()),
            tsumo: true,
            riichi: true,
            seat_wind: Some("S".into()),
            honba: 1,
            ..Request::default()
        };
        let s = score(&request).unwrap();
        assert_eq!(points_text(Lang::En, s.points.total), "5,500 points");
        assert_eq!(payment_line(Lang::En, &s), "Tsumo 1,400 / 2,700");
        assert_eq!(value_line(Lang::En, &s), "4 han 20 fu");
        let text = as_text(Lang::En, &request, &s);
        assert!(text.contains("Menzen tsumo 1"), "{text}");
        assert!(text.contains("East (dealer): 2,600 (+100 Honba)"), "{text}");
        assert!(as_text(Lang::Ja, &request, &s).contains("5,500点"));
    }
}
