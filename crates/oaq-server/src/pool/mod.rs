//! Quick pairing ("Play now"): pools of players waiting for a game of one rule set and time
//! control, paired in waves by rating ([`pairing`]). Each node keeps the players connected to
//! it who wait, and vouches for them every wave; one node runs each pool's waves. Alone, that
//! is this node and the members are in memory; with other nodes the members are in Redis and
//! a claim there says which node runs the pool, so a lost node's pools pass to another within
//! a few waves and its players (gone with it) drop out.
//!
//! A player alone after a wave is offered the computer (`pool_alone`, once), at the level
//! rated nearest theirs; they go on waiting meanwhile. Paired games are rated like any other
//! between people. Players who abandoned games recently wait behind the rest and are told why.
//!
//! **Quick pairing** ("Play now"): `pool` with a rule set (`standard`, `basic`) and one of 1+0,
//! 3+2, 5+3, 10+5 and a day a move. The idea is lichess's pools: players are paired in waves (every
//! `--pool-wave-secs`) by rating, each accepting a gap of 100 points at once and 60 more each wave
//! waited, up to 1,000 (the mean of the two windows counts). Sorted by rating, a matching
//! minimising the sum of gaps pairs only neighbours, so each wave's is found exactly by a dynamic
//! programme; leaving a player out costs their window, so every acceptable pair is made and those
//! who waited longest go first (`pairing.rs`; the waves run in `waves.rs`). A player alone after a
//! wave is offered the computer once (`pool_alone` with the level rated nearest theirs, from
//! `assets/ai/ratings.ron`): the game starts an unrated game against it on the device, named "The
//! computer" on the board. Players who abandoned 2 of their last 20 rated games (left and were
//! claimed, or ran out of time while gone: `ended.abandoned`, kept in `rated_games`) are paired
//! after everyone else in each wave and told why (`pooled.paired_last`). Paired games are rated,
//! between people only. On several nodes each node keeps its waiting players and vouches for them
//! every wave in Redis (`oaq:pool:KEY:members` and `:beat`); one node runs each pool, by a claim
//! (`oaq:pool:KEY:runner`) that lapses after four waves unless renewed, so when it is lost another
//! node takes the pool over and drops the lost node's players (stale after three waves). A pair is
//! taken out of Redis by a script that removes both or neither.
//!
//! Pairing quality, `oaq-server pool-bench` (20,000 two-second waves at each rate; ratings
//! around 1500, σ 300; 5 % abandoners; each player gives up after 15–90 waves):
//!
//! | arrivals/min | players | paired | gap p50 | gap p95 | wait p50 | wait p95 | offered the computer | gave up |
//! |---:|---:|---:|---:|---:|---:|---:|---:|---:|
//! | 1 | 696 | 606 | 283 | 717 | 10 s | 88 s | 66.7 % | 12.8 % |
//! | 3 | 2,051 | 2,004 | 210 | 656 | 6 s | 46 s | 59.3 % | 2.2 % |
//! | 10 | 6,806 | 6,796 | 151 | 490 | 4 s | 24 s | 52.7 % | 0.1 % |
//! | 30 | 20,038 | 20,034 | 96 | 318 | 2 s | 12 s | 38.5 % | 0 % |
//! | 100 | 66,925 | 66,918 | 56 | 186 | 0 s | 6 s | 18.0 % | 0 % |
//! | 300 | 200,438 | 200,434 | 36 | 120 | 0 s | 4 s | 5.6 % | 0 % |
//!
//! A small game's pool is often near the top rows: a player alone for a wave is offered the
//! computer, and the gap widens quickly rather than leaving them waiting.

pub mod bench;
pub mod pairing;

use std::collections::{HashMap, HashSet};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use oaq_net::pool::{POOL_RULES, POOLS};
use oaq_net::protocol::{ClockSpec, PlayerInfo};

/// Waves without a heartbeat after which a member counts as gone (their node lost).
pub(crate) const STALE_WAVES: i64 = 3;

/// A pool's name: its rule set and time control, `standard/3+2`.
pub fn key(rules: &str, clock: &ClockSpec) -> String {
    format!("{rules}/{}", clock.label())
}

/// Every pool there is: (key, rules, clock).
pub(crate) fn all_pools() -> impl Iterator<Item = (String, &'static str, ClockSpec)> {
    POOL_RULES.iter().flat_map(|&rules| {
        POOLS
            .iter()
            .map(move |clock| (key(rules, clock), rules, *clock))
    })
}

/// A waiting player, as the pool's runner sees them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Member {
    pub player: PlayerInfo,
    pub joined_ms: i64,
    /// Abandoned games recently: paired after everyone else.
    pub last: bool,
}

/// Who waits where on this node: the player, their pool and the connection that asked.
pub(crate) struct Local {
    pub(crate) key: String,
    pub(crate) conn: u64,
}

#[derive(Default)]
pub struct Pools {
    pub(crate) local: Mutex<HashMap<String, Local>>,
    /// Alone: every pool's members and their heartbeats.
    pub(crate) book: Mutex<HashMap<String, HashMap<String, (Member, i64)>>>,
    /// Players offered the computer already, by pool (kept by whichever node runs it).
    pub(crate) offered: Mutex<HashSet<String>>,
    /// Players left waiting after each pool's last wave: alone, as this node's waves left
    /// them; with other nodes, as each pool's runner last told (`oaq:pool:KEY:waiting`).
    pub(crate) counts: Mutex<HashMap<String, u32>>,
}

impl Pools {
    /// The pools with players waiting after their last wave, on whichever node runs them, for
    /// the lobby.
    pub fn waiting_counts(&self) -> Vec<oaq_net::pool::PoolCount> {
        let counts = lock(&self.counts);
        all_pools()
            .filter_map(|(key, rules, clock)| {
                let waiting = *counts.get(&key).filter(|&&n| n > 0)?;
                Some(oaq_net::pool::PoolCount {
                    rules: rules.to_owned(),
                    clock,
                    waiting,
                })
            })
            .collect()
    }

    /// The pool `player` waits in on this node, if any.
    pub fn waiting(&self, player: &str) -> Option<String> {
        lock(&self.local).get(player).map(|l| l.key.clone())
    }
}

pub(crate) fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
