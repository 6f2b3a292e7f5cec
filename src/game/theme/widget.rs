//! Spawn helpers for the screens and panels: buttons, text and the dark panel they sit on, in
//! one look (the palette's). Their sizes for a finger are `target`'s, their pictures alone on a
//! phone `collapse`'s.

use bevy::prelude::*;

use super::collapse::{ButtonGlyph, ButtonWords, GLYPH};
use super::palette::{BUTTON, BUTTON_HOVER, INK, PANEL};
use super::scroll::Scrolls;
use super::target::{LARGE_HEIGHT, MOUSE_HEIGHT, TouchTarget};
use crate::art::glyphs::Glyph;
use crate::game::board::art::Art;

/// Text in the regular face.
pub fn text(art: &Art, value: impl Into<String>, size: f32) -> impl Bundle {
    text_in(art, value, size, INK)
}

/// Text in the regular face and `colour`.
pub fn text_in(art: &Art, value: impl Into<String>, size: f32, colour: Color) -> impl Bundle {
    (
        Text::new(value),
        TextFont {
            font: art.font.clone().into(),
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(colour),
    )
}

/// A heading in the display face.
pub fn title(art: &Art, value: impl Into<String>, size: f32) -> impl Bundle {
    (
        Text::new(value),
        TextFont {
            font: art.display.clone().into(),
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(INK),
    )
}

/// Text in the bold face.
pub fn bold(art: &Art, value: impl Into<String>, size: f32) -> impl Bundle {
    (
        Text::new(value),
        TextFont {
            font: art.bold.clone().into(),
            font_size: FontSize::Px(size),
            ..default()
        },
        TextColor(INK),
    )
}

/// A button that does `action` (an `Action`, or another screen's own), labelled `label`. Tall
/// enough for a finger.
pub fn button(art: &Art, action: impl Component, label: impl Into<String>) -> impl Bundle {
    (
        Button,
        action,
        TouchTarget { square: false },
        Node {
            padding: UiRect::axes(px(14), px(9)),
            min_height: px(MOUSE_HEIGHT),
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        BackgroundColor(BUTTON),
        children![(text(art, label, 18.0), TextLayout::justify(Justify::Center))],
    )
}

/// A button with a picture (`glyph`) and words, that does `action`.
pub fn icon_button(
    art: &Art,
    action: impl Component,
    glyph: Glyph,
    label: impl Into<String>,
) -> impl Bundle {
    (
        Button,
        action,
        TouchTarget { square: false },
        Node {
            padding: UiRect::axes(px(12), px(9)),
            min_height: px(MOUSE_HEIGHT),
            min_width: px(MOUSE_HEIGHT),
            column_gap: px(6),
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        BackgroundColor(BUTTON),
        children![
            (
                ButtonGlyph,
                ImageNode::new(art.glyph(glyph)).with_color(INK),
                Node {
                    width: px(GLYPH),
                    height: px(GLYPH),
                    ..default()
                },
            ),
            (
                ButtonWords,
                text(art, label, 18.0),
                TextLayout::justify(Justify::Center)
            )
        ],
    )
}

/// A small square button (‹, ›).
pub fn small_button(art: &Art, action: impl Component, label: &str) -> impl Bundle {
    (
        Button,
        action,
        TouchTarget { square: true },
        Node {
            width: px(MOUSE_HEIGHT),
            height: px(MOUSE_HEIGHT),
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(10)),
            ..default()
        },
        BackgroundColor(BUTTON),
        children![text(art, label, 20.0)],
    )
}

/// A line of a settings panel: its label, then its controls. A control's spoken name starts
/// with the label ("Sound: On"), as its place on screen says.
#[derive(Component, Default)]
pub struct SettingRow;

/// The root of a panel over the screen (a dialog): while one shows, the keyboard's focus stays
/// inside the topmost.
#[derive(Component, Default)]
pub struct Modal;

/// A full-window layer that centres its one child and dims the board behind it. It is a
/// dialog: the keyboard stays inside it while it shows.
pub fn backdrop(dim: f32) -> impl Bundle {
    (
        Modal,
        Node {
            position_type: PositionType::Absolute,
            width: percent(100),
            height: percent(100),
            justify_content: JustifyContent::Center,
            align_items: AlignItems::Center,
            ..default()
        },
        BackgroundColor(Color::srgba(0.0, 0.0, 0.0, dim)),
        GlobalZIndex(10),
    )
}

/// The dark rounded panel of dialogs and menus, at most `width` wide; it scrolls when its
/// content is taller than the window.
pub fn panel(width: f32) -> impl Bundle {
    (
        Node {
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Stretch,
            padding: UiRect::all(px(22)),
            row_gap: px(10),
            width: px(width),
            max_width: percent(96),
            max_height: percent(96),
            overflow: Overflow::scroll_y(),
            border_radius: BorderRadius::all(px(18)),
            ..default()
        },
        Scrolls,
        ScrollPosition::default(),
        BackgroundColor(PANEL),
    )
}

/// A large button for a main choice (a time control of "Play now"): its words large and bold
/// with a line under them, at least as tall as a large button, sharing its row with the others.
pub fn tile(
    art: &Art,
    action: impl Component,
    label: impl Into<String>,
    under: impl Into<String>,
) -> impl Bundle {
    (
        Button,
        action,
        Node {
            flex_direction: FlexDirection::Column,
            min_height: px(LARGE_HEIGHT),
            min_width: px(96),
            flex_grow: 1.0,
            flex_basis: px(96),
            padding: UiRect::axes(px(10), px(8)),
            align_items: AlignItems::Center,
            justify_content: JustifyContent::Center,
            border_radius: BorderRadius::all(px(12)),
            ..default()
        },
        BackgroundColor(BUTTON),
        children![
            (bold(art, label, 24.0), TextLayout::justify(Justify::Center)),
            (text(art, under, 14.0), TextLayout::justify(Justify::Center)),
        ],
    )
}

/// A row of controls, spread out and wrapping on a narrow screen.
pub fn row() -> Node {
    Node {
        flex_direction: FlexDirection::Row,
        flex_wrap: FlexWrap::Wrap,
        align_items: AlignItems::Center,
        column_gap: px(10),
        row_gap: px(8),
        ..default()
    }
}

/// A pressable node that keeps its own colours (the review's graph and list): `hover` leaves
/// it alone.
#[derive(Component, Default)]
pub struct OwnColours;

/// Light the button under the pointer.
pub fn hover(
    mut buttons: Query<
        (&Interaction, &mut BackgroundColor),
        (
            Changed<Interaction>,
            With<Button>,
            Without<OwnColours>,
            Without<bevy::ui::InteractionDisabled>,
        ),
    >,
) {
    for (interaction, mut colour) in &mut buttons {
        colour.0 = match interaction {
            Interaction::Hovered | Interaction::Pressed => BUTTON_HOVER,
            Interaction::None => BUTTON,
        };
    }
}
