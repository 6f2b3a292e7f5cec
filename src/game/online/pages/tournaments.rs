//! The tournaments' page: the list (an invitation first, ours, then the public ones, and a code
//! typed to open a private one, kept in its form while the page is open), its lines' countdowns
//! told in place, and what the tournament pages' buttons ask of the server.

use bevy::prelude::*;

use super::action::TourAction;
use super::countdown::Countdown;
use super::kit::{centred_row, header, wrapping_row};
use super::nav::{Nav, say};
use super::state::OnlinePage;
use super::{PageAction, news_words};
use crate::game::board::art::Art;
use crate::game::online::client::{Online, OnlineWrite};
use crate::game::online::field::Typing;
use crate::game::online::field::{Field, text_field};
use crate::game::online::tournaments::line_words;
use crate::game::theme::widget::{bold, button, text};
use crate::net::protocol::ClientMessage;
use crate::net::social::normalize_code;
use crate::net::tournament::TournamentLine;
use crate::session::Lang;

/// The list's form: a tournament's code typed in.
#[derive(Resource, Debug, Default)]
pub struct TournamentsForm {
    pub code: String,
}

pub(super) fn plugin(app: &mut App) {
    super::page_form::<TournamentsForm>(app, OnlinePage::Tournaments);
    app.add_systems(
        OnEnter(OnlinePage::Tournaments),
        |mut commands: Commands| {
            say(&mut commands, ClientMessage::Tournaments);
        },
    );
}

/// The code typed: its page opens once it has its length; else its field does.
pub(super) fn find(
    commands: &mut Commands,
    nav: &mut Nav,
    online: &mut OnlineWrite,
    list: &mut TournamentsForm,
) {
    let code = normalize_code(&list.code);
    if code.len() != crate::net::tournament::TOURNAMENT_ID_LEN {
        nav.focus(Field::TournamentCode);
        return;
    }
    list.code.clear();
    super::tournament::open(commands, nav, online, code);
}

/// The list: an invitation, ours, the public ones, a code to type, and a new one.
pub(super) fn list_page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    (list, typing): (&TournamentsForm, Typing),
    narrow: bool,
) {
    header(p, art, lang, lang.tr("tour.title").to_owned());
    if let Some(news) = &online.people.news {
        p.spawn(bold(art, news_words(news, lang), 16.0));
    }
    super::kit::problem_line(p, art, lang, online);
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, lang.tr("tour.code"), 17.0));
        let field = Field::TournamentCode;
        r.spawn(text_field(art, field, &list.code, typing.0, "—"));
        r.spawn(button(
            art,
            PageAction::Tour(TourAction::Find),
            lang.tr("tour.open"),
        ));
    });
    let now = online.connection.server_now();
    let tournaments = &online.tournaments;
    if let Some((from, line)) = &tournaments.invite {
        let invited = lang.trf("tour.invited", &[("who", &from.name)]);
        p.spawn(bold(art, invited, 17.0));
        line_row(p, art, lang, line, now);
    }
    let Some((mine, public)) = &tournaments.lists else {
        p.spawn(text(art, lang.tr("online.connecting"), 16.0));
        return;
    };
    let shown = if narrow { 4 } else { 6 };
    p.spawn(bold(art, lang.tr("tour.mine"), 18.0));
    if mine.is_empty() {
        p.spawn(text(art, lang.tr("tour.mine.none"), 15.0));
    }
    for line in mine.iter().take(shown) {
        line_row(p, art, lang, line, now);
    }
    if !online.people.child {
        p.spawn(bold(art, lang.tr("tour.public"), 18.0));
        if public.is_empty() {
            p.spawn(text(art, lang.tr("tour.public.none"), 15.0));
        }
        for line in public.iter().take(shown) {
            line_row(p, art, lang, line, now);
        }
    }
    p.spawn(centred_row()).with_child(button(
        art,
        PageAction::Open(OnlinePage::NewTournament),
        lang.tr("tour.new"),
    ));
}

fn line_row(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, line: &TournamentLine, now: i64) {
    p.spawn(wrapping_row()).with_children(|r| {
        let open = PageAction::Tour(TourAction::Open(line.id.clone()));
        r.spawn(button(art, open, lang.tr("tour.open")));
        let words = line_words(line, now, lang);
        r.spawn((text(art, words, 16.0), Countdown::Line(line.id.clone())));
    });
}
