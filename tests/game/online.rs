//! Online play through the game's own plugins: Bevy apps (two players and a spectator) talking
//! to a real `oaq-server` on loopback, moves made as a player makes them, the opponent's moves
//! animated, a dropped connection taken back with the clocks right, resigning and a rematch.

use crate::headless;
use oaq_testkit as online;

use std::time::{Duration, Instant};

use bevy::prelude::*;
use headless::{app_with, assert_sprites_match, phase, pos, press_button};
use o_an_quan::game::layout::Layout;
use o_an_quan::game::online::client::{
    Ask, Connection, Correspondence, Identity, InRoom, Lobby, Online,
};
use o_an_quan::game::online::link::Link;
use o_an_quan::game::online::social::People;
use o_an_quan::game::online::table::OnBoard;
use o_an_quan::game::online::tournaments::Tournaments;
use o_an_quan::game::state::{Files, PlayMove};
use o_an_quan::game::{Game, Launch, Phase, Screen};
use o_an_quan::net::protocol::{ClockSpec, EndCause, First};
use o_an_quan::net::room::{self, RoomState};
use o_an_quan::session::{Settings, Speed, Storage};
use online::{ServerProcess, TempDir};

/// A player's game: its settings name the server, its token lives in `home`.
fn player(server: &ServerProcess, name: &str, home: &TempDir) -> App {
    let settings = Settings {
        name: name.to_owned(),
        server: server.url(),
        speed: Speed::Fast,
        seen_intro: true,
        child: Some(false),
        ..Settings::default()
    };
    let files = Files {
        config: Storage::at(home.path().join(name)),
        data: Storage::at(home.path().join(name)),
    };
    let mut app = app_with(settings, Launch::default(), Some(files));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Online);
    app.update();
    app
}

/// Frames for every app (and a little real time for the sockets) until `done`.
fn run_until(apps: &mut [&mut App], what: &str, done: impl Fn(&[&mut App]) -> bool) {
    let deadline = Instant::now() + online::PATIENCE;
    while !done(apps) {
        assert!(Instant::now() < deadline, "not in time: {what}");
        for app in apps.iter_mut() {
            app.update();
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

fn online(app: &App) -> Online<'_> {
    Online::of(app.world())
}

fn state(app: &App) -> Option<&RoomState> {
    online(app).in_room.state()
}

fn code(app: &App) -> Option<String> {
    online(app).in_room.room.as_ref().map(|r| r.code.clone())
}

/// The board shows room `code`'s game, with every move the server has, and nothing moving.
fn settled(app: &App, code: &str) -> bool {
    let on_board = app.world().resource::<OnBoard>();
    let Some(state) = state(app) else {
        return false;
    };
    on_board.code.as_deref() == Some(code)
        && *app.world().resource::<State<Screen>>().get() == Screen::Playing
        && phase(app) != Phase::Animating
        && app.world().resource::<Game>().history.entries().len() == state.moves.len()
        && online(app)
            .in_room
            .room
            .as_ref()
            .is_some_and(|r| r.pending.is_none())
}

/// The side the app's player plays now, if it is to move.
fn to_move(app: &App) -> bool {
    let game = app.world().resource::<Game>();
    phase(app) == Phase::Waiting && game.human_to_move()
}

/// Whoever is to move plays their first legal move, as a click would; then every app settles
/// on it, each other board showing it move by move. Returns which app moved.
fn one_move(apps: &mut [&mut App], code: &str) -> usize {
    let mover = (0..2)
        .find(|&i| to_move(apps[i]))
        .expect("one of the players is to move");
    let mv = pos(apps[mover]).legal_moves()[0];
    apps[mover].world_mut().trigger(PlayMove(mv));
    let before = state(apps[mover]).unwrap().moves.len();
    let mut animated = vec![false; apps.len()];
    let deadline = Instant::now() + online::PATIENCE;
    while !apps
        .iter()
        .all(|a| settled(a, code) && state(a).unwrap().moves.len() == before + 1)
    {
        assert!(
            Instant::now() < deadline,
            "the move did not reach every board"
        );
        for (i, app) in apps.iter_mut().enumerate() {
            app.update();
            animated[i] |= phase(app) == Phase::Animating;
            if std::env::var("OAQ_DEBUG").is_ok() {
                eprintln!(
                    "app {i}: {:?} moves {} server {:?}",
                    phase(app),
                    app.world().resource::<Game>().history.entries().len(),
                    state(app).map(|s| s.moves.len())
                );
            }
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    assert!(
        animated.iter().all(|&a| a),
        "the move is animated on every board, the mover's and the others' ({animated:?})"
    );
    // A screen reader hears the opponent's move at the other player's board.
    let other = 1 - mover;
    let heard = &apps[other]
        .world()
        .resource::<o_an_quan::game::access::announce::Announcer>()
        .recent;
    assert!(
        heard
            .iter()
            .any(|s| s.contains("Your opponent sowed your opponent's pit")),
        "{heard:?}"
    );
    mover
}

/// `app`'s player opens a room (moving first) and waits in it: its code.
fn open_room(app: &mut App, preset: &str, clock: ClockSpec, public: bool) -> String {
    open_room_with(app, preset, false, clock, public)
}

/// The same, with the winning-score switch as given.
fn open_room_with(
    app: &mut App,
    preset: &str,
    majority: bool,
    clock: ClockSpec,
    public: bool,
) -> String {
    app.world_mut().trigger(Ask::Create {
        preset: preset.into(),
        majority,
        clock,
        first: First::Me,
        public,
    });
    run_until(&mut [&mut *app], "the waiting room", |apps| {
        state(apps[0]).is_some_and(|s| s.phase == room::Phase::Waiting)
    });
    code(app).unwrap()
}

/// The board and its sprites are the server's game.
fn check_board(app: &mut App) {
    let server_pos = state(app).unwrap().pos;
    assert_eq!(pos(app), server_pos, "the board is the server's position");
    assert_sprites_match(app);
}

#[test]
fn an_online_game_through_the_plugins_with_a_reconnection_a_resignation_and_a_rematch() {
    let dir = TempDir::new("game-online");
    let server = ServerProcess::sqlite(&dir, &[]);
    let mut ana = player(&server, "Ana", &dir);
    let mut bao = player(&server, "Bao", &dir);
    let mut cam = player(&server, "Cam", &dir);
    run_until(&mut [&mut ana, &mut bao, &mut cam], "welcome", |apps| {
        apps.iter().all(|a| online(a).identity.welcomed())
    });

    // Ana opens a timed room with the winning score and moves first; Bao joins by its code;
    // Cam watches.
    let room_code = open_room_with(
        &mut ana,
        "standard",
        true,
        ClockSpec::Fischer {
            base_ms: 300_000,
            increment_ms: 3_000,
        },
        false,
    );
    assert_eq!(
        *ana.world().resource::<State<Screen>>().get(),
        Screen::Online
    );
    bao.world_mut().trigger(Ask::Join(room_code.clone()));
    cam.world_mut().trigger(Ask::Watch(room_code.clone()));
    run_until(
        &mut [&mut ana, &mut bao, &mut cam],
        "the game on every board",
        |apps| apps.iter().all(|a| settled(a, &room_code)),
    );
    // Each player's own row is the nearest: Ana plays side 0, Bao side 1; Cam sees side 0's.
    assert_eq!(ana.world().resource::<Layout>().near_side(), 0);
    assert_eq!(bao.world().resource::<Layout>().near_side(), 1);
    assert_eq!(cam.world().resource::<Layout>().near_side(), 0);
    assert!(to_move(&ana) && !to_move(&bao) && !to_move(&cam));
    // The room plays to 36 of 70, on the server and on every board.
    assert_eq!(state(&ana).unwrap().pos.rules().win_at, Some(36));
    for app in [&ana, &bao, &cam] {
        assert_eq!(pos(app).rules().win_at, Some(36));
    }

    // Six moves, each animated on the other boards, every board the server's after each; the
    // game's buttons stay the same through them (a finger on Resign is not lost to a move).
    use o_an_quan::game::online::controls::GameAction;
    let resign = |app: &mut App| entity_with(app, |a: &GameAction| *a == GameAction::Resign);
    let resigns = [resign(&mut ana), resign(&mut bao)];
    assert!(resigns.iter().all(Option::is_some), "each player's Resign");
    for _ in 0..6 {
        let mut apps = [&mut ana, &mut bao, &mut cam];
        one_move(&mut apps, &room_code);
        for app in apps.iter_mut() {
            check_board(app);
        }
    }
    assert_eq!(
        [resign(&mut ana), resign(&mut bao)],
        resigns,
        "the same buttons"
    );
    let moves_before = state(&ana).unwrap().moves.len();

    // Bao's connection drops; Ana moves meanwhile; Bao comes back to the same seat, with the
    // move shown and both clocks as the server keeps them.
    bao.world_mut().resource_mut::<Link>().retry_now();
    let mut apps = [&mut ana, &mut bao, &mut cam];
    assert!(to_move(apps[0]), "Ana's turn after six moves");
    let mv = pos(apps[0]).legal_moves()[0];
    apps[0].world_mut().trigger(PlayMove(mv));
    run_until(&mut apps, "Bao back with the move", |apps| {
        apps.iter()
            .all(|a| settled(a, &room_code) && state(a).unwrap().moves.len() == moves_before + 1)
    });
    for app in apps.iter_mut() {
        check_board(app);
    }
    let now = online(apps[0]).connection.server_now();
    let ana_clocks = state(apps[0]).unwrap().clocks_at(now).unwrap();
    let bao_clocks = state(apps[1]).unwrap().clocks_at(now).unwrap();
    for (a, b) in ana_clocks.iter().zip(&bao_clocks) {
        assert!(
            (a - b).abs() < 1_000,
            "clocks {ana_clocks:?} against {bao_clocks:?}"
        );
    }
    assert!(
        ana_clocks
            .iter()
            .all(|&ms| ms < 300_000 + 4 * 3_000 && ms > 200_000),
        "{ana_clocks:?}"
    );
    assert_eq!(online(apps[1]).in_room.room.as_ref().unwrap().you, Some(1));

    // Bao resigns; every app sees the end.
    apps[1].world_mut().trigger(Ask::Resign);
    run_until(&mut apps, "the end", |apps| {
        apps.iter().all(|a| {
            matches!(state(a).map(|s| &s.phase), Some(room::Phase::Ended(_)))
                && phase(a) == Phase::Over
        })
    });
    let room::Phase::Ended(result) = &state(apps[2]).unwrap().phase else {
        unreachable!()
    };
    assert_eq!(result.cause, EndCause::Resign);
    assert_eq!(result.places, vec![0, 1], "Ana (seat 0) wins");
    assert!(
        !online(apps[0])
            .in_room
            .room
            .as_ref()
            .unwrap()
            .ratings
            .is_empty(),
        "a rated game"
    );
    // The leaderboard: Ana first, Bao second, each told their place; the watcher unplaced.
    for app in apps.iter_mut() {
        app.world_mut().trigger(Ask::Leaderboard);
    }
    run_until(&mut apps, "the leaderboard", |apps| {
        apps.iter().all(|a| online(a).lobby.leaderboard.is_some())
    });
    let names = |app: &App| -> Vec<String> {
        let board = online(app).lobby.leaderboard.as_ref().unwrap();
        board.players.iter().map(|p| p.name.clone()).collect()
    };
    assert_eq!(names(apps[0]), ["Ana", "Bao"]);
    let place = |app: &App| online(app).lobby.leaderboard.as_ref().unwrap().place;
    assert_eq!(
        (place(apps[0]), place(apps[1]), place(apps[2])),
        (Some(1), Some(2), None)
    );

    // A rematch, asked by both (one alone only offers it): a new room, both seated, the
    // seats turned round (Bao moves first now), and each board turned to its player.
    apps[1].world_mut().trigger(Ask::Rematch);
    apps[0].world_mut().trigger(Ask::Rematch);
    run_until(&mut apps[..2], "the rematch on both boards", |apps| {
        let codes: Vec<_> = apps.iter().map(|a| code(a)).collect();
        codes[0] != Some(room_code.clone())
            && codes[0] == codes[1]
            && apps
                .iter()
                .all(|a| settled(a, codes[0].as_deref().unwrap()))
    });
    let rematch = code(apps[0]).unwrap();
    assert_ne!(rematch, room_code);
    assert!(
        to_move(apps[1]) && !to_move(apps[0]),
        "Bao opens the rematch"
    );
    assert_eq!(apps[1].world().resource::<Layout>().near_side(), 0);
    assert_eq!(apps[0].world().resource::<Layout>().near_side(), 1);
    let mut players = [&mut ana, &mut bao];
    let mover = one_move(&mut players, &rematch);
    assert_eq!(mover, 1);
    for app in players.iter_mut() {
        check_board(app);
    }
}

#[test]
fn the_same_player_comes_back_after_a_restart_of_the_game() {
    let dir = TempDir::new("game-token");
    let server = ServerProcess::sqlite(&dir, &[]);
    let mut first = player(&server, "Dao", &dir);
    run_until(&mut [&mut first], "welcome", |apps| {
        online(apps[0]).identity.welcomed()
    });
    let id = online(&first).identity.me.as_ref().unwrap().id.clone();
    drop(first);
    // The same files: the kept token makes it the same player.
    let mut again = player(&server, "Dao", &dir);
    run_until(&mut [&mut again], "welcome", |apps| {
        online(apps[0]).identity.welcomed()
    });
    assert_eq!(online(&again).identity.me.as_ref().unwrap().id, id);
    // Someone else's files: someone else.
    let mut other = player(&server, "Eve", &dir);
    run_until(&mut [&mut other], "welcome", |apps| {
        online(apps[0]).identity.welcomed()
    });
    assert_ne!(online(&other).identity.me.as_ref().unwrap().id, id);
}

#[test]
fn an_unreachable_server_is_said_plainly_and_retried_with_backoff() {
    let dir = TempDir::new("game-unreachable");
    let port = online::free_port();
    let settings = Settings {
        server: format!("ws://127.0.0.1:{port}/ws"),
        seen_intro: true,
        child: Some(false),
        ..Settings::default()
    };
    let files = Files {
        config: Storage::at(dir.path()),
        data: Storage::at(dir.path()),
    };
    let mut app = app_with(settings, Launch::default(), Some(files));
    app.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Online);
    run_until(&mut [&mut app], "three failed attempts", |apps| {
        matches!(
            apps[0].world().resource::<Link>().state(),
            o_an_quan::game::online::link::LinkState::Retrying { attempt, .. } if *attempt >= 3
        )
    });
    let (words, retry) = o_an_quan::game::online::lobby::link_words(
        app.world().resource::<Link>(),
        &online(&app),
        o_an_quan::session::Lang::En,
    );
    assert!(retry, "a retry button goes with it");
    assert!(words.contains(&format!("127.0.0.1:{port}")), "{words}");
    assert!(!online(&app).identity.welcomed());
}

#[test]
fn a_clock_that_runs_out_ends_the_game_on_every_board() {
    let dir = TempDir::new("game-flag");
    let server = ServerProcess::sqlite(&dir, &[]);
    let mut ana = player(&server, "Ana", &dir);
    let mut bao = player(&server, "Bao", &dir);
    run_until(&mut [&mut ana, &mut bao], "welcome", |apps| {
        apps.iter().all(|a| online(a).identity.welcomed())
    });
    // Four seconds each, no increment.
    let room_code = open_room(
        &mut ana,
        "basic",
        ClockSpec::Fischer {
            base_ms: 4_000,
            increment_ms: 0,
        },
        true,
    );
    bao.world_mut().trigger(Ask::Join(room_code.clone()));
    let mut apps = [&mut ana, &mut bao];
    run_until(&mut apps, "the game on both boards", |apps| {
        apps.iter().all(|a| settled(a, &room_code))
    });
    // The first move of each (before them a clock aborts the game instead), then Ana waits.
    one_move(&mut apps, &room_code);
    one_move(&mut apps, &room_code);
    let clocks = state(apps[0])
        .unwrap()
        .clocks_at(online(apps[0]).connection.server_now());
    assert!(clocks.is_some_and(|c| c[0] > 0 && c[0] <= 4_000));
    run_until(&mut apps, "Ana's flag", |apps| {
        apps.iter().all(|a| phase(a) == Phase::Over)
    });
    for app in apps.iter() {
        let state = state(app).unwrap();
        let room::Phase::Ended(result) = &state.phase else {
            panic!("ended")
        };
        assert_eq!(result.cause, EndCause::Time);
        assert_eq!(result.by, Some(0), "Ana ran out");
        assert_eq!(result.places, vec![1, 0]);
        assert!(
            state
                .clocks_at(online(app).connection.server_now())
                .unwrap()[0]
                <= 0,
            "her clock shows nothing left"
        );
    }
    let words = o_an_quan::game::online::ended::result_words(
        match &state(apps[1]).unwrap().phase {
            room::Phase::Ended(result) => result,
            _ => unreachable!(),
        },
        state(apps[1]).unwrap(),
        Some(1),
        o_an_quan::session::Lang::En,
    );
    assert!(
        words.starts_with("You win!") && words.contains("Ana ran out of time"),
        "{words}"
    );
}

#[test]
fn a_table_flip_online_is_asked_first_sent_as_swap_and_turns_both_boards() {
    use o_an_quan::game::Action;
    let dir = TempDir::new("game-flip");
    let server = ServerProcess::sqlite(&dir, &[]);
    let mut ana = player(&server, "Ana", &dir);
    let mut bao = player(&server, "Bao", &dir);
    run_until(&mut [&mut ana, &mut bao], "welcome", |apps| {
        apps.iter().all(|a| online(a).identity.welcomed())
    });
    let room_code = open_room(&mut ana, "table-flip", ClockSpec::UNTIMED, false);
    bao.world_mut().trigger(Ask::Join(room_code.clone()));
    let mut apps = [&mut ana, &mut bao];
    run_until(&mut apps, "the game on both boards", |apps| {
        apps.iter().all(|a| settled(a, &room_code))
    });
    // Ana opens; Bao may flip the table: the button asks first, then the move is `swap`.
    assert_eq!(one_move(&mut apps, &room_code), 0);
    assert!(pos(apps[1]).can_swap());
    press_button(apps[1], Action::Flip);
    assert_eq!(
        *apps[1]
            .world()
            .resource::<State<o_an_quan::game::Overlay>>()
            .get(),
        o_an_quan::game::Overlay::Flip,
        "asked first"
    );
    press_button(apps[1], Action::FlipYes);
    run_until(&mut apps, "the flip on both boards", |apps| {
        apps.iter()
            .all(|a| settled(a, &room_code) && state(a).unwrap().moves.len() == 2)
    });
    for app in apps.iter_mut() {
        assert!(pos(app).swapped(), "the table is flipped");
        check_board(app);
    }
    assert_eq!(
        state(apps[0]).unwrap().moves[1].to_string(),
        "swap",
        "the server has the decision as a swap"
    );
    // Each player's row is still the nearest (the board turns in the frame after the flip is
    // shown): Bao plays side 0 now, Ana side 1.
    for app in apps.iter_mut() {
        app.update();
    }
    assert_eq!(apps[0].world().resource::<Layout>().near_side(), 1);
    assert_eq!(apps[1].world().resource::<Layout>().near_side(), 0);
    // And the game goes on from the flipped table.
    one_move(&mut apps, &room_code);
    for app in apps.iter_mut() {
        check_board(app);
    }
}

/// Every text on screen, joined.
fn screen_text(app: &mut App) -> String {
    let mut texts = app.world_mut().query::<&Text>();
    texts
        .iter(app.world())
        .map(|t| t.0.clone())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The people pages through the game's own plugins: a friend request answered by a press, a
/// challenge accepted by a press that puts the room on the board, and then the profile page
/// with its record and its rating graph drawn. The other player is a protocol client.
#[test]
fn friends_challenges_and_the_profile_with_its_graph() {
    use o_an_quan::game::online::pages::{OnlinePage, PageAction, Press};
    use o_an_quan::net::protocol::{ClientMessage, Notice, RulesChoice, ServerMessage};
    let home = TempDir::new("people-game");
    let server = ServerProcess::sqlite(&home, &[]);
    let mut an = player(&server, "An", &home);
    let rt = tokio::runtime::Runtime::new().unwrap();
    run_until(&mut [&mut an], "welcomed", |a| {
        online(a[0]).identity.welcomed()
    });
    an.world_mut()
        .trigger(Press(PageAction::Open(OnlinePage::Friends)));
    run_until(&mut [&mut an], "the friend code", |a| {
        online(a[0])
            .people
            .profile
            .as_ref()
            .and_then(|p| p.friend_code.clone())
            .is_some()
    });
    let friend_code = online(&an)
        .people
        .profile
        .as_ref()
        .unwrap()
        .friend_code
        .clone()
        .unwrap();
    assert!(screen_text(&mut an).contains(&o_an_quan::net::social::grouped(&friend_code)));
    // The page, scrolled, keeps its body and its scroll through the news it shows below.
    let body = entity_with::<o_an_quan::game::scroll::Scrolls>(&mut an, |_| true).unwrap();
    an.world_mut()
        .entity_mut(body)
        .insert(ScrollPosition(Vec2::new(0.0, 80.0)));

    // Bình asks by the code; An accepts with the page's button.
    let mut binh = rt.block_on(online::Client::connect(&server.url(), "Bình"));
    let binh_id = binh.player.id.clone();
    rt.block_on(binh.send(&ClientMessage::AddFriend { code: friend_code }));
    run_until(&mut [&mut an], "the request", |a| {
        online(a[0])
            .people
            .relations
            .as_ref()
            .is_some_and(|r| !r.incoming.is_empty())
    });
    an.world_mut()
        .trigger(Press(PageAction::AnswerFriend(binh_id.clone(), true)));
    run_until(&mut [&mut an], "friends", |a| {
        online(a[0]).people.friend(&binh_id).is_some()
    });
    let shown = screen_text(&mut an);
    assert!(shown.contains("Bình · 1500?"), "{shown}");
    assert_eq!(
        an.world().get::<ScrollPosition>(body).map(|s| s.y),
        Some(80.0),
        "the friends page scrolled as it was"
    );
    let world = an.world_mut();
    let headers = world
        .query_filtered::<(), With<o_an_quan::game::page::PageHeader>>()
        .iter(world)
        .count();
    assert_eq!(headers, 1, "one header, drawn again with the page");
    // The page asks for the friends' list every ten seconds (of the game's clock): the same
    // list again draws nothing. Bình reads what comes meanwhile, answering the server's pings:
    // a connection silent for two pings is dropped, and a friend gone offline is news (frames
    // are slower on a busy machine, and these can outlast two pings).
    let back = |app: &mut App| entity_with(app, |a: &PageAction| *a == PageAction::Back);
    let before = back(&mut an).expect("Back");
    for frame in 0..1300 {
        an.update();
        if frame % 50 == 0 {
            let _ = rt.block_on(binh.try_next(Duration::from_millis(1)));
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(back(&mut an), Some(before), "the page as it was");

    // Bình's challenge, accepted here: the room comes to the board; Bình resigns.
    rt.block_on(binh.send(&ClientMessage::Challenge {
        player: online(&an).identity.me.as_ref().unwrap().id.clone(),
        rules: RulesChoice::Preset("basic".into()),
        clock: ClockSpec::UNTIMED,
    }));
    run_until(&mut [&mut an], "the challenge", |a| {
        !online(a[0]).people.incoming.is_empty()
    });
    let id = online(&an).people.incoming[0].id.clone();
    an.world_mut()
        .trigger(Press(PageAction::AnswerChallenge(id, true)));
    run_until(&mut [&mut an], "the room on the board", |a| {
        code(a[0]).is_some_and(|c| settled(a[0], &c))
    });
    let room = code(&an).unwrap();
    rt.block_on(async {
        binh.until(|m| match m {
            ServerMessage::Notice(Notice::ChallengeAccepted { room: r, .. }) => {
                assert_eq!(*r, room);
                Some(())
            }
            _ => None,
        })
        .await;
        binh.join(&room).await;
    });
    // One move, whoever is to move (a game resigned before any move has nothing to review).
    let mover = state(&an).and_then(|s| s.mover());
    let an_seat = online(&an).in_room.room.as_ref().and_then(|r| r.you);
    if mover == an_seat {
        let mv = pos(&an).legal_moves()[0];
        an.world_mut().trigger(PlayMove(mv));
    } else {
        let rules = o_an_quan::rules::presets::get("basic").unwrap().rules;
        let mv = o_an_quan::rules::Position::new(rules).legal_moves()[0];
        rt.block_on(binh.play(0, &mv.to_string()));
    }
    run_until(&mut [&mut an], "the first move", |a| {
        state(a[0]).is_some_and(|s| s.moves.len() == 1) && settled(a[0], &room)
    });
    rt.block_on(binh.send(&ClientMessage::Resign));
    run_until(&mut [&mut an], "the end", |a| {
        matches!(state(a[0]).map(|s| &s.phase), Some(room::Phase::Ended(_)))
    });

    // The profile: the won game, the provisional rating, the graph drawn at its size.
    an.world_mut()
        .resource_mut::<NextState<Screen>>()
        .set(Screen::Online);
    an.update();
    an.world_mut()
        .trigger(Press(PageAction::Open(OnlinePage::Profile)));
    run_until(&mut [&mut an], "the profile", |a| {
        online(a[0])
            .people
            .profile
            .as_ref()
            .is_some_and(|p| p.won == 1)
    });
    for _ in 0..3 {
        an.update();
    }
    let shown = screen_text(&mut an);
    assert!(
        shown.contains("1 rated games: 1 won, 0 lost, 0 drawn"),
        "{shown}"
    );
    assert!(shown.contains("Won · Bình"), "{shown}");
    let rating = online(&an).people.profile.as_ref().unwrap().player.rating;
    assert!(rating > 1500.0);
    assert!(
        shown.contains(&format!("Rating {}?", rating.round() as i64)),
        "{shown}"
    );
    let mut images = an.world_mut().query::<(&ImageNode, &Node)>();
    let graphs = images
        .iter(an.world())
        .filter(|(_, node)| node.height == Val::Px(o_an_quan::game::online::graph::HEIGHT as f32))
        .count();
    assert_eq!(graphs, 1, "the rating graph is drawn");

    // A recent game opens in the review: watched, on the board, then reviewed.
    let played = online(&an).people.profile.as_ref().unwrap().games[0]
        .code
        .clone();
    an.world_mut().trigger(Press(PageAction::Review(played)));
    run_until(&mut [&mut an], "the review", |a| {
        *a[0].world().resource::<State<Screen>>().get() == Screen::Review
    });
}

/// Keys as a keyboard sends them to the focused field: characters, then `last`.
fn type_keys(app: &mut App, typed: &str, last: bevy::input::keyboard::Key) {
    use bevy::input::ButtonState;
    use bevy::input::keyboard::{Key, KeyboardInput};
    let keys = typed
        .chars()
        .map(|c| Key::Character(c.to_string().into()))
        .chain([last]);
    for key in keys {
        app.world_mut().write_message(KeyboardInput {
            key_code: KeyCode::Unidentified(bevy::input::keyboard::NativeKeyCode::Unidentified),
            logical_key: key,
            state: ButtonState::Pressed,
            text: None,
            repeat: false,
            window: Entity::PLACEHOLDER,
        });
    }
    app.update();
}

/// A room's code typed as a player types it: a press on its field gives it the focus, the code
/// goes in small letters with a dash and a slip taken back, the field shows it cleaned with its
/// caret, and Enter joins the room another player opened.
#[test]
fn a_room_code_typed_into_its_field_joins_the_room() {
    use bevy::input::keyboard::Key;
    use o_an_quan::game::online::field::Typing;
    use o_an_quan::game::online::field::{Field, TextField};
    use o_an_quan::game::online::form::Form;
    let home = TempDir::new("typed-code");
    let server = ServerProcess::sqlite(&home, &[]);
    let mut an = player(&server, "An", &home);
    let rt = tokio::runtime::Runtime::new().unwrap();
    run_until(&mut [&mut an], "welcomed", |a| {
        online(a[0]).identity.welcomed()
    });
    let mut binh = rt.block_on(online::Client::connect(&server.url(), "Bình"));
    let room = rt.block_on(binh.create("basic", ClockSpec::UNTIMED, First::Me, false));
    an.update();

    press_button(&mut an, TextField(Field::RoomCode));
    assert_eq!(an.world().resource::<Typing>().0, Some(Field::RoomCode));
    let lower = room.to_lowercase();
    type_keys(
        &mut an,
        &format!("{}-{}#", &lower[..3], &lower[3..5]),
        Key::Backspace,
    );
    assert_eq!(an.world().resource::<Form>().code, room[..4]);
    type_keys(&mut an, &lower[4..], Key::Character("q".into()));
    assert_eq!(
        an.world().resource::<Form>().code,
        room,
        "six letters at most"
    );
    an.update();
    let shown = screen_text(&mut an);
    assert!(shown.contains(&format!("{room}|")), "{shown}");

    type_keys(&mut an, "", Key::Enter);
    assert_eq!(an.world().resource::<Typing>().0, None);
    run_until(&mut [&mut an], "seated in Bình's room", |a| {
        online(a[0])
            .in_room
            .room
            .as_ref()
            .is_some_and(|r| r.code == room && r.you == Some(1))
    });
}

/// The entity of the first node carrying `C` that `keep` accepts.
fn entity_with<C: Component>(app: &mut App, keep: impl Fn(&C) -> bool) -> Option<Entity> {
    let world = app.world_mut();
    let mut nodes = world.query::<(Entity, &C)>();
    nodes.iter(world).find(|(_, c)| keep(c)).map(|(e, _)| e)
}

/// The online home follows the server's news in place: the lobby, asked again every few
/// seconds, draws nothing while it says the same, and a room newly listed draws the lobby's part
/// alone, so the page keeps how far it was scrolled and its other buttons (a finger's among
/// them) stay as they were.
#[test]
fn the_online_home_follows_the_lobby_in_place() {
    use o_an_quan::game::online::form::OnlineAction;
    use o_an_quan::game::online::pages::PageAction;
    use o_an_quan::game::scroll::Scrolls;
    let home = TempDir::new("home-in-place");
    let server = ServerProcess::sqlite(&home, &[]);
    let mut an = player(&server, "An", &home);
    run_until(&mut [&mut an], "welcomed", |a| {
        online(a[0]).identity.welcomed()
    });
    let body = entity_with::<Scrolls>(&mut an, |_| true).expect("the home's body");
    let join = entity_with(&mut an, |a: &OnlineAction| *a == OnlineAction::Join).unwrap();
    let tile = entity_with(&mut an, |a: &PageAction| *a == PageAction::Pool(0)).unwrap();
    an.world_mut()
        .entity_mut(body)
        .insert(ScrollPosition(Vec2::new(0.0, 120.0)));
    an.world_mut().entity_mut(tile).insert(Interaction::Hovered);
    let kept = |app: &mut App, when: &str| {
        let world = app.world();
        assert_eq!(
            world.get::<ScrollPosition>(body).map(|s| s.y),
            Some(120.0),
            "{when}: the page's body and its scroll"
        );
        assert!(world.get::<OnlineAction>(join).is_some(), "{when}: Join");
        assert_eq!(
            world.get::<Interaction>(tile),
            Some(&Interaction::Hovered),
            "{when}: the tile under the pointer"
        );
    };
    // The lobby is asked at once after the welcome, then every four seconds.
    let until = Instant::now() + Duration::from_millis(1500);
    run_until(&mut [&mut an], "a second and a half", |_| {
        Instant::now() > until
    });
    kept(&mut an, "the same empty lobby");
    // Nor does a frame with nothing new mark what the screen is drawn from as changed.
    let ticks = |app: &App| {
        use o_an_quan::game::online::{field::Typing, form::Form};
        let world = app.world();
        [
            world
                .get_resource_change_ticks::<Connection>()
                .unwrap()
                .changed,
            world
                .get_resource_change_ticks::<Identity>()
                .unwrap()
                .changed,
            world.get_resource_change_ticks::<Lobby>().unwrap().changed,
            world.get_resource_change_ticks::<InRoom>().unwrap().changed,
            world.get_resource_change_ticks::<People>().unwrap().changed,
            world
                .get_resource_change_ticks::<Tournaments>()
                .unwrap()
                .changed,
            world
                .get_resource_change_ticks::<Correspondence>()
                .unwrap()
                .changed,
            world.get_resource_change_ticks::<Form>().unwrap().changed,
            world.get_resource_change_ticks::<Typing>().unwrap().changed,
            world
                .get_resource_change_ticks::<o_an_quan::game::state::Prefs>()
                .unwrap()
                .changed,
        ]
    };
    let settled = ticks(&an);
    for _ in 0..300 {
        an.update();
    }
    assert_eq!(
        ticks(&an),
        settled,
        "online play's state, Form, Typing, Prefs untouched"
    );

    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut binh = rt.block_on(online::Client::connect(&server.url(), "Bình"));
    let room = rt.block_on(binh.create("basic", ClockSpec::UNTIMED, First::Me, true));
    run_until(&mut [&mut an], "Bình's room listed", |a| {
        online(a[0]).lobby.rooms.iter().any(|r| r.code == room)
    });
    an.update();
    assert!(
        entity_with(&mut an, |a: &OnlineAction| *a
            == OnlineAction::JoinListed(0))
        .is_some(),
        "the room's Join"
    );
    kept(&mut an, "a room listed");
}

/// Waiting in a pool, the Play now page counts the seconds up: the count alone is drawn again
/// each second, and Stop looking stays the button a finger may be on.
#[test]
fn the_play_now_page_counts_the_wait_without_drawing_its_buttons_again() {
    use o_an_quan::game::online::pages::{PageAction, Press};
    let home = TempDir::new("pool-wait");
    let server = ServerProcess::sqlite(&home, &[]);
    let mut an = player(&server, "An", &home);
    run_until(&mut [&mut an], "welcomed", |a| {
        online(a[0]).identity.welcomed()
    });
    an.world_mut().trigger(Press(PageAction::Pool(1)));
    run_until(&mut [&mut an], "waiting in 3+2's pool", |a| {
        online(a[0]).lobby.pool.is_some()
    });
    an.update();
    let stop = |app: &mut App| entity_with(app, |a: &PageAction| *a == PageAction::LeavePool);
    let before = stop(&mut an).expect("Stop looking");
    // The seconds the page says it has waited.
    let waited = |app: &mut App| -> u64 {
        let shown = screen_text(app);
        let after = shown
            .split("· 3+2 · ")
            .nth(1)
            .unwrap_or_else(|| panic!("{shown}"));
        after.split(' ').next().unwrap().parse().unwrap()
    };
    let first = waited(&mut an);
    let until = Instant::now() + Duration::from_millis(2300);
    run_until(&mut [&mut an], "two seconds", |_| Instant::now() > until);
    assert!(waited(&mut an) >= first + 2, "the seconds counted");
    assert_eq!(stop(&mut an), Some(before), "the same Stop looking");
}

/// What the open page spawned, despawned and changed: UI nodes added and removed, texts
/// changed (as a frame ends).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
struct Churn {
    spawned: usize,
    despawned: usize,
    texts: usize,
}

fn count_churn(app: &mut App) {
    app.init_resource::<Churn>();
    app.add_observer(|_: On<Add, Node>, mut churn: ResMut<Churn>| churn.spawned += 1);
    app.add_observer(|_: On<Remove, Node>, mut churn: ResMut<Churn>| churn.despawned += 1);
    app.add_systems(
        PostUpdate,
        |texts: Query<(), Changed<Text>>, mut churn: ResMut<Churn>| churn.texts += texts.count(),
    );
}

/// `app`'s churn over `seconds` of frames (a frame every 10 ms), from nothing.
fn churn_over(app: &mut App, seconds: u64) -> Churn {
    *app.world_mut().resource_mut::<Churn>() = Churn::default();
    let until = Instant::now() + Duration::from_secs(seconds);
    while Instant::now() < until {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    *app.world().resource::<Churn>()
}

/// Every online page left open for three seconds with nothing new spawns and despawns nothing
/// and changes no text; the open tournament's page, counting down to its start, changes one
/// text a second and spawns nothing.
#[test]
fn an_open_page_with_nothing_new_spawns_nothing_and_a_countdown_changes_one_text() {
    use o_an_quan::game::online::pages::{OnlinePage, PageAction, Press, TourAction};
    let home = TempDir::new("pages-churn");
    let server = ServerProcess::sqlite(&home, &[]);
    let mut an = player(&server, "An", &home);
    count_churn(&mut an);
    run_until(&mut [&mut an], "welcomed", |a| {
        online(a[0]).identity.welcomed()
    });
    // A public arena of Bình's, starting in under a minute: its countdown is in seconds.
    let rt = tokio::runtime::Runtime::new().unwrap();
    let mut binh = rt.block_on(online::Client::connect(&server.url(), "Bình"));
    let now_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let starts_ms = now_ms + 55_000;
    let arena = online::arena(true, Some(starts_ms), None);
    let tournament = rt.block_on(binh.organise(&arena));
    let pages = [
        OnlinePage::Friends,
        OnlinePage::Profile,
        OnlinePage::Account,
        OnlinePage::PlayNow,
        OnlinePage::Games,
        OnlinePage::Notifications,
        OnlinePage::NewTournament,
    ];
    let settle = |app: &mut App| {
        let until = Instant::now() + Duration::from_millis(1500);
        run_until(&mut [app], "the page's answers", |_| Instant::now() > until);
    };
    settle(&mut an);
    let home_churn = churn_over(&mut an, 3);
    assert_eq!(home_churn, Churn::default(), "the online home");
    for page in pages {
        an.world_mut().trigger(Press(PageAction::Open(page)));
        settle(&mut an);
        let churn = churn_over(&mut an, 3);
        println!("{page:?} open for 3 s: {churn:?}");
        assert_eq!(churn, Churn::default(), "{page:?}");
    }
    // The list of tournaments counts down on the arena's line: a text changes, no node.
    an.world_mut()
        .trigger(Press(PageAction::Open(OnlinePage::Tournaments)));
    settle(&mut an);
    let churn = churn_over(&mut an, 3);
    println!("Tournaments open for 3 s: {churn:?}");
    assert_eq!((churn.spawned, churn.despawned), (0, 0), "the tournaments");
    an.world_mut()
        .trigger(Press(PageAction::Tour(TourAction::Open(tournament))));
    settle(&mut an);
    let churn = churn_over(&mut an, 3);
    println!("the tournament open for 3 s, counting down: {churn:?}");
    assert_eq!((churn.spawned, churn.despawned), (0, 0), "the tournament");
    assert!(
        (2..=4).contains(&churn.texts),
        "one text a second: {churn:?}"
    );
}

/// A device's practice and puzzle progress after some play: its own mistakes (one missed)
/// and rated puzzles.
fn trained() -> (
    o_an_quan::session::Practice,
    o_an_quan::session::PuzzleProgress,
) {
    use o_an_quan::ai::puzzle::{Difficulty, Puzzle, Step};
    use o_an_quan::ai::theme::Theme;
    let now = o_an_quan::game::practice::now_ms();
    let puzzle = |id: String, theme| Puzzle {
        id,
        preset: "standard".to_owned(),
        moves: String::new(),
        difficulty: Difficulty::Easy,
        seen_at: 2,
        line: vec![Step {
            answer: "2-".to_owned(),
            reply: None,
            values: Vec::new(),
        }],
        themes: vec![theme],
    };
    let mut practice = o_an_quan::session::Practice::default();
    let mut progress = o_an_quan::session::PuzzleProgress::default();
    let own = (0..4).map(|n| puzzle(format!("mine-{n}"), Theme::Chain));
    practice.add(own.collect(), now - 3_600_000);
    practice.answer("mine-0", false, now - 60_000);
    for n in 0..12 {
        let p = puzzle(format!("standard-{n:04}"), Theme::ALL[n % 8]);
        progress
            .rating
            .record(&p, !n.is_multiple_of(3), now - 60_000 + n as i64);
        progress.solved_one(&p.id, true);
    }
    progress.storm_ended(11);
    (practice, progress)
}

#[test]
fn practice_and_puzzle_ratings_reach_a_device_linked_by_code_and_come_back() {
    use o_an_quan::game::online::training::TrainingSync;
    use o_an_quan::game::practice::PracticeStore;
    use o_an_quan::game::puzzles::Progress;
    use o_an_quan::net::protocol::{ClientMessage, Notice, ServerMessage};
    use o_an_quan::session::{PRACTICE, PUZZLES, PuzzleProgress};
    let home = TempDir::new("training-game");
    let server = ServerProcess::sqlite(&home, &[]);
    let (practice, progress) = trained();
    let phone_files = Storage::at(home.path().join("Phone"));
    phone_files.write(PRACTICE, &practice.to_ron()).unwrap();
    phone_files.write(PUZZLES, &progress.to_ron()).unwrap();
    let records = o_an_quan::session::training::records(&practice, &progress).len();

    // The phone goes online: everything goes up.
    let mut phone = player(&server, "Phone", &home);
    run_until(&mut [&mut phone], "the phone's records up", |a| {
        a[0].world().resource::<TrainingSync>().held() == records
    });
    let token = phone_files
        .read(o_an_quan::session::ONLINE_TOKEN)
        .unwrap()
        .unwrap();
    let rt = tokio::runtime::Runtime::new().unwrap();
    let code = rt.block_on(async {
        let mut me = online::Client::connect_as(&server.url(), "Phone", Some(&token)).await;
        me.send(&ClientMessage::LinkCode).await;
        me.until(|m| match m {
            ServerMessage::Notice(Notice::LinkCode { code, .. }) => Some(code.clone()),
            _ => None,
        })
        .await
    });

    // A tablet, a guest of its own, takes the code and becomes the phone's player: the
    // practice and the ratings come down and are written to its files.
    let mut tablet = player(&server, "Tablet", &home);
    run_until(&mut [&mut tablet], "the tablet's welcome", |a| {
        online(a[0]).identity.welcomed()
    });
    tablet
        .world_mut()
        .resource_mut::<Link>()
        .send(&ClientMessage::Link { code });
    run_until(&mut [&mut tablet, &mut phone], "the records down", |a| {
        let sync = a[0].world().resource::<TrainingSync>();
        sync.settled() && sync.held() == records
    });
    // JSON carries a number to within its last digit: compared as a player would see them.
    let schedule = |p: &o_an_quan::session::Practice| -> Vec<(String, i64, i32)> {
        let cards = p.cards.iter();
        cards
            .map(|c| (c.puzzle.id.clone(), c.due_ms(), c.schedule.reps))
            .collect()
    };
    let rated =
        |r: &o_an_quan::session::Rated| ((r.rating * 1e6).round(), (r.deviation * 1e6).round());
    let world = tablet.world();
    assert_eq!(
        schedule(&world.resource::<PracticeStore>().0),
        schedule(&practice)
    );
    let merged = &world.resource::<Progress>().0;
    assert_eq!(rated(&merged.rating.player), rated(&progress.rating.player));
    assert_eq!(merged.solved, progress.solved);
    assert_eq!(merged.best_storm, 11);
    tablet.update();
    let tablet_files = Storage::at(home.path().join("Tablet"));
    let kept = PuzzleProgress::from_ron(&tablet_files.read(PUZZLES).unwrap().unwrap()).unwrap();
    assert_eq!(
        rated(&kept.rating.player),
        rated(&progress.rating.player),
        "written to disk"
    );

    // The missed one, solved on the tablet, comes back to the phone by itself.
    let now = o_an_quan::game::practice::now_ms();
    tablet
        .world_mut()
        .resource_mut::<PracticeStore>()
        .answer("mine-0", true, now);
    let solved = schedule(&tablet.world().resource::<PracticeStore>().0);
    run_until(&mut [&mut tablet, &mut phone], "the phone hears", |a| {
        schedule(&a[1].world().resource::<PracticeStore>().0) == solved
    });
    let due = phone
        .world()
        .resource::<PracticeStore>()
        .cards
        .iter()
        .find(|c| c.puzzle.id == "mine-0")
        .map(|c| c.due_ms());
    assert!(
        due.is_some_and(|due| due >= now + 20 * 3_600_000),
        "not due again before tomorrow on the phone either: {due:?}"
    );
}
