//! Online play's shared parts: the protocol's messages and the game clock. No runtime and no
//! I/O here: the server, the game's client (native and in the browser) and the tests use them.

pub mod clock;
pub mod protocol;
