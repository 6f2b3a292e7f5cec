//! Challenges between two players, however they are sent (a WebSocket message, the bot API):
//! who may challenge whom, the caps, and a room opened with both seated when one is accepted.
//!
//! Who may challenge whom is the policy's ([`policy::may_challenge`]), asked when a challenge
//! is sent and again when it is accepted; the room opens from the policy's seating. Refusals
//! name no ids.

use std::sync::Arc;

use oaq_net::protocol::{
    ClockSpec, ErrorCode, First, Notice, PlayerInfo, RulesChoice, ServerMessage,
};
use oaq_net::social::{CHALLENGE_MS, Challenge};

use crate::identity;
use crate::policy::{self, Meeting};
use crate::refused::{Refused, refused};
use crate::room::registry;
use crate::settings::now_ms;
use crate::shared::Server;

/// Refusals name no ids: players read them, and an id means nothing to a person.
pub fn no_player() -> Refused {
    refused(
        ErrorCode::NoSuchPlayer,
        "that player is not there, or not for you to see",
    )
}

/// `me` challenges `player` (an id) to a game of `rules` on `clock`: checked, capped, stored,
/// and told to them (a push when they are away).
pub async fn send(
    server: &Arc<Server>,
    me: &PlayerInfo,
    player: &str,
    rules: &RulesChoice,
    clock: ClockSpec,
) -> Result<Challenge, Refused> {
    let (preset, rules) = rules
        .resolve()
        .map_err(|e| refused(ErrorCode::BadMessage, e))?;
    if rules.players != 2 {
        return Err(refused(
            ErrorCode::BadMessage,
            "rules: a challenge is between two players",
        ));
    }
    clock
        .validate()
        .map_err(|e| refused(ErrorCode::BadMessage, e))?;
    if player == me.id {
        return Err(refused(
            ErrorCode::NotAllowed,
            "you cannot challenge yourself",
        ));
    }
    let store = &server.store;
    let (Some(from), Some(to)) = (store.player(&me.id).await?, store.player(player).await?) else {
        return Err(no_player());
    };
    if !policy::may_see(server, &me.id, player).await? {
        return Err(no_player());
    }
    if !policy::may_challenge(server, &from.info, &to.info).await? {
        return Err(refused(
            ErrorCode::NoSuchPlayer,
            "that player is not among your friends or past opponents",
        ));
    }
    // The cap is counted and the challenge written under the player's lock: two sent at once
    // cannot both pass it.
    let _held = server.player_locks.lock(&[me.id.as_str()]).await;
    let now = now_ms();
    let (waiting, already) = store.challenges_from(&me.id, player, now).await?;
    if already {
        return Err(refused(
            ErrorCode::NotAllowed,
            "your challenge to them is waiting for an answer",
        ));
    }
    let cap = server.settings.challenges_per_player;
    if waiting >= cap {
        return Err(refused(
            ErrorCode::NotAllowed,
            format!("{cap} of your challenges are waiting: cancel one first"),
        ));
    }
    let challenge = Challenge {
        id: identity::new_id(),
        from: from.info,
        to: to.info,
        preset,
        rules,
        clock,
        expires_ms: now + CHALLENGE_MS,
    };
    store.add_challenge(&challenge, now).await?;
    let told = ServerMessage::Notice(Notice::Challenged {
        challenge: challenge.clone(),
    });
    server.tell(player, &told).await;
    let event = oaq_net::notify::Event::Challenged {
        from: me.name.clone(),
    };
    server.tell_away(player, event).await;
    Ok(challenge)
}

/// `me` answers challenge `id`: declined (its sender told), or accepted (a room opens with
/// both seated, and both hear `challenge_accepted`); the room's code when accepted.
pub async fn answer(
    server: &Arc<Server>,
    me: &PlayerInfo,
    id: &str,
    accept: bool,
) -> Result<Option<String>, Refused> {
    let store = &server.store;
    let gone = || {
        refused(
            ErrorCode::NoSuchPlayer,
            "that challenge is no longer open (answered, cancelled or expired)",
        )
    };
    let challenge = match store.challenge(id, now_ms()).await? {
        Some(c) if c.to.id == me.id => c,
        _ => return Err(gone()),
    };
    let new = registry::NewRoom {
        preset: challenge.preset.clone(),
        rules: challenge.rules,
        clock: challenge.clock,
        first: First::Random,
        public: false,
        unrated: false,
        no_chat: false,
    };
    // Accepted: the players are seated by the policy as they are now (one may have turned
    // child mode on, blocked the other, or been banned since the challenge), and refused
    // before the challenge is used up: the player can finish a game first.
    let seating = if accept {
        if !policy::may_challenge(server, &challenge.from, &challenge.to).await? {
            return Err(no_player());
        }
        let players = vec![challenge.from.clone(), challenge.to.clone()];
        Some(policy::seat(server, Meeting::Challenge, new.table(), players).await?)
    } else {
        None
    };
    // Only one answer takes it (two devices answering at once).
    if !store.take_challenge(id).await? {
        return Err(gone());
    }
    if !accept {
        let closed = ServerMessage::Notice(Notice::ChallengeClosed { id: id.to_owned() });
        server.tell(&challenge.from.id, &closed).await;
    }
    let Some(seating) = seating else {
        return Ok(None);
    };
    let room = registry::open_room(server, new, seating).await?;
    let accepted = ServerMessage::Notice(Notice::ChallengeAccepted {
        id: id.to_owned(),
        room: room.clone(),
    });
    server.tell(&challenge.from.id, &accepted).await;
    server.tell(&me.id, &accepted).await;
    Ok(Some(room))
}

/// `me` takes back challenge `id` of theirs (the player challenged is told).
pub async fn cancel(server: &Arc<Server>, me: &PlayerInfo, id: &str) -> Result<(), Refused> {
    let store = &server.store;
    let challenge = match store.challenge(id, now_ms()).await? {
        Some(c) if c.from.id == me.id => c,
        _ => {
            return Err(refused(
                ErrorCode::NoSuchPlayer,
                "that challenge of yours is no longer open",
            ));
        }
    };
    if store.take_challenge(id).await? {
        let closed = ServerMessage::Notice(Notice::ChallengeClosed { id: id.to_owned() });
        server.tell(&challenge.to.id, &closed).await;
    }
    Ok(())
}
