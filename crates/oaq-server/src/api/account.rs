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
use oaq_net::protocol::{ErrorCode, ServerMessage};
use oaq_net::social::{PASSWORD_LEN, clean_login};
use serde::Deserialize;
use serde_json::json;

use super::ApiError;
use super::actions::body;
use crate::conn::new_bot_token;
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
    } = body(&bytes)?;
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
    let token = new_bot_token();
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
    } = body(&bytes)?;
    let player = check_password(&server, addr, &login, password).await?;
    let token = (!revoke).then(new_bot_token);
    let hash = token.as_deref().map(identity::hash_token);
    if !server
        .store
        .set_bot_token(&player, hash.as_deref(), now_ms())
        .await?
    {
        return Err(ApiError::new(
            ErrorCode::NotAllowed,
            "this player is not a bot",
        ));
    }
    let closed = ServerMessage::error(ErrorCode::BadCredentials, "the bot's token was revoked");
    server
        .sign_out(&player, Some(crate::hub::BOT_API), &closed)
        .await;
    Ok(axum::Json(json!({ "token": token })).into_response())
}

/// The player whose sign-in name and password these are. Each try counts against the address
/// and the name before the hash is checked; a right one gives both back.
async fn check_password(
    server: &Arc<Server>,
    addr: SocketAddr,
    login: &str,
    password: String,
) -> Result<String, ApiError> {
    let ip = addr.ip();
    let wrong = || {
        ApiError::new(
            ErrorCode::BadCredentials,
            "the login or the password does not match",
        )
    };
    if !server.wrong_codes.take(ip) {
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            "too many wrong codes or passwords from your address: wait a minute",
        ));
    }
    let Ok(login) = clean_login(login) else {
        return Err(wrong());
    };
    if !server.wrong_passwords.take_key(login.clone()) {
        server.wrong_codes.give_back(ip);
        return Err(ApiError::new(
            ErrorCode::RateLimited,
            format!("too many wrong passwords for {login}: wait a minute"),
        ));
    }
    let give_back = || {
        server.wrong_codes.give_back(ip);
        server.wrong_passwords.give_back_key(login.clone());
    };
    if !server.hashes.take(ip) {
        give_back();
        return Err(busy());
    }
    let account = match server.store.login(&login).await {
        Ok(a) => a,
        Err(e) => {
            give_back();
            return Err(e.into());
        }
    };
    // Without such a name a hash is checked all the same: the answer takes as long.
    let phc = account
        .as_ref()
        .map_or_else(crate::conn::dummy, |a| a.1.clone());
    let right = server
        .hashing
        .run(move || identity::verify_password(&password, &phc))
        .await
        .map_err(|_| {
            give_back();
            busy()
        })?;
    match account {
        Some((player, _)) if right => {
            give_back();
            Ok(player)
        }
        _ => Err(wrong()),
    }
}
