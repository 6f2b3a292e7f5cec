//! Bot accounts over HTTP, for a program's owner with nothing but `curl`: `POST /api/bot/new`
//! makes a new player with a sign-in name and turns it into a bot (its token in the answer,
//! shown once), and `POST /api/bot/token` gives a bot a new token (or none, `"revoke": true`)
//! against its sign-in name and password. New players count against the address as guests do,
//! password hashes as on the WebSocket, and a wrong password against the address and the name.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{ConnectInfo, State};
use axum::response::{IntoResponse, Response};
use oaq_net::protocol::ErrorCode;
use oaq_net::social::{PASSWORD_LEN, clean_login};
use serde::Deserialize;
use serde_json::json;

use super::ApiError;
use super::body::json;
use crate::identity;
use crate::settings::now_ms;
use crate::shared::Server;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NewBot {
    name: String,
    login: String,
    password: String,
}

fn password_bounds(password: &str) -> Result<(), ApiError> {
    let (least, most) = PASSWORD_LEN;
    if (least..=most).contains(&password.len()) {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::BadMessage,
        format!(
            "password: {} bytes, it takes {least} to {most}",
            password.len()
        ),
    ))
}

fn busy() -> ApiError {
    ApiError::new(ErrorCode::RateLimited, "many passwords at once: try again")
}

/// `POST /api/bot/new` with `{"name", "login", "password"}`: the new bot and its token.
pub async fn new_bot(
    State(server): State<Arc<Server>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let NewBot {
        name,
        login,
        password,
    } = json(&bytes)?;
    let login = clean_login(&login).map_err(|e| ApiError::new(ErrorCode::BadMessage, e))?;
    password_bounds(&password)?;
    let ip = addr.ip();
    if !server.hashes.take(ip) {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many passwords a minute from your address: wait a minute",
        ));
    }
    let store = &server.store;
    if store.login(&login).await?.is_some() {
        return Err(ApiError::new(
            ErrorCode::NotAllowed,
            format!("login: {login} is taken; choose another"),
        ));
    }
    let phc = server
        .hashing
        .run(move || identity::hash_password(&password))
        .await
        .map_err(|_| busy())?
        .map_err(|e| ApiError::new(ErrorCode::Unavailable, e))?;
    let signed = identity::sign_in(store, &name, None, Some("bot"), false, || {
        server.guests.take(ip)
    })
    .await
    .map_err(|e| match e {
        identity::SignInError::Name(e) => ApiError::new(ErrorCode::BadMessage, e),
        identity::SignInError::TooManyGuests => ApiError::new(
            ErrorCode::RateLimited,
            "too many new players a minute from your address: wait a minute",
        ),
        identity::SignInError::Banned => ApiError::new(ErrorCode::Banned, "banned"),
        identity::SignInError::Store(e) => e.into(),
    })?;
    let id = &signed.player.id;
    match store.set_login(id, &login, &phc).await {
        Ok(()) => {}
        Err(crate::store::StoreError::Conflict) => {
            return Err(ApiError::new(
                ErrorCode::NotAllowed,
                format!("login: {login} is taken; choose another"),
            ));
        }
        Err(e) => return Err(e.into()),
    }
    let token = identity::new_bot_token();
    if let Err(why) = store
        .become_bot(id, &identity::hash_token(&token), now_ms())
        .await?
    {
        return Err(ApiError::new(ErrorCode::NotAllowed, why.message()));
    }
    let mut player = signed.player;
    player.bot = true;
    Ok(axum::Json(json!({ "player": player, "token": token })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TokenRequest {
    login: String,
    password: String,
    #[serde(default)]
    revoke: bool,
}

/// `POST /api/bot/token` with `{"login", "password"}` (and `"revoke": true` for none): a new
/// token for the bot, the old one stopped and its streams closed on every node.
pub async fn token(
    State(server): State<Arc<Server>>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    bytes: Bytes,
) -> Result<Response, ApiError> {
    let TokenRequest {
        login,
        password,
        revoke,
    } = json(&bytes)?;
    let player = crate::policy::sign_in(&server, addr.ip(), &login, password).await?;
    let token = server.replace_bot_token(&player, revoke).await?;
    Ok(axum::Json(json!({ "token": token })).into_response())
}
