//! The interface's colours in one place: buttons, panels, highlights, the focus ring and the
//! review's grades. The board's own (its wood, mat, pebbles, ink and the players' colours) are
//! the art's, drawn with it (`board::art`), and the text's ink is re-exported here.

use bevy::prelude::*;

pub use crate::game::board::art::{INK, PLAYER_COLOURS};

/// A button at rest, and under the pointer.
pub const BUTTON: Color = Color::srgba(0.15, 0.09, 0.05, 0.88);
pub const BUTTON_HOVER: Color = Color::srgba(0.32, 0.19, 0.09, 0.95);
/// A button that would do nothing now.
pub const BUTTON_OFF: Color = Color::srgba(0.15, 0.09, 0.05, 0.35);
/// A panel over the board. Blending is linear: a panel must be nearly opaque to hide bright
/// pebbles behind it.
pub const PANEL: Color = Color::srgba(0.10, 0.06, 0.03, 0.985);
/// A strip over the board that lets it show through (the move list, the review's rows).
pub const STRIP: Color = Color::srgba(0.10, 0.06, 0.03, 0.85);
/// A small card on a panel (the first visit's pictures of pits).
pub const CARD: Color = Color::srgb(0.16, 0.10, 0.05);
/// The bar's rim on a phone.
pub const RIM: Color = Color::srgb(0.85, 0.68, 0.30);
/// The line or cell that is the current one (a move in a list, a column of a graph), and a
/// graph's middle line.
pub const CURRENT: Color = Color::srgba(1.0, 1.0, 1.0, 0.15);
pub const CURRENT_COLUMN: Color = Color::srgba(1.0, 1.0, 1.0, 0.18);
pub const MIDDLE_LINE: Color = Color::srgba(1.0, 1.0, 1.0, 0.35);
/// The keyboard's focus ring: bright on the dark panels and on the wood.
pub const RING: Color = Color::srgb(1.0, 0.85, 0.25);
/// Behind text, for those who ask for it solid.
pub const TEXT_BACKING: Color = Color::BLACK;
/// A move's grade in the review: good, an inaccuracy, a mistake, a blunder.
pub const GRADE_GOOD: Color = Color::srgb(0.75, 0.90, 0.65);
pub const GRADE_INACCURACY: Color = Color::srgb(0.98, 0.85, 0.45);
pub const GRADE_MISTAKE: Color = Color::srgb(0.98, 0.62, 0.30);
pub const GRADE_BLUNDER: Color = Color::srgb(0.98, 0.40, 0.35);
