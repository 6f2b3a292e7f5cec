//! Tournaments, as the pages show them: the list (an invitation first, ours, then the public
//! ones, and a code typed to open a private one), a new tournament's choices (name, format and
//! its length, the start, public or private, a password; the rules and clock are the online
//! form's), and what each of their buttons asks of the server.

use bevy::prelude::*;

use super::kit::{centred_row, header, wrapping_row};
use super::{Page, Pages, PeopleAction, news_words, say};
use crate::game::board::art::Art;
use crate::game::online::client::{Ask, Online};
use crate::game::online::field::{Field, text_field};
use crate::game::online::form::{Form, clock_label};
use crate::game::online::tournaments::{format_words, line_words, state_and_players};
use crate::game::theme::widget::{bold, button, small_button, text};
use crate::net::protocol::ClientMessage;
use crate::net::social::normalize_code;
use crate::net::tournament::{Format, MAX_TOURNAMENT_NAME, TournamentLine};
use crate::rules::presets;
use crate::session::Lang;

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

/// The three formats, as the choices name them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Kind {
    #[default]
    Arena,
    Swiss,
    RoundRobin,
}

/// A new tournament's choices, kept while the online screen is up.
#[derive(Clone, Debug, PartialEq)]
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
        let (rules, clock) = super::proposed(form);
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

/// What the tournament pages' buttons do.
#[derive(Clone, Debug, PartialEq)]
pub enum TourAction {
    /// Open a tournament's page.
    Open(String),
    /// Open the tournament whose code was typed.
    Find,
    Kind(Kind),
    Length(i8),
    Interval(i8),
    Start(i8),
    Public,
    Rated,
    Chat,
    Bots,
    Create,
    Join,
    Leave,
    Pause(bool),
    /// The organiser starts it now (a Swiss once begun: its next round).
    Begin,
    Invite(String),
    /// Begin (or stop) choosing two players to keep apart.
    ChooseApart,
    /// One of the two players to keep apart (an id).
    Apart(String),
    Watch(String),
    Play(String),
    /// Copy the link to the open tournament.
    CopyLink,
}

/// A tournament page's button.
pub(super) fn act(
    action: TourAction,
    commands: &mut Commands,
    pages: &mut Pages,
    form: &Form,
    online: &mut Online,
    prefs: &crate::game::state::Prefs,
) {
    let lang = prefs.lang();
    let child = online.people.child;
    let open_id = pages.tournament.clone().unwrap_or_default();
    let msg = match action {
        TourAction::Open(id) => return open(commands, pages, id),
        TourAction::Find => return find(commands, pages),
        TourAction::Kind(kind) => return pages.draft.kind = kind,
        TourAction::Length(step) => return pages.draft.lengthen(step),
        TourAction::Interval(step) => {
            return pages.draft.interval = cycle(pages.draft.interval, INTERVALS.len(), step);
        }
        TourAction::Start(step) => {
            return pages.draft.start = cycle(pages.draft.start, STARTS.len(), step);
        }
        // No public tournament in child mode: the server would refuse it.
        TourAction::Public => return pages.draft.public = !pages.draft.public && !child,
        TourAction::Rated => return pages.draft.rated = !pages.draft.rated,
        TourAction::Chat => return pages.draft.chat = !pages.draft.chat,
        TourAction::Bots => return pages.draft.bots = !pages.draft.bots,
        TourAction::Create => {
            let me = online.me.as_ref().map_or("", |p| p.name.as_str());
            let now = online.server_now();
            let msg = pages.draft.message(form, me, now, lang);
            pages.draft.password.clear();
            pages.typing = None;
            // Its page opens once the server has made it.
            online.tournaments.expect_created = true;
            msg
        }
        TourAction::Join => {
            let password = std::mem::take(&mut pages.tournament_password);
            pages.typing = None;
            ClientMessage::JoinTournament {
                id: open_id,
                password: (!password.is_empty()).then_some(password),
            }
        }
        TourAction::Leave => ClientMessage::LeaveTournament { id: open_id },
        TourAction::Pause(paused) => ClientMessage::PauseTournament {
            id: open_id,
            paused,
        },
        TourAction::Begin => ClientMessage::StartTournament { id: open_id },
        TourAction::ChooseApart => {
            pages.apart = pages.apart.is_none().then(Vec::new);
            return;
        }
        TourAction::Apart(player) => match apart(pages, online, &open_id, player) {
            Some(msg) => msg,
            None => return,
        },
        TourAction::Invite(player) => ClientMessage::InviteToTournament {
            id: open_id,
            player,
        },
        TourAction::Watch(room) => {
            pages.page = Page::None;
            return commands.trigger(Ask::Watch(room));
        }
        TourAction::Play(room) => {
            pages.page = Page::None;
            return commands.trigger(Ask::Join(room));
        }
        TourAction::CopyLink => {
            let link = tournament_link(&prefs.0, &open_id);
            pages.copied = crate::game::online::copy_text(&link).is_ok();
            return;
        }
    };
    say(commands, msg);
}

/// A player chosen to keep apart: the message once two are chosen (the names kept to say so).
fn apart(pages: &mut Pages, online: &Online, id: &str, player: String) -> Option<ClientMessage> {
    let chosen = pages.apart.as_mut()?;
    if !chosen.contains(&player) {
        chosen.push(player);
    }
    let [a, b] = <[String; 2]>::try_from(chosen.clone()).ok()?;
    pages.apart = None;
    let name = |p: &str| {
        let view = online.tournaments.view(id);
        let line = view.and_then(|v| v.standings.iter().find(|s| s.player.id == p));
        line.map_or(String::new(), |s| s.player.name.clone())
    };
    pages.kept_apart = Some((name(&a), name(&b)));
    Some(ClientMessage::KeepApart {
        id: id.to_owned(),
        players: [a, b],
        apart: true,
    })
}

/// A text that counts down with the clock (to a start, a round, an end): the open tournament's
/// line of where it is, or a list's line of tournament `id`. Its words are set in place each
/// second (`retell`), so that nothing else of the page is drawn again.
#[derive(Component, Clone, Debug, PartialEq)]
pub(super) enum Countdown {
    Page,
    Line(String),
}

/// Whether the open page has countdowns (it then asks for frames).
pub(super) fn counts_down(pages: &Pages) -> bool {
    matches!(pages.page, Page::Tournament | Page::Tournaments)
}

/// What a countdown says now; nothing when its tournament is not known.
fn countdown_words(
    which: &Countdown,
    pages: &Pages,
    online: &Online,
    lang: Lang,
) -> Option<String> {
    let now = online.server_now();
    let tournaments = &online.tournaments;
    match which {
        Countdown::Page => {
            let id = pages.tournament.as_deref()?;
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
    pages: &Pages,
    online: &Online,
    lang: Lang,
) {
    for (which, mut text) in countdowns {
        if let Some(words) = countdown_words(which, pages, online, lang)
            && text.0 != words
        {
            text.0 = words;
        }
    }
}

/// Open tournament `id`'s page and ask for it.
pub(super) fn open(commands: &mut Commands, pages: &mut Pages, id: String) {
    super::open(commands, pages, Page::Tournament, None);
    say(commands, ClientMessage::Tournament { id: id.clone() });
    // Who may be invited: our friends.
    say(commands, ClientMessage::Relations);
    pages.tournament = Some(id);
}

/// The code typed: its page opens once it has its length; else its field does.
fn find(commands: &mut Commands, pages: &mut Pages) {
    let code = normalize_code(&pages.tournament_code);
    if code.len() != crate::net::tournament::TOURNAMENT_ID_LEN {
        pages.typing = Some(Field::TournamentCode);
        return;
    }
    pages.tournament_code.clear();
    open(commands, pages, code);
}

/// The link that opens tournament `id`: the game's page with `?tournament=ID`.
pub fn tournament_link(settings: &crate::session::Settings, id: &str) -> String {
    let room = crate::game::online::room_link(settings, "X");
    let base = room.split('?').next().unwrap_or_default();
    format!("{base}?tournament={id}")
}

/// The list: an invitation, ours, the public ones, a code to type, and a new one.
pub(super) fn list_page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    pages: &Pages,
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
        r.spawn(text_field(
            art,
            field,
            &pages.tournament_code,
            pages.typing,
            "—",
        ));
        r.spawn(button(
            art,
            PeopleAction::Tour(TourAction::Find),
            lang.tr("tour.open"),
        ));
    });
    let now = online.server_now();
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
        PeopleAction::Open(Page::NewTournament),
        lang.tr("tour.new"),
    ));
}

fn line_row(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, line: &TournamentLine, now: i64) {
    p.spawn(wrapping_row()).with_children(|r| {
        let open = PeopleAction::Tour(TourAction::Open(line.id.clone()));
        r.spawn(button(art, open, lang.tr("tour.open")));
        let words = line_words(line, now, lang);
        r.spawn((text(art, words, 16.0), Countdown::Line(line.id.clone())));
    });
}

/// A new tournament's choices.
pub(super) fn draft_page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    pages: &Pages,
    form: &Form,
) {
    header(p, art, lang, lang.tr("tour.new").to_owned());
    super::kit::problem_line(p, art, lang, online);
    name_and_kind(p, art, lang, online, pages);
    draft_steps(p, art, lang, &pages.draft);
    let (rules, clock) = (
        rules_words(form, lang),
        clock_label(form.clock_spec(), lang),
    );
    p.spawn(text(
        art,
        lang.trf("tour.rules", &[("rules", &rules), ("clock", &clock)]),
        15.0,
    ));
    draft_toggles(p, art, lang, pages);
    p.spawn(centred_row()).with_child(button(
        art,
        PeopleAction::Tour(TourAction::Create),
        lang.tr("tour.create"),
    ));
}

/// The new tournament's name and its kind.
fn name_and_kind(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    pages: &Pages,
) {
    let draft = &pages.draft;
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, lang.tr("tour.name"), 17.0));
        let me = online.me.as_ref().map_or("", |p| p.name.as_str());
        let empty = lang.trf("tour.default_name", &[("who", &me)]);
        r.spawn(text_field(
            art,
            Field::TournamentName,
            &draft.name,
            pages.typing,
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
            r.spawn(button(
                art,
                PeopleAction::Tour(TourAction::Kind(kind)),
                label,
            ));
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
fn draft_toggles(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, pages: &Pages) {
    let draft = &pages.draft;
    p.spawn(wrapping_row()).with_children(|r| {
        let rated = lang.tr(if draft.rated {
            "tour.rated"
        } else {
            "tour.unrated"
        });
        r.spawn(button(art, PeopleAction::Tour(TourAction::Rated), rated));
        let chat = lang.tr(if draft.chat {
            "tour.chat"
        } else {
            "tour.no_chat"
        });
        r.spawn(button(art, PeopleAction::Tour(TourAction::Chat), chat));
        let bots = lang.tr(if draft.bots {
            "tour.bots"
        } else {
            "tour.people_only"
        });
        r.spawn(button(art, PeopleAction::Tour(TourAction::Bots), bots));
    });
    p.spawn(wrapping_row()).with_children(|r| {
        let public = lang.tr(if draft.public {
            "online.public"
        } else {
            "online.private"
        });
        r.spawn(button(art, PeopleAction::Tour(TourAction::Public), public));
        r.spawn(text(art, lang.tr("tour.password"), 17.0));
        // Shown as typed: the organiser gives it to the players.
        let field = Field::NewTournamentPassword;
        let empty = lang.tr("tour.password.none");
        r.spawn(text_field(art, field, &draft.password, pages.typing, empty));
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
        r.spawn(small_button(art, PeopleAction::Tour(action(-1)), "‹"));
        r.spawn(bold(art, value, 17.0));
        r.spawn(small_button(art, PeopleAction::Tour(action(1)), "›"));
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

/// A rule set's name by its preset's id.
pub(super) fn rules_words_of(preset: &str, lang: Lang) -> String {
    presets::get(preset).map_or(preset.to_owned(), |p| lang.pick(&p.name).to_owned())
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

    #[test]
    fn two_players_chosen_are_kept_apart_once_both_are() {
        let mut pages = Pages {
            apart: Some(Vec::new()),
            ..Pages::default()
        };
        let online = Online::default();
        assert_eq!(apart(&mut pages, &online, "T", "a".into()), None);
        assert_eq!(
            apart(&mut pages, &online, "T", "a".into()),
            None,
            "the same twice"
        );
        let msg = apart(&mut pages, &online, "T", "b".into());
        assert_eq!(
            msg,
            Some(ClientMessage::KeepApart {
                id: "T".into(),
                players: ["a".into(), "b".into()],
                apart: true
            })
        );
        assert_eq!(pages.apart, None, "the choice is over");
        assert_eq!(
            apart(&mut pages, &online, "T", "c".into()),
            None,
            "not choosing"
        );
    }
}
