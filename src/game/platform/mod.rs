//! What differs by where the game runs: keeping settings and games between runs, sleeping
//! between frames when nothing moves, and in the browser the page's hooks and its files.

pub mod idle;
#[cfg(target_arch = "wasm32")]
pub mod overlay;
#[cfg(target_arch = "wasm32")]
pub mod page;
pub mod persist;
#[cfg(target_arch = "wasm32")]
pub mod web_files;

use bevy::prelude::*;

/// A button that opens the file picker: in the browser a real file input lies over it, so that
/// the player's click opens the picker itself (`web_files`); elsewhere it marks nothing.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct OpensFilePicker;

/// The platform: the saved game and settings, sleeping when idle, and the browser's page and files.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((persist::plugin, idle::plugin));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins((page::plugin, web_files::plugin));
}
