//! One image being read, and what each crop cut from it has read as so far.
//!
//! A photo's reading cuts some crops more than once: the dead wall's backs are read again when
//! a white dragon indicator is looked for among them, the whole tile that replaces a part of one
//! is read again with the other boxes, a box's turned crops again when it is read a second
//! time. On the 20 photo fixtures 117 of the 1,684 crops a reading cut had been cut and read
//! before in the same image (README, "Throughput and recognition speed"). The classifier reads
//! a crop the same, bit for bit, whatever else is in its batch, and a crop's pixels do not
//! depend on the crops cut with it, so what a crop read is kept for as long as the image is
//! held, and reading it again is a lookup. A [`Sight`] holds its image (borrowed, or owned
//! for a photo turned or lifted for reading) with what was read in it, so a reading can never be
//! looked up against another image.

use super::picture::{Rgb, RotatedBox};
use super::Reading;
use std::borrow::Cow;
use std::collections::HashMap;

/// An image and what the crops cut from it read as, by crop box.
pub(super) struct Sight<'a> {
    image: Cow<'a, Rgb>,
    seen: HashMap<[u32; 5], Seen>,
}

/// What one crop read as.
#[derive(Clone, Copy, Debug)]
pub(super) struct Seen {
    pub reading: Reading,
    /// The crop's face value and colour (see [`super::picture::face_value`] and
    /// [`super::picture::face_colour`]), once they were asked for.
    pub face: Option<(f32, [f32; 3])>,
}

impl<'a> Sight<'a> {
    /// A sight of an image the caller holds.
    pub fn of(image: &'a Rgb) -> Sight<'a> {
        Sight {
            image: Cow::Borrowed(image),
            seen: HashMap::new(),
        }
    }

    /// A sight of an image made for reading (the photo turned, or its light lifted).
    pub fn owning(image: Rgb) -> Sight<'a> {
        Sight {
            image: Cow::Owned(image),
            seen: HashMap::new(),
        }
    }

    pub fn image(&self) -> &Rgb {
        &self.image
    }

    pub fn into_image(self) -> Rgb {
        self.image.into_owned()
    }

    /// What the crop at `b` read as, if it was cut before.
    pub fn seen(&self, b: &RotatedBox) -> Option<Seen> {
        self.seen.get(&key(b)).copied()
    }

    pub fn remember(&mut self, b: &RotatedBox, seen: Seen) {
        self.seen.insert(key(b), seen);
    }
}

/// A crop box by its exact bits: boxes with the same bits cut the same pixels. (Boxes that
/// differ only as 0.0 and −0.0 do too, and are merely cut twice.)
fn key(b: &RotatedBox) -> [u32; 5] {
    [b.cx, b.cy, b.w, b.h, b.phi].map(f32::to_bits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::CLASS_COUNT;

    fn seen(p: f32) -> Seen {
        let mut tiles = [0.0; CLASS_COUNT];
        tiles[3] = p;
        Seen {
            reading: Reading {
                tiles,
                not_tile: 1.0 - p,
            },
            face: None,
        }
    }

    #[test]
    fn a_crop_is_remembered_by_its_exact_box_in_its_own_image_only() {
        let image = Rgb {
            width: 2,
            height: 2,
            pixels: vec![0; 12],
        };
        let b = RotatedBox {
            cx: 1.0,
            cy: 1.0,
            w: 2.0,
            h: 3.0,
            phi: -std::f32::consts::FRAC_PI_2,
        };
        let mut sight = Sight::of(&image);
        assert!(sight.seen(&b).is_none());
        sight.remember(&b, seen(0.75));
        assert_eq!(sight.seen(&b).map(|s| s.reading.tiles[3]), Some(0.75));
        let nudged = RotatedBox {
            cx: f32::from_bits(b.cx.to_bits() + 1),
            ..b
        };
        assert!(sight.seen(&nudged).is_none());
        // Another image, even one with the same pixels, starts with nothing read.
        let other = Sight::owning(image.clone());
        assert!(other.seen(&b).is_none());
        assert_eq!(other.into_image(), image);
    }
}
