//! A press of a button, as an event on the button (`Activate`): a click, a finger's tap as it
//! lifts (`tap`), Enter or Space on the focused button and a screen reader's click all end as
//! `Interaction::Pressed`, read here and nowhere else. A screen carries out its buttons'
//! actions in an observer of `Activate`; the click is heard through one observer too
//! (`play::sound`). A button not available now carries `InteractionDisabled`: greyed, named
//! disabled to a screen reader, and its press is `Refused` (no click; the screen may say why).

use bevy::prelude::*;
use bevy::ui::InteractionDisabled;

use super::palette::{BUTTON, BUTTON_OFF};
use super::widget::OwnColours;
use crate::game::state::GameSet;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Update, activate_pressed.in_set(GameSet::Press));
    app.add_observer(grey_disabled);
    app.add_observer(light_enabled);
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

/// A button not available now was pressed: nothing is done (a screen may say why).
#[derive(EntityEvent, Clone, Copy, Debug)]
pub struct Refused {
    pub entity: Entity,
}

/// Every button pressed in this frame is activated once (refused when disabled): its observers
/// run before the frame's input is read (`GameSet::Press` comes first).
fn activate_pressed(
    mut commands: Commands,
    buttons: Query<
        (Entity, &Interaction, Has<InteractionDisabled>),
        (Changed<Interaction>, Without<Surface>),
    >,
) {
    for (entity, interaction, disabled) in &buttons {
        if *interaction == Interaction::Pressed {
            if disabled {
                commands.trigger(Refused { entity });
            } else {
                commands.trigger(Activate { entity });
            }
        }
    }
}

/// A button made available or not, as what it does allows now.
pub fn set_enabled(commands: &mut Commands, button: Entity, enabled: bool, disabled: bool) {
    if enabled && disabled {
        commands.entity(button).remove::<InteractionDisabled>();
    } else if !enabled && !disabled {
        commands.entity(button).insert(InteractionDisabled);
    }
}

/// A button disabled is greyed.
fn grey_disabled(
    add: On<Add, InteractionDisabled>,
    mut colours: Query<&mut BackgroundColor, (With<Button>, Without<OwnColours>)>,
) {
    if let Ok(mut colour) = colours.get_mut(add.entity) {
        colour.set_if_neq(BackgroundColor(BUTTON_OFF));
    }
}

/// A button available again takes its colour back.
fn light_enabled(
    remove: On<Remove, InteractionDisabled>,
    mut colours: Query<&mut BackgroundColor, (With<Button>, Without<OwnColours>)>,
) {
    if let Ok(mut colour) = colours.get_mut(remove.entity) {
        colour.set_if_neq(BackgroundColor(BUTTON));
    }
}
