//! Texts that count down with the clock on the tournaments' pages (to a start, a round, an
//! end), told again in place each second.

use bevy::prelude::*;

use crate::game::online::client::Online;
use crate::game::online::tournaments::{line_words, state_and_players};
use crate::session::Lang;

/// A text that counts down with the clock (to a start, a round, an end): the open tournament's
/// line of where it is, or a list's line of tournament `id`. Its words are set in place each
/// second (`retell`), so that nothing else of the page is drawn again.
#[derive(Component, Clone, Debug, PartialEq)]
pub(super) enum Countdown {
    Page,
    Line(String),
}

/// What a countdown says now; nothing when its tournament is not known.
fn countdown_words(
    which: &Countdown,
    open: Option<&str>,
    online: &Online,
    lang: Lang,
) -> Option<String> {
    let now = online.connection.server_now();
    let tournaments = &online.tournaments;
    match which {
        Countdown::Page => {
            let id = open?;
            Some(state_and_players(tournaments.view(id)?, now, lang))
        }
        Countdown::Line(id) => {
            let (mine, public) = tournaments.lists.as_ref()?;
            let line = mine.iter().chain(public).find(|l| l.id == *id)?;
            Some(line_words(line, now, lang))
        }
    }
}

/// Every countdown on screen says what it says now: its text changed where the words did.
pub(super) fn retell(
    countdowns: &mut Query<(&Countdown, &mut Text)>,
    open: Option<&str>,
    online: &Online,
    lang: Lang,
) {
    for (which, mut text) in countdowns {
        if let Some(words) = countdown_words(which, open, online, lang)
            && text.0 != words
        {
            text.0 = words;
        }
    }
}
