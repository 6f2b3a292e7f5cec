//! Online play's state: who we are, the room we sit in as its log folds, the lobby and the
//! rest the server last told; a move sent and not yet in the log.

use bevy::platform::time::Instant;
use bevy::prelude::*;

use crate::game::online::follow::{Offer, Previous};
use crate::game::online::link::Link;
use crate::net::correspondence::{MyGame, Vacation};
use crate::net::protocol::{ClientMessage, ErrorCode, PlayerInfo, RatingChange, RoomSummary};
use crate::net::room::RoomState;

/// The server's leaderboard, as last asked.
#[derive(Clone, Debug, PartialEq)]
pub struct Board {
    pub players: Vec<PlayerInfo>,
    pub you: PlayerInfo,
    /// From 1; `None` before a rated game.
    pub place: Option<u64>,
}

/// A move sent and not yet seen in the room's log.
#[derive(Clone, Debug, PartialEq)]
pub struct Pending {
    pub ply: u32,
    pub mv: String,
    pub think_ms: Option<u64>,
}

/// The room we are in.
#[derive(Clone, Debug)]
pub struct Room {
    pub code: String,
    /// Watching, not playing.
    pub watching: bool,
    /// Our seat, once the server has said it.
    pub you: Option<usize>,
    /// The room's log folded, once it has arrived.
    pub state: Option<RoomState>,
    /// The last `seq` applied.
    pub seq: Option<u64>,
    pub pending: Option<Pending>,
    /// The rating changes of the game's end.
    pub ratings: Vec<RatingChange>,
}

impl Room {
    pub(in crate::game::online) fn new(code: String, watching: bool) -> Room {
        Room {
            code,
            watching,
            you: None,
            state: None,
            seq: None,
            pending: None,
            ratings: Vec::new(),
        }
    }

    /// The message that takes (or takes back) our place in it.
    pub(super) fn enter(&self) -> ClientMessage {
        let code = self.code.clone();
        let since = self.seq;
        if self.watching {
            ClientMessage::Watch { code, since }
        } else {
            ClientMessage::Join { code, since }
        }
    }
}

/// A refusal from the server, shown until the next action.
#[derive(Clone, Debug, PartialEq)]
pub struct Problem {
    pub code: ErrorCode,
    pub message: String,
}

/// Online play's state.
#[derive(Resource, Default)]
pub struct Online {
    /// Who the server says we are.
    pub me: Option<PlayerInfo>,
    pub(super) token: Option<String>,
    pub lobby: Vec<RoomSummary>,
    /// How many wait in each pool with anyone waiting, as the lobby last said.
    pub pool_counts: Vec<crate::net::pool::PoolCount>,
    pub leaderboard: Option<Board>,
    /// The bots: those whose program is connected now, and their own leaderboard.
    pub bots: Option<(Vec<PlayerInfo>, Vec<PlayerInfo>)>,
    pub room: Option<Room>,
    pub problem: Option<Problem>,
    /// The server speaks another protocol: no point retrying until the game is updated.
    pub incompatible: Option<String>,
    /// Something to do once welcomed (a room of a link, a room to create).
    pub(super) queued: Vec<ClientMessage>,
    /// The room was asked for right behind this connection's hello, not after the welcome.
    pub(super) entered_with_hello: bool,
    /// The server's clock minus ours, in ms, from the probe with the shortest round trip (one
    /// at the start, then every 30 s: each wakes a sleeping game for a frame).
    pub(super) offset: Option<(i64, i64)>,
    pub(super) ping_sent: Option<(u64, i64)>,
    pub(super) last_ping: Option<Instant>,
    pub(super) last_lobby: Option<Instant>,
    /// Whether the lobby is on screen (asked for every few seconds).
    pub browsing: bool,
    /// Friends, challenges, profiles, chat.
    pub people: crate::game::online::social::People,
    /// Tournaments: the lists, the pages, an invitation.
    pub tournaments: crate::game::online::tournaments::Tournaments,
    /// A room to open in the review once its game is on the board.
    pub review_next: Option<String>,
    /// Our correspondence games and vacation, as last asked.
    pub my_games: Option<(Vec<MyGame>, Vacation)>,
    /// We wait in a pool ("Play now").
    pub pool: Option<PoolWait>,
    /// Our notification settings, as last told.
    pub notifications: Option<NotifyState>,
    /// A code from a link, waiting for the player's yes.
    pub offer: Option<Offer>,
    /// The player this device was before it became another, to go back to.
    pub previous: Option<Previous>,
}

/// What the server says of our notifications.
#[derive(Clone, Debug, PartialEq)]
pub struct NotifyState {
    pub settings: crate::net::notify::NotifySettings,
    /// The server's VAPID key (empty: it sends no pushes).
    pub push_key: String,
    pub devices: u64,
    /// The server sends the daily e-mail.
    pub mail: bool,
}

/// Waiting to be paired.
#[derive(Clone, Debug, PartialEq)]
pub struct PoolWait {
    pub rules: String,
    pub clock: crate::net::protocol::ClockSpec,
    /// Since when, by this device's clock.
    pub since_ms: i64,
    pub paired_last: Option<crate::net::pool::PairedLast>,
    /// Nobody to pair with after a wave: the computer's level offered.
    pub computer: Option<u8>,
}

impl Online {
    /// The token kept from before (a saved file, local storage in the browser).
    pub fn with_token(token: Option<String>) -> Online {
        Online {
            token,
            ..Online::default()
        }
    }

    /// The player this device was before another, kept from before.
    pub fn with_previous(self, previous: Option<Previous>) -> Online {
        Online { previous, ..self }
    }

    /// Whether this device has a player on the server (a token kept from before).
    pub fn has_token(&self) -> bool {
        self.token.is_some()
    }

    pub fn welcomed(&self) -> bool {
        self.me.is_some()
    }

    /// The server's time now, Unix milliseconds, as well as we can tell.
    pub fn server_now(&self) -> i64 {
        unix_ms() + self.offset.map_or(0, |(_, offset)| offset)
    }

    /// The room's fold, once it has arrived.
    pub fn state(&self) -> Option<&RoomState> {
        self.room.as_ref().and_then(|r| r.state.as_ref())
    }

    /// Send `msg` now, or once connected and welcomed.
    pub(super) fn say(&mut self, link: &mut Link, msg: ClientMessage) {
        if !(self.welcomed() && link.send(&msg)) {
            self.queued.push(msg);
        }
    }

    /// Our move `mv`, number `ply` of the room: sent, and sent again after a reconnection
    /// until the room's log has it.
    pub fn send_move(&mut self, link: &mut Link, ply: u32, mv: String, think_ms: Option<u64>) {
        let Some(room) = self.room.as_mut() else {
            return;
        };
        let pending = Pending { ply, mv, think_ms };
        room.pending = Some(pending.clone());
        if self.welcomed() {
            link.send(&move_message(&pending));
        }
    }
}

pub(super) fn move_message(p: &Pending) -> ClientMessage {
    ClientMessage::Move {
        ply: p.ply,
        mv: p.mv.clone(),
        think_ms: p.think_ms,
    }
}

/// Milliseconds since the Unix epoch by this device's clock.
pub fn unix_ms() -> i64 {
    web_time::SystemTime::now()
        .duration_since(web_time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// A pending move the log now has is done.
pub(super) fn acknowledge(room: &mut Room) {
    if let (Some(p), Some(state)) = (&room.pending, &room.state)
        && state.turn() > p.ply
    {
        room.pending = None;
    }
}
