//! Real network faults between players and servers (the tests' own fault-injecting proxy:
//! delay with jitter, a 20 s partition) and chaos among the services (Redis killed and
//! restarted, PostgreSQL stopped and started, a node killed), against real PostgreSQL and
//! Redis servers of the tests' own. Every acknowledged move is stored once, every client ends
//! up with every event, and no request waits past a stated bound.

use std::time::{Duration, Instant};

use oaq_net::protocol::{
    ClientMessage, ClockSpec, ErrorCode, First, Notice, RoomEvent, ServerMessage,
};
use oaq_net::room::RoomState;
use oaq_rules::{Position, presets};
use oaq_testkit::proxy::Proxy;
use oaq_testkit::*;

/// The longest any move may wait for its answer (stored, or refused) while a service is
/// down: Redis's bounded wait and the store's, with room to spare.
const ANSWER_BOUND: Duration = Duration::from_secs(6);

fn basic() -> oaq_rules::RuleSet {
    presets::get("basic").unwrap().rules
}

fn position(client: &Client) -> Position {
    let mut pos = Position::new(basic());
    for mv in client.moves() {
        pos.play(mv.parse().unwrap()).unwrap();
    }
    pos
}

/// What became of a move sent.
#[derive(Debug, PartialEq)]
enum Answer {
    Stored,
    Refused(ErrorCode),
    /// The connection closed before an answer.
    Lost,
}

/// Send the first legal move as the next ply and wait (at most `ANSWER_BOUND`) for its fate.
async fn try_move(client: &mut Client, think_ms: Option<u64>) -> Answer {
    let pos = position(client);
    let ply = client.moves().len() as u32;
    client
        .send(&ClientMessage::Move {
            ply,
            mv: pos.legal_moves()[0].to_string(),
            think_ms,
        })
        .await;
    let sent = Instant::now();
    loop {
        let Some(msg) = client.try_next(ANSWER_BOUND).await else {
            assert!(
                sent.elapsed() < ANSWER_BOUND,
                "a move waited {:?}",
                sent.elapsed()
            );
            return Answer::Lost;
        };
        match msg {
            ServerMessage::Room(ev) => {
                if matches!(ev.event, RoomEvent::Moved { ply: p, .. } if p == ply) {
                    return Answer::Stored;
                }
            }
            ServerMessage::Notice(Notice::Error { code, .. }) => return Answer::Refused(code),
            _ => {}
        }
    }
}

/// Wait until `client` has seen `plies` moves.
async fn sees(client: &mut Client, plies: usize) {
    while client.moves().len() < plies {
        client.next().await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lag_compensation_gives_back_a_slow_networks_delay_within_the_quota() {
    let dir = TempDir::new("lag");
    let server = ServerProcess::sqlite(&dir, &[]);
    // A's network: 250 ms each way, 50 ms of jitter.
    let proxy = Proxy::start(&server.addr).await;
    proxy.delay(250, 50);
    let mut a = Client::connect(&format!("ws://{}/ws", proxy.addr), "An").await;
    let clock = ClockSpec::Fischer {
        base_ms: 300_000,
        increment_ms: 0,
    };
    let code = a.create("basic", clock, First::Me, false).await;
    let mut b = Client::connect(&server.url(), "Bình").await;
    b.join(&code).await;
    a.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    let mut thought = 0;
    let mut moves = 0;
    for _ in 0..6 {
        if position(&a).is_over() {
            break;
        }
        // A thinks 400 ms after seeing the position, and says so.
        tokio::time::sleep(Duration::from_millis(400)).await;
        thought += 400;
        assert_eq!(try_move(&mut a, Some(400)).await, Answer::Stored);
        moves += 1;
        sees(&mut b, a.moves().len()).await;
        if position(&b).is_over() {
            break;
        }
        assert_eq!(try_move(&mut b, Some(0)).await, Answer::Stored);
        sees(&mut a, b.moves().len()).await;
    }
    assert!(moves >= 4, "{moves} moves");
    let (spent, lag): (i64, i64) = a
        .events
        .iter()
        .filter_map(|e| match &e.event {
            RoomEvent::Moved {
                seat: 0,
                spent_ms,
                lag_ms,
                ..
            } => Some((*spent_ms, *lag_ms)),
            _ => None,
        })
        .fold((0, 0), |(s, l), (sm, lm)| (s + sm, l + lm));
    // Each move took about 500 ms of network; A is charged about what it thought.
    assert!(lag >= 300 * moves, "credited {lag} ms over {moves} moves");
    assert!(
        (spent - thought).abs() <= 150 * moves + 200,
        "charged {spent} ms for {thought} ms of thought over {moves} moves"
    );
}

/// Reconnect `client` (its token, its last seq) through `url` and take its seat back.
async fn come_back(client: &Client, url: &str, code: &str) -> Client {
    let mut again = Client::connect_as(url, &client.player.name, Some(&client.token)).await;
    again.seen = client.seen;
    again.events = client.events.clone();
    again.join(code).await;
    again
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_20_s_partition_puts_each_player_back_in_the_seat_with_nothing_lost() {
    let dir = TempDir::new("partition");
    let server = ServerProcess::sqlite(&dir, &["--ping-secs", "2"]);
    let proxy = Proxy::start(&server.addr).await;
    let via = format!("ws://{}/ws", proxy.addr);
    let mut a = Client::connect(&via, "An").await;
    let code = a.create("basic", UNTIMED, First::Me, false).await;
    let mut b = Client::connect(&server.url(), "Bình").await;
    b.join(&code).await;
    assert_eq!(try_move(&mut a, None).await, Answer::Stored);
    sees(&mut b, 1).await;
    proxy.partition(true);
    // B moves while A's network is gone; the server marks A away when her pings stop.
    assert_eq!(try_move(&mut b, None).await, Answer::Stored);
    b.event(|e| matches!(e, RoomEvent::Away { seat: 0, .. }).then_some(()))
        .await;
    // Twenty seconds of partition; B keeps reading (and so answering the server's pings).
    let healed = Instant::now() + Duration::from_secs(20);
    while Instant::now() < healed {
        b.try_next(Duration::from_millis(500)).await;
    }
    proxy.partition(false);
    // The server closed A's old connection: she finds out, comes back and catches up.
    while a.try_next(Duration::from_secs(10)).await.is_some() {}
    let mut a = come_back(&a, &via, &code).await;
    sees(&mut a, 2).await;
    b.event(|e| matches!(e, RoomEvent::Back { seat: 0, .. }).then_some(()))
        .await;
    assert_eq!(try_move(&mut a, None).await, Answer::Stored);
    sees(&mut b, 3).await;
    assert_eq!(a.moves(), b.moves());
    let w = Client::connect(&server.url(), "W").await;
    let mut w = w;
    w.send(&ClientMessage::Watch {
        code: code.clone(),
        since: None,
    })
    .await;
    w.seat(&code).await;
    assert_eq!(w.moves(), a.moves(), "the store has each move once");
}

/// Until `client` sees a message matching `want`, at most `wait`.
async fn within(client: &mut Client, wait: Duration, want: impl Fn(&RoomEvent) -> bool) -> bool {
    let end = tokio::time::Instant::now() + wait;
    while tokio::time::Instant::now() < end {
        match client.try_next(Duration::from_millis(200)).await {
            Some(ServerMessage::Room(ev)) if want(&ev.event) => return true,
            _ => {}
        }
    }
    false
}

/// A move by `client`, tried again while the servers refuse with `unavailable`, for at most
/// `patience`. Each try is answered within `ANSWER_BOUND`.
async fn move_when_possible(client: &mut Client, patience: Duration) -> Answer {
    let end = Instant::now() + patience;
    loop {
        let answer = try_move(client, None).await;
        if answer != Answer::Refused(ErrorCode::Unavailable) || Instant::now() > end {
            return answer;
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn chaos_redis_restarted_postgres_restarted_and_a_node_killed_during_a_game_on_two_nodes() {
    let pg = &mut Postgres::start();
    let redis = &mut Redis::start();
    let node = |name: &str| {
        ServerProcess::start(&[
            "--database",
            &pg.url(),
            "--redis",
            &redis.url(),
            "--node",
            name,
            "--redis-wait-secs",
            "1",
            // The players wait idle through the outages below without being dropped.
            "--ping-secs",
            "30",
        ])
    };
    let one = node("one");
    let mut two = node("two");
    let mut a = Client::connect(&one.url(), "An").await;
    let code = a.create("basic", UNTIMED, First::Me, false).await;
    let mut b = Client::connect(&two.url(), "Bình").await;
    b.join(&code).await;
    assert_eq!(try_move(&mut a, None).await, Answer::Stored);
    sees(&mut b, 1).await;

    // Redis down: a move is refused at once, not left hanging.
    redis.kill();
    let start = Instant::now();
    let answer = try_move(&mut b, None).await;
    assert_eq!(answer, Answer::Refused(ErrorCode::Unavailable));
    assert!(
        start.elapsed() < Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    let (status, body) = one.http("/health");
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("\"redis\":false"), "{body}");
    // Redis back: both nodes subscribe again; each sees the other's moves.
    redis.restart();
    assert_eq!(
        move_when_possible(&mut b, Duration::from_secs(15)).await,
        Answer::Stored
    );
    sees(&mut a, 2).await;
    assert_eq!(try_move(&mut a, None).await, Answer::Stored);
    sees(&mut b, 3).await;

    // PostgreSQL stopped: refused within the bound; started again: the game goes on.
    pg.stop();
    let answer = try_move(&mut b, None).await;
    assert_eq!(answer, Answer::Refused(ErrorCode::Unavailable));
    pg.start_again();
    assert_eq!(
        move_when_possible(&mut b, Duration::from_secs(20)).await,
        Answer::Stored
    );
    sees(&mut a, 4).await;

    // Node two killed: B comes back through node one with nothing lost.
    two.kill();
    while b.try_next(Duration::from_secs(2)).await.is_some() {}
    let mut b = come_back(&b, &one.url(), &code).await;
    assert_eq!(try_move(&mut a, None).await, Answer::Stored);
    sees(&mut b, 5).await;
    assert_eq!(try_move(&mut b, None).await, Answer::Stored);
    sees(&mut a, 6).await;
    two = two.restart();
    let mut w = Client::connect(&two.url(), "W").await;
    w.send(&ClientMessage::Watch {
        code: code.clone(),
        since: None,
    })
    .await;
    w.seat(&code).await;
    // Every acknowledged move once, in order; the log folds by the rules.
    assert_eq!(w.moves(), a.moves());
    assert_eq!(w.moves(), b.moves());
    let log: Vec<RoomEvent> = w.events.iter().map(|e| e.event.clone()).collect();
    let room = RoomState::from_log(&log).unwrap();
    assert_eq!(room.moves.len(), 6);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_redis_has_its_rooms_taken_over_and_catches_up_after() {
    let pg = Postgres::start();
    let redis = Redis::start();
    // Node one reaches Redis through the proxy.
    let link = Proxy::start(&format!("127.0.0.1:{}", redis.port)).await;
    let node = |name: &str, redis_url: &str| {
        ServerProcess::start(&[
            "--database",
            &pg.url(),
            "--redis",
            redis_url,
            "--node",
            name,
            "--redis-wait-secs",
            "1",
        ])
    };
    let one = node("one", &format!("redis://{}/", link.addr));
    let two = node("two", &redis.url());
    let mut a = Client::connect(&one.url(), "An").await;
    let clock = ClockSpec::Fischer {
        base_ms: 600_000,
        increment_ms: 0,
    };
    let code = a.create("basic", clock, First::Me, false).await;
    let mut b = Client::connect(&two.url(), "Bình").await;
    b.join(&code).await;
    assert_eq!(try_move(&mut a, None).await, Answer::Stored);
    sees(&mut b, 1).await;
    link.partition(true);
    // Node one's claim runs out; node two takes the room's clocks over.
    assert!(
        within(&mut b, Duration::from_secs(25), |e| matches!(
            e,
            RoomEvent::Resumed { .. }
        ))
        .await,
        "node two never took the room over"
    );
    // Meanwhile node one refuses at once rather than hang.
    let start = Instant::now();
    let answer = try_move(&mut a, None).await;
    assert!(
        matches!(
            answer,
            Answer::Refused(ErrorCode::Unavailable) | Answer::Refused(ErrorCode::NotYourTurn)
        ),
        "{answer:?}"
    );
    assert!(
        start.elapsed() < Duration::from_secs(4),
        "{:?}",
        start.elapsed()
    );
    assert_eq!(try_move(&mut b, None).await, Answer::Stored);
    link.partition(false);
    link.cut();
    // Back in touch, node one reads what it missed and passes it on.
    sees(&mut a, 2).await;
    assert_eq!(
        move_when_possible(&mut a, Duration::from_secs(15)).await,
        Answer::Stored
    );
    sees(&mut b, 3).await;
    assert_eq!(a.moves(), b.moves());
}
