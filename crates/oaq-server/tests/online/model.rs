//! A model-based test of the people protocol: seeded random sequences of people messages from
//! several players on distinct addresses (one of them a child) against a real `oaq-server` on
//! SQLite, each answer checked against a small model of who blocks whom, which rooms exist and
//! who sits where, and invariants checked after every step:
//!
//! 1. a blocked pair never gets a new shared room (a seat, a rematch);
//! 2. a child is never in the lobby or on the leaderboard, and is refused the lobby;
//! 3. a child never hears a chat phrase;
//! 4. another player's profile never carries private data (friend code, login, child mode);
//! 5. `/players/ID` never lists a room still waiting or being played, nor a private one;
//! 6. no action of one player changes another's account (friend code, login, child mode);
//! 7. joins sent at once to one room seat as many as it has seats, the rest refused.
//!
//! `cargo test` runs three seeds of 60 steps on SQLite and one on PostgreSQL; a longer run is a
//! command:
//! `OAQ_MODEL_SEEDS=50 OAQ_MODEL_STEPS=400 cargo test -p oaq-server --test online model::`.

use std::collections::HashSet;
use std::time::Duration;

use futures_util::future::join_all;
use oaq_net::protocol::{
    ClientMessage, ClockSpec, ErrorCode, First, Notice, PROTOCOL, RoomEvent, RulesChoice,
    ServerMessage,
};
use oaq_testkit::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// Players in a run; the last is a child.
const PLAYERS: usize = 5;
const CHILD: usize = PLAYERS - 1;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Waiting,
    Playing,
    Ended,
}

#[derive(Clone, Debug)]
struct Room {
    code: String,
    public: bool,
    /// Players by seat.
    seats: Vec<usize>,
    phase: Phase,
    asked: HashSet<usize>,
}

/// What the server should hold, as far as the test drives it.
#[derive(Default)]
struct Model {
    /// (a, b): a blocks b.
    blocks: HashSet<(usize, usize)>,
    rooms: Vec<Room>,
    /// The room each player's connection is in.
    current: Vec<Option<usize>>,
}

impl Model {
    fn blocked(&self, a: usize, b: usize) -> bool {
        self.blocks.contains(&(a, b)) || self.blocks.contains(&(b, a))
    }

    /// `p`'s connection goes into room `next` (or tries to): it leaves the room it was in,
    /// giving up its seat there if that game had not begun.
    fn switch(&mut self, p: usize, next: Option<usize>) {
        if let Some(old) = self.current[p].filter(|&old| Some(old) != next) {
            let room = &mut self.rooms[old];
            if room.phase == Phase::Waiting {
                room.seats.retain(|&s| s != p);
            }
            self.current[p] = None;
        }
    }

    fn waiting_rooms_of(&self, p: usize) -> usize {
        self.rooms
            .iter()
            .filter(|r| r.phase == Phase::Waiting && r.seats.contains(&p))
            .count()
    }
}

/// A player's connection, and every message it heard.
struct Player {
    client: Client,
    id: String,
    heard: Vec<ServerMessage>,
    friend_code: String,
}

impl Player {
    /// Messages until `want` picks one (every message is kept for the invariants).
    async fn until<T>(&mut self, mut want: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        loop {
            let msg = self.client.next().await;
            self.heard.push(msg.clone());
            if let Some(t) = want(&msg) {
                return t;
            }
        }
    }

    /// Send `msg`; the answer `done` picks, or the refusal's code.
    async fn ask<T>(
        &mut self,
        msg: &ClientMessage,
        mut done: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> Result<T, ErrorCode> {
        self.client.send(msg).await;
        self.until(|m| match m {
            ServerMessage::Notice(Notice::Error { code, .. }) => Some(Err(*code)),
            m => done(m).map(Ok),
        })
        .await
    }

    /// What came in meanwhile, without waiting.
    async fn drain(&mut self) {
        while let Some(msg) = self.client.try_next(Duration::from_millis(5)).await {
            self.heard.push(msg);
        }
    }
}

fn seat_of(code: &str) -> impl FnMut(&ServerMessage) -> Option<Option<usize>> + '_ {
    move |m| match m {
        ServerMessage::Notice(Notice::Seat { code: c, seat }) if c == code => Some(*seat),
        _ => None,
    }
}

fn relations(m: &ServerMessage) -> Option<()> {
    matches!(m, ServerMessage::Notice(Notice::Relations { .. })).then_some(())
}

fn own_profile(m: &ServerMessage) -> Option<oaq_net::social::Profile> {
    match m {
        ServerMessage::Notice(Notice::Profile { profile }) => Some(profile.clone()),
        _ => None,
    }
}

async fn connect(url: &str, i: usize) -> Player {
    let hello = ClientMessage::Hello {
        protocol: PROTOCOL,
        name: format!("P{i}"),
        token: None,
        device: None,
        child: i == CHILD,
        batches: false,
        then: 0,
    };
    let ws = Client::raw_from(url, &format!("127.0.10.{}", i + 1))
        .await
        .expect("connects");
    let client = Client::greet_with(ws, &hello).await;
    let mut p = Player {
        client,
        id: String::new(),
        heard: Vec::new(),
        friend_code: String::new(),
    };
    p.id = p
        .until(|m| match m {
            ServerMessage::Notice(Notice::Welcome { player, .. }) => Some(player.id.clone()),
            _ => None,
        })
        .await;
    let own = p
        .ask(&ClientMessage::Profile { player: None }, own_profile)
        .await
        .unwrap();
    p.friend_code = own.friend_code.unwrap();
    p
}

/// One run of `steps` random steps from `seed`, on SQLite or (`database`) PostgreSQL.
async fn run(seed: u64, steps: usize, database: Option<&str>) {
    let dir = TempDir::new(&format!("model-{seed}"));
    let server = match database {
        None => ServerProcess::sqlite(&dir, &["--rooms-per-minute", "10000"]),
        Some(url) => ServerProcess::start(&["--database", url, "--rooms-per-minute", "10000"]),
    };
    let url = server.url();
    let mut players = Vec::new();
    for i in 0..PLAYERS {
        players.push(connect(&url, i).await);
    }
    let mut model = Model {
        current: vec![None; PLAYERS],
        ..Model::default()
    };
    let mut rng = StdRng::seed_from_u64(seed);
    for step in 0..steps {
        let a = rng.random_range(0..PLAYERS);
        let b = (a + rng.random_range(1..PLAYERS)) % PLAYERS;
        let what = rng.random_range(0..12);
        let context = format!("seed {seed} step {step}: action {what} by P{a} (other P{b})");
        act(
            &mut players,
            &mut model,
            &server,
            &mut rng,
            what,
            a,
            b,
            &context,
        )
        .await;
        for p in players.iter_mut() {
            p.drain().await;
        }
        check(&players, &model, &context);
    }
    // 6: nobody's account changed by another: the friend codes stand, child mode as set.
    for (i, p) in players.iter_mut().enumerate() {
        let own = p
            .ask(&ClientMessage::Profile { player: None }, own_profile)
            .await
            .unwrap();
        assert_eq!(own.friend_code.as_deref(), Some(p.friend_code.as_str()));
        assert_eq!(
            own.child,
            Some(i == CHILD),
            "seed {seed}: P{i}'s child mode"
        );
        assert_eq!(own.login, None, "seed {seed}: P{i}'s login");
    }
}

/// Invariants 1 and 3, over what each player heard.
fn check(players: &[Player], model: &Model, context: &str) {
    for m in &players[CHILD].heard {
        assert!(
            !matches!(m, ServerMessage::Notice(Notice::Chat { .. })),
            "{context}: the child heard {m:?}"
        );
    }
    for room in &model.rooms {
        for (i, &x) in room.seats.iter().enumerate() {
            for &y in &room.seats[i + 1..] {
                assert!(x != y, "{context}: P{x} twice in {}", room.code);
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
async fn act(
    players: &mut [Player],
    model: &mut Model,
    server: &ServerProcess,
    rng: &mut StdRng,
    what: u32,
    a: usize,
    b: usize,
    context: &str,
) {
    let ids: Vec<String> = players.iter().map(|p| p.id.clone()).collect();
    match what {
        // Create a room, public or private.
        0 | 1 => {
            let public = what == 0;
            let msg = ClientMessage::Create {
                rules: RulesChoice::Preset("basic".into()),
                clock: ClockSpec::UNTIMED,
                first: First::Me,
                public,
            };
            let got = players[a]
                .ask(&msg, |m| match m {
                    ServerMessage::Notice(Notice::Created { code }) => Some(code.clone()),
                    _ => None,
                })
                .await;
            let child_refused = public && a == CHILD;
            if !child_refused {
                model.switch(a, None);
            }
            let expected_refusal = child_refused || model.waiting_rooms_of(a) >= 5;
            match got {
                Ok(code) => {
                    assert!(!expected_refusal, "{context}: created {code}");
                    players[a].until(seat_of(&code)).await;
                    model.rooms.push(Room {
                        code,
                        public,
                        seats: vec![a],
                        phase: Phase::Waiting,
                        asked: HashSet::new(),
                    });
                    model.current[a] = Some(model.rooms.len() - 1);
                }
                Err(code) => {
                    assert!(expected_refusal, "{context}: refused {code:?}");
                    assert_eq!(code, ErrorCode::NotAllowed, "{context}");
                }
            }
        }
        // Join a room (invariant 1: never one with a player either blocks).
        2 | 3 => {
            if model.rooms.is_empty() {
                return;
            }
            let r = rng.random_range(0..model.rooms.len());
            join(players, model, a, r, context).await;
        }
        // Block or unblock.
        4 => {
            let msg = ClientMessage::Block {
                player: ids[b].clone(),
            };
            players[a].ask(&msg, relations).await.unwrap();
            model.blocks.insert((a, b));
        }
        5 => {
            let msg = ClientMessage::Unblock {
                player: ids[b].clone(),
            };
            let got = players[a].ask(&msg, relations).await;
            assert_eq!(got.is_ok(), model.blocks.remove(&(a, b)), "{context}");
        }
        // The lobby (invariant 2; and no room with a player either blocks).
        6 => {
            let got = players[a]
                .ask(&ClientMessage::Lobby, |m| match m {
                    ServerMessage::Notice(Notice::Lobby { rooms, .. }) => Some(rooms.clone()),
                    _ => None,
                })
                .await;
            if a == CHILD {
                assert_eq!(got.err(), Some(ErrorCode::NotAllowed), "{context}");
                return;
            }
            for listed in got.unwrap() {
                let room = model.rooms.iter().find(|r| r.code == listed.code);
                let room = room.unwrap_or_else(|| panic!("{context}: unknown {}", listed.code));
                assert!(room.public && room.phase == Phase::Waiting, "{context}");
                assert!(
                    !room.seats.contains(&CHILD),
                    "{context}: a child's room listed"
                );
                for &p in &room.seats {
                    assert!(!model.blocked(a, p), "{context}: P{p}'s room shown to P{a}");
                }
            }
        }
        // Another's profile (invariant 4).
        7 => {
            let msg = ClientMessage::Profile {
                player: Some(ids[b].clone()),
            };
            let got = players[a].ask(&msg, own_profile).await;
            // A child is nobody to a stranger (the child here has no friends).
            if model.blocked(a, b) || b == CHILD {
                assert_eq!(got.err(), Some(ErrorCode::NoSuchPlayer), "{context}");
                return;
            }
            let profile = got.unwrap();
            assert!(
                profile.friend_code.is_none()
                    && profile.login.is_none()
                    && profile.child.is_none()
                    && profile.child_off_ms.is_none(),
                "{context}: {profile:?}"
            );
        }
        // A player's public page and the leaderboard (invariants 5 and 2).
        8 => {
            let (status, page) = server.http(&format!("/players/{}", ids[b]));
            let expected = if b == CHILD { 404 } else { 200 };
            assert_eq!(status, expected, "{context}: {page}");
            for room in &model.rooms {
                if room.phase != Phase::Ended || !room.public {
                    assert!(
                        !page.contains(&room.code),
                        "{context}: {} on {page}",
                        room.code
                    );
                }
            }
            let (_, board) = server.http("/leaderboard");
            assert!(
                !board.contains(&ids[CHILD]),
                "{context}: a child on {board}"
            );
        }
        // Resign the game in progress, or ask for a rematch after it.
        9 => {
            let Some(r) = model.current[a].filter(|&r| model.rooms[r].seats.contains(&a)) else {
                return;
            };
            match model.rooms[r].phase {
                Phase::Playing => {
                    players[a].client.send(&ClientMessage::Resign).await;
                    let code = model.rooms[r].code.clone();
                    players[a]
                        .until(|m| match m {
                            ServerMessage::Room(e) if e.code == code => {
                                matches!(e.event, RoomEvent::Ended { .. }).then_some(())
                            }
                            _ => None,
                        })
                        .await;
                    model.rooms[r].phase = Phase::Ended;
                }
                Phase::Ended => rematch(players, model, a, r, context).await,
                Phase::Waiting => {}
            }
        }
        // A chat phrase in the room (invariant 3 reads what the child heard).
        10 => {
            if model.current[a].is_none() {
                return;
            }
            let msg = ClientMessage::Chat {
                phrase: oaq_net::social::Phrase::Hello,
            };
            players[a].client.send(&msg).await;
            // No answer comes to a phrase said; a refusal (not a player here, child mode, too
            // many) comes before the pong.
            let ping = ClientMessage::Ping { id: 7 };
            let _ = players[a]
                .ask(&ping, |m| {
                    matches!(m, ServerMessage::Notice(Notice::Pong { .. })).then_some(())
                })
                .await;
        }
        // Joins sent at once to one waiting room (invariant 7).
        _ => burst(players, model, a, context).await,
    }
}

/// `p` joins room `r`, as the model expects.
async fn join(players: &mut [Player], model: &mut Model, p: usize, r: usize, context: &str) {
    let code = model.rooms[r].code.clone();
    let msg = ClientMessage::Join {
        code: code.clone(),
        since: None,
    };
    model.switch(p, Some(r));
    let got = players[p].ask(&msg, seat_of(&code)).await;
    let room = &model.rooms[r];
    let held = room.seats.contains(&p);
    let blocked = room.seats.iter().any(|&s| model.blocked(p, s));
    match got {
        Ok(Some(_)) if held => {}
        Ok(Some(_)) => {
            assert!(
                !blocked,
                "{context}: P{p} sat with a player who blocks ({code})"
            );
            assert_eq!(room.phase, Phase::Waiting, "{context}");
            assert!(room.seats.len() < 2, "{context}: a third seat in {code}");
            let room = &mut model.rooms[r];
            room.seats.push(p);
            if room.seats.len() == 2 {
                room.phase = Phase::Playing;
            }
        }
        Ok(None) => panic!("{context}: joined {code} without a seat"),
        Err(ErrorCode::NoSuchRoom) => assert!(
            blocked && !held && room.phase == Phase::Waiting,
            "{context}: {code}"
        ),
        Err(ErrorCode::RoomFull) => assert!(!held && room.phase != Phase::Waiting, "{context}"),
        Err(ErrorCode::NotAllowed) => assert!(
            p == CHILD && room.public && !held && !blocked && room.phase == Phase::Waiting,
            "{context}: {code}"
        ),
        Err(other) => panic!("{context}: join {code}: {other:?}"),
    }
    model.current[p] = Some(r).filter(|_| got.is_ok());
}

/// `p` asks for a rematch of ended room `r`: never between a blocked pair.
async fn rematch(players: &mut [Player], model: &mut Model, p: usize, r: usize, context: &str) {
    let code = model.rooms[r].code.clone();
    let other = model.rooms[r].seats.iter().copied().find(|&s| s != p);
    let blocked = other.is_some_and(|o| model.blocked(p, o));
    let asked_before = model.rooms[r].asked.contains(&p);
    let got = players[p]
        .ask(&ClientMessage::Rematch, |m| match m {
            ServerMessage::Room(e) if e.code == code => match &e.event {
                RoomEvent::RematchOffered { .. } => Some(None),
                RoomEvent::Rematch { room } => Some(Some(room.clone())),
                _ => None,
            },
            _ => None,
        })
        .await;
    match got {
        Err(code) => {
            assert_eq!(code, ErrorCode::NotAllowed, "{context}");
            assert!(
                blocked || asked_before || model.rooms[r].seats.len() < 2,
                "{context}"
            );
        }
        Ok(_) => {
            assert!(!blocked && !asked_before, "{context}: a rematch asked");
            model.rooms[r].asked.insert(p);
            if model.rooms[r].asked.len() == 2 {
                // The offer came first; the room follows it.
                let next = players[p]
                    .until(|m| match m {
                        ServerMessage::Room(e) if e.code == code => match &e.event {
                            RoomEvent::Rematch { room } => Some(room.clone()),
                            _ => None,
                        },
                        _ => None,
                    })
                    .await;
                let seats = model.rooms[r].seats.clone();
                model.rooms.push(Room {
                    code: next,
                    public: false,
                    seats,
                    phase: Phase::Playing,
                    asked: HashSet::new(),
                });
            }
        }
    }
}

/// Every other player joins `a`'s newest waiting room at once: one seat is free, so one of
/// those allowed gets it and the others are refused.
async fn burst(players: &mut [Player], model: &mut Model, a: usize, context: &str) {
    let Some(r) = model
        .rooms
        .iter()
        .rposition(|room| room.phase == Phase::Waiting && room.seats == [a])
    else {
        return;
    };
    let code = model.rooms[r].code.clone();
    for p in (0..PLAYERS).filter(|&p| p != a) {
        model.switch(p, Some(r));
    }
    let joins = players
        .iter_mut()
        .enumerate()
        .filter(|(p, _)| *p != a)
        .map(|(p, player)| {
            let code = code.clone();
            async move {
                let msg = ClientMessage::Join {
                    code: code.clone(),
                    since: None,
                };
                (p, player.ask(&msg, seat_of(&code)).await)
            }
        });
    let answers = join_all(joins).await;
    let seated: Vec<usize> = answers
        .iter()
        .filter(|(_, got)| matches!(got, Ok(Some(_))))
        .map(|(p, _)| *p)
        .collect();
    let public = model.rooms[r].public;
    let allowed = answers
        .iter()
        .filter(|(p, _)| {
            let child_kept_out = public && *p == CHILD;
            !model.blocked(a, *p) && !child_kept_out
        })
        .count();
    assert_eq!(
        seated.len(),
        usize::from(allowed > 0),
        "{context}: {answers:?}"
    );
    for (p, got) in &answers {
        match got {
            Ok(_) => assert!(!model.blocked(a, *p), "{context}: P{p} sat with P{a}"),
            Err(ErrorCode::NotAllowed) => assert!(*p == CHILD && public, "{context}"),
            Err(code) => assert!(
                matches!(code, ErrorCode::NoSuchRoom | ErrorCode::RoomFull),
                "{context}: {code:?}"
            ),
        }
        model.current[*p] = Some(r).filter(|_| got.is_ok());
    }
    if let Some(&p) = seated.first() {
        model.rooms[r].seats.push(p);
        model.rooms[r].phase = Phase::Playing;
    }
}

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn random_people_messages_keep_every_promise_to_strangers() {
    let seeds = env("OAQ_MODEL_SEEDS", 3);
    let steps = env("OAQ_MODEL_STEPS", 60) as usize;
    for seed in 0..seeds {
        run(seed, steps, None).await;
    }
}

/// The same on PostgreSQL, whose SQL differs in places (one seed).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn on_postgres_random_people_messages_keep_every_promise_to_strangers() {
    let pg = Postgres::start();
    let steps = env("OAQ_MODEL_STEPS", 60) as usize;
    run(100, steps, Some(&pg.url())).await;
}
