//! A bot in tournaments: `POST /api/tournament/{id}/join` (with `{"password": "…"}` when it
//! has one and the bot was not invited) and `/withdraw`. Only a tournament whose organiser let
//! bots in takes one; its games come on the event stream as `gameStart`. An id that finds
//! nothing counts as a missed code against the address, and so does a wrong password (taken
//! before the check, given back unless it was wrong), as on the WebSocket.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use oaq_net::protocol::ErrorCode;
use serde::Deserialize;
use serde_json::json;

use super::actions::body;
use super::{ApiError, Bot};
use crate::shared::Server;
use crate::tournaments::{self, Refused};

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    #[serde(default)]
    password: Option<String>,
}

/// A tournament's refusal as the API says it; an unknown id is a missed code.
fn refusal(server: &Server, bot: &Bot, e: Refused) -> ApiError {
    match e {
        Refused::To(ErrorCode::NoSuchTournament, why) => {
            if !server.misses.take(bot.addr.ip()) {
                return ApiError::new(
                    ErrorCode::RateLimited,
                    "too many codes that do not exist: wait a minute",
                );
            }
            ApiError::new(ErrorCode::NoSuchTournament, why)
        }
        Refused::To(code, why) => ApiError::new(code, why),
        Refused::Store(e) => e.into(),
        Refused::WrongPassword => ApiError::new(
            ErrorCode::NotAllowed,
            "that is not the tournament's password",
        ),
    }
}

/// `POST /api/tournament/{id}/join` or `/withdraw`.
pub async fn act(
    State(server): State<Arc<Server>>,
    bot: Bot,
    Path((id, what)): Path<(String, String)>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    if id.len() > oaq_net::protocol::MAX_TOKEN {
        return Err(refusal(
            &server,
            &bot,
            Refused::To(ErrorCode::NoSuchTournament, "no such tournament".into()),
        ));
    }
    let id = id.to_ascii_uppercase();
    let done = match what.as_str() {
        "join" => {
            let JoinBody { password } = if bytes.is_empty() {
                JoinBody::default()
            } else {
                body(&bytes)?
            };
            // A password is a guess: its miss is taken before it is checked, and given back
            // unless it was wrong.
            let guess = password.is_some();
            if guess && !server.misses.take(bot.addr.ip()) {
                return Err(ApiError::new(
                    ErrorCode::RateLimited,
                    "too many wrong codes or passwords: wait a minute",
                ));
            }
            let joined = tournaments::join(&server, &id, &bot.info, false, password).await;
            if guess && !matches!(joined, Err(Refused::WrongPassword)) {
                server.misses.give_back(bot.addr.ip());
            }
            joined
        }
        "withdraw" => tournaments::leave(&server, &id, &bot.info.id).await,
        _ => {
            return Err(ApiError::new(
                ErrorCode::BadMessage,
                "a tournament is joined (`join`) or left (`withdraw`)",
            ));
        }
    };
    done.map_err(|e| refusal(&server, &bot, e))?;
    Ok(axum::Json(json!({ "ok": true })).into_response())
}
