//! Who plays a seat: a human at the device, the computer at a level, or a player at another
//! device whose moves arrive from the server.

use serde::{Deserialize, Serialize};

use oaq_ai::Level;

/// The player of one seat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Seat {
    Human,
    /// The computer at level 1..=10.
    Computer(u8),
    /// A player elsewhere (online): neither this device's input nor its computer moves here.
    Remote,
}

impl Seat {
    pub fn is_human(self) -> bool {
        self == Seat::Human
    }

    /// The computer's level, for a computer seat.
    pub fn level(self) -> Option<Level> {
        match self {
            Seat::Human | Seat::Remote => None,
            Seat::Computer(n) => Level::get(n),
        }
    }
}
