//! Everyone can play, as the accessibility tree shows it: every control named in the player's
//! language, the board a grid of named pits, moves announced, the reading keys, and the whole
//! game played from the keyboard alone, through every screen.

use crate::headless;

use bevy::a11y::{AccessibilityNode, ActionRequest};
use bevy::input_focus::InputFocus;
use bevy::prelude::*;
use headless::{app_with, phase, pos, press};
use o_an_quan::game::access::announce::{Announcer, LiveRegion};
use o_an_quan::game::access::board::{PitCell, SowButton};
use o_an_quan::game::state::PendingSow;
use o_an_quan::game::{Launch, Overlay, Phase, Prefs, Screen};
use o_an_quan::session::{Lang, Settings, Speed};

fn settings() -> Settings {
    Settings {
        speed: Speed::Off,
        seen_intro: true,
        ..Settings::default()
    }
}

fn on_the_board() -> Launch {
    Launch {
        skip_title: true,
        ..Launch::default()
    }
}

fn frames(app: &mut App, n: usize) {
    for _ in 0..n {
        app.update();
    }
}

/// The role and name of every node of `role`.
fn named(app: &mut App, role: accesskit::Role) -> Vec<String> {
    let world = app.world_mut();
    let mut names: Vec<String> = world
        .query::<&AccessibilityNode>()
        .iter(world)
        .filter(|n| n.role() == role && !n.is_hidden())
        .map(|n| n.label().unwrap_or_default().to_owned())
        .collect();
    names.sort();
    names
}

/// The name of the focused node.
fn focused(app: &App) -> String {
    let focus = app.world().resource::<InputFocus>().get();
    focus
        .and_then(|e| app.world().get::<AccessibilityNode>(e))
        .and_then(|n| n.label().map(str::to_owned))
        .unwrap_or_default()
}

fn said(app: &App) -> String {
    app.world().resource::<Announcer>().said.clone()
}

fn set_language(app: &mut App, lang: Lang) {
    app.world_mut().resource_mut::<Prefs>().language = lang;
    frames(app, 3);
}

/// Wait for the fonts (panels show once they have arrived) and the first focus.
fn settle(app: &mut App) {
    for _ in 0..600 {
        app.update();
        if !focused(app).is_empty() && !named(app, accesskit::Role::Button).is_empty() {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    panic!("nothing took the focus");
}

#[test]
fn the_title_s_buttons_are_named_in_the_player_s_language_and_reached_by_tab() {
    let mut app = app_with(settings(), Launch::default(), None);
    settle(&mut app);
    let buttons = named(&mut app, accesskit::Role::Button);
    for name in ["Play", "Settings", "Puzzles", "Play online"] {
        assert!(buttons.iter().any(|b| b == name), "{name} in {buttons:?}");
    }
    // The title is a dialog named by its heading; its words are labels.
    assert_eq!(named(&mut app, accesskit::Role::Dialog).len(), 1);
    // Tab walks every button once and comes back round; Shift+Tab goes back.
    let first = focused(&app);
    let mut seen = vec![first.clone()];
    for _ in 0..buttons.len() {
        press(&mut app, KeyCode::Tab);
        seen.push(focused(&app));
    }
    assert_eq!(seen.last(), Some(&first), "Tab comes round: {seen:?}");
    let distinct: std::collections::BTreeSet<_> = seen.iter().collect();
    assert_eq!(distinct.len(), buttons.len(), "{seen:?}");
    press(&mut app, KeyCode::ArrowDown);
    let second = focused(&app);
    press(&mut app, KeyCode::ArrowUp);
    assert_eq!(focused(&app), first);
    assert_ne!(second, first);
    // In Vietnamese, every name follows at once.
    set_language(&mut app, Lang::Vi);
    let buttons = named(&mut app, accesskit::Role::Button);
    for name in ["Chơi", "Cài đặt", "Câu đố", "Chơi trực tuyến"] {
        assert!(buttons.iter().any(|b| b == name), "{name} in {buttons:?}");
    }
}

#[test]
fn the_menu_and_its_accessibility_panel_work_from_the_keyboard_alone() {
    let mut app = app_with(settings(), on_the_board(), None);
    settle(&mut app);
    press(&mut app, KeyCode::Escape);
    assert_eq!(
        *app.world().resource::<State<Overlay>>().get(),
        Overlay::Menu
    );
    frames(&mut app, 3);
    // The focus is inside the menu, and Tab stays there.
    for _ in 0..40 {
        press(&mut app, KeyCode::Tab);
        if focused(&app) == "Accessibility" {
            break;
        }
    }
    assert_eq!(focused(&app), "Accessibility");
    press(&mut app, KeyCode::Enter);
    frames(&mut app, 3);
    assert_eq!(
        *app.world().resource::<State<Overlay>>().get(),
        Overlay::Access
    );
    // The stepping buttons are named by their setting.
    let buttons = named(&mut app, accesskit::Role::Button);
    assert!(
        buttons.contains(&"Text size: next".to_owned()),
        "{buttons:?}"
    );
    for _ in 0..20 {
        if focused(&app) == "Text size: next" {
            break;
        }
        press(&mut app, KeyCode::Tab);
    }
    press(&mut app, KeyCode::Enter);
    frames(&mut app, 2);
    assert_eq!(app.world().resource::<Prefs>().text_size, 125);
    assert_eq!(app.world().resource::<UiScale>().0, 1.25);
    // The panel was rebuilt under the focus: it is still on the same button.
    assert_eq!(focused(&app), "Text size: next");
    press(&mut app, KeyCode::Space);
    frames(&mut app, 2);
    assert_eq!(app.world().resource::<Prefs>().text_size, 150);
    // Esc goes back to the menu, then to the game.
    press(&mut app, KeyCode::Escape);
    assert_eq!(
        *app.world().resource::<State<Overlay>>().get(),
        Overlay::Menu
    );
    press(&mut app, KeyCode::Escape);
    frames(&mut app, 2);
    assert_eq!(
        *app.world().resource::<State<Overlay>>().get(),
        Overlay::None
    );
}

#[test]
fn the_board_is_a_grid_of_named_pits_and_each_move_is_announced() {
    let mut app = app_with(settings(), on_the_board(), None);
    settle(&mut app);
    assert_eq!(named(&mut app, accesskit::Role::Grid), ["The board"]);
    assert_eq!(named(&mut app, accesskit::Role::Row).len(), 2);
    let cells = named(&mut app, accesskit::Role::GridCell);
    assert_eq!(cells.len(), 12, "{cells:?}");
    assert!(
        cells.contains(&"your pit 3, 5 stones".to_owned()),
        "{cells:?}"
    );
    assert!(
        cells.contains(&"the computer's pit 8, 5 stones".to_owned()),
        "{cells:?}"
    );
    // The arrows choose a pit, and the focus goes with the choice.
    press(&mut app, KeyCode::ArrowRight);
    let chosen = focused(&app);
    assert!(chosen.starts_with("your pit "), "{chosen}");
    // Two sowing buttons appear beside it.
    let buttons = named(&mut app, accesskit::Role::Button);
    assert!(
        buttons.contains(&"Sow to the left".to_owned()),
        "{buttons:?}"
    );
    press(&mut app, KeyCode::KeyX);
    let recent = app.world().resource::<Announcer>().recent.clone();
    assert!(
        recent.iter().any(|s| s.starts_with("You sowed your pit ")),
        "{recent:?}"
    );
    // The computer answers, and that is said too, ending with the turn.
    for _ in 0..3000 {
        app.update();
        if pos(&app).ply() == 2 && phase(&app) == Phase::Waiting {
            break;
        }
        std::thread::sleep(std::time::Duration::from_micros(300));
    }
    assert_eq!(pos(&app).ply(), 2);
    let answer = said(&app);
    assert!(answer.contains("The computer sowed "), "{answer}");
    assert!(answer.ends_with("Your move."), "{answer}");
    // The live region carries it (a repeated text is marked so that it is read again).
    let world = app.world_mut();
    let region = world
        .query_filtered::<&AccessibilityNode, With<LiveRegion>>()
        .single(world)
        .unwrap();
    assert_eq!(region.live(), Some(accesskit::Live::Polite));
    assert_eq!(
        region.label().map(|l| l.trim_end_matches('\u{a0}')),
        Some(answer.as_str())
    );
    // The cells follow the stones.
    let cells = named(&mut app, accesskit::Role::GridCell);
    assert!(
        !cells
            .iter()
            .all(|c| c.ends_with("5 stones") || c.contains("mandarin"))
    );
    // In Vietnamese.
    set_language(&mut app, Lang::Vi);
    let cells = named(&mut app, accesskit::Role::GridCell);
    assert!(
        cells.iter().any(|c| c.starts_with("ô của bạn số ")),
        "{cells:?}"
    );
    press(&mut app, KeyCode::KeyL);
    assert!(said(&app).starts_with("Máy rải "), "{}", said(&app));
    // Said in one frame, two announcements are read as one, in order, none lost.
    let world = app.world_mut();
    world.trigger(o_an_quan::game::access::announce::Announce("Một.".into()));
    world.trigger(o_an_quan::game::access::announce::Announce("Hai.".into()));
    frames(&mut app, 1);
    assert_eq!(said(&app), "Một. Hai.");
}

#[test]
fn single_keys_read_the_scores_the_clocks_the_moves_and_repeat() {
    let mut app = app_with(settings(), on_the_board(), None);
    settle(&mut app);
    press(&mut app, KeyCode::KeyC);
    assert_eq!(
        said(&app),
        "You: 0 points, 0 stones. The computer: 0 points, 0 stones."
    );
    press(&mut app, KeyCode::KeyT);
    assert_eq!(said(&app), "This game has no clock.");
    press(&mut app, KeyCode::KeyM);
    let moves = said(&app);
    assert!(
        moves.starts_with("You can sow your pit 1, 5 stones; "),
        "{moves}"
    );
    press(&mut app, KeyCode::KeyL);
    assert_eq!(said(&app), "No move yet.");
    let count = app.world().resource::<Announcer>().count;
    press(&mut app, KeyCode::KeyA);
    assert_eq!(said(&app), "No move yet.");
    assert_eq!(app.world().resource::<Announcer>().count, count + 1);
}

#[test]
fn a_screen_reader_s_clicks_choose_a_pit_and_sow_it_and_a_move_can_wait_for_confirmation() {
    let mut app = app_with(
        Settings {
            confirm_sow: true,
            ..settings()
        },
        on_the_board(),
        None,
    );
    settle(&mut app);
    let click = |app: &mut App, entity: Entity| {
        app.world_mut()
            .write_message(ActionRequest(accesskit::ActionRequest {
                action: accesskit::Action::Click,
                target_tree: accesskit::TreeId::ROOT,
                target_node: accesskit::NodeId(entity.to_bits()),
                data: None,
            }));
        frames(app, 2);
    };
    let world = app.world_mut();
    let cell = world
        .query::<(Entity, &PitCell)>()
        .iter(world)
        .find(|(_, c)| c.0 == 2)
        .map(|(e, _)| e)
        .unwrap();
    click(&mut app, cell);
    assert!(
        said(&app).starts_with("your pit 3 chosen."),
        "{}",
        said(&app)
    );
    let world = app.world_mut();
    let left = world
        .query::<(Entity, &SowButton)>()
        .iter(world)
        .next()
        .map(|(e, _)| e)
        .unwrap();
    click(&mut app, left);
    // Held for confirmation: nothing played yet; the question has the focus.
    assert!(app.world().resource::<PendingSow>().0.is_some());
    assert_eq!(pos(&app).ply(), 0);
    frames(&mut app, 3);
    assert_eq!(focused(&app), "Sow");
    press(&mut app, KeyCode::Enter);
    frames(&mut app, 2);
    assert!(pos(&app).ply() >= 1);
    let recent = app.world().resource::<Announcer>().recent.clone();
    assert!(
        recent.iter().any(|s| s.starts_with("You sowed your pit 3")),
        "{recent:?}"
    );
}

#[test]
fn every_screen_can_be_walked_with_tab_and_every_stop_has_a_name() {
    let mut app = app_with(settings(), Launch::default(), None);
    settle(&mut app);
    for screen in [
        Screen::Playing,
        Screen::Title,
        Screen::Puzzles,
        Screen::Lesson,
        Screen::Online,
    ] {
        if *app.world().resource::<State<Screen>>().get() != screen {
            app.world_mut()
                .resource_mut::<NextState<Screen>>()
                .set(screen);
        }
        frames(&mut app, 6);
        let mut stops = std::collections::BTreeSet::new();
        for _ in 0..30 {
            press(&mut app, KeyCode::Tab);
            let name = focused(&app);
            let focus = app.world().resource::<InputFocus>().get();
            let node = focus
                .and_then(|e| app.world().get::<AccessibilityNode>(e))
                .map(|n| format!("{:?}", &**n));
            assert!(
                !name.is_empty(),
                "{screen:?}: a stop without a name: {node:?}"
            );
            stops.insert(name);
        }
        // The online screen asks first who plays here: two answers.
        let least = if screen == Screen::Online { 2 } else { 3 };
        assert!(stops.len() >= least, "{screen:?}: {stops:?}");
    }
    // Answered from the keyboard, the online screen's own buttons follow.
    for _ in 0..4 {
        if focused(&app) == "A grown-up" {
            break;
        }
        press(&mut app, KeyCode::Tab);
    }
    press(&mut app, KeyCode::Enter);
    frames(&mut app, 6);
    let mut stops = std::collections::BTreeSet::new();
    for _ in 0..30 {
        press(&mut app, KeyCode::Tab);
        stops.insert(focused(&app));
    }
    assert!(stops.len() >= 3, "the online screen: {stops:?}");
    assert!(!stops.contains(""), "{stops:?}");
}
