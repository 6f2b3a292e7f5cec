//! In the browser: the game's state as attributes of its canvas (`data-screen`, `data-ply`,
//! `data-phase`, `data-human` when a human is to move, `data-opponent` (`computer-LEVEL`, `online`,
//! `people`), `data-legal` moves, `data-selected` for the picked pit's ring index, `data-resume`,
//! `data-overlay` for the panel on top; and `data-thought`, kept by `play::ai_turn`, for the
//! computer's last search: nodes, depth, time and where it ran; `data-analysis`, written by the
//! review, for how far its analysis is and where it runs; `data-sound`, kept by `play::sound`,
//! for the page's audio), for the page and for browser tests to
//! read. They are written last in the frame, once the panel they announce has been laid out, so a
//! test that waits for one can click what it shows.

use bevy::prelude::*;

use crate::game::platform::persist::SavedGame;
use crate::game::play::ai_turn::LastThought;
use crate::game::play::input::Selection;
use crate::game::state::{Game, Overlay, Phase, Screen};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Last,
        publish.run_if(
            resource_changed::<Game>
                .or_eager(resource_changed::<Phase>)
                .or_eager(state_changed::<Screen>)
                .or_eager(state_changed::<Overlay>)
                .or_eager(resource_changed::<Selection>)
                .or_eager(resource_changed::<SavedGame>)
                .or_eager(resource_changed::<LastThought>),
        ),
    );
}

/// The game's canvas (`#game`), which carries the attributes; `None` on a page without it.
pub fn canvas() -> Option<web_sys::Element> {
    web_sys::window()?.document()?.get_element_by_id("game")
}

fn publish(
    game: Res<Game>,
    phase: Res<Phase>,
    screen: Res<State<Screen>>,
    overlay: Res<State<Overlay>>,
    selection: Res<Selection>,
    saved: Res<SavedGame>,
    thought: Res<LastThought>,
) {
    let Some(canvas) = canvas() else {
        return;
    };
    let screen = match screen.get() {
        Screen::Title => "title",
        Screen::Playing => "playing",
        Screen::Online => "online",
        Screen::Review => "review",
        Screen::Puzzles => "puzzles",
        Screen::Lesson => "lesson",
    };
    let resume = saved
        .0
        .as_ref()
        .map_or(0, |history| history.entries().len());
    for (name, value) in [
        ("data-screen", screen.to_owned()),
        ("data-ply", game.pos().ply().to_string()),
        ("data-phase", format!("{:?}", *phase).to_lowercase()),
        ("data-human", u8::from(game.human_to_move()).to_string()),
        ("data-opponent", opponent(&game)),
        ("data-resume", resume.to_string()),
        (
            "data-overlay",
            format!("{:?}", overlay.get()).to_lowercase(),
        ),
        ("data-legal", game.pos().legal_moves().to_string()),
        ("data-thought", thought.0.clone()),
        (
            "data-selected",
            selection.0.map_or("none".to_owned(), |pit| pit.to_string()),
        ),
    ] {
        // A page without the attribute loses nothing but the tests' view.
        let _ = canvas.set_attribute(name, &value);
    }
}

/// Who the game on the board is against: `computer-LEVEL`, `online`, or `people` (on this
/// device).
fn opponent(game: &Game) -> String {
    use crate::session::Seat;
    let seats = game.history.seats();
    if seats.contains(&Seat::Remote) {
        return "online".to_owned();
    }
    seats
        .iter()
        .find_map(|s| match s {
            Seat::Computer(level) => Some(format!("computer-{level}")),
            _ => None,
        })
        .unwrap_or_else(|| "people".to_owned())
}
