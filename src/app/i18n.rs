//! Labels in English and Japanese, and the CJK font the Japanese labels need.
//!
//! The UI is written with English labels passed through [`Lang::tr`]; Japanese has a table
//! of translations and falls back to the English text for anything missing, so a missing
//! entry shows English rather than nothing. Yaku, limit and fu names have their own tables.

use eframe::egui;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The label language.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Lang {
    #[default]
    #[serde(rename = "en")]
    En,
    #[serde(rename = "ja")]
    Ja,
}

impl Lang {
    /// The label for `en` in this language.
    pub fn tr(self, en: &'static str) -> &'static str {
        if self == Lang::En {
            return en;
        }
        match en {
            "Source" => "入力",
            "Camera" => "カメラ",
            "Video" => "動画",
            "Image" => "画像",
            "Folder" => "フォルダ",
            "Samples" => "サンプル",
            "Open" => "開く",
            "Browse…" => "参照…",
            "Open a video" => "動画を開く",
            "Open an image" => "画像を開く",
            "Open a folder of images" => "画像フォルダを開く",
            "The video has ended; Open plays it again." => {
                "動画が終わりました。「開く」でもう一度再生します。"
            }
            "Resolution" => "解像度",
            "default" => "既定",
            "Refresh" => "再検索",
            "Previous image" => "前の画像",
            "Next image" => "次の画像",
            "Capture" => "キャプチャ",
            "Resume live" => "ライブに戻る",
            "Hand" => "手牌",
            "Melds" => "副露",
            "Notation" => "記法",
            "Add meld" => "副露を追加",
            "Remove" => "削除",
            "Dora indicators" => "ドラ表示牌",
            "Ura dora indicators" => "裏ドラ表示牌",
            "Add tile" => "牌を追加",
            "Choose a tile" => "牌を選択",
            "Winning tile" => "和了牌",
            "Make it the winning tile" => "和了牌にする",
            "One tile short: which is the winning tile?" => "1枚足りません。和了牌は？",
            "Add it as the winning tile" => "和了牌として追加",
            "Remove tile" => "牌を削除",
            "Cancel" => "キャンセル",
            "Apply" => "適用",
            "Win conditions" => "和了条件",
            "Ron" => "ロン",
            "Tsumo" => "ツモ",
            "No riichi" => "リーチなし",
            "Riichi" => "立直",
            "Double riichi" => "ダブル立直",
            "Ippatsu" => "一発",
            "Haitei" => "海底",
            "Houtei" => "河底",
            "Rinshan" => "嶺上",
            "Chankan" => "槍槓",
            "Tenhou" => "天和",
            "Chiihou" => "地和",
            "Seat wind" => "自風",
            "Round wind" => "場風",
            "Honba" => "本場",
            "Riichi sticks" => "供託",
            "Rules" => "ルール",
            "Result" => "結果",
            "Copy as text" => "テキストをコピー",
            "Copied" => "コピーしました",
            "Yaku" => "役",
            "Fu" => "符",
            "Payments" => "支払い",
            "Total" => "合計",
            "Language" => "言語",
            "Serve overlay" => "オーバーレイ配信",
            "Live" => "ライブ",
            "Frozen" => "固定中",
            "Locked in" => "確定",
            "uncertain: check" => "不確か: 要確認",
            "Recognizer" => "認識",
            "loading models" => "モデル読み込み中",
            "ready" => "準備完了",
            "No hand yet: capture a frame, or type the hand in notation" => {
                "手牌がありません: キャプチャするか記法で入力してください"
            }
            "No frame yet" => "フレームがありません",
            "Discarder" => "放銃者",
            "all" => "オール",
            "Not scored" => "点数なし",
            "Settings" => "設定",
            "East" => "東",
            "South" => "南",
            "West" => "西",
            "North" => "北",
            _ => en,
        }
    }

    /// A wind's name.
    pub fn wind(self, letter: &str) -> &'static str {
        match letter {
            "S" => self.tr("South"),
            "W" => self.tr("West"),
            "N" => self.tr("North"),
            _ => self.tr("East"),
        }
    }

    /// A yaku's display name (README names in, readable names out).
    pub fn yaku(self, name: &str) -> String {
        if self == Lang::Ja {
            if let Some(ja) = YAKU_JA.iter().find(|(n, _)| *n == name) {
                return ja.1.to_string();
            }
            return name.to_string();
        }
        if let Some(en) = YAKU_EN.iter().find(|(n, _)| *n == name) {
            return en.1.to_string();
        }
        let spaced = name.replace('_', " ");
        let mut chars = spaced.chars();
        match chars.next() {
            Some(c) => c.to_uppercase().chain(chars).collect(),
            None => spaced,
        }
    }

    /// A limit's display name (`mangan` → `Mangan` / `満貫`).
    pub fn limit(self, name: &str) -> String {
        let ja = [
            ("mangan", "満貫"),
            ("haneman", "跳満"),
            ("baiman", "倍満"),
            ("sanbaiman", "三倍満"),
            ("kazoe_yakuman", "数え役満"),
            ("yakuman", "役満"),
            ("double_yakuman", "ダブル役満"),
            ("triple_yakuman", "トリプル役満"),
        ];
        if self == Lang::Ja {
            if let Some((_, j)) = ja.iter().find(|(n, _)| *n == name) {
                return j.to_string();
            }
        }
        self.yaku(name).replace("Yakuman", "yakuman")
    }

    /// A fu line's reason in words.
    pub fn fu_reason(self, reason: &str, tile: Option<String>) -> String {
        let tile = tile.map(|t| format!(" {t}")).unwrap_or_default();
        let (en, ja) = match reason {
            "base" => ("Base", "副底"),
            "closed_ron" => ("Closed hand won by ron", "門前ロン"),
            "tsumo" => ("Tsumo", "ツモ"),
            "open_pinfu" => ("Open hand without fu, counted as 30", "喰い平和形 (30符)"),
            "chiitoitsu" => ("Seven pairs", "七対子"),
            "open_triplet" => ("Open triplet", "明刻"),
            "closed_triplet" => ("Closed triplet", "暗刻"),
            "open_kan" => ("Open kan", "明槓"),
            "closed_kan" => ("Closed kan", "暗槓"),
            "pair_dragon" => ("Dragon pair", "役牌の雀頭"),
            "pair_seat_wind" => ("Seat wind pair", "自風の雀頭"),
            "pair_round_wind" => ("Round wind pair", "場風の雀頭"),
            "wait_kanchan" => ("Closed wait (kanchan)", "嵌張待ち"),
            "wait_penchan" => ("Edge wait (penchan)", "辺張待ち"),
            "wait_tanki" => ("Pair wait (tanki)", "単騎待ち"),
            "round_up" => ("Rounded up", "切り上げ"),
            other => (other, other),
        };
        let word = if self == Lang::Ja { ja } else { en };
        format!("{word}{tile}")
    }
}

const YAKU_EN: &[(&str, &str)] = &[
    ("kokushi_13", "Kokushi 13-sided wait"),
    ("suuankou_tanki", "Suuankou tanki"),
    ("chuuren_9", "Junsei chuuren"),
    ("renhou_yakuman", "Renhou (yakuman)"),
    ("yakuhai_seat_wind", "Yakuhai: seat wind"),
    ("yakuhai_round_wind", "Yakuhai: round wind"),
    ("yakuhai_haku", "Yakuhai: haku"),
    ("yakuhai_hatsu", "Yakuhai: hatsu"),
    ("yakuhai_chun", "Yakuhai: chun"),
    ("aka_dora", "Red fives"),
    ("ura_dora", "Ura dora"),
    ("menzen_tsumo", "Menzen tsumo"),
];

const YAKU_JA: &[(&str, &str)] = &[
    ("riichi", "立直"),
    ("double_riichi", "ダブル立直"),
    ("ippatsu", "一発"),
    ("menzen_tsumo", "門前清自摸和"),
    ("pinfu", "平和"),
    ("tanyao", "断幺九"),
    ("iipeikou", "一盃口"),
    ("yakuhai_haku", "役牌 白"),
    ("yakuhai_hatsu", "役牌 發"),
    ("yakuhai_chun", "役牌 中"),
    ("yakuhai_seat_wind", "自風牌"),
    ("yakuhai_round_wind", "場風牌"),
    ("haitei", "海底摸月"),
    ("houtei", "河底撈魚"),
    ("rinshan", "嶺上開花"),
    ("chankan", "槍槓"),
    ("sanshoku_doujun", "三色同順"),
    ("sanshoku_doukou", "三色同刻"),
    ("ittsu", "一気通貫"),
    ("chanta", "混全帯幺九"),
    ("junchan", "純全帯幺九"),
    ("toitoi", "対々和"),
    ("sanankou", "三暗刻"),
    ("sankantsu", "三槓子"),
    ("honroutou", "混老頭"),
    ("shousangen", "小三元"),
    ("chiitoitsu", "七対子"),
    ("ryanpeikou", "二盃口"),
    ("honitsu", "混一色"),
    ("chinitsu", "清一色"),
    ("nagashi_mangan", "流し満貫"),
    ("renhou", "人和"),
    ("kokushi", "国士無双"),
    ("kokushi_13", "国士無双十三面待ち"),
    ("suuankou", "四暗刻"),
    ("suuankou_tanki", "四暗刻単騎"),
    ("daisangen", "大三元"),
    ("shousuushii", "小四喜"),
    ("daisuushii", "大四喜"),
    ("tsuuiisou", "字一色"),
    ("ryuuiisou", "緑一色"),
    ("chinroutou", "清老頭"),
    ("chuuren", "九蓮宝燈"),
    ("chuuren_9", "純正九蓮宝燈"),
    ("suukantsu", "四槓子"),
    ("tenhou", "天和"),
    ("chiihou", "地和"),
    ("renhou_yakuman", "人和 (役満)"),
    ("dora", "ドラ"),
    ("aka_dora", "赤ドラ"),
    ("ura_dora", "裏ドラ"),
    ("kita", "抜きドラ"),
];

/// Where a CJK font is looked for: `RIICHI_LENS_CJK_FONT`, then Debian/Ubuntu's
/// `fonts-noto-cjk`, Fedora's and Arch's Noto CJK, then macOS and Windows system fonts.
pub fn cjk_font_candidates() -> Vec<PathBuf> {
    let mut out = Vec::new();
    if let Some(p) = std::env::var_os("RIICHI_LENS_CJK_FONT") {
        out.push(PathBuf::from(p));
    }
    for p in [
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJKjp-Regular.otf",
        "/usr/share/fonts/truetype/noto/NotoSansCJK-Regular.ttc",
        "/System/Library/Fonts/Hiragino Sans GB.ttc",
        "C:\\Windows\\Fonts\\YuGothM.ttc",
        "C:\\Windows\\Fonts\\msgothic.ttc",
    ] {
        out.push(PathBuf::from(p));
    }
    out
}

/// Adds the first CJK font found as a fallback after egui's own fonts, so Japanese labels
/// render. Returns the font's path, or `None` when there is none (Japanese then shows as
/// boxes; English is unaffected).
pub fn install_cjk_font(ctx: &egui::Context) -> Option<PathBuf> {
    let (path, bytes) = cjk_font_candidates()
        .into_iter()
        .find_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))?;
    let mut fonts = egui::FontDefinitions::default();
    fonts
        .font_data
        .insert("cjk".into(), egui::FontData::from_owned(bytes).into());
    for family in [egui::FontFamily::Proportional, egui::FontFamily::Monospace] {
        fonts.families.entry(family).or_default().push("cjk".into());
    }
    ctx.set_fonts(fonts);
    Some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_both_languages() {
        assert_eq!(Lang::En.yaku("menzen_tsumo"), "Menzen tsumo");
        assert_eq!(Lang::En.yaku("tanyao"), "Tanyao");
        assert_eq!(Lang::Ja.yaku("tanyao"), "断幺九");
        assert_eq!(Lang::En.limit("mangan"), "Mangan");
        assert_eq!(Lang::En.limit("double_yakuman"), "Double yakuman");
        assert_eq!(Lang::Ja.limit("haneman"), "跳満");
        assert_eq!(Lang::Ja.tr("Capture"), "キャプチャ");
        assert_eq!(Lang::Ja.tr("not translated"), "not translated");
        assert_eq!(
            Lang::En.fu_reason("closed_triplet", Some("3z".into())),
            "Closed triplet 3z"
        );
    }
}
