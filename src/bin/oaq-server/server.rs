//! What every part of a running server shares: its settings, the store, the rooms loaded here,
//! the link to the other nodes, and the stop signal.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::Duration;

use tokio::sync::{Mutex, watch};

use crate::cluster::Cluster;
use crate::limits::MissLimiter;
use crate::room::RoomHandle;
use crate::store::Store;

/// Timings and bounds of a server; the tests shorten the waits.
#[derive(Clone, Debug)]
pub struct Settings {
    /// How long each of the first moves may take before the game is aborted.
    pub first_move: Duration,
    /// How long a player must be gone before the opponent may claim the game.
    pub claim_after: Duration,
    /// How often the server pings; a connection silent for two pings is dropped.
    pub ping_every: Duration,
    /// Messages a connection may send per second, and in one burst.
    pub messages_per_second: f64,
    pub message_burst: f64,
    /// Look-ups of room codes that do not exist, per address per minute.
    pub misses_per_minute: f64,
    /// This node's name in the cluster.
    pub node: String,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            first_move: Duration::from_secs(30),
            claim_after: Duration::from_secs(60),
            ping_every: Duration::from_secs(5),
            messages_per_second: 20.0,
            message_burst: 40.0,
            misses_per_minute: 20.0,
            node: String::new(),
        }
    }
}

/// Counts for `/health` and the load test.
#[derive(Default)]
pub struct Counters {
    pub connections: AtomicUsize,
    pub moves: AtomicU64,
}

pub struct Server {
    pub settings: Settings,
    pub store: Store,
    pub cluster: Option<Cluster>,
    /// The rooms this node has loaded, by code.
    pub rooms: Mutex<HashMap<String, RoomHandle>>,
    pub misses: MissLimiter,
    pub counters: Counters,
    /// Flips to `true` when the server is asked to stop.
    pub stopping: watch::Receiver<bool>,
    next_id: AtomicU64,
}

impl Server {
    pub fn new(
        settings: Settings,
        store: Store,
        cluster: Option<Cluster>,
        stopping: watch::Receiver<bool>,
    ) -> Arc<Server> {
        let misses = MissLimiter::new(settings.misses_per_minute);
        Arc::new(Server {
            settings,
            store,
            cluster,
            rooms: Mutex::new(HashMap::new()),
            misses,
            counters: Counters::default(),
            stopping,
            next_id: AtomicU64::new(1),
        })
    }

    /// A number no other connection or room task of this process has.
    pub fn next_id(&self) -> u64 {
        self.next_id.fetch_add(1, Ordering::Relaxed)
    }

    pub fn is_stopping(&self) -> bool {
        *self.stopping.borrow()
    }
}

/// Server time: Unix milliseconds, the same on every node (clocks are stamped with it).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}
