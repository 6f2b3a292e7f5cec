//! The game's plugins without a window, for the tests that drive whole games through them.

use std::time::Duration;

use bevy::prelude::*;
use bevy::state::app::StatesPlugin;
use bevy::time::TimeUpdateStrategy;
use o_an_quan::game::layout::Layout;
use o_an_quan::game::pebbles::{MandarinStone, Pebble, Places};
use o_an_quan::game::state::Files;
use o_an_quan::game::{self, Game, Launch, Phase, Prefs};
use o_an_quan::rules::Position;
use o_an_quan::session::Settings;

/// The game's plugins with `settings` and `launch`, minimal Bevy, a fixed 16 ms a frame.
pub fn app_with(settings: Settings, launch: Launch, files: Option<Files>) -> App {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        StatesPlugin,
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
    app.insert_resource(Prefs(settings));
    app.insert_resource(launch);
    if let Some(files) = files {
        app.insert_resource(files);
    }
    app.add_plugins(game::plugin);
    app.update();
    app
}

/// Press the first button that does `action` (an `Action`, or a screen's own), as a click
/// does, and let the press be seen.
pub fn press_button<A: Component + PartialEq + std::fmt::Debug>(app: &mut App, action: A) {
    let world = app.world_mut();
    let button = world
        .query::<(Entity, &A)>()
        .iter(world)
        .find(|(_, a)| **a == action)
        .map(|(e, _)| e)
        .unwrap_or_else(|| panic!("no {action:?} button"));
    world.entity_mut(button).insert(Interaction::Pressed);
    app.update();
    app.update();
}

/// Press and release `key`, and let two frames see it.
pub fn press(app: &mut App, key: KeyCode) {
    app.world_mut()
        .resource_mut::<ButtonInput<KeyCode>>()
        .press(key);
    app.update();
    let mut keys = app.world_mut().resource_mut::<ButtonInput<KeyCode>>();
    keys.release(key);
    keys.clear();
    app.update();
}

pub fn pos(app: &App) -> Position {
    *app.world().resource::<Game>().pos()
}

pub fn phase(app: &App) -> Phase {
    *app.world().resource::<Phase>()
}

/// The stones on screen are exactly the rules state's, each inside its pit.
pub fn assert_sprites_match(app: &mut App) {
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
    let layout = *app.world().resource::<Layout>();
    let players = pos.players();
    assert_eq!(layout.players(), players, "the board has a row per player");
    let expected_small: usize = pos.pits().iter().map(|&n| usize::from(n)).sum::<usize>()
        + (0..players)
            .map(|p| pos.store(p).stones.max(0) as usize)
            .sum::<usize>();
    let expected_big = (0..players).filter(|&p| pos.has_mandarin(p)).count()
        + (0..players)
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
                layout.pit_at(at),
                Some(i),
                "a stone of pit {i} drawn outside it"
            );
        }
    }
}
