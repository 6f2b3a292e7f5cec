//! Typing into the online screen's fields: one field at a time has the focus (`Typing`),
//! a press on a field's button gives it the focus, keys go into it as the field takes them, and
//! Enter says so (`Entered`) to whoever the field is for. Each field's text lives with what it
//! belongs to: the name in the settings, a room's code in the form, the rest in the form of the
//! page that shows it (`FieldTexts`).

use bevy::ecs::system::SystemParam;
use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

use super::field::{Entered, Field, TextField, Typing};
use super::form::{Form, LobbySystems};
use super::pages::PageFormsMut;
use crate::game::state::{Prefs, Screen};

pub(super) fn plugin(app: &mut App) {
    // The window plugin registers typed keys; without a window (tests) none ever come.
    app.add_message::<KeyboardInput>();
    app.init_resource::<Typing>();
    app.add_observer(focus_pressed);
    app.add_systems(OnExit(Screen::Online), |mut typing: ResMut<Typing>| {
        typing.0 = None;
    });
    app.add_systems(
        Update,
        type_keys
            .in_set(LobbySystems)
            .run_if(in_state(Screen::Online)),
    );
}

/// Where the fields' texts live: the name in the settings, a room's code in the form, the rest
/// in the form of the page that shows them (there while the page is open).
#[derive(SystemParam)]
pub struct FieldTexts<'w> {
    form: ResMut<'w, Form>,
    prefs: ResMut<'w, Prefs>,
    forms: PageFormsMut<'w>,
}

impl FieldTexts<'_> {
    /// `field`'s text, to change (its owner marked changed, and drawn again); `None` while its
    /// page is not open.
    pub fn text_mut(&mut self, field: Field) -> Option<&mut String> {
        self.text(field, false)
    }

    /// The language the fields are labelled in.
    #[cfg(target_arch = "wasm32")]
    pub fn lang(&self) -> crate::session::Lang {
        self.prefs.lang()
    }

    /// `field`'s text as it is (empty while its page is not open), read without marking its
    /// owner changed.
    #[cfg(target_arch = "wasm32")]
    pub fn read(&mut self, field: Field) -> &str {
        self.text(field, true).map_or("", |t| t.as_str())
    }

    fn text(&mut self, field: Field, quiet: bool) -> Option<&mut String> {
        // Read quietly, or changed (and its owner drawn again).
        macro_rules! open {
            ($r:expr) => {
                if quiet {
                    $r.bypass_change_detection()
                } else {
                    &mut *$r
                }
            };
        }
        Some(match field {
            Field::Name => &mut open!(self.prefs).name,
            Field::RoomCode => &mut open!(self.form).code,
            Field::FriendCode => &mut open!(self.forms.friends.as_mut()?).friend_code,
            Field::AccountCode => &mut open!(self.forms.account.as_mut()?).code,
            Field::Login => &mut open!(self.forms.account.as_mut()?).login,
            Field::Password => &mut open!(self.forms.account.as_mut()?).password,
            Field::Current => &mut open!(self.forms.account.as_mut()?).current,
            Field::Answer => &mut open!(self.forms.account.as_mut()?).answer,
            Field::Email => &mut open!(self.forms.mail.as_mut()?).email,
            Field::TournamentCode => &mut open!(self.forms.tournaments.as_mut()?).code,
            Field::TournamentName => &mut open!(self.forms.draft.as_mut()?).name,
            Field::TournamentPassword => &mut open!(self.forms.tournament.as_mut()?).password,
            Field::NewTournamentPassword => &mut open!(self.forms.draft.as_mut()?).password,
        })
    }
}

/// A press on a field's button gives it the focus.
fn focus_pressed(
    activate: On<crate::game::theme::press::Activate>,
    fields: Query<&TextField>,
    mut typing: ResMut<Typing>,
) {
    if let Ok(TextField(field)) = fields.get(activate.entity) {
        typing.0 = Some(*field);
    }
}

/// Keys typed go into the focused field; Enter leaves it and says so.
pub(super) fn type_keys(
    mut commands: Commands,
    mut keys: MessageReader<KeyboardInput>,
    mut texts: FieldTexts,
    mut typing: ResMut<Typing>,
) {
    let Some(field) = typing.0 else {
        keys.clear();
        return;
    };
    for key in keys.read() {
        if !key.state.is_pressed() {
            continue;
        }
        if key.logical_key == Key::Enter {
            typing.0 = None;
            commands.trigger(Entered(field));
            return;
        }
        let Some(text) = texts.text_mut(field) else {
            continue;
        };
        match &key.logical_key {
            Key::Backspace => {
                text.pop();
            }
            Key::Character(typed) => *text = field.take(text, typed),
            Key::Space => *text = field.take(text, " "),
            _ => {}
        }
    }
}
