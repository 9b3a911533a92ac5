//! Fuzzes the tile/meld/hand notation parsers with arbitrary UTF-8.
//!
//! Besides "never panics", checks the round trip promised by the notation module: whatever
//! parses, formatted back with `format_tiles` / `format_meld`, parses to the same value.
#![no_main]

use libfuzzer_sys::fuzz_target;
use riichi_lens::notation::{
    format_meld, format_tiles, parse_hand, parse_meld, parse_tile, parse_tiles,
};

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };

    if let Ok(tiles) = parse_tiles(text) {
        let again = format_tiles(&tiles);
        assert_eq!(
            parse_tiles(&again).as_ref(),
            Ok(&tiles),
            "parse_tiles({text:?}) -> {again:?}"
        );
    }

    if let Ok(tile) = parse_tile(text) {
        let again = format_tiles(&[tile]);
        assert_eq!(
            parse_tile(&again),
            Ok(tile),
            "parse_tile({text:?}) -> {again:?}"
        );
    }

    if let Ok(meld) = parse_meld(text) {
        let again = format_meld(&meld);
        assert_eq!(
            parse_meld(&again),
            Ok(meld),
            "parse_meld({text:?}) -> {again:?}"
        );
    }

    if let Ok(hand) = parse_hand(text) {
        let mut again = format_tiles(&hand.tiles);
        for meld in &hand.melds {
            again.push(' ');
            again.push_str(&format_meld(meld));
        }
        assert_eq!(
            parse_hand(&again).as_ref(),
            Ok(&hand),
            "parse_hand({text:?}) -> {again:?}"
        );
    }
});
