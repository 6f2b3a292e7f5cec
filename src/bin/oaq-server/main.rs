//! `oaq-server`: online play's authoritative server. Rooms, clocks, reconnection and ratings
//! over WebSocket; every move checked by the rules engine and written to the store before
//! anyone hears of it. One machine on an SQLite file by default; several nodes on PostgreSQL
//! and Redis.

mod cluster;
mod conn;
mod http;
mod identity;
mod limits;
mod loadtest;
mod ratings;
mod room;
mod rooms;
mod server;
mod store;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};
use tokio::sync::watch;

use crate::room::Command;
use crate::server::{Server, Settings};
use crate::store::Store;

#[derive(Parser)]
#[command(
    name = "oaq-server",
    version,
    about = "The Ô ăn quan online server: rooms, clocks, reconnection, ratings",
    args_conflicts_with_subcommands = true
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Cmd>,
    #[command(flatten)]
    serve: ServeArgs,
}

#[derive(Subcommand)]
enum Cmd {
    /// Measure a server under load: N connections in N/2 rooms playing random legal moves.
    Loadtest(loadtest::LoadArgs),
}

#[derive(Args, Clone)]
pub struct ServeArgs {
    /// Address to listen on (port 0: any free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: SocketAddr,
    /// `sqlite://FILE`, a file path, or `postgres://USER@HOST:PORT/DB`. Default: an SQLite
    /// file in the platform's data directory.
    #[arg(long)]
    database: Option<String>,
    /// `redis://HOST:PORT`: run as one node of several (with a PostgreSQL database).
    #[arg(long)]
    redis: Option<String>,
    /// Also serve this folder (the web build) on the same origin.
    #[arg(long)]
    web: Option<PathBuf>,
    /// This node's name among several (default: a random one).
    #[arg(long)]
    node: Option<String>,
    /// Seconds each of a game's first moves may take before the game is aborted.
    #[arg(long, default_value_t = 30.0, value_parser = seconds)]
    first_move_secs: f64,
    /// Seconds a player must be gone before the opponent may claim the game.
    #[arg(long, default_value_t = 60.0, value_parser = seconds)]
    claim_after_secs: f64,
    /// Seconds between pings; a connection silent for two is dropped.
    #[arg(long, default_value_t = 5.0, value_parser = seconds)]
    ping_secs: f64,
    /// Messages a connection may send a second (bursts of twice as many).
    #[arg(long, default_value_t = 20.0, value_parser = rate)]
    messages_per_second: f64,
}

fn seconds(text: &str) -> Result<f64, String> {
    let v: f64 = text.parse().map_err(|_| {
        format!(
            "{} is not a number of seconds",
            o_an_quan::excerpt::quoted(text)
        )
    })?;
    if v.is_finite() && (0.05..=86_400.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} s is outside 0.05..=86400"))
    }
}

fn rate(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| format!("{} is not a number", o_an_quan::excerpt::quoted(text)))?;
    if v.is_finite() && (1.0..=10_000.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is outside 1..=10000"))
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("OAQ_LOG")
                .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info")),
        )
        .with_writer(std::io::stderr)
        .init();
    raise_file_limit();
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("oaq-server: starting the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = match cli.command {
        Some(Cmd::Loadtest(args)) => runtime.block_on(loadtest::run(args)),
        None => runtime.block_on(serve(cli.serve)),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oaq-server: {e}");
            ExitCode::FAILURE
        }
    }
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

async fn serve(args: ServeArgs) -> Result<(), String> {
    let url = database_url(args.database.as_deref())?;
    let store = Store::open(&url)
        .await
        .map_err(|e| format!("opening the database: {e}"))?;
    let node = args.node.clone().unwrap_or_else(|| {
        let mut b = [0u8; 4];
        let _ = getrandom::fill(&mut b);
        format!("node-{:08x}", u32::from_le_bytes(b))
    });
    let cluster = match &args.redis {
        Some(url) => Some(
            cluster::Cluster::connect(url, node.clone())
                .await
                .map_err(|e| format!("connecting to Redis: {e}"))?,
        ),
        None => None,
    };
    if cluster.is_none() && store.backend() == store::Backend::Postgres {
        tracing::info!("PostgreSQL without --redis: this node is the only one");
    }
    let settings = Settings {
        first_move: Duration::from_secs_f64(args.first_move_secs),
        claim_after: Duration::from_secs_f64(args.claim_after_secs),
        ping_every: Duration::from_secs_f64(args.ping_secs),
        messages_per_second: args.messages_per_second,
        message_burst: 2.0 * args.messages_per_second,
        node: node.clone(),
        ..Settings::default()
    };
    let (stop_tx, stop_rx) = watch::channel(false);
    let server = Server::new(settings, store.clone(), cluster, stop_rx);
    if server.cluster.is_none() {
        let n = rooms::resume_all(&server)
            .await
            .map_err(|e| format!("bringing back the games in progress: {e}"))?;
        if n > 0 {
            tracing::info!("{n} games in progress brought back");
        }
    }
    let listener = tokio::net::TcpListener::bind(args.listen)
        .await
        .map_err(|e| format!("listening on {}: {e}", args.listen))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("listening: {e}"))?;
    // The first line of output says where it listens (the tests read it).
    println!("listening on http://{addr} (WebSocket: ws://{addr}/ws) as {node}");
    let app = http::router(server.clone(), args.web.clone());
    let stop = async move {
        wait_for_stop().await;
        tracing::info!("stopping: no new connections; telling clients to reconnect");
        let _ = stop_tx.send(true);
    };
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(stop)
    .await
    .map_err(|e| format!("serving: {e}"))?;
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
fn raise_file_limit() {
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
