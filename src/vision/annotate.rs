//! Drawing detections onto a photo: each tile's rotated box and its label, for
//! `recognize --annotate` and the batch report.
//!
//! Labels use a built-in 3×5 pixel font (digits, suit letters, `back`) so no font file is needed.

use super::picture::Rgb;
use super::{Detection, Face};

/// Box colours: confident, uncertain, face-down.
const SURE: [u8; 3] = [40, 200, 60];
const DOUBT: [u8; 3] = [240, 160, 0];
const BACK: [u8; 3] = [60, 120, 255];

/// 3×5 glyphs, one row per byte (bit 2 = left column).
fn glyph(c: char) -> [u8; 5] {
    match c {
        '0' => [7, 5, 5, 5, 7],
        '1' => [2, 6, 2, 2, 7],
        '2' => [7, 1, 7, 4, 7],
        '3' => [7, 1, 7, 1, 7],
        '4' => [5, 5, 7, 1, 1],
        '5' => [7, 4, 7, 1, 7],
        '6' => [7, 4, 7, 5, 7],
        '7' => [7, 1, 2, 2, 2],
        '8' => [7, 5, 7, 5, 7],
        '9' => [7, 5, 7, 1, 7],
        'm' => [0, 7, 7, 5, 5],
        'p' => [0, 7, 5, 7, 4],
        's' => [0, 3, 6, 1, 6],
        'z' => [0, 7, 1, 4, 7],
        'b' => [4, 4, 7, 5, 7],
        'a' => [0, 7, 1, 7, 7],
        'c' => [0, 7, 4, 4, 7],
        'k' => [4, 5, 6, 5, 5],
        '?' => [7, 1, 2, 0, 2],
        _ => [0; 5],
    }
}

fn put(image: &mut Rgb, x: i64, y: i64, color: [u8; 3]) {
    if x < 0 || y < 0 || x >= i64::from(image.width) || y >= i64::from(image.height) {
        return;
    }
    let at = (y as usize * image.width as usize + x as usize) * 3;
    image.pixels[at..at + 3].copy_from_slice(&color);
}

fn line(image: &mut Rgb, from: (f32, f32), to: (f32, f32), color: [u8; 3], thickness: i64) {
    let steps = (to.0 - from.0)
        .abs()
        .max((to.1 - from.1).abs())
        .ceil()
        .max(1.0) as i64;
    for step in 0..=steps {
        let t = step as f32 / steps as f32;
        let x = (from.0 + (to.0 - from.0) * t).round() as i64;
        let y = (from.1 + (to.1 - from.1) * t).round() as i64;
        for dy in 0..thickness {
            for dx in 0..thickness {
                put(image, x + dx - thickness / 2, y + dy - thickness / 2, color);
            }
        }
    }
}

fn text(image: &mut Rgb, x: i64, y: i64, label: &str, scale: i64, color: [u8; 3]) {
    let width = label.chars().count() as i64 * 4 * scale + scale;
    for dy in 0..7 * scale {
        for dx in 0..width {
            put(image, x + dx, y + dy, [0, 0, 0]);
        }
    }
    for (n, c) in label.chars().enumerate() {
        for (row, bits) in glyph(c).iter().enumerate() {
            for col in 0..3 {
                if bits & (4 >> col) != 0 {
                    for sy in 0..scale {
                        for sx in 0..scale {
                            put(
                                image,
                                x + scale + (n as i64 * 4 + col) * scale + sx,
                                y + scale + row as i64 * scale + sy,
                                color,
                            );
                        }
                    }
                }
            }
        }
    }
}

/// Draws every detection; `uncertain` holds indices to highlight.
pub fn draw(image: &mut Rgb, detections: &[Detection], uncertain: &[usize]) {
    let scale = (image.width.max(image.height) / 500).clamp(1, 8) as i64;
    for (i, d) in detections.iter().enumerate() {
        let color = match d.tile {
            Face::Back => BACK,
            _ if uncertain.contains(&i) => DOUBT,
            _ => SURE,
        };
        let corners = d.rotated.corners();
        for k in 0..4 {
            line(image, corners[k], corners[(k + 1) % 4], color, scale.max(2));
        }
        let label = d.tile.notation();
        let [x1, y1, _, _] = d.bounds;
        text(
            image,
            x1 as i64,
            (y1 as i64 - 8 * scale).max(0),
            &label,
            scale,
            color,
        );
    }
}

/// Encodes an image as PNG bytes.
pub fn png(image: &Rgb) -> Result<Vec<u8>, super::VisionError> {
    let buffer = image::RgbImage::from_raw(image.width, image.height, image.pixels.clone())
        .ok_or_else(|| super::VisionError::Decode("image buffer size mismatch".into()))?;
    let mut bytes = Vec::new();
    buffer
        .write_to(
            &mut std::io::Cursor::new(&mut bytes),
            image::ImageFormat::Png,
        )
        .map_err(|e| super::VisionError::Decode(e.to_string()))?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::picture::RotatedBox;

    #[test]
    fn draws_box_outline_and_label() {
        let mut image = Rgb::new(200, 200, vec![255; 200 * 200 * 3]).unwrap();
        let rotated = RotatedBox {
            cx: 100.0,
            cy: 110.0,
            w: 40.0,
            h: 60.0,
            phi: -std::f32::consts::FRAC_PI_2,
        };
        let d = Detection {
            tile: Face::from_class(4).unwrap(),
            bounds: rotated.bounds(),
            confidence: 0.9,
            sideways: false,
            detector_score: 0.9,
            rotated,
            probs: [0.0; crate::vision::CLASS_COUNT],
            turned: None,
        };
        draw(&mut image, &[d], &[]);
        let at = |x: usize, y: usize| &image.pixels[(y * 200 + x) * 3..(y * 200 + x) * 3 + 3];
        assert_eq!(at(80, 110), SURE, "left edge of the box");
        assert_eq!(at(100, 110), [255, 255, 255], "inside stays untouched");
        assert!(png(&image).unwrap().starts_with(b"\x89PNG"));
    }
}
