//! `oaq-server`, online play's authoritative server, as a library: rooms, clocks,
//! reconnection and ratings over WebSocket, every move checked by the rules engine and written
//! to the store before anyone hears of it. One machine on an SQLite file by default; several
//! nodes on PostgreSQL and Redis.
//!
//! The modules are layered: each imports only those listed above it.
//! - [`settings`], [`limits`], [`ratings`], [`mailbox`]: plain types and the bounds of a server.
//! - [`store`] (SQLite or PostgreSQL) and [`identity`] (guests and their tokens).
//! - [`cluster`]: the other nodes, through Redis (room ownership, write leases, fan-out).
//! - [`shared`]: what every part of a running server shares.
//! - [`room`]: one task per room, deciding, writing and fanning out its events; its
//!   [`room::registry`] opens and finds rooms.
//! - [`hub`] (at the bottom, beside [`mailbox`]): who is connected here, by player.
//! - [`conn`]: one WebSocket connection; its social messages in `conn::people` and
//!   `conn::account`. [`moderation`]: operators' actions and how every node follows them.
//! - [`http`]: the routes; [`accept`]: the accept loop with its per-address caps and
//!   deadlines; [`serve`] puts it all together.
//!
//! [`loadtest`] and [`hostile`] are clients of their own: one measures a server under load,
//! the other tries it with every kind of bad input.
//!
//! # Running it
//!
//! `oaq-server` is the authoritative server of online play: rooms, clocks, reconnection and
//! ratings over WebSocket, every move played by the rules engine before it counts. It has no Bevy
//! in it (axum on tokio, sqlx, redis); the messages and the clock live in `src/net` (plain serde
//! types and integer arithmetic, no runtime), which the game's client shares.
//!
//! ```sh
//! cargo run --release --bin oaq-server                      # one machine: SQLite in the data directory
//! oaq-server --listen 0.0.0.0:8080 --web dist/              # also serve the web build on the same origin
//! oaq-server --database postgres://oaq@db/oaq --redis redis://cache:6379 --node eu-1   # one node of several
//! oaq-server loadtest --connections 5000 --seconds 30       # measure (see below)
//! ```
//!
//! `--database` takes `sqlite://FILE`, a file path, or a `postgres://` URL; the default is
//! `server.sqlite3` in the platform's data directory (`~/.local/share/o-an-quan` on Linux). The
//! schema is created and migrated at start-up by sqlx's migrator, the same SQL for both databases.
//! `--web DIR` serves a folder (`.ci/web`'s output) beside `/ws`, so one process hosts the page and
//! its game server: a file's brotli or gzip copy when the browser accepts it (`Vary:
//! accept-encoding`), `304 Not Modified` to a revalidation, a year's caching (`immutable`) for the
//! files named for their content and `no-cache` for the rest (see `docs/web.md`). In
//! production it runs behind nginx, which holds the certificate: `deploy/nginx/o-an-quan.conf`. Logs go to stderr as text, or as JSON lines with `--log-format json`
//! (`OAQ_LOG=debug` for more); no log line carries a token: players are named by id.
//!
//! Limits and timeouts, each a flag (`oaq-server --help`):
//!
//! | flag | default | what |
//! |---|---|---|
//! | `--connections-per-address` | 64 | connections open at once from one address (an IPv6 /64); more are closed before a byte is read |
//! | `--max-connections` | 20000 | connections open at once in all |
//! | `--handshake-secs` | 10 | time to send the HTTP request's header, and then `hello`; a silent socket is closed |
//! | `--ping-secs` | 5 | between pings; a connection silent for two is dropped (its seat kept, marked `away`) |
//! | `--messages-per-second` | 20 | frames of any kind per connection (bursts of twice as many), then `rate_limited`; 50 of those and it is closed |
//! | `--misses-per-minute` | 20 | room codes that do not exist, per address (past it only rooms where the player holds a seat may be entered) |
//! | `--guests-per-minute` | 20 | new guests per address (a known token still signs in) |
//! | `--rooms-per-minute` | 20 | rooms opened per address |
//! | `--waiting-rooms-per-player` | 5 | rooms waiting for players that one player sits in at once |
//! | `--redis-wait-secs` | 1.5 | the longest wait for one Redis command; past it the request is refused `unavailable` |
//! | `--first-move-secs`, `--claim-after-secs` | 30, 60 | the first moves' grace; how long a player is gone before a claim |
//! | `--sign-in-failures-per-minute` | 10 | wrong link codes, recovery codes and passwords per address, counted before each is checked (a right one gives its count back); half as many passwords per sign-in name from addresses its owner has not signed in from lately; past it even a right one is refused |
//! | `--requests-per-minute` | 600 | HTTP requests per address to every route (`429` with `Retry-After` past it); ten times as many for the web build's files |
//! | `--hashes-per-minute` | 30 | password hashes per address (setting a password, signing in); four hash at once and 32 wait, the rest are refused `rate_limited`; five sign-in names a minute per player |
//! | `--pauses-per-game` | 12 | how often one game by days may be paused for vacations (a vacation costs at least a day, one a day) |
//! | `--mails-per-address` | 3 | confirmation e-mails a day to one address, and asked by one player |
//! | `--challenges-per-player` | 20 | challenges one player has waiting at once |
//! | `--chat-burst` | 4 | chat phrases in a row, then one every two seconds |
//! | `--day-secs` | 86400 | a correspondence "day" (shorter only to test games by days) |
//! | `--vacation-days` | 30 | vacation days each player has a year |
//! | `--correspondence-per-player` | 50 | games by days one player is in at once (waiting or playing) |
//! | `--pool-wave-secs` | 2 | between a pool's waves of pairing |
//! | `--push-contact` | `mailto:operator@localhost` | who runs the server, told to the push services in the VAPID signature |
//! | `--push-loopback` | off | accept push endpoints on this machine over plain HTTP (tests; real ones are a push service's HTTPS) |
//! | `--smtp-url`, `--mail-from`, `--public-url` | none | the daily e-mail's SMTP server (`smtp://HOST:PORT`, STARTTLS when offered; `smtps://` for TLS; `USER:PASS@`), sender, and the page its links open; no `--smtp-url`, no e-mail |
//! | `--trusted-proxy IP` | none | a reverse proxy in front (repeatable): its connections are held to the total only, and each request counts against the last address of its `X-Forwarded-For` (elsewhere that header is ignored) |
//!
//! The store waits 3 s at most for a connection. Every number a client sends is bounded where
//! the message is read (`since` ≤ 2³², `think_ms` ≤ 30 days, tokens and codes ≤ 128 bytes, the
//! clock's base and increment), refused with `bad_message` naming the field; the clocks'
//! arithmetic saturates besides.
//!
//! HTTP: `GET /health` (200 `{"status":"ok","store":true,"redis":null,...}` while the node can
//! serve, 503 while it stops or cannot reach its store or Redis; each check waits 2 s at most and
//! the body says which is down), `GET /metrics` (Prometheus's text format, from the Prometheus
//! project's Rust client: `oaq_connections`, `oaq_rooms`, `oaq_moves_total`,
//! `oaq_refusals_total{code}`, `oaq_connections_turned_away_total{reason}` (`address`, `full`,
//! `handshake`), `oaq_store_seconds{op}`, `oaq_redis_seconds{op}`, `oaq_redis_errors_total`,
//! `oaq_lag_credited_seconds` and `oaq_lag_credited_milliseconds_total`, `oaq_pool_wait_seconds`,
//! `oaq_pushes_total{op}` (`sent`, `gone`, `failed`, `dropped`), `oaq_mails_total{op}`), `GET /leaderboard` (the top 100 by
//! rating, with games played), `GET /players/ID` (rating, place on the leaderboard, the last 20
//! finished public games; none of a child's), `GET /games/CODE` (a started room's game as the
//! game's own replay file: the RON that Import reads; anything else is `404` and counts as a
//! missed code), `GET /mail/confirm` and `GET`/`POST /mail/stop` (the e-mails' links: an
//! address confirmed, all mail to an address stopped, RFC 8058's one click), `GET /ws` (the
//! game's WebSocket). Who may do what, and how often, is in `docs/security.md`.
//!
//!
//! # How it works
//!
//! - **A room is its log.** Every room is a list of events (`opened`, `seated`, `started`,
//!   `moved`, ..., `ended`), numbered from 0 by `seq`. A room's task checks each command against
//!   the room's state, writes the resulting event to the store, and only then applies it and sends
//!   it to everyone in the room (write-ahead, as boardgame.io's master stores a state before
//!   broadcasting it). A room is rebuilt after a restart by folding its log: the rules replay every
//!   move. Moves are written by one statement each, and moves of different rooms that arrive
//!   during a commit are written together in the next (group commit); the room hears "stored"
//!   only after its commit. SQLite runs in WAL mode with `synchronous = NORMAL`: a commit is in
//!   the log file before it returns, so a killed server loses nothing (a power cut may lose the
//!   last commits; PostgreSQL's defaults keep those too).
//! - **Reconnection.** A client keeps the last `seq` it saw and sends it in `join` or `watch`
//!   (`since`). It gets the events after it if the node still has them (the last 64 per room), or
//!   else the whole log as one `snapshot`. A move names its `ply` (the number of moves played before
//!   it, a table flip's `swap` included); a move for any other ply is refused as `stale_ply`
//!   without effect, so a client may resend until it sees its move come back. A dropped connection
//!   leaves its seat held (`away`), and `join` with the same token takes it back (`back`).
//! - **Identity.** `hello` without a token makes a guest: a random id and a random token of 128
//!   bits from the OS. The store keeps only the token's BLAKE3 hash; the token is sent again in the
//!   next `hello` (browsers cannot set WebSocket headers). Names are trimmed, 1–24 characters,
//!   without control characters or invisible format characters (bidi controls such as U+202E,
//!   zero-width spaces, tag characters; the joiners inside emoji stay), and must show at least
//!   one letter, digit, punctuation mark or symbol (Unicode's general categories).
//! - **Clocks** are integer milliseconds stamped by the server (Unix time, the same on every node),
//!   Fischer increment. Each seat's clock starts with its first turn; each of the first moves (one
//!   per seat) must come within 30 s or the game is aborted without result. Lag compensation as
//!   lichess's lag tracker does it (the idea, not its code): a client may report its own think time
//!   (`think_ms`); the server measured more, and credits the difference as network lag, at most 3 s
//!   a move and at most what the seat's quota holds. The quota starts at two moves' gain, gains
//!   up to 1 s a move (150 ms plus 4 ms per second of the game's estimated length, base + 40
//!   increments), and holds at most five moves' gain, so a phone on a slow network is not
//!   flagged for its network's time and a client that claims it thought for nothing gains only its
//!   quota: at most two moves' gain and then one a move (11 s over ten moves of a 10+5 game). The
//!   quota is folded from the log (each `moved` carries its `lag_ms`), so a restart or another node
//!   taking the room over finds it spent. Out of time, that seat loses (`time`). A disconnected
//!   player's clock keeps running; after 60 s gone the opponent may `claim` the game
//!   (`abandoned`). A seated player who `watch`es her own room is in her seat.
//! - **After a stop**, every game in progress is loaded again and its clocks start from where the
//!   last move left them (`resumed`): the time the server was down is nobody's, and time away
//!   counts again from then (a claim never comes out of the server's downtime); a seated player
//!   not back yet is marked away from then.
//! - **The lobby** lists public rooms waiting for players whose seated players are all connected:
//!   a room whose creator has gone leaves it, and comes back when she does.
//! - **Ratings**: Glicko-2 (skillratings), 1500 ± 350 to start; a game played out between people
//!   (rules, time, resignation, agreement, abandonment; not an abort) moves each player by their
//!   place, one result against each other player on the 3-player board. Ratings change in the same
//!   transaction as the `ended` event.
//! - **Several nodes** share one PostgreSQL and one Redis. Redis carries which node owns a room
//!   (`oaq:room:CODE:owner`, 10 s, renewed every 3 s by its owner, which keeps the room's clocks;
//!   another node that has the room loaded takes it over when the claim lapses and resumes its
//!   clocks), the room's write lease (`oaq:room:CODE:lease`, 3 s at most: the node that writes the
//!   next event holds it and first reads what others wrote), and the fan-out (each event published
//!   on `oaq:room:CODE`; every node with players in the room passes it on). The store stays the
//!   truth: its key on (room, seq) lets a sequence number be written once, and a node that misses
//!   a message reads the log. Every Redis command waits `--redis-wait-secs` at most: while Redis
//!   is down a move is refused `unavailable` at once and `/health` says `"redis":false`; when the
//!   subscription ends (Redis restarted, the network cut) the node makes it again with backoff
//!   (100 ms doubling to 5 s), subscribes every room it follows, and has each read what it missed
//!   from the log.
//! - **Limits** (the table above): frames over 16 KiB are refused with `too_large` (over 64 KiB
//!   the connection is closed); codes (31⁶ of them) cannot be guessed in bulk, yet a family or a
//!   school behind one router is never kept out of its own games; a connection acts only for the
//!   seat it holds; every query is a constant with bound parameters (sqlx 0.9 refuses strings
//!   built at run time). One too slow to take its frames (256 waiting) is closed and comes back
//!   with `since`. The server runs its own accept loop (hyper's HTTP/1 with a header deadline)
//!   so that a connection is counted against its address before anything is read.
//! - **Hostile clients**: `oaq-server hostile --url ws://HOST:PORT/ws --seed N --connections C
//!   --frames F` sends seeded bad input (broken, oversized and binary frames, numbers out of
//!   range, messages out of order, unknown codes, invisible names, floods) from a loopback address
//!   per connection, and fails if any answer is not a message of the protocol; `cargo test` runs
//!   40 connections of it and then plays a move on the same server.
//! - **SIGTERM**: stop accepting, tell every client `reconnect`, let each room finish what it is
//!   writing, exit 0.

pub mod accept;
pub mod cluster;
pub mod conn;
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
pub mod pool;
pub mod ratings;
pub mod room;
pub mod settings;
pub mod shared;
pub mod store;

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
        Some(url) => Some(
            cluster::Cluster::connect(
                url,
                node.clone(),
                config.settings.redis_wait,
                metrics.clone(),
                hub.clone(),
            )
            .await
            .map_err(|e| format!("connecting to Redis: {e}"))?,
        ),
        None => None,
    };
    if cluster.is_none() && store.backend() == store::Backend::Postgres {
        tracing::info!("PostgreSQL without --redis: this node is the only one");
    }
    let settings = Settings {
        node: node.clone(),
        ..config.settings
    };
    let (stop_tx, stop_rx) = watch::channel(false);
    let push = notify::push::Push::start(
        &store,
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
            let key = mail_key(&store).await?;
            Some(std::sync::Arc::new(notify::mail::Mail::new(
                url,
                &config.mail_from,
                base,
                key,
            )?))
        }
    };
    let notifiers = shared::Notifiers {
        push: Some(std::sync::Arc::new(push)),
        mail: mail.clone(),
    };
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
        tokio::spawn(notify::mail::run(server.clone(), mail));
    }
    if server.cluster.is_none() {
        let n = room::registry::resume_all(&server)
            .await
            .map_err(|e| format!("bringing back the games in progress: {e}"))?;
        if n > 0 {
            tracing::info!("{n} games in progress brought back");
        }
    }
    tokio::spawn(moderation::follow(server.clone()));
    tokio::spawn(conn::correspondence::end_vacations(server.clone()));
    tokio::spawn(pool::run(server.clone()));
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
    // Every connection is closed; let each room finish what it was writing, then stop it.
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
    store.close().await;
    tracing::info!("stopped");
    Ok(())
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
