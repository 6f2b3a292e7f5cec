//! Online news read out: what the pages' news line shows (a friend's request, a challenge, an
//! invitation to a tournament, a game waiting for our move), and the open tournament's turns
//! (its start, each round, its end and winner), so that a screen reader hears them as they come.

use bevy::prelude::*;

use crate::game::access::announce::Announce;
use crate::game::online::client::OnlineRead;
use crate::game::online::pages::news_words;
use crate::game::online::social::People;
use crate::game::online::tournaments::Tournaments;
use crate::game::online::tournaments::state_words;
use crate::game::state::{GameSet, Prefs};
use crate::net::tournament::TournamentStatus;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        read_out
            .run_if(resource_changed::<People>.or_eager(resource_changed::<Tournaments>))
            .in_set(GameSet::Show),
    );
}

/// What was last read out: the news, and the open tournament's id, status and round.
#[derive(Default, PartialEq)]
struct Heard {
    news: Option<String>,
    tournament: Option<(String, TournamentStatus, u32)>,
}

fn read_out(
    mut commands: Commands,
    online: OnlineRead,
    prefs: Res<Prefs>,
    mut heard: Local<Heard>,
) {
    let lang = prefs.lang();
    let news = online.people.news.as_ref().map(|n| news_words(n, lang));
    if news.is_some() && news != heard.news {
        commands.trigger(Announce(news.clone().unwrap_or_default()));
    }
    heard.news = news;
    let followed = online.tournaments.followed.as_deref();
    let view = followed.and_then(|id| online.tournaments.view(id));
    let now = view.map(|v| (v.line.id.clone(), v.line.status, v.round));
    // Said when it changes, not when it is first opened (the page itself says it then).
    let same_one = heard.tournament.as_ref().map(|h| &h.0) == now.as_ref().map(|n| &n.0);
    if let Some(view) = view.filter(|_| same_one && heard.tournament != now) {
        let mut words = state_words(view, online.connection.server_now(), lang);
        let first = view.standings.iter().find(|s| s.place == 1);
        if let (TournamentStatus::Over, Some(first)) = (view.line.status, first) {
            words = lang.trf("tour.winner", &[("who", &first.player.name)]);
        }
        commands.trigger(Announce(format!("{}: {words}", view.line.name)));
    }
    heard.tournament = now;
}
