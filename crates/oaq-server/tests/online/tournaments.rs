//! Tournaments against a real `oaq-server` with short minutes: an arena whose players are
//! paired again as soon as their games end, until it closes and its last games finish; a round
//! robin that starts by itself when its third player is in, played round by round to its
//! standings; a round robin by days, unrated and without chat, that waits for a player on
//! vacation; a Swiss whose
//! organiser begins each round;
//! and the refusals (a stranger's start, an id that does not exist, joining twice).

use oaq_net::protocol::{ClientMessage, ClockSpec, ErrorCode, Notice, RulesChoice, ServerMessage};
use oaq_net::tournament::{Format, TournamentStatus, TournamentView};
use oaq_testkit::*;

const THREE_TWO: ClockSpec = ClockSpec::Fischer {
    base_ms: 180_000,
    increment_ms: 2_000,
};

/// The next tournament page this client is sent.
pub(super) async fn page(client: &mut Client) -> TournamentView {
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::Tournament { view }) => Some(view.clone()),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("refused: {message}"),
            _ => None,
        })
        .await
}

/// Organise a tournament; its page.
async fn organise(client: &mut Client, format: Format) -> TournamentView {
    organise_for(client, format, None).await
}

/// Organise a tournament that starts by itself once `start_when` players are in; its page.
async fn organise_for(
    client: &mut Client,
    format: Format,
    start_when: Option<u32>,
) -> TournamentView {
    client
        .send(&ClientMessage::CreateTournament {
            name: "Lớp 4A".into(),
            rules: RulesChoice::Preset("standard".into()),
            clock: THREE_TWO,
            format,
            public: false,
            starts_ms: None,
            start_when,
            password: None,
            unrated: false,
            no_chat: false,
            bots: false,
        })
        .await;
    page(client).await
}

/// Play every game the tournament gives this client (the second mover resigns at once, so
/// every first mover wins) until it is over: its last page, and the rooms it played in.
async fn play_until_over(client: Client) -> (TournamentView, Vec<String>) {
    play_and_call_rounds(client, false, None).await
}

/// Where a player stops once: it says so, waits for the address of the node to come back
/// through (the test kills the one it was on meanwhile), and comes back there.
struct Handover {
    when: Pause,
    stopped: tokio::sync::oneshot::Sender<()>,
    come_back: tokio::sync::oneshot::Receiver<String>,
}

/// When a [`Handover`] happens.
#[derive(Clone, Copy, PartialEq)]
enum Pause {
    /// Between a Swiss's rounds: this one over, the next not begun (an organiser's).
    AfterRound(u32),
    /// At the first page once this many games were played (perhaps naming the next).
    AfterGames(usize),
}

/// Seated in `room`, resign at once as the second mover (every first mover wins), once per
/// connection (`done`): a resignation sent to a node lost meanwhile is sent again from the
/// next. Refusals are not this test's business here (an organiser's early start, a
/// resignation of a game already over). Pages that come meanwhile are kept for the caller:
/// one may be the last of a round.
async fn sit_in(
    client: &mut Client,
    room: String,
    rooms: &mut Vec<String>,
    done: &mut Vec<String>,
    pages: &mut Vec<TournamentView>,
) {
    if done.contains(&room) {
        return;
    }
    // A join whose answer is lost with a node (the room's, killed meanwhile) is asked again.
    let seat = loop {
        let since = client.seen;
        let join = ClientMessage::Join {
            code: room.clone(),
            since,
        };
        client.send(&join).await;
        let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(3);
        let mut seat = None;
        while seat.is_none() && tokio::time::Instant::now() < deadline {
            match client.try_next(std::time::Duration::from_millis(500)).await {
                Some(ServerMessage::Notice(Notice::Seat { code, seat: s })) if code == room => {
                    seat = Some(s);
                }
                Some(ServerMessage::Notice(Notice::Tournament { view })) => pages.push(view),
                _ => {}
            }
        }
        if let Some(seat) = seat {
            break seat.expect("a seat in the tournament's game");
        }
    };
    if !rooms.contains(&room) {
        rooms.push(room.clone());
    }
    done.push(room);
    if seat == 1 {
        client.send(&ClientMessage::Resign).await;
    }
}

/// As [`play_until_over`]; an `organiser` also begins each round once the last one's games
/// have all ended (asking early is refused, and changes nothing), and a `handover` moves the
/// player to another node. A game the page names that `paired` did not (a node lost between
/// opening the room and saying so) is played all the same.
async fn play_and_call_rounds(
    mut client: Client,
    organiser: bool,
    mut handover: Option<Handover>,
) -> (TournamentView, Vec<String>) {
    let (mut rooms, mut done, mut pages) = (Vec::new(), Vec::new(), Vec::new());
    // The organiser's last call of a round, and when: the answer to a call is a page that may
    // still show the round not begun, so a call is repeated no more than three times a second
    // (the server takes 20 messages a second from a connection).
    let mut called: Option<(u32, std::time::Instant)> = None;
    loop {
        // Pages kept while joining come first, in the order they came.
        let kept = (!pages.is_empty()).then(|| pages.remove(0));
        let msg = match kept {
            Some(view) => ServerMessage::Notice(Notice::Tournament { view }),
            None => client.next().await,
        };
        let view = match msg {
            ServerMessage::Notice(Notice::Paired { room }) => {
                sit_in(&mut client, room, &mut rooms, &mut done, &mut pages).await;
                continue;
            }
            ServerMessage::Notice(Notice::Tournament { view }) => view,
            _ => continue,
        };
        if view.line.status == TournamentStatus::Over {
            return (view, rooms);
        }
        let between_rounds = view.line.status == TournamentStatus::Running
            && view.round < view.rounds
            && view.standings.iter().all(|s| s.room.is_none());
        let due = handover.as_ref().is_some_and(|h| match h.when {
            Pause::AfterRound(round) => between_rounds && view.round == round,
            Pause::AfterGames(games) => rooms.len() >= games,
        });
        if due {
            let Handover {
                stopped, come_back, ..
            } = handover.take().unwrap();
            stopped.send(()).unwrap();
            let url = come_back.await.unwrap();
            let (name, token) = (client.player.name.clone(), client.token.clone());
            client = Client::connect_as(&url, &name, Some(&token)).await;
            done.clear();
            // The page as it is now, on the new connection.
            let id = view.line.id.clone();
            client.send(&ClientMessage::Tournament { id }).await;
            continue;
        }
        let me = client.player.id.clone();
        let mine = view.standings.iter().find(|s| s.player.id == me);
        if let Some(room) = mine.and_then(|s| s.room.clone()) {
            sit_in(&mut client, room, &mut rooms, &mut done, &mut pages).await;
            continue;
        }
        let recently = called.is_some_and(|(round, at)| {
            round == view.round && at.elapsed() < std::time::Duration::from_millis(300)
        });
        if organiser && between_rounds && !recently {
            called = Some((view.round, std::time::Instant::now()));
            let start = ClientMessage::StartTournament { id: view.line.id };
            client.send(&start).await;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_pairs_again_as_games_end_until_it_closes_and_ends_with_standings() {
    let dir = TempDir::new("arena");
    // A tournament minute is half a second: the ten-minute arena lasts five.
    let server = ServerProcess::sqlite(
        &dir,
        &[
            "--tournament-minute-secs",
            "0.5",
            "--tournament-tick-secs",
            "0.1",
        ],
    );
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    let arena = Format::Arena {
        minutes: 10,
        streaks: true,
    };
    let made = organise(&mut an, arena).await;
    assert_eq!(made.line.status, TournamentStatus::Open);
    assert!(made.joined, "the organiser takes part");
    let id = made.line.id.clone();
    let mut others = Vec::new();
    for name in ["Bình", "Chi", "Dũng"] {
        let mut c = Client::connect(&url, name).await;
        c.send(&ClientMessage::JoinTournament {
            id: id.clone(),
            password: None,
        })
        .await;
        let view = page(&mut c).await;
        assert!(view.joined);
        others.push(c);
    }
    // Joining twice, a stranger's start and an id that is not there: refused, nothing changed.
    let twice = others[0]
        .refused(
            ClientMessage::JoinTournament {
                id: id.clone(),
                password: None,
            },
            ErrorCode::NotAllowed,
        )
        .await;
    assert!(twice.contains("already"), "{twice}");
    let start = ClientMessage::StartTournament { id: id.clone() };
    let stranger = others[1]
        .refused(start.clone(), ErrorCode::NotAllowed)
        .await;
    assert!(stranger.contains("organiser"), "{stranger}");
    let unknown = ClientMessage::JoinTournament {
        id: "ZZZZZZZZ".into(),
        password: None,
    };
    others[2]
        .refused(unknown, ErrorCode::NoSuchTournament)
        .await;

    an.send(&start).await;
    let mut players = vec![tokio::spawn(play_until_over(an))];
    players.extend(others.into_iter().map(|c| tokio::spawn(play_until_over(c))));
    let mut rooms = Vec::new();
    let mut last = None;
    for p in players {
        let (view, played) = tokio::time::timeout(std::time::Duration::from_secs(60), p)
            .await
            .expect("the arena ends")
            .expect("a player");
        rooms.push(played);
        last = Some(view);
    }
    let view = last.unwrap();
    assert_eq!(view.standings.len(), 4);
    // Each game was in two players' lists; everyone played, and more than once.
    let games: u32 = view.standings.iter().map(|s| s.games).sum();
    let played: usize = rooms.iter().map(Vec::len).sum();
    assert_eq!(games as usize, played);
    assert!(rooms.iter().all(|r| r.len() >= 2), "{rooms:?}");
    assert!(
        view.standings
            .windows(2)
            .all(|w| w[0].points >= w[1].points),
        "standings in order: {:?}",
        view.standings
    );
    // Every game was won by its first mover: two points each (four on a streak).
    let points: f64 = view.standings.iter().map(|s| s.points).sum();
    assert!(
        points >= f64::from(games),
        "{points} for {games} game places"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_is_played_round_by_round_to_its_standings() {
    let dir = TempDir::new("round-robin");
    let server = ServerProcess::sqlite(&dir, &["--tournament-tick-secs", "0.1"]);
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    // It starts by itself when its third player is in.
    let made = organise_for(&mut an, Format::RoundRobin { twice: false }, Some(3)).await;
    assert_eq!(made.line.start_when, 3);
    let id = made.line.id.clone();
    let mut others = Vec::new();
    for name in ["Bình", "Chi"] {
        let mut c = Client::connect(&url, name).await;
        c.send(&ClientMessage::JoinTournament {
            id: id.clone(),
            password: None,
        })
        .await;
        page(&mut c).await;
        others.push(c);
    }
    let mut players = vec![tokio::spawn(play_until_over(an))];
    players.extend(others.into_iter().map(|c| tokio::spawn(play_until_over(c))));
    let mut last = None;
    for p in players {
        let (view, rooms) = tokio::time::timeout(std::time::Duration::from_secs(60), p)
            .await
            .expect("the round robin ends")
            .expect("a player");
        // Three players: two games each, one round resting.
        assert_eq!(rooms.len(), 2);
        last = Some(view);
    }
    let view = last.unwrap();
    assert_eq!((view.round, view.rounds), (3, 3));
    let mut points: Vec<f64> = view.standings.iter().map(|s| s.points).collect();
    points.sort_by(f64::total_cmp);
    // Berger's table for three: each moves first once, and the first mover always won.
    assert_eq!(points, [1.0, 1.0, 1.0]);
    assert!(view.standings.iter().all(|s| s.games == 2));
    // The results for a spreadsheet: every player, with a byte-order mark for the names.
    let (status, csv) = server.http(&format!("/tournaments/{id}/results.csv"));
    assert_eq!(status, 200, "{csv}");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "\u{feff}place,name,points,buchholz,sonneborn_berger,games,status"
    );
    assert_eq!(lines.len(), 4, "{csv}");
    for name in ["An", "Bình", "Chi"] {
        assert!(csv.contains(&format!(",{name},1,")), "{csv}");
    }
    let (status, _) = server.http("/tournaments/ZZZZZZZZ/results.csv");
    assert_eq!(status, 404);
}

/// The first page of tournament `id` that shows round `round` with its games' rooms.
async fn round_begun(client: &mut Client, round: u32) -> TournamentView {
    loop {
        let view = page(client).await;
        let rooms = view.standings.iter().filter(|s| s.room.is_some()).count();
        if view.round == round && rooms == 2 {
            return view;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_by_days_waits_for_a_player_on_vacation() {
    // A day is 4 s here.
    const DAY_MS: u64 = 4_000;
    let dir = TempDir::new("round-robin-days");
    let server = ServerProcess::sqlite(
        &dir,
        &[
            "--day-secs",
            "4",
            "--vacation-days",
            "3",
            "--tournament-tick-secs",
            "0.1",
        ],
    );
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    an.send(&ClientMessage::CreateTournament {
        name: "Nhà bà ngoại".into(),
        rules: RulesChoice::Preset("standard".into()),
        clock: ClockSpec::Correspondence { days: 1 },
        format: Format::RoundRobin { twice: false },
        public: false,
        starts_ms: None,
        start_when: Some(3),
        password: None,
        unrated: true,
        no_chat: true,
        bots: false,
    })
    .await;
    let line = page(&mut an).await.line;
    assert!(line.unrated && line.no_chat, "{line:?}");
    let id = line.id;
    let mut clients = vec![an];
    for name in ["Bình", "Chi"] {
        let mut c = Client::connect(&url, name).await;
        let join = ClientMessage::JoinTournament {
            id: id.clone(),
            password: None,
        };
        c.send(&join).await;
        page(&mut c).await;
        clients.push(c);
    }

    // The first round: two of the three play; the one to move second takes two days off once
    // the first has moved.
    let view = round_begun(&mut clients[0], 1).await;
    let playing: Vec<(usize, String)> = view
        .standings
        .iter()
        .filter_map(|s| {
            let at = clients.iter().position(|c| c.player.id == s.player.id)?;
            Some((at, s.room.clone()?))
        })
        .collect();
    let room = playing[0].1.clone();
    let mut seats = [None, None];
    for (at, _) in &playing {
        let seat = clients[*at].join(&room).await.expect("a seat");
        seats[seat] = Some(*at);
    }
    let (first, second) = (seats[0].unwrap(), seats[1].unwrap());
    let mut pos = oaq_rules::Position::new(oaq_rules::presets::get("standard").unwrap().rules);
    clients[first].move_in(&mut pos, 1).await;
    let (games, vacation) = clients[second].vacation(2).await;
    assert!(vacation.until_ms.is_some(), "{vacation:?}");
    let game = games
        .iter()
        .find(|g| g.code == room)
        .expect("the game in my games");
    assert!(game.paused && game.your_turn, "{game:?}");
    let left = game.left_ms.unwrap();

    // More than a day passes: the game waits, its clock stopped, and the round with it.
    tokio::time::sleep(std::time::Duration::from_millis(DAY_MS + 2_000)).await;
    let (games, _) = clients[first].my_games().await;
    let game = games.iter().find(|g| g.code == room).expect("still played");
    assert!(game.paused && game.left_ms == Some(left), "{game:?}");
    clients[0]
        .send(&ClientMessage::Tournament { id: id.clone() })
        .await;
    let now = page(&mut clients[0]).await;
    assert_eq!(now.round, 1, "the next round waits for the game");
    assert!(now.standings.iter().all(|s| s.games == 0), "no result yet");

    // Back from vacation; no chat in this tournament's games; they resign, and nobody's rating
    // changes. Then the other two rounds are played to the end.
    let (games, _) = clients[second].vacation(0).await;
    assert!(games.iter().any(|g| g.code == room && !g.paused));
    let chat = ClientMessage::Chat {
        phrase: oaq_net::social::Phrase::GoodLuck,
    };
    let why = clients[second].refused(chat, ErrorCode::NotAllowed).await;
    assert!(why.contains("no chat"), "{why}");
    clients[second].send(&ClientMessage::Resign).await;
    let (cause, ratings) = clients[first]
        .event(|e| match e {
            oaq_net::protocol::RoomEvent::Ended {
                result, ratings, ..
            } => Some((result.cause, ratings.len())),
            _ => None,
        })
        .await;
    assert_eq!(
        (cause, ratings),
        (oaq_net::protocol::EndCause::Resign, 0),
        "an unrated game"
    );
    let players: Vec<_> = clients
        .into_iter()
        .map(|c| tokio::spawn(play_until_over(c)))
        .collect();
    for p in players {
        let (view, _) = tokio::time::timeout(std::time::Duration::from_secs(60), p)
            .await
            .expect("the round robin ends")
            .expect("a player");
        assert_eq!((view.round, view.rounds), (3, 3));
        assert!(view.standings.iter().all(|s| s.games == 2), "{view:?}");
        let total: f64 = view.standings.iter().map(|s| s.points).sum();
        assert_eq!(total, 3.0, "three games, each won: {view:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_is_played_round_by_round_as_its_organiser_begins_them() {
    let dir = TempDir::new("swiss");
    let server = ServerProcess::sqlite(&dir, &["--tournament-tick-secs", "0.1"]);
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    let swiss = Format::Swiss {
        rounds: 3,
        interval_secs: None,
    };
    let made = organise(&mut an, swiss).await;
    assert_eq!((made.round, made.rounds), (0, 3));
    let id = made.line.id.clone();
    let mut others = Vec::new();
    for name in ["Bình", "Chi", "Dũng", "Em"] {
        let mut c = Client::connect(&url, name).await;
        c.send(&ClientMessage::JoinTournament {
            id: id.clone(),
            password: None,
        })
        .await;
        page(&mut c).await;
        others.push(c);
    }
    // Bình and Chi are siblings: only the organiser keeps them apart, and only players in it.
    let siblings = [others[0].player.id.clone(), others[1].player.id.clone()];
    let apart = |players: [String; 2]| ClientMessage::KeepApart {
        id: id.clone(),
        players,
        apart: true,
    };
    let stranger = others[2]
        .refused(apart(siblings.clone()), ErrorCode::NotAllowed)
        .await;
    assert!(stranger.contains("organiser"), "{stranger}");
    let unknown = [siblings[0].clone(), "nobody".into()];
    let unknown = an.refused(apart(unknown), ErrorCode::NotAllowed).await;
    assert!(unknown.contains("no such player"), "{unknown}");
    an.send(&apart(siblings)).await;
    page(&mut an).await;
    // Only the organiser begins a round; the first begins with the tournament.
    let start = ClientMessage::StartTournament { id: id.clone() };
    let stranger = others[0]
        .refused(start.clone(), ErrorCode::NotAllowed)
        .await;
    assert!(stranger.contains("organiser"), "{stranger}");
    an.send(&start).await;
    let mut players = vec![tokio::spawn(play_and_call_rounds(an, true, None))];
    players.extend(others.into_iter().map(|c| tokio::spawn(play_until_over(c))));
    five_in_three_rounds(players).await;
}

/// The end of a Swiss of five players over three rounds, each player's task giving its last
/// page and its rooms: every round played once, a bye each round.
async fn five_in_three_rounds(
    players: Vec<tokio::task::JoinHandle<(TournamentView, Vec<String>)>>,
) {
    let mut rooms: Vec<String> = Vec::new();
    let mut last = None;
    for p in players {
        let (view, played) = tokio::time::timeout(std::time::Duration::from_secs(60), p)
            .await
            .expect("the Swiss ends")
            .expect("a player");
        // Two or three games each (at most one bye).
        assert!((2..=3).contains(&played.len()), "{played:?}");
        rooms.extend(played);
        last = Some(view);
    }
    let view = last.unwrap();
    assert_eq!((view.round, view.rounds), (3, 3));
    // Two games a round, each in two players' lists; a bye a round, a point each.
    rooms.sort();
    rooms.dedup();
    assert_eq!(rooms.len(), 6);
    let games: u32 = view.standings.iter().map(|s| s.games).sum();
    assert_eq!(games, 12, "two places a game");
    let points: f64 = view.standings.iter().map(|s| s.points).sum();
    assert_eq!(points, 9.0);
}

type Player = tokio::task::JoinHandle<(TournamentView, Vec<String>)>;

/// A tournament of `format` on two nodes sharing a PostgreSQL and a Redis, each tournament
/// minute half a second: made by An on node one while it is alone (node one runs it from its
/// first look), joined by `others` on node two, started, and node one lost (SIGKILL) once An
/// reaches `pause`; An comes back through node two. The players' tasks, An's first.
async fn losing_the_running_node(format: Format, others: &[&str], pause: Pause) -> Vec<Player> {
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
            "--tournament-tick-secs",
            "0.1",
            "--tournament-minute-secs",
            "0.5",
        ])
    };
    let mut one = node("one");
    let mut an = Client::connect(&one.url(), "An").await;
    let id = organise(&mut an, format).await.line.id;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    let two = node("two");
    let mut joined = Vec::new();
    for name in others {
        let mut c = Client::connect(&two.url(), name).await;
        c.send(&ClientMessage::JoinTournament {
            id: id.clone(),
            password: None,
        })
        .await;
        page(&mut c).await;
        joined.push(c);
    }
    an.send(&ClientMessage::StartTournament { id: id.clone() })
        .await;
    let (stopped, at_rest) = tokio::sync::oneshot::channel();
    let (back, come_back) = tokio::sync::oneshot::channel();
    let handover = Handover {
        when: pause,
        stopped,
        come_back,
    };
    let mut players = vec![tokio::spawn(play_and_call_rounds(an, true, Some(handover)))];
    players.extend(joined.into_iter().map(|c| tokio::spawn(play_until_over(c))));
    tokio::time::timeout(std::time::Duration::from_secs(30), at_rest)
        .await
        .expect("An reaches the pause")
        .unwrap();
    one.kill();
    back.send(two.url()).unwrap();
    // The servers stop when the test ends: the players' tasks must be done by then.
    let mut done = Vec::new();
    for p in players {
        let ended = tokio::time::timeout(std::time::Duration::from_secs(60), p)
            .await
            .expect("the tournament ends")
            .expect("a player");
        done.push(tokio::spawn(async move { ended }));
    }
    done
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_swiss_goes_on_when_the_node_running_it_is_lost_between_rounds() {
    let swiss = Format::Swiss {
        rounds: 3,
        interval_secs: None,
    };
    let others = ["Bình", "Chi", "Dũng", "Em"];
    let players = losing_the_running_node(swiss, &others, Pause::AfterRound(1)).await;
    five_in_three_rounds(players).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_goes_on_when_the_node_running_it_is_lost_midway() {
    let round_robin = Format::RoundRobin { twice: false };
    let others = ["Bình", "Chi", "Dũng"];
    let players = losing_the_running_node(round_robin, &others, Pause::AfterGames(1)).await;
    let mut rooms = Vec::new();
    let mut last = None;
    for p in players {
        let (view, played) = p.await.unwrap();
        // Four players: three games each, every pair once.
        assert_eq!(played.len(), 3, "{played:?}");
        rooms.extend(played);
        last = Some(view);
    }
    rooms.sort();
    rooms.dedup();
    assert_eq!(rooms.len(), 6, "each game once");
    let view = last.unwrap();
    assert_eq!((view.round, view.rounds), (3, 3));
    let points: f64 = view.standings.iter().map(|s| s.points).sum();
    assert_eq!(points, 6.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_arena_goes_on_when_the_node_running_it_is_lost_midway() {
    let arena = Format::Arena {
        minutes: 10,
        streaks: false,
    };
    let others = ["Bình", "Chi", "Dũng"];
    let players = losing_the_running_node(arena, &others, Pause::AfterGames(2)).await;
    let mut places = 0;
    let mut last = None;
    for p in players {
        let (view, played) = p.await.unwrap();
        places += played.len();
        last = Some(view);
    }
    let view = last.unwrap();
    let games: u32 = view.standings.iter().map(|s| s.games).sum();
    assert_eq!(games as usize, places, "every game played counted, once");
    // Without streaks every game is worth two points to its winner.
    let points: f64 = view.standings.iter().map(|s| s.points).sum();
    assert_eq!(points, f64::from(games));
    assert!(
        view.standings.iter().all(|s| s.games >= 2),
        "{:?}",
        view.standings
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_with_a_password_lets_in_whoever_has_it_and_the_friends_invited() {
    let dir = TempDir::new("tournament-password");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    an.send(&ClientMessage::CreateTournament {
        name: "Câu lạc bộ".into(),
        rules: RulesChoice::Preset("standard".into()),
        clock: THREE_TWO,
        format: Format::Arena {
            minutes: 30,
            streaks: true,
        },
        public: true,
        starts_ms: None,
        start_when: None,
        password: Some("  cá vàng ".into()),
        unrated: false,
        no_chat: false,
        bots: false,
    })
    .await;
    let made = page(&mut an).await;
    assert!(made.line.password, "the line says a password is asked");
    let id = made.line.id.clone();
    let join = |password: Option<&str>| ClientMessage::JoinTournament {
        id: id.clone(),
        password: password.map(str::to_owned),
    };
    // Without it, or with a wrong one: refused by name, and nothing changed.
    let mut binh = Client::connect(&url, "Bình").await;
    let none = binh.refused(join(None), ErrorCode::NotAllowed).await;
    assert!(none.contains("password"), "{none}");
    let wrong = binh
        .refused(join(Some("cá bạc")), ErrorCode::NotAllowed)
        .await;
    assert!(wrong.contains("not the tournament's password"), "{wrong}");
    binh.send(&ClientMessage::Tournament { id: id.clone() })
        .await;
    assert!(!page(&mut binh).await.joined);
    // With it (as typed, spaces around it left out): in.
    binh.send(&join(Some("cá vàng"))).await;
    assert!(page(&mut binh).await.joined);

    // Chi is invited once she is An's friend, and joins without it; a stranger is not.
    let mut chi = Client::connect(&url, "Chi").await;
    let invite = ClientMessage::InviteToTournament {
        id: id.clone(),
        player: chi.player.id.clone(),
    };
    let stranger = an.refused(invite.clone(), ErrorCode::NoSuchPlayer).await;
    assert!(stranger.contains("friends"), "{stranger}");
    let by_binh = binh.refused(invite.clone(), ErrorCode::NotAllowed).await;
    assert!(by_binh.contains("organiser"), "{by_binh}");
    super::people::befriend(&mut an, &mut chi).await;
    an.send(&invite).await;
    page(&mut an).await;
    let (from, line) = chi
        .until(|m| match m {
            ServerMessage::Notice(Notice::TournamentInvite { from, line }) => {
                Some((from.name.clone(), line.clone()))
            }
            _ => None,
        })
        .await;
    assert_eq!((from.as_str(), line.id.as_str()), ("An", id.as_str()));
    chi.send(&join(None)).await;
    assert!(page(&mut chi).await.joined);

    // Guessing passwords counts against the address, as guessing codes does.
    let mut dung = Client::connect(&url, "Dũng").await;
    let mut limited = false;
    for i in 0..25 {
        let guess = join(Some(&format!("đoán {i}")));
        dung.send(&guess).await;
        let code = dung
            .until(|m| match m {
                ServerMessage::Notice(Notice::Error { code, .. }) => Some(*code),
                _ => None,
            })
            .await;
        limited |= code == ErrorCode::RateLimited;
    }
    assert!(limited, "25 wrong passwords in a row from one address");
}
