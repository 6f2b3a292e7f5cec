//! The clocks of a timed online game: the server's figures counted down between its messages
//! (by the server's time, estimated from the clock probe), handed to the board's clock faces.

use bevy::prelude::*;

use super::client::OnlineRead;
use super::table::OnBoard;
use crate::game::play::clock::ClockView;
use crate::game::state::{Game, GameSet, Screen};

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        show_room_clock
            .run_if(in_state(Screen::Playing))
            .in_set(GameSet::Animate),
    );
}

fn show_room_clock(
    online: OnlineRead,
    on_board: Res<OnBoard>,
    game: Res<Game>,
    mut view: ResMut<ClockView>,
) {
    // A game on this device keeps its own clock.
    if !game.online() {
        return;
    }
    let room = online
        .in_room
        .room
        .as_ref()
        .filter(|r| on_board.code.as_deref() == Some(r.code.as_str()));
    let clock = room.and_then(|r| Some((r, r.state.as_ref()?, r.state.as_ref()?.clock.as_ref()?)));
    let Some((room, state, clock)) = clock else {
        view.set_if_neq(ClockView::default());
        return;
    };
    let now = online.connection.server_now();
    let running = clock.running();
    let shown = ClockView {
        left: (0..state.players())
            .map(|side| clock.remaining(state.seat_of_side(side), now))
            .collect(),
        running: (0..state.players()).find(|&side| Some(state.seat_of_side(side)) == running),
        tick: running.is_some() && running == room.you,
    };
    view.set_if_neq(shown);
}
