//! The message line under the board and the thinking label beside it: both live in the world
//! and follow the board's layout.

use bevy::prelude::*;

use crate::game::board::art::{Art, INK, PLAYER_COLOURS};
use crate::game::board::layout::Layout;
use crate::game::board::text;
use crate::game::play::ai_turn::Thinking;
use crate::game::state::{Game, Message, Note, Prefs, Screen};

#[derive(Component)]
pub(super) struct MessageLine;

#[derive(Component)]
pub(super) struct ThinkingLabel;

/// Font sizes of the message line and the thinking label, in world units on the landscape
/// board.
const MESSAGE_SIZE: f32 = 22.0;

const THINKING_SIZE: f32 = 20.0;

/// The message line and the thinking label live in the world, under and beside the board.
pub(super) fn spawn_board_texts(mut commands: Commands, art: Res<Art>) {
    commands.spawn((
        MessageLine,
        crate::game::state::BoardLabel,
        Text2d::new(""),
        TextFont {
            font: art.font.clone().into(),
            font_size: FontSize::Px(MESSAGE_SIZE),
            ..default()
        },
        TextColor(INK),
        TextLayout::justify(Justify::Center),
        bevy::text::TextBounds::default(),
        // A long message wraps upward, away from the window's edge.
        bevy::sprite::Anchor::BOTTOM_CENTER,
        Transform::default(),
    ));
    commands.spawn((
        ThinkingLabel,
        crate::game::state::BoardLabel,
        Text2d::new(""),
        TextFont {
            font: art.font.clone().into(),
            font_size: FontSize::Px(THINKING_SIZE),
            ..default()
        },
        TextColor(PLAYER_COLOURS[1]),
        Transform::default(),
        Visibility::Hidden,
    ));
}

pub(super) fn show_message(
    message: Res<Message>,
    prefs: Res<Prefs>,
    game: Res<Game>,
    layout: Res<Layout>,
    screen: Res<State<Screen>>,
    mut line: Query<&mut Text2d, With<MessageLine>>,
) {
    // The title and online screens only pass on what was said about files, not the turn.
    let notes: Vec<Note> = match screen.get() {
        Screen::Title | Screen::Online => message
            .0
            .iter()
            .filter(|n| matches!(n, Note::Text { .. }))
            .cloned()
            .collect(),
        Screen::Playing => message.0.clone(),
        // The review and the puzzles say what a move did, but whose turn it is is theirs.
        Screen::Review | Screen::Puzzles | Screen::Lesson => message
            .0
            .iter()
            .filter(|n| !matches!(n, Note::Turn))
            .cloned()
            .collect(),
    };
    let shown = text::message(&notes, &game, &layout, prefs.lang());
    for mut text in &mut line {
        if text.0 != shown {
            text.0 = shown.clone();
        }
    }
}

/// The message line runs along the bottom of the window (below the world on a phone taller
/// than the world), wrapped to the world's width.
pub(super) fn place_message(
    layout: Res<Layout>,
    text_scale: Res<crate::game::state::TextScale>,
    room: Res<crate::game::state::BarSpace>,
    projection: Single<&Projection, With<Camera2d>>,
    window: Single<&Window, With<bevy::window::PrimaryWindow>>,
    safe: Res<crate::game::safe_area::SafeArea>,
    mut line: Query<
        (&mut TextFont, &mut bevy::text::TextBounds, &mut Transform),
        With<MessageLine>,
    >,
) {
    // Above the room a screen's panel keeps under the board. The window's bottom in the world
    // from the projection as it now stands (its `area` follows only in the next frame, which a
    // still game may not draw soon).
    let height = safe.inner_size(window.size()).y;
    let bottom = room.world
        + match *projection {
            Projection::Orthographic(ortho) => -ortho.viewport_origin.y * height * ortho.scale,
            _ => -layout.world().y / 2.0,
        };
    let at = Vec3::new(0.0, bottom + 10.0, 10.0);
    let width = Some(layout.world().x - 40.0);
    let size = FontSize::Px(MESSAGE_SIZE * layout.text_scale() * text_scale.0);
    for (mut font, mut bounds, mut transform) in &mut line {
        if font.font_size != size {
            font.font_size = size;
        }
        if bounds.width != width {
            bounds.width = width;
        }
        if transform.translation != at {
            transform.translation = at;
        }
    }
}

pub(super) fn show_thinking(
    thinking: Query<(), With<Thinking>>,
    text_scale: Res<crate::game::state::TextScale>,
    prefs: Res<Prefs>,
    game: Res<Game>,
    layout: Res<Layout>,
    mut label: Query<
        (
            &mut Visibility,
            &mut Text2d,
            &mut TextFont,
            &mut Transform,
            &mut TextColor,
        ),
        With<ThinkingLabel>,
    >,
) {
    let shown = if thinking.is_empty() {
        Visibility::Hidden
    } else {
        Visibility::Visible
    };
    let size = FontSize::Px(THINKING_SIZE * layout.text_scale() * text_scale.0);
    for (mut visibility, mut text, mut font, mut transform, mut colour) in &mut label {
        colour.set_if_neq(TextColor(PLAYER_COLOURS[game.pos().to_move()]));
        visibility.set_if_neq(shown);
        if font.font_size != size {
            font.font_size = size;
        }
        let thinker = game.pos().to_move();
        let at = layout.thinking_position(thinker).extend(10.0);
        if transform.translation != at {
            transform.translation = at;
        }
        let words = prefs.lang().tr("hud.thinking");
        if text.0 != words {
            text.0 = words.to_owned();
        }
    }
}
