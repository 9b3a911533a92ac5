//! From detected tiles to a hand: which tiles form the concealed row, which are called melds
//! (marked by a sideways tile), closed kans (two face-down tiles), added kans (a sideways tile
//! stacked on another), dora indicators (tiles set apart from the hand row), and the winning
//! tile when it is set apart at the right end of the concealed tiles.
//!
//! Works in the hand's own frame, so tilted photos read the same as straight ones: the row
//! axis is estimated from the tiles' orientations, upright tiles are the majority, and the
//! hand is read left to right with the tiles' tops towards the top of the photo.
//!
//! [`read_hand`] then decodes the tiles with the hand in mind: when the most probable reading is
//! not a complete hand, or holds a fifth copy, nearby readings are searched for the most probable
//! valid one, and the tiles it changed are marked uncertain.

use super::picture::RotatedBox;
use super::{Detection, Face};
use crate::context::{WinContext, WinMethod};
use crate::hand::{is_sequence, Hand, Meld, MeldKind};
use crate::rules::Rules;
use crate::score::{score, ScoreError};
use crate::shape::{completing_tiles, wins_as_shown};
use crate::tile::{Kind, Tile, Wind};
use serde::Serialize;

/// A meld found in the photo, as indices into the detections in reading order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MeldSpot {
    pub tiles: Vec<usize>,
    /// Index (into `tiles`) of the sideways tile, if any.
    pub called: Option<usize>,
    /// Two sideways tiles stacked: an added kan.
    pub stacked: bool,
    /// Two face-down tiles: a closed kan.
    pub closed_kan: bool,
    /// Whether the meld's kind was told only by its tiles' places, which fit another about as
    /// well: a kan of four blank faces, closed or open (see [`blank_kan`]). Its tiles are
    /// marked for the user to check.
    pub doubtful: bool,
}

impl MeldSpot {
    /// The kind of a pon: three tiles, none stacked or face down, all read as one kind.
    pub(crate) fn pon_kind(&self, detections: &[Detection]) -> Option<Kind> {
        let kind = detections[*self.tiles.first()?].tile.kind()?;
        let pon = self.tiles.len() == 3 && !self.stacked && !self.closed_kan;
        (pon && self
            .tiles
            .iter()
            .all(|&i| detections[i].tile.kind() == Some(kind)))
        .then_some(kind)
    }
}

/// Where each detected tile belongs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Layout {
    /// Concealed tiles in reading order, without a set-apart winning tile.
    pub concealed: Vec<usize>,
    /// The winning tile, when set apart to the right of the concealed tiles.
    pub win: Option<usize>,
    pub melds: Vec<MeldSpot>,
    /// Dora indicators (face-up tiles in rows apart from the hand).
    pub dora: Vec<usize>,
    /// Detections not placed (face-down tiles outside kans, stray tiles).
    pub unplaced: Vec<usize>,
}

impl Layout {
    /// Every tile but the dora indicators: the concealed ones, the winning tile, the melds' and
    /// the unplaced ones, which may stand in the hand row's gaps.
    pub fn hand_row_tiles(&self) -> impl Iterator<Item = usize> + '_ {
        self.concealed
            .iter()
            .chain(&self.win)
            .chain(self.melds.iter().flat_map(|m| &m.tiles))
            .chain(&self.unplaced)
            .copied()
    }
}

/// How much more sideways evidence (see [`sideways_evidence`]) a meld's most sideways-looking
/// slot needs than the next one for the evidence to pick the called slot; with less, the
/// slots' places pick it (see [`called_slot`]). In three held-out fixtures' pons of a tile
/// that looks alike a quarter turned, the wrong copy led by 0.01–0.14, while a clear call stands out
/// by 2 or more; at 0.7 the places already overruled the evidence wrongly.
const CLEAR_EVIDENCE: f32 = 0.3;

/// The sideways evidence a tile of the row's first run (the concealed one) needs to mark the
/// run as holding a called tile: one read sideways by its box's angle (evidence 1), not one
/// that only leans so of its two readings.
const FIRST_RUN_MARK: f32 = 1.0;

/// How much more sideways evidence (see [`sideways_evidence`]) than a chi's first slot another
/// of its slots needs to be taken as the called one. A chi's called tile comes from the player
/// on the left and lies first; more than the detector's angle alone can add (twice
/// `ANGLE_WEIGHT`), so the classifier must read the tile turned. In the 2,702 chis of held-out
/// seeds 8–127 and other art 8–97 the first tile is the called one; before this rule another
/// was taken in 6 fixtures, mostly a 5p (alike a quarter turned) that the detector drew a
/// little more turned than the called 4p.
const CHI_ELSEWHERE_EVIDENCE: f32 = 1.0;

/// How far (in median tile widths) two face-up boxes' centres may sit closer than their tiles
/// allow before one is taken for a second box over the same tile (see [`drop_doubled`]). Chosen
/// on held-out fixtures (model card, "Doubled boxes and steep rows").
const DOUBLED_GAP: f32 = 0.35;
/// The room (in median tile widths) between the neighbours of two overlapping upright boxes
/// of different faces from which both are tiles: one tile leaves about 1 between its
/// neighbours, two about 2.
const DOUBLED_ROOM: f32 = 1.65;

/// How far across the row (in upright tile heights) a copy of a tile may lie from it to be
/// taken as stacked on it, whichever way the two are read to lie. In held-out seeds 8–127 and
/// other art 8–97, added tiles lie 0.6–1.1 heights from the tile they are stacked on; other
/// copies of a face in the hand row lie 1.4 or more away (dora indicators behind a meld in
/// steep shots), but for one indicator behind an added tile read as its face, which a pair
/// already stacked does not take.
const STACK_SAME_ACROSS: f32 = 1.2;

/// How far across its row (in upright tile heights) from the row's median a face may lie to
/// count towards the row's line when the hand row is chosen: a sideways tile lies about 0.15
/// off it, an added kan's stacked tile 0.6–1.1.
const IN_LINE: f32 = 0.5;

/// A tile's height over its width, at the low end of riichi sets (1.28–1.42): the least a
/// sideways tile takes along its row, in upright tile widths.
pub(crate) const TILE_ASPECT: f32 = 1.3;

/// Angle difference on axes (mod π), in 0..=π/2.
pub(crate) fn axis_difference(a: f32, b: f32) -> f32 {
    let d = (a - b).rem_euclid(std::f32::consts::PI);
    d.min(std::f32::consts::PI - d)
}

/// The turn from `b` to the nearest of `a`'s axes, a box's sides taken either way round (mod
/// π/2), in -π/4..π/4.
pub(crate) fn quarter_turn_difference(a: f32, b: f32) -> f32 {
    use std::f32::consts::{FRAC_PI_2, FRAC_PI_4};
    (a - b + FRAC_PI_4).rem_euclid(FRAC_PI_2) - FRAC_PI_4
}

pub(crate) fn median(mut values: Vec<f32>) -> f32 {
    if values.is_empty() {
        return 0.0;
    }
    values.sort_by(f32::total_cmp);
    values[values.len() / 2]
}

/// The hand's up axis (mod π) from the tiles' up axes: upright and sideways tiles agree on the
/// axis mod π/2, and upright tiles are the majority.
pub(crate) fn up_axis(phis: &[f32]) -> f32 {
    let (mut c4, mut s4) = (0f32, 0f32);
    for phi in phis {
        c4 += (4.0 * phi).cos();
        s4 += (4.0 * phi).sin();
    }
    let axis = s4.atan2(c4) / 4.0;
    let near = |phi: f32| axis_difference(phi, axis) < std::f32::consts::FRAC_PI_4;
    let votes = phis.iter().filter(|&&phi| near(phi)).count();
    if 2 * votes >= phis.len() {
        axis
    } else {
        axis + std::f32::consts::FRAC_PI_2
    }
}

/// The direction of the rows from the tiles' positions: the median direction from each tile to
/// its nearest neighbour ahead, within 30° of `guess` and 2.5 tile widths. Falls back to
/// `guess` with too few neighbours.
fn row_direction(detections: &[Detection], guess: (f32, f32), tile_w: f32) -> (f32, f32) {
    let base = guess.1.atan2(guess.0);
    let cone = 30f32.to_radians().cos();
    let mut turns: Vec<f32> = Vec::new();
    for a in detections {
        let mut nearest: Option<(f32, f32)> = None;
        for b in detections {
            let (dx, dy) = (b.rotated.cx - a.rotated.cx, b.rotated.cy - a.rotated.cy);
            let dist = dx.hypot(dy);
            let ahead = dx * guess.0 + dy * guess.1;
            let in_cone = dist > 0.0 && dist <= 2.5 * tile_w && ahead >= cone * dist;
            if in_cone && nearest.is_none_or(|(d, _)| dist < d) {
                nearest = Some((dist, dy.atan2(dx)));
            }
        }
        if let Some((_, angle)) = nearest {
            let turn = (angle - base + std::f32::consts::PI).rem_euclid(std::f32::consts::TAU)
                - std::f32::consts::PI;
            turns.push(turn);
        }
    }
    if turns.len() < 3 {
        return guess;
    }
    let angle = base + median(turns);
    (angle.cos(), angle.sin())
}

/// Where the tiles of a photo sit: the median tile, and each tile's place along and across
/// the rows, which are grouped.
struct Frame {
    /// An upright tile's width along the row and height across it (medians).
    tile_w: f32,
    tile_h: f32,
    /// A sideways tile's length along the row.
    tile_long: f32,
    along: Vec<f32>,
    across: Vec<f32>,
    /// Tiles by row, each row in order across the rows.
    rows: Vec<Vec<usize>>,
}

impl Frame {
    /// Measures a photo's frame from its (at least one) detections, and marks sideways the
    /// tiles turned a quarter from the hand's up axis, unless read both ways (whose readings
    /// already decided).
    fn measure(detections: &mut [Detection]) -> Frame {
        let mut up = up_axis(&detections.iter().map(|d| d.rotated.phi).collect::<Vec<_>>());
        for d in detections.iter_mut() {
            if d.turned.is_none() {
                d.sideways = axis_difference(d.rotated.phi, up) >= std::f32::consts::FRAC_PI_4;
            }
        }
        // Tops towards the top of the photo.
        if up.sin() > 0.0 || (up.sin().abs() < 1e-3 && up.cos() > 0.0) {
            up += std::f32::consts::PI;
        }
        let upright: Vec<&Detection> = detections.iter().filter(|d| !d.sideways).collect();
        let tile_h = median(
            upright
                .iter()
                .map(|d| d.rotated.h.max(d.rotated.w))
                .collect(),
        );
        let tile_w = median(
            upright
                .iter()
                .map(|d| d.rotated.w.min(d.rotated.h))
                .collect(),
        );
        let (tile_h, tile_w) = if tile_h > 0.0 {
            (tile_h, tile_w)
        } else {
            let all = median(
                detections
                    .iter()
                    .map(|d| d.rotated.h.max(d.rotated.w))
                    .collect(),
            );
            (all, all * 0.75)
        };

        // The row runs where neighbouring tiles sit, which in a perspective or tilted shot can be
        // several degrees off the tiles' own axes: enough to cut a long row in two.
        let (rx, ry) = row_direction(detections, (-up.sin(), up.cos()), tile_w);
        let (ux, uy) = (ry, -rx);
        let along: Vec<f32> = detections
            .iter()
            .map(|d| d.rotated.cx * rx + d.rotated.cy * ry)
            .collect();
        let across: Vec<f32> = detections
            .iter()
            .map(|d| -(d.rotated.cx * ux + d.rotated.cy * uy))
            .collect();

        // A steep shot foreshortens the faces until their boxes are wider than tall, so a
        // tile's width along the row is the box side that lies along the row, not its shorter
        // side. A tile laid sideways is not foreshortened along the row: its length there is
        // at least the physical tile's.
        let row_angle = ry.atan2(rx);
        let spans: Vec<(f32, f32)> = detections
            .iter()
            .filter(|d| !d.sideways)
            .map(|d| {
                let b = &d.rotated;
                if axis_difference(b.phi, row_angle) > std::f32::consts::FRAC_PI_4 {
                    (b.w, b.h)
                } else {
                    (b.h, b.w)
                }
            })
            .collect();
        let (tile_w, tile_h) = if spans.is_empty() {
            (tile_w, tile_h)
        } else {
            (
                median(spans.iter().map(|s| s.0).collect()),
                median(spans.iter().map(|s| s.1).collect()),
            )
        };
        let tile_long = tile_h.max(TILE_ASPECT * tile_w);
        // Rows: split the tiles where the gap across the row direction is large.
        let mut order: Vec<usize> = (0..detections.len()).collect();
        order.sort_by(|&a, &b| across[a].total_cmp(&across[b]));
        let mut rows: Vec<Vec<usize>> = vec![vec![order[0]]];
        for pair in order.windows(2) {
            if across[pair[1]] - across[pair[0]] > 0.6 * tile_h {
                rows.push(Vec::new());
            }
            if let Some(row) = rows.last_mut() {
                row.push(pair[1]);
            }
        }
        Frame {
            tile_w,
            tile_h,
            tile_long,
            along,
            across,
            rows,
        }
    }

    /// The space between two tiles of a row beyond what their median sizes take, in tile
    /// widths: about zero for neighbours, negative for boxes that overlap.
    fn gap(&self, a: usize, b: usize, detections: &[Detection]) -> f32 {
        let extent = |i: usize| {
            if detections[i].sideways {
                self.tile_long
            } else {
                self.tile_w
            }
        };
        ((self.along[b] - self.along[a]).abs() - (extent(a) + extent(b)) / 2.0) / self.tile_w
    }
}

/// Drops the boxes a tile beside them already holds, before the layout: of two face-up boxes
/// in one line of a row whose centres sit closer than their median tiles allow by more than
/// [`DOUBLED_GAP`], the one the detector is less sure of. The detector sometimes draws a second
/// box over a called tile (one along its face, one turned) or over the halves of one tile, and
/// each would count as a tile of its own. Measured along the row and in median tiles, because
/// the boxes of a tilted photo overlap on the image axes and a doubled box can be any size.
/// Two upright boxes of different faces (neither two pips of a suit, as part of a tile reads)
/// whose neighbours leave [`DOUBLED_ROOM`] between them are both kept: one was drawn off its
/// tile, over part of the next. So are two of the same face whose less sure box is in `keep`
/// (see [`alike_with_room`]).
pub fn drop_doubled(detections: &mut Vec<Detection>, keep: &[RotatedBox]) {
    let mut gone: Vec<usize> = doubled(detections)
        .into_iter()
        .filter(|d| !(d.alike_with_room && keep.contains(&detections[d.less_sure].rotated)))
        .map(|d| d.less_sure)
        .collect();
    gone.sort_unstable();
    gone.dedup();
    for i in gone.into_iter().rev() {
        detections.remove(i);
    }
}

/// The less sure boxes [`drop_doubled`] drops of pairs of upright boxes of the same face whose
/// neighbours leave [`DOUBLED_ROOM`] between them: two tiles of one kind side by side, one box
/// drawn off its tile over part of the next, or one tile boxed twice beside a gap in the row.
/// Only a hand can tell (the caller keeps one where it completes the hand): kept whenever, the
/// 4,200 held-out fixtures gained four and lost four, three of them to a tile counted twice.
pub fn alike_with_room(detections: &[Detection]) -> Vec<RotatedBox> {
    // Measuring a frame lays the tiles read one way only as their boxes lie: a copy is.
    let mut detections = detections.to_vec();
    doubled(&mut detections)
        .into_iter()
        .filter(|d| d.alike_with_room)
        .map(|d| detections[d.less_sure].rotated)
        .collect()
}

/// A box [`drop_doubled`] takes for a second box over a tile.
struct Doubled {
    less_sure: usize,
    /// Of the same face as its neighbour, with room for both (see [`alike_with_room`]).
    alike_with_room: bool,
}

fn doubled(detections: &mut [Detection]) -> Vec<Doubled> {
    let mut doubled = Vec::new();
    if detections.is_empty() {
        return doubled;
    }
    let frame = Frame::measure(detections);
    for row in &frame.rows {
        let mut faces: Vec<usize> = row
            .iter()
            .copied()
            .filter(|&i| detections[i].tile != Face::Back)
            .collect();
        faces.sort_by(|&a, &b| frame.along[a].total_cmp(&frame.along[b]));
        // Stacked tiles (an added kan) share a place along the row but not across it.
        let one_line =
            |a: usize, b: usize| (frame.across[a] - frame.across[b]).abs() < 0.3 * frame.tile_h;
        for (k, pair) in faces.windows(2).enumerate() {
            let (a, b) = (pair[0], pair[1]);
            // Two upright tiles whose neighbours leave room for both: a box drawn off its
            // tile, over part of the next (seed 97's 12), not a second box.
            let room_for_both = || {
                let (Some(&before), Some(&after)) =
                    (k.checked_sub(1).map(|p| &faces[p]), faces.get(k + 2))
                else {
                    return false;
                };
                let (da, db) = (&detections[a], &detections[b]);
                // Part of a tile reads as two of its suit's pips (a 4s's half as a 2s).
                let a_part = |d: &Detection| {
                    d.tile
                        .kind()
                        .is_some_and(|k| !k.is_honor() && k.number() == 2)
                };
                !da.sideways
                    && !db.sideways
                    && !a_part(da)
                    && !a_part(db)
                    && one_line(before, a)
                    && one_line(b, after)
                    && frame.gap(before, after, detections) >= DOUBLED_ROOM
            };
            if one_line(a, b) && frame.gap(a, b, detections) < -DOUBLED_GAP {
                let alike = detections[a].tile.kind() == detections[b].tile.kind();
                let room = room_for_both();
                if room && !alike {
                    continue;
                }
                let less_sure = if detections[a].detector_score < detections[b].detector_score {
                    a
                } else {
                    b
                };
                doubled.push(Doubled {
                    less_sure,
                    alike_with_room: room,
                });
            }
        }
    }
    doubled
}

/// Lays out the detections and marks the sideways ones.
pub fn lay_out(detections: &mut [Detection]) -> Layout {
    if detections.is_empty() {
        return Layout::default();
    }
    let frame = Frame::measure(detections);
    let (tile_w, along, across, rows) = (frame.tile_w, &frame.along, &frame.across, &frame.rows);
    // The hand is the row with the most tiles face up in one line: a wall left on the table is
    // a longer row, of backs, and a hand shows at most eight (four closed kans). No more than
    // four of a kind count, as a set holds four: a wall of pale backs read as white dragons is
    // no hand. Loose tiles heaped beside the hand can chain into a "row" of more faces than it
    // holds, but they do not lie in a line.
    let face_up = |r: usize| {
        let faces: Vec<usize> = rows[r]
            .iter()
            .copied()
            .filter(|&i| detections[i].tile.kind().is_some())
            .collect();
        let line = median(faces.iter().map(|&i| across[i]).collect());
        let mut of_kind = [0usize; Kind::COUNT];
        faces
            .iter()
            .filter(|&&i| (across[i] - line).abs() <= IN_LINE * frame.tile_h)
            .filter_map(|&i| detections[i].tile.kind())
            .filter(|k| {
                of_kind[k.index()] += 1;
                of_kind[k.index()] <= 4
            })
            .count()
    };
    let hand_row = (0..rows.len())
        .max_by(|&a, &b| {
            face_up(a)
                .cmp(&face_up(b))
                .then(rows[a].len().cmp(&rows[b].len()))
                .then(b.cmp(&a).reverse())
        })
        .unwrap_or(0);
    // Beside a hand laid out in a row, two white dragons in another row are far likelier the
    // dead wall of a set with ivory backs, whose backs are blank faces too, than two such dora
    // indicators. Not in a pile of tiles (no long row: real blank dragons side by side), nor in
    // a set whose backs read as backs, unless that row holds a back that might be a white
    // dragon too: a pale back reads either way, tile by tile (seed 33's 14: one of three read
    // as a back), while a coloured back does not read as a blank face. Nor can five or more
    // blank faces in a row be white dragons, of which a set holds four.
    let laid_out = rows[hand_row].len() >= 11;
    let no_backs = !detections.iter().any(|d| d.tile == Face::Back);
    if laid_out {
        for (r, row) in rows.iter().enumerate() {
            let blanks: Vec<usize> = row
                .iter()
                .copied()
                .filter(|&i| detections[i].reads_blank())
                .collect();
            let row_backs = row.iter().any(|&i| detections[i].pale_back());
            if r != hand_row && blanks.len() >= 2 && (no_backs || row_backs || blanks.len() > 4) {
                for i in blanks {
                    detections[i].read_as_back();
                }
            }
        }
    }
    let mut hand: Vec<usize> = rows[hand_row].clone();
    // A tile stacked on a tile of the hand row is the added tile of an added kan, both face up
    // (a face-down tile is never stacked: the backs beside the dora indicators are the dead
    // wall) and sideways. But which way a tile lies that looks alike a quarter turned (1p, 4p,
    // 5p, 9p, a white dragon) is often read wrong, so two copies of one face stack too when
    // they lie as close across the row as a sideways tile is deep (see [`STACK_SAME_ACROSS`]).
    let face_up_sideways = |i: usize| detections[i].sideways && detections[i].tile != Face::Back;
    let stacked_on = |i: usize, j: usize| {
        let (di, dj) = (&detections[i], &detections[j]);
        let one_face = di.tile.kind().is_some() && di.tile.kind() == dj.tile.kind();
        let apart = (across[i] - across[j]).abs();
        di.tile != Face::Back
            && dj.tile != Face::Back
            && (along[i] - along[j]).abs() < 0.5 * tile_w
            && ((face_up_sideways(i) && face_up_sideways(j) && apart < 1.6 * tile_w)
                || (one_face && apart < STACK_SAME_ACROSS * frame.tile_h))
    };
    // Each tile of the row holds at most one added tile, and a pair already stacked within the
    // row (a steep shot's rows run together) holds no more.
    let mut holds = vec![false; detections.len()];
    for &j in &rows[hand_row] {
        holds[j] = rows[hand_row]
            .iter()
            .any(|&k| k != j && (stacked_on(k, j) || stacked_on(j, k)));
    }
    let mut others: Vec<usize> = Vec::new();
    for (r, row) in rows.iter().enumerate() {
        if r == hand_row {
            continue;
        }
        for &i in row {
            let under = rows[hand_row]
                .iter()
                .copied()
                .find(|&j| !holds[j] && stacked_on(i, j));
            if let Some(j) = under {
                holds[j] = true;
                hand.push(i);
            } else {
                others.push(i);
            }
        }
    }
    hand.sort_by(|&a, &b| along[a].total_cmp(&along[b]));

    let mut layout = Layout::default();
    for i in others {
        if detections[i].tile == Face::Back {
            layout.unplaced.push(i);
        } else {
            layout.dora.push(i);
        }
    }
    layout.dora.sort_by(|&a, &b| along[a].total_cmp(&along[b]));

    // Merge stacked pairs into single slots so gaps are measured between slots.
    let mut slots: Vec<Vec<usize>> = Vec::new();
    for &i in &hand {
        if let Some(last) = slots.last_mut() {
            if last.len() == 1 && stacked_on(i, last[0]) {
                last.push(i);
                continue;
            }
        }
        slots.push(vec![i]);
    }
    // Groups: runs of slots separated by gaps wider than a third of a tile.
    let mut groups: Vec<Vec<usize>> = vec![vec![0]];
    // The gap before each slot, in tile widths.
    let mut gaps = vec![0f32; slots.len()];
    for s in 1..slots.len() {
        let (a, b) = (slots[s - 1][0], slots[s][0]);
        gaps[s] = frame.gap(a, b, detections);
        if gaps[s] > 0.33 {
            groups.push(Vec::new());
        }
        if let Some(group) = groups.last_mut() {
            group.push(s);
        }
    }
    // The first run is concealed (melds lie to its right), so a tile in it that only leans
    // sideways, a face alike a quarter turned read both ways, does not mark it: else the runs
    // after it are taken for melds whenever their count fits one (wall seed 24's 13: a 4p
    // leaning 0.09 made 7s 8s and the set-apart 6s a chi).
    let marks = |run: usize, s: usize| {
        slots[s].iter().any(|&i| {
            let d = &detections[i];
            let called = d.sideways && (run > 0 || sideways_evidence(d) >= FIRST_RUN_MARK);
            called || d.tile == Face::Back
        })
    };
    let marked = groups
        .iter()
        .enumerate()
        .position(|(n, g)| g.iter().any(|&s| marks(n, s)))
        .unwrap_or(groups.len());
    let tiles_in = |gs: &[Vec<usize>]| -> usize {
        gs.iter()
            .flat_map(|g| g.iter().map(|&s| slots[s].len()))
            .sum()
    };
    // A winning hand holds 14 tiles plus one per kan: with m melds, 14 − 3m are concealed
    // (winning tile included) and the melds hold 3m to 4m. When the sideways marks do not
    // split the row that way (a called tile read upright, a concealed one read sideways),
    // the first split that does is taken.
    let fits = |p: usize| {
        let (concealed, melded) = (tiles_in(&groups[..p]), tiles_in(&groups[p..]));
        let melds = 14usize.saturating_sub(concealed) / 3;
        concealed <= 14 && (14 - concealed) % 3 == 0 && (3 * melds..=4 * melds).contains(&melded)
    };
    // A lone tile right after the first run is the winning tile set apart, and what follows
    // it can only be melds; a pon next to the concealed run fits the count either way. Fewer
    // than three tiles after it are no meld: a gap measured wrong cut the concealed run, and
    // the last lone tile is the winning one (seed 107's 18).
    let after_win =
        (groups.len() > 2 && tiles_in(&groups[1..2]) == 1 && tiles_in(&groups[2..]) >= 3)
            .then_some(2);
    let marked = marked.max(1);
    let meld_start = after_win.unwrap_or(if fits(marked) {
        marked
    } else {
        (1..=groups.len()).find(|&p| fits(p)).unwrap_or(marked)
    });
    let concealed_groups = &groups[..meld_start];
    for (n, group) in concealed_groups.iter().enumerate() {
        let last = n + 1 == concealed_groups.len();
        if last && n > 0 && group.len() == 1 {
            layout.win = Some(slots[group[0]][0]);
        } else {
            layout.concealed.extend(group.iter().map(|&s| slots[s][0]));
        }
    }
    // A winning tile set apart by less than a third of a tile still stands out when the gap
    // before it is clearly the widest of the run's last few (boxes a little too wide eat into
    // the gap). Only the last few: gaps measured in one median tile width drift along the row
    // in a perspective shot, where the tiles nearer the camera are wider.
    // With four melds the concealed tiles are a pair, and the gap between them is the run's only
    // one: the held-out fixtures' set-apart winning tiles sat 0.29-0.32 tiles off there. Either
    // way the winning tile is the pair's second, so only the set-apart flag follows.
    if let [run] = concealed_groups {
        if layout.win.is_none() && run.len() >= 5 {
            let last = gaps[run[run.len() - 1]];
            let widest_other = run[run.len().saturating_sub(5).max(1)..run.len() - 1]
                .iter()
                .map(|&s| gaps[s])
                .fold(f32::MIN, f32::max);
            if last > 0.15 && last > widest_other + 0.15 {
                layout.win = layout.concealed.pop();
            }
        } else if layout.win.is_none() && run.len() == 2 && gaps[run[1]] > 0.15 {
            layout.win = layout.concealed.pop();
        }
    }
    for &i in layout.concealed.iter().chain(&layout.win) {
        detections[i].lay_as(false);
    }
    // No meld has fewer than three places (an added kan's stacked pair is one): a run that
    // short was cut by a gap measured wrong (a called tile taken for upright is narrower along
    // the row, a stacked pair's upper tile sits off its lower one), so it joins the next run.
    let mut meld_runs: Vec<Vec<usize>> = Vec::new();
    for group in &groups[meld_start..] {
        match meld_runs.last_mut() {
            Some(last) if last.len() < 3 => last.extend(group),
            _ => meld_runs.push(group.clone()),
        }
    }
    let sizes = |run: &[usize]| meld_sizes(run, &gaps, &slots, detections);
    if !meld_runs.iter().all(|run| sizes(run).is_some()) {
        let all: Vec<usize> = meld_runs.concat();
        if let Some(cut) = sizes(&all) {
            meld_runs = cut
                .iter()
                .scan(0, |start, &size| {
                    *start += size;
                    Some(all[*start - size..*start].to_vec())
                })
                .collect();
        }
    }
    for run in &meld_runs {
        split_melds(run, &slots, &frame, detections, &mut layout);
    }
    layout
}

/// The sizes of the melds a run of meld slots splits into, every slot placed and every meld
/// one its top readings can be, the cuts at the widest gaps (`gaps[s]`: before slot `s`), or
/// `None` where it cannot split so. A kan is four slots with two blank faces or backs, or four
/// copies of one face; a pon or chi three slots that show a called tile (read sideways, or a
/// face alike a quarter turned, whose way the classifier cannot tell).
///
/// A gap measured wrong (a sideways tile's box over only part of it, seed 127's 04) cuts a
/// meld from its neighbour or joins it to one; the runs are then cut again as a whole.
fn meld_sizes(
    run: &[usize],
    gaps: &[f32],
    slots: &[Vec<usize>],
    detections: &[Detection],
) -> Option<Vec<usize>> {
    let first = |s: usize| &detections[slots[s][0]];
    let kinds = |chunk: &[usize]| -> Option<Vec<Kind>> {
        chunk.iter().map(|&s| first(s).tile.kind()).collect()
    };
    let one_kind = |kinds: &[Kind]| kinds.iter().all(|&k| k == kinds[0]);
    let can_be = |chunk: &[usize]| match chunk.len() {
        4 => {
            let blank = chunk
                .iter()
                .filter(|&&s| first(s).tile == Face::Back || first(s).reads_blank())
                .count();
            blank >= 2 || kinds(chunk).is_some_and(|k| one_kind(&k))
        }
        _ => {
            let called = chunk
                .iter()
                .any(|&s| first(s).sideways || first(s).tile.looks_alike_turned());
            called && kinds(chunk).is_some_and(|k| one_kind(&k) || is_sequence(&k))
        }
    };
    // The gaps inside a meld, summed: the fewer and narrower, the likelier the cut.
    let inside = |chunk: &[usize]| chunk[1..].iter().map(|&s| gaps[s].max(0.0)).sum::<f32>();
    // best[n]: the least cost of splitting the first n slots, and the last meld's size.
    let mut best: Vec<Option<(f32, usize)>> = vec![None; run.len() + 1];
    best[0] = Some((0.0, 0));
    for n in 3..=run.len() {
        for size in [3, 4] {
            let Some((before, _)) = n.checked_sub(size).and_then(|m| best[m]) else {
                continue;
            };
            let chunk = &run[n - size..n];
            if !can_be(chunk) {
                continue;
            }
            let cost = before + inside(chunk);
            if best[n].is_none_or(|(c, _)| cost < c) {
                best[n] = Some((cost, size));
            }
        }
    }
    let mut sizes = Vec::new();
    let mut n = run.len();
    while n > 0 {
        let (_, size) = best[n]?;
        sizes.push(size);
        n -= size;
    }
    sizes.reverse();
    Some(sizes)
}

/// The ends of a closed kan whose ivory backs read as white dragons: no meld starts with a
/// white dragon and two copies of another tile, so white dragon, X, X, white dragon can only
/// be the kan of X between its two backs.
fn ivory_kan_backs(rest: &[usize], slots: &[Vec<usize>], detections: &[Detection]) -> Vec<usize> {
    let single = |k: usize| match rest.get(k).map(|&s| slots[s].as_slice()) {
        Some(&[i]) => Some(&detections[i]),
        _ => None,
    };
    let (Some(a), Some(b), Some(c), Some(d)) = (single(0), single(1), single(2), single(3)) else {
        return Vec::new();
    };
    let middle = b
        .tile
        .kind()
        .filter(|&k| k != Kind::HAKU && c.tile.kind() == Some(k));
    if a.reads_blank() && d.reads_blank() && middle.is_some() {
        vec![slots[rest[0]][0], slots[rest[3]][0]]
    } else {
        Vec::new()
    }
}

/// What the places of four blank faces starting a meld run say of them.
struct BlankKan {
    /// A closed kan of white dragons between two ivory backs rather than an open kan of them.
    closed: bool,
    /// The places' misfit to that reading (closed, or open with that tile called) is not under
    /// [`PLACES_CLEAR_RATIO`] times the next reading's.
    doubtful: bool,
}

/// Whether four blank faces starting a meld run (`four`) are a closed kan of white dragons
/// between two ivory backs rather than an open kan of them, or `None` where they are not four
/// blank faces: the classifier reads a blank face the same both ways, so only the slots'
/// places can show a sideways tile, and a closed kan's fit none better than any (see
/// [`placement_errors`]).
fn blank_kan(
    four: &[usize],
    slots: &[Vec<usize>],
    frame: &Frame,
    detections: &[Detection],
) -> Option<BlankKan> {
    let blank = |s: &usize| slots[*s].len() == 1 && detections[slots[*s][0]].reads_blank();
    if four.len() != 4 || !four.iter().all(blank) {
        return None;
    }
    let none = placement_error(four, slots, frame, None);
    let called = placement_errors(four, slots, frame);
    let mut fits: Vec<f32> = called.iter().copied().chain([none]).collect();
    fits.sort_by(f32::total_cmp);
    Some(BlankKan {
        closed: called.iter().all(|&e| none < e),
        doubtful: fits[0] >= PLACES_CLEAR_RATIO * fits[1],
    })
}

/// How much better the places of a kan of four blank faces must fit one reading than the next
/// for the layout to take it without a doubt. Measured on the held-out fixtures' 34 such kans:
/// the three read wrong (two closed kans taken for open ones, one open for closed) have a
/// misfit 0.56, 0.88 and 0.99 times the next reading's, and 25 of the 31 read right under half
/// (the other six are flagged too).
const PLACES_CLEAR_RATIO: f32 = 0.5;

/// How strongly a tile looks sideways; without the two readings, the flag itself.
pub(crate) fn sideways_evidence(d: &Detection) -> f32 {
    match &d.turned {
        Some(t) => t.evidence,
        None if d.sideways => 1.0,
        None => -1.0,
    }
}

/// The called slot of an open meld's `chunk`: a stacked pair's (the added tile lies on the
/// called one), else the one that looks clearly most sideways, else the one where the slots
/// sit says. A tile lying sideways is longer along the row, so its neighbours' centres sit
/// further from it; the classifier cannot tell which copy of a pon of 1p, 9p or another tile
/// that looks alike a quarter turned is the sideways one, while the places are too noisy to
/// overrule a clear reading.
fn called_slot(
    chunk: &[usize],
    slots: &[Vec<usize>],
    frame: &Frame,
    detections: &[Detection],
) -> Option<usize> {
    if let Some(&stacked) = chunk.iter().find(|&&s| slots[s].len() > 1) {
        return Some(stacked);
    }
    let evidence = |s: usize| sideways_evidence(&detections[slots[s][0]]);
    if is_run(chunk, slots, detections) {
        // A chi is called from the player on the left, whose tile is laid first: another slot
        // must look far more sideways than the first to be the called one.
        let first = evidence(chunk[0]);
        return chunk
            .iter()
            .copied()
            .filter(|&s| evidence(s) - first >= CHI_ELSEWHERE_EVIDENCE)
            .max_by(|&a, &b| evidence(a).total_cmp(&evidence(b)))
            .or(Some(chunk[0]));
    }
    let by_evidence =
        (0..chunk.len()).max_by(|&a, &b| evidence(chunk[a]).total_cmp(&evidence(chunk[b])))?;
    let runner_up = (0..chunk.len())
        .filter(|&k| k != by_evidence)
        .map(|k| evidence(chunk[k]))
        .fold(f32::MIN, f32::max);
    if evidence(chunk[by_evidence]) - runner_up >= CLEAR_EVIDENCE {
        return Some(chunk[by_evidence]);
    }
    let errors = placement_errors(chunk, slots, frame);
    (0..chunk.len())
        .min_by(|&a, &b| errors[a].total_cmp(&errors[b]))
        .map(|k| chunk[k])
}

/// Whether a meld's slots read as a run of one suit (a chi), in any order.
fn is_run(chunk: &[usize], slots: &[Vec<usize>], detections: &[Detection]) -> bool {
    let kinds: Option<Vec<Kind>> = chunk
        .iter()
        .map(|&s| detections[slots[s][0]].tile.kind())
        .collect();
    kinds.is_some_and(|kinds| is_sequence(&kinds))
}

/// For each slot of a meld, how badly the slots' places fit it being the sideways one (see
/// [`placement_error`]).
fn placement_errors(chunk: &[usize], slots: &[Vec<usize>], frame: &Frame) -> Vec<f32> {
    (0..chunk.len())
        .map(|k| placement_error(chunk, slots, frame, Some(k)))
        .collect()
}

/// How badly the slots' places fit the slot `called` being the sideways one, or none with
/// `None`: the squared misfit of each neighbouring pair's spacing, in units of the extra
/// spacing a sideways tile makes (0 where the frame has no such extra).
fn placement_error(
    chunk: &[usize],
    slots: &[Vec<usize>],
    frame: &Frame,
    called: Option<usize>,
) -> f32 {
    let extra = (frame.tile_long - frame.tile_w) / 2.0;
    if extra <= 0.0 {
        return 0.0;
    }
    let beside = |k: usize| called.is_some_and(|c| k == c || k + 1 == c);
    chunk
        .windows(2)
        .enumerate()
        .map(|(k, pair)| {
            let spacing = frame.along[slots[pair[1]][0]] - frame.along[slots[pair[0]][0]];
            let expected = if beside(k) { extra } else { 0.0 };
            ((spacing - frame.tile_w - expected) / extra).powi(2)
        })
        .sum()
}

/// Splits a run of meld slots into melds: a closed kan is four slots with two backs; an open
/// kan four slots of one face; otherwise three slots. An open meld has exactly one called
/// (sideways) slot, so the slot that looks most sideways is taken as the called one.
fn split_melds(
    group: &[usize],
    slots: &[Vec<usize>],
    frame: &Frame,
    detections: &mut [Detection],
    layout: &mut Layout,
) {
    // Face-down tiles in a meld run belong to a closed kan, which shows two of its four: a
    // back with no other within the three slots either side is a stray or false detection
    // (a box between two tiles), and left in it would make the run unreadable.
    let back_slot = |s: usize| detections[slots[s][0]].tile == Face::Back;
    let paired = |k: usize| {
        group[k.saturating_sub(3)..(k + 4).min(group.len())]
            .iter()
            .filter(|&&o| back_slot(o))
            .count()
            >= 2
    };
    let mut kept = Vec::with_capacity(group.len());
    for (k, &s) in group.iter().enumerate() {
        if back_slot(s) && !paired(k) {
            layout.unplaced.extend(slots[s].iter().copied());
        } else {
            kept.push(s);
        }
    }
    let mut rest = &kept[..];
    while !rest.is_empty() {
        for i in ivory_kan_backs(rest, slots, detections) {
            detections[i].read_as_back();
        }
        let blank = (rest.len() >= 4)
            .then(|| blank_kan(&rest[..4], slots, frame, detections))
            .flatten();
        if blank.as_ref().is_some_and(|b| b.closed) {
            for s in [rest[0], rest[3]] {
                detections[slots[s][0]].read_as_back();
            }
        }
        let is_back = |s: usize| detections[slots[s][0]].tile == Face::Back;
        let face_of = |s: usize| detections[slots[s][0]].tile.kind();
        let backs = rest.iter().take(4).filter(|&&s| is_back(s)).count();
        let size = if rest.len() >= 4 && backs >= 2 {
            4
        } else if rest.len() >= 4 {
            // Four copies of one face can only be a kan: there are no more in the set.
            let first = face_of(rest[0]);
            let same = first.is_some() && rest[1..4].iter().all(|&s| face_of(s) == first);
            let called = rest[..4]
                .iter()
                .filter(|&&s| detections[slots[s][0]].sideways)
                .count();
            if same && called <= 1 {
                4
            } else {
                3
            }
        } else {
            rest.len()
        };
        let chunk = &rest[..size];
        if chunk.len() < 3 {
            for &s in chunk {
                layout.unplaced.extend(slots[s].iter().copied());
            }
        } else {
            let closed_kan = chunk.iter().filter(|&&s| is_back(s)).count() >= 2;
            let called_slot = (!closed_kan)
                .then(|| called_slot(chunk, slots, frame, detections))
                .flatten();
            let mut tiles = Vec::new();
            let mut called = None;
            let mut stacked = false;
            for &s in chunk {
                let is_called = Some(s) == called_slot;
                for &i in &slots[s] {
                    detections[i]
                        .lay_as(is_called || (slots[s].len() > 1 && detections[i].sideways));
                }
                if is_called {
                    called = Some(tiles.len());
                }
                stacked |= slots[s].len() > 1;
                tiles.extend(slots[s].iter().copied());
            }
            layout.melds.push(MeldSpot {
                closed_kan,
                tiles,
                called,
                stacked,
                doubtful: size == 4 && blank.is_some_and(|b| b.doubtful),
            });
        }
        rest = &rest[size..];
    }
}

/// A hand read from a photo.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ReadHand {
    /// Concealed tiles including the winning tile, in reading order.
    pub concealed: Vec<Tile>,
    pub melds: Vec<Meld>,
    pub win: Tile,
    /// Whether the winning tile was set apart in the photo (otherwise the last concealed tile
    /// is assumed).
    pub win_set_apart: bool,
    pub dora_indicators: Vec<Tile>,
    /// Detection indices whose reading is doubtful (low confidence, changed by decoding, a
    /// meld's face its crop all but ruled out, a face-up tile left out of the hand with any
    /// pon of its kind, a pon with a tile read where no box was drawn, a kan of blank faces its
    /// places do not tell; the photo's later steps
    /// add an added kan's pair found by its places and a dora indicator far off the faces'
    /// tint).
    pub uncertain: Vec<usize>,
    /// Detection indices the hand-aware decoding changed from the top reading (a concealed
    /// tile read as a back included: it is read as a face).
    pub corrected: Vec<usize>,
    /// Whether the tiles make a complete hand.
    pub complete: bool,
}

impl ReadHand {
    /// The hand in notation (`123m456p11z [789s]`).
    pub fn notation(&self) -> String {
        let mut out = crate::notation::format_tiles(&self.concealed);
        for meld in &self.melds {
            out.push(' ');
            out.push_str(&crate::notation::format_meld(meld));
        }
        out
    }

    /// The tiles one more of which would make the tiles read a complete hand, when they are a
    /// tile short of one (thirteen, a kan counted as three), in tile order; empty otherwise. A
    /// photo read a tile short has most often lost its winning tile (set apart, it stands alone
    /// and is the easiest to miss or leave out of the frame), so these are what the user is
    /// asked to look for. None that would make the hand and the dora indicators show a fifth
    /// copy of a kind (see [`wins_as_shown`]).
    pub fn completing_tiles(&self) -> Vec<Tile> {
        if self.complete {
            return Vec::new();
        }
        completing_tiles(&self.concealed, &self.melds, &self.dora_indicators)
    }

    /// Builds the scorer's hand.
    pub fn hand(&self) -> Result<Hand, crate::hand::HandError> {
        Hand::new(self.concealed.clone(), self.melds.clone(), self.win)
    }

    /// Whether the tiles as read can win: false only for a complete open hand without a yaku
    /// of its tiles for any seat (a wind pon is a yaku for one seat; open tanyao counts). A
    /// closed hand always can, by riichi or a self-drawn win. Yaku of the moment of the win
    /// (the last tile, a kan's replacement tile, a robbed kan) are left out: an open hand read
    /// without a yaku is far more often a misread tile (held-out alt seed 73's 10: its 6s read
    /// 9s made the chi 678s a 789s and lost tanyao) than such a win, which the user then
    /// confirms.
    pub fn has_a_yaku(&self) -> bool {
        let Ok(hand) = self.hand() else {
            return true;
        };
        if hand.is_closed() {
            return true;
        }
        let rules = Rules::default();
        Wind::ALL.into_iter().any(|seat_wind| {
            let ctx = WinContext {
                method: WinMethod::Tsumo,
                seat_wind,
                ..WinContext::default()
            };
            !matches!(score(&hand, &ctx, &rules), Err(ScoreError::NoYaku))
        })
    }
}

/// Confidence under which a tile is flagged for the user to check.
pub const UNCERTAIN_BELOW: f32 = 0.6;

/// Adds detection `i` to `uncertain` (see [`ReadHand::uncertain`]) unless it is there already.
pub(crate) fn doubt(uncertain: &mut Vec<usize>, i: usize) {
    if !uncertain.contains(&i) {
        uncertain.push(i);
    }
}

/// Per-slot reading candidates: (tiles assigned, cost in −log probability).
struct Slot {
    detections: Vec<usize>,
    options: Vec<(Vec<Tile>, f32)>,
}

fn face_options(d: &Detection, keep: usize) -> Vec<(Tile, f32)> {
    d.ranked()
        .into_iter()
        .filter_map(|(face, p)| match face {
            Face::Tile(t) => Some((t, -(p.max(1e-9)).ln())),
            Face::Back => None,
        })
        .take(keep)
        .collect()
}

/// The possible readings of a meld with their costs, best first.
fn meld_options(spot: &MeldSpot, detections: &[Detection]) -> Vec<(Vec<Tile>, f32)> {
    let faces: Vec<usize> = spot
        .tiles
        .iter()
        .copied()
        .filter(|&i| detections[i].tile != Face::Back)
        .collect();
    let cost = |i: usize, kind: Kind, red: bool| -> f32 {
        let tile = if red {
            Tile::red(kind)
        } else {
            Some(Tile::plain(kind))
        };
        match tile {
            Some(t) => -(detections[i].probs[Face::Tile(t).class()].max(1e-9)).ln(),
            None => f32::INFINITY,
        }
    };
    let best_copy = |i: usize, kind: Kind| -> (Tile, f32) {
        let plain = cost(i, kind, false);
        let red = cost(i, kind, true);
        if red < plain {
            (Tile::red(kind).unwrap_or(Tile::plain(kind)), red)
        } else {
            (Tile::plain(kind), plain)
        }
    };
    let mut options: Vec<(Vec<Tile>, f32)> = Vec::new();
    for kind in Kind::all() {
        // Copies of one kind: pon, kans (backs read as the same kind).
        let mut total = 0.0;
        let mut tiles = Vec::new();
        for &i in &faces {
            let (t, c) = best_copy(i, kind);
            total += c;
            tiles.push(t);
        }
        while tiles.len() < spot.tiles.len() {
            tiles.push(Tile::plain(kind));
        }
        let count = spot.tiles.len();
        if count == 4 || (count == 3 && backs_in_pon(spot, detections, kind)) {
            options.push((tiles, total));
        }
        // A sequence starting at `kind`, tiles in any order: try the three assignments that
        // keep the laid-out order sorted or match the best per-tile guesses.
        if count == 3 && !kind.is_honor() && kind.number() <= 7 && faces.len() == 3 {
            let run = [
                kind,
                kind.offset_in_suit(1).unwrap_or(kind),
                kind.offset_in_suit(2).unwrap_or(kind),
            ];
            let mut best: Option<(Vec<Tile>, f32)> = None;
            for perm in [
                [0, 1, 2],
                [0, 2, 1],
                [1, 0, 2],
                [1, 2, 0],
                [2, 0, 1],
                [2, 1, 0],
            ] {
                let mut c = 0.0;
                let mut tiles = Vec::new();
                for (pos, &i) in faces.iter().enumerate() {
                    let (t, tc) = best_copy(i, run[perm[pos]]);
                    c += tc;
                    tiles.push(t);
                }
                if best.as_ref().is_none_or(|b| c < b.1) {
                    best = Some((tiles, c));
                }
            }
            options.extend(best);
        }
    }
    options.sort_by(|a, b| a.1.total_cmp(&b.1));
    options.truncate(4);
    options
}

/// Whether the backs of a three-tile meld spot can be copies of `kind` in a pon: each must give
/// that face some chance. A pon has no face-down tile, but a blank face (a white
/// dragon) can read as an ivory back; a coloured back beside a white dragon is a closed kan
/// that lost a tile, not a pon.
fn backs_in_pon(spot: &MeldSpot, detections: &[Detection], kind: Kind) -> bool {
    let face = Face::Tile(Tile::plain(kind)).class();
    spot.tiles
        .iter()
        .filter(|&&i| detections[i].tile == Face::Back)
        .all(|&i| detections[i].probs[face] >= BACK_AS_FACE)
}

/// The face-up tiles of a meld spot that `tiles` (a [`meld_options`] reading: its faces in the
/// spot's order, then its backs) reads as a face other than their top reading, one their crop
/// gives under [`UNSUPPORTED_FACE`].
fn forced_faces<'a>(
    spot: &'a MeldSpot,
    tiles: &'a [Tile],
    detections: &'a [Detection],
) -> impl Iterator<Item = usize> + 'a {
    spot.tiles
        .iter()
        .copied()
        .filter(|&i| detections[i].tile != Face::Back)
        .zip(tiles)
        .filter(|&(i, &t)| {
            detections[i].tile != Face::Tile(t)
                && detections[i].probs[Face::Tile(t).class()] < UNSUPPORTED_FACE
        })
        .map(|(i, _)| i)
}

/// The probability under which a face the decoding gives a meld's tile is one its crop all
/// but rules out. Measured on the held-out fixtures: such changes the decoding makes to melds
/// it reads right mostly give the face 1–40 % (a 1m read 2m in other art), and those of
/// melds it reads wrong mostly under 1 %.
const UNSUPPORTED_FACE: f32 = 0.01;

/// See [`backs_in_pon`]: the least probability of a face a back in a pon must have.
const BACK_AS_FACE: f32 = 0.01;

fn meld_from(spot: &MeldSpot, tiles: &[Tile]) -> Option<Meld> {
    let same = tiles.iter().all(|t| t.kind() == tiles[0].kind());
    let kind = match (tiles.len(), same) {
        (4, _) if spot.closed_kan => MeldKind::ClosedKan,
        (4, _) if spot.stacked => MeldKind::AddedKan,
        (4, _) => MeldKind::OpenKan,
        (3, true) => MeldKind::Pon,
        (3, false) => MeldKind::Chi,
        _ => return None,
    };
    Meld::new(
        kind,
        tiles,
        spot.called.filter(|_| kind != MeldKind::ClosedKan),
    )
    .ok()
}

/// Decodes the tiles of a layout into a hand, preferring the most probable complete one.
pub fn read_hand(layout: &Layout, detections: &[Detection]) -> Option<ReadHand> {
    let mut concealed_ids = layout.concealed.clone();
    let win_set_apart = layout.win.is_some();
    concealed_ids.extend(layout.win);
    if concealed_ids.is_empty() {
        return None;
    }
    let mut slots: Vec<Slot> = concealed_ids
        .iter()
        .map(|&i| Slot {
            detections: vec![i],
            options: face_options(&detections[i], 4)
                .into_iter()
                .map(|(t, c)| (vec![t], c))
                .collect(),
        })
        .collect();
    for spot in &layout.melds {
        slots.push(Slot {
            detections: spot.tiles.clone(),
            options: meld_options(spot, detections),
        });
    }
    if slots.iter().any(|s| s.options.is_empty()) {
        return None;
    }
    let dora: Vec<Tile> = layout
        .dora
        .iter()
        .filter_map(|&i| match detections[i].tile {
            Face::Tile(t) => Some(t),
            Face::Back => None,
        })
        .collect();
    let n_concealed = concealed_ids.len();
    let build = |choice: &[usize]| -> Option<(Hand, Vec<Tile>, Vec<Meld>)> {
        let concealed: Vec<Tile> = (0..n_concealed)
            .map(|s| slots[s].options[choice[s]].0[0])
            .collect();
        let melds: Option<Vec<Meld>> = layout
            .melds
            .iter()
            .enumerate()
            .map(|(m, spot)| {
                meld_from(
                    spot,
                    &slots[n_concealed + m].options[choice[n_concealed + m]].0,
                )
            })
            .collect();
        let melds = melds?;
        let win = *concealed.last()?;
        let hand = Hand::new(concealed.clone(), melds.clone(), win).ok()?;
        Some((hand, concealed, melds))
    };
    let valid = |choice: &[usize]| -> bool {
        build(choice).is_some_and(|(hand, _, _)| wins_as_shown(&hand, &dora))
    };
    let top = vec![0usize; slots.len()];
    let chosen = if valid(&top) {
        Some(top.clone())
    } else {
        search(&slots, &valid)
    };
    let (choice, complete) = match chosen {
        Some(c) => (c, true),
        None => (top.clone(), false),
    };
    let (concealed, melds) = match build(&choice) {
        Some((_, c, m)) => (c, m),
        None => {
            // Not even a well-formed hand (a tile short, most often: the winning tile missed):
            // the top reading of the concealed tiles and of each meld that is one on its own,
            // so that the user adds the tile that is missing rather than the melds too.
            let c = (0..n_concealed).map(|s| slots[s].options[0].0[0]).collect();
            let m = layout
                .melds
                .iter()
                .enumerate()
                .filter_map(|(m, spot)| meld_from(spot, &slots[n_concealed + m].options[0].0))
                .collect();
            (c, m)
        }
    };
    let mut corrected = Vec::new();
    for (s, slot) in slots.iter().enumerate() {
        // A concealed tile read as a back is read as a face it does not show: a change too,
        // even when that face is its best one.
        let back = s < n_concealed && detections[slot.detections[0]].tile == Face::Back;
        if choice[s] != 0 || back {
            corrected.extend(slot.detections.iter().copied());
        }
    }
    let mut uncertain: Vec<usize> = corrected.clone();
    // A meld's best option need not be its tiles' top readings: three tiles read 5z 0p 5p
    // make no meld and are laid as the pon 5p 0p 5p. A face its crop all but rules out is
    // flagged (most such tiles are not what the layout took them for: the 5z was a closed
    // kan's back); it is not counted in `corrected`, which the photo's later steps read as
    // "the hand was not complete as read" and answer by looking for tiles the detector missed.
    for (m, spot) in layout.melds.iter().enumerate() {
        let s = n_concealed + m;
        for i in forced_faces(spot, &slots[s].options[choice[s]].0, detections) {
            doubt(&mut uncertain, i);
        }
    }
    for &i in concealed_ids
        .iter()
        .chain(layout.melds.iter().flat_map(|m| m.tiles.iter()))
    {
        if detections[i].confidence < UNCERTAIN_BELOW {
            doubt(&mut uncertain, i);
        }
    }
    for i in kan_doubts(layout, detections)
        .into_iter()
        .chain(doubtful_melds(layout))
        .chain(too_many_dora(layout))
    {
        doubt(&mut uncertain, i);
    }
    let win = *concealed.last()?;
    Some(ReadHand {
        concealed,
        melds,
        win,
        win_set_apart,
        dora_indicators: dora,
        uncertain,
        corrected,
        complete,
    })
}

/// A table shows one dora indicator and one more per kan declared, by anyone: five at most.
const MAX_DORA_INDICATORS: usize = 5;

/// The dora indicators, when there are more than [`MAX_DORA_INDICATORS`]: face-up tiles outside
/// the hand row that cannot all be indicators (a player's discards in the photo), none of which
/// is then taken on trust.
fn too_many_dora(layout: &Layout) -> impl Iterator<Item = usize> + '_ {
    let too_many = layout.dora.len() > MAX_DORA_INDICATORS;
    layout.dora.iter().copied().filter(move |_| too_many)
}

/// The face-up tiles the layout left out of the hand, and each pon of the kind of one of them:
/// a tile of the hand the layout could not place, often a kan's fourth (read, with the pon, as
/// a pon and a stray tile). A kan read as a pon still makes a complete hand, with fewer fu and
/// without sankantsu, so the score would be wrong without a word; these tiles are marked for
/// the user to check. The dead wall's backs are left out of every hand and are not doubted.
/// So is each pon with a tile read where the detector drew no box (read in a gap of the row:
/// [`Detection::read_at_a_place`]).
fn kan_doubts(layout: &Layout, detections: &[Detection]) -> Vec<usize> {
    let mut out = Vec::new();
    for &i in &layout.unplaced {
        let Some(kind) = detections[i].tile.kind() else {
            continue;
        };
        out.push(i);
        for spot in &layout.melds {
            if spot.pon_kind(detections) == Some(kind) {
                out.extend(spot.tiles.iter().copied());
            }
        }
    }
    // A pon with a tile read in a gap of the row, where the detector drew no box: it missed a
    // tile of this meld, and a kan it missed two tiles of reads as a pon (seed 83's 10).
    for spot in &layout.melds {
        let gap_read = spot.tiles.iter().any(|&i| detections[i].read_at_a_place());
        if gap_read && spot.pon_kind(detections).is_some() {
            out.extend(spot.tiles.iter().copied());
        }
    }
    out
}

/// The tiles of the melds the layout could tell only by places that fit another reading
/// about as well (see [`MeldSpot::doubtful`]).
fn doubtful_melds(layout: &Layout) -> impl Iterator<Item = usize> + '_ {
    layout
        .melds
        .iter()
        .filter(|spot| spot.doubtful)
        .flat_map(|spot| spot.tiles.iter().copied())
}

/// Best-first search over alternative readings: up to three slots changed, cheapest total
/// extra cost first.
fn search(slots: &[Slot], valid: &dyn Fn(&[usize]) -> bool) -> Option<Vec<usize>> {
    let mut changes: Vec<(usize, usize, f32)> = Vec::new();
    for (s, slot) in slots.iter().enumerate() {
        let base = slot.options[0].1;
        for (o, option) in slot.options.iter().enumerate().skip(1) {
            changes.push((s, o, option.1 - base));
        }
    }
    changes.sort_by(|a, b| a.2.total_cmp(&b.2));
    let mut best: Option<(Vec<usize>, f32)> = None;
    let mut consider = |picked: &[(usize, usize, f32)]| {
        let cost: f32 = picked.iter().map(|c| c.2).sum();
        if best.as_ref().is_some_and(|b| b.1 <= cost) {
            return;
        }
        let mut choice = vec![0usize; slots.len()];
        for &(s, o, _) in picked {
            if choice[s] != 0 {
                return;
            }
            choice[s] = o;
        }
        if valid(&choice) {
            best = Some((choice, cost));
        }
    };
    for &change in &changes {
        consider(&[change]);
    }
    let pairs = changes.len().min(40);
    for a in 0..pairs {
        for b in a + 1..pairs {
            consider(&[changes[a], changes[b]]);
        }
    }
    let triples = changes.len().min(16);
    for a in 0..triples {
        for b in a + 1..triples {
            for c in b + 1..triples {
                consider(&[changes[a], changes[b], changes[c]]);
            }
        }
    }
    best.map(|b| b.0)
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::notation::parse_tile;
    use crate::vision::picture::RotatedBox;
    use crate::vision::CLASS_COUNT;
    use std::f32::consts::FRAC_PI_2;

    /// A detection of `face` at (x, y), upright or sideways, with probability `p`, the rest
    /// spread on `second` when given.
    pub(crate) fn det(
        face: &str,
        x: f32,
        y: f32,
        sideways: bool,
        p: f32,
        second: Option<&str>,
    ) -> Detection {
        let face_of = |name: &str| {
            if name == "back" {
                Face::Back
            } else {
                Face::Tile(parse_tile(name).unwrap())
            }
        };
        let face = face_of(face);
        let mut probs = [0.0f32; CLASS_COUNT];
        probs[face.class()] = p;
        if let Some(s) = second {
            probs[face_of(s).class()] = 1.0 - p;
        }
        let (w, h) = (30.0, 40.0);
        Detection {
            tile: face,
            bounds: [0.0; 4],
            confidence: p,
            sideways: false,
            detector_score: 0.9,
            rotated: RotatedBox {
                cx: x,
                cy: y,
                w,
                h,
                phi: if sideways { 0.0 } else { -FRAC_PI_2 },
            },
            probs,
            turned: None,
        }
    }

    /// Upright `tiles` (notation) in a row from (`x0`, `y`), 31 px apart, read at 0.95.
    pub(crate) fn row(tiles: &str, x0: f32, y: f32) -> Vec<Detection> {
        crate::notation::parse_tiles(tiles)
            .unwrap()
            .iter()
            .enumerate()
            .map(|(i, t)| det(&t.to_string(), x0 + 31.0 * i as f32, y, false, 0.95, None))
            .collect()
    }

    /// Lays upright `faces` in a row from (`x`, `y`), each read at `p` with the rest on a back
    /// (a blank face reads as either).
    fn push_faces(d: &mut Vec<Detection>, faces: &[&str], x: f32, y: f32, p: f32) {
        for (k, face) in faces.iter().enumerate() {
            d.push(det(face, x + 31.0 * k as f32, y, false, p, Some("back")));
        }
    }

    /// Lays an open meld from `x` on: the `called` tile sideways first, then `rest` upright.
    /// Returns where the next tile would start.
    pub(crate) fn push_meld(
        d: &mut Vec<Detection>,
        mut x: f32,
        called: &str,
        rest: &[&str],
    ) -> f32 {
        d.push(det(called, x + 5.0, 205.0, true, 0.95, None));
        x += 41.0;
        for face in rest {
            d.push(det(face, x + 5.0, 200.0, false, 0.95, None));
            x += 31.0;
        }
        x
    }

    /// Lays an added kan of `face` from `x` on: the called tile sideways first, the added one
    /// on it (read sideways or not as `added_sideways`), then two upright. Returns where the
    /// next tile would start.
    fn push_added_kan(d: &mut Vec<Detection>, mut x: f32, face: &str, added_sideways: bool) -> f32 {
        d.push(det(face, x + 5.0, 205.0, true, 0.95, None));
        d.push(det(face, x + 5.0, 174.0, added_sideways, 0.95, None));
        x += 41.0;
        for _ in 0..2 {
            d.push(det(face, x + 5.0, 200.0, false, 0.95, None));
            x += 31.0;
        }
        x
    }

    #[test]
    fn a_face_up_tile_left_out_of_the_hand_is_doubted_with_a_pon_of_its_kind() {
        // A pon of 9p, then left out: a 9p (a kan's fourth?), a back, a 3m.
        let d = vec![
            det("9p", 100.0, 205.0, true, 0.95, None),
            det("9p", 141.0, 200.0, false, 0.95, None),
            det("9p", 172.0, 200.0, false, 0.95, None),
            det("9p", 300.0, 200.0, false, 0.95, None),
            det("back", 100.0, 100.0, false, 0.95, None),
            det("3m", 400.0, 300.0, false, 0.95, None),
        ];
        let pon = MeldSpot {
            tiles: vec![0, 1, 2],
            called: Some(0),
            stacked: false,
            closed_kan: false,
            doubtful: false,
        };
        let layout = Layout {
            melds: vec![pon.clone()],
            unplaced: vec![3, 4, 5],
            ..Layout::default()
        };
        let mut doubts = kan_doubts(&layout, &d);
        doubts.sort_unstable();
        assert_eq!(doubts, vec![0, 1, 2, 3, 5]);
        // Nothing left out, or only backs (the dead wall): no doubt.
        let backs = Layout {
            melds: vec![pon],
            unplaced: vec![4],
            ..Layout::default()
        };
        assert!(kan_doubts(&backs, &d).is_empty());
    }

    #[test]
    fn concealed_row_with_set_apart_win_and_dora() {
        let mut d = row("123m456p789s1122z", 0.0, 200.0);
        d.push(det("2z", 13.0 * 31.0 + 20.0, 200.0, false, 0.95, None));
        d.push(det("3m", 40.0, 100.0, false, 0.95, None));
        let layout = lay_out(&mut d);
        assert_eq!(layout.concealed.len(), 13);
        assert_eq!(layout.win, Some(13));
        assert_eq!(layout.dora, vec![14]);
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "123m456p789s11222z");
        assert!(read.complete && read.win_set_apart);
        assert_eq!(read.dora_indicators, vec![parse_tile("3m").unwrap()]);
    }

    #[test]
    fn a_pairs_second_tile_a_little_apart_is_the_winning_tile_set_apart() {
        // Four melds: the concealed tiles are a pair, and the gap between them is the run's only
        // one. A third of a tile splits any run; under it, a pair's gap of 0.3 tiles still
        // sets the winning tile apart, and tiles side by side do not. The hand is the same.
        let hand = |pitch: f32| {
            let mut d = vec![
                det("5z", 0.0, 200.0, false, 0.95, None),
                det("5z", pitch, 200.0, false, 0.95, None),
            ];
            let mut x = pitch + 45.0;
            for (called, rest) in [
                ("1m", ["2m", "3m"]),
                ("4p", ["5p", "6p"]),
                ("7s", ["8s", "9s"]),
                ("2m", ["3m", "4m"]),
            ] {
                x = push_meld(&mut d, x, called, &rest) + 20.0;
            }
            let layout = lay_out(&mut d);
            read_hand(&layout, &d).unwrap()
        };
        let apart = hand(39.0);
        assert!(apart.complete && apart.win_set_apart, "{apart:?}");
        let together = hand(31.0);
        assert!(together.complete && !together.win_set_apart, "{together:?}");
        assert_eq!(apart.notation(), together.notation());
    }

    #[test]
    fn called_meld_and_closed_kan() {
        let mut d = row("456p789s11z", 0.0, 200.0);
        let mut x = 8.0 * 31.0 + 30.0;
        // Chi with the called tile first (sideways, wider along the row).
        d.push(det("1m", x + 5.0, 205.0, true, 0.95, None));
        x += 41.0;
        d.push(det("2m", x + 5.0, 200.0, false, 0.95, None));
        x += 31.0;
        d.push(det("3m", x + 5.0, 200.0, false, 0.95, None));
        x += 31.0 + 20.0;
        for face in ["back", "5s", "5s", "back"] {
            d.push(det(face, x, 200.0, false, 0.95, None));
            x += 31.0;
        }
        let layout = lay_out(&mut d);
        assert!(d[8].sideways && !d[9].sideways);
        assert_eq!(layout.melds.len(), 2, "{layout:?}");
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "456p789s11z [1*23m] (5555s)");
        assert!(read.complete);
    }

    #[test]
    fn four_blank_faces_are_a_closed_kan_unless_their_places_show_a_called_tile() {
        // A chi, then four white dragons: evenly spaced, a closed kan of white dragons between
        // two ivory backs; with one of them lying across the row (its neighbours further off),
        // an open kan of white dragons.
        let hand = |called: bool| {
            let mut d = row("456p789s11z", 0.0, 200.0);
            let mut x = push_meld(&mut d, 8.0 * 31.0 + 30.0, "1m", &["2m", "3m"]) + 20.0;
            for k in 0..4 {
                if called && k == 1 {
                    d.push(det("5z", x + 5.0, 205.0, true, 0.95, Some("back")));
                    x += 41.0;
                } else {
                    d.push(det("5z", x, 200.0, false, 0.95, Some("back")));
                    x += 31.0;
                }
            }
            let layout = lay_out(&mut d);
            read_hand(&layout, &d).unwrap()
        };
        let closed = hand(false);
        assert_eq!(closed.notation(), "456p789s11z [1*23m] (5555z)");
        assert!(closed.complete);
        let open = hand(true);
        assert_eq!(open.notation(), "456p789s11z [1*23m] [55*55z]");
        assert!(open.complete);
    }

    #[test]
    fn four_blank_faces_whose_places_fit_two_readings_alike_are_flagged() {
        // Four white dragons after a chi, the gap between the second and third wider by
        // `shift`: evenly spaced (0), a closed kan beyond doubt; by half what a called tile
        // would make on both its sides (5), the second or the third called or none fit alike.
        let read = |shift: f32| {
            let mut d = row("456p789s11z", 0.0, 200.0);
            let mut x = push_meld(&mut d, 8.0 * 31.0 + 30.0, "1m", &["2m", "3m"]) + 20.0;
            for k in 0..4 {
                d.push(det("5z", x, 200.0, false, 0.95, Some("back")));
                x += if k == 1 { 31.0 + shift } else { 31.0 };
            }
            let layout = lay_out(&mut d);
            let read = read_hand(&layout, &d).unwrap();
            let kan = layout.melds[1].clone();
            assert_eq!(kan.tiles.len(), 4, "{layout:?}");
            let flagged = kan.tiles.iter().all(|i| read.uncertain.contains(i));
            assert_eq!(flagged, kan.doubtful);
            kan.doubtful
        };
        assert!(!read(0.0), "evenly spaced");
        assert!(read(5.0), "the places fit three readings alike");
    }

    #[test]
    fn ivory_backs_read_as_white_dragons_are_backs_by_their_place() {
        // The hand's own two white dragons stay; the dead wall's blanks either side of the 7p
        // and the closed kan's ends are the backs of an ivory-backed set.
        let mut d = row("123m456789p55z", 0.0, 200.0);
        let mut x = 11.0 * 31.0 + 30.0;
        for face in ["5z", "8s", "8s", "5z"] {
            d.push(det(face, x, 200.0, false, 0.97, Some("back")));
            x += 31.0;
        }
        push_faces(&mut d, &["5z", "7p", "5z", "5z"], 40.0, 100.0, 0.97);
        let layout = lay_out(&mut d);
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "123m456789p55z (8888s)");
        assert!(read.complete && layout.melds[0].closed_kan);
        assert_eq!(read.dora_indicators, vec![parse_tile("7p").unwrap()]);
        for i in [11, 14, 15, 17, 18] {
            assert_eq!(d[i].tile, Face::Back, "detection {i}");
            assert!((d[i].confidence - 1.0).abs() < 1e-6);
        }
        assert!(d[9].reads_blank() && d[10].reads_blank());
    }

    #[test]
    fn blanks_beside_a_pale_back_in_the_dead_wall_are_backs_too() {
        // A pale-backed set: of the dead wall's three backs beside the 1m indicator, two read
        // as white dragons and one as a back, `white` likely a white dragon as well (a closed
        // kan's coloured backs read as backs elsewhere).
        let wall = |last: &str, white: f32| {
            let mut d = row("44666s789p", 0.0, 200.0);
            let x = push_meld(&mut d, 8.0 * 31.0 + 30.0, "3s", &["2s", "4s"]) + 20.0;
            for (k, face) in ["back", "9m", "9m", "back"].iter().enumerate() {
                d.push(det(face, x + 31.0 * k as f32, 200.0, false, 0.95, None));
            }
            push_faces(&mut d, &["5z", "1m", "5z"], 40.0, 100.0, 0.9);
            d.push(det(last, 133.0, 100.0, false, 1.0 - white, Some("5z")));
            let layout = lay_out(&mut d);
            let read = read_hand(&layout, &d).unwrap();
            (
                read.notation(),
                read.dora_indicators.len(),
                layout.unplaced.len(),
            )
        };
        let (notation, dora, unplaced) = wall("back", 0.3);
        assert_eq!(notation, "44666s789p [3*24s] (9999m)");
        assert_eq!((dora, unplaced), (1, 3));
        // A back that does not read as a white dragon (a coloured one), or none in that row:
        // two white dragon indicators stay.
        assert_eq!(wall("back", 0.0).1, 3);
        assert_eq!(wall("7p", 0.3).1, 4);
    }

    #[test]
    fn a_lone_white_dragon_indicator_and_a_white_dragon_pon_stay_faces() {
        let mut d = row("123m456p789s11z", 0.0, 200.0);
        push_meld(&mut d, 11.0 * 31.0 + 30.0, "5z", &["5z", "5z"]);
        d.push(det("5z", 40.0, 100.0, false, 0.95, None));
        d.push(det("3m", 71.0, 100.0, false, 0.95, None));
        let layout = lay_out(&mut d);
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "123m456p789s11z [5*55z]");
        let dora: Vec<Tile> = ["5z", "3m"].map(|t| parse_tile(t).unwrap()).to_vec();
        assert_eq!(read.dora_indicators, dora);
    }

    #[test]
    fn a_closed_kan_that_lost_a_tile_is_no_pon_but_a_blank_read_as_a_back_may_be() {
        // Back, white dragon, back: a closed kan of white dragons with one dragon missed. Its
        // coloured backs give the white dragon no chance, so no pon of it is read.
        let kan_less_one = |back_blank: f32| {
            let mut d = row("111m456m666m99m", 0.0, 200.0);
            let mut x = 11.0 * 31.0 + 30.0;
            for face in ["back", "5z", "back"] {
                let second = (face == "back" && back_blank > 0.0).then_some("5z");
                let p = if second.is_some() {
                    1.0 - back_blank
                } else {
                    0.95
                };
                d.push(det(face, x, 200.0, false, p, second));
                x += 31.0;
            }
            let layout = lay_out(&mut d);
            assert_eq!(layout.melds.len(), 1, "{layout:?}");
            read_hand(&layout, &d)
        };
        assert_eq!(kan_less_one(0.0), None);
        // Blanks that might be white dragons (an ivory-backed set's pon) still make one.
        let read = kan_less_one(0.3).expect("a hand");
        assert!(read.complete);
        assert_eq!(read.melds.len(), 1);
    }

    #[test]
    fn a_meld_face_the_decoding_forces_is_flagged_one_it_could_be_is_not() {
        // A closed kan's back read as a called white dragon beside 0p 5p: no meld reads so,
        // and the pon of 5p it is laid as gives that tile a face its crop all but ruled out.
        let read_with = |p: f32| {
            let mut d = row("123m456p789s11z", 0.0, 200.0);
            let x = 11.0 * 31.0 + 30.0;
            d.push(det("5z", x + 5.0, 205.0, true, p, Some("5p")));
            d.push(det("0p", x + 46.0, 200.0, false, 0.95, None));
            d.push(det("5p", x + 77.0, 200.0, false, 0.95, None));
            let layout = lay_out(&mut d);
            let read = read_hand(&layout, &d).expect("a hand");
            assert_eq!(read.notation(), "123m456p789s11z [5*05p]");
            assert!(read.corrected.is_empty(), "{read:?}");
            read.uncertain.contains(&11)
        };
        assert!(read_with(0.997), "a 5p its crop gave 0.3 % is flagged");
        assert!(!read_with(0.95), "a 5p its crop gave 5 % is not");
    }

    #[test]
    fn a_back_in_the_concealed_row_is_read_as_a_face_and_marked() {
        let mut d = row("123m456p789s11222z", 0.0, 200.0);
        d[12] = det("back", 12.0 * 31.0, 200.0, false, 0.9, Some("2z"));
        let layout = lay_out(&mut d);
        let read = read_hand(&layout, &d).unwrap();
        assert!(read.complete);
        assert_eq!(read.notation(), "123m456p789s11222z");
        assert_eq!(read.corrected, vec![12]);
        assert!(read.uncertain.contains(&12));
    }

    #[test]
    fn white_dragons_stay_faces_in_a_pile_or_beside_coloured_backs() {
        // A pile of dragons, two rows of red dragon, red dragon, white dragon, white dragon
        // (as in a real photo of a set with blank white dragons).
        let mut d = row("7755z", 0.0, 200.0);
        d.extend(row("7755z", 0.0, 245.0));
        lay_out(&mut d);
        assert_eq!(d.iter().filter(|t| t.reads_blank()).count(), 4);
        // A hand whose dead wall shows a coloured back: the two white dragons are indicators.
        let mut d = row("123m456p789s1122z", 0.0, 200.0);
        for (k, face) in ["back", "5z", "5z"].iter().enumerate() {
            d.push(det(face, 40.0 + 31.0 * k as f32, 100.0, false, 0.95, None));
        }
        let layout = lay_out(&mut d);
        assert_eq!(layout.dora, vec![14, 15]);
    }

    #[test]
    fn a_steep_shot_whose_faces_are_wider_than_tall_keeps_its_rows_and_gaps() {
        // Seen from low down, each face is foreshortened to 40 wide by 30 high: the tiles'
        // width along the row is the boxes' longer side.
        let squash = |mut d: Detection| {
            d.rotated.w = if d.sideways { 30.0 } else { 40.0 };
            d.rotated.h = if d.sideways { 52.0 } else { 30.0 };
            d
        };
        let tiles = crate::notation::parse_tiles("456p789s11z").unwrap();
        let mut d: Vec<Detection> = tiles
            .iter()
            .enumerate()
            .map(|(i, t)| {
                squash(det(
                    &t.to_string(),
                    41.0 * i as f32,
                    200.0,
                    false,
                    0.95,
                    None,
                ))
            })
            .collect();
        // A chi whose called tile lies sideways (52 along the row), and a closed kan.
        d.push(squash(det("1m", 354.0, 205.0, true, 0.95, None)));
        d.push(squash(det("2m", 401.0, 200.0, false, 0.95, None)));
        d.push(squash(det("3m", 442.0, 200.0, false, 0.95, None)));
        for (i, face) in ["back", "5s", "5s", "back"].iter().enumerate() {
            d.push(squash(det(
                face,
                497.0 + 41.0 * i as f32,
                200.0,
                false,
                0.95,
                None,
            )));
        }
        let layout = lay_out(&mut d);
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "456p789s11z [1*23m] (5555s)");
        assert!(read.complete);
    }

    #[test]
    fn a_pon_whose_copies_read_alike_turned_is_called_where_the_spacing_says() {
        // A 9p reads the same upright and turned, so the classifier's evidence cannot tell the
        // called copy; its neighbours sit further from it, as a tile lying sideways is longer
        // along the row. Where the evidence is clear (the chi's sideways 1m), it decides,
        // whatever the spacing.
        let mut d = row("456p789s11z", 0.0, 200.0);
        let x = 8.0 * 31.0 + 30.0;
        for (dx, evidence) in [(0.0, 0.1), (37.0, 0.05), (74.0, 0.0)] {
            d.push(leaning("9p", x + dx, 200.0, evidence));
        }
        let x = x + 74.0 + 50.0;
        d.push(det("1m", x, 205.0, true, 0.95, None));
        d.push(det("2m", x + 37.0, 200.0, false, 0.95, None));
        d.push(det("3m", x + 74.0, 200.0, false, 0.95, None));
        let layout = lay_out(&mut d);
        assert_eq!(layout.melds.len(), 2, "{layout:?}");
        assert_eq!(layout.melds[0].called, Some(1));
        assert_eq!(layout.melds[1].called, Some(0));
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "456p789s11z [99*9p] [1*23m]");
    }

    #[test]
    fn a_second_box_over_a_called_tile_is_dropped() {
        let mut d = row("456p789s11z777p", 0.0, 200.0);
        let x = 11.0 * 31.0 + 30.0;
        d.push(det("1m", x + 5.0, 205.0, true, 0.95, None));
        d.push(det("2m", x + 46.0, 200.0, false, 0.95, None));
        d.push(det("3m", x + 77.0, 200.0, false, 0.95, None));
        // The detector also drew an upright box over the called tile's right half, which reads
        // as another tile; it is surer of the called tile's own box.
        let mut second = det("4p", x + 12.0, 202.0, false, 0.9, None);
        second.detector_score = 0.5;
        d.push(second);
        drop_doubled(&mut d, &[]);
        assert_eq!(d.len(), 14);
        let layout = lay_out(&mut d);
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "456p789s11z777p [1*23m]");
        assert!(read.complete);
    }

    #[test]
    fn close_neighbours_stacked_tiles_and_the_dead_wall_are_not_doubled() {
        // A row whose tiles sit a little closer than the median tile (the far end of a
        // perspective shot), an added kan's two stacked tiles, and the dead wall's two tiers
        // of backs seen from above.
        let mut d = row("234m567p", 0.0, 200.0);
        let x = 6.0 * 31.0;
        for (i, face) in ["1s", "1s", "2z", "2z"].iter().enumerate() {
            d.push(det(face, x + 26.0 * i as f32, 200.0, false, 0.95, None));
        }
        let x = x + 4.0 * 26.0 + 30.0;
        d.push(det("9p", x + 5.0, 205.0, true, 0.95, None));
        d.push(det("9p", x + 5.0, 174.0, true, 0.95, None));
        d.push(det("9p", x + 46.0, 200.0, false, 0.95, None));
        d.push(det("9p", x + 77.0, 200.0, false, 0.95, None));
        for i in 0..6 {
            d.push(det(
                "back",
                100.0 + 15.0 * i as f32,
                80.0,
                false,
                0.95,
                None,
            ));
        }
        let before = d.len();
        drop_doubled(&mut d, &[]);
        assert_eq!(d.len(), before);
    }

    #[test]
    fn a_box_drawn_over_part_of_the_next_tile_is_no_second_box() {
        // The 8s's box drawn 14 px towards the 9s: the two overlap like a doubled box, but
        // the 7s and the 1z beside them leave room for both.
        let shifted = |face: &str| {
            let mut d = row("123m456p789s11222z", 0.0, 200.0);
            d[7] = det(face, 7.0 * 31.0 + 14.0, 200.0, false, 0.95, None);
            drop_doubled(&mut d, &[]);
            d
        };
        let mut d = shifted("8s");
        assert_eq!(d.len(), 14);
        let read = read_hand(&lay_out(&mut d), &d).unwrap();
        assert!(read.complete, "{}", read.notation());
        // A box read as two pips of a suit is part of a tile (a 4s's half), so one of the two
        // goes as before.
        assert_eq!(shifted("2s").len(), 13);
    }

    #[test]
    fn an_added_tile_stacks_on_its_meld_and_a_back_never_does() {
        let mut d = row("234m567p11z", 0.0, 200.0);
        // Added kan: the called 9p sideways, the added 9p sideways on top of it.
        let mut x = push_added_kan(&mut d, 8.0 * 31.0 + 30.0, "9p", true);
        x += 20.0;
        // Chi, and a face-down tile lying across just above its called tile (a dead-wall
        // tile, or a false detection): not part of the meld.
        d.push(det("1s", x + 5.0, 205.0, true, 0.95, None));
        d.push(det("back", x + 5.0, 174.0, true, 0.95, None));
        x += 41.0;
        for face in ["2s", "3s"] {
            d.push(det(face, x + 5.0, 200.0, false, 0.95, None));
            x += 31.0;
        }
        let layout = lay_out(&mut d);
        assert_eq!(layout.melds.len(), 2, "{layout:?}");
        assert!(layout.melds[0].stacked && !layout.melds[1].stacked);
        assert_eq!(layout.unplaced, vec![13]);
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "234m567p11z {9*999p} [1*23s]");
    }

    /// A detection of `face` at (x, y) in an upright box, read `evidence` likely sideways (see
    /// [`Turned`]), the same face both ways.
    fn leaning(face: &str, x: f32, y: f32, evidence: f32) -> Detection {
        let mut d = det(face, x, y, false, 0.95, None);
        d.turned = Some(Box::new(crate::vision::Turned {
            evidence,
            upright: d.probs,
            sideways: d.probs,
            not_tile: [0.0; 2],
        }));
        d.sideways = evidence > 0.0;
        d
    }

    #[test]
    fn a_copy_of_a_tile_lying_on_it_is_stacked_whichever_way_it_is_read_to_lie() {
        // An added kan of 9p whose added tile (0.78 tile heights behind the called one) was
        // read upright: a 9p looks alike a quarter turned. Then a pon of 3s with a 3s dora
        // indicator 1.5 tile heights behind its last tile, which is not stacked.
        let mut d = row("234m567p11z", 0.0, 200.0);
        let x = push_added_kan(&mut d, 8.0 * 31.0 + 20.0, "9p", false);
        let x = push_meld(&mut d, x + 20.0, "3s", &["3s", "3s"]);
        d.push(det("3s", x - 31.0 + 5.0, 140.0, false, 0.95, None));
        let layout = lay_out(&mut d);
        assert_eq!(layout.melds.len(), 2, "{layout:?}");
        assert!(layout.melds[0].stacked && !layout.melds[1].stacked);
        assert_eq!(layout.dora, vec![d.len() - 1]);
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "234m567p11z {9*999p} [3*33s]");
        assert_eq!(read.dora_indicators, vec![parse_tile("3s").unwrap()]);
    }

    #[test]
    fn a_chis_called_tile_is_its_first_unless_another_reads_clearly_turned() {
        // 4p-5p-6p with the 4p called: the 5p, which looks alike a quarter turned too, leans
        // sideways a little more (the detector's angle), yet the first tile is the called one.
        // 7s-8s-9s whose 9s reads turned by far is called where it lies.
        let mut d = row("234m567p11z", 0.0, 200.0);
        let x = 8.0 * 31.0 + 20.0;
        d.push(leaning("4p", x + 5.0, 205.0, -0.05));
        d.push(leaning("5p", x + 46.0, 200.0, 0.5));
        d.push(leaning("6p", x + 77.0, 200.0, -1.5));
        let x = x + 128.0;
        d.push(leaning("7s", x + 5.0, 200.0, -1.0));
        d.push(leaning("8s", x + 36.0, 200.0, -1.2));
        d.push(leaning("9s", x + 77.0, 205.0, 2.0));
        let layout = lay_out(&mut d);
        assert_eq!(layout.melds.len(), 2, "{layout:?}");
        assert_eq!(layout.melds[0].called, Some(0));
        assert_eq!(layout.melds[1].called, Some(2));
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "234m567p11z [4*56p] [789*s]");
    }

    #[test]
    fn an_added_kan_cut_by_a_gap_after_its_stacked_pair_stays_one_meld() {
        // Seed 27's 07: 1m upright, the stacked pair, then a gap of a third of a tile (the
        // upper tile sits off the lower one) before the last 1m. The run before the gap holds
        // three tiles but two places, too few for a meld.
        let mut d = row("234m567p789s11z", 0.0, 200.0);
        let mut x = 11.0 * 31.0 + 30.0;
        d.push(det("9p", x + 5.0, 200.0, false, 0.95, None));
        x += 36.0;
        d.push(det("9p", x + 5.0, 205.0, true, 0.95, None));
        d.push(det("9p", x + 5.0, 174.0, true, 0.95, None));
        x += 36.0 + 16.0;
        d.push(det("9p", x + 5.0, 200.0, false, 0.95, None));
        let layout = lay_out(&mut d);
        assert_eq!(layout.melds.len(), 1, "{layout:?}");
        assert!(layout.melds[0].stacked && layout.unplaced.is_empty());
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "234m567p789s11z {99*99p}");
    }

    #[test]
    fn a_lone_back_in_a_meld_run_is_left_out() {
        let mut d = row("234m567p789s11z", 0.0, 200.0);
        let mut x = 11.0 * 31.0 + 30.0;
        // A pon with a low-confidence face-down box between its called tile and the next.
        d.push(det("5m", x + 5.0, 205.0, true, 0.95, None));
        x += 41.0;
        d.push(det("back", x - 6.0, 200.0, true, 0.3, None));
        for face in ["5m", "5m"] {
            d.push(det(face, x + 5.0, 200.0, false, 0.95, None));
            x += 31.0;
        }
        let layout = lay_out(&mut d);
        assert_eq!(layout.unplaced, vec![12], "{layout:?}");
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "234m567p789s11z [5*55m]");
    }

    #[test]
    fn tilted_photos_read_the_same() {
        let mut d = row("123m456p789s11122z", 0.0, 0.0);
        let angle: f32 = 0.5;
        for t in d.iter_mut() {
            let (x, y) = (t.rotated.cx, t.rotated.cy);
            t.rotated.cx = x * angle.cos() - y * angle.sin();
            t.rotated.cy = x * angle.sin() + y * angle.cos();
            t.rotated.phi += angle;
        }
        let layout = lay_out(&mut d);
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "123m456p789s11122z");
    }

    #[test]
    fn rows_follow_where_tiles_sit_not_their_angles() {
        // A perspective shot: the tiles stand upright in the image, but the row climbs 11°,
        // which over 14 tiles moves the last one 80 px across the tiles' own axis.
        let mut d = row("123m456p789s11122z", 0.0, 300.0);
        for (i, t) in d.iter_mut().enumerate() {
            t.rotated.cy -= 0.2 * 31.0 * i as f32;
        }
        d.push(det("3m", 40.0, 200.0, false, 0.95, None));
        let layout = lay_out(&mut d);
        assert_eq!(layout.dora, vec![14], "{layout:?}");
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "123m456p789s11122z");
    }

    #[test]
    fn a_winning_tile_set_apart_by_a_little_is_still_seen() {
        // Tiles 30 wide at a 31 pitch; the last one 8 px further (a quarter tile).
        let mut d = row("123m456p789s1122z", 0.0, 200.0);
        d.push(det("2z", 13.0 * 31.0 + 8.0, 200.0, false, 0.95, None));
        let layout = lay_out(&mut d);
        assert_eq!(layout.win, Some(13), "{layout:?}");
        // Evenly spaced: no tile is set apart, the last one is taken as the winning tile.
        let mut d = row("123m456p789s11222z", 0.0, 200.0);
        let layout = lay_out(&mut d);
        assert_eq!(layout.win, None, "{layout:?}");
        let read = read_hand(&layout, &d).unwrap();
        assert!(!read.win_set_apart);
    }

    #[test]
    fn a_lone_tile_after_a_set_apart_one_is_the_winning_tile() {
        // Twelve tiles, a gap measured wrong (0.4 tiles), the pair's first 2z, the real gap
        // and the winning 2z: one tile after a set-apart tile is no meld.
        let mut d = row("123m456p789s111z", 0.0, 200.0);
        for x in [383.0, 425.0] {
            d.push(det("2z", x, 200.0, false, 0.95, None));
        }
        let layout = lay_out(&mut d);
        assert_eq!(layout.concealed.len(), 13, "{layout:?}");
        assert_eq!(layout.win, Some(13), "{layout:?}");
        assert!(layout.unplaced.is_empty(), "{layout:?}");
        let read = read_hand(&layout, &d).unwrap();
        assert!(read.complete && read.win_set_apart);
    }

    #[test]
    fn a_set_apart_tile_is_measured_against_its_neighbours_in_a_perspective_shot() {
        // The far end's gaps measure 4 px (their tiles are narrower than the median), the near
        // end's none; the winning tile 8 px further stands out from its neighbours only.
        let faces = crate::notation::parse_tiles("123m456p789s11222z").unwrap();
        let mut x = 0.0;
        let mut d = Vec::new();
        for (k, tile) in faces.iter().enumerate() {
            x += match k {
                0 => 0.0,
                1..=4 => 34.0,
                13 => 38.0,
                _ => 30.0,
            };
            d.push(det(&tile.to_string(), x, 200.0, false, 0.95, None));
        }
        let layout = lay_out(&mut d);
        assert_eq!(layout.win, Some(13), "{layout:?}");
    }

    #[test]
    fn a_meld_cut_short_by_a_wide_gap_joins_the_next_run() {
        let mut d = row("456p123789s11z", 0.0, 200.0);
        let mut x = 11.0 * 31.0 + 30.0;
        // A pon with its called tile last, spaced wider than the tiles before it.
        for (face, sideways, step) in [("2m", false, 31.0), ("2m", false, 48.0), ("2m", true, 0.0)]
        {
            d.push(det(
                face,
                x + if sideways { 5.0 } else { 0.0 },
                200.0,
                sideways,
                0.95,
                None,
            ));
            x += step;
        }
        let layout = lay_out(&mut d);
        assert_eq!(layout.melds.len(), 1, "{layout:?}");
        assert_eq!(layout.melds[0].called, Some(2));
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "456p123789s11z [222*m]");
    }

    /// 123m456p11z, a pon of 2m and the chi 8s (called) with `last`, whose called 8s's box
    /// covers only its left part (seed 127's 04): it sits against the pon, and its chi's
    /// upright tiles half a tile off it.
    fn pon_and_a_chi_boxed_short(last: &str) -> Vec<Detection> {
        let mut d = row("123m456p11z", 0.0, 200.0);
        let x = push_meld(&mut d, 8.0 * 31.0 + 30.0, "2m", &["2m", "2m"]);
        d.push(det("8s", x + 5.0, 205.0, true, 0.95, None));
        for (k, face) in ["7s", last].iter().enumerate() {
            let at = x + 55.0 + 31.0 * k as f32;
            d.push(det(face, at, 200.0, false, 0.95, None));
        }
        d
    }

    #[test]
    fn melds_cut_at_a_gap_measured_wrong_are_cut_again_as_a_whole() {
        let mut d = pon_and_a_chi_boxed_short("9s");
        let layout = lay_out(&mut d);
        assert!(layout.unplaced.is_empty(), "{layout:?}");
        let read = read_hand(&layout, &d).unwrap();
        assert!(read.complete);
        assert_eq!(read.notation(), "123m456p11z [2*22m] [8*79s]");
    }

    #[test]
    fn melds_are_not_cut_again_into_ones_their_faces_cannot_be() {
        // The chi's 9s read as a 6p: no cut makes three melds of these faces, so the tiles
        // that fit none stay unplaced for the hand-aware decoding and the user.
        let mut d = pon_and_a_chi_boxed_short("6p");
        let layout = lay_out(&mut d);
        assert_eq!(layout.melds.len(), 1, "{layout:?}");
        assert_eq!(layout.unplaced.len(), 3, "{layout:?}");
    }

    #[test]
    fn a_pon_with_a_tile_read_where_no_box_was_drawn_is_doubted() {
        let hand = |gap_read: bool| {
            let mut d = row("123m456p789s11z", 0.0, 200.0);
            push_meld(&mut d, 11.0 * 31.0 + 30.0, "2z", &["2z", "2z"]);
            if gap_read {
                // Read in the row's gap: the detector drew no box there.
                d.last_mut().unwrap().detector_score = 0.0;
            }
            let layout = lay_out(&mut d);
            read_hand(&layout, &d).unwrap()
        };
        assert!(hand(false).uncertain.is_empty());
        let read = hand(true);
        assert!(read.complete);
        assert_eq!(read.uncertain.len(), 3, "{read:?}");
    }

    #[test]
    fn hand_aware_decoding_fixes_an_impossible_reading() {
        // The 3m is misread as 8m (p 0.55), with 3m the runner-up: 128m is no hand, 123m is.
        let mut d = row("12m", 0.0, 200.0);
        d.push(det("8m", 62.0, 200.0, false, 0.55, Some("3m")));
        for (i, t) in row("456p789s11122z", 93.0, 200.0).into_iter().enumerate() {
            let _ = i;
            d.push(t);
        }
        let layout = lay_out(&mut d);
        let read = read_hand(&layout, &d).unwrap();
        assert_eq!(read.notation(), "123m456p789s11122z");
        assert_eq!(read.corrected, vec![2]);
        assert!(read.uncertain.contains(&2));
    }

    /// The closed hand 123m 456p 789s 234s 5z, won on a second 5z set apart, at y = 200.
    fn closed_hand_won_apart() -> Vec<Detection> {
        let mut d = row("123m456p789s234s5z", 100.0, 200.0);
        d.push(det(
            "5z",
            100.0 + 31.0 * 14.0 + 15.0,
            200.0,
            false,
            0.95,
            None,
        ));
        d
    }

    /// More face-up tiles outside the hand row than a table shows dora indicators (a row of
    /// discards in the photo): each is marked uncertain; five are not.
    #[test]
    fn more_tiles_outside_the_hand_than_dora_indicators_are_doubted() {
        for (outside, doubted) in [("1p9s2z3m6p", false), ("1p9s2z3m6p7m", true)] {
            let mut d = closed_hand_won_apart();
            d.extend(row(outside, 150.0, 100.0));
            let layout = lay_out(&mut d);
            assert_eq!(layout.dora.len(), outside.len() / 2, "{layout:?}");
            let read = read_hand(&layout, &d).expect("a hand");
            assert!(read.complete);
            for i in &layout.dora {
                assert_eq!(read.uncertain.contains(i), doubted, "{outside}: {read:?}");
            }
        }
    }

    /// The row `123m456p789s55z` at y = 200 with a closed kan of 7s (two backs) after it.
    fn with_a_closed_kan() -> Vec<Detection> {
        let mut d = row("123m456p789s55z", 100.0, 200.0);
        for (k, face) in ["back", "7s", "7s", "back"].iter().enumerate() {
            let x = 100.0 + 31.0 * (11.0 + k as f32) + 10.0;
            d.push(det(face, x, 200.0, false, 0.95, None));
        }
        d
    }

    /// A wall left on the table beside the hand is a longer row than the hand, of backs: the
    /// hand is the row with the most tiles face up, and the wall's backs are left out of it
    /// (not taken for dora indicators), a closed kan's two backs in the hand row or not.
    #[test]
    fn a_wall_of_backs_beside_the_hand_is_not_the_hand() {
        let wall = |d: &mut Vec<Detection>| {
            for k in 0..17 {
                d.push(det("back", 60.0 + 31.0 * k as f32, 80.0, false, 0.95, None));
            }
        };
        let mut d = closed_hand_won_apart();
        wall(&mut d);
        let layout = lay_out(&mut d);
        assert_eq!(layout.concealed, (0..13).collect::<Vec<_>>());
        assert_eq!(layout.win, Some(13));
        assert!(layout.dora.is_empty(), "{layout:?}");
        assert_eq!(layout.unplaced.len(), 17);
        let read = read_hand(&layout, &d).expect("a hand");
        assert!(read.complete);
        assert_eq!(read.notation(), "123m456p789234s55z");

        let mut d = with_a_closed_kan();
        wall(&mut d);
        let layout = lay_out(&mut d);
        assert_eq!(layout.melds.len(), 1, "{layout:?}");
        assert!(layout.melds[0].closed_kan);
        assert!(layout.dora.is_empty(), "{layout:?}");
        let read = read_hand(&layout, &d).expect("a hand");
        assert!(read.complete, "{}", read.notation());
    }

    /// Loose tiles heaped above the hand (a photo of the hand beside the tiles pushed aside)
    /// chain into one "row" across the photo with more faces than the hand shows, but few of
    /// them lie in a line: the hand row is still the hand.
    #[test]
    fn a_heap_of_loose_tiles_with_more_faces_is_not_the_hand() {
        let mut d = closed_hand_won_apart();
        let heap = "1p2p3p4p6p7p8p9p1s6s7s8s6m7m8m9m";
        let places = [
            (90.0, -110.0),
            (150.0, -60.0),
            (205.0, -95.0),
            (260.0, -30.0),
            (320.0, -80.0),
            (380.0, -115.0),
            (430.0, -50.0),
            (500.0, -90.0),
            (545.0, -25.0),
            (120.0, -20.0),
            (180.0, -120.0),
            (240.0, -70.0),
            (350.0, -40.0),
            (410.0, -100.0),
            (470.0, -65.0),
            (530.0, -120.0),
        ];
        let tiles = crate::notation::parse_tiles(heap).unwrap();
        for (k, (t, (x, y))) in tiles.iter().zip(places).enumerate() {
            d.push(det(&t.to_string(), x, y, k % 3 == 0, 0.95, None));
        }
        let layout = lay_out(&mut d);
        assert_eq!(layout.concealed, (0..13).collect::<Vec<_>>(), "{layout:?}");
        assert_eq!(layout.win, Some(13));
        let read = read_hand(&layout, &d).expect("a hand");
        assert!(read.complete);
        assert_eq!(read.notation(), "123m456p789234s55z");
    }

    /// A wall of pale backs can read as a row of white dragons, more of them than a set holds:
    /// it is neither the hand (at most four of a kind count as face up) nor a row of dora
    /// indicators (five or more blank faces in a row are backs), even where the set's closed
    /// kan shows backs that read as backs.
    #[test]
    fn a_wall_read_as_white_dragons_is_not_the_hand() {
        let mut d = with_a_closed_kan();
        for k in 0..17 {
            d.push(det("5z", 60.0 + 31.0 * k as f32, 80.0, false, 0.95, None));
        }
        let layout = lay_out(&mut d);
        assert_eq!(layout.concealed, (0..11).collect::<Vec<_>>(), "{layout:?}");
        assert_eq!(layout.melds.len(), 1, "{layout:?}");
        assert!(layout.melds[0].closed_kan);
        assert!(layout.dora.is_empty(), "{layout:?}");
        assert!(d[15..].iter().all(|t| t.tile == Face::Back));
        let read = read_hand(&layout, &d).expect("a hand");
        assert!(read.complete, "{}", read.notation());
    }

    /// Three 3s side by side, the first's box drawn 12 px off it over part of the second: the
    /// second's box, less sure, is dropped as a second box over one tile, though the 9s before
    /// and the third 3s leave room for both. `alike_with_room` names it, and kept it makes the
    /// hand.
    #[test]
    fn a_box_of_the_same_face_as_the_one_beside_it_is_named_where_both_fit() {
        let mut d = row("111m456p789s", 100.0, 200.0);
        for (x, score) in [(391.0, 0.95), (410.0, 0.5), (441.0, 0.9)] {
            let mut t = det("3s", x, 200.0, false, 0.95, None);
            t.detector_score = score;
            d.push(t);
        }
        d.extend([
            det("5z", 472.0, 200.0, false, 0.95, None),
            det("5z", 503.0, 200.0, false, 0.95, None),
        ]);
        let second = d[10].rotated;
        let mut dropped = d.clone();
        drop_doubled(&mut dropped, &[]);
        assert_eq!(dropped.len(), 13);
        assert!(!dropped.iter().any(|t| t.rotated == second));
        assert_eq!(alike_with_room(&d), vec![second]);
        let mut kept = d.clone();
        drop_doubled(&mut kept, &[second]);
        assert_eq!(kept.len(), 14);
        let layout = lay_out(&mut kept);
        let read = read_hand(&layout, &kept).expect("a hand");
        assert!(read.complete, "{}", read.notation());
        // Two boxes of one tile with no room beside them are no pair to name.
        let mut one = row("111m456p789s", 100.0, 200.0);
        one.extend([
            det("3s", 379.0, 200.0, false, 0.95, None),
            det("3s", 387.0, 200.0, false, 0.95, None),
        ]);
        one.extend(row("3355z", 410.0, 200.0));
        assert!(alike_with_room(&one).is_empty());
    }

    /// A read hand of `text` (concealed tiles, the last of them the winning tile, then melds).
    fn read(text: &str) -> ReadHand {
        let parsed = crate::notation::parse_hand(text).unwrap();
        let hand = ReadHand {
            win: *parsed.tiles.last().unwrap(),
            concealed: parsed.tiles,
            melds: parsed.melds,
            win_set_apart: true,
            dora_indicators: Vec::new(),
            uncertain: Vec::new(),
            corrected: Vec::new(),
            complete: true,
        };
        assert!(hand.hand().is_ok(), "{text} is a hand");
        hand
    }

    /// A read hand of `text` that makes no complete hand, with the dora indicators `dora`.
    fn short(text: &str, dora: &str) -> ReadHand {
        let parsed = crate::notation::parse_hand(text).unwrap();
        ReadHand {
            win: *parsed.tiles.last().unwrap(),
            concealed: parsed.tiles,
            melds: parsed.melds,
            win_set_apart: false,
            dora_indicators: crate::notation::parse_tiles(dora).unwrap(),
            uncertain: Vec::new(),
            corrected: Vec::new(),
            complete: false,
        }
    }

    #[test]
    fn a_hand_a_tile_short_names_the_tiles_that_would_complete_it() {
        let named = |hand: ReadHand| crate::notation::format_tiles(&hand.completing_tiles());
        // Two pairs: either makes a triplet.
        assert_eq!(named(short("123m456p789s1155z", "")), "15z");
        // Four in a row: either end makes a run and a pair.
        assert_eq!(named(short("2345m123p456p789s", "9s")), "25m");
        // A lone tile beside four melds waits on its pair...
        assert_eq!(named(short("5m [1*23s] [4*56s] [7*89s] [22*2p]", "")), "5m");
        // ...unless the hand and the indicators already show the other three.
        assert_eq!(
            named(short("5m [1*23s] [4*56s] [7*89s] [22*2p]", "555m")),
            ""
        );
        // Two tiles short, or not short at all: nothing to name.
        assert_eq!(named(short("123m456p789s115z", "")), "");
        assert!(read("123m456p789s11555z").completing_tiles().is_empty());
    }

    #[test]
    fn an_open_hand_needs_a_yaku_of_its_tiles_to_win() {
        // Other art 73's 10 as read (6s read 9s) and as it lies: tanyao only with 678s.
        assert!(!read("77m [4*23s] [8*97s] [4*06s] [22*2p]").has_a_yaku());
        assert!(read("77m [4*23s] [8*67s] [4*06s] [22*2p]").has_a_yaku());
        // A wind pon is a yaku for the seat of its wind, whichever that is.
        assert!(read("123m456p99s [8*97s] [3*33z]").has_a_yaku());
        assert!(!read("123m456p99s [8*97s] [1*11s]").has_a_yaku());
        // A closed hand wins by riichi or a self-drawn win, a closed kan kept it closed.
        assert!(read("123m456p789s1199p1p").has_a_yaku());
        assert!(read("123m456p789s1p1p (1111z)").has_a_yaku());
    }
}
