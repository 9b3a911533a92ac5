//! The overlay's bundled files: the page, its script and style sheet, and the tile images.
//!
//! Everything is compiled into the binary and looked up in fixed tables, so the server never
//! touches the file system and no request path can reach anything else.
//!
//! Tile art: "riichi-tiles" by FluffyStuff, public domain (CC0), see
//! `assets/riichi-tiles-fluffystuff/LICENSE.md`. Each face image is drawn on `front`.

/// The overlay page.
pub const PAGE_HTML: &str = include_str!("page/overlay.html");
/// The page's script.
pub const PAGE_JS: &str = include_str!("page/overlay.js");
/// The page's style sheet.
pub const PAGE_CSS: &str = include_str!("page/overlay.css");

/// Tile images by notation name: `1m`–`9m`, `0m` (red five), `1p`…, `1s`…, `1z`–`7z`
/// (East, South, West, North, white, green, red dragon), `back`, and `front` (the blank
/// tile face every other image is drawn on).
pub const TILES: &[(&str, &[u8])] = &[
    (
        "1m",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Man1.png"),
    ),
    (
        "2m",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Man2.png"),
    ),
    (
        "3m",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Man3.png"),
    ),
    (
        "4m",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Man4.png"),
    ),
    (
        "5m",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Man5.png"),
    ),
    (
        "6m",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Man6.png"),
    ),
    (
        "7m",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Man7.png"),
    ),
    (
        "8m",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Man8.png"),
    ),
    (
        "9m",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Man9.png"),
    ),
    (
        "0m",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Man5-Dora.png"),
    ),
    (
        "1p",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pin1.png"),
    ),
    (
        "2p",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pin2.png"),
    ),
    (
        "3p",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pin3.png"),
    ),
    (
        "4p",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pin4.png"),
    ),
    (
        "5p",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pin5.png"),
    ),
    (
        "6p",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pin6.png"),
    ),
    (
        "7p",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pin7.png"),
    ),
    (
        "8p",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pin8.png"),
    ),
    (
        "9p",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pin9.png"),
    ),
    (
        "0p",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pin5-Dora.png"),
    ),
    (
        "1s",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Sou1.png"),
    ),
    (
        "2s",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Sou2.png"),
    ),
    (
        "3s",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Sou3.png"),
    ),
    (
        "4s",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Sou4.png"),
    ),
    (
        "5s",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Sou5.png"),
    ),
    (
        "6s",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Sou6.png"),
    ),
    (
        "7s",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Sou7.png"),
    ),
    (
        "8s",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Sou8.png"),
    ),
    (
        "9s",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Sou9.png"),
    ),
    (
        "0s",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Sou5-Dora.png"),
    ),
    (
        "1z",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Ton.png"),
    ),
    (
        "2z",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Nan.png"),
    ),
    (
        "3z",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Shaa.png"),
    ),
    (
        "4z",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Pei.png"),
    ),
    (
        "5z",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Haku.png"),
    ),
    (
        "6z",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Hatsu.png"),
    ),
    (
        "7z",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Chun.png"),
    ),
    (
        "back",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Back.png"),
    ),
    (
        "front",
        include_bytes!("../../assets/riichi-tiles-fluffystuff/Regular/Front.png"),
    ),
];

/// The PNG of a tile by notation name (see [`TILES`]); `None` for any other name.
pub fn tile_png(name: &str) -> Option<&'static [u8]> {
    TILES.iter().find(|(n, _)| *n == name).map(|(_, png)| *png)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tile_is_a_png_and_names_are_unique() {
        assert_eq!(TILES.len(), 39);
        for (i, (name, png)) in TILES.iter().enumerate() {
            assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "{name}");
            assert!(TILES[..i].iter().all(|(n, _)| n != name), "{name} twice");
        }
        assert!(tile_png("0p").is_some());
        assert!(tile_png("../Cargo.toml").is_none());
        assert!(tile_png("8z").is_none());
    }
}
