//! Typing into the online screen's fields: one field at a time has the focus (`Pages::typing`),
//! a press on a field's button gives it the focus, keys go into it as the field takes them, and
//! Enter says so (`Entered`) to whoever the field is for. Each field's text lives with what it
//! belongs to: the name in the settings, a room's code in the form, the rest in the pages.

use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

use super::field::{Entered, Field, TextField};
use super::form::{Form, LobbySystems};
use super::people::Pages;
use crate::game::state::Prefs;

pub(super) fn plugin(app: &mut App) {
    // The window plugin registers typed keys; without a window (tests) none ever come.
    app.add_message::<KeyboardInput>();
    app.add_observer(focus_pressed);
    app.add_systems(
        Update,
        type_keys
            .in_set(LobbySystems)
            .run_if(in_state(crate::game::state::Screen::Online)),
    );
}

/// Where `field`'s text lives.
pub fn text_of<'a>(
    field: Field,
    form: &'a mut Form,
    pages: &'a mut Pages,
    prefs: &'a mut Prefs,
) -> &'a mut String {
    match field {
        Field::Name => &mut prefs.name,
        Field::RoomCode => &mut form.code,
        Field::FriendCode => &mut pages.friend_code,
        Field::AccountCode => &mut pages.code,
        Field::Login => &mut pages.login,
        Field::Password => &mut pages.password,
        Field::Current => &mut pages.current,
        Field::Answer => &mut pages.answer,
        Field::Email => &mut pages.email,
        Field::TournamentCode => &mut pages.tournament_code,
        Field::TournamentName => &mut pages.draft.name,
        Field::TournamentPassword => &mut pages.tournament_password,
        Field::NewTournamentPassword => &mut pages.draft.password,
    }
}

/// A press on a field's button gives it the focus.
fn focus_pressed(
    activate: On<crate::game::theme::press::Activate>,
    fields: Query<&TextField>,
    mut pages: ResMut<Pages>,
) {
    if let Ok(TextField(field)) = fields.get(activate.entity) {
        pages.typing = Some(*field);
    }
}

/// Keys typed go into the focused field; Enter leaves it and says so.
pub(super) fn type_keys(
    mut commands: Commands,
    mut keys: MessageReader<KeyboardInput>,
    mut form: ResMut<Form>,
    mut pages: ResMut<Pages>,
    mut prefs: ResMut<Prefs>,
) {
    let Some(field) = pages.typing else {
        keys.clear();
        return;
    };
    for key in keys.read() {
        if !key.state.is_pressed() {
            continue;
        }
        let text = text_of(field, &mut form, &mut pages, &mut prefs);
        match &key.logical_key {
            Key::Backspace => {
                text.pop();
            }
            Key::Character(typed) => *text = field.take(text, typed),
            Key::Space => *text = field.take(text, " "),
            Key::Enter => {
                pages.typing = None;
                commands.trigger(Entered(field));
                return;
            }
            _ => {}
        }
    }
}
