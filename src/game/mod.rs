//! The Bevy game: the board, a sprite per stone, three ways to move, the computer's turns off
//! the frame, and the move shown event by event. The rules state is a resource; the screen only
//! ever shows it.

mod ai_turn;
mod animation;
mod art;
mod board;
pub mod capture;
mod hud;
pub mod input;
pub mod layout;
pub mod pebbles;
pub mod state;
mod text;
mod turn;

use bevy::prelude::*;

pub use state::{Game, Opponent, Phase, Settings, Speed};

/// The order of a frame's work: read input, think, show the move, then draw the rest.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum GameSet {
    Input,
    Think,
    Animate,
    Show,
}

/// Everything of the game but Bevy's own plugins: add it after `DefaultPlugins` (or, in tests,
/// after the minimal set) and `TweeningPlugin`, with a `Settings` resource.
pub fn plugin(app: &mut App) {
    app.configure_sets(
        Update,
        (
            GameSet::Input,
            GameSet::Think,
            GameSet::Animate,
            GameSet::Show,
        )
            .chain(),
    );
    app.init_resource::<Settings>();
    let settings = app.world().resource::<Settings>().clone();
    app.insert_resource(Game::new(&settings, 0));
    app.add_plugins((
        art::plugin,
        pebbles::plugin,
        board::plugin,
        animation::plugin,
        turn::plugin,
        ai_turn::plugin,
        input::plugin,
        hud::plugin,
        capture::plugin,
    ));
}
