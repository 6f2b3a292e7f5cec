//! Bad input to a real `oaq-server`: random bytes, broken and oversized JSON, valid messages at
//! the wrong time or for the wrong seat, replayed moves, a flood. Never a panic, never a change
//! of the room, always a typed error or a closed connection.

use futures_util::{SinkExt, StreamExt};
use oaq_net::protocol::{
    ClientMessage, ErrorCode, First, Notice, RoomEvent, ServerMessage, parse_client,
};
use oaq_testkit::*;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};
use tokio_tungstenite::tungstenite::Message;

/// Frames to break: every kind of message, valid.
const VALID: &[&str] = &[
    r#"{"type":"hello","protocol":1,"name":"Lan"}"#,
    r#"{"type":"create","rules":"basic","clock":{"base_ms":180000,"increment_ms":2000},"first":"me","public":true}"#,
    r#"{"type":"join","code":"ABCDEF","since":3}"#,
    r#"{"type":"watch","code":"ABCDEF"}"#,
    r#"{"type":"move","ply":2,"move":"3+","think_ms":500}"#,
    r#"{"type":"move","ply":1,"move":"swap"}"#,
    r#"{"type":"resign"}"#,
    r#"{"type":"offer_draw"}"#,
    r#"{"type":"claim"}"#,
    r#"{"type":"ping","id":7}"#,
];

/// A broken frame: a valid one cut, with bytes changed, inserted or removed, or plain noise.
fn broken(rng: &mut StdRng) -> String {
    let base = VALID[rng.random_range(0..VALID.len())];
    let mut bytes: Vec<u8> = base.as_bytes().to_vec();
    match rng.random_range(0..5) {
        0 => bytes.truncate(rng.random_range(0..bytes.len())),
        1 => {
            for _ in 0..rng.random_range(1..4) {
                let i = rng.random_range(0..bytes.len());
                bytes[i] = rng.random();
            }
        }
        2 => {
            let i = rng.random_range(0..bytes.len());
            let noise: Vec<u8> = (0..rng.random_range(1..8)).map(|_| rng.random()).collect();
            bytes.splice(i..i, noise);
        }
        3 => {
            let i = rng.random_range(0..bytes.len());
            let j = (i + rng.random_range(1..10)).min(bytes.len());
            bytes.drain(i..j);
        }
        _ => bytes = (0..rng.random_range(0..64)).map(|_| rng.random()).collect(),
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// The room's last `seq`, as a newcomer watching it is told.
async fn room_seq(server: &ServerProcess, code: &str) -> u64 {
    let mut w = Client::connect(&server.url(), "Watcher").await;
    w.send(&ClientMessage::Watch {
        code: code.into(),
        since: None,
    })
    .await;
    w.seat(code).await;
    w.seen.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_frames_get_typed_errors_and_change_nothing() {
    let dir = TempDir::new("fuzz");
    let server = ServerProcess::sqlite(&dir, &["--messages-per-second", "10000"]);
    let mut a = Client::connect(&server.url(), "An").await;
    let code = a.create("basic", UNTIMED, First::Me, false).await;
    let mut b = Client::connect(&server.url(), "Bình").await;
    b.join(&code).await;
    a.play(0, "2+").await;
    b.event(|e| matches!(e, RoomEvent::Moved { ply: 0, .. }).then_some(()))
        .await;
    b.play(1, "9+").await;
    b.event(|e| matches!(e, RoomEvent::Moved { ply: 1, .. }).then_some(()))
        .await;
    let before = room_seq(&server, &code).await;

    let mut rng = StdRng::seed_from_u64(13);
    let mut sent = 0;
    // Both a seated player (not to move) and a stranger in no room send broken frames.
    let mut stranger = Client::connect(&server.url(), "Stranger").await;
    while sent < 600 {
        let frame = broken(&mut rng);
        // A mutation that is still a valid message is not bad input: skip it.
        if parse_client(&frame).is_ok() {
            continue;
        }
        sent += 1;
        let c = if sent % 2 == 0 { &mut b } else { &mut stranger };
        c.send_text(&frame).await;
        let reply = c.try_next(std::time::Duration::from_secs(5)).await;
        let Some(ServerMessage::Notice(Notice::Error { code: code_, .. })) = reply else {
            panic!("{frame:?} got {reply:?}");
        };
        assert!(
            matches!(code_, ErrorCode::BadMessage | ErrorCode::TooLarge),
            "{frame:?} got {code_:?}"
        );
    }
    // Binary frames and random bytes too.
    for _ in 0..50 {
        let bytes: Vec<u8> = (0..rng.random_range(0..200))
            .map(|_| rng.random())
            .collect();
        b.ws.send(Message::binary(bytes)).await.unwrap();
        assert_eq!(b.error().await.0, ErrorCode::BadMessage);
    }
    // Valid messages where they do not belong: for the other seat, replayed, out of order.
    b.play(0, "7+").await;
    assert_eq!(b.error().await.0, ErrorCode::StalePly, "a replayed ply");
    b.play(5, "7+").await;
    assert_eq!(
        b.error().await.0,
        ErrorCode::StalePly,
        "a ply from the future"
    );
    b.play(2, "8+").await;
    assert_eq!(
        b.error().await.0,
        ErrorCode::NotYourTurn,
        "the other seat's move"
    );
    stranger.play(0, "1+").await;
    assert_eq!(stranger.error().await.0, ErrorCode::NotAllowed, "no room");
    let mut before_hello = Client::raw(&server.url()).await;
    before_hello
        .send(Message::text(r#"{"type":"move","ply":0,"move":"1+"}"#))
        .await
        .unwrap();
    let reply = before_hello.next().await.unwrap().unwrap();
    assert!(
        reply.to_text().unwrap().contains("bad_message"),
        "{reply:?}"
    );

    // Far too large: the connection is closed, the server goes on.
    let huge = format!(r#"{{"type":"lobby","x":"{}"}}"#, "y".repeat(100_000));
    let _ = stranger.ws.send(Message::text(huge)).await;
    assert!(stranger.try_next(PATIENCE).await.is_none(), "closed");

    assert_eq!(
        room_seq(&server, &code).await,
        before,
        "nothing changed in the room"
    );
    let (status, _) = server.http("/health");
    assert_eq!(status, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_is_refused_then_cut_off_and_guessing_codes_is_slowed() {
    let dir = TempDir::new("flood");
    // Each guess is a new guest: the limit on those is not what is tried here.
    let server = ServerProcess::sqlite(&dir, &["--guests-per-minute", "1000"]);
    let mut c = Client::connect(&server.url(), "Flood").await;
    for id in 0..300u64 {
        if c.ws
            .send(Message::text(format!(r#"{{"type":"ping","id":{id}}}"#)))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut pongs = 0;
    let mut limited = 0;
    while let Some(msg) = c.try_next(std::time::Duration::from_secs(3)).await {
        match msg {
            ServerMessage::Notice(Notice::Pong { .. }) => pongs += 1,
            ServerMessage::Notice(Notice::Error {
                code: ErrorCode::RateLimited,
                ..
            }) => limited += 1,
            other => panic!("{other:?}"),
        }
    }
    assert!(
        (35..=60).contains(&pongs),
        "the burst (less the hello) and a little more: {pongs}"
    );
    assert_eq!(limited, 50, "refused, then the connection was closed");

    // Guessing room codes: after a few misses from this address, refused even from new
    // connections.
    let mut misses = 0;
    let mut refused = false;
    for i in 0..40 {
        let mut g = Client::connect(&server.url(), "Guess").await;
        g.send(&ClientMessage::Join {
            code: format!("ZZZZ{}{}", (b'A' + (i % 20) as u8) as char, 'Q'),
            since: None,
        })
        .await;
        match g.error().await.0 {
            ErrorCode::NoSuchRoom => misses += 1,
            ErrorCode::RateLimited => {
                refused = true;
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    assert!(refused, "guessing was never slowed");
    assert!(
        (15..=25).contains(&misses),
        "{misses} misses before the limit"
    );
    let (status, _) = server.http("/health");
    assert_eq!(status, 200);
    let _ = StreamExt::next(&mut c.ws).await;
}
