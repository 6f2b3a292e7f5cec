//! The online server when things go wrong and when there are several of it: SIGKILL in the
//! middle of a game, and two nodes on one PostgreSQL and one Redis (real servers of the tests'
//! own, on loopback), with a node lost mid-game.

use oaq_net::protocol::{
    ClientMessage, ClockSpec, EndCause, First, Notice, RoomEvent, ServerMessage,
};
use oaq_rules::{Move, Position, presets};
use oaq_session::Record;
use oaq_testkit::*;

fn walking(pos: &Position) -> Move {
    let legal = pos.legal_moves();
    legal[(pos.ply() as usize * 5 + 1) % legal.len()]
}

/// The moves of a room's log, checked: one per ply, in order, none twice.
fn logged_moves(client: &Client) -> Vec<String> {
    let mut moves = Vec::new();
    for e in &client.events {
        if let RoomEvent::Moved { ply, mv, .. } = &e.event {
            assert_eq!(
                *ply as usize,
                moves.len(),
                "ply {ply} out of order or twice"
            );
            moves.push(mv.clone());
        }
    }
    moves
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigkill_mid_game_loses_no_acknowledged_move_and_applies_none_twice() {
    let dir = TempDir::new("sigkill");
    let mut server = ServerProcess::sqlite(&dir, &[]);
    let rules = presets::get("basic").unwrap().rules;
    let clock = ClockSpec::Fischer {
        base_ms: 600_000,
        increment_ms: 1_000,
    };
    let mut a = Client::connect(&server.url(), "An").await;
    let code = a.create("basic", clock, First::Me, false).await;
    let mut b = Client::connect(&server.url(), "Bình").await;
    b.join(&code).await;
    let (ta, tb) = (a.token.clone(), b.token.clone());
    let mut pos = Position::new(rules);
    let mut acknowledged: Vec<String> = Vec::new();
    // Three kills: right after a move is sent (in flight), after it is acknowledged, and
    // after a burst of resends of the same move.
    for round in 0..3 {
        // Two acknowledged moves first.
        for _ in 0..2 {
            let seat = mover(&pos, &[0, 1]);
            let mv = walking(&pos);
            let ply = acknowledged.len() as u32;
            let c = if seat == 0 { &mut a } else { &mut b };
            c.play(ply, &mv.to_string()).await;
            c.event(|e| matches!(e, RoomEvent::Moved { ply: p, .. } if *p == ply).then_some(()))
                .await;
            pos.play(mv).unwrap();
            acknowledged.push(mv.to_string());
        }
        // One more sent, perhaps several times, and the server killed at once.
        let seat = mover(&pos, &[0, 1]);
        let mv = walking(&pos);
        let ply = acknowledged.len() as u32;
        let c = if seat == 0 { &mut a } else { &mut b };
        for _ in 0..(1 + 2 * round) {
            c.play(ply, &mv.to_string()).await;
        }
        if round == 1 {
            c.event(|e| matches!(e, RoomEvent::Moved { ply: p, .. } if *p == ply).then_some(()))
                .await;
        }
        server.kill();
        server = server.restart();

        // Both come back into their seats; the log holds every acknowledged move, each once.
        a = Client::connect_as(&server.url(), "An", Some(&ta)).await;
        b = Client::connect_as(&server.url(), "Bình", Some(&tb)).await;
        assert_eq!(a.join(&code).await, Some(0));
        assert_eq!(b.join(&code).await, Some(1));
        let moves = logged_moves(&a);
        assert_eq!(&moves[..acknowledged.len()], &acknowledged[..]);
        assert!(moves.len() <= acknowledged.len() + 1, "{moves:?}");
        if round == 1 {
            assert_eq!(
                moves.len(),
                acknowledged.len() + 1,
                "an acknowledged move is there"
            );
        }
        if moves.len() > acknowledged.len() {
            // The move in flight was written before the kill: it counts, once.
            pos.play(mv).unwrap();
            acknowledged.push(mv.to_string());
        }
        // The clocks came back as the last move left them, and run again from now.
        let resumed = a
            .events
            .iter()
            .any(|e| matches!(e.event, RoomEvent::Resumed { .. }));
        assert!(resumed, "the restart is in the log");
    }
    // The game goes on to its end, and the replay file has every move.
    let moves = play_out(&mut [&mut a, &mut b], rules, walking).await;
    assert_eq!(&moves[..acknowledged.len()], &acknowledged[..]);
    assert_eq!(ended(&mut a).await.cause, EndCause::Rules);
    let (status, body) = server.http(&format!("/games/{code}"));
    assert_eq!(status, 200);
    let history = Record::parse(&body).unwrap();
    assert_eq!(history.moves().count(), moves.len());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_nodes_on_postgres_and_redis_play_one_game_and_survive_losing_a_node() {
    let pg = Postgres::start();
    let redis = Redis::start();
    let (db, rd) = (pg.url(), redis.url());
    let node =
        |name: &str| ServerProcess::start(&["--database", &db, "--redis", &rd, "--node", name]);
    let mut one = node("one");
    let two = node("two");
    let rules = presets::get("standard").unwrap().rules;
    let clock = ClockSpec::Fischer {
        base_ms: 600_000,
        increment_ms: 0,
    };

    // An on node one (which keeps the room's clocks), Bình and a spectator on node two.
    let mut a = Client::connect(&one.url(), "An").await;
    let code = a.create("standard", clock, First::Me, true).await;
    let mut b = Client::connect(&two.url(), "Bình").await;
    b.send(&ClientMessage::Lobby).await;
    let listed = b
        .until(|m| match m {
            ServerMessage::Notice(Notice::Lobby { rooms, .. }) => {
                Some(rooms.iter().any(|r| r.code == code))
            }
            _ => None,
        })
        .await;
    assert!(listed, "the other node's lobby lists the room");
    assert_eq!(b.join(&code).await, Some(1));
    let mut w = Client::connect(&two.url(), "Watcher").await;
    w.send(&ClientMessage::Watch {
        code: code.clone(),
        since: None,
    })
    .await;
    w.seat(&code).await;
    for c in [&mut a, &mut b] {
        c.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
            .await;
    }

    // Ten moves across the nodes; the spectator on node two sees each.
    let mut pos = Position::new(rules);
    for ply in 0..10u32 {
        let seat = mover(&pos, &[0, 1]);
        let mv = walking(&pos);
        let c = if seat == 0 { &mut a } else { &mut b };
        c.play(ply, &mv.to_string()).await;
        for c in [&mut a, &mut b, &mut w] {
            c.event(|e| matches!(e, RoomEvent::Moved { ply: p, .. } if *p == ply).then_some(()))
                .await;
        }
        pos.play(mv).unwrap();
    }

    // Node one is lost (SIGKILL). An comes back through node two, which takes over the
    // room's clocks once node one's claim expires: the clocks start again from the last move.
    one.kill();
    let seen = a.seen;
    let ta = a.token.clone();
    let mut a = Client::connect_as(&two.url(), "An", Some(&ta)).await;
    a.seen = seen;
    assert_eq!(a.join(&code).await, Some(0));
    let mut resumed = false;
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(40);
    while !resumed && tokio::time::Instant::now() < deadline {
        if let Some(ServerMessage::Room(e)) = w.try_next(std::time::Duration::from_secs(1)).await {
            resumed = matches!(e.event, RoomEvent::Resumed { .. });
        }
    }
    assert!(resumed, "node two took over the room's clocks");
    let moves = play_out(&mut [&mut a, &mut b], rules, walking).await;
    let result = ended(&mut a).await;
    assert_eq!(result.cause, EndCause::Rules);
    assert_eq!(ended(&mut b).await, result);
    assert_eq!(ended(&mut w).await, result);
    assert_eq!(logged_moves(&b), moves);

    // A third node sees the finished game in the shared store.
    let three = node("three");
    let (status, body) = three.http(&format!("/games/{code}"));
    assert_eq!(status, 200, "{body}");
    assert_eq!(Record::parse(&body).unwrap().moves().count(), moves.len());
    let (status, health) = three.http("/health");
    assert_eq!(status, 200, "{health}");
    assert!(health.contains(r#""redis":true"#), "{health}");
    drop(w);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_on_two_nodes_each_move_through_their_own() {
    let pg = Postgres::start();
    let redis = Redis::start();
    let (db, rd) = (pg.url(), redis.url());
    let one = ServerProcess::start(&["--database", &db, "--redis", &rd, "--node", "one"]);
    let two = ServerProcess::start(&["--database", &db, "--redis", &rd, "--node", "two"]);
    let rules = presets::get("mature-quan").unwrap().rules;
    let clock = ClockSpec::Fischer {
        base_ms: 300_000,
        increment_ms: 3_000,
    };
    let mut a = Client::connect(&two.url(), "An").await;
    let code = a.create("mature-quan", clock, First::Them, false).await;
    let mut b = Client::connect(&one.url(), "Bình").await;
    b.join(&code).await;
    for c in [&mut a, &mut b] {
        c.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
            .await;
    }
    assert_eq!(
        a.order(),
        Some(vec![1, 0]),
        "the one who joined moves first"
    );
    let moves = play_out(&mut [&mut a, &mut b], rules, walking).await;
    let result = ended(&mut b).await;
    assert_eq!(ended(&mut a).await, result);
    assert_eq!(logged_moves(&b), moves);
    // Each move's clocks were stamped once, by whichever node took it.
    let clocks: Vec<Vec<i64>> = a
        .events
        .iter()
        .filter_map(|e| match &e.event {
            RoomEvent::Moved { clocks, .. } => clocks.clone(),
            _ => None,
        })
        .collect();
    assert_eq!(clocks.len(), moves.len());
    assert!(clocks.iter().all(|c| c.iter().all(|&ms| ms > 290_000)));
}

/// A node lost while it held a room's write lease leaves the lease to run out (3 s): a join on
/// another node waits for it rather than answering "try again".
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_join_waits_out_the_lease_of_a_node_lost_while_holding_it() {
    let pg = Postgres::start();
    let redis = Redis::start();
    let (db, rd) = (pg.url(), redis.url());
    let node = ServerProcess::start(&["--database", &db, "--redis", &rd, "--node", "two"]);
    let clock = ClockSpec::Fischer {
        base_ms: 600_000,
        increment_ms: 0,
    };
    let mut an = Client::connect(&node.url(), "An").await;
    let code = an.create("standard", clock, First::Me, false).await;
    // What a node SIGKILLed in the middle of writing leaves behind.
    let client = ::redis::Client::open(rd.as_str()).unwrap();
    let mut conn = client.get_multiplexed_async_connection().await.unwrap();
    let _: () = ::redis::cmd("SET")
        .arg(format!("oaq:room:{code}:lease"))
        .arg("one:lost")
        .arg("PX")
        .arg(3_000)
        .query_async(&mut conn)
        .await
        .unwrap();
    let mut binh = Client::connect(&node.url(), "Bình").await;
    let started = std::time::Instant::now();
    assert_eq!(
        binh.join(&code).await,
        Some(1),
        "seated, not told to try again"
    );
    assert!(
        started.elapsed() >= std::time::Duration::from_millis(2_500),
        "the lease was waited out, not ignored: {:?}",
        started.elapsed()
    );
}
