//! The Bevy game: the board, a sprite per stone, three ways to move, the computer's turns off
//! the frame, the move shown event by event, and around it the title screen, the menu, hints,
//! undo, sound and the saved game. The rules state is a resource; the screen only ever shows it.

// Lower folders never import higher ones: state ← board ← play ← platform ← screens ← online
// ← access.
pub mod access;
mod board;
pub mod online;
mod platform;
mod play;
mod screens;
pub mod start;
pub mod state;

// The paths the tests and the binary use.
pub use board::{layout, pebbles, safe_area, wood};
pub use platform::persist;
pub use play::{ai_turn, capture, input, lights};
pub use screens::{lesson, puzzles, review};

use bevy::prelude::*;

pub use screens::actions::Action;
pub use state::{Game, GameSet, Launch, Overlay, Phase, Prefs, Screen};

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
    app.init_resource::<Prefs>()
        .init_resource::<Launch>()
        .init_resource::<state::Working>()
        .init_resource::<state::Analysis>()
        .init_resource::<state::PanelRoom>()
        .init_resource::<state::Motion>()
        .init_resource::<state::TextScale>();
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
        board::art::plugin,
        board::safe_area::plugin,
        screens::ui::plugin,
        board::pebbles::plugin,
        board::wood::plugin,
    ));
    app.add_plugins((
        play::animation::plugin,
        play::turn::plugin,
        play::ai_turn::plugin,
        play::clock::plugin,
        play::input::plugin,
        screens::actions::plugin,
        screens::hud::plugin,
        play::hint::plugin,
        screens::menu::plugin,
        screens::title::plugin,
        platform::persist::plugin,
        platform::idle::plugin,
        play::sound::plugin,
        play::capture::plugin,
        play::lights::plugin,
    ));
    app.add_plugins((
        screens::review::plugin,
        screens::puzzles::plugin,
        screens::lesson::plugin,
        screens::intro::plugin,
        screens::confirm::plugin,
    ));
    app.add_plugins(online::plugin);
    app.add_plugins(access::plugin);
    #[cfg(target_arch = "wasm32")]
    app.add_plugins((platform::page::plugin, platform::web_files::plugin));
    app.add_systems(Startup, |mut commands: Commands| {
        commands.trigger(state::NewGame)
    });
}
