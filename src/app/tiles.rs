//! Tile images for the UI: the bundled FluffyStuff art (the overlay's
//! [`crate::overlay::assets::tile_png`]), each face composited onto the blank `front` tile
//! once and kept as a texture.

use crate::overlay::assets::tile_png;
use crate::tile::{Kind, Tile};
use eframe::egui;
use std::collections::HashMap;

/// Every tile the palette offers: the 34 kinds, then the three red fives.
pub fn palette_tiles() -> Vec<Tile> {
    let mut tiles: Vec<Tile> = Kind::all().map(Tile::plain).collect();
    for suit in [crate::Suit::Man, crate::Suit::Pin, crate::Suit::Sou] {
        if let Some(red) = Kind::new(suit, 5).and_then(Tile::red) {
            tiles.push(red);
        }
    }
    tiles
}

fn decode(png: &[u8]) -> Option<image::RgbaImage> {
    image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .ok()
        .map(|i| i.to_rgba8())
}

/// Draws `face` over `base` (same size) with straight alpha.
fn over(base: &mut image::RgbaImage, face: &image::RgbaImage) {
    if base.dimensions() != face.dimensions() {
        return;
    }
    for (b, f) in base.pixels_mut().zip(face.pixels()) {
        let a = u32::from(f[3]);
        for c in 0..3 {
            b[c] = ((u32::from(f[c]) * a + u32::from(b[c]) * (255 - a)) / 255) as u8;
        }
        b[3] = b[3].max(f[3]);
    }
}

/// Tile textures, made on first use.
#[derive(Default)]
pub struct TileTextures {
    textures: HashMap<String, Option<egui::TextureHandle>>,
}

impl TileTextures {
    /// The texture for a tile name (`5p`, `0m`, `back`); `None` if the art has no such
    /// image or it cannot be decoded (the UI then shows the name as text).
    pub fn get(&mut self, ctx: &egui::Context, name: &str) -> Option<egui::TextureId> {
        self.textures
            .entry(name.to_string())
            .or_insert_with(|| {
                let mut image = decode(tile_png(if name == "back" { "back" } else { "front" })?)?;
                if name != "back" {
                    over(&mut image, &decode(tile_png(name)?)?);
                }
                let size = [image.width() as usize, image.height() as usize];
                let color = egui::ColorImage::from_rgba_unmultiplied(size, image.as_raw());
                Some(ctx.load_texture(format!("tile-{name}"), color, egui::TextureOptions::LINEAR))
            })
            .as_ref()
            .map(|t| t.id())
    }
}

/// How a tile button looks.
#[derive(Clone, Copy, Debug, Default)]
pub struct TileLook {
    /// Orange frame: the recognizer is not sure of this tile.
    pub uncertain: bool,
    /// Highlighted frame: the palette is open for this tile.
    pub selected: bool,
    /// Tile height in points.
    pub height: f32,
}

/// A clickable tile image whose accessible name is `label` (screen readers and UI tests
/// find tiles by it).
pub fn tile_button(
    ui: &mut egui::Ui,
    textures: &mut TileTextures,
    tile: &str,
    label: &str,
    look: TileLook,
) -> egui::Response {
    let height = if look.height > 0.0 { look.height } else { 48.0 };
    let size = egui::vec2(height * 0.75, height);
    let stroke = if look.uncertain {
        egui::Stroke::new(3.0, egui::Color32::from_rgb(255, 140, 0))
    } else if look.selected {
        egui::Stroke::new(3.0, ui.visuals().selection.stroke.color)
    } else {
        egui::Stroke::NONE
    };
    let response = match textures.get(ui.ctx(), tile) {
        Some(id) => ui.add(
            egui::Button::image(egui::Image::new((id, size)))
                .stroke(stroke)
                .frame(true),
        ),
        None => ui.add_sized(size, egui::Button::new(tile).stroke(stroke)),
    };
    let enabled = ui.is_enabled();
    let label = label.to_string();
    response.widget_info(|| egui::WidgetInfo::labeled(egui::Role::Button, enabled, &label));
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_palette_has_every_tile_once() {
        let tiles = palette_tiles();
        assert_eq!(tiles.len(), 37);
        for t in &tiles {
            assert!(tile_png(&t.to_string()).is_some(), "{t}");
        }
    }

    #[test]
    fn faces_are_drawn_on_the_front() {
        let mut base = decode(tile_png("front").unwrap()).unwrap();
        let face = decode(tile_png("5p").unwrap()).unwrap();
        over(&mut base, &face);
        assert_eq!(base.dimensions(), face.dimensions());
    }
}
