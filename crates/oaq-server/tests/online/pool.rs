//! Quick pairing against a real `oaq-server` with short waves: two players in a pool are
//! paired into a begun, rated room; a player alone is offered the computer at a level near
//! their rating; the lobby's count of those waiting in each pool; leaving a pool; players who
//! abandon games are told they wait behind the rest; and on two nodes (PostgreSQL and Redis)
//! players on different nodes are paired, and the pools pass to the other node when the node
//! running them is killed.

use oaq_net::pool::{POOLS, PoolCount, computer_level};
use oaq_net::protocol::{
    ClientMessage, ClockSpec, EndCause, ErrorCode, Notice, RoomEvent, ServerMessage,
};
use oaq_testkit::*;

const THREE_TWO: ClockSpec = POOLS[1];

/// The pools with players waiting, as the lobby says.
async fn pool_counts(client: &mut Client) -> Vec<PoolCount> {
    client.send(&ClientMessage::Lobby).await;
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::Lobby { pools, .. }) => Some(pools.clone()),
            _ => None,
        })
        .await
}

/// Both join the room they were paired into; it has begun at 3+2 with both seated.
async fn sit(a: &mut Client, b: &mut Client, room: &str) {
    a.join(room).await.expect("a seat");
    b.join(room).await.expect("a seat");
    let clock = a
        .events
        .iter()
        .find_map(|e| match &e.event {
            RoomEvent::Opened { clock, public, .. } => Some((*clock, *public)),
            _ => None,
        })
        .expect("the log from its start");
    assert_eq!(clock, (THREE_TWO, false));
    assert!(a.order().is_some(), "begun");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pools_pair_by_rating_offer_the_computer_and_put_abandoners_last() {
    let dir = TempDir::new("pool");
    let server = ServerProcess::sqlite(
        &dir,
        &["--pool-wave-secs", "0.3", "--claim-after-secs", "0.2"],
    );
    let url = server.url();

    // Two players press "Play now" at 3+2: one room, both seated, the game begun.
    let mut an = Client::connect(&url, "An").await;
    let mut binh = Client::connect(&url, "Bình").await;
    assert_eq!(an.pool("standard").await, None);
    assert_eq!(binh.pool("standard").await, None);
    let room = an.paired().await;
    assert_eq!(binh.paired().await, room);
    sit(&mut an, &mut binh, &room).await;

    // Alone in a pool: after a wave, the computer at the level rated nearest; still waiting.
    let mut chi = Client::connect(&url, "Chi").await;
    chi.pool("basic").await;
    match chi.pool_news().await {
        Notice::PoolAlone { level } => assert_eq!(level, computer_level(1500.0)),
        other => panic!("expected the computer's offer, got {other:?}"),
    }
    // The lobby says one player waits at basic 3+2 (the home's tile shows it), and no more.
    let mut hoa = Client::connect(&url, "Hoa").await;
    let counts = pool_counts(&mut hoa).await;
    assert_eq!(
        counts,
        vec![PoolCount {
            rules: "basic".into(),
            clock: THREE_TWO,
            waiting: 1
        }]
    );
    chi.send(&ClientMessage::LeavePool).await;
    assert_eq!(chi.pool_news().await, Notice::Unpooled);
    // Gone after the next wave.
    for wave in 0.. {
        if pool_counts(&mut hoa).await.is_empty() {
            break;
        }
        assert!(wave < 40, "the count stayed after Chi left");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    // A pool that is not there is refused by name, and changes nothing.
    chi.send(&ClientMessage::Pool {
        rules: "standard".into(),
        clock: ClockSpec::Fischer {
            base_ms: 120_000,
            increment_ms: 1_000,
        },
    })
    .await;
    let (code, message, _) = chi.error().await;
    assert_eq!(code, ErrorCode::BadMessage);
    assert!(message.contains("2+1 has no pool"), "{message}");

    // Dũng leaves two rated games (his opponents claim them): he is told he waits behind.
    let mut dung = Client::connect(&url, "Dũng").await;
    let token = dung.token.clone();
    for opponent in ["Em", "Giang"] {
        let mut other = Client::connect(&url, opponent).await;
        dung.pool("standard").await;
        other.pool("standard").await;
        let room = other.paired().await;
        dung.paired().await;
        sit(&mut dung, &mut other, &room).await;
        dung.close().await;
        other
            .event(|e| matches!(e, RoomEvent::Away { .. }).then_some(()))
            .await;
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
        other.send(&ClientMessage::Claim).await;
        let result = ended(&mut other).await;
        assert_eq!(result.cause, EndCause::Abandoned);
        dung = Client::connect_as(&url, "Dũng", Some(&token)).await;
    }
    let last = dung.pool("standard").await.expect("told why he waits");
    assert_eq!((last.abandoned, last.of), (2, 20));
    dung.send(&ClientMessage::LeavePool).await;
    assert_eq!(dung.pool_news().await, Notice::Unpooled);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_two_nodes_players_are_paired_across_and_a_lost_node_hands_its_pools_over() {
    let pg = Postgres::start();
    let redis = Redis::start();
    let (db, rd) = (pg.url(), redis.url());
    let node = |name: &str| {
        ServerProcess::start(&[
            "--database",
            &db,
            "--redis",
            &rd,
            "--node",
            name,
            "--pool-wave-secs",
            "0.3",
        ])
    };
    // Node one starts first and takes every pool.
    let mut one = node("one");
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    let two = node("two");
    let mut an = Client::connect(&one.url(), "An").await;
    let mut binh = Client::connect(&two.url(), "Bình").await;
    an.pool("standard").await;
    binh.pool("standard").await;
    let room = an.paired().await;
    assert_eq!(binh.paired().await, room, "paired across the nodes");

    // Node one dies with a player waiting on it: node two takes the pools over, drops him
    // (nobody vouches for him) and pairs its own players. While he waits, node two's lobby
    // counts him, though node one runs the pool.
    let mut chi = Client::connect(&one.url(), "Chi").await;
    chi.pool("standard").await;
    let chi_waits = vec![PoolCount {
        rules: "standard".into(),
        clock: THREE_TWO,
        waiting: 1,
    }];
    for wave in 0.. {
        if pool_counts(&mut binh).await == chi_waits {
            break;
        }
        assert!(wave < 40, "node two's lobby never counted Chi");
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    one.kill();
    let mut dung = Client::connect(&two.url(), "Dũng").await;
    let mut em = Client::connect(&two.url(), "Em").await;
    dung.pool("standard").await;
    em.pool("standard").await;
    let room = dung.paired().await;
    assert_eq!(em.paired().await, room);
    em.join(&room).await.expect("a seat on node two");
    let seated: Vec<String> = em
        .events
        .iter()
        .filter_map(|e| match &e.event {
            RoomEvent::Seated { player, .. } => Some(player.name.clone()),
            _ => None,
        })
        .collect();
    assert!(
        seated.contains(&"Dũng".to_owned()) && seated.contains(&"Em".to_owned()),
        "not Chi, gone with node one: {seated:?}"
    );
}
