//! Decoded photos: safe decoding (size limits against decompression bombs, EXIF orientation),
//! the letterboxed detector input, and rotated tile crops sampled from an area pyramid.
//!
//! The arithmetic mirrors `models/training/reference_infer.py` so the Rust pipeline sees the
//! same pixels the model was evaluated on.

use super::VisionError;
use image::{ImageDecoder, ImageReader, Limits};
use std::io::Cursor;

/// How many pixels [`Rgb::black_levels`] samples at least: every third of a 720p frame's, a
/// sparser grid of a larger photo's.
pub const BLACK_SAMPLES: usize = 250_000;

/// The share of the sampled pixels darker than a photo's black level (see
/// [`Rgb::black_levels`]): under the ink a hand's faces show, over a few dead or noisy pixels.
pub const BLACK_QUANTILE: f32 = 0.005;

/// Largest accepted width or height, in pixels (a 12 MP phone photo is ~4000 × 3000).
pub const MAX_SIDE: u32 = 12_000;
/// Largest accepted decoded size, in bytes.
pub const MAX_DECODED_BYTES: u64 = 512 * 1024 * 1024;

/// An 8-bit RGB image, rows top to bottom.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rgb {
    pub width: u32,
    pub height: u32,
    pub pixels: Vec<u8>,
}

impl Rgb {
    /// The image turned half a turn (upside down): pixel `(x, y)` moves to
    /// `(width − 1 − x, height − 1 − y)`.
    pub fn half_turned(&self) -> Rgb {
        let mut pixels = Vec::with_capacity(self.pixels.len());
        for px in self.pixels.chunks_exact(3).rev() {
            pixels.extend_from_slice(px);
        }
        Rgb {
            width: self.width,
            height: self.height,
            pixels,
        }
    }

    /// The image turned a quarter turn clockwise: pixel `(x, y)` moves to
    /// `(height − 1 − y, x)`, and the width and height swap.
    pub fn turned_clockwise(&self) -> Rgb {
        self.columns_as_rows(true)
    }

    /// The image turned a quarter turn anticlockwise, undoing [`Rgb::turned_clockwise`]: pixel
    /// `(x, y)` moves to `(y, width − 1 − x)`.
    pub fn turned_anticlockwise(&self) -> Rgb {
        self.columns_as_rows(false)
    }

    /// The image whose rows are this one's columns: left to right, each read from the bottom up
    /// (`clockwise`), or right to left, each read from the top down.
    fn columns_as_rows(&self, clockwise: bool) -> Rgb {
        let (w, h) = (self.width as usize, self.height as usize);
        let mut pixels = Vec::with_capacity(self.pixels.len());
        for column in 0..w {
            let x = if clockwise { column } else { w - 1 - column };
            for row in 0..h {
                let y = if clockwise { h - 1 - row } else { row };
                let at = 3 * (y * w + x);
                pixels.extend_from_slice(&self.pixels[at..at + 3]);
            }
        }
        Rgb {
            width: self.height,
            height: self.width,
            pixels,
        }
    }

    /// Wraps raw RGB bytes; the length must be `width × height × 3`.
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Result<Rgb, VisionError> {
        if width == 0 || height == 0 || pixels.len() != width as usize * height as usize * 3 {
            return Err(VisionError::Decode(format!(
                "{} bytes do not make a {width}×{height} RGB image",
                pixels.len()
            )));
        }
        Ok(Rgb {
            width,
            height,
            pixels,
        })
    }

    /// Each channel's darkest level, the [`BLACK_QUANTILE`] quantile of a grid of about
    /// [`BLACK_SAMPLES`] pixels: the ink of the tiles' faces in a photo with clear blacks, and
    /// the floor a veil of light (haze, glare over the lens, a webcam's lifted blacks) raises.
    pub fn black_levels(&self) -> [f32; 3] {
        let pixels = self.width as usize * self.height as usize;
        let step = (pixels / BLACK_SAMPLES).max(1);
        let mut counts = [[0u32; 256]; 3];
        let mut sampled = 0u32;
        for px in self.pixels.chunks_exact(3).step_by(step) {
            for (c, count) in counts.iter_mut().enumerate() {
                count[px[c] as usize] += 1;
            }
            sampled += 1;
        }
        let darker = (sampled as f32 * BLACK_QUANTILE) as u32;
        counts.map(|count| {
            let mut seen = 0;
            let level = count.iter().position(|&n| {
                seen += n;
                seen > darker
            });
            level.unwrap_or(0) as f32
        })
    }

    /// The image with each channel's levels stretched so that `black` becomes `floor` and 255
    /// stays 255: the veil [`Rgb::black_levels`] measures taken off, down to `floor`.
    pub fn with_black(&self, black: [f32; 3], floor: f32) -> Rgb {
        let scale = black.map(|b| (255.0 - floor) / (255.0 - b.clamp(0.0, 254.0)));
        let pixels = self
            .pixels
            .chunks_exact(3)
            .flat_map(|px| {
                std::array::from_fn::<u8, 3, _>(|c| {
                    (floor + (px[c] as f32 - black[c]).max(0.0) * scale[c]).min(255.0) as u8
                })
            })
            .collect();
        Rgb {
            width: self.width,
            height: self.height,
            pixels,
        }
    }

    /// The image with its levels (as 0–1) raised to the power `gamma`: black and white stay
    /// where they are, and a gamma over 1 darkens the levels between, the middle ones most.
    pub fn with_gamma(&self, gamma: f32) -> Rgb {
        let table: [u8; 256] =
            std::array::from_fn(|v| (255.0 * (v as f32 / 255.0).powf(gamma) + 0.5) as u8);
        Rgb {
            width: self.width,
            height: self.height,
            pixels: self.pixels.iter().map(|&v| table[v as usize]).collect(),
        }
    }

    /// The image with each channel multiplied by its gain (values over 255 saturate).
    pub fn with_gains(&self, gains: [f32; 3]) -> Rgb {
        let pixels = self
            .pixels
            .chunks_exact(3)
            .flat_map(|px| {
                std::array::from_fn::<u8, 3, _>(|c| (px[c] as f32 * gains[c]).min(255.0) as u8)
            })
            .collect();
        Rgb {
            width: self.width,
            height: self.height,
            pixels,
        }
    }

    /// The standard deviation of this image's noise in grey levels, estimated as Immerkaer's
    /// fast method does (the mean absolute response to the 3×3 mask [1 -2 1] ⊗ [1 -2 1], which
    /// cancels smooth shading and edges of one direction), on every fourth row.
    pub fn noise_level(&self) -> f32 {
        let (w, h) = (self.width as usize, self.height as usize);
        if w < 3 || h < 3 {
            return 0.0;
        }
        let grey = |x: usize, y: usize| {
            let i = 3 * (y * w + x);
            (self.pixels[i] as f32 + self.pixels[i + 1] as f32 + self.pixels[i + 2] as f32) / 3.0
        };
        let (mut sum, mut n) = (0.0f64, 0u64);
        let mut down = vec![0f32; w];
        for y in (1..h - 1).step_by(4) {
            // The mask is separable: the second difference down each column, then across.
            for (x, d) in down.iter_mut().enumerate() {
                *d = grey(x, y - 1) - 2.0 * grey(x, y) + grey(x, y + 1);
            }
            for across in down.windows(3) {
                sum += (across[0] - 2.0 * across[1] + across[2]).abs() as f64;
                n += 1;
            }
        }
        ((std::f64::consts::FRAC_PI_2).sqrt() * sum / (6.0 * n as f64)) as f32
    }

    /// This image smoothed by the separable kernel [1 2 1] / 4 across and down (a blur of
    /// about 0.7 px), edges repeated.
    pub fn smoothed(&self) -> Rgb {
        let (w, h) = (self.width as usize, self.height as usize);
        let pass = |src: &[u8], step: usize, len: usize, pos: &dyn Fn(usize) -> usize| -> Vec<u8> {
            let mut out = vec![0u8; src.len()];
            for (i, o) in out.iter_mut().enumerate() {
                let p = pos(i / 3);
                let prev = if p == 0 { i } else { i - step };
                let next = if p + 1 == len { i } else { i + step };
                *o = ((src[prev] as u16 + 2 * src[i] as u16 + src[next] as u16 + 2) / 4) as u8;
            }
            out
        };
        let across = pass(&self.pixels, 3, w, &|px| px % w);
        let pixels = pass(&across, 3 * w, h, &|px| px / w);
        Rgb {
            width: self.width,
            height: self.height,
            pixels,
        }
    }

    /// Decodes a JPEG or PNG, applying its EXIF orientation. Refuses images whose header
    /// announces more than [`MAX_SIDE`] pixels a side or [`MAX_DECODED_BYTES`] decoded.
    pub fn decode(bytes: &[u8]) -> Result<Rgb, VisionError> {
        if let Some((width, height)) = png_dimensions(bytes) {
            if width > MAX_SIDE || height > MAX_SIDE {
                return Err(VisionError::TooLarge { width, height });
            }
        }
        if jpeg_truncated(bytes) {
            return Err(VisionError::Decode(
                "the JPEG file is truncated (no end-of-image marker after the image data)".into(),
            ));
        }
        let mut reader = ImageReader::new(Cursor::new(bytes))
            .with_guessed_format()
            .map_err(|e| VisionError::Decode(e.to_string()))?;
        let mut limits = Limits::default();
        limits.max_image_width = Some(MAX_SIDE);
        limits.max_image_height = Some(MAX_SIDE);
        limits.max_alloc = Some(MAX_DECODED_BYTES);
        reader.limits(limits);
        if reader.format().is_none() {
            return Err(VisionError::Decode(
                "not a JPEG or PNG image (unrecognised file header)".into(),
            ));
        }
        let mut decoder = reader.into_decoder().map_err(decode_error)?;
        let (width, height) = decoder.dimensions();
        if width > MAX_SIDE || height > MAX_SIDE {
            return Err(VisionError::TooLarge { width, height });
        }
        let orientation = decoder
            .orientation()
            .unwrap_or(image::metadata::Orientation::NoTransforms);
        let mut image = image::DynamicImage::from_decoder(decoder).map_err(decode_error)?;
        image.apply_orientation(orientation);
        let rgb = image.into_rgb8();
        let (width, height) = rgb.dimensions();
        Rgb::new(width, height, rgb.into_raw())
    }

    /// Reads and decodes a file.
    pub fn open(path: &std::path::Path) -> Result<Rgb, VisionError> {
        let bytes = std::fs::read(path).map_err(|e| VisionError::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Rgb::decode(&bytes)
    }

    #[cfg(test)]
    fn at(&self, x: usize, y: usize, c: usize) -> u8 {
        self.pixels[(y * self.width as usize + x) * 3 + c]
    }
}

/// A photo decoded at 1/`reduction` of its size, and the size it has in full.
#[derive(Clone, Debug)]
pub struct Reduced {
    pub image: Rgb,
    /// 1, 2, 4 or 8: pixel `(x, y)` of `image` covers full-size pixels `x·r..(x+1)·r` by
    /// `y·r..(y+1)·r`.
    pub reduction: u32,
    /// The full size, EXIF orientation applied.
    pub full_width: u32,
    pub full_height: u32,
}

impl Reduced {
    /// Decodes a photo at the largest reduction of 1, 2, 4 and 8 that is at most
    /// `max_reduction` and leaves its long side at least `min_long_side` pixels. A JPEG is
    /// reduced while it decodes (libjpeg-turbo computes the inverse DCT at 4×4, 2×2 or 1×1
    /// per 8×8 block), which skips most of the pixel work of a 12 MP photo; anything else
    /// (PNG, CMYK JPEGs) is decoded in full by [`Rgb::decode`], with its checks and errors.
    pub fn decode(
        bytes: &[u8],
        max_reduction: u32,
        min_long_side: u32,
    ) -> Result<Reduced, VisionError> {
        let full = |image: Rgb| Reduced {
            full_width: image.width,
            full_height: image.height,
            reduction: 1,
            image,
        };
        if !bytes.starts_with(&[0xff, 0xd8]) || max_reduction < 2 || jpeg_truncated(bytes) {
            return Rgb::decode(bytes).map(full);
        }
        // libjpeg reports fatal errors by unwinding (mozjpeg's error manager).
        let decoded =
            std::panic::catch_unwind(|| decode_scaled(bytes, max_reduction, min_long_side))
                .unwrap_or(Err(ScaledError::Failed));
        let scaled = match decoded {
            Ok(Some(scaled)) => scaled,
            // Unusual colour models, broken headers, no reduction: the full decoder handles or
            // names them.
            Ok(None) | Err(ScaledError::Failed) => return Rgb::decode(bytes).map(full),
            Err(ScaledError::TooLarge { width, height }) => {
                return Err(VisionError::TooLarge { width, height })
            }
        };
        let orientation = scaled
            .exif
            .as_deref()
            .and_then(image::metadata::Orientation::from_exif_chunk)
            .unwrap_or(image::metadata::Orientation::NoTransforms);
        let image = image::RgbImage::from_raw(scaled.width, scaled.height, scaled.pixels)
            .ok_or_else(|| {
                VisionError::Decode("the JPEG decoder returned too few pixels".into())
            })?;
        let mut image = image::DynamicImage::ImageRgb8(image);
        image.apply_orientation(orientation);
        let (full_width, full_height) = if image.width() == scaled.width {
            scaled.full
        } else {
            (scaled.full.1, scaled.full.0)
        };
        let image = image.into_rgb8();
        let (w, h) = image.dimensions();
        Ok(Reduced {
            image: Rgb::new(w, h, image.into_raw())?,
            reduction: scaled.reduction,
            full_width,
            full_height,
        })
    }
}

enum ScaledError {
    TooLarge {
        width: u32,
        height: u32,
    },
    /// Left to the full decoder, which names the problem.
    Failed,
}

/// A JPEG decoded at a reduced size, as stored (before its EXIF orientation).
struct Scaled {
    /// The stored full size.
    full: (u32, u32),
    reduction: u32,
    /// The decoded size and its RGB pixels.
    width: u32,
    height: u32,
    pixels: Vec<u8>,
    /// The EXIF block (from its TIFF header on).
    exif: Option<Vec<u8>>,
}

/// `None` when the JPEG is not to be reduced or its colour model is not YCbCr or grey.
fn decode_scaled(
    bytes: &[u8],
    max_reduction: u32,
    min_long_side: u32,
) -> Result<Option<Scaled>, ScaledError> {
    let failed = |_| ScaledError::Failed;
    let mut decoder = mozjpeg::Decompress::with_markers(&[mozjpeg::Marker::APP(1)])
        .from_mem(bytes)
        .map_err(failed)?;
    let (width, height) = decoder.size();
    if width > MAX_SIDE as usize || height > MAX_SIDE as usize {
        return Err(ScaledError::TooLarge {
            width: width as u32,
            height: height as u32,
        });
    }
    if !matches!(
        decoder.color_space(),
        mozjpeg_sys::J_COLOR_SPACE::JCS_YCbCr | mozjpeg_sys::J_COLOR_SPACE::JCS_GRAYSCALE
    ) {
        return Ok(None);
    }
    let mut reduction = 1;
    while reduction < (max_reduction as usize).min(8)
        && width.max(height) / (2 * reduction) >= min_long_side as usize
    {
        reduction *= 2;
    }
    if reduction == 1 {
        return Ok(None);
    }
    let exif = decoder
        .markers()
        .find_map(|m| m.data.strip_prefix(b"Exif\0\0").map(<[u8]>::to_vec));
    decoder.scale((8 / reduction) as u8);
    let mut started = decoder.rgb().map_err(failed)?;
    let (out_width, out_height) = (started.width() as u32, started.height() as u32);
    let pixels = started.read_scanlines::<u8>().map_err(failed)?;
    started.finish().map_err(failed)?;
    Ok(Some(Scaled {
        full: (width as u32, height as u32),
        reduction: reduction as u32,
        width: out_width,
        height: out_height,
        pixels,
        exif,
    }))
}

/// Whether a JPEG file ends before its image does. The JPEG decoder fills a truncated image
/// with grey without an error, which the recognizer would then read, so this is checked
/// first: the marker segments are walked to the first start-of-scan (skipping EXIF and its
/// embedded thumbnail by their lengths), and an end-of-image marker (`FF D9`) must follow
/// (entropy-coded data never holds one: a data byte `FF` is followed by `00`). Data after the
/// end marker, such as the video of a "motion photo", is allowed. Not a JPEG: `false`.
pub fn jpeg_truncated(bytes: &[u8]) -> bool {
    if !bytes.starts_with(&[0xff, 0xd8]) {
        return false;
    }
    let mut i = 2;
    loop {
        // Fill bytes may precede a marker.
        while bytes.get(i) == Some(&0xff) && bytes.get(i + 1) == Some(&0xff) {
            i += 1;
        }
        let (Some(&0xff), Some(&marker)) = (bytes.get(i), bytes.get(i + 1)) else {
            // Cut off, or not a marker where one belongs (left to the decoder).
            return i + 1 >= bytes.len();
        };
        match marker {
            0xda => break,
            0xd9 => return false,
            0x01 | 0xd0..=0xd7 => i += 2,
            _ => {
                let (Some(&hi), Some(&lo)) = (bytes.get(i + 2), bytes.get(i + 3)) else {
                    return true;
                };
                i += 2 + usize::from(u16::from_be_bytes([hi, lo]));
            }
        }
    }
    // Most files end with the marker: no need to scan megabytes of image data for it.
    !(bytes.ends_with(&[0xff, 0xd9]) || bytes[i..].windows(2).any(|w| w == [0xff, 0xd9]))
}

/// The size a PNG's header announces (read directly: the PNG decoder wants more than the
/// header before it tells).
fn png_dimensions(bytes: &[u8]) -> Option<(u32, u32)> {
    if !bytes.starts_with(b"\x89PNG\r\n\x1a\n") || bytes.get(12..16) != Some(b"IHDR") {
        return None;
    }
    let word = |at: usize| Some(u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
    Some((word(16)?, word(20)?))
}

fn decode_error(e: image::ImageError) -> VisionError {
    match e {
        image::ImageError::Limits(_) => VisionError::Decode(format!(
            "image too large to decode safely ({e}); the limit is {MAX_SIDE} pixels a side"
        )),
        other => VisionError::Decode(other.to_string()),
    }
}

/// The detector's input: letterboxed NCHW floats in 0–1, and the scale applied.
pub struct Letterbox {
    /// `[1, 3, height, width]`, row-major.
    pub data: Vec<f32>,
    pub width: usize,
    pub height: usize,
    /// Input pixels per original pixel.
    pub scale: f32,
}

impl Letterbox {
    /// The part `[x0, x1) × [y0, y1)` of the input (input pixels, clamped to it), or `None` when
    /// nothing of it is inside.
    pub fn window(&self, x0: usize, y0: usize, x1: usize, y1: usize) -> Option<Letterbox> {
        let (x1, y1) = (x1.min(self.width), y1.min(self.height));
        if x0 >= x1 || y0 >= y1 {
            return None;
        }
        let plane = self.width * self.height;
        let mut data = Vec::with_capacity(3 * (x1 - x0) * (y1 - y0));
        for c in 0..3 {
            for y in y0..y1 {
                let row = c * plane + y * self.width;
                data.extend_from_slice(&self.data[row + x0..row + x1]);
            }
        }
        Some(Letterbox {
            data,
            width: x1 - x0,
            height: y1 - y0,
            scale: self.scale,
        })
    }
}

/// Scales the long side to `long_side`, pads right and bottom with grey (127) up to multiples
/// of 32, and converts to planar floats.
pub fn letterbox(image: &Rgb, long_side: u32) -> Result<Letterbox, VisionError> {
    use fast_image_resize as fr;
    let scale = long_side as f32 / image.width.max(image.height) as f32;
    let new_w = ((image.width as f32 * scale).round() as u32).max(1);
    let new_h = ((image.height as f32 * scale).round() as u32).max(1);
    let src = fr::images::ImageRef::new(
        image.width,
        image.height,
        &image.pixels,
        fr::PixelType::U8x3,
    )
    .map_err(|e| VisionError::Decode(e.to_string()))?;
    let mut dst = fr::images::Image::new(new_w, new_h, fr::PixelType::U8x3);
    // A box filter averages the pixels it shrinks; enlarging (a zoomed far shot) wants bilinear.
    let filter = if scale <= 1.0 {
        fr::FilterType::Box
    } else {
        fr::FilterType::Bilinear
    };
    let options = fr::ResizeOptions::new().resize_alg(fr::ResizeAlg::Convolution(filter));
    fr::Resizer::new()
        .resize(&src, &mut dst, &options)
        .map_err(|e| VisionError::Decode(e.to_string()))?;
    let width = new_w.div_ceil(32) as usize * 32;
    let height = new_h.div_ceil(32) as usize * 32;
    let plane = width * height;
    let mut data = vec![127.0 / 255.0; 3 * plane];
    let [red, green, blue] = planes_of(&mut data, plane);
    let new_w = new_w as usize;
    // A row at a time into the three planes, each byte's value looked up (`CROP_VALUES` holds
    // `level / 255`): dividing every value took 1 ms of a 720p frame's 2.6 ms letterbox.
    for (y, row) in dst.buffer().chunks_exact(new_w * 3).enumerate() {
        let planes = [
            &mut red[y * width..],
            &mut green[y * width..],
            &mut blue[y * width..],
        ];
        for (c, plane) in planes.into_iter().enumerate() {
            for (out, px) in plane[..new_w].iter_mut().zip(row.chunks_exact(3)) {
                *out = CROP_VALUES[usize::from(px[c])];
            }
        }
    }
    Ok(Letterbox {
        data,
        width,
        height,
        scale,
    })
}

/// The red, green and blue planes of planar `data` whose first two planes are `plane` values
/// long (the blue one is the rest).
fn planes_of(data: &mut [f32], plane: usize) -> [&mut [f32]; 3] {
    let (red, rest) = data.split_at_mut(plane);
    let (green, blue) = rest.split_at_mut(plane);
    [red, green, blue]
}

/// A level of the area pyramid: the image averaged over 2^level × 2^level blocks, kept only
/// over the window the crops sample (a 12 MP photo's tiles cover a small part of it, and
/// building a whole level costs a pass over every pixel of the photo). Level 0 is the image
/// itself, read from its bytes where they lie ([`Level::of_image`]): copying them as floats
/// first only moved them.
struct Level<P> {
    /// The whole level's size.
    width: usize,
    height: usize,
    /// The window held: its top-left corner and size, in level pixels.
    x0: usize,
    y0: usize,
    win_w: usize,
    win_h: usize,
    /// The window's pixels, RGB interleaved, row after row.
    pixels: P,
}

/// How a level's pixels are held: the image's bytes, or block means as floats.
trait Texels {
    /// The channel values of the pixel at `at` (interleaved RGB).
    fn pixel(&self, at: usize) -> [f32; 3];
}

impl Texels for [u8] {
    fn pixel(&self, at: usize) -> [f32; 3] {
        let p = &self[at..at + 3];
        [f32::from(p[0]), f32::from(p[1]), f32::from(p[2])]
    }
}

impl Texels for [f32] {
    fn pixel(&self, at: usize) -> [f32; 3] {
        let p = &self[at..at + 3];
        [p[0], p[1], p[2]]
    }
}

/// A window of a level, in level pixels: columns `x0..x1` and rows `y0..y1`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Window {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Window {
    /// The smallest window holding both.
    fn union(self, other: Window) -> Window {
        Window {
            x0: self.x0.min(other.x0),
            y0: self.y0.min(other.y0),
            x1: self.x1.max(other.x1),
            y1: self.y1.max(other.y1),
        }
    }
}

impl<'a> Level<&'a [u8]> {
    /// Level 0: the whole image, its bytes read in place.
    fn of_image(image: &'a Rgb) -> Level<&'a [u8]> {
        let (width, height) = (image.width as usize, image.height as usize);
        Level {
            width,
            height,
            x0: 0,
            y0: 0,
            win_w: width,
            win_h: height,
            pixels: &image.pixels,
        }
    }
}

impl Level<Vec<f32>> {
    fn size(image: &Rgb, level: u32) -> (usize, usize) {
        (
            (image.width as usize >> level).max(1),
            (image.height as usize >> level).max(1),
        )
    }

    /// The whole level.
    #[cfg(test)]
    fn build(image: &Rgb, level: u32) -> Level<Vec<f32>> {
        let (width, height) = Level::size(image, level);
        Level::build_window(
            image,
            level,
            Window {
                x0: 0,
                y0: 0,
                x1: width,
                y1: height,
            },
        )
    }

    /// The level over `window` (clipped to the level).
    fn build_window(image: &Rgb, level: u32, window: Window) -> Level<Vec<f32>> {
        let k = 1usize << level;
        let (width, height) = Level::size(image, level);
        let (x0, y0) = (window.x0.min(width - 1), window.y0.min(height - 1));
        let (x1, y1) = (
            window.x1.clamp(x0 + 1, width),
            window.y1.clamp(y0 + 1, height),
        );
        let (win_w, win_h) = (x1 - x0, y1 - y0);
        let src_w = image.width as usize;
        // Block sums, accumulated a source row at a time over contiguous slices. A block is
        // clipped to the image, which only happens when the image is narrower or shorter than
        // one block (its level is then 1 pixel wide or high).
        let src_h = image.height as usize;
        let block_w = k.min(src_w);
        let block_h = k.min(src_h);
        let norm = 1.0 / (block_w * block_h) as f32;
        let mut pixels = vec![0f32; win_w * win_h * 3];
        let mut sums = vec![0u32; win_w * 3];
        for (y, out) in (y0..y1).zip(pixels.chunks_exact_mut(win_w * 3)) {
            sums.fill(0);
            for yy in y * k..(y * k + block_h).min(src_h) {
                let row = &image.pixels[yy * src_w * 3..(yy + 1) * src_w * 3];
                for (x, sum) in (x0..x1).zip(sums.chunks_exact_mut(3)) {
                    let start = x * k * 3;
                    let end = (start + block_w * 3).min(row.len());
                    for px in row[start..end].chunks_exact(3) {
                        sum[0] += u32::from(px[0]);
                        sum[1] += u32::from(px[1]);
                        sum[2] += u32::from(px[2]);
                    }
                }
            }
            for (o, &s) in out.iter_mut().zip(&sums) {
                *o = s as f32 * norm;
            }
        }
        Level {
            width,
            height,
            x0,
            y0,
            win_w,
            win_h,
            pixels,
        }
    }
}

impl<P: std::ops::Deref> Level<P>
where
    P::Target: Texels,
{
    /// Bilinear sample with edge replication (at the level's edges; the window must hold
    /// every pixel sampled).
    fn sample(&self, x: f32, y: f32, out: &mut [f32; 3]) {
        let max_x = (self.width - 1) as f32;
        let max_y = (self.height - 1) as f32;
        let (x, y) = (x.clamp(0.0, max_x), y.clamp(0.0, max_y));
        // Non-negative once clamped: truncation is the floor, without a call into libm.
        let (x0, y0) = (x as usize, y as usize);
        let (x1, y1) = ((x0 + 1).min(self.width - 1), (y0 + 1).min(self.height - 1));
        let (fx, fy) = (x - x0 as f32, y - y0 as f32);
        // Clamped into the window too, so a sample just outside it (float rounding) reads its
        // edge instead of panicking.
        let wx = |xx: usize| xx.saturating_sub(self.x0).min(self.win_w - 1);
        let wy = |yy: usize| yy.saturating_sub(self.y0).min(self.win_h - 1);
        // The four neighbours' pixels, each looked up once for the three channels.
        let pixel = |xx: usize, yy: usize| self.pixels.pixel((wy(yy) * self.win_w + wx(xx)) * 3);
        let top = [pixel(x0, y0), pixel(x1, y0)];
        let bottom = [pixel(x0, y1), pixel(x1, y1)];
        blend(top, bottom, fx, fy, out);
    }
}

/// Bilinear interpolation of a pixel's `top` left and right neighbours and its `bottom` ones,
/// `fx` across and `fy` down.
#[inline(always)]
fn blend(top: [[f32; 3]; 2], bottom: [[f32; 3]; 2], fx: f32, fy: f32, out: &mut [f32; 3]) {
    for (c, o) in out.iter_mut().enumerate() {
        let upper = top[0][c] * (1.0 - fx) + top[1][c] * fx;
        let lower = bottom[0][c] * (1.0 - fx) + bottom[1][c] * fx;
        *o = upper * (1.0 - fy) + lower * fy;
    }
}

/// `angle` moved by a whole turn, if need be, into −π..=π.
fn within_a_turn(angle: f32) -> f32 {
    use std::f32::consts::{PI, TAU};
    if angle > PI {
        angle - TAU
    } else if angle < -PI {
        angle + TAU
    } else {
        angle
    }
}

/// A rotated tile rectangle in original-image pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RotatedBox {
    pub cx: f32,
    pub cy: f32,
    /// Extent across the tile.
    pub w: f32,
    /// Extent along the tile's up axis.
    pub h: f32,
    /// Angle of the up axis (radians, image coordinates, y down; −π/2 is upright).
    pub phi: f32,
}

impl RotatedBox {
    /// The four corners.
    pub fn corners(&self) -> [(f32, f32); 4] {
        let (ux, uy) = (self.phi.cos(), self.phi.sin());
        let (vx, vy) = (-uy, ux);
        let (hw, hh) = (self.w / 2.0, self.h / 2.0);
        [(-1.0, 1.0), (1.0, 1.0), (1.0, -1.0), (-1.0, -1.0)].map(|(sx, sy)| {
            (
                self.cx + sx * vx * hw + sy * ux * hh,
                self.cy + sx * vy * hw + sy * uy * hh,
            )
        })
    }

    /// Whether the point `(x, y)` lies in the box.
    pub fn contains(&self, x: f32, y: f32) -> bool {
        let (ux, uy) = (self.phi.cos(), self.phi.sin());
        let (dx, dy) = (x - self.cx, y - self.cy);
        (dx * ux + dy * uy).abs() <= self.h / 2.0 && (dy * ux - dx * uy).abs() <= self.w / 2.0
    }

    /// The same box moved `by` pixels along the unit direction `dir`.
    pub fn moved_along(&self, dir: (f32, f32), by: f32) -> RotatedBox {
        RotatedBox {
            cx: self.cx + dir.0 * by,
            cy: self.cy + dir.1 * by,
            ..*self
        }
    }

    /// The box in an image `k` times as large (pixel centres map as `(x + ½)·k − ½`).
    pub fn scaled(&self, k: f32) -> RotatedBox {
        // (x + ½)·1 − ½ is not always x in floats.
        if k == 1.0 {
            return *self;
        }
        RotatedBox {
            cx: (self.cx + 0.5) * k - 0.5,
            cy: (self.cy + 0.5) * k - 0.5,
            w: self.w * k,
            h: self.h * k,
            phi: self.phi,
        }
    }

    /// The same rectangle in its image turned half a turn (see [`Rgb::half_turned`]), the
    /// image spanning `width` by `height` of these pixels: its centre mirrored through the
    /// image's, its up axis pointing the other way. Turning twice gives the box back.
    pub fn half_turned(&self, width: f32, height: f32) -> RotatedBox {
        RotatedBox {
            cx: width - 1.0 - self.cx,
            cy: height - 1.0 - self.cy,
            phi: within_a_turn(self.phi + std::f32::consts::PI),
            ..*self
        }
    }

    /// The same rectangle in its image turned a quarter clockwise (see
    /// [`Rgb::turned_clockwise`]), the image `height` of these pixels high: its up axis turned
    /// with it.
    pub fn turned_clockwise(&self, height: f32) -> RotatedBox {
        RotatedBox {
            cx: height - 1.0 - self.cy,
            cy: self.cx,
            phi: within_a_turn(self.phi + std::f32::consts::FRAC_PI_2),
            ..*self
        }
    }

    /// The same rectangle in its image turned a quarter anticlockwise (see
    /// [`Rgb::turned_anticlockwise`]), the image `width` of these pixels wide. Undoes
    /// [`RotatedBox::turned_clockwise`].
    pub fn turned_anticlockwise(&self, width: f32) -> RotatedBox {
        RotatedBox {
            cx: self.cy,
            cy: width - 1.0 - self.cx,
            phi: within_a_turn(self.phi - std::f32::consts::FRAC_PI_2),
            ..*self
        }
    }

    /// The same rectangle with its up axis turned a quarter: what the box is if the detector
    /// took the tile's side for its top.
    pub fn quarter_turned(&self) -> RotatedBox {
        RotatedBox {
            w: self.h,
            h: self.w,
            phi: self.phi + std::f32::consts::FRAC_PI_2,
            ..*self
        }
    }

    /// The axis-aligned bounds `[x1, y1, x2, y2]`.
    pub fn bounds(&self) -> [f32; 4] {
        let c = self.corners();
        let xs = c.map(|p| p.0);
        let ys = c.map(|p| p.1);
        let min = |v: [f32; 4]| v.iter().copied().fold(f32::INFINITY, f32::min);
        let max = |v: [f32; 4]| v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        [min(xs), min(ys), max(xs), max(ys)]
    }
}

/// Crop size fed to the classifier.
pub const CROP_W: usize = 48;
pub const CROP_H: usize = 64;
/// Values in one crop of [`crops`]' batch: three planes of `CROP_H × CROP_W`.
pub const CROP_LEN: usize = 3 * CROP_H * CROP_W;
/// The crop covers the box enlarged by this factor.
pub const CROP_MARGIN: f32 = 1.1;

/// Where a box's crop samples: its pyramid level, and the crop's top-left corner and the steps
/// of one crop pixel across and down, in level pixels.
struct CropGeometry {
    level: u32,
    tl: (f32, f32),
    step_x: (f32, f32),
    step_y: (f32, f32),
}

impl CropGeometry {
    fn of(b: &RotatedBox) -> CropGeometry {
        let level = (b.w.max(1e-3) / CROP_W as f32).log2().floor().max(0.0) as u32;
        let level = level.min(8);
        let k = (1u32 << level) as f32;
        let (cx, cy) = ((b.cx + 0.5) / k - 0.5, (b.cy + 0.5) / k - 0.5);
        let (w, h) = (b.w / k * CROP_MARGIN, b.h / k * CROP_MARGIN);
        let (ux, uy) = (b.phi.cos(), b.phi.sin());
        let (vx, vy) = (-uy, ux);
        CropGeometry {
            level,
            tl: (
                cx + ux * h / 2.0 - vx * w / 2.0,
                cy + uy * h / 2.0 - vy * w / 2.0,
            ),
            step_x: (vx * w / CROP_W as f32, vy * w / CROP_W as f32),
            step_y: (-ux * h / CROP_H as f32, -uy * h / CROP_H as f32),
        }
    }

    fn at(&self, i: usize, j: usize) -> (f32, f32) {
        (
            self.tl.0 + self.step_x.0 * i as f32 + self.step_y.0 * j as f32,
            self.tl.1 + self.step_x.1 * i as f32 + self.step_y.1 * j as f32,
        )
    }

    /// The sample points of the crop's corner pixels.
    fn corners(&self) -> [(f32, f32); 4] {
        [
            self.at(0, 0),
            self.at(CROP_W - 1, 0),
            self.at(0, CROP_H - 1),
            self.at(CROP_W - 1, CROP_H - 1),
        ]
    }

    /// The level pixels the crop reads (the bilinear neighbours of its sample points, with
    /// a pixel to spare for rounding).
    fn window(&self) -> Window {
        let corners = self.corners();
        let lo = |v: f32| (v.floor() - 1.0).max(0.0) as usize;
        let hi = |v: f32| (v.ceil() + 2.0).max(0.0) as usize;
        let (xs, ys) = (corners.map(|c| c.0), corners.map(|c| c.1));
        let min = |v: [f32; 4]| v.iter().copied().fold(f32::INFINITY, f32::min);
        let max = |v: [f32; 4]| v.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        Window {
            x0: lo(min(xs)),
            y0: lo(min(ys)),
            x1: hi(max(xs)),
            y1: hi(max(ys)),
        }
    }
}

/// Samples each box upright into a `[n, 3, 64, 48]` float batch (values 0–1).
pub fn crops(image: &Rgb, boxes: &[RotatedBox]) -> Vec<f32> {
    crops_on(image, boxes, false)
}

/// [`crops`], the crops sampled on rayon's threads when `parallel`: each crop is cut on its
/// own from the same levels, so the values are the same either way.
pub fn crops_on(image: &Rgb, boxes: &[RotatedBox], parallel: bool) -> Vec<f32> {
    let geometry: Vec<CropGeometry> = boxes.iter().map(CropGeometry::of).collect();
    // Level 0 is read from the image's bytes; above it, one window per level: the union of
    // what its crops read.
    let mut windows: Vec<Option<Window>> = vec![None; 9];
    for g in geometry.iter().filter(|g| g.level > 0) {
        let slot = &mut windows[g.level as usize];
        let w = g.window();
        *slot = Some(slot.map_or(w, |u| u.union(w)));
    }
    let image_level = Level::of_image(image);
    let levels: Vec<Option<Level<Vec<f32>>>> = windows
        .iter()
        .enumerate()
        .map(|(level, w)| w.map(|w| Level::build_window(image, level as u32, w)))
        .collect();
    let mut out = vec![0f32; boxes.len() * CROP_LEN];
    let cut = |(g, crop): (&CropGeometry, &mut [f32])| {
        if g.level == 0 {
            g.sample_into(&image_level, crop);
        } else if let Some(pyramid) = &levels[g.level as usize] {
            g.sample_into(pyramid, crop);
        }
    };
    if parallel {
        use rayon::prelude::*;
        geometry
            .par_iter()
            .zip(out.par_chunks_exact_mut(CROP_LEN))
            .for_each(cut);
    } else {
        geometry
            .iter()
            .zip(out.chunks_exact_mut(CROP_LEN))
            .for_each(cut);
    }
    out
}

/// How light a crop's face is, 0–255: the 75th percentile, inside an 8-pixel (6 across)
/// margin, of each pixel's brightest channel. The brightest channel rather than luminance so
/// that red and green ink count as face (a red five is mostly ink); the percentile looks past
/// the glyph, which covers well under a quarter of a face.
pub fn face_value(crop: &[f32]) -> f32 {
    // Crop values are whole levels over 255, so histograms give the order statistics without
    // sorting (this runs for every tile of every frame).
    let mut counts = [0usize; 256];
    let mut n = 0;
    for px in inner_levels(crop) {
        counts[usize::from(brightest(px))] += 1;
        n += 1;
    }
    counted_quantile(&counts, n, 0.75)
}

/// The colour of a crop's face, 0–255 per channel: the median colour of the pixels inside the
/// margin [`face_value`] uses whose brightest channel is at or over `value`, the crop's
/// [`face_value`] (the face around the glyph, whatever the glyph's ink). The caller passes
/// the value it already measured, so the crop is not ranked twice.
pub fn face_colour(crop: &[f32], value: f32) -> [f32; 3] {
    let mut counts = [[0usize; 256]; 3];
    let mut n = 0;
    for px in inner_levels(crop).filter(|&px| f32::from(brightest(px)) >= value) {
        for (c, &level) in px.iter().enumerate() {
            counts[c][usize::from(level)] += 1;
        }
        n += 1;
    }
    std::array::from_fn(|c| counted_quantile(&counts[c], n, 0.5))
}

/// Each pixel of a crop inside an 8-pixel (6 across) margin, as whole levels.
fn inner_levels(crop: &[f32]) -> impl Iterator<Item = [u8; 3]> + '_ {
    const MARGIN_Y: usize = 8;
    const MARGIN_X: usize = 6;
    let plane = CROP_H * CROP_W;
    // `as` saturates: a value outside 0–1 lands on 0 or 255.
    let level = move |at: usize| (255.0 * crop[at] + 0.5) as u8;
    (MARGIN_Y..CROP_H - MARGIN_Y)
        .flat_map(|j| (MARGIN_X..CROP_W - MARGIN_X).map(move |i| j * CROP_W + i))
        .map(move |at| [level(at), level(plane + at), level(2 * plane + at)])
}

fn brightest(px: [u8; 3]) -> u8 {
    px[0].max(px[1]).max(px[2])
}

/// The `q` quantile of the `n` levels counted in `counts`, interpolated between neighbours as
/// numpy's default does; 0 for none.
fn counted_quantile(counts: &[usize; 256], n: usize, q: f32) -> f32 {
    if n == 0 {
        return 0.0;
    }
    let at = q * (n - 1) as f32;
    let below = at.floor() as usize;
    // The level of the `rank`-th smallest value (0-based).
    let level = |rank: usize| -> f32 {
        let mut seen = 0;
        for (level, &count) in counts.iter().enumerate() {
            seen += count;
            if seen > rank {
                return level as f32;
            }
        }
        255.0
    };
    let (low, high) = (level(below), level((below + 1).min(n - 1)));
    low + (at - below as f32) * (high - low)
}

/// Per-channel gains that bring a photo's tile faces, of colour `face` (see [`face_colour`]),
/// into the light the models were trained on: a face whose brightest channel is under
/// `dim_below` is brightened until it is `light_floor`, then a channel under `tint_floor` times
/// the brightest is raised to that share. `None` when the face is in that light already.
pub fn light_gains(
    face: [f32; 3],
    dim_below: f32,
    light_floor: f32,
    tint_floor: f32,
) -> Option<[f32; 3]> {
    let face = face.map(|v| v.max(1.0));
    let brightest = brightest_channel(face);
    let dim = brightest < dim_below;
    if !dim && !tinted(face, tint_floor) {
        return None;
    }
    let lift = if dim {
        (light_floor / brightest).max(1.0)
    } else {
        1.0
    };
    Some(std::array::from_fn(|c| {
        let target = (face[c] * lift).max(tint_floor * brightest * lift);
        (target / face[c]).clamp(0.5, 4.0)
    }))
}

/// The brightest channel of colour `face`.
pub fn brightest_channel(face: [f32; 3]) -> f32 {
    face[0].max(face[1]).max(face[2])
}

/// The dimmest channel of colour `face`.
pub fn dimmest_channel(face: [f32; 3]) -> f32 {
    face[0].min(face[1]).min(face[2])
}

/// Whether faces of colour `face` are more tinted than `tint_floor` allows: their dimmest
/// channel under that share of their brightest (channels under 1 count as 1).
pub fn tinted(face: [f32; 3], tint_floor: f32) -> bool {
    let face = face.map(|v| v.max(1.0));
    let brightest = brightest_channel(face);
    dimmest_channel(face) < tint_floor * brightest
}

/// How far the tint of colour `a` is from `b`'s: each scaled to its brightest channel, the
/// largest difference of a channel (0 for the same tint at any brightness).
pub fn tint_difference(a: [f32; 3], b: [f32; 3]) -> f32 {
    let scaled = |c: [f32; 3]| {
        let c = c.map(|v| v.max(1.0));
        let brightest = c[0].max(c[1]).max(c[2]);
        c.map(|v| v / brightest)
    };
    let (a, b) = (scaled(a), scaled(b));
    (0..3).map(|c| (a[c] - b[c]).abs()).fold(0.0, f32::max)
}

/// The `q` quantile of `values` (reordered), interpolated between neighbours as numpy's
/// default does; 0 for none.
pub fn percentile(values: &mut [f32], q: f32) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_unstable_by(f32::total_cmp);
    let at = q.clamp(0.0, 1.0) * (values.len() - 1) as f32;
    let below = at.floor() as usize;
    let above = (below + 1).min(values.len() - 1);
    values[below] + (at - below as f32) * (values[above] - values[below])
}

/// `value` rounded half away from zero to a whole level in 0–255, as `value.round().clamp(0.0,
/// 255.0)` is, without the call into libm that `round` (and `floor`) make on the baseline
/// x86-64 target: this runs for every channel of every crop pixel (a fifth of a frame's
/// sampling time went to `roundf`). Clamped first, the value is non-negative and under 2^23, so
/// truncation is its floor and the fraction left is exact.
fn whole_level(value: f32) -> usize {
    let v = value.clamp(0.0, 255.0);
    let floor = v as usize;
    if v - floor as f32 >= 0.5 {
        floor + 1
    } else {
        floor
    }
}

/// Each whole level's crop value, `level / 255`: looked up rather than divided for every
/// channel of every crop pixel (a division is slow, and this is the sampler's inner loop).
/// Evaluated at compile time with the same IEEE division, so the values are those the division gives.
const CROP_VALUES: [f32; 256] = {
    let mut values = [0f32; 256];
    let mut level = 0;
    while level < 256 {
        values[level] = level as f32 / 255.0;
        level += 1;
    }
    values
};

impl CropGeometry {
    /// Samples the crop from its pyramid level into `crop` (planar RGB, values 0–1).
    fn sample_into<P: std::ops::Deref>(&self, pyramid: &Level<P>, crop: &mut [f32])
    where
        P::Target: Texels,
    {
        if self.inside(pyramid) {
            self.sample_inside(pyramid, crop);
        } else {
            self.sample_with(crop, |x, y, px| pyramid.sample(x, y, px));
        }
    }

    /// Whether every sample point lies at least a pixel inside both `pyramid`'s window and
    /// its level, so that [`CropGeometry::sample_inside`] reads what [`Level::sample`] would. The
    /// points are an affine map of the crop grid, so its corners bound them; the pixel to
    /// spare covers the rounding of the points between.
    fn inside<P>(&self, pyramid: &Level<P>) -> bool {
        // The right and bottom neighbours are read too, so the last column and row usable
        // as a point's floor is one short of the last held.
        let last_x = (pyramid.width - 1).min(pyramid.x0 + pyramid.win_w - 1) as f32;
        let last_y = (pyramid.height - 1).min(pyramid.y0 + pyramid.win_h - 1) as f32;
        self.corners().iter().all(|&(x, y)| {
            x.is_finite()
                && y.is_finite()
                && x >= pyramid.x0 as f32 + 1.0
                && y >= pyramid.y0 as f32 + 1.0
                && x <= last_x - 1.0
                && y <= last_y - 1.0
        })
    }

    /// [`CropGeometry::sample_with`] [`Level::sample`] where no clamping can happen (see
    /// [`CropGeometry::inside`]): the same arithmetic, a crop row at a time in passes over
    /// arrays (sample points, neighbours, then blend and rounding, which the compiler turns
    /// into vector instructions, as it could not a pixel at a time). Cutting crops was a
    /// quarter of a 720p frame's reading time; this cuts a crop in about 0.6 of the time the
    /// pixel-at-a-time sampler took (medians of interleaved runs). Each value is computed by
    /// the same operations in the same order, so the crops are bit for bit the clamped path's.
    fn sample_inside<P: std::ops::Deref>(&self, pyramid: &Level<P>, crop: &mut [f32])
    where
        P::Target: Texels,
    {
        let mut planes = planes_of(crop, CROP_H * CROP_W);
        let (mut fx, mut fy) = ([0f32; CROP_W], [0f32; CROP_W]);
        let mut at = [0usize; CROP_W];
        // The four neighbours' channels: top left, top right, bottom left, bottom right.
        let mut near = [[[0f32; CROP_W]; 3]; 4];
        let stride = pyramid.win_w * 3;
        for j in 0..CROP_H {
            for i in 0..CROP_W {
                let (x, y) = self.at(i, j);
                // Inside, `x` and `y` are at least 1: truncation is their floor.
                let (x0, y0) = (x as usize, y as usize);
                (fx[i], fy[i]) = (x - x0 as f32, y - y0 as f32);
                at[i] = ((y0 - pyramid.y0) * pyramid.win_w + (x0 - pyramid.x0)) * 3;
            }
            for i in 0..CROP_W {
                let corners = [at[i], at[i] + 3, at[i] + stride, at[i] + stride + 3];
                for (n, &corner) in near.iter_mut().zip(&corners) {
                    let px = pyramid.pixels.pixel(corner);
                    for c in 0..3 {
                        n[c][i] = px[c];
                    }
                }
            }
            let row = j * CROP_W..(j + 1) * CROP_W;
            for (c, plane) in planes.iter_mut().enumerate() {
                let out = &mut plane[row.clone()];
                for i in 0..CROP_W {
                    let upper = near[0][c][i] * (1.0 - fx[i]) + near[1][c][i] * fx[i];
                    let lower = near[2][c][i] * (1.0 - fx[i]) + near[3][c][i] * fx[i];
                    let v = (upper * (1.0 - fy[i]) + lower * fy[i]).clamp(0.0, 255.0);
                    // `whole_level` with `CROP_VALUES`' division, in vector form: calling
                    // it and looking the value up kept this loop scalar (53 against 32 ns a
                    // sample, interleaved medians, 2026-11-29).
                    let floor = v as i32;
                    let level = floor + i32::from(v - floor as f32 >= 0.5);
                    out[i] = level as f32 / 255.0;
                }
            }
        }
    }

    #[inline(always)]
    fn sample_with(&self, crop: &mut [f32], sample: impl Fn(f32, f32, &mut [f32; 3])) {
        let [red, green, blue] = planes_of(crop, CROP_H * CROP_W);
        let mut px = [0f32; 3];
        for j in 0..CROP_H {
            for i in 0..CROP_W {
                let (x, y) = self.at(i, j);
                sample(x, y, &mut px);
                let at = j * CROP_W + i;
                red[at] = CROP_VALUES[whole_level(px[0])];
                green[at] = CROP_VALUES[whole_level(px[1])];
                blue[at] = CROP_VALUES[whole_level(px[2])];
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A crop filled with `face` (0–255), with a glyph of `ink` over the middle sixth of its
    /// rows.
    fn face_crop(face: [f32; 3], ink: [f32; 3]) -> Vec<f32> {
        let plane = CROP_H * CROP_W;
        let mut c = vec![0f32; 3 * plane];
        for k in 0..plane {
            let glyph = (k / CROP_W) * 6 / CROP_H == 3;
            for ch in 0..3 {
                c[ch * plane + k] = if glyph { ink[ch] } else { face[ch] } / 255.0;
            }
        }
        c
    }

    #[test]
    fn a_box_contains_the_points_inside_its_turned_sides() {
        // 20 across, 40 along an up axis turned a quarter from upright: 40 wide on the image.
        let b = RotatedBox {
            cx: 100.0,
            cy: 50.0,
            w: 20.0,
            h: 40.0,
            phi: 0.0,
        };
        assert!(b.contains(100.0, 50.0));
        assert!(b.contains(119.0, 59.0));
        assert!(!b.contains(100.0, 61.0));
        assert!(!b.contains(121.0, 50.0));
        // The same rectangle, its sides taken the other way round.
        assert!(b.quarter_turned().contains(119.0, 59.0));
        let upright = RotatedBox {
            phi: -std::f32::consts::FRAC_PI_2,
            ..b
        };
        assert!(upright.contains(109.0, 69.0));
        assert!(!upright.contains(119.0, 50.0));
    }

    #[test]
    fn a_face_colour_looks_past_the_glyph() {
        let crop = face_crop([240.0, 230.0, 200.0], [0.0, 0.0, 0.0]);
        let colour = face_colour(&crop, face_value(&crop));
        for (got, want) in colour.iter().zip([240.0, 230.0, 200.0]) {
            assert!((got - want).abs() < 0.01, "{colour:?}");
        }
    }

    #[test]
    fn faces_in_trained_light_are_left_alone() {
        assert_eq!(light_gains([240.0, 236.0, 224.0], 110.0, 150.0, 0.8), None);
        assert_eq!(light_gains([240.0, 236.0, 224.0], 0.0, 0.0, 0.0), None);
        // Dim but untinted, with the brightness lift off.
        assert_eq!(light_gains([90.0, 88.0, 84.0], 0.0, 150.0, 0.8), None);
        // Darker than the floor but not than the trigger: the models read such faces.
        assert_eq!(light_gains([130.0, 128.0, 124.0], 110.0, 150.0, 0.8), None);
    }

    #[test]
    fn a_tinted_face_has_its_dim_channel_raised() {
        // Warm light: blue at 0.6 of red.
        assert!(tinted([250.0, 210.0, 150.0], 0.8));
        assert!(!tinted([240.0, 236.0, 224.0], 0.8));
        let gains = light_gains([250.0, 210.0, 150.0], 110.0, 150.0, 0.8).expect("lifted");
        assert_eq!(gains[0], 1.0);
        assert!((150.0 * gains[2] - 200.0).abs() < 0.01, "{gains:?}");
        assert_eq!(gains[1], 1.0);
    }

    #[test]
    fn tint_difference_ignores_brightness_and_sees_a_pale_back() {
        let ivory = [240.0, 232.0, 212.0];
        assert!(tint_difference(ivory, ivory.map(|v| 0.6 * v)) < 1e-6);
        // A pale blue back beside ivory faces: blue at 1.0 of the brightest against 0.883.
        let pale_blue = [220.0, 237.0, 243.0];
        let d = tint_difference(pale_blue, ivory);
        assert!((d - 0.117).abs() < 0.001, "{d}");
        assert_eq!(d, tint_difference(ivory, pale_blue));
        // A black channel counts as 1, not as a division by zero.
        assert!(tint_difference([0.0, 0.0, 0.0], ivory).is_finite());
    }

    #[test]
    fn a_dark_face_is_brightened_to_the_floor() {
        let gains = light_gains([75.0, 75.0, 70.0], 110.0, 150.0, 0.8).expect("lifted");
        assert!((gains[0] - 2.0).abs() < 1e-6, "{gains:?}");
        assert!((gains[2] - 2.0).abs() < 1e-6, "{gains:?}");
        // A black face is not lifted past four times.
        assert_eq!(
            light_gains([0.0, 0.0, 0.0], 110.0, 150.0, 0.8),
            Some([4.0; 3])
        );
    }

    #[test]
    fn gains_saturate_at_white() {
        let image = Rgb::new(1, 2, vec![200, 100, 10, 255, 0, 128]).expect("image");
        let lifted = image.with_gains([1.5, 1.0, 2.0]);
        assert_eq!(lifted.pixels, vec![255, 100, 20, 255, 0, 255]);
        assert_eq!((lifted.width, lifted.height), (1, 2));
    }

    #[test]
    fn gamma_darkens_the_mid_tones_and_keeps_white() {
        let image = Rgb::new(2, 1, vec![255, 0, 128, 200, 250, 64]).expect("image");
        let darker = image.with_gamma(2.0);
        // 255 (128/255)^2 = 64.25, (200/255)^2 = 156.86, (250/255)^2 = 245.1, (64/255)^2 = 16.06.
        assert_eq!(darker.pixels, vec![255, 0, 64, 157, 245, 16]);
        assert_eq!((darker.width, darker.height), (2, 1));
    }

    /// 100 × 100 pixels: 1 % of them `ink`, the rest `face`.
    fn inked(ink: [u8; 3], face: [u8; 3]) -> Vec<u8> {
        (0..10_000)
            .flat_map(|k| if k % 100 == 0 { ink } else { face })
            .collect()
    }

    /// A photo under a veil: 1 % ink at (10, 20, 30), the rest faces at (230, 220, 200), both
    /// seen through 0.4 of a grey of 200, as `photo-conditions.sh`'s "veil" shoots them.
    fn veiled() -> Rgb {
        let veil = |v: u8| (0.6 * v as f32 + 0.4 * 200.0) as u8;
        let pixels = inked([10, 20, 30], [230, 220, 200]);
        Rgb::new(100, 100, pixels.into_iter().map(veil).collect()).expect("image")
    }

    #[test]
    fn a_veil_is_measured_at_the_ink_and_taken_off() {
        let image = veiled();
        // 0.6 × ink + 80: the ink is darker than the 0.5 % quantile's share, faces are not.
        assert_eq!(image.black_levels(), [86.0, 92.0, 98.0]);
        let clear = image.with_black(image.black_levels(), 0.0);
        assert_eq!(&clear.pixels[..3], &[0, 0, 0]);
        // The faces (218, 212, 200 under the veil) keep their order and get their contrast
        // back: 255 × (218 − 86) / (255 − 86) = 199.
        assert_eq!(&clear.pixels[3..6], &[199, 187, 165]);
        // Down to a floor of 32: 32 + 223 × (218 − 86) / (255 − 86) = 206.
        let to_32 = image.with_black(image.black_levels(), 32.0);
        assert_eq!(&to_32.pixels[..6], &[32, 32, 32, 206, 196, 176]);
        // A clear photo's ink is its black: nothing to take off.
        let pixels = inked([0, 0, 0], [230, 220, 200]);
        let sharp = Rgb::new(100, 100, pixels).expect("image");
        assert_eq!(sharp.black_levels(), [0.0; 3]);
        assert_eq!(sharp.with_black([0.0; 3], 0.0).pixels, sharp.pixels);
    }

    /// A grey photo of `w` × `h` pixels at level 100 plus noise of standard deviation about
    /// `sigma`: a sum of 12 uniform draws of an xorshift generator (seeded, so the same every
    /// run), centred.
    fn noisy_grey(w: u32, h: u32, sigma: f32) -> Rgb {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let mut uniform = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 40) as f32 / (1u64 << 24) as f32
        };
        let pixels = (0..w * h)
            .flat_map(|_| {
                let normal = (0..12).map(|_| uniform()).sum::<f32>() - 6.0;
                [(100.0 + sigma * normal).round().clamp(0.0, 255.0) as u8; 3]
            })
            .collect();
        Rgb::new(w, h, pixels).expect("image")
    }

    #[test]
    fn noise_is_measured_and_smoothed_away() {
        // A flat photo, and smooth shading across it, have no noise.
        assert_eq!(noisy_grey(64, 48, 0.0).noise_level(), 0.0);
        let shaded: Vec<u8> = (0..64 * 48).flat_map(|k| [(k % 64) as u8 * 3; 3]).collect();
        assert_eq!(Rgb::new(64, 48, shaded).expect("image").noise_level(), 0.0);
        // Noise of 8 levels (grey, the same in every channel) measures about 8.
        let noisy = noisy_grey(320, 240, 8.0);
        let level = noisy.noise_level();
        assert!((7.0..9.0).contains(&level), "noise level {level}");
        // Smoothed by [1 2 1] / 4 both ways, white noise keeps (6/16)² of its variance, 0.375
        // of its deviation; the mean level stays.
        let smoothed = noisy.smoothed();
        let after = smoothed.noise_level();
        assert!(
            after < 0.5 * level,
            "smoothed noise level {after} of {level}"
        );
        let mean =
            |im: &Rgb| im.pixels.iter().map(|&v| v as f64).sum::<f64>() / im.pixels.len() as f64;
        assert!((mean(&smoothed) - mean(&noisy)).abs() < 0.5);
        // One bright pixel spreads as the kernel says, its edge neighbour repeated.
        let mut dot = vec![0u8; 3 * 5 * 5];
        dot[3 * (2 * 5 + 2)..3 * (2 * 5 + 2) + 3].copy_from_slice(&[160; 3]);
        let spread = Rgb::new(5, 5, dot).expect("image").smoothed();
        let at = |x: usize, y: usize| spread.pixels[3 * (y * 5 + x)];
        assert_eq!(
            [at(1, 1), at(2, 1), at(2, 2), at(3, 2), at(0, 0)],
            [10, 20, 40, 20, 0]
        );
    }

    #[test]
    fn black_levels_sample_a_grid_of_a_large_photo() {
        // 2,000 × 1,000 pixels in a black and white checkerboard: sampled at every second
        // pixel, half the samples are black (the rows alternate), and so is the black level.
        let pixels = (0..2_000_000u32)
            .flat_map(|k| {
                if (k / 2_000 + k) % 2 == 0 {
                    [0u8; 3]
                } else {
                    [255u8; 3]
                }
            })
            .collect();
        let image = Rgb::new(2_000, 1_000, pixels).expect("image");
        assert_eq!(image.black_levels(), [0.0; 3]);
    }

    #[test]
    fn percentiles_interpolate_as_numpy_does() {
        assert_eq!(percentile(&mut [4.0, 1.0, 3.0, 2.0], 0.75), 3.25);
        assert_eq!(percentile(&mut [4.0, 1.0, 3.0, 2.0], 0.5), 2.5);
        assert_eq!(percentile(&mut [7.0], 0.75), 7.0);
        assert_eq!(percentile(&mut [], 0.5), 0.0);
    }

    #[test]
    fn a_face_value_sees_the_face_past_its_glyph() {
        let plane = CROP_H * CROP_W;
        let ivory = face_value(&face_crop([235.0, 228.0, 205.0], [20.0, 20.0, 20.0]));
        assert!((ivory - 235.0).abs() < 0.01, "{ivory}");
        // A keycap: a light legend on a dark cap reads as the cap.
        let key = face_value(&face_crop([40.0, 40.0, 45.0], [240.0, 240.0, 240.0]));
        assert!((key - 45.0).abs() < 0.01, "{key}");
        // Red ink counts as light: it is the brightest channel that is measured.
        let red = face_value(&face_crop([200.0, 30.0, 30.0], [20.0, 20.0, 20.0]));
        assert!((red - 200.0).abs() < 0.01, "{red}");
        // Any crop: the histogram gives what sorting the inner pixels' brightest channels does.
        let mut seed = 12345u32;
        let noisy: Vec<f32> = (0..3 * plane)
            .map(|_| {
                seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
                ((seed >> 16) % 256) as f32 / 255.0
            })
            .collect();
        let mut inner: Vec<f32> = (8..CROP_H - 8)
            .flat_map(|j| (6..CROP_W - 6).map(move |i| j * CROP_W + i))
            .map(|k| 255.0 * noisy[k].max(noisy[plane + k]).max(noisy[2 * plane + k]))
            .collect();
        let sorted = percentile(&mut inner, 0.75);
        assert!((face_value(&noisy) - sorted).abs() < 0.01, "{sorted}");
    }

    fn png(width: u32, height: u32) -> Vec<u8> {
        let img = image::RgbImage::from_fn(width, height, |x, y| image::Rgb([x as u8, y as u8, 7]));
        let mut bytes = Vec::new();
        img.write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)
            .unwrap();
        bytes
    }

    /// A JPEG of `width` × `height`: red on the left half, blue on the right, a horizontal
    /// grey ramp added; with an EXIF orientation tag when `orientation` is given.
    fn jpeg(width: u32, height: u32, orientation: Option<u16>) -> Vec<u8> {
        let img = image::RgbImage::from_fn(width, height, |x, _| {
            let ramp = (x * 60 / width) as u8;
            if x < width / 2 {
                image::Rgb([190 + ramp, ramp, ramp])
            } else {
                image::Rgb([ramp, ramp, 190 + ramp])
            }
        });
        let mut bytes = Vec::new();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut bytes, 95)
            .encode(&img, width, height, image::ExtendedColorType::Rgb8)
            .unwrap();
        if let Some(o) = orientation {
            // APP1 "Exif": a little-endian TIFF header and one IFD entry, 0x0112 SHORT.
            let mut app1 = vec![0xff, 0xe1, 0, 34];
            app1.extend_from_slice(b"Exif\0\0II*\0\x08\0\0\0\x01\0\x12\x01\x03\0\x01\0\0\0");
            app1.extend_from_slice(&o.to_le_bytes());
            app1.extend_from_slice(&[0; 6]);
            bytes.splice(2..2, app1);
        }
        bytes
    }

    fn red_top_blue_bottom(rgb: &Rgb) {
        let (x, top, bottom) = (rgb.width as usize / 2, 1, rgb.height as usize - 2);
        assert!(
            rgb.at(x, top, 0) > 150 && rgb.at(x, top, 2) < 110,
            "red on top"
        );
        assert!(
            rgb.at(x, bottom, 2) > 150 && rgb.at(x, bottom, 0) < 110,
            "blue below"
        );
    }

    #[test]
    fn reduced_decodes_match_block_means() {
        let bytes = jpeg(400, 304, None);
        let full = Rgb::decode(&bytes).unwrap();
        // 400 / 4 = 100 is the last halving that stays at least 100 wide.
        let photo = Reduced::decode(&bytes, 8, 100).unwrap();
        assert_eq!(photo.reduction, 4);
        assert_eq!((photo.image.width, photo.image.height), (100, 76));
        assert_eq!((photo.full_width, photo.full_height), (400, 304));
        let means = Level::build(&full, 2);
        let mut worst = 0f32;
        for y in 0..76 {
            for x in 0..100 {
                // Away from the colour edge, where the DCT and block means filter differently.
                if (45..55).contains(&x) {
                    continue;
                }
                for c in 0..3 {
                    let mean = means.pixels[(y * 100 + x) * 3 + c];
                    worst = worst.max((f32::from(photo.image.at(x, y, c)) - mean).abs());
                }
            }
        }
        assert!(worst <= 6.0, "largest difference {worst}");
        // Capped by max_reduction; 1 (or a small photo) decodes in full.
        assert_eq!(Reduced::decode(&bytes, 2, 100).unwrap().reduction, 2);
        let whole = Reduced::decode(&bytes, 1, 100).unwrap();
        assert_eq!((whole.reduction, &whole.image), (1, &full));
        assert_eq!(Reduced::decode(&bytes, 8, 300).unwrap().reduction, 1);
    }

    #[test]
    fn reduced_decodes_take_the_full_decoders_path_and_errors() {
        let photo = Reduced::decode(&png(400, 300), 8, 50).unwrap();
        assert_eq!((photo.reduction, photo.image.width), (1, 400));
        let mut truncated = jpeg(400, 304, None);
        truncated.truncate(truncated.len() / 2);
        assert!(matches!(
            Reduced::decode(&truncated, 8, 50),
            Err(VisionError::Decode(m)) if m.contains("truncated")
        ));
        assert!(matches!(
            Reduced::decode(b"\xff\xd8 not really a JPEG", 8, 50),
            Err(VisionError::Decode(_))
        ));
        // A header announcing 20000 × 20000 pixels is refused before anything is decoded.
        let mut bomb = jpeg(400, 304, None);
        let sof = bomb.windows(2).position(|w| w == [0xff, 0xc0]).unwrap();
        bomb[sof + 5..sof + 9].copy_from_slice(&[0x4e, 0x20, 0x4e, 0x20]);
        assert!(matches!(
            Reduced::decode(&bomb, 8, 50),
            Err(VisionError::TooLarge {
                width: 20_000,
                height: 20_000
            })
        ));
    }

    #[test]
    fn exif_orientation_is_applied_by_both_decoders() {
        // 6: the stored image is to be turned 90° clockwise, its left half coming on top.
        let bytes = jpeg(64, 32, Some(6));
        let full = Rgb::decode(&bytes).unwrap();
        assert_eq!((full.width, full.height), (32, 64));
        red_top_blue_bottom(&full);
        let photo = Reduced::decode(&bytes, 8, 30).unwrap();
        assert_eq!(photo.reduction, 2);
        assert_eq!((photo.image.width, photo.image.height), (16, 32));
        assert_eq!((photo.full_width, photo.full_height), (32, 64));
        red_top_blue_bottom(&photo.image);
        // Without the tag, as stored.
        let plain = Reduced::decode(&jpeg(64, 32, None), 8, 30).unwrap();
        assert_eq!((plain.full_width, plain.full_height), (64, 32));
    }

    #[test]
    fn decodes_png_and_rejects_garbage() {
        let rgb = Rgb::decode(&png(40, 30)).unwrap();
        assert_eq!((rgb.width, rgb.height), (40, 30));
        assert_eq!(rgb.at(5, 3, 0), 5);
        assert!(matches!(
            Rgb::decode(b"not an image"),
            Err(VisionError::Decode(_))
        ));
        let mut truncated = png(40, 30);
        truncated.truncate(60);
        assert!(matches!(
            Rgb::decode(&truncated),
            Err(VisionError::Decode(_))
        ));
    }

    #[test]
    fn refuses_decompression_bombs() {
        // The header is checked before anything is decoded.
        // A valid PNG header announcing 20000 × 20000 pixels.
        let img = image::GrayImage::new(1, 1);
        let mut bytes = Vec::new();
        img.write_to(&mut Cursor::new(&mut bytes), image::ImageFormat::Png)
            .unwrap();
        // IHDR width/height live at bytes 16..24; patch them (the CRC will then be wrong,
        // which a decoder may report first — either way it must be an error, not a panic).
        bytes[16..20].copy_from_slice(&20_000u32.to_be_bytes());
        bytes[20..24].copy_from_slice(&20_000u32.to_be_bytes());
        assert!(matches!(
            Rgb::decode(&bytes),
            Err(VisionError::TooLarge {
                width: 20_000,
                height: 20_000
            })
        ));
    }

    #[test]
    fn letterbox_pads_to_multiples_of_32() {
        let rgb = Rgb::decode(&png(100, 50)).unwrap();
        let lb = letterbox(&rgb, 640).unwrap();
        assert_eq!((lb.width, lb.height), (640, 320));
        assert!((lb.scale - 6.4).abs() < 1e-6);
        let rgb = Rgb::new(3, 1, vec![200; 3 * 3]).unwrap();
        let lb = letterbox(&rgb, 640).unwrap();
        assert_eq!((lb.width, lb.height), (640, 224));
        // Padding is grey 127.
        assert!((lb.data[lb.width * lb.height - 1] - 127.0 / 255.0).abs() < 1e-6);
    }

    #[test]
    fn letterbox_planes_hold_each_pixel_channel_at_its_place() {
        // At its own size the image is copied, so each value is its byte over 255.
        let rgb = patterned(64, 40);
        let lb = letterbox(&rgb, 64).unwrap();
        assert_eq!((lb.width, lb.height, lb.scale), (64, 64, 1.0));
        let plane = lb.width * lb.height;
        for (at, px) in rgb.pixels.chunks_exact(3).enumerate() {
            let (x, y) = (at % 64, at / 64);
            for (c, &byte) in px.iter().enumerate() {
                let value = lb.data[c * plane + y * lb.width + x];
                assert_eq!(value.to_bits(), (f32::from(byte) / 255.0).to_bits());
            }
        }
        assert!(lb.data[40 * 64..plane].iter().all(|&v| v == 127.0 / 255.0));
    }

    #[test]
    fn pyramid_levels_are_block_means() {
        let (w, h) = (37u32, 21u32);
        let pixels: Vec<u8> = (0..w * h * 3).map(|i| (i * 7919 % 251) as u8).collect();
        let rgb = Rgb::new(w, h, pixels).unwrap();
        for level in 0..=3u32 {
            let k = 1usize << level;
            let built = Level::build(&rgb, level);
            assert_eq!(
                (built.width, built.height),
                (w as usize >> level, h as usize >> level)
            );
            for y in 0..built.height {
                for x in 0..built.width {
                    for c in 0..3 {
                        let mut sum = 0u32;
                        for yy in y * k..(y + 1) * k {
                            for xx in x * k..(x + 1) * k {
                                sum += u32::from(rgb.at(xx, yy, c));
                            }
                        }
                        let want = sum as f32 / (k * k) as f32;
                        assert_eq!(built.pixels[(y * built.width + x) * 3 + c], want);
                    }
                }
            }
        }
        // An image smaller than one block: the block is clipped, no out-of-bounds read.
        let tiny = Rgb::new(3, 1, vec![30, 60, 90, 30, 60, 90, 60, 90, 120]).unwrap();
        let built = Level::build(&tiny, 2);
        assert_eq!((built.width, built.height), (1, 1));
        assert_eq!(built.pixels, vec![40.0, 70.0, 100.0]);
        let boxes = [RotatedBox {
            cx: 1.0,
            cy: 0.5,
            w: 300.0,
            h: 400.0,
            phi: -std::f32::consts::FRAC_PI_2,
        }];
        assert_eq!(crops(&tiny, &boxes).len(), CROP_LEN);
    }

    /// The crop read from the window equals the crop read from the whole level.
    fn crops_from_whole_levels(image: &Rgb, boxes: &[RotatedBox]) -> Vec<f32> {
        let mut out = vec![0f32; boxes.len() * CROP_LEN];
        for (b, crop) in boxes.iter().zip(out.chunks_exact_mut(CROP_LEN)) {
            let g = CropGeometry::of(b);
            g.sample_into(&Level::build(image, g.level), crop);
        }
        out
    }

    /// A `w`×`h` image whose every byte differs from its neighbours', so that any pixel read
    /// from the wrong place shows.
    fn patterned(w: u32, h: u32) -> Rgb {
        let pixels: Vec<u8> = (0..u64::from(w * h * 3))
            .map(|i| (i * 7919 % 251) as u8)
            .collect();
        Rgb::new(w, h, pixels).unwrap()
    }

    #[test]
    fn windowed_levels_give_the_same_crops() {
        let rgb = patterned(1000, 700);
        let boxes = [
            // level 0, 1, 2 and 3, rotated, and boxes running off each edge
            (300.0, 200.0, 40.0, 55.0, -1.2),
            (620.0, 410.0, 110.0, 150.0, 0.4),
            (20.0, 15.0, 200.0, 260.0, -1.57),
            (990.0, 690.0, 420.0, 560.0, 2.9),
            (500.0, 690.0, 60.0, 80.0, 0.0),
        ]
        .map(|(cx, cy, w, h, phi)| RotatedBox { cx, cy, w, h, phi });
        assert_eq!(crops(&rgb, &boxes), crops_from_whole_levels(&rgb, &boxes));
        assert!(crops(&rgb, &[]).is_empty());
    }

    #[test]
    fn a_box_turned_half_a_turn_with_its_photo_crops_the_same_pixels() {
        let (w, h) = (300u32, 200u32);
        let rgb = patterned(w, h);
        let turned = rgb.half_turned();
        assert_eq!(turned.pixels[..3], rgb.pixels[rgb.pixels.len() - 3..]);
        assert_eq!(turned.half_turned(), rgb);
        assert_turn_with_photo(
            &rgb,
            &turned,
            |b| b.half_turned(w as f32, h as f32),
            |m| m.half_turned(w as f32, h as f32),
        );
    }

    /// Asserts that boxes moved by `turn` crop from `turned`, `rgb` turned so, the pixels they
    /// crop from `rgb` (up to the float rounding of the sample points), and that `back` moves
    /// them back; returns the boxes moved.
    fn assert_turn_with_photo(
        rgb: &Rgb,
        turned: &Rgb,
        turn: impl Fn(&RotatedBox) -> RotatedBox,
        back: impl Fn(&RotatedBox) -> RotatedBox,
    ) -> [RotatedBox; 3] {
        let boxes = [
            (100.0, 80.0, 40.0, 55.0, -1.2),
            (150.5, 99.5, 60.0, 80.0, -std::f32::consts::FRAC_PI_2),
            (220.0, 60.0, 30.0, 45.0, 2.9),
        ]
        .map(|(cx, cy, w, h, phi)| RotatedBox { cx, cy, w, h, phi });
        let moved = boxes.map(|b| turn(&b));
        let (a, b) = (crops(rgb, &boxes), crops(turned, &moved));
        let worst = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f32::max);
        assert!(worst <= 1.5 / 255.0, "{worst}");
        for (b, m) in boxes.iter().zip(&moved) {
            let back = back(m);
            assert!((back.cx - b.cx).abs() < 1e-4 && (back.cy - b.cy).abs() < 1e-4);
            assert!((back.phi - b.phi).abs() < 1e-5 && m.phi.abs() <= std::f32::consts::PI);
        }
        moved
    }

    #[test]
    fn a_box_turned_a_quarter_with_its_photo_crops_the_same_pixels() {
        let (w, h) = (300u32, 200u32);
        let rgb = patterned(w, h);
        let turned = rgb.turned_clockwise();
        assert_eq!((turned.width, turned.height), (h, w));
        // The bottom-left pixel comes to the top left.
        let bottom_left = 3 * (h as usize - 1) * w as usize;
        assert_eq!(turned.pixels[..3], rgb.pixels[bottom_left..bottom_left + 3]);
        assert_eq!(turned.turned_anticlockwise(), rgb);
        let moved = assert_turn_with_photo(
            &rgb,
            &turned,
            |b| b.turned_clockwise(h as f32),
            |m| m.turned_anticlockwise(h as f32),
        );
        // An upright tile's box lies across the turned photo, its top to the right.
        assert!(moved[1].phi.abs() < 1e-6);
    }

    #[test]
    fn whole_levels_round_half_away_from_zero_within_the_range() {
        let values = (-2000..=270_000).map(|i| i as f32 / 1000.0);
        for v in values.chain([0.49999997, 0.5, 1.5, 2.5, 254.5, 254.49998]) {
            assert_eq!(whole_level(v) as f32, v.round().clamp(0.0, 255.0), "{v}");
        }
    }

    #[test]
    fn crop_values_are_the_levels_divided() {
        for (level, &value) in CROP_VALUES.iter().enumerate() {
            assert_eq!(value.to_bits(), (level as f32 / 255.0).to_bits(), "{level}");
        }
    }

    /// `n` boxes spread over a 640×480 image and past its edges, turned every way, with widths
    /// `w.0` to `w.0 + w.1` and heights likewise.
    fn scattered_boxes(n: usize, w: (f32, f32), h: (f32, f32)) -> impl Iterator<Item = RotatedBox> {
        (0..n).map(move |k| {
            let t = k as f32;
            RotatedBox {
                cx: (t * 37.3) % 700.0 - 30.0,
                cy: (t * 23.9) % 520.0 - 20.0,
                w: w.0 + (t * 13.7) % w.1,
                h: h.0 + (t * 17.1) % h.1,
                phi: t * 0.173,
            }
        })
    }

    #[test]
    fn the_unclamped_sampling_reads_what_the_clamped_one_does() {
        let rgb = patterned(640, 480);
        let mut inside = 0;
        // Boxes at every level, turned every way, from the middle out over the edges: those
        // wholly inside take the unclamped path, and every crop must match the clamped one.
        for b in scattered_boxes(400, (10.0, 300.0), (14.0, 380.0)) {
            let g = CropGeometry::of(&b);
            let level = Level::build(&rgb, g.level);
            let (mut fast, mut clamped) = (vec![0f32; CROP_LEN], vec![0f32; CROP_LEN]);
            g.sample_into(&level, &mut fast);
            g.sample_with(&mut clamped, |x, y, px| level.sample(x, y, px));
            assert_eq!(fast, clamped, "box {b:?}");
            inside += usize::from(g.inside(&level));
        }
        assert!((100..400).contains(&inside), "{inside} of 400 boxes inside");
    }

    #[test]
    fn level_zero_read_from_the_image_bytes_is_the_float_copy() {
        let rgb = patterned(640, 480);
        let (bytes, floats) = (Level::of_image(&rgb), Level::build(&rgb, 0));
        assert_eq!(bytes.pixels.len(), floats.pixels.len());
        let mut inside = 0;
        for b in scattered_boxes(300, (8.0, 87.0), (10.0, 120.0)) {
            let g = CropGeometry::of(&b);
            assert_eq!(g.level, 0, "box {b:?}");
            let (mut read, mut copied) = (vec![0f32; CROP_LEN], vec![0f32; CROP_LEN]);
            g.sample_into(&bytes, &mut read);
            g.sample_into(&floats, &mut copied);
            assert_eq!(read, copied, "box {b:?}");
            inside += usize::from(g.inside(&bytes));
        }
        // Both samplers are compared: the unclamped one inside, the clamped one over the edges.
        assert!((100..300).contains(&inside), "{inside} of 300 boxes inside");
    }

    #[test]
    fn crops_cut_in_parallel_are_the_crops_cut_in_turn() {
        let rgb = patterned(640, 480);
        // Small and large boxes, so crops from level 0 and from the levels above it mix.
        let boxes: Vec<RotatedBox> = scattered_boxes(120, (8.0, 300.0), (10.0, 400.0)).collect();
        let levels: std::collections::BTreeSet<u32> =
            boxes.iter().map(|b| CropGeometry::of(b).level).collect();
        assert!(levels.len() >= 3, "levels {levels:?}");
        let in_turn = crops(&rgb, &boxes);
        assert_eq!(in_turn.len(), boxes.len() * CROP_LEN);
        assert_eq!(crops_on(&rgb, &boxes, true), in_turn);
    }

    #[test]
    fn upright_crop_samples_the_box() {
        let rgb = Rgb::new(96, 128, vec![90; 96 * 128 * 3]).unwrap();
        let b = RotatedBox {
            cx: 48.0,
            cy: 64.0,
            w: 40.0,
            h: 55.0,
            phi: -std::f32::consts::FRAC_PI_2,
        };
        let out = crops(&rgb, &[b]);
        assert_eq!(out.len(), CROP_LEN);
        assert!(out.iter().all(|&v| (v - 90.0 / 255.0).abs() < 1e-6));
        let [x1, y1, x2, y2] = b.bounds();
        assert!((x2 - x1 - 40.0).abs() < 1e-3 && (y2 - y1 - 55.0).abs() < 1e-3);
    }
}
