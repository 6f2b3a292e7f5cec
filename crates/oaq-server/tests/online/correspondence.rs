//! Correspondence games against a real `oaq-server` whose day is shortened to a few seconds:
//! turn order and "My games", "your turn" to a player who is not at the board, vacations that
//! stop the clocks of that player's games only (and end by themselves), a loss on time, the
//! per-player cap, and a server killed in the middle keeping every clock.

use std::time::{Duration, Instant};

use oaq_net::correspondence::{MyGame, Vacation};
use oaq_net::protocol::{
    ClientMessage, ClockSpec, EndCause, ErrorCode, First, Notice, RoomEvent, ServerMessage,
};
use oaq_rules::{Position, presets};
use oaq_testkit::*;

/// The server's day, in ms.
const DAY: i64 = 4_000;
const CORRESPONDENCE: ClockSpec = ClockSpec::Correspondence { days: 1 };

fn game<'a>(games: &'a [MyGame], code: &str) -> &'a MyGame {
    games
        .iter()
        .find(|g| g.code == code)
        .unwrap_or_else(|| panic!("{code} not in {games:?}"))
}

/// Two players in a correspondence game that has begun; `first` moves first.
async fn begin(first: &mut Client, second: &mut Client) -> String {
    let code = first
        .create("basic", CORRESPONDENCE, First::Me, false)
        .await;
    second.join(&code).await;
    for c in [&mut *first, &mut *second] {
        c.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
            .await;
    }
    code
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn correspondence_games_keep_their_days_through_vacations_and_a_restart() {
    let dir = TempDir::new("correspondence");
    let server = ServerProcess::sqlite(
        &dir,
        &[
            "--day-secs",
            "4",
            "--vacation-days",
            "3",
            "--correspondence-per-player",
            "2",
        ],
    );
    let url = server.url();
    let mut ba = Client::connect(&url, "Bà").await;
    let mut minh = Client::connect(&url, "Minh").await;
    let mut chi = Client::connect(&url, "Chi").await;
    let mut dung = Client::connect(&url, "Dũng").await;
    let rules = presets::get("basic").unwrap().rules;

    // Turn order and the lists: hers to move, his to wait; a day each.
    let code = begin(&mut ba, &mut minh).await;
    let mut pos = Position::new(rules);
    let (games, vacation) = ba.my_games().await;
    let g = game(&games, &code);
    assert!(
        g.your_turn && !g.paused && g.days == 1 && g.opponent == "Minh",
        "{g:?}"
    );
    assert!((DAY - 1_000..=DAY).contains(&g.left_ms.unwrap()), "{g:?}");
    assert_eq!(
        vacation,
        Vacation {
            until_ms: None,
            left_ms: 3 * DAY,
            day_ms: DAY
        }
    );
    let (games, _) = minh.my_games().await;
    assert!(!game(&games, &code).your_turn);

    // He leaves the board; her move reaches him as "your turn" wherever he is.
    minh.send(&ClientMessage::Leave).await;
    minh.until(|m| matches!(m, ServerMessage::Notice(Notice::Left { .. })).then_some(()))
        .await;
    ba.move_in(&mut pos, 2).await;
    let told = minh
        .until(|m| match m {
            ServerMessage::Notice(Notice::YourTurn { code }) => Some(code.clone()),
            _ => None,
        })
        .await;
    assert_eq!(told, code);
    let (games, _) = minh.my_games().await;
    assert!(game(&games, &code).your_turn && game(&games, &code).moves == 1);
    minh.join(&code).await;
    minh.move_in(&mut pos, 2).await;
    ba.event(|e| matches!(e, RoomEvent::Moved { ply: 1, .. }).then_some(()))
        .await;

    // The cap: a second game waiting is hers to have, a third is not, and nothing changes.
    let waiting = ba.create("basic", CORRESPONDENCE, First::Me, false).await;
    let why = ba
        .refused(
            ClientMessage::Create {
                rules: oaq_net::protocol::RulesChoice::Preset("basic".into()),
                clock: CORRESPONDENCE,
                first: First::Me,
                public: false,
            },
            ErrorCode::NotAllowed,
        )
        .await;
    assert!(why.contains("2 correspondence games"), "{why}");
    let (games, _) = ba.my_games().await;
    assert_eq!(games.len(), 2, "{games:?}");
    assert_eq!(games[0].code, code, "hers to move first: {games:?}");
    assert!(games[1].left_ms.is_none() && games[1].code == waiting);

    // A vacation longer than what is left is refused; two days of three are taken.
    let why = ba
        .refused(ClientMessage::Vacation { days: 5 }, ErrorCode::NotAllowed)
        .await;
    assert!(why.contains("5 days"), "{why}");
    let other = begin(&mut chi, &mut dung).await;
    // (Past the first two moves: a game not begun in time is aborted, not lost.)
    let mut theirs = Position::new(rules);
    chi.move_in(&mut theirs, 2).await;
    dung.move_in(&mut theirs, 2).await;
    let (games, vacation) = ba.vacation(2).await;
    assert!(game(&games, &code).paused);
    assert!(vacation.until_ms.is_some() && vacation.left_ms == DAY);
    let left = game(&games, &code).left_ms.unwrap();

    // A day and more passes: her game with him stands still, the others' game runs out.
    let result = ended(&mut chi).await;
    assert_eq!(
        (result.cause, result.by),
        (EndCause::Time, Some(0)),
        "Chi moved first"
    );
    tokio::time::sleep(Duration::from_millis(300)).await;
    let (games, _) = minh.my_games().await;
    let g = game(&games, &code);
    assert!(
        g.paused && g.left_ms == Some(left),
        "both clocks stopped: {g:?}"
    );
    assert!(!games.iter().any(|g| g.code == other), "{games:?}");

    // She comes back early: the clock runs on from where it stopped, and the unused days of
    // the vacation are returned.
    let (games, vacation) = ba.vacation(0).await;
    let g = game(&games, &code);
    assert!(!g.paused && g.left_ms.unwrap() <= left, "{g:?}");
    assert!(vacation.until_ms.is_none());
    assert!(
        vacation.left_ms > DAY && vacation.left_ms < 3 * DAY,
        "{vacation:?}"
    );
    // (Opening the second game took her from the first's board: back to it.)
    ba.seen = None;
    ba.join(&code).await;
    ba.move_in(&mut pos, 2).await;

    // His vacation of a day ends by itself and his clock runs again.
    let (games, _) = minh.vacation(1).await;
    assert!(game(&games, &code).paused);
    tokio::time::sleep(Duration::from_millis((DAY + 1_500) as u64)).await;
    let (games, vacation) = minh.my_games().await;
    let g = game(&games, &code);
    assert!(
        vacation.until_ms.is_none() && !g.paused && g.your_turn,
        "{vacation:?} {g:?}"
    );
    minh.move_in(&mut pos, 2).await;
    ba.event(|e| matches!(e, RoomEvent::Moved { ply: 3, .. }).then_some(()))
        .await;

    // Killed in the middle of her move: the restarted server keeps her clock running from
    // the same start, and her day runs out when it would have.
    let (games, _) = ba.my_games().await;
    let before = game(&games, &code).left_ms.unwrap();
    let asked = Instant::now();
    let token = ba.token.clone();
    let mut server = server;
    server.kill();
    let server = server.restart();
    let mut ba = Client::connect_as(&server.url(), "Bà", Some(&token)).await;
    let (games, _) = ba.my_games().await;
    let after = game(&games, &code).left_ms.unwrap();
    let passed = asked.elapsed().as_millis() as i64;
    assert!(
        after <= before - passed + 100 && after > 0,
        "{before} ms left, {passed} ms passed, {after} ms left after the restart"
    );
    ba.join(&code).await;
    let result = ended(&mut ba).await;
    assert_eq!(result.cause, EndCause::Time);
    let seat = ba.events.iter().find_map(|e| match &e.event {
        RoomEvent::Seated { seat, player } if player.id == ba.player.id => Some(*seat),
        _ => None,
    });
    assert_eq!(result.by, seat, "hers was the move");
    let (games, _) = ba.my_games().await;
    assert!(
        !games.iter().any(|g| g.code == code),
        "ended games leave the list"
    );
}
