//! The move pipeline: input → the turn (rules `play`) → the animation of its events, with the
//! sounds they make, and the thinking done off the frame (the computer's turns, the hint).

pub mod ai_turn;
pub mod animation;
pub mod capture;
pub mod clock;
pub mod hint;
pub mod input;
pub mod lights;
pub mod off_frame;
pub mod sound;
#[cfg(target_arch = "wasm32")]
pub mod think_worker;
pub mod turn;

use bevy::prelude::*;

/// A game being played: moves animated, turns, the computer, clocks, input, hints, sound,
/// captures and the lights.
pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        animation::plugin,
        turn::plugin,
        ai_turn::plugin,
        clock::plugin,
        input::plugin,
        hint::plugin,
        sound::plugin,
        capture::plugin,
        lights::plugin,
    ));
}
