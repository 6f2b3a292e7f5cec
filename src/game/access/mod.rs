//! Everyone can play: the game as a screen reader meets it (every button and text named in the
//! player's language, the board a grid of pits, each move announced, single keys that read the
//! board), keyboard-only play through every screen, and the settings for eyes and hands (text
//! size, contrast, reduced motion, large buttons). On the desktop Bevy hands the tree to
//! AccessKit; on the web, where AccessKit has no adapter, `web_mirror` copies it into the page.

pub mod announce;
pub mod board;
mod comfort;
pub mod focus;
mod names;
pub mod speech;
#[cfg(test)]
mod vision;
#[cfg(target_arch = "wasm32")]
mod web_mirror;

use bevy::prelude::*;

pub(in crate::game) fn plugin(app: &mut App) {
    app.add_plugins((
        comfort::plugin,
        focus::plugin,
        names::plugin,
        announce::plugin,
        board::plugin,
    ));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins(web_mirror::plugin);
}
