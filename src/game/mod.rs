//! The Bevy game: the board, a sprite per stone, three ways to move, the computer's turns off
//! the frame, the move shown event by event, and around it the title screen, the menu, hints,
//! undo, sound and the saved game. The rules state is a resource; the screen only ever shows it.

mod actions;
pub mod ai_turn;
mod animation;
mod art;
mod board;
pub mod capture;
mod hint;
mod hud;
pub mod input;
pub mod layout;
mod menu;
mod off_frame;
#[cfg(target_arch = "wasm32")]
mod page;
pub mod pebbles;
pub mod persist;
pub mod safe_area;
mod sound;
pub mod start;
pub mod state;
mod text;
mod title;
mod turn;
mod ui;
#[cfg(target_arch = "wasm32")]
mod web_files;

use bevy::prelude::*;

pub use actions::Action;
pub use state::{Game, Launch, Overlay, Phase, Prefs, Screen};

/// The order of a frame's work: read input, think, show the move, then draw the rest.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum GameSet {
    Input,
    Think,
    Animate,
    Show,
}

/// Everything of the game but Bevy's own plugins: add it after `DefaultPlugins` (or, in tests,
/// after the minimal set with `StatesPlugin`) and `TweeningPlugin`. `Prefs`, `Launch` and
/// `Files` resources inserted before are used; without `Files` nothing is kept on disk.
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
    app.init_resource::<Prefs>().init_resource::<Launch>();
    let launch = app.world().resource::<Launch>().clone();
    let prefs = app.world().resource::<Prefs>().clone();
    app.insert_resource(Game::new(&prefs, &launch, 0));
    app.insert_state(if launch.skip_title {
        Screen::Playing
    } else {
        Screen::Title
    });
    app.init_state::<Overlay>();
    // The screen first (art, where to draw, button sizes, the board), then the play, then
    // everything around it.
    app.add_plugins((
        art::plugin,
        safe_area::plugin,
        ui::plugin,
        pebbles::plugin,
        board::plugin,
    ));
    app.add_plugins((
        animation::plugin,
        turn::plugin,
        ai_turn::plugin,
        input::plugin,
        actions::plugin,
        hud::plugin,
        hint::plugin,
        menu::plugin,
        title::plugin,
        persist::plugin,
        sound::plugin,
        capture::plugin,
    ));
    #[cfg(target_arch = "wasm32")]
    app.add_plugins((page::plugin, web_files::plugin));
    app.add_systems(Startup, |mut commands: Commands| {
        commands.trigger(state::NewGame)
    });
}
