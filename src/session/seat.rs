//! Who plays a seat: a human at the device, or the computer at a level.

use serde::{Deserialize, Serialize};

use crate::ai::Level;

/// The player of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Human,
    /// The computer at level 1..=10.
    Computer(u8),
}

impl Seat {
    pub fn is_human(self) -> bool {
        self == Seat::Human
    }

    /// The computer's level, for a computer seat.
    pub fn level(self) -> Option<Level> {
        match self {
            Seat::Human => None,
            Seat::Computer(n) => Level::get(n),
        }
    }
}
