//! What the board looks like and where everything is: the layout of both boards in the window
//! (and the phone's safe area), the camera that fits it between the screens' bars, the art
//! drawn at start-up, the board, its pebbles, and the text written on it.

pub mod art;
pub mod camera;
pub mod layout;
pub mod pebbles;
pub mod safe_area;
pub mod text;
pub mod wood;

use bevy::prelude::*;

/// The board: its art, where it may be drawn, the pebbles and the wood.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        art::plugin,
        safe_area::plugin,
        camera::plugin,
        pebbles::plugin,
        wood::plugin,
    ));
}
