//! The game through its real plugins, without a window: whole games with animation, input
//! rules, and a new game while the computer thinks.

#![cfg(feature = "gui")]

use std::time::Duration;

use bevy::prelude::*;
use bevy::time::TimeUpdateStrategy;
use o_an_quan::ai::Level;
use o_an_quan::game::pebbles::{MandarinStone, Pebble, Places};
use o_an_quan::game::state::NewGame;
use o_an_quan::game::{self, Game, Opponent, Phase, Settings, Speed, layout};
use o_an_quan::rules::{Move, Position, presets};

fn app(settings: Settings) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        AssetPlugin::default(),
        ImagePlugin::default(),
    ));
    // Input resources without the plugin that refreshes them: the tests press keys themselves.
    app.init_resource::<ButtonInput<KeyCode>>()
        .init_resource::<ButtonInput<MouseButton>>()
        .init_resource::<Touches>();
    app.add_plugins(bevy_tweening::TweeningPlugin);
    app.init_asset::<Font>();
    app.insert_resource(TimeUpdateStrategy::ManualDuration(Duration::from_millis(
        16,
    )));
    app.insert_resource(settings);
    app.add_plugins(game::plugin);
    app.update();
    app
}

fn pos(app: &App) -> Position {
    app.world().resource::<Game>().pos
}

fn phase(app: &App) -> Phase {
    *app.world().resource::<Phase>()
}

/// The stones on screen are exactly the rules state's, each inside its pit.
fn assert_sprites_match(app: &mut App) {
    let pos = pos(app);
    let places = app.world().resource::<Places>();
    for (i, &stones) in pos.pits().iter().enumerate() {
        assert_eq!(
            places.pits[i].len(),
            usize::from(stones),
            "pit {i} at ply {}",
            pos.ply()
        );
    }
    let pits: Vec<Vec<Entity>> = places.pits.clone();
    let expected_small: usize = pos.pits().iter().map(|&n| usize::from(n)).sum::<usize>()
        + (0..2)
            .map(|p| pos.store(p).stones.max(0) as usize)
            .sum::<usize>();
    let expected_big = (0..2).filter(|&p| pos.has_mandarin(p)).count()
        + (0..2)
            .map(|p| usize::from(pos.store(p).mandarins))
            .sum::<usize>();
    let world = app.world_mut();
    let small = world
        .query_filtered::<(), With<Pebble>>()
        .iter(world)
        .count();
    let big = world
        .query_filtered::<(), With<MandarinStone>>()
        .iter(world)
        .count();
    assert_eq!(
        (small, big),
        (expected_small, expected_big),
        "no stone sprite more or less than the rules say"
    );
    for (i, entities) in pits.iter().enumerate() {
        for &e in entities {
            let at = world.get::<Transform>(e).unwrap().translation.truncate();
            assert_eq!(
                layout::pit_at(at),
                Some(i),
                "a stone of pit {i} drawn outside it"
            );
        }
    }
}

/// Run frames until `done`, or fail after `frames`.
fn run_until(app: &mut App, frames: usize, done: impl Fn(&App) -> bool) {
    for _ in 0..frames {
        if done(app) {
            return;
        }
        app.update();
        // The computer thinks on other threads; give it a moment of real time.
        std::thread::sleep(Duration::from_micros(200));
    }
    panic!(
        "not done after {frames} frames (phase {:?}, ply {})",
        phase(app),
        pos(app).ply()
    );
}

#[test]
fn a_whole_computer_game_keeps_the_sprites_equal_to_the_rules() {
    let settings = Settings {
        autoplay: true,
        autoplay_level: Level::get(2).unwrap(),
        speed: Speed::Fast,
        ..Settings::default()
    };
    let mut app = app(settings);
    assert_sprites_match(&mut app);
    let mut moves = 0;
    while phase(&app) != Phase::Over {
        let ply = pos(&app).ply();
        run_until(&mut app, 20_000, |app| {
            phase(app) == Phase::Animating || phase(app) == Phase::Over
        });
        run_until(&mut app, 20_000, |app| phase(app) != Phase::Animating);
        assert!(pos(&app).ply() > ply || pos(&app).is_over());
        assert_sprites_match(&mut app);
        moves += 1;
        assert!(moves < 400, "the game should end");
    }
    assert!(pos(&app).is_over());
}

fn press(app: &mut App, key: KeyCode) {
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(key);
    app.update();
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release(key);
    keys.clear();
    app.update();
}

#[test]
fn keys_mean_the_screen_s_left_and_right_on_both_rows() {
    let settings = Settings {
        opponent: Opponent::Human,
        speed: Speed::Off,
        ..Settings::default()
    };
    let mut app = app(settings);
    // Player 0: ← from nothing selects the rightmost pit (pit 5); X sows to the right.
    press(&mut app, KeyCode::ArrowLeft);
    press(&mut app, KeyCode::KeyX);
    let mut expected = Position::new(presets::get("standard").unwrap().rules);
    expected.play("5+".parse::<Move>().unwrap()).unwrap();
    assert_eq!(pos(&app), expected);
    // Player 1: the rightmost pit on screen is pit 6; Z sows to the left of the screen, which
    // on the top row is toward pit 7.
    run_until(&mut app, 100, |app| phase(app) == Phase::Waiting);
    press(&mut app, KeyCode::ArrowLeft);
    press(&mut app, KeyCode::KeyZ);
    expected.play("6+".parse::<Move>().unwrap()).unwrap();
    assert_eq!(pos(&app), expected);
}

#[test]
fn input_during_a_move_is_ignored() {
    let settings = Settings {
        opponent: Opponent::Human,
        speed: Speed::Normal,
        ..Settings::default()
    };
    let mut app = app(settings);
    press(&mut app, KeyCode::ArrowRight);
    press(&mut app, KeyCode::KeyX);
    assert_eq!(phase(&app), Phase::Animating);
    let after_first = pos(&app);
    // Player 1 tries to play while player 0's move is still shown.
    for key in [
        KeyCode::ArrowRight,
        KeyCode::KeyX,
        KeyCode::ArrowLeft,
        KeyCode::KeyZ,
    ] {
        press(&mut app, key);
    }
    assert_eq!(
        pos(&app),
        after_first,
        "nothing was played during the animation"
    );
    run_until(&mut app, 2_000, |app| phase(app) == Phase::Waiting);
    assert_eq!(pos(&app), after_first, "and nothing was queued for later");
}

#[test]
fn a_new_game_drops_the_computer_s_thinking() {
    let settings = Settings {
        opponent: Opponent::Computer(Level::master()),
        human_first: false,
        speed: Speed::Off,
        ..Settings::default()
    };
    let mut app = app(settings);
    app.update();
    assert_eq!(pos(&app).ply(), 0, "the computer is still thinking");
    app.world_mut().resource_mut::<Settings>().human_first = true;
    app.world_mut().trigger(NewGame);
    for _ in 0..300 {
        app.update();
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(
        pos(&app).ply(),
        0,
        "the old game's move never lands on the new board"
    );
    assert_eq!(phase(&app), Phase::Waiting);
    assert!(app.world().resource::<Game>().human_to_move());
}
