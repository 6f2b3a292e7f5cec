//! Ô ăn quan: the game.

#[cfg(not(target_arch = "wasm32"))]
mod command_line;

#[cfg(not(target_arch = "wasm32"))]
fn main() -> bevy::app::AppExit {
    command_line::run()
}

/// In the browser there is no command line: the page's storage holds the settings and the page
/// its room link. (So the command-line parser stays out of the .wasm.)
#[cfg(target_arch = "wasm32")]
fn main() -> bevy::app::AppExit {
    use o_an_quan::game::trace::mark;
    mark("main");
    let mut start = o_an_quan::game::start::Start::from_storage();
    // One canvas pixel a CSS pixel: the canvas's backing store here follows the page's CSS
    // size, so the device's pixel ratio as the scale would lay the bars and panels out in half
    // the page (twice too large on every phone).
    start.window.resolution =
        bevy::window::WindowResolution::new(1280, 720).with_scale_factor_override(1.0);
    let mut app = o_an_quan::game::start::app(start);
    mark("app-built");
    app.run()
}
