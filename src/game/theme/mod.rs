//! The interface's look: its colours (`palette`) and the widgets every screen and page is
//! made of (`widget`: buttons sized for fingers, text in the game's faces, panels, bars).

pub mod palette;
pub mod widget;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(widget::plugin);
}
