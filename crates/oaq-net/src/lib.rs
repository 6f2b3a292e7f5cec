//! Online play's shared parts: the protocol's messages, the game clock and the room as its log
//! folds. No runtime and no I/O here: the server, the game's client (native and in the
//! browser) and the tests use them.

pub mod clock;
pub mod correspondence;
pub mod notify;
pub mod pool;
pub mod protocol;
pub mod room;
pub mod social;
#[cfg(feature = "tournaments")]
pub mod tournament;
pub mod types;
