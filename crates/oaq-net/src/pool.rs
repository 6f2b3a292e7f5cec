//! Quick pairing as the protocol carries it: the pools a player may join ("Play now"), what
//! the server says while they wait, and the computer's level offered to a player nobody was
//! paired with. A pool is a rule set and a time control; the server pairs its players in waves
//! by rating (see the server's `pool` module for how).
//!
//! ```
//! use oaq_net::pool::{POOLS, computer_level};
//! assert_eq!(POOLS[1].label(), "3+2");
//! // The computer offered to a new player (1500) is the level rated nearest.
//! assert!((1..=10).contains(&computer_level(1500.0)));
//! assert!(computer_level(2400.0) > computer_level(1000.0));
//! ```

use serde::{Deserialize, Serialize};

use crate::types::ClockSpec;

/// The time controls of "Play now": 1+0, 3+2, 5+3, 10+5 and a day a move.
pub const POOLS: [ClockSpec; 5] = [
    ClockSpec::Fischer {
        base_ms: 60_000,
        increment_ms: 0,
    },
    ClockSpec::Fischer {
        base_ms: 180_000,
        increment_ms: 2_000,
    },
    ClockSpec::Fischer {
        base_ms: 300_000,
        increment_ms: 3_000,
    },
    ClockSpec::Fischer {
        base_ms: 600_000,
        increment_ms: 5_000,
    },
    ClockSpec::Correspondence { days: 1 },
];

/// The rule sets pools are kept for (two players each).
pub const POOL_RULES: [&str; 2] = ["standard", "basic"];

/// Recent rated games looked at for abandonment, and how many abandoned among them put a player
/// last in the pool.
pub const KARMA_GAMES: u32 = 20;
pub const KARMA_LIMIT: u32 = 2;

/// Why a player waits behind the others.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PairedLast {
    /// Games of their last [`KARMA_GAMES`] rated ones that they abandoned (left, or let the
    /// clock run out while gone).
    pub abandoned: u32,
    pub of: u32,
}

/// How many players wait in one pool, as the lobby tells it (after the pool's last wave).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PoolCount {
    /// One of [`POOL_RULES`].
    pub rules: String,
    /// One of [`POOLS`].
    pub clock: ClockSpec,
    pub waiting: u32,
}

/// The level (1..=10) of the computer whose rating is nearest `rating`.
pub fn computer_level(rating: f64) -> u8 {
    let shipped = &oaq_ai::Ratings::shipped().ratings;
    shipped
        .iter()
        .min_by_key(|&&(_, r)| (f64::from(r) - rating).abs() as i64)
        .map_or(5, |&(level, _)| level)
}
