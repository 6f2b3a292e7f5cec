//! The game's side of tournaments: the lists the server sent (ours, and the public ones not
//! over), the pages of the tournaments we looked at or take part in, an invitation waiting,
//! and a tournament's format and state in words.

use crate::net::protocol::{Notice, PlayerInfo};
use crate::net::tournament::{Format, TournamentLine, TournamentStatus, TournamentView};
use crate::session::Lang;

/// Tournament pages kept: the one on screen and those we play in (sent as they change).
const VIEWS_KEPT: usize = 6;
/// Tournament games remembered (room code and tournament), for their end to lead back.
const ROOMS_KEPT: usize = 64;

/// Everything the server has told us of tournaments.
#[derive(bevy::prelude::Resource, Clone, Debug, Default, PartialEq)]
pub struct Tournaments {
    /// The lists, once asked for: ours (organised or joined), then the public ones.
    pub lists: Option<(Vec<TournamentLine>, Vec<TournamentLine>)>,
    /// The latest page of each tournament heard of, the newest last.
    views: Vec<TournamentView>,
    /// An organiser who is our friend invites us (the latest invitation).
    pub invite: Option<(PlayerInfo, TournamentLine)>,
    /// We asked for a new tournament: the next page of one we organise and had not seen is it.
    pub expect_created: bool,
    /// The tournament just made, for its page to open.
    pub created: Option<String>,
    /// The rooms of tournament games seen, and their tournament's id, the newest last.
    rooms: Vec<(String, String)>,
    /// The tournament whose page was opened last: its news is read out (and mirrored on the
    /// web page) while we play its games.
    pub followed: Option<String>,
}

impl Tournaments {
    /// Take a tournament's notice (`me`: our player id); the notice back when it was not one.
    pub fn take(&mut self, notice: Notice, me: Option<&str>) -> Option<Notice> {
        match notice {
            Notice::Tournaments { mine, public } => self.lists = Some((mine, public)),
            Notice::Tournament { view } => {
                let ours = me == Some(view.line.organiser.id.as_str());
                if self.expect_created && ours && !self.seen(&view.line.id) {
                    self.expect_created = false;
                    self.created = Some(view.line.id.clone());
                }
                self.keep(view)
            }
            Notice::TournamentInvite { from, line } => self.invite = Some((from, line)),
            other => return Some(other),
        }
        None
    }

    /// The page of tournament `id`, when the server has sent it.
    pub fn view(&self, id: &str) -> Option<&TournamentView> {
        self.views.iter().rev().find(|v| v.line.id == id)
    }

    /// The tournament (its id) of the game in room `code`, if it is a tournament's game.
    pub fn of_room(&self, code: &str) -> Option<&str> {
        let found = self.rooms.iter().rev().find(|(room, _)| room == code);
        found.map(|(_, id)| id.as_str())
    }

    fn seen(&self, id: &str) -> bool {
        let listed = self
            .lists
            .as_ref()
            .is_some_and(|(mine, public)| mine.iter().chain(public).any(|l| l.id == id));
        listed || self.view(id).is_some()
    }

    fn keep(&mut self, view: TournamentView) {
        self.views.retain(|v| v.line.id != view.line.id);
        for room in view.standings.iter().filter_map(|s| s.room.as_ref()) {
            if self.of_room(room).is_none() {
                self.rooms.push((room.clone(), view.line.id.clone()));
            }
        }
        if self.rooms.len() > ROOMS_KEPT {
            self.rooms.drain(..self.rooms.len() - ROOMS_KEPT);
        }
        // A line of the lists is brought up to date with the page.
        if let Some((mine, public)) = self.lists.as_mut() {
            for line in mine.iter_mut().chain(public.iter_mut()) {
                if line.id == view.line.id {
                    *line = view.line.clone();
                }
            }
        }
        self.views.push(view);
        if self.views.len() > VIEWS_KEPT {
            self.views.remove(0);
        }
    }
}

/// A format in words: "Arena · 30 min", "Swiss · 7 rounds", "Round robin, twice".
pub fn format_words(format: Format, lang: Lang) -> String {
    match format {
        Format::Arena { minutes, .. } => lang.trf("tour.arena.of", &[("n", &minutes)]),
        Format::Swiss { rounds, .. } => lang.trf("tour.swiss.of", &[("n", &rounds)]),
        Format::RoundRobin { twice: false } => lang.tr("tour.round_robin").to_owned(),
        Format::RoundRobin { twice: true } => lang.tr("tour.round_robin.twice").to_owned(),
    }
}

/// Where a tournament is, in words, with the time to its start or its end when known:
/// "Starts in 4 min", "Open: the organiser starts it", "Round 2 of 5", "Ends in 12 min", "Over".
pub fn state_words(view: &TournamentView, now_ms: i64, lang: Lang) -> String {
    let line = &view.line;
    let playing_rounds = line.status == TournamentStatus::Running && line.ends_ms == 0;
    if !playing_rounds || view.round == 0 {
        return line_state_words(line, now_ms, lang);
    }
    let round = lang.trf("tour.round", &[("n", &view.round), ("of", &view.rounds)]);
    if view.next_round_ms > now_ms {
        let left = time_left(view.next_round_ms, now_ms, lang);
        let next = lang.trf("tour.next_in", &[("time", &left)]);
        format!("{round} · {next}")
    } else {
        round
    }
}

/// A tournament page's line of where it is and how many play: "Starts in 40 s · 12 players".
pub fn state_and_players(view: &TournamentView, now_ms: i64, lang: Lang) -> String {
    let state = state_words(view, now_ms, lang);
    let players = lang.trf("tour.players", &[("n", &view.line.players)]);
    format!("{state} · {players}")
}

/// The time from `now_ms` to `at_ms`, in words.
fn time_left(at_ms: i64, now_ms: i64, lang: Lang) -> String {
    crate::net::correspondence::time_words((at_ms - now_ms).max(0), lang)
}

/// Where a tournament is as its line alone tells: "Under way" where a page would give the round.
fn line_state_words(line: &TournamentLine, now_ms: i64, lang: Lang) -> String {
    let left = |at: i64| time_left(at, now_ms, lang);
    match line.status {
        TournamentStatus::Open if line.starts_ms > 0 => {
            lang.trf("tour.starts_in", &[("time", &left(line.starts_ms))])
        }
        TournamentStatus::Open if line.start_when > 0 => {
            lang.trf("tour.starts_when", &[("n", &line.start_when)])
        }
        TournamentStatus::Open => lang.tr("tour.starts_by_hand").to_owned(),
        TournamentStatus::Running if line.ends_ms > 0 => {
            lang.trf("tour.ends_in", &[("time", &left(line.ends_ms))])
        }
        TournamentStatus::Running => lang.tr("tour.begun").to_owned(),
        TournamentStatus::Over => lang.tr("tour.over").to_owned(),
    }
}

/// A line of a list: "Lớp 4A · Arena · 30 min · 12 players · Starts in 4 min".
pub fn line_words(line: &TournamentLine, now_ms: i64, lang: Lang) -> String {
    let players = lang.trf("tour.players", &[("n", &line.players)]);
    let state = line_state_words(line, now_ms, lang);
    format!(
        "{} · {} · {players} · {state}",
        line.name,
        format_words(line.format, lang)
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::ClockSpec;
    use crate::net::tournament::{Presence, StandingLine};

    fn player(id: &str) -> PlayerInfo {
        PlayerInfo {
            id: id.into(),
            name: id.to_uppercase(),
            rating: 1500.0,
            deviation: 80.0,
            games: 0,
            bot: false,
        }
    }

    fn line(id: &str, status: TournamentStatus) -> TournamentLine {
        TournamentLine {
            id: id.into(),
            name: "Lớp 4A".into(),
            organiser: player("o"),
            format: Format::Swiss {
                rounds: 5,
                interval_secs: None,
            },
            preset: "standard".into(),
            clock: ClockSpec::UNTIMED,
            public: false,
            status,
            players: 6,
            starts_ms: 0,
            ends_ms: 0,
            start_when: 0,
            password: false,
            unrated: false,
            no_chat: false,
            bots: false,
        }
    }

    fn view(id: &str, room: Option<&str>) -> TournamentView {
        TournamentView {
            line: line(id, TournamentStatus::Running),
            round: 2,
            rounds: 5,
            next_round_ms: 0,
            standings: vec![StandingLine {
                player: player("a"),
                place: 1,
                points: 2.0,
                buchholz: 0.0,
                sonneborn_berger: 0.0,
                games: 2,
                presence: Presence::Active,
                on_fire: false,
                room: room.map(str::to_owned),
            }],
            joined: true,
        }
    }

    #[test]
    fn a_page_replaces_the_one_before_and_updates_the_lists() {
        let mut t = Tournaments::default();
        let lists = Notice::Tournaments {
            mine: vec![line("AAAAAAAA", TournamentStatus::Open)],
            public: vec![],
        };
        assert!(t.take(lists, None).is_none());
        assert!(
            t.take(
                Notice::Tournament {
                    view: view("AAAAAAAA", None)
                },
                None
            )
            .is_none()
        );
        let again = view("AAAAAAAA", Some("K7Q2MX"));
        assert!(t.take(Notice::Tournament { view: again }, None).is_none());
        assert_eq!(t.views.len(), 1, "one page per tournament");
        assert_eq!(t.of_room("K7Q2MX"), Some("AAAAAAAA"));
        // Once its game is over, the room is still known as the tournament's.
        t.take(
            Notice::Tournament {
                view: view("AAAAAAAA", None),
            },
            None,
        );
        assert_eq!(t.of_room("K7Q2MX"), Some("AAAAAAAA"));
        assert_eq!(t.of_room("ZZZZZZ"), None);
        let (mine, _) = t.lists.as_ref().unwrap();
        assert_eq!(mine[0].status, TournamentStatus::Running);
        assert!(
            t.take(Notice::Unpooled, None).is_some(),
            "not a tournament's"
        );
    }

    #[test]
    fn the_tournament_we_asked_for_is_the_one_to_open() {
        let mut t = Tournaments::default();
        let made = view("BBBBBBBB", None);
        t.take(Notice::Tournament { view: made.clone() }, Some("o"));
        assert_eq!(t.created, None, "not asked for");
        t.expect_created = true;
        t.take(Notice::Tournament { view: made }, Some("o"));
        assert_eq!(t.created, None, "seen before: not the new one");
        let mut theirs = view("DDDDDDDD", None);
        theirs.line.organiser = player("a");
        t.take(Notice::Tournament { view: theirs }, Some("o"));
        assert_eq!(t.created, None, "not ours");
        t.take(
            Notice::Tournament {
                view: view("CCCCCCCC", None),
            },
            Some("o"),
        );
        assert_eq!(t.created.as_deref(), Some("CCCCCCCC"));
        assert!(!t.expect_created);
    }

    #[test]
    fn only_the_latest_pages_are_kept() {
        let mut t = Tournaments::default();
        for i in 0..VIEWS_KEPT + 3 {
            let id = format!("T{i:07}");
            t.take(
                Notice::Tournament {
                    view: view(&id, None),
                },
                None,
            );
        }
        assert_eq!(t.views.len(), VIEWS_KEPT);
        assert!(t.view("T0000000").is_none());
        assert!(t.view(&format!("T{:07}", VIEWS_KEPT + 2)).is_some());
    }

    #[test]
    fn a_tournament_says_where_it_is() {
        let en = Lang::En;
        let mut v = view("AAAAAAAA", None);
        assert_eq!(state_words(&v, 0, en), "Round 2 of 5");
        v.next_round_ms = 90_000;
        assert!(state_words(&v, 0, en).starts_with("Round 2 of 5 · "));
        v.line.status = TournamentStatus::Open;
        assert_eq!(state_words(&v, 0, en), en.tr("tour.starts_by_hand"));
        v.line.start_when = 8;
        assert!(state_words(&v, 0, en).contains('8'));
        v.line.status = TournamentStatus::Over;
        assert_eq!(state_words(&v, 0, en), en.tr("tour.over"));
        let words = line_words(&line("AAAAAAAA", TournamentStatus::Running), 0, Lang::Vi);
        assert!(words.starts_with("Lớp 4A · "), "{words}");
    }
}
