//! The Bevy game: the board, a sprite per stone, three ways to move, the computer's turns off
//! the frame, the move shown event by event, and around it the title screen, the menu, hints,
//! undo, sound and the saved game. The rules state is a resource; the screen only ever shows it.
//!
//! # How a move flows
//!
//! One way, from input to pixels, never back:
//!
//! 1. **Input** (`play::input`: a click, a drag, a key, a screen reader's request through
//!    `access::board`), the computer (`play::ai_turn`: a [`crate::ai::Thinker`] polled on
//!    Bevy's async compute pool, or in slices of about 8 ms a frame in the browser) or the
//!    online opponent (`online::table`, from the server's log) triggers [`state::PlayMove`].
//! 2. **The rules**: `play::turn` plays it on [`Game`] (the match's [`crate::session::History`],
//!    the only copy of the position) with [`crate::rules::Position::play`]; an illegal move is
//!    ignored and changes nothing. The move's [`crate::rules::Event`]s start the animation's
//!    script, [`Phase`] becomes `Animating`, and [`state::MovePlayed`] is triggered with them:
//!    the sound, the capture flashes, the announcement for screen readers, the saved game and
//!    the online client each observe it.
//! 3. **Tweens**: `play::animation` turns the events one by one into `bevy_tweening` tweens of
//!    the stone sprites (a pit lifted, stones dropped along an arc, a relay, captured stones
//!    flying to the store), at the chosen speed (none at all with reduced motion).
//! 4. **Sprites**: when the script ends (or is skipped), [`state::MoveShown`] snaps every sprite
//!    to the rules state (`board::pebbles::sync`), whatever the animation did, and the turn
//!    passes: [`Phase`] back to `Waiting`, or `Over`.
//!
//! A new game, undo or redo bumps [`Game::generation`], so a computer move thought out for an
//! older position is dropped when it arrives.
//!
//! # Plugin order
//!
//! [`plugin`] adds everything but Bevy's own plugins, each folder importing only those before
//! it: `trace` (a first visit's steps on the browser's performance timeline) ← `state` (the
//! resources, events, phases and [`GameSet`]s every plugin shares) ← `board` (the layout, the
//! art drawn at start-up, the board, its pebbles, the text on it) ← `theme` (the interface's
//! colours and widgets) ← `play` (input, the turn, the animation, the computer, clocks, hints,
//! sound, lights) ← `platform` (saving and loading, idle frames, the browser's page hooks and
//! files) ← `screens` (title, menu, bar and message line, review, puzzles, lesson, dialogs) ←
//! `online`
//! (the connection, the protocol's state, the room's game on the board, the online pages) ←
//! `access` (screen readers, the keyboard's focus, the settings for eyes and hands). Within a
//! frame the systems run in [`GameSet`] order, chained: `Input`, `Think`, `Animate`, `Show`.
//! `start` builds the app for the desktop, the browser and the phones.
//!
//! What each screen does, the options and the keys: `docs/game.md`.

// Lower folders never import higher ones: trace ← state ← board ← theme ← play ← platform ←
// screens ← online ← access (`.ci/layers` checks it).
pub mod access;
mod board;
pub mod online;
mod pipeline;
mod platform;
mod play;
mod screens;
pub mod start;
pub mod state;
mod theme;
pub mod trace;

// The paths the tests and the binary use.
pub use board::{layout, pebbles, safe_area, wood};
pub use platform::persist;
pub use play::{ai_turn, capture, input, lights};
pub use screens::{lesson, practice, puzzles, review};
pub use theme::{page, palette, press, scroll, widget};

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
            GameSet::Press,
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
        .init_resource::<state::BarSpace>()
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
    // One plugin per folder, in the order data flows; what runs before what is said by the
    // `GameSet`s and each system's own ordering, not by this order.
    app.add_plugins((
        trace::plugin,
        board::plugin,
        theme::plugin,
        play::plugin,
        platform::plugin,
        screens::plugin,
        online::plugin,
        access::plugin,
    ));
    app.add_systems(Startup, |mut commands: Commands| {
        commands.trigger(state::NewGame)
    });
}
