//! The bot API's requests: who am I, the bots, a move and the other actions in a game, and
//! challenges sent and answered. Each answers `{"ok": true}` (or what it made) or a typed
//! refusal, and a refusal changes nothing.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use oaq_net::protocol::{ClockSpec, ErrorCode, RulesChoice};
use serde::Deserialize;
use serde_json::json;
use tokio::sync::oneshot;

use super::body::json;
use super::{ApiError, Bot, own_game, undelivered};
use crate::mailbox::{Action, Command};
use crate::room::registry::{self, Delivered};
use crate::shared::Server;

fn ok() -> Response {
    axum::Json(json!({ "ok": true })).into_response()
}

/// `GET /api/account`: the bot as the server has it.
pub async fn account(bot: Bot) -> Response {
    axum::Json(json!({ "player": bot.info })).into_response()
}

/// `GET /api/bots` (no token): the bots online now and the bots' leaderboard.
pub async fn bots(State(server): State<Arc<Server>>) -> Result<Response, ApiError> {
    let near = server.store.bots_near(1500.0, 200).await?;
    let ids: Vec<String> = near.iter().map(|b| b.id.clone()).collect();
    let here = server.online(&ids).await;
    let mut online: Vec<_> = near
        .into_iter()
        .zip(here)
        .filter_map(|(b, h)| h.then_some(b))
        .collect();
    online.sort_by(|a, b| b.rating.total_cmp(&a.rating));
    let leaderboard = server.store.leaderboard(100, true).await?;
    Ok(axum::Json(json!({ "online": online, "leaderboard": leaderboard })).into_response())
}

/// `action` by `bot` in its game `code`.
async fn act(
    server: &Arc<Server>,
    bot: &Bot,
    code: &str,
    action: Action,
) -> Result<Response, ApiError> {
    let code = own_game(server, bot, code).await?;
    let act = || {
        let (reply, answer) = oneshot::channel();
        let command = Command::ActAs {
            player: bot.info.id.clone(),
            action: action.clone(),
            reply,
        };
        (command, answer)
    };
    match registry::deliver(server, &code, act).await? {
        Delivered::Answered(_, Ok(())) => Ok(ok()),
        Delivered::Answered(_, Err((code, message, legal))) => Err(ApiError {
            code,
            message,
            legal,
        }),
        Delivered::NoRoom => Err(undelivered(&code, false)),
        Delivered::Unloaded => Err(undelivered(&code, true)),
    }
}

#[derive(Deserialize)]
pub struct MoveQuery {
    /// The move's number (the moves before it): a move sent twice is refused the second time.
    ply: Option<u32>,
}

/// `POST /api/bot/game/{code}/move/{mv}` (`?ply=N` optional).
pub async fn play(
    State(server): State<Arc<Server>>,
    bot: Bot,
    Path((code, mv)): Path<(String, String)>,
    Query(query): Query<MoveQuery>,
) -> Result<Response, ApiError> {
    if mv.len() > oaq_net::protocol::MAX_TOKEN {
        return Err(ApiError::new(ErrorCode::BadMessage, "move: too long"));
    }
    let action = Action::Move {
        ply: query.ply.unwrap_or(crate::mailbox::THIS_PLY),
        mv,
        think_ms: None,
    };
    act(&server, &bot, &code, action).await
}

pub async fn resign(
    State(server): State<Arc<Server>>,
    bot: Bot,
    Path(code): Path<String>,
) -> Result<Response, ApiError> {
    act(&server, &bot, &code, Action::Resign).await
}

/// `POST /api/bot/game/{code}/draw/yes`: offer a draw, or accept the one offered.
pub async fn draw(
    State(server): State<Arc<Server>>,
    bot: Bot,
    Path((code, answer)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    if answer != "yes" {
        return Err(ApiError::new(
            ErrorCode::BadMessage,
            "draw: only `yes` (an offer not taken lapses with the next move)",
        ));
    }
    act(&server, &bot, &code, Action::OfferDraw).await
}

pub async fn claim(
    State(server): State<Arc<Server>>,
    bot: Bot,
    Path(code): Path<String>,
) -> Result<Response, ApiError> {
    act(&server, &bot, &code, Action::Claim).await
}

#[derive(Deserialize)]
struct ChatBody {
    phrase: oaq_net::social::Phrase,
}

/// `POST /api/bot/game/{code}/chat` with `{"phrase": "good_game"}`: one of the preset phrases.
pub async fn chat(
    State(server): State<Arc<Server>>,
    bot: Bot,
    Path(code): Path<String>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let ChatBody { phrase } = json(&bytes)?;
    if !server.bot_chats.take_key(bot.info.id.clone()) {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            format!(
                "more than {} chat phrases a minute from this bot",
                crate::shared::BOT_CHATS_PER_MINUTE
            ),
        ));
    }
    act(&server, &bot, &code, Action::Chat(phrase)).await
}

#[derive(Deserialize)]
struct ChallengeBody {
    rules: RulesChoice,
    clock: ClockSpec,
}

/// `POST /api/challenge/{player}` with `{"rules": "basic", "clock": {...}}`: answered with the
/// challenge (its id, to cancel it).
pub async fn challenge(
    State(server): State<Arc<Server>>,
    bot: Bot,
    Path(player): Path<String>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let ChallengeBody { rules, clock } = json(&bytes)?;
    if player.len() > oaq_net::protocol::MAX_TOKEN {
        return Err(crate::challenges::no_player().into());
    }
    let challenge = crate::challenges::send(&server, &bot.info, &player, &rules, clock).await?;
    Ok(axum::Json(json!({ "challenge": challenge })).into_response())
}

/// `POST /api/challenge/{id}/accept`, `/decline` or `/cancel` (one's own).
pub async fn answer(
    State(server): State<Arc<Server>>,
    bot: Bot,
    Path((id, answer)): Path<(String, String)>,
) -> Result<Response, ApiError> {
    if id.len() > oaq_net::protocol::MAX_TOKEN {
        return Err(ApiError::new(ErrorCode::NoSuchPlayer, "no such challenge"));
    }
    let me = &bot.info;
    match answer.as_str() {
        "accept" => {
            let room = crate::challenges::answer(&server, me, &id, true).await?;
            Ok(axum::Json(json!({ "ok": true, "game": { "id": room } })).into_response())
        }
        "decline" => {
            crate::challenges::answer(&server, me, &id, false).await?;
            Ok(ok())
        }
        "cancel" => {
            crate::challenges::cancel(&server, me, &id).await?;
            Ok(ok())
        }
        _ => Err(ApiError::new(
            ErrorCode::BadMessage,
            "a challenge is answered with accept, decline or cancel",
        )),
    }
}
