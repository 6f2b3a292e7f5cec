//! The interface's look: its colours (`palette`), the widgets every screen and page is made of
//! (`widget`: buttons, text in the game's faces, panels), pages over the screen (`page`), the
//! bars along the board's edges (`bars`), buttons sized for a finger (`target`) and shown as
//! their pictures alone on a phone (`collapse`), panels that scroll (`scroll`), the wait for
//! the fonts (`fonts`), the parts of a panel drawn again only when what they show changes
//! (`part`), a button's press as an event on it (`press`), and how a finger presses them
//! (`tap`: when it lifts without having dragged).

pub mod bars;
pub mod collapse;
mod fonts;
pub mod page;
pub mod palette;
pub mod part;
pub mod press;
pub mod scroll;
mod tap;
pub mod target;
pub mod widget;

use bevy::prelude::*;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        fonts::plugin,
        target::plugin,
        collapse::plugin,
        bars::plugin,
        scroll::plugin,
        page::plugin,
        press::plugin,
        tap::plugin,
    ));
}
