//! A real `oaq-server` tried as a hostile client would try it: free clock time, numbers that
//! overflow, one address holding every connection or every lobby place, a guesser locking a
//! neighbour out, a seat that is never marked away, a claim out of the server's downtime,
//! invisible names. Each is refused or bounded, and refusing changes nothing.

use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use oaq_net::clock::LagQuota;
use oaq_net::protocol::{
    ClientMessage, ClockSpec, EndCause, ErrorCode, First, Notice, RoomEvent, ServerMessage,
};
use oaq_rules::{Move, Position, presets};
use oaq_testkit::*;
use tokio_tungstenite::tungstenite::Message;

fn basic() -> oaq_rules::RuleSet {
    presets::get("basic").unwrap().rules
}

/// The first legal move: a game that lasts.
fn first_legal(pos: &Position) -> Move {
    pos.legal_moves()[0]
}

/// Two players in a started room of `clock`, the creator (`a`) moving first.
async fn two_players(server: &ServerProcess, clock: ClockSpec) -> (Client, Client, String) {
    let mut a = Client::connect(&server.url(), "An").await;
    let code = a.create("basic", clock, First::Me, false).await;
    let mut b = Client::connect(&server.url(), "Bình").await;
    b.join(&code).await;
    a.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    b.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    (a, b, code)
}

/// The position of the room as `client` has seen it.
fn position(client: &Client) -> Position {
    let mut pos = Position::new(basic());
    for mv in client.moves() {
        pos.play(mv.parse().unwrap()).unwrap();
    }
    pos
}

/// `mover` plays the first legal move as ply `ply`, claiming `think_ms`; both see it. Returns
/// the lag credited to it.
async fn one_move(mover: &mut Client, other: &mut Client, think_ms: Option<u64>) -> i64 {
    let pos = position(mover);
    let ply = mover.moves().len() as u32;
    mover
        .send(&ClientMessage::Move {
            ply,
            mv: first_legal(&pos).to_string(),
            think_ms,
        })
        .await;
    let lag = mover
        .until(|m| match m {
            ServerMessage::Room(ev) => match &ev.event {
                RoomEvent::Moved { ply: p, lag_ms, .. } if *p == ply => Some(*lag_ms),
                _ => None,
            },
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("move: {message}"),
            _ => None,
        })
        .await;
    other
        .event(|e| matches!(e, RoomEvent::Moved { ply: p, .. } if *p == ply).then_some(()))
        .await;
    lag
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_claims_no_thought_spends_its_lag_quota_even_across_a_restart() {
    let dir = TempDir::new("quota");
    let mut server = ServerProcess::sqlite(&dir, &[]);
    let clock = ClockSpec::Fischer {
        base_ms: 60_000,
        increment_ms: 0,
    };
    let (mut a, mut b, code) = two_players(&server, clock).await;
    let quota = LagQuota::for_control(60_000, 0);
    let mut credited = Vec::new();
    for round in 0..10 {
        if round == 5 {
            // SIGKILL and back: the quota is in the log, not refilled.
            server.kill();
            server = server.restart();
            let (ta, tb) = (a.token.clone(), b.token.clone());
            let (sa, sb) = (a.seen, b.seen);
            let (ea, eb) = (a.events.clone(), b.events.clone());
            a = Client::connect_as(&server.url(), "An", Some(&ta)).await;
            b = Client::connect_as(&server.url(), "Bình", Some(&tb)).await;
            (a.seen, b.seen, a.events, b.events) = (sa, sb, ea, eb);
            a.join(&code).await;
            b.join(&code).await;
        }
        if position(&a).is_over() {
            break;
        }
        // A thinks 0.8 s and says it thought for no time at all.
        tokio::time::sleep(Duration::from_millis(800)).await;
        credited.push(one_move(&mut a, &mut b, Some(0)).await);
        if position(&b).is_over() {
            break;
        }
        one_move(&mut b, &mut a, None).await;
    }
    let n = credited.len() as i64;
    assert!(n >= 7, "the game lasted {n} of A's moves");
    let most = quota.quota + (n - 1) * quota.gain;
    let total: i64 = credited.iter().sum();
    assert!(
        total <= most,
        "credited {credited:?} = {total} ms over {n} moves; the quota allows {most}"
    );
    assert!(
        credited[5..].iter().all(|&c| c <= quota.gain),
        "{credited:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn numbers_that_would_overflow_are_refused_and_the_room_keeps_its_clocks() {
    let dir = TempDir::new("overflow");
    let server = ServerProcess::sqlite(&dir, &[]);
    let clock = ClockSpec::Fischer {
        base_ms: 60_000,
        increment_ms: 0,
    };
    let (mut a, mut b, code) = two_players(&server, clock).await;
    one_move(&mut a, &mut b, None).await;
    let mv = first_legal(&position(&b)).to_string();
    b.send_text(&format!(
        r#"{{"type":"move","ply":1,"move":"{mv}","think_ms":9223372036854775808}}"#
    ))
    .await;
    let (code_, message, _) = b.error().await;
    assert_eq!(code_, ErrorCode::BadMessage);
    assert!(message.starts_with("think_ms"), "{message}");
    b.send_text(&format!(
        r#"{{"type":"join","code":"{code}","since":18446744073709551615}}"#
    ))
    .await;
    let (code_, message, _) = b.error().await;
    assert_eq!(code_, ErrorCode::BadMessage);
    assert!(message.starts_with("since"), "{message}");
    let mut w = Client::connect(&server.url(), "Watcher").await;
    w.send_text(&format!(
        r#"{{"type":"watch","code":"{code}","since":18446744073709551615}}"#
    ))
    .await;
    assert_eq!(w.error().await.0, ErrorCode::BadMessage);
    // The room lives on and its clocks were not reset: B's move is taken and charged.
    tokio::time::sleep(Duration::from_millis(300)).await;
    one_move(&mut b, &mut a, Some(250)).await;
    let clocks = a
        .events
        .iter()
        .rev()
        .find_map(|e| match &e.event {
            RoomEvent::Moved { clocks, .. } => clocks.clone(),
            _ => None,
        })
        .unwrap();
    assert!(clocks[1] < 60_000, "B was charged: {clocks:?}");
}

/// Whether a socket is closed by the server within `wait` (it reads the end, or an error).
async fn closed_within(stream: &mut tokio::net::TcpStream, wait: Duration) -> bool {
    use tokio::io::AsyncReadExt;
    let mut buf = [0u8; 256];
    loop {
        match tokio::time::timeout(wait, stream.read(&mut buf)).await {
            Err(_) => return false,
            Ok(Ok(0)) | Ok(Err(_)) => return true,
            Ok(Ok(_)) => {}
        }
    }
}

async fn tcp_from(addr: &str, from: &str) -> std::io::Result<tokio::net::TcpStream> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    socket.bind(format!("{from}:0").parse().unwrap())?;
    socket.connect(addr.parse().unwrap()).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_address_is_held_back_without_touching_another() {
    let dir = TempDir::new("addresses");
    let server = ServerProcess::sqlite(
        &dir,
        &[
            "--connections-per-address",
            "8",
            "--handshake-secs",
            "1",
            "--guests-per-minute",
            "5",
        ],
    );
    // Silent sockets are closed after the handshake time.
    let mut silent = Vec::new();
    for _ in 0..8 {
        silent.push(tcp_from(&server.addr, "127.0.0.2").await.unwrap());
    }
    // The address is full: a player from it is turned away, one from another is not.
    assert!(Client::raw_from(&server.url(), "127.0.0.2").await.is_err());
    let mut other = Client::connect_from(&server.url(), "127.0.0.3", "Cúc", None).await;
    assert_eq!(server.http("/health").0, 200);
    for s in &mut silent {
        assert!(
            closed_within(s, Duration::from_secs(5)).await,
            "a silent socket stays open"
        );
    }
    // A WebSocket that never says hello is closed too.
    let mut mute = Client::raw_from(&server.url(), "127.0.0.2").await.unwrap();
    let end = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match mute.next().await {
                None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
    assert!(end.is_ok(), "a connection without hello stays open");
    // Once they are closed the address has its places back: eight players.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let mut players = Vec::new();
    for i in 0..5 {
        players
            .push(Client::connect_from(&server.url(), "127.0.0.2", &format!("P{i}"), None).await);
    }
    // New guests from one address are limited; a known player still signs in.
    let ws = Client::raw_from(&server.url(), "127.0.0.2").await.unwrap();
    let mut sixth = Client::greet(ws, "P5", None).await;
    assert_eq!(sixth.error().await.0, ErrorCode::RateLimited);
    let again =
        Client::connect_from(&server.url(), "127.0.0.2", "P0", Some(&players[0].token)).await;
    assert_eq!(again.player.id, players[0].player.id);
    other.send(&ClientMessage::Lobby).await;
    other
        .until(|m| matches!(m, ServerMessage::Notice(Notice::Lobby { .. })).then_some(()))
        .await;
    let (_, metrics) = server.http("/metrics");
    assert!(
        metrics.contains("oaq_connections_turned_away_total{reason=\"address\"}"),
        "{metrics}"
    );
    assert!(metrics.contains("oaq_connections_turned_away_total{reason=\"handshake\"}"));
    assert!(
        metrics.contains("oaq_refusals_total{code=\"rate_limited\"} 1"),
        "{metrics}"
    );
}

async fn lobby(client: &mut Client) -> Vec<String> {
    client.send(&ClientMessage::Lobby).await;
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::Lobby { rooms, .. }) => {
                Some(rooms.iter().map(|r| r.code.clone()).collect())
            }
            _ => None,
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ghosts_leave_the_lobby_and_waiting_rooms_are_capped() {
    let dir = TempDir::new("ghosts");
    let server = ServerProcess::sqlite(
        &dir,
        &["--waiting-rooms-per-player", "3", "--rooms-per-minute", "5"],
    );
    let mut looker = Client::connect(&server.url(), "Looker").await;
    let mut host = Client::connect_from(&server.url(), "127.0.0.4", "Host", None).await;
    let token = host.token.clone();
    let code = host.create("basic", UNTIMED, First::Me, true).await;
    assert_eq!(lobby(&mut looker).await, vec![code.clone()]);
    // The creator's connection drops: the room is no longer offered to strangers.
    host.close().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert!(lobby(&mut looker).await.is_empty());
    // She comes back to it: it is offered again.
    let mut host = Client::connect_from(&server.url(), "127.0.0.4", "Host", Some(&token)).await;
    host.join(&code).await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    assert_eq!(lobby(&mut looker).await, vec![code.clone()]);
    // Rooms left behind one by one, each still held: three at most.
    for _ in 0..2 {
        host.close().await;
        host = Client::connect_from(&server.url(), "127.0.0.4", "Host", Some(&token)).await;
        host.create("basic", UNTIMED, First::Me, true).await;
    }
    host.close().await;
    let mut host = Client::connect_from(&server.url(), "127.0.0.4", "Host", Some(&token)).await;
    host.send(&ClientMessage::Create {
        rules: oaq_net::protocol::RulesChoice::Preset("basic".into()),
        clock: UNTIMED,
        first: First::Me,
        public: true,
    })
    .await;
    let (code_, message, _) = host.error().await;
    assert_eq!(code_, ErrorCode::NotAllowed, "{message}");
    assert!(message.contains("at most 3"), "{message}");
    // Another player from the same address: the address's rooms a minute run out.
    let mut second = Client::connect_from(&server.url(), "127.0.0.4", "Second", None).await;
    second.create("basic", UNTIMED, First::Me, false).await;
    second.create("basic", UNTIMED, First::Me, false).await;
    second
        .send(&ClientMessage::Create {
            rules: oaq_net::protocol::RulesChoice::Preset("basic".into()),
            clock: UNTIMED,
            first: First::Me,
            public: false,
        })
        .await;
    assert_eq!(second.error().await.0, ErrorCode::RateLimited);
    // Elsewhere nothing is held back.
    looker.create("basic", UNTIMED, First::Me, false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_guesser_does_not_lock_a_neighbour_out_and_binary_frames_are_counted() {
    let dir = TempDir::new("neighbour");
    let server = ServerProcess::sqlite(&dir, &["--misses-per-minute", "5"]);
    let url = server.url();
    let mut lan = Client::connect_from(&url, "127.0.0.5", "Lan", None).await;
    let token = lan.token.clone();
    let code = lan.create("basic", UNTIMED, First::Me, false).await;
    let mut other_room_host = Client::connect_from(&url, "127.0.0.6", "Mai", None).await;
    let other_code = other_room_host
        .create("basic", UNTIMED, First::Me, false)
        .await;
    let mut guesser = Client::connect_from(&url, "127.0.0.5", "Guess", None).await;
    for i in 0..5 {
        guesser
            .send(&ClientMessage::Join {
                code: format!("ZZZZZ{}", i + 2),
                since: None,
            })
            .await;
        assert_eq!(guesser.error().await.0, ErrorCode::NoSuchRoom);
    }
    guesser
        .send(&ClientMessage::Join {
            code: "ZZZZZ9".into(),
            since: None,
        })
        .await;
    assert_eq!(guesser.error().await.0, ErrorCode::RateLimited);
    // Past the limit a real code tells the guesser nothing either.
    guesser
        .send(&ClientMessage::Join {
            code: other_code.clone(),
            since: None,
        })
        .await;
    assert_eq!(guesser.error().await.0, ErrorCode::RateLimited);
    // Lan, behind the same router, gets back into her own room.
    lan.close().await;
    let mut lan = Client::connect_from(&url, "127.0.0.5", "Lan", Some(&token)).await;
    assert_eq!(lan.join(&code).await, Some(0));
    // Binary frames count against the message rate like any other.
    for _ in 0..200 {
        if guesser
            .ws
            .send(Message::binary(vec![1u8, 2, 3]))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut limited = 0;
    while let Some(msg) = guesser.try_next(Duration::from_secs(3)).await {
        if let ServerMessage::Notice(Notice::Error { code, .. }) = msg
            && code == ErrorCode::RateLimited
        {
            limited += 1;
        }
    }
    assert!(limited >= 40, "{limited} binary frames refused for rate");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watching_ones_own_game_then_leaving_lets_the_opponent_claim() {
    let dir = TempDir::new("watch-own");
    let server = ServerProcess::sqlite(&dir, &["--claim-after-secs", "1"]);
    let (mut a, mut b, code) = two_players(&server, UNTIMED).await;
    a.send(&ClientMessage::Watch {
        code: code.clone(),
        since: a.seen,
    })
    .await;
    assert_eq!(
        a.seat(&code).await,
        Some(0),
        "her own seat, not a spectator's"
    );
    a.close().await;
    b.event(|e| matches!(e, RoomEvent::Away { seat: 0, .. }).then_some(()))
        .await;
    tokio::time::sleep(Duration::from_millis(1_200)).await;
    b.send(&ClientMessage::Claim).await;
    let result = ended(&mut b).await;
    assert_eq!(result.cause, EndCause::Abandoned);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_does_not_count_the_servers_downtime() {
    let dir = TempDir::new("downtime");
    let mut server = ServerProcess::sqlite(&dir, &["--claim-after-secs", "3"]);
    let (a, mut b, code) = two_players(&server, UNTIMED).await;
    a.close().await;
    b.event(|e| matches!(e, RoomEvent::Away { seat: 0, .. }).then_some(()))
        .await;
    server.kill();
    tokio::time::sleep(Duration::from_secs(4)).await;
    server = server.restart();
    let mut b = Client::connect_as(&server.url(), "Bình", Some(&b.token)).await;
    b.join(&code).await;
    b.send(&ClientMessage::Claim).await;
    let (code_, message, _) = b.error().await;
    assert_eq!(code_, ErrorCode::NotAllowed, "{message}");
    tokio::time::sleep(Duration::from_millis(3_200)).await;
    b.send(&ClientMessage::Claim).await;
    assert_eq!(ended(&mut b).await.cause, EndCause::Abandoned);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn names_that_show_nothing_are_refused_and_bidi_controls_dropped() {
    let dir = TempDir::new("names");
    let server = ServerProcess::sqlite(&dir, &[]);
    for name in [
        "\u{200B}\u{200D}\u{FEFF}",
        "\u{202E}\u{2066}",
        "\u{E0041}\u{E0069}",
    ] {
        let mut ws = Client::raw(&server.url()).await;
        let hello = ClientMessage::Hello {
            protocol: oaq_net::protocol::PROTOCOL,
            name: name.into(),
            token: None,
            device: None,
            child: false,
            batches: false,
            then: 0,
        };
        ws.send(Message::text(serde_json::to_string(&hello).unwrap()))
            .await
            .unwrap();
        let reply = ws.next().await.unwrap().unwrap();
        let text = reply.into_text().unwrap();
        assert!(text.contains("bad_message"), "{name:?}: {text}");
    }
    let lan = Client::connect(&server.url(), "Lan\u{202E}gnaH").await;
    assert_eq!(lan.player.name, "LangnaH");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seeded_hostile_run_gets_only_protocol_answers_and_the_server_keeps_serving() {
    use oaq_server::hostile::{HostileArgs, run};
    let dir = TempDir::new("hostile");
    let server = ServerProcess::sqlite(&dir, &[]);
    let args = HostileArgs {
        url: server.url(),
        seed: 7,
        connections: 40,
        frames: 150,
        seconds: 30.0,
        people: false,
    };
    let report = run(&args).await;
    assert!(report.bad_answers.is_empty(), "{report}");
    assert_eq!(report.connections, 40, "{report}");
    assert!(report.frames_sent >= 40, "{report}");
    let codes: Vec<ErrorCode> = report.errors.iter().map(|(c, _)| *c).collect();
    for code in [
        ErrorCode::BadMessage,
        ErrorCode::TooLarge,
        ErrorCode::RateLimited,
    ] {
        assert!(codes.contains(&code), "no {code} in {report}");
    }
    // The server still serves: health, and a whole exchange between two players.
    assert_eq!(server.http("/health").0, 200);
    let (mut a, mut b, _) = two_players(&server, UNTIMED).await;
    one_move(&mut a, &mut b, None).await;
}

/// A WebSocket whose upgrade request says `X-Forwarded-For: forwarded`, from loopback.
async fn forwarded_hello(url: &str, forwarded: &str, name: &str) -> Client {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = url.into_client_request().unwrap();
    request
        .headers_mut()
        .insert("x-forwarded-for", forwarded.parse().unwrap());
    let (ws, _) = tokio_tungstenite::connect_async(request).await.unwrap();
    Client::greet(ws, name, None).await
}

/// Whether the client was welcomed (a new guest) or refused as rate limited.
async fn welcomed(client: &mut Client) -> bool {
    match client.next().await {
        ServerMessage::Notice(Notice::Welcome { .. }) => true,
        ServerMessage::Notice(Notice::Error { code, .. }) => {
            assert_eq!(code, ErrorCode::RateLimited);
            false
        }
        other => panic!("expected welcome or refusal, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn behind_a_trusted_proxy_each_client_is_its_forwarded_address_and_elsewhere_the_header_is_ignored()
 {
    // Behind nginx every connection comes from 127.0.0.1: the server counts new guests
    // against the address each request was forwarded for.
    let dir = TempDir::new("behind-proxy");
    let server = ServerProcess::sqlite(
        &dir,
        &[
            "--trusted-proxy",
            "127.0.0.1",
            "--guests-per-minute",
            "2",
            "--connections-per-address",
            "2",
        ],
    );
    let mut held = Vec::new();
    for name in ["A1", "A2"] {
        let mut c = forwarded_hello(&server.url(), "203.0.113.5", name).await;
        assert!(welcomed(&mut c).await, "{name}");
        held.push(c);
    }
    let mut third = forwarded_hello(&server.url(), "198.51.100.1, 203.0.113.5", "A3").await;
    assert!(
        !welcomed(&mut third).await,
        "a third new guest from one client a minute"
    );
    // Another client behind the same proxy is not held back, and the proxy's connections
    // are not held to the per-address cap (already three open, over its 2).
    let mut other = forwarded_hello(&server.url(), "203.0.113.6", "B1").await;
    assert!(welcomed(&mut other).await);

    // Without the flag, the header is a client's word and changes nothing.
    let dir = TempDir::new("no-proxy");
    let server = ServerProcess::sqlite(&dir, &["--guests-per-minute", "2"]);
    let mut results = Vec::new();
    for (i, forwarded) in ["203.0.113.7", "203.0.113.8", "203.0.113.9"]
        .iter()
        .enumerate()
    {
        let mut c = forwarded_hello(&server.url(), forwarded, &format!("C{i}")).await;
        results.push(welcomed(&mut c).await);
        held.push(c);
    }
    assert_eq!(results, [true, true, false], "each header a new address");
}

/// Every attack on the people features (`docs/security.md`), in parallel bursts against one
/// server with its default limits, as `oaq-server hostile --people` runs them: each holds.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn every_attack_on_the_people_features_is_held_in_parallel_bursts() {
    use oaq_server::hostile::{HostileArgs, run};
    let dir = TempDir::new("hostile-people");
    let server = ServerProcess::sqlite(&dir, &[]);
    let args = HostileArgs {
        url: server.url(),
        seed: 11,
        connections: 10,
        frames: 20,
        seconds: 30.0,
        people: true,
    };
    let report = run(&args).await;
    assert!(report.bad_answers.is_empty(), "{report}");
    assert_eq!(report.attacks.len(), 8, "{report}");
    assert!(report.attacks.iter().all(|a| a.held), "{report}");
    assert_eq!(server.http("/health").0, 200);
}
