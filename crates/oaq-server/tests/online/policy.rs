//! The one policy of who may meet whom and who may see what (`oaq_server::policy`), tried
//! through every way players meet: each test is a finding of a hostile try against the
//! server before the policy, and fails on a server without it.

use std::time::{Duration, Instant};

use oaq_net::protocol::{
    ClientMessage, ClockSpec, ErrorCode, First, Notice, RoomEvent, RulesChoice, ServerMessage,
};
use oaq_net::tournament::{Format, TournamentView};
use oaq_server::bot::http::{Api, Failure};
use oaq_testkit::*;
use serde_json::{Value, json};

use super::people::{befriend, connect_child};
use super::tournaments::page;

/// A person with a sign-in name and no game: one who may turn into a bot.
async fn with_login(url: &str, name: &str, login: &str) -> Client {
    let mut c = Client::connect(url, name).await;
    c.send(&ClientMessage::SetLogin {
        login: login.into(),
        password: "a long enough password".into(),
        current: None,
    })
    .await;
    c.until(|m| match m {
        ServerMessage::Notice(Notice::Profile { .. }) => Some(()),
        ServerMessage::Notice(Notice::Error { message, .. }) => panic!("login: {message}"),
        _ => None,
    })
    .await;
    c
}

/// `c` becomes a bot: its API token.
async fn become_bot(c: &mut Client) -> String {
    c.send(&ClientMessage::BecomeBot).await;
    c.until(|m| match m {
        ServerMessage::Notice(Notice::BotToken { token: Some(t) }) => Some(t.clone()),
        ServerMessage::Notice(Notice::Error { message, .. }) => panic!("become_bot: {message}"),
        _ => None,
    })
    .await
}

fn refused_code(result: Result<Value, Failure>) -> (u16, String) {
    match result {
        Err(Failure::Refused { status, code, .. }) => (status, code),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// `client` organises an arena; its id.
async fn organised(client: &mut Client, public: bool, start_when: Option<u32>) -> String {
    client.send(&arena(public, start_when)).await;
    page(client).await.line.id
}

/// `client` joins tournament `id` (no password); its page.
async fn join_tournament(client: &mut Client, id: &str) -> TournamentView {
    client
        .send(&ClientMessage::JoinTournament {
            id: id.to_owned(),
            password: None,
        })
        .await;
    page(client).await
}

fn arena(public: bool, start_when: Option<u32>) -> ClientMessage {
    oaq_testkit::arena(public, None, start_when)
}

/// The room of a `paired` notice that comes within `wait`, if one does.
async fn pairing_within(client: &mut Client, wait: Duration) -> Option<String> {
    let until = Instant::now() + wait;
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match client.try_next(left).await {
            Some(ServerMessage::Notice(Notice::Paired { room })) => return Some(room),
            Some(_) => {}
            None => return None,
        }
    }
    None
}

/// The room a `paired` notice names.
async fn paired(client: &mut Client) -> String {
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::Paired { room }) => Some(room.clone()),
            _ => None,
        })
        .await
}

/// Finding 1: a child in a friend's public arena was shown to strangers (name, id and room in
/// the standings, the results CSV, a room to watch) and paired with a stranger in it. Now a
/// stranger sees "a player" with no room, cannot watch the child's game, and is never paired
/// with the child; the organiser, a friend, sees them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_child_in_a_public_tournament_is_nobody_to_strangers_and_never_meets_one() {
    let dir = TempDir::new("policy-child-tournament");
    let args = [
        "--tournament-minute-secs",
        "3",
        "--tournament-tick-secs",
        "0.2",
    ];
    let server = ServerProcess::sqlite(&dir, &args);
    let url = server.url();
    let mut organiser = Client::connect(&url, "Cô Lan").await;
    let mut kid = connect_child(&url, "Bé Na").await;
    befriend(&mut organiser, &mut kid).await;
    let id = organised(&mut organiser, true, None).await;
    // The organiser takes a break: the child and the stranger are the only ones to pair.
    organiser
        .send(&ClientMessage::PauseTournament {
            id: id.clone(),
            paused: true,
        })
        .await;
    page(&mut organiser).await;
    assert!(join_tournament(&mut kid, &id).await.joined);
    let mut stranger = Client::connect(&url, "Người lạ").await;
    join_tournament(&mut stranger, &id).await;
    organiser
        .send(&ClientMessage::StartTournament { id: id.clone() })
        .await;
    page(&mut organiser).await;
    for waiting in [&mut kid, &mut stranger] {
        assert_eq!(pairing_within(waiting, Duration::from_secs(2)).await, None);
    }
    // Back from the break: the child plays their friend.
    organiser
        .send(&ClientMessage::PauseTournament {
            id: id.clone(),
            paused: false,
        })
        .await;
    let kid_room = paired(&mut kid).await;
    assert_eq!(
        paired(&mut organiser).await,
        kid_room,
        "the child plays their friend"
    );
    assert_eq!(
        pairing_within(&mut stranger, Duration::from_secs(1)).await,
        None
    );

    let mut outsider = Client::connect(&url, "Ai đó").await;
    for (who, looker) in [("in it", &mut stranger), ("outside", &mut outsider)] {
        looker
            .send(&ClientMessage::Tournament { id: id.clone() })
            .await;
        let view = page(looker).await;
        let json = serde_json::to_string(&view).unwrap();
        assert!(
            !json.contains(&kid.player.id) && !json.contains("Bé Na") && !json.contains(&kid_room),
            "a stranger {who} sees nothing of the child: {json}"
        );
        assert!(
            view.standings
                .iter()
                .any(|l| l.player.id.is_empty() && l.room.is_none()),
            "the child is a line without a name or a room: {json}"
        );
        looker
            .send(&ClientMessage::Watch {
                code: kid_room.clone(),
                since: None,
            })
            .await;
        let (code, _, _) = looker.error().await;
        assert_eq!(
            code,
            ErrorCode::NoSuchRoom,
            "a stranger {who} cannot watch the child"
        );
    }
    organiser
        .send(&ClientMessage::Tournament { id: id.clone() })
        .await;
    let seen = page(&mut organiser).await;
    assert!(
        seen.standings.iter().any(|l| l.player.id == kid.player.id),
        "the organiser, a friend, sees the child"
    );
    let (status, csv) = server.http(&format!("/tournaments/{id}/results.csv"));
    assert_eq!(status, 200);
    assert!(!csv.contains("Bé Na") && csv.contains("a player"), "{csv}");
}

/// Finding 2: looking at or joining a tournament by id counted a miss only after the look-up
/// found nothing, so a real private id among 200 guesses was answered every time. Now each
/// id is a guess counted before its look-up: past the address's allowance, the real id is
/// refused like any other, and 40 sent at once get at most the allowance of answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tournament_ids_are_counted_before_the_look_up() {
    let dir = TempDir::new("policy-tournament-ids");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut organiser = Client::connect(&url, "Chủ").await;
    let real = organised(&mut organiser, false, None).await;
    let mut guesser = Client::connect_from(&url, "127.0.0.61", "Đoán", None).await;
    let mut answered = 0;
    let mut limited = 0;
    for i in 0..40 {
        let id = if i == 30 {
            real.clone()
        } else {
            format!("ZZZZ{i:04}")
        };
        guesser.send(&ClientMessage::Tournament { id }).await;
        let got = guesser
            .until(|m| match m {
                ServerMessage::Notice(Notice::Tournament { .. }) => Some(None),
                ServerMessage::Notice(Notice::Error { code, .. }) => Some(Some(*code)),
                _ => None,
            })
            .await;
        match got {
            Some(ErrorCode::RateLimited) => limited += 1,
            Some(ErrorCode::NoSuchTournament) => answered += 1,
            None => panic!("the real id was answered after {answered} wrong guesses"),
            Some(other) => panic!("{other:?}"),
        }
        // Slower than the messages' own limit, so only the guesses' limit speaks.
        tokio::time::sleep(Duration::from_millis(60)).await;
    }
    assert!(
        answered <= 21 && limited >= 19,
        "{answered} answered, {limited} limited"
    );
    // At once, from a fresh address, with the real id among them: at most the allowance
    // answered, whatever the order they are looked up in.
    let mut at_once = Client::connect_from(&url, "127.0.0.62", "Cùng lúc", None).await;
    for i in 0..40 {
        let id = if i == 39 {
            real.clone()
        } else {
            format!("YYYY{i:04}")
        };
        at_once
            .send(&ClientMessage::JoinTournament { id, password: None })
            .await;
    }
    let mut not_limited = 0;
    for _ in 0..40 {
        let got = at_once
            .until(|m| match m {
                ServerMessage::Notice(Notice::Tournament { .. }) => Some(None),
                ServerMessage::Notice(Notice::Error { code, .. }) => Some(Some(*code)),
                _ => None,
            })
            .await;
        if got != Some(ErrorCode::RateLimited) {
            not_limited += 1;
        }
    }
    assert!(
        not_limited <= 21,
        "{not_limited} of 40 sent at once were looked up"
    );
}

/// Finding 3: a child played a bot. (a) A challenge to a bot sent before child mode was
/// turned on was accepted by the bot; (b) a friend who became a bot was challenged by the
/// child, and its challenge to the child was delivered. Now a child and a bot never meet,
/// whichever way and whenever the child mode was turned on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_child_never_plays_a_bot_whichever_way() {
    let dir = TempDir::new("policy-child-bot");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let http = format!("http://{}", server.addr);
    let mut parent = Client::connect(&url, "Bố").await;
    let mut program = with_login(&url, "Máy", "may-bot").await;
    befriend(&mut parent, &mut program).await;
    let token = become_bot(&mut program).await;
    let robot = Api::new(&http, &token);
    // (a) Challenged as an adult, accepted after child mode went on.
    parent
        .send(&ClientMessage::Challenge {
            player: program.player.id.clone(),
            rules: RulesChoice::Preset("basic".into()),
            clock: ClockSpec::UNTIMED,
        })
        .await;
    let waiting = parent
        .until(|m| match m {
            ServerMessage::Notice(Notice::Challenges { outgoing, .. }) => outgoing.first().cloned(),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("{message}"),
            _ => None,
        })
        .await;
    parent
        .send(&ClientMessage::SetChild {
            child: true,
            current: None,
        })
        .await;
    parent
        .until(|m| matches!(m, ServerMessage::Notice(Notice::Profile { .. })).then_some(()))
        .await;
    let accepted = robot
        .call(
            "POST",
            &format!("/api/challenge/{}/accept", waiting.id),
            None,
        )
        .await;
    assert_eq!(refused_code(accepted).0, 404, "no game opens");
    // (b) Friends, one now a child: neither challenge goes.
    parent
        .send(&ClientMessage::Challenge {
            player: program.player.id.clone(),
            rules: RulesChoice::Preset("basic".into()),
            clock: ClockSpec::UNTIMED,
        })
        .await;
    let (code, _, _) = parent.error().await;
    assert_eq!(code, ErrorCode::NoSuchPlayer);
    let body = json!({ "rules": "basic", "clock": "untimed" });
    let sent = robot
        .call(
            "POST",
            &format!("/api/challenge/{}", parent.player.id),
            Some(&body),
        )
        .await;
    assert_eq!(
        refused_code(sent).0,
        404,
        "the bot's challenge to a child is refused"
    );
    parent.hears_nothing(Duration::from_millis(500)).await;
}

/// Finding 4: a player who became a bot while seated in a public room waiting for an opponent,
/// or entered in a tournament for people, kept meeting people there. Now becoming a bot
/// gives up those seats and entries, and the policy seats no bot among people anyway.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn becoming_a_bot_leaves_the_lobby_and_tournaments_for_people() {
    let dir = TempDir::new("policy-became-bot");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut organiser = Client::connect(&url, "Chủ").await;
    let id = organised(&mut organiser, false, None).await;
    let mut x = with_login(&url, "Sắp máy", "sap-may").await;
    assert!(join_tournament(&mut x, &id).await.joined);
    let room = x.create("basic", ClockSpec::UNTIMED, First::Me, true).await;
    become_bot(&mut x).await;
    let mut stranger = Client::connect(&url, "Lạ").await;
    stranger
        .send(&ClientMessage::Join {
            code: room.clone(),
            since: None,
        })
        .await;
    // Refused, or seated in a room the bot has left: never at a table with it.
    let joined = stranger
        .until(|m| match m {
            ServerMessage::Notice(Notice::Seat { seat, .. }) => Some(Ok(*seat)),
            ServerMessage::Notice(Notice::Error { code, .. }) => Some(Err(*code)),
            _ => None,
        })
        .await;
    if joined.is_ok() {
        let mut seated = std::collections::HashMap::new();
        for e in &stranger.events {
            match &e.event {
                RoomEvent::Seated { seat, player } => {
                    seated.insert(*seat, player.id.clone());
                }
                RoomEvent::Unseated { seat } => {
                    seated.remove(seat);
                }
                _ => {}
            }
        }
        assert!(
            !seated.values().any(|p| *p == x.player.id),
            "a stranger sat with a bot: {seated:?}"
        );
    }
    organiser
        .send(&ClientMessage::Tournament { id: id.clone() })
        .await;
    let view = page(&mut organiser).await;
    // Before its start, a player who leaves is off the list; after, withdrawn.
    let line = view.standings.iter().find(|l| l.player.id == x.player.id);
    assert!(
        line.is_none_or(|l| l.presence == oaq_tournament::Presence::Withdrawn),
        "{line:?}"
    );
    assert_eq!(view.line.players, 1, "the organiser alone is in it");
}

/// Finding 5: a refused `become_bot` held SQLite's only connection while asking for another:
/// every refusal answered `unavailable` after the pool's 3 s wait, and everyone else's
/// requests waited behind it. Now it answers `not_allowed`, saying why, at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_become_bot_says_why_at_once() {
    let dir = TempDir::new("policy-become-bot");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut guest = Client::connect(&url, "Khách").await;
    let mut bystander = Client::connect(&url, "Bên cạnh").await;
    for _ in 0..3 {
        let began = Instant::now();
        guest.send(&ClientMessage::BecomeBot).await;
        bystander
            .send(&ClientMessage::Profile { player: None })
            .await;
        let (code, message, _) = guest.error().await;
        assert_eq!(code, ErrorCode::NotAllowed, "{message}");
        assert!(message.contains("sign-in name"), "{message}");
        bystander
            .until(|m| matches!(m, ServerMessage::Notice(Notice::Profile { .. })).then_some(()))
            .await;
        // A refusal that waited on the store's pool took 3 s.
        println!("become_bot refused in {:?}", began.elapsed());
        assert!(
            began.elapsed() < Duration::from_secs(1),
            "{:?}",
            began.elapsed()
        );
    }
}

/// Finding 6: a challenge's game always had the challenger move first. Now `First::Random`
/// is drawn by the server: over 200 challenge games the challenger moves first in 40–60 %.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn challenge_games_draw_the_first_mover() {
    let dir = TempDir::new("policy-first");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut pairs = Vec::new();
    for i in 0..5 {
        let from = format!("127.0.1.{}", 10 + i);
        let mut a = Client::connect_from(&url, &from, &format!("Thách {i}"), None).await;
        let mut b = Client::connect_from(&url, &from, &format!("Nhận {i}"), None).await;
        befriend(&mut a, &mut b).await;
        pairs.push((a, b));
    }
    let games =
        futures_util::future::join_all(pairs.into_iter().map(|(a, b)| challenges(a, b, 40))).await;
    let challenger_first: usize = games.iter().sum();
    println!("the challenger moved first in {challenger_first} of 200 challenge games");
    assert!(
        (80..=120).contains(&challenger_first),
        "the challenger moved first in {challenger_first} of 200 games"
    );
}

/// `a` challenges `b` `n` times; each game's first mover read from its log: how many times it
/// was `a`.
async fn challenges(mut a: Client, mut b: Client, n: usize) -> usize {
    let mut firsts = 0;
    for _ in 0..n {
        a.send(&ClientMessage::Challenge {
            player: b.player.id.clone(),
            rules: RulesChoice::Preset("basic".into()),
            clock: ClockSpec::UNTIMED,
        })
        .await;
        let id = b
            .until(|m| match m {
                ServerMessage::Notice(Notice::Challenged { challenge }) => {
                    Some(challenge.id.clone())
                }
                _ => None,
            })
            .await;
        b.send(&ClientMessage::AnswerChallenge { id, accept: true })
            .await;
        let room = b
            .until(|m| match m {
                ServerMessage::Notice(Notice::ChallengeAccepted { room, .. }) => Some(room.clone()),
                ServerMessage::Notice(Notice::Error { message, .. }) => panic!("{message}"),
                _ => None,
            })
            .await;
        b.seen = None;
        let seat = b.join(&room).await.expect("b's seat");
        let order = b.order().expect("begun");
        if order[0] != seat {
            firsts += 1;
        }
        // Within the messages' rate.
        tokio::time::sleep(Duration::from_millis(120)).await;
    }
    firsts
}

/// Finding 7 (logs that others read): 150 reconnections of one player's game stream wrote 299
/// rows into the opponent's game log, no move played. Now a departure and its return are
/// written at most once a claim period per player; a player still gone is written when the
/// period is up, with the time they left.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_over_and_over_fills_no_opponents_log() {
    let dir = TempDir::new("policy-presence");
    let server = ServerProcess::sqlite(&dir, &["--claim-after-secs", "10"]);
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    let mut binh = Client::connect(&url, "Bình").await;
    let code = an
        .create("basic", ClockSpec::UNTIMED, First::Me, false)
        .await;
    binh.join(&code).await.expect("a seat");
    an.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    let before = binh.events.len();
    for _ in 0..30 {
        an.send(&ClientMessage::Leave).await;
        an.join(&code).await.expect("back in the seat");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    // Everything the opponent was sent meanwhile.
    while binh.try_next(Duration::from_millis(500)).await.is_some() {}
    let comings_and_goings = binh.events[before..]
        .iter()
        .filter(|e| matches!(e.event, RoomEvent::Away { .. } | RoomEvent::Back { .. }))
        .count();
    assert!(
        comings_and_goings <= 2,
        "{comings_and_goings} rows in the opponent's log for 30 reconnections"
    );
    // Gone for good: the opponent's log says so once the period is up, from when they left.
    let left = oaq_server::settings::now_ms();
    an.send(&ClientMessage::Leave).await;
    let at = binh
        .event(|e| match e {
            RoomEvent::Away { seat: 0, at_ms } => Some(*at_ms),
            _ => None,
        })
        .await;
    assert!(
        (left - 1_000..=left + 1_000).contains(&at),
        "away from {at}, left at {left}"
    );
}

/// Finding 7 (errors): a move's `?ply=` that is not a number, or out of its range, and a body
/// of megabytes got axum's plain-text 400 and 413. Now every refusal of the API is its JSON,
/// with the protocol's code.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_refusal_of_the_api_is_json() {
    let dir = TempDir::new("policy-json");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut program = with_login(&url, "Máy", "may-json").await;
    let token = become_bot(&mut program).await;
    let robot = Api::new(&format!("http://{}", server.addr), &token);
    for ply in ["abc", "-1", "1099511627776", "1.5"] {
        let path = format!("/api/bot/game/ABCDEF/move/3%2B?ply={ply}");
        let (status, code) = refused_code(robot.call("POST", &path, None).await);
        assert_eq!((status, code.as_str()), (400, "bad_message"), "ply={ply}");
    }
    // Past the frame a body may hold, the server reads on to the body's end before it answers,
    // so that a client still sending it reads the refusal, not a reset; ten at once.
    for mib in [3, 16] {
        let huge = json!({ "rules": "x".repeat(mib << 20) });
        let calls = (0..10).map(|_| robot.call("POST", "/api/challenge/x", Some(&huge)));
        for answer in futures_util::future::join_all(calls).await {
            let (status, code) = refused_code(answer);
            assert_eq!((status, code.as_str()), (413, "too_large"), "{mib} MiB");
        }
    }
    let (status, code) = refused_code(robot.call("GET", "/api/challenge/x", None).await);
    assert_eq!((status, code.as_str()), (405, "bad_message"));
}

/// Finding 7 (an oracle for live codes): an action on a game the bot is not playing answered
/// 403 "you are not playing in room X" where an unknown code answered 404. Now both read as no
/// game at all, whatever the action.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_game_reads_as_no_game_to_a_bot() {
    let dir = TempDir::new("policy-oracle");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    let mut binh = Client::connect(&url, "Bình").await;
    let live = an
        .create("basic", ClockSpec::UNTIMED, First::Me, false)
        .await;
    binh.join(&live).await.expect("a seat");
    an.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    let mut program = with_login(&url, "Máy", "may-oracle").await;
    let token = become_bot(&mut program).await;
    let robot = Api::new(&format!("http://{}", server.addr), &token);
    for code in [live.as_str(), "ZZZZZZ"] {
        for (path, body) in [
            (format!("/api/bot/game/{code}/move/1%2B"), None),
            (format!("/api/bot/game/{code}/resign"), None),
            (format!("/api/bot/game/{code}/draw/yes"), None),
            (format!("/api/bot/game/{code}/claim-victory"), None),
            (
                format!("/api/bot/game/{code}/chat"),
                Some(json!({ "phrase": "hello" })),
            ),
        ] {
            let answer = robot.call("POST", &path, body.as_ref()).await;
            assert_eq!(refused_code(answer), (404, "no_such_room".into()), "{path}");
        }
        let stream = robot.stream(&format!("/api/bot/game/stream/{code}")).await;
        let refused = stream.err().expect("no stream of another's game");
        assert_eq!(refused.code(), Some("no_such_room"), "{refused}");
    }
    // Nothing happened to the live game: it goes on, An's move reaching Bình.
    an.play(0, "2+").await;
    let moved = binh
        .event(|e| match e {
            RoomEvent::Moved { mv, .. } => Some(mv.clone()),
            _ => None,
        })
        .await;
    assert_eq!(moved, "2+");
}

/// Finding 7 (oaq-bot): a program whose challenge was declined never challenged again and sat
/// idle. Now it asks again after a wait that doubles while it has room for a game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oaq_bot_challenges_again_after_a_decline() {
    let dir = TempDir::new("policy-bot-retry");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut lan = Client::connect(&url, "Lan").await;
    let mut program = with_login(&url, "Máy", "may-retry").await;
    befriend(&mut lan, &mut program).await;
    let token = become_bot(&mut program).await;
    let args = [
        "--engine",
        "builtin:easy",
        "--stop-after",
        "1",
        "--clock",
        "untimed",
        "--challenge",
        lan.player.id.as_str(),
    ];
    let playing = super::bots::oaq_bot(&server, &token, &args);
    let challenged = |m: &ServerMessage| match m {
        ServerMessage::Notice(Notice::Challenged { challenge }) => Some(challenge.id.clone()),
        _ => None,
    };
    let first = lan.until(challenged).await;
    lan.send(&ClientMessage::AnswerChallenge {
        id: first.clone(),
        accept: false,
    })
    .await;
    let again = lan.until(challenged).await;
    assert_ne!(again, first, "a new challenge after the decline");
    lan.send(&ClientMessage::AnswerChallenge {
        id: again,
        accept: true,
    })
    .await;
    let room = lan
        .until(|m| match m {
            ServerMessage::Notice(Notice::ChallengeAccepted { room, .. }) => Some(room.clone()),
            _ => None,
        })
        .await;
    lan.join(&room).await.expect("a seat");
    lan.send(&ClientMessage::Resign).await;
    let out = tokio::time::timeout(Duration::from_secs(60), playing.wait_with_output())
        .await
        .expect("oaq-bot stops after its game")
        .unwrap();
    assert!(out.status.success());
}

/// Finding 7 (numbers and names): a tournament's numbers out of range answered `not_allowed`,
/// numbers too large for their type serde's words without the field, and its name kept
/// U+202E, zero-width spaces, control characters and newlines. Now each is `bad_message`
/// naming the field, and the name is cleaned as a player's is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournaments_numbers_and_name_are_checked_as_a_players_are() {
    let dir = TempDir::new("policy-tournament-fields");
    let server = ServerProcess::sqlite(&dir, &[]);
    let mut organiser = Client::connect(&server.url(), "Chủ").await;
    let with = |format: Format, start_when: Option<u32>, name: &str| {
        let mut msg = arena(false, start_when);
        if let ClientMessage::CreateTournament {
            format: f, name: n, ..
        } = &mut msg
        {
            *f = format;
            *n = name.to_owned();
        }
        msg
    };
    let short = Format::Arena {
        minutes: 5,
        streaks: false,
    };
    let ten = Format::Arena {
        minutes: 10,
        streaks: false,
    };
    for (msg, field) in [
        (with(short, None, "Hè"), "format: "),
        (with(ten, Some(1), "Hè"), "start_when: "),
        (with(ten, None, "\u{202E}\u{200B}\n\t"), "name: "),
    ] {
        organiser.send(&msg).await;
        let (code, why, _) = organiser.error().await;
        assert_eq!(code, ErrorCode::BadMessage, "{why}");
        assert!(why.starts_with(field), "{why}");
    }
    let too_big = serde_json::to_string(&with(ten, Some(3), "Hè"))
        .unwrap()
        .replace("\"start_when\":3", "\"start_when\":1099511627776");
    organiser.send_text(&too_big).await;
    let (code, why, _) = organiser.error().await;
    assert_eq!(code, ErrorCode::BadMessage);
    assert!(why.starts_with("start_when: "), "{why}");
    organiser
        .send(&with(ten, None, "Lớp\u{202E} 4A\n\u{200B}"))
        .await;
    assert_eq!(page(&mut organiser).await.line.name, "Lớp 4A");
}
