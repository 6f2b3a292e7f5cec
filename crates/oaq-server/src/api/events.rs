//! `GET /api/stream/event`: a bot's events, one JSON object a line. First a `gameStart` for
//! each game it is playing and a `challenge` for each challenge waiting for it, then, as they
//! come: `challenge`, `challengeCanceled` (cancelled or declined), `gameStart` (a challenge
//! accepted, a tournament's pairing), `gameFinish`.

use std::sync::Arc;

use axum::extract::State;
use axum::response::Response;
use oaq_net::protocol::{Notice, ServerMessage};
use serde_json::{Value, json};

use super::stream::{Lines, Out, Stream};
use super::{ApiError, Bot, EVENT_STREAMS};
use crate::settings::now_ms;
use crate::shared::Server;

pub async fn stream(State(server): State<Arc<Server>>, bot: Bot) -> Result<Response, ApiError> {
    // What is waiting is read before the stream opens, so a store that fails refuses it.
    let games = server.store.games_in_progress(&bot.info.id).await?;
    let challenges = server
        .store
        .challenges(&bot.info.id, true, now_ms())
        .await?;
    let (stream, response) = Stream::open(&server, &bot, "event", EVENT_STREAMS).await?;
    for code in games {
        stream.out.line(&game_start(&code));
    }
    for challenge in challenges {
        stream
            .out
            .line(&json!({ "type": "challenge", "challenge": challenge }));
    }
    tokio::spawn(stream.run(Events));
    Ok(response)
}

fn game_start(code: &str) -> Value {
    json!({ "type": "gameStart", "game": { "id": code } })
}

/// The player's notices a bot acts on, as event lines; the rest are not its business here.
struct Events;

impl Lines for Events {
    fn message(&mut self, msg: ServerMessage, out: &Out) -> bool {
        let ServerMessage::Notice(notice) = msg else {
            return true;
        };
        let line = match notice {
            Notice::Challenged { challenge } => {
                json!({ "type": "challenge", "challenge": challenge })
            }
            Notice::ChallengeClosed { id } => {
                json!({ "type": "challengeCanceled", "challenge": { "id": id } })
            }
            Notice::ChallengeAccepted { room, .. } | Notice::Paired { room } => game_start(&room),
            Notice::GameFinished { code } => {
                json!({ "type": "gameFinish", "game": { "id": code } })
            }
            _ => return true,
        };
        out.line(&line)
    }
}
