//! `oaq-server loadtest`: starts a server of its own (this program, on a fresh SQLite file in a
//! temporary folder, on a free loopback port), opens N connections in N/2 rooms, measures the
//! server's memory with every connection idle in its room, then has every room play random legal
//! moves for a while and reports the round trip of each move (sent → the room's `moved` back).
//! Bounded: at most 20,000 connections and 600 s; it stops by itself and stops its server.
//!
//! Figures on this machine, and how they changed: docs/measurements.md ("The online server
//! under load").

use std::process::Stdio;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Args;
use futures_util::{SinkExt, StreamExt};
use oaq_net::protocol::{
    ClientMessage, ClockSpec, First, Notice, PROTOCOL, RoomEvent, RulesChoice, ServerMessage,
    parse_server,
};
use oaq_rules::{Move, Position, presets};
use rand::RngExt;
use tokio::io::AsyncBufReadExt;
use tokio::sync::Mutex;
use tokio_tungstenite::tungstenite::Message;

#[derive(Args, Clone)]
pub struct LoadArgs {
    /// Connections to open (two per room).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(2..=20_000))]
    connections: u32,
    /// Seconds of play after every connection is in its room.
    #[arg(long, default_value_t = 20.0, value_parser = crate::settings::seconds)]
    seconds: f64,
    /// Milliseconds each player waits before its move (a person thinks; 0: as fast as it can).
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// The rule set the rooms play.
    #[arg(long, default_value = "basic")]
    rules: String,
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

#[derive(Default)]
struct Tally {
    moves: AtomicU64,
    errors: AtomicU64,
    open: AtomicUsize,
    games: AtomicU64,
    rtts_us: Mutex<Vec<u64>>,
}

pub async fn run(args: LoadArgs) -> Result<(), String> {
    let rules = presets::get(&args.rules)
        .ok_or_else(|| format!("no preset {}", oaq_rules::excerpt::quoted(&args.rules)))?
        .rules;
    if rules.players != 2 {
        return Err("the load test plays 2-player rule sets".into());
    }
    let dir = std::env::temp_dir().join(format!("oaq-loadtest-{}", std::process::id()));
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let exe = std::env::current_exe().map_err(|e| format!("finding this program: {e}"))?;
    let mut child = tokio::process::Command::new(exe)
        .args(["--listen", "127.0.0.1:0", "--database"])
        .arg(dir.join("load.sqlite3"))
        .args(["--ping-secs", "30", "--messages-per-second", "1000"])
        .env("OAQ_LOG", "warn")
        .stdout(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .map_err(|e| format!("starting the server: {e}"))?;
    let pid = child.id().unwrap_or(0);
    let stdout = child.stdout.take().ok_or("no output from the server")?;
    let mut lines = tokio::io::BufReader::new(stdout).lines();
    let first = tokio::time::timeout(Duration::from_secs(30), lines.next_line())
        .await
        .map_err(|_| "the server did not start in 30 s")?
        .map_err(|e| format!("reading the server: {e}"))?
        .ok_or("the server stopped at once")?;
    let addr = first
        .split_whitespace()
        .find_map(|w| w.strip_prefix("http://"))
        .ok_or_else(|| format!("the server said {first:?}"))?
        .to_owned();
    let url = format!("ws://{addr}/ws");
    let rss_before = rss_kib(pid);
    println!("server pid {pid} at {addr}, {rss_before} KiB before connections");

    let rooms = args.connections / 2;
    let tally = Arc::new(Tally::default());
    let started = Instant::now();
    // Open the rooms a few hundred at a time, as players would arrive.
    let mut pairs = Vec::with_capacity(rooms as usize);
    let batch = 200;
    for chunk in (0..rooms).collect::<Vec<_>>().chunks(batch) {
        let mut set = tokio::task::JoinSet::new();
        for &pair in chunk {
            let url = url.clone();
            set.spawn(async move { open_pair(&url, pair).await });
        }
        while let Some(joined) = set.join_next().await {
            match joined {
                Ok(Ok(pair)) => pairs.push(pair),
                Ok(Err(e)) => return Err(format!("opening a room: {e}")),
                Err(e) => return Err(format!("opening a room: {e}")),
            }
        }
    }
    let open_s = started.elapsed().as_secs_f64();
    tokio::time::sleep(Duration::from_secs(2)).await;
    let rss_idle = rss_kib(pid);
    let per_conn = (rss_idle.saturating_sub(rss_before)) as f64 / f64::from(args.connections);
    println!(
        "{} connections in {} rooms opened in {open_s:.1} s; server {rss_idle} KiB: {per_conn:.1} KiB per idle connection",
        pairs.len() * 2,
        pairs.len()
    );

    let play_for = Duration::from_secs_f64(args.seconds);
    let until = Instant::now() + play_for;
    let mut set = tokio::task::JoinSet::new();
    for (code, a, b) in pairs {
        tally.open.fetch_add(2, Ordering::Relaxed);
        for (ws, seat) in [(a, 0usize), (b, 1usize)] {
            let tally = tally.clone();
            let code = code.clone();
            let think = args.think_ms;
            set.spawn(async move { play(ws, code, seat, rules, think, until, tally).await });
        }
    }
    while set.join_next().await.is_some() {}
    let mut rtts = tally.rtts_us.lock().await.clone();
    rtts.sort_unstable();
    let pct = |p: f64| {
        rtts.get(((rtts.len() as f64 - 1.0) * p).round() as usize)
            .map_or(0.0, |&us| us as f64 / 1000.0)
    };
    let moves = tally.moves.load(Ordering::Relaxed);
    println!(
        "played {:.0} s: {moves} moves ({:.0} a second), {} games finished, {} errors; \
         {} of {} connections still held",
        play_for.as_secs_f64(),
        moves as f64 / play_for.as_secs_f64(),
        tally.games.load(Ordering::Relaxed),
        tally.errors.load(Ordering::Relaxed),
        tally.open.load(Ordering::Relaxed),
        args.connections / 2 * 2,
    );
    println!(
        "round trip: median {:.2} ms, p99 {:.2} ms, worst {:.2} ms; server {} KiB at the end",
        pct(0.5),
        pct(0.99),
        pct(1.0),
        rss_kib(pid)
    );
    let _ = child.kill().await;
    let _ = std::fs::remove_dir_all(&dir);
    Ok(())
}

/// The server's resident memory, from /proc (0 where there is none).
fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|v| v.parse().ok()))
        })
        .unwrap_or(0)
}

async fn send(ws: &mut Ws, msg: &ClientMessage) -> Result<(), String> {
    let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
    ws.send(Message::text(text))
        .await
        .map_err(|e| e.to_string())
}

/// The next protocol message (pings are answered by the library).
async fn recv(ws: &mut Ws) -> Result<ServerMessage, String> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Text(text))) => return parse_server(&text),
            Some(Ok(Message::Close(_))) | None => return Err("closed".into()),
            Some(Ok(_)) => {}
            Some(Err(e)) => return Err(e.to_string()),
        }
    }
}

/// A player from loopback address number `n` (127.0.1.1, 127.0.1.2, ...): the server's caps
/// per address see as many addresses as players, as on the internet.
async fn connect(url: &str, name: &str, n: u32) -> Result<Ws, String> {
    let from = std::net::Ipv4Addr::new(127, 0, 1 + (n / 250) as u8, 1 + (n % 250) as u8);
    let mut ws = crate::hostile::connect(url, Some(from))
        .await
        .map_err(|e| format!("connecting: {e}"))?;
    send(
        &mut ws,
        &ClientMessage::Hello {
            protocol: PROTOCOL,
            name: name.into(),
            token: None,
            device: None,
            child: false,
            batches: false,
            then: 0,
        },
    )
    .await?;
    match recv(&mut ws).await? {
        ServerMessage::Notice(Notice::Welcome { .. }) => Ok(ws),
        other => Err(format!("expected welcome, got {other:?}")),
    }
}

/// Two players in a new room: the first creates it (moving first), the second joins.
async fn open_pair(url: &str, pair: u32) -> Result<(String, Ws, Ws), String> {
    let mut a = connect(url, "Load A", 2 * pair).await?;
    send(
        &mut a,
        &ClientMessage::Create {
            rules: RulesChoice::Preset("basic".into()),
            clock: ClockSpec::UNTIMED,
            first: First::Me,
            public: false,
        },
    )
    .await?;
    let code = loop {
        if let ServerMessage::Notice(Notice::Created { code }) = recv(&mut a).await? {
            break code;
        }
    };
    let mut b = connect(url, "Load B", 2 * pair + 1).await?;
    send(
        &mut b,
        &ClientMessage::Join {
            code: code.clone(),
            since: None,
        },
    )
    .await?;
    Ok((code, a, b))
}

/// A think time around `think_ms` (half to one and a half times): players who all moved on
/// the same beat would measure the beat, not the server.
fn thinking(think_ms: u64) -> Duration {
    Duration::from_millis(think_ms / 2 + rand::rng().random_range(0..=think_ms))
}

/// Play seat `seat` of room `code` until `until`: random legal moves, each timed from sending
/// it to seeing it come back as the room's event. A finished game starts a rematch.
async fn play(
    ws: Ws,
    code: String,
    seat: usize,
    rules: oaq_rules::RuleSet,
    think_ms: u64,
    until: Instant,
    tally: Arc<Tally>,
) {
    let mut player = Player {
        ws,
        code,
        seat,
        rules,
        pos: Position::new(rules),
        order: vec![0, 1],
        sent: None,
        playing: false,
        my_turn_since: None,
        rtts: Vec::new(),
        think_ms,
        think: thinking(think_ms),
        tally,
    };
    while Instant::now() < until {
        let wait = player.wait(until);
        let msg = tokio::select! {
            m = recv(&mut player.ws) => Some(m),
            _ = tokio::time::sleep(wait) => None,
        };
        let going_on = match msg {
            None => player.move_if_thought().await,
            Some(Err(_)) => false,
            Some(Ok(ServerMessage::Notice(notice))) => player.notice(notice),
            Some(Ok(ServerMessage::Room(ev))) if ev.code == player.code => {
                player.event(ev.event).await
            }
            Some(Ok(ServerMessage::Room(_))) => true,
        };
        if !going_on {
            break;
        }
        player.note_turn();
    }
    let tally = player.tally.clone();
    tally.rtts_us.lock().await.extend(player.rtts);
    let _ = player.ws.close(None).await;
    if Instant::now() < until {
        tally.open.fetch_sub(1, Ordering::Relaxed);
    }
}

/// One seat's player in the load test: the game as it sees it and the move it waits for.
struct Player {
    ws: Ws,
    code: String,
    seat: usize,
    rules: oaq_rules::RuleSet,
    pos: Position,
    order: Vec<usize>,
    /// The move sent and not yet seen back: its ply and when it left.
    sent: Option<(u32, Instant)>,
    playing: bool,
    my_turn_since: Option<Instant>,
    rtts: Vec<u64>,
    think_ms: u64,
    think: Duration,
    tally: Arc<Tally>,
}

impl Player {
    /// How long to wait for a message: until this move is thought, or the end.
    fn wait(&self, until: Instant) -> Duration {
        match self.my_turn_since {
            Some(t) if self.sent.is_none() => {
                (t + self.think).saturating_duration_since(Instant::now())
            }
            _ => until.saturating_duration_since(Instant::now()),
        }
    }

    /// A random legal move, when it is this seat's turn and the think time has passed; false
    /// when the connection is gone.
    async fn move_if_thought(&mut self) -> bool {
        if self.my_turn_since.is_none() || self.sent.is_some() {
            return true;
        }
        let legal = self.pos.legal_moves();
        if legal.is_empty() {
            return true;
        }
        let mv: Move = legal[rand::rng().random_range(0..legal.len())];
        let ply = self.pos.ply();
        let msg = ClientMessage::Move {
            ply,
            mv: mv.to_string(),
            think_ms: Some(self.think_ms),
        };
        if send(&mut self.ws, &msg).await.is_err() {
            return false;
        }
        self.sent = Some((ply, Instant::now()));
        self.my_turn_since = None;
        self.think = thinking(self.think_ms);
        true
    }

    /// A notice: a refusal counted, this seat, or a rematch room's log so far.
    fn notice(&mut self, notice: Notice) -> bool {
        match notice {
            Notice::Error { code, message, .. } => {
                let errors = self.tally.errors.fetch_add(1, Ordering::Relaxed) + 1;
                if errors <= 3 {
                    eprintln!("refused: {code}: {message}");
                }
                self.sent = None;
            }
            Notice::Seat {
                code,
                seat: Some(seat),
            } if code == self.code => self.seat = seat,
            Notice::Snapshot {
                code, events, you, ..
            } if code == self.code => {
                self.seat = you.unwrap_or(self.seat);
                for event in events {
                    match event {
                        RoomEvent::Started { order, .. } => {
                            self.order = order;
                            self.playing = true;
                        }
                        RoomEvent::Moved { mv, .. } if !self.replay(&mv) => break,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        true
    }

    /// Move `mv` played on this player's position; false if it does not parse or play.
    fn replay(&mut self, mv: &str) -> bool {
        matches!(mv.parse::<Move>().map(|m| self.pos.play(m)), Ok(Ok(_)))
    }

    /// One of the room's events; false when the game can no longer be followed.
    async fn event(&mut self, event: RoomEvent) -> bool {
        match event {
            RoomEvent::Started { order, .. } => {
                self.order = order;
                self.playing = true;
            }
            RoomEvent::Moved { mv, ply, .. } => {
                if let Some((sent_ply, at)) = self.sent
                    && sent_ply == ply
                {
                    self.rtts.push(at.elapsed().as_micros() as u64);
                    self.tally.moves.fetch_add(1, Ordering::Relaxed);
                    self.sent = None;
                }
                return self.replay(&mv);
            }
            RoomEvent::Ended { .. } => {
                self.playing = false;
                if self.seat == 0 {
                    self.tally.games.fetch_add(1, Ordering::Relaxed);
                }
                // Both players ask: a rematch needs every player's yes.
                return send(&mut self.ws, &ClientMessage::Rematch).await.is_ok();
            }
            RoomEvent::Rematch { room } => {
                self.code = room;
                self.pos = Position::new(self.rules);
                self.sent = None;
                self.my_turn_since = None;
                let join = ClientMessage::Join {
                    code: self.code.clone(),
                    since: None,
                };
                return send(&mut self.ws, &join).await.is_ok();
            }
            _ => {}
        }
        true
    }

    /// Whether it has become this seat's turn (the clock of its thinking starts).
    fn note_turn(&mut self) {
        if !self.playing || self.sent.is_some() || self.my_turn_since.is_some() {
            return;
        }
        if self.pos.is_over() {
            return;
        }
        let side = self.pos.to_move();
        let side = if self.pos.swapped() && side < 2 {
            1 - side
        } else {
            side
        };
        if self.order[side] == self.seat {
            self.my_turn_since = Some(Instant::now());
        }
    }
}
