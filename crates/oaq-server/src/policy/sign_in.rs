//! A sign-in name and password, however they come (a WebSocket's `sign_in`, the bot API's
//! `/api/bot/token`): a guess like any other, counted against the address before the password
//! is checked, and against the name too unless the address is one the name's owner signed in
//! from lately (a stranger guessing cannot lock her out at home); a right one gives both back.
//! A name that does not exist has a hash checked all the same: the answer takes as long, and
//! tells nobody which names exist.

use std::net::IpAddr;

use oaq_net::protocol::ErrorCode;
use oaq_net::social::clean_login;

use crate::identity;
use crate::refused::{Refused, refused};
use crate::shared::Server;

/// The server is hashing as many passwords as it takes: nothing was checked.
pub fn busy() -> Refused {
    refused(
        ErrorCode::RateLimited,
        "the server is checking many passwords: try again in a moment",
    )
}

/// The player whose sign-in name `login` and password `password` are, from `addr`.
pub async fn sign_in(
    server: &Server,
    addr: IpAddr,
    login: &str,
    password: String,
) -> Result<String, Refused> {
    let wrong = || {
        refused(
            ErrorCode::BadCredentials,
            "the login or the password does not match",
        )
    };
    if !server.wrong_codes.take(addr) {
        return Err(refused(
            ErrorCode::RateLimited,
            "too many wrong codes or passwords from your address: wait a minute",
        ));
    }
    let Ok(login) = clean_login(login) else {
        return Err(wrong());
    };
    let account = match server.store.login(&login).await {
        Ok(account) => account,
        Err(e) => {
            server.wrong_codes.give_back(addr);
            return Err(e.into());
        }
    };
    let known = account
        .as_ref()
        .is_some_and(|(owner, _)| server.known.knows(owner, addr));
    let by_name = !known;
    if by_name && !server.wrong_passwords.take_key(login.clone()) {
        server.wrong_codes.give_back(addr);
        return Err(refused(
            ErrorCode::RateLimited,
            format!("too many wrong passwords for {login}: wait a minute"),
        ));
    }
    let give_back = || {
        server.wrong_codes.give_back(addr);
        if by_name {
            server.wrong_passwords.give_back_key(login.clone());
        }
    };
    // One more hash from this address (never given back: a hash costs the same either way).
    if !server.hashes.take(addr) {
        give_back();
        return Err(refused(
            ErrorCode::RateLimited,
            format!(
                "more than {} passwords a minute from your address: wait a minute",
                server.settings.hashes_per_minute
            ),
        ));
    }
    let phc = account
        .as_ref()
        .map_or_else(identity::dummy_hash, |a| a.1.clone());
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
