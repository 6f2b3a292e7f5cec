//! One tournament's page: what it is (format, rules, clock, where it is), its code and link
//! (a QR to scan), join or leave (with its password when it has one), a break, the organiser's
//! start and invitations, and the standings with each game being played, to join or watch.

use bevy::prelude::*;

use super::action::TourAction;
use super::countdown::Countdown;
use super::kit::rules_words_of;
use super::kit::{centred_row, header, qr_node, wrapping_row};
use super::nav::{Nav, say};
use super::state::OnlinePage;
use super::{PageAction, news_words};
use crate::game::board::art::Art;
use crate::game::online::client::{Ask, Online, OnlineWrite};
use crate::game::online::field::{Field, Typing, text_field};
use crate::game::online::form::clock_label;
use crate::game::online::tournaments::{Tournaments, format_words, state_and_players};
use crate::game::theme::widget::{bold, button, text};
use crate::net::protocol::ClientMessage;
use crate::net::tournament::{Format, Presence, StandingLine, TournamentStatus, TournamentView};
use crate::session::Lang;

/// The page's form: the tournament it shows, and what is typed and chosen on it.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct TournamentForm {
    /// The tournament's id.
    pub id: String,
    /// The password typed to join it.
    pub password: String,
    /// Its link was copied.
    pub copied: bool,
    /// The organiser is choosing two players to keep apart: those chosen so far (ids).
    pub apart: Option<Vec<String>>,
    /// The last two players kept apart (names), to say so.
    pub kept_apart: Option<(String, String)>,
}

impl TournamentForm {
    pub fn of(id: String) -> TournamentForm {
        TournamentForm { id, ..default() }
    }
}

pub(super) fn plugin(app: &mut App) {
    // Made by the page's opener (`tournaments::open`), which names the tournament.
    super::page_form::<TournamentForm>(app, OnlinePage::Tournament);
}

/// What the page is drawn with.
pub(super) struct TournamentPage<'a> {
    pub art: &'a Art,
    pub lang: Lang,
    pub online: &'a Online<'a>,
    pub open: &'a TournamentForm,
    pub typing: Typing,
    pub qr: Option<Handle<Image>>,
    pub narrow: bool,
}

impl TournamentPage<'_> {
    pub(super) fn draw(&self, p: &mut ChildSpawnerCommands) {
        let (art, lang, online) = (self.art, self.lang, self.online);
        let id = self.open.id.as_str();
        let Some(view) = online.tournaments.view(id) else {
            header(p, art, lang, lang.tr("tour.title").to_owned());
            super::kit::problem_line(p, art, lang, online);
            p.spawn(text(art, lang.tr("online.connecting"), 16.0));
            return;
        };
        header(p, art, lang, view.line.name.clone());
        if let Some(news) = &online.people.news {
            p.spawn(bold(art, news_words(news, lang), 16.0));
        }
        super::kit::problem_line(p, art, lang, online);
        self.about(p, view);
        self.code(p, view);
        self.actions(p, view);
        self.standings(p, view);
    }

    /// Format, rules and clock; where it is; who organises it.
    fn about(&self, p: &mut ChildSpawnerCommands, view: &TournamentView) {
        let (art, lang, line) = (self.art, self.lang, &view.line);
        let rules = rules_words_of(&line.preset, lang);
        let mut about = format!(
            "{} · {rules} · {}",
            format_words(line.format, lang),
            clock_label(line.clock, lang)
        );
        for (on, key) in [
            (line.unrated, "tour.unrated"),
            (line.no_chat, "tour.no_chat"),
            (line.bots, "tour.bots"),
        ] {
            if on {
                about.push_str(&format!(" · {}", lang.tr(key)));
            }
        }
        p.spawn(text(art, about, 16.0));
        let state = state_and_players(view, self.online.connection.server_now(), lang);
        p.spawn((bold(art, state, 17.0), Countdown::Page));
        let by = lang.trf("tour.by", &[("who", &line.organiser.name)]);
        p.spawn(text(art, by, 15.0));
    }

    /// The code to read out, the link to copy, and its QR (not on a phone: the phone is the
    /// one that scans).
    fn code(&self, p: &mut ChildSpawnerCommands, view: &TournamentView) {
        let (art, lang) = (self.art, self.lang);
        if view.line.status == TournamentStatus::Over {
            return;
        }
        p.spawn(wrapping_row()).with_children(|r| {
            let code = lang.trf("tour.code_is", &[("code", &view.line.id)]);
            r.spawn(bold(art, code, 17.0));
            let copy = if self.open.copied {
                "online.copied"
            } else {
                "online.copy"
            };
            r.spawn(button(
                art,
                PageAction::Tour(TourAction::CopyLink),
                lang.tr(copy),
            ));
        });
        if let Some(qr) = self.qr.clone().filter(|_| !self.narrow) {
            qr_node(p, qr, 120.0);
        }
    }

    /// Join (with the password field when one is needed) or leave, a break, the organiser's
    /// start, and friends to invite.
    fn actions(&self, p: &mut ChildSpawnerCommands, view: &TournamentView) {
        let (art, lang, line) = (self.art, self.lang, &view.line);
        if line.status == TournamentStatus::Over {
            return;
        }
        let me = self.online.identity.me.as_ref().map(|m| m.id.as_str());
        let organiser = me == Some(line.organiser.id.as_str());
        let mine = me.and_then(|me| view.standings.iter().find(|s| s.player.id == me));
        p.spawn(centred_row()).with_children(|r| {
            if view.joined {
                let tour = |a| PageAction::Tour(a);
                if let Some(room) = mine.and_then(|s| s.room.clone()) {
                    r.spawn(button(
                        art,
                        tour(TourAction::Play(room)),
                        lang.tr("tour.play"),
                    ));
                }
                if pausable(line.format, line.status) {
                    let paused = mine.is_some_and(|s| s.presence == Presence::Paused);
                    let (key, to) = if paused {
                        ("tour.resume", false)
                    } else {
                        ("tour.pause", true)
                    };
                    r.spawn(button(art, tour(TourAction::Pause(to)), lang.tr(key)));
                }
                r.spawn(button(art, tour(TourAction::Leave), lang.tr("tour.leave")));
            } else {
                if line.password && !organiser {
                    r.spawn(text(art, lang.tr("tour.password"), 17.0));
                    let field = Field::TournamentPassword;
                    let typed = &self.open.password;
                    r.spawn(text_field(art, field, typed, self.typing.0, "—"));
                }
                let join = PageAction::Tour(TourAction::Join);
                r.spawn(button(art, join, lang.tr("tour.join")));
            }
            if organiser && let Some(key) = begin_key(view) {
                r.spawn(button(
                    art,
                    PageAction::Tour(TourAction::Begin),
                    lang.tr(key),
                ));
            }
        });
        if organiser {
            self.keeping_apart(p, view);
            self.invitations(p, view);
        }
    }

    /// The organiser keeps two players from meeting (siblings): a button, then a choice of two
    /// in the standings; an arena's or a Swiss's, with four players at least.
    fn keeping_apart(&self, p: &mut ChildSpawnerCommands, view: &TournamentView) {
        let (art, lang, open) = (self.art, self.lang, self.open);
        let pairs = !matches!(view.line.format, Format::RoundRobin { .. });
        if !pairs || view.standings.len() < 4 {
            return;
        }
        if let Some((a, b)) = &open.kept_apart {
            let said = lang.trf("tour.kept_apart", &[("a", a), ("b", b)]);
            p.spawn(text(art, said, 15.0));
        }
        p.spawn(wrapping_row()).with_children(|r| {
            let (key, help) = match &open.apart {
                None => ("tour.apart", None),
                Some(chosen) => ("online.cancel", Some(chosen.len())),
            };
            r.spawn(button(
                art,
                PageAction::Tour(TourAction::ChooseApart),
                lang.tr(key),
            ));
            if let Some(n) = help {
                let words = lang.trf("tour.apart.choose", &[("n", &(2 - n))]);
                r.spawn(text(art, words, 15.0));
            }
        });
    }

    /// The organiser's friends not in it yet, each with Invite (a few: the rest by the code).
    fn invitations(&self, p: &mut ChildSpawnerCommands, view: &TournamentView) {
        let (art, lang) = (self.art, self.lang);
        let Some(relations) = &self.online.people.relations else {
            return;
        };
        let inside = |id: &str| view.standings.iter().any(|s| s.player.id == id);
        let friends: Vec<_> = relations
            .friends
            .iter()
            .filter(|f| !inside(&f.player.id))
            .take(if self.narrow { 3 } else { 6 })
            .collect();
        if friends.is_empty() {
            return;
        }
        p.spawn(bold(art, lang.tr("tour.invite"), 17.0));
        p.spawn(wrapping_row()).with_children(|r| {
            for friend in friends {
                let invite = TourAction::Invite(friend.player.id.clone());
                r.spawn(button(
                    art,
                    PageAction::Tour(invite),
                    friend.player.name.clone(),
                ));
            }
        });
    }

    /// The standings: place, name, points, games, and the game being played.
    fn standings(&self, p: &mut ChildSpawnerCommands, view: &TournamentView) {
        let (art, lang) = (self.art, self.lang);
        if view.standings.is_empty() {
            p.spawn(text(art, lang.tr("tour.nobody"), 15.0));
            return;
        }
        if view.line.status == TournamentStatus::Over {
            podium(p, art, lang, &view.standings);
        }
        p.spawn(bold(art, lang.tr("tour.standings"), 18.0));
        let me = self.online.identity.me.as_ref().map(|m| m.id.as_str());
        let shown = if self.narrow { 8 } else { 12 };
        let swiss = matches!(view.line.format, Format::Swiss { .. });
        let lines = view.standings.iter().enumerate().filter(|(i, s)| {
            // The best lines, and ours wherever it is.
            *i < shown || Some(s.player.id.as_str()) == me
        });
        for (_, line) in lines {
            let ours = Some(line.player.id.as_str()) == me;
            p.spawn(wrapping_row()).with_children(|r| {
                let words = if view.line.status == TournamentStatus::Open {
                    // No places before the first game: who is in.
                    format!("{} · {:.0}", line.player.shown_name(), line.player.rating)
                } else {
                    standing_words(line, swiss && !self.narrow, lang)
                };
                if ours {
                    r.spawn(bold(art, words, 16.0));
                } else {
                    r.spawn(text(art, words, 16.0));
                }
                let choosing = self.open.apart.as_ref();
                if choosing.is_some_and(|c| !c.contains(&line.player.id)) {
                    let choose = TourAction::Apart(line.player.id.clone());
                    r.spawn(button(
                        art,
                        PageAction::Tour(choose),
                        lang.tr("tour.choose"),
                    ));
                } else if let Some(room) = line.room.clone().filter(|_| !ours) {
                    let watch = PageAction::Tour(TourAction::Watch(room));
                    r.spawn(button(art, watch, lang.tr("tour.watch")));
                }
            });
        }
        if view.standings.len() > shown {
            let more = view.standings.len() - shown;
            p.spawn(text(art, lang.trf("people.more", &[("n", &more)]), 15.0));
        }
    }
}

/// The end: the winner, then second and third.
fn podium(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, standings: &[StandingLine]) {
    let at = |place: u32| {
        let names: Vec<&str> = standings
            .iter()
            .filter(|s| s.place == place)
            .map(|s| s.player.name.as_str())
            .collect();
        (!names.is_empty()).then(|| names.join(", "))
    };
    if let Some(first) = at(1) {
        let won = lang.trf("tour.winner", &[("who", &first)]);
        p.spawn((
            crate::game::theme::widget::title(art, won, 26.0),
            TextLayout::justify(Justify::Center),
        ));
    }
    let rest: Vec<String> = [(2, "tour.second"), (3, "tour.third")]
        .into_iter()
        .filter_map(|(place, key)| at(place).map(|who| lang.trf(key, &[("who", &who)])))
        .collect();
    if !rest.is_empty() {
        p.spawn((
            bold(art, rest.join(" · "), 18.0),
            TextLayout::justify(Justify::Center),
        ));
    }
}

/// Whether a player may take a break: in an arena or a Swiss under way.
fn pausable(format: Format, status: TournamentStatus) -> bool {
    !matches!(format, Format::RoundRobin { .. }) && status == TournamentStatus::Running
}

/// The organiser's button: start it while open, or begin a Swiss's next round by hand.
fn begin_key(view: &TournamentView) -> Option<&'static str> {
    match (view.line.status, view.line.format) {
        (TournamentStatus::Open, _) => Some("tour.begin"),
        (TournamentStatus::Running, Format::Swiss { .. })
            if view.round < view.rounds && !view.standings.iter().any(|s| s.room.is_some()) =>
        {
            Some("tour.next_round")
        }
        _ => None,
    }
}

/// A line of the standings: "1. An · 1500 · 6 pts · 3 games", with a break, a withdrawal, a
/// streak and (for a Swiss, where there is room) the Buchholz.
pub fn standing_words(line: &StandingLine, tie_break: bool, lang: Lang) -> String {
    // Plus zero: a score of nothing is "0", never "-0".
    let points = lang.trf("tour.points", &[("n", &(line.points + 0.0))]);
    let games = lang.trf("tour.games", &[("n", &line.games)]);
    let mut words = format!(
        "{}. {} · {:.0} · {points} · {games}",
        line.place,
        line.player.shown_name(),
        line.player.rating
    );
    if tie_break {
        words.push_str(&format!(" · BH {}", line.buchholz));
    }
    match line.presence {
        Presence::Paused => words.push_str(&format!(" ({})", lang.tr("tour.paused"))),
        Presence::Withdrawn => words.push_str(&format!(" ({})", lang.tr("tour.withdrawn"))),
        Presence::Active => {}
    }
    if line.on_fire {
        words.push_str(&format!(" · {}", lang.tr("tour.on_fire")));
    }
    words
}

/// Open tournament `id`'s page and ask for it.
pub(super) fn open(commands: &mut Commands, nav: &mut Nav, online: &mut OnlineWrite, id: String) {
    say(commands, ClientMessage::Tournament { id: id.clone() });
    online.tournaments.followed = Some(id.clone());
    // Who may be invited: our friends.
    say(commands, ClientMessage::Relations);
    nav.open_with(commands, OnlinePage::Tournament, TournamentForm::of(id));
}

/// A button of the open tournament's page.
pub(super) fn opened(
    action: TourAction,
    commands: &mut Commands,
    nav: &mut Nav,
    open: &mut TournamentForm,
    online: &Online,
    prefs: &crate::game::state::Prefs,
) {
    let id = open.id.clone();
    let msg = match action {
        TourAction::Join => {
            let password = std::mem::take(&mut open.password);
            nav.leave_field();
            ClientMessage::JoinTournament {
                id,
                password: (!password.is_empty()).then_some(password),
            }
        }
        TourAction::Leave => ClientMessage::LeaveTournament { id },
        TourAction::Pause(paused) => ClientMessage::PauseTournament { id, paused },
        TourAction::Begin => ClientMessage::StartTournament { id },
        TourAction::ChooseApart => {
            open.apart = open.apart.is_none().then(Vec::new);
            return;
        }
        TourAction::Apart(player) => match apart(open, online.tournaments, player) {
            Some(msg) => msg,
            None => return,
        },
        TourAction::Invite(player) => ClientMessage::InviteToTournament { id, player },
        TourAction::Watch(room) => {
            nav.open(OnlinePage::Home);
            return commands.trigger(Ask::Watch(room));
        }
        TourAction::Play(room) => {
            nav.open(OnlinePage::Home);
            return commands.trigger(Ask::Join(room));
        }
        TourAction::CopyLink => {
            let link = tournament_link(&prefs.0, &id);
            open.copied = crate::game::online::copy_text(&link).is_ok();
            return;
        }
        _ => return,
    };
    say(commands, msg);
}

/// A player chosen to keep apart: the message once two are chosen (the names kept to say so).
fn apart(
    open: &mut TournamentForm,
    tournaments: &Tournaments,
    player: String,
) -> Option<ClientMessage> {
    let id = open.id.as_str();
    let chosen = open.apart.as_mut()?;
    if !chosen.contains(&player) {
        chosen.push(player);
    }
    let [a, b] = <[String; 2]>::try_from(chosen.clone()).ok()?;
    open.apart = None;
    let name = |p: &str| {
        let view = tournaments.view(id);
        let line = view.and_then(|v| v.standings.iter().find(|s| s.player.id == p));
        line.map_or(String::new(), |s| s.player.name.clone())
    };
    open.kept_apart = Some((name(&a), name(&b)));
    Some(ClientMessage::KeepApart {
        id: id.to_owned(),
        players: [a, b],
        apart: true,
    })
}

/// The link that opens tournament `id`: the game's page with `?tournament=ID`.
pub fn tournament_link(settings: &crate::session::Settings, id: &str) -> String {
    let room = crate::game::online::room_link(settings, "X");
    let base = room.split('?').next().unwrap_or_default();
    format!("{base}?tournament={id}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::PlayerInfo;

    #[test]
    fn a_standing_says_place_name_points_and_state() {
        let line = StandingLine {
            player: PlayerInfo {
                id: "p".into(),
                name: "An".into(),
                rating: 1512.4,
                deviation: 60.0,
                games: 3,
                bot: false,
            },
            place: 2,
            points: 2.5,
            buchholz: 4.0,
            sonneborn_berger: 3.0,
            games: 3,
            presence: Presence::Paused,
            on_fire: true,
            room: None,
        };
        let en = standing_words(&line, true, Lang::En);
        assert!(en.starts_with("2. An · 1512 · "), "{en}");
        assert!(en.contains("2.5") && en.contains("BH 4"), "{en}");
        let none = StandingLine {
            points: -0.0,
            ..line.clone()
        };
        assert!(standing_words(&none, false, Lang::En).contains(" 0 pts"));
        assert!(en.contains(Lang::En.tr("tour.paused")), "{en}");
        let vi = standing_words(&line, false, Lang::Vi);
        assert!(!vi.contains("BH"), "{vi}");
    }

    #[test]
    fn two_players_chosen_are_kept_apart_once_both_are() {
        let mut open = TournamentForm {
            apart: Some(Vec::new()),
            ..TournamentForm::of("T".into())
        };
        let tournaments = Tournaments::default();
        assert_eq!(apart(&mut open, &tournaments, "a".into()), None);
        assert_eq!(
            apart(&mut open, &tournaments, "a".into()),
            None,
            "the same twice"
        );
        let msg = apart(&mut open, &tournaments, "b".into());
        assert_eq!(
            msg,
            Some(ClientMessage::KeepApart {
                id: "T".into(),
                players: ["a".into(), "b".into()],
                apart: true
            })
        );
        assert_eq!(open.apart, None, "the choice is over");
        assert_eq!(
            apart(&mut open, &tournaments, "c".into()),
            None,
            "not choosing"
        );
    }
}
