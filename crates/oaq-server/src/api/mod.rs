//! The bot API: HTTP on the same server for programs that play as bots (`docs/bot-api.md`).
//! A bot's requests carry its token (`Authorization: Bearer ...`); its event stream and game
//! streams are NDJSON, one JSON object a line, with an empty line every few seconds to keep
//! them open. Every refusal is JSON with the protocol's code:
//! `{"error": {"code": "not_your_turn", "message": "it is not your turn"}}`.
//!
//! Limits: a wrong token counts as a missed code against the address (taken before the token
//! is looked up, given back when it is right); each bot has [`BOT_REQUESTS_PER_MINUTE`]
//! requests a minute, [`EVENT_STREAMS`] event streams and [`GAME_STREAMS`] game streams open
//! on a node; a request body is at most the protocol's frame (a larger one is read to its end,
//! up to a bound, before it is refused: `body`). A token revoked, replaced or
//! banned closes the bot's streams on every node at once, and each stream checks its token
//! again every [`RECHECK`] all the same.
//!
//! [`BOT_REQUESTS_PER_MINUTE`]: crate::shared::BOT_REQUESTS_PER_MINUTE

mod account;
mod actions;
mod body;
mod events;
mod game;
mod stream;
mod tournaments;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::{HeaderMap, StatusCode, header, request::Parts};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use oaq_net::protocol::{ErrorCode, PlayerInfo};
use serde_json::json;

use crate::policy::Guess;
use crate::refused::Refused;
use crate::shared::Server;

/// Event streams one bot may have open on a node (a program reconnecting may overlap its old
/// one for a moment).
pub const EVENT_STREAMS: usize = 2;
/// Game streams one bot may have open on a node: the games it plays at once.
pub const GAME_STREAMS: usize = 32;
/// An empty line this often keeps a stream open through proxies and tells the program the
/// server is there.
pub const KEEP_ALIVE: Duration = Duration::from_secs(5);
/// How often a stream checks that its token still works (a revocation that another node's
/// message did not bring).
pub const RECHECK: Duration = Duration::from_secs(30);

/// The bot API's routes (under `/api`).
pub fn router() -> Router<Arc<Server>> {
    Router::new()
        .route("/api/account", get(actions::account))
        .route("/api/bot/new", post(account::new_bot))
        .route("/api/bot/token", post(account::token))
        .route("/api/bots", get(actions::bots))
        .route("/api/stream/event", get(events::stream))
        .route("/api/bot/game/stream/{code}", get(game::stream))
        .route("/api/bot/game/{code}/move/{mv}", post(actions::play))
        .route("/api/bot/game/{code}/resign", post(actions::resign))
        .route("/api/bot/game/{code}/draw/{answer}", post(actions::draw))
        .route("/api/bot/game/{code}/claim-victory", post(actions::claim))
        .route("/api/bot/game/{code}/chat", post(actions::chat))
        .route("/api/challenge/{player}", post(actions::challenge))
        .route("/api/challenge/{id}/{answer}", post(actions::answer))
        .route("/api/tournament/{id}/{what}", post(tournaments::act))
        .layer(axum::middleware::from_fn(body::bounded))
        .layer(axum::middleware::map_response(json_refusals))
}

/// Every refusal of the API is its JSON. axum's own (a query or a path it cannot read, a body
/// too large or not JSON, a method the route has not) come as plain text: the same status,
/// their text as the message, in the API's shape.
async fn json_refusals(response: Response) -> Response {
    let status = response.status();
    let json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"application/json"));
    if !status.is_client_error() || json {
        return response;
    }
    let body = axum::body::to_bytes(response.into_body(), 4096).await;
    let text = body.map_or_else(
        |_| String::new(),
        |b| String::from_utf8_lossy(&b).trim().to_owned(),
    );
    let code = match status {
        StatusCode::PAYLOAD_TOO_LARGE => ErrorCode::TooLarge,
        StatusCode::UNAUTHORIZED => ErrorCode::BadCredentials,
        StatusCode::TOO_MANY_REQUESTS => ErrorCode::RateLimited,
        _ => ErrorCode::BadMessage,
    };
    let message = if text.is_empty() {
        status.canonical_reason().unwrap_or("refused").to_owned()
    } else {
        text
    };
    let error = json!({ "error": { "code": code, "message": message } });
    (status, axum::Json(error)).into_response()
}

/// A refusal as the API sends it: an HTTP status for the code, and the JSON body.
pub struct ApiError {
    code: ErrorCode,
    message: String,
    legal: Option<Vec<String>>,
}

impl ApiError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            legal: None,
        }
    }

    fn status(&self) -> StatusCode {
        match self.code {
            ErrorCode::BadCredentials => StatusCode::UNAUTHORIZED,
            ErrorCode::Banned | ErrorCode::NotAllowed => StatusCode::FORBIDDEN,
            ErrorCode::NoSuchRoom | ErrorCode::NoSuchPlayer | ErrorCode::NoSuchTournament => {
                StatusCode::NOT_FOUND
            }
            ErrorCode::NotYourTurn | ErrorCode::StalePly | ErrorCode::RoomFull => {
                StatusCode::CONFLICT
            }
            ErrorCode::IllegalMove | ErrorCode::BadMessage | ErrorCode::UnsupportedProtocol => {
                StatusCode::BAD_REQUEST
            }
            ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
            ErrorCode::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        }
    }
}

impl From<Refused> for ApiError {
    fn from(r: Refused) -> Self {
        match r {
            Refused::To(code, message) => ApiError::new(code, message),
            Refused::Store(e) => store_down(e),
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        store_down(e)
    }
}

fn store_down(e: impl std::fmt::Display) -> ApiError {
    tracing::error!("store: {e}");
    ApiError::new(
        ErrorCode::Unavailable,
        "the server could not reach its store; nothing changed: try again",
    )
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let mut error = json!({ "code": self.code, "message": self.message });
        if let Some(legal) = self.legal {
            error["legal"] = json!(legal);
        }
        let mut response = (status, axum::Json(json!({ "error": error }))).into_response();
        if status == StatusCode::TOO_MANY_REQUESTS {
            let wait = header::HeaderValue::from_static("60");
            response.headers_mut().insert(header::RETRY_AFTER, wait);
        }
        response
    }
}

/// The refusal for a command no room took: no such room (as a code not of the bot's games
/// reads), or a room that kept leaving memory.
fn undelivered(code: &str, unloaded: bool) -> ApiError {
    if unloaded {
        ApiError::new(
            ErrorCode::Unavailable,
            format!("room {code} could not be loaded: try again"),
        )
    } else {
        ApiError::new(
            ErrorCode::NoSuchRoom,
            format!("no game of yours in room {code}"),
        )
    }
}

/// The bot a request comes from, by its token, charged one request.
pub struct Bot {
    pub info: PlayerInfo,
    pub addr: SocketAddr,
    /// The token's hash, to check it again while a stream is open.
    pub token_hash: String,
}

impl FromRequestParts<Arc<Server>> for Bot {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, server: &Arc<Server>) -> Result<Bot, ApiError> {
        let ConnectInfo(addr) = ConnectInfo::<SocketAddr>::from_request_parts(parts, server)
            .await
            .map_err(|_| ApiError::new(ErrorCode::Unavailable, "no client address"))?;
        let token = bearer(&parts.headers)?;
        let ip = addr.ip();
        // A wrong token is a guess: counted before the look-up, so that many at once cannot
        // all pass, and given back when it is right. A token found right lately is no guess.
        let token_hash = crate::identity::hash_token(token);
        let known = server.right_tokens.contains(&token_hash);
        let guess = match known {
            true => Guess::uncounted(ip),
            false => Guess::take(&server.misses, ip).map_err(|_| {
                ApiError::new(
                    ErrorCode::RateLimited,
                    "too many wrong tokens or codes from your address: wait a minute",
                )
            })?,
        };
        let row = match server.store.bot_by_token(&token_hash).await {
            Ok(Some(row)) => {
                guess.right();
                server.right_tokens.insert(&token_hash);
                row
            }
            Ok(None) => {
                server.right_tokens.forget(&token_hash);
                guess.wrong();
                if known {
                    // Right a moment ago, wrong now (revoked): a miss all the same.
                    let _ = server.misses.take(ip);
                }
                return Err(ApiError::new(
                    ErrorCode::BadCredentials,
                    "this token is not a bot's (revoked, replaced, or never made)",
                ));
            }
            Err(e) => {
                guess.right();
                return Err(e.into());
            }
        };
        if !server.bot_requests.take_key(row.info.id.clone()) {
            return Err(ApiError::new(
                ErrorCode::RateLimited,
                format!(
                    "more than {} requests a minute from this bot: wait a minute",
                    crate::shared::BOT_REQUESTS_PER_MINUTE
                ),
            ));
        }
        Ok(Bot {
            info: row.info,
            addr,
            token_hash,
        })
    }
}

/// The token of `Authorization: Bearer TOKEN`.
fn bearer(headers: &HeaderMap) -> Result<&str, ApiError> {
    let missing = || {
        ApiError::new(
            ErrorCode::BadCredentials,
            "no token: send `Authorization: Bearer TOKEN` (the token your bot was given)",
        )
    };
    let value = headers.get(header::AUTHORIZATION).ok_or_else(missing)?;
    let text = value.to_str().map_err(|_| missing())?;
    let token = text
        .strip_prefix("Bearer ")
        .or_else(|| text.strip_prefix("bearer "))
        .ok_or_else(missing)?
        .trim();
    if token.is_empty() || token.len() > oaq_net::protocol::MAX_TOKEN {
        return Err(missing());
    }
    Ok(token)
}

/// The room code of one of `bot`'s games, from a path, upper-cased. A code is a guess (taken
/// before the look-up, given back when right): a code that is not one, a room that is not
/// there and a room where the bot has no seat all read the same, so an answer tells a bot
/// nothing of other players' games.
async fn own_game(server: &Server, bot: &Bot, code: &str) -> Result<String, ApiError> {
    let guess = Guess::take(&server.misses, bot.addr.ip()).map_err(|_| {
        ApiError::new(
            ErrorCode::RateLimited,
            "too many wrong tokens or codes from your address: wait a minute",
        )
    })?;
    let code = code.trim().to_ascii_uppercase();
    let seated = code.len() <= oaq_net::protocol::MAX_TOKEN
        && oaq_net::protocol::is_room_code(&code)
        && server.store.holds_seat(&code, &bot.info.id).await?;
    if !seated {
        guess.wrong();
        return Err(ApiError::new(
            ErrorCode::NoSuchRoom,
            format!(
                "no game of yours in room {}",
                oaq_rules::excerpt::quoted(&code)
            ),
        ));
    }
    guess.right();
    Ok(code)
}
