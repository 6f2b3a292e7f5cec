//! Online play's state, a resource for each part that changes on its own (the connection, who
//! we are, the lobby, the room we sit in as its log folds, people, tournaments, games by
//! days); a move sent and not yet in the log.

use bevy::ecs::system::SystemParam;
use bevy::platform::time::Instant;
use bevy::prelude::*;

use crate::game::online::follow::{Offer, Previous};
use crate::game::online::link::Link;
use crate::game::online::social::People;
use crate::game::online::tournaments::Tournaments;
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

/// The connection's own state: the token, what went wrong, what waits for the welcome, the
/// clock's offset and the probes' and lobby's timers (bookkeeping, not news for the screens).
#[derive(Resource, Default)]
pub struct Connection {
    pub(super) token: Option<String>,
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
}

impl Connection {
    /// The token kept from before (a saved file, local storage in the browser).
    pub fn with_token(token: Option<String>) -> Connection {
        Connection {
            token,
            ..Connection::default()
        }
    }

    /// Whether this device has a player on the server (a token kept from before).
    pub fn has_token(&self) -> bool {
        self.token.is_some()
    }

    /// The server's time now, Unix milliseconds, as well as we can tell.
    pub fn server_now(&self) -> i64 {
        unix_ms() + self.offset.map_or(0, |(_, offset)| offset)
    }
}

/// Who we are: the server's word, a link's code waiting for a yes, the player before.
#[derive(Resource, Default)]
pub struct Identity {
    /// Who the server says we are.
    pub me: Option<PlayerInfo>,
    /// A code from a link, waiting for the player's yes.
    pub offer: Option<Offer>,
    /// The player this device was before it became another, to go back to.
    pub previous: Option<Previous>,
}

impl Identity {
    /// The player this device was before another, kept from before.
    pub fn with_previous(previous: Option<Previous>) -> Identity {
        Identity {
            previous,
            ..Identity::default()
        }
    }

    pub fn welcomed(&self) -> bool {
        self.me.is_some()
    }
}

/// The lobby: the open rooms, the pools, the leaderboards, our wait in a pool.
#[derive(Resource, Default, Clone, PartialEq)]
pub struct Lobby {
    pub rooms: Vec<RoomSummary>,
    /// How many wait in each pool with anyone waiting, as the lobby last said.
    pub pool_counts: Vec<crate::net::pool::PoolCount>,
    pub leaderboard: Option<Board>,
    /// The bots: those whose program is connected now, and their own leaderboard.
    pub bots: Option<(Vec<PlayerInfo>, Vec<PlayerInfo>)>,
    /// Whether the lobby is on screen (asked for every few seconds).
    pub browsing: bool,
    /// We wait in a pool ("Play now").
    pub pool: Option<PoolWait>,
}

/// The room we sit in, and the one to review next.
#[derive(Resource, Default)]
pub struct InRoom {
    pub room: Option<Room>,
    /// A room to open in the review once its game is on the board.
    pub review_next: Option<String>,
}

impl InRoom {
    /// The room's fold, once it has arrived.
    pub fn state(&self) -> Option<&RoomState> {
        self.room.as_ref().and_then(|r| r.state.as_ref())
    }
}

/// Games by days and how we hear of them.
#[derive(Resource, Default)]
pub struct Correspondence {
    /// Our correspondence games and vacation, as last asked.
    pub my_games: Option<(Vec<MyGame>, Vacation)>,
    /// Our notification settings, as last told.
    pub notifications: Option<NotifyState>,
}

/// The parts of online play's state, named once: the read and write parameters and the plain
/// view are made from the one list.
macro_rules! online_parts {
    ($($part:ident: $ty:ty),* $(,)?) => {
        /// Online play's state, read: each part a resource of its own, so that a screen drawn
        /// from one part is not drawn again when another changes.
        #[derive(SystemParam)]
        pub struct OnlineRead<'w> {
            $(pub $part: Res<'w, $ty>,)*
        }

        /// Online play's state, to change: a part is marked changed only where it is written.
        #[derive(SystemParam)]
        pub struct OnlineWrite<'w> {
            $(pub $part: ResMut<'w, $ty>,)*
        }

        /// Online play's state as plain references, for what reads several parts (a page, a
        /// line).
        #[derive(Clone, Copy)]
        pub struct Online<'a> {
            $(pub $part: &'a $ty,)*
        }

        impl<'a> Online<'a> {
            /// The parts as they are in `world` (each must be there).
            pub fn of(world: &'a World) -> Online<'a> {
                Online { $($part: world.resource(),)* }
            }
        }

        impl OnlineRead<'_> {
            pub fn view(&self) -> Online<'_> {
                Online { $($part: &self.$part,)* }
            }

            /// Whether any part changed since the system last ran.
            pub fn changed(&self) -> bool {
                false $(|| self.$part.is_changed())*
            }
        }

        impl OnlineWrite<'_> {
            pub fn view(&self) -> Online<'_> {
                Online { $($part: &self.$part,)* }
            }
        }
    };
}

online_parts! {
    connection: Connection,
    identity: Identity,
    lobby: Lobby,
    in_room: InRoom,
    people: People,
    tournaments: Tournaments,
    correspondence: Correspondence,
}

impl OnlineWrite<'_> {
    /// Send `msg` now, or once connected and welcomed.
    pub(super) fn say(&mut self, link: &mut Link, msg: ClientMessage) {
        if !(self.identity.welcomed() && link.send(&msg)) {
            // Kept, not shown: no news for the screens.
            self.connection.bypass_change_detection().queued.push(msg);
        }
    }

    /// Our move `mv`, number `ply` of the room: sent, and sent again after a reconnection
    /// until the room's log has it.
    pub fn send_move(&mut self, link: &mut Link, ply: u32, mv: String, think_ms: Option<u64>) {
        let welcomed = self.identity.welcomed();
        let Some(room) = self.in_room.room.as_mut() else {
            return;
        };
        let pending = Pending { ply, mv, think_ms };
        room.pending = Some(pending.clone());
        if welcomed {
            link.send(&move_message(&pending));
        }
    }
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
