//! The live view: the newest frame (or the frozen one) scaled to fit, with every detected
//! tile's box and label drawn over it; uncertain tiles in orange.

use crate::vision::PhotoReading;
use eframe::egui;

const SURE: egui::Color32 = egui::Color32::from_rgb(40, 220, 90);
const UNSURE: egui::Color32 = egui::Color32::from_rgb(255, 140, 0);
const DORA: egui::Color32 = egui::Color32::from_rgb(80, 170, 255);

/// Draws `texture` (a `width`×`height` frame) into the available space with `reading`'s
/// boxes. Returns the rectangle the frame took.
pub fn show(
    ui: &mut egui::Ui,
    texture: &egui::TextureHandle,
    size: [u32; 2],
    reading: Option<&PhotoReading>,
) -> egui::Rect {
    let avail = ui.available_size();
    let (w, h) = (size[0].max(1) as f32, size[1].max(1) as f32);
    let scale = (avail.x / w).min(avail.y / h).max(0.01);
    let (rect, _) = ui.allocate_exact_size(egui::vec2(w * scale, h * scale), egui::Sense::hover());
    let painter = ui.painter_at(rect);
    painter.image(
        texture.id(),
        rect,
        egui::Rect::from_min_max(egui::pos2(0.0, 0.0), egui::pos2(1.0, 1.0)),
        egui::Color32::WHITE,
    );
    let Some(reading) = reading else { return rect };
    // Readings of an older frame of another size (a source switch) are not drawn.
    if (reading.width, reading.height) != (size[0], size[1]) {
        return rect;
    }
    let uncertain = reading
        .hand
        .as_ref()
        .map(|h| h.uncertain.clone())
        .unwrap_or_default();
    let to_screen = |x: f32, y: f32| rect.min + egui::vec2(x * scale, y * scale);
    for (i, det) in reading.tiles.iter().enumerate() {
        let color = if uncertain.contains(&i) {
            UNSURE
        } else if reading.layout.dora.contains(&i) {
            DORA
        } else {
            SURE
        };
        let mut points: Vec<egui::Pos2> = det
            .rotated
            .corners()
            .iter()
            .map(|&(x, y)| to_screen(x, y))
            .collect();
        if let Some(first) = points.first().copied() {
            points.push(first);
        }
        painter.add(egui::Shape::line(points, egui::Stroke::new(2.0, color)));
        let [x1, y1, _, _] = det.bounds;
        let at = to_screen(x1, y1);
        let text = det.tile.notation();
        let galley =
            painter.layout_no_wrap(text, egui::FontId::monospace(13.0), egui::Color32::BLACK);
        let label = egui::Rect::from_min_size(
            at - egui::vec2(0.0, galley.size().y + 2.0),
            galley.size() + egui::vec2(4.0, 2.0),
        );
        painter.rect_filled(label, 2.0, color);
        painter.galley(
            label.min + egui::vec2(2.0, 1.0),
            galley,
            egui::Color32::BLACK,
        );
    }
    rect
}
