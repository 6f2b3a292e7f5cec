//! Several nodes on one PostgreSQL and one Redis. Redis carries:
//! - which node owns a room (`oaq:room:CODE:owner`, a key that expires unless its owner renews
//!   it): the owner keeps the room's clocks, and another node takes over when it is gone;
//! - the room's write lease (`oaq:room:CODE:lease`, a few seconds): whoever writes the next
//!   event holds it, whichever node the player is connected to;
//! - the fan-out: each event is published on `oaq:room:CODE`, and every node with players in
//!   the room passes it on to them.
//!
//! The store stays the truth: a node that misses a message reads the log from PostgreSQL.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::net::protocol::Sequenced;
use futures_util::StreamExt;
use redis::aio::{ConnectionManager, PubSubSink};
use redis::{AsyncCommands, Script};
use tokio::sync::mpsc;

use crate::server::mailbox::Command;

/// How long an owner's claim lasts unless renewed (renewed every 3 s).
const OWNER_MS: u64 = 10_000;
/// How long a write lease lasts at most (a write takes milliseconds).
const LEASE_MS: u64 = 3_000;

#[derive(Clone)]
pub struct Cluster {
    node: String,
    conn: ConnectionManager,
    sink: Arc<tokio::sync::Mutex<PubSubSink>>,
    follows: Arc<Mutex<HashMap<String, mpsc::WeakSender<Command>>>>,
}

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

impl Cluster {
    pub async fn connect(url: &str, node: String) -> redis::RedisResult<Cluster> {
        let client = redis::Client::open(url)?;
        let conn = client.get_connection_manager().await?;
        let (sink, mut stream) = client.get_async_pubsub().await?.split();
        let follows: Arc<Mutex<HashMap<String, mpsc::WeakSender<Command>>>> = Arc::default();
        let routes = follows.clone();
        tokio::spawn(async move {
            while let Some(msg) = stream.next().await {
                let Some(code) = msg.get_channel_name().strip_prefix("oaq:room:") else {
                    continue;
                };
                let Ok(event) = serde_json::from_slice::<Sequenced>(msg.get_payload_bytes()) else {
                    tracing::warn!(room = code, "a fan-out message that does not read");
                    continue;
                };
                let room = routes
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .get(code)
                    .and_then(|w| w.upgrade());
                if let Some(room) = room {
                    // A full mailbox drops the message; the room reads the log before its
                    // next write, and on the next event that it sees out of order.
                    let _ = room.try_send(Command::Remote(event));
                }
            }
            tracing::error!("the Redis subscription ended");
        });
        Ok(Cluster {
            node,
            conn,
            sink: Arc::new(tokio::sync::Mutex::new(sink)),
            follows,
        })
    }

    pub async fn ping(&self) -> bool {
        let mut conn = self.conn.clone();
        redis::cmd("PING")
            .query_async::<String>(&mut conn)
            .await
            .is_ok()
    }

    /// Pass room `code`'s events from other nodes to `room`.
    pub async fn follow(&self, code: &str, room: mpsc::WeakSender<Command>) {
        self.follows
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(code.to_owned(), room);
        if let Err(e) = self.sink.lock().await.subscribe(channel(code)).await {
            tracing::warn!(room = code, "subscribing: {e}");
        }
    }

    pub async fn unfollow(&self, code: &str, owner: bool) {
        self.follows
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(code);
        let _ = self.sink.lock().await.unsubscribe(channel(code)).await;
        if owner {
            let mut conn = self.conn.clone();
            let _: redis::RedisResult<i64> = Script::new(RELEASE)
                .key(format!("oaq:room:{code}:owner"))
                .arg(&self.node)
                .invoke_async(&mut conn)
                .await;
        }
    }

    pub async fn publish(&self, event: &Sequenced) {
        let mut conn = self.conn.clone();
        let body = serde_json::to_string(event)
            .unwrap_or_else(|e| unreachable!("room events always serialise: {e}"));
        if let Err(e) = conn.publish::<_, _, i64>(channel(&event.code), body).await {
            tracing::warn!(room = %event.code, "publishing: {e}");
        }
    }

    /// Whether this node owns room `code` now: renew the claim it has, or take it if nobody
    /// holds it.
    pub async fn own(&self, code: &str, has: bool) -> bool {
        let mut conn = self.conn.clone();
        let key = format!("oaq:room:{code}:owner");
        if has {
            let renewed: redis::RedisResult<i64> = Script::new(RENEW)
                .key(&key)
                .arg(&self.node)
                .arg(OWNER_MS)
                .invoke_async(&mut conn)
                .await;
            if renewed == Ok(1) {
                return true;
            }
        }
        let taken: redis::RedisResult<Option<String>> = redis::cmd("SET")
            .arg(&key)
            .arg(&self.node)
            .arg("NX")
            .arg("PX")
            .arg(OWNER_MS)
            .query_async(&mut conn)
            .await;
        matches!(taken, Ok(Some(_)))
    }

    /// Take room `code`'s write lease, waiting up to about a second for another node's.
    pub async fn lock(&self, code: &str) -> Result<Lease, String> {
        let mut conn = self.conn.clone();
        let key = format!("oaq:room:{code}:lease");
        let mut token = [0u8; 8];
        getrandom::fill(&mut token).map_err(|e| format!("randomness: {e}"))?;
        let token = format!("{}:{:016x}", self.node, u64::from_le_bytes(token));
        for attempt in 0..100u64 {
            let taken: redis::RedisResult<Option<String>> = redis::cmd("SET")
                .arg(&key)
                .arg(&token)
                .arg("NX")
                .arg("PX")
                .arg(LEASE_MS)
                .query_async(&mut conn)
                .await;
            match taken {
                Ok(Some(_)) => return Ok(Lease { key, token }),
                Ok(None) => {
                    tokio::time::sleep(Duration::from_millis(2 + attempt.min(20))).await;
                }
                Err(e) => return Err(format!("Redis: {e}")),
            }
        }
        Err("another node holds the room; try again".into())
    }

    pub async fn unlock(&self, lease: Lease) {
        let mut conn = self.conn.clone();
        let _: redis::RedisResult<i64> = Script::new(RELEASE)
            .key(&lease.key)
            .arg(&lease.token)
            .invoke_async(&mut conn)
            .await;
    }
}
