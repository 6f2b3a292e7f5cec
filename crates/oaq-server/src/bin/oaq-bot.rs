//! `oaq-bot`: plays on an Ô ăn quan server as a bot, with the built-in engine or any program
//! that speaks `oaq ai`'s line protocol. `oaq-bot new` makes the bot's account.
//!
//! ```text
//! OAQ_BOT_PASSWORD=... oaq-bot new --server http://127.0.0.1:8080 --name Minh --login minhbot
//! OAQ_BOT_TOKEN=oaqbot_... oaq-bot play --server http://127.0.0.1:8080 --engine builtin:hard
//! oaq-bot play --config bot.json          # what to accept, how many games, a challenge
//! ```
//!
//! The bot API and the line protocol: docs/bot-api.md.

use std::process::ExitCode;

use clap::{Parser, Subcommand};
use oaq_net::protocol::{ClockSpec, RulesChoice};
use oaq_server::bot::{self, Config};

#[derive(Parser)]
#[command(
    name = "oaq-bot",
    version,
    about = "Play on an Ô ăn quan server as a bot"
)]
struct Cli {
    #[command(subcommand)]
    command: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Make a new bot: a player with a sign-in name, turned into a bot. Prints its token
    /// (shown once). The password comes from OAQ_BOT_PASSWORD.
    New {
        #[arg(long)]
        server: String,
        #[arg(long)]
        name: String,
        #[arg(long)]
        login: String,
    },
    /// Play: follow the bot's events, accept challenges, play its games.
    Play(PlayArgs),
    /// The built-in engine as a program of the line protocol: a state JSON a line in, a
    /// `{"move": ...}` a line out (what `oaq ai` speaks, without the game).
    Engine {
        /// A preset's name.
        #[arg(long)]
        rules: String,
        #[arg(long, default_value = "medium")]
        level: oaq_ai::Level,
    },
}

#[derive(clap::Args)]
struct PlayArgs {
    /// A JSON config (server, token, engine, accept, games, challenge, stop_after); the flags
    /// below override it.
    #[arg(long)]
    config: Option<std::path::PathBuf>,
    /// The server (`https://HOST`), or the nodes of one, comma-separated: a node that does not
    /// answer passes the bot to the next.
    #[arg(long)]
    server: Option<String>,
    /// The bot's token (else OAQ_BOT_TOKEN, else the config's).
    #[arg(long)]
    token: Option<String>,
    /// `builtin:LEVEL` (easy, medium, hard, master, 1-10) or a command of the line protocol
    /// (`{rules}`: the game's preset, `{move_ms}`: the time a move may take).
    #[arg(long)]
    engine: Option<String>,
    /// Games at once.
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=32))]
    games: Option<u16>,
    /// Stop after this many games.
    #[arg(long)]
    stop_after: Option<u32>,
    /// Join this tournament at the start (its organiser must let bots in).
    #[arg(long)]
    tournament: Option<String>,
    /// Challenge this player (an id) when there is no game; with --rules and --clock.
    #[arg(long)]
    challenge: Option<String>,
    #[arg(long, default_value = "basic")]
    rules: String,
    /// `M+S` (minutes and seconds added a move), `untimed`, or `Nd` (days a move).
    #[arg(long, default_value = "3+2")]
    clock: String,
}

/// `3+2`, `0.5+0`, `untimed`, `3d`.
fn parse_clock(text: &str) -> Result<ClockSpec, String> {
    let bad = || format!("clock: {text:?} is not M+S, untimed or Nd");
    let clock = if text == "untimed" {
        ClockSpec::UNTIMED
    } else if let Some(days) = text.strip_suffix('d') {
        ClockSpec::Correspondence {
            days: days.parse().map_err(|_| bad())?,
        }
    } else {
        let (minutes, seconds) = text.split_once('+').ok_or_else(bad)?;
        let minutes: f64 = minutes.parse().map_err(|_| bad())?;
        let seconds: u64 = seconds.parse().map_err(|_| bad())?;
        if !(0.0..=180.0).contains(&minutes) {
            return Err(bad());
        }
        ClockSpec::Fischer {
            base_ms: (minutes * 60_000.0) as u64,
            increment_ms: seconds.saturating_mul(1000),
        }
    };
    clock.validate()?;
    Ok(clock)
}

fn config(args: PlayArgs) -> Result<Config, String> {
    let mut config = match &args.config {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
            serde_json::from_str::<Config>(&text).map_err(|e| format!("{}: {e}", path.display()))?
        }
        None => Config {
            server: String::new(),
            token: String::new(),
            engine: "builtin:medium".into(),
            accept: Default::default(),
            games: 4,
            challenge: None,
            tournament: None,
            stop_after: None,
        },
    };
    if let Some(server) = args.server {
        config.server = server;
    }
    if let Some(token) = args.token.or_else(|| std::env::var("OAQ_BOT_TOKEN").ok()) {
        config.token = token;
    }
    if let Some(engine) = args.engine {
        config.engine = engine;
    }
    if let Some(games) = args.games {
        config.games = games.into();
    }
    if args.tournament.is_some() {
        config.tournament = args.tournament;
    }
    if args.stop_after.is_some() {
        config.stop_after = args.stop_after;
    }
    if let Some(player) = args.challenge {
        config.challenge = Some(bot::Challenge {
            player,
            rules: RulesChoice::Preset(args.rules),
            clock: parse_clock(&args.clock)?,
            games: config.stop_after.unwrap_or(1),
        });
    }
    if config.server.is_empty() {
        return Err("no server: give --server or the config's \"server\"".into());
    }
    Ok(config)
}

async fn new_bot(server: &str, name: &str, login: &str) -> Result<(), String> {
    let password = std::env::var("OAQ_BOT_PASSWORD")
        .map_err(|_| "give the bot's password in OAQ_BOT_PASSWORD".to_owned())?;
    let api = bot::http::Api::new(server, "");
    let body = serde_json::json!({ "name": name, "login": login, "password": password });
    let made = api
        .call("POST", "/api/bot/new", Some(&body))
        .await
        .map_err(|e| e.to_string())?;
    println!(
        "bot {} ({})",
        made["player"]["name"].as_str().unwrap_or("?"),
        made["player"]["id"].as_str().unwrap_or("?")
    );
    println!(
        "token (shown once; keep it secret): {}",
        made["token"].as_str().unwrap_or("")
    );
    Ok(())
}

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("OAQ_LOG")
                .unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("oaq-bot: {e}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Cmd::New {
                server,
                name,
                login,
            } => new_bot(&server, &name, &login).await,
            Cmd::Play(args) => bot::play(config(args)?).await,
            Cmd::Engine { rules, level } => {
                let rules = oaq_rules::presets::get(&rules)
                    .map(|p| p.rules)
                    .ok_or_else(|| format!("rules: {rules:?} is not a preset"))?;
                bot::engine::serve_lines(rules, level)
            }
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("oaq-bot: {e}");
            ExitCode::from(2)
        }
    }
}
