//! What every part of a running server shares: its settings, the store, the rooms loaded here,
//! the link to the other nodes, and the stop signal.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use tokio::sync::{Mutex, watch};

use crate::net::protocol::ServerMessage;
use crate::server::cluster::Cluster;
use crate::server::hub::Hub;
use crate::server::limits::{AddressBuckets, Connections, KeyedBuckets};
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
    /// Wrong link codes, recovery codes and passwords: per address, and per sign-in name (so
    /// many addresses cannot guess one player's password either).
    pub wrong_codes: AddressBuckets,
    pub wrong_passwords: KeyedBuckets<String>,
    /// Who is connected here, by player.
    pub hub: Arc<Hub>,
    /// Connections open, per address and in all.
    pub connections: Arc<Connections>,
    pub counters: Counters,
    /// Who waits for quick pairing through this node (and, alone, every pool's members).
    pub pools: crate::server::pool::Pools,
    /// Web Push (`None`: this server sends none), and the daily e-mail (`None`: no SMTP).
    pub push: Option<Arc<crate::server::notify::push::Push>>,
    pub mail: Option<Arc<crate::server::notify::mail::Mail>>,
    pub metrics: Arc<Metrics>,
    /// Flips to `true` when the server is asked to stop.
    pub stopping: watch::Receiver<bool>,
    next_id: AtomicU64,
}

/// How the server reaches players who are away.
#[derive(Default)]
pub struct Notifiers {
    pub push: Option<Arc<crate::server::notify::push::Push>>,
    pub mail: Option<Arc<crate::server::notify::mail::Mail>>,
}

impl Server {
    pub fn new(
        settings: Settings,
        store: Store,
        cluster: Option<Cluster>,
        hub: Arc<Hub>,
        metrics: Arc<Metrics>,
        stopping: watch::Receiver<bool>,
        notify: Notifiers,
    ) -> Arc<Server> {
        Arc::new(Server {
            wrong_codes: AddressBuckets::new(settings.sign_in_failures_per_minute),
            wrong_passwords: KeyedBuckets::new(settings.sign_in_failures_per_minute / 2.0),
            hub,
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
            pools: Default::default(),
            push: notify.push,
            mail: notify.mail,
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

impl Server {
    /// Send `msg` to `player` wherever they are connected (nothing when nowhere: what it says
    /// waits in the store for when they ask).
    pub async fn tell(&self, player: &str, msg: &ServerMessage) {
        let frame = msg.to_json();
        self.hub.send(player, &frame.clone().into());
        if let Some(cluster) = &self.cluster {
            cluster.tell(player, &frame, false, None).await;
        }
    }

    /// Send `msg` to `player` and close their connections (`device`'s only, when given),
    /// on every node.
    pub async fn sign_out(&self, player: &str, device: Option<&str>, msg: &ServerMessage) {
        let frame = msg.to_json();
        self.hub.sign_out(player, device, &frame.clone().into());
        if let Some(cluster) = &self.cluster {
            cluster.tell(player, &frame, true, device).await;
        }
    }

    /// Which of `players` are connected now: here, or (several nodes) on any node. Redis
    /// down: those here only.
    pub async fn online(&self, players: &[String]) -> Vec<bool> {
        let here: Vec<bool> = players.iter().map(|p| self.hub.is_here(p)).collect();
        let Some(cluster) = &self.cluster else {
            return here;
        };
        match cluster.online(players).await {
            Ok(there) => here.iter().zip(there).map(|(a, b)| *a || b).collect(),
            Err(e) => {
                tracing::warn!("presence: {e}");
                here
            }
        }
    }
}
