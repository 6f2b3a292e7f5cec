//! The pools' waves (`pool` holds who waits): a player joins and leaves, a node vouches for its
//! waiting players every wave, and the node that runs a pool pairs a wave and opens the rooms.

use std::collections::HashSet;
use std::sync::Arc;

use crate::pool::{Local, Member, STALE_WAVES, all_pools, key, lock, pairing};
use crate::room::registry;
use crate::settings::now_ms;
use crate::shared::Server;
use oaq_net::pool::{KARMA_GAMES, KARMA_LIMIT, PairedLast, computer_level};
use oaq_net::protocol::{ClockSpec, ErrorCode, First, Notice, PlayerInfo, ServerMessage};
use oaq_rules::presets;
use pairing::Candidate;

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
                    let ms = claim_ms(&server);
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
        gather_counts(&server).await;
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
    let live = live_members(server, key, clock, now, wave_ms).await?;
    if live.is_empty() {
        lock(&server.pools.counts).remove(key);
        publish_count(server, key, 0).await;
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
    let blocks = blocks_among(server, &live).await?;
    let paired = pairing::pair_except(&candidates, |a, b| blocks.contains(&(a.min(b), a.max(b))));
    let left = u32::try_from(paired.alone.len()).unwrap_or(u32::MAX);
    lock(&server.pools.counts).insert(key.to_owned(), left);
    publish_count(server, key, left).await;
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
            unrated: false,
            no_chat: false,
        };
        open_paired(server, new, &players).await?;
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

/// On several nodes, tell the others how many wait in pool `key`, which this node runs; the
/// count lapses as the claim does, with a lost node.
async fn publish_count(server: &Arc<Server>, key: &str, count: u32) {
    let Some(cluster) = &server.cluster else {
        return;
    };
    let ms = claim_ms(server);
    if let Err(e) = cluster.pool_count_set(key, count, ms).await {
        tracing::warn!(pool = %key, "telling the pool's count: {e}");
    }
}

/// On several nodes, every pool's count as its runner last told it, for this node's lobby: the
/// same counts whichever node a player asks. A count not read keeps the last one known.
async fn gather_counts(server: &Arc<Server>) {
    let Some(cluster) = &server.cluster else {
        return;
    };
    let keys: Vec<String> = all_pools().map(|(key, _, _)| key).collect();
    match cluster.pool_counts(&keys).await {
        Ok(counts) => {
            let mut known = lock(&server.pools.counts);
            for (key, count) in keys.into_iter().zip(counts) {
                match count {
                    Some(n) if n > 0 => known.insert(key, n),
                    _ => known.remove(&key),
                };
            }
        }
        Err(e) => tracing::warn!("reading the pools' counts: {e}"),
    }
}

/// How long a pool's claim (and its count) lasts: longer than a member's staleness, so that
/// whoever takes a lost node's pool finds that node's players stale already.
fn claim_ms(server: &Server) -> u64 {
    let every = server.settings.pool_wave.as_millis() as u64;
    every.saturating_mul(STALE_WAVES as u64 + 1)
}

/// Pool `key`'s members with their last heartbeat, from the cluster's book or this node's.
async fn members_of(server: &Arc<Server>, key: &str) -> Result<Vec<(Member, i64)>, String> {
    Ok(match &server.cluster {
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
    })
}

/// The members who may be paired this wave: those silent too long are dropped, and so are
/// those in as many games by days as a player may be (told why).
async fn live_members(
    server: &Arc<Server>,
    key: &str,
    clock: ClockSpec,
    now: i64,
    wave_ms: i64,
) -> Result<Vec<Member>, String> {
    let mut live = Vec::new();
    for (member, beat) in members_of(server, key).await? {
        if now - beat > STALE_WAVES * wave_ms {
            drop_member(server, key, &member.player.id).await;
        } else if let Some(why) = past_cap(server, clock, &member.player.id).await? {
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
    Ok(live)
}

/// Who may not be paired among them, as pairs of indices (lower first): the policy's
/// [`crate::policy::apart`] for a pool (blocks, children, bots, bans).
async fn blocks_among(
    server: &Arc<Server>,
    live: &[Member],
) -> Result<HashSet<(usize, usize)>, String> {
    let ids: Vec<&str> = live.iter().map(|m| m.player.id.as_str()).collect();
    crate::policy::apart(server, crate::policy::Meeting::Pool, &ids)
        .await
        .map_err(|e| e.to_string())
}

/// A paired room opened and both told; or, refused, both out of the pool and told why when a
/// cap or a block stood in the way (those are theirs to know). A store that failed is an error.
async fn open_paired(
    server: &Arc<Server>,
    new: registry::NewRoom,
    players: &[PlayerInfo; 2],
) -> Result<(), String> {
    let meeting = crate::policy::Meeting::Pool;
    match registry::seat_and_open(server, meeting, new, players.to_vec()).await {
        Ok(room) => {
            for p in players {
                lock(&server.pools.local).remove(&p.id);
                lock(&server.pools.offered).remove(&p.id);
                let paired = ServerMessage::Notice(Notice::Paired { room: room.clone() });
                server.tell(&p.id, &paired).await;
            }
            Ok(())
        }
        Err(e) => {
            let store_failed = matches!(e, registry::OpenRefused::Store(_));
            for p in players {
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
            Ok(())
        }
    }
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
