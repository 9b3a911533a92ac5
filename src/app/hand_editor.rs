//! The confirmed hand and its editor: tile images from the bundled art, uncertain tiles
//! framed in orange, a palette to correct any tile, melds and dora/ura indicators editable,
//! and the whole hand as editable notation (the way in when no model is available).

use super::i18n::Lang;
use super::tiles::{palette_tiles, tile_button, TileLook, TileTextures};
use crate::hand::{Meld, MeldKind};
use crate::notation::{format_meld, format_tiles, parse_hand, parse_meld, NotationError};
use crate::tile::Tile;
use crate::vision::PhotoReading;
use eframe::egui;

/// A hand being confirmed: concealed tiles with the winning tile last, melds, indicators.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EditableHand {
    pub concealed: Vec<Tile>,
    /// Parallel to `concealed`: the recognizer was unsure (or changed the tile).
    pub uncertain: Vec<bool>,
    pub melds: Vec<Meld>,
    /// Parallel to `melds`.
    pub meld_uncertain: Vec<bool>,
    pub dora: Vec<Tile>,
    /// Parallel to `dora`.
    pub dora_uncertain: Vec<bool>,
    pub ura: Vec<Tile>,
}

impl EditableHand {
    /// The hand read from a photo, with the recognizer's doubts mapped onto the tiles.
    pub fn from_reading(reading: &PhotoReading) -> Option<EditableHand> {
        let read = reading.hand.as_ref()?;
        let ids: Vec<usize> = reading
            .layout
            .concealed
            .iter()
            .copied()
            .chain(reading.layout.win)
            .collect();
        let doubt = |i: &usize| read.uncertain.contains(i);
        let mut uncertain: Vec<bool> = ids.iter().map(doubt).collect();
        uncertain.resize(read.concealed.len(), false);
        let mut meld_uncertain: Vec<bool> = reading
            .layout
            .melds
            .iter()
            .map(|m| m.tiles.iter().any(doubt))
            .collect();
        meld_uncertain.resize(read.melds.len(), false);
        let mut dora_uncertain: Vec<bool> = reading.dora_ids().iter().map(doubt).collect();
        dora_uncertain.resize(read.dora_indicators.len(), false);
        Some(EditableHand {
            concealed: read.concealed.clone(),
            uncertain,
            melds: read.melds.clone(),
            meld_uncertain,
            dora: read.dora_indicators.clone(),
            dora_uncertain,
            ura: Vec::new(),
        })
    }

    /// Reads a hand in notation (`123m456p11z [789s]`), the winning tile last.
    pub fn parse(text: &str) -> Result<EditableHand, NotationError> {
        let parsed = parse_hand(text)?;
        Ok(EditableHand {
            uncertain: vec![false; parsed.tiles.len()],
            meld_uncertain: vec![false; parsed.melds.len()],
            concealed: parsed.tiles,
            melds: parsed.melds,
            dora: Vec::new(),
            dora_uncertain: Vec::new(),
            ura: Vec::new(),
        })
    }

    /// Concealed tiles and melds in notation.
    pub fn notation(&self) -> String {
        let mut out = format_tiles(&self.concealed);
        for meld in &self.melds {
            out.push(' ');
            out.push_str(&format_meld(meld));
        }
        out
    }

    /// The winning tile (the last concealed tile).
    pub fn win(&self) -> Option<Tile> {
        self.concealed.last().copied()
    }

    /// The tiles that would complete the hand as its winning tile when it is a tile short
    /// (most often a winning tile the photo missed, or one not yet typed); empty otherwise.
    pub fn completing_tiles(&self) -> Vec<Tile> {
        crate::shape::completing_tiles(&self.concealed, &self.melds, &self.dora)
    }

    /// Whether any tile is still flagged as uncertain.
    pub fn has_doubts(&self) -> bool {
        self.uncertain
            .iter()
            .chain(&self.meld_uncertain)
            .chain(&self.dora_uncertain)
            .any(|&u| u)
    }

    fn sync_flags(&mut self) {
        self.uncertain.resize(self.concealed.len(), false);
        self.meld_uncertain.resize(self.melds.len(), false);
        self.dora_uncertain.resize(self.dora.len(), false);
    }
}

/// Which tile the palette is open for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaletteTarget {
    Concealed(usize),
    /// Tile `k` of meld `m`.
    Meld(usize, usize),
    Dora(usize),
    Ura(usize),
    AddConcealed,
    AddDora,
    AddUra,
}

/// The editor's state.
#[derive(Debug, Default)]
pub struct HandEditor {
    pub hand: Option<EditableHand>,
    pub palette: Option<PaletteTarget>,
    /// The notation field's text while the user edits it.
    notation: String,
    notation_error: Option<String>,
    new_meld: String,
    meld_error: Option<String>,
    /// Set by any edit; cleared when the editor is loaded from a reading.
    pub edited: bool,
}

const TILE_H: f32 = 52.0;

impl HandEditor {
    /// Replaces the hand (a new capture or lock-in).
    pub fn load(&mut self, hand: Option<EditableHand>) {
        self.notation = hand
            .as_ref()
            .map(EditableHand::notation)
            .unwrap_or_default();
        self.hand = hand;
        self.palette = None;
        self.notation_error = None;
        self.meld_error = None;
        self.edited = false;
    }

    /// Applies a palette choice (`None`: remove the tile).
    pub fn apply(&mut self, target: PaletteTarget, tile: Option<Tile>) {
        if let PaletteTarget::Meld(m, k) = target {
            return self.apply_meld(m, k, tile);
        }
        let hand = self.hand.get_or_insert_with(EditableHand::default);
        let set = |list: &mut Vec<Tile>, flags: Option<&mut Vec<bool>>, i: usize| {
            if i >= list.len() {
                return;
            }
            match tile {
                Some(t) => {
                    list[i] = t;
                    if let Some(f) = flags {
                        if let Some(flag) = f.get_mut(i) {
                            *flag = false;
                        }
                    }
                }
                None => {
                    list.remove(i);
                    if let Some(f) = flags {
                        if i < f.len() {
                            f.remove(i);
                        }
                    }
                }
            }
        };
        match target {
            PaletteTarget::Concealed(i) => set(&mut hand.concealed, Some(&mut hand.uncertain), i),
            PaletteTarget::Dora(i) => set(&mut hand.dora, Some(&mut hand.dora_uncertain), i),
            PaletteTarget::Ura(i) => set(&mut hand.ura, None, i),
            PaletteTarget::AddConcealed => {
                // A tile added goes before the winning tile, which stays last.
                if let Some(t) = tile {
                    let at = hand.concealed.len().saturating_sub(1);
                    hand.concealed.insert(at, t);
                    hand.uncertain.insert(at.min(hand.uncertain.len()), false);
                }
            }
            PaletteTarget::AddDora => hand.dora.extend(tile),
            PaletteTarget::AddUra => hand.ura.extend(tile),
            PaletteTarget::Meld(..) => {}
        }
        hand.sync_flags();
        self.notation = hand.notation();
        self.edited = true;
    }

    /// Replaces tile `k` of meld `m`; a pon or kan changes all its tiles together (they are
    /// copies of one tile), a chi just the one. A result that is not a meld is refused with
    /// a message, and the meld is kept.
    fn apply_meld(&mut self, m: usize, k: usize, tile: Option<Tile>) {
        let Some(hand) = &mut self.hand else { return };
        let Some(meld) = hand.melds.get(m) else {
            return;
        };
        let Some(tile) = tile else { return };
        let kind = meld.kind();
        let mut tiles = meld.tiles().to_vec();
        if kind == crate::hand::MeldKind::Chi {
            if let Some(t) = tiles.get_mut(k) {
                *t = tile;
            }
        } else {
            let plain = Tile::plain(tile.kind());
            for (i, t) in tiles.iter_mut().enumerate() {
                // The picked tile (perhaps a red five) goes where it was clicked; the others
                // become plain copies of it.
                *t = if i == k { tile } else { plain };
            }
        }
        match Meld::new(kind, &tiles, meld.called_index()) {
            Ok(new) => {
                hand.melds[m] = new;
                if let Some(flag) = hand.meld_uncertain.get_mut(m) {
                    *flag = false;
                }
                self.meld_error = None;
                self.notation = hand.notation();
                self.edited = true;
            }
            Err(e) => self.meld_error = Some(e.to_string()),
        }
    }

    /// Moves concealed tile `i` to the end: it becomes the winning tile.
    pub fn make_winning(&mut self, i: usize) {
        if let Some(hand) = &mut self.hand {
            if i < hand.concealed.len() {
                let t = hand.concealed.remove(i);
                hand.concealed.push(t);
                let f = hand.uncertain.remove(i);
                hand.uncertain.push(f);
                self.notation = hand.notation();
                self.edited = true;
            }
        }
    }

    /// Adds `tile` at the end of the concealed tiles: it becomes the winning tile.
    pub fn add_winning(&mut self, tile: Tile) {
        let hand = self.hand.get_or_insert_with(EditableHand::default);
        hand.concealed.push(tile);
        hand.sync_flags();
        self.notation = hand.notation();
        self.edited = true;
    }

    /// Draws the editor. Returns whether the hand changed.
    pub fn show(&mut self, ui: &mut egui::Ui, lang: Lang, textures: &mut TileTextures) -> bool {
        let before = self.hand.clone();
        ui.heading(lang.tr("Hand"));
        match &self.hand {
            None => {
                ui.label(lang.tr("No hand yet: capture a frame, or type the hand in notation"));
            }
            Some(_) => {
                self.tiles_row(ui, lang, textures);
                self.completing_row(ui, lang, textures);
            }
        }
        self.notation_field(ui, lang);
        self.melds(ui, lang, textures);
        self.indicators(ui, lang, textures, false);
        self.indicators(ui, lang, textures, true);
        self.palette_window(ui, lang, textures);
        before != self.hand
    }

    fn tiles_row(&mut self, ui: &mut egui::Ui, lang: Lang, textures: &mut TileTextures) {
        let Some(hand) = &self.hand else { return };
        let n = hand.concealed.len();
        let mut clicked = None;
        let mut make_winning = None;
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 2.0;
            for (i, tile) in hand.concealed.iter().enumerate() {
                if i + 1 == n && n > 1 {
                    // The winning tile stands apart, as on the table.
                    ui.add_space(10.0);
                }
                let uncertain = hand.uncertain.get(i).copied().unwrap_or(false);
                let label = format!(
                    "Hand tile {}: {tile}{}",
                    i + 1,
                    if uncertain { " (check)" } else { "" }
                );
                let look = TileLook {
                    uncertain,
                    selected: self.palette == Some(PaletteTarget::Concealed(i)),
                    height: TILE_H,
                };
                let response = tile_button(ui, textures, &tile.to_string(), &label, look);
                let response = if i + 1 == n {
                    response.on_hover_text(lang.tr("Winning tile"))
                } else if uncertain {
                    response.on_hover_text(lang.tr("uncertain: check"))
                } else {
                    response
                };
                if response.clicked() {
                    clicked = Some(i);
                }
                response.context_menu(|ui| {
                    if ui.button(lang.tr("Make it the winning tile")).clicked() {
                        make_winning = Some(i);
                        ui.close();
                    }
                });
            }
            if ui.button("+").on_hover_text(lang.tr("Add tile")).clicked() {
                self.palette = Some(PaletteTarget::AddConcealed);
            }
        });
        if let Some(i) = clicked {
            self.palette = Some(PaletteTarget::Concealed(i));
        }
        if let Some(i) = make_winning {
            self.make_winning(i);
        }
    }

    /// For a hand a tile short, the tiles that would complete it, each a click away from
    /// being added as the winning tile: the user looks at the table instead of the palette.
    fn completing_row(&mut self, ui: &mut egui::Ui, lang: Lang, textures: &mut TileTextures) {
        let Some(hand) = &self.hand else { return };
        let tiles = hand.completing_tiles();
        if tiles.is_empty() {
            return;
        }
        let mut chosen = None;
        ui.horizontal_wrapped(|ui| {
            ui.label(lang.tr("One tile short: which is the winning tile?"));
            for tile in tiles {
                let look = TileLook {
                    height: TILE_H * 0.75,
                    ..TileLook::default()
                };
                let label = format!("Complete with {tile}");
                let response = tile_button(ui, textures, &tile.to_string(), &label, look)
                    .on_hover_text(lang.tr("Add it as the winning tile"));
                if response.clicked() {
                    chosen = Some(tile);
                }
            }
        });
        if let Some(tile) = chosen {
            self.add_winning(tile);
        }
    }

    fn notation_field(&mut self, ui: &mut egui::Ui, lang: Lang) {
        ui.horizontal(|ui| {
            let label = ui.label(lang.tr("Notation"));
            let edit = ui.add(
                egui::TextEdit::singleline(&mut self.notation)
                    .desired_width(f32::INFINITY)
                    .font(egui::TextStyle::Monospace)
                    .hint_text("123m456p789s11122z [789s]"),
            );
            // Named for screen readers and UI tests.
            let edit = edit.labelled_by(label.id);
            let commit = edit.lost_focus() && !self.notation.trim().is_empty();
            if commit {
                let current = self.hand.as_ref().map(EditableHand::notation);
                if current.as_deref() != Some(self.notation.trim()) {
                    match EditableHand::parse(&self.notation) {
                        Ok(mut parsed) => {
                            if let Some(old) = &self.hand {
                                parsed.dora = old.dora.clone();
                                parsed.dora_uncertain = old.dora_uncertain.clone();
                                parsed.ura = old.ura.clone();
                            }
                            self.hand = Some(parsed);
                            self.notation_error = None;
                            self.edited = true;
                        }
                        Err(e) => self.notation_error = Some(e.to_string()),
                    }
                }
            } else if !edit.has_focus() {
                if let Some(h) = &self.hand {
                    self.notation = h.notation();
                }
            }
        });
        if let Some(e) = &self.notation_error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }

    fn melds(&mut self, ui: &mut egui::Ui, lang: Lang, textures: &mut TileTextures) {
        let Some(hand) = &mut self.hand else { return };
        ui.label(egui::RichText::new(lang.tr("Melds")).strong());
        let mut remove = None;
        let mut open = None;
        for (m, meld) in hand.melds.iter().enumerate() {
            let uncertain = hand.meld_uncertain.get(m).copied().unwrap_or(false);
            ui.horizontal(|ui| {
                ui.spacing_mut().item_spacing.x = 2.0;
                for (k, tile) in meld.tiles().iter().enumerate() {
                    let called = meld.called_index() == Some(k);
                    // A closed kan is shown the way it lies on the table: its outer two tiles
                    // face down.
                    let face_down = meld.kind() == MeldKind::ClosedKan && (k == 0 || k == 3);
                    let label = format!(
                        "Meld {} tile {}: {tile}{}",
                        m + 1,
                        k + 1,
                        if called {
                            " (called)"
                        } else if face_down {
                            " (face down)"
                        } else {
                            ""
                        }
                    );
                    let look = TileLook {
                        uncertain,
                        selected: called || self.palette == Some(PaletteTarget::Meld(m, k)),
                        height: TILE_H * 0.8,
                    };
                    let shown = if face_down {
                        "back".to_string()
                    } else {
                        tile.to_string()
                    };
                    let response = tile_button(ui, textures, &shown, &label, look);
                    if response.clicked() {
                        open = Some(PaletteTarget::Meld(m, k));
                    }
                }
                ui.monospace(format_meld(meld));
                if ui.button(lang.tr("Remove")).clicked() {
                    remove = Some(m);
                }
            });
        }
        if let Some(m) = remove {
            hand.melds.remove(m);
            hand.sync_flags();
            self.edited = true;
        }
        if open.is_some() {
            self.palette = open;
        }
        ui.horizontal(|ui| {
            let field = ui.add(
                egui::TextEdit::singleline(&mut self.new_meld)
                    .desired_width(120.0)
                    .hint_text("[123m] (5555p)"),
            );
            let label = ui.label(lang.tr("Add meld"));
            let field = field.labelled_by(label.id);
            let enter = field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            if (ui.button("+").clicked() || enter) && !self.new_meld.trim().is_empty() {
                match parse_meld(self.new_meld.trim()) {
                    Ok(meld) => {
                        hand.melds.push(meld);
                        hand.sync_flags();
                        self.new_meld.clear();
                        self.meld_error = None;
                        self.edited = true;
                    }
                    Err(e) => self.meld_error = Some(e.to_string()),
                }
            }
        });
        if let Some(e) = &self.meld_error {
            ui.colored_label(ui.visuals().error_fg_color, e);
        }
    }

    fn indicators(
        &mut self,
        ui: &mut egui::Ui,
        lang: Lang,
        textures: &mut TileTextures,
        ura: bool,
    ) {
        let Some(hand) = &self.hand else { return };
        let (title, tiles, add) = if ura {
            (
                lang.tr("Ura dora indicators"),
                &hand.ura,
                PaletteTarget::AddUra,
            )
        } else {
            (
                lang.tr("Dora indicators"),
                &hand.dora,
                PaletteTarget::AddDora,
            )
        };
        let mut open = None;
        ui.label(egui::RichText::new(title).strong());
        ui.horizontal_wrapped(|ui| {
            ui.spacing_mut().item_spacing.x = 2.0;
            for (i, tile) in tiles.iter().enumerate() {
                let label = format!(
                    "{} {}: {tile}",
                    if ura {
                        "Ura indicator"
                    } else {
                        "Dora indicator"
                    },
                    i + 1
                );
                let target = if ura {
                    PaletteTarget::Ura(i)
                } else {
                    PaletteTarget::Dora(i)
                };
                let look = TileLook {
                    uncertain: !ura && hand.dora_uncertain.get(i).copied().unwrap_or(false),
                    selected: self.palette == Some(target),
                    height: TILE_H * 0.8,
                };
                if tile_button(ui, textures, &tile.to_string(), &label, look).clicked() {
                    open = Some(target);
                }
            }
            let add_label = if ura {
                "Add ura indicator"
            } else {
                "Add dora indicator"
            };
            let response = ui.button("+").on_hover_text(lang.tr("Add tile"));
            response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, true, add_label));
            if response.clicked() {
                open = Some(add);
            }
        });
        if open.is_some() {
            self.palette = open;
        }
    }

    fn palette_window(&mut self, ui: &mut egui::Ui, lang: Lang, textures: &mut TileTextures) {
        let Some(target) = self.palette else { return };
        let mut chosen: Option<Option<Tile>> = None;
        let mut close = false;
        egui::Window::new(lang.tr("Choose a tile"))
            .collapsible(false)
            .resizable(false)
            .anchor(egui::Align2::CENTER_CENTER, egui::Vec2::ZERO)
            .show(ui.ctx(), |ui| {
                let tiles = palette_tiles();
                // Rows: man, pin, sou (with the red five at the end), honors.
                let rows: [Vec<Tile>; 4] = [
                    tiles[0..9].iter().copied().chain([tiles[34]]).collect(),
                    tiles[9..18].iter().copied().chain([tiles[35]]).collect(),
                    tiles[18..27].iter().copied().chain([tiles[36]]).collect(),
                    tiles[27..34].to_vec(),
                ];
                for row in rows {
                    ui.horizontal(|ui| {
                        ui.spacing_mut().item_spacing.x = 2.0;
                        for tile in row {
                            let label = format!("Palette {tile}");
                            let look = TileLook {
                                height: 44.0,
                                ..TileLook::default()
                            };
                            if tile_button(ui, textures, &tile.to_string(), &label, look).clicked()
                            {
                                chosen = Some(Some(tile));
                            }
                        }
                    });
                }
                ui.horizontal(|ui| {
                    let replacing = matches!(
                        target,
                        PaletteTarget::Concealed(_)
                            | PaletteTarget::Dora(_)
                            | PaletteTarget::Ura(_)
                    );
                    if replacing && ui.button(lang.tr("Remove tile")).clicked() {
                        chosen = Some(None);
                    }
                    if ui.button(lang.tr("Cancel")).clicked() {
                        close = true;
                    }
                });
            });
        if let Some(tile) = chosen {
            self.apply(target, tile);
            close = true;
        }
        if close || ui.input(|i| i.key_pressed(egui::Key::Escape)) {
            self.palette = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_tile;

    #[test]
    fn palette_edits_keep_the_winning_tile_last() {
        let mut ed = HandEditor::default();
        ed.load(Some(EditableHand::parse("123m456p789s1122z").unwrap()));
        ed.apply(PaletteTarget::Concealed(0), Some(parse_tile("4m").unwrap()));
        assert_eq!(ed.hand.as_ref().unwrap().notation(), "423m456p789s1122z");
        ed.apply(PaletteTarget::Concealed(0), None);
        ed.apply(PaletteTarget::AddConcealed, Some(parse_tile("1m").unwrap()));
        let hand = ed.hand.as_ref().unwrap();
        assert_eq!(hand.notation(), "23m456p789s112z1m2z");
        assert_eq!(hand.win(), Some(parse_tile("2z").unwrap()));
        ed.make_winning(0);
        assert_eq!(ed.hand.as_ref().unwrap().notation(), "3m456p789s112z1m2z2m");
        ed.apply(PaletteTarget::AddDora, Some(parse_tile("3p").unwrap()));
        ed.apply(PaletteTarget::Dora(0), Some(parse_tile("4p").unwrap()));
        assert_eq!(
            ed.hand.as_ref().unwrap().dora,
            vec![parse_tile("4p").unwrap()]
        );
        assert!(ed.edited);
    }

    #[test]
    fn a_hand_a_tile_short_is_completed_by_a_named_tile() {
        let mut ed = HandEditor::default();
        ed.load(Some(EditableHand::parse("23m456p789s11z [5*55s]").unwrap()));
        let named = |ed: &HandEditor| format_tiles(&ed.hand.as_ref().unwrap().completing_tiles());
        assert_eq!(named(&ed), "14m");
        ed.add_winning(parse_tile("4m").unwrap());
        let hand = ed.hand.as_ref().unwrap();
        assert_eq!(hand.notation(), "23m456p789s11z4m [5*55s]");
        assert_eq!(hand.win(), Some(parse_tile("4m").unwrap()));
        assert_eq!(hand.uncertain.len(), hand.concealed.len());
        assert!(ed.edited);
        // Complete now: nothing more to name. Nor for a fifth 1m among the dora indicators.
        assert_eq!(named(&ed), "");
        let mut hand = EditableHand::parse("23m456p789s11z [5*55s]").unwrap();
        hand.dora = vec![parse_tile("1m").unwrap(); 4];
        assert_eq!(format_tiles(&hand.completing_tiles()), "4m");
    }

    #[test]
    fn the_recognizers_doubts_land_on_the_right_tiles() {
        use crate::vision::layout::{Layout, MeldSpot, ReadHand};
        use crate::vision::PhotoReading;
        // Only the layout (detection indices) and the decoded hand matter here; detection
        // indices in photo order: the pon 0-2, the concealed tiles 3-12, the set-apart
        // winning tile 13, a dora indicator 14.
        let layout = Layout {
            concealed: (3..12).chain([12]).collect(),
            win: Some(13),
            melds: vec![MeldSpot {
                tiles: vec![0, 1, 2],
                called: Some(1),
                stacked: false,
                closed_kan: false,
                doubtful: false,
            }],
            dora: vec![14],
            unplaced: vec![],
        };
        let hand = crate::notation::parse_hand("123m456p999s22z [7*77s]").unwrap();
        let reading = PhotoReading {
            width: 100,
            height: 100,
            tiles: Vec::new(),
            layout,
            hand: Some(ReadHand {
                concealed: hand.tiles.clone(),
                melds: hand.melds.clone(),
                win: parse_tile("2z").unwrap(),
                win_set_apart: true,
                dora_indicators: vec![parse_tile("1p").unwrap()],
                // The 5p and the winning 2z are doubtful, one tile of the pon, and the
                // dora indicator.
                uncertain: vec![7, 13, 2, 14],
                corrected: vec![],
                complete: true,
            }),
        };
        let editable = EditableHand::from_reading(&reading).unwrap();
        let flagged: Vec<usize> = (0..editable.uncertain.len())
            .filter(|&i| editable.uncertain[i])
            .collect();
        assert_eq!(flagged, [4, 10]);
        assert_eq!(editable.meld_uncertain, [true]);
        assert!(editable.has_doubts());
        assert_eq!(editable.dora, [parse_tile("1p").unwrap()]);
        assert_eq!(editable.dora_uncertain, [true]);
        assert_eq!(editable.win(), Some(parse_tile("2z").unwrap()));
    }

    #[test]
    fn a_doubted_dora_indicator_set_by_hand_is_no_longer_doubted() {
        let mut hand = EditableHand::parse("123m456p789s11z22z").unwrap();
        hand.dora = vec![parse_tile("8p").unwrap(), parse_tile("3m").unwrap()];
        hand.dora_uncertain = vec![true, false];
        let mut ed = HandEditor::default();
        ed.load(Some(hand));
        assert!(ed.hand.as_ref().unwrap().has_doubts());
        ed.apply(PaletteTarget::Dora(0), Some(parse_tile("2p").unwrap()));
        let hand = ed.hand.as_ref().unwrap();
        assert_eq!(
            hand.dora,
            [parse_tile("2p").unwrap(), parse_tile("3m").unwrap()]
        );
        assert_eq!(hand.dora_uncertain, [false, false]);
        assert!(!hand.has_doubts());
        // Removing an indicator removes its flag with it.
        let mut hand = EditableHand::parse("123m456p789s11z22z").unwrap();
        hand.dora = vec![parse_tile("8p").unwrap(), parse_tile("3m").unwrap()];
        hand.dora_uncertain = vec![false, true];
        ed.load(Some(hand));
        ed.apply(PaletteTarget::Dora(0), None);
        assert_eq!(ed.hand.as_ref().unwrap().dora_uncertain, [true]);
    }

    #[test]
    fn meld_tiles_are_corrected_as_a_set() {
        let mut ed = HandEditor::default();
        ed.load(Some(
            EditableHand::parse("123m456p11z [666s] [3*45m]").unwrap(),
        ));
        // A pon's tiles change together; the red five lands where it was picked.
        ed.apply(PaletteTarget::Meld(0, 1), Some(parse_tile("0s").unwrap()));
        assert_eq!(format_meld(&ed.hand.as_ref().unwrap().melds[0]), "[505s]");
        // A chi's tile changes alone; a result that is no chi is refused.
        ed.apply(PaletteTarget::Meld(1, 2), Some(parse_tile("2m").unwrap()));
        assert_eq!(format_meld(&ed.hand.as_ref().unwrap().melds[1]), "[3*42m]");
        ed.apply(PaletteTarget::Meld(1, 2), Some(parse_tile("9m").unwrap()));
        assert_eq!(format_meld(&ed.hand.as_ref().unwrap().melds[1]), "[3*42m]");
        assert!(ed.meld_error.is_some());
    }
}
