//! A press of a button, as an event on the button (`Activate`): a click, a finger's tap as it
//! lifts (`tap`), Enter or Space on the focused button and a screen reader's click all end as
//! `Interaction::Pressed`, read here and nowhere else. A screen carries out its buttons'
//! actions in an observer of `Activate`; the click is heard through one observer too
//! (`play::sound`).

use bevy::prelude::*;

use crate::game::state::GameSet;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, activate_pressed.in_set(GameSet::Press));
}

/// A button was pressed: `entity` is the button (its action a component of it).
#[derive(EntityEvent, Clone, Copy, Debug)]
pub struct Activate {
    pub entity: Entity,
}

/// A pressable surface dragged along rather than pressed (the review's graph): its presses are
/// its own system's, neither an `Activate` nor a click.
#[derive(Component, Default)]
pub struct Surface;

/// Every button pressed in this frame is activated once: its observers run before the frame's
/// input is read (`GameSet::Press` comes first).
fn activate_pressed(
    mut commands: Commands,
    buttons: Query<(Entity, &Interaction), (Changed<Interaction>, Without<Surface>)>,
) {
    for (entity, interaction) in &buttons {
        if *interaction == Interaction::Pressed {
            commands.trigger(Activate { entity });
        }
    }
}
