//! Where the pages go (`Nav`: the page open and the next, the field typed in), and a message
//! said to the server.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::state::OnlinePage;
use crate::game::online::client::Ask;
use crate::game::online::field::{Field, Typing};
use crate::net::protocol::ClientMessage;

/// `msg` said to the server.
pub(super) fn say(commands: &mut Commands, msg: ClientMessage) {
    commands.trigger(Ask::Say(msg));
}

/// Where the pages go, and which field has the focus.
#[derive(SystemParam)]
pub(super) struct Nav<'w> {
    page: Option<Res<'w, State<OnlinePage>>>,
    next: ResMut<'w, NextState<OnlinePage>>,
    typing: ResMut<'w, Typing>,
}

impl Nav<'_> {
    /// The page open (the home off the online screen).
    pub(super) fn page(&self) -> OnlinePage {
        self.page.as_ref().map_or(OnlinePage::Home, |s| *s.get())
    }

    /// Open `page`: opened again when it is open, its form made anew and its news asked again.
    pub(super) fn open(&mut self, page: OnlinePage) {
        self.next.set(page);
        self.typing.0 = None;
    }

    /// Open `page` for what `form` names (a player, a tournament): the page already open shows
    /// the new one in place.
    pub(super) fn open_with(
        &mut self,
        commands: &mut Commands,
        page: OnlinePage,
        form: impl Resource,
    ) {
        commands.insert_resource(form);
        NextState::set_if_neq(&mut self.next, page);
        self.typing.0 = None;
    }

    /// Whether a field is being typed in.
    pub(super) fn typing(&self) -> bool {
        self.typing.0.is_some()
    }

    /// `page` shown, as it is when it is open (its form kept).
    pub(super) fn show(&mut self, page: OnlinePage) {
        NextState::set_if_neq(&mut self.next, page);
    }

    pub(super) fn focus(&mut self, field: Field) {
        self.typing.0 = Some(field);
    }

    pub(super) fn leave_field(&mut self) {
        self.typing.0 = None;
    }
}
