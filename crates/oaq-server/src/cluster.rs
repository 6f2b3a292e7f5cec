//! Several nodes on one PostgreSQL and one Redis. Redis carries:
//! - which node owns a room (`oaq:room:CODE:owner`, a key that expires unless its owner renews
//!   it): the owner keeps the room's clocks, and another node takes over when it is gone;
//! - the room's write lease (`oaq:room:CODE:lease`, a few seconds): whoever writes the next
//!   event holds it, whichever node the player is connected to;
//! - the fan-out: each event is published on `oaq:room:CODE`, and every node with players in
//!   the room passes it on to them.
//!
//! - players' notices (`oaq:players`): a friend request, a challenge or a chat phrase for a
//!   player connected to another node, and sign-outs (a revoked device);
//! - presence (`oaq:here:PLAYER`, the node a player is connected to, renewed while they are).
//!
//! - the pools of quick pairing (`oaq:pool:KEY:…`, in `cluster::pools`).
//!
//! The store stays the truth: a node that misses a message reads the log from PostgreSQL.

mod pools;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::StreamExt;
use oaq_net::protocol::Sequenced;
use redis::aio::{ConnectionManager, ConnectionManagerConfig, PubSubSink, PubSubStream};
use redis::{AsyncCommands, Script};
use tokio::sync::mpsc;

use crate::hub::Hub;
use crate::mailbox::Command;
use crate::metrics::Metrics;

/// The channel of players' notices, which every node follows.
const PLAYERS: &str = "oaq:players";
/// How long a presence lasts unless renewed (renewed every `PRESENCE_EVERY`).
const PRESENCE_MS: u64 = 30_000;
pub const PRESENCE_EVERY: Duration = Duration::from_secs(10);

/// A notice for a player, through `oaq:players`.
#[derive(serde::Serialize, serde::Deserialize)]
struct ToPlayer {
    /// The node that sent it (it has already delivered it to its own connections).
    node: String,
    player: String,
    frame: String,
    /// Close the player's connections after the frame: all of them, or one device's.
    #[serde(default)]
    sign_out: bool,
    #[serde(default)]
    device: Option<String>,
}

/// How long an owner's claim lasts unless renewed (renewed every 3 s).
const OWNER_MS: u64 = 10_000;
/// How long a write lease lasts at most (a write takes milliseconds).
const LEASE_MS: u64 = 3_000;

#[derive(Clone)]
pub struct Cluster {
    node: String,
    conn: ConnectionManager,
    /// The subscription's sending half; `None` while it is being made again.
    sink: Arc<tokio::sync::Mutex<Option<PubSubSink>>>,
    follows: Follows,
    /// The longest wait for one command: past it, Redis counts as down and the request is
    /// refused with `unavailable` instead of hanging.
    wait: Duration,
    metrics: Arc<Metrics>,
}

/// What the subscription routes to: rooms followed here, and players connected here.
#[derive(Clone)]
struct Routes {
    node: String,
    follows: Follows,
    hub: Arc<Hub>,
}

type Follows = Arc<Mutex<HashMap<String, mpsc::WeakSender<Command>>>>;

/// A held write lease; give it back with `unlock`.
pub struct Lease {
    key: String,
    token: String,
}

fn channel(code: &str) -> String {
    format!("oaq:room:{code}")
}

/// Delete `KEYS[1]` only if it still holds `ARGV[1]` (our lease or claim, not a successor's).
const RELEASE: &str = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end";
/// Renew `KEYS[1]` for `ARGV[2]` ms only if it still holds `ARGV[1]`.
const RENEW: &str = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end";

/// Waits before subscribing again after the subscription is lost: from 100 ms, doubling, to 5 s.
const BACKOFF: (Duration, Duration) = (Duration::from_millis(100), Duration::from_secs(5));

impl Cluster {
    pub async fn connect(
        url: &str,
        node: String,
        wait: Duration,
        metrics: Arc<Metrics>,
        hub: Arc<Hub>,
    ) -> redis::RedisResult<Cluster> {
        let client = redis::Client::open(url)?;
        let config = ConnectionManagerConfig::new()
            .set_connection_timeout(Some(wait))
            .set_response_timeout(Some(wait))
            .set_number_of_retries(2)
            .set_max_delay(Duration::from_secs(1));
        let conn = client.get_connection_manager_with_config(config).await?;
        let follows: Follows = Arc::default();
        let sink = Arc::new(tokio::sync::Mutex::new(None));
        // The first subscription is made before the server takes any connection.
        let first = subscribe(&client, &follows, &sink, wait).await?;
        let routes = Routes {
            node: node.clone(),
            follows: follows.clone(),
            hub,
        };
        tokio::spawn(subscription(client, routes, sink.clone(), wait, first));
        Ok(Cluster {
            node,
            conn,
            sink,
            follows,
            wait,
            metrics,
        })
    }

    /// Run `command` with the bounded wait, counting its time and its failure.
    async fn timed<T>(
        &self,
        op: &'static str,
        command: impl std::future::Future<Output = redis::RedisResult<T>>,
    ) -> Result<T, String> {
        let start = std::time::Instant::now();
        let result = match tokio::time::timeout(self.wait, command).await {
            Ok(Ok(t)) => Ok(t),
            Ok(Err(e)) => Err(format!("Redis: {e}")),
            Err(_) => Err(format!("Redis did not answer in {:?}", self.wait)),
        };
        self.metrics.redis_took(op, start.elapsed(), result.is_ok());
        result
    }

    pub async fn ping(&self) -> bool {
        let mut conn = self.conn.clone();
        self.timed("ping", redis::cmd("PING").query_async::<String>(&mut conn))
            .await
            .is_ok()
    }

    /// Pass room `code`'s events from other nodes to `room`.
    pub async fn follow(&self, code: &str, room: mpsc::WeakSender<Command>) {
        self.follows
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(code.to_owned(), room);
        // While the subscription is being made again it takes every followed room itself.
        let subscribed = tokio::time::timeout(self.wait, async {
            match self.sink.lock().await.as_mut() {
                Some(sink) => sink
                    .subscribe(channel(code))
                    .await
                    .map_err(|e| e.to_string()),
                None => Ok(()),
            }
        })
        .await;
        if !matches!(subscribed, Ok(Ok(()))) {
            tracing::warn!(
                room = code,
                "subscribing: Redis does not answer; the room reads the log"
            );
        }
    }

    pub async fn unfollow(&self, code: &str, owner: bool) {
        self.follows
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(code);
        let _ = tokio::time::timeout(self.wait, async {
            if let Some(sink) = self.sink.lock().await.as_mut() {
                let _ = sink.unsubscribe(channel(code)).await;
            }
        })
        .await;
        if owner {
            let mut conn = self.conn.clone();
            let script = Script::new(RELEASE);
            let mut call = script.key(format!("oaq:room:{code}:owner"));
            call.arg(&self.node);
            let _ = self
                .timed("release", call.invoke_async::<i64>(&mut conn))
                .await;
        }
    }

    pub async fn publish(&self, event: &Sequenced) {
        let mut conn = self.conn.clone();
        let body = serde_json::to_string(event)
            .unwrap_or_else(|e| unreachable!("room events always serialise: {e}"));
        // Lost, the other nodes read it from the log when their subscription comes back.
        if let Err(e) = self
            .timed(
                "publish",
                conn.publish::<_, _, i64>(channel(&event.code), body),
            )
            .await
        {
            tracing::warn!(room = %event.code, "publishing: {e}");
        }
    }

    /// Whether this node owns room `code` now: renew the claim it has, or take it if nobody
    /// holds it.
    pub async fn own(&self, code: &str, has: bool) -> bool {
        let mut conn = self.conn.clone();
        let key = format!("oaq:room:{code}:owner");
        if has {
            let script = Script::new(RENEW);
            let mut call = script.key(&key);
            call.arg(&self.node).arg(OWNER_MS);
            let renewed = self
                .timed("renew", call.invoke_async::<i64>(&mut conn))
                .await;
            if renewed == Ok(1) {
                return true;
            }
        }
        let mut set = redis::cmd("SET");
        set.arg(&key)
            .arg(&self.node)
            .arg("NX")
            .arg("PX")
            .arg(OWNER_MS);
        let taken = self
            .timed("own", set.query_async::<Option<String>>(&mut conn))
            .await;
        matches!(taken, Ok(Some(_)))
    }

    /// Pass `frame` to `player`'s connections on other nodes (and then close them, with
    /// `sign_out`: all of them, or `device`'s).
    pub async fn tell(&self, player: &str, frame: &str, sign_out: bool, device: Option<&str>) {
        let message = ToPlayer {
            node: self.node.clone(),
            player: player.to_owned(),
            frame: frame.to_owned(),
            sign_out,
            device: device.map(str::to_owned),
        };
        let body = serde_json::to_string(&message)
            .unwrap_or_else(|e| unreachable!("notices always serialise: {e}"));
        let mut conn = self.conn.clone();
        if let Err(e) = self
            .timed("tell", conn.publish::<_, _, i64>(PLAYERS, body))
            .await
        {
            // Lost: what it said is in the store (requests, challenges) for when they ask.
            tracing::warn!("telling a player on another node: {e}");
        }
    }

    /// Mark `players` connected to this node for the next half minute.
    pub async fn here(&self, players: &[String]) {
        if players.is_empty() {
            return;
        }
        let mut pipe = redis::pipe();
        for p in players {
            pipe.cmd("SET")
                .arg(format!("oaq:here:{p}"))
                .arg(&self.node)
                .arg("PX")
                .arg(PRESENCE_MS)
                .ignore();
        }
        let mut conn = self.conn.clone();
        if let Err(e) = self.timed("here", pipe.query_async::<()>(&mut conn)).await {
            tracing::warn!("presence: {e}");
        }
    }

    /// `player` has left this node (their presence goes, unless another node has renewed it).
    pub async fn gone(&self, player: &str) {
        let mut conn = self.conn.clone();
        let script = Script::new(RELEASE);
        let mut call = script.key(format!("oaq:here:{player}"));
        call.arg(&self.node);
        let _ = self
            .timed("gone", call.invoke_async::<i64>(&mut conn))
            .await;
    }

    /// Which of `players` are connected to some node.
    pub async fn online(&self, players: &[String]) -> Result<Vec<bool>, String> {
        if players.is_empty() {
            return Ok(Vec::new());
        }
        let keys: Vec<String> = players.iter().map(|p| format!("oaq:here:{p}")).collect();
        let mut conn = self.conn.clone();
        let mut mget = redis::cmd("MGET");
        mget.arg(&keys);
        let nodes: Vec<Option<String>> = self.timed("online", mget.query_async(&mut conn)).await?;
        Ok(nodes.into_iter().map(|n| n.is_some()).collect())
    }

    /// Take room `code`'s write lease, waiting for another node's until a lost node's would
    /// have run out.
    pub async fn lock(&self, code: &str) -> Result<Lease, String> {
        let mut conn = self.conn.clone();
        let key = format!("oaq:room:{code}:lease");
        let mut token = [0u8; 8];
        getrandom::fill(&mut token).map_err(|e| format!("randomness: {e}"))?;
        let token = format!("{}:{:016x}", self.node, u64::from_le_bytes(token));
        // Long enough to outlast the lease of a node lost while it held one (it runs out by
        // itself), and no longer: a wait past it means a node that keeps taking the room.
        let deadline = tokio::time::Instant::now() + Duration::from_millis(LEASE_MS + 500);
        let mut attempt = 0u64;
        loop {
            let mut set = redis::cmd("SET");
            set.arg(&key).arg(&token).arg("NX").arg("PX").arg(LEASE_MS);
            match self
                .timed("lock", set.query_async::<Option<String>>(&mut conn))
                .await?
            {
                Some(_) => return Ok(Lease { key, token }),
                None if tokio::time::Instant::now() >= deadline => {
                    return Err("another node holds the room; try again".into());
                }
                None => {
                    tokio::time::sleep(Duration::from_millis(2 + attempt.min(20))).await;
                    attempt += 1;
                }
            }
        }
    }

    pub async fn unlock(&self, lease: Lease) {
        let mut conn = self.conn.clone();
        let script = Script::new(RELEASE);
        let mut call = script.key(&lease.key);
        call.arg(&lease.token);
        let _ = self
            .timed("unlock", call.invoke_async::<i64>(&mut conn))
            .await;
    }
}

/// Open a subscription and subscribe it to every room followed now, holding the sink's lock
/// throughout so that a room followed meanwhile waits and then subscribes itself.
async fn subscribe(
    client: &redis::Client,
    follows: &Follows,
    sink: &Arc<tokio::sync::Mutex<Option<PubSubSink>>>,
    wait: Duration,
) -> redis::RedisResult<PubSubStream> {
    let mut slot = sink.lock().await;
    let timeout = |_| redis::RedisError::from(std::io::Error::from(std::io::ErrorKind::TimedOut));
    let (mut new_sink, stream) = tokio::time::timeout(wait, client.get_async_pubsub())
        .await
        .map_err(timeout)??
        .split();
    let codes: Vec<String> = follows
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .keys()
        .cloned()
        .collect();
    let channels = std::iter::once(PLAYERS.to_owned()).chain(codes.iter().map(|c| channel(c)));
    for name in channels {
        tokio::time::timeout(wait, new_sink.subscribe(name))
            .await
            .map_err(timeout)??;
    }
    *slot = Some(new_sink);
    Ok(stream)
}

/// Pass every message of the subscription to its room; when the subscription ends (Redis
/// restarted, the network cut), make it again with backoff, and have every followed room read
/// what it missed meanwhile from the log.
async fn subscription(
    client: redis::Client,
    routes: Routes,
    sink: Arc<tokio::sync::Mutex<Option<PubSubSink>>>,
    wait: Duration,
    mut stream: PubSubStream,
) {
    loop {
        while let Some(msg) = stream.next().await {
            route(&routes, &msg);
        }
        *sink.lock().await = None;
        tracing::warn!("the Redis subscription ended: subscribing again");
        let mut backoff = BACKOFF.0;
        stream = loop {
            tokio::time::sleep(backoff).await;
            match subscribe(&client, &routes.follows, &sink, wait).await {
                Ok(stream) => break stream,
                Err(e) => {
                    tracing::warn!("subscribing again to Redis: {e}");
                    backoff = (backoff * 2).min(BACKOFF.1);
                }
            }
        };
        tracing::info!("the Redis subscription is back: every room reads what it missed");
        let rooms: Vec<_> = routes
            .follows
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .values()
            .filter_map(|w| w.upgrade())
            .collect();
        for room in rooms {
            let _ = tokio::time::timeout(wait, room.send(Command::CatchUp)).await;
        }
    }
}

/// One fan-out message to the room it is for, or a notice to the player it is for.
fn route(routes: &Routes, msg: &redis::Msg) {
    if msg.get_channel_name() == PLAYERS {
        let Ok(to) = serde_json::from_slice::<ToPlayer>(msg.get_payload_bytes()) else {
            tracing::warn!("a player's notice that does not read");
            return;
        };
        if to.node != routes.node {
            let frame = crate::mailbox::Frame::from(to.frame);
            if to.sign_out {
                routes
                    .hub
                    .sign_out(&to.player, to.device.as_deref(), &frame);
            } else {
                routes.hub.send(&to.player, &frame);
            }
        }
        return;
    }
    let follows = &routes.follows;
    let Some(code) = msg.get_channel_name().strip_prefix("oaq:room:") else {
        return;
    };
    let Ok(event) = serde_json::from_slice::<Sequenced>(msg.get_payload_bytes()) else {
        tracing::warn!(room = code, "a fan-out message that does not read");
        return;
    };
    let room = follows
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .get(code)
        .and_then(|w| w.upgrade());
    if let Some(room) = room {
        // A full mailbox drops the message; the room reads the log before its next write,
        // and on the next event that it sees out of order.
        let _ = room.try_send(Command::Remote(event));
    }
}
