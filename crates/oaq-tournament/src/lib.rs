//! Tournaments' pure parts, with no clock, store or network: who meets whom and who stands
//! where. The server runs tournaments with them; the game shows their standings.
//!
//! - [`berger`]: a round robin's rounds (Berger tables), once or twice with the seats swapped.
//! - [`swiss`]: a Swiss's round by the Dutch system: score groups, the bye, first moves and
//!   floats ranked as the system ranks them, by one maximum-weight matching.
//! - [`arena`]: an arena's wave, pairing the players waiting by rank and rating with a
//!   maximum-weight matching, with no immediate rematch and the first move balanced.
//! - [`FirstMoves`]: a player's run and balance of games as first mover.
//! - [`Sheet`]: a player's results and points, an arena's streak included, and
//!   [`tiebreak`]s (Buchholz, Sonneborn–Berger).
//!
//! Players are numbered `0..n` in the order the tournament lists them.
//!
//! ```
//! use oaq_tournament::berger;
//! // Four players meet each other once: three rounds of two games.
//! let rounds = berger::rounds(4, false);
//! assert_eq!(rounds.len(), 3);
//! assert!(rounds.iter().all(|round| round.games.len() == 2 && round.bye.is_none()));
//! ```

pub mod arena;
pub mod berger;
mod firsts;
mod matching;
mod sheet;
pub mod swiss;
pub mod tiebreak;
mod tournament;

pub use firsts::FirstMoves;
pub use sheet::{Outcome, Result, Scoring, Sheet};
pub use tournament::{
    ARENA_MINUTES, ARENA_PLAYERS, Entrant, Format, KEPT_APART, Phase, Presence,
    ROUND_ROBIN_PLAYERS, Refused, SWISS_INTERVAL_SECS, SWISS_PLAYERS, SWISS_ROUNDS, Tournament,
};

/// One game of a tournament: `first` moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Pairing {
    pub first: usize,
    pub second: usize,
}

impl Pairing {
    /// Whether `player` plays in it.
    pub fn has(&self, player: usize) -> bool {
        self.first == player || self.second == player
    }

    /// `player`'s opponent, if `player` plays in it.
    pub fn opponent(&self, player: usize) -> Option<usize> {
        match player {
            p if p == self.first => Some(self.second),
            p if p == self.second => Some(self.first),
            _ => None,
        }
    }
}
