//! `oaq-server`: online play's authoritative server. This reads the command line; the server
//! itself is the library. `oaq-server --help` lists every flag with its default, which is
//! [`Settings::default`]'s (one place for each).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::LazyLock;
use std::time::Duration;

use clap::{Args, Parser, Subcommand};

use oaq_server::settings::{Settings, rate, seconds};
use oaq_server::{Config, admin, hostile, loadtest, moderation, raise_file_limit, serve};

/// The settings' defaults, which the flags' defaults are.
static DEFAULTS: LazyLock<Settings> = LazyLock::new(Settings::default);

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
    /// Try a server as hostile clients would: seeded bad frames, floods, out-of-order and
    /// out-of-range messages on many connections; every answer must be a protocol message.
    Hostile(hostile::HostileArgs),
    /// Simulate the pools' pairing at several arrival rates and print how close pairings are
    /// and how long players wait.
    PoolBench(oaq_server::pool::bench::PoolBenchArgs),
    /// Moderation: list players' reports; rename, ban or unban a player. Running servers
    /// apply it within seconds.
    Admin(moderation::AdminArgs),
}

#[derive(Args, Clone)]
struct ServeArgs {
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
    /// The address where players open the game (`https://…/`), for the links in e-mails.
    #[arg(long)]
    public_url: Option<String>,
    /// Who runs this server, told to the push services (`mailto:…` or `https:…`).
    #[arg(long, default_value = "mailto:operator@localhost")]
    push_contact: String,
    /// Accept push endpoints on this machine over plain HTTP (for tests: real ones are HTTPS).
    #[arg(long)]
    push_loopback: bool,
    /// The SMTP server for the daily e-mail: `smtp://HOST:PORT` (STARTTLS when offered),
    /// `smtps://…` for TLS, with `USER:PASSWORD@` if it wants them. No flag: no e-mail.
    #[arg(long)]
    smtp_url: Option<String>,
    /// The e-mail's sender.
    #[arg(long, default_value = "Ô ăn quan <noreply@localhost>")]
    mail_from: String,
    /// Seconds each of a game's first moves may take before the game is aborted.
    #[arg(long, default_value_t = DEFAULTS.first_move.as_secs_f64(), value_parser = seconds)]
    first_move_secs: f64,
    /// Seconds a player must be gone before the opponent may claim the game.
    #[arg(long, default_value_t = DEFAULTS.claim_after.as_secs_f64(), value_parser = seconds)]
    claim_after_secs: f64,
    /// Seconds between pings; a connection silent for two is dropped.
    #[arg(long, default_value_t = DEFAULTS.ping_every.as_secs_f64(), value_parser = seconds)]
    ping_secs: f64,
    /// Messages a connection may send a second (bursts of twice as many).
    #[arg(long, default_value_t = DEFAULTS.messages_per_second, value_parser = rate)]
    messages_per_second: f64,
    /// Seconds a new connection has to send its request's header, and then its `hello`.
    #[arg(long, default_value_t = DEFAULTS.handshake.as_secs_f64(), value_parser = seconds)]
    handshake_secs: f64,
    /// Connections open at once from one address (an IPv6 /64).
    #[arg(long, default_value_t = DEFAULTS.connections_per_address as u32, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    connections_per_address: u32,
    /// A reverse proxy in front of the server (repeat for several): its connections are not
    /// held to the per-address cap, and each request counts against the client address in its
    /// `X-Forwarded-For` header (the last one, the address the proxy saw).
    #[arg(long = "trusted-proxy", value_name = "IP")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// Connections open at once in all.
    #[arg(long, default_value_t = DEFAULTS.max_connections as u32, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_connections: u32,
    /// Rooms waiting for players that one player may sit in at once.
    #[arg(long, default_value_t = DEFAULTS.waiting_rooms_per_player, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    waiting_rooms_per_player: u64,
    /// Rooms one address may open a minute.
    #[arg(long, default_value_t = DEFAULTS.rooms_per_minute, value_parser = rate)]
    rooms_per_minute: f64,
    /// New guests one address may make a minute.
    #[arg(long, default_value_t = DEFAULTS.guests_per_minute, value_parser = rate)]
    guests_per_minute: f64,
    /// Room codes that do not exist one address may try a minute.
    #[arg(long, default_value_t = DEFAULTS.misses_per_minute, value_parser = rate)]
    misses_per_minute: f64,
    /// Wrong link codes, recovery codes and passwords one address may try a minute (half as
    /// many passwords for one sign-in name).
    #[arg(long, default_value_t = DEFAULTS.sign_in_failures_per_minute, value_parser = rate)]
    sign_in_failures_per_minute: f64,
    /// HTTP requests one address may make a minute (every route, the web build's files too).
    #[arg(long, default_value_t = DEFAULTS.requests_per_minute, value_parser = rate)]
    requests_per_minute: f64,
    /// Password hashes one address may cause a minute (setting a password, signing in).
    #[arg(long, default_value_t = DEFAULTS.hashes_per_minute, value_parser = rate)]
    hashes_per_minute: f64,
    /// How often one game by days may be paused for vacations.
    #[arg(long, default_value_t = DEFAULTS.pauses_per_game, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    pauses_per_game: u64,
    /// Confirmation e-mails one address may be sent a day.
    #[arg(long, default_value_t = DEFAULTS.mails_per_address, value_parser = clap::value_parser!(u64).range(1..=100))]
    mails_per_address: u64,
    /// Challenges one player may have waiting at once.
    #[arg(long, default_value_t = DEFAULTS.challenges_per_player, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    challenges_per_player: u64,
    /// Seconds in a correspondence day (a day; shorter only to test correspondence games).
    #[arg(long, default_value_t = DEFAULTS.day.as_secs_f64(), value_parser = seconds)]
    day_secs: f64,
    /// Vacation days each player has a year (they pause their correspondence games).
    #[arg(long, default_value_t = DEFAULTS.vacation_days, value_parser = clap::value_parser!(u64).range(0..=365))]
    vacation_days: u64,
    /// Correspondence games one player may be in at once.
    #[arg(long, default_value_t = DEFAULTS.correspondence_per_player, value_parser = clap::value_parser!(u64).range(1..=1_000))]
    correspondence_per_player: u64,
    /// Seconds between a pool's waves of pairing.
    #[arg(long, default_value_t = DEFAULTS.pool_wave.as_secs_f64(), value_parser = seconds)]
    pool_wave_secs: f64,
    /// Seconds in a tournament's minute (an arena's length is in minutes).
    #[arg(long, default_value_t = DEFAULTS.tournament_minute.as_secs_f64(), value_parser = seconds)]
    tournament_minute_secs: f64,
    /// Seconds between looks at a tournament's games (and its pairing of whoever waits).
    #[arg(long, default_value_t = DEFAULTS.tournament_tick.as_secs_f64(), value_parser = seconds)]
    tournament_tick_secs: f64,
    /// Chat phrases a player may send in a row (then one every two seconds).
    #[arg(long, default_value_t = DEFAULTS.chat_burst as u32, value_parser = clap::value_parser!(u32).range(1..=100))]
    chat_burst: u32,
    /// Reads and writes of a player's practice and puzzle progress a minute (four times as
    /// many per address).
    #[arg(long, default_value_t = DEFAULTS.training_per_minute as u32, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    training_per_minute: u32,
    /// Seconds to wait for one Redis command before counting Redis as down.
    #[arg(long, default_value_t = DEFAULTS.redis_wait.as_secs_f64(), value_parser = seconds)]
    redis_wait_secs: f64,
    /// Log lines as text for people, or as JSON lines for a log collector.
    #[arg(long, value_enum, default_value_t = LogFormat::Text)]
    log_format: LogFormat,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let filter = tracing_subscriber::EnvFilter::try_from_env("OAQ_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // No log line carries a token or a password: identities are logged by player id only.
    match cli.serve.log_format {
        LogFormat::Text => logs.init(),
        LogFormat::Json => logs.json().flatten_event(true).init(),
    }
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
        Some(Cmd::Hostile(args)) => {
            let report = runtime.block_on(hostile::run(&args));
            println!("{report}");
            let broken = report.attacks.iter().find(|a| !a.held);
            match (report.bad_answers.first(), broken) {
                (Some(bad), _) => Err(format!("an answer outside the protocol: {bad}")),
                (None, Some(attack)) => Err(format!("an attack succeeded: {}", attack.name)),
                (None, None) => Ok(()),
            }
        }
        Some(Cmd::PoolBench(args)) => {
            print!("{}", oaq_server::pool::bench::run(&args));
            Ok(())
        }
        Some(Cmd::Admin(args)) => runtime.block_on(admin(&args)).map(|out| print!("{out}")),
        None => runtime.block_on(serve(cli.serve.config())),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oaq-server: {e}");
            ExitCode::FAILURE
        }
    }
}

impl ServeArgs {
    fn config(self) -> Config {
        Config {
            listen: self.listen,
            database: self.database,
            redis: self.redis,
            web: self.web,
            node: self.node,
            public_url: self.public_url,
            push_contact: self.push_contact,
            push_loopback: self.push_loopback,
            smtp_url: self.smtp_url,
            mail_from: self.mail_from,
            settings: Settings {
                first_move: Duration::from_secs_f64(self.first_move_secs),
                claim_after: Duration::from_secs_f64(self.claim_after_secs),
                ping_every: Duration::from_secs_f64(self.ping_secs),
                messages_per_second: self.messages_per_second,
                message_burst: 2.0 * self.messages_per_second,
                misses_per_minute: self.misses_per_minute,
                handshake: Duration::from_secs_f64(self.handshake_secs),
                connections_per_address: self.connections_per_address as usize,
                max_connections: self.max_connections as usize,
                waiting_rooms_per_player: self.waiting_rooms_per_player,
                rooms_per_minute: self.rooms_per_minute,
                guests_per_minute: self.guests_per_minute,
                redis_wait: Duration::from_secs_f64(self.redis_wait_secs),
                node: String::new(),
                trusted_proxies: self.trusted_proxies,
                sign_in_failures_per_minute: self.sign_in_failures_per_minute,
                challenges_per_player: self.challenges_per_player,
                requests_per_minute: self.requests_per_minute,
                hashes_per_minute: self.hashes_per_minute,
                pauses_per_game: self.pauses_per_game,
                mails_per_address: self.mails_per_address,
                chat_burst: f64::from(self.chat_burst),
                training_per_minute: f64::from(self.training_per_minute),
                day: Duration::from_secs_f64(self.day_secs),
                vacation_days: self.vacation_days,
                correspondence_per_player: self.correspondence_per_player,
                pool_wave: Duration::from_secs_f64(self.pool_wave_secs),
                tournament_minute: Duration::from_secs_f64(self.tournament_minute_secs),
                tournament_tick: Duration::from_secs_f64(self.tournament_tick_secs),
                ..Settings::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_flag_gives_the_settings_defaults() {
        let cli = Cli::try_parse_from(["oaq-server"]).unwrap();
        let settings = cli.serve.config().settings;
        assert_eq!(
            format!("{settings:?}"),
            format!("{:?}", Settings::default())
        );
    }

    #[test]
    fn a_flag_out_of_its_bounds_is_refused_naming_it() {
        let refused = Cli::try_parse_from(["oaq-server", "--connections-per-address", "0"])
            .err()
            .unwrap()
            .to_string();
        assert!(refused.contains("--connections-per-address"), "{refused}");
    }
}
