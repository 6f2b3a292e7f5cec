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
use crate::game::theme::widget::{self, button, row, text};
use crate::session::Lang;

/// The room asked for whose state has not come yet.
pub(super) fn joining(online: &Online) -> Option<&Room> {
    online.room.as_ref().filter(|room| room.state.is_none())
}

/// The panel's contents: what is asked, the room's code large, where the connection stands.
pub(super) fn spawn(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    (room, link, online): (&Room, &Link, &Online),
) {
    let centre = || TextLayout::justify(Justify::Center);
    let asked = if room.watching {
        "online.opening_room"
    } else {
        "online.joining_room"
    };
    p.spawn((widget::title(art, lang.tr(asked), 26.0), centre()));
    // Smaller than the waiting room's: it stays on one line on a phone held upright.
    p.spawn((widget::title(art, spaced(&room.code), 52.0), centre()));
    let (status, retry) = link_words(link, online, lang);
    p.spawn((text(art, status, 15.0), centre()));
    if let Some(problem) = &online.problem {
        let why = lang.trf("online.refused", &[("why", &problem.message)]);
        p.spawn((text(art, why, 15.0), centre()));
    }
    p.spawn(Node {
        justify_content: JustifyContent::Center,
        ..row()
    })
    .with_children(|r| {
        if retry {
            r.spawn(button(art, OnlineAction::Retry, lang.tr("online.retry")));
        }
        r.spawn(button(art, OnlineAction::Cancel, lang.tr("online.cancel")));
    });
}

/// A room's code with thin spaces between its letters, to read out.
pub(super) fn spaced(code: &str) -> String {
    code.chars()
        .map(String::from)
        .collect::<Vec<_>>()
        .join("\u{2009}")
}
