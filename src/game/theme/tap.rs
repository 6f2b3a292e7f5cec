//! A finger's press on a button acts when the finger lifts without having moved (a tap), as a
//! phone's buttons do: a finger that comes down on a button and drags scrolls the page (or
//! sows a pit) instead of pressing it. The mouse and the keyboard still press at once.

use bevy::prelude::*;
use bevy::ui::{UiGlobalTransform, UiSystems};
use bevy::window::PrimaryWindow;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Tap>();
    // After the interface's own focus system has marked the button under the finger pressed,
    // before any screen reads it.
    app.add_systems(PreUpdate, hold_until_lifted.after(UiSystems::Focus));
}

/// Farther than this (in points) from where it came down, a finger drags rather than taps.
const TAP_SLOP: f32 = 12.0;

/// The button a finger came down on and where, whether it has since moved too far for a tap,
/// and the button a tap pressed in the last frame (let go in this one).
#[derive(Resource, Default)]
struct Tap {
    held: Option<(Entity, Vec2)>,
    dragged: bool,
    pressed: Option<Entity>,
}

fn hold_until_lifted(
    touches: Res<Touches>,
    window: Single<&Window, With<PrimaryWindow>>,
    mut tap: ResMut<Tap>,
    mut buttons: Query<(Entity, &mut Interaction, &ComputedNode, &UiGlobalTransform)>,
) {
    // A tap is a press and its release, one frame apart.
    if let Some(entity) = tap.pressed.take()
        && let Ok((_, mut interaction, _, _)) = buttons.get_mut(entity)
        && *interaction == Interaction::Pressed
    {
        *interaction = Interaction::None;
    }
    if let Some(down) = touches.iter_just_pressed().next() {
        tap.dragged = false;
        tap.held = None;
        for (entity, mut interaction, _, _) in &mut buttons {
            if *interaction == Interaction::Pressed {
                // Not yet: the screens act on a press, and this may become a drag.
                *interaction = Interaction::None;
                tap.held = Some((entity, down.position()));
            }
        }
    }
    if let Some((_, start)) = tap.held
        && touches
            .iter()
            .any(|t| t.position().distance(start) > TAP_SLOP)
    {
        tap.dragged = true;
    }
    let lifted = touches
        .iter_just_released()
        .chain(touches.iter_just_canceled())
        .next()
        .map(|t| t.position());
    let Some(at) = lifted else { return };
    let Some((entity, start)) = tap.held.take() else {
        return;
    };
    let scale = window.scale_factor();
    let moved = tap.dragged || at.distance(start) > TAP_SLOP;
    if let Ok((_, mut interaction, node, place)) = buttons.get_mut(entity)
        && !moved
        && (at * scale - place.translation)
            .abs()
            .cmple(node.size() / 2.0)
            .all()
    {
        *interaction = Interaction::Pressed;
        tap.pressed = Some(entity);
    }
}
