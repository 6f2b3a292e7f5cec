//! What a player keeps for themselves (their practice and puzzle progress): only they write
//! and read it, from any device of theirs, and it names nobody and reaches nobody else. A bot
//! keeps none (its program plays; it does not practise), and a banned player nothing more.

use oaq_net::protocol::ErrorCode;

use crate::refused::{Refused, refused};
use crate::settings::now_ms;
use crate::shared::Server;

/// Whether `player` may keep or read their own training records now.
pub async fn may_keep_own(server: &Server, player: &str) -> Result<(), Refused> {
    let Some(standing) = server.store.standing(player, now_ms()).await? else {
        return Err(refused(ErrorCode::NoSuchPlayer, "the player is gone"));
    };
    if standing.banned {
        return Err(refused(
            ErrorCode::Banned,
            "this player is banned by the server's operators",
        ));
    }
    if standing.bot {
        return Err(refused(
            ErrorCode::NotAllowed,
            "a bot keeps no practice or puzzle progress",
        ));
    }
    Ok(())
}
