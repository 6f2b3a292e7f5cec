//! Ô ăn quan, the Vietnamese game of mandarin square capturing.

pub mod ai;
pub mod rules;
pub mod state_json;
