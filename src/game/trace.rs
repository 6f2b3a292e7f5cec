//! A first visit's steps as marks on the browser's performance timeline (`oaq:NAME`): the
//! game's `main`, the app built (the art drawn), its start-up systems run, the first frames,
//! the fonts arrived, and, from `online::timeline`, the connection, the seat and the board
//! playable. The page adds its own (the `.wasm` downloaded, the canvas sized) and
//! `tests/web/deploy.mjs` prints them as a table. Outside the browser a mark is nothing.

use bevy::prelude::*;

/// Puts `oaq:NAME` on the page's performance timeline, now.
pub fn mark(name: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(performance) = web_sys::window().and_then(|window| window.performance()) {
        // A page that refuses the mark loses nothing but the measurement.
        let _ = performance.mark(&format!("oaq:{name}"));
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = name;
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(PostStartup, || mark("startup-done"));
    app.add_systems(First, first_frames);
}

/// The first frame is drawn once the second update begins (the render world follows each
/// update); the few after it show how long a frame takes while the page still starts.
const FRAMES_MARKED: u32 = 4;

fn first_frames(mut frames: Local<u32>) {
    match *frames {
        0 => mark("first-update"),
        1 => mark("first-frame-drawn"),
        n if n < FRAMES_MARKED => mark(&format!("frame-{n}-drawn")),
        _ => return,
    }
    *frames += 1;
}
