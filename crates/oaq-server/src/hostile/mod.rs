//! `oaq-server hostile`: a hostile client of our own, for trying a server the way strangers
//! will. From a seed it generates, on many connections, every kind of bad input: broken and
//! oversized JSON, binary frames, numbers out of range, messages out of order (a move before
//! `hello`, a draw accepted that nobody offered), unknown room codes, invisible names, floods.
//! Every answer must be a message of the protocol; a connection may be refused or closed, but
//! the server must keep serving. Bounded in connections, frames and time; it stops by itself.
//! With `--people`, it then runs every attack on the people features ([`people`]) at once, each
//! reporting whether the server's promise held.

pub mod people;

use std::time::{Duration, Instant};

use clap::Args;
use futures_util::{SinkExt, StreamExt};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tokio_tungstenite::tungstenite::Message;

use oaq_net::protocol::{ErrorCode, Notice, ServerMessage, parse_server};

#[derive(Args, Clone, Debug)]
pub struct HostileArgs {
    /// The server's WebSocket (`ws://HOST:PORT/ws`).
    #[arg(long)]
    pub url: String,
    /// The seed of the generator: the same seed sends the same frames.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Connections, each from its own loopback address when the server is on loopback.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=2_000))]
    pub connections: u32,
    /// Frames each connection sends.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub frames: u32,
    /// Seconds at most for the whole run.
    #[arg(long, default_value_t = 60.0, value_parser = crate::settings::seconds)]
    pub seconds: f64,
    /// Then try every attack on the people features at once (the server's default limits).
    #[arg(long)]
    pub people: bool,
}

/// What the server answered.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub connections: u64,
    /// Connections the server refused or closed before their first answer.
    pub refused: u64,
    pub frames_sent: u64,
    pub answers: u64,
    /// Typed refusals, by code.
    pub errors: Vec<(ErrorCode, u64)>,
    /// Answers that are not messages of the protocol (must be none).
    pub bad_answers: Vec<String>,
    pub closed_by_server: u64,
    /// The people attacks (with `--people`): each must hold.
    pub attacks: Vec<people::Attack>,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} connections ({} refused), {} frames sent, {} answers, {} closed by the server",
            self.connections, self.refused, self.frames_sent, self.answers, self.closed_by_server
        )?;
        for (code, n) in &self.errors {
            writeln!(f, "  {code}: {n}")?;
        }
        write!(
            f,
            "answers outside the protocol: {}",
            self.bad_answers.len()
        )?;
        for a in &self.attacks {
            let verdict = if a.held { "held" } else { "BROKEN" };
            write!(f, "\n{verdict}: {} ({})", a.name, a.detail)?;
        }
        Ok(())
    }
}

/// Valid frames to break or to send at the wrong time.
const VALID: &[&str] = &[
    r#"{"type":"hello","protocol":1,"name":"Lan"}"#,
    r#"{"type":"create","rules":"basic","clock":{"base_ms":60000,"increment_ms":0},"public":true}"#,
    r#"{"type":"join","code":"ABCDEF","since":3}"#,
    r#"{"type":"watch","code":"ABCDEF"}"#,
    r#"{"type":"move","ply":0,"move":"3+","think_ms":500}"#,
    r#"{"type":"resign"}"#,
    r#"{"type":"accept_draw"}"#,
    r#"{"type":"claim"}"#,
    r#"{"type":"rematch"}"#,
    r#"{"type":"leave"}"#,
    r#"{"type":"lobby"}"#,
    r#"{"type":"leaderboard"}"#,
    r#"{"type":"ping","id":7}"#,
];

/// One hostile frame.
fn frame(rng: &mut StdRng) -> Message {
    let text = match rng.random_range(0..12) {
        0 => {
            return Message::binary(
                (0..rng.random_range(0..256))
                    .map(|_| rng.random::<u8>())
                    .collect::<Vec<u8>>(),
            );
        }
        1 => "x".repeat(rng.random_range(16_000..70_000)),
        2 => format!(
            r#"{{"type":"move","ply":{},"move":"{}","think_ms":{}}}"#,
            rng.random::<u32>(),
            ["1+", "9-", "swap", "0+", "99+", ""][rng.random_range(0..6)],
            rng.random::<u64>()
        ),
        3 => format!(
            r#"{{"type":"join","code":"{}","since":{}}}"#,
            ["ZZZZZZ", "abcdef", "../../x", "'; DROP", "K7Q2MX"][rng.random_range(0..5)],
            rng.random::<u64>()
        ),
        4 => format!(
            r#"{{"type":"hello","protocol":1,"name":"{}"}}"#,
            ["\\u200b\\u200d", "\\u202eevil", "", "A", "\\ufeff"][rng.random_range(0..5)]
        ),
        5 => format!(
            r#"{{"type":"create","rules":"basic","clock":{{"base_ms":{},"increment_ms":{}}}}}"#,
            rng.random::<u64>(),
            rng.random::<u64>()
        ),
        6 => {
            let base = VALID[rng.random_range(0..VALID.len())].as_bytes();
            let mut bytes = base.to_vec();
            let i = rng.random_range(0..bytes.len());
            bytes[i] = rng.random();
            String::from_utf8_lossy(&bytes).into_owned()
        }
        7 => {
            let base = VALID[rng.random_range(0..VALID.len())];
            base[..rng.random_range(0..base.len())].to_owned()
        }
        _ => VALID[rng.random_range(0..VALID.len())].to_owned(),
    };
    Message::text(text)
}

pub(crate) type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Connect, from loopback address `from` when the server is on loopback.
pub(crate) async fn connect(url: &str, from: Option<std::net::Ipv4Addr>) -> Result<Ws, String> {
    let host = url
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .unwrap_or_default()
        .to_owned();
    let addr: std::net::SocketAddr = host
        .parse()
        .map_err(|_| format!("{host}: give the server as ws://IP:PORT/ws"))?;
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
    if let Some(from) = from {
        socket.bind((from, 0).into()).map_err(|e| e.to_string())?;
    }
    let stream = socket.connect(addr).await.map_err(|e| e.to_string())?;
    let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
    tokio::time::timeout(
        Duration::from_secs(10),
        tokio_tungstenite::client_async(url, stream),
    )
    .await
    .map_err(|_| "no answer to the upgrade".to_owned())?
    .map(|(ws, _)| ws)
    .map_err(|e| e.to_string())
}

/// One hostile connection's run.
async fn one(url: String, from: Option<std::net::Ipv4Addr>, seed: u64, frames: u32) -> Report {
    let mut report = Report {
        connections: 1,
        ..Report::default()
    };
    let mut rng = StdRng::seed_from_u64(seed);
    let Ok(ws) = connect(&url, from).await else {
        report.refused = 1;
        return report;
    };
    let (mut sink, mut stream) = ws.split();
    let mut errors: std::collections::HashMap<ErrorCode, u64> = Default::default();
    // Half the connections say hello properly first, to reach the room commands.
    if rng.random_bool(0.5) {
        let _ = sink.send(Message::text(VALID[0])).await;
    }
    let reader = async {
        while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(3), stream.next()).await
        {
            match msg {
                Ok(Message::Text(text)) => {
                    report.answers += 1;
                    match parse_server(&text) {
                        Ok(ServerMessage::Notice(Notice::Error { code, .. })) => {
                            *errors.entry(code).or_default() += 1;
                        }
                        Ok(_) => {}
                        Err(_) => report.bad_answers.push(text.chars().take(200).collect()),
                    }
                }
                Ok(Message::Close(_)) | Err(_) => {
                    report.closed_by_server += 1;
                    return;
                }
                Ok(_) => {}
            }
        }
    };
    let writer = async {
        let mut sent = 0;
        for _ in 0..frames {
            if sink.send(frame(&mut rng)).await.is_err() {
                break;
            }
            sent += 1;
        }
        sent
    };
    let (sent, ()) = tokio::join!(writer, reader);
    report.frames_sent = sent;
    report.errors = errors.into_iter().collect();
    report
}

/// Run the hostile clients against `args.url`; the report says what came back.
pub async fn run(args: &HostileArgs) -> Report {
    let loopback = args.url.starts_with("ws://127.");
    let deadline = Duration::from_secs_f64(args.seconds);
    let started = Instant::now();
    let tasks: Vec<_> = (0..args.connections)
        .map(|i| {
            // 127.0.1.x, 127.0.2.x, ...: each connection its own address on loopback.
            let from = loopback
                .then(|| std::net::Ipv4Addr::new(127, 0, 1 + (i / 250) as u8, 1 + (i % 250) as u8));
            let seed = args.seed.wrapping_mul(1_000_003).wrapping_add(u64::from(i));
            tokio::spawn(tokio::time::timeout(
                deadline,
                one(args.url.clone(), from, seed, args.frames),
            ))
        })
        .collect();
    let mut total = Report::default();
    let mut errors: std::collections::BTreeMap<String, (ErrorCode, u64)> = Default::default();
    for task in tasks {
        let Ok(Ok(r)) = task.await else { continue };
        total.connections += r.connections;
        total.refused += r.refused;
        total.frames_sent += r.frames_sent;
        total.answers += r.answers;
        total.closed_by_server += r.closed_by_server;
        total.bad_answers.extend(r.bad_answers);
        for (code, n) in r.errors {
            errors.entry(code.to_string()).or_insert((code, 0)).1 += n;
        }
    }
    total.errors = errors.into_values().collect();
    if args.people {
        total.attacks = people::run(&args.url).await;
    }
    tracing::info!("hostile run: {:?}", started.elapsed());
    total
}
