//! Panels taller than the window scroll: by the wheel, by a finger's drag, and (in
//! `access::focus`) to keep the keyboard's focus in sight.

use bevy::prelude::*;
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.add_message::<bevy::input::mouse::MouseWheel>();
    app.add_systems(
        Update,
        (wheel_scroll, touch_scroll).in_set(crate::game::state::GameSet::Input),
    );
}

/// A panel whose content may be taller than the window (large text, a phone): it scrolls, by
/// the wheel and to keep the keyboard's focus in sight.
#[derive(Component, Default)]
pub struct Scrolls;

/// A panel that scrolls only when the wheel turns or a finger drags over it (a caption beside
/// the board, where a drag elsewhere is a move); a page scrolls wherever it is.
#[derive(Component, Default)]
pub struct ScrollsUnderPointer;

/// How far one notch of a mouse wheel scrolls a panel, in points.
const WHEEL_LINE: f32 = 40.0;

/// The wheel scrolls every shown panel that scrolls (there is one at a time on top).
fn wheel_scroll(
    mut wheel: MessageReader<bevy::input::mouse::MouseWheel>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut panels: Query<ScrollPanel, With<Scrolls>>,
) {
    use bevy::input::mouse::MouseScrollUnit;
    let dy: f32 = wheel
        .read()
        .map(|w| match w.unit {
            MouseScrollUnit::Line => w.y * WHEEL_LINE,
            MouseScrollUnit::Pixel => w.y,
        })
        .sum();
    let at = window.physical_cursor_position();
    scroll_shown(&mut panels, dy, at);
}

/// A finger dragged up or down scrolls every shown panel that scrolls, as the wheel does (a
/// phone has no wheel: without this a long page's end was out of reach).
fn touch_scroll(
    touches: Res<Touches>,
    scale: Res<UiScale>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut panels: Query<ScrollPanel, With<Scrolls>>,
) {
    // The touches' points are the window's; the panels', the interface's (its scale).
    let dy: f32 = touches.iter().map(|t| t.delta().y).sum::<f32>() / scale.0.max(0.1);
    let at = touches
        .iter()
        .next()
        .map(|t| t.position() * window.scale_factor());
    scroll_shown(&mut panels, dy, at);
}

/// What scrolling needs of a panel: where it scrolls to, whether it shows, where it is and
/// whether only a pointer over it scrolls it.
type ScrollPanel = (
    &'static mut ScrollPosition,
    &'static Node,
    &'static ComputedNode,
    &'static bevy::ui::UiGlobalTransform,
    Has<ScrollsUnderPointer>,
);

/// Every shown panel that scrolls, moved by `dy` points (down the content for a negative one);
/// one that scrolls under the pointer only when `at` (the pointer, in physical pixels) is over
/// it.
fn scroll_shown(panels: &mut Query<ScrollPanel, With<Scrolls>>, dy: f32, at: Option<Vec2>) {
    if dy == 0.0 {
        return;
    }
    for (mut scroll, node, computed, place, under_pointer) in panels {
        let over = |p: Vec2| {
            let half = computed.size() / 2.0;
            (p - place.translation).abs().cmple(half).all()
        };
        if under_pointer && !at.is_some_and(over) {
            continue;
        }
        if node.display != Display::None {
            // The layout keeps it within the content.
            scroll.y = (scroll.y - dy).max(0.0);
        }
    }
}
