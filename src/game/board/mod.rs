//! What the board looks like and where everything is: the layout of both boards in the window
//! (and the phone's safe area), the art drawn at start-up, the board, its pebbles, and the text
//! written on it.

pub mod art;
pub mod layout;
pub mod pebbles;
pub mod safe_area;
pub mod text;
pub mod wood;
