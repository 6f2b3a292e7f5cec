//! The interface's look: its colours (`palette`) and the widgets every screen and page is
//! made of (`widget`: buttons sized for fingers, text in the game's faces, panels, bars), the
//! parts of a panel drawn again only when what they show changes (`part`), and how a finger
//! presses them (`tap`: when it lifts without having dragged).

pub mod palette;
pub mod part;
mod tap;
pub mod widget;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((widget::plugin, tap::plugin));
}
