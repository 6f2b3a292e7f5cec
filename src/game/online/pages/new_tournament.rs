//! The new tournament's page: its choices (name, format and its length, the start, public or
//! private, a password, rated, chat, bots; the rules and clock are the online form's), kept in
//! its form (`Draft`) while the page is open, and the message that creates it.

use bevy::prelude::*;

use super::PageAction;
use super::action::{Kind, TourAction};
use super::kit::rules_words_of;
use super::kit::{centred_row, header, wrapping_row};
use super::state::OnlinePage;
use crate::game::board::art::Art;
use crate::game::online::client::Online;
use crate::game::online::field::{Field, Typing, text_field};
use crate::game::online::form::{Form, clock_label};
use crate::game::online::tournaments::format_words;
use crate::game::theme::widget::{bold, button, small_button, text};
use crate::net::protocol::ClientMessage;
use crate::net::tournament::{Format, MAX_TOURNAMENT_NAME};
use crate::session::Lang;

pub(super) fn plugin(app: &mut App) {
    super::page_form::<Draft>(app, OnlinePage::NewTournament);
}

/// An arena's lengths offered, in minutes.
const ARENA_MINUTES: [u32; 10] = [10, 15, 20, 30, 45, 60, 90, 120, 180, 360];
/// A Swiss's waits between rounds offered (none: the organiser begins each round).
const INTERVALS: [Option<u32>; 5] = [None, Some(60), Some(600), Some(3600), Some(86_400)];
/// How a tournament may start: when the organiser says, in some minutes, or once so many
/// players are in.
const STARTS: [Start; 6] = [
    Start::ByHand,
    Start::InMinutes(5),
    Start::InMinutes(15),
    Start::InMinutes(60),
    Start::When(4),
    Start::When(8),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Start {
    ByHand,
    InMinutes(u32),
    When(u32),
}

/// A new tournament's choices: the page's form.
#[derive(Resource, Clone, Debug, PartialEq)]
pub struct Draft {
    pub name: String,
    pub kind: Kind,
    /// Index in `ARENA_MINUTES`.
    pub minutes: usize,
    pub rounds: u8,
    pub twice: bool,
    /// Index in `INTERVALS`.
    pub interval: usize,
    /// Index in `STARTS`.
    pub start: usize,
    pub public: bool,
    pub password: String,
    /// Its games change ratings.
    pub rated: bool,
    /// Its players may say the preset phrases in its games.
    pub chat: bool,
    /// Bots (programs) may join it.
    pub bots: bool,
}

impl Default for Draft {
    fn default() -> Draft {
        Draft {
            name: String::new(),
            kind: Kind::Arena,
            minutes: 3,
            rounds: 5,
            twice: false,
            interval: 0,
            start: 0,
            public: false,
            password: String::new(),
            rated: true,
            chat: true,
            bots: false,
        }
    }
}

impl Draft {
    /// The format chosen, in the protocol's terms.
    pub fn format(&self) -> Format {
        match self.kind {
            Kind::Arena => Format::Arena {
                minutes: ARENA_MINUTES[self.minutes.min(ARENA_MINUTES.len() - 1)],
                streaks: true,
            },
            Kind::Swiss => Format::Swiss {
                rounds: self.rounds.clamp(3, 15),
                interval_secs: INTERVALS[self.interval.min(INTERVALS.len() - 1)],
            },
            Kind::RoundRobin => Format::RoundRobin { twice: self.twice },
        }
    }

    /// The message that creates it, with the online form's rules and clock; a name left empty
    /// is the organiser's ("An's tournament").
    pub fn message(&self, form: &Form, me: &str, now_ms: i64, lang: Lang) -> ClientMessage {
        let (rules, clock) = form.proposed();
        let name = match self.name.trim() {
            "" => lang.trf("tour.default_name", &[("who", &me)]),
            name => name.to_owned(),
        };
        let (starts_ms, start_when) = match STARTS[self.start.min(STARTS.len() - 1)] {
            Start::ByHand => (None, None),
            Start::InMinutes(m) => (Some(now_ms + i64::from(m) * 60_000), None),
            Start::When(n) => (None, Some(n)),
        };
        let password = self.password.trim();
        ClientMessage::CreateTournament {
            name: name.chars().take(MAX_TOURNAMENT_NAME).collect(),
            rules,
            clock,
            format: self.format(),
            public: self.public,
            starts_ms,
            start_when,
            password: (!password.is_empty()).then(|| password.to_owned()),
            unrated: !self.rated,
            no_chat: !self.chat,
            bots: self.bots,
        }
    }

    /// One step along the length's choices: an arena's minutes, a Swiss's rounds, a round
    /// robin's once or twice.
    fn lengthen(&mut self, step: i8) {
        match self.kind {
            Kind::Arena => {
                let top = ARENA_MINUTES.len() as isize - 1;
                self.minutes = (self.minutes as isize + isize::from(step)).clamp(0, top) as usize;
            }
            Kind::Swiss => {
                self.rounds = (i16::from(self.rounds) + i16::from(step)).clamp(3, 15) as u8
            }
            Kind::RoundRobin => self.twice = !self.twice,
        }
    }
}

/// `index` moved one step (`step` is ±1) around `len` choices.
fn cycle(index: usize, len: usize, step: i8) -> usize {
    (index as isize + isize::from(step)).rem_euclid(len as isize) as usize
}

impl Draft {
    /// A choice of the draft changed; the draft to send on Create (its password then left
    /// out of the screen's memory).
    pub(super) fn act(&mut self, action: TourAction, child: bool) -> Option<Draft> {
        match action {
            TourAction::Kind(kind) => self.kind = kind,
            TourAction::Length(step) => self.lengthen(step),
            TourAction::Interval(step) => {
                self.interval = cycle(self.interval, INTERVALS.len(), step)
            }
            TourAction::Start(step) => self.start = cycle(self.start, STARTS.len(), step),
            // No public tournament in child mode: the server would refuse it.
            TourAction::Public => self.public = !self.public && !child,
            TourAction::Rated => self.rated = !self.rated,
            TourAction::Chat => self.chat = !self.chat,
            TourAction::Bots => self.bots = !self.bots,
            TourAction::Create => {
                let sent = self.clone();
                self.password.clear();
                return Some(sent);
            }
            _ => {}
        }
        None
    }
}

/// A new tournament's choices.
pub(super) fn draft_page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    (draft, typing): (&Draft, Typing),
    form: &Form,
) {
    header(p, art, lang, lang.tr("tour.new").to_owned());
    super::kit::problem_line(p, art, lang, online);
    name_and_kind(p, art, lang, online, (draft, typing));
    draft_steps(p, art, lang, draft);
    let (rules, clock) = (
        rules_words(form, lang),
        clock_label(form.clock_spec(), lang),
    );
    p.spawn(text(
        art,
        lang.trf("tour.rules", &[("rules", &rules), ("clock", &clock)]),
        15.0,
    ));
    draft_toggles(p, art, lang, (draft, typing));
    p.spawn(centred_row()).with_child(button(
        art,
        PageAction::Tour(TourAction::Create),
        lang.tr("tour.create"),
    ));
}

/// The new tournament's name and its kind.
fn name_and_kind(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    (draft, typing): (&Draft, Typing),
) {
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, lang.tr("tour.name"), 17.0));
        let me = online.identity.me.as_ref().map_or("", |p| p.name.as_str());
        let empty = lang.trf("tour.default_name", &[("who", &me)]);
        r.spawn(text_field(
            art,
            Field::TournamentName,
            &draft.name,
            typing.0,
            &empty,
        ));
    });
    p.spawn(wrapping_row()).with_children(|r| {
        for (kind, key) in [
            (Kind::Arena, "tour.arena"),
            (Kind::Swiss, "tour.swiss"),
            (Kind::RoundRobin, "tour.round_robin"),
        ] {
            let label = chosen(lang.tr(key), draft.kind == kind);
            r.spawn(button(art, PageAction::Tour(TourAction::Kind(kind)), label));
        }
    });
}

/// The new tournament's kind explained, its length, its rounds' interval and its start.
fn draft_steps(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, draft: &Draft) {
    p.spawn(text(art, lang.tr(kind_help(draft.kind)), 15.0));
    stepper(
        p,
        art,
        lang.tr("tour.length"),
        &format_words(draft.format(), lang),
        TourAction::Length,
    );
    if draft.kind == Kind::Swiss {
        let every = interval_words(INTERVALS[draft.interval], lang);
        stepper(
            p,
            art,
            lang.tr("tour.interval"),
            &every,
            TourAction::Interval,
        );
    }
    let start = start_words(STARTS[draft.start], lang);
    stepper(p, art, lang.tr("tour.start"), &start, TourAction::Start);
}

/// Rated or not, chat or not, bots or not, public or not, and its password.
fn draft_toggles(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, form: (&Draft, Typing)) {
    let (draft, typing) = form;
    p.spawn(wrapping_row()).with_children(|r| {
        let rated = lang.tr(if draft.rated {
            "tour.rated"
        } else {
            "tour.unrated"
        });
        r.spawn(button(art, PageAction::Tour(TourAction::Rated), rated));
        let chat = lang.tr(if draft.chat {
            "tour.chat"
        } else {
            "tour.no_chat"
        });
        r.spawn(button(art, PageAction::Tour(TourAction::Chat), chat));
        let bots = lang.tr(if draft.bots {
            "tour.bots"
        } else {
            "tour.people_only"
        });
        r.spawn(button(art, PageAction::Tour(TourAction::Bots), bots));
    });
    p.spawn(wrapping_row()).with_children(|r| {
        let public = lang.tr(if draft.public {
            "online.public"
        } else {
            "online.private"
        });
        r.spawn(button(art, PageAction::Tour(TourAction::Public), public));
        r.spawn(text(art, lang.tr("tour.password"), 17.0));
        // Shown as typed: the organiser gives it to the players.
        let field = Field::NewTournamentPassword;
        let empty = lang.tr("tour.password.none");
        r.spawn(text_field(art, field, &draft.password, typing.0, empty));
    });
}

/// A row of a choice: its name, ‹, the value, ›.
fn stepper(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    name: &str,
    value: &str,
    action: impl Fn(i8) -> TourAction,
) {
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, name, 17.0));
        r.spawn(small_button(art, PageAction::Tour(action(-1)), "‹"));
        r.spawn(bold(art, value, 17.0));
        r.spawn(small_button(art, PageAction::Tour(action(1)), "›"));
    });
}

/// A choice's label, marked when it is the one chosen.
fn chosen(label: &str, on: bool) -> String {
    if on {
        format!("• {label}")
    } else {
        label.to_owned()
    }
}

fn kind_help(kind: Kind) -> &'static str {
    match kind {
        Kind::Arena => "tour.arena.help",
        Kind::Swiss => "tour.swiss.help",
        Kind::RoundRobin => "tour.round_robin.help",
    }
}

fn interval_words(interval: Option<u32>, lang: Lang) -> String {
    match interval {
        None => lang.tr("tour.interval.by_hand").to_owned(),
        Some(secs) => crate::net::correspondence::time_words(i64::from(secs) * 1000, lang),
    }
}

fn start_words(start: Start, lang: Lang) -> String {
    match start {
        Start::ByHand => lang.tr("tour.start.by_hand").to_owned(),
        Start::InMinutes(m) => lang.trf("tour.start.in", &[("n", &m)]),
        Start::When(n) => lang.trf("tour.start.when", &[("n", &n)]),
    }
}

/// The form's rule set in words (the organiser changes it on the online screen).
pub(super) fn rules_words(form: &Form, lang: Lang) -> String {
    rules_words_of(&form.preset, lang)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draft_becomes_the_message_the_server_reads() {
        let mut draft = Draft {
            kind: Kind::Swiss,
            rounds: 7,
            interval: 2,
            start: 5,
            password: "  cá vàng ".into(),
            ..Draft::default()
        };
        let msg = draft.message(&Form::default(), "An", 1_000, Lang::En);
        let ClientMessage::CreateTournament {
            name,
            format,
            starts_ms,
            start_when,
            password,
            public,
            unrated,
            no_chat,
            bots,
            ..
        } = msg
        else {
            panic!("not a creation: {msg:?}");
        };
        assert_eq!(name, Lang::En.trf("tour.default_name", &[("who", &"An")]));
        assert_eq!(
            format,
            Format::Swiss {
                rounds: 7,
                interval_secs: Some(600)
            }
        );
        assert_eq!((starts_ms, start_when), (None, Some(8)));
        assert_eq!(password.as_deref(), Some("cá vàng"));
        assert!(!public, "private unless asked");
        assert!(!unrated && !no_chat, "rated, with chat, unless asked");
        assert!(!bots, "people only unless asked");
        draft.start = 1;
        draft.kind = Kind::Arena;
        draft.bots = true;
        let ClientMessage::CreateTournament {
            starts_ms,
            format,
            bots,
            ..
        } = draft.message(&Form::default(), "An", 1_000, Lang::En)
        else {
            panic!("not a creation");
        };
        assert!(bots, "bots let in when asked");
        assert_eq!(starts_ms, Some(1_000 + 5 * 60_000));
        assert!(format.checked().is_ok(), "{format:?}");
    }

    #[test]
    fn lengths_stay_in_the_server_s_ranges() {
        let mut draft = Draft {
            kind: Kind::Swiss,
            ..Draft::default()
        };
        for _ in 0..20 {
            draft.lengthen(1);
        }
        assert_eq!(
            draft.format(),
            Format::Swiss {
                rounds: 15,
                interval_secs: None
            }
        );
        draft.kind = Kind::Arena;
        for _ in 0..20 {
            draft.lengthen(-1);
            assert!(draft.format().checked().is_ok());
        }
        assert_eq!(cycle(0, STARTS.len(), -1), STARTS.len() - 1);
    }
}
