//! The server's notices by area: of rooms (ours, the lobby, the leaderboard, the clock's probe)
//! and of people (friends, challenges, chat, tournaments, notifications).

use bevy::prelude::*;

use std::time::Duration;

use super::state::{
    Board, NotifyState, OnlineWrite, PoolWait, Room, acknowledge, move_message, unix_ms,
};
use crate::game::online::link::Link;
use crate::net::protocol::{ClientMessage, Notice};
use crate::net::room::RoomState;

/// A notice of rooms: ours, the lobby, the leaderboard, the clock's probe; any other is given
/// back.
pub(super) fn room_notice(
    online: &mut OnlineWrite,
    link: &mut Link,
    notice: Notice,
) -> Option<Notice> {
    match notice {
        Notice::Created { code } => {
            info!("online: room {code} created");
            online.in_room.room = Some(Room::new(code, false));
        }
        Notice::Lobby { rooms, pools } => {
            online.lobby.rooms = rooms;
            online.lobby.pool_counts = pools;
        }
        Notice::Leaderboard {
            players,
            you,
            place,
        } => {
            // Our rating as it is now, for the online screen too.
            online.identity.me = Some(you.clone());
            online.lobby.leaderboard = Some(Board {
                players,
                you,
                place,
            });
        }
        Notice::Snapshot {
            code,
            seq,
            events,
            you,
            ..
        } => {
            let room = online.in_room.room.as_mut().filter(|r| r.code == code)?;
            match RoomState::from_log(&events) {
                Ok(state) => {
                    room.state = Some(state);
                    room.seq = Some(seq);
                    if you.is_some() {
                        room.you = you;
                    }
                    acknowledge(room);
                }
                Err(e) => error!("online: room {code}'s log does not fold: {}", e.0),
            }
        }
        Notice::Seat { code, seat } => {
            if let Some(room) = online.in_room.room.as_mut().filter(|r| r.code == code) {
                room.you = seat;
                room.watching = seat.is_none();
                // Caught up: a move still not in the log goes again.
                if let Some(p) = &room.pending {
                    link.send(&move_message(p));
                }
            }
        }
        Notice::Left { code } => {
            if online.in_room.room.as_ref().is_some_and(|r| r.code == code) {
                online.in_room.room = None;
            }
        }
        Notice::Pong { id, at_ms } => {
            if let Some((sent_id, sent_at)) = online.connection.ping_sent.take()
                && sent_id == id
            {
                let now = unix_ms();
                let rtt = (now - sent_at).max(0);
                let offset = at_ms - (sent_at + now) / 2;
                if online.connection.offset.is_none_or(|(best, _)| rtt <= best) {
                    online.connection.offset = Some((rtt, offset));
                }
            }
        }
        Notice::Reconnect { after_ms } => {
            link.reconnect_after(Duration::from_millis(after_ms.min(10_000)));
            online.identity.me = None;
        }
        other => return Some(other),
    }
    None
}

/// The other notices: people, games by days, pools, notifications.
pub(super) fn people_notice(online: &mut OnlineWrite, link: &mut Link, notice: Notice) {
    match notice {
        Notice::ChallengeAccepted { id, room } => {
            // A challenge of ours or to us was accepted: its room is open with both seated.
            info!("online: challenge accepted, room {room}");
            let accepted = Notice::ChallengeAccepted {
                id,
                room: room.clone(),
            };
            online.people.take(&accepted, unix_ms());
            enter(online, link, room);
        }
        Notice::CodeOwner { kind, code, player } => {
            if let Some(offer) = online.identity.offer.as_mut() {
                offer.told(kind, &code, player);
            }
        }
        Notice::MyGames { games, vacation } => {
            online.correspondence.my_games = Some((games, vacation))
        }
        Notice::Bots {
            online: connected,
            leaderboard,
        } => online.lobby.bots = Some((connected, leaderboard)),
        Notice::Notifications {
            settings,
            push_key,
            devices,
            mail,
        } => {
            online.correspondence.notifications = Some(NotifyState {
                settings,
                push_key,
                devices,
                mail,
            })
        }
        Notice::YourTurn { code } => {
            online.people.news = Some(crate::game::online::social::News::YourTurn(code));
            link.send(&ClientMessage::MyGames);
        }
        notice @ (Notice::Pooled { .. }
        | Notice::PoolAlone { .. }
        | Notice::Unpooled
        | Notice::Paired { .. }) => pool_notice(online, link, notice),
        notice @ (Notice::LinkCode { .. }
        | Notice::RecoveryCode { .. }
        | Notice::Devices { .. }
        | Notice::Profile { .. }
        | Notice::Relations { .. }
        | Notice::FriendRequest { .. }
        | Notice::FriendAccepted { .. }
        | Notice::Challenges { .. }
        | Notice::Challenged { .. }
        | Notice::ChallengeClosed { .. }
        | Notice::Chat { .. }
        | Notice::Reported { .. }) => {
            online.people.take(&notice, unix_ms());
        }
        notice @ (Notice::Tournaments { .. }
        | Notice::Tournament { .. }
        | Notice::TournamentInvite { .. }) => tournament_notice(online, notice),
        _ => {}
    }
}

/// Room `code` opened with us seated (a challenge accepted, a pairing): entered.
fn enter(online: &mut OnlineWrite, link: &mut Link, code: String) {
    let entering = Room::new(code, false);
    link.send(&entering.enter());
    online.in_room.room = Some(entering);
}

/// The pool's news: waiting in it, the computer offered, out of it, paired.
fn pool_notice(online: &mut OnlineWrite, link: &mut Link, notice: Notice) {
    match notice {
        Notice::Pooled {
            rules,
            clock,
            paired_last,
        } => {
            online.lobby.pool = Some(PoolWait {
                rules,
                clock,
                since_ms: unix_ms(),
                paired_last,
                computer: None,
            });
        }
        Notice::PoolAlone { level } => {
            if let Some(pool) = online.lobby.pool.as_mut() {
                pool.computer = Some(level);
            }
        }
        Notice::Unpooled => online.lobby.pool = None,
        Notice::Paired { room } => {
            // Paired: the room is open with both seated and the game begun.
            info!("online: paired, room {room}");
            online.lobby.pool = None;
            enter(online, link, room);
        }
        _ => {}
    }
}

/// Tournaments' news: lists, a page, an invitation (news to show).
fn tournament_notice(online: &mut OnlineWrite, notice: Notice) {
    if let Notice::TournamentInvite { from, line } = &notice {
        let news = crate::game::online::social::News::TournamentInvite(
            from.name.clone(),
            line.name.clone(),
        );
        online.people.news = Some(news);
    }
    let me = online.identity.me.as_ref().map(|p| p.id.clone());
    online.tournaments.take(notice, me.as_deref());
}
