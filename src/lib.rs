//! Ô ăn quan, the Vietnamese game of mandarin square capturing.

pub mod ai;
pub mod art;
pub mod excerpt;
#[cfg(feature = "gui")]
pub mod game;
pub mod net;
pub mod rules;
#[cfg(feature = "server")]
pub mod server;
pub mod session;
pub mod state_json;
