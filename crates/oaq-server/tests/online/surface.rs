//! The model-based test of the whole surface: every client message and every HTTP route,
//! sent by seeded random players in rounds (each round every message and route once, in a
//! random order, by a sender the model picks for it), against a real `oaq-server` on SQLite,
//! with invariants over everything every connection received, checked after every step:
//!
//! 1. a child's name and id never reach a player who is not the child's friend, by any message
//!    or route (a tournament's standings and results, profiles, lists, challenges, rooms);
//! 2. a child never sits with a bot or with anyone but a friend;
//! 3. a blocked pair never shares a room;
//! 4. a bot never sits in a room open to everyone nor with a child, and is never paired by a
//!    pool or a tournament for people;
//! 5. the first mover follows the room's `First`;
//! 6. every guess is counted before its look-up: at the end, 40 guesses at once of each
//!    guessable kind from one address are answered no more often than its allowance;
//! 7. no refusal takes a second;
//! 8. a player's training records (practice, puzzle progress) reach only that player's own
//!    connections, and a bot keeps none.
//!
//! The generator matches exhaustively on [`ClientMessage`] ([`kind_of`]) and on the routes
//! ([`Route`], checked against the routes the server's sources declare), so a new message or
//! route does not compile, or fails here, until the model says who may send it and what it may
//! reveal ([`rule`], [`route_rule`]). The coverage (messages and routes driven, of all) is
//! printed and must be all of them.
//!
//! `cargo test` runs two seeds of two rounds; a longer run is a command:
//! `OAQ_SURFACE_SEEDS=20 OAQ_SURFACE_ROUNDS=10 cargo test -p oaq-server --test online surface`.

use std::collections::{BTreeSet, HashMap, HashSet};
use std::time::{Duration, Instant};

use oaq_net::protocol::{
    ClientMessage, ClockSpec, ErrorCode, First, Notice, PROTOCOL, PlayerInfo, RoomEvent,
    RulesChoice, ServerMessage,
};
use oaq_net::tournament::Format;
use oaq_testkit::*;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use super::people::befriend;

/// Who may send a message or call a route, as the model drives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sender {
    /// Anyone, signed in or not.
    Anyone,
    /// Any player, about anyone (the server decides what they may see).
    Player,
    /// A player, about themselves or their own room.
    Own,
    /// A bot, by its token.
    Bot,
}

/// What a message or route may reveal of other players, as the invariants check it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Reveals {
    /// Nothing of anyone else.
    Nothing,
    /// Other players as the policy's view shows them (a child to friends only).
    Players,
    /// A room's players and events, to those in it or watching it.
    Room,
}

macro_rules! kinds {
    ($name:ident { $($kind:ident),* $(,)? }) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        enum $name { $($kind),* }
        impl $name {
            const ALL: &'static [$name] = &[$($name::$kind),*];
        }
    };
}

kinds!(Kind {
    Hello,
    LinkCode,
    Link,
    WhoseCode,
    RecoveryCode,
    Recover,
    SetLogin,
    SignIn,
    Devices,
    RevokeDevice,
    SetChild,
    Profile,
    Relations,
    AddFriend,
    AddOpponent,
    AnswerFriend,
    RemoveFriend,
    Block,
    Unblock,
    Challenge,
    Challenges,
    AnswerChallenge,
    CancelChallenge,
    Chat,
    Report,
    Create,
    Join,
    Watch,
    Lobby,
    MyGames,
    KeepTraining,
    Training,
    Pool,
    LeavePool,
    Notifications,
    SetNotifications,
    PushSubscribe,
    PushUnsubscribe,
    Vacation,
    Leaderboard,
    BecomeBot,
    BotToken,
    Bots,
    PlayBot,
    CreateTournament,
    Tournaments,
    Tournament,
    JoinTournament,
    InviteToTournament,
    LeaveTournament,
    PauseTournament,
    StartTournament,
    KeepApart,
    Leave,
    Move,
    Resign,
    OfferDraw,
    AcceptDraw,
    Rematch,
    Claim,
    Ping,
});

kinds!(Route {
    Ws,
    Health,
    Metrics,
    PlayerPage,
    Leaderboard,
    Game,
    TournamentResults,
    MailConfirm,
    MailStopPage,
    MailStop,
    ApiAccount,
    ApiBotNew,
    ApiBotToken,
    ApiBots,
    ApiEventStream,
    ApiGameStream,
    ApiMove,
    ApiResign,
    ApiDraw,
    ApiClaim,
    ApiChat,
    ApiChallenge,
    ApiChallengeAnswer,
    ApiTournament,
});

/// The message's kind: exhaustive, so a new message does not compile until it has one.
fn kind_of(msg: &ClientMessage) -> Kind {
    match msg {
        ClientMessage::Hello { .. } => Kind::Hello,
        ClientMessage::LinkCode => Kind::LinkCode,
        ClientMessage::Link { .. } => Kind::Link,
        ClientMessage::WhoseCode { .. } => Kind::WhoseCode,
        ClientMessage::RecoveryCode { .. } => Kind::RecoveryCode,
        ClientMessage::Recover { .. } => Kind::Recover,
        ClientMessage::SetLogin { .. } => Kind::SetLogin,
        ClientMessage::SignIn { .. } => Kind::SignIn,
        ClientMessage::Devices => Kind::Devices,
        ClientMessage::RevokeDevice { .. } => Kind::RevokeDevice,
        ClientMessage::SetChild { .. } => Kind::SetChild,
        ClientMessage::Profile { .. } => Kind::Profile,
        ClientMessage::Relations => Kind::Relations,
        ClientMessage::AddFriend { .. } => Kind::AddFriend,
        ClientMessage::AddOpponent { .. } => Kind::AddOpponent,
        ClientMessage::AnswerFriend { .. } => Kind::AnswerFriend,
        ClientMessage::RemoveFriend { .. } => Kind::RemoveFriend,
        ClientMessage::Block { .. } => Kind::Block,
        ClientMessage::Unblock { .. } => Kind::Unblock,
        ClientMessage::Challenge { .. } => Kind::Challenge,
        ClientMessage::Challenges => Kind::Challenges,
        ClientMessage::AnswerChallenge { .. } => Kind::AnswerChallenge,
        ClientMessage::CancelChallenge { .. } => Kind::CancelChallenge,
        ClientMessage::Chat { .. } => Kind::Chat,
        ClientMessage::Report { .. } => Kind::Report,
        ClientMessage::Create { .. } => Kind::Create,
        ClientMessage::Join { .. } => Kind::Join,
        ClientMessage::Watch { .. } => Kind::Watch,
        ClientMessage::Lobby => Kind::Lobby,
        ClientMessage::MyGames => Kind::MyGames,
        ClientMessage::KeepTraining { .. } => Kind::KeepTraining,
        ClientMessage::Training { .. } => Kind::Training,
        ClientMessage::Pool { .. } => Kind::Pool,
        ClientMessage::LeavePool => Kind::LeavePool,
        ClientMessage::Notifications => Kind::Notifications,
        ClientMessage::SetNotifications { .. } => Kind::SetNotifications,
        ClientMessage::PushSubscribe { .. } => Kind::PushSubscribe,
        ClientMessage::PushUnsubscribe { .. } => Kind::PushUnsubscribe,
        ClientMessage::Vacation { .. } => Kind::Vacation,
        ClientMessage::Leaderboard => Kind::Leaderboard,
        ClientMessage::BecomeBot => Kind::BecomeBot,
        ClientMessage::BotToken { .. } => Kind::BotToken,
        ClientMessage::Bots => Kind::Bots,
        ClientMessage::PlayBot { .. } => Kind::PlayBot,
        ClientMessage::CreateTournament { .. } => Kind::CreateTournament,
        ClientMessage::Tournaments => Kind::Tournaments,
        ClientMessage::Tournament { .. } => Kind::Tournament,
        ClientMessage::JoinTournament { .. } => Kind::JoinTournament,
        ClientMessage::InviteToTournament { .. } => Kind::InviteToTournament,
        ClientMessage::LeaveTournament { .. } => Kind::LeaveTournament,
        ClientMessage::PauseTournament { .. } => Kind::PauseTournament,
        ClientMessage::StartTournament { .. } => Kind::StartTournament,
        ClientMessage::KeepApart { .. } => Kind::KeepApart,
        ClientMessage::Leave => Kind::Leave,
        ClientMessage::Move { .. } => Kind::Move,
        ClientMessage::Resign => Kind::Resign,
        ClientMessage::OfferDraw => Kind::OfferDraw,
        ClientMessage::AcceptDraw => Kind::AcceptDraw,
        ClientMessage::Rematch => Kind::Rematch,
        ClientMessage::Claim => Kind::Claim,
        ClientMessage::Ping { .. } => Kind::Ping,
    }
}

/// Who may send each message, and what it may reveal of others.
fn rule(kind: Kind) -> (Sender, Reveals) {
    use Kind::*;
    match kind {
        Hello => (Sender::Anyone, Reveals::Nothing),
        LinkCode | RecoveryCode | Recover | SetLogin | SignIn | Devices | RevokeDevice
        | SetChild | Link | Notifications | SetNotifications | PushSubscribe | PushUnsubscribe
        | Vacation | BecomeBot | BotToken | LeavePool | Ping | MyGames | KeepTraining
        | Training => (Sender::Own, Reveals::Nothing),
        WhoseCode | Profile | Relations | AddFriend | AddOpponent | AnswerFriend | RemoveFriend
        | Block | Unblock | Challenge | Challenges | AnswerChallenge | CancelChallenge | Report
        | Lobby | Leaderboard | Bots | PlayBot | Pool | CreateTournament | Tournaments
        | Tournament | JoinTournament | InviteToTournament | LeaveTournament | PauseTournament
        | StartTournament | KeepApart => (Sender::Player, Reveals::Players),
        Create | Join | Watch | Leave | Move | Resign | OfferDraw | AcceptDraw | Rematch
        | Claim | Chat => (Sender::Own, Reveals::Room),
    }
}

/// A route's method and path as its handler is declared, who may call it, and what it may
/// reveal.
fn route_rule(route: Route) -> (&'static str, &'static str, Sender, Reveals) {
    use Route::*;
    match route {
        Ws => ("GET", "/ws", Sender::Anyone, Reveals::Nothing),
        Health => ("GET", "/health", Sender::Anyone, Reveals::Nothing),
        Metrics => ("GET", "/metrics", Sender::Anyone, Reveals::Nothing),
        PlayerPage => ("GET", "/players/{id}", Sender::Anyone, Reveals::Players),
        Leaderboard => ("GET", "/leaderboard", Sender::Anyone, Reveals::Players),
        Game => ("GET", "/games/{code}", Sender::Anyone, Reveals::Room),
        TournamentResults => (
            "GET",
            "/tournaments/{id}/results.csv",
            Sender::Anyone,
            Reveals::Players,
        ),
        MailConfirm => ("GET", "/mail/confirm", Sender::Anyone, Reveals::Nothing),
        MailStopPage => ("GET", "/mail/stop", Sender::Anyone, Reveals::Nothing),
        MailStop => ("POST", "/mail/stop", Sender::Anyone, Reveals::Nothing),
        ApiAccount => ("GET", "/api/account", Sender::Bot, Reveals::Nothing),
        ApiBotNew => ("POST", "/api/bot/new", Sender::Anyone, Reveals::Nothing),
        ApiBotToken => ("POST", "/api/bot/token", Sender::Anyone, Reveals::Nothing),
        ApiBots => ("GET", "/api/bots", Sender::Anyone, Reveals::Players),
        ApiEventStream => ("GET", "/api/stream/event", Sender::Bot, Reveals::Players),
        ApiGameStream => (
            "GET",
            "/api/bot/game/stream/{code}",
            Sender::Bot,
            Reveals::Room,
        ),
        ApiMove => (
            "POST",
            "/api/bot/game/{code}/move/{mv}",
            Sender::Bot,
            Reveals::Room,
        ),
        ApiResign => (
            "POST",
            "/api/bot/game/{code}/resign",
            Sender::Bot,
            Reveals::Room,
        ),
        ApiDraw => (
            "POST",
            "/api/bot/game/{code}/draw/{answer}",
            Sender::Bot,
            Reveals::Room,
        ),
        ApiClaim => (
            "POST",
            "/api/bot/game/{code}/claim-victory",
            Sender::Bot,
            Reveals::Room,
        ),
        ApiChat => (
            "POST",
            "/api/bot/game/{code}/chat",
            Sender::Bot,
            Reveals::Room,
        ),
        ApiChallenge => (
            "POST",
            "/api/challenge/{player}",
            Sender::Bot,
            Reveals::Players,
        ),
        ApiChallengeAnswer => (
            "POST",
            "/api/challenge/{id}/{answer}",
            Sender::Bot,
            Reveals::Players,
        ),
        ApiTournament => (
            "POST",
            "/api/tournament/{id}/{what}",
            Sender::Bot,
            Reveals::Players,
        ),
    }
}

/// The players: an adult (A), an adult who blocks C (B), a stranger (C), a child who is A's
/// friend (K), and a bot who was A's friend before it became one (X).
const A: usize = 0;
const B: usize = 1;
const C: usize = 2;
const K: usize = 3;
const X: usize = 4;
const PLAYERS: usize = 5;
const CHILD_NAME: &str = "Kiddo Q7";

struct Player {
    client: Client,
    addr: String,
    /// Everything this connection was sent, and everything its HTTP calls answered.
    heard: Vec<String>,
    /// Codes it learnt from what it was sent: rooms, tournaments, challenges.
    rooms: BTreeSet<String>,
    tournaments: BTreeSet<String>,
    challenges: BTreeSet<String>,
    /// Room code → its log as this player saw it.
    logs: HashMap<String, Vec<RoomEvent>>,
}

impl Player {
    fn learn(&mut self, msg: &ServerMessage) {
        let json = serde_json::to_string(msg).unwrap_or_default();
        for (key, len) in [
            ("\"code\":\"", 6),
            ("\"room\":\"", 6),
            ("\"id\":\"", 8),
            ("\"id\":\"", 16),
        ] {
            let set = match len {
                6 => &mut self.rooms,
                8 => &mut self.tournaments,
                _ => &mut self.challenges,
            };
            let mut rest = json.as_str();
            while let Some(at) = rest.find(key) {
                rest = &rest[at + key.len()..];
                let value: String = rest.chars().take_while(|c| *c != '"').collect();
                if value.len() == len {
                    set.insert(value);
                }
            }
        }
        match msg {
            ServerMessage::Room(ev) => {
                self.logs
                    .entry(ev.code.clone())
                    .or_default()
                    .push(ev.event.clone());
            }
            ServerMessage::Notice(Notice::Snapshot { code, events, .. }) => {
                self.logs.insert(code.clone(), events.clone());
            }
            _ => {}
        }
        self.heard.push(json);
    }

    /// Send `msg`, then a ping: everything until its pong is the answer; the refusal among
    /// it, and how long it took.
    async fn send(&mut self, msg: &ClientMessage, ping: u64) -> (Option<ErrorCode>, Duration) {
        let began = Instant::now();
        self.client.send(msg).await;
        self.client.send(&ClientMessage::Ping { id: ping }).await;
        let mut refusal = None;
        loop {
            let Some(m) = self.client.try_next(PATIENCE).await else {
                panic!("no pong for {msg:?}");
            };
            self.learn(&m);
            match m {
                ServerMessage::Notice(Notice::Pong { id, .. }) if id == ping => break,
                ServerMessage::Notice(Notice::Error { code, .. }) => {
                    refusal.get_or_insert(code);
                }
                _ => {}
            }
        }
        (refusal, began.elapsed())
    }

    /// Whatever came since.
    async fn drain(&mut self) {
        while let Some(m) = self.client.try_next(Duration::from_millis(5)).await {
            self.learn(&m);
        }
    }
}

/// An HTTP request from `from`, with a bot's token when given: status, body (the head of a
/// stream), and how long the answer took.
async fn http(
    addr: &str,
    from: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: &str,
) -> (u16, String, Duration) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let began = Instant::now();
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    let mut stream = socket.connect(addr.parse().unwrap()).await.unwrap();
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\n{auth}Content-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    let mut chunk = [0u8; 8192];
    // A stream stays open: its head and first lines are its answer.
    let until = tokio::time::Instant::now() + Duration::from_millis(1500);
    while let Ok(Ok(n)) = tokio::time::timeout_at(until, stream.read(&mut chunk)).await {
        if n == 0 {
            break;
        }
        response.extend_from_slice(&chunk[..n]);
    }
    let elapsed = began.elapsed();
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_owned();
    (status, body, elapsed)
}

/// One player on their own address (`child`: in child mode).
async fn connect(url: &str, i: usize, name: &str, child: bool) -> Player {
    let addr = format!("127.0.20.{}", i + 1);
    let hello = ClientMessage::Hello {
        protocol: PROTOCOL,
        name: name.into(),
        token: None,
        device: None,
        child,
        batches: false,
        then: 0,
    };
    let ws = Client::raw_from(url, &addr).await.expect("connects");
    let mut client = Client::greet_with(ws, &hello).await;
    let (id, token, _) = client.welcome().await;
    client.player.id = id;
    client.player.name = name.into();
    client.token = token;
    Player {
        client,
        addr,
        heard: Vec::new(),
        rooms: BTreeSet::new(),
        tournaments: BTreeSet::new(),
        challenges: BTreeSet::new(),
        logs: HashMap::new(),
    }
}

/// The world: the five players, the bot's API token, what the model knows.
struct World {
    players: Vec<Player>,
    ids: Vec<String>,
    token: String,
    server: String,
    url: String,
    rng: StdRng,
    ping: u64,
    messages: BTreeSet<Kind>,
    routes: BTreeSet<Route>,
    /// The slowest refusal seen.
    slowest: Duration,
}

impl World {
    async fn new(server: &ServerProcess, seed: u64) -> World {
        let url = server.url();
        let mut players = vec![
            connect(&url, A, "Anh", false).await,
            connect(&url, B, "Bích", false).await,
            connect(&url, C, "Cường", false).await,
            connect(&url, K, CHILD_NAME, true).await,
            connect(&url, X, "Xe máy", false).await,
        ];
        {
            let (a, rest) = players.split_at_mut(1);
            befriend(&mut a[0].client, &mut rest[K - 1].client).await;
            befriend(&mut a[0].client, &mut rest[X - 1].client).await;
        }
        let x = &mut players[X];
        x.client
            .send(&ClientMessage::SetLogin {
                login: format!("xe-may-{seed}"),
                password: "the bot's own password".into(),
                current: None,
            })
            .await;
        x.client
            .until(|m| matches!(m, ServerMessage::Notice(Notice::Profile { .. })).then_some(()))
            .await;
        x.client.send(&ClientMessage::BecomeBot).await;
        let token = x
            .client
            .until(|m| match m {
                ServerMessage::Notice(Notice::BotToken { token: Some(t) }) => Some(t.clone()),
                ServerMessage::Notice(Notice::Error { message, .. }) => panic!("{message}"),
                _ => None,
            })
            .await;
        let block = ClientMessage::Block {
            player: players[C].client.player.id.clone(),
        };
        assert_eq!(players[B].send(&block, 1).await.0, None);
        let ids = players.iter().map(|p| p.client.player.id.clone()).collect();
        World {
            players,
            ids,
            token,
            server: server.addr.clone(),
            url,
            rng: StdRng::seed_from_u64(seed),
            ping: 10,
            messages: BTreeSet::new(),
            routes: BTreeSet::new(),
            slowest: Duration::ZERO,
        }
    }

    fn pick<T: Clone>(&mut self, from: &[T]) -> T {
        from[self.rng.random_range(0..from.len())].clone()
    }

    /// Someone to name: one of the players, or an id that is no one's.
    fn someone(&mut self) -> String {
        let mut ids = self.ids.clone();
        ids.push("0000000000000000".into());
        self.pick(&ids)
    }

    /// A code `p` knows from what it was sent, or a guess.
    fn known(&mut self, p: usize, which: fn(&Player) -> &BTreeSet<String>, len: usize) -> String {
        let known: Vec<String> = which(&self.players[p]).iter().cloned().collect();
        if !known.is_empty() && self.rng.random_bool(0.8) {
            return self.pick(&known);
        }
        (0..len)
            .map(|_| self.pick(&['A', 'B', 'C', '2', '3', '4', 'X', 'Z']))
            .collect()
    }

    fn room(&mut self, p: usize) -> String {
        self.known(p, |p| &p.rooms, 6)
    }

    fn tournament(&mut self, p: usize) -> String {
        self.known(p, |p| &p.tournaments, 8)
    }

    fn challenge(&mut self, p: usize) -> String {
        self.known(p, |p| &p.challenges, 16)
    }

    fn clock(&mut self) -> ClockSpec {
        self.pick(&[
            ClockSpec::UNTIMED,
            ClockSpec::Fischer {
                base_ms: 180_000,
                increment_ms: 2_000,
            },
            ClockSpec::Correspondence { days: 3 },
        ])
    }

    /// A message of `kind` from `p`.
    fn message(&mut self, kind: Kind, p: usize) -> ClientMessage {
        let rules = RulesChoice::Preset("basic".into());
        match kind {
            Kind::Hello => ClientMessage::Hello {
                protocol: PROTOCOL,
                name: "again".into(),
                token: None,
                device: None,
                child: false,
                batches: false,
                then: 0,
            },
            Kind::LinkCode => ClientMessage::LinkCode,
            Kind::Link => ClientMessage::Link {
                code: "ABCD2345".into(),
            },
            Kind::WhoseCode => ClientMessage::WhoseCode {
                kind: self.pick(&[
                    oaq_net::social::CodeKind::Friend,
                    oaq_net::social::CodeKind::Link,
                ]),
                code: "ABCD2345".into(),
            },
            Kind::RecoveryCode => ClientMessage::RecoveryCode { current: None },
            Kind::Recover => ClientMessage::Recover {
                code: "not-a-recovery-code".into(),
            },
            Kind::SetLogin => ClientMessage::SetLogin {
                login: format!("player-{p}-{}", self.rng.random_range(0..1000)),
                password: "a long enough password".into(),
                current: Some("not the password".into()),
            },
            Kind::SignIn => ClientMessage::SignIn {
                login: format!("xe-may-{}", self.rng.random_range(0..3)),
                password: "a guess at a password".into(),
            },
            Kind::Devices => ClientMessage::Devices,
            Kind::RevokeDevice => ClientMessage::RevokeDevice {
                id: "0000000000000000".into(),
            },
            // Child mode stays as the model set it: on for the child, off for the others
            // (turning it off asks for a password nobody gave).
            Kind::SetChild => ClientMessage::SetChild {
                child: p == K,
                current: None,
            },
            Kind::Profile => ClientMessage::Profile {
                player: Some(self.someone()),
            },
            Kind::Relations => ClientMessage::Relations,
            Kind::AddFriend => ClientMessage::AddFriend {
                code: "ZZZZ2345".into(),
            },
            Kind::AddOpponent => ClientMessage::AddOpponent {
                player: self.someone(),
            },
            Kind::AnswerFriend => ClientMessage::AnswerFriend {
                player: self.someone(),
                accept: true,
            },
            // Friendships stay as the model made them.
            Kind::RemoveFriend => ClientMessage::RemoveFriend {
                player: "0000000000000000".into(),
            },
            // Blocks stay as the model made them: B blocks C, again.
            Kind::Block => ClientMessage::Block {
                player: self.ids[if p == B { C } else { B }].clone(),
            },
            Kind::Unblock => ClientMessage::Unblock {
                player: self.ids[if p == B { A } else { C }].clone(),
            },
            Kind::Challenge => ClientMessage::Challenge {
                player: self.someone(),
                rules,
                clock: self.clock(),
            },
            Kind::Challenges => ClientMessage::Challenges,
            Kind::AnswerChallenge => ClientMessage::AnswerChallenge {
                id: self.challenge(p),
                accept: self.rng.random_bool(0.7),
            },
            Kind::CancelChallenge => ClientMessage::CancelChallenge {
                id: self.challenge(p),
            },
            Kind::Chat => ClientMessage::Chat {
                phrase: oaq_net::social::Phrase::GoodLuck,
            },
            Kind::Report => ClientMessage::Report {
                player: self.someone(),
                reason: oaq_net::social::ReportReason::Other,
                room: None,
            },
            Kind::Create => ClientMessage::Create {
                rules,
                clock: ClockSpec::UNTIMED,
                first: self.pick(&[First::Me, First::Them, First::Random]),
                public: self.rng.random_bool(0.5),
            },
            Kind::Join => ClientMessage::Join {
                code: self.room(p),
                since: None,
            },
            Kind::Watch => ClientMessage::Watch {
                code: self.room(p),
                since: None,
            },
            Kind::Lobby => ClientMessage::Lobby,
            Kind::MyGames => ClientMessage::MyGames,
            // A puzzle solved, named after its player: invariant 8 finds where it went.
            Kind::KeepTraining => ClientMessage::KeepTraining {
                records: vec![oaq_session::TrainingRecord::Puzzle {
                    id: format!("p{p}-{}", self.rng.random_range(0..1000)),
                    solved: true,
                    rated: None,
                }],
            },
            Kind::Training => ClientMessage::Training {
                since: self.pick(&[0, 1, 5]),
            },
            Kind::Pool => ClientMessage::Pool {
                rules: "basic".into(),
                clock: ClockSpec::Fischer {
                    base_ms: 180_000,
                    increment_ms: 2_000,
                },
            },
            Kind::LeavePool => ClientMessage::LeavePool,
            Kind::Notifications => ClientMessage::Notifications,
            Kind::SetNotifications => ClientMessage::SetNotifications {
                settings: oaq_net::notify::NotifySettings::default(),
            },
            Kind::PushSubscribe => ClientMessage::PushSubscribe {
                subscription: oaq_net::notify::PushSubscription {
                    endpoint: "http://127.0.0.1:1/not-a-push-service".into(),
                    p256dh: "x".into(),
                    auth: "y".into(),
                    lang: Default::default(),
                },
            },
            Kind::PushUnsubscribe => ClientMessage::PushUnsubscribe {
                endpoint: "https://push.example/none".into(),
            },
            Kind::Vacation => ClientMessage::Vacation { days: 0 },
            Kind::Leaderboard => ClientMessage::Leaderboard,
            // Only the child and the bot ask: neither may become one (again).
            Kind::BecomeBot => ClientMessage::BecomeBot,
            Kind::BotToken => ClientMessage::BotToken { revoke: false },
            Kind::Bots => ClientMessage::Bots,
            Kind::PlayBot => ClientMessage::PlayBot {
                rules,
                clock: ClockSpec::UNTIMED,
            },
            Kind::CreateTournament => ClientMessage::CreateTournament {
                name: "Giải nhỏ".into(),
                rules,
                clock: ClockSpec::Fischer {
                    base_ms: 180_000,
                    increment_ms: 2_000,
                },
                format: Format::Arena {
                    minutes: 10,
                    streaks: false,
                },
                public: self.rng.random_bool(0.5),
                starts_ms: None,
                start_when: None,
                password: None,
                unrated: false,
                no_chat: false,
                bots: self.rng.random_bool(0.5),
            },
            Kind::Tournaments => ClientMessage::Tournaments,
            Kind::Tournament => ClientMessage::Tournament {
                id: self.tournament(p),
            },
            Kind::JoinTournament => ClientMessage::JoinTournament {
                id: self.tournament(p),
                password: None,
            },
            Kind::InviteToTournament => ClientMessage::InviteToTournament {
                id: self.tournament(p),
                player: self.someone(),
            },
            Kind::LeaveTournament => ClientMessage::LeaveTournament {
                id: self.tournament(p),
            },
            Kind::PauseTournament => ClientMessage::PauseTournament {
                id: self.tournament(p),
                paused: self.rng.random_bool(0.3),
            },
            Kind::StartTournament => ClientMessage::StartTournament {
                id: self.tournament(p),
            },
            Kind::KeepApart => ClientMessage::KeepApart {
                id: self.tournament(p),
                players: [self.someone(), self.someone()],
                apart: true,
            },
            Kind::Leave => ClientMessage::Leave,
            Kind::Move => ClientMessage::Move {
                ply: self.rng.random_range(0..3),
                mv: self.pick(&["1+".to_owned(), "3-".to_owned(), "9+".to_owned()]),
                think_ms: None,
            },
            Kind::Resign => ClientMessage::Resign,
            Kind::OfferDraw => ClientMessage::OfferDraw,
            Kind::AcceptDraw => ClientMessage::AcceptDraw,
            Kind::Rematch => ClientMessage::Rematch,
            Kind::Claim => ClientMessage::Claim,
            Kind::Ping => ClientMessage::Ping { id: 3 },
        }
    }

    /// Who sends a message of `kind`.
    fn sender(&mut self, kind: Kind) -> usize {
        match kind {
            // A second hello on a connection is refused; the model keeps its players.
            Kind::Hello => self.pick(&[A, B, C, K, X]),
            Kind::BecomeBot => self.pick(&[K, X]),
            _ => self.rng.random_range(0..PLAYERS),
        }
    }

    /// One message of `kind`: sent, answered, and the answer's time held to invariant 7.
    async fn drive_message(&mut self, kind: Kind, context: &str) {
        let p = self.sender(kind);
        let msg = self.message(kind, p);
        assert_eq!(kind_of(&msg), kind, "{context}: the generator made {msg:?}");
        self.ping += 1;
        let (refusal, took) = self.players[p].send(&msg, self.ping).await;
        if let Some(code) = refusal {
            self.slowest = self.slowest.max(took);
            assert!(
                took < Duration::from_secs(1),
                "{context}: {msg:?} by P{p} refused ({code:?}) after {took:?}"
            );
        }
        // The bot's new token (the old one stops at once).
        if kind == Kind::BotToken && p == X {
            let told =
                self.players[X].heard.iter().rev().find_map(|h| {
                    match serde_json::from_str::<ServerMessage>(h) {
                        Ok(ServerMessage::Notice(Notice::BotToken { token: Some(t) })) => Some(t),
                        _ => None,
                    }
                });
            self.token = told.expect("the bot's new token");
        }
        self.messages.insert(kind);
    }

    /// One call of `route`, by the bot or a player's address.
    async fn drive_route(&mut self, route: Route, context: &str) {
        let (method, _, sender, _) = route_rule(route);
        let p = if sender == Sender::Bot {
            X
        } else {
            self.rng.random_range(0..PLAYERS)
        };
        let token = (sender == Sender::Bot).then(|| {
            if self.rng.random_bool(0.9) {
                self.token.clone()
            } else {
                "oaqbot_wrong".to_owned()
            }
        });
        let room = self.room(p);
        let tournament = self.tournament(p);
        let challenge = self.challenge(p);
        let someone = self.someone();
        let (path, body) = match route {
            Route::Ws => ("/ws".to_owned(), String::new()),
            Route::Health => ("/health".into(), String::new()),
            Route::Metrics => ("/metrics".into(), String::new()),
            Route::PlayerPage => (format!("/players/{someone}"), String::new()),
            Route::Leaderboard => ("/leaderboard".into(), String::new()),
            Route::Game => (format!("/games/{room}"), String::new()),
            Route::TournamentResults => (
                format!("/tournaments/{tournament}/results.csv"),
                String::new(),
            ),
            Route::MailConfirm => ("/mail/confirm?p=x&n=y".into(), String::new()),
            Route::MailStopPage => ("/mail/stop?a=x&s=y".into(), String::new()),
            Route::MailStop => ("/mail/stop?a=x&s=y".into(), String::new()),
            Route::ApiAccount => ("/api/account".into(), String::new()),
            Route::ApiBotNew => (
                "/api/bot/new".into(),
                format!(
                    r#"{{"name":"Máy {p}","login":"may-{}","password":"a long password"}}"#,
                    self.rng.random_range(0..1_000_000)
                ),
            ),
            Route::ApiBotToken => (
                "/api/bot/token".into(),
                r#"{"login":"xe-may-0","password":"a wrong password"}"#.into(),
            ),
            Route::ApiBots => ("/api/bots".into(), String::new()),
            Route::ApiEventStream => ("/api/stream/event".into(), String::new()),
            Route::ApiGameStream => (format!("/api/bot/game/stream/{room}"), String::new()),
            Route::ApiMove => (format!("/api/bot/game/{room}/move/1%2B"), String::new()),
            Route::ApiResign => (format!("/api/bot/game/{room}/resign"), String::new()),
            Route::ApiDraw => (format!("/api/bot/game/{room}/draw/yes"), String::new()),
            Route::ApiClaim => (format!("/api/bot/game/{room}/claim-victory"), String::new()),
            Route::ApiChat => (
                format!("/api/bot/game/{room}/chat"),
                r#"{"phrase":"hello"}"#.into(),
            ),
            Route::ApiChallenge => (
                format!("/api/challenge/{someone}"),
                r#"{"rules":"basic","clock":"untimed"}"#.into(),
            ),
            Route::ApiChallengeAnswer => (
                format!(
                    "/api/challenge/{challenge}/{}",
                    self.pick(&["accept", "decline", "cancel"])
                ),
                String::new(),
            ),
            Route::ApiTournament => (
                format!(
                    "/api/tournament/{tournament}/{}",
                    self.pick(&["join", "withdraw"])
                ),
                String::new(),
            ),
        };
        let from = self.players[p].addr.clone();
        let (status, answer, took) =
            http(&self.server, &from, method, &path, token.as_deref(), &body).await;
        assert!(
            status != 0 && status != 500,
            "{context}: {method} {path}: {status} {answer}"
        );
        if (400..500).contains(&status) {
            self.slowest = self.slowest.max(took);
            assert!(
                took < Duration::from_secs(1),
                "{context}: {method} {path} refused ({status}) after {took:?}"
            );
        }
        if path.starts_with("/api/") && status >= 400 {
            let json: serde_json::Value = serde_json::from_str(answer.trim())
                .unwrap_or_else(|e| panic!("{context}: {path}: {status} not JSON ({e}): {answer}"));
            assert!(json["error"]["code"].is_string(), "{context}: {answer}");
        }
        self.players[p].heard.push(answer);
        self.routes.insert(route);
    }

    /// The invariants over everything every player was sent.
    fn check(&self, context: &str) {
        let child = &self.ids[K];
        // 1: the child is nobody to B, C and the bot (no friends of theirs).
        for p in [B, C, X] {
            for heard in &self.players[p].heard {
                assert!(
                    !heard.contains(child.as_str()) && !heard.contains(CHILD_NAME),
                    "{context}: P{p} was shown the child: {heard}"
                );
            }
        }
        for p in 0..PLAYERS {
            for (code, log) in &self.players[p].logs {
                let (seated, public, first) = table(log);
                // 2: the child sits with friends only, never a bot.
                if seated.iter().any(|s| s.id == *child) {
                    for other in seated.iter().filter(|s| s.id != *child) {
                        assert!(
                            other.id == self.ids[A] && !other.bot,
                            "{context}: the child sat with {other:?} in {code}"
                        );
                    }
                }
                // 3: B and C never share a room.
                let ids: HashSet<&str> = seated.iter().map(|s| s.id.as_str()).collect();
                assert!(
                    !(ids.contains(self.ids[B].as_str()) && ids.contains(self.ids[C].as_str())),
                    "{context}: a blocked pair in {code}"
                );
                // 4: the bot never in a room open to everyone.
                if ids.contains(self.ids[X].as_str()) {
                    assert!(!public, "{context}: the bot in public room {code}");
                }
                // 5: the first mover as `First` says.
                if let Some(order) = log.iter().find_map(|e| match e {
                    RoomEvent::Started { order, .. } => Some(order),
                    _ => None,
                }) {
                    match first {
                        Some(First::Me) => assert_eq!(order[0], 0, "{context}: {code}"),
                        Some(First::Them) => assert_eq!(order[0], 1, "{context}: {code}"),
                        _ => {}
                    }
                }
            }
        }
        // 8: training records reach only the player who kept them, and a bot keeps none.
        for p in 0..PLAYERS {
            for heard in &self.players[p].heard {
                let records = match serde_json::from_str::<ServerMessage>(heard) {
                    Ok(ServerMessage::Notice(Notice::Training { records, .. })) => records,
                    Ok(ServerMessage::Notice(Notice::TrainingKept { .. })) if p == X => {
                        panic!("{context}: the bot kept training records: {heard}")
                    }
                    _ => continue,
                };
                for record in records {
                    let key = record.key();
                    assert!(
                        key.starts_with(&format!("puzzle:p{p}-")),
                        "{context}: P{p} was sent another's record {key}"
                    );
                }
            }
        }
        // 4: the bot is in no tournament for people, and never pooled.
        for heard in &self.players[X].heard {
            match serde_json::from_str::<ServerMessage>(heard) {
                Ok(ServerMessage::Notice(Notice::Tournament { view })) => assert!(
                    view.line.bots || !view.joined,
                    "{context}: the bot in a tournament for people: {heard}"
                ),
                Ok(ServerMessage::Notice(Notice::Pooled { .. })) => {
                    panic!("{context}: the bot pooled: {heard}")
                }
                _ => {}
            }
        }
    }
}

/// Who sits in a room by its log (seated and not unseated), whether it is public, and its
/// `First`.
fn table(log: &[RoomEvent]) -> (Vec<PlayerInfo>, bool, Option<First>) {
    let mut seats: HashMap<usize, PlayerInfo> = HashMap::new();
    let (mut public, mut first) = (false, None);
    for e in log {
        match e {
            RoomEvent::Opened {
                public: p,
                first: f,
                ..
            } => {
                public = *p;
                first = Some(*f);
            }
            RoomEvent::Seated { seat, player } => {
                seats.insert(*seat, player.clone());
            }
            RoomEvent::Unseated { seat } => {
                seats.remove(seat);
            }
            _ => {}
        }
    }
    (seats.into_values().collect(), public, first)
}

/// The routes the server's sources declare, as (method, path).
fn declared_routes() -> BTreeSet<(String, String)> {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut routes = BTreeSet::new();
    for file in ["src/http.rs", "src/api/mod.rs"] {
        let text = std::fs::read_to_string(format!("{root}/{file}")).unwrap();
        for line in text.lines() {
            let Some(rest) = line.trim().strip_prefix(".route(\"") else {
                continue;
            };
            let (path, handlers) = rest.split_once('"').unwrap();
            for method in ["get", "post"] {
                if handlers.contains(&format!(" {method}("))
                    || handlers.contains(&format!(".{method}("))
                {
                    routes.insert((method.to_ascii_uppercase(), path.to_owned()));
                }
            }
        }
    }
    routes
}

#[test]
fn every_route_the_server_declares_is_in_the_model() {
    let modelled: BTreeSet<(String, String)> = Route::ALL
        .iter()
        .map(|&r| {
            let (method, path, _, _) = route_rule(r);
            (method.to_owned(), path.to_owned())
        })
        .collect();
    assert_eq!(declared_routes(), modelled);
}

/// One run: `rounds` rounds from `seed`.
async fn run(seed: u64, rounds: usize) {
    let dir = TempDir::new(&format!("surface-{seed}"));
    let args = [
        "--tournament-minute-secs",
        "3",
        "--tournament-tick-secs",
        "0.2",
    ];
    let server = ServerProcess::sqlite(&dir, &args);
    let mut world = World::new(&server, seed).await;
    let _ = &world.url;
    enum Step {
        Message(Kind),
        Route(Route),
    }
    for round in 0..rounds {
        let mut steps: Vec<Step> = Kind::ALL.iter().map(|&k| Step::Message(k)).collect();
        steps.extend(Route::ALL.iter().map(|&r| Step::Route(r)));
        steps.shuffle(&mut world.rng);
        for (i, step) in steps.into_iter().enumerate() {
            let context = format!("seed {seed} round {round} step {i}");
            match step {
                Step::Message(kind) => {
                    let context = format!("{context} ({kind:?}: {:?})", rule(kind));
                    world.drive_message(kind, &context).await;
                    world.check(&context);
                }
                Step::Route(route) => {
                    let context = format!("{context} ({route:?})");
                    world.drive_route(route, &context).await;
                    world.check(&context);
                }
            }
            for p in world.players.iter_mut() {
                p.drain().await;
            }
            // Within every connection's message rate.
            tokio::time::sleep(Duration::from_millis(30)).await;
        }
    }
    for p in world.players.iter_mut() {
        p.drain().await;
    }
    world.check(&format!("seed {seed}, at the end"));
    guesses_at_once(&server, seed).await;
    println!(
        "surface seed {seed}: messages driven {} of {}, routes driven {} of {}; the slowest \
         refusal {:?}",
        world.messages.len(),
        Kind::ALL.len(),
        world.routes.len(),
        Route::ALL.len(),
        world.slowest
    );
    assert_eq!(world.messages.len(), Kind::ALL.len());
    assert_eq!(world.routes.len(), Route::ALL.len());
}

/// Invariant 6: from one fresh address, 40 guesses at once of each guessable kind (room codes,
/// tournament ids, friend codes, bot tokens) are looked up no more often than the address's
/// allowance of 20 a minute in all.
async fn guesses_at_once(server: &ServerProcess, seed: u64) {
    let url = server.url();
    let from = format!("127.0.21.{}", 1 + seed % 200);
    let mut guesser = Client::connect_from(&url, &from, "Đoán", None).await;
    let mut looked_up = 0;
    for kind in 0..3 {
        for i in 0..40 {
            let msg = match kind {
                0 => ClientMessage::Join {
                    code: well_formed(i, 6),
                    since: None,
                },
                1 => ClientMessage::Tournament {
                    id: well_formed(i, 8),
                },
                _ => ClientMessage::AddFriend {
                    code: well_formed(i, 8),
                },
            };
            guesser.send(&msg).await;
        }
        for _ in 0..40 {
            let code = guesser
                .until(|m| match m {
                    ServerMessage::Notice(Notice::Error { code, .. }) => Some(*code),
                    _ => None,
                })
                .await;
            if code != ErrorCode::RateLimited {
                looked_up += 1;
            }
        }
        // Within the connection's own message rate.
        tokio::time::sleep(Duration::from_secs(2)).await;
    }
    let token_guesses = (0..40).map(|i| {
        let addr = server.addr.clone();
        let from = from.clone();
        async move {
            let token = format!("oaqbot_{i:048}");
            http(&addr, &from, "GET", "/api/account", Some(&token), "")
                .await
                .0
        }
    });
    let statuses = futures_util::future::join_all(token_guesses).await;
    looked_up += statuses.iter().filter(|&&s| s != 429).count();
    // 20 a minute, refilled a little over the run's seconds.
    assert!(
        looked_up <= 24,
        "seed {seed}: {looked_up} of 160 guesses at once were looked up"
    );
}

/// The `i`th code of `len` characters of the codes' alphabet (one that reaches its look-up).
fn well_formed(i: usize, len: usize) -> String {
    let alphabet = oaq_net::protocol::CODE_ALPHABET;
    let mut n = i;
    (0..len)
        .map(|_| {
            let c = alphabet[n % alphabet.len()] as char;
            n /= alphabet.len();
            c
        })
        .collect()
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_message_and_route_keeps_every_promise_to_strangers() {
    let seeds = env("OAQ_SURFACE_SEEDS", 2);
    let rounds = env("OAQ_SURFACE_ROUNDS", 2) as usize;
    for seed in 0..seeds {
        run(seed, rounds).await;
    }
}
