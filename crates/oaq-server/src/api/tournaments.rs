//! A bot in tournaments: `POST /api/tournament/{id}/join` (with `{"password": "…"}` when it
//! has one and the bot was not invited) and `/withdraw`. Only a tournament whose organiser let
//! bots in takes one; its games come on the event stream as `gameStart`. Each request is a
//! guess ([`tournaments::guessed`]), as on the WebSocket.

use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use oaq_net::protocol::ErrorCode;
use serde::Deserialize;
use serde_json::json;

use super::body::json;
use super::{ApiError, Bot};
use crate::shared::Server;
use crate::tournaments::{self, Refused};

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinBody {
    #[serde(default)]
    password: Option<String>,
}

/// A tournament's refusal as the API says it.
fn refusal(e: Refused) -> ApiError {
    match e {
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
    let id = id.to_ascii_uppercase();
    let ip = bot.addr.ip();
    let done = match what.as_str() {
        "join" => {
            let JoinBody { password } = if bytes.is_empty() {
                JoinBody::default()
            } else {
                json(&bytes)?
            };
            let joined = tournaments::join(&server, &id, &bot.info, false, password);
            tournaments::guessed(&server, ip, joined).await
        }
        "withdraw" => {
            tournaments::guessed(&server, ip, tournaments::leave(&server, &id, &bot.info.id)).await
        }
        _ => {
            return Err(ApiError::new(
                ErrorCode::BadMessage,
                "a tournament is joined (`join`) or left (`withdraw`)",
            ));
        }
    };
    done.map_err(refusal)?;
    Ok(axum::Json(json!({ "ok": true })).into_response())
}
