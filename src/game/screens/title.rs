//! The title screen: the game's name over the board, the unfinished game to resume, a new
//! game, the settings, the rules, and the language.

use bevy::prelude::*;

use crate::game::screens::practice::{PracticeStore, now_ms};

use crate::game::board::art::Art;
use crate::game::platform::persist::SavedGame;
use crate::game::screens::actions::Action;
use crate::game::state::{Overlay, Prefs, Screen};
use crate::game::theme::widget::{self, button, panel, row, text};
use crate::session::Lang;

#[derive(Component)]
struct TitleRoot;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        build
            .run_if(in_state(Screen::Title))
            .run_if(
                state_changed::<Screen>
                    .or_eager(resource_changed::<Prefs>)
                    .or_eager(resource_changed::<SavedGame>)
                    .or_eager(state_changed::<Overlay>),
            )
            .in_set(crate::game::state::GameSet::Show),
    );
}

fn build(
    mut commands: Commands,
    prefs: Res<Prefs>,
    saved: Res<SavedGame>,
    overlay: Res<State<Overlay>>,
    art: Res<Art>,
    (roots, practice): (Query<Entity, With<TitleRoot>>, Res<PracticeStore>),
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    // A panel from the title (the menu, the rules) takes the screen alone.
    if *overlay.get() != Overlay::None {
        return;
    }
    let lang = prefs.lang();
    commands
        .spawn((
            TitleRoot,
            DespawnOnExit(Screen::Title),
            widget::backdrop(0.55),
        ))
        .with_children(|b| {
            b.spawn(panel(560.0)).with_children(|p| {
                p.spawn((
                    widget::title(&art, "Ô ăn quan", 64.0),
                    TextLayout::justify(Justify::Center),
                ));
                p.spawn((
                    text(&art, lang.tr("title.subtitle"), 20.0),
                    TextLayout::justify(Justify::Center),
                ));
                if let Some(history) = &saved.0 {
                    let moves = history.entries().len();
                    p.spawn((
                        text(&art, lang.trf("resume.offer", &[("moves", &moves)]), 17.0),
                        TextLayout::justify(Justify::Center),
                    ));
                    p.spawn(button(&art, Action::Resume, lang.tr("resume.yes")));
                }
                p.spawn(button(&art, Action::NewGame, lang.tr("title.play")));
                p.spawn(button(&art, Action::PlayOnline, lang.tr("title.online")));
                p.spawn(button(&art, Action::Puzzles, lang.tr("title.puzzles")));
                // The player's own mistakes come back on their day.
                let due = practice.due(now_ms()).len();
                if due > 0 {
                    let words = lang.trf("title.practice", &[("n", &due)]);
                    p.spawn(button(&art, Action::Practice, words));
                }
                // Two on a line: the panel keeps its height, and the buttons above their place.
                p.spawn(Node {
                    justify_content: JustifyContent::Center,
                    ..row()
                })
                .with_children(|r| {
                    r.spawn(button(&art, Action::OpenMenu, lang.tr("title.menu")));
                    r.spawn(button(&art, Action::Intro, lang.tr("menu.help")));
                });
                p.spawn(Node {
                    justify_content: JustifyContent::Center,
                    ..row()
                })
                .with_children(|r| {
                    for option in Lang::ALL {
                        r.spawn(button(&art, Action::Language(option), option.name()));
                    }
                });
            });
        });
}
