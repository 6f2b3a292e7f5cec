//! Where things are on screen, in world units: a fixed 1280 × 720 area that the camera fits to
//! any window. Pure functions, so that hit tests and the direction mapping are tested without
//! a window.

use bevy::math::Vec2;

use crate::rules::Direction;
use crate::rules::geometry::{self, ROW_LEN};

/// The area the camera always shows whole.
pub const WORLD: Vec2 = Vec2::new(1280.0, 720.0);
/// Side of a citizen pit.
pub const PIT: f32 = 118.0;
/// Gap between two citizen pits.
const GAP: f32 = 10.0;
/// Distance between the centres of the two rows.
const ROW_SPACING: f32 = PIT + 14.0;
/// Raise of the board above the window's centre, to leave room for the message line.
const BOARD_Y: f32 = 20.0;
/// Half-moon mandarin pits: width and height.
pub const MANDARIN_PIT: Vec2 = Vec2::new(110.0, 2.0 * PIT + 14.0);
/// Where the stones of a store are laid out, relative to its centre.
pub const STORE: Vec2 = Vec2::new(560.0, 64.0);

/// A side of the screen, for the arrows: left and right always mean the screen's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// Centre of ring index `index` on the 2-player board. Player 0's row runs left to right along
/// the bottom, player 1's runs right to left along the top (left to right from that seat).
pub fn pit_center(index: usize) -> Vec2 {
    let step = PIT + GAP;
    let half_row = (ROW_LEN as f32 - 1.0) / 2.0;
    let bottom = BOARD_Y - ROW_SPACING / 2.0;
    let top = BOARD_Y + ROW_SPACING / 2.0;
    let mandarin_x = (half_row + 0.5) * step + MANDARIN_PIT.x / 2.0 + GAP / 2.0;
    match index {
        0..=4 => Vec2::new((index as f32 - half_row) * step, bottom),
        5 => Vec2::new(mandarin_x, BOARD_Y),
        6..=10 => Vec2::new((half_row - (index - 6) as f32) * step, top),
        _ => Vec2::new(-mandarin_x, BOARD_Y),
    }
}

/// The whole board's size (citizen pits, mandarin pits and a rim).
pub fn board_size() -> Vec2 {
    let width = 2.0 * pit_center(5).x + MANDARIN_PIT.x + 2.0 * 26.0;
    Vec2::new(width, MANDARIN_PIT.y + 2.0 * 26.0)
}

/// Centre of `player`'s store: under the bottom row for player 0, above the top row for 1.
pub fn store_center(player: usize) -> Vec2 {
    let offset = board_size().y / 2.0 + STORE.y / 2.0 + 18.0;
    if player == 0 {
        Vec2::new(0.0, BOARD_Y - offset)
    } else {
        Vec2::new(0.0, BOARD_Y + offset)
    }
}

/// Where the message line sits.
pub fn message_position() -> Vec2 {
    Vec2::new(0.0, -WORLD.y / 2.0 + 28.0)
}

/// Where the hand holds stones above `index` while sowing.
pub fn hand_position(index: usize) -> Vec2 {
    pit_center(index) + Vec2::new(0.0, 46.0)
}

/// A stone's place inside a pit: a loose spiral from the centre, jittered by `seed`, so that a
/// pile looks like a pile and never leaves the pit.
pub fn stone_offset(slot: usize, seed: u32, mandarin_pit: bool) -> Vec2 {
    let golden = 2.399_963_f32;
    let radius_limit = if mandarin_pit { 40.0 } else { PIT / 2.0 - 16.0 };
    let r = (8.0 * (slot as f32).sqrt()).min(radius_limit);
    let jitter = (hash(seed ^ slot as u32) % 1000) as f32 / 1000.0 - 0.5;
    let angle = slot as f32 * golden + jitter;
    // In a mandarin pit the stones gather below the mandarin piece, which sits higher up.
    let (squash, centre) = if mandarin_pit {
        (Vec2::new(0.8, 1.2), Vec2::new(0.0, -44.0))
    } else {
        (Vec2::ONE, Vec2::ZERO)
    };
    centre + Vec2::new(angle.cos(), angle.sin()) * r * squash
}

/// A stone's place in a store: rows of small stones from the left.
pub fn store_offset(slot: usize) -> Vec2 {
    let per_row = 36;
    let (row, col) = ((slot % 72) / per_row, slot % per_row);
    Vec2::new(
        -STORE.x / 2.0 + 60.0 + col as f32 * 13.5,
        12.0 - row as f32 * 22.0,
    )
}

/// A captured mandarin's place in a store: at the left end.
pub fn store_mandarin_offset(slot: usize) -> Vec2 {
    Vec2::new(-STORE.x / 2.0 + 22.0, 12.0 - slot as f32 * 26.0)
}

/// The ring index under `point`, if any.
pub fn pit_at(point: Vec2) -> Option<usize> {
    (0..12).find(|&i| {
        let d = (point - pit_center(i)).abs();
        let half = if geometry::is_mandarin(i) {
            MANDARIN_PIT / 2.0
        } else {
            Vec2::splat(PIT / 2.0)
        };
        d.x <= half.x && d.y <= half.y
    })
}

/// Which sowing direction the screen's `side` means on `player`'s row.
pub fn direction_for(player: usize, side: Side) -> Direction {
    // Player 0's row runs left to right on screen, so right is toward higher pit numbers;
    // player 1's runs right to left.
    let toward_higher = if player == 0 {
        side == Side::Right
    } else {
        side == Side::Left
    };
    if toward_higher {
        Direction::CounterClockwise
    } else {
        Direction::Clockwise
    }
}

/// The screen side a sowing direction goes toward on `player`'s row.
pub fn side_for(player: usize, dir: Direction) -> Side {
    if direction_for(player, Side::Left) == dir {
        Side::Left
    } else {
        Side::Right
    }
}

/// Where the two arrows of a selected pit go: under the bottom row, over the top row.
pub fn arrow_position(index: usize, side: Side) -> Vec2 {
    let dx = if side == Side::Left { -30.0 } else { 30.0 };
    let dy = if geometry::owner(index) == 0 {
        -PIT / 2.0 + 18.0
    } else {
        PIT / 2.0 - 18.0
    };
    pit_center(index) + Vec2::new(dx, dy)
}

fn hash(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn left_and_right_are_the_screen_s_on_both_rows() {
        // Bottom row: sowing right goes to higher ring indices.
        assert_eq!(direction_for(0, Side::Right), Direction::CounterClockwise);
        assert_eq!(direction_for(0, Side::Left), Direction::Clockwise);
        // Top row: ring 6 is at the right, so going left goes to higher ring indices.
        assert_eq!(direction_for(1, Side::Left), Direction::CounterClockwise);
        assert_eq!(direction_for(1, Side::Right), Direction::Clockwise);
        for player in 0..2 {
            for side in [Side::Left, Side::Right] {
                let dir = direction_for(player, side);
                assert_eq!(side_for(player, dir), side);
                // The next pit that way is really on that side of the screen.
                let pit = geometry::row(player).start + 2;
                let next = match dir {
                    Direction::CounterClockwise => pit + 1,
                    Direction::Clockwise => pit - 1,
                };
                let dx = pit_center(next).x - pit_center(pit).x;
                assert_eq!(dx < 0.0, side == Side::Left, "player {player} {side:?}");
            }
        }
    }

    #[test]
    fn every_pit_is_hit_at_its_centre_and_stones_stay_inside() {
        for i in 0..12 {
            assert_eq!(pit_at(pit_center(i)), Some(i));
            for slot in 0..40 {
                let p = pit_center(i) + stone_offset(slot, 7, geometry::is_mandarin(i));
                assert_eq!(pit_at(p), Some(i), "pit {i} slot {slot}");
            }
        }
        assert_eq!(pit_at(Vec2::new(0.0, 340.0)), None);
    }

    #[test]
    fn the_board_and_stores_fit_the_world() {
        let board = board_size();
        assert!(board.x < WORLD.x && board.y < WORLD.y);
        for p in 0..2 {
            let c = store_center(p);
            assert!(c.y.abs() + STORE.y / 2.0 < WORLD.y / 2.0);
        }
    }
}
