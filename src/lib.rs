//! Ô ăn quan, the Vietnamese game of mandarin square capturing.

pub mod ai;
pub mod art;
pub mod excerpt;
#[cfg(feature = "gui")]
pub mod game;
pub mod net;
pub mod rules;
// The server is never built into the browser's game, which is only its client.
#[cfg(all(feature = "server", not(target_arch = "wasm32")))]
pub mod server;
pub mod session;
pub mod state_json;
