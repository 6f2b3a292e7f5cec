//! The online screen while a room we asked for has not come yet (a link's room, a code typed):
//! the room's code, the connection in words, Retry when it is down, Cancel. Not the home: a
//! player who followed a link did not ask for it, and on a phone building it costs the first
//! frames before the game.

use bevy::prelude::*;

use super::client::{Online, Room};
use super::form::OnlineAction;
use super::home::link_words;
use super::link::Link;
use crate::game::board::art::Art;
use crate::game::theme::part::Part;
use crate::game::theme::widget::{self, button, row, text};
use crate::session::Lang;

/// The room asked for whose state has not come yet.
pub(super) fn joining<'a>(online: &Online<'a>) -> Option<&'a Room> {
    online
        .in_room
        .room
        .as_ref()
        .filter(|room| room.state.is_none())
}

/// The panel's contents for `room`: what is asked, the room's code large, where the connection
/// stands.
pub(super) fn part(room: &Room, link: &Link, online: &Online, lang: Lang) -> Joining {
    let (status, retry) = link_words(link, online, lang);
    let problem = online.connection.problem.as_ref();
    Joining {
        lang,
        watching: room.watching,
        code: room.code.clone(),
        status,
        retry,
        problem: problem.map(|p| lang.trf("online.refused", &[("why", &p.message)])),
    }
}

/// The joining face's panel, as a value.
#[derive(PartialEq)]
pub(super) struct Joining {
    lang: Lang,
    watching: bool,
    code: String,
    /// The connection in words, and whether Retry goes with them.
    status: String,
    retry: bool,
    /// The server's refusal, in words.
    problem: Option<String>,
}

impl Part for Joining {
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        let (lang, centre) = (self.lang, || TextLayout::justify(Justify::Center));
        let asked = if self.watching {
            "online.opening_room"
        } else {
            "online.joining_room"
        };
        p.spawn((widget::title(art, lang.tr(asked), 26.0), centre()));
        // Smaller than the waiting room's: it stays on one line on a phone held upright.
        p.spawn((widget::title(art, spaced(&self.code), 52.0), centre()));
        p.spawn((text(art, self.status.clone(), 15.0), centre()));
        if let Some(why) = &self.problem {
            p.spawn((text(art, why.clone(), 15.0), centre()));
        }
        p.spawn(Node {
            justify_content: JustifyContent::Center,
            ..row()
        })
        .with_children(|r| {
            if self.retry {
                r.spawn(button(art, OnlineAction::Retry, lang.tr("online.retry")));
            }
            r.spawn(button(art, OnlineAction::Cancel, lang.tr("online.cancel")));
        });
    }
}

/// A room's code with thin spaces between its letters, to read out.
pub(super) fn spaced(code: &str) -> String {
    code.chars()
        .map(String::from)
        .collect::<Vec<_>>()
        .join("\u{2009}")
}
