//! The online screen's pages: friends (our friend code and its QR, adding by code, requests,
//! challenges both ways, who is online), a profile (rating with its provisional mark, the
//! record, the rating-over-time graph, recent games that open in the review; on another's, add,
//! challenge, block, report), the account (a link code and its QR for another device, a
//! recovery code, a sign-in name and password, the devices signed in, child mode behind a
//! parent's question), play now, our games, notifications and tournaments. On the first visit,
//! before any player exists, it asks who is playing.
//!
//! Each page is a state (`OnlinePage`) and a plugin in its own file: its form made on entering
//! it and dropped on leaving it (`page_form`), what it asks the server for on entering, and
//! its body drawn by `draw` from its form and the client's state.

use bevy::prelude::*;

mod account;
mod action;
mod actions;
mod countdown;
mod draw;
mod forms;
mod friends;
mod games;
mod kit;
mod nav;
mod new_tournament;
mod notifications;
mod offer;
mod play_now;
mod profile;
mod state;
mod tournament;
mod tournaments;

pub use account::AccountForm;
pub use action::{Kind, NotifyToggle, PageAction, PlayComputer, Press, TourAction};
pub use forms::PageFormsMut;
pub use friends::{FriendsForm, challenge_words};
pub use games::game_line;
pub use new_tournament::Draft;
pub use notifications::MailForm;
pub use play_now::pool_rules;
pub use profile::ProfileForm;
pub use state::{Asked, OnlinePage, Seat, Showing, settled};
pub use tournament::TournamentForm;
pub use tournaments::TournamentsForm;

use super::client::{Ask, Connection, OnlineRead, OnlineWrite};
use super::social::News;
use crate::game::state::Prefs;
use crate::net::protocol::{ClientMessage, PlayerInfo};
use crate::net::social::{Phrase, ReportReason, rating_label};
use crate::session::Lang;

/// How often the friends page and the tournaments' pages ask again (for who is online, for
/// a tournament's news to a visitor).
const REFRESH_S: f32 = 10.0;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins((
        state::plugin,
        actions::plugin,
        friends::plugin,
        profile::plugin,
        account::plugin,
        play_now::plugin,
        games::plugin,
        notifications::plugin,
        tournaments::plugin,
        new_tournament::plugin,
        tournament::plugin,
    ));
    app.add_systems(
        Update,
        (
            follow_the_question,
            actions::escape,
            open_created,
            refresh,
            retell_countdowns,
            draw::build.run_if(state::settled.and_then(draw::news)),
        )
            .chain()
            .after(super::form::LobbySystems)
            .before(super::form::LobbyBuild)
            .run_if(in_state(crate::game::state::Screen::Online))
            .in_set(crate::game::state::GameSet::Show),
    );
    // On any screen: a game already on the board (one's own) is not loaded again.
    app.add_systems(Update, open_review);
}

/// A page's form `F`: made on entering `page` (unless its opener made it, naming what the page
/// shows), dropped on leaving it.
fn page_form<F: Resource + Default>(app: &mut App, page: OnlinePage) {
    app.add_systems(OnEnter(page), |mut commands: Commands| {
        commands.init_resource::<F>();
    });
    app.add_systems(OnExit(page), |mut commands: Commands| {
        commands.remove_resource::<F>();
    });
}

/// Whether the first visit's question is to be asked: no player yet, and nobody has said who
/// plays on this device.
pub fn asking_who_plays(connection: &Connection, prefs: &Prefs) -> bool {
    !connection.has_token() && prefs.child.is_none()
}

/// The question asked follows the client: who plays (first visit), a link's code to follow.
fn follow_the_question(online: OnlineRead, prefs: Res<Prefs>, mut asked: ResMut<NextState<Asked>>) {
    NextState::set_if_neq(
        &mut asked,
        if asking_who_plays(&online.connection, &prefs) {
            Asked::WhoPlays
        } else if online.identity.offer.is_some() {
            Asked::Offer
        } else {
            Asked::Nothing
        },
    );
}

/// The friends page and the tournaments' pages ask again every few seconds: who is online
/// changes, and a visitor of a tournament hears of nothing by itself.
fn refresh(
    mut commands: Commands,
    page: Res<State<OnlinePage>>,
    open: Option<Res<TournamentForm>>,
    time: Res<Time>,
    mut since: Local<f32>,
) {
    let again = match page.get() {
        OnlinePage::Friends => ClientMessage::Relations,
        // Its players hear of each change; a visitor asks again.
        OnlinePage::Tournament => match &open {
            Some(open) => ClientMessage::Tournament {
                id: open.id.clone(),
            },
            None => return,
        },
        OnlinePage::Tournaments => ClientMessage::Tournaments,
        _ => {
            *since = 0.0;
            return;
        }
    };
    *since += time.delta_secs();
    if *since > REFRESH_S {
        *since = 0.0;
        commands.trigger(Ask::Say(again));
    }
}

/// A tournament's page and the list count down to a start, a next round or an end: their texts
/// that count say so in place (each minute, each second in the last one).
fn retell_countdowns(
    page: Res<State<OnlinePage>>,
    open: Option<Res<TournamentForm>>,
    online: OnlineRead,
    prefs: Res<Prefs>,
    mut wake: ResMut<crate::game::state::Wake>,
    mut countdowns: Query<(&countdown::Countdown, &mut Text)>,
) {
    if matches!(page.get(), OnlinePage::Tournament | OnlinePage::Tournaments) {
        let id = open.as_ref().map(|open| open.id.as_str());
        countdown::retell(&mut countdowns, id, &online.view(), prefs.lang());
        wake.bypass_change_detection()
            .within(std::time::Duration::from_millis(500));
    }
}

/// The tournament just made: its page opens.
fn open_created(mut commands: Commands, mut nav: nav::Nav, mut online: OnlineWrite) {
    if online.tournaments.created.is_some()
        && let Some(id) = online.tournaments.created.take()
    {
        tournament::open(&mut commands, &mut nav, &mut online, id);
    }
}

/// A game of a profile, watched: once the board has its whole game, into the review.
fn open_review(
    mut commands: Commands,
    mut online: OnlineWrite,
    on_board: Res<super::table::OnBoard>,
    game: Res<crate::game::state::Game>,
) {
    let Some(code) = online.in_room.review_next.clone() else {
        return;
    };
    let whole = online
        .in_room
        .room
        .as_ref()
        .filter(|r| r.code == code)
        .and_then(|r| r.state.as_ref())
        .is_some_and(|s| s.moves.len() == game.history.entries().len());
    if on_board.code.as_deref() == Some(code.as_str())
        && whole
        && !game.history.entries().is_empty()
    {
        online.in_room.review_next = None;
        commands.trigger(crate::game::state::OpenReview);
    }
}

/// A player as lists show them: name and rating ("1500?" while provisional).
fn who(player: &PlayerInfo) -> String {
    format!(
        "{} · {}",
        player.name,
        rating_label(player.rating, player.deviation)
    )
}

/// The words of a report's reason, as a key of the language tables.
pub fn reason_key(reason: ReportReason) -> &'static str {
    match reason {
        ReportReason::OffensiveName => "people.report.name",
        ReportReason::Cheating => "people.report.cheating",
        ReportReason::Stalling => "people.report.stalling",
        ReportReason::Other => "people.report.other",
    }
}

/// A chat phrase in `lang`.
pub fn phrase_words(phrase: Phrase, lang: Lang) -> &'static str {
    lang.tr(phrase.key())
}

pub fn news_words(news: &News, lang: Lang) -> String {
    match news {
        News::FriendRequest(name) => lang.trf("people.news.request", &[("who", name)]),
        News::FriendAccepted(name) => lang.trf("people.news.accepted", &[("who", name)]),
        News::Challenged(name) => lang.trf("people.news.challenged", &[("who", name)]),
        News::ChallengeClosed => lang.tr("people.news.closed").to_owned(),
        News::Reported => lang.tr("people.news.reported").to_owned(),
        News::YourTurn(code) => lang.trf("people.news.your_turn", &[("code", code)]),
        News::TournamentInvite(who, name) => {
            lang.trf("tour.news.invite", &[("who", who), ("name", name)])
        }
    }
}
