//! What every part of a running server shares: its settings, the store, the rooms loaded here,
//! the link to the other nodes, and the stop signal.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use oaq_net::protocol::ErrorCode;
use tokio::sync::{Mutex, watch};

use crate::cluster::Cluster;
use crate::hub::Hub;
use crate::limits::{AddressBuckets, BoundedQueue, Connections, KeyedBuckets, KeyedLocks};
use crate::mailbox::RoomHandle;
use crate::metrics::Metrics;
use crate::settings::Settings;
use crate::store::Store;
use oaq_net::protocol::ServerMessage;

/// Password hashes computed at once (each takes 19 MiB and a core for tens of milliseconds),
/// and how many more may wait for their turn before the next is refused `rate_limited`.
pub const HASHING_AT_ONCE: usize = 4;
pub const HASHING_QUEUE: usize = 32;
/// Sign-in names one player may try to set a minute (each costs a password's hash, and a taken
/// name is said to be taken only after it).
pub const LOGIN_TRIES_PER_MINUTE: f64 = 5.0;
/// The bot API's requests a minute per bot (a move, an answer, a stream opened), with a burst
/// of as many: a bot in a dozen bullet games at once moves a few times a second.
pub const BOT_REQUESTS_PER_MINUTE: f64 = 600.0;
/// Chat phrases a minute per bot, with a burst of as many.
pub const BOT_CHATS_PER_MINUTE: f64 = 6.0;

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
    /// HTTP requests per address; password hashes per address, and sign-in names a player
    /// tries to set.
    pub requests: AddressBuckets,
    /// The web build's files per address (ten times the routes' allowance).
    pub file_requests: AddressBuckets,
    pub hashes: AddressBuckets,
    pub login_tries: KeyedBuckets<String>,
    /// Password hashing: four at once, a few dozen waiting, the rest refused at once.
    pub hashing: BoundedQueue,
    /// Held while a player's caps are checked and the room they count is opened.
    pub player_locks: KeyedLocks,
    /// The bot API's requests per bot, and its streams open here per bot.
    pub bot_requests: KeyedBuckets<String>,
    /// A bot's chat phrases (its requests are many; its words to a person are few).
    pub bot_chats: KeyedBuckets<String>,
    pub bot_streams: Arc<crate::limits::KeyedCounts>,
    /// Bot tokens found right lately: not counted as guesses again.
    pub right_tokens: crate::limits::RecentlyRight,
    /// The addresses each player's devices signed in from lately (on this node): a sign-in
    /// name's limit on wrong passwords holds strangers back, not the owner at home.
    pub known: crate::hub::KnownAddresses,
    /// Reads and writes of training records, per player and per address.
    pub training: KeyedBuckets<String>,
    pub training_addresses: AddressBuckets,
    /// Who is connected here, by player.
    pub hub: Arc<Hub>,
    /// Connections open, per address and in all.
    pub connections: Arc<Connections>,
    pub counters: Counters,
    /// Who waits for quick pairing through this node (and, alone, every pool's members).
    pub pools: crate::pool::Pools,
    /// Web Push (`None`: this server sends none), and the daily e-mail (`None`: no SMTP).
    pub push: Option<Arc<crate::notify::push::Push>>,
    pub mail: Option<Arc<crate::notify::mail::Mail>>,
    pub metrics: Arc<Metrics>,
    /// Flips to `true` when the server is asked to stop.
    pub stopping: watch::Receiver<bool>,
    next_id: AtomicU64,
}

/// How the server reaches players who are away.
#[derive(Default)]
pub struct Notifiers {
    pub push: Option<Arc<crate::notify::push::Push>>,
    pub mail: Option<Arc<crate::notify::mail::Mail>>,
}

impl Server {
    /// Bot `player`'s API token from now on: a new one (returned), or none (`revoke`). Either
    /// way the old one stops at once and the streams it opened close, on every node. However
    /// it is asked (a connection's `bot_token`, the bot API's `/api/bot/token`).
    pub async fn replace_bot_token(
        &self,
        player: &str,
        revoke: bool,
    ) -> Result<Option<String>, crate::refused::Refused> {
        let token = (!revoke).then(crate::identity::new_bot_token);
        let hash = token.as_deref().map(crate::identity::hash_token);
        let now = crate::settings::now_ms();
        if !self
            .store
            .set_bot_token(player, hash.as_deref(), now)
            .await?
        {
            return Err(crate::refused::refused(
                ErrorCode::NotAllowed,
                "this player is not a bot",
            ));
        }
        let closed = ServerMessage::error(ErrorCode::BadCredentials, "the bot's token was revoked");
        self.sign_out(player, Some(crate::hub::BOT_API), &closed)
            .await;
        Ok(token)
    }
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
            requests: AddressBuckets::new(settings.requests_per_minute),
            file_requests: AddressBuckets::new(10.0 * settings.requests_per_minute),
            hashes: AddressBuckets::new(settings.hashes_per_minute),
            login_tries: KeyedBuckets::new(LOGIN_TRIES_PER_MINUTE),
            hashing: BoundedQueue::new(HASHING_AT_ONCE, HASHING_QUEUE),
            player_locks: KeyedLocks::default(),
            bot_requests: KeyedBuckets::new(BOT_REQUESTS_PER_MINUTE),
            bot_chats: KeyedBuckets::new(BOT_CHATS_PER_MINUTE),
            bot_streams: Default::default(),
            right_tokens: crate::limits::RecentlyRight::new(std::time::Duration::from_secs(60)),
            known: Default::default(),
            training: KeyedBuckets::new(settings.training_per_minute),
            training_addresses: AddressBuckets::new(4.0 * settings.training_per_minute),
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

impl Server {
    /// Tell `player` of `event` by push, if they want it and are not connected anywhere.
    /// Returns at once; the sending goes on in its own task.
    pub async fn tell_away(&self, player: &str, event: oaq_net::notify::Event) {
        let Some(push) = self.push.clone() else {
            return;
        };
        if self.online(&[player.to_owned()]).await.first() == Some(&true) {
            return;
        }
        let (store, metrics) = (self.store.clone(), self.metrics.clone());
        let player = player.to_owned();
        tokio::spawn(async move {
            push.send_to(&store, &metrics, &player, &event).await;
        });
    }
}
