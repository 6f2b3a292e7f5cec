//! A server's settings (timings and bounds, every one a flag of `oaq-server`) and its clock.

use std::time::Duration;

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
    /// How long a new connection has to send its request's header, and then its `hello`.
    pub handshake: Duration,
    /// Connections open at once from one address (an IPv6 /64), and in all.
    pub connections_per_address: usize,
    pub max_connections: usize,
    /// Rooms waiting for players that one player may sit in at once.
    pub waiting_rooms_per_player: u64,
    /// Rooms one address may open a minute, and new guests it may make a minute.
    pub rooms_per_minute: f64,
    pub guests_per_minute: f64,
    /// Wrong link codes, recovery codes and passwords one address may try a minute (half as
    /// many passwords for one sign-in name, from anywhere).
    pub sign_in_failures_per_minute: f64,
    /// HTTP requests one address may make a minute (every route, the web build's files too).
    pub requests_per_minute: f64,
    /// Password hashes (setting a sign-in name and password, signing in) a minute: per
    /// address, and per player for setting one.
    pub hashes_per_minute: f64,
    /// Friends, requests and challenges one player may have at once; players one may block;
    /// reports a day.
    pub friends_per_player: u64,
    pub blocks_per_player: u64,
    pub challenges_per_player: u64,
    pub reports_per_day: u64,
    /// A correspondence "day" (a real day; tests shorten it), the vacation days a player has
    /// a year, and the correspondence games one player may be in at once.
    pub day: Duration,
    pub vacation_days: u64,
    pub correspondence_per_player: u64,
    /// How often one game by days may be paused (each pause and its end are two events in
    /// its log, which every snapshot carries).
    pub pauses_per_game: u64,
    /// Confirmation e-mails one address may be sent a day, and one player may ask for.
    pub mails_per_address: u64,
    /// The time between a pool's waves of pairing.
    pub pool_wave: Duration,
    /// A tournament's minute (a real minute; tests shorten it), and how often the node running
    /// a tournament looks at its games and pairs whoever waits.
    pub tournament_minute: Duration,
    pub tournament_tick: Duration,
    /// Chat phrases a connection may send a second, and in one burst.
    pub chat_per_second: f64,
    pub chat_burst: f64,
    /// Reads and writes of a player's training records (practice and puzzle progress) a
    /// minute, per player and (four times as many) per address: a whole account's records
    /// go up and come down within one minute's allowance.
    pub training_per_minute: f64,
    /// The longest wait for one Redis command; beyond it Redis counts as down.
    pub redis_wait: Duration,
    /// This node's name in the cluster.
    pub node: String,
    /// Reverse proxies in front of the server (nginx): a connection from one of them is not
    /// held to the per-address cap, and its requests are counted against the address in their
    /// `X-Forwarded-For` header instead.
    pub trusted_proxies: Vec<std::net::IpAddr>,
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
            handshake: Duration::from_secs(10),
            connections_per_address: 64,
            max_connections: 20_000,
            waiting_rooms_per_player: 5,
            rooms_per_minute: 20.0,
            guests_per_minute: 20.0,
            sign_in_failures_per_minute: 10.0,
            requests_per_minute: 600.0,
            hashes_per_minute: 30.0,
            friends_per_player: 500,
            blocks_per_player: 1_000,
            challenges_per_player: 20,
            reports_per_day: 20,
            day: Duration::from_secs(86_400),
            vacation_days: 30,
            correspondence_per_player: 50,
            pauses_per_game: 12,
            mails_per_address: 3,
            pool_wave: Duration::from_secs(2),
            tournament_minute: Duration::from_secs(60),
            tournament_tick: Duration::from_secs(1),
            chat_per_second: 0.5,
            chat_burst: 4.0,
            training_per_minute: 300.0,
            redis_wait: Duration::from_millis(1_500),
            node: String::new(),
            trusted_proxies: Vec::new(),
        }
    }
}

impl Settings {
    /// A correspondence day in ms.
    pub fn day_ms(&self) -> u64 {
        self.day.as_millis() as u64
    }
}

/// Server time: Unix milliseconds, the same on every node (clocks are stamped with it).
pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// Reads a flag's number of seconds (0.05 s to a day).
pub fn seconds(text: &str) -> Result<f64, String> {
    let v: f64 = text.parse().map_err(|_| {
        format!(
            "{} is not a number of seconds",
            oaq_rules::excerpt::quoted(text)
        )
    })?;
    if v.is_finite() && (0.05..=86_400.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} s is outside 0.05..=86400"))
    }
}

/// Reads a flag's rate (1 to 10,000 a second).
pub fn rate(text: &str) -> Result<f64, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| format!("{} is not a number", oaq_rules::excerpt::quoted(text)))?;
    if v.is_finite() && (1.0..=10_000.0).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{v} is outside 1..=10000"))
    }
}
