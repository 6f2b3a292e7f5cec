//! Around the board: the title screen, the menu, the bar and message line, the review of a
//! game, the puzzles and the player's own to practise, and the actions their buttons and keys
//! share (built from `theme`'s widgets).

pub mod actions;
pub mod confirm;
pub mod hud;
pub mod intro;
pub mod kept;
pub mod lesson;
pub mod menu;
pub mod practice;
pub mod puzzles;
pub mod review;
pub mod title;

use bevy::prelude::*;

/// The screens around the board: the actions, the bar, the menu, the title, the
/// review, puzzles, the lesson, the first visit's card and the questions.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        actions::plugin,
        hud::plugin,
        menu::plugin,
        title::plugin,
        review::plugin,
        puzzles::plugin,
        practice::plugin,
        lesson::plugin,
        intro::plugin,
        confirm::plugin,
    ));
}
