//! The room's game on the board. The server's log is the truth: its moves are played on the
//! board one by one through the same pipeline as the computer's (lit, animated, snapped), our
//! own moves are shown at once and sent, and whenever the board and the log disagree the
//! board takes the log's game (and says so in the log file).

use bevy::platform::time::Instant;
use bevy::prelude::*;

use super::client::{OnlineRead, OnlineWrite};
use super::link::Link;
use crate::game::state::{Game, LoadGame, MovePlayed, NewGame, Phase, PlayMove, Screen};
use crate::net::room::{self, RoomState};
use crate::rules::Move;
use crate::session::{History, Seat};

/// Which room's game the board shows, and since when we have been to move.
#[derive(Resource, Default)]
pub struct OnBoard {
    pub code: Option<String>,
    our_turn_since: Option<Instant>,
    /// A room was put on the board this frame: the game screen comes before it is drawn.
    entering: bool,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<OnBoard>();
    app.add_observer(send_our_move)
        .add_observer(leave_for_a_local_game);
    app.add_systems(
        Update,
        (
            follow_room,
            enter_the_game_now.run_if(|on_board: Res<OnBoard>| on_board.entering),
            time_our_turn,
        )
            .chain()
            .in_set(crate::game::state::GameSet::Think),
    );
}

/// Who plays each side at the start, seen from here: our side played here, every other remote.
fn seats_of(state: &RoomState, you: Option<usize>) -> Vec<Seat> {
    (0..state.players())
        .map(|side| {
            if Some(state.order[side]) == you {
                Seat::Human
            } else {
                Seat::Remote
            }
        })
        .collect()
}

/// The room's game as a local match (every move played again by the rules).
pub fn history_of(state: &RoomState, you: Option<usize>) -> History {
    let mut history = History::new(&state.preset, state.rules, seats_of(state, you));
    for &mv in &state.moves {
        // The fold played every one of them by the same rules.
        if history.play(mv).is_err() {
            break;
        }
    }
    history
}

/// Keep the board on the room's game.
fn follow_room(
    mut commands: Commands,
    online: OnlineRead,
    mut on_board: ResMut<OnBoard>,
    game: Res<Game>,
    mut phase: ResMut<Phase>,
    screen: Res<State<Screen>>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    let Some(room) = &online.in_room.room else {
        return;
    };
    let Some(state) = &room.state else { return };
    if state.phase == room::Phase::Waiting {
        return;
    }
    let ours = on_board.code.as_deref() == Some(room.code.as_str());
    if !ours {
        // A started game goes on the board from the online screen (or after a rematch).
        if *screen.get() == Screen::Online || on_board.code.is_some() {
            info!("online: room {} on the board", room.code);
            commands.trigger(LoadGame(history_of(state, room.you)));
            on_board.code = Some(room.code.clone());
            on_board.entering = true;
            next_screen.set(Screen::Playing);
        }
        return;
    }
    if *phase == Phase::Animating {
        return;
    }
    // The whole game is replayed only when the board must take it, not every frame.
    let expected = || history_of(state, room.you);
    if game.history.seats() != seats_of(state, room.you) {
        // We sat down (or stood up) after the board was set.
        commands.trigger(LoadGame(expected()));
        return;
    }
    let local: Vec<Move> = game.history.moves().collect();
    let server = &state.moves;
    let in_flight = room.pending.is_some();
    if local.len() < server.len() && server.starts_with(&local) {
        if *phase == Phase::Waiting {
            // The next move from the server, shown as it was played.
            commands.trigger(PlayMove(server[local.len()]));
        }
    } else if local == *server {
        if *game.pos() != state.pos {
            warn!(
                "online: room {}: the board's position differs from the server's after {} moves; taking the server's",
                room.code,
                server.len()
            );
            commands.trigger(LoadGame(expected()));
        } else if matches!(state.phase, room::Phase::Ended(_)) && *phase == Phase::Waiting {
            // Resigned, drawn, out of time, claimed: over whatever the board says.
            *phase = Phase::Over;
        }
    } else if !(in_flight && local.len() == server.len() + 1 && local.starts_with(server)) {
        warn!(
            "online: room {}: the board has {} moves, the server {}; taking the server's game",
            room.code,
            local.len(),
            server.len()
        );
        commands.trigger(LoadGame(expected()));
    }
}

/// The game screen entered in the frame the room came on the board, not the next: a frame on a
/// phone's CPU is a few hundred milliseconds, and a room link's first visit waits for this
/// one (Bevy runs state transitions once a frame, after `PreUpdate`, unless a system runs them).
fn enter_the_game_now(world: &mut World) {
    world.resource_mut::<OnBoard>().entering = false;
    let _ = world.try_run_schedule(StateTransition);
}

/// How long we have been to move, for the move's `think_ms`.
fn time_our_turn(game: Res<Game>, phase: Res<Phase>, mut on_board: ResMut<OnBoard>) {
    let ours = *phase == Phase::Waiting && game.online() && game.human_to_move();
    match (ours, on_board.our_turn_since) {
        (true, None) => on_board.our_turn_since = Some(Instant::now()),
        (false, Some(_)) => on_board.our_turn_since = None,
        _ => {}
    }
}

/// A move played here that the server has not seen: send it.
fn send_our_move(
    _: On<MovePlayed>,
    game: Res<Game>,
    mut online: OnlineWrite,
    mut link: ResMut<Link>,
    mut on_board: ResMut<OnBoard>,
) {
    let Some(room) = &online.in_room.room else {
        return;
    };
    if on_board.code.as_deref() != Some(room.code.as_str()) {
        return;
    }
    let Some(state) = &room.state else { return };
    let entries = game.history.entries();
    let Some(last) = entries.last() else { return };
    let ply = entries.len() as u32 - 1;
    // The server's own moves come back through here as they are shown.
    if ply != state.turn() || state.mover().is_none() || state.mover() != room.you {
        return;
    }
    let think_ms = on_board
        .our_turn_since
        .take()
        .map(|t| t.elapsed().as_millis() as u64);
    let mv = last.mv.to_string();
    online.send_move(&mut link, ply, mv, think_ms);
}

/// A new local game from the menu leaves the room (the seat stays held during a game).
fn leave_for_a_local_game(
    _: On<NewGame>,
    mut commands: Commands,
    mut on_board: ResMut<OnBoard>,
    online: OnlineRead,
) {
    if on_board.code.take().is_some() && online.in_room.room.is_some() {
        commands.trigger(super::client::Ask::Leave);
    }
}
