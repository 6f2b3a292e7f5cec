//! What the online tests share (the server's and the game's): a real `oaq-server` process on a
//! free loopback port, real PostgreSQL and Redis servers of their own in temporary folders, an
//! SMTP server, a fault proxy, and a WebSocket client that speaks the protocol.
//!
//! ```no_run
//! use oaq_testkit::{Client, ServerProcess, TempDir};
//! # async fn f() {
//! let dir = TempDir::new("example");
//! let server = ServerProcess::sqlite(&dir, &[]);
//! let an = Client::connect(&server.url(), "An").await;
//! assert_eq!(an.player.name, "An");
//! # }
//! ```

use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use oaq_net::correspondence::{MyGame, Vacation};
use oaq_net::notify::NotifySettings;
use oaq_net::protocol::{
    ClientMessage, ClockSpec, ErrorCode, First, Notice, PROTOCOL, PlayerInfo, RoomEvent,
    RulesChoice, Sequenced, ServerMessage, parse_server,
};
use oaq_net::social::{Challenge, Profile, Relations};
use oaq_rules::Position;
use tokio_tungstenite::tungstenite::Message;

/// How long a test waits for any one message before it fails.
pub const PATIENCE: Duration = Duration::from_secs(15);

/// A temporary folder, removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(what: &str) -> TempDir {
        static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("oaq-test-{what}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A port nobody listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A running `oaq-server`.
pub struct ServerProcess {
    pub child: Child,
    pub addr: String,
    pub args: Vec<String>,
}

impl ServerProcess {
    /// Start `oaq-server` with `args` (and `--listen` on a free port unless given).
    pub fn start(args: &[&str]) -> ServerProcess {
        let mut args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        if !args.iter().any(|a| a == "--listen") {
            args.push("--listen".into());
            args.push("127.0.0.1:0".into());
        }
        let mut child = Command::new(server_binary())
            .args(&args)
            // Warnings only, unless a test run asks for more (`OAQ_TEST_SERVER_LOG=info`).
            .env(
                "OAQ_LOG",
                std::env::var("OAQ_TEST_SERVER_LOG").unwrap_or_else(|_| "warn".into()),
            )
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("oaq-server starts");
        let stdout = child.stdout.take().unwrap();
        let mut line = String::new();
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let addr = line
            .split_whitespace()
            .find_map(|w| w.strip_prefix("http://"))
            .unwrap_or_else(|| panic!("oaq-server said {line:?}"))
            .to_owned();
        // Keep later output from blocking the server on a full pipe.
        ServerProcess { child, addr, args }
    }

    /// Start on the SQLite file in `dir`, with extra `args`.
    pub fn sqlite(dir: &TempDir, extra: &[&str]) -> ServerProcess {
        let db = dir.path().join("oaq.sqlite3");
        let mut args = vec!["--database", db.to_str().unwrap()];
        args.extend_from_slice(extra);
        ServerProcess::start(&args)
    }

    pub fn url(&self) -> String {
        format!("ws://{}/ws", self.addr)
    }

    pub fn http(&self, path: &str) -> (u16, String) {
        http_get(&self.addr, path)
    }

    /// SIGKILL: no chance to finish anything.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// SIGTERM, then wait for the exit status.
    pub fn terminate(&mut self) -> std::process::ExitStatus {
        // SAFETY: signalling our own child.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                Instant::now() < deadline,
                "oaq-server did not stop on SIGTERM"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Start again with the same arguments but a new port.
    pub fn restart(&self) -> ServerProcess {
        let mut args: Vec<&str> = Vec::new();
        let mut skip = false;
        for a in &self.args {
            if skip {
                skip = false;
                continue;
            }
            if a == "--listen" {
                skip = true;
                continue;
            }
            args.push(a);
        }
        ServerProcess::start(&args)
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

/// A real SMTP server (Python's aiosmtpd) on a free loopback port, keeping what it receives
/// in a maildir; stopped on drop.
pub struct MailServer {
    child: Child,
    /// `smtp://127.0.0.1:PORT`, for `--smtp-url`.
    pub url: String,
    pub maildir: PathBuf,
}

impl MailServer {
    pub fn start(dir: &TempDir) -> MailServer {
        let maildir = dir.path().join("mail");
        let port = free_port();
        let child = Command::new("/usr/bin/python3")
            .args(["-m", "aiosmtpd", "-n", "-l", &format!("127.0.0.1:{port}")])
            .args(["-c", "aiosmtpd.handlers.Mailbox", maildir.to_str().unwrap()])
            .spawn()
            .expect("aiosmtpd (python3-aiosmtpd) starts");
        // Up before the server's first pass.
        for _ in 0..100 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        MailServer {
            child,
            url: format!("smtp://127.0.0.1:{port}"),
            maildir,
        }
    }
}

/// One e-mail as Python's e-mail parser reads it.
#[derive(Clone, Debug)]
pub struct Mail {
    pub subject: String,
    /// The `List-Unsubscribe` and `List-Unsubscribe-Post` headers, as `A | B`.
    pub unsubscribe: String,
    pub body: String,
}

impl MailServer {
    /// The e-mails received so far.
    pub fn received(&self) -> Vec<Mail> {
        if !self.maildir.join("new").exists() {
            return Vec::new();
        }
        let script = "import mailbox, json, sys, email.header as h\n\
            box = mailbox.Maildir(sys.argv[1], create=False)\n\
            print(json.dumps([(str(h.make_header(h.decode_header(m['subject']))), \
            str(m.get('list-unsubscribe')) + ' | ' + str(m.get('list-unsubscribe-post')), \
            m.get_payload(decode=True).decode()) for m in box]))";
        let out = Command::new("/usr/bin/python3")
            .args(["-c", script, self.maildir.to_str().unwrap()])
            .output()
            .expect("python3 runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let mails: Vec<(String, String, String)> = serde_json::from_slice(&out.stdout).unwrap();
        mails
            .into_iter()
            .map(|(subject, unsubscribe, body)| Mail {
                subject,
                unsubscribe,
                body,
            })
            .collect()
    }

    /// The path and query of the first link starting with `start` in the e-mails received,
    /// waiting for one to come.
    pub async fn link(&self, start: &str) -> String {
        for _ in 0..100 {
            if let Some(link) = self.received().iter().find_map(|m| link_in(&m.body, start)) {
                return link;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("no e-mail with a link {start}")
    }
}

/// The path and query of the link in `body` that starts with `start`.
pub fn link_in(body: &str, start: &str) -> Option<String> {
    let link = &body[body.find(start)?..];
    Some(link[..link.find(char::is_whitespace).unwrap_or(link.len())].to_owned())
}

impl Drop for MailServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A plain HTTP/1.1 GET on loopback: (status, body).
pub fn http_get(addr: &str, path: &str) -> (u16, String) {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(PATIENCE)).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text[9..12].parse().unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    let body = if head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked")
    {
        dechunk(body)
    } else {
        body.to_owned()
    };
    (status, body)
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let n = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if n == 0 {
            break;
        }
        out.push_str(&rest[..n]);
        body = &rest[n + 2..];
    }
    out
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// A player's (or a spectator's) connection.
pub struct Client {
    pub ws: Ws,
    pub player: PlayerInfo,
    pub token: String,
    /// The last `seq` seen of the room, for reconnecting.
    pub seen: Option<u64>,
    /// Every room event seen, in order.
    pub events: Vec<Sequenced>,
    /// How many snapshots (whole logs) came.
    pub snapshots: usize,
}

impl Client {
    pub async fn raw(url: &str) -> Ws {
        tokio_tungstenite::connect_async(url)
            .await
            .expect("connects")
            .0
    }

    /// A WebSocket from the loopback address `from` (127.0.0.x: a distinct client to the
    /// server), or the error that kept it from opening.
    pub async fn raw_from(url: &str, from: &str) -> Result<Ws, String> {
        let host = url
            .trim_start_matches("ws://")
            .split('/')
            .next()
            .unwrap()
            .to_owned();
        let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
        socket
            .bind(format!("{from}:0").parse().unwrap())
            .map_err(|e| e.to_string())?;
        let stream = socket
            .connect(host.parse().unwrap())
            .await
            .map_err(|e| e.to_string())?;
        let stream = tokio_tungstenite::MaybeTlsStream::Plain(stream);
        tokio::time::timeout(PATIENCE, tokio_tungstenite::client_async(url, stream))
            .await
            .map_err(|_| "no answer".to_owned())?
            .map(|(ws, _)| ws)
            .map_err(|e| e.to_string())
    }

    pub async fn connect(url: &str, name: &str) -> Client {
        Client::connect_as(url, name, None).await
    }

    /// A player connected from the loopback address `from`.
    pub async fn connect_from(url: &str, from: &str, name: &str, token: Option<&str>) -> Client {
        let ws = Client::raw_from(url, from).await.expect("connects");
        Client::hello(ws, name, token).await
    }

    pub async fn connect_as(url: &str, name: &str, token: Option<&str>) -> Client {
        let ws = Client::raw(url).await;
        Client::hello(ws, name, token).await
    }

    /// Say `hello` on `ws` and wait for the welcome.
    pub async fn hello(ws: Ws, name: &str, token: Option<&str>) -> Client {
        let mut client = Client::greet(ws, name, token).await;
        match client.next().await {
            ServerMessage::Notice(Notice::Welcome { player, token, .. }) => {
                client.player = player;
                client.token = token;
            }
            other => panic!("expected welcome, got {other:?}"),
        }
        client
    }

    /// Say `hello` on `ws`, leaving the answer to the caller.
    pub async fn greet(ws: Ws, name: &str, token: Option<&str>) -> Client {
        let hello = ClientMessage::Hello {
            protocol: PROTOCOL,
            name: name.into(),
            token: token.map(str::to_owned),
            device: None,
            child: false,
            batches: false,
            then: 0,
        };
        Client::greet_with(ws, &hello).await
    }

    /// Send `hello` (of any shape) on `ws`, leaving the answer to the caller.
    pub async fn greet_with(ws: Ws, hello: &ClientMessage) -> Client {
        let mut client = Client {
            ws,
            player: PlayerInfo {
                id: String::new(),
                name: String::new(),
                rating: 0.0,
                deviation: 0.0,
                games: 0,
                bot: false,
            },
            token: String::new(),
            seen: None,
            events: Vec::new(),
            snapshots: 0,
        };
        client.send(hello).await;
        client
    }

    pub async fn send(&mut self, msg: &ClientMessage) {
        let text = serde_json::to_string(msg).unwrap();
        self.ws.send(Message::text(text)).await.unwrap();
    }

    pub async fn send_text(&mut self, text: &str) {
        self.ws.send(Message::text(text.to_owned())).await.unwrap();
    }

    /// The next message, failing the test after `PATIENCE`.
    pub async fn next(&mut self) -> ServerMessage {
        self.try_next(PATIENCE)
            .await
            .unwrap_or_else(|| panic!("no message in {PATIENCE:?}"))
    }

    /// The next message within `wait`, or `None` (also when the connection closed).
    pub async fn try_next(&mut self, wait: Duration) -> Option<ServerMessage> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let frame = tokio::time::timeout_at(deadline, self.ws.next())
                .await
                .ok()??;
            match frame {
                Ok(Message::Text(text)) => {
                    let msg = parse_server(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
                    self.note(&msg);
                    return Some(msg);
                }
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    fn note(&mut self, msg: &ServerMessage) {
        match msg {
            ServerMessage::Room(ev) => {
                self.seen = Some(ev.seq);
                self.events.push(ev.clone());
            }
            ServerMessage::Notice(Notice::Snapshot {
                code, seq, events, ..
            }) => {
                self.seen = Some(*seq);
                self.snapshots += 1;
                self.events = events
                    .iter()
                    .enumerate()
                    .map(|(i, e)| Sequenced {
                        code: code.clone(),
                        seq: i as u64,
                        event: e.clone(),
                    })
                    .collect();
            }
            _ => {}
        }
    }

    /// Messages until one matches `want`; returns it. A wait that fails names the last
    /// messages passed over (a refusal that explains the silence, say).
    pub async fn until<T>(&mut self, mut want: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        let mut passed = std::collections::VecDeque::new();
        loop {
            let Some(msg) = self.try_next(PATIENCE).await else {
                panic!("no message in {PATIENCE:?}; the last passed over: {passed:?}");
            };
            if let Some(t) = want(&msg) {
                return t;
            }
            if passed.len() == 4 {
                passed.pop_front();
            }
            passed.push_back(msg);
        }
    }

    /// The next room event matching `want`.
    pub async fn event<T>(&mut self, mut want: impl FnMut(&RoomEvent) -> Option<T>) -> T {
        self.until(|m| match m {
            ServerMessage::Room(ev) => want(&ev.event),
            _ => None,
        })
        .await
    }

    /// The next error, with its code.
    pub async fn error(&mut self) -> (ErrorCode, String, Option<Vec<String>>) {
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Error {
                code,
                message,
                legal,
            }) => Some((*code, message.clone(), legal.clone())),
            _ => None,
        })
        .await
    }

    /// Create a room; returns its code once seated.
    pub async fn create(
        &mut self,
        rules: &str,
        clock: ClockSpec,
        first: First,
        public: bool,
    ) -> String {
        self.send(&ClientMessage::Create {
            rules: RulesChoice::Preset(rules.into()),
            clock,
            first,
            public,
        })
        .await;
        let code = self
            .until(|m| match m {
                ServerMessage::Notice(Notice::Created { code }) => Some(code.clone()),
                ServerMessage::Notice(Notice::Error { message, .. }) => panic!("create: {message}"),
                _ => None,
            })
            .await;
        self.seat(&code).await;
        code
    }

    /// Wait for the `seat` notice of room `code`.
    pub async fn seat(&mut self, code: &str) -> Option<usize> {
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Seat { code: c, seat }) if c == code => Some(*seat),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("{code}: {message}"),
            _ => None,
        })
        .await
    }

    pub async fn join(&mut self, code: &str) -> Option<usize> {
        let since = self.seen;
        self.send(&ClientMessage::Join {
            code: code.into(),
            since,
        })
        .await;
        self.seat(code).await
    }

    pub async fn play(&mut self, ply: u32, mv: &str) {
        self.send(&ClientMessage::Move {
            ply,
            mv: mv.into(),
            think_ms: None,
        })
        .await;
    }

    /// The moves of the room as this client has seen them.
    pub fn moves(&self) -> Vec<String> {
        self.events
            .iter()
            .filter_map(|e| match &e.event {
                RoomEvent::Moved { mv, .. } => Some(mv.clone()),
                _ => None,
            })
            .collect()
    }

    /// The seat order of the started game (`order[side]` = seat).
    pub fn order(&self) -> Option<Vec<usize>> {
        self.events.iter().find_map(|e| match &e.event {
            RoomEvent::Started { order, .. } => Some(order.clone()),
            _ => None,
        })
    }

    pub async fn close(mut self) {
        let _ = self.ws.close(None).await;
    }
}

/// Untimed, the creator first: the usual room of these tests.
pub const UNTIMED: ClockSpec = ClockSpec::UNTIMED;

/// PostgreSQL of its own: initdb in a temporary folder, on a free loopback port.
pub struct Postgres {
    pub dir: TempDir,
    pub port: u16,
    child: Child,
}

fn pg_bin(name: &str) -> PathBuf {
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .expect("PostgreSQL is installed (.ci/deps)")
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|p| p.join(name).exists())
        .collect();
    versions.sort();
    versions
        .pop()
        .expect("a PostgreSQL server in /usr/lib/postgresql")
        .join(name)
}

/// `cmd` run as the `postgres` user when we are root (initdb and postgres refuse root).
fn as_db_user(program: &Path) -> Command {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        let mut cmd = Command::new("runuser");
        cmd.args(["-u", "postgres", "--"]).arg(program);
        cmd
    } else {
        Command::new(program)
    }
}

impl Postgres {
    pub fn start() -> Postgres {
        let dir = TempDir::new("pg");
        let data = dir.path().join("data");
        // SAFETY: geteuid has no preconditions.
        if unsafe { libc::geteuid() } == 0 {
            let status = Command::new("chown")
                .args(["-R", "postgres:postgres"])
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(status.success());
        }
        let out = as_db_user(&pg_bin("initdb"))
            .args(["-U", "postgres", "--auth=trust", "-E", "UTF8", "-D"])
            .arg(&data)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "initdb: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let port = free_port();
        let child = Postgres::spawn(dir.path(), port);
        let pg = Postgres { dir, port, child };
        pg.wait_ready();
        let created = Command::new(pg_bin("createdb"))
            .args([
                "-h",
                "127.0.0.1",
                "-p",
                &port.to_string(),
                "-U",
                "postgres",
                "oaq",
            ])
            .output()
            .unwrap();
        assert!(
            created.status.success(),
            "createdb: {}",
            String::from_utf8_lossy(&created.stderr)
        );
        pg
    }

    pub fn url(&self) -> String {
        format!("postgres://postgres@127.0.0.1:{}/oaq", self.port)
    }

    fn spawn(dir: &Path, port: u16) -> Child {
        as_db_user(&pg_bin("postgres"))
            .arg("-D")
            .arg(dir.join("data"))
            .args(["-p", &port.to_string(), "-k"])
            .arg(dir)
            .args(["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap()
    }

    fn wait_ready(&self) {
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            let ready = Command::new(pg_bin("pg_isready"))
                .args(["-h", "127.0.0.1", "-p", &self.port.to_string()])
                .output()
                .unwrap();
            if ready.status.success() {
                break;
            }
            assert!(Instant::now() < deadline, "PostgreSQL did not start");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    /// Stop the server (fast shutdown: every connection to it is cut).
    pub fn stop(&mut self) {
        let out = as_db_user(&pg_bin("pg_ctl"))
            .arg("-D")
            .arg(self.dir.path().join("data"))
            .args(["-m", "fast", "-w", "-t", "20", "stop"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "pg_ctl stop: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let _ = self.child.wait();
    }

    /// Start it again on the same port and data.
    pub fn start_again(&mut self) {
        self.child = Postgres::spawn(self.dir.path(), self.port);
        self.wait_ready();
    }
}

impl Drop for Postgres {
    fn drop(&mut self) {
        // SIGINT: PostgreSQL's fast shutdown.
        // SAFETY: signalling our own child.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGINT);
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while self.child.try_wait().ok().flatten().is_none() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Redis of its own, with no persistence, on a free loopback port.
pub struct Redis {
    pub dir: TempDir,
    pub port: u16,
    child: Child,
}

impl Redis {
    pub fn start() -> Redis {
        Redis::start_on(free_port())
    }

    fn start_on(port: u16) -> Redis {
        let dir = TempDir::new("redis");
        let child = Command::new("redis-server")
            .args([
                "--port",
                &port.to_string(),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
            ])
            .arg(dir.path())
            .stdout(Stdio::null())
            .spawn()
            .expect("redis-server is installed (.ci/deps)");
        let redis = Redis { dir, port, child };
        let deadline = Instant::now() + Duration::from_secs(20);
        while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
            assert!(Instant::now() < deadline, "Redis did not start");
            std::thread::sleep(Duration::from_millis(50));
        }
        redis
    }

    pub fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }
}

impl Redis {
    /// SIGKILL: every connection to it drops, every key is gone.
    pub fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Start again on the same port (empty, as a Redis without persistence comes back).
    pub fn restart(&mut self) {
        self.kill();
        let fresh = Redis::start_on(self.port);
        drop(std::mem::replace(self, fresh));
    }
}

impl Drop for Redis {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The state JSON lines `oaq replay` prints for `moves` under `rules`: the position after each
/// move, as the rules engine plays them (the server's referee is the same engine, the lines are
/// the tools' own format).
pub fn oaq_replay(rules: &str, moves: &[String]) -> Vec<serde_json::Value> {
    let rules = oaq_rules::presets::get(rules).expect("a preset").rules;
    let mut pos = oaq_rules::Position::new(rules);
    let mut lines = vec![oaq_rules::state_json::to_line(&pos)];
    for mv in moves {
        pos.play(mv.parse().expect("a move")).expect("a legal move");
        lines.push(oaq_rules::state_json::to_line(&pos));
    }
    lines
        .iter()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The `oaq-server` binary built beside the running test (the target folder's profile
/// directory, one up from the test's `deps`: `cargo test` at the root builds it), or the one
/// `OAQ_SERVER` names.
pub fn server_binary() -> PathBuf {
    if let Some(path) = std::env::var_os("OAQ_SERVER") {
        return path.into();
    }
    let exe = std::env::current_exe().expect("the test's own path");
    let profile = exe
        .parent()
        .and_then(Path::parent)
        .expect("target/PROFILE/deps/TEST");
    let path = profile.join(format!("oaq-server{}", std::env::consts::EXE_SUFFIX));
    assert!(
        path.exists(),
        "{} is missing: build it with `cargo build -p oaq-server` (`cargo test` at the root does)",
        path.display()
    );
    path
}

/// The seat that plays the side to move (`order[side]`, the first two exchanged after a swap).
pub fn mover(pos: &oaq_rules::Position, order: &[usize]) -> usize {
    let side = pos.to_move();
    let side = if pos.swapped() && side < 2 {
        1 - side
    } else {
        side
    };
    order[side]
}

/// Play from where the room stands to the end: each move chosen by `pick` and sent by the
/// seat whose turn it is; every client sees every move. `clients[seat]`. Returns the moves.
pub async fn play_out(
    clients: &mut [&mut Client],
    rules: oaq_rules::RuleSet,
    mut pick: impl FnMut(&oaq_rules::Position) -> oaq_rules::Move,
) -> Vec<String> {
    // The client that has seen the room from its start knows the order and the moves.
    let whole = clients
        .iter()
        .position(|c| c.order().is_some())
        .expect("the game has started");
    let order = clients[whole].order().unwrap();
    let mut pos = oaq_rules::Position::new(rules);
    for mv in clients[whole].moves() {
        pos.play(mv.parse().unwrap()).unwrap();
    }
    let mut ply = clients[whole].moves().len() as u32;
    while !pos.is_over() {
        let seat = mover(&pos, &order);
        let mv = pick(&pos);
        clients[seat].play(ply, &mv.to_string()).await;
        for c in clients.iter_mut() {
            let seen = c
                .event(|e| match e {
                    RoomEvent::Moved { ply: p, mv, .. } if *p == ply => Some(mv.clone()),
                    _ => None,
                })
                .await;
            assert_eq!(seen, mv.to_string());
        }
        pos.play(mv).unwrap();
        ply += 1;
    }
    clients[whole].moves()
}

/// The next `ended` event's result.
pub async fn ended(client: &mut Client) -> oaq_net::protocol::GameResult {
    client
        .event(|e| match e {
            RoomEvent::Ended { result, .. } => Some(result.clone()),
            _ => None,
        })
        .await
}
// The correspondence tests' messages.
impl Client {
    pub async fn my_games(&mut self) -> (Vec<MyGame>, Vacation) {
        self.send(&ClientMessage::MyGames).await;
        self.until(|m| match m {
            ServerMessage::Notice(Notice::MyGames { games, vacation }) => {
                Some((games.clone(), *vacation))
            }
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("my games: {message}"),
            _ => None,
        })
        .await
    }

    pub async fn vacation(&mut self, days: u8) -> (Vec<MyGame>, Vacation) {
        self.send(&ClientMessage::Vacation { days }).await;
        self.until(|m| match m {
            ServerMessage::Notice(Notice::MyGames { games, vacation }) => {
                Some((games.clone(), *vacation))
            }
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("vacation: {message}"),
            _ => None,
        })
        .await
    }
}

// The notify tests' messages.
impl Client {
    pub async fn notifications_after(
        &mut self,
        msg: ClientMessage,
    ) -> (NotifySettings, String, u64) {
        self.send(&msg).await;
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Notifications {
                settings,
                push_key,
                devices,
                ..
            }) => Some((settings.clone(), push_key.clone(), *devices)),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("{message}"),
            _ => None,
        })
        .await
    }

    pub async fn refused_with(&mut self, msg: ClientMessage, code: ErrorCode) -> String {
        self.send(&msg).await;
        let (got, message, _) = self.error().await;
        assert_eq!(got, code, "{message}");
        message
    }

    /// Play one of the position's legal moves (number `ply × 3 + pick`, round the list) in the
    /// room on the board, and wait until it is written.
    pub async fn move_in(&mut self, pos: &mut Position, pick: usize) {
        let legal = pos.legal_moves();
        let mv = legal[(pos.ply() as usize * 3 + pick) % legal.len()];
        let ply = pos.ply();
        self.play(ply, &mv.to_string()).await;
        self.event(|e| matches!(e, RoomEvent::Moved { ply: p, .. } if *p == ply).then_some(()))
            .await;
        pos.play(mv).unwrap();
    }
}

// The people tests' messages.
impl Client {
    pub async fn profile(&mut self, player: Option<&str>) -> Profile {
        self.send(&ClientMessage::Profile {
            player: player.map(str::to_owned),
        })
        .await;
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Profile { profile }) => Some(profile.clone()),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("profile: {message}"),
            _ => None,
        })
        .await
    }

    pub async fn relations(&mut self) -> Relations {
        self.send(&ClientMessage::Relations).await;
        self.wait_relations().await
    }

    pub async fn wait_relations(&mut self) -> Relations {
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Relations { relations }) => Some(relations.clone()),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("relations: {message}"),
            _ => None,
        })
        .await
    }

    /// Send `msg` and wait for the refusal it must get.
    pub async fn refused(&mut self, msg: ClientMessage, code: ErrorCode) -> String {
        self.send(&msg).await;
        let (got, message, _) = self.error().await;
        assert_eq!(got, code, "{msg:?}: {message}");
        message
    }

    pub async fn welcome(&mut self) -> (String, String, bool) {
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Welcome {
                player,
                token,
                child,
                ..
            }) => Some((player.id.clone(), token.clone(), *child)),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("welcome: {message}"),
            _ => None,
        })
        .await
    }

    pub async fn challenges(&mut self) -> (Vec<Challenge>, Vec<Challenge>) {
        self.send(&ClientMessage::Challenges).await;
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Challenges { incoming, outgoing }) => {
                Some((incoming.clone(), outgoing.clone()))
            }
            _ => None,
        })
        .await
    }

    pub async fn friend_code(&mut self) -> String {
        self.profile(None)
            .await
            .friend_code
            .expect("one's own profile has the code")
    }

    /// Nothing but pings for `wait`: no notice reached this client.
    pub async fn hears_nothing(&mut self, wait: Duration) {
        if let Some(msg) = self.try_next(wait).await {
            panic!("expected nothing, got {msg:?}");
        }
    }
}

impl Client {
    /// Our seat in `room`, from its log.
    pub fn seat_in(&self, room: &str) -> usize {
        self.events
            .iter()
            .find_map(|e| match &e.event {
                RoomEvent::Seated { seat, player }
                    if e.code == room && player.id == self.player.id =>
                {
                    Some(*seat)
                }
                _ => None,
            })
            .expect("seated")
    }
}

// The pool tests' messages.
impl Client {
    /// Join `rules`' pool at 3+2; returns the `paired_last` it was told.
    pub async fn pool(&mut self, rules: &str) -> Option<oaq_net::pool::PairedLast> {
        self.send(&ClientMessage::Pool {
            rules: rules.into(),
            // 3+2.
            clock: oaq_net::pool::POOLS[1],
        })
        .await;
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Pooled { paired_last, .. }) => Some(*paired_last),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("pool: {message}"),
            _ => None,
        })
        .await
    }

    /// The room it is paired into (any computer's offer before is skipped).
    pub async fn paired(&mut self) -> String {
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Paired { room }) => Some(room.clone()),
            _ => None,
        })
        .await
    }

    /// The next pool notice other than `pooled`.
    pub async fn pool_news(&mut self) -> Notice {
        self.until(|m| match m {
            ServerMessage::Notice(
                n @ (Notice::Paired { .. } | Notice::PoolAlone { .. } | Notice::Unpooled),
            ) => Some(n.clone()),
            _ => None,
        })
        .await
    }
}

/// A ten-minute arena of the basic rules at 1+1, public or not, starting at `starts_ms` or once
/// `start_when` players have joined (else by hand).
pub fn arena(public: bool, starts_ms: Option<i64>, start_when: Option<u32>) -> ClientMessage {
    ClientMessage::CreateTournament {
        name: "Hè 2026".into(),
        rules: RulesChoice::Preset("basic".into()),
        clock: ClockSpec::Fischer {
            base_ms: 60_000,
            increment_ms: 1_000,
        },
        format: oaq_net::tournament::Format::Arena {
            minutes: 10,
            streaks: false,
        },
        public,
        starts_ms,
        start_when,
        password: None,
        unrated: false,
        no_chat: false,
        bots: false,
    }
}

impl Client {
    /// Organise the tournament `create` asks for: its id.
    pub async fn organise(&mut self, create: &ClientMessage) -> String {
        self.send(create).await;
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Tournament { view }) => Some(view.line.id.clone()),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("organise: {message}"),
            _ => None,
        })
        .await
    }
}

pub mod proxy;
