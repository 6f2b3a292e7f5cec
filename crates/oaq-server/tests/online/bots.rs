//! The bot API against a real server: bots made over HTTP, two `oaq-bot` processes playing a
//! rated game, a person challenging a bot from the WebSocket, programs that crash, answer
//! nonsense or stall, a revoked token closing the streams, and every refusal typed.

use std::process::Stdio;
use std::time::Duration;

use oaq_net::protocol::{
    ClientMessage, ClockSpec, ErrorCode, Notice, PlayerInfo, RoomEvent, RulesChoice, ServerMessage,
};
use oaq_rules::{Position, presets};
use oaq_server::bot::http::{Api, Failure};
use oaq_testkit::*;
use serde_json::{Value, json};

/// A bot made over HTTP: its player and token.
async fn new_bot(server: &ServerProcess, name: &str, login: &str) -> (PlayerInfo, String) {
    let api = Api::new(&format!("http://{}", server.addr), "");
    let body = json!({ "name": name, "login": login, "password": "a password of a bot" });
    let made = api.call("POST", "/api/bot/new", Some(&body)).await.unwrap();
    let player: PlayerInfo = serde_json::from_value(made["player"].clone()).unwrap();
    assert!(player.bot);
    (player, made["token"].as_str().unwrap().to_owned())
}

fn api(server: &ServerProcess, token: &str) -> Api {
    Api::new(&format!("http://{}", server.addr), token)
}

/// `oaq-bot play` on `server` with `token` and `args`, its output kept.
pub(super) fn oaq_bot(server: &ServerProcess, token: &str, args: &[&str]) -> tokio::process::Child {
    oaq_bot_at(&format!("http://{}", server.addr), token, args)
}

/// `oaq-bot play` on `servers` (one, or several comma-separated).
fn oaq_bot_at(servers: &str, token: &str, args: &[&str]) -> tokio::process::Child {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_oaq-bot"))
        .arg("play")
        .args(["--server", servers, "--token", token])
        .args(args)
        .env("OAQ_LOG", "warn")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .kill_on_drop(true)
        .spawn()
        .expect("oaq-bot starts")
}

/// What `oaq-bot` printed by the time it stopped by itself.
async fn finished(child: tokio::process::Child, within: Duration) -> String {
    let out = tokio::time::timeout(within, child.wait_with_output())
        .await
        .expect("oaq-bot stops after its games")
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "oaq-bot: {text}");
    text
}

fn refused_code(result: Result<Value, Failure>) -> (u16, String) {
    match result {
        Err(Failure::Refused { status, code, .. }) => (status, code),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// Two bots, each an `oaq-bot` with the built-in engine at its own level: one challenges the
/// other, they play a whole rated game, and their ratings move on the bots' leaderboard, not
/// the people's.
#[tokio::test(flavor = "multi_thread")]
async fn two_bots_play_a_rated_game_through_oaq_bot() {
    let dir = TempDir::new("bots-game");
    let server = ServerProcess::sqlite(&dir, &[]);
    let (a, token_a) = new_bot(&server, "Alpha", "alpha-bot").await;
    let (b, token_b) = new_bot(&server, "Beta", "beta-bot").await;
    let accepting = oaq_bot(
        &server,
        &token_b,
        &["--engine", "builtin:easy", "--stop-after", "1"],
    );
    // The accepting bot's event stream is open before the challenge comes.
    wait_online(&server, &b.id).await;
    let challenging = oaq_bot(
        &server,
        &token_a,
        &[
            "--engine",
            "builtin:medium",
            "--stop-after",
            "1",
            "--challenge",
            &b.id,
            "--clock",
            "1+1",
        ],
    );
    let out_a = finished(challenging, Duration::from_secs(120)).await;
    let out_b = finished(accepting, Duration::from_secs(30)).await;
    for out in [&out_a, &out_b] {
        assert!(out.contains(" over: {"), "played to the end: {out}");
        assert!(!out.contains("resigned"), "{out}");
    }
    assert!(out_b.contains("challenge from Alpha: accept"), "{out_b}");
    let bots = api(&server, "")
        .call("GET", "/api/bots", None)
        .await
        .unwrap();
    let board = bots["leaderboard"].as_array().unwrap();
    assert_eq!(board.len(), 2, "{bots}");
    for entry in board {
        assert_eq!(entry["games"], 1);
        assert_eq!(entry["bot"], true);
        assert_ne!(entry["rating"], 1500.0, "rated: {entry}");
    }
    let (_, people) = server.http("/leaderboard");
    assert!(
        !people.contains(&a.id) && !people.contains(&b.id),
        "{people}"
    );
    let (_, page) = server.http(&format!("/players/{}", a.id));
    assert!(page.contains("\"bot\":true"), "{page}");
}

async fn wait_online(server: &ServerProcess, id: &str) {
    let public = api(server, "");
    for _ in 0..100 {
        let bots = public.call("GET", "/api/bots", None).await.unwrap();
        if bots["online"]
            .as_array()
            .unwrap()
            .iter()
            .any(|b| b["id"] == id)
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("bot {id} never came online");
}

/// A person asks for "a bot of about my rating" from the WebSocket: the online bot takes the
/// challenge, the game is played (the person's moves over the WebSocket, the bot's through
/// `oaq-bot`) to its end, and it is rated. A child may not; a bot may not use the pools or
/// open rooms; a bot challenges a person only among its friends or past opponents.
#[tokio::test(flavor = "multi_thread")]
async fn a_person_plays_a_bot_of_about_their_rating() {
    let dir = TempDir::new("bots-person");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let (bot, token) = new_bot(&server, "Robo", "robo-bot").await;
    let mut lan = Client::connect(&url, "Lan").await;
    let play_bot = ClientMessage::PlayBot {
        rules: RulesChoice::Preset("basic".into()),
        clock: ClockSpec::UNTIMED,
    };
    lan.refused(play_bot.clone(), ErrorCode::NoSuchPlayer).await;
    let child = oaq_bot(
        &server,
        &token,
        &["--engine", "builtin:easy", "--stop-after", "1"],
    );
    wait_online(&server, &bot.id).await;
    lan.send(&ClientMessage::Bots).await;
    let online = lan
        .until(|m| match m {
            ServerMessage::Notice(Notice::Bots { online, .. }) => Some(online.clone()),
            _ => None,
        })
        .await;
    assert_eq!(
        online.iter().map(|b| b.name.as_str()).collect::<Vec<_>>(),
        ["Robo"]
    );
    assert!(online[0].bot);
    // Not before the bot is there: the person plays it from here on.
    lan.send(&play_bot).await;
    let room = lan
        .until(|m| match m {
            ServerMessage::Notice(Notice::ChallengeAccepted { room, .. }) => Some(room.clone()),
            ServerMessage::Notice(Notice::ChallengeClosed { .. }) => panic!("declined"),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("{message}"),
            _ => None,
        })
        .await;
    let seat = lan.join(&room).await.expect("seated");
    let rules = presets::get("basic").unwrap().rules;
    // What the room's log said before the seat (the snapshot), then each event as it comes.
    let mut pos = Position::new(rules);
    for mv in lan.moves() {
        pos.play(mv.parse().unwrap()).unwrap();
    }
    let mut order = lan.order();
    let mut bot_seen = lan.events.iter().any(|e| {
        matches!(&e.event, RoomEvent::Seated { player, .. } if player.id == bot.id && player.bot)
    });
    let mut sent = None;
    let ratings = loop {
        if let Some(order) = &order
            && !pos.is_over()
            && order[pos.to_move()] == seat
            && sent != Some(pos.ply())
        {
            let legal = pos.legal_moves();
            let mv = legal[pos.ply() as usize % legal.len()];
            lan.play(pos.ply(), &mv.to_string()).await;
            sent = Some(pos.ply());
        }
        let ServerMessage::Room(ev) = lan.next().await else {
            continue;
        };
        match ev.event {
            RoomEvent::Seated { player, .. } if player.id == bot.id => bot_seen = player.bot,
            RoomEvent::Started { order: o, .. } => order = Some(o),
            RoomEvent::Moved { mv, .. } => {
                pos.play(mv.parse().unwrap()).unwrap();
            }
            RoomEvent::Ended { ratings, .. } => break ratings,
            _ => {}
        }
    };
    assert!(bot_seen, "the bot is seated with its mark");
    assert_eq!(ratings.len(), 2, "a person and a bot: rated");
    let out = finished(child, Duration::from_secs(30)).await;
    assert!(out.contains(&format!("game {room} over")), "{out}");

    // A child plays no bot; the bot's own pools and rooms are refused.
    let hello = ClientMessage::Hello {
        protocol: oaq_net::protocol::PROTOCOL,
        name: "Bé".into(),
        token: None,
        device: None,
        child: true,
        batches: false,
        then: 0,
    };
    let mut kid = Client::greet_with(Client::raw(&url).await, &hello).await;
    kid.refused(play_bot, ErrorCode::NotAllowed).await;
    let robot = api(&server, &token);
    // The bot may challenge Lan (a past opponent) but not a stranger.
    let stranger = Client::connect(&url, "Stranger").await;
    let body = json!({ "rules": "basic", "clock": "untimed" });
    let path = format!("/api/challenge/{}", stranger.player.id);
    assert_eq!(
        refused_code(robot.call("POST", &path, Some(&body)).await).0,
        404
    );
    let path = format!("/api/challenge/{}", lan.player.id);
    let sent = robot.call("POST", &path, Some(&body)).await.unwrap();
    let id = sent["challenge"]["id"].as_str().unwrap();
    let got = lan
        .until(|m| match m {
            ServerMessage::Notice(Notice::Challenged { challenge }) => Some(challenge.clone()),
            _ => None,
        })
        .await;
    assert_eq!(got.id, id);
    assert!(got.from.bot, "the challenge shows the bot's mark");

    // The bot's phrases after the game reach Lan, six a minute at most.
    let chat = json!({ "phrase": "good_game" });
    let path = format!("/api/bot/game/{room}/chat");
    for _ in 0..6 {
        robot.call("POST", &path, Some(&chat)).await.unwrap();
    }
    let (status, code) = refused_code(robot.call("POST", &path, Some(&chat)).await);
    assert_eq!((status, code.as_str()), (429, "rate_limited"));
    let said = lan
        .until(|m| match m {
            ServerMessage::Notice(Notice::Chat { code, phrase, .. }) if *code == room => {
                Some(*phrase)
            }
            _ => None,
        })
        .await;
    assert_eq!(said, oaq_net::social::Phrase::GoodGame);
}

/// A program that dies, one that answers nonsense and one that stalls: each game is resigned
/// after the program fails twice on one move, and a program that fails once is started again
/// and plays on.
#[tokio::test(flavor = "multi_thread")]
async fn programs_that_fail_are_restarted_or_their_games_resigned() {
    let dir = TempDir::new("bots-failing");
    let server = ServerProcess::sqlite(&dir, &[]);
    let (opponent, token_o) = new_bot(&server, "Steady", "steady-bot").await;
    let engine = env!("CARGO_BIN_EXE_oaq-bot");
    let marker = dir.path().join("failed-once");
    // The stalling program waits on a child of its own: a stopped program's children stop too.
    let stalled = dir.path().join("stalled-pids");
    let scripts = [
        ("crashes", "exit 3".to_owned(), true),
        (
            "nonsense",
            "while read line; do echo '{\"move\":\"99+\"}'; done".to_owned(),
            true,
        ),
        (
            "stalls",
            format!("sleep 600 & echo $! >> {}; wait", stalled.display()),
            true,
        ),
        (
            "fails-once",
            format!(
                "if [ ! -e {m} ]; then touch {m}; exit 3; fi; exec {engine} engine --rules basic --level easy",
                m = marker.display()
            ),
            false,
        ),
    ];
    let steady = oaq_bot(
        &server,
        &token_o,
        &[
            "--engine",
            "builtin:easy",
            "--stop-after",
            &scripts.len().to_string(),
        ],
    );
    wait_online(&server, &opponent.id).await;
    for (i, (name, script, resigns)) in scripts.iter().enumerate() {
        let path = dir.path().join(format!("{name}.sh"));
        std::fs::write(&path, format!("#!/bin/sh\n{script}\n")).unwrap();
        let (_, token) = new_bot(&server, name, &format!("{name}-bot-{i}")).await;
        let command = format!("sh {}", path.display());
        let child = oaq_bot(
            &server,
            &token,
            &[
                "--engine",
                &command,
                "--stop-after",
                "1",
                "--challenge",
                &opponent.id,
                "--clock",
                "1+0",
            ],
        );
        let out = finished(child, Duration::from_secs(60)).await;
        if *resigns {
            assert!(
                out.contains("resigned (the engine failed twice)"),
                "{name}: {out}"
            );
        } else {
            assert!(
                out.contains(" over: {") && !out.contains("resigned"),
                "{name}: {out}"
            );
            assert!(out.contains("engine started 2 times"), "{name}: {out}");
        }
    }
    let out = finished(steady, Duration::from_secs(30)).await;
    assert_eq!(out.matches(" over: {").count(), scripts.len(), "{out}");
    let pids = std::fs::read_to_string(&stalled).unwrap();
    assert_eq!(
        pids.lines().count(),
        2,
        "the stalling program started twice: {pids}"
    );
    for pid in pids.lines() {
        assert!(
            stops_within(pid.trim(), Duration::from_secs(10)).await,
            "the stalled program's child {pid} still runs"
        );
    }
}

/// Whether process `pid` is gone (or a zombie nobody has reaped) within `limit`.
async fn stops_within(pid: &str, limit: Duration) -> bool {
    let deadline = tokio::time::Instant::now() + limit;
    loop {
        let running = std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
            stat.rsplit(") ")
                .next()
                .is_some_and(|rest| !rest.starts_with('Z'))
        });
        if !running {
            return true;
        }
        if tokio::time::Instant::now() > deadline {
            return false;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A revoked token closes the bot's streams at once and is refused after; a new one works.
/// Wrong tokens count against the address; every refusal is typed JSON.
#[tokio::test(flavor = "multi_thread")]
async fn a_revoked_token_closes_the_streams_and_refusals_are_typed() {
    let dir = TempDir::new("bots-revoked");
    let server = ServerProcess::sqlite(&dir, &[]);
    let (bot, token) = new_bot(&server, "Revoked", "revoked-bot").await;
    let robot = api(&server, &token);
    let me = robot.call("GET", "/api/account", None).await.unwrap();
    assert_eq!(me["player"]["id"], bot.id.as_str());

    // Typed refusals, nothing changed.
    assert_eq!(
        refused_code(
            robot
                .call("POST", "/api/bot/game/ZZZZZZ/move/3%2B", None)
                .await
        ),
        (404, "no_such_room".into())
    );
    assert_eq!(
        refused_code(robot.call("POST", "/api/bot/game/nope/resign", None).await),
        (404, "no_such_room".into())
    );
    let (status, code) = refused_code(
        robot
            .call("POST", "/api/challenge/x", Some(&json!({"rules": 5})))
            .await,
    );
    assert_eq!((status, code.as_str()), (400, "bad_message"));
    let (status, code) = refused_code(
        api(&server, "oaqbot_wrong")
            .call("GET", "/api/account", None)
            .await,
    );
    assert_eq!((status, code.as_str()), (401, "bad_credentials"));
    let body = json!({ "name": "Again", "login": "revoked-bot", "password": "another password" });
    let (status, code) = refused_code(robot.call("POST", "/api/bot/new", Some(&body)).await);
    assert_eq!(
        (status, code.as_str()),
        (403, "not_allowed"),
        "a sign-in name is taken once"
    );

    // Revoked while its event stream is open: the stream ends at once.
    let mut events = robot.stream("/api/stream/event").await.unwrap();
    let revoke =
        json!({ "login": "revoked-bot", "password": "a password of a bot", "revoke": true });
    let answer = robot
        .call("POST", "/api/bot/token", Some(&revoke))
        .await
        .unwrap();
    assert!(answer["token"].is_null());
    let ended = tokio::time::timeout(Duration::from_secs(5), events.next()).await;
    assert!(matches!(ended, Ok(None)), "the stream closed: {ended:?}");
    let (status, _) = refused_code(robot.call("GET", "/api/account", None).await);
    assert_eq!(status, 401);
    let wrong = json!({ "login": "revoked-bot", "password": "not the password" });
    let (status, code) = refused_code(robot.call("POST", "/api/bot/token", Some(&wrong)).await);
    assert_eq!((status, code.as_str()), (401, "bad_credentials"));
    let renew = json!({ "login": "revoked-bot", "password": "a password of a bot" });
    let fresh = robot
        .call("POST", "/api/bot/token", Some(&renew))
        .await
        .unwrap();
    let fresh = api(&server, fresh["token"].as_str().unwrap());
    assert!(fresh.call("GET", "/api/account", None).await.is_ok());

    // A body past a frame's size is refused by its size.
    let big = json!({ "phrase": "x".repeat(20_000) });
    let (status, code) = refused_code(
        fresh
            .call("POST", "/api/bot/game/K7Q2MX/chat", Some(&big))
            .await,
    );
    assert_eq!((status, code.as_str()), (413, "too_large"));

    // Six event streams asked at once: two open (the cap, taken as it is checked), the others
    // refused; closing them frees their places.
    let asked = (0..6).map(|_| fresh.stream("/api/stream/event"));
    let answers = futures_util::future::join_all(asked).await;
    let open: Vec<_> = answers.iter().filter(|a| a.is_ok()).collect();
    assert_eq!(open.len(), 2, "two event streams at most");
    for refused in answers.iter().filter_map(|a| a.as_ref().err()) {
        assert_eq!(refused.code(), Some("rate_limited"), "{refused}");
    }
    drop(answers);
    let mut again = None;
    for _ in 0..100 {
        if let Ok(lines) = fresh.stream("/api/stream/event").await {
            again = Some(lines);
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(again.is_some(), "a stream closed gives its place back");

    // Wrong tokens are guesses, taken before the look-up: thirty at once from one address,
    // and no more than the address's allowance (20 a minute, a few spent above) are looked up.
    let guesser = api(&server, "oaqbot_guess");
    let guesses = (0..30).map(|_| guesser.call("GET", "/api/account", None));
    let statuses: Vec<u16> = futures_util::future::join_all(guesses)
        .await
        .into_iter()
        .map(|r| refused_code(r).0)
        .collect();
    let looked_up = statuses.iter().filter(|&&s| s == 401).count();
    let limited = statuses.iter().filter(|&&s| s == 429).count();
    assert_eq!(looked_up + limited, 30, "{statuses:?}");
    assert!(looked_up <= 20 && limited >= 10, "{statuses:?}");
    // A token found right a moment ago is no guess: past the address's limit, ten requests at
    // once with it are all answered (a program's many games behind one address).
    let right = (0..10).map(|_| fresh.call("GET", "/api/account", None));
    let answers = futures_util::future::join_all(right).await;
    let refused: Vec<_> = answers.iter().filter_map(|a| a.as_ref().err()).collect();
    assert!(refused.is_empty(), "{refused:?}");
    // The wrong ones stay refused.
    let (status, code) = refused_code(guesser.call("GET", "/api/account", None).await);
    assert_eq!((status, code.as_str()), (429, "rate_limited"));
}

/// On two nodes sharing PostgreSQL and Redis: bot A's `oaq-bot` starts on node one (node two
/// given as the next), bot B's is on node two. Node one is SIGKILLed mid-game; A's program goes
/// on through node two, and the game is played out to the end by the rules, the same moves on
/// both sides.
#[tokio::test(flavor = "multi_thread")]
async fn a_bot_goes_on_through_another_node_when_its_node_is_killed() {
    let pg = Postgres::start();
    let redis = Redis::start();
    let (db, rd) = (pg.url(), redis.url());
    let node =
        |name: &str| ServerProcess::start(&["--database", &db, "--redis", &rd, "--node", name]);
    let mut one = node("one");
    let two = node("two");
    let (_, token_a) = new_bot(&one, "Ana", "ana-bot").await;
    let (b, token_b) = new_bot(&two, "Bao", "bao-bot").await;
    let accepting = oaq_bot(
        &two,
        &token_b,
        &["--engine", "builtin:easy", "--stop-after", "1"],
    );
    wait_online(&two, &b.id).await;
    let both = format!("http://{},http://{}", one.addr, two.addr);
    let challenging = oaq_bot_at(
        &both,
        &token_a,
        &[
            "--engine",
            "builtin:medium",
            "--stop-after",
            "1",
            "--challenge",
            &b.id,
            "--clock",
            "1+2",
            "--rules",
            "standard",
        ],
    );
    // Mid-game: a few of A's moves written through node one.
    let mut moves_on_one = 0;
    for _ in 0..300 {
        let (_, health) = one.http("/health");
        let health: Value = serde_json::from_str(&health).unwrap_or(Value::Null);
        moves_on_one = health["moves"].as_u64().unwrap_or(0);
        if moves_on_one >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(moves_on_one >= 2, "the game got going on node one");
    one.kill();
    let out_a = finished(challenging, Duration::from_secs(120)).await;
    let out_b = finished(accepting, Duration::from_secs(30)).await;
    let moves = |out: &str| {
        let line = out
            .lines()
            .find(|l| l.contains(" over: "))
            .unwrap_or_else(|| panic!("{out}"));
        let result = line
            .split(" over: ")
            .nth(1)
            .unwrap()
            .split("; moves ")
            .collect::<Vec<_>>();
        (
            result[0].to_owned(),
            result[1].split(';').next().unwrap().to_owned(),
        )
    };
    let ((result_a, moves_a), (result_b, moves_b)) = (moves(&out_a), moves(&out_b));
    assert_eq!(moves_a, moves_b, "one game, the same moves on both sides");
    assert_eq!(result_a, result_b);
    assert!(
        result_a.contains("\"cause\":\"rules\""),
        "played out: {result_a}"
    );
    assert!(
        moves_a.split(' ').count() as u64 > moves_on_one,
        "{moves_a}"
    );
}

/// A tournament takes bots only when its organiser lets them in: refused otherwise; let in,
/// two bots join through the API, the organiser steps out before the start, and the arena
/// pairs the bots, whose `oaq-bot`s get the game on their event streams and play it out.
#[tokio::test(flavor = "multi_thread")]
async fn bots_join_a_tournament_only_when_its_organiser_lets_them() {
    use oaq_net::tournament::Format;
    let dir = TempDir::new("bots-tournament");
    let server = ServerProcess::sqlite(
        &dir,
        &[
            "--tournament-minute-secs",
            "3",
            "--tournament-tick-secs",
            "0.2",
        ],
    );
    let mut an = Client::connect(&server.url(), "An").await;
    let organise = |bots: bool, start_when: Option<u32>| ClientMessage::CreateTournament {
        name: "Máy đấu máy".into(),
        rules: RulesChoice::Preset("basic".into()),
        clock: ClockSpec::Fischer {
            base_ms: 60_000,
            increment_ms: 1_000,
        },
        format: Format::Arena {
            minutes: 10,
            streaks: false,
        },
        public: false,
        starts_ms: None,
        start_when,
        password: None,
        unrated: false,
        no_chat: false,
        bots,
    };
    an.send(&organise(false, None)).await;
    let people_only = tournament_page(&mut an).await.line.id;
    an.send(&organise(true, Some(2))).await;
    let with_bots = tournament_page(&mut an).await;
    assert!(with_bots.line.bots);
    an.send(&ClientMessage::LeaveTournament {
        id: with_bots.line.id.clone(),
    })
    .await;
    assert!(
        !tournament_page(&mut an).await.joined,
        "the organiser steps out"
    );

    let mut bots = Vec::new();
    for (name, login) in [("Xe", "xe-bot"), ("Yen", "yen-bot")] {
        let (_, token) = new_bot(&server, name, login).await;
        let robot = api(&server, &token);
        let refused = robot
            .call("POST", &format!("/api/tournament/{people_only}/join"), None)
            .await;
        assert_eq!(refused_code(refused), (403, "not_allowed".into()));
        let unknown = robot
            .call("POST", "/api/tournament/ZZZZZZZZ/join", None)
            .await;
        assert_eq!(refused_code(unknown), (404, "no_such_tournament".into()));
        // `--tournament` joins it through the API as the program starts.
        let id = with_bots.line.id.as_str();
        let args = [
            "--engine",
            "builtin:easy",
            "--stop-after",
            "1",
            "--tournament",
            id,
        ];
        let playing = oaq_bot(&server, &token, &args);
        bots.push(playing);
    }
    for playing in bots {
        let out = finished(playing, Duration::from_secs(120)).await;
        assert!(
            out.contains(" over: {") && !out.contains("resigned"),
            "{out}"
        );
    }
}

/// The next tournament page a client gets.
async fn tournament_page(client: &mut Client) -> oaq_net::tournament::TournamentView {
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::Tournament { view }) => Some(view.clone()),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("{message}"),
            _ => None,
        })
        .await
}

/// An operator bans a bot as any player: its open stream closes within seconds, and its token
/// finds nothing after.
#[tokio::test(flavor = "multi_thread")]
async fn an_operators_ban_closes_a_bots_streams() {
    let dir = TempDir::new("bots-ban");
    let server = ServerProcess::sqlite(&dir, &[]);
    let (bot, token) = new_bot(&server, "Spammy", "spammy-bot").await;
    let robot = api(&server, &token);
    let mut events = robot.stream("/api/stream/event").await.unwrap();
    let db = dir.path().join("oaq.sqlite3");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_oaq-server"))
        .args(["admin", "--database", db.to_str().unwrap(), "ban", &bot.id])
        .output()
        .expect("oaq-server admin runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let ended = tokio::time::timeout(Duration::from_secs(15), events.next()).await;
    assert!(matches!(ended, Ok(None)), "the stream closed: {ended:?}");
    let (status, code) = refused_code(robot.call("GET", "/api/account", None).await);
    assert_eq!((status, code.as_str()), (401, "bad_credentials"));
}
