//! How to play in three pictures, for a child or a grandparent: pick a square, drop the stones
//! one by one, take the pit after an empty one. It opens by itself on the first visit (before
//! the first game) and from the title screen's "How to play"; the full rules are one press away.

use bevy::prelude::*;

use crate::game::board::art::{Art, PEBBLE_SHADES, PLAYER_COLOURS};
use crate::game::screens::actions::Action;
use crate::game::state::{Overlay, Prefs, Screen};
use crate::game::theme::widget::{self, button, panel, row, text};
use crate::session::Lang;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        first_visit
            .run_if(in_state(Screen::Title).and_eager(in_state(Overlay::None)))
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// The card opens once, by itself, on the title screen of the first visit.
fn first_visit(mut prefs: ResMut<Prefs>, mut overlay: ResMut<NextState<Overlay>>) {
    if !prefs.seen_intro {
        prefs.seen_intro = true;
        overlay.set(Overlay::Intro);
    }
}

/// A pit of a picture: its stones, whether it glows (and in whose colour), and the count of
/// a hand held over it.
#[derive(Clone, Copy, Default)]
struct Pit {
    stones: usize,
    glow: Option<usize>,
    hand: Option<usize>,
}

const fn pit(stones: usize) -> Pit {
    Pit {
        stones,
        glow: None,
        hand: None,
    }
}

/// Size of a pit in the pictures, in pixels.
const SIDE: f32 = 60.0;

/// The card: a heading, three steps (a picture and a line each, side by side where there is
/// room and one under another on a phone), and two buttons.
pub(super) fn card(commands: &mut Commands, art: &Art, lang: Lang) -> Entity {
    let steps: [(&str, [Pit; 4]); 3] = [
        (
            "intro.pick",
            [
                pit(5),
                Pit {
                    stones: 0,
                    glow: Some(0),
                    hand: Some(5),
                },
                pit(5),
                pit(5),
            ],
        ),
        (
            "intro.sow",
            [
                pit(0),
                pit(6),
                Pit {
                    stones: 6,
                    glow: None,
                    hand: Some(3),
                },
                pit(5),
            ],
        ),
        (
            "intro.capture",
            [
                pit(6),
                pit(0),
                Pit {
                    stones: 4,
                    glow: Some(0),
                    hand: None,
                },
                pit(5),
            ],
        ),
    ];
    commands
        .spawn(panel(1000.0))
        .with_children(|p| {
            p.spawn((
                widget::title(art, lang.tr("help.title"), 30.0),
                TextLayout::justify(Justify::Center),
            ));
            p.spawn(Node {
                justify_content: JustifyContent::Center,
                column_gap: px(18),
                row_gap: px(14),
                ..row()
            })
            .with_children(|r| {
                for (number, (key, pits)) in steps.iter().enumerate() {
                    step(r, art, number + 1, pits, lang.tr(key));
                }
            });
            p.spawn(Node {
                justify_content: JustifyContent::Center,
                ..row()
            })
            .with_children(|r| {
                r.spawn(button(art, Action::Back, lang.tr("intro.play")));
                r.spawn(button(art, Action::OpenHelp, lang.tr("intro.rules")));
            });
        })
        .id()
}

/// One step: its number, its picture and its words.
fn step(r: &mut ChildSpawnerCommands, art: &Art, number: usize, pits: &[Pit; 4], words: &str) {
    r.spawn(Node {
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        row_gap: px(6),
        width: px(320),
        max_width: percent(100),
        ..default()
    })
    .with_children(|s| {
        s.spawn(Node {
            align_items: AlignItems::Center,
            column_gap: px(10),
            ..row()
        })
        .with_children(|line| {
            // The number on a coin of the mover's colour.
            line.spawn((
                Node {
                    width: px(30),
                    height: px(30),
                    align_items: AlignItems::Center,
                    justify_content: JustifyContent::Center,
                    border_radius: BorderRadius::all(px(15)),
                    ..default()
                },
                BackgroundColor(PLAYER_COLOURS[0]),
                children![widget::title(art, number.to_string(), 18.0)],
            ));
            picture(line, art, pits);
        });
        s.spawn((text(art, words, 17.0), TextLayout::justify(Justify::Center)));
    });
}

/// A strip of wood with four pits drawn as the board draws them.
fn picture(line: &mut ChildSpawnerCommands, art: &Art, pits: &[Pit; 4]) {
    line.spawn((
        Node {
            padding: UiRect::axes(px(8), px(22)),
            column_gap: px(5),
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        ImageNode::new(art.board.clone()),
    ))
    .with_children(|wood| {
        for p in pits {
            wood.spawn((
                Node {
                    width: px(SIDE),
                    height: px(SIDE),
                    ..default()
                },
                ImageNode::new(art.pit.clone()),
            ))
            .with_children(|hollow| {
                if let Some(player) = p.glow {
                    let spread = SIDE * crate::game::board::art::GLOW_SPREAD / 118.0;
                    hollow.spawn((
                        Node {
                            position_type: PositionType::Absolute,
                            left: px(-spread),
                            top: px(-spread),
                            width: px(SIDE + 2.0 * spread),
                            height: px(SIDE + 2.0 * spread),
                            ..default()
                        },
                        ImageNode::new(art.pit_glow.clone())
                            .with_color(PLAYER_COLOURS[player].with_alpha(0.9)),
                    ));
                }
                for k in 0..p.stones {
                    let angle = k as f32 * 2.4;
                    let r = 6.5 * (k as f32).sqrt();
                    let size = 16.0;
                    hollow.spawn((
                        Node {
                            position_type: PositionType::Absolute,
                            left: px(SIDE / 2.0 - size / 2.0 + r * angle.cos()),
                            top: px(SIDE / 2.0 - size / 2.0 + r * angle.sin()),
                            width: px(size),
                            height: px(size),
                            ..default()
                        },
                        ImageNode::new(art.pebble.clone())
                            .with_color(PEBBLE_SHADES[(k * 3 + 1) % PEBBLE_SHADES.len()]),
                    ));
                }
                if let Some(held) = p.hand {
                    // The hand's count floats over the pit, as in the game.
                    hollow.spawn((
                        Node {
                            position_type: PositionType::Absolute,
                            left: px(SIDE / 2.0 - 13.0),
                            top: px(-22.0),
                            width: px(26),
                            height: px(26),
                            align_items: AlignItems::Center,
                            justify_content: JustifyContent::Center,
                            border_radius: BorderRadius::all(px(13)),
                            ..default()
                        },
                        BackgroundColor(crate::game::theme::palette::CARD),
                        children![widget::title(art, held.to_string(), 15.0)],
                    ));
                }
            });
        }
    });
}
