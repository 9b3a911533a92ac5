//! Tile recognition: runs the two ONNX models under `models/` (a tile detector and a tile
//! classifier, contract in `models/MODEL_CARD.md`) through ONNX Runtime, and turns their output
//! into detected tiles with boxes, classes, confidences and orientation. A classifier with a
//! 39th output ("not a tile") also vetoes detector boxes that are not tiles.
//!
//! [`runtime`] finds and loads the ONNX Runtime library and the model files, [`picture`] owns
//! decoding and pixel work, [`layout`] turns detections into a hand.

pub mod annotate;
pub mod layout;
pub mod picture;
pub mod runtime;
mod sight;

use crate::tile::{Kind, Suit, Tile};
use picture::{Reduced, Rgb, RotatedBox};
use serde::Serialize;
use sight::{Seen, Sight};
use thiserror::Error;

/// What went wrong while recognizing.
#[derive(Debug, Error)]
pub enum VisionError {
    #[error("ONNX Runtime library not found (looked in: {looked}). Run scripts/setup.sh, which installs it from the PyPI wheel onnxruntime==1.31.1, or set ORT_DYLIB_PATH to libonnxruntime.so.1.31.1")]
    LibraryNotFound { looked: String },
    #[error("could not load the ONNX Runtime library {path}: {message}")]
    LibraryLoad { path: String, message: String },
    #[error("model file {path} not found; set RIICHI_LENS_MODELS to the folder holding tile_detector.onnx and tile_classifier.onnx")]
    ModelNotFound { path: String },
    #[error("ONNX Runtime error: {0}")]
    Runtime(String),
    #[error("the model output is not what the model card describes: {0}")]
    BadModelOutput(String),
    #[error("cannot read {path}: {message}")]
    Io { path: String, message: String },
    #[error("cannot decode the image: {0}")]
    Decode(String),
    #[error(
        "image of {width}×{height} pixels is too large (limit {} a side)",
        picture::MAX_SIDE
    )]
    TooLarge { width: u32, height: u32 },
}

impl From<ort::Error> for VisionError {
    fn from(e: ort::Error) -> VisionError {
        VisionError::Runtime(e.to_string())
    }
}

/// The classifier's 38 classes in output order: 1m–9m, 1p–9p, 1s–9s, East South West North
/// white green red, red 5m 5p 5s, back.
pub const CLASS_COUNT: usize = 38;
const BACK_CLASS: usize = 37;

/// What a classifier class stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Face {
    Tile(Tile),
    /// A face-down tile (the ends of a closed kan).
    Back,
}

impl Face {
    /// Whether the face looks alike a quarter turned (1p, 4p, 5p, 9p, a white dragon, a back),
    /// so that the classifier cannot tell which way it lies.
    pub fn looks_alike_turned(self) -> bool {
        match self {
            Face::Back => true,
            Face::Tile(t) => {
                let kind = t.kind();
                kind == Kind::HAKU
                    || (kind.suit() == Suit::Pin && matches!(kind.number(), 1 | 4 | 5 | 9))
            }
        }
    }

    /// The face of class `index`.
    pub fn from_class(index: usize) -> Option<Face> {
        match index {
            0..=26 => {
                let suit = [Suit::Man, Suit::Pin, Suit::Sou][index / 9];
                Some(Face::Tile(Tile::plain(Kind::new(
                    suit,
                    (index % 9) as u8 + 1,
                )?)))
            }
            27..=33 => Some(Face::Tile(Tile::plain(Kind::from_index(index)?))),
            34..=36 => {
                let suit = [Suit::Man, Suit::Pin, Suit::Sou][index - 34];
                Some(Face::Tile(Tile::red(Kind::new(suit, 5)?)?))
            }
            BACK_CLASS => Some(Face::Back),
            _ => None,
        }
    }

    /// The class index of this face.
    pub fn class(self) -> usize {
        match self {
            Face::Back => BACK_CLASS,
            Face::Tile(t) if t.is_red() => 34 + t.kind().index() / 9,
            Face::Tile(t) => t.kind().index(),
        }
    }

    /// The tile kind shown; none for a back.
    pub fn kind(self) -> Option<Kind> {
        match self {
            Face::Tile(t) => Some(t.kind()),
            Face::Back => None,
        }
    }

    /// Notation: `5p`, `0p`, `1z`, or `back`.
    pub fn notation(self) -> String {
        match self {
            Face::Back => "back".into(),
            Face::Tile(t) => t.to_string(),
        }
    }
}

impl Serialize for Face {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.notation())
    }
}

/// The detector score given to a tile read at a place where the detector drew no box (see
/// [`Detection::detector_score`]).
pub(crate) const PLACE_SCORE: f32 = 0.0;

/// One detected tile.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Detection {
    /// The most probable face.
    pub tile: Face,
    /// Axis-aligned `[x1, y1, x2, y2]` in image pixels.
    #[serde(rename = "box")]
    pub bounds: [f32; 4],
    /// The classifier's probability of `tile`.
    pub confidence: f32,
    /// Lying across the row (a called tile), decided by the layout step.
    pub sideways: bool,
    /// The detector's score; [`PLACE_SCORE`] for a tile the detector drew no box over, read
    /// where the hand says one lies (a gap of the concealed row, an added kan's stacked pair).
    pub detector_score: f32,
    /// The rotated rectangle.
    #[serde(skip)]
    pub rotated: RotatedBox,
    /// Probability of every class, in class order.
    #[serde(skip)]
    pub probs: [f32; CLASS_COUNT],
    /// The tile read both ways against the hand's row, for the layout step to settle which
    /// way it lies; `None` when only one reading was made.
    #[serde(skip)]
    pub turned: Option<Box<Turned>>,
}

/// A tile classified twice, with its up axis snapped to the hand's up axis and across it.
///
/// The detector's angle alone is not enough to tell a called tile: on a sideways tile it often
/// lands between the two axes, or on the neighbours' axis. The classifier, which only ever saw
/// tiles upright (or upside down), reads the right orientation far more confidently, so the
/// ratio of the two readings is the main evidence, with the detector's angle as a tie-break.
/// A box off both axes (a loose tile at an angle) is also read along its own angle and a
/// quarter turn from it, and each orientation keeps its more confident reading.
#[derive(Clone, Debug, PartialEq)]
pub struct Turned {
    /// Positive when the tile more likely lies sideways.
    pub evidence: f32,
    pub upright: [f32; CLASS_COUNT],
    pub sideways: [f32; CLASS_COUNT],
    /// The "not a tile" probability of the upright reading and of the sideways one (0 from a
    /// 38-output classifier).
    pub not_tile: [f32; 2],
}

impl Turned {
    /// Whether the reading the tile is laid by says "not a tile" at least `threshold` (see
    /// [`PhotoReading::lay_out`]).
    fn laid_not_a_tile(&self, sideways: bool, threshold: f32) -> bool {
        self.not_tile[usize::from(sideways)] >= threshold
    }
}

/// How far off the faces' tint (see [`picture::tint_difference`]) a dora indicator the detector
/// scored under [`OFF_TINT_SCORE`] may be before [`Recognizer::drop_off_tint_dora`] drops it. Of
/// the 6,381 dora indicators read on the held-out fixtures (seeds 8-127, other art 8-97), the
/// real ones lay at most 0.05 off at the 99th percentile, the farthest 9p (its dense pips) 0.30
/// off; of the 18 false ones, a black card read as an 8p 0.41, a letter of the table's pattern
/// read as a 2p 0.33. From 0.15 with a score under 0.5, 7 false ones and no real one.
const OFF_TINT: f32 = 0.15;
const OFF_TINT_SCORE: f32 = 0.5;
/// How light a dora indicator's face must be, over the faces' (brightest channel), not to be
/// dropped by [`Recognizer::drop_off_tint_dora`] when the detector scored it under
/// [`OFF_TINT_SCORE`]. Of the held-out fixtures' 6,345 real indicators the darkest was 0.56
/// (an 8p of a steep shot, its pips filling the face); a grid of black keys read as a 6s, 0.29.
const DARK_DORA: f32 = 0.45;

/// The blank face a set with ivory backs shares with its backs.
const WHITE_DRAGON: Face = Face::Tile(Tile::plain(Kind::HAKU));
/// How likely a white dragon a tile read as a back must be for [`Detection::pale_back`].
const PALE_BACK: f32 = 0.1;

/// How many times surer the reading across the way the layout lays a tile must be for
/// [`Detection::lay_as`] to keep that reading's face.
const FORCED_READING_RATIO: f32 = 4.0;

/// Weight of the detector's angle against the classifier's log-ratio in [`Turned::evidence`]:
/// an angle fully across the row adds this much.
const ANGLE_WEIGHT: f32 = 0.4;
/// Up to this far off an axis, the detector's own box is kept for the crop: in tilted and
/// perspective photos single tiles are legitimately a little off the hand's axis.
const SNAP_TOLERANCE: f32 = 15.0 * std::f32::consts::PI / 180.0;

/// A box this many times its upright neighbours' extent along the up axis and across it is the
/// size of two sideways tiles stacked on each other (an added kan): about two tile widths along
/// the up axis, one tile height across it. The detector often draws the pair's box short, 1.19
/// times a tile along the up axis in two held-out fixtures, while single upright tiles reach
/// 1.11: from 1.15 (the classifier's check of the halves kept every single tile of the
/// held-out fixtures whole, and split one at 1.05; model card, "Faint boxes that complete the
/// hand").
const STACK_ALONG: std::ops::RangeInclusive<f32> = 1.15..=1.9;
const STACK_ACROSS: std::ops::RangeInclusive<f32> = 1.0..=1.7;
/// The nearest upright boxes a box is measured against. They must form a row with it: centres
/// at most `STACK_ROW_OFFSET` of their height apart along the up axis and `STACK_REACH` of their
/// width away, heights within `STACK_ROW_SPREAD` of each other. Loose tiles, whose neighbours
/// are at other distances from the camera, are left alone.
const STACK_NEIGHBOURS: usize = 3;
const STACK_ROW_OFFSET: f32 = 0.6;
const STACK_REACH: f32 = 3.5;
const STACK_ROW_SPREAD: f32 = 1.25;
/// Both halves of a stacked pair must read as the same tile at least this confidently, and
/// neither be "not a tile" this much: halves of one upright tile can read as one tile too (a
/// 4p's halves look like sideways 2p), only less surely.
const STACK_CONFIDENCE: f32 = 0.8;
const STACK_NOT_TILE: f32 = 0.3;
/// How sure both tiles read where an added kan's stacked pair would lie on a pon must be (see
/// [`Recognizer::stack_added_tiles`]): less than [`STACK_CONFIDENCE`], as the upper tile, seen
/// past the lower one in a steep shot, reads less surely (0.75 in seed 36's 19-any-steep with
/// the version-12 classifier), and the place is known from the pon. On the 1,800 held-out
/// fixtures (seeds 8-67, and 8-37 in other art) 0.7 read that one more exactly and none worse
/// than 0.8 (model card, "Version 12 classifier").
const ADDED_CONFIDENCE: f32 = 0.7;

/// Two boxes over the two halves of one sideways tile (the detector sometimes draws a box
/// over each half of a called tile, and each half of a sideways 4p looks like an upright 2p).
/// Measured against the nearest upright boxes' extents along the hand's up axis (`long`) and
/// across it (`short`), their union must have a sideways tile's: across the up axis a tile
/// seen at its full length, about 1.35 widths (the halves of seeds 14's, 18's and 26's called
/// 4p measured 1.52–1.57; two upright neighbours whose boxes overlap, 1.65 and more), along it
/// a width foreshortened as an upright tile's height is. The two boxes must overlap across the
/// up axis by `PART_OVERLAP` of the narrower one (neighbours' boxes meet), each cover at most
/// `PART_AREA` of the union, and the union read as a tile at least `PART_CONFIDENCE` sure (and
/// "not a tile" under [`STACK_NOT_TILE`]).
const PART_ACROSS: std::ops::RangeInclusive<f32> = 1.2..=1.6;
const PART_ALONG: std::ops::RangeInclusive<f32> = 0.7..=1.1;
const PART_OVERLAP: f32 = 0.15;
const PART_AREA: f32 = 0.8;
const PART_CONFIDENCE: f32 = 0.9;

/// A box whose long side is at most `PART_LONG` of its neighbourhood's tiles' (see
/// [`tile_size`]) and whose area at most `PART_AREA_MAX` of theirs, but not under
/// `PART_AREA_MIN`, may be a part of one upright tile: the detector draws a box over one half
/// of a 4p, or over each, and each half reads as a 2p (held-out fixtures seed 14's
/// 11-closed-kan-tilted, seed 33's 12-red-tilted, halves 0.70-0.77 of a tile's long side). A
/// sideways tile has a whole tile's sides, so it is left alone. The part is replaced by the
/// whole tile reaching from one of its ends when that reads as a tile [`PART_CONFIDENCE`] sure.
const PART_LONG: f32 = 0.9;
const PART_AREA_MAX: f32 = 0.8;
const PART_AREA_MIN: f32 = 0.25;
/// The shifts across the hand's up axis, in box widths, at which
/// [`Recognizer::shift_boxes_beside`] reads a tile's box again.
const BESIDE_SHIFTS: [f32; 4] = [-0.3, -0.2, 0.2, 0.3];
/// Under how sure "not a tile" a box moved by [`Recognizer::shift_boxes_beside`] must read: the
/// 4s and 4p found beside their boxes in held-out seeds 8-97 read 0.006-0.098.
const BESIDE_NOT_TILE: f32 = 0.1;
/// The boxes a box's tile size is measured on (see [`tile_size`]): its nearest ones, at least
/// `SIZE_MIN_NEAR` of them within `SIZE_REACH` of its own long side.
const SIZE_NEAR: usize = 6;
const SIZE_MIN_NEAR: usize = 3;
const SIZE_REACH: f32 = 4.0;

impl Detection {
    /// Lays the tile upright or sideways, taking the matching reading when both were made.
    pub fn set_sideways(&mut self, sideways: bool) {
        self.sideways = sideways;
        if let Some(turned) = &self.turned {
            self.probs = if sideways {
                turned.sideways
            } else {
                turned.upright
            };
            let best = best_class(&self.probs);
            self.tile = Face::from_class(best).unwrap_or(Face::Back);
            self.confidence = self.probs[best];
        }
    }

    /// Lays the tile the way its place in the hand says (see [`Detection::set_sideways`]), but
    /// keeps the face read the other way when that reading is [`FORCED_READING_RATIO`] times as
    /// sure or more: the layout's rules assume a hand laid out as players show it, and where a
    /// photo is not (a pile, a stack, a row seen from its end) they would otherwise trade a sure
    /// face for a doubtful one.
    pub fn lay_as(&mut self, sideways: bool) {
        let read_sideways = match &self.turned {
            Some(turned) => {
                let (laid, other) = if sideways {
                    (&turned.sideways, &turned.upright)
                } else {
                    (&turned.upright, &turned.sideways)
                };
                sideways != (top_probability(other) >= FORCED_READING_RATIO * top_probability(laid))
            }
            None => sideways,
        };
        self.set_sideways(read_sideways);
        self.sideways = sideways;
        // A face that looks alike a quarter turned is as sure as its surer reading: only which
        // way it lies is in doubt, and the layout decided that.
        if let (Some(turned), true) = (&self.turned, self.tile.looks_alike_turned()) {
            let other = if read_sideways {
                &turned.upright
            } else {
                &turned.sideways
            };
            let best = best_class(other);
            if Face::from_class(best) == Some(self.tile) {
                self.confidence = self.confidence.max(other[best]);
            }
        }
    }

    /// Lays the tile the way its two readings lean (see [`Turned::evidence`]), as it was read
    /// before a layout laid it; a tile read one way only is left as it lies.
    pub fn lay_as_read(&mut self) {
        if let Some(evidence) = self.turned.as_ref().map(|t| t.evidence) {
            self.set_sideways(evidence > 0.0);
        }
    }

    /// Whether the tile was read at a place where the detector drew no box.
    pub fn read_at_a_place(&self) -> bool {
        self.detector_score == PLACE_SCORE
    }

    /// Whether the top reading is a white dragon, whose blank face a set with ivory backs
    /// shares with its backs: only the tile's place tells them apart.
    pub fn reads_blank(&self) -> bool {
        self.tile == WHITE_DRAGON
    }

    /// Whether the top reading is a back that reads as a white dragon 0.1 likely or more
    /// (`PALE_BACK`): a pale back, which the classifier tells from a blank face only by its
    /// tint.
    pub fn pale_back(&self) -> bool {
        self.tile == Face::Back && self.probs[WHITE_DRAGON.class()] >= PALE_BACK
    }

    /// How likely the face is blank, a white dragon or a back: a set with ivory backs shares
    /// the one face with the other.
    pub fn blank_probability(&self) -> f32 {
        self.probs[WHITE_DRAGON.class()] + self.probs[BACK_CLASS]
    }

    /// Takes a blank face for a back of an ivory-backed set, laid upright: the classifier's
    /// confidence is then its probability of either blank.
    pub fn read_as_back(&mut self) {
        self.confidence = self.blank_probability();
        self.tile = Face::Back;
        self.sideways = false;
        // A later lay_as must not read the face again.
        self.turned = None;
    }

    /// Takes a blank face read as a back for a white dragon laid upright (one shown among the
    /// dead wall's backs, see `Recognizer::find_blank_dora_among_backs`): the confidence is
    /// then the probability of either blank.
    pub fn read_as_white_dragon(&mut self) {
        self.read_as_back();
        self.tile = WHITE_DRAGON;
    }

    /// Moves the detection from the pixels of an image to those of one `k` times its size.
    pub fn scale(&mut self, k: f32) {
        self.rotated = self.rotated.scaled(k);
        self.bounds = self.rotated.bounds();
    }

    /// Moves the box from its photo turned by `turn` back to where it lies in the photo, the
    /// turned photo spanning `extent` of the box's pixels (see [`Turn::undo_box`]).
    fn undo_turn(&mut self, turn: Turn, extent: (f32, f32)) {
        self.rotated = turn.undo_box(&self.rotated, extent);
        self.bounds = self.rotated.bounds();
    }

    /// Faces by decreasing probability.
    pub fn ranked(&self) -> Vec<(Face, f32)> {
        let mut ranked: Vec<(Face, f32)> = (0..CLASS_COUNT)
            .filter_map(|i| Face::from_class(i).map(|f| (f, self.probs[i])))
            .collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1));
        ranked
    }
}

/// Detection thresholds; the defaults are the model card's.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Detector score needed to keep a peak.
    pub score_threshold: f32,
    /// Detector input long side.
    pub input_long_side: u32,
    /// A box is dropped when the classifier's "not a tile" output (its 39th, where it has one)
    /// averages this or more over the box's two readings (or over either pair, for a box also
    /// read along its own angle).
    pub not_tile_threshold: f32,
    /// Far shots: when the median shorter side of the boxes found at `input_long_side` is under
    /// this many input pixels, the detector runs again on a larger input (see [`zoomed_long_side`]).
    pub zoom_below: f32,
    /// The median shorter side, in input pixels, the second pass aims for.
    pub zoom_target: f32,
    /// The largest input long side the second pass may use.
    pub zoom_max_long_side: u32,
    /// The second pass runs on the part of its input around the first pass's boxes: their
    /// bounding rectangle grown by this many times the median box's long side (see
    /// [`zoom_window`]); 0 runs it on the whole input.
    pub zoom_margin: f32,
    /// A face reading (not a back) whose face is darker than this share of the photo's median
    /// face (see [`picture::face_value`]) and whose confidence is under `dark_face_confidence`
    /// is dropped (see [`drop_dark_faces`]); 0 turns the rule off.
    pub dark_face_ratio: f32,
    /// Confidence from which a dark face is kept all the same.
    pub dark_face_confidence: f32,
    /// A box whose readings all fall under [`Settings::read_turn_below`] is read again turned
    /// this much (radians) either way, and the surest of each crop's three readings is kept; 0
    /// reads each crop once.
    pub read_turn: f32,
    /// See [`Settings::read_turn`].
    pub read_turn_below: f32,
    /// Detector peaks from this score up to `score_threshold` are kept aside as faint boxes:
    /// when the sure boxes do not make a complete hand, one of them that does is added (see
    /// [`Recognizer::complete_hand`]); 0 (or anything at or over `score_threshold`) turns it off.
    pub faint_threshold: f32,
    /// Detector peaks from this score are read too when a complete hand was read without a
    /// dora indicator, for a white dragon shown alone (see [`Recognizer::find_blank_dora`]);
    /// 0 turns that off, and the look for a white dragon indicator among the dead wall's
    /// backs (`Recognizer::find_blank_dora_among_backs`) with it.
    pub blank_dora_threshold: f32,
    /// A faint box where no tile was read is a tile after all when the classifier reads it as a
    /// face (not a back, not a blank white dragon) at least this sure, and as "not a tile"
    /// under [`FAINT_NOT_TILE`] (see [`Recognizer::keep_sure_faint`]); over 1 turns it off.
    pub faint_sure: f32,
    /// When neither the sure nor the faint boxes make a complete hand, the gaps of the hand
    /// row and the places just beyond its ends are read for a missing tile (see
    /// `Recognizer::fill_row_gaps`); when they do, the places of a pon's fourth tile and the
    /// dead wall's gaps are read for a kan and a dora indicator the detector drew no box over
    /// (`Recognizer::fill_kan_gaps`, `Recognizer::fill_wall_gaps`).
    pub row_gaps: bool,
    /// When a photo's tiles do not make a complete hand, it is detected and read again with
    /// the second detector (`tile_detector_second.onnx`, where the models folder holds one),
    /// and that reading is kept when its hand is complete (see [`Recognizer::read_photo`]).
    pub second_opinion: bool,
    /// A photo whose tile faces' brightest channel is under this (0–255) is brightened until
    /// it is `light_floor`, and read again (see [`picture::light_gains`]); 0 turns it off.
    pub dim_below: f32,
    /// See [`Settings::dim_below`].
    pub light_floor: f32,
    /// A photo whose tile faces' dimmest channel is under this share of their brightest
    /// (warm or coloured light) has that channel raised to it, and is read again; 0 turns it
    /// off.
    pub tint_floor: f32,
    /// A photo whose darkest level (see [`Rgb::black_levels`]) is at least this in every
    /// channel, a veil of light over it, is read with that veil taken off down to
    /// [`CLEAR_BLACK`] ([`Rgb::with_black`]); 0 (or over 254) turns it off.
    pub haze_black: f32,
    /// A photo whose tile faces' brightest channel is under this (0–255), darker than the
    /// models were trained on, is brightened as [`Settings::dim_below`] says even when its
    /// tiles already lay out a complete hand; 0 turns it off.
    pub dark_below: f32,
    /// A photo brightened for being darker than [`Settings::dark_below`] whose noise so
    /// brightened (see [`Rgb::noise_level`], times the mean gain) is above this many grey
    /// levels is smoothed ([`Rgb::smoothed`]) before it is read; 0 smooths every such photo.
    pub smooth_noise_above: f32,
    /// A photo whose tile faces are clipped at white, their dimmest channel at least this
    /// (0–255) as an overexposed photo's are, is detected and read again with its levels
    /// darkened, and the better of the two readings kept (see [`Recognizer::read_darkened`]);
    /// 0 (or over 255) turns it off.
    pub clipped_above: f32,
}

/// [`Recognizer::read_encoded`] first decodes a large JPEG reduced to no less than this long
/// side: a hand whose tiles are 1/30 of the photo's long side still gets crops at full detail,
/// so the second decode is for far shots only.
pub const READ_LONG_SIDE: u32 = 1440;

/// Decodes a photo for reading: a large JPEG at the reduction [`READ_LONG_SIDE`] allows, for
/// [`Recognizer::read_reduced`].
pub fn decode_for_reading(bytes: &[u8]) -> Result<Reduced, VisionError> {
    Reduced::decode(bytes, 8, READ_LONG_SIDE)
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            score_threshold: 0.30,
            input_long_side: 640,
            not_tile_threshold: 0.8,
            zoom_below: 22.0,
            zoom_target: 26.0,
            zoom_max_long_side: 1024,
            // A far shot's hand fills a small part of the frame, and the second pass over the
            // whole enlarged frame cost as much as the rest of the reading.
            zoom_margin: 3.0,
            dark_face_ratio: 0.6,
            // A keycap read as a tile is seldom sure, a tile in a shadow usually is. With the
            // version-12 classifier, 0.8 made the fewest errors on the synthetic test sets (a
            // line of 0.6 to 0.9 measured; 0.7 tied, and the eval photos' keys, read at 0.72 to
            // 0.79, chose between the two).
            dark_face_confidence: 0.8,
            // The detector's angle is often some degrees off the tile's, and the classifier
            // misreads a tile turned that much. Measured on the synthetic test sets, 8° and 12°
            // either way fixed about as many tiles (errors 332 → 306 both on one set).
            read_turn: 8.0f32.to_radians(),
            // Sure readings are seldom changed by the turned ones: measured on the synthetic
            // test sets, reading again only the boxes under 0.9 (a fifth to a third of them)
            // kept the gain of reading every box again to within 0.06 points of tiles.
            read_turn_below: 0.9,
            faint_threshold: 0.08,
            // The faint boxes of the four synthetic test sets, each read once along its own
            // angle by the reference pipeline: from 0.95, 14 missed tiles found for one false
            // tile, none misread (0.9: 17 found and 1 misread; 0.98: 9 found). The two blank
            // faces are left out as a set's ivory backs read as white dragons.
            faint_sure: 0.95,
            // A white dragon shown alone above the hand scores 0.05-0.2 at the detector (ten of
            // the held-out fixtures, seeds 8-67; three of them under 0.08). From 0.05 the faint
            // boxes' other uses made a dim fixture's dora indicators one too many (a 9p read
            // 0.95 sure), so they keep to `faint_threshold`.
            blank_dora_threshold: 0.05,
            row_gaps: true,
            second_opinion: true,
            // The synthetic scenes' faces are more tinted than real photos' (the roboflow
            // photos' dimmest channel never under 0.88 of the brightest), a quarter of them
            // beyond 0.8, and read as well lifted to it; in warm light the models read white
            // dragons as backs and misread tiles unless lifted. Faces darker than 110 (95 % of
            // the synthetic scenes' are lighter; no real photo we have comes near) are brightened
            // to 150 unless the photo already reads a complete hand: dimmed to 0.3, the fixtures
            // read 20 of 20 (17 unlifted), and no held-out fixture reads worse (model card, "a
            // dim-light trigger").
            dim_below: 110.0,
            light_floor: 150.0,
            tint_floor: 0.8,
            // The synthetic scenes' blacks reach about 50-60 (the generator's contrast and
            // offset), and the models read them as they are: taken off from 48 or 64, or down
            // to 0 from 72, the veil cost the synthetic test set 0.2-0.4 points. From 72 down
            // to `CLEAR_BLACK` it costs none, and held-out fixtures seen through a veil of 0.4
            // read 385 of 400 exactly (357 as they are; model card, "Photos under a veil").
            haze_black: 72.0,
            // Darker than the synthetic scenes' faces go (about 80), a complete hand read as it
            // is was too often a wrong one: held-out fixtures dimmed to 0.25 read 381 of 400
            // exactly lifted whatever they read, 367 lifted only when incomplete (model card,
            // "Photos in deep shade").
            dark_below: 80.0,
            // Brightened, held-out seed 40's fixtures dimmed to 0.25 measure 0.3-1.7, dimmed to
            // 0.3 with noise of 4 levels 2-10, to 0.25 with noise of 6 5-18; seed 14's dim shot
            // 15-two-melds-dim as rendered 1.1. Smoothed over 3, those noisy ones read 384 and
            // 372 of 400 exactly rather than 380 and 347; smoothed always, the clean ones lost
            // detail (a 4p read as a 2p; model card, "Photos in deep shade").
            smooth_noise_above: 3.0,
            // Faces' dimmest channel, measured on the labelled boxes: 64 of the 4,220 held-out
            // fixtures as rendered reach 250 (130 reach 245, and read exactly either way), 323
            // of seeds 38-57's 400 shot at 1.5 times their light. 240 read those 400 no better
            // (model card, "Overexposed photos").
            clipped_above: 250.0,
        }
    }
}

impl Settings {
    /// The lowest detector score [`Recognizer::detect_at`] keeps.
    fn lowest_score(&self) -> f32 {
        [self.faint_threshold, self.blank_dora_threshold]
            .into_iter()
            .filter(|&t| t > 0.0)
            .fold(self.score_threshold, f32::min)
    }

    /// Whether a faint box of detector score `score` serves the rules other than
    /// [`Recognizer::find_blank_dora`].
    fn faint_enough(&self, score: f32) -> bool {
        self.faint_threshold > 0.0 && score >= self.faint_threshold
    }
}

/// The black a veiled photo's darkest level is taken down to (see [`Settings::haze_black`]):
/// within the synthetic scenes' range, where the models read as well as in clear photos.
pub const CLEAR_BLACK: f32 = 32.0;

/// The power an overexposed photo's levels are raised to before it is read again (see
/// [`Recognizer::read_darkened`]): white stays white and the paled ink darkens most. Held-out
/// seeds 38-57 shot at 1.5 times their light read 358 of 400 exactly darkened to the power
/// 1.5, 364 to 2, 363 to 2.5 and to 3 (352 as they are).
pub const OVEREXPOSED_GAMMA: f32 = 2.0;

/// The file name of the second detector, which reads a photo again when the first detector's
/// boxes make no complete hand (see [`Settings::second_opinion`]). Optional.
pub const SECOND_DETECTOR: &str = "tile_detector_second.onnx";

/// The fewest tiles a first reading must hold for the second detector to be asked: a hand
/// shows fourteen or more, and the second detector finds a tile or three the first missed,
/// not five (the held-out hands it completes were read with 17 to 23 tiles). A live view of a
/// table with a few tiles on it is then read once.
const SECOND_OPINION_TILES: usize = 10;

/// The most frames in a row a live view reads without asking the second detector again about
/// a first reading it declined to improve (see [`Recognizer::read_frame`]): under a second of
/// a live view here, so a hand that the second detector would now complete (the
/// light changed, the camera settled) waits for it no longer than that.
pub const SECOND_OPINION_REMEMBERED: usize = 15;

/// A first reading's rank: a complete hand beats an incomplete one, and one with a yaku one
/// without.
fn rank(reading: &PhotoReading) -> u8 {
    match &reading.hand {
        Some(h) if h.complete => 1 + u8::from(h.has_a_yaku()),
        _ => 0,
    }
}

/// What became of the second detector's opinion on one frame (see [`Recognizer::read_frame`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SecondOpinion {
    /// Not asked: the first reading is complete with a yaku, holds too few tiles, or the
    /// second detector is off or missing.
    NotAsked,
    /// Asked, and its reading kept.
    Taken,
    /// Asked, and the first reading kept.
    Declined,
    /// Not asked: it declined the same first reading on an earlier frame.
    Remembered,
}

/// The most first readings a live view remembers as declined at once (see [`LiveMemo`]): a
/// camera's noise can make a borderline box come and go from frame to frame, so one still hand
/// may read two or three ways in turn.
const DECLINED_READINGS: usize = 4;

/// What a live view remembers from frame to frame: the first readings the second detector
/// declined to improve, the latest first, each with the frames since it was last asked.
#[derive(Clone, Debug, Default)]
pub struct LiveMemo {
    declined: Vec<(Vec<(Face, bool)>, usize)>,
}

impl LiveMemo {
    /// What two first readings must share to count as the same: their faces and which lie
    /// sideways, in any order (boxes move by a pixel from frame to frame).
    fn key(reading: &PhotoReading) -> Vec<(Face, bool)> {
        let mut key: Vec<(Face, bool)> =
            reading.tiles.iter().map(|d| (d.tile, d.sideways)).collect();
        key.sort_unstable();
        key
    }

    /// Whether `key` is a declined reading, not yet skipped [`SECOND_OPINION_REMEMBERED`]
    /// times; counts this skip.
    fn remembers(&mut self, key: &[(Face, bool)]) -> bool {
        match self.declined.iter_mut().find(|(k, _)| k == key) {
            Some((_, skipped)) if *skipped < SECOND_OPINION_REMEMBERED => {
                *skipped += 1;
                true
            }
            _ => false,
        }
    }

    /// Remembers `key` as declined, not yet skipped, forgetting the oldest beyond
    /// [`DECLINED_READINGS`].
    fn decline(&mut self, key: Vec<(Face, bool)>) {
        self.forget(&key);
        self.declined.insert(0, (key, 0));
        self.declined.truncate(DECLINED_READINGS);
    }

    /// Forgets `key`, whose reading the second detector completed.
    fn forget(&mut self, key: &[(Face, bool)]) {
        self.declined.retain(|(k, _)| k != key);
    }
}

/// The most threads a model is read on: a detector's ONNX Runtime threads, the classifier's
/// copies (see [`Recognizer::load`]). On the 2-core reference machine two threads read a 720p
/// frame in 0.7–0.9 of one's time in the runs of 2026-11-29 (README, "Throughput and
/// recognition speed"); more were never measured.
pub const MOST_THREADS: usize = 2;

/// Threads per model for reading one photo at a time: the machine's cores, at most
/// [`MOST_THREADS`]. Reading many photos (`riichi-lens batch`) gives each worker one thread
/// instead.
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get().min(MOST_THREADS))
}

/// The loaded models.
pub struct Recognizer {
    detector: ort::session::Session,
    /// See [`SECOND_DETECTOR`].
    second_detector: Option<ort::session::Session>,
    /// The classifier once for each thread, each with one ONNX Runtime thread: a batch is
    /// shared out between them (see [`Recognizer::classify_crops`]).
    classifiers: Vec<ort::session::Session>,
    /// Whether crops are cut on rayon's threads too: when the models were given more than
    /// one thread, the frame is meant to use them all.
    parallel_crops: bool,
    pub settings: Settings,
}

impl Recognizer {
    /// Loads the models from `models_dir` (see [`runtime::models_dir`]): the detectors with
    /// `threads` intra-op threads each, the classifier `threads` times with one each (see
    /// [`Recognizer::classify_crops`]).
    pub fn load(models_dir: &std::path::Path, threads: usize) -> Result<Recognizer, VisionError> {
        let env = runtime::environment()?;
        let open = |name: &str, threads: usize| -> Result<ort::session::Session, VisionError> {
            let path = models_dir.join(name);
            if !path.is_file() {
                return Err(VisionError::ModelNotFound {
                    path: path.display().to_string(),
                });
            }
            Ok(ort::session::Session::builder(env)?
                .with_intra_threads(threads)
                .map_err(|e| VisionError::Runtime(e.to_string()))?
                .with_inter_threads(1)
                .map_err(|e| VisionError::Runtime(e.to_string()))?
                // Between the operators of a run, the detector's pool thread spins rather than
                // sleeps: woken from sleep for each of them, two threads ran the detector no
                // faster than one. At the end of a run it is stopped (`force_spinning_stop`):
                // left spinning, it kept a core busy for a while after each run, and the
                // classifier copies and crop cutting that follow took twice as long (README,
                // "Throughput and recognition speed", 2026-11-29).
                .with_intra_op_spinning(threads > 1)
                .map_err(|e| VisionError::Runtime(e.to_string()))?
                .with_config_entry("session.force_spinning_stop", "1")
                .map_err(|e| VisionError::Runtime(e.to_string()))?
                .commit_from_file(&path)?)
        };
        let second_detector = if models_dir.join(SECOND_DETECTOR).is_file() {
            Some(open(SECOND_DETECTOR, threads)?)
        } else {
            None
        };
        // The detector first: a folder without models is reported by its first file.
        let detector = open("tile_detector.onnx", threads)?;
        let classifiers = (0..threads.max(1))
            .map(|_| open("tile_classifier.onnx", 1))
            .collect::<Result<_, _>>()?;
        Ok(Recognizer {
            detector,
            second_detector,
            classifiers,
            parallel_crops: threads > 1,
            settings: Settings::default(),
        })
    }

    /// Loads from the default models folder with [`default_threads`] threads per model.
    pub fn load_default() -> Result<Recognizer, VisionError> {
        Recognizer::load(&runtime::models_dir()?, default_threads())
    }

    /// Detects and classifies every tile in an image. Each tile is read upright and sideways
    /// against the hand's up axis (see [`Turned`]); `sideways` starts from that evidence and the
    /// layout step settles it.
    pub fn recognize(&mut self, image: &Rgb) -> Result<Vec<Detection>, VisionError> {
        let found = self.detect(image)?;
        Ok(self.read_in_light(&mut Sight::of(image), found)?.read.tiles)
    }

    /// Reads `found`'s sure boxes in `image`; when the tiles' faces are more tinted (or darker)
    /// than the models were trained on (see [`picture::light_gains`]), detects and reads the
    /// photo again with its light lifted, and returns that photo too. The faint boxes returned
    /// are those of the photo read.
    ///
    /// A photo that is only dark, not tinted, is read as it is when its tiles already lay out
    /// a complete hand: the models read many dark photos well (the synthetic scenes go down to
    /// faces at 80), and brightening one amplifies its noise, which made a dark held-out
    /// fixture that read exactly read wrong (model card, "a dim-light trigger"). A warm photo
    /// is lifted whatever it reads, as it misreads tiles into complete but false hands. So is
    /// one darker than the synthetic scenes (see [`Settings::dark_below`]), where a complete
    /// hand read as it is often lacks dead wall backs or holds a misread tile; there the
    /// reading as it is is kept when it lays out a complete hand and the brightened one does
    /// not, and a noisy one is smoothed (see [`Settings::smooth_noise_above`]).
    ///
    /// A photo under a veil of light (see [`Settings::haze_black`]) is detected and read with
    /// the veil taken off instead, whatever it reads as it is (see
    /// [`Recognizer::read_through_veil`]): a veil makes complete but false hands too. A photo
    /// whose faces are clipped at white (see [`Settings::clipped_above`]) is read again
    /// darkened, and the better of the two readings kept (see [`Recognizer::read_darkened`]).
    fn read_in_light<'a>(
        &mut self,
        sight: &mut Sight<'_>,
        found: Found,
    ) -> Result<InLight<'a>, VisionError> {
        if let Some(clear) = self.read_through_veil(sight.image())? {
            return Ok(clear);
        }
        let read = self.read_boxes(sight, found.sure)?;
        if self.clipped(&read) {
            return self.read_darkened(sight, read, found.faint);
        }
        let image = sight.image();
        let Settings {
            dim_below,
            light_floor,
            tint_floor,
            ..
        } = self.settings;
        let gains = read
            .face
            .and_then(|face| picture::light_gains(face, dim_below, light_floor, tint_floor));
        let tinted = read
            .face
            .is_some_and(|face| picture::tinted(face, tint_floor));
        let reads_a_hand = || read.makes_a_hand(image.width, image.height);
        let very_dark = read
            .face
            .is_some_and(|face| picture::brightest_channel(face) < self.settings.dark_below);
        // The sure faint boxes are added once the light is settled: a tile they add may complete
        // a dark photo's hand, which then would not be lifted and read better (fixture
        // 13-closed-dim dimmed to 0.3 lost its set-apart winning tile so).
        let as_is_complete = gains.is_some() && !tinted && reads_a_hand();
        let Some(gains) = gains.filter(|_| tinted || very_dark || !as_is_complete) else {
            return self.read_as_it_is(sight, read, found.faint);
        };
        let (width, height) = (image.width, image.height);
        let mut brightened = image.with_gains(gains);
        // Brightening brightens the noise as much, and a noisy dark photo brightened read
        // worse than as it was until smoothed (model card, "Photos in deep shade").
        let gain = (gains[0] + gains[1] + gains[2]) / 3.0;
        if very_dark && image.noise_level() * gain > self.settings.smooth_noise_above {
            brightened = brightened.smoothed();
        }
        let lifted = self.read_anew(brightened)?;
        // A very dark photo's hand read complete as it is, and not once brightened, lost a
        // tile to the brightened noise more often than the brightening found one.
        if as_is_complete && !lifted.read.makes_a_hand(width, height) {
            return self.read_as_it_is(sight, read, found.faint);
        }
        Ok(lifted)
    }

    /// Detects and reads `image`, the photo changed (its light lifted, a veil taken off),
    /// with the sure faint boxes added; the reading holds `image` as the photo read.
    fn read_anew<'a>(&mut self, image: Rgb) -> Result<InLight<'a>, VisionError> {
        let mut sight = Sight::owning(image);
        let found = self.detect(sight.image())?;
        let mut read = self.read_boxes(&mut sight, found.sure)?;
        let faint = self.keep_sure_faint(&mut sight, &mut read, found.faint)?;
        Ok(InLight {
            read,
            faint,
            lifted: Some(sight),
        })
    }

    /// Whether `read`'s tile faces are clipped at white (see [`Settings::clipped_above`]).
    fn clipped(&self, read: &ReadTiles) -> bool {
        let above = self.settings.clipped_above;
        above > 0.0
            && above <= 255.0
            && read
                .face
                .is_some_and(|face| picture::dimmest_channel(face) >= above)
    }

    /// Reads the photo in `sight`, whose sure boxes read as `read`, again with its levels
    /// raised to the power [`OVEREXPOSED_GAMMA`] (detected anew), and keeps whichever reading
    /// lays out a complete hand where the other does not, else the one whose tiles were read
    /// the more surely on average; each with its sure faint boxes added.
    ///
    /// A webcam that sets its exposure by a dark mat clips the tiles' faces at white and pales
    /// their ink: held-out fixtures shot at 1.5 times their light read 4m as red fives and
    /// backs as white dragons, and missed tiles; darkened, the ink's contrast comes back. A photo
    /// whose faces are white but whose ink is as dark as ever (a few of the synthetic scenes')
    /// reads as well or better as it is, and is kept so: darkened whatever it read, 2 of the
    /// 130 held-out fixtures with faces over 245 were no longer read exactly (model card,
    /// "Overexposed photos").
    fn read_darkened<'a>(
        &mut self,
        sight: &mut Sight<'_>,
        read: ReadTiles,
        faint: Vec<(RotatedBox, f32)>,
    ) -> Result<InLight<'a>, VisionError> {
        let (width, height) = (sight.image().width, sight.image().height);
        let as_it_is = self.read_as_it_is(sight, read, faint)?;
        let darker = self.read_anew(sight.image().with_gamma(OVEREXPOSED_GAMMA))?;
        let darker_better = match (
            as_it_is.read.makes_a_hand(width, height),
            darker.read.makes_a_hand(width, height),
        ) {
            (false, true) => true,
            (true, false) => false,
            _ => darker.read.mean_confidence() > as_it_is.read.mean_confidence(),
        };
        Ok(if darker_better { darker } else { as_it_is })
    }

    /// `read`, the photo's sure boxes read as it is, with the sure faint boxes added (see
    /// [`Recognizer::keep_sure_faint`]).
    fn read_as_it_is<'a>(
        &mut self,
        sight: &mut Sight<'_>,
        mut read: ReadTiles,
        faint: Vec<(RotatedBox, f32)>,
    ) -> Result<InLight<'a>, VisionError> {
        let faint = self.keep_sure_faint(sight, &mut read, faint)?;
        Ok(InLight {
            read,
            faint,
            lifted: None,
        })
    }

    /// Detects and reads `image` with the veil of light over it taken off down to
    /// [`CLEAR_BLACK`] ([`Rgb::with_black`]), when its darkest level is at least
    /// [`Settings::haze_black`] in every channel. A veil (haze, glare over the lens, a webcam's
    /// lifted blacks) pales a set's coloured backs towards a blank face and greys the ink:
    /// held-out fixtures under a veil of 0.4 read dead wall backs as white dragon indicators
    /// and lost tiles, and read as in clear air with it taken off. The detection of the photo
    /// as it is goes unused: a veiled photo costs one detection more.
    fn read_through_veil<'a>(&mut self, image: &Rgb) -> Result<Option<InLight<'a>>, VisionError> {
        let floor = self.settings.haze_black;
        if !(floor > 0.0 && floor <= 254.0) {
            return Ok(None);
        }
        let black = image.black_levels();
        if black.iter().any(|&b| b < floor) {
            return Ok(None);
        }
        self.read_anew(image.with_black(black, CLEAR_BLACK))
            .map(Some)
    }

    /// Reads the faint boxes (the best [`FAINT_TRIED`]) that lie where no tile of `read` was
    /// read, and adds to `read` those that read as a face surely enough (see
    /// [`Settings::faint_sure`]). Returns the faint boxes left.
    ///
    /// The detector scores some tiles low (a loose tile lying at an angle, 0.19 in one of the
    /// evaluation photos), while a crop the classifier reads 0.95 sure as a face and hardly at
    /// all as "not a tile" is seldom clutter. Blank faces are left out: the classifier reads a
    /// set's ivory backs as white dragons that surely.
    fn keep_sure_faint(
        &mut self,
        sight: &mut Sight<'_>,
        read: &mut ReadTiles,
        faint: Vec<(RotatedBox, f32)>,
    ) -> Result<Vec<(RotatedBox, f32)>, VisionError> {
        if self.settings.faint_sure > 1.0 || faint.is_empty() {
            return Ok(faint);
        }
        let apart: Vec<(RotatedBox, f32)> = faint
            .iter()
            .filter(|&&(b, score)| self.settings.faint_enough(score) && apart(&b, &read.tiles))
            .take(FAINT_TRIED)
            .copied()
            .collect();
        if apart.is_empty() {
            return Ok(faint);
        }
        let sure = self.settings.faint_sure;
        let tile_sized = tile_sized(&read.tiles);
        let kept: Vec<Detection> = self
            .read_along(sight, apart, read.up)?
            .into_iter()
            .map(|(d, ..)| d)
            .filter(|d| {
                let laid_not_tile = d
                    .turned
                    .as_ref()
                    .is_some_and(|t| t.laid_not_a_tile(d.sideways, FAINT_NOT_TILE));
                matches!(d.tile, Face::Tile(_))
                    && d.tile != WHITE_DRAGON
                    && d.confidence >= sure
                    && !laid_not_tile
                    && tile_sized(&d.rotated)
            })
            .collect();
        let left = faint
            .into_iter()
            .filter(|(b, _)| !kept.iter().any(|d| d.rotated == *b))
            .collect();
        read.tiles.extend(kept);
        Ok(left)
    }

    /// Classifies detected boxes (see [`Recognizer::recognize`]) against the up axis they give.
    fn read_boxes(
        &mut self,
        sight: &mut Sight<'_>,
        boxes: Vec<(RotatedBox, f32)>,
    ) -> Result<ReadTiles, VisionError> {
        let up = layout::up_axis(&boxes.iter().map(|b| b.0.phi).collect::<Vec<_>>());
        let boxes = self.join_tile_parts(sight, boxes, up)?;
        let boxes = self.join_upright_parts(sight, boxes, up)?;
        let boxes = self.split_stacked_pairs(sight, boxes, up)?;
        let read = self.read_along(sight, boxes, up)?;
        let read = self.shift_boxes_beside(sight, read, up)?;
        // The photo's face colour: the median of its tiles', each channel (backs and all: a
        // photo shows one set, mostly faces).
        let face = (read.len() >= LIGHT_MIN).then(|| {
            std::array::from_fn(|c| {
                picture::percentile(&mut read.iter().map(|r| r.2[c]).collect::<Vec<_>>(), 0.5)
            })
        });
        let read = read.into_iter().map(|(d, value, _)| (d, value)).collect();
        Ok(ReadTiles {
            tiles: drop_dark_faces(&self.settings, read),
            up,
            face,
        })
    }

    /// Reads each box upright and sideways against the hand's `up` axis; the boxes the
    /// classifier calls "not a tile" are dropped. Each detection comes with its face's
    /// brightness and colour (see [`picture::face_value`], [`picture::face_colour`]).
    fn read_along(
        &mut self,
        sight: &mut Sight<'_>,
        boxes: Vec<(RotatedBox, f32)>,
        up: f32,
    ) -> Result<Vec<(Detection, f32, [f32; 3])>, VisionError> {
        let across = up + std::f32::consts::FRAC_PI_2;
        let mut crops: Vec<RotatedBox> = Vec::with_capacity(2 * boxes.len());
        for (b, _) in &boxes {
            crops.extend([crop_along(b, up), crop_along(b, across)]);
        }
        // A box off both axes is usually a loose tile lying at an angle, not a called tile the
        // detector drew askew: a snapped crop shows it turned, which the classifier misreads,
        // so it is also read along its own angle (and a quarter turn from it, for the other
        // orientation) and each orientation keeps the more confident of its two readings.
        let mut own: Vec<Option<usize>> = Vec::with_capacity(boxes.len());
        for (b, _) in &boxes {
            let to_up = layout::axis_difference(b.phi, up);
            let off_axis = to_up.min(layout::axis_difference(b.phi, across)) > SNAP_TOLERANCE;
            own.push(off_axis.then_some(crops.len()));
            if off_axis {
                let turned = b.quarter_turned();
                if to_up < std::f32::consts::FRAC_PI_4 {
                    crops.extend([*b, turned]);
                } else {
                    crops.extend([turned, *b]);
                }
            }
        }
        // Each box's two crops come first, the first along the up axis, whose face the
        // dark-face rule measures.
        let paired = 2 * boxes.len();
        let seen = self.read_turned(sight, &crops, |i| i < paired && i % 2 == 0)?;
        let threshold = self.settings.not_tile_threshold;
        let surer = |a: Reading, b: Reading| {
            if top_probability(&b.tiles) > top_probability(&a.tiles) {
                b
            } else {
                a
            }
        };
        let read: Vec<(Detection, f32, [f32; 3])> = boxes
            .into_iter()
            .zip(seen.chunks_exact(2))
            .zip(own)
            .filter_map(|(((rotated, score), pair), own)| {
                let (mut upright, mut sideways) = (pair[0].reading, pair[1].reading);
                if let Some(at) = own {
                    upright = surer(upright, seen[at].reading);
                    sideways = surer(sideways, seen[at + 1].reading);
                }
                // The veto judges the box by the two readings it keeps: read snapped to the
                // hand's axes, the upper tile of a stacked pair in a steep shot (seed 36's
                // 19-any-steep) is turned enough to read as "not a tile" (0.81 on average) while
                // along its own angle it reads as the pon's tile.
                if !Reading::is_tile(&[upright, sideways], threshold) {
                    return None;
                }
                let not_tile = [upright.not_tile, sideways.not_tile];
                let (upright, sideways) = (upright.tiles, sideways.tiles);
                let angle =
                    layout::axis_difference(rotated.phi, up) / std::f32::consts::FRAC_PI_4 - 1.0;
                let turned = Turned {
                    evidence: (top_probability(&sideways) / top_probability(&upright)).ln()
                        + ANGLE_WEIGHT * angle,
                    upright,
                    sideways,
                    not_tile,
                };
                let sideways = turned.evidence > 0.0;
                let mut d = Detection {
                    tile: Face::Back,
                    bounds: rotated.bounds(),
                    confidence: 0.0,
                    sideways,
                    detector_score: score,
                    rotated,
                    probs: [0.0; CLASS_COUNT],
                    turned: Some(Box::new(turned)),
                };
                d.set_sideways(sideways);
                // Measured by `read_crops`, as asked above.
                let (value, colour) = pair[0].face?;
                Some((d, value, colour))
            })
            .collect();
        Ok(read)
    }

    /// Reads `crops` (see [`Recognizer::read_crops`], measuring the faces of those `measured`),
    /// which come in pairs (one box read along two axes). A pair neither of whose readings
    /// reaches [`Settings::read_turn_below`] is read again turned [`Settings::read_turn`] either
    /// way, and each of its crops keeps its surest reading (its "not a tile" output with it);
    /// the face stays the untouched crop's.
    fn read_turned(
        &mut self,
        sight: &mut Sight<'_>,
        crops: &[RotatedBox],
        measured: impl Fn(usize) -> bool,
    ) -> Result<Vec<Seen>, VisionError> {
        let mut seen = self.read_crops(sight, crops, measured)?;
        let turn = self.settings.read_turn;
        if turn == 0.0 {
            return Ok(seen);
        }
        let readings: Vec<Reading> = seen.iter().map(|s| s.reading).collect();
        let unsure = unsure_pairs(&readings, self.settings.read_turn_below);
        if unsure.is_empty() {
            return Ok(seen);
        }
        let turned: Vec<RotatedBox> = [-turn, turn]
            .iter()
            .flat_map(|t| {
                unsure.iter().map(move |&i| RotatedBox {
                    phi: crops[i].phi + t,
                    ..crops[i]
                })
            })
            .collect();
        let mut all: Vec<Reading> = unsure.iter().map(|&i| readings[i]).collect();
        all.extend(self.classify(sight, &turned)?);
        for (&i, surest) in unsure.iter().zip(surest_readings(&all, unsure.len())) {
            seen[i].reading = surest;
        }
        Ok(seen)
    }

    /// Replaces each pair of boxes that are the halves of one sideways tile (see
    /// [`tile_part_pairs`]) by the whole tile's box, when that reads confidently as a tile;
    /// each box joins at most once, the surest reading first.
    fn join_tile_parts(
        &mut self,
        sight: &mut Sight<'_>,
        boxes: Vec<(RotatedBox, f32)>,
        up: f32,
    ) -> Result<Vec<(RotatedBox, f32)>, VisionError> {
        let candidates = tile_part_pairs(&boxes, up);
        if candidates.is_empty() {
            return Ok(boxes);
        }
        let unions: Vec<RotatedBox> = candidates.iter().map(|&(_, _, u)| u).collect();
        let readings = self.classify(sight, &unions)?;
        let mut order: Vec<usize> = (0..candidates.len())
            .filter(|&k| readings[k].is_sure_tile(PART_CONFIDENCE))
            .collect();
        order.sort_by(|&a, &b| readings[b].best().1.total_cmp(&readings[a].best().1));
        let mut joined = vec![false; boxes.len()];
        let mut unions = Vec::new();
        for k in order {
            let (i, j, union) = candidates[k];
            if joined[i] || joined[j] {
                continue;
            }
            joined[i] = true;
            joined[j] = true;
            unions.push((union, boxes[i].1.max(boxes[j].1)));
        }
        let mut kept: Vec<(RotatedBox, f32)> = boxes
            .into_iter()
            .zip(joined)
            .filter(|(_, joined)| !joined)
            .map(|(b, _)| b)
            .collect();
        kept.extend(unions);
        Ok(kept)
    }

    /// Replaces each part of a tile (see [`upright_parts`]) by the whole tile's box, the surest
    /// of its four (two upright, two sideways) when it reads confidently as a tile; the other
    /// parts centred in the whole go with it. A part whose whole holds a box too long to be a
    /// part (see [`PART_LONG`]) is a stray box over that tile and goes instead. Surest wholes
    /// first; each box once.
    fn join_upright_parts(
        &mut self,
        sight: &mut Sight<'_>,
        mut boxes: Vec<(RotatedBox, f32)>,
        up: f32,
    ) -> Result<Vec<(RotatedBox, f32)>, VisionError> {
        let parts = upright_parts(&boxes, up);
        if parts.is_empty() {
            return Ok(boxes);
        }
        // Each part read as drawn and a quarter turned (a 4p's half lies like a sideways 2p),
        // then its two upright wholes and its two sideways ones.
        let crops: Vec<RotatedBox> = parts
            .iter()
            .flat_map(|p| {
                let b = boxes[p.part].0;
                [b, b.quarter_turned()].into_iter().chain(p.wholes)
            })
            .collect();
        let readings = self.classify(sight, &crops)?;
        let mut joins: Vec<(&UprightPart, RotatedBox, f32)> = parts
            .iter()
            .zip(readings.chunks_exact(2 + WHOLES))
            .filter_map(|(part, read)| {
                let (as_drawn, turned) = (read[0].best(), read[1].best());
                let (part_face, _) = if turned.1 > as_drawn.1 {
                    turned
                } else {
                    as_drawn
                };
                let (k, p) = (2..2 + WHOLES)
                    .filter(|&k| {
                        read[k].is_sure_tile(PART_CONFIDENCE)
                            && more_pips(part_face, read[k].best().0)
                    })
                    .map(|k| (k, read[k].best().1))
                    .max_by(|a, b| a.1.total_cmp(&b.1))?;
                Some((part, part.wholes[k - 2], p))
            })
            .collect();
        joins.sort_by(|a, b| b.2.total_cmp(&a.2));
        let mut gone = vec![false; boxes.len()];
        for (part, whole, _) in joins {
            let i = part.part;
            if gone[i] {
                continue;
            }
            let inside: Vec<usize> = (0..boxes.len())
                .filter(|&j| j != i && !gone[j] && whole.contains(boxes[j].0.cx, boxes[j].0.cy))
                .collect();
            gone[i] = true;
            if inside.iter().any(|&j| {
                let n = &boxes[j].0;
                n.w.max(n.h) > PART_LONG * part.tile_long
            }) {
                continue;
            }
            let score = inside.iter().fold(boxes[i].1, |s, &j| s.max(boxes[j].1));
            for &j in &inside {
                gone[j] = true;
            }
            boxes.push((whole, score));
            gone.push(false);
        }
        Ok(boxes
            .into_iter()
            .zip(gone)
            .filter(|(_, gone)| !gone)
            .map(|(b, _)| b)
            .collect())
    }

    /// Moves an upright tile's box that lies beside its tile onto it: an upright circles or
    /// bamboo tile of at most four pips is read again with its box shifted across the hand's
    /// up axis by each of [`BESIDE_SHIFTS`] of its width, and the surest reading that is a tile
    /// of its suit with more pips, at least [`PART_CONFIDENCE`] sure, surer than the tile's own
    /// reading and "not a tile" under [`BESIDE_NOT_TILE`], takes its place (read both ways, as
    /// any box, with the detector's score).
    ///
    /// The detector sometimes draws a box a fifth to a third of a tile off across the row,
    /// narrower than the tile, over one column of a 4s's or 4p's pips, which reads as a 2s or
    /// 2p (held-out seed 9's 16, 15's 13, 37's 09: 12-16 px off); the hand-aware decoding puts
    /// some right, and reads others into another complete hand. A true 2p read shifted shows
    /// table or its neighbour's edge: of five that read as a 4p 0.9 sure so (seeds 8-67), four
    /// read "not a tile" 0.2 or more, and the fifth read its own box surer.
    fn shift_boxes_beside(
        &mut self,
        sight: &mut Sight<'_>,
        mut read: Vec<(Detection, f32, [f32; 3])>,
        up: f32,
    ) -> Result<Vec<(Detection, f32, [f32; 3])>, VisionError> {
        let few_pips = |face: Face| match face {
            Face::Tile(t) => {
                let kind = t.kind();
                matches!(kind.suit(), Suit::Pin | Suit::Sou) && kind.number() <= 4
            }
            Face::Back => false,
        };
        let boxes: Vec<(RotatedBox, f32)> = read
            .iter()
            .map(|(d, ..)| (d.rotated, d.detector_score))
            .collect();
        let sides = box_sides(&boxes);
        // A whole tile's length: a shorter box is a part of one (see `join_upright_parts`), or
        // half of a called tile, whose halves read as upright tiles of fewer pips too.
        let whole = |i: usize| {
            tile_size(&boxes, &sides, i).is_some_and(|(long, _)| sides[i].0 > PART_LONG * long)
        };
        let candidates: Vec<(usize, RotatedBox)> = read
            .iter()
            .enumerate()
            .filter(|&(i, (d, ..))| !d.sideways && few_pips(d.tile) && whole(i))
            .map(|(i, (d, ..))| {
                let b = &d.rotated;
                let upright = if layout::axis_difference(b.phi, up) <= SNAP_TOLERANCE {
                    *b
                } else {
                    snapped(b, up)
                };
                (i, upright)
            })
            .collect();
        if candidates.is_empty() {
            return Ok(read);
        }
        let (vx, vy) = (-up.sin(), up.cos());
        let shifted: Vec<RotatedBox> = candidates
            .iter()
            .flat_map(|&(_, b)| {
                BESIDE_SHIFTS.map(|f| RotatedBox {
                    cx: b.cx + f * b.w * vx,
                    cy: b.cy + f * b.w * vy,
                    ..b
                })
            })
            .collect();
        let readings = self.classify(sight, &shifted)?;
        let mut moves: Vec<(usize, RotatedBox, f32)> = Vec::new();
        for (n, &(i, _)) in candidates.iter().enumerate() {
            let d = &read[i].0;
            let at = n * BESIDE_SHIFTS.len();
            let best = (at..at + BESIDE_SHIFTS.len())
                .filter(|&k| {
                    let r = &readings[k];
                    let (face, p) = r.best();
                    matches!(face, Some(Face::Tile(_)))
                        && p >= PART_CONFIDENCE
                        && p > d.confidence
                        && r.not_tile < BESIDE_NOT_TILE
                        && more_pips(Some(d.tile), face)
                })
                .max_by(|&a, &b| readings[a].best().1.total_cmp(&readings[b].best().1));
            if let Some(k) = best {
                moves.push((i, shifted[k], d.detector_score));
            }
        }
        if moves.is_empty() {
            return Ok(read);
        }
        let again = self.read_along(sight, moves.iter().map(|&(_, b, s)| (b, s)).collect(), up)?;
        // The veto may drop a moved box; the tile then keeps its own.
        for moved in again {
            if let Some(&(i, ..)) = moves.iter().find(|m| m.1 == moved.0.rotated) {
                read[i] = moved;
            }
        }
        Ok(read)
    }

    /// Replaces each box that is really two sideways tiles stacked (see [`stacked_pair_halves`])
    /// by its two halves, when both halves read as the same tile.
    ///
    /// The detector often draws one box over an added kan's two stacked tiles: together they
    /// have the outline of one large upright tile. Their size gives them away against their
    /// neighbours, and the classifier confirms it: a half of one upright tile does not read
    /// confidently as the same tile as the other half.
    fn split_stacked_pairs(
        &mut self,
        sight: &mut Sight<'_>,
        mut boxes: Vec<(RotatedBox, f32)>,
        up: f32,
    ) -> Result<Vec<(RotatedBox, f32)>, VisionError> {
        let candidates = stacked_pair_halves(&boxes, up);
        if candidates.is_empty() {
            return Ok(boxes);
        }
        let halves: Vec<RotatedBox> = candidates.iter().flat_map(|(_, h)| *h).collect();
        let readings = self.classify(sight, &halves)?;
        let mut upper = Vec::new();
        for ((i, half), pair) in candidates.iter().zip(readings.chunks_exact(2)) {
            if Reading::same_tile(&pair[0], &pair[1], STACK_CONFIDENCE, STACK_NOT_TILE) {
                let score = boxes[*i].1;
                boxes[*i] = (half[0], score);
                upper.push((half[1], score));
            }
        }
        boxes.extend(upper);
        Ok(boxes)
    }

    /// Tile boxes with their detector scores, best first, duplicates removed; from a larger
    /// input when the tiles are small (see [`zoomed_long_side`]).
    fn detect(&mut self, image: &Rgb) -> Result<Found, VisionError> {
        let threshold = self.settings.score_threshold;
        let first = Found::split(
            self.detect_at(image, self.settings.input_long_side, &[])?,
            threshold,
        );
        match zoomed_long_side(&self.settings, image.width.max(image.height), &first.sure) {
            Some(long_side) => {
                let boxes = self.detect_at(image, long_side, &first.sure)?;
                Ok(Found::split(boxes, threshold))
            }
            None => Ok(first),
        }
    }

    /// The boxes found with the image scaled to `long_side`; with boxes `around`, only in the
    /// window of the input around them (see [`zoom_window`]).
    fn detect_at(
        &mut self,
        image: &Rgb,
        long_side: u32,
        around: &[(RotatedBox, f32)],
    ) -> Result<Vec<(RotatedBox, f32)>, VisionError> {
        let mut input = picture::letterbox(image, long_side)?;
        let mut origin = (0.0, 0.0);
        if let Some([x0, y0, x1, y1]) = zoom_window(&self.settings, &input, around) {
            if let Some(window) = input.window(x0, y0, x1, y1) {
                input = window;
                origin = (x0 as f32, y0 as f32);
            }
        }
        let shape = [1usize, 3, input.height, input.width];
        let tensor = ort::value::TensorRef::from_array_view((shape, input.data.as_slice()))?;
        let outputs = self.detector.run(ort::inputs!["image" => tensor])?;
        let scores = outputs["scores"].try_extract_array::<f32>()?;
        let geom = outputs["geom"].try_extract_array::<f32>()?;
        let (sh, gh) = (scores.shape().to_vec(), geom.shape().to_vec());
        if sh.len() != 4 || gh.len() != 4 || gh[1] != 6 || sh[2..] != gh[2..] {
            return Err(VisionError::BadModelOutput(format!(
                "detector outputs scores {sh:?} and geom {gh:?}"
            )));
        }
        let s = input.scale;
        let lowest = self.settings.lowest_score();
        let mut found: Vec<(RotatedBox, f32)> = Vec::new();
        for y in 0..sh[2] {
            for x in 0..sh[3] {
                let score = scores[[0, 0, y, x]];
                if score < lowest {
                    continue;
                }
                let g = |c: usize| geom[[0, c, y, x]];
                found.push((
                    RotatedBox {
                        cx: (g(0) + origin.0 + 0.5) / s - 0.5,
                        cy: (g(1) + origin.1 + 0.5) / s - 0.5,
                        w: g(2) / s,
                        h: g(3) / s,
                        phi: 0.5 * g(5).atan2(g(4)),
                    },
                    score,
                ));
            }
        }
        found.sort_by(|a, b| b.1.total_cmp(&a.1));
        let mut kept: Vec<(RotatedBox, f32)> = Vec::with_capacity(found.len());
        for (b, score) in found {
            let duplicate = kept
                .iter()
                .any(|(k, _)| (b.cx - k.cx).hypot(b.cy - k.cy) < 0.5 * b.w.min(k.w));
            if !duplicate {
                kept.push((b, score));
            }
        }
        Ok(kept)
    }

    /// What the crops at `boxes` read as (see [`Recognizer::read_crops`]).
    fn classify(
        &mut self,
        sight: &mut Sight<'_>,
        boxes: &[RotatedBox],
    ) -> Result<Vec<Reading>, VisionError> {
        let seen = self.read_crops(sight, boxes, |_| false)?;
        Ok(seen.into_iter().map(|s| s.reading).collect())
    }

    /// What the crops at `boxes` in `sight`'s image read as, with the faces (see
    /// [`picture::face_value`], [`picture::face_colour`]) of those `measured` (by index).
    /// Only the crops `sight` has not read before are classified, and only those, or those whose
    /// face is asked for the first time, are cut.
    fn read_crops(
        &mut self,
        sight: &mut Sight<'_>,
        boxes: &[RotatedBox],
        measured: impl Fn(usize) -> bool,
    ) -> Result<Vec<Seen>, VisionError> {
        let mut known: Vec<Option<Seen>> = boxes.iter().map(|b| sight.seen(b)).collect();
        let cut: Vec<usize> = (0..boxes.len())
            .filter(|&i| known[i].is_none_or(|s| measured(i) && s.face.is_none()))
            .collect();
        if cut.is_empty() {
            return Ok(known.into_iter().flatten().collect());
        }
        let cut_boxes: Vec<RotatedBox> = cut.iter().map(|&i| boxes[i]).collect();
        let batch = picture::crops_on(sight.image(), &cut_boxes, self.parallel_crops);
        let crops: Vec<&[f32]> = batch.chunks_exact(picture::CROP_LEN).collect();
        let unread: Vec<&[f32]> = cut
            .iter()
            .zip(&crops)
            .filter(|(&i, _)| known[i].is_none())
            .map(|(_, &crop)| crop)
            .collect();
        let mut readings = if unread.len() == crops.len() {
            self.classify_crops(&batch)?
        } else {
            self.classify_crops(&unread.concat())?
        }
        .into_iter();
        for (&i, crop) in cut.iter().zip(crops) {
            let reading = match known[i] {
                Some(seen) => seen.reading,
                None => readings.next().ok_or_else(|| {
                    VisionError::BadModelOutput("fewer readings than crops".into())
                })?,
            };
            let face = if measured(i) {
                let value = picture::face_value(crop);
                Some((value, picture::face_colour(crop, value)))
            } else {
                known[i].and_then(|s| s.face)
            };
            let seen = Seen { reading, face };
            sight.remember(&boxes[i], seen);
            known[i] = Some(seen);
        }
        // Every crop not known was cut, so each is known now.
        Ok(known.into_iter().flatten().collect())
    }

    /// Classifies a batch of crops made by [`picture::crops`], shared out in even parts
    /// between the classifiers, each on a thread of its own.
    ///
    /// A crop reads the same bits whatever batch it is in, so the parts read as the whole
    /// would. ONNX Runtime gains less than twice from a second thread on the small batches a
    /// photo's later steps read (a few crops), and its threads wait on each other at every
    /// layer; two copies of the classifier reading half a batch each, one thread apiece, read a
    /// 720p frame in about 2 ms (6 %) less than one with two threads (README, "Throughput and
    /// recognition speed", 2026-11-29).
    fn classify_crops(&mut self, batch: &[f32]) -> Result<Vec<Reading>, VisionError> {
        let count = batch.len() / picture::CROP_LEN;
        if count == 0 {
            return Ok(Vec::new());
        }
        let share = count.div_ceil(self.classifiers.len()) * picture::CROP_LEN;
        if share == batch.len() {
            return classify_on(&mut self.classifiers[0], batch);
        }
        use rayon::prelude::*;
        let parts: Vec<Result<Vec<Reading>, VisionError>> = self
            .classifiers
            .par_iter_mut()
            .zip(batch.par_chunks(share))
            .map(|(classifier, part)| classify_on(classifier, part))
            .collect();
        let mut readings = Vec::with_capacity(count);
        for part in parts {
            readings.extend(part?);
        }
        Ok(readings)
    }
}

/// Classifies a batch of crops made by [`picture::crops`] with `classifier`.
fn classify_on(
    classifier: &mut ort::session::Session,
    batch: &[f32],
) -> Result<Vec<Reading>, VisionError> {
    let count = batch.len() / picture::CROP_LEN;
    if count == 0 {
        return Ok(Vec::new());
    }
    let shape = [count, 3, picture::CROP_H, picture::CROP_W];
    let tensor = ort::value::TensorRef::from_array_view((shape, batch))?;
    let outputs = classifier.run(ort::inputs!["crops" => tensor])?;
    let probs = outputs[0].try_extract_array::<f32>()?;
    let shape = probs.shape();
    if shape.len() != 2 || shape[0] != count || !(CLASS_COUNT..=CLASS_COUNT + 1).contains(&shape[1])
    {
        return Err(VisionError::BadModelOutput(format!(
            "classifier output shape {shape:?} (expected [{}, {CLASS_COUNT} or {}])",
            count,
            CLASS_COUNT + 1
        )));
    }
    let flat: Vec<f32> = probs.iter().copied().collect();
    Ok(flat.chunks_exact(shape[1]).map(Reading::from_row).collect())
}

/// The classifier's reading of one crop.
#[derive(Clone, Copy, Debug)]
struct Reading {
    /// Probabilities of the 38 classes, given that the crop is a tile.
    tiles: [f32; CLASS_COUNT],
    /// Probability that the crop is not a tile (0 from a 38-output classifier).
    not_tile: f32,
}

impl Reading {
    /// A classifier output row: 38 class probabilities, or 39 with "not a tile" last. The tile
    /// probabilities are rescaled to those given that it is a tile, as a 38-class model gives
    /// them.
    fn from_row(row: &[f32]) -> Reading {
        let not_tile = row.get(CLASS_COUNT).copied().unwrap_or(0.0);
        let scale = 1.0 / (1.0 - not_tile).max(1e-6);
        Reading {
            tiles: std::array::from_fn(|c| row.get(c).copied().unwrap_or(0.0) * scale),
            not_tile,
        }
    }

    /// The most probable face and its probability.
    fn best(&self) -> (Option<Face>, f32) {
        let best = best_class(&self.tiles);
        (Face::from_class(best), self.tiles[best])
    }

    /// Whether two crops both read, at least `confidence` sure, as a tile (not a back) of the
    /// same kind, and neither is "not a tile" `not_tile` or more; a red five and a plain five are
    /// the same kind.
    fn same_tile(a: &Reading, b: &Reading, confidence: f32, not_tile: f32) -> bool {
        match (a.best(), b.best()) {
            ((Some(Face::Tile(x)), px), (Some(Face::Tile(y)), py)) => {
                x.kind() == y.kind()
                    && px.min(py) >= confidence
                    && a.not_tile.max(b.not_tile) < not_tile
            }
            _ => false,
        }
    }

    /// Whether the crop reads as a tile face (not a back) at least `confidence` sure, and as
    /// "not a tile" under [`STACK_NOT_TILE`].
    fn is_sure_tile(&self, confidence: f32) -> bool {
        let (face, p) = self.best();
        matches!(face, Some(Face::Tile(_))) && p >= confidence && self.not_tile < STACK_NOT_TILE
    }

    /// Whether a box read both ways (`pair`) is a tile: its mean "not a tile" probability is
    /// under `threshold`.
    fn is_tile(pair: &[Reading], threshold: f32) -> bool {
        let mean = pair.iter().map(|r| r.not_tile).sum::<f32>() / pair.len().max(1) as f32;
        mean < threshold
    }
}

/// Fewest face readings a photo needs before [`drop_dark_faces`] judges any of them.
const DARK_FACE_MIN: usize = 3;

/// The fewest tiles whose face colour judges a photo's light (see [`Recognizer::read_in_light`]).
const LIGHT_MIN: usize = 3;

/// Drops the face readings (not backs) whose face is far darker than the photo's median face
/// and which the classifier is unsure of (see [`Settings::dark_face_ratio`]).
///
/// The tiles in one photo are one set and share a face colour, while keyboard keys (a light
/// legend on a dark cap) and other dark clutter pass for tiles only by their glyph. A tile in a
/// shadow is darker too, but it still reads confidently, so confidence keeps it.
fn drop_dark_faces(settings: &Settings, read: Vec<(Detection, f32)>) -> Vec<Detection> {
    let mut faces: Vec<f32> = read
        .iter()
        .filter(|(d, _)| d.tile != Face::Back)
        .map(|&(_, face)| face)
        .collect();
    if faces.len() < DARK_FACE_MIN || settings.dark_face_ratio <= 0.0 {
        return read.into_iter().map(|(d, _)| d).collect();
    }
    let least = settings.dark_face_ratio * picture::percentile(&mut faces, 0.5);
    read.into_iter()
        .filter(|(d, face)| {
            d.tile == Face::Back || *face >= least || d.confidence >= settings.dark_face_confidence
        })
        .map(|(d, _)| d)
        .collect()
}

/// The window `[x0, y0, x1, y1]` (input pixels, end exclusive) of a far shot's second
/// detector input around the first pass's `boxes`: their bounding rectangle grown by
/// [`Settings::zoom_margin`] times their median long side, widened to multiples of 32 input
/// pixels so the detector's cells fall where they fall on the whole input. `None` for the
/// whole input (no boxes, or no margin set).
fn zoom_window(
    settings: &Settings,
    input: &picture::Letterbox,
    boxes: &[(RotatedBox, f32)],
) -> Option<[usize; 4]> {
    if settings.zoom_margin <= 0.0 || boxes.is_empty() {
        return None;
    }
    let mut long: Vec<f32> = boxes.iter().map(|(b, _)| b.w.max(b.h)).collect();
    let margin = settings.zoom_margin * picture::percentile(&mut long, 0.5);
    let (mut lo, mut hi) = ((f32::MAX, f32::MAX), (f32::MIN, f32::MIN));
    for (x, y) in boxes.iter().flat_map(|(b, _)| b.corners()) {
        lo = (lo.0.min(x), lo.1.min(y));
        hi = (hi.0.max(x), hi.1.max(y));
    }
    let s = input.scale;
    let down = |v: f32| 32 * ((v - margin) * s / 32.0).floor().max(0.0) as usize;
    let up = |v: f32, n: usize| (32 * ((v + margin) * s / 32.0).ceil().max(0.0) as usize).min(n);
    Some([
        down(lo.0),
        down(lo.1),
        up(hi.0, input.width),
        up(hi.1, input.height),
    ])
}

/// The input long side for a second detector pass over a far shot, or `None` when the boxes
/// found at [`Settings::input_long_side`] are wide enough. The detector misses a fifth of the
/// tiles under 16 input pixels wide and few over 24; the classifier samples its crops from the
/// image itself, so only the detector needs the larger input.
fn zoomed_long_side(
    settings: &Settings,
    image_long_side: u32,
    boxes: &[(RotatedBox, f32)],
) -> Option<u32> {
    // Fewer boxes than this say little about the tiles' size.
    const MIN_BOXES: usize = 3;
    if boxes.len() < MIN_BOXES {
        return None;
    }
    let scale = settings.input_long_side as f32 / image_long_side as f32;
    let mut sides: Vec<f32> = boxes.iter().map(|(b, _)| b.w.min(b.h) * scale).collect();
    // The mean of the middle two for an even count, as numpy's median in reference_infer.py
    // (layout::median takes the upper one).
    let median = picture::percentile(&mut sides, 0.5);
    if median >= settings.zoom_below {
        return None;
    }
    let wanted = settings.input_long_side as f32 * settings.zoom_target / median;
    let long_side = (32 * (wanted / 32.0).round() as u32).min(settings.zoom_max_long_side);
    (long_side > settings.input_long_side).then_some(long_side)
}

/// The indices of `readings`, which come in pairs, whose pair has no reading `below` sure or
/// more.
fn unsure_pairs(readings: &[Reading], below: f32) -> Vec<usize> {
    readings
        .chunks(2)
        .enumerate()
        .filter(|(_, pair)| pair.iter().all(|r| r.best().1 < below))
        .flat_map(|(n, pair)| 2 * n..2 * n + pair.len())
        .collect()
}

/// Of `readings`, `count` crops read once each and then again in the same order any number of
/// times (turned), each crop's reading with the highest tile probability; a tie keeps the
/// earlier reading, so the untouched crop's wins.
fn surest_readings(readings: &[Reading], count: usize) -> Vec<Reading> {
    let (kept, others) = readings.split_at(count.min(readings.len()));
    let mut kept = kept.to_vec();
    for again in others.chunks_exact(count.max(1)) {
        for (k, o) in kept.iter_mut().zip(again) {
            if o.best().1 > k.best().1 {
                *k = *o;
            }
        }
    }
    kept
}

/// The highest of `probs`, floored at 1e-6 so ratios of two of them stay finite.
fn top_probability(probs: &[f32; CLASS_COUNT]) -> f32 {
    probs.iter().copied().fold(1e-6f32, f32::max)
}

/// The index of the most probable class.
fn best_class(probs: &[f32; CLASS_COUNT]) -> usize {
    (0..CLASS_COUNT)
        .max_by(|&a, &b| probs[a].total_cmp(&probs[b]))
        .unwrap_or(BACK_CLASS)
}

/// The extents of `b` along `axis` and across it.
fn extents(b: &RotatedBox, axis: f32) -> (f32, f32) {
    let (along, across) = spans(b, axis);
    (along.1 - along.0, across.1 - across.0)
}

/// The intervals `b` covers along `axis` and across it, in coordinates rotated to `axis`.
fn spans(b: &RotatedBox, axis: f32) -> ((f32, f32), (f32, f32)) {
    let (ux, uy) = (axis.cos(), axis.sin());
    let (mut along, mut across) = ((f32::MAX, f32::MIN), (f32::MAX, f32::MIN));
    for (x, y) in b.corners() {
        let (a, c) = (x * ux + y * uy, -x * uy + y * ux);
        along = (along.0.min(a), along.1.max(a));
        across = (across.0.min(c), across.1.max(c));
    }
    (along, across)
}

/// The [`STACK_NEIGHBOURS`] upright boxes (longer along the up axis than across it, by
/// `sizes` from [`extents`]) nearest to `at`, leaving out the boxes `skip`, with their
/// distances, nearest first.
fn nearest_upright(
    boxes: &[(RotatedBox, f32)],
    sizes: &[(f32, f32)],
    at: (f32, f32),
    skip: &[usize],
) -> Vec<(f32, usize)> {
    let mut near: Vec<(f32, usize)> = boxes
        .iter()
        .enumerate()
        .filter(|&(k, _)| !skip.contains(&k) && sizes[k].0 > sizes[k].1)
        .map(|(k, (n, _))| ((n.cx - at.0).hypot(n.cy - at.1), k))
        .collect();
    near.sort_by(|x, y| x.0.total_cmp(&y.0));
    near.truncate(STACK_NEIGHBOURS);
    near
}

/// Pairs of boxes that are the two halves of one sideways tile against the hand's up axis
/// `up` (see [`PART_ACROSS`]), each with the box of the whole tile, laid sideways.
fn tile_part_pairs(boxes: &[(RotatedBox, f32)], up: f32) -> Vec<(usize, usize, RotatedBox)> {
    let (ux, uy) = (up.cos(), up.sin());
    let spans: Vec<_> = boxes.iter().map(|(b, _)| spans(b, up)).collect();
    let sizes: Vec<(f32, f32)> = spans.iter().map(|(a, c)| (a.1 - a.0, c.1 - c.0)).collect();
    let mut out = Vec::new();
    for i in 0..boxes.len() {
        for j in i + 1..boxes.len() {
            let (a, b) = (&boxes[i].0, &boxes[j].0);
            if (a.cx - b.cx).hypot(a.cy - b.cy) > sizes[i].0.max(sizes[i].1) {
                continue;
            }
            let (cx, cy) = ((a.cx + b.cx) / 2.0, (a.cy + b.cy) / 2.0);
            let near = nearest_upright(boxes, &sizes, (cx, cy), &[i, j]);
            if near.len() < 2 {
                continue;
            }
            let long = layout::median(near.iter().map(|&(_, k)| sizes[k].0).collect());
            let short = layout::median(near.iter().map(|&(_, k)| sizes[k].1).collect());
            let ((ai, ci), (aj, cj)) = (spans[i], spans[j]);
            let along = (ai.0.min(aj.0), ai.1.max(aj.1));
            let across = (ci.0.min(cj.0), ci.1.max(cj.1));
            let (u_along, u_across) = (along.1 - along.0, across.1 - across.0);
            let overlap = (ci.1.min(cj.1) - ci.0.max(cj.0)) / sizes[i].1.min(sizes[j].1);
            let parts = [i, j]
                .iter()
                .all(|&k| sizes[k].0 * sizes[k].1 <= PART_AREA * u_along * u_across);
            if !PART_ACROSS.contains(&(u_across / short))
                || !PART_ALONG.contains(&(u_along / long))
                || overlap < PART_OVERLAP
                || !parts
            {
                continue;
            }
            let (a_mid, c_mid) = ((along.0 + along.1) / 2.0, (across.0 + across.1) / 2.0);
            let union = RotatedBox {
                cx: a_mid * ux - c_mid * uy,
                cy: a_mid * uy + c_mid * ux,
                w: u_along,
                h: u_across,
                phi: up + std::f32::consts::FRAC_PI_2,
            };
            out.push((i, j, union));
        }
    }
    out
}

/// The extents along the up axis `up` and across it (medians) of the upright boxes that form
/// a row with box `i` (see [`STACK_NEIGHBOURS`]), `sizes` being every box's [`extents`];
/// `None` for a box with no such row.
fn row_extents(
    boxes: &[(RotatedBox, f32)],
    sizes: &[(f32, f32)],
    i: usize,
    up: f32,
) -> Option<(f32, f32)> {
    let b = &boxes[i].0;
    let (ux, uy) = (up.cos(), up.sin());
    let near = nearest_upright(boxes, sizes, (b.cx, b.cy), &[i]);
    if near.len() < 2 {
        return None;
    }
    let alongs: Vec<f32> = near.iter().map(|&(_, j)| sizes[j].0).collect();
    let along_ref = layout::median(alongs.clone());
    let across_ref = layout::median(near.iter().map(|&(_, j)| sizes[j].1).collect());
    let in_row = near.iter().all(|&(d, j)| {
        let n = &boxes[j].0;
        let offset = ((n.cx - b.cx) * ux + (n.cy - b.cy) * uy).abs();
        offset <= STACK_ROW_OFFSET * along_ref && d <= STACK_REACH * across_ref
    });
    let (lo, hi) = alongs
        .iter()
        .fold((f32::MAX, f32::MIN), |(lo, hi), &a| (lo.min(a), hi.max(a)));
    (in_row && hi <= STACK_ROW_SPREAD * lo).then_some((along_ref, across_ref))
}

/// A box that may be a part of one upright tile (see [`upright_parts`]).
#[derive(Clone, Copy, Debug, PartialEq)]
struct UprightPart {
    /// The part's index among the boxes.
    part: usize,
    /// Its neighbourhood's tiles' long side.
    tile_long: f32,
    /// The whole tiles it could be a part of: two upright, reaching from its one end along the
    /// up axis and from its other end, then two sideways, reaching along the row from its one
    /// end across the up axis and from its other end (the detector draws a box over one half of
    /// a called 4p, which reads as an upright 2p).
    wholes: [RotatedBox; WHOLES],
}

/// How many whole tiles a part of one is read as (see [`UprightPart::wholes`]).
const WHOLES: usize = 4;

/// Whether `whole` is a circles or bamboo tile with more pips than `part`, of the same suit:
/// what a part of a tile that holds pips in rows reads as (a 4p's halves read as 2p, an 8p's
/// as 4p), while the box of a whole tile drawn small reads as the same tile when it is
/// enlarged, or as something else entirely when the enlargement takes in the table.
fn more_pips(part: Option<Face>, whole: Option<Face>) -> bool {
    match (part, whole) {
        (Some(Face::Tile(p)), Some(Face::Tile(w))) => {
            let (p, w) = (p.kind(), w.kind());
            matches!(w.suit(), Suit::Pin | Suit::Sou)
                && p.suit() == w.suit()
                && w.number() > p.number()
        }
        _ => false,
    }
}

/// Each box's (long, short) sides, as [`tile_size`] takes them.
fn box_sides(boxes: &[(RotatedBox, f32)]) -> Vec<(f32, f32)> {
    boxes
        .iter()
        .map(|(b, _)| (b.w.max(b.h), b.w.min(b.h)))
        .collect()
}

/// The long and short sides of the tiles around box `i`, `sides` being every box's (long,
/// short): the upper quartile of its [`SIZE_NEAR`] nearest boxes' sides, as several of them may
/// be parts of tiles too (seed 14's 4p halves stand three in a row). `None` for a box too far
/// from others to be measured.
fn tile_size(boxes: &[(RotatedBox, f32)], sides: &[(f32, f32)], i: usize) -> Option<(f32, f32)> {
    let b = &boxes[i].0;
    let mut near: Vec<(f32, usize)> = boxes
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != i)
        .map(|(j, (n, _))| ((n.cx - b.cx).hypot(n.cy - b.cy), j))
        .filter(|&(d, _)| d <= SIZE_REACH * sides[i].0)
        .collect();
    near.sort_by(|x, y| x.0.total_cmp(&y.0));
    near.truncate(SIZE_NEAR);
    if near.len() < SIZE_MIN_NEAR {
        return None;
    }
    let quartile = |mut v: Vec<f32>| {
        v.sort_by(f32::total_cmp);
        v[v.len() * 3 / 4]
    };
    Some((
        quartile(near.iter().map(|&(_, j)| sides[j].0).collect()),
        quartile(near.iter().map(|&(_, j)| sides[j].1).collect()),
    ))
}

/// Boxes small against the tiles around them (see [`PART_LONG`]): each a part of one tile,
/// with the two whole tiles upright against the hand's up axis `up` and the two lying sideways
/// across it that it could be a part of.
fn upright_parts(boxes: &[(RotatedBox, f32)], up: f32) -> Vec<UprightPart> {
    let sides = box_sides(boxes);
    let (ux, uy) = (up.cos(), up.sin());
    let mut out = Vec::new();
    for (i, (b, _)) in boxes.iter().enumerate() {
        let Some((long, short)) = tile_size(boxes, &sides, i) else {
            continue;
        };
        let (l, s) = sides[i];
        let area = l * s / (long * short);
        if l > PART_LONG * long || !(PART_AREA_MIN..=PART_AREA_MAX).contains(&area) {
            continue;
        }
        let ((a0, a1), (c0, c1)) = spans(b, up);
        // A whole tile centred at `a` along the up axis and `c` across it, its up axis `phi`.
        let whole = |a: f32, c: f32, phi: f32| RotatedBox {
            cx: a * ux - c * uy,
            cy: a * uy + c * ux,
            w: short,
            h: long,
            phi,
        };
        let (a_mid, c_mid) = ((a0 + a1) / 2.0, (c0 + c1) / 2.0);
        let across = up + std::f32::consts::FRAC_PI_2;
        out.push(UprightPart {
            part: i,
            tile_long: long,
            wholes: [
                whole(a0 + long / 2.0, c_mid, up),
                whole(a1 - long / 2.0, c_mid, up),
                whole(a_mid, c0 + long / 2.0, across),
                whole(a_mid, c1 - long / 2.0, across),
            ],
        });
    }
    out
}

/// Boxes the size of two sideways tiles stacked along the hand's up axis `up`, measured
/// against their nearest upright neighbours in the same row, each with the two halves that
/// would be those tiles.
fn stacked_pair_halves(boxes: &[(RotatedBox, f32)], up: f32) -> Vec<(usize, [RotatedBox; 2])> {
    let sizes: Vec<(f32, f32)> = boxes.iter().map(|(b, _)| extents(b, up)).collect();
    let (ux, uy) = (up.cos(), up.sin());
    let mut out = Vec::new();
    for (i, (b, _)) in boxes.iter().enumerate() {
        let Some((along_ref, across_ref)) = row_extents(boxes, &sizes, i, up) else {
            continue;
        };
        let (along, across) = sizes[i];
        if !STACK_ALONG.contains(&(along / along_ref))
            || !STACK_ACROSS.contains(&(across / across_ref))
        {
            continue;
        }
        // A short box's halves are cut to at least a tile's size, or they would show the
        // tiles' middles only.
        let step = (along / 2.0).max(across_ref);
        let half = |side: f32| RotatedBox {
            cx: b.cx + side * ux * step / 2.0,
            cy: b.cy + side * uy * step / 2.0,
            w: step,
            h: across.max(along_ref),
            phi: up + std::f32::consts::FRAC_PI_2,
        };
        out.push((i, [half(1.0), half(-1.0)]));
    }
    out
}

/// `b` with its up axis turned to `axis` and its extents measured along and across it, so a
/// box the detector drew between two orientations still covers the tile.
fn snapped(b: &RotatedBox, axis: f32) -> RotatedBox {
    let (e1, e2) = extents(b, axis);
    RotatedBox {
        w: e1.min(e2),
        h: e1.max(e2),
        phi: axis,
        ..*b
    }
}

/// Everything read from one photo.
#[derive(Clone, Debug, Serialize)]
pub struct PhotoReading {
    pub width: u32,
    pub height: u32,
    pub tiles: Vec<Detection>,
    pub layout: layout::Layout,
    /// The decoded hand, when the layout holds concealed tiles.
    pub hand: Option<layout::ReadHand>,
}

impl Recognizer {
    /// Recognizes, lays out and decodes a photo.
    ///
    /// When its tiles make no complete hand and the models folder holds a second detector, the
    /// photo is detected and read again with it, and that reading is kept when its hand is
    /// complete. The two detectors miss different tiles: the second, trained on a GPU, finds
    /// more of the tiles of other sets' photos, but the layout rules were measured on the first
    /// one's boxes, and it reads fewer held-out hands exactly on its own (model card, "A second
    /// opinion").
    pub fn read_photo(&mut self, image: &Rgb) -> Result<PhotoReading, VisionError> {
        Ok(self.read_frame(image, &mut LiveMemo::default())?.0)
    }

    /// Reads one frame of a live view as [`Recognizer::read_photo`] reads a photo, except that
    /// the second detector is not asked again about a frame whose first reading (its faces
    /// and which lie sideways) is one of the last few it declined to improve, for up to
    /// [`SECOND_OPINION_REMEMBERED`] frames of that reading. A live view of a hand being laid out
    /// shows it incomplete frame after frame, and asking the second detector about each of
    /// those frames more than doubles its time (README, "Throughput and recognition speed").
    /// `memo` carries that from frame to frame; a new one for each source.
    pub fn read_frame(
        &mut self,
        image: &Rgb,
        memo: &mut LiveMemo,
    ) -> Result<(PhotoReading, SecondOpinion), VisionError> {
        let size = (image.width, image.height);
        let read = |r: &mut Recognizer| {
            let found = r.detect(image)?;
            Ok(r.read_found(image, 1.0, size, found)?.0)
        };
        let first = read(self)?;
        let Some(first_rank) = self.asked_rank(&first) else {
            return Ok((first, SecondOpinion::NotAsked));
        };
        let key = LiveMemo::key(&first);
        if memo.remembers(&key) {
            return Ok((first, SecondOpinion::Remembered));
        }
        Ok(match self.ask_second_detector(first_rank, read, |r| r)? {
            Some(second) => {
                memo.forget(&key);
                (second, SecondOpinion::Taken)
            }
            None => {
                memo.decline(key);
                (first, SecondOpinion::Declined)
            }
        })
    }

    /// Reads a photo again with the second detector in place of the first, when `first` makes
    /// no complete hand, or an open one without a yaku (see [`Settings::second_opinion`],
    /// [`layout::ReadHand::has_a_yaku`]); returns that reading when its hand (`reading_of` it)
    /// is complete where `first`'s is not, or has a yaku where `first`'s has none.
    fn second_opinion<T>(
        &mut self,
        first: &PhotoReading,
        read: impl FnOnce(&mut Recognizer) -> Result<T, VisionError>,
        reading_of: impl Fn(&T) -> &PhotoReading,
    ) -> Result<Option<T>, VisionError> {
        match self.asked_rank(first) {
            Some(first_rank) => self.ask_second_detector(first_rank, read, reading_of),
            None => Ok(None),
        }
    }

    /// The rank (see [`rank`]) of `first` when the second detector is asked about it: it is on
    /// and loaded, and `first` holds enough tiles but no complete hand with a yaku.
    fn asked_rank(&self, first: &PhotoReading) -> Option<u8> {
        if !self.settings.second_opinion
            || self.second_detector.is_none()
            || first.tiles.len() < SECOND_OPINION_TILES
        {
            return None;
        }
        Some(rank(first)).filter(|&r| r < 2)
    }

    /// Reads with the second detector in place of the first (`read`) and returns that reading
    /// when its rank beats `first_rank`.
    fn ask_second_detector<T>(
        &mut self,
        first_rank: u8,
        read: impl FnOnce(&mut Recognizer) -> Result<T, VisionError>,
        reading_of: impl Fn(&T) -> &PhotoReading,
    ) -> Result<Option<T>, VisionError> {
        let Some(mut other) = self.second_detector.take() else {
            return Ok(None);
        };
        std::mem::swap(&mut self.detector, &mut other);
        let second = read(self);
        std::mem::swap(&mut self.detector, &mut other);
        self.second_detector = Some(other);
        let second = second?;
        Ok((rank(reading_of(&second)) > first_rank).then_some(second))
    }

    /// Decodes and reads an encoded photo, decoding a large JPEG at a reduced size where its
    /// tiles allow (see [`Recognizer::read_reduced`]).
    pub fn read_encoded(&mut self, bytes: &[u8]) -> Result<(Reduced, PhotoReading), VisionError> {
        self.read_reduced(decode_for_reading(bytes)?, bytes)
    }

    /// Reads a photo decoded from `bytes` at a reduced size (by [`decode_for_reading`]). The reading is in full-size pixels; the returned image is the one
    /// the tiles were read from (with its light lifted where [`Recognizer::read_in_light`] lifts
    /// it). A second detector reads it again as in [`Recognizer::read_photo`].
    ///
    /// The detector needs only [`Settings::input_long_side`] pixels, and a crop is sampled from
    /// the area-pyramid level at which the tile is at least [`picture::CROP_W`] pixels wide,
    /// so a photo whose every tile is wide enough at a reduced size reads the same crops,
    /// filtered by the DCT instead of block means, without decoding the pixels it would
    /// average away. When a detected tile is narrower than a crop, the photo is decoded again
    /// at the reduction that makes the narrowest one wide enough.
    pub fn read_reduced(
        &mut self,
        mut photo: Reduced,
        bytes: &[u8],
    ) -> Result<(Reduced, PhotoReading), VisionError> {
        let Found {
            sure: mut boxes,
            mut faint,
        } = self.detect(&photo.image)?;
        let narrowest = boxes.iter().map(|(b, _)| b.w).fold(f32::INFINITY, f32::min);
        if photo.reduction > 1 && narrowest < picture::CROP_W as f32 {
            let full_width = narrowest * photo.reduction as f32;
            let mut finer = photo.reduction / 2;
            while finer > 1 && full_width / (finer as f32) < picture::CROP_W as f32 {
                finer /= 2;
            }
            let sharper = Reduced::decode(bytes, finer, 0)?;
            let k = photo.reduction as f32 / sharper.reduction as f32;
            for (b, _) in boxes.iter_mut().chain(faint.iter_mut()) {
                *b = b.scaled(k);
            }
            photo = sharper;
        }
        let found = Found { sure: boxes, faint };
        let size = (photo.full_width, photo.full_height);
        let k = photo.reduction as f32;
        let first = self.read_found(&photo.image, k, size, found)?;
        let image = &photo.image;
        let read = |r: &mut Recognizer| {
            let found = r.detect(image)?;
            r.read_found(image, k, size, found)
        };
        let (reading, lifted) = match self.second_opinion(&first.0, read, |r| &r.0)? {
            Some(second) => second,
            None => first,
        };
        if let Some(lifted) = lifted {
            photo.image = lifted;
        }
        Ok((photo, reading))
    }

    /// Reads the boxes `found` in `image` and completes the hand, in pixels `scale` times
    /// `image`'s of a photo `size` large; returns the photo with its light lifted too, where
    /// [`Recognizer::read_in_light`] lifts it.
    ///
    /// The hand is read the way up its owner sees it. When its tiles lie across the photo (see
    /// [`lie_across`]), the photo is turned a quarter and read again from its detection on, and
    /// that reading is kept when it is the better one (see [`reads_better_across`]); when
    /// its tiles then read better upside down (see [`reads_better_turned`]), the photo is turned
    /// half a turn more and read again. The reading is turned back with the photo. The models
    /// were trained on hands photographed upright and read turned tiles less well: held-out
    /// seeds 8-12 turned a quarter lost whole melds of white dragons the detector found
    /// upright, and their tiles turned half a turn but not read again lost melds and faces.
    fn read_found(
        &mut self,
        image: &Rgb,
        scale: f32,
        size: (u32, u32),
        found: Found,
    ) -> Result<(PhotoReading, Option<Rgb>), VisionError> {
        let mut turn = Turn::None;
        let mut sight = Sight::of(image);
        let mut turned: Option<Sight> = None;
        let mut in_light = self.read_in_light(&mut sight, found)?;
        if lie_across(&in_light.read) {
            let mut photo = Sight::owning(Turn::Anticlockwise.photo(image));
            let found = self.detect(photo.image())?;
            let across = self.read_in_light(&mut photo, found)?;
            let (width, height) = (photo.image().width, photo.image().height);
            let complete = || across.read.makes_a_hand(width, height);
            if reads_better_across(&in_light.read, &across.read, complete) {
                (turn, turned, in_light) = (Turn::Anticlockwise, Some(photo), across);
            }
        }
        // The photo turned so, in the tiles' (full-size) pixels, which a half turn mirrors through.
        let extent = |turn: Turn| {
            let (width, height) = turn.size((image.width, image.height));
            (scale * width as f32, scale * height as f32)
        };
        let mut reading = lay_out_read(scale, turn.size(size), &mut in_light);
        let upside_down = PhotoReading::lay_out(
            reading.width,
            reading.height,
            half_turned(&in_light.read.tiles, extent(turn)),
        );
        if reads_better_turned(&reading, &upside_down) {
            turn = turn.and_half();
            let mut photo = Sight::owning(turn.photo(image));
            let found = self.detect(photo.image())?;
            in_light = self.read_in_light(&mut photo, found)?;
            reading = lay_out_read(scale, turn.size(size), &mut in_light);
            turned = Some(photo);
        }
        let InLight {
            read,
            faint,
            mut lifted,
        } = in_light;
        let photo = lifted.as_mut().or(turned.as_mut()).unwrap_or(&mut sight);
        let mut reading = self.complete_hand(photo, scale, reading, read, &faint)?;
        for tile in &mut reading.tiles {
            tile.undo_turn(turn, extent(turn));
        }
        (reading.width, reading.height) = size;
        Ok((
            reading,
            lifted.map(|photo| turn.undo_photo(photo.into_image())),
        ))
    }

    /// Completes the hand of `tiles` read in `image` (in full-size pixels, `scale` times
    /// `image`'s), `reading` their layout ([`PhotoReading::lay_out`] of `tiles`): when they do
    /// not make a complete hand, tries the faint boxes one at a time, best first: the first
    /// whose tile completes the hand (see [`completes`]) joins it. The faint boxes are read
    /// against the axis the sure ones were read against. When none does, the gaps of the hand
    /// row are read (see [`Recognizer::fill_row_gaps`]). A complete hand is then searched for
    /// added kans read as pons (see [`Recognizer::stack_added_tiles`]).
    ///
    /// The detector scores some faces low, the blank white dragon most of all (0.08–0.27 where
    /// most tiles score 0.6 or more), and a threshold low enough to keep them keeps clutter
    /// too. A winning hand says where a tile is missing: the other thirteen wait on a few
    /// tiles only, so clutter that reads as one of them and lies where the layout puts it into
    /// the hand is rare. Measured on held-out fixtures (model card, "Faint boxes that complete
    /// the hand").
    fn complete_hand(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        mut reading: PhotoReading,
        ReadTiles { tiles, up, face }: ReadTiles,
        faint: &[(RotatedBox, f32)],
    ) -> Result<PhotoReading, VisionError> {
        let complete = reading.hand.as_ref().is_some_and(|h| h.complete);
        if !complete && !tiles.is_empty() {
            let completed = match self.add_faint_tile(sight, scale, &reading, &tiles, faint, up)? {
                Some(completed) => Some(completed),
                None if self.settings.row_gaps => {
                    self.fill_row_gaps(sight, scale, &reading, &tiles, up)?
                }
                None => None,
            };
            let completed = completed
                .or_else(|| reading.with_alike_box_kept(&tiles))
                .or_else(|| reading.without_a_weak_tile());
            if let Some(completed) = completed {
                reading = completed;
            }
        }
        let mut reading = self.stack_added_tiles(sight, scale, reading, up)?;
        // A kan read as a pon and a missing dora indicator leave the hand complete.
        if self.settings.row_gaps && reading.complete_as_read() {
            reading = self.fill_kan_gaps(sight, scale, reading, up)?;
            reading = self.fill_wall_gaps(sight, scale, reading, up)?;
        }
        let reading = self.drop_off_tint_dora(sight, scale, reading, up, face);
        let reading = self.drop_blank_dora_in_a_row(sight, scale, reading, up)?;
        let reading = self.find_blank_dora(sight, scale, reading, faint, up, face)?;
        let reading = self.stack_blank_added_kans(sight, scale, reading, up, face)?;
        let reading = flag_off_tint_dora(sight, scale, reading, up, face);
        Ok(flag_missing_kan_dora(reading))
    }

    /// Drops each dora indicator the detector scored under [`OFF_TINT_SCORE`] whose face is more
    /// than [`OFF_TINT`] off the faces' tint (see [`picture::tint_difference`]): clutter beside
    /// the hand (a card, a letter of the table's pattern) read as a tile. No hand constrains a
    /// dora indicator, so nothing else catches one, and each is a han per tile it points at.
    ///
    /// A white dragon is held to the same 0.15: the pale backs and the chip read as white dragon
    /// indicators in four held-out fixtures lay 0.050-0.100 off and the FluffyStuff white
    /// dragons under 0.021, but the framed white dragons of real Chinese sets (the camerash
    /// photos) lay 0.004-0.066 off, so a closer limit would drop real ones.
    ///
    /// Grey and black clutter (a keyboard's keys) has no tint to tell it by, but is darker than
    /// the faces: an indicator whose face is under [`DARK_DORA`] of the faces' lightness is
    /// dropped too, and so is one not of the tiles' size ([`FAINT_SIZE`], as a faint box kept
    /// as a tile must be): a die read as a 2s, 0.56 of the tiles' long side, where the real
    /// indicators of the held-out fixtures were 0.70-1.10.
    fn drop_off_tint_dora(
        &self,
        sight: &Sight<'_>,
        scale: f32,
        reading: PhotoReading,
        up: f32,
        face: Option<[f32; 3]>,
    ) -> PhotoReading {
        let Some(face) = face else {
            return reading;
        };
        let off_colour = |d: &Detection| {
            let off = face_off(sight, scale, up, face, d);
            off.tint > OFF_TINT || off.light < DARK_DORA
        };
        let tile_sized = tile_sized(&reading.tiles);
        let off: Vec<RotatedBox> = reading
            .layout
            .dora
            .iter()
            .map(|&i| &reading.tiles[i])
            .filter(|d| {
                d.detector_score < OFF_TINT_SCORE && (off_colour(d) || !tile_sized(&d.rotated))
            })
            .map(|d| d.rotated)
            .collect();
        if off.is_empty() {
            return reading;
        }
        let tiles = reading
            .tiles
            .into_iter()
            .filter(|d| !off.contains(&d.rotated))
            .collect();
        PhotoReading::lay_out(reading.width, reading.height, tiles)
    }

    /// Takes each white dragon dora indicator with a blank face beside it, where the detector
    /// drew no box, for a back: one pitch (the concealed tiles') either side of it along the
    /// hand row, a crop of its size reads as a white dragon or a pale back at least
    /// [`BLANK_DORA_SURE`] sure, of its own tint (within [`BLANK_DORA_TINT`]) and lightness
    /// (within [`BLANK_ROW_LIGHT`]): bare table reads as a blank face too, a cream one 0.2 off
    /// in tint, a grey one of no tint at 0.32 of the face's lightness. It then lies in a row of
    /// blank faces, as the layout takes two blank faces in a row outside the hand for backs of
    /// a set with ivory backs (see [`layout::lay_out`]): here the row's other tiles are unseen.
    /// The detector misses most of a wall of pale backs left on the table and reads one of its
    /// few boxes as a white dragon, which was then scored as an indicator (held-out seeds with a
    /// wall, 2026-11-27).
    fn drop_blank_dora_in_a_row(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        reading: PhotoReading,
        up: f32,
    ) -> Result<PhotoReading, VisionError> {
        let mut backs = Vec::new();
        for (i, places) in blank_dora_neighbour_places(&reading) {
            let own = face_colour_of(sight, &reading.tiles[i].rotated.scaled(1.0 / scale), up);
            let places = places
                .iter()
                .map(|b| (b.scaled(1.0 / scale), PLACE_SCORE))
                .collect();
            let blank_beside =
                self.read_along(sight, places, up)?
                    .into_iter()
                    .any(|(n, _, colour)| {
                        let off = FaceOff::between(colour, own);
                        (n.reads_blank() || n.pale_back())
                            && n.blank_probability() >= BLANK_DORA_SURE
                            && off.tint <= BLANK_DORA_TINT
                            && BLANK_ROW_LIGHT.contains(&off.light)
                    });
            if blank_beside {
                backs.push(i);
            }
        }
        if backs.is_empty() {
            return Ok(reading);
        }
        let mut tiles = reading.tiles;
        for i in backs {
            tiles[i].read_as_back();
        }
        Ok(PhotoReading::lay_out(reading.width, reading.height, tiles))
    }

    /// Looks for an added kan of white dragons read as a pon (which step 8,
    /// [`Recognizer::stack_added_tiles`], leaves alone): where the stacked pair would lie on a
    /// called pon of white dragons of a complete hand (see [`blank_stack_places`]), both crops,
    /// laid sideways, must read as a white dragon within [`BLANK_DORA_TINT`] of the faces'
    /// tint, the lower one (over the called tile) at least [`BLANK_DORA_SURE`] sure and the
    /// upper one at least [`BLANK_STACK_SURE`]. The pair then takes the called tile's place as
    /// in step 8, when the layout stacks it and the hand stays complete as read, and is marked
    /// uncertain for the user to check.
    ///
    /// The detector draws no box over many a stacked white dragon, and a pon scores as well as
    /// an added kan, short of the kan's fu. Beside a white dragon pon with nothing stacked, the
    /// upper place on the far side of the row reads as bare table or a back, not as a blank
    /// face: on the 4,220 fixtures (20 committed, 4,200 held out), the 133 white dragon pons
    /// with nothing stacked read it at most 0.40 sure a white dragon within the tint, the 8
    /// added kans 0.73-0.98.
    fn stack_blank_added_kans(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        mut reading: PhotoReading,
        up: f32,
        face: Option<[f32; 3]>,
    ) -> Result<PhotoReading, VisionError> {
        let Some(face) = face else {
            return Ok(reading);
        };
        let mut added_boxes: Vec<RotatedBox> = Vec::new();
        'found: loop {
            for place in blank_stack_places(&reading, up) {
                let boxes = place
                    .pair
                    .map(|b| (b.scaled(1.0 / scale), PLACE_SCORE))
                    .to_vec();
                let read = self.read_along(sight, boxes, up)?;
                if read.len() != 2 {
                    continue;
                }
                let mut added: Vec<Detection> = Vec::with_capacity(2);
                for ((mut d, _, colour), sure) in
                    read.into_iter().zip([BLANK_DORA_SURE, BLANK_STACK_SURE])
                {
                    d.scale(scale);
                    d.lay_as(true);
                    // The sideways reading's own probability: a blank face's confidence is
                    // its surer reading's (see `Detection::lay_as`).
                    let white = d.reads_blank()
                        && d.probs[WHITE_DRAGON.class()] >= sure
                        && picture::tint_difference(colour, face) <= BLANK_DORA_TINT;
                    if white {
                        added.push(d);
                    }
                }
                if added.len() != 2 {
                    continue;
                }
                let boxes = added.iter().map(|d| d.rotated).collect::<Vec<_>>();
                if let Some(with_kan) = reading.with_pair_stacked(&place, added) {
                    reading = with_kan;
                    added_boxes.extend(boxes);
                    continue 'found;
                }
            }
            break;
        }
        if let Some(hand) = reading.hand.as_mut() {
            for (i, d) in reading.tiles.iter().enumerate() {
                if added_boxes.contains(&d.rotated) {
                    layout::doubt(&mut hand.uncertain, i);
                }
            }
        }
        Ok(reading)
    }

    /// A dora indicator a complete hand was read without: a white dragon among the dead wall's
    /// backs (see [`Recognizer::find_blank_dora_among_backs`]); else, when no indicator was
    /// read at all, the first faint box (best first, see [`FAINT_TRIED`]) read as a face (not
    /// a back) at least [`LONE_DORA_SURE`] sure, of the read tiles' size, of their face colour
    /// (see [`BLANK_DORA_TINT`]), and laid out as a dora indicator with the hand unchanged.
    ///
    /// The detector scores a white dragon shown alone above the hand as low as 0.05-0.2 (a
    /// blank ivory rectangle, with no tile beside it), while among other indicators it scores
    /// one 0.5-0.8; other lone indicators sometimes as low. A photo seldom shows a hand without
    /// its dora indicators, and the face colour keeps out clutter and the pale backs of a dead
    /// wall, which read as white dragons just as surely.
    fn find_blank_dora(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        reading: PhotoReading,
        faint: &[(RotatedBox, f32)],
        up: f32,
        face: Option<[f32; 3]>,
    ) -> Result<PhotoReading, VisionError> {
        let Some(face) = face else {
            return Ok(reading);
        };
        let complete = reading.hand.as_ref().is_some_and(|h| h.complete);
        let floor = self.settings.blank_dora_threshold;
        if floor <= 0.0 || !complete {
            return Ok(reading);
        }
        // The dead wall's backs first, whether other indicators were read beside them or none
        // was (a wall of coloured backs with a white dragon among them, read as a back too).
        let reading = self.find_blank_dora_among_backs(sight, scale, reading, up, face)?;
        if !reading.layout.dora.is_empty() || faint.is_empty() {
            return Ok(reading);
        }
        let tile_sized = tile_sized(&reading.tiles);
        let apart: Vec<(RotatedBox, f32)> = faint
            .iter()
            .filter(|&&(b, score)| score >= floor && apart(&b.scaled(scale), &reading.tiles))
            .take(FAINT_TRIED)
            .copied()
            .collect();
        let candidates = self.read_along(sight, apart, up)?.into_iter().filter_map(
            |(mut candidate, _, colour)| {
                candidate.scale(scale);
                let face_up = candidate.tile != Face::Back;
                (face_up
                    && candidate.confidence >= LONE_DORA_SURE
                    && tile_sized(&candidate.rotated)
                    && picture::tint_difference(colour, face) <= BLANK_DORA_TINT)
                    .then_some(candidate)
            },
        );
        Ok(reading.with_one_more_dora(candidates))
    }

    /// A dora indicator the detector drew no box over, in the dead wall beside the indicators
    /// read: the places of the wall's row where a tile may be missing (see
    /// [`wall_gap_places`]) are read, and the first face (not a blank one) read at least
    /// [`GAP_SURE`] sure that lays out as one more dora indicator with the hand unchanged is
    /// kept (`reading`'s hand is complete as read). Each indicator is a han of every tile it
    /// points at, and a hand complete without one scores short without a word.
    ///
    /// When the hand's kans still call for more indicators than it shows (see
    /// [`lacks_kan_dora`]), one is missing for sure, and the places one pitch past the row's ends
    /// are read too (see [`wall_end_places`]): the first face read there at least
    /// [`KAN_DORA_SURE`] sure is kept in the same way and marked uncertain.
    fn fill_wall_gaps(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        reading: PhotoReading,
        up: f32,
    ) -> Result<PhotoReading, VisionError> {
        let gaps = self.faces_at(sight, scale, &wall_gap_places(&reading), up, GAP_SURE)?;
        let reading = reading.with_one_more_dora(gaps);
        if !lacks_kan_dora(&reading) {
            return Ok(reading);
        }
        let ends = self.faces_at(sight, scale, &wall_end_places(&reading), up, KAN_DORA_SURE)?;
        let shown = reading.layout.dora.len();
        let mut reading = reading.with_one_more_dora(ends);
        if reading.layout.dora.len() > shown {
            // The one added is not known by index after the new layout: all are doubted.
            reading.doubt_dora();
        }
        Ok(reading)
    }

    /// The faces (not blank ones) read at least `sure` sure at `places` (full-size pixels).
    fn faces_at(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        places: &[RotatedBox],
        up: f32,
        sure: f32,
    ) -> Result<Vec<Detection>, VisionError> {
        let places = places
            .iter()
            .map(|b| (b.scaled(1.0 / scale), PLACE_SCORE))
            .collect();
        Ok(self
            .read_along(sight, places, up)?
            .into_iter()
            .filter_map(|(mut candidate, ..)| {
                // A missed back of the wall reads as a white dragon where the backs are pale.
                let blank = candidate.tile == Face::Back || candidate.reads_blank();
                candidate.scale(scale);
                (!blank && candidate.confidence >= sure).then_some(candidate)
            })
            .collect())
    }

    /// A white dragon indicator read as a back of the dead wall, beside the other indicators or
    /// with none read: of the backs left out of the hand, read again, the one alone in having
    /// the faces' tint (within [`BLANK_DORA_TINT`]) and reading as a blank (a back or a white
    /// dragon) at least [`BLANK_DORA_SURE`] sure is taken for a white dragon when it lays out
    /// as one more dora indicator with the hand unchanged. Until 2026-11-27 it was looked for
    /// only beside other indicators: three held-out fixtures whose only indicator was a white
    /// dragon among coloured backs were scored without it, one without a word.
    ///
    /// The classifier reads a blank ivory face as a back as readily as a white dragon; the
    /// dead wall's backs of a set with coloured backs differ from the faces in tint, and in a
    /// set with ivory backs every back has the faces' tint, so none is alone in it.
    fn find_blank_dora_among_backs(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        reading: PhotoReading,
        up: f32,
        face: [f32; 3],
    ) -> Result<PhotoReading, VisionError> {
        let backs: Vec<usize> = reading
            .layout
            .unplaced
            .iter()
            .copied()
            .filter(|&i| reading.tiles[i].tile == Face::Back)
            .collect();
        // Boxes the detector drew: each keeps its score, which tells later steps it was seen.
        let boxes = backs
            .iter()
            .map(|&i| {
                let back = &reading.tiles[i];
                (back.rotated.scaled(1.0 / scale), back.detector_score)
            })
            .collect();
        // (index into the tiles, the reading, its tint off the faces')
        let mut read: Vec<(usize, Detection, f32)> = self
            .read_along(sight, boxes, up)?
            .into_iter()
            .filter(|(d, ..)| d.blank_probability() >= BLANK_DORA_SURE)
            .filter_map(|(d, _, colour)| {
                let at = backs
                    .iter()
                    .position(|&i| reading.tiles[i].rotated.scaled(1.0 / scale) == d.rotated)?;
                Some((backs[at], d, picture::tint_difference(colour, face)))
            })
            .collect();
        read.sort_by(|a, b| a.2.total_cmp(&b.2));
        // One of the faces' tint, and the others (at least one) clearly not.
        let alone = match &read[..] {
            [first, second, ..] => {
                first.2 <= BLANK_DORA_TINT && second.2 > BLANK_DORA_TINT.max(2.0 * first.2)
            }
            _ => false,
        };
        if !alone {
            return Ok(reading);
        }
        let (replaced, mut dragon, _) = read.swap_remove(0);
        dragon.scale(scale);
        dragon.read_as_white_dragon();
        let mut tiles = reading.tiles.clone();
        tiles.remove(replaced);
        tiles.push(dragon);
        let with = PhotoReading::lay_out(reading.width, reading.height, tiles);
        Ok(if reading.one_more_dora(&with) {
            with
        } else {
            reading
        })
    }

    /// The reading with the first of the faint boxes (the best [`FAINT_TRIED`]) whose tile
    /// completes the hand as it stands (see [`completes`]), if any; `reading` was laid out from
    /// `tiles`, in full-size pixels, `scale` times `image`'s.
    fn add_faint_tile(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        reading: &PhotoReading,
        tiles: &[Detection],
        faint: &[(RotatedBox, f32)],
        up: f32,
    ) -> Result<Option<PhotoReading>, VisionError> {
        let tried: Vec<(RotatedBox, f32)> = faint
            .iter()
            .filter(|b| self.settings.faint_enough(b.1))
            .take(FAINT_TRIED)
            .copied()
            .collect();
        for (mut candidate, ..) in self.read_along(sight, tried, up)? {
            candidate.scale(scale);
            let completed = reading.with_tile(tiles, candidate);
            if completes(reading, &completed) {
                return Ok(Some(completed));
            }
        }
        Ok(None)
    }

    /// Reads the places of `reading`'s hand row where a tile may be missing (see
    /// [`row_gap_places`]) and returns the reading with the first one that completes the hand as
    /// it stands (see [`completes`]). When none does, the surest of them, a face read at least
    /// [`GAP_SURE`] sure, is kept for one more round on the row it makes, which must then be
    /// completed: a hand that lacks two tiles of its row (seed 16's 19 lacks its first two).
    /// `tiles` are the read tiles `reading` was laid out from, in full-size pixels, `scale` times
    /// `image`'s.
    ///
    /// The detector sometimes draws no box at all over a tile of a tilted or steep row, not even
    /// a faint one, while the tiles beside it say where it lies; bare table or a painted-out tile
    /// reads as "not a tile" there (`no_faint_box_stands_in_for_a_tile_that_is_gone`).
    fn fill_row_gaps(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        reading: &PhotoReading,
        tiles: &[Detection],
        up: f32,
    ) -> Result<Option<PhotoReading>, VisionError> {
        let mut base = tiles.to_vec();
        let mut laid: Option<PhotoReading> = None;
        for _ in 0..GAP_ROUNDS {
            let mut surest: Option<(Detection, Option<RotatedBox>)> = None;
            let gaps = row_gap_places(laid.as_ref().unwrap_or(reading));
            let places: Vec<RotatedBox> =
                gaps.iter().map(|g| g.place.scaled(1.0 / scale)).collect();
            let boxes = places.iter().map(|&b| (b, PLACE_SCORE)).collect();
            // Read in one batch; the veto drops some, and each reading keeps its place's box.
            for (mut candidate, ..) in self.read_along(sight, boxes, up)? {
                let Some(k) = places.iter().position(|&b| b == candidate.rotated) else {
                    continue;
                };
                let gap = gaps[k];
                candidate.scale(scale);
                let kept = without(&base, gap.replaces);
                let completed = reading.with_tile(&kept, candidate.clone());
                if completes(reading, &completed) {
                    return Ok(Some(completed));
                }
                let sure = candidate.tile != Face::Back && candidate.confidence >= GAP_SURE;
                if sure
                    && surest
                        .as_ref()
                        .is_none_or(|(s, _)| s.confidence < candidate.confidence)
                {
                    surest = Some((candidate, gap.replaces));
                }
            }
            let Some((next, replaces)) = surest else {
                break;
            };
            base = without(&base, replaces);
            let next_row = reading.with_tile(&base, next.clone());
            base.push(next);
            laid = Some(next_row);
        }
        Ok(None)
    }

    /// Looks for a kan read as a pon because the detector drew no box over its fourth tile: the
    /// places where each pon's fourth tile would lie (see [`kan_places`]) are read, and the
    /// first tile read at least [`GAP_SURE`] sure as the kind of a pon of the hand is kept when
    /// it lays out as one more kan with the hand complete as read (`reading`'s is). A kan read
    /// as a pon still completes the hand, so the gaps of [`Recognizer::fill_row_gaps`] are not
    /// read for it, and the score would lack the kan's fu (and sankantsu) without a word.
    fn fill_kan_gaps(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        reading: PhotoReading,
        up: f32,
    ) -> Result<PhotoReading, VisionError> {
        let pons: Vec<(Kind, &[usize])> = reading
            .layout
            .melds
            .iter()
            .filter_map(|m| Some((m.pon_kind(&reading.tiles)?, &m.tiles[..])))
            .collect();
        if pons.is_empty() {
            return Ok(reading);
        }
        let kans = |r: &PhotoReading| {
            r.hand
                .as_ref()
                .map_or(0, |h| h.melds.iter().filter(|m| m.kind().is_kan()).count())
        };
        let places: Vec<(RotatedBox, f32)> = kan_places(&reading)
            .iter()
            .map(|b| (b.scaled(1.0 / scale), PLACE_SCORE))
            .collect();
        for (mut candidate, ..) in self.read_along(sight, places, up)? {
            let pon = pons.iter().find(|(k, _)| candidate.tile.kind() == Some(*k));
            let Some(&(_, pon)) = pon.filter(|_| candidate.confidence >= GAP_SURE) else {
                continue;
            };
            candidate.scale(scale);
            // The pon's copies as read, not as laid: which of them lies sideways is for the
            // layout to say again with the fourth beside them.
            let mut tiles = reading.tiles.clone();
            for &i in pon {
                tiles[i].lay_as_read();
            }
            let with = reading.with_tile(&tiles, candidate);
            if completes(&reading, &with) && kans(&with) > kans(&reading) {
                return Ok(with);
            }
        }
        Ok(reading)
    }

    /// Looks for an added kan read as a pon: where the two stacked tiles of an added kan would
    /// lie on each called pon of a complete hand (see [`added_kan_places`]), both crops, laid
    /// sideways, must read as the pon's tile at least [`ADDED_CONFIDENCE`] sure (and "not a
    /// tile" under [`STACK_NOT_TILE`]). Their two tiles then take the called tile's place, and
    /// are kept when the layout stacks them and the hand stays complete as read. The closer
    /// places ([`TIGHT_SIDE`]) are read only when none of the measured ones gives a kan, and the
    /// measured ones turned to the called tile's box (see [`turned_to_called`]) only after them.
    ///
    /// The detector often draws one box over an added kan's two stacked tiles, anywhere from
    /// one tile's size over either of them to the pair's size, and nothing over the other even
    /// at a score of 0.05; a pon completes the hand as well as a kan, so the faint boxes (see
    /// [`Recognizer::complete_hand`]) cannot tell, and the hand would be scored without the
    /// kan. Beyond the called tile of a pon that is not a kan lies bare table, which does not
    /// read as the pon's tile.
    fn stack_added_tiles(
        &mut self,
        sight: &mut Sight<'_>,
        scale: f32,
        mut reading: PhotoReading,
        up: f32,
    ) -> Result<PhotoReading, VisionError> {
        // Each added kan found lays the hand out again, and the places are measured again on it.
        'found: loop {
            for places in added_kan_places(&reading, up) {
                // The upper tile matters only where the lower one reads surely as the pon's
                // kind (see `Reading::same_tile`): it is read there alone, so a place of bare
                // table costs one crop, not two.
                let crop = |place: &AddedKanPlace, k: usize| place.pair[k].scaled(1.0 / scale);
                let lower: Vec<RotatedBox> = places.iter().map(|p| crop(p, 0)).collect();
                let lower = self.classify(sight, &lower)?;
                let hopeful: Vec<(&AddedKanPlace, Reading)> = places
                    .iter()
                    .zip(lower)
                    .filter(|(place, read)| {
                        read.best().0.and_then(Face::kind) == Some(place.kind)
                            && read.is_sure_tile(place.sure)
                    })
                    .collect();
                let upper: Vec<RotatedBox> = hopeful.iter().map(|(p, _)| crop(p, 1)).collect();
                let upper = self.classify(sight, &upper)?;
                for ((place, lower), upper) in hopeful.into_iter().zip(&upper) {
                    if !Reading::same_tile(&lower, upper, place.sure, STACK_NOT_TILE) {
                        continue;
                    }
                    let boxes = place
                        .pair
                        .map(|b| (b.scaled(1.0 / scale), PLACE_SCORE))
                        .to_vec();
                    let mut added: Vec<Detection> = self
                        .read_along(sight, boxes, up)?
                        .into_iter()
                        .map(|(d, ..)| d)
                        .collect();
                    if added.len() != 2 {
                        continue;
                    }
                    // The places are a sideways tile's: the pair is laid so whichever way its
                    // readings lean (a 9p reads alike both ways), and the layout stacks it.
                    for d in &mut added {
                        d.scale(scale);
                        d.lay_as(true);
                    }
                    if let Some(with_kan) = reading.with_pair_stacked(place, added) {
                        reading = with_kan;
                        continue 'found;
                    }
                }
            }
            break;
        }
        Ok(reading)
    }
}

/// How many tiles a gap of `step` between two tiles' centres holds, the row's pitch being
/// `pitch`: one from [`GAP_ONE`] pitches, two from [`GAP_TWO`].
fn missing_in(step: f32, pitch: f32) -> usize {
    match step / pitch {
        r if r >= GAP_TWO => 2,
        r if r >= GAP_ONE => 1,
        _ => 0,
    }
}

/// How far the centre of `b` lies across the line through the centre of `origin` along `dir`,
/// times the length of `dir` (the distance itself for a unit `dir`).
fn across_line(origin: &RotatedBox, dir: (f32, f32), b: &RotatedBox) -> f32 {
    ((b.cy - origin.cy) * dir.0 - (b.cx - origin.cx) * dir.1).abs()
}

/// The concealed tiles' line: their median centre-to-centre pitch and the unit direction from
/// the first to the last. `None` with fewer than two, or the first and last in one place.
fn concealed_line(reading: &PhotoReading) -> Option<(f32, (f32, f32))> {
    let l = &reading.layout;
    let centre = |i: usize| (reading.tiles[i].rotated.cx, reading.tiles[i].rotated.cy);
    let (a, b) = (centre(*l.concealed.first()?), centre(*l.concealed.last()?));
    let length = (b.0 - a.0).hypot(b.1 - a.1);
    if l.concealed.len() < 2 || length < 1.0 {
        return None;
    }
    let steps = l
        .concealed
        .windows(2)
        .map(|p| {
            let (a, b) = (centre(p[0]), centre(p[1]));
            (b.0 - a.0).hypot(b.1 - a.1)
        })
        .collect();
    let along = ((b.0 - a.0) / length, (b.1 - a.1) / length);
    Some((layout::median(steps), along))
}

/// The dead wall's row, in full-size pixels: the dora indicators and the tiles left out of the
/// hand less than half a pitch off the line through the first indicator along the hand row (the
/// pitch being the concealed tiles' median, as in [`row_gap_places`]), in order along it.
struct WallRow {
    /// Indices into the tiles, and how far along the row each lies.
    row: Vec<(usize, f32)>,
    pitch: f32,
    along: (f32, f32),
}

impl WallRow {
    fn of(reading: &PhotoReading) -> Option<WallRow> {
        let l = &reading.layout;
        let tiles = &reading.tiles;
        let (&dora, (pitch, along)) = (l.dora.first()?, concealed_line(reading)?);
        if pitch < 1.0 {
            return None;
        }
        let centre = |i: usize| (tiles[i].rotated.cx, tiles[i].rotated.cy);
        let origin = centre(dora);
        let off = |i: usize| {
            let (x, y) = centre(i);
            ((y - origin.1) * along.0 - (x - origin.0) * along.1).abs()
        };
        let mut row: Vec<(usize, f32)> = l
            .dora
            .iter()
            .chain(&l.unplaced)
            .copied()
            .filter(|&i| off(i) < 0.5 * pitch)
            .map(|i| {
                let (x, y) = centre(i);
                (i, (x - origin.0) * along.0 + (y - origin.1) * along.1)
            })
            .collect();
        row.sort_by(|p, q| p.1.total_cmp(&q.1));
        row.dedup_by_key(|p| p.0);
        Some(WallRow { row, pitch, along })
    }

    /// Tile `i`'s box moved `by` pixels along the row.
    fn moved(&self, reading: &PhotoReading, i: usize, by: f32) -> RotatedBox {
        reading.tiles[i].rotated.moved_along(self.along, by)
    }
}

/// Where tiles may be missing from the dead wall's row (see [`WallRow`]), in full-size pixels:
/// the places are evenly spaced in each gap of [`GAP_ONE`] pitches or more between neighbours
/// (two from [`GAP_TWO`]), each the size and angle of its neighbour's box, less those on a tile
/// read already. Not beyond the row's ends (but see [`wall_end_places`]): bare table there
/// reads as a face surely too often (a 9p of seed 98's 02 beside the wall's first back).
fn wall_gap_places(reading: &PhotoReading) -> Vec<RotatedBox> {
    let Some(wall) = WallRow::of(reading) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for pair in wall.row.windows(2) {
        let step = pair[1].1 - pair[0].1;
        let missing = missing_in(step, wall.pitch);
        for k in 1..=missing {
            out.push(wall.moved(reading, pair[0].0, step * k as f32 / (missing + 1) as f32));
        }
    }
    out.retain(|place| apart(place, &reading.tiles));
    out
}

/// The places one pitch past either end of the dead wall's row (see [`WallRow`]), in full-size
/// pixels, inside the photo and on no tile read already.
fn wall_end_places(reading: &PhotoReading) -> Vec<RotatedBox> {
    let Some(wall) = WallRow::of(reading) else {
        return Vec::new();
    };
    let ends = [
        wall.row
            .first()
            .map(|&(i, _)| wall.moved(reading, i, -wall.pitch)),
        wall.row
            .last()
            .map(|&(i, _)| wall.moved(reading, i, wall.pitch)),
    ];
    ends.into_iter()
        .flatten()
        .filter(|b| reading.in_frame(b) && apart(b, &reading.tiles))
        .collect()
}

/// Whether the hand read shows fewer dora indicators than its kans call for: the table turns
/// one indicator and one more per kan declared, by anyone, so a hand of k kans shows k + 1 or
/// more, or none where the dead wall is not in the photo. None of the 4,200 held-out fixtures'
/// hands shows fewer; other art 13's 19, a closed kan whose second indicator (a 6s against a
/// busy table) got no box, was scored two han short without a word.
fn lacks_kan_dora(reading: &PhotoReading) -> bool {
    let Some(hand) = &reading.hand else {
        return false;
    };
    let kans = hand.melds.iter().filter(|m| m.kind().is_kan()).count();
    let shown = hand.dora_indicators.len();
    shown > 0 && shown <= kans
}

/// For each dora indicator read as a white dragon, the places one pitch (the concealed tiles'
/// median, see [`concealed_line`]) either side of it along the hand row, in full-size pixels,
/// each the size and angle of its box: those on no tile read already and inside the photo (a
/// crop off its edge repeats the edge's pixels, often the indicator's own). Indicators with no
/// such place are left out.
fn blank_dora_neighbour_places(reading: &PhotoReading) -> Vec<(usize, Vec<RotatedBox>)> {
    let Some((pitch, along)) = concealed_line(reading) else {
        return Vec::new();
    };
    reading
        .layout
        .dora
        .iter()
        .copied()
        .filter(|&i| reading.tiles[i].reads_blank())
        .filter_map(|i| {
            let d = reading.tiles[i].rotated;
            let places: Vec<RotatedBox> = [-pitch, pitch]
                .iter()
                .map(|&by| d.moved_along(along, by))
                .filter(|b| apart(b, &reading.tiles) && reading.in_frame(b))
                .collect();
            (!places.is_empty()).then_some((i, places))
        })
        .collect()
}

/// Where the fourth tile of each pon of the hand would lie were it a kan, in full-size pixels:
/// beyond either end of the pon, upright and sideways (a sideways tile lies nearer the player,
/// see [`SIDEWAYS_DROP`], its long side along the row), of the size of the hand's upright tiles; the places that fall
/// on a tile read already are left out.
fn kan_places(reading: &PhotoReading) -> Vec<RotatedBox> {
    let tiles = &reading.tiles;
    let upright: Vec<(RotatedBox, f32)> = reading
        .layout
        .hand_row_tiles()
        .filter(|&i| !tiles[i].sideways && tiles[i].tile != Face::Back)
        .map(|i| (tiles[i].rotated, 0.0))
        .collect();
    if upright.is_empty() {
        return Vec::new();
    }
    let sides = box_sides(&upright);
    let high = layout::median(sides.iter().map(|s| s.0).collect());
    let wide = layout::median(sides.iter().map(|s| s.1).collect());
    let long = high.max(layout::TILE_ASPECT * wide);
    // Along the concealed tiles, whose centres lie in line; a meld's called tile lies lower.
    let Some((_, along)) = concealed_line(reading) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for meld in &reading.layout.melds {
        if meld.pon_kind(tiles).is_none() {
            continue;
        }
        // Towards the player: across the row, down the photo.
        let mut near = (-along.1, along.0);
        if near.1 < 0.0 {
            near = (-near.0, -near.1);
        }
        let drop = SIDEWAYS_DROP * high;
        let row_up = (-near.1).atan2(-near.0);
        for (end, out_dir) in [(meld.tiles[0], -1.0), (meld.tiles[2], 1.0)] {
            let d = &tiles[end];
            let (extent, lowered) = if d.sideways {
                (long, drop)
            } else {
                (wide, 0.0)
            };
            // The end tile's place on the upright tiles' line.
            let (bx, by) = (
                d.rotated.cx - near.0 * lowered,
                d.rotated.cy - near.1 * lowered,
            );
            for sideways in [false, true] {
                let (size, lower) = if sideways { (long, drop) } else { (wide, 0.0) };
                let step = out_dir * (extent + size) / 2.0 * KAN_PLACE_STEP;
                let place = RotatedBox {
                    cx: bx + along.0 * step + near.0 * lower,
                    cy: by + along.1 * step + near.1 * lower,
                    w: wide,
                    h: high,
                    phi: row_up,
                };
                let place = if sideways {
                    RotatedBox {
                        h: long,
                        phi: row_up + std::f32::consts::FRAC_PI_2,
                        ..place
                    }
                } else {
                    place
                };
                if apart(&place, tiles) {
                    out.push(place);
                }
            }
        }
    }
    out
}

/// How much nearer the player a called tile's centre lies than its upright neighbours', in
/// their lengths across the row: the called tiles of held-out seeds 8-97's fixtures lie 0.08-0.17
/// nearer (median 0.126), their faces being shorter across the row and their near edges in
/// line.
const SIDEWAYS_DROP: f32 = 0.13;

/// How far past a pon's end tile [`kan_places`] puts a fourth tile, in half the two tiles'
/// lengths along the row: a little more than touching, as tiles of a meld lie.
const KAN_PLACE_STEP: f32 = 1.05;

/// The share of the sideways tile's measured extent at which [`added_kan_places`] are tried a
/// second time, and how sure both crops must read as the pon's tile there. The detector's box
/// over an upright tile often takes in its near side (the tile's thickness, seen at an angle),
/// which stretches the measure: in seed 44's 06 the stacked tiles lay 45 px apart where 56
/// were measured, the upper place a third of a tile off its tile (read 0.44 sure). Closer
/// together, both places of a pon with nothing stacked can straddle its called tile, each
/// half on it, and such halves read as the tile 0.75-0.79 sure (seed 19's 14, other art 54's
/// 07) where the stacked pairs found read 0.89 or more. White dragons are not looked for so
/// (see [`blank_stack_places`]): halves of a called white dragon read as blank faces as surely
/// as a stacked one (0.90-0.93 against 0.94-0.95).
const TIGHT_SIDE: f32 = 0.85;
const TIGHT_CONFIDENCE: f32 = 0.85;
/// How far (radians) the called tile's box must lie from an added kan's places for
/// [`turned_to_called`] to read them again turned to it: closer, the crops are the ones
/// already read.
const CALLED_TURN_MIN: f32 = 0.05;

/// Where an added kan's two stacked tiles would lie on a called pon (see
/// [`added_kan_places`]), in full-size pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
struct AddedKanPlace {
    /// The called tile's detection.
    called: usize,
    kind: Kind,
    /// The lower tile (in the row) and the upper one, laid sideways.
    pair: [RotatedBox; 2],
    /// How sure both crops must read as `kind`.
    sure: f32,
}

/// On each called pon of a complete hand (three tiles, the two upright ones of one kind, not
/// white dragons), the places of an added kan's two stacked sideways tiles on its called tile:
/// first on the tile the layout calls, then on each other copy that reads as the pon's kind,
/// since which copy of a tile that looks alike a quarter turned (1p, 4p, 9p) lies sideways is
/// what the layout is least sure of, and the stacked pair says it (seed 22's 07: a pon of 9p
/// called on its last copy while the pair lay on the middle one). Three sets: the places as
/// measured, then the same a sixth closer ([`TIGHT_SIDE`]), then the measured places turned to
/// the called tile's own box (see [`turned_to_called`]).
fn added_kan_places(reading: &PhotoReading, up: f32) -> [Vec<AddedKanPlace>; 3] {
    let [measured, tight] =
        [(1.0, ADDED_CONFIDENCE), (TIGHT_SIDE, TIGHT_CONFIDENCE)].map(|(share, sure)| {
            added_kan_places_at(reading, up, share)
                .into_iter()
                .map(|p| AddedKanPlace { sure, ..p })
                .collect::<Vec<_>>()
        });
    let turned = measured
        .iter()
        .filter_map(|p| turned_to_called(reading, p))
        .collect();
    [measured, tight, turned]
}

/// `place` with its crops turned to the angle of the box over its called tile, where that
/// angle is more than [`CALLED_TURN_MIN`] off theirs.
///
/// The places lie a quarter turn from the pon's upright tiles, which a steep shot foreshortens
/// unevenly: in other art seed 48's 19 the sideways tiles' own boxes lay 0.33 rad from there,
/// and both crops, cut so, read under [`ADDED_CONFIDENCE`] (the lower one 0.58, the upper one
/// as a green dragon), while the detector's box over the called tile lay at the tiles' angle.
/// Tried in place of the measured angle, the called tile's read 7 held-out kans worse (its box
/// is often squarer than the tile); as a last try after both measured sets it read that one
/// right and changed no other of the 4,200 held-out fixtures.
fn turned_to_called(reading: &PhotoReading, place: &AddedKanPlace) -> Option<AddedKanPlace> {
    let called = reading.tiles[place.called].rotated.phi;
    let turn = layout::quarter_turn_difference(called, place.pair[0].phi);
    (turn.abs() > CALLED_TURN_MIN).then(|| AddedKanPlace {
        pair: place.pair.map(|b| RotatedBox {
            phi: b.phi + turn,
            ..b
        }),
        sure: ADDED_CONFIDENCE,
        ..*place
    })
}

/// [`added_kan_places`] with the sideways tile's extent `share` times the measured one (see
/// [`stack_places`]).
fn added_kan_places_at(reading: &PhotoReading, up: f32, share: f32) -> Vec<AddedKanPlace> {
    let mut out = Vec::new();
    for (meld, chosen) in called_pons(reading) {
        let others = meld.tiles.iter().copied().filter(|&i| i != chosen);
        for called in std::iter::once(chosen).chain(others) {
            let Some([a, b]) = other_two(meld, called) else {
                continue;
            };
            // The pon's kind is its upright tiles': two equal upright tiles make a pon whatever
            // the called tile reads as, and the box over an added kan's stacked pair may read
            // as another tile (two 1p as a 5p in seed 33's 20). A blank face is left alone:
            // beside a white dragon pon, the called tile's own ivory body read as a white
            // dragon stacked on it (seed 11's 20, when the places were also measured from the
            // pon's other copies).
            let Some(kind) = reading.tiles[a]
                .tile
                .kind()
                .filter(|&k| k != Kind::HAKU && reading.tiles[b].tile.kind() == Some(k))
            else {
                continue;
            };
            if called != chosen && reading.tiles[called].tile.kind() != Some(kind) {
                continue;
            }
            out.extend(stack_places(reading, called, [a, b], kind, up, share));
        }
    }
    out
}

/// On each called pon of white dragons of a complete hand, the places of an added kan's two
/// stacked sideways tiles on the tile the layout calls (see [`stack_places`]), on the far side
/// of the row only: the layout reads a hand with its tiles' tops up the photo (see
/// [`reads_better_turned`]), and a player adds the fourth tile of a kan beyond the called one.
/// On the near side, the upper place takes in the row's near edge, the tiles' ivory sides, and
/// read as a white dragon up to 0.94 sure beside pons with nothing stacked (held-out seed 66's
/// 17), as surely as a stacked one.
fn blank_stack_places(reading: &PhotoReading, up: f32) -> Vec<AddedKanPlace> {
    let mut out = Vec::new();
    for (meld, called) in called_pons(reading) {
        let Some([a, b]) = other_two(meld, called) else {
            continue;
        };
        if reading.tiles[a].reads_blank() && reading.tiles[b].reads_blank() {
            let places = stack_places(reading, called, [a, b], Kind::HAKU, up, 1.0);
            out.extend(places.into_iter().filter(|p| p.pair[1].cy < p.pair[0].cy));
        }
    }
    out
}

/// The melds of a complete hand where an added kan may have been read as a pon (three tiles,
/// one called, none stacked), each with the tile the layout calls.
fn called_pons(reading: &PhotoReading) -> Vec<(&layout::MeldSpot, usize)> {
    if !reading.complete_as_read() {
        return Vec::new();
    }
    reading
        .layout
        .melds
        .iter()
        .filter(|m| !m.stacked && !m.closed_kan && m.tiles.len() == 3)
        .filter_map(|m| m.called.map(|c| (m, m.tiles[c])))
        .collect()
}

/// The two tiles of a three-tile meld beside `called`.
fn other_two(meld: &layout::MeldSpot, called: usize) -> Option<[usize; 2]> {
    let others: Vec<usize> = meld
        .tiles
        .iter()
        .copied()
        .filter(|&i| i != called)
        .collect();
    others.try_into().ok()
}

/// The places of an added kan's two stacked sideways tiles on the tile `called`, measured on
/// the pon's two upright tiles `uprights`: the lower tile's outer long side on the row's edge
/// where the called tile lies, the upper tile on it. Along the upright tiles' own up axis,
/// which in a steep shot leans from the hand's `up` towards the edges of the photo, as the
/// stack does; both ways along it, since the photo does not say which side of the row the
/// player sat (the wrong side's upper place is bare table).
///
/// A sideways tile's extent along that axis is its width seen as the upright tiles' heights are
/// seen, foreshortened alike in a steep shot: their extent along the axis times their width
/// over the tile's length (the called box's extent across the axis, or
/// [`layout::TILE_ASPECT`] upright widths where that box is not a tile's length), times
/// `share`.
fn stack_places(
    reading: &PhotoReading,
    called: usize,
    [a, b]: [usize; 2],
    kind: Kind,
    up: f32,
    share: f32,
) -> [AddedKanPlace; 2] {
    let (a, b) = (reading.tiles[a].rotated, reading.tiles[b].rotated);
    // The uprights' own axis: each box's axes (a box's sides may come either way round)
    // brought within an eighth of a turn of the hand's.
    let near_up = |phi: f32| up + layout::quarter_turn_difference(phi, up);
    let axis = (near_up(a.phi) + near_up(b.phi)) / 2.0;
    let (ea, eb) = (extents(&a, axis), extents(&b, axis));
    let (height, width) = ((ea.0 + eb.0) / 2.0, (ea.1 + eb.1) / 2.0);
    let c = reading.tiles[called].rotated;
    let length = match extents(&c, axis).1 {
        l if (1.15 * width..=1.6 * width).contains(&l) => l,
        _ => layout::TILE_ASPECT * width,
    };
    let side = share * height * width / length;
    // The row's centre line through the two uprights, where the called tile lies on it.
    let (dx, dy) = (b.cx - a.cx, b.cy - a.cy);
    let span = dx.hypot(dy);
    let (rx, ry) = if span > 0.5 * width {
        (dx / span, dy / span)
    } else {
        (-axis.sin(), axis.cos())
    };
    let t = (c.cx - a.cx) * rx + (c.cy - a.cy) * ry;
    let (px, py) = (a.cx + t * rx, a.cy + t * ry);
    [1.0, -1.0].map(|sign: f32| {
        let (ux, uy) = (sign * axis.cos(), sign * axis.sin());
        let place = |k: f32| RotatedBox {
            cx: px + ux * (k * side - height / 2.0),
            cy: py + uy * (k * side - height / 2.0),
            w: side,
            h: length,
            phi: axis + std::f32::consts::FRAC_PI_2,
        };
        AddedKanPlace {
            called,
            kind,
            pair: [place(0.5), place(1.5)],
            sure: ADDED_CONFIDENCE,
        }
    })
}

/// How the face of `d` (in full-size pixels, `scale` times `image`'s) looks beside the
/// faces' colour `face`.
struct FaceOff {
    /// How far off the faces' tint (see [`picture::tint_difference`]).
    tint: f32,
    /// Its brightest channel over the faces'.
    light: f32,
}

impl FaceOff {
    /// How `colour` looks beside `face`.
    fn between(colour: [f32; 3], face: [f32; 3]) -> FaceOff {
        let brightest = |c: [f32; 3]| c[0].max(c[1]).max(c[2]).max(1.0);
        FaceOff {
            tint: picture::tint_difference(colour, face),
            light: brightest(colour) / brightest(face),
        }
    }
}

fn face_off(sight: &Sight<'_>, scale: f32, up: f32, face: [f32; 3], d: &Detection) -> FaceOff {
    let colour = face_colour_of(sight, &d.rotated.scaled(1.0 / scale), up);
    FaceOff::between(colour, face)
}

/// Marks uncertain each dora indicator more than [`OFF_TINT`] off the faces' tint that
/// [`Recognizer::drop_off_tint_dora`] kept, the detector having scored it surely: no hand
/// constrains an indicator, so the user is asked to check one that looks unlike the tiles. On
/// the held-out fixtures: black cards with a grid read as an 8p indicator (0.41 off, scored
/// 0.60, a han the hand did not have) and as a 9p (0.35, 0.56), both trusted before; of the
/// 6,345 real indicators, 4, all 9p, whose pips fill the face (0.17-0.30).
fn flag_off_tint_dora(
    sight: &Sight<'_>,
    scale: f32,
    mut reading: PhotoReading,
    up: f32,
    face: Option<[f32; 3]>,
) -> PhotoReading {
    // The face-down tiles the layout left among the indicators indicate nothing.
    let indicators = reading.dora_ids();
    let (Some(face), Some(hand)) = (face, reading.hand.as_mut()) else {
        return reading;
    };
    for i in indicators {
        if face_off(sight, scale, up, face, &reading.tiles[i]).tint > OFF_TINT {
            layout::doubt(&mut hand.uncertain, i);
        }
    }
    reading
}

/// Marks uncertain the dora indicators of a hand that shows fewer of them than its kans call
/// for (see [`lacks_kan_dora`]) when none was found where one is missing
/// ([`Recognizer::fill_wall_gaps`]): a han per tile each missing one points at is scored short.
fn flag_missing_kan_dora(mut reading: PhotoReading) -> PhotoReading {
    if lacks_kan_dora(&reading) {
        reading.doubt_dora();
    }
    reading
}

/// The face colour (see [`picture::face_colour`]) of the box `b` of `sight`'s image, cropped
/// along the hand's `up` axis as [`Recognizer::read_along`] crops it: the colour measured when
/// that crop was read (see [`Recognizer::read_crops`]), else measured now.
fn face_colour_of(sight: &Sight<'_>, b: &RotatedBox, up: f32) -> [f32; 3] {
    let b = crop_along(b, up);
    if let Some((_, colour)) = sight.seen(&b).and_then(|s| s.face) {
        return colour;
    }
    let crop = picture::crops(sight.image(), &[b]);
    picture::face_colour(&crop, picture::face_value(&crop))
}

/// The box `b` cropped with its up axis along `axis`: as drawn up to [`SNAP_TOLERANCE`] off it,
/// else snapped to it (see [`snapped`]).
fn crop_along(b: &RotatedBox, axis: f32) -> RotatedBox {
    if layout::axis_difference(b.phi, axis) <= SNAP_TOLERANCE {
        *b
    } else {
        snapped(b, axis)
    }
}

/// Which way a photo was turned to read its hand the way up its owner sees it (see
/// [`Recognizer::read_found`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Turn {
    None,
    Anticlockwise,
    Half,
    Clockwise,
}

impl Turn {
    /// This turn and half a turn more.
    fn and_half(self) -> Turn {
        match self {
            Turn::None => Turn::Half,
            Turn::Anticlockwise => Turn::Clockwise,
            Turn::Half => Turn::None,
            Turn::Clockwise => Turn::Anticlockwise,
        }
    }

    /// `image` turned so.
    fn photo(self, image: &Rgb) -> Rgb {
        match self {
            Turn::None => image.clone(),
            Turn::Anticlockwise => image.turned_anticlockwise(),
            Turn::Half => image.half_turned(),
            Turn::Clockwise => image.turned_clockwise(),
        }
    }

    /// The photo turned so, turned back.
    fn undo_photo(self, image: Rgb) -> Rgb {
        match self {
            Turn::None => image,
            Turn::Anticlockwise => image.turned_clockwise(),
            Turn::Half => image.half_turned(),
            Turn::Clockwise => image.turned_anticlockwise(),
        }
    }

    /// The width and height of a photo `size` large turned so.
    fn size(self, (width, height): (u32, u32)) -> (u32, u32) {
        match self {
            Turn::None | Turn::Half => (width, height),
            Turn::Anticlockwise | Turn::Clockwise => (height, width),
        }
    }

    /// A box in the photo turned so, which spans `extent` of its pixels, where it lies in the
    /// photo.
    fn undo_box(self, b: &RotatedBox, (width, height): (f32, f32)) -> RotatedBox {
        match self {
            Turn::None => *b,
            Turn::Anticlockwise => b.turned_clockwise(height),
            Turn::Half => b.half_turned(width, height),
            Turn::Clockwise => b.turned_anticlockwise(width),
        }
    }
}

/// Moves the tiles `in_light` read to full-size pixels (`scale` times the photo's) and lays
/// them out in a photo `size` large.
fn lay_out_read(scale: f32, size: (u32, u32), in_light: &mut InLight) -> PhotoReading {
    for tile in &mut in_light.read.tiles {
        tile.scale(scale);
    }
    PhotoReading::lay_out(size.0, size.1, in_light.read.tiles.clone())
}

/// Whether the tiles `read`, at least [`ACROSS_TILES`] of them, lie across their photo, their
/// tops to one side: the up axis they were read against lies within [`ACROSS`] of the photo's
/// width, or most tiles' nearest neighbours lie along that axis rather than across it (see
/// [`rows_along`]). A hand beside an overhead camera, or a phone photo taken on its side
/// without an orientation tag, shows its tiles so. Fewer tiles make no hand, and a frame
/// without tiles (whose up axis is 0) is not read again.
fn lie_across(read: &ReadTiles) -> bool {
    read.tiles.len() >= ACROSS_TILES
        && (layout::axis_difference(read.up, 0.0) < ACROSS || rows_along(&read.tiles, read.up))
}

/// Whether `across`, the tiles of a photo whose tiles `read` lie across it (see [`lie_across`])
/// read again with the photo turned a quarter, is the better reading: its tiles no longer lie
/// across, and together they read at least [`ACROSS_SURELY`] as surely as before (the sum of
/// their confidences) or lay out as a `complete` hand (asked only then: it lays them out).
///
/// The turn is for a hand shot from its side; a photo of small tiles lying every way, whose up
/// axis came out across it by chance, reads worse turned (a far shot of 25 tiles among the
/// synthetic test scenes: 11 read right as it lay, 4 turned). A hand turned a quarter can
/// read a little less surely upright than as it lies, in fewer boxes (held-out seed 11's 12
/// turned clockwise: 16 tiles summing 15.4 against 19 summing 17.5), and is then told by
/// making a hand, or by reading nearly as surely when a later step completes it (seed 8's 02
/// turned anticlockwise: 13.33 against 13.97).
fn reads_better_across(
    read: &ReadTiles,
    across: &ReadTiles,
    complete: impl FnOnce() -> bool,
) -> bool {
    !lie_across(across)
        && (across.summed_confidence() >= ACROSS_SURELY * read.summed_confidence() || complete())
}

/// The share of a photo's tiles' summed confidence as it lies that its tiles read turned a
/// quarter must reach for [`reads_better_across`] to keep them so.
const ACROSS_SURELY: f32 = 0.95;

/// The fewest tiles [`lie_across`] turns a photo for.
const ACROSS_TILES: usize = 5;

/// Whether more of the `tiles`' nearest neighbours lie within [`ROW_CONE`] of the axis `up`
/// than within it of the axis across, counting only neighbours that touch (centres at most
/// [`ROW_TOUCH`] of the tile's longer side apart): the tiles' rows then run along what was
/// taken for their up axis. The detector gives the faces of a steep shot turned a quarter,
/// foreshortened into squares, an up axis along the photo's height (held-out seeds 9's and
/// 12's 20-pon-steep turned a quarter), though their rows run that way. Loose tiles lying apart say nothing (one of the evaluation photos lays eight in a
/// column on a keyboard, each at its own angle).
fn rows_along(tiles: &[Detection], up: f32) -> bool {
    let (mut along, mut across) = (0, 0);
    for (i, a) in tiles.iter().enumerate() {
        let nearest = tiles
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, b)| (b.rotated.cx - a.rotated.cx, b.rotated.cy - a.rotated.cy))
            .min_by(|p, q| p.0.hypot(p.1).total_cmp(&q.0.hypot(q.1)));
        let touches =
            |(dx, dy): &(f32, f32)| dx.hypot(*dy) <= ROW_TOUCH * a.rotated.w.max(a.rotated.h);
        if let Some((dx, dy)) = nearest.filter(touches) {
            let off = layout::axis_difference(dy.atan2(dx), up);
            if off < ROW_CONE {
                along += 1;
            } else if off > std::f32::consts::FRAC_PI_2 - ROW_CONE {
                across += 1;
            }
        }
    }
    along > across
}

/// See [`rows_along`].
const ROW_CONE: f32 = 30.0 * std::f32::consts::PI / 180.0;
const ROW_TOUCH: f32 = 1.2;

/// How near the photo's width (radians) the tiles' up axis must lie for [`lie_across`]: short
/// of a half quarter, so that a hand tilted about as much either way is read as it lies.
const ACROSS: f32 = 35.0 * std::f32::consts::PI / 180.0;

/// `tiles` where they lie in their photo turned half a turn, the photo spanning `width` by
/// `height` of their pixels (see [`RotatedBox::half_turned`]).
fn half_turned(tiles: &[Detection], (width, height): (f32, f32)) -> Vec<Detection> {
    tiles
        .iter()
        .cloned()
        .map(|mut d| {
            d.undo_turn(Turn::Half, (width, height));
            d
        })
        .collect()
}

/// Whether a photo's tiles read better turned half a turn (`turned`) than as they lie
/// (`as_is`). The layout reads a hand as its owner sees it, the concealed row first and the
/// melds to its right, and takes the tiles' up axis to point up the photo; a hand photographed
/// from across the table, or by a camera over it (a hand of the players on either side is then
/// turned a quarter), reads backwards: its melds run into the concealed row and its winning tile
/// stands apart at the start. Turned, it is read as shown. A hand complete as it lies (complete
/// as read, no tile changed to make it so: see [`PhotoReading::complete_as_read`]) and not
/// turned is read as it lies; one complete only turned is turned, unless it then reads less in
/// order (see [`in_order`]); one complete both ways is read the way that reads clearly more in
/// order; one complete neither way is turned only when its concealed tiles are then also sorted
/// ([`SORTED_ENOUGH`]): a hand missing a tile or two reads out of order either way (the layout
/// puts a meld's tiles in the concealed row when a gap is measured wrong), and is read as it
/// lies (held-out seed 21's 10, 110's 19).
fn reads_better_turned(as_is: &PhotoReading, turned: &PhotoReading) -> bool {
    let complete = PhotoReading::complete_as_read;
    let order = (in_order(as_is), in_order(turned));
    match (complete(as_is), complete(turned)) {
        (false, true) => order.1 >= order.0,
        (true, false) => false,
        (true, true) => order.1 > order.0 + 1,
        (false, false) => order.1 > order.0 + 1 && sorted_pairs(turned) >= SORTED_ENOUGH,
    }
}

/// How many more of its concealed tiles' neighbours must lie in order than out of it (see
/// [`sorted_pairs`]) for a hand complete neither way to be read turned half a turn.
const SORTED_ENOUGH: i32 = 3;

/// How much a reading's concealed row looks like one laid by its owner: its tiles in the order
/// players sort them (see [`sorted_pairs`]), less three for each tile in it that reads clearly
/// sideways ([`CLEARLY_SIDEWAYS`]) or face down, as only a meld's tiles lie: a hand of melds
/// read backwards puts them in the row, and a row of melds sorts no way round.
fn in_order(reading: &PhotoReading) -> i32 {
    let out_of_place = reading
        .layout
        .concealed
        .iter()
        .map(|&i| &reading.tiles[i])
        .filter(|d| d.tile == Face::Back || layout::sideways_evidence(d) > CLEARLY_SIDEWAYS)
        .count();
    sorted_pairs(reading) - 3 * out_of_place as i32
}

/// The sideways evidence (see [`Turned::evidence`]) over which a tile reads clearly sideways for
/// [`in_order`]: the called tiles of the fixtures' melds read 3.2-3.6, upright tiles -0.4 to
/// -3.8, faces alike a quarter turned (1p, 9p, white dragons) about 0 either way.
const CLEARLY_SIDEWAYS: f32 = 2.0;

/// How much the concealed tiles read in order, as players sort them (characters, circles,
/// bamboos, honours, each by number): neighbours in that order less neighbours the other way
/// round.
fn sorted_pairs(reading: &PhotoReading) -> i32 {
    let kinds: Vec<usize> = reading
        .layout
        .concealed
        .iter()
        .filter_map(|&i| reading.tiles[i].tile.kind())
        .map(Kind::index)
        .collect();
    kinds
        .windows(2)
        .map(|p| match p[0].cmp(&p[1]) {
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Greater => -1,
            std::cmp::Ordering::Equal => 0,
        })
        .sum()
}

/// Rounds of [`Recognizer::fill_row_gaps`]: a row may lack two tiles, found one at a time.
const GAP_ROUNDS: usize = 2;
/// How sure a face read in a gap must be to be kept for the next round when it does not complete
/// the hand by itself.
const GAP_SURE: f32 = 0.9;
/// How sure a face read past the dead wall's row must be to be taken for the indicator a hand's
/// kans call for (see [`Recognizer::fill_wall_gaps`]): other art 13's 19's missing 6s read 0.57.
const KAN_DORA_SURE: f32 = 0.5;
/// A gap between neighbouring tiles of the hand row this many times the concealed tiles'
/// median pitch (centre to centre) or more holds a missing tile; from 2.5 pitches, two.
const GAP_ONE: f32 = 1.6;
const GAP_TWO: f32 = 2.5;

/// `tiles` less the one whose box is `gone`, if any.
fn without(tiles: &[Detection], gone: Option<RotatedBox>) -> Vec<Detection> {
    tiles
        .iter()
        .filter(|d| gone != Some(d.rotated))
        .cloned()
        .collect()
}

/// A place of the hand row where a tile may be missing (see [`row_gap_places`]), and the box of
/// the row a tile read there stands in for, if any.
#[derive(Clone, Copy, Debug, PartialEq)]
struct GapPlace {
    place: RotatedBox,
    replaces: Option<RotatedBox>,
}

/// Steps from a row's first tile to its second of this many pitches up to [`GAP_ONE`] may be a
/// box straddling the first two tiles (see [`row_gap_places`]); a tile set apart from its
/// neighbour sits about a third of a tile off (1.3 pitches), two tiles straddled by one box half a
/// pitch.
const STRADDLE_STEP: f32 = 1.3;

/// Where tiles may be missing from the hand row, in full-size pixels. The row is its tiles
/// (concealed, the winning tile, the melds' and the unplaced ones less than a pitch off the
/// concealed tiles' line) in order along that line; the places are evenly spaced in each gap
/// between neighbours of [`GAP_ONE`] pitches or more (two from [`GAP_TWO`]; the pitch is the
/// concealed tiles' median, or with fewer than two concealed tiles, as with four melds, that of
/// neighbouring upright tiles within a meld), and one pitch beyond either end of the row, each
/// the size and angle of its neighbour's box. A gap between melds is bare table; a meld short
/// of a tile has its place read too.
///
/// A box straddling the first two concealed tiles stands half a pitch off both, and a row read
/// from it lacks a tile where a pitch beyond it reads half a tile and half table (seed 16's 19,
/// a steep row): when the first step is [`STRADDLE_STEP`] pitches up to [`GAP_ONE`], the places
/// one and two pitches beyond the second tile are read too, each in the first box's stead.
fn row_gap_places(reading: &PhotoReading) -> Vec<GapPlace> {
    let l = &reading.layout;
    let boxes = |ids: &[usize]| -> Vec<RotatedBox> {
        ids.iter().map(|&i| reading.tiles[i].rotated).collect()
    };
    // Centre-to-centre distances of neighbouring boxes.
    let steps_of = |boxes: &[RotatedBox]| -> Vec<f32> {
        boxes
            .windows(2)
            .map(|p| (p[1].cx - p[0].cx).hypot(p[1].cy - p[0].cy))
            .collect()
    };
    // With four melds the concealed tiles are a pair, its second often set apart, or one tile
    // and the winning one: the row's line then runs through the melds too, and the pitch is
    // that of neighbouring upright tiles within a meld (seed 65's 14 lacked a pon's tile).
    let (line, pitch) = if l.concealed.len() >= 2 {
        let concealed = boxes(&l.concealed);
        let pitch = layout::median(steps_of(&concealed));
        (concealed, pitch)
    } else {
        let upright = |i: &&usize| !reading.tiles[**i].sideways;
        let meld_steps = l
            .melds
            .iter()
            .flat_map(|m| m.tiles.windows(2))
            .filter(|p| p.iter().all(|i| upright(&i)))
            .flat_map(|p| steps_of(&boxes(p)))
            .collect();
        let line: Vec<usize> = l
            .concealed
            .iter()
            .chain(&l.win)
            .chain(l.melds.iter().flat_map(|m| &m.tiles))
            .filter(upright)
            .copied()
            .collect();
        (boxes(&line), layout::median(meld_steps))
    };
    let (Some(first), Some(last)) = (line.first(), line.last()) else {
        return Vec::new();
    };
    if line.len() < 2 || pitch < 1.0 {
        return Vec::new();
    }
    let (dx, dy) = (last.cx - first.cx, last.cy - first.cy);
    let length = dx.hypot(dy).max(1.0);
    let at = |r: &RotatedBox| (r.cx - first.cx) * dx + (r.cy - first.cy) * dy;
    // Off the line more than a pitch: another row (the dead wall's unplaced backs).
    let on_line = |r: &RotatedBox| across_line(first, (dx, dy), r) < pitch * length;
    let mut row: Vec<RotatedBox> = l
        .hand_row_tiles()
        .map(|i| reading.tiles[i].rotated)
        .filter(on_line)
        .collect();
    row.sort_by(|p, q| at(p).total_cmp(&at(q)));
    let steps = steps_of(&row);
    // `a` moved towards `b` by `t` of the way between them.
    let towards = |a: &RotatedBox, b: &RotatedBox, t: f32| RotatedBox {
        cx: a.cx + t * (b.cx - a.cx),
        cy: a.cy + t * (b.cy - a.cy),
        ..*a
    };
    let free = |place: RotatedBox| GapPlace {
        place,
        replaces: None,
    };
    let mut out = Vec::new();
    for (pair, &step) in row.windows(2).zip(&steps) {
        let missing = missing_in(step, pitch);
        for k in 1..=missing {
            out.push(free(towards(
                &pair[0],
                &pair[1],
                k as f32 / (missing + 1) as f32,
            )));
        }
    }
    let n = row.len();
    for (end, next, step) in [(0, 1, steps[0]), (n - 1, n - 2, steps[n - 2])] {
        if step >= 1.0 {
            out.push(free(towards(&row[end], &row[next], -pitch / step)));
        }
    }
    if n >= 3 && row[0] == *first && (STRADDLE_STEP * pitch..GAP_ONE * pitch).contains(&steps[0]) {
        for k in [1.0, 2.0] {
            out.push(GapPlace {
                place: towards(&row[1], &row[0], k * pitch / steps[0]),
                replaces: Some(row[0]),
            });
        }
    }
    out
}

/// Whether a box is of the size of `tiles`' tiles: its long side [`FAINT_SIZE`] times their
/// median (any box when there are none).
fn tile_sized(tiles: &[Detection]) -> impl Fn(&RotatedBox) -> bool {
    let long = |b: &RotatedBox| b.w.max(b.h);
    let median = layout::median(tiles.iter().map(|t| long(&t.rotated)).collect());
    let none = tiles.is_empty();
    move |b| none || FAINT_SIZE.contains(&(long(b) / median))
}

/// Whether box `b` lies where none of `tiles` does: neither holds the other's centre.
fn apart(b: &RotatedBox, tiles: &[Detection]) -> bool {
    !tiles.iter().any(|t| {
        let r = &t.rotated;
        r.contains(b.cx, b.cy) || b.contains(r.cx, r.cy)
    })
}

/// Whether `completed`, a reading with faint boxes added, completes the hand `before` lacks
/// a tile of, as it stands: with the top reading of every tile, and as many melds. A faint box
/// that completes a hand only with other tiles read again, or laid out another way, has
/// usually made a wrong hand out of an incomplete one, which is worse: the user sees a score.
fn completes(before: &PhotoReading, completed: &PhotoReading) -> bool {
    completed.complete_as_read() && completed.layout.melds.len() >= before.layout.melds.len()
}

/// What [`Recognizer::read_in_light`] read: the tiles, the faint boxes of the photo they were
/// read from, and that photo when its light was lifted.
struct InLight<'a> {
    read: ReadTiles,
    faint: Vec<(RotatedBox, f32)>,
    lifted: Option<Sight<'a>>,
}

/// The tiles read from a photo's sure boxes, and the hand's up axis they were read against.
struct ReadTiles {
    tiles: Vec<Detection>,
    up: f32,
    /// The tiles' face colour (see [`picture::face_colour`]), when there are enough of them.
    face: Option<[f32; 3]>,
}

impl ReadTiles {
    /// Whether the tiles lay out as a complete hand in a photo `width` by `height`.
    fn makes_a_hand(&self, width: u32, height: u32) -> bool {
        PhotoReading::lay_out(width, height, self.tiles.clone())
            .hand
            .is_some_and(|hand| hand.complete)
    }

    /// The sum of the tiles' confidences.
    fn summed_confidence(&self) -> f32 {
        self.tiles.iter().map(|d| d.confidence).sum()
    }

    /// The mean of the tiles' confidences, 0 for none.
    fn mean_confidence(&self) -> f32 {
        self.summed_confidence() / self.tiles.len().max(1) as f32
    }
}

/// Detector boxes with their scores, best first: those at or over
/// [`Settings::score_threshold`], and the faint ones under it (see [`Recognizer::complete_hand`]).
struct Found {
    sure: Vec<(RotatedBox, f32)>,
    faint: Vec<(RotatedBox, f32)>,
}

impl Found {
    /// Splits boxes sorted best first at `threshold`.
    fn split(mut boxes: Vec<(RotatedBox, f32)>, threshold: f32) -> Found {
        let sure = boxes.partition_point(|b| b.1 >= threshold);
        let faint = boxes.split_off(sure);
        Found { sure: boxes, faint }
    }
}

/// How sure "not a tile" a tile's reading the way the layout lays it must be for
/// [`PhotoReading::lay_out`] to drop it: the veto's threshold ([`Settings::not_tile_threshold`]).
const LAID_NOT_TILE: f32 = 0.8;

/// How many of the faint boxes, best first, [`Recognizer::complete_hand`] reads: each is one more
/// layout of the photo.
const FAINT_TRIED: usize = 12;

/// The long side of a faint box kept as a tile, against the median of the tiles read: a tile of
/// the set in the photo, not a pattern in the background (a seam between the floorboards of an
/// evaluation photo read as an 8p 0.95 sure, a third of a tile's size).
const FAINT_SIZE: std::ops::RangeInclusive<f32> = 0.6..=1.6;

/// Under how sure "not a tile" the reading a faint box kept as a tile is read by must be (see
/// [`Settings::faint_sure`]): a tile lying at an angle reads as "not a tile" snapped the other
/// way (the evaluation photo's north wind: 0.66, and 0.006 the way it lies).
const FAINT_NOT_TILE: f32 = 0.05;

/// How sure a faint box must read as a face for [`Recognizer::find_blank_dora`]. Of the faint
/// boxes read so on the held-out fixtures (seeds 8-127, other art 8-97), those within
/// [`BLANK_DORA_TINT`] of the faces' tint and read 0.5 sure or more were all real lone
/// indicators, white dragons of dim shots from 0.81, but for a 6s read as a 9s 0.53; clutter
/// read up to 0.98 sure, but off the faces' tint (0.047 and more). Until 2026-11-27 0.85,
/// which missed three white dragons of dim shots.
const LONE_DORA_SURE: f32 = 0.8;

/// How sure a back of the dead wall read again must read as a blank (a back or a white dragon)
/// for [`Recognizer::find_blank_dora_among_backs`], a blank face beside a white dragon
/// indicator for [`Recognizer::drop_blank_dora_in_a_row`], and the lower place of an added kan
/// of white dragons as one for [`Recognizer::stack_blank_added_kans`].
const BLANK_DORA_SURE: f32 = 0.9;
/// How sure the upper place of an added kan of white dragons must read as one for
/// [`Recognizer::stack_blank_added_kans`]: between the 0.40 of the surest pon with nothing
/// stacked and the 0.73 of the least sure added kan (held-out seed 101's 14, a dim shot, whose
/// upper place lay a quarter of a tile off the stacked tile). Until 2026-12-07 the
/// [`BLANK_DORA_SURE`] of the lower place, which missed that kan.
const BLANK_STACK_SURE: f32 = 0.6;
/// How light a blank face beside a white dragon indicator must be, over the indicator's
/// brightest channel, for [`Recognizer::drop_blank_dora_in_a_row`]: the pale backs of the
/// held-out walls were 0.99-1.05, grey table of no tint 0.32.
const BLANK_ROW_LIGHT: std::ops::RangeInclusive<f32> = 0.8..=1.25;
/// How far the tint of a faint lone indicator may be from the photo's faces' (see
/// [`picture::tint_difference`]) for [`Recognizer::find_blank_dora`]. The held-out fixtures'
/// white dragons are within 0.002-0.010; a dead wall's pale backs read as white dragons were
/// 0.047 (ivory) and 0.099 (pink-white) off, coloured backs 0.5 and more.
const BLANK_DORA_TINT: f32 = 0.03;

/// A hand tile the detector scores under this may be a false box (see
/// [`PhotoReading::without_a_weak_tile`]); most tiles score 0.6 or more.
const WEAK_SCORE: f32 = 0.45;
/// How many of the weakest hand tiles [`PhotoReading::without_a_weak_tile`] tries leaving out.
const WEAK_TRIED: usize = 4;

impl PhotoReading {
    /// Whether the centre of `b` (full-size pixels) lies inside the photo: a crop off its edge
    /// repeats the edge's pixels.
    fn in_frame(&self, b: &RotatedBox) -> bool {
        (0.0..self.width as f32).contains(&b.cx) && (0.0..self.height as f32).contains(&b.cy)
    }

    /// Marks each of the hand's dora indicators (see [`PhotoReading::dora_ids`]) uncertain.
    fn doubt_dora(&mut self) {
        let indicators = self.dora_ids();
        if let Some(hand) = self.hand.as_mut() {
            for i in indicators {
                layout::doubt(&mut hand.uncertain, i);
            }
        }
    }

    /// The photo's index of each of the hand's dora indicators, in the order of
    /// [`layout::ReadHand::dora_indicators`] (the layout's dora tiles but backs).
    pub fn dora_ids(&self) -> Vec<usize> {
        self.layout
            .dora
            .iter()
            .copied()
            .filter(|&i| self.tiles.get(i).is_none_or(|d| d.tile != Face::Back))
            .collect()
    }

    /// `tiles` and `extra` laid out in a photo of this reading's size.
    fn with_tile(&self, tiles: &[Detection], extra: Detection) -> PhotoReading {
        let mut all = tiles.to_vec();
        all.push(extra);
        PhotoReading::lay_out(self.width, self.height, all)
    }

    /// The reading with `pair` in `place` (see [`PhotoReading::with_added_pair`]), when the
    /// layout stacks it (one more stacked meld) and the hand stays complete as read.
    fn with_pair_stacked(
        &self,
        place: &AddedKanPlace,
        pair: Vec<Detection>,
    ) -> Option<PhotoReading> {
        let stacked = |r: &PhotoReading| r.layout.melds.iter().filter(|m| m.stacked).count();
        let with_kan = self.with_added_pair(place, pair);
        (completes(self, &with_kan) && stacked(&with_kan) > stacked(self)).then_some(with_kan)
    }

    /// This reading's tiles with `pair`, an added kan's stacked tiles read at `place`, in the
    /// place of the called tile and of whatever else was read there (a second box over the
    /// upper tile), laid out.
    fn with_added_pair(&self, place: &AddedKanPlace, pair: Vec<Detection>) -> PhotoReading {
        let mut tiles: Vec<Detection> = self
            .tiles
            .iter()
            .enumerate()
            .filter(|&(i, d)| {
                let (x, y) = (d.rotated.cx, d.rotated.cy);
                i != place.called && !place.pair.iter().any(|b| b.contains(x, y))
            })
            .map(|(_, d)| d.clone())
            .collect();
        tiles.extend(pair);
        PhotoReading::lay_out(self.width, self.height, tiles)
    }

    /// The reading, from `tiles`, with the first box of the same face as a box beside it that
    /// [`layout::drop_doubled`] dropped though their neighbours leave room for both (see
    /// [`layout::alike_with_room`]) kept, when that completes the hand (see [`completes`]); the
    /// box kept is marked uncertain. Tried when neither a faint box nor a gap of the row
    /// completes it. In a far shot with a wall beside the hand (wall seed 19's 16), the box of
    /// the first of three 3s was drawn over part of the second, whose own box, less sure, went
    /// as a second box over one tile; the gap left between the first and the third then read
    /// 3s at a place that overlapped the second's box, and was dropped in turn.
    fn with_alike_box_kept(&self, tiles: &[Detection]) -> Option<PhotoReading> {
        layout::alike_with_room(tiles).into_iter().find_map(|b| {
            let mut with =
                PhotoReading::lay_out_keeping(self.width, self.height, tiles.to_vec(), &[b]);
            if !completes(self, &with) {
                return None;
            }
            let kept = with.tiles.iter().position(|d| d.rotated == b);
            if let (Some(hand), Some(i)) = (with.hand.as_mut(), kept) {
                layout::doubt(&mut hand.uncertain, i);
            }
            Some(with)
        })
    }

    /// The reading without the first of its weak tiles (detector score under [`WEAK_SCORE`],
    /// weakest first, at most [`WEAK_TRIED`]) of the hand or left unplaced whose leaving out
    /// completes the hand as it stands (see [`completes`]), if any.
    ///
    /// The counterpart of the faint boxes: a box over something else (the side of a tile's
    /// body, a shadow in the gap before the winning tile) that the classifier reads as a tile
    /// makes a hand one tile too many, and the detector scores such boxes low (an 8p at 0.35 in
    /// seed 35's 11). A back the layout leaves unplaced still stands in the row's gaps: at 0.37
    /// in seed 24's 04, between the winning tile and the melds, it hid that the winning tile was
    /// set apart. A hand complete without one of its tiles only by chance is rare, as the faint
    /// boxes' rule relies on too. A face-down tile of the hand row (within a pitch of the
    /// concealed tiles' line) outside a closed kan is tried too, after the weak ones, whatever
    /// its score: no hand holds one there (other art 42's 14, seed 68's 08: backs scored 0.64 and
    /// 0.48 between the winning tile and the melds).
    fn without_a_weak_tile(&self) -> Option<PhotoReading> {
        let by_score = |ids: &mut Vec<usize>| {
            ids.sort_by(|&a, &b| {
                self.tiles[a]
                    .detector_score
                    .total_cmp(&self.tiles[b].detector_score)
            })
        };
        let mut weak: Vec<usize> = self
            .layout
            .hand_row_tiles()
            .filter(|&i| self.tiles[i].detector_score < WEAK_SCORE)
            .collect();
        by_score(&mut weak);
        let in_kans: Vec<usize> = self
            .layout
            .melds
            .iter()
            .filter(|m| m.closed_kan)
            .flat_map(|m| m.tiles.iter().copied())
            .collect();
        // Off the concealed tiles' line by less than a pitch: in the hand row, not the dead
        // wall (leaving a wall's back out moves the frame the layout measures).
        let line = concealed_line(self)
            .map(|(pitch, along)| (pitch, along, &self.tiles[self.layout.concealed[0]].rotated));
        let on_line = |i: usize| {
            line.is_some_and(|(pitch, along, origin)| {
                across_line(origin, along, &self.tiles[i].rotated) < pitch
            })
        };
        let mut stray_backs: Vec<usize> = self
            .layout
            .hand_row_tiles()
            .filter(|&i| self.tiles[i].tile == Face::Back && !in_kans.contains(&i) && on_line(i))
            .filter(|i| !weak.contains(i))
            .collect();
        by_score(&mut stray_backs);
        let weak = weak.into_iter().take(WEAK_TRIED);
        weak.chain(stray_backs.into_iter().take(WEAK_TRIED))
            .find_map(|i| {
                let mut rest = self.tiles.clone();
                rest.remove(i);
                let without = PhotoReading::lay_out(self.width, self.height, rest);
                completes(self, &without).then_some(without)
            })
    }

    /// Whether the hand is complete with the top reading of every tile.
    /// This reading with the first of `candidates` (tiles read where none was, in full-size
    /// pixels) that lays out as one more dora indicator with the hand unchanged; as it is when
    /// none does.
    fn with_one_more_dora(self, candidates: impl IntoIterator<Item = Detection>) -> PhotoReading {
        for candidate in candidates {
            let with = self.with_tile(&self.tiles, candidate);
            if self.one_more_dora(&with) {
                return with;
            }
        }
        self
    }

    /// Whether `with`, this reading with a tile added or read again, lays out one more dora
    /// indicator and the same hand: the only way a tile may join a complete hand's reading as
    /// an indicator.
    fn one_more_dora(&self, with: &PhotoReading) -> bool {
        let hand = |r: &PhotoReading| r.hand.as_ref().map(|h| h.notation());
        with.layout.dora.len() == self.layout.dora.len() + 1 && hand(with) == hand(self)
    }

    fn complete_as_read(&self) -> bool {
        self.hand
            .as_ref()
            .is_some_and(|h| h.complete && h.corrected.is_empty())
    }

    /// Lays out `tiles` (see [`layout::lay_out`]), then drops each tile whose reading the way it
    /// is laid says "not a tile" at least [`LAID_NOT_TILE`] and lays out the rest again.
    ///
    /// The veto of [`Recognizer::read_along`] judges a box by both its readings, before the
    /// layout says which way it lies, and a box over the seam of two tiles can pass it: in seed
    /// 10's 20-pon-steep a box between a pon's upright 6s and its called one reads "not a tile"
    /// at 0.68 upright and 0.84 sideways, and laid sideways as the called tile it stood for a
    /// fourth 6s. A white dragon is kept: its blank face looks like the blank cards the
    /// classifier learnt as "not a tile", and a real one in an evaluation photo read 0.81 laid
    /// upright.
    fn lay_out(width: u32, height: u32, tiles: Vec<Detection>) -> PhotoReading {
        PhotoReading::lay_out_keeping(width, height, tiles, &[])
    }

    /// [`PhotoReading::lay_out`], keeping the boxes in `keep` that [`layout::drop_doubled`]
    /// would drop as a second box of the same face (see [`layout::alike_with_room`]).
    fn lay_out_keeping(
        width: u32,
        height: u32,
        mut tiles: Vec<Detection>,
        keep: &[RotatedBox],
    ) -> PhotoReading {
        layout::drop_doubled(&mut tiles, keep);
        let mut layout = layout::lay_out(&mut tiles);
        let before = tiles.len();
        tiles.retain(|d| {
            d.tile == WHITE_DRAGON
                || d.turned
                    .as_ref()
                    .is_none_or(|t| !t.laid_not_a_tile(d.sideways, LAID_NOT_TILE))
        });
        if tiles.len() < before {
            layout = layout::lay_out(&mut tiles);
        }
        let hand = layout::read_hand(&layout, &tiles);
        PhotoReading {
            width,
            height,
            tiles,
            layout,
            hand,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f32::consts::FRAC_PI_2;

    #[test]
    fn a_not_a_tile_output_rescales_and_rejects() {
        let mut row = vec![0.0f32; CLASS_COUNT];
        row[4] = 0.75;
        row[5] = 0.25;
        let plain = Reading::from_row(&row);
        assert_eq!((plain.tiles[4], plain.not_tile), (0.75, 0.0));
        row.iter_mut().for_each(|p| *p /= 2.0);
        row.push(0.5);
        let with_none = Reading::from_row(&row);
        assert_eq!(
            (with_none.tiles[4], with_none.tiles[5], with_none.not_tile),
            (0.75, 0.25, 0.5)
        );
        assert!(Reading::is_tile(&[plain, plain], 0.5));
        assert!(!Reading::is_tile(&[with_none, with_none], 0.5));
        // One reading sure it is not a tile, the other sure it is: the mean decides.
        let mut sure = row.clone();
        sure[CLASS_COUNT] = 0.9;
        let sure = Reading::from_row(&sure);
        assert!(Reading::is_tile(&[sure, plain], 0.5));
        assert!(!Reading::is_tile(&[sure, with_none], 0.5));
    }

    #[test]
    fn the_surest_of_a_crops_turned_readings_is_kept() {
        // A reading of class `class` at `p`, the rest spread over the other classes, with a
        // "not a tile" output `none`.
        let reading = |class: usize, p: f32, none: f32| {
            let mut row = vec![(1.0 - p) / (CLASS_COUNT - 1) as f32 * (1.0 - none); CLASS_COUNT];
            row[class] = p * (1.0 - none);
            row.push(none);
            Reading::from_row(&row)
        };
        let classes = |kept: &[Reading]| -> Vec<(usize, f32)> {
            kept.iter()
                .map(|r| (best_class(&r.tiles), r.not_tile))
                .collect()
        };
        // Two crops, read untouched, turned one way, turned the other (a "not a tile" output of
        // 0.5 rescales the tile probabilities exactly, so the tie below is one).
        let readings = [
            reading(3, 0.5, 0.1),
            reading(7, 0.9, 0.0),
            reading(4, 0.8, 0.3),
            reading(8, 0.6, 0.0),
            reading(5, 0.7, 0.2),
            reading(7, 0.9, 0.5),
        ];
        let kept = classes(&surest_readings(&readings, 2));
        // Crop 0: the first turn is surest, its "not a tile" output comes with it. Crop 1: the
        // untouched reading ties with the second turn and is kept.
        assert_eq!(kept.len(), 2);
        assert_eq!(kept[0].0, 4);
        assert!((kept[0].1 - 0.3).abs() < 1e-6);
        assert_eq!(kept[1], (7, 0.0));
        // Read once (no turns), or nothing read: the readings as they are.
        assert_eq!(
            classes(&surest_readings(&readings[..2], 2)),
            classes(&readings[..2])
        );
        assert!(surest_readings(&[], 0).is_empty());
        // Only pairs with no reading 0.9 sure are read again: the first pair's best is 0.5 and
        // 0.9, the second's 0.8 and 0.6, the third's 0.7 and 0.9.
        assert_eq!(unsure_pairs(&readings, 0.9), vec![2, 3]);
        assert_eq!(unsure_pairs(&readings, 0.95), vec![0, 1, 2, 3, 4, 5]);
        assert_eq!(unsure_pairs(&readings, 0.5), Vec::<usize>::new());
    }

    #[test]
    fn a_layout_does_not_trade_a_sure_face_for_a_doubtful_one() {
        use layout::tests::det;
        // Read upright as a 2p at `upright`, sideways as a 5m at `sideways`; the evidence says
        // sideways, as the recognizer would lay it.
        let tile = |upright: f32, sideways: f32| {
            let mut d = det("5m", 0.0, 0.0, true, sideways, None);
            let mut up = [0.0; CLASS_COUNT];
            up[Face::Tile(crate::notation::parse_tile("2p").unwrap()).class()] = upright;
            d.turned = Some(Box::new(Turned {
                evidence: (sideways / upright).ln(),
                upright: up,
                sideways: d.probs,
                not_tile: [0.0; 2],
            }));
            d.set_sideways(true);
            d
        };
        let laid = |mut d: Detection, sideways: bool| {
            d.lay_as(sideways);
            (d.tile.notation(), d.sideways)
        };
        // Laid upright (a concealed tile): the upright reading is taken unless the sideways
        // one is four times as sure or more.
        assert_eq!(laid(tile(0.3, 0.9), false), ("2p".to_string(), false));
        assert_eq!(laid(tile(0.2, 0.9), false), ("5m".to_string(), false));
        assert_eq!(laid(tile(0.2, 0.9), true), ("5m".to_string(), true));
        // Without the two readings the flag is all there is.
        let mut plain = det("5m", 0.0, 0.0, false, 0.9, None);
        plain.lay_as(true);
        assert_eq!(
            (plain.tile.notation(), plain.sideways),
            ("5m".to_string(), true)
        );
    }

    #[test]
    fn a_face_alike_turned_is_as_sure_as_its_surer_reading_whichever_way_it_is_laid() {
        use layout::tests::det;
        // Read as `face` both ways, 0.95 sure upright and 0.5 sure sideways, laid sideways.
        let laid_sideways = |face: &str| {
            let mut d = det(face, 0.0, 0.0, false, 0.95, None);
            let mut turned = d.probs;
            turned[d.tile.class()] = 0.5;
            d.turned = Some(Box::new(Turned {
                evidence: (0.5f32 / 0.95).ln(),
                upright: d.probs,
                sideways: turned,
                not_tile: [0.0; 2],
            }));
            d.lay_as(true);
            (d.tile.notation(), d.sideways, d.confidence)
        };
        // Only which way a 4p lies was in doubt; an 8p read unsurely turned is doubtful.
        assert_eq!(laid_sideways("4p"), ("4p".to_string(), true, 0.95));
        assert_eq!(laid_sideways("8p"), ("8p".to_string(), true, 0.5));
        assert!(Face::Back.looks_alike_turned());
        for (face, alike) in [("1p", true), ("0p", true), ("9p", true), ("5z", true)]
            .into_iter()
            .chain([("2p", false), ("1s", false), ("9m", false), ("6z", false)])
        {
            let tile = Face::Tile(crate::notation::parse_tile(face).unwrap());
            assert_eq!(tile.looks_alike_turned(), alike, "{face}");
        }
    }

    #[test]
    fn dark_unsure_faces_are_dropped_when_the_photo_has_light_ones() {
        use layout::tests::det;
        let read_with = |settings: &Settings, faces: &[(&str, f32, f32)]| -> Vec<String> {
            let read = faces
                .iter()
                .map(|&(face, p, value)| (det(face, 0.0, 0.0, false, p, None), value))
                .collect();
            drop_dark_faces(settings, read)
                .iter()
                .map(|d| format!("{}@{}", d.tile.notation(), d.confidence))
                .collect()
        };
        let settings = Settings::default();
        let read = |faces: &[(&str, f32, f32)]| read_with(&settings, faces);
        let ivory = [("1m", 0.9, 220.0), ("2m", 0.9, 230.0), ("3m", 0.9, 210.0)];
        // A keycap read unsure as 4p goes; the same read sure (a tile in a shadow) stays, and so
        // does an unsure face that is only a little darker, and a back of any colour.
        let with = |extra: (&'static str, f32, f32)| [&ivory[..], &[extra]].concat();
        assert_eq!(
            read(&with(("4p", 0.3, 90.0))),
            ["1m@0.9", "2m@0.9", "3m@0.9"]
        );
        assert_eq!(read(&with(("4p", 0.75, 90.0))).len(), 3);
        assert_eq!(read(&with(("4p", 0.85, 90.0))).len(), 4);
        assert_eq!(read(&with(("4p", 0.3, 160.0))).len(), 4);
        assert_eq!(read(&with(("back", 0.3, 40.0))).len(), 4);
        // Too few faces to know the set's colour, and the rule switched off: nothing goes.
        assert_eq!(read(&[("1m", 0.9, 220.0), ("4p", 0.3, 90.0)]).len(), 2);
        let off = Settings {
            dark_face_ratio: 0.0,
            ..settings
        };
        assert_eq!(read_with(&off, &with(("4p", 0.3, 90.0))).len(), 4);
    }

    #[test]
    fn a_weak_box_that_spoils_a_complete_hand_is_left_out() {
        use layout::tests::{det, row};
        // 123m456p789s11z2z2z2 read with a false 8p (scored `score`) in the gap before the
        // winning tile, set apart at the end.
        let hand = |score: f32| {
            let mut tiles = row("123m456p789s11z22z", 0.0, 200.0);
            let mut false_tile = det("8p", 31.0 * 13.0 + 8.0, 200.0, false, 0.99, None);
            false_tile.detector_score = score;
            tiles.push(false_tile);
            tiles.push(det("2z", 31.0 * 14.0 + 20.0, 200.0, false, 0.95, None));
            PhotoReading::lay_out(640, 480, tiles)
        };
        let spoilt = hand(0.35);
        assert!(!spoilt.complete_as_read());
        let read = spoilt.without_a_weak_tile().expect("the 8p left out");
        assert!(completes(&spoilt, &read));
        assert_eq!(read.tiles.len(), 14);
        assert!(read.tiles.iter().all(|d| d.tile.notation() != "8p"));
        // A box the detector is surer of is a tile: the hand stays as read.
        assert!(hand(0.6).without_a_weak_tile().is_none());
        // A back in the gap between the winning tile and a pon, which the layout leaves
        // unplaced, bridges that gap: left out, the winning tile stands apart again. Weak, or
        // scored surely: a face-down tile of the hand row outside a closed kan is tried left
        // out whatever its score (other art 42's 14, a back at 0.64 there).
        for score in [0.37, 0.9] {
            let mut tiles = row("123m456p789s1z", 0.0, 200.0);
            tiles.push(det("1z", 330.0, 200.0, false, 0.95, None));
            let mut back = det("back", 362.0, 200.0, false, 0.9, None);
            back.detector_score = score;
            tiles.push(back);
            tiles.push(det("2z", 404.0, 205.0, true, 0.95, None));
            tiles.push(det("2z", 445.0, 200.0, false, 0.95, None));
            tiles.push(det("2z", 476.0, 200.0, false, 0.95, None));
            let bridged = PhotoReading::lay_out(640, 480, tiles);
            assert!(!bridged.complete_as_read());
            let unplaced = &bridged.layout.unplaced;
            assert!(unplaced
                .iter()
                .any(|&i| bridged.tiles[i].tile == Face::Back));
            let read = bridged.without_a_weak_tile().expect("the back left out");
            assert!(read.tiles.iter().all(|d| d.tile != Face::Back));
            let hand = read.hand.expect("a hand");
            assert!(hand.win_set_apart);
            assert_eq!(hand.notation(), "123m456p789s11z [2*22z]");
        }
        // A hand one tile short has nothing to leave out.
        let mut short = row("123m456p789s11z2z", 0.0, 200.0);
        short[3].detector_score = 0.2;
        assert!(PhotoReading::lay_out(640, 480, short)
            .without_a_weak_tile()
            .is_none());
    }

    #[test]
    fn a_row_is_read_for_missing_tiles_in_its_gaps_and_beyond_its_ends() {
        use layout::tests::det;
        // 123m456p789s1122z, 31 px apart, with tiles left out at `gone`.
        let row = |gone: &[usize]| {
            let tiles: Vec<Detection> = crate::notation::parse_tiles("123m456p789s1122z")
                .unwrap()
                .iter()
                .enumerate()
                .filter(|(i, _)| !gone.contains(i))
                .map(|(i, t)| det(&t.to_string(), 31.0 * i as f32, 200.0, false, 0.95, None))
                .collect();
            PhotoReading::lay_out(640, 480, tiles)
        };
        let places = |gone: &[usize]| -> Vec<(f32, f32)> {
            row_gap_places(&row(gone))
                .iter()
                .map(|g| (g.place.cx.round(), g.place.cy.round()))
                .collect()
        };
        // Nothing missing: one pitch beyond either end only.
        assert_eq!(places(&[]), vec![(-31.0, 200.0), (403.0, 200.0)]);
        // One tile gone from the middle: its place, then the ends.
        assert_eq!(
            places(&[6]),
            vec![(186.0, 200.0), (-31.0, 200.0), (403.0, 200.0)]
        );
        // Two side by side: two places, evenly spaced.
        assert_eq!(
            places(&[6, 7]),
            vec![
                (186.0, 200.0),
                (217.0, 200.0),
                (-31.0, 200.0),
                (403.0, 200.0)
            ]
        );
        // The first tile gone: the place before the row is where it lay.
        assert_eq!(places(&[0])[0], (0.0, 200.0));
        // A box straddling the first two tiles, half a pitch off both: the places one and two
        // pitches beyond the second tile are read in its stead. Not for a first step of a
        // pitch, nor of more than 1.6 (a tile missing there, read without replacing any).
        let straddled = |at: f32| {
            let mut tiles = row(&[0, 1]).tiles;
            tiles.push(det("1m", at, 200.0, false, 0.95, None));
            row_gap_places(&PhotoReading::lay_out(640, 480, tiles))
        };
        let gaps = straddled(15.5);
        let first = gaps.iter().find(|g| g.replaces.is_some()).unwrap().replaces;
        assert_eq!(first.map(|b| b.cx), Some(15.5));
        let stead: Vec<(f32, f32)> = gaps
            .iter()
            .filter(|g| g.replaces.is_some())
            .map(|g| (g.place.cx.round(), g.place.cy.round()))
            .collect();
        assert_eq!(stead, vec![(31.0, 200.0), (0.0, 200.0)]);
        assert!(row_gap_places(&row(&[]))
            .iter()
            .all(|g| g.replaces.is_none()));
        assert!(straddled(10.0).iter().all(|g| g.replaces.is_none()));
        // Each place has its neighbour's size and angle.
        let b = row_gap_places(&row(&[6]))[0].place;
        assert_eq!(
            (b.w, b.h, b.phi),
            (30.0, 40.0, -std::f32::consts::FRAC_PI_2)
        );
        // A lone tile has no row to measure.
        let lone = PhotoReading::lay_out(640, 480, vec![det("1m", 0.0, 200.0, false, 0.95, None)]);
        assert!(row_gap_places(&lone).is_empty());
        // A pon short of its middle tile after eight concealed ones, and a dead-wall back in
        // another row: the meld's gap is read, the back is not part of the row.
        let mut tiles: Vec<Detection> = layout::tests::row("456p789s11z", 0.0, 200.0);
        tiles.push(det("9p", 283.0, 205.0, true, 0.95, None));
        tiles.push(det("9p", 355.0, 200.0, false, 0.95, None));
        tiles.push(det("back", 100.0, 100.0, false, 0.95, None));
        let short = PhotoReading::lay_out(640, 480, tiles);
        let places: Vec<(f32, f32)> = row_gap_places(&short)
            .iter()
            .map(|g| g.place)
            .map(|b| ((b.cx * 2.0).round() / 2.0, (b.cy * 2.0).round() / 2.0))
            .collect();
        // The space before the meld (2.1 pitches) is read too: bare table in a photo.
        assert_eq!(
            places,
            vec![
                (250.0, 202.5),
                (319.0, 202.5),
                (-31.0, 200.0),
                (386.0, 198.0)
            ]
        );
        // Four melds, the last a pon short of its last tile, after a pair whose second tile is
        // set apart: one concealed tile, so the pitch is the melds' upright neighbours' and
        // the place beyond the row's end is read.
        let mut tiles = vec![
            det("1z", 0.0, 200.0, false, 0.95, None),
            det("1z", 45.0, 200.0, false, 0.95, None),
        ];
        let mut x = 90.0;
        for (called, rest) in [
            ("2m", ["1m", "3m"]),
            ("5p", ["4p", "6p"]),
            ("8s", ["7s", "9s"]),
        ] {
            x = layout::tests::push_meld(&mut tiles, x, called, &rest) + 10.0;
        }
        layout::tests::push_meld(&mut tiles, x, "9p", &["9p"]);
        let four = PhotoReading::lay_out(640, 480, tiles);
        assert_eq!(four.layout.concealed.len(), 1, "{:?}", four.layout);
        let beyond = row_gap_places(&four)
            .iter()
            .any(|g| (g.place.cx - (x + 77.0)).abs() < 1.0 && (g.place.cy - 200.0).abs() < 5.0);
        assert!(beyond, "{:?}", row_gap_places(&four));
    }

    #[test]
    fn a_pons_fourth_tile_is_looked_for_beyond_either_end() {
        use layout::tests::det;
        // 234m567p11z, then a pon of 9p with its called tile first (sideways, 40 along the row),
        // and maybe a chi 20 px after it; upright boxes 30 wide and 40 high.
        let hand = |chi: bool| {
            let mut d: Vec<Detection> = layout::tests::row("234m567p11z", 0.0, 200.0);
            d.push(det("9p", 283.0, 205.0, true, 0.95, None));
            d.push(det("9p", 324.0, 200.0, false, 0.95, None));
            d.push(det("9p", 355.0, 200.0, false, 0.95, None));
            if chi {
                d.push(det("1s", 406.0, 205.0, true, 0.95, None));
                d.push(det("2s", 447.0, 200.0, false, 0.95, None));
                d.push(det("3s", 478.0, 200.0, false, 0.95, None));
            }
            PhotoReading::lay_out(640, 480, d)
        };
        let places = kan_places(&hand(false));
        let upright = |b: &RotatedBox| layout::axis_difference(b.phi, -FRAC_PI_2) < 1e-3;
        // Beyond each end, upright then sideways.
        assert_eq!(places.len(), 4);
        let (left, right): (Vec<_>, Vec<_>) = places.iter().partition(|b| b.cx < 300.0);
        for side in [&left, &right] {
            assert_eq!(side.len(), 2);
            let (up, lying) = (side[0], side[1]);
            assert!(upright(up) && !upright(lying));
            assert_eq!((up.w, up.h, lying.w, lying.h), (30.0, 40.0, 30.0, 40.0));
            // A called tile lies 0.13 of an upright's height nearer the player.
            assert!((lying.cy - up.cy - SIDEWAYS_DROP * 40.0).abs() < 1e-3);
        }
        // Touching the end tiles, a little apart: right of the last 9p (15 + 15 for an upright,
        // 15 + 20 for a sideways tile), left of the called one (its 20 + 15, 20 + 20).
        assert!((right[0].cx - (355.0 + 30.0 * KAN_PLACE_STEP)).abs() < 1e-3);
        assert!((right[1].cx - (355.0 + 35.0 * KAN_PLACE_STEP)).abs() < 1e-3);
        assert!((left[0].cx - (283.0 - 35.0 * KAN_PLACE_STEP)).abs() < 1e-3);
        assert!((left[1].cx - (283.0 - 40.0 * KAN_PLACE_STEP)).abs() < 1e-3);
        // On the upright tiles' line, whether the end tile lies sideways or not.
        assert!((left[0].cy - 205.0 + SIDEWAYS_DROP * 40.0).abs() < 1e-3);
        assert_eq!(right[0].cy, 200.0);
        // A chi right after the pon: the places on its called tile are left out.
        let beside = kan_places(&hand(true));
        assert_eq!(beside.len(), 2);
        assert!(beside.iter().all(|b| b.cx < 300.0));
        // No pon, no places: a chi's fourth tile is none.
        let chi_only = PhotoReading::lay_out(
            640,
            480,
            hand(true)
                .tiles
                .into_iter()
                .filter(|d| d.tile.notation() != "9p")
                .collect(),
        );
        assert!(kan_places(&chi_only).is_empty());
    }

    #[test]
    fn a_white_dragon_indicators_neighbours_are_read_where_no_tile_is() {
        let hand = beside_a_closed_row;
        let centres = |r: &PhotoReading| -> Vec<(usize, Vec<(f32, f32)>)> {
            blank_dora_neighbour_places(r)
                .into_iter()
                .map(|(i, places)| {
                    let c = places
                        .iter()
                        .map(|b| (b.cx.round(), b.cy.round()))
                        .collect();
                    (i, c)
                })
                .collect()
        };
        // A lone white dragon: both sides; beside a 1m indicator, the other side only.
        let lone = hand(&[("5z", 300.0)]);
        assert_eq!(lone.layout.dora, vec![13]);
        assert_eq!(
            centres(&lone),
            vec![(13, vec![(269.0, 200.0), (331.0, 200.0)])]
        );
        let beside = hand(&[("5z", 300.0), ("1m", 331.0)]);
        assert_eq!(beside.layout.dora.len(), 2);
        assert_eq!(centres(&beside), vec![(13, vec![(269.0, 200.0)])]);
        // Other faces are not looked beside, nor places off the photo's edge.
        assert!(centres(&hand(&[("1m", 300.0)])).is_empty());
        let at_edge = hand(&[("5z", 620.0)]);
        assert_eq!(centres(&at_edge), vec![(13, vec![(589.0, 200.0)])]);
        // Each place has the indicator's box.
        let b = blank_dora_neighbour_places(&lone)[0].1[0];
        assert_eq!((b.w, b.h, b.phi), (30.0, 40.0, -FRAC_PI_2));
    }

    /// A concealed row at y = 300 (pitch 31, from x = 0) laid out with `faces` upright at
    /// y = 200, each at its x, in a 640×480 photo.
    fn beside_a_closed_row(faces: &[(&str, f32)]) -> PhotoReading {
        let mut d: Vec<Detection> = layout::tests::row("123m456p789s1122z", 0.0, 300.0);
        for &(face, x) in faces {
            d.push(layout::tests::det(face, x, 200.0, false, 0.95, None));
        }
        PhotoReading::lay_out(640, 480, d)
    }

    #[test]
    fn the_dead_walls_gaps_are_read_but_not_beyond_its_ends() {
        // The dead wall at y = 200: a back, a 1m indicator, a gap of one tile at x = 162, two
        // backs.
        let hand = beside_a_closed_row;
        let centres = |r: &PhotoReading| -> Vec<(f32, f32)> {
            wall_gap_places(r)
                .iter()
                .map(|b| (b.cx.round(), b.cy.round()))
                .collect()
        };
        let gap = hand(&[
            ("back", 100.0),
            ("1m", 131.0),
            ("back", 193.0),
            ("back", 224.0),
        ]);
        assert_eq!(gap.layout.dora.len(), 1);
        assert_eq!(centres(&gap), vec![(162.0, 200.0)]);
        // Two tiles missing: two places, evenly spaced; none for a wall without a gap.
        let two = hand(&[("1m", 131.0), ("back", 224.0)]);
        assert_eq!(centres(&two), vec![(162.0, 200.0), (193.0, 200.0)]);
        let whole = hand(&[("back", 100.0), ("1m", 131.0), ("back", 162.0)]);
        assert!(centres(&whole).is_empty());
        // Without an indicator there is no wall row to read.
        assert!(centres(&hand(&[("back", 100.0), ("back", 193.0)])).is_empty());
        // Each place has its neighbour's box.
        let b = wall_gap_places(&gap)[0];
        assert_eq!((b.w, b.h, b.phi), (30.0, 40.0, -FRAC_PI_2));
    }

    #[test]
    fn a_hand_with_kans_shows_an_indicator_more_than_its_kans() {
        let mut one = beside_a_closed_row(&[("back", 100.0), ("1m", 131.0)]);
        assert_eq!(one.layout.dora.len(), 1);
        assert!(!lacks_kan_dora(&one), "no kan: one indicator is enough");
        let kan = crate::notation::parse_meld("(5555z)").unwrap();
        one.hand.as_mut().unwrap().melds.push(kan);
        assert!(lacks_kan_dora(&one), "a kan calls for two");
        let mut two = beside_a_closed_row(&[("1m", 131.0), ("2m", 162.0)]);
        two.hand.as_mut().unwrap().melds.push(kan);
        assert!(!lacks_kan_dora(&two));
        // No indicator at all: the dead wall is not in the photo.
        let mut none = beside_a_closed_row(&[]);
        none.hand.as_mut().unwrap().melds.push(kan);
        assert!(!lacks_kan_dora(&none));
    }

    #[test]
    fn the_dead_walls_ends_are_one_pitch_past_its_first_and_last_tiles() {
        let centres = |r: &PhotoReading| -> Vec<(f32, f32)> {
            wall_end_places(r)
                .iter()
                .map(|b| (b.cx.round(), b.cy.round()))
                .collect()
        };
        let wall = beside_a_closed_row(&[("back", 100.0), ("1m", 131.0), ("back", 193.0)]);
        assert_eq!(centres(&wall), vec![(69.0, 200.0), (224.0, 200.0)]);
        // Not off the photo's edge.
        let at_edge = beside_a_closed_row(&[("1m", 620.0)]);
        assert_eq!(centres(&at_edge), vec![(589.0, 200.0)]);
        let b = wall_end_places(&wall)[0];
        assert_eq!((b.w, b.h, b.phi), (30.0, 40.0, -FRAC_PI_2));
    }

    /// 234m567p11z, a pon of `pon` with its `called` tile first (and a second sideways tile of
    /// the pon's stacked on it when `stacked`), a chi of 1s-2s-3s, as their owner lays them:
    /// upright boxes 30 wide and 40 high, sideways ones 40 long, the row's centre line at
    /// y = 200 in a 640×480 photo.
    fn hand_with_melds(pon: &str, called: &str, stacked: bool) -> Vec<Detection> {
        use layout::tests::det;
        let mut d: Vec<Detection> = layout::tests::row("234m567p11z", 0.0, 200.0);
        let mut x = 8.0 * 31.0 + 30.0;
        d.push(det(called, x + 5.0, 205.0, true, 0.95, None));
        if stacked {
            d.push(det(pon, x + 5.0, 175.0, true, 0.95, None));
        }
        x += 41.0;
        for face in [pon, pon] {
            d.push(det(face, x + 5.0, 200.0, false, 0.95, None));
            x += 31.0;
        }
        x += 20.0;
        d.push(det("1s", x + 5.0, 205.0, true, 0.95, None));
        x += 41.0;
        for face in ["2s", "3s"] {
            d.push(det(face, x + 5.0, 200.0, false, 0.95, None));
            x += 31.0;
        }
        d
    }

    #[test]
    fn tiles_lie_across_the_photo_by_their_axis_or_by_how_their_rows_run() {
        let read = |tiles: Vec<Detection>, up: f32| ReadTiles {
            tiles,
            up,
            face: None,
        };
        let upright = -FRAC_PI_2;
        let row = layout::tests::row("123m456p789s11z", 0.0, 200.0);
        assert!(!lie_across(&read(row.clone(), upright)));
        // The same tiles with their tops to the right, as a hand beside an overhead camera.
        assert!(lie_across(&read(row.clone(), 0.0)));
        assert!(lie_across(&read(row.clone(), 0.2)));
        assert!(!lie_across(&read(row.clone(), upright + 0.5)));
        // A column of touching tiles said to stand upright: the rows run along the up axis.
        let column: Vec<Detection> = row
            .iter()
            .cloned()
            .map(|mut d| {
                d.rotated = RotatedBox {
                    cx: 200.0,
                    cy: d.rotated.cx,
                    ..d.rotated
                };
                d
            })
            .collect();
        assert!(lie_across(&read(column.clone(), upright)));
        // Loose tiles in a column, each apart from the next, say nothing.
        let loose: Vec<Detection> = column
            .iter()
            .cloned()
            .map(|mut d| {
                d.rotated.cy *= 2.0;
                d
            })
            .collect();
        assert!(!lie_across(&read(loose, upright)));
        // Too few tiles for a hand are read as they lie, whatever their axis.
        assert!(!lie_across(&read(row[..4].to_vec(), 0.0)));
        assert!(!lie_across(&read(Vec::new(), 0.0)));
    }

    /// A photo turned a quarter is read so only when its tiles then stand upright and make a
    /// hand or read, together, at least [`ACROSS_SURELY`] as surely as before: fewer tiles, or
    /// the same ones far less sure, are a worse reading unless they make a hand, and tiles that
    /// still lie across are no better.
    #[test]
    fn a_photo_is_read_turned_only_when_its_tiles_make_a_hand_or_read_surer_so() {
        let read = |tiles: Vec<Detection>, up: f32| ReadTiles {
            tiles,
            up,
            face: None,
        };
        let row = layout::tests::row("123m456p789s11z", 0.0, 200.0);
        let as_it_lies = read(row.clone(), 0.0);
        assert!(lie_across(&as_it_lies));
        let upright = -FRAC_PI_2;
        assert!(reads_better_across(
            &as_it_lies,
            &read(row.clone(), upright),
            || false
        ));
        let fewer = read(row[..9].to_vec(), upright);
        assert!(!reads_better_across(&as_it_lies, &fewer, || false));
        assert!(reads_better_across(&as_it_lies, &fewer, || true));
        // The same tiles upright, each read as sure as `p` (the row as it lies reads 0.95).
        let upright_at = |p: f32| {
            let tiles = row
                .iter()
                .cloned()
                .map(|mut d| {
                    d.confidence = p;
                    d
                })
                .collect();
            read(tiles, upright)
        };
        assert!(reads_better_across(&as_it_lies, &upright_at(0.92), || {
            false
        }));
        assert!(!reads_better_across(&as_it_lies, &upright_at(0.5), || {
            false
        }));
        assert!(!reads_better_across(
            &as_it_lies,
            &read(row.clone(), 0.1),
            || true
        ));
    }

    #[test]
    fn a_hand_shot_from_across_the_table_is_read_turned_half_a_turn() {
        let laid = |tiles: Vec<Detection>| PhotoReading::lay_out(640, 480, tiles);
        let turn = |tiles: &[Detection]| half_turned(tiles, (640.0, 480.0));
        let hand = hand_with_melds("9p", "9p", false);
        let (upright, upside_down) = (laid(hand.clone()), laid(turn(&hand)));
        assert_eq!(
            upright.hand.as_ref().map(|h| h.notation()).as_deref(),
            Some("234m567p11z [9*99p] [1*23s]")
        );
        // Upside down the melds come first, and the layout takes them into the concealed row,
        // which then runs backwards (here it even makes a closed hand: 321s999p11z765p432m).
        assert!(upside_down.layout.melds.is_empty());
        assert!(in_order(&upside_down) < 0 && in_order(&upright) > 0);
        assert!(reads_better_turned(&upside_down, &upright));
        assert!(!reads_better_turned(&upright, &upside_down));
        // Turned twice, every box is where it was.
        for (a, b) in hand.iter().zip(turn(&turn(&hand))) {
            let (p, q) = (a.rotated, b.rotated);
            assert!((p.cx - q.cx).abs() < 1e-3 && (p.cy - q.cy).abs() < 1e-3);
            assert!((p.phi - q.phi).abs() < 1e-5);
            assert!(p
                .bounds()
                .iter()
                .zip(b.bounds)
                .all(|(u, v)| (u - v).abs() < 1e-3));
        }
        // A closed hand is complete either way: its concealed tiles, sorted as players sort
        // them, say which way it lies.
        let closed = layout::tests::row("123m456p789s11222z", 0.0, 200.0);
        let (upright, upside_down) = (laid(closed.clone()), laid(turn(&closed)));
        assert!(upright.complete_as_read() && upside_down.complete_as_read());
        assert!(reads_better_turned(&upside_down, &upright));
        assert!(!reads_better_turned(&upright, &upside_down));
        // Its sets laid one way and the other in turn (as many neighbours in order as out of
        // it, either way round), it is read as it lies.
        let unsorted = layout::tests::row("123m654p987s22211z", 0.0, 200.0);
        let (as_is, turned) = (laid(unsorted.clone()), laid(turn(&unsorted)));
        assert!(as_is.complete_as_read() && turned.complete_as_read());
        assert!(!reads_better_turned(&as_is, &turned) && !reads_better_turned(&turned, &as_is));
    }

    #[test]
    fn an_added_kans_places_are_read_last_turned_to_the_called_tile() {
        let up = -std::f32::consts::FRAC_PI_2;
        let mut pon = PhotoReading::lay_out(640, 480, hand_with_melds("9p", "9p", false));
        let measured = added_kan_places(&pon, up)[0].clone();
        // The called tile's box lies along the places: nothing more to read.
        assert!(measured.iter().all(|p| turned_to_called(&pon, p).is_none()));
        // Its box turned a third of a radian (its sides named either way round): the places
        // are read once more at its angle, where they lie, as surely as the measured ones.
        let called = measured[0].called;
        for phi in [
            0.3,
            0.3 + std::f32::consts::FRAC_PI_2,
            0.3 - std::f32::consts::PI,
        ] {
            pon.tiles[called].rotated.phi = measured[0].pair[0].phi + phi;
            let turned = turned_to_called(&pon, &measured[0]).expect("turned");
            for (t, m) in turned.pair.iter().zip(&measured[0].pair) {
                assert!(
                    (t.phi - m.phi - 0.3).abs() < 1e-4,
                    "{phi}: {}",
                    t.phi - m.phi
                );
                assert_eq!((t.cx, t.cy, t.w, t.h), (m.cx, m.cy, m.w, m.h));
            }
            assert_eq!(turned.sure, ADDED_CONFIDENCE);
            assert_eq!((turned.called, turned.kind), (called, measured[0].kind));
            // Last, after the measured and the closer places: the measured ones (as the turned
            // box measures them, on each copy) turned to their called tile's box.
            let [measured_now, _, last] = added_kan_places(&pon, up);
            assert!(last.iter().any(|t| t.called == called));
            let quarter_off = |a: f32, b: f32| layout::quarter_turn_difference(a, b).abs();
            for t in &last {
                let box_phi = pon.tiles[t.called].rotated.phi;
                assert!(quarter_off(t.pair[0].phi, box_phi) < 1e-4);
                assert!(measured_now.iter().any(|m| m.called == t.called
                    && m.pair.map(|b| (b.cx, b.cy)) == t.pair.map(|b| (b.cx, b.cy))
                    && quarter_off(m.pair[0].phi, box_phi) > CALLED_TURN_MIN));
            }
        }
        // Within CALLED_TURN_MIN the crops would be the ones already read.
        pon.tiles[called].rotated.phi = measured[0].pair[0].phi + 0.04;
        assert!(turned_to_called(&pon, &measured[0]).is_none());
    }

    #[test]
    fn an_added_kan_is_looked_for_on_each_called_pon_only() {
        use layout::tests::det;
        let up = -std::f32::consts::FRAC_PI_2;
        let hand_with = |pon: &str, called: &str, stacked: bool| {
            PhotoReading::lay_out(640, 480, hand_with_melds(pon, called, stacked))
        };
        let hand_of = |pon: &str, stacked: bool| hand_with(pon, pon, stacked);
        let hand = |stacked: bool| hand_of("9p", stacked);
        let pon = hand(false);
        assert!(pon.hand.as_ref().is_some_and(|h| h.complete));
        let places = added_kan_places(&pon, up).concat();
        // The pon only, once for each side of the row: a sideways tile is 30 along the up axis
        // (40 high uprights, 30 wide, 40 long tiles); the lower tile's outer side on the row's
        // edge (y = 220 or 180), the upper one beyond it.
        let centres = |p: &AddedKanPlace| p.pair.map(|b| (b.cx.round(), b.cy.round()));
        // First on the called tile, then on the two other copies, each once for either side;
        // then all again with the sideways tile a sixth shorter along the axis (25.5 instead
        // of 30), read more surely.
        assert_eq!(places.len(), 12);
        assert_eq!(
            (centres(&places[6]), centres(&places[7])),
            (
                [(283.0, 207.0), (283.0, 182.0)],
                [(283.0, 193.0), (283.0, 218.0)]
            )
        );
        assert!(places[..6].iter().all(|p| p.sure == ADDED_CONFIDENCE));
        assert!(places[6..].iter().all(|p| p.sure == TIGHT_CONFIDENCE));
        assert_eq!(
            places[..6].iter().map(|p| p.called).collect::<Vec<_>>(),
            places[6..].iter().map(|p| p.called).collect::<Vec<_>>()
        );
        assert_eq!(
            (centres(&places[0]), centres(&places[1])),
            (
                [(283.0, 205.0), (283.0, 175.0)],
                [(283.0, 195.0), (283.0, 225.0)]
            )
        );
        let xs: Vec<f32> = places[..6].iter().map(|p| p.pair[0].cx.round()).collect();
        assert_eq!(xs, [283.0, 283.0, 324.0, 324.0, 355.0, 355.0]);
        for place in &places {
            assert_eq!(Tile::plain(place.kind).to_string(), "9p");
            let b = place.pair[0];
            assert!(layout::axis_difference(b.phi, 0.0) < 1e-3);
        }
        for place in &places[..2] {
            assert_eq!(pon.tiles[place.called].rotated.cy, 205.0);
            let b = place.pair[0];
            assert!((b.w - 30.0).abs() < 1e-3 && (b.h - 40.0).abs() < 1e-3);
        }
        // The pair read where it was looked for takes the called tile's place: an added kan.
        let pair = |place: &AddedKanPlace| {
            place
                .pair
                .map(|b| det("9p", b.cx, b.cy, true, 0.95, None))
                .to_vec()
        };
        let with_kan = pon.with_added_pair(&places[0], pair(&places[0]));
        assert!(completes(&pon, &with_kan));
        assert_eq!(
            with_kan.hand.unwrap().notation(),
            "234m567p11z {9*999p} [1*23s]"
        );
        // Read on another copy than the one the layout called, the pair says that copy is the
        // called one; a second box over the upper tile gives way to the pair.
        let other = &places[2];
        let mut doubled = pon.clone();
        let upper = other.pair[1];
        doubled
            .tiles
            .push(det("9p", upper.cx + 2.0, upper.cy - 1.0, true, 0.9, None));
        let moved = doubled.with_added_pair(other, pair(other));
        assert!(completes(&pon, &moved));
        assert_eq!(moved.tiles.len(), pon.tiles.len() + 1);
        assert_eq!(
            moved.hand.unwrap().notation(),
            "234m567p11z {99*99p} [1*23s]"
        );
        // Already an added kan, or an incomplete hand: nothing is looked for.
        assert!(added_kan_places(&hand(true), up).concat().is_empty());
        let mut short = pon.clone();
        short.hand.as_mut().unwrap().complete = false;
        assert!(added_kan_places(&short, up).concat().is_empty());
        // A pon of white dragons: a blank face is what a crop of a tile's own body reads as.
        let white = hand_of("5z", false);
        assert!(white.hand.as_ref().is_some_and(|h| h.complete));
        assert!(added_kan_places(&white, up).concat().is_empty());
        // Those are looked for apart (Recognizer::stack_blank_added_kans), on the called tile
        // only, on the far side of the row only (the upper place up the photo), at the
        // measured places only; never on a pon of another tile.
        let on_the_called_tile = |found: &[AddedKanPlace], kind: &str, tight: bool| {
            let wanted: Vec<&AddedKanPlace> = if tight {
                vec![&places[0], &places[1], &places[6], &places[7]]
            } else {
                vec![&places[0]]
            };
            assert_eq!(
                found.iter().map(centres).collect::<Vec<_>>(),
                wanted.into_iter().map(centres).collect::<Vec<_>>()
            );
            assert!(found
                .iter()
                .all(|p| Tile::plain(p.kind).to_string() == kind));
        };
        on_the_called_tile(&blank_stack_places(&white, up), "5z", false);
        assert!(blank_stack_places(&pon, up).is_empty());
        assert!(blank_stack_places(&hand_of("5z", true), up).is_empty());
        // The called tile read as another tile (a stacked pair's box reads so): the upright
        // tiles say the pon's kind, and it is looked for in the same places.
        let misread = hand_with("9p", "5p", false);
        assert!(misread.hand.as_ref().is_some_and(|h| h.complete));
        on_the_called_tile(&added_kan_places(&misread, up).concat(), "9p", true);
    }

    #[test]
    fn a_tile_whose_reading_the_way_it_is_laid_is_not_a_tile_is_dropped() {
        use layout::tests::{det, row};
        // A complete hand row, and a box just past its end, where a set-apart winning tile
        // lies, whose upright reading (the way the row lays it) or sideways one says "not a
        // tile". (A box over the seam of two tiles is dropped as a second box over one of them
        // in a layout this regular; see `layout::drop_doubled`.)
        let with_extra = |face: &str, not_tile: [f32; 2]| {
            let mut d = det(face, 14.0 * 31.0 + 10.0, 200.0, false, 0.9, None);
            d.turned = Some(Box::new(Turned {
                evidence: -1.0,
                upright: d.probs,
                sideways: d.probs,
                not_tile,
            }));
            let mut tiles = row("123m456p789s11122z", 0.0, 200.0);
            tiles.push(d);
            PhotoReading::lay_out(640, 480, tiles)
        };
        let dropped = with_extra("2z", [0.85, 0.3]);
        assert_eq!(dropped.tiles.len(), 14);
        assert!(dropped.complete_as_read());
        // Read "not a tile" only the way it is not laid: kept, and the row has a tile too many.
        let kept = with_extra("2z", [0.3, 0.85]);
        assert_eq!(kept.tiles.len(), 15);
        assert!(!kept.complete_as_read());
        // A white dragon's blank face is kept whatever it reads.
        assert_eq!(with_extra("5z", [0.85, 0.3]).tiles.len(), 15);
    }

    #[test]
    fn a_box_the_size_of_two_stacked_sideways_tiles_is_split() {
        let up = std::f32::consts::FRAC_PI_2;
        let tile =
            |cx: f32, cy: f32, w: f32, h: f32, phi: f32| (RotatedBox { cx, cy, w, h, phi }, 0.9);
        let mut boxes = vec![
            tile(900.0, 430.0, 78.0, 94.0, up),
            tile(980.0, 430.0, 78.0, 94.0, up),
            tile(1060.0, 430.0, 78.0, 94.0, up),
            // an added kan's two sideways tiles under one box, as fixture 07 shows them
            tile(1165.0, 412.0, 96.0, 128.0, up),
            // a single sideways tile beside the row
            tile(1260.0, 440.0, 78.0, 100.0, 0.0),
        ];
        let found = stacked_pair_halves(&boxes, up);
        assert_eq!(found.len(), 1);
        let (i, [a, b]) = found[0];
        assert_eq!(i, 3);
        // Each half is a sideways tile: a tile's width (78) along the up axis, the box's 96
        // across it (a tile's height, 94, at least).
        for half in [a, b] {
            assert!((half.w - 78.0).abs() < 0.5 && (half.h - 96.0).abs() < 0.5);
            assert!(layout::axis_difference(half.phi, 0.0) < 1e-4);
            assert!((half.cx - 1165.0).abs() < 1e-3);
        }
        assert!(((a.cy - b.cy).abs() - 78.0).abs() < 0.5);
        assert!(((a.cy + b.cy) / 2.0 - 412.0).abs() < 1e-3);
        // Far from any row, a large tile has no neighbours to be measured against.
        let at = boxes[3].0;
        boxes[3].0.cx = 3000.0;
        assert!(stacked_pair_halves(&boxes, up).is_empty());
        // Nor is one split whose neighbours are not in a row with it (loose tiles).
        boxes[3].0 = at;
        boxes[1].0.cy += 200.0;
        assert!(stacked_pair_halves(&boxes, up).is_empty());
        // A whole row seen larger (closer) is not split: its neighbours are as large.
        let closer: Vec<_> = (0..4)
            .map(|k| tile(100.0 * k as f32, 300.0, 96.0, 128.0, up))
            .collect();
        assert!(stacked_pair_halves(&closer, up).is_empty());
    }

    #[test]
    fn the_two_halves_of_a_sideways_tile_make_one_box() {
        let up = std::f32::consts::FRAC_PI_2;
        let tile = |cx: f32, cy: f32, w: f32, h: f32| {
            (
                RotatedBox {
                    cx,
                    cy,
                    w,
                    h,
                    phi: up,
                },
                0.9,
            )
        };
        let row = |last: [(RotatedBox, f32); 2]| {
            let mut boxes: Vec<_> = (0..3)
                .map(|k| tile(600.0 + 62.0 * k as f32, 400.0, 60.0, 70.0))
                .collect();
            boxes.extend(last);
            boxes
        };
        // Seed 26's 04: a box over each half of the called 4p, each as wide as 0.85–0.92 of a
        // tile and overlapping the other; together 1.5 tiles across the up axis.
        let halves = row([
            tile(797.0, 403.0, 52.0, 63.0),
            tile(835.0, 403.0, 52.0, 63.0),
        ]);
        let found = tile_part_pairs(&halves, up);
        assert_eq!(found.len(), 1);
        let (i, j, whole) = found[0];
        assert_eq!((i, j), (3, 4));
        assert!((whole.cx - 816.0).abs() < 0.01 && (whole.cy - 403.0).abs() < 0.01);
        assert!((whole.w - 63.0).abs() < 0.01 && (whole.h - 90.0).abs() < 0.01);
        assert!(layout::axis_difference(whole.phi, 0.0) < 1e-4);
        // Two upright neighbours that meet are two tiles (two widths across),
        let neighbours = row([
            tile(786.0, 400.0, 60.0, 70.0),
            tile(848.0, 400.0, 60.0, 70.0),
        ]);
        assert!(tile_part_pairs(&neighbours, up).is_empty());
        // and so are two whose boxes overlap, as in a steep shot, 1.7 widths across.
        let overlapping = row([
            tile(790.0, 400.0, 60.0, 70.0),
            tile(832.0, 400.0, 60.0, 70.0),
        ]);
        assert!(tile_part_pairs(&overlapping, up).is_empty());
        // Halves that do not overlap are not taken for one tile's either.
        let apart = row([
            tile(790.0, 403.0, 45.0, 63.0),
            tile(838.0, 403.0, 45.0, 63.0),
        ]);
        assert!(tile_part_pairs(&apart, up).is_empty());
    }

    #[test]
    fn a_box_small_against_its_row_may_be_part_of_an_upright_or_a_sideways_tile() {
        let up = std::f32::consts::FRAC_PI_2;
        let tile =
            |cx: f32, cy: f32, w: f32, h: f32, phi: f32| (RotatedBox { cx, cy, w, h, phi }, 0.9);
        let row = |extra: (RotatedBox, f32)| {
            let mut boxes: Vec<_> = (0..4)
                .map(|k| tile(600.0 + 62.0 * k as f32, 400.0, 60.0, 78.0, up))
                .collect();
            boxes.push(extra);
            boxes
        };
        // Seed 14's 11: a box over a 4p's upper half, as wide as a tile, 0.7 of its height.
        let half = row(tile(848.0, 388.0, 56.0, 55.0, up));
        let parts = upright_parts(&half, up);
        assert_eq!(parts.len(), 1);
        let part = parts[0];
        assert_eq!(part.part, 4);
        assert!((part.tile_long - 78.0).abs() < 0.01);
        // Two wholes lie along `axis`, a tile's sides, centred at `centres` (x, y), either way.
        let lie = |wholes: &[RotatedBox], axis: f32, centres: [(f32, f32); 2]| {
            let mut got: Vec<(f32, f32)> = wholes.iter().map(|w| (w.cx, w.cy)).collect();
            got.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
            for ((x, y), (ex, ey)) in got.iter().zip(centres) {
                assert!((x - ex).abs() < 0.01 && (y - ey).abs() < 0.01, "{got:?}");
            }
            for whole in wholes {
                assert!((whole.w - 60.0).abs() < 0.01 && (whole.h - 78.0).abs() < 0.01);
                assert!(layout::axis_difference(whole.phi, axis) < 1e-4);
            }
        };
        // The upright wholes reach a tile's height from either end of the part, along the up
        // axis; the sideways ones a tile's height along the row from either end of it
        // (848 ± 28), level with its middle.
        let (upright, sideways) = part.wholes.split_at(2);
        lie(upright, up, [(848.0, 376.5), (848.0, 399.5)]);
        let across = up + std::f32::consts::FRAC_PI_2;
        lie(sideways, across, [(837.0, 388.0), (859.0, 388.0)]);
        // A sideways tile in the row has a whole tile's sides,
        let sideways = row(tile(852.0, 410.0, 60.0, 78.0, 0.0));
        assert!(upright_parts(&sideways, up).is_empty());
        // a crumb of a box is no part,
        let crumb = row(tile(848.0, 400.0, 25.0, 30.0, up));
        assert!(upright_parts(&crumb, up).is_empty());
        // and a small box with too few boxes around it is not measured.
        let loose = vec![
            tile(100.0, 100.0, 60.0, 78.0, up),
            tile(900.0, 500.0, 56.0, 55.0, up),
        ];
        assert!(upright_parts(&loose, up).is_empty());
    }

    #[test]
    fn a_part_of_a_tile_has_fewer_pips_of_the_same_suit() {
        let face = |s: &str| Some(Face::Tile(crate::notation::parse_tile(s).unwrap()));
        assert!(more_pips(face("2p"), face("4p")));
        assert!(more_pips(face("4p"), face("8p")));
        assert!(more_pips(face("3s"), face("6s")));
        assert!(more_pips(face("2p"), face("0p")));
        // The same tile enlarged, or fewer pips, is no whole of the part;
        assert!(!more_pips(face("4p"), face("4p")));
        assert!(!more_pips(face("6p"), face("3p")));
        // nor is another suit, characters or honours, a back or nothing.
        assert!(!more_pips(face("2s"), face("4p")));
        assert!(!more_pips(face("4m"), face("8m")));
        assert!(!more_pips(face("1z"), face("3z")));
        assert!(!more_pips(face("2p"), Some(Face::Back)));
        assert!(!more_pips(None, face("4p")));
    }

    #[test]
    fn narrow_boxes_ask_for_a_larger_detector_input() {
        let settings = Settings::default();
        let row = |side: f32, n: usize| -> Vec<(RotatedBox, f32)> {
            (0..n)
                .map(|i| {
                    let b = RotatedBox {
                        cx: 100.0 + 2.0 * side * i as f32,
                        cy: 100.0,
                        w: side,
                        h: 1.3 * side,
                        phi: 0.0,
                    };
                    (b, 0.9)
                })
                .collect()
        };
        // A 1280-px image is read at half size: 40-px tiles are 20 input pixels wide, under
        // zoom_below, so the input grows until they are 26 (640 * 26 / 20 = 832).
        assert_eq!(zoomed_long_side(&settings, 1280, &row(40.0, 5)), Some(832));
        // Even count: the median is the mean of the middle two (16 and 24 input px -> 20).
        let mut mixed = row(32.0, 2);
        mixed.extend(row(48.0, 2));
        assert_eq!(zoomed_long_side(&settings, 1280, &mixed), Some(832));
        // 640 * 26 / 17 = 979 rounds to the nearest multiple of 32.
        assert_eq!(zoomed_long_side(&settings, 1280, &row(34.0, 3)), Some(992));
        // Far tiles are capped at zoom_max_long_side.
        assert_eq!(zoomed_long_side(&settings, 1280, &row(10.0, 5)), Some(1024));
        // Wide enough tiles, or too few boxes to judge, keep the single pass.
        assert_eq!(zoomed_long_side(&settings, 1280, &row(50.0, 5)), None);
        assert_eq!(zoomed_long_side(&settings, 1280, &row(10.0, 2)), None);
    }

    #[test]
    fn a_far_shots_second_pass_reads_the_window_around_the_first_pass_boxes() {
        let settings = Settings::default();
        // A 1280×720 frame enlarged to 1024: 0.8 input pixels per pixel.
        let input = picture::Letterbox {
            data: (0..3 * 576 * 1024).map(|i| i as f32).collect(),
            width: 1024,
            height: 576,
            scale: 0.8,
        };
        let row = |x0: f32| -> Vec<(RotatedBox, f32)> {
            (0..5)
                .map(|i| {
                    let b = RotatedBox {
                        cx: x0 + 40.0 * i as f32,
                        cy: 360.0,
                        w: 20.0,
                        h: 26.0,
                        phi: 0.0,
                    };
                    (b, 0.9)
                })
                .collect()
        };
        // Corners span x 587–773 and y 350–370; three 26-px tile lengths around that, at 0.8,
        // is 407–681 by 218–358 input pixels, widened to multiples of 32.
        assert_eq!(
            zoom_window(&settings, &input, &row(600.0)),
            Some([384, 192, 704, 384])
        );
        // Clamped to the input; nothing to go by, or no margin: the whole input.
        assert_eq!(
            zoom_window(&settings, &input, &row(20.0)),
            Some([0, 192, 224, 384])
        );
        assert_eq!(zoom_window(&settings, &input, &[]), None);
        let whole = Settings {
            zoom_margin: 0.0,
            ..Settings::default()
        };
        assert_eq!(zoom_window(&whole, &input, &row(600.0)), None);
        // The window keeps each plane's rows and the scale.
        let part = input.window(384, 192, 704, 384).expect("inside");
        assert_eq!((part.width, part.height, part.scale), (320, 192, 0.8));
        let at = |l: &picture::Letterbox, c: usize, x: usize, y: usize| {
            l.data[c * l.width * l.height + y * l.width + x]
        };
        for (c, x, y) in [(0, 0, 0), (1, 319, 0), (2, 5, 191)] {
            assert_eq!(at(&part, c, x, y), at(&input, c, 384 + x, 192 + y));
        }
        assert!(input.window(1024, 0, 2048, 10).is_none());
    }

    /// A reading's exact bits, to compare readings bit for bit.
    fn bits(r: &Reading) -> Vec<u32> {
        r.tiles
            .iter()
            .chain([&r.not_tile])
            .map(|p| p.to_bits())
            .collect()
    }

    /// What a [`Sight`] remembers stands for cutting and classifying the crop again, and a
    /// batch may be shared out between the classifier's copies, only if a crop reads the same
    /// bits whatever else is cut and classified with it: alone, in a batch shared out between
    /// two copies, and looked up in a sight that read it in another batch.
    #[test]
    fn a_crop_reads_the_same_bits_alone_in_a_batch_or_remembered() {
        let models = runtime::models_dir().unwrap_or_else(|e| panic!("no models: {e}"));
        let mut recognizer = Recognizer::load(&models, 2)
            .unwrap_or_else(|e| panic!("cannot load the recognizer: {e}"));
        assert_eq!(recognizer.classifiers.len(), 2);
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/datasets/fixtures/01-closed-normal.jpg"
        );
        let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let image = Rgb::decode(&bytes).unwrap_or_else(|e| panic!("{path}: {e}"));
        let found = recognizer.detect(&image).expect("detects");
        let boxes: Vec<RotatedBox> = found.sure.iter().map(|&(b, _)| b).take(10).collect();
        assert_eq!(boxes.len(), 10, "the fixture shows at least 10 tiles");
        let together = recognizer
            .classify(&mut Sight::of(&image), &boxes)
            .expect("classifies");
        for (b, read) in boxes.iter().zip(&together) {
            let alone = recognizer
                .classify(&mut Sight::of(&image), &[*b])
                .expect("classifies");
            assert_eq!(bits(&alone[0]), bits(read));
        }
        let mut sight = Sight::of(&image);
        recognizer
            .classify(&mut sight, &boxes[3..7])
            .expect("classifies");
        let again = recognizer
            .read_crops(&mut sight, &boxes, |i| i % 2 == 0)
            .expect("reads");
        for (i, (b, seen)) in boxes.iter().zip(&again).enumerate() {
            assert_eq!(bits(&seen.reading), bits(&together[i]), "crop {i}");
            let crop = picture::crops(&image, &[*b]);
            let value = picture::face_value(&crop);
            let face = (value, picture::face_colour(&crop, value));
            assert_eq!(seen.face, (i % 2 == 0).then_some(face), "crop {i}");
            assert_eq!(
                sight.seen(b).map(|s| bits(&s.reading)),
                Some(bits(&seen.reading))
            );
        }
    }

    #[test]
    fn classes_map_to_faces_and_back() {
        for class in 0..CLASS_COUNT {
            let face = Face::from_class(class).unwrap();
            assert_eq!(face.class(), class);
        }
        assert_eq!(Face::from_class(0).unwrap().notation(), "1m");
        assert_eq!(Face::from_class(27).unwrap().notation(), "1z");
        assert_eq!(Face::from_class(35).unwrap().notation(), "0p");
        assert_eq!(Face::from_class(37).unwrap().notation(), "back");
        assert_eq!(Face::from_class(38), None);
    }
}
