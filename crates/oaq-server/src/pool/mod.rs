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
//! 3+2, 5+3, 10+5 and a day a move. The idea is lichess's pools: players are paired in waves
//! (every `--pool-wave-secs`) by rating, each accepting a gap of 100 points at once and 60 more
//! each wave waited, up to 1,000 (the mean of the two windows counts). Sorted by rating, a
//! matching minimising the sum of gaps pairs only neighbours, so each wave's is found exactly
//! by a dynamic programme; leaving a player out costs their window, so every acceptable pair is
//! made and those who waited longest go first (`src/server/pool/pairing.rs`). A player alone
//! after a wave is offered the computer once (`pool_alone` with the level rated nearest theirs,
//! from `assets/ai/ratings.ron`): the game starts an unrated game against it on the device, named
//! "The computer" on the board. Players who abandoned 2 of their last 20 rated games (left and
//! were claimed, or ran out of time while gone: `ended.abandoned`, kept in `rated_games`) are
//! paired after everyone else in each wave and told why (`pooled.paired_last`). Paired games are
//! rated, between people only. On several nodes each node keeps its waiting players and vouches
//! for them every wave in Redis (`oaq:pool:KEY:members` and `:beat`); one node runs each pool,
//! by a claim (`oaq:pool:KEY:runner`) that lapses after four waves unless renewed, so when it is
//! lost another node takes the pool over and drops the lost node's players (stale after three
//! waves). A pair is taken out of Redis by a script that removes both or neither.
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
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::room::registry;
use crate::settings::now_ms;
use crate::shared::Server;
use oaq_net::pool::{KARMA_GAMES, KARMA_LIMIT, POOL_RULES, POOLS, PairedLast, computer_level};
use oaq_net::protocol::{ClockSpec, ErrorCode, First, Notice, PlayerInfo, ServerMessage};
use oaq_rules::presets;
use pairing::Candidate;

/// Waves without a heartbeat after which a member counts as gone (their node lost).
const STALE_WAVES: i64 = 3;

/// A pool's name: its rule set and time control, `standard/3+2`.
pub fn key(rules: &str, clock: &ClockSpec) -> String {
    format!("{rules}/{}", clock.label())
}

/// Every pool there is: (key, rules, clock).
fn all_pools() -> impl Iterator<Item = (String, &'static str, ClockSpec)> {
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
struct Local {
    key: String,
    conn: u64,
}

#[derive(Default)]
pub struct Pools {
    local: Mutex<HashMap<String, Local>>,
    /// Alone: every pool's members and their heartbeats.
    book: Mutex<HashMap<String, HashMap<String, (Member, i64)>>>,
    /// Players offered the computer already, by pool (kept by whichever node runs it).
    offered: Mutex<HashSet<String>>,
}

impl Pools {
    /// The pool `player` waits in on this node, if any.
    pub fn waiting(&self, player: &str) -> Option<String> {
        lock(&self.local).get(player).map(|l| l.key.clone())
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Put `player` (asking on connection `conn`) in pool `key`, leaving any other pool first.
/// Returns why they will wait behind others, if they will.
pub async fn join(
    server: &Arc<Server>,
    conn: u64,
    player: PlayerInfo,
    rules: &str,
    clock: ClockSpec,
) -> Result<Option<PairedLast>, String> {
    leave(server, &player.id, None).await;
    let abandoned = server
        .store
        .abandoned(&player.id, KARMA_GAMES)
        .await
        .map_err(|e| e.to_string())?;
    let paired_last = (abandoned >= KARMA_LIMIT).then_some(PairedLast {
        abandoned,
        of: KARMA_GAMES,
    });
    let key = key(rules, &clock);
    let now = now_ms();
    let member = Member {
        player: player.clone(),
        joined_ms: now,
        last: paired_last.is_some(),
    };
    match &server.cluster {
        Some(cluster) => {
            let body = serde_json::to_string(&member)
                .unwrap_or_else(|e| unreachable!("members always serialise: {e}"));
            cluster.pool_add(&key, &player.id, &body, now).await?;
        }
        None => {
            lock(&server.pools.book)
                .entry(key.clone())
                .or_default()
                .insert(player.id.clone(), (member, now));
        }
    }
    lock(&server.pools.local).insert(player.id.clone(), Local { key, conn });
    Ok(paired_last)
}

/// Take `player` out of their pool (only if connection `conn` put them there, when given).
/// Returns whether they were waiting.
pub async fn leave(server: &Arc<Server>, player: &str, conn: Option<u64>) -> bool {
    let key = {
        let mut local = lock(&server.pools.local);
        match local.get(player) {
            Some(l) if conn.is_none_or(|c| c == l.conn) => local.remove(player).map(|l| l.key),
            _ => None,
        }
    };
    let Some(key) = key else { return false };
    lock(&server.pools.offered).remove(player);
    match &server.cluster {
        Some(cluster) => {
            if let Err(e) = cluster.pool_remove(&key, player).await {
                // Their heartbeat stops: the runner drops them within a few waves.
                tracing::warn!("leaving a pool: {e}");
            }
        }
        None => {
            if let Some(pool) = lock(&server.pools.book).get_mut(&key) {
                pool.remove(player);
            }
        }
    }
    true
}

/// The waves, every `settings.pool_wave`, until the server stops.
pub async fn run(server: Arc<Server>) {
    let every = server.settings.pool_wave;
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut running: HashSet<String> = HashSet::new();
    let mut stopping = server.stopping.clone();
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = stopping.changed() => return,
        }
        vouch(&server).await;
        for (key, rules, clock) in all_pools() {
            let runs = match &server.cluster {
                None => true,
                Some(cluster) => {
                    // A wave longer than a member's staleness: whoever takes a lost node's
                    // pool finds that node's players stale already.
                    let ms = (every.as_millis() as u64).saturating_mul(STALE_WAVES as u64 + 1);
                    cluster.pool_runner(&key, running.contains(&key), ms).await
                }
            };
            if !runs {
                running.remove(&key);
                continue;
            }
            if running.insert(key.clone()) && server.cluster.is_some() {
                tracing::info!(pool = %key, "running the pool's waves");
            }
            if let Err(e) = wave(&server, &key, rules, clock).await {
                tracing::warn!(pool = %key, "a wave: {e}");
            }
        }
    }
}

/// Renew the heartbeat of every player waiting through this node; forget those another node's
/// wave has paired (their `paired` notice has reached them).
async fn vouch(server: &Arc<Server>) {
    let now = now_ms();
    let waiting: Vec<(String, String)> = lock(&server.pools.local)
        .iter()
        .map(|(p, l)| (p.clone(), l.key.clone()))
        .collect();
    for (player, key) in waiting {
        let still = match &server.cluster {
            Some(cluster) => cluster.pool_beat(&key, &player, now).await.unwrap_or(true),
            None => {
                let mut book = lock(&server.pools.book);
                match book.get_mut(&key).and_then(|p| p.get_mut(&player)) {
                    Some((_, beat)) => {
                        *beat = now;
                        true
                    }
                    None => false,
                }
            }
        };
        if !still {
            lock(&server.pools.local).remove(&player);
        }
    }
}

/// One wave of pool `key`: pair who can be paired, open their rooms, offer the computer to
/// those alone for a wave.
async fn wave(
    server: &Arc<Server>,
    key: &str,
    rules: &str,
    clock: ClockSpec,
) -> Result<(), String> {
    let now = now_ms();
    let wave_ms = server.settings.pool_wave.as_millis().max(1) as i64;
    let members: Vec<(Member, i64)> = match &server.cluster {
        Some(cluster) => cluster
            .pool_members(key)
            .await?
            .into_iter()
            .filter_map(
                |(player, body, beat)| match serde_json::from_str::<Member>(&body) {
                    Ok(m) if m.player.id == player => Some((m, beat)),
                    _ => None,
                },
            )
            .collect(),
        None => lock(&server.pools.book)
            .get(key)
            .map(|p| p.values().cloned().collect())
            .unwrap_or_default(),
    };
    let mut live = Vec::new();
    for (member, beat) in members {
        if now - beat > STALE_WAVES * wave_ms {
            drop_member(server, key, &member.player.id).await;
        } else if let Some(why) = past_cap(server, clock, &member.player.id).await? {
            // In as many games by days as a player may be: out of the pool, told why.
            drop_member(server, key, &member.player.id).await;
            lock(&server.pools.local).remove(&member.player.id);
            let id = &member.player.id;
            server
                .tell(id, &ServerMessage::error(ErrorCode::NotAllowed, why))
                .await;
            server
                .tell(id, &ServerMessage::Notice(Notice::Unpooled))
                .await;
        } else {
            live.push(member);
        }
    }
    if live.is_empty() {
        return Ok(());
    }
    let candidates: Vec<Candidate> = live
        .iter()
        .map(|m| Candidate {
            rating: m.player.rating,
            waves: ((now - m.joined_ms).max(0) / wave_ms) as u32,
            last: m.last,
        })
        .collect();
    // Who blocks whom among them: such players are never paired.
    let mut blocks = HashSet::new();
    for (i, m) in live.iter().enumerate() {
        let theirs = server
            .store
            .blocks_of(&m.player.id)
            .await
            .map_err(|e| e.to_string())?;
        for (j, other) in live.iter().enumerate() {
            if theirs.contains(&other.player.id) {
                blocks.insert((i.min(j), i.max(j)));
            }
        }
    }
    let paired = pairing::pair_except(&candidates, |a, b| blocks.contains(&(a.min(b), a.max(b))));
    for &(a, b) in &paired.pairs {
        let (a, b) = (&live[a], &live[b]);
        if !take(server, key, &a.player.id, &b.player.id).await? {
            continue;
        }
        server
            .metrics
            .pool_paired(now - a.joined_ms.min(b.joined_ms));
        let preset = presets::get(rules).ok_or_else(|| format!("no preset {rules}"))?;
        let players = [a.player.clone(), b.player.clone()];
        let new = registry::NewRoom {
            preset: preset.id.clone(),
            rules: preset.rules,
            clock,
            first: First::Random,
            public: false,
        };
        match registry::open_room(server, new, &players).await {
            Ok(room) => {
                for p in &players {
                    lock(&server.pools.local).remove(&p.id);
                    lock(&server.pools.offered).remove(&p.id);
                    let paired = ServerMessage::Notice(Notice::Paired { room: room.clone() });
                    server.tell(&p.id, &paired).await;
                }
            }
            Err(e) => {
                // Both are out of the pool, and say so (and why, when a cap or a block
                // stood in the way: those are theirs to know).
                let store_failed = matches!(e, registry::OpenRefused::Store(_));
                for p in &players {
                    lock(&server.pools.local).remove(&p.id);
                    if !store_failed {
                        let why = ServerMessage::error(ErrorCode::NotAllowed, e.to_string());
                        server.tell(&p.id, &why).await;
                    }
                    server
                        .tell(&p.id, &ServerMessage::Notice(Notice::Unpooled))
                        .await;
                }
                if store_failed {
                    return Err(format!("opening a paired room: {e}"));
                }
            }
        }
    }
    for &i in &paired.alone {
        let m = &live[i];
        if now - m.joined_ms >= wave_ms && lock(&server.pools.offered).insert(m.player.id.clone()) {
            let level = computer_level(m.player.rating);
            let offer = ServerMessage::Notice(Notice::PoolAlone { level });
            server.tell(&m.player.id, &offer).await;
        }
    }
    Ok(())
}

/// Why `player` may not be paired into one more game of `clock`, if they may not: in as many
/// games by days as one may be.
async fn past_cap(
    server: &Arc<Server>,
    clock: ClockSpec,
    player: &str,
) -> Result<Option<String>, String> {
    if clock.days().is_none() {
        return Ok(None);
    }
    let n = server
        .store
        .correspondence_rooms_of(player)
        .await
        .map_err(|e| e.to_string())?
        .len() as u64;
    let cap = server.settings.correspondence_per_player;
    Ok((n >= cap).then(|| {
        format!("you are in {n} correspondence games, the most at once: finish one first")
    }))
}

async fn drop_member(server: &Arc<Server>, key: &str, player: &str) {
    match &server.cluster {
        Some(cluster) => {
            let _ = cluster.pool_remove(key, player).await;
        }
        None => {
            if let Some(pool) = lock(&server.pools.book).get_mut(key) {
                pool.remove(player);
            }
        }
    }
}

/// Take both out of the pool, or neither.
async fn take(server: &Arc<Server>, key: &str, a: &str, b: &str) -> Result<bool, String> {
    match &server.cluster {
        Some(cluster) => cluster.pool_take(key, a, b).await,
        None => {
            let mut book = lock(&server.pools.book);
            let Some(pool) = book.get_mut(key) else {
                return Ok(false);
            };
            if pool.contains_key(a) && pool.contains_key(b) {
                pool.remove(a);
                pool.remove(b);
                Ok(true)
            } else {
                Ok(false)
            }
        }
    }
}
