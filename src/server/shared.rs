//! What every part of a running server shares: its settings, the store, the rooms loaded here,
//! the link to the other nodes, and the stop signal.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use tokio::sync::{Mutex, watch};

use crate::server::cluster::Cluster;
use crate::server::limits::{AddressBuckets, Connections};
use crate::server::mailbox::RoomHandle;
use crate::server::metrics::Metrics;
use crate::server::settings::Settings;
use crate::server::store::Store;

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
    /// Per address: look-ups of codes with no room, rooms opened, guests made.
    pub misses: AddressBuckets,
    pub room_opens: AddressBuckets,
    pub guests: AddressBuckets,
    /// Connections open, per address and in all.
    pub connections: Arc<Connections>,
    pub counters: Counters,
    pub metrics: Arc<Metrics>,
    /// Flips to `true` when the server is asked to stop.
    pub stopping: watch::Receiver<bool>,
    next_id: AtomicU64,
}

impl Server {
    pub fn new(
        settings: Settings,
        store: Store,
        cluster: Option<Cluster>,
        metrics: Arc<Metrics>,
        stopping: watch::Receiver<bool>,
    ) -> Arc<Server> {
        Arc::new(Server {
            misses: AddressBuckets::new(settings.misses_per_minute),
            room_opens: AddressBuckets::new(settings.rooms_per_minute),
            guests: AddressBuckets::new(settings.guests_per_minute),
            connections: Connections::new(
                settings.connections_per_address,
                settings.max_connections,
            ),
            settings,
            store,
            cluster,
            rooms: Mutex::new(HashMap::new()),
            counters: Counters::default(),
            metrics,
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
