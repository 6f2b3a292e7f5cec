//! Ô ăn quan, the Vietnamese game of mandarin square capturing.

pub mod ai;
#[cfg(feature = "gui")]
pub mod game;
pub mod rules;
pub mod session;
pub mod state_json;
