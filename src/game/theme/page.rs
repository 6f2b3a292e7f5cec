//! A page over the screen (the online home, a list of people): its frame, its header that
//! stays in place with its Back, and its body that scrolls.

use bevy::prelude::*;

use super::palette::PANEL;
use super::scroll::Scrolls;
use super::widget::{button, row, title};
use crate::game::board::art::Art;

pub(super) fn plugin(app: &mut App) {
    app.add_observer(lift_header);
}

/// A page's frame (see `page`).
#[derive(Component, Default)]
pub struct PageFrame;

/// A page's header: wherever it is spawned in the page, it is moved to the top of the frame,
/// above the body that scrolls, so that it stays in place (with its Back) however long the page.
#[derive(Component, Default)]
pub struct PageHeader;

/// A header spawned inside a page's body goes to the top of the page's frame.
fn lift_header(
    added: On<Add, PageHeader>,
    mut commands: Commands,
    parents: Query<&ChildOf>,
    frames: Query<(), With<PageFrame>>,
) {
    let header = added.entity;
    let Some(frame) = parents
        .iter_ancestors(header)
        .find(|&ancestor| frames.contains(ancestor))
    else {
        return;
    };
    if parents
        .get(header)
        .is_ok_and(|parent| parent.parent() != frame)
    {
        commands.entity(frame).insert_children(0, &[header]);
    }
}

/// A page over the screen (the online home, a list of people): the whole window on a phone,
/// a panel at most `width` wide elsewhere. Its first children (a header) stay in place while
/// its `page_body` scrolls.
pub fn page(width: f32, phone: bool) -> impl Bundle {
    let (width, height, margin, radius, padding) = if phone {
        (percent(100), percent(100), 100.0, 0.0, 12.0)
    } else {
        (px(width), Val::Auto, 96.0, 18.0, 22.0)
    };
    (
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Stretch,
            padding: UiRect::all(px(padding)),
            row_gap: px(10),
            width,
            height,
            max_width: percent(margin),
            max_height: percent(margin),
            border_radius: BorderRadius::all(px(radius)),
            ..default()
        },
        BackgroundColor(PANEL),
        PageFrame,
    )
}

/// The part of a `page` under its header: it scrolls (by the wheel, and to keep the keyboard's
/// focus in sight) when the page is taller than the window.
pub fn page_body() -> impl Bundle {
    (
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Stretch,
            row_gap: px(10),
            flex_grow: 1.0,
            flex_shrink: 1.0,
            min_height: px(0),
            overflow: Overflow::scroll_y(),
            ..default()
        },
        Scrolls,
        ScrollPosition::default(),
    )
}

/// A page's title at the left and its Back button (doing `back`) at the right; the row also
/// carries `with` (a `PageHeader`, or `()`).
pub fn title_and_back(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    title_words: String,
    back: impl Component,
    back_words: &str,
    with: impl Bundle,
) {
    p.spawn((
        with,
        Node {
            justify_content: JustifyContent::SpaceBetween,
            ..row()
        },
    ))
    .with_children(|r| {
        r.spawn(title(art, title_words, 24.0));
        r.spawn(button(art, back, back_words));
    });
}
