//! `GET /api/bot/game/stream/{code}`: one of the bot's games, one JSON object a line. First
//! `gameFull` (the rules, the clock, the players, which seat is the bot's, and the game as it
//! stands), then a `gameState` each time it changes (a move, the start, a draw offered, a
//! player away or back, the end), and `chatLine` for the opponent's phrases. The stream ends
//! after the game's last `gameState`.
//!
//! While the stream is open the bot is in its seat; when it closes the bot is away, as a
//! person whose connection dropped (the opponent may claim the game after a while).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::response::Response;
use oaq_net::protocol::{ErrorCode, Notice, RoomEvent, ServerMessage};
use oaq_net::room::{Phase, RoomState};
use oaq_rules::state_json;
use serde_json::{Value, json};
use tokio::sync::oneshot;

use super::stream::{Lines, Out, Stream};
use super::{ApiError, Bot, GAME_STREAMS, own_game, undelivered};
use crate::mailbox::Command;
use crate::room::registry::{self, Delivered};
use crate::settings::now_ms;
use crate::shared::Server;

pub async fn stream(
    State(server): State<Arc<Server>>,
    bot: Bot,
    Path(code): Path<String>,
) -> Result<Response, ApiError> {
    let code = own_game(&server, &bot, &code).await?;
    let (stream, response) = Stream::open(&server, &bot, "game", GAME_STREAMS).await?;
    let conn = stream.conn.clone();
    let room = match enter(&server, &code, &stream).await {
        Ok(room) => room,
        Err(e) => {
            stream.leave().await;
            return Err(e);
        }
    };
    tokio::spawn(async move {
        let lines = Game {
            code,
            seat: None,
            state: None,
        };
        stream.run(lines).await;
        let _ = room.tx.send(Command::Gone { conn: conn.id }).await;
    });
    Ok(response)
}

/// Into the room as the bot, in its seat (the room sends the whole log first).
async fn enter(
    server: &Arc<Server>,
    code: &str,
    stream: &Stream,
) -> Result<crate::mailbox::RoomHandle, ApiError> {
    let join = || {
        let (done, joined) = oneshot::channel();
        let command = Command::Join {
            conn: stream.conn.clone(),
            since: None,
            watch: true,
            done,
        };
        (command, joined)
    };
    match registry::deliver(server, code, join).await? {
        Delivered::Answered(room, true) => Ok(room),
        // The room said why on the stream's own channel; the stream is not begun.
        Delivered::Answered(_, false) => Err(ApiError::new(
            ErrorCode::NotAllowed,
            format!("room {code} did not take this bot back"),
        )),
        Delivered::NoRoom => Err(undelivered(code, false)),
        Delivered::Unloaded => Err(undelivered(code, true)),
    }
}

/// The game as the bot follows it.
struct Game {
    code: String,
    seat: Option<usize>,
    state: Option<RoomState>,
}

impl Lines for Game {
    fn message(&mut self, msg: ServerMessage, out: &Out) -> bool {
        match msg {
            ServerMessage::Notice(Notice::Snapshot {
                code, events, you, ..
            }) if code == self.code => {
                let Ok(state) = RoomState::from_log(&events) else {
                    return false;
                };
                self.seat = you.or(self.seat);
                let full = game_full(&state, self.seat);
                let over = matches!(state.phase, Phase::Ended(_));
                self.state = Some(state);
                out.line(&full) && !over
            }
            ServerMessage::Notice(Notice::Seat { code, seat }) if code == self.code => {
                self.seat = seat.or(self.seat);
                true
            }
            ServerMessage::Notice(Notice::Chat {
                code, seat, phrase, ..
            }) if code == self.code => out.line(&json!({
                "type": "chatLine", "seat": seat, "phrase": phrase,
            })),
            ServerMessage::Room(ev) if ev.code == self.code => {
                let Some(state) = self.state.as_mut() else {
                    return true;
                };
                if ev.seq < state.next_seq {
                    return true;
                }
                // A gap (this node lost events): end the stream; the program opens it again and
                // gets the whole game.
                if ev.seq != state.next_seq || state.apply(&ev.event).is_err() {
                    return false;
                }
                if !shows(&ev.event) {
                    return true;
                }
                let over = matches!(state.phase, Phase::Ended(_));
                out.line(&game_state(state)) && !over
            }
            _ => true,
        }
    }
}

/// Whether an event changes what `gameState` says.
fn shows(event: &RoomEvent) -> bool {
    !matches!(
        event,
        RoomEvent::Opened { .. } | RoomEvent::RematchOffered { .. } | RoomEvent::Rematch { .. }
    )
}

/// The first line: the game's setting, and its state.
fn game_full(state: &RoomState, you: Option<usize>) -> Value {
    json!({
        "type": "gameFull",
        "id": state.code,
        "preset": state.preset,
        "rules": state.rules,
        "clock": state.clock_spec,
        "rated": !state.unrated,
        "chat": !state.no_chat,
        "players": state.seats,
        "you": you,
        "state": game_state(state),
    })
}

/// The game as it stands: every move, whose turn, the position (as `oaq ai` reads it), the
/// clocks now, and the end.
pub fn game_state(state: &RoomState) -> Value {
    let moves: Vec<String> = state.moves.iter().map(|m| m.to_string()).collect();
    let (status, result) = match &state.phase {
        Phase::Waiting => ("waiting", Value::Null),
        Phase::Playing if state.paused.is_some() => ("paused", Value::Null),
        Phase::Playing => ("playing", Value::Null),
        Phase::Ended(result) => ("over", json!(result)),
    };
    let position: Value =
        serde_json::from_str(&state_json::to_line(&state.pos)).unwrap_or(Value::Null);
    let seats_where = |f: &dyn Fn(usize) -> bool| -> Vec<usize> {
        (0..state.players()).filter(|&s| f(s)).collect()
    };
    json!({
        "type": "gameState",
        "ply": state.turn(),
        "moves": moves.join(" "),
        // Nobody's turn on a board that has ended (its end is written next).
        "to_move": state.mover().filter(|_| !state.pos.is_over()),
        "position": position,
        "clocks_ms": state.clocks_at(now_ms()),
        "status": status,
        "result": result,
        "draw_offered": seats_where(&|s| state.draw.get(s) == Some(&true)),
        "away": seats_where(&|s| state.away.get(s).is_some_and(Option::is_some)),
    })
}
