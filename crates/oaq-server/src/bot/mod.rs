//! `oaq-bot`: plays on a server as a bot, through the bot API. It follows the bot's event
//! stream, answers challenges by its rules (which rule sets, which clocks, from whom, how many
//! games at once), plays each game in a task of its own with the built-in engine or a program
//! of the line protocol ([`engine`]), may challenge a player itself, reconnects with a growing
//! wait, and writes a line per game it finished. `oaq-bot new` makes a bot account.
//!
//! How to connect a program, with examples: docs/bot-api.md.

pub mod engine;
pub mod game;
pub mod http;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use oaq_net::protocol::{ClockSpec, RulesChoice};
use serde::Deserialize;
use serde_json::{Value, json};

use engine::EngineSpec;
use http::Api;

/// The first wait before a declined or refused challenge is sent again, and the longest.
const FIRST_RETRY: Duration = Duration::from_secs(1);
const LAST_RETRY: Duration = Duration::from_secs(60);

/// Which challenges the bot accepts (each unset field: any; games by days only when asked).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Accept {
    /// Rule sets, by preset (`basic`, `standard`, ...).
    #[serde(default)]
    pub rules: Vec<String>,
    /// The shortest and longest base time, in ms (Fischer clocks).
    pub min_base_ms: Option<u64>,
    pub max_base_ms: Option<u64>,
    /// Games without a clock (default yes), and games by days (default no).
    #[serde(default = "yes")]
    pub untimed: bool,
    #[serde(default)]
    pub correspondence: bool,
    /// `anyone` (default), `bots` or `people`.
    #[serde(default)]
    pub from: Option<String>,
}

/// A challenge the bot sends itself while it has no game.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Challenge {
    /// The player's id.
    pub player: String,
    pub rules: RulesChoice,
    pub clock: ClockSpec,
    /// Games in all (default 1).
    #[serde(default = "one")]
    pub games: u32,
}

impl Default for Accept {
    fn default() -> Accept {
        Accept {
            rules: Vec::new(),
            min_base_ms: None,
            max_base_ms: None,
            untimed: true,
            correspondence: false,
            from: None,
        }
    }
}

fn yes() -> bool {
    true
}

fn one() -> u32 {
    1
}

/// What `oaq-bot play` does (its config file, JSON; flags override it).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub server: String,
    #[serde(default)]
    pub token: String,
    /// `builtin:LEVEL` or a command (`oaq ai --rules {rules} --level hard`).
    pub engine: String,
    #[serde(default)]
    pub accept: Accept,
    /// Games at once (default 4); challenges past it are declined.
    #[serde(default = "four")]
    pub games: usize,
    #[serde(default)]
    pub challenge: Option<Challenge>,
    /// A tournament to join at the start (one whose organiser lets bots in).
    #[serde(default)]
    pub tournament: Option<String>,
    /// Stop after this many games finished (none: play on).
    #[serde(default)]
    pub stop_after: Option<u32>,
}

fn four() -> usize {
    4
}

impl Accept {
    /// Whether a challenge (as the event stream shows it) is one to accept; else why not.
    pub fn check(&self, challenge: &Value) -> Result<(), String> {
        let preset = challenge["preset"].as_str().unwrap_or("");
        if !self.rules.is_empty() && !self.rules.iter().any(|r| r == preset) {
            return Err(format!("the rules {preset}"));
        }
        let clock: ClockSpec = serde_json::from_value(challenge["clock"].clone())
            .map_err(|_| "a clock it does not read".to_owned())?;
        match clock {
            ClockSpec::Untimed(_) if !self.untimed => return Err("no clock".into()),
            ClockSpec::Correspondence { .. } if !self.correspondence => {
                return Err("a game by days".into());
            }
            ClockSpec::Fischer { base_ms, .. }
                if self.min_base_ms.is_some_and(|m| base_ms < m)
                    || self.max_base_ms.is_some_and(|m| base_ms > m) =>
            {
                return Err(format!("a base of {base_ms} ms"));
            }
            _ => {}
        }
        let bot = challenge["from"]["bot"].as_bool().unwrap_or(false);
        match self.from.as_deref() {
            Some("bots") if !bot => Err("a person".into()),
            Some("people") if bot => Err("a bot".into()),
            _ => Ok(()),
        }
    }
}

/// What the running bot shares between its tasks.
struct Bot {
    api: Api,
    config: Config,
    engine: EngineSpec,
    playing: Mutex<HashSet<String>>,
    finished: Mutex<u32>,
    challenges_sent: Mutex<u32>,
    /// The id of its challenge waiting for an answer.
    outstanding: Mutex<Option<String>>,
    /// How long it waits before challenging again after a refusal or a decline (doubled each
    /// time, back to the first once a game starts).
    retry: Mutex<Duration>,
    done: tokio::sync::Notify,
}

/// Play until `config.stop_after` games are finished (or forever).
pub async fn play(config: Config) -> Result<(), String> {
    let engine: EngineSpec = config.engine.parse()?;
    if config.token.is_empty() {
        return Err("no token: give --token, OAQ_BOT_TOKEN or the config's \"token\"".into());
    }
    let api = Api::new(&config.server, &config.token);
    let account = api
        .call("GET", "/api/account", None)
        .await
        .map_err(|e| format!("{}: {e}", config.server))?;
    let name = account["player"]["name"].as_str().unwrap_or("?").to_owned();
    println!("playing as {name} on {}", config.server);
    if let Some(id) = &config.tournament {
        let joined = api
            .call("POST", &format!("/api/tournament/{id}/join"), None)
            .await;
        joined.map_err(|e| format!("joining tournament {id}: {e}"))?;
        println!("in tournament {id}");
    }
    let bot = Arc::new(Bot {
        api,
        config,
        engine,
        playing: Mutex::new(HashSet::new()),
        finished: Mutex::new(0),
        challenges_sent: Mutex::new(0),
        outstanding: Mutex::new(None),
        retry: Mutex::new(FIRST_RETRY),
        done: tokio::sync::Notify::new(),
    });
    tokio::select! {
        () = follow_events(bot.clone()) => Ok(()),
        () = bot.done.notified() => Ok(()),
    }
}

/// The event stream, opened again whenever it drops.
async fn follow_events(bot: Arc<Bot>) {
    let mut wait = Duration::from_millis(500);
    loop {
        match bot.api.stream("/api/stream/event").await {
            Ok(mut lines) => {
                let opened = tokio::time::Instant::now();
                bot.maybe_challenge().await;
                while let Some(event) = lines.next().await {
                    bot.clone().event(event).await;
                }
                if opened.elapsed() > Duration::from_secs(30) {
                    wait = Duration::from_millis(500);
                }
                tracing::info!("the event stream ended: again in {wait:?}");
            }
            Err(e) => tracing::warn!("the event stream: {e}; again in {wait:?}"),
        }
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_secs(60));
    }
}

impl Bot {
    fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
        m.lock().unwrap_or_else(|e| e.into_inner())
    }

    async fn event(self: Arc<Self>, event: Value) {
        match event["type"].as_str() {
            Some("challenge") => self.answer(&event["challenge"]).await,
            Some("challengeCanceled") => {
                let id = event["challenge"]["id"].as_str();
                let ours = {
                    let mut outstanding = Self::lock(&self.outstanding);
                    let ours = id.is_some() && outstanding.as_deref() == id;
                    if ours {
                        *outstanding = None;
                    }
                    ours
                };
                if ours {
                    // Declined (or expired): asked for again later, still counting one less.
                    let mut sent = Self::lock(&self.challenges_sent);
                    *sent = sent.saturating_sub(1);
                    drop(sent);
                    self.retry_later();
                }
            }
            Some("gameStart") => {
                *Self::lock(&self.retry) = FIRST_RETRY;
                *Self::lock(&self.outstanding) = None;
                let Some(code) = event["game"]["id"].as_str().map(str::to_owned) else {
                    return;
                };
                if !Self::lock(&self.playing).insert(code.clone()) {
                    return;
                }
                tokio::spawn(self.game(code));
            }
            _ => {}
        }
    }

    async fn answer(&self, challenge: &Value) {
        let id = challenge["id"].as_str().unwrap_or("");
        let busy = Self::lock(&self.playing).len() >= self.config.games;
        let verdict = if busy {
            Err(format!("{} games at once", self.config.games))
        } else {
            self.config.accept.check(challenge)
        };
        let (answer, why) = match verdict {
            Ok(()) => ("accept", String::new()),
            Err(why) => ("decline", why),
        };
        let from = challenge["from"]["name"].as_str().unwrap_or("?");
        println!("challenge from {from}: {answer} {why}");
        let path = format!("/api/challenge/{id}/{answer}");
        if let Err(e) = self.api.call("POST", &path, None).await {
            tracing::warn!("answering a challenge: {e}");
        }
    }

    /// Send the configured challenge when the bot has no game, none of its challenges waits
    /// and games are left to ask for; refused, it asks again later.
    async fn maybe_challenge(self: &Arc<Self>) {
        let Some(c) = &self.config.challenge else {
            return;
        };
        if !Self::lock(&self.playing).is_empty()
            || Self::lock(&self.outstanding).is_some()
            || *Self::lock(&self.challenges_sent) >= c.games
        {
            return;
        }
        let body = json!({ "rules": c.rules, "clock": c.clock });
        match self
            .api
            .call("POST", &format!("/api/challenge/{}", c.player), Some(&body))
            .await
        {
            Ok(sent) => {
                *Self::lock(&self.challenges_sent) += 1;
                let id = sent["challenge"]["id"].as_str().map(str::to_owned);
                *Self::lock(&self.outstanding) = id;
            }
            Err(e) => {
                tracing::warn!("challenging {}: {e}", c.player);
                self.retry_later();
            }
        }
    }

    /// Challenge again after the current wait, and double the wait for the time after.
    fn retry_later(self: &Arc<Self>) {
        let wait = {
            let mut retry = Self::lock(&self.retry);
            let wait = *retry;
            *retry = (wait * 2).min(LAST_RETRY);
            wait
        };
        let bot = self.clone();
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            bot.maybe_challenge().await;
        });
    }

    async fn game(self: Arc<Self>, code: String) {
        match game::play(&self.api, &self.engine, &code).await {
            Ok(played) => {
                let result = if played.resigned {
                    "resigned (the engine failed twice)".to_owned()
                } else {
                    played.result.to_string()
                };
                println!(
                    "game {} over: {result}; moves {}; engine started {} times",
                    played.code, played.moves, played.engine_starts
                );
            }
            Err(e) => println!("game {code}: {e}"),
        }
        Self::lock(&self.playing).remove(&code);
        let finished = {
            let mut n = Self::lock(&self.finished);
            *n += 1;
            *n
        };
        if self.config.stop_after.is_some_and(|n| finished >= n) {
            self.done.notify_one();
            return;
        }
        self.maybe_challenge().await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn challenges_are_accepted_by_the_config() {
        let accept = Accept {
            rules: vec!["basic".into()],
            min_base_ms: Some(60_000),
            untimed: false,
            from: Some("bots".into()),
            ..Accept::default()
        };
        let challenge = |preset: &str, clock: Value, bot: bool| json!({ "id": "x", "preset": preset, "clock": clock, "from": { "bot": bot } });
        let blitz = json!({ "base_ms": 180_000, "increment_ms": 2_000 });
        assert!(
            accept
                .check(&challenge("basic", blitz.clone(), true))
                .is_ok()
        );
        assert!(
            accept
                .check(&challenge("standard", blitz.clone(), true))
                .is_err()
        );
        assert!(accept.check(&challenge("basic", blitz, false)).is_err());
        let bullet = json!({ "base_ms": 30_000, "increment_ms": 0 });
        assert!(accept.check(&challenge("basic", bullet, true)).is_err());
        assert!(
            accept
                .check(&challenge("basic", json!("untimed"), true))
                .is_err()
        );
        assert!(
            accept
                .check(&challenge("basic", json!({ "days": 3 }), true))
                .is_err()
        );
    }
}
