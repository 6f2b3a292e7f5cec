//! The game's side of the protocol: who we are on the server (the token, kept like the
//! settings), the room we sit in as its log folds (the same fold as the server's), the lobby,
//! and what must be said again after a reconnection (hello, the room with the last `seq` seen,
//! a move not yet acknowledged). Its files, lowest first: the state, the device's identity,
//! the greeting a socket says as it opens, the notices by area, what arrives, what the player
//! asks.

use std::time::Duration;

use bevy::prelude::*;

mod ask;
mod greeting;
mod identity;
mod notices;
mod receive;
mod state;

pub use ask::Ask;
pub use greeting::greeting;
pub use identity::{device_label, display_name, kept_token};
pub use receive::refresh_lobby;
pub use state::{
    Board, Connection, Correspondence, Identity, InRoom, Lobby, NotifyState, Online, OnlineRead,
    OnlineWrite, Pending, PoolWait, Problem, Room, unix_ms,
};

/// How often the lobby is asked again while it is on screen, and the clock probe sent.
const LOBBY_EVERY: Duration = Duration::from_secs(4);
const PING_EVERY: Duration = Duration::from_secs(30);

pub(super) fn plugin(app: &mut App) {
    app.add_observer(ask::ask)
        .add_observer(ask::answer_offer)
        .add_observer(identity::go_back);
    app.add_systems(
        Update,
        (receive::receive, receive::keep_up)
            .chain()
            .after(super::link::pump)
            .in_set(crate::game::state::GameSet::Input),
    );
    // The greeting is made again, when what it says may have changed, before the frame's end
    // where the link opens the sockets asked for or due.
    app.add_systems(
        PostUpdate,
        greeting::greet.before(super::link::flush).run_if(
            resource_changed::<Connection>
                .or_eager(resource_changed::<InRoom>)
                .or_eager(resource_changed::<crate::game::state::Prefs>)
                .or_eager(resource_changed::<super::link::Link>),
        ),
    );
}
