//! The HTML report: one self-contained page, every photo as an inline JPEG thumbnail with an
//! SVG overlay of the tiles read, then the hand, the score or the error.

use super::row::Row;
use crate::payment::thousands;
use crate::vision::picture::Rgb;
use serde_json::Value;
use std::io::Write;

/// Largest thumbnail width, in pixels.
pub const THUMB_MAX_WIDTH: u32 = 480;
/// Largest thumbnail height, in pixels (keeps very tall photos in check).
pub const THUMB_MAX_HEIGHT: u32 = 720;

/// A downscaled JPEG of a photo.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thumbnail {
    pub jpeg: Vec<u8>,
    pub width: u32,
    pub height: u32,
}

/// Downscales a photo to at most [`THUMB_MAX_WIDTH`] × [`THUMB_MAX_HEIGHT`] (never up) and
/// encodes it as a JPEG.
pub fn thumbnail(image: &Rgb) -> Result<Thumbnail, String> {
    use fast_image_resize as fr;
    let scale = (THUMB_MAX_WIDTH as f64 / image.width as f64)
        .min(THUMB_MAX_HEIGHT as f64 / image.height as f64)
        .min(1.0);
    let width = ((image.width as f64 * scale).round() as u32).max(1);
    let height = ((image.height as f64 * scale).round() as u32).max(1);
    let pixels = if (width, height) == (image.width, image.height) {
        image.pixels.clone()
    } else {
        let src = fr::images::ImageRef::new(
            image.width,
            image.height,
            &image.pixels,
            fr::PixelType::U8x3,
        )
        .map_err(|e| e.to_string())?;
        let mut dst = fr::images::Image::new(width, height, fr::PixelType::U8x3);
        let options = fr::ResizeOptions::new()
            .resize_alg(fr::ResizeAlg::Convolution(fr::FilterType::CatmullRom));
        fr::Resizer::new()
            .resize(&src, &mut dst, &options)
            .map_err(|e| e.to_string())?;
        dst.into_vec()
    };
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 80)
        .encode(&pixels, width, height, image::ExtendedColorType::Rgb8)
        .map_err(|e| e.to_string())?;
    Ok(Thumbnail {
        jpeg,
        width,
        height,
    })
}

/// Standard base64 with padding.
pub fn base64(data: &[u8]) -> String {
    const TABLE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(TABLE[(n >> shift) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Escapes text for HTML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// Colour of a confident tile box.
pub const SURE_COLOUR: &str = "#1fbf4f";
/// Colour of an uncertain tile box (low confidence, or changed by the hand-aware decoding).
pub const UNSURE_COLOUR: &str = "#ff7a00";

const STYLE: &str = "
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; background: #fafafa; }
h1 { font-size: 1.4em; }
section { display: flex; flex-wrap: wrap; gap: 1.2em; background: #fff; border: 1px solid #ddd;
          border-radius: 6px; padding: 1em; margin-bottom: 1em; }
section.failed { border-left: 6px solid #d33; }
section.scored { border-left: 6px solid #1fbf4f; }
.pic { position: relative; flex: none; line-height: 0; }
.pic img { display: block; }
.pic svg { position: absolute; left: 0; top: 0; width: 100%; height: 100%; }
.nopic { width: 160px; height: 90px; background: #eee; color: #888; display: flex;
         align-items: center; justify-content: center; line-height: normal; }
.info { min-width: 18em; flex: 1; }
.info h2 { font-size: 1.05em; margin: 0 0 .5em 0; word-break: break-all; }
code { font-size: 1.1em; }
table.yaku td { padding: 0 1.2em 0 0; }
.error { color: #b00; }
.sha { color: #999; font-size: .8em; word-break: break-all; }
.key span { display: inline-block; width: .9em; height: .9em; vertical-align: middle; margin: 0 .3em 0 1em; }
";

/// Writes the report page. `thumbnail` gives the stored thumbnail of a hash, if any.
pub fn write_html(
    rows: &[Row],
    thumbnail: &mut dyn FnMut(&str) -> Option<Thumbnail>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let scored = rows.iter().filter(|r| r.score.is_some()).count();
    let failed = rows.iter().filter(|r| r.error.is_some()).count();
    let uncertain = rows.iter().filter(|r| !r.uncertain.is_empty()).count();
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>riichi-lens batch report</title>\n<style>{STYLE}</style>\n</head>\n<body>"
    )?;
    writeln!(out, "<h1>riichi-lens batch report</h1>")?;
    writeln!(
        out,
        "<p>{} photos: {scored} scored, {failed} with an error, {uncertain} with uncertain tiles.</p>",
        rows.len()
    )?;
    writeln!(
        out,
        "<p class=\"key\">Tile boxes:<span style=\"background:{SURE_COLOUR}\"></span>read with confidence<span style=\"background:{UNSURE_COLOUR}\"></span>uncertain: check these tiles</p>"
    )?;
    for row in rows {
        let thumb = row.sha256.as_deref().and_then(&mut *thumbnail);
        write_section(row, thumb.as_ref(), out)?;
    }
    writeln!(out, "</body>\n</html>")
}

fn write_section(
    row: &Row,
    thumb: Option<&Thumbnail>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let class = if row.error.is_some() {
        "failed"
    } else if row.score.is_some() {
        "scored"
    } else {
        ""
    };
    writeln!(out, "<section class=\"{class}\">")?;
    match (thumb, row.width, row.height) {
        (Some(t), Some(w), Some(h)) => {
            writeln!(
                out,
                "<div class=\"pic\"><img src=\"data:image/jpeg;base64,{}\" width=\"{}\" height=\"{}\" alt=\"{}\">",
                base64(&t.jpeg),
                t.width,
                t.height,
                escape(&row.file)
            )?;
            write_overlay(row, w, h, out)?;
            writeln!(out, "</div>")?;
        }
        _ => writeln!(out, "<div class=\"pic nopic\">no picture</div>")?,
    }
    writeln!(out, "<div class=\"info\">")?;
    writeln!(out, "<h2>{}</h2>", escape(&row.file))?;
    match &row.hand {
        Some(hand) => writeln!(out, "<p>Hand <code>{}</code></p>", escape(hand))?,
        None if !row.tiles.is_empty() => {
            let tiles: Vec<&str> = row.tiles.iter().map(|t| t.tile.as_str()).collect();
            writeln!(
                out,
                "<p>Tiles read <code>{}</code></p>",
                escape(&tiles.join(" "))
            )?
        }
        None => {}
    }
    if !row.uncertain.is_empty() {
        let list: Vec<String> = row
            .uncertain
            .iter()
            .filter_map(|&i| row.tiles.get(i))
            .map(|t| format!("{} ({:.0}%)", t.tile, t.confidence * 100.0))
            .collect();
        writeln!(out, "<p>Uncertain tiles: {}</p>", escape(&list.join(", ")))?;
    }
    if let Some(score) = &row.score {
        write_score(score, out)?;
    }
    if let Some(error) = &row.error {
        writeln!(
            out,
            "<p class=\"error\"><b>{}</b>: {}</p>",
            escape(&error.kind),
            escape(&error.error)
        )?;
    }
    if let Some(sha) = &row.sha256 {
        writeln!(out, "<p class=\"sha\">sha256 {}</p>", escape(sha))?;
    }
    writeln!(out, "</div>\n</section>")
}

fn write_overlay(row: &Row, width: u32, height: u32, out: &mut impl Write) -> std::io::Result<()> {
    writeln!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {width} {height}\" preserveAspectRatio=\"none\">"
    )?;
    let font = (width.max(height) as f32 / 40.0).max(8.0);
    for (i, tile) in row.tiles.iter().enumerate() {
        let [x1, y1, x2, y2] = tile.bounds;
        let colour = if row.uncertain.contains(&i) {
            UNSURE_COLOUR
        } else {
            SURE_COLOUR
        };
        let label = escape(&tile.tile);
        writeln!(
            out,
            "<g><title>{label} {:.0}%</title><rect x=\"{x1:.1}\" y=\"{y1:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"none\" stroke=\"{colour}\" stroke-width=\"2\" vector-effect=\"non-scaling-stroke\"/><text x=\"{x1:.1}\" y=\"{:.1}\" font-size=\"{font:.1}\" font-family=\"sans-serif\" font-weight=\"bold\" fill=\"{colour}\" stroke=\"#000\" stroke-width=\"{:.1}\" paint-order=\"stroke\">{label}</text></g>",
            tile.confidence * 100.0,
            (x2 - x1).max(0.0),
            (y2 - y1).max(0.0),
            (y1 - font * 0.2).max(font),
            font * 0.12,
        )?;
    }
    writeln!(out, "</svg>")
}

fn write_score(score: &Value, out: &mut impl Write) -> std::io::Result<()> {
    let number = |v: Option<&Value>| v.and_then(Value::as_u64);
    if let Some(yaku) = score.get("yaku").and_then(Value::as_array) {
        writeln!(out, "<table class=\"yaku\">")?;
        for y in yaku {
            let name = y.get("name").and_then(Value::as_str).unwrap_or("?");
            let han = number(y.get("han")).unwrap_or(0);
            writeln!(out, "<tr><td>{}</td><td>{han} han</td></tr>", escape(name))?;
        }
        writeln!(out, "</table>")?;
    }
    let han = number(score.get("han")).unwrap_or(0);
    let fu = number(score.get("fu")).unwrap_or(0);
    let yakuman = number(score.get("yakuman")).unwrap_or(0);
    let limit = score.get("limit").and_then(Value::as_str);
    let value = match limit {
        Some(limit) if yakuman > 0 => limit.to_string(),
        Some(limit) => format!("{han} han {fu} fu, {limit}"),
        None => format!("{han} han {fu} fu"),
    };
    writeln!(out, "<p>Value <b>{}</b></p>", escape(&value))?;
    let points = score.get("points");
    let get = |key: &str| number(points.and_then(|p| p.get(key)));
    let pays = match (get("ron"), get("tsumo_dealer"), get("tsumo_non_dealer")) {
        (Some(ron), _, _) => format!("{} from the discarder", thousands(ron)),
        (None, Some(dealer), Some(other)) => format!(
            "{} from the dealer, {} from each other player",
            thousands(dealer),
            thousands(other)
        ),
        (None, None, Some(each)) => format!("{} from each player", thousands(each)),
        _ => String::new(),
    };
    writeln!(
        out,
        "<p>Points <b>{}</b> ({})</p>",
        thousands(get("total").unwrap_or(0)),
        escape(&pays)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_the_standard_vectors() {
        let cases = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (input, expected) in cases {
            assert_eq!(base64(input.as_bytes()), expected);
        }
    }

    #[test]
    fn escapes_markup() {
        assert_eq!(
            escape("<a href=\"x\">&'</a>"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;&lt;/a&gt;"
        );
    }

    #[test]
    fn thumbnails_are_small_jpegs() {
        let image = Rgb::new(1200, 300, vec![90; 1200 * 300 * 3]).unwrap();
        let t = thumbnail(&image).unwrap();
        assert_eq!((t.width, t.height), (480, 120));
        assert_eq!(&t.jpeg[..2], &[0xff, 0xd8]);
        let small = Rgb::new(20, 10, vec![0; 600]).unwrap();
        assert_eq!(thumbnail(&small).unwrap().width, 20);
    }
}
