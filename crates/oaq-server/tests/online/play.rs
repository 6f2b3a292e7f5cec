//! The online protocol against a real `oaq-server` on SQLite: whole games, spectators,
//! reconnection, clocks, the end of a game in every way, rematches, the table flip, three
//! players, ratings and the replay file.

use std::time::Duration;

use oaq_net::protocol::{
    ClientMessage, ClockSpec, EndCause, ErrorCode, First, Notice, RoomEvent, ServerMessage,
    parse_server, parse_server_frame,
};
use oaq_rules::{Position, presets};
use oaq_session::Record;
use oaq_testkit::*;

fn rules(id: &str) -> oaq_rules::RuleSet {
    presets::get(id).unwrap().rules
}

/// A started 2-player room: (code, creator, joiner); the creator moves first.
async fn two_players(
    server: &ServerProcess,
    preset: &str,
    clock: ClockSpec,
) -> (String, Client, Client) {
    let mut a = Client::connect(&server.url(), "An").await;
    let code = a.create(preset, clock, First::Me, true).await;
    let mut b = Client::connect(&server.url(), "Bình").await;
    assert_eq!(b.join(&code).await, Some(1));
    for c in [&mut a, &mut b] {
        c.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
            .await;
    }
    assert_eq!(a.order(), Some(vec![0, 1]));
    (code, a, b)
}

/// The move that captures least (the first of those): long games.
fn patient(pos: &Position) -> oaq_rules::Move {
    let legal = pos.legal_moves();
    *legal
        .iter()
        .min_by_key(|&&m| {
            let mut after = *pos;
            after.play(m).map_or(u32::MAX, |o| o.captured())
        })
        .unwrap()
}

fn first_legal(pos: &Position) -> oaq_rules::Move {
    pos.legal_moves()[0]
}

/// A fixed but varied line: the legal move at an index that walks with the ply.
fn walking(pos: &Position) -> oaq_rules::Move {
    let legal = pos.legal_moves();
    legal[(pos.ply() as usize * 7 + 3) % legal.len()]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_ends_as_oaq_replay_says_and_a_spectator_sees_every_move() {
    let dir = TempDir::new("game");
    let server = ServerProcess::sqlite(&dir, &[]);
    let (code, mut a, mut b) = two_players(&server, "basic", UNTIMED).await;
    let mut watcher = Client::connect(&server.url(), "Cô giáo").await;
    watcher
        .send(&ClientMessage::Watch {
            code: code.clone(),
            since: None,
        })
        .await;
    assert_eq!(watcher.seat(&code).await, None);
    let moves = play_out(&mut [&mut a, &mut b], rules("basic"), walking).await;
    let result = ended(&mut a).await;
    assert_eq!(result.cause, EndCause::Rules);
    assert_eq!(ended(&mut b).await, result);
    assert_eq!(ended(&mut watcher).await, result);
    assert_eq!(watcher.moves(), moves, "the spectator saw every move");

    // The last state the room sent is the one `oaq replay` reaches.
    let replayed = oaq_replay("basic", &moves);
    let last_state = a
        .events
        .iter()
        .rev()
        .find_map(|e| match &e.event {
            RoomEvent::Moved { state, .. } => Some(state.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(&last_state, replayed.last().unwrap());
    let mut pos = Position::new(rules("basic"));
    for m in &moves {
        pos.play(m.parse().unwrap()).unwrap();
    }
    assert_eq!(result.scores, pos.scores()[..2].to_vec());

    // The operators' export of finished games carries the moves, not the room or the players.
    let db = dir.path().join("oaq.sqlite3");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_oaq-server"))
        .args(["admin", "--database", db.to_str().unwrap(), "games"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let exported: Vec<oaq_ai::puzzle::PlayedGame> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(exported.len(), 1, "{text}");
    assert_eq!(
        (exported[0].preset.as_str(), &exported[0].moves),
        ("basic", &moves.join(" "))
    );
    for private in [&code, &a.player.id, &b.player.id, &a.player.name] {
        assert!(!text.contains(private.as_str()), "{private} in {text}");
    }

    // The finished game is a replay file the game imports.
    let (status, body) = server.http(&format!("/games/{code}"));
    assert_eq!(status, 200, "{body}");
    let history = Record::parse(&body).unwrap();
    assert_eq!(history.position(), &pos);

    // Both players are rated now, the winner above the loser (or even on a draw).
    let (status, body) = server.http(&format!("/players/{}", a.player.id));
    assert_eq!(status, 200);
    let page: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(page["player"]["games"], 1);
    assert_eq!(page["recent"][0]["code"], code.as_str());
    let (_, board) = server.http("/leaderboard");
    let board: serde_json::Value = serde_json::from_str(&board).unwrap();
    let listed: Vec<&str> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(listed.len(), 2);
    let ratings: Vec<f64> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["rating"].as_f64().unwrap())
        .collect();
    assert!(ratings[0] >= ratings[1]);
    if result.places[0] != result.places[1] {
        let winner = if result.places[0] == 0 { &a } else { &b };
        assert_eq!(listed[0], winner.player.id);
        assert!(ratings[0] > 1500.0 && ratings[1] < 1500.0);
    }
    // The same board over the WebSocket, with the asker's place and rating as they are now.
    b.send(&ClientMessage::Leaderboard).await;
    let (players, you, place) = b
        .until(|m| match m {
            ServerMessage::Notice(Notice::Leaderboard {
                players,
                you,
                place,
            }) => Some((players.clone(), you.clone(), *place)),
            _ => None,
        })
        .await;
    let ids: Vec<&str> = players.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, listed);
    assert_eq!(you.id, b.player.id);
    assert_eq!(you.games, 1);
    let place = place.expect("rated after one game") as usize;
    assert_eq!(ids[place - 1], b.player.id);
    assert!((you.rating - ratings[place - 1]).abs() < 1e-9);
}

/// A room link's client says hello and joins in one breath (the hello saying the join follows
/// when the client reads batches); the frames of what the server answers to both (the welcome,
/// the room's log, the seat, the game's start).
async fn hello_and_join(url: &str, code: &str, batches: bool) -> Vec<String> {
    use futures_util::{SinkExt, StreamExt};
    use tokio_tungstenite::tungstenite::Message;
    let mut ws = Client::raw(url).await;
    let hello = ClientMessage::Hello {
        protocol: oaq_net::protocol::PROTOCOL,
        name: "Bình".into(),
        token: None,
        device: None,
        child: false,
        batches,
        then: u8::from(batches),
    };
    let join = ClientMessage::Join {
        code: code.to_owned(),
        since: None,
    };
    for msg in [hello, join] {
        let text = serde_json::to_string(&msg).unwrap();
        ws.send(Message::text(text)).await.unwrap();
    }
    let mut texts = Vec::new();
    let mut types = Vec::new();
    while !types.contains(&"started") {
        let frame = tokio::time::timeout(Duration::from_secs(10), ws.next())
            .await
            .expect("the room's start comes")
            .unwrap()
            .unwrap();
        let Message::Text(text) = frame else { continue };
        for msg in parse_server_frame(&text).unwrap() {
            types.push(match msg {
                ServerMessage::Notice(Notice::Welcome { .. }) => "welcome",
                ServerMessage::Notice(Notice::Seat { .. }) => "seat",
                ServerMessage::Room(e) if matches!(e.event, RoomEvent::Started { .. }) => "started",
                _ => "other",
            });
        }
        texts.push(text.to_string());
    }
    texts
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hello_and_a_join_sent_together_are_answered_in_one_frame_to_a_client_that_reads_batches()
{
    let dir = TempDir::new("batches");
    let server = ServerProcess::sqlite(&dir, &[]);
    for batches in [true, false] {
        let mut a = Client::connect(&server.url(), "An").await;
        let code = a.create("basic", UNTIMED, First::Me, false).await;
        let texts = hello_and_join(&server.url(), &code, batches).await;
        if batches {
            // One frame: the welcome first, the seat and the start behind it, in order.
            assert_eq!(texts.len(), 1, "{texts:?}");
            let messages = parse_server_frame(&texts[0]).unwrap();
            assert!(texts[0].starts_with('['), "{}", texts[0]);
            assert!(
                matches!(messages[0], ServerMessage::Notice(Notice::Welcome { .. })),
                "{messages:?}"
            );
            assert!(
                messages.len() >= 4,
                "welcome, log, seat, start: {messages:?}"
            );
        } else {
            // A client that did not ask gets one message a frame, as always.
            assert!(texts.len() >= 4, "{texts:?}");
            for text in &texts {
                assert!(text.starts_with('{'), "{text}");
                parse_server(text).unwrap();
            }
        }
    }
    // A hello that says a frame follows, and none does: the welcome waits a second at most.
    let mut ws = Client::raw(&server.url()).await;
    let hello = ClientMessage::Hello {
        protocol: oaq_net::protocol::PROTOCOL,
        name: "Lan".into(),
        token: None,
        device: None,
        child: false,
        batches: true,
        then: 2,
    };
    let mut lan = Client::greet_with(ws, &hello).await;
    let started = std::time::Instant::now();
    assert!(matches!(
        lan.next().await,
        ServerMessage::Notice(Notice::Welcome { .. })
    ));
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(900) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
    // More than a hello may say is refused, naming the field.
    ws = Client::raw(&server.url()).await;
    let mut greedy = Client::greet_with(
        ws,
        &ClientMessage::Hello {
            protocol: oaq_net::protocol::PROTOCOL,
            name: "Tham".into(),
            token: None,
            device: None,
            child: false,
            batches: true,
            then: oaq_net::protocol::MAX_THEN + 1,
        },
    )
    .await;
    match greedy.next().await {
        ServerMessage::Notice(Notice::Error { code, message, .. }) => {
            assert_eq!(code, ErrorCode::BadMessage);
            assert!(message.contains("then"), "{message}");
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_typed_and_change_nothing() {
    let dir = TempDir::new("refusals");
    let server = ServerProcess::sqlite(&dir, &[]);
    let (code, mut a, mut b) = two_players(&server, "basic", UNTIMED).await;

    b.play(0, "1+").await;
    assert_eq!(b.error().await.0, ErrorCode::NotYourTurn);
    a.play(3, "1+").await;
    assert_eq!(a.error().await.0, ErrorCode::StalePly);
    a.play(0, "6+").await;
    let (code_, message, legal) = a.error().await;
    assert_eq!(code_, ErrorCode::IllegalMove);
    assert!(message.contains("6+"), "{message}");
    assert_eq!(legal.unwrap().len(), 10);
    a.play(0, "sideways").await;
    assert_eq!(a.error().await.0, ErrorCode::IllegalMove);
    a.send(&ClientMessage::AcceptDraw).await;
    assert_eq!(a.error().await.0, ErrorCode::NotAllowed);
    a.send(&ClientMessage::Claim).await;
    assert_eq!(a.error().await.0, ErrorCode::NotAllowed);
    a.send(&ClientMessage::Rematch).await;
    assert_eq!(a.error().await.0, ErrorCode::NotAllowed);

    // A third player finds the room full; a watcher cannot act.
    let mut c = Client::connect(&server.url(), "Chi").await;
    c.send(&ClientMessage::Join {
        code: code.clone(),
        since: None,
    })
    .await;
    assert_eq!(c.error().await.0, ErrorCode::RoomFull);
    c.send(&ClientMessage::Watch {
        code: code.clone(),
        since: None,
    })
    .await;
    assert_eq!(c.seat(&code).await, None);
    c.play(0, "1+").await;
    assert_eq!(c.error().await.0, ErrorCode::NotYourTurn);
    c.send(&ClientMessage::Join {
        code: "ZZZZZZ".into(),
        since: None,
    })
    .await;
    assert_eq!(c.error().await.0, ErrorCode::NoSuchRoom);

    // None of it moved the game: the first move is still ply 0, and it is accepted once.
    a.play(0, "1+").await;
    a.event(|e| matches!(e, RoomEvent::Moved { ply: 0, .. }).then_some(()))
        .await;
    a.play(0, "1+").await;
    assert_eq!(
        a.error().await.0,
        ErrorCode::StalePly,
        "a resent move is refused"
    );
    b.event(|e| matches!(e, RoomEvent::Moved { ply: 0, .. }).then_some(()))
        .await;
    assert_eq!(b.moves(), vec!["1+".to_string()]);

    // Protocol-level mistakes.
    let mut raw = Client::connect(&server.url(), "Dũng").await;
    raw.send_text(r#"{"type":"hello","protocol":1,"name":"again"}"#)
        .await;
    assert_eq!(raw.error().await.0, ErrorCode::NotAllowed);
    raw.send_text("{not json").await;
    assert_eq!(raw.error().await.0, ErrorCode::BadMessage);
    raw.send_text(&format!(
        r#"{{"type":"lobby","pad":"{}"}}"#,
        "x".repeat(20_000)
    ))
    .await;
    assert_eq!(raw.error().await.0, ErrorCode::TooLarge);
    raw.send_text(r#"{"type":"create","rules":"chess","clock":"untimed"}"#)
        .await;
    let (e, message, _) = raw.error().await;
    assert_eq!(e, ErrorCode::BadMessage);
    assert!(message.contains("chess"), "{message}");
    raw.send_text(r#"{"type":"create","rules":"basic","clock":{"base_ms":5,"increment_ms":0}}"#)
        .await;
    let (e, message, _) = raw.error().await;
    assert_eq!(e, ErrorCode::BadMessage);
    assert!(message.contains("base_ms"), "{message}");

    let mut old = Client::raw(&server.url()).await;
    use futures_util::{SinkExt, StreamExt};
    old.send(tokio_tungstenite::tungstenite::Message::text(
        r#"{"type":"hello","protocol":99,"name":"Future"}"#,
    ))
    .await
    .unwrap();
    let reply = old.next().await.unwrap().unwrap();
    assert!(reply.to_text().unwrap().contains("unsupported_protocol"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_comes_back_gets_what_they_missed_or_the_whole_game() {
    let dir = TempDir::new("reconnect");
    let server = ServerProcess::sqlite(&dir, &[]);
    let (code, mut a, mut b) = two_players(&server, "basic", UNTIMED).await;
    let rules = rules("basic");
    let mut pos = Position::new(rules);
    // Three moves, then b's connection drops.
    for _ in 0..3 {
        let mv = first_legal(&pos);
        let seat = mover(&pos, &[0, 1]);
        let c = if seat == 0 { &mut a } else { &mut b };
        c.play(pos.ply(), &mv.to_string()).await;
        for c in [&mut a, &mut b] {
            let ply = pos.ply();
            c.event(|e| matches!(e, RoomEvent::Moved { ply: p, .. } if *p == ply).then_some(()))
                .await;
        }
        pos.play(mv).unwrap();
    }
    let seen = b.seen.unwrap();
    let token = b.token.clone();
    b.close().await;
    a.event(|e| matches!(e, RoomEvent::Away { seat: 1, .. }).then_some(()))
        .await;
    // a plays on while b is gone (it is a's turn after three moves? play whoever's turn is
    // a's; b's moves wait).
    while mover(&pos, &[0, 1]) == 0 && !pos.is_over() {
        let mv = first_legal(&pos);
        a.play(pos.ply(), &mv.to_string()).await;
        let ply = pos.ply();
        a.event(|e| matches!(e, RoomEvent::Moved { ply: p, .. } if *p == ply).then_some(()))
            .await;
        pos.play(mv).unwrap();
    }

    // b comes back with its token and the last seq it saw: only the missed events come.
    let mut b = Client::connect_as(&server.url(), "Bình", Some(&token)).await;
    b.seen = Some(seen);
    assert_eq!(b.join(&code).await, Some(1), "the same seat");
    b.event(|e| matches!(e, RoomEvent::Back { seat: 1, .. }).then_some(()))
        .await;
    assert!(
        b.events.iter().all(|e| e.seq > seen),
        "only what was missed"
    );
    assert_eq!(b.snapshots, 0, "no snapshot for a short gap");
    // And the game goes on from where it stands.
    let mv = first_legal(&pos);
    b.play(pos.ply(), &mv.to_string()).await;
    b.event(|e| matches!(e, RoomEvent::Moved { seat: 1, .. }).then_some(()))
        .await;

    // A client with no `since` (a new device) gets the whole room at once.
    let mut b2 = Client::connect_as(&server.url(), "Bình", Some(&token)).await;
    b2.send(&ClientMessage::Join {
        code: code.clone(),
        since: None,
    })
    .await;
    let snapshot = b2
        .until(|m| match m {
            ServerMessage::Notice(Notice::Snapshot { events, you, .. }) => {
                Some((events.len(), *you))
            }
            _ => None,
        })
        .await;
    assert_eq!(snapshot.1, Some(1));
    assert!(b2.moves().len() >= 4, "{:?}", b2.moves());
    assert_eq!(b2.player.id, b.player.id, "the token is the same player");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gap_too_old_is_filled_by_the_whole_game() {
    let dir = TempDir::new("gap");
    let server = ServerProcess::sqlite(&dir, &[]);
    let (code, mut a, mut b) = two_players(&server, "basic", UNTIMED).await;
    // The watcher leaves at seq 3 and the room writes far more than a node keeps in memory.
    let mut w = Client::connect(&server.url(), "Watcher").await;
    w.send(&ClientMessage::Watch {
        code: code.clone(),
        since: None,
    })
    .await;
    w.seat(&code).await;
    let seen = w.seen.unwrap();
    w.close().await;
    // Each move is preceded by a draw offer: two events a move, past what a node keeps.
    let mut pos = Position::new(rules("basic"));
    while !pos.is_over() && a.seen.unwrap() < seen + 70 {
        let mv = patient(&pos);
        let seat = mover(&pos, &[0, 1]);
        let ply = pos.ply();
        let c = if seat == 0 { &mut a } else { &mut b };
        c.send(&ClientMessage::OfferDraw).await;
        c.play(ply, &mv.to_string()).await;
        c.event(|e| matches!(e, RoomEvent::Moved { ply: p, .. } if *p == ply).then_some(()))
            .await;
        pos.play(mv).unwrap();
        if seat == 1 {
            a.event(|e| matches!(e, RoomEvent::Moved { ply: p, .. } if *p == ply).then_some(()))
                .await;
        }
    }
    assert!(
        a.seen.unwrap() >= seen + 70,
        "the game was too short for this test"
    );
    let mut w = Client::connect(&server.url(), "Watcher").await;
    w.send(&ClientMessage::Watch {
        code: code.clone(),
        since: Some(seen),
    })
    .await;
    w.seat(&code).await;
    assert_eq!(
        w.moves().len(),
        pos.ply() as usize,
        "every move is in the snapshot"
    );
    assert_eq!(w.snapshots, 1, "a gap this old gets the whole log");
    assert_eq!(w.events[0].seq, 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_clock_decides_a_game_and_the_first_moves_abort_it() {
    let dir = TempDir::new("clock");
    let server = ServerProcess::sqlite(&dir, &["--first-move-secs", "0.6"]);
    // Nobody moves: aborted without result.
    let (_code, mut a, _b) = two_players(&server, "basic", UNTIMED).await;
    let result = ended(&mut a).await;
    assert_eq!(result.cause, EndCause::Aborted);
    assert!(result.places.is_empty());
    let (_, body) = server.http(&format!("/players/{}", a.player.id));
    assert!(
        body.contains(r#""games":0"#),
        "an aborted game is not rated: {body}"
    );

    // A 1.5 s game: two quick moves, then the first player lets the clock run out.
    let clock = ClockSpec::Fischer {
        base_ms: 1_500,
        increment_ms: 0,
    };
    let (_code, mut a, mut b) = two_players(&server, "basic", clock).await;
    a.play(0, "1+").await;
    let clocks = a
        .event(|e| match e {
            RoomEvent::Moved {
                clocks, spent_ms, ..
            } => Some((clocks.clone(), *spent_ms)),
            _ => None,
        })
        .await;
    let (clocks, spent) = clocks;
    let clocks = clocks.unwrap();
    assert_eq!(clocks[0], 1_500 - spent, "the mover paid what it spent");
    assert_eq!(clocks[1], 1_500);
    let pos = {
        let mut p = Position::new(rules("basic"));
        p.play("1+".parse().unwrap()).unwrap();
        p
    };
    b.play(1, &first_legal(&pos).to_string()).await;
    let result = ended(&mut a).await;
    assert_eq!(result.cause, EndCause::Time);
    assert_eq!(result.by, Some(0));
    assert_eq!(result.places, vec![1, 0]);
    assert_eq!(ended(&mut b).await, result);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resigning_drawing_claiming_and_a_rematch() {
    let dir = TempDir::new("ends");
    let server = ServerProcess::sqlite(&dir, &["--claim-after-secs", "0.5"]);
    // Resign.
    let (_code, mut a, mut b) = two_players(&server, "basic", UNTIMED).await;
    a.play(0, "1+").await;
    b.send(&ClientMessage::Resign).await;
    let result = ended(&mut a).await;
    assert_eq!(
        (result.cause, result.by, result.places.clone()),
        (EndCause::Resign, Some(1), vec![0, 1])
    );
    let ratings = a
        .events
        .iter()
        .find_map(|e| match &e.event {
            RoomEvent::Ended { ratings, .. } => Some(ratings.clone()),
            _ => None,
        })
        .unwrap();
    assert!(ratings[0].after > ratings[0].before && ratings[1].after < ratings[1].before);

    // Rematch: asked by one, it waits for the other's yes (nobody is put into a new game
    // unasked); then a new room, the one who moved second now moves first.
    ended(&mut b).await;
    b.send(&ClientMessage::Rematch).await;
    a.event(|e| matches!(e, RoomEvent::RematchOffered { .. }).then_some(()))
        .await;
    b.send(&ClientMessage::Rematch).await;
    let (asked_twice, _, _) = b.error().await;
    assert_eq!(asked_twice, ErrorCode::NotAllowed, "asked once is enough");
    assert!(
        !a.events
            .iter()
            .any(|e| matches!(e.event, RoomEvent::Rematch { .. })),
        "no room before the other says yes"
    );
    a.send(&ClientMessage::Rematch).await;
    let next = a
        .event(|e| match e {
            RoomEvent::Rematch { room } => Some(room.clone()),
            _ => None,
        })
        .await;
    b.event(|e| matches!(e, RoomEvent::Rematch { .. }).then_some(()))
        .await;
    a.seen = None;
    b.seen = None;
    assert_eq!(a.join(&next).await, Some(1));
    assert_eq!(b.join(&next).await, Some(0), "b now holds the first seat");
    a.play(0, "1+").await;
    assert_eq!(a.error().await.0, ErrorCode::NotYourTurn);
    b.play(0, "1+").await;
    a.event(|e| matches!(e, RoomEvent::Moved { seat: 0, .. }).then_some(()))
        .await;

    // Draw: offered, accepted.
    a.send(&ClientMessage::OfferDraw).await;
    b.event(|e| matches!(e, RoomEvent::DrawOffered { seat: 1 }).then_some(()))
        .await;
    b.send(&ClientMessage::AcceptDraw).await;
    let result = ended(&mut a).await;
    assert_eq!(
        (result.cause, result.places.clone()),
        (EndCause::Agreed, vec![0, 0])
    );

    // Claim: too early is refused; after the limit the game is won.
    let (_code, mut a, b) = two_players(&server, "basic", UNTIMED).await;
    a.play(0, "1+").await;
    a.event(|e| matches!(e, RoomEvent::Moved { .. }).then_some(()))
        .await;
    b.close().await;
    a.event(|e| matches!(e, RoomEvent::Away { seat: 1, .. }).then_some(()))
        .await;
    a.send(&ClientMessage::Claim).await;
    let (e, message, _) = a.error().await;
    assert_eq!(e, ErrorCode::NotAllowed);
    assert!(message.contains("gone"), "{message}");
    tokio::time::sleep(Duration::from_millis(600)).await;
    a.send(&ClientMessage::Claim).await;
    let result = ended(&mut a).await;
    assert_eq!((result.cause, result.by), (EndCause::Abandoned, Some(1)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_table_flip_is_a_turn_and_three_players_fill_three_seats() {
    let dir = TempDir::new("variants");
    // The clients move at machine speed (TCP_NODELAY makes a round trip a millisecond): each
    // of three sends far more than the 20 moves a second a person could.
    let server = ServerProcess::sqlite(&dir, &["--messages-per-second", "1000"]);
    let clock = ClockSpec::Fischer {
        base_ms: 600_000,
        increment_ms: 0,
    };
    let (_code, mut a, mut b) = two_players(&server, "table-flip", clock).await;
    a.play(0, "2+").await;
    a.event(|e| matches!(e, RoomEvent::Moved { ply: 0, .. }).then_some(()))
        .await;
    b.play(1, "swap").await;
    let (state, clocks, spent) = a
        .event(|e| match e {
            RoomEvent::Moved {
                mv,
                state,
                clocks,
                spent_ms,
                ..
            } if mv == "swap" => Some((state.clone(), clocks.clone().unwrap(), *spent_ms)),
            _ => None,
        })
        .await;
    assert_eq!(state["swapped"], true);
    assert_eq!(
        clocks[1],
        600_000 - spent,
        "the swap spent the decider's clock"
    );
    // After the flip, b plays the side that opened: the rest of the game plays out.
    let moves = play_out(&mut [&mut a, &mut b], rules("table-flip"), walking).await;
    assert_eq!(moves[1], "swap");
    assert_eq!(ended(&mut a).await.cause, EndCause::Rules);

    // Three players.
    let mut p: Vec<Client> = Vec::new();
    let mut first = Client::connect(&server.url(), "Một").await;
    let code = first
        .create("mature-quan-3p", UNTIMED, First::Me, false)
        .await;
    p.push(first);
    for name in ["Hai", "Ba"] {
        let mut c = Client::connect(&server.url(), name).await;
        let seat = c.join(&code).await;
        assert_eq!(seat, Some(p.len()));
        p.push(c);
    }
    for c in p.iter_mut() {
        c.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
            .await;
    }
    let [x, y, z] = &mut p[..] else {
        unreachable!()
    };
    let moves = play_out(&mut [x, y, z], rules("mature-quan-3p"), walking).await;
    let result = ended(&mut p[0]).await;
    assert_eq!(result.places.len(), 3);
    assert_eq!(
        oaq_replay("mature-quan-3p", &moves).last().unwrap()["over"],
        true
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_public_rooms_waiting() {
    let dir = TempDir::new("lobby");
    let server = ServerProcess::sqlite(&dir, &[]);
    let mut a = Client::connect(&server.url(), "An").await;
    let public = a
        .create(
            "basic",
            ClockSpec::Fischer {
                base_ms: 180_000,
                increment_ms: 2_000,
            },
            First::Random,
            true,
        )
        .await;
    let mut b = Client::connect(&server.url(), "Bình").await;
    let private = b.create("standard", UNTIMED, First::Random, false).await;
    let mut c = Client::connect(&server.url(), "Chi").await;
    c.send(&ClientMessage::Lobby).await;
    let rooms = c
        .until(|m| match m {
            ServerMessage::Notice(Notice::Lobby { rooms, .. }) => Some(rooms.clone()),
            _ => None,
        })
        .await;
    assert_eq!(rooms.len(), 1);
    assert_eq!(rooms[0].code, public);
    assert_eq!(rooms[0].creator.name, "An");
    assert_eq!(rooms[0].clock.label(), "3+2");
    assert_ne!(rooms[0].code, private);
    // Once full it is no longer listed.
    c.join(&public).await;
    c.send(&ClientMessage::Lobby).await;
    let rooms = c
        .until(|m| match m {
            ServerMessage::Notice(Notice::Lobby { rooms, .. }) => Some(rooms.clone()),
            _ => None,
        })
        .await;
    assert!(rooms.is_empty(), "{rooms:?}");
    let (status, body) = server.http("/health");
    assert_eq!(status, 200, "{body}");
    assert!(body.contains(r#""status":"ok""#));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_tells_clients_to_reconnect_and_the_game_survives_the_restart() {
    let dir = TempDir::new("sigterm");
    let mut server = ServerProcess::sqlite(&dir, &[]);
    let (code, mut a, mut b) = two_players(&server, "basic", UNTIMED).await;
    a.play(0, "1+").await;
    b.event(|e| matches!(e, RoomEvent::Moved { .. }).then_some(()))
        .await;
    let status = server.terminate();
    assert!(status.success(), "{status:?}");
    a.until(|m| match m {
        ServerMessage::Notice(Notice::Reconnect { .. }) => Some(()),
        _ => None,
    })
    .await;
    let server = server.restart();
    let mut b2 = Client::connect_as(&server.url(), "Bình", Some(&b.token)).await;
    b2.seen = b.seen;
    assert_eq!(b2.join(&code).await, Some(1));
    let pos = {
        let mut p = Position::new(rules("basic"));
        p.play("1+".parse().unwrap()).unwrap();
        p
    };
    b2.play(1, &first_legal(&pos).to_string()).await;
    b2.event(|e| matches!(e, RoomEvent::Moved { ply: 1, .. }).then_some(()))
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_connection_that_stops_answering_pings_is_dropped_and_its_seat_kept() {
    let dir = TempDir::new("pings");
    let server = ServerProcess::sqlite(&dir, &["--ping-secs", "0.2"]);
    let (code, mut a, b) = two_players(&server, "basic", UNTIMED).await;
    // b's client stops reading (so it never answers a ping), but keeps its socket open.
    let silent = b;
    a.event(|e| matches!(e, RoomEvent::Away { seat: 1, .. }).then_some(()))
        .await;
    // Its player comes back on a new connection into the same seat. Meanwhile `a` goes on
    // reading (and so answering pings): a connection silent for two pings, 0.4 s here, is
    // dropped, and a busy machine may take that long to connect `b` again.
    let back = async {
        let mut b = Client::connect_as(&server.url(), "Bình", Some(&silent.token)).await;
        assert_eq!(b.join(&code).await, Some(1));
        b
    };
    let seen = a.event(|e| matches!(e, RoomEvent::Back { seat: 1, .. }).then_some(()));
    let (_b, ()) = tokio::join!(back, seen);
    drop(silent);
}
