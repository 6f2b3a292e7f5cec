//! In the browser: the online steps of a first visit from a room link on the performance
//! timeline (`trace::mark`): the WebSocket open, the server's welcome, a seat in the room, the
//! board playable (the game screen with the room's game under way, as the frame that draws it
//! begins to), and that frame drawn, each once.

use bevy::prelude::*;

use super::client::OnlineRead;
use super::link::Link;
use crate::game::state::Screen;
use crate::game::trace::mark;
use crate::net::room;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Marked>()
        .add_systems(Last, mark_steps.run_if(|m: Res<Marked>| m.0 < STEPS.len()))
        .add_systems(
            First,
            mark_board_drawn.run_if(|m: Res<Marked>| m.0 == STEPS.len()),
        );
}

/// How many of the steps are marked (one more once the board's frame is drawn): once all are,
/// the systems stop running.
#[derive(Resource, Default)]
struct Marked(usize);

/// The steps in order; each is marked the first frame it holds.
const STEPS: [&str; 4] = ["socket-open", "welcomed", "seated", "playable"];

fn mark_steps(
    link: Res<Link>,
    online: OnlineRead,
    screen: Res<State<Screen>>,
    mut marked: ResMut<Marked>,
) {
    let room = online.in_room.room.as_ref();
    let holds = [
        link.is_open(),
        online.identity.welcomed(),
        room.is_some_and(|r| r.you.is_some()),
        *screen.get() == Screen::Playing
            && room
                .and_then(|r| r.state.as_ref())
                .is_some_and(|s| s.phase == room::Phase::Playing),
    ];
    while marked.0 < STEPS.len() && holds[marked.0] {
        mark(STEPS[marked.0]);
        marked.0 += 1;
    }
}

/// The frame that made the board playable has been drawn once the next update begins (the
/// render world follows each update, as `trace`'s first frames are marked).
fn mark_board_drawn(mut marked: ResMut<Marked>) {
    mark("board-drawn");
    marked.0 += 1;
}
