//! What `Position::play` returns: the move's events, with a few questions answered about them.

use super::event::{EndReason, Event, TurnEnd};

/// The events of one move, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub events: Vec<Event>,
}

impl Outcome {
    /// Points the mover captured: stones, and 10 for each mandarin piece.
    pub fn captured(&self) -> u32 {
        self.events
            .iter()
            .map(|e| match *e {
                Event::Capture {
                    stones, mandarin, ..
                } => u32::from(stones) + if mandarin { 10 } else { 0 },
                _ => 0,
            })
            .sum()
    }

    /// Why sowing and capturing stopped (`None` for a `swap`).
    pub fn turn_end(&self) -> Option<TurnEnd> {
        self.events.iter().find_map(|e| match *e {
            Event::TurnEnd { reason } => Some(reason),
            _ => None,
        })
    }

    /// How the game ended, if this move ended it, with the final scores.
    pub fn game_over(&self) -> Option<(EndReason, [i32; 3])> {
        self.events.iter().find_map(|e| match *e {
            Event::GameOver { reason, scores } => Some((reason, scores)),
            _ => None,
        })
    }
}
