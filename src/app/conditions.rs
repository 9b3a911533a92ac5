//! The win-conditions panel: how the hand was won and the table counters, one click each,
//! turned into a scoring [`Request`] together with the confirmed hand and the rule preset.

use super::hand_editor::EditableHand;
use super::i18n::Lang;
use crate::jsonl::{Request, Tiles};
use crate::notation::format_tiles;
use eframe::egui;

/// Riichi declared or not.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RiichiChoice {
    #[default]
    None,
    Riichi,
    Double,
}

/// Everything about the win that the tiles do not show. Defaults: ron, no riichi, dealer
/// (seat East), East round, no counters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Conditions {
    pub tsumo: bool,
    pub riichi: RiichiChoice,
    pub ippatsu: bool,
    pub haitei: bool,
    pub houtei: bool,
    pub rinshan: bool,
    pub chankan: bool,
    pub tenhou: bool,
    pub chiihou: bool,
    /// `E`, `S`, `W`, `N`.
    pub seat: &'static str,
    pub round: &'static str,
    pub honba: u32,
    pub sticks: u32,
}

impl Default for Conditions {
    fn default() -> Conditions {
        Conditions {
            tsumo: false,
            riichi: RiichiChoice::None,
            ippatsu: false,
            haitei: false,
            houtei: false,
            rinshan: false,
            chankan: false,
            tenhou: false,
            chiihou: false,
            seat: "E",
            round: "E",
            honba: 0,
            sticks: 0,
        }
    }
}

/// The rule presets offered.
pub const PRESETS: [&str; 5] = ["tenhou", "mahjongsoul", "wrc", "ema", "sanma"];

const WINDS: [&str; 4] = ["E", "S", "W", "N"];

impl Conditions {
    /// The scoring request for `hand` under these conditions and `rules` (a preset name).
    pub fn request(&self, hand: &EditableHand, rules: &str) -> Request {
        Request {
            hand: format_tiles(&hand.concealed),
            melds: hand
                .melds
                .iter()
                .map(crate::notation::format_meld)
                .collect(),
            win: hand.win().map(|t| t.to_string()),
            tsumo: self.tsumo,
            riichi: self.riichi == RiichiChoice::Riichi,
            double_riichi: self.riichi == RiichiChoice::Double,
            ippatsu: self.ippatsu,
            haitei: self.haitei,
            houtei: self.houtei,
            rinshan: self.rinshan,
            chankan: self.chankan,
            tenhou: self.tenhou,
            chiihou: self.chiihou,
            seat_wind: Some(self.seat.into()),
            round_wind: Some(self.round.into()),
            dora_indicators: Tiles::Text(format_tiles(&hand.dora)),
            ura_indicators: Tiles::Text(format_tiles(&hand.ura)),
            honba: self.honba,
            riichi_sticks: self.sticks,
            rules: serde_json::Value::String(rules.into()),
            ..Request::default()
        }
    }

    /// Draws the panel; `rules` is the preset (persisted with the settings).
    pub fn show(&mut self, ui: &mut egui::Ui, lang: Lang, rules: &mut String) {
        ui.heading(lang.tr("Win conditions"));
        ui.horizontal(|ui| {
            ui.selectable_value(&mut self.tsumo, false, lang.tr("Ron"));
            ui.selectable_value(&mut self.tsumo, true, lang.tr("Tsumo"));
            ui.separator();
            ui.selectable_value(&mut self.riichi, RiichiChoice::None, lang.tr("No riichi"));
            ui.selectable_value(&mut self.riichi, RiichiChoice::Riichi, lang.tr("Riichi"));
            ui.selectable_value(
                &mut self.riichi,
                RiichiChoice::Double,
                lang.tr("Double riichi"),
            );
        });
        ui.horizontal_wrapped(|ui| {
            ui.checkbox(&mut self.ippatsu, lang.tr("Ippatsu"));
            ui.checkbox(&mut self.haitei, lang.tr("Haitei"));
            ui.checkbox(&mut self.houtei, lang.tr("Houtei"));
            ui.checkbox(&mut self.rinshan, lang.tr("Rinshan"));
            ui.checkbox(&mut self.chankan, lang.tr("Chankan"));
            ui.checkbox(&mut self.tenhou, lang.tr("Tenhou"));
            ui.checkbox(&mut self.chiihou, lang.tr("Chiihou"));
        });
        egui::Grid::new("winds").num_columns(2).show(ui, |ui| {
            for (title, value, prefix) in [
                (lang.tr("Seat wind"), &mut self.seat, "Seat"),
                (lang.tr("Round wind"), &mut self.round, "Round"),
            ] {
                ui.label(title);
                ui.horizontal(|ui| {
                    for w in WINDS {
                        let r = ui.selectable_value(value, w, lang.wind(w));
                        let name = format!("{prefix} {w}");
                        r.widget_info(|| {
                            egui::WidgetInfo::selected(egui::Role::Button, true, *value == w, &name)
                        });
                    }
                });
                ui.end_row();
            }
            for (title, value, name) in [
                (lang.tr("Honba"), &mut self.honba, "Honba"),
                (lang.tr("Riichi sticks"), &mut self.sticks, "Riichi sticks"),
            ] {
                let label = ui.label(title);
                ui.horizontal(|ui| {
                    // One click each way; the number can also be dragged or typed.
                    let minus = ui.small_button("−");
                    minus.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Button, true, format!("{name} −"))
                    });
                    if minus.clicked() {
                        *value = value.saturating_sub(1);
                    }
                    ui.add(egui::DragValue::new(value).range(0..=99))
                        .labelled_by(label.id);
                    let plus = ui.small_button("+");
                    plus.widget_info(|| {
                        egui::WidgetInfo::labeled(egui::Role::Button, true, format!("{name} +"))
                    });
                    if plus.clicked() {
                        *value = (*value + 1).min(99);
                    }
                });
                ui.end_row();
            }
            let label = ui.label(lang.tr("Rules"));
            egui::ComboBox::from_id_salt("rules")
                .selected_text(rules.as_str())
                .show_ui(ui, |ui| {
                    for preset in PRESETS {
                        ui.selectable_value(rules, preset.to_string(), preset);
                    }
                })
                .response
                .labelled_by(label.id);
            ui.end_row();
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builds_a_request_that_scores() {
        // Riichi, menzen tsumo, pinfu, tanyao: 4 han 20 fu for a non-dealer.
        let hand = EditableHand::parse("234m567p34678s55m2s").unwrap();
        let c = Conditions {
            tsumo: true,
            riichi: RiichiChoice::Riichi,
            seat: "S",
            ..Conditions::default()
        };
        let score = c.request(&hand, "tenhou").score().unwrap();
        assert_eq!(score.han, 4);
        assert_eq!((score.fu, score.points.total), (20, 5200));
    }
}
