//! The bars along the board's edges (buttons at the top, a list at the side, a caption at the
//! bottom) and where they stand: a phone held sideways turns the top bar into a column, and
//! the lists at the side fit between the bars as measured.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

use super::scroll::{Scrolls, ScrollsUnderPointer};
use super::target::PHONE_SIDE;
use super::widget::{bold, row, text};
use crate::game::board::art::Art;
use crate::game::state::BoardEdge;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (stand_bars, place_side_lists).in_set(crate::game::state::GameSet::Show),
    );
}

/// The row of buttons along the top of a screen, at its right.
pub fn top_bar() -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            top: px(8),
            left: px(8),
            right: px(8),
            justify_content: JustifyContent::FlexEnd,
            ..row()
        },
        BoardEdge::Top,
    )
}

/// On a window wider than high and lower than a phone's short side at the text's size (a phone
/// held sideways), the bars along the top stand as columns at the right edge: the board there
/// lacks height, not width. They lie back along the top when the window turns.
fn stand_bars(
    window: Single<&Window, With<PrimaryWindow>>,
    scale: Res<UiScale>,
    mut bars: Query<(&BoardEdge, &mut Node)>,
    added: Query<(), Added<BoardEdge>>,
    mut was_low: Local<Option<bool>>,
) {
    let size = window.size() / scale.0;
    let low = size.x > size.y && size.y < PHONE_SIDE;
    if *was_low == Some(low) && added.is_empty() {
        return;
    }
    *was_low = Some(low);
    for (edge, mut node) in &mut bars {
        if *edge != BoardEdge::Top {
            continue;
        }
        let standing = node.flex_direction == FlexDirection::Column;
        if standing == low {
            continue;
        }
        if low {
            node.flex_direction = FlexDirection::Column;
            node.left = Val::Auto;
            node.bottom = px(8);
            node.justify_content = JustifyContent::FlexStart;
        } else {
            node.flex_direction = FlexDirection::Row;
            node.left = px(8);
            node.bottom = Val::Auto;
            node.justify_content = JustifyContent::FlexEnd;
        }
    }
}

/// A list down the window's left side beside the board (the moves, `padding` inside, `gap`
/// between lines, at least `min_width` wide): under the top bar, above the bottom one, and
/// scrolling when longer than the room between them (`place_side_lists`).
pub fn side_list(min_width: f32, padding: f32, gap: f32) -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            left: px(8),
            top: px(8),
            flex_direction: FlexDirection::Column,
            padding: UiRect::all(px(padding)),
            row_gap: px(gap),
            min_width: px(min_width),
            border_radius: BorderRadius::all(px(12)),
            overflow: Overflow::scroll_y(),
            ..default()
        },
        BackgroundColor(super::palette::STRIP),
        GlobalZIndex(5),
        BoardEdge::Left,
        Scrolls,
        ScrollsUnderPointer,
    )
}

/// The lists at the side start under the top bar and end above the bottom one, and the bars
/// along the bottom end beside a top bar standing as a column, as measured.
fn place_side_lists(
    room: Res<crate::game::state::BarSpace>,
    window: Single<&Window, With<PrimaryWindow>>,
    scale: Res<UiScale>,
    mut lists: Query<(&BoardEdge, &mut Node)>,
    added: Query<(), Added<BoardEdge>>,
) {
    if !room.is_changed() && added.is_empty() {
        return;
    }
    // The room is in the window's points, the nodes in the interface's (its scale).
    let scale = scale.0.max(0.1);
    let top = room.top / scale + 8.0;
    let tallest = (window.height() - room.top - room.bottom) / scale - 16.0;
    for (edge, mut node) in &mut lists {
        match edge {
            BoardEdge::Left => {
                node.top = px(top);
                node.max_height = px(tallest.max(0.0));
            }
            // The lists at the side end above it: only a column at the right stands beside it.
            BoardEdge::Bottom => node.right = px(room.right / scale + 8.0),
            BoardEdge::Top => {}
        }
    }
}

/// The most of the window's height a caption along the bottom takes, in per cent.
const CAPTION_SHARE: f32 = 20.0;

/// A dark box centred along the bottom of the window with two lines of text, a bold one tagged
/// `head` and an ordinary one tagged `body`; the whole tagged `scope` (the screen it belongs to).
pub fn bottom_caption(
    commands: &mut Commands,
    art: &Art,
    scope: impl Bundle,
    head: impl Component,
    body: impl Component,
) {
    commands
        .spawn((
            scope,
            Node {
                position_type: PositionType::Absolute,
                left: px(8),
                right: px(8),
                bottom: px(8),
                justify_content: JustifyContent::Center,
                ..default()
            },
            BoardEdge::Bottom,
        ))
        .with_children(|b| {
            b.spawn((
                Node {
                    flex_direction: FlexDirection::Column,
                    align_items: AlignItems::Center,
                    padding: UiRect::axes(px(16), px(8)),
                    row_gap: px(4),
                    max_width: px(900),
                    // At a large text size on a phone the words would leave the board no room:
                    // past a share of the window they scroll.
                    max_height: Val::Vh(CAPTION_SHARE),
                    overflow: Overflow::scroll_y(),
                    border_radius: BorderRadius::all(px(12)),
                    ..default()
                },
                Scrolls,
                ScrollsUnderPointer,
                BackgroundColor(Color::srgba(0.10, 0.06, 0.03, 0.85)),
            ))
            .with_children(|p| {
                p.spawn((
                    head,
                    bold(art, "", 19.0),
                    TextLayout::justify(Justify::Center),
                ));
                p.spawn((
                    body,
                    text(art, "", 16.0),
                    TextLayout::justify(Justify::Center),
                ));
            });
        });
}
