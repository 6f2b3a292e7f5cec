//! Ô ăn quan, the Vietnamese game of mandarin square capturing.

pub mod art;
#[cfg(feature = "gui")]
pub mod game;

// The layers below the game are crates of their own: the paths the rest of the code and the
// tools use stay.
pub use oaq_ai as ai;
pub use oaq_net as net;
pub use oaq_rules as rules;
pub use oaq_rules::{excerpt, state_json};
pub use oaq_session as session;
