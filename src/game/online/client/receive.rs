//! What the server says, as it arrives: the welcome, refusals, the room's log applied in order,
//! and the probes and lobby asked for every few seconds.

use bevy::platform::time::Instant;
use bevy::prelude::*;

use super::greeting::entered;
use super::identity::{display_name, keep_previous, keep_token};
use super::notices::{people_notice, room_notice};
use super::state::{Lobby, OnlineWrite, Problem, Room, acknowledge, unix_ms};
use super::{LOBBY_EVERY, PING_EVERY};
use crate::game::online::link::{Link, LinkEvent};
use crate::game::online::social::People;
use crate::game::online::tournaments::Tournaments;
use crate::game::state::{Files, Prefs};
use crate::net::protocol::{
    ClientMessage, ErrorCode, Notice, PlayerInfo, RoomEvent, Sequenced, ServerMessage,
};
use bevy::ecs::change_detection::Tick;

/// What the server said this frame.
pub(super) fn receive(
    mut events: MessageReader<LinkEvent>,
    mut online: OnlineWrite,
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
                    .in_room
                    .room
                    .as_ref()
                    .is_some_and(|room| entered(link.greeted(), room));
                online.connection.entered_with_hello = entered;
            }
            LinkEvent::Down(why) => {
                online.connection.entered_with_hello = false;
                info!("online: connection lost ({why}); trying again");
                online.identity.me = None;
                online.connection.ping_sent = None;
            }
            // A pong is the clock probe's bookkeeping: nothing on screen changes with it.
            LinkEvent::Message(msg)
                if matches!(**msg, ServerMessage::Notice(Notice::Pong { .. })) =>
            {
                let tick = online.connection.last_changed();
                handle(&mut online, &mut link, (**msg).clone(), files.as_deref());
                online.connection.set_last_changed(tick);
            }
            // What the screens ask again every few seconds is news only where it changed.
            LinkEvent::Message(msg) if asked_again(msg) => {
                let before = Asked::of(&online);
                handle(&mut online, &mut link, (**msg).clone(), files.as_deref());
                before.unchanged_kept_quiet(&mut online);
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

/// What those messages change (the lobby, people, tournaments), as they were before one, and
/// when each last changed.
struct Asked {
    lobby: (Lobby, Tick),
    people: (People, Tick),
    tournaments: (Tournaments, Tick),
}

impl Asked {
    fn of(online: &OnlineWrite) -> Asked {
        Asked {
            lobby: (online.lobby.clone(), online.lobby.last_changed()),
            people: (online.people.clone(), online.people.last_changed()),
            tournaments: (
                online.tournaments.clone(),
                online.tournaments.last_changed(),
            ),
        }
    }

    /// A part told again as it was is not news: it keeps when it last changed.
    fn unchanged_kept_quiet(self, online: &mut OnlineWrite) {
        fn quiet<T>(part: &mut ResMut<T>, (before, tick): (T, Tick))
        where
            T: Resource<Mutability = bevy::ecs::component::Mutable> + PartialEq,
        {
            if **part == before {
                part.set_last_changed(tick);
            }
        }
        quiet(&mut online.lobby, self.lobby);
        quiet(&mut online.people, self.people);
        quiet(&mut online.tournaments, self.tournaments);
    }
}

fn handle(online: &mut OnlineWrite, link: &mut Link, msg: ServerMessage, files: Option<&Files>) {
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
    online: &mut OnlineWrite,
    link: &mut Link,
    files: Option<&Files>,
    player: PlayerInfo,
    token: String,
    child: bool,
) {
    if online
        .identity
        .me
        .as_ref()
        .is_some_and(|me| me.id != player.id)
    {
        online.correspondence.my_games = None;
    }
    let kept = online.connection.token.as_deref();
    keep_previous(&mut online.identity, kept, files, &player);
    online.people.signed_in_as(&player, child);
    if online.connection.token.as_deref() != Some(&token) {
        keep_token(files, &token);
    }
    online.connection.token = Some(token);
    online.identity.me = Some(player);
    online.connection.last_ping = None;
    // Back in the room we were in, from the last event seen (unless the hello took it along);
    // then anything asked while away.
    let entered = std::mem::take(&mut online.connection.entered_with_hello);
    if let Some(room) = &online.in_room.room {
        if entered {
            let code = &room.code;
            online.connection.queued.retain(|m| {
                !matches!(m, ClientMessage::Join { code: c, .. } | ClientMessage::Watch { code: c, .. } if c == code)
            });
        } else {
            link.send(&room.enter());
        }
    }
    for msg in std::mem::take(&mut online.connection.queued) {
        link.send(&msg);
    }
    // What waits for us (the online home says): our move in games by days, friends'
    // challenges.
    link.send(&ClientMessage::MyGames);
    link.send(&ClientMessage::Challenges);
}

/// A refusal: shown, and what it undoes undone.
fn refused(online: &mut OnlineWrite, link: &mut Link, code: ErrorCode, message: String) {
    warn!("online: the server refused: {code:?}: {message}");
    if code == ErrorCode::UnsupportedProtocol {
        online.connection.incompatible = Some(message.clone());
        link.stop();
    }
    if matches!(
        code,
        ErrorCode::StalePly | ErrorCode::IllegalMove | ErrorCode::NotYourTurn
    ) && let Some(room) = online.in_room.room.as_mut()
    {
        // The board goes back to the room's log (see `table`).
        room.pending = None;
    }
    if matches!(code, ErrorCode::NoSuchRoom | ErrorCode::RoomFull) {
        online.in_room.room = None;
    }
    // The code of a link was refused: there is nothing to ask the player.
    if matches!(
        code,
        ErrorCode::BadCredentials | ErrorCode::NoSuchPlayer | ErrorCode::RateLimited
    ) && online
        .identity
        .offer
        .as_ref()
        .is_some_and(|o| o.owner.is_none())
    {
        online.identity.offer = None;
    }
    // A player we meant is gone from our lists (a block, a ban): ask for them again.
    if code == ErrorCode::NoSuchPlayer && online.people.relations.is_some() {
        link.send(&ClientMessage::Relations);
    }
    online.connection.problem = Some(Problem { code, message });
}

/// One event of the room's log: applied in order; a gap asks for what is missing.
fn apply(online: &mut OnlineWrite, link: &mut Link, event: Sequenced) {
    let Some(room) = online
        .in_room
        .room
        .as_mut()
        .filter(|r| r.code == event.code)
    else {
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
            online.in_room.room = Some(next);
            return;
        }
        _ => {}
    }
    acknowledge(room);
}

/// The clock probe and the lobby, every few seconds.
pub(super) fn keep_up(
    mut online: OnlineWrite,
    mut link: ResMut<Link>,
    mut wake: ResMut<crate::game::state::Wake>,
) {
    if !online.identity.welcomed() || !link.is_open() {
        return;
    }
    let wake = wake.bypass_change_detection();
    wake.within(PING_EVERY);
    // The lobby matters on the online screen, not in a room.
    // A child has no public lobby to ask for.
    let browsing = online.lobby.browsing && online.in_room.room.is_none() && !online.people.child;
    if browsing {
        wake.within(LOBBY_EVERY);
    }
    // Probes are bookkeeping, not news for the screens.
    let connection = online.connection.bypass_change_detection();
    let link = link.bypass_change_detection();
    let now = Instant::now();
    if connection
        .last_ping
        .is_none_or(|t| now.duration_since(t) >= PING_EVERY)
    {
        connection.last_ping = Some(now);
        let id = connection.ping_sent.map_or(1, |(id, _)| id + 1);
        connection.ping_sent = Some((id, unix_ms()));
        link.send(&ClientMessage::Ping { id });
    }
    if browsing
        && connection
            .last_lobby
            .is_none_or(|t| now.duration_since(t) >= LOBBY_EVERY)
    {
        connection.last_lobby = Some(now);
        link.send(&ClientMessage::Lobby);
    }
}

/// Ask for the lobby at once (the screen just opened).
pub fn refresh_lobby(online: &mut OnlineWrite) {
    online.connection.last_lobby = None;
}
