//! `oaq-server`, online play's authoritative server, as a library: rooms, clocks,
//! reconnection and ratings over WebSocket, every move checked by the rules engine and written
//! to the store before anyone hears of it. One machine on an SQLite file by default; several
//! nodes on PostgreSQL and Redis.
//!
//! The modules are layered: each imports only those listed above it (`.ci/layers` checks it).
//! - [`settings`], [`limits`], [`ratings`], [`metrics`], [`mailbox`]: plain types and the
//!   bounds of a server; [`hub`]: who is connected here, by player.
//! - [`store`] (SQLite or PostgreSQL) and [`identity`] (guests and their tokens);
//!   [`refused`]: a request's typed refusal, however it came.
//! - [`cluster`]: the other nodes, through Redis (room ownership, write leases, fan-out).
//! - [`notify`]: the push and mail senders; [`pool`]: who waits in the pools, and the pairing.
//! - [`shared`]: what every part of a running server shares.
//! - [`policy`]: who may meet whom and who may see what, the one place it is decided: a room
//!   opens with players seated only from its [`policy::Seating`].
//! - [`room`]: one task per room, deciding, writing and fanning out its events; its
//!   [`room::registry`] opens and finds rooms. [`challenges`]: who may challenge whom, and a
//!   challenge accepted opening its room.
//! - [`waves`]: the pools' waves, which open rooms; [`digest`]: the daily e-mail's task.
//! - [`conn`]: one WebSocket connection; its social messages in `conn::people` and
//!   `conn::account`. [`moderation`]: operators' actions and how every node follows them.
//! - [`api`]: the bot API, HTTP for programs playing as bots (`docs/bot-api.md`).
//! - [`accept`]: the accept loop with its per-address caps and deadlines; [`http`]: the
//!   routes; [`serve`] puts it all together.
//!
//! [`loadtest`] and [`hostile`] are clients of their own: one measures a server under load,
//! the other tries it with every kind of bad input. [`bot`] is `oaq-bot`, the bot API's
//! client.
//!
//! How to run it (flags, databases, nodes, HTTP routes) and how it works (a room as its log,
//! clocks, the store, several nodes, limits, notifications): `docs/server.md`. Who may do what,
//! and how often: `docs/security.md`.

pub mod accept;
pub mod api;
pub mod bot;
pub mod challenges;
pub mod cluster;
pub mod conn;
pub mod digest;
pub mod hostile;
pub mod http;
pub mod hub;
pub mod identity;
pub mod limits;
pub mod loadtest;
pub mod mailbox;
pub mod metrics;
pub mod moderation;
pub mod notify;
pub mod policy;
pub mod pool;
pub mod ratings;
pub mod refused;
pub mod room;
pub mod settings;
pub mod shared;
pub mod store;
pub mod tournaments;
pub mod waves;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use tokio::sync::watch;

use crate::mailbox::Command;
use crate::settings::Settings;
use crate::shared::Server;
use crate::store::Store;

/// The key that signs the e-mails' unsubscribe links and hashes the addresses kept, made at
/// the first start and shared by every node through the store.
async fn mail_key(store: &Store) -> Result<[u8; 32], String> {
    let hex = store
        .server_key("mail", || {
            let mut key = [0u8; 32];
            getrandom::fill(&mut key).unwrap_or_else(|e| panic!("the OS's random numbers: {e}"));
            key.iter().map(|b| format!("{b:02x}")).collect()
        })
        .await
        .map_err(|e| format!("the mail key: {e}"))?;
    let mut key = [0u8; 32];
    for (i, byte) in key.iter_mut().enumerate() {
        *byte = hex
            .get(2 * i..2 * i + 2)
            .and_then(|h| u8::from_str_radix(h, 16).ok())
            .ok_or("the mail key in the store is not 64 hex digits")?;
    }
    Ok(key)
}

/// Where a server listens and what it serves from.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on (port 0: any free port; the address is printed).
    pub listen: SocketAddr,
    /// `sqlite://FILE`, a file path, or `postgres://USER@HOST:PORT/DB`; `None`: an SQLite file
    /// in the platform's data directory.
    pub database: Option<String>,
    /// `redis://HOST:PORT`: run as one node of several.
    pub redis: Option<String>,
    /// The web build's folder, served on the same origin.
    pub web: Option<PathBuf>,
    /// This node's name among several (`None`: a random one).
    pub node: Option<String>,
    /// Where players open the game (for the daily e-mail's links); pushes link within the page.
    pub public_url: Option<String>,
    /// Who runs the server, for the push services (`mailto:` or `https:`).
    pub push_contact: String,
    /// Accept push endpoints on this machine over plain HTTP (tests).
    pub push_loopback: bool,
    /// The SMTP server of the daily e-mail (`None`: no e-mail), and its sender.
    pub smtp_url: Option<String>,
    pub mail_from: String,
    pub settings: Settings,
}

/// The default database: an SQLite file in the platform's data directory.
fn default_database() -> Result<String, String> {
    let dirs = directories::ProjectDirs::from("", "", "o-an-quan")
        .ok_or("no home directory for the default database: give --database")?;
    let dir = dirs.data_dir();
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    Ok(sqlite_url(&dir.join("server.sqlite3")))
}

fn sqlite_url(path: &std::path::Path) -> String {
    format!("sqlite://{}?mode=rwc", path.display())
}

fn database_url(arg: Option<&str>) -> Result<String, String> {
    match arg {
        None => default_database(),
        Some(url) if url.contains("://") || url.starts_with("sqlite:") => Ok(url.to_owned()),
        Some(path) => Ok(sqlite_url(std::path::Path::new(path))),
    }
}

/// Run a server until SIGTERM or Ctrl-C, then stop it cleanly: no new connections, clients
/// told to reconnect, every room's last write finished.
pub async fn serve(config: Config) -> Result<(), String> {
    let url = database_url(config.database.as_deref())?;
    let store = Store::open(&url)
        .await
        .map_err(|e| format!("opening the database: {e}"))?;
    let node = config.node.clone().unwrap_or_else(|| {
        let mut b = [0u8; 4];
        let _ = getrandom::fill(&mut b);
        format!("node-{:08x}", u32::from_le_bytes(b))
    });
    let metrics = std::sync::Arc::new(metrics::Metrics::default());
    let hub = std::sync::Arc::new(hub::Hub::default());
    let cluster = match &config.redis {
        Some(url) => Some(connect_cluster(url, &node, &config, &metrics, &hub).await?),
        None => None,
    };
    if cluster.is_none() && store.backend() == store::Backend::Postgres {
        tracing::info!("PostgreSQL without --redis: this node is the only one");
    }
    let (notifiers, mail) = notifiers(&config, &store).await?;
    let settings = Settings {
        node: node.clone(),
        ..config.settings
    };
    let (stop_tx, stop_rx) = watch::channel(false);
    let server = Server::new(
        settings,
        store.clone(),
        cluster,
        hub,
        metrics,
        stop_rx,
        notifiers,
    );
    if let Some(mail) = mail {
        tokio::spawn(digest::run(server.clone(), mail));
    }
    if server.cluster.is_none() {
        let n = room::registry::resume_all(&server)
            .await
            .map_err(|e| format!("bringing back the games in progress: {e}"))?;
        if n > 0 {
            tracing::info!("{n} games in progress brought back");
        }
    }
    start_background(&server);
    let listener = tokio::net::TcpListener::bind(config.listen)
        .await
        .map_err(|e| format!("listening on {}: {e}", config.listen))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("listening: {e}"))?;
    // The first line of output says where it listens (the tests read it).
    println!("listening on http://{addr} (WebSocket: ws://{addr}/ws) as {node}");
    let app = http::router(server.clone(), config.web.clone());
    let stop = async move {
        wait_for_stop().await;
        tracing::info!("stopping: no new connections; telling clients to reconnect");
        let _ = stop_tx.send(true);
    };
    tokio::spawn(stop);
    accept::run(listener, server.clone(), app, Duration::from_secs(10)).await;
    finish_rooms(&server).await;
    store.close().await;
    tracing::info!("stopped");
    Ok(())
}

/// This node's link to the others through Redis.
async fn connect_cluster(
    url: &str,
    node: &str,
    config: &Config,
    metrics: &std::sync::Arc<metrics::Metrics>,
    hub: &std::sync::Arc<hub::Hub>,
) -> Result<cluster::Cluster, String> {
    let wait = config.settings.redis_wait;
    cluster::Cluster::connect(url, node.to_owned(), wait, metrics.clone(), hub.clone())
        .await
        .map_err(|e| format!("connecting to Redis: {e}"))
}

/// Web Push always, and the daily e-mail when an SMTP server is given (returned apart too: its
/// digest runs once the server is made).
async fn notifiers(
    config: &Config,
    store: &Store,
) -> Result<
    (
        shared::Notifiers,
        Option<std::sync::Arc<notify::mail::Mail>>,
    ),
    String,
> {
    let push = notify::push::Push::start(
        store,
        config.push_contact.clone(),
        String::new(),
        config.push_loopback,
    )
    .await?;
    let mail = match &config.smtp_url {
        None => None,
        Some(url) => {
            let base = config
                .public_url
                .clone()
                .ok_or("--smtp-url needs --public-url, for the links in the e-mails")?;
            let key = mail_key(store).await?;
            let mail = notify::mail::Mail::new(url, &config.mail_from, base, key)?;
            Some(std::sync::Arc::new(mail))
        }
    };
    let notifiers = shared::Notifiers {
        push: Some(std::sync::Arc::new(push)),
        mail: mail.clone(),
    };
    Ok((notifiers, mail))
}

/// The tasks that run beside the connections: moderation, vacations' ends, the pools' waves
/// and, across nodes, this node's players' presence.
fn start_background(server: &std::sync::Arc<Server>) {
    tokio::spawn(moderation::follow(server.clone()));
    tokio::spawn(conn::correspondence::end_vacations(server.clone()));
    tokio::spawn(waves::run(server.clone()));
    tokio::spawn(tournaments::run(server.clone()));
    if let Some(cluster) = server.cluster.clone() {
        // Presence lasts half a minute unless renewed: a node that dies takes its players'
        // presence with it.
        let hub = server.hub.clone();
        let mut stopping = server.stopping.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(cluster::PRESENCE_EVERY);
            loop {
                tokio::select! {
                    _ = tick.tick() => cluster.here(&hub.players()).await,
                    _ = stopping.changed() => return,
                }
            }
        });
    }
}

/// Every connection is closed: let each room finish what it was writing, then stop it.
async fn finish_rooms(server: &Server) {
    let handles: Vec<_> = server.rooms.lock().await.values().cloned().collect();
    for handle in &handles {
        let _ = handle.tx.send(Command::Stop).await;
    }
    for handle in handles {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
        while !handle.tx.is_closed() && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    }
}

/// `oaq-server admin`: one operator's command on the database (the servers follow it).
pub async fn admin(args: &moderation::AdminArgs) -> Result<String, String> {
    let url = database_url(args.database.as_deref())?;
    let store = Store::open(&url)
        .await
        .map_err(|e| format!("opening the database: {e}"))?;
    let out = moderation::admin(&store, &args.action).await;
    store.close().await;
    out
}

/// SIGTERM or Ctrl-C.
async fn wait_for_stop() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Thousands of connections need thousands of file descriptors: take what the system allows.
pub fn raise_file_limit() {
    #[cfg(unix)]
    // SAFETY: getrlimit/setrlimit only read and write the struct passed.
    unsafe {
        let mut limit = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < limit.rlim_max
        {
            limit.rlim_cur = limit.rlim_max;
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}
