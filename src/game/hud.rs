//! Everything around the board: the button bar (new game, opponent, who starts, speed, skip),
//! the message line, the thinking indicator and the game-over panel.

use bevy::prelude::*;

use super::ai_turn::Thinking;
use super::art::{Art, INK, PLAYER_COLOURS};
use super::layout;
use super::state::{Game, Message, NewGame, Opponent, Phase, Settings, Skip};
use super::text;
use super::turn::Swept;
use crate::ai::Level;

/// What a button does.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    NewGame,
    Opponent,
    First,
    Speed,
    Skip,
}

#[derive(Component)]
struct MessageLine;

#[derive(Component)]
struct ThinkingLabel;

#[derive(Component)]
struct GameOverPanel;

#[derive(Component)]
struct GameOverText;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_hud);
    app.add_systems(Update, press_buttons.in_set(super::GameSet::Input));
    app.add_systems(
        Update,
        (
            label_buttons.run_if(resource_changed::<Settings>.or_eager(resource_changed::<Phase>)),
            show_message.run_if(resource_changed::<Message>),
            show_thinking,
            show_game_over.run_if(resource_changed::<Phase>),
        )
            .in_set(super::GameSet::Show),
    );
}

fn button(action: Action, font: &Handle<Font>) -> impl Bundle {
    (
        Button,
        action,
        Node {
            padding: UiRect::axes(px(14), px(8)),
            margin: UiRect::left(px(8)),
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        BackgroundColor(Color::srgba(0.15, 0.09, 0.05, 0.85)),
        children![(
            Text::new(""),
            TextFont {
                font: font.clone().into(),
                font_size: FontSize::Px(18.0),
                ..default()
            },
            TextColor(INK),
        )],
    )
}

fn spawn_hud(mut commands: Commands, art: Res<Art>) {
    let font = art.font.clone();
    commands.spawn((
        Node {
            position_type: PositionType::Absolute,
            top: px(10),
            right: px(10),
            flex_direction: FlexDirection::Row,
            ..default()
        },
        children![
            button(Action::NewGame, &font),
            button(Action::Opponent, &font),
            button(Action::First, &font),
            button(Action::Speed, &font),
            button(Action::Skip, &font),
        ],
    ));
    commands.spawn((
        MessageLine,
        Text2d::new(""),
        TextFont {
            font: art.font.clone().into(),
            font_size: FontSize::Px(22.0),
            ..default()
        },
        TextColor(INK),
        Transform::from_translation(layout::message_position().extend(10.0)),
    ));
    commands.spawn((
        ThinkingLabel,
        Text2d::new("thinking…"),
        TextFont {
            font: art.font.clone().into(),
            font_size: FontSize::Px(20.0),
            ..default()
        },
        TextColor(PLAYER_COLOURS[1]),
        Transform::from_translation(
            (layout::store_center(1) + Vec2::new(-420.0, 0.0)).extend(10.0),
        ),
        Visibility::Hidden,
    ));
    commands
        .spawn((
            GameOverPanel,
            Node {
                position_type: PositionType::Absolute,
                width: percent(100),
                height: percent(100),
                justify_content: JustifyContent::Center,
                align_items: AlignItems::Center,
                ..default()
            },
            Visibility::Hidden,
        ))
        .with_children(|parent| {
            parent
                .spawn((
                    Node {
                        flex_direction: FlexDirection::Column,
                        align_items: AlignItems::Center,
                        padding: UiRect::all(px(28)),
                        row_gap: px(16),
                        border_radius: BorderRadius::all(px(18)),
                        ..default()
                    },
                    BackgroundColor(Color::srgba(0.12, 0.07, 0.04, 0.93)),
                ))
                .with_children(|panel| {
                    panel.spawn((
                        GameOverText,
                        Text::new(""),
                        TextFont {
                            font: art.bold.clone().into(),
                            font_size: FontSize::Px(24.0),
                            ..default()
                        },
                        TextColor(INK),
                        TextLayout::justify(Justify::Center),
                    ));
                    panel.spawn(button(Action::NewGame, &font));
                });
        });
}

fn press_buttons(
    mut commands: Commands,
    buttons: Query<(&Interaction, &Action), Changed<Interaction>>,
    mut settings: ResMut<Settings>,
) {
    for (interaction, action) in &buttons {
        if *interaction != Interaction::Pressed {
            continue;
        }
        match action {
            Action::NewGame => commands.trigger(NewGame),
            Action::Opponent => {
                settings.opponent = next_opponent(settings.opponent);
                commands.trigger(NewGame);
            }
            Action::First => {
                settings.human_first = !settings.human_first;
                commands.trigger(NewGame);
            }
            Action::Speed => settings.speed = settings.speed.next(),
            Action::Skip => commands.trigger(Skip),
        }
    }
}

/// Easy, Medium, Hard, Master, then two players on one device.
fn next_opponent(current: Opponent) -> Opponent {
    let named = [
        Level::easy(),
        Level::medium(),
        Level::hard(),
        Level::master(),
    ];
    match current {
        Opponent::Human => Opponent::Computer(named[0]),
        Opponent::Computer(level) => match named.iter().position(|l| l.level == level.level) {
            Some(i) if i + 1 < named.len() => Opponent::Computer(named[i + 1]),
            _ => Opponent::Human,
        },
    }
}

fn label_buttons(
    settings: Res<Settings>,
    phase: Res<Phase>,
    buttons: Query<(&Action, &Children)>,
    mut texts: Query<&mut Text>,
) {
    for (action, children) in &buttons {
        let label = match action {
            Action::NewGame if *phase == Phase::Over => "Play again".to_owned(),
            Action::NewGame => "New game".to_owned(),
            Action::Opponent => match settings.opponent {
                Opponent::Human => "2 players".to_owned(),
                Opponent::Computer(level) => match level.name() {
                    Some(name) => {
                        format!("vs computer: {}{}", name[..1].to_uppercase(), &name[1..])
                    }
                    None => format!("vs computer: level {}", level.level),
                },
            },
            Action::First if settings.human_first => "You start".to_owned(),
            Action::First => "Computer starts".to_owned(),
            Action::Speed => settings.speed.label().to_owned(),
            Action::Skip => "Skip »".to_owned(),
        };
        for &child in children {
            if let Ok(mut text) = texts.get_mut(child)
                && text.0 != label
            {
                text.0 = label.clone();
            }
        }
    }
}

fn show_message(message: Res<Message>, mut line: Query<&mut Text2d, With<MessageLine>>) {
    for mut text in &mut line {
        if text.0 != message.0 {
            text.0 = message.0.clone();
        }
    }
}

fn show_thinking(
    thinking: Query<(), With<Thinking>>,
    mut label: Query<&mut Visibility, With<ThinkingLabel>>,
) {
    let shown = if thinking.is_empty() {
        Visibility::Hidden
    } else {
        Visibility::Visible
    };
    for mut visibility in &mut label {
        visibility.set_if_neq(shown);
    }
}

fn show_game_over(
    phase: Res<Phase>,
    game: Res<Game>,
    swept: Res<Swept>,
    mut panel: Query<&mut Visibility, With<GameOverPanel>>,
    mut texts: Query<&mut Text, With<GameOverText>>,
) {
    let over = *phase == Phase::Over;
    for mut visibility in &mut panel {
        visibility.set_if_neq(if over {
            Visibility::Inherited
        } else {
            Visibility::Hidden
        });
    }
    if !over {
        return;
    }
    let pos = &game.pos;
    let name = |p: usize| match game.computer {
        // Two humans, or the computer against itself: seats by number.
        [None, None] | [Some(_), Some(_)] => format!("Player {}", p + 1),
        c if c[p].is_some() => "Computer".to_owned(),
        _ => "You".to_owned(),
    };
    let headline = match pos.places() {
        Some(places) if places[0] == places[1] => "A draw!".to_owned(),
        Some(places) => {
            let winner = if places[0] < places[1] { 0 } else { 1 };
            let human_beat_computer =
                game.computer[winner].is_none() && game.computer.iter().any(Option::is_some);
            if human_beat_computer {
                "You win!".to_owned()
            } else {
                format!("{} wins", name(winner))
            }
        }
        None => String::new(),
    };
    let mut body = headline;
    for p in 0..pos.players() {
        body += &format!("\n{}: {}", name(p), text::final_count(pos, p, swept.0[p]));
    }
    for mut text in &mut texts {
        if text.0 != body {
            text.0 = body.clone();
        }
    }
}
