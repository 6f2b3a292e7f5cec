//! What the server says, as it arrives: the welcome, refusals, the room's log applied in order,
//! and the probes and lobby asked for every few seconds.

use bevy::platform::time::Instant;
use bevy::prelude::*;

use super::greeting::entered;
use super::identity::{display_name, keep_previous, keep_token};
use super::notices::{people_notice, room_notice};
use super::state::{Online, Problem, Room, acknowledge, unix_ms};
use super::{LOBBY_EVERY, PING_EVERY};
use crate::game::online::link::{Link, LinkEvent};
use crate::game::state::{Files, Prefs};
use crate::net::protocol::{
    ClientMessage, ErrorCode, Notice, PlayerInfo, RoomEvent, Sequenced, ServerMessage,
};

/// What the server said this frame.
pub(super) fn receive(
    mut events: MessageReader<LinkEvent>,
    mut online: ResMut<Online>,
    mut link: ResMut<Link>,
    mut prefs: ResMut<Prefs>,
    files: Option<Res<Files>>,
) {
    for event in events.read() {
        // The name the server knows us by, when it is not the one we sent, is ours here too:
        // another device's player came to this one (a link code, a password), or an operator
        // renamed us.
        if let LinkEvent::Message(msg) = event
            && let ServerMessage::Notice(Notice::Welcome { player, .. }) = &**msg
            && player.name != display_name(&prefs.name, prefs.lang())
        {
            prefs.name = player.name.clone();
        }
        match event {
            // The socket said the greeting as it opened (`link`): what it took along.
            LinkEvent::Up => {
                let entered = online
                    .room
                    .as_ref()
                    .is_some_and(|room| entered(link.greeted(), room));
                online.entered_with_hello = entered;
            }
            LinkEvent::Down(why) => {
                online.entered_with_hello = false;
                info!("online: connection lost ({why}); trying again");
                online.me = None;
                online.ping_sent = None;
            }
            // A pong is the clock probe's bookkeeping: nothing on screen changes with it.
            LinkEvent::Message(msg)
                if matches!(**msg, ServerMessage::Notice(Notice::Pong { .. })) =>
            {
                handle(
                    online.bypass_change_detection(),
                    &mut link,
                    (**msg).clone(),
                    files.as_deref(),
                )
            }
            // What the screens ask again every few seconds is news only where it changed.
            LinkEvent::Message(msg) if asked_again(msg) => {
                let quiet = online.bypass_change_detection();
                let before = asked_parts(quiet);
                handle(quiet, &mut link, (**msg).clone(), files.as_deref());
                if asked_parts(quiet) != before {
                    online.set_changed();
                }
            }
            LinkEvent::Message(msg) => {
                handle(&mut online, &mut link, (**msg).clone(), files.as_deref());
            }
        }
    }
}

/// The messages the screens ask for again every few seconds: the lobby and the pools' counts
/// (the home), the friends' list (who is online), a tournament and the tournaments' list.
fn asked_again(msg: &ServerMessage) -> bool {
    matches!(
        msg,
        ServerMessage::Notice(
            Notice::Lobby { .. }
                | Notice::Relations { .. }
                | Notice::Tournament { .. }
                | Notice::Tournaments { .. }
        )
    )
}

/// What those messages change: the lobby, the pools' counts, people, tournaments.
type Asked = (
    Vec<crate::net::protocol::RoomSummary>,
    Vec<crate::net::pool::PoolCount>,
    crate::game::online::social::People,
    crate::game::online::tournaments::Tournaments,
);

fn asked_parts(online: &Online) -> Asked {
    (
        online.lobby.clone(),
        online.pool_counts.clone(),
        online.people.clone(),
        online.tournaments.clone(),
    )
}

fn handle(online: &mut Online, link: &mut Link, msg: ServerMessage, files: Option<&Files>) {
    match msg {
        ServerMessage::Room(event) => apply(online, link, event),
        ServerMessage::Notice(Notice::Welcome {
            player,
            token,
            child,
            ..
        }) => welcomed(online, link, files, player, token, child),
        ServerMessage::Notice(Notice::Error { code, message, .. }) => {
            refused(online, link, code, message)
        }
        ServerMessage::Notice(notice) => {
            if let Some(notice) = room_notice(online, link, notice) {
                people_notice(online, link, notice);
            }
        }
    }
}

/// The server says who we are: kept, and what waited for the welcome is sent.
fn welcomed(
    online: &mut Online,
    link: &mut Link,
    files: Option<&Files>,
    player: PlayerInfo,
    token: String,
    child: bool,
) {
    if online.me.as_ref().is_some_and(|me| me.id != player.id) {
        online.my_games = None;
    }
    keep_previous(online, files, &player);
    online.people.signed_in_as(&player, child);
    if online.token.as_deref() != Some(&token) {
        keep_token(files, &token);
    }
    online.token = Some(token);
    online.me = Some(player);
    online.last_ping = None;
    // Back in the room we were in, from the last event seen (unless the hello took it along);
    // then anything asked while away.
    let entered = std::mem::take(&mut online.entered_with_hello);
    if let Some(room) = &online.room {
        if entered {
            let code = &room.code;
            online.queued.retain(|m| {
                !matches!(m, ClientMessage::Join { code: c, .. } | ClientMessage::Watch { code: c, .. } if c == code)
            });
        } else {
            link.send(&room.enter());
        }
    }
    for msg in std::mem::take(&mut online.queued) {
        link.send(&msg);
    }
    // What waits for us (the online home says): our move in games by days, friends'
    // challenges.
    link.send(&ClientMessage::MyGames);
    link.send(&ClientMessage::Challenges);
}

/// A refusal: shown, and what it undoes undone.
fn refused(online: &mut Online, link: &mut Link, code: ErrorCode, message: String) {
    warn!("online: the server refused: {code:?}: {message}");
    if code == ErrorCode::UnsupportedProtocol {
        online.incompatible = Some(message.clone());
        link.stop();
    }
    if matches!(
        code,
        ErrorCode::StalePly | ErrorCode::IllegalMove | ErrorCode::NotYourTurn
    ) && let Some(room) = online.room.as_mut()
    {
        // The board goes back to the room's log (see `table`).
        room.pending = None;
    }
    if matches!(code, ErrorCode::NoSuchRoom | ErrorCode::RoomFull) {
        online.room = None;
    }
    // The code of a link was refused: there is nothing to ask the player.
    if matches!(
        code,
        ErrorCode::BadCredentials | ErrorCode::NoSuchPlayer | ErrorCode::RateLimited
    ) && online.offer.as_ref().is_some_and(|o| o.owner.is_none())
    {
        online.offer = None;
    }
    // A player we meant is gone from our lists (a block, a ban): ask for them again.
    if code == ErrorCode::NoSuchPlayer && online.people.relations.is_some() {
        link.send(&ClientMessage::Relations);
    }
    online.problem = Some(Problem { code, message });
}

/// One event of the room's log: applied in order; a gap asks for what is missing.
fn apply(online: &mut Online, link: &mut Link, event: Sequenced) {
    let Some(room) = online.room.as_mut().filter(|r| r.code == event.code) else {
        return;
    };
    let (Some(state), Some(seq)) = (room.state.as_mut(), room.seq) else {
        // Before the snapshot: the snapshot will have it.
        return;
    };
    if event.seq <= seq {
        return;
    }
    if event.seq > seq + 1 {
        // Something was missed: the server sends it from the last one seen.
        link.send(&room.enter());
        return;
    }
    if let Err(e) = state.apply(&event.event) {
        error!(
            "online: room {}: {}; fetching the whole room",
            room.code, e.0
        );
        room.seq = None;
        room.state = None;
        link.send(&room.enter());
        return;
    }
    room.seq = Some(event.seq);
    match &event.event {
        RoomEvent::Ended { ratings, .. } => room.ratings = ratings.clone(),
        RoomEvent::Rematch { room: next } => {
            // Both players sit in the new room: follow it.
            let next = Room::new(next.clone(), room.watching);
            link.send(&next.enter());
            online.room = Some(next);
            return;
        }
        _ => {}
    }
    acknowledge(room);
}

/// The clock probe and the lobby, every few seconds.
pub(super) fn keep_up(
    mut online: ResMut<Online>,
    mut link: ResMut<Link>,
    mut wake: ResMut<crate::game::state::Wake>,
) {
    if !online.welcomed() || !link.is_open() {
        return;
    }
    let wake = wake.bypass_change_detection();
    wake.within(PING_EVERY);
    // The lobby matters on the online screen, not in a room.
    // A child has no public lobby to ask for.
    let browsing = online.browsing && online.room.is_none() && !online.people.child;
    if browsing {
        wake.within(LOBBY_EVERY);
    }
    // Probes are bookkeeping, not news for the screens.
    let online = online.bypass_change_detection();
    let link = link.bypass_change_detection();
    let now = Instant::now();
    if online
        .last_ping
        .is_none_or(|t| now.duration_since(t) >= PING_EVERY)
    {
        online.last_ping = Some(now);
        let id = online.ping_sent.map_or(1, |(id, _)| id + 1);
        online.ping_sent = Some((id, unix_ms()));
        link.send(&ClientMessage::Ping { id });
    }
    if browsing
        && online
            .last_lobby
            .is_none_or(|t| now.duration_since(t) >= LOBBY_EVERY)
    {
        online.last_lobby = Some(now);
        link.send(&ClientMessage::Lobby);
    }
}

/// Ask for the lobby at once (the screen just opened).
pub fn refresh_lobby(online: &mut Online) {
    online.last_lobby = None;
}
