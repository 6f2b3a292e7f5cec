//! The online home, phone first: what waits for the player (their move in a game by days, a
//! friend's challenge), then "Play now" by time control, playing a friend (a link to give, the
//! friends' list, a room of one's own choices), a room by its code, and the public rooms. The
//! header keeps the connection's state, the name, the profile, the friends and the leaderboard
//! in reach while the rest scrolls under it.

use bevy::prelude::*;

use super::client::Online;
use super::field::{Field, text_field};
use super::form::{Form, OnlineAction, clock_label};
use super::link::{Link, LinkState};
use super::people::{
    Page, Pages, PeopleAction, challenge_words, game_line, news_words, pool_rules,
};
use crate::game::board::art::Art;
use crate::game::state::Prefs;
use crate::game::theme::widget::{bold, button, page_body, row, text, tile, title_and_back};
use crate::net::pool::POOLS;
use crate::net::protocol::ClockSpec;
use crate::rules::presets;
use crate::session::Lang;

/// At most this many of each kind of thing waiting for the player (the rest are a tap away on
/// their page).
const SHOWN_WAITING: usize = 3;

/// What the home shows, and from where.
pub struct Home<'a> {
    pub art: &'a Art,
    pub lang: Lang,
    pub online: &'a Online,
    pub link: &'a Link,
    pub prefs: &'a Prefs,
    pub pages: &'a Pages,
    pub form: &'a Form,
}

impl Home<'_> {
    /// The home's header, then its body in a part that scrolls.
    pub fn spawn(&self, page: &mut ChildSpawnerCommands) {
        self.header(page);
        page.spawn(page_body()).with_children(|body| {
            self.waiting_for_you(body);
            self.play_now(body);
            self.friend(body);
            self.by_code(body);
            self.lobby(body);
        });
    }

    /// The title and Back, the connection's state, then the player's name, profile, friends
    /// and the leaderboard.
    fn header(&self, p: &mut ChildSpawnerCommands) {
        let (art, lang) = (self.art, self.lang);
        let (heading, back) = (lang.tr("title.online"), lang.tr("online.back"));
        title_and_back(p, art, heading.to_owned(), OnlineAction::Back, back, ());
        let (status, retry) = link_words(self.link, self.online, lang);
        p.spawn(row()).with_children(|r| {
            r.spawn(text(art, status, 15.0));
            if retry {
                r.spawn(button(art, OnlineAction::Retry, lang.tr("online.retry")));
            }
        });
        if let Some(problem) = &self.online.problem {
            let why = lang.trf("online.refused", &[("why", &problem.message)]);
            p.spawn(text(art, why, 15.0));
        }
        p.spawn(row()).with_children(|r| {
            r.spawn(text(art, lang.tr("online.name"), 15.0));
            let name = &self.prefs.name;
            r.spawn(text_field(art, Field::Name, name, self.pages.typing, "—"));
            let profile = lang.tr("people.my_profile");
            r.spawn(button(art, PeopleAction::Open(Page::Profile), profile));
            let friends = friends_label(self.online, lang);
            r.spawn(button(art, PeopleAction::Open(Page::Friends), friends));
            let board = lang.tr("online.leaderboard");
            r.spawn(button(art, OnlineAction::Leaderboard, board));
        });
    }

    /// Our move in games by days and friends' challenges, each a tap from being played; the
    /// latest news of friends; our games and the tournaments.
    fn waiting_for_you(&self, p: &mut ChildSpawnerCommands) {
        let (art, lang, online) = (self.art, self.lang, self.online);
        let ours = online.my_games.iter().flat_map(|(games, _)| games);
        let ours: Vec<_> = ours.filter(|g| g.your_turn).take(SHOWN_WAITING).collect();
        let challenges = online.people.incoming.iter().take(SHOWN_WAITING);
        if !ours.is_empty() || challenges.len() > 0 {
            p.spawn(bold(art, lang.tr("home.for_you"), 20.0));
        }
        for game in ours {
            p.spawn(row()).with_children(|r| {
                let open = PeopleAction::OpenGame(game.code.clone());
                r.spawn(button(art, open, lang.tr("home.play_move")));
                r.spawn(text(art, game_line(game, lang), 16.0));
            });
        }
        for c in challenges {
            p.spawn(row()).with_children(|r| {
                let game = challenge_words(c, lang);
                let who = c.from.shown_name();
                let words = lang.trf("people.challenge.from", &[("who", &who), ("game", &game)]);
                r.spawn(text(art, words, 16.0));
                let yes = PeopleAction::AnswerChallenge(c.id.clone(), true);
                r.spawn(button(art, yes, lang.tr("people.accept")));
                let no = PeopleAction::AnswerChallenge(c.id.clone(), false);
                r.spawn(button(art, no, lang.tr("people.decline")));
            });
        }
        if let Some(news) = &online.people.news {
            p.spawn(bold(art, news_words(news, lang), 16.0));
        }
        p.spawn(row()).with_children(|r| {
            let games = games_label(online, lang);
            r.spawn(button(art, PeopleAction::Open(Page::Games), games));
            let tournaments = lang.tr("tour.title");
            r.spawn(button(
                art,
                PeopleAction::Open(Page::Tournaments),
                tournaments,
            ));
        });
    }

    /// A tile for each of the pools' time controls (with how many wait in it, where the server
    /// says), and the bots (none in child mode: no games with strangers).
    fn play_now(&self, p: &mut ChildSpawnerCommands) {
        let (art, lang) = (self.art, self.lang);
        if self.online.people.child {
            return;
        }
        p.spawn(bold(art, lang.tr("play.now"), 20.0));
        let tiles = Node {
            align_items: AlignItems::Stretch,
            ..row()
        };
        let rules = pool_rules(self.form);
        p.spawn(tiles).with_children(|r| {
            for (i, clock) in POOLS.iter().enumerate() {
                let mut under = lang.tr(pace_key(*clock)).to_owned();
                let mut counted = self.online.pool_counts.iter();
                let count = counted.find(|c| c.rules == rules && c.clock == *clock);
                if let Some(count) = count {
                    let waiting = lang.trf("home.waiting", &[("n", &count.waiting)]);
                    under = format!("{under} · {waiting}");
                }
                r.spawn(tile(
                    art,
                    PeopleAction::Pool(i),
                    tile_label(*clock, lang),
                    under,
                ));
            }
        });
        // The bots, programs rated as people are, on the same page as the pools.
        let bots = PeopleAction::Open(Page::PlayNow);
        p.spawn(row())
            .with_child(button(art, bots, lang.tr("home.bots")));
    }

    /// A friend: a private room whose link (and QR code) they are given, a friend from the
    /// list, or a room of one's own choices.
    fn friend(&self, p: &mut ChildSpawnerCommands) {
        let (art, lang) = (self.art, self.lang);
        p.spawn(bold(art, lang.tr("home.friend"), 20.0));
        p.spawn(row()).with_children(|r| {
            r.spawn(button(art, OnlineAction::Invite, lang.tr("home.invite")));
            let list = PeopleAction::Open(Page::Friends);
            r.spawn(button(art, list, lang.tr("home.from_list")));
            r.spawn(button(art, OnlineAction::Sheet, lang.tr("home.custom")));
        });
    }

    /// A room's code typed in, to join or watch.
    fn by_code(&self, p: &mut ChildSpawnerCommands) {
        let (art, lang) = (self.art, self.lang);
        p.spawn(row()).with_children(|r| {
            r.spawn(text(art, lang.tr("online.code"), 17.0));
            let code = &self.form.code;
            r.spawn(text_field(
                art,
                Field::RoomCode,
                code,
                self.pages.typing,
                "______",
            ));
            r.spawn(button(art, OnlineAction::Join, lang.tr("online.join")));
            r.spawn(button(art, OnlineAction::Watch, lang.tr("online.watch")));
        });
    }

    /// The lobby's first rooms (none in child mode: strangers are met through friends' codes).
    fn lobby(&self, p: &mut ChildSpawnerCommands) {
        let (art, lang, online) = (self.art, self.lang, self.online);
        if online.people.child {
            p.spawn(text(art, lang.tr("people.child.no_lobby"), 15.0));
            return;
        }
        p.spawn(bold(art, lang.tr("online.lobby"), 20.0));
        if online.lobby.is_empty() {
            p.spawn(text(art, lang.tr("online.lobby.empty"), 15.0));
        }
        for (i, room) in online.lobby.iter().take(6).enumerate() {
            p.spawn(row()).with_children(|r| {
                let join = lang.tr("online.join");
                r.spawn(button(art, OnlineAction::JoinListed(i), join));
                r.spawn(text(art, room_line(room, lang), 16.0));
            });
        }
    }
}

/// A public room in words: its rules, the winning score if set, its clock, who made it.
fn room_line(room: &crate::net::protocol::RoomSummary, lang: Lang) -> String {
    let preset =
        presets::get(&room.preset).map_or(room.preset.clone(), |p| lang.pick(&p.name).to_owned());
    let won_at = room.win_at.map_or(String::new(), |n| {
        format!(" · {n}/{}", 35 * u16::from(room.players))
    });
    format!(
        "{preset}{won_at} · {} · {} ({:.0})",
        clock_label(room.clock, lang),
        room.creator.name,
        room.creator.rating
    )
}

/// A pool's time control on its tile, short enough for a third of a phone's width: "3+2",
/// "1 day".
fn tile_label(clock: ClockSpec, lang: Lang) -> String {
    match clock {
        ClockSpec::Correspondence { days: 1 } => lang.tr("home.one_day").to_owned(),
        _ => clock_label(clock, lang),
    }
}

/// The pace of a pool's time control, under its tile.
fn pace_key(clock: ClockSpec) -> &'static str {
    match clock {
        ClockSpec::Fischer { base_ms, .. } if base_ms <= 60_000 => "home.pace.fastest",
        ClockSpec::Fischer { base_ms, .. } if base_ms <= 300_000 => "home.pace.fast",
        ClockSpec::Fischer { .. } | ClockSpec::Untimed(_) => "home.pace.calm",
        ClockSpec::Correspondence { .. } => "home.pace.days",
    }
}

/// The "My games" button, with the games waiting for our move.
fn games_label(online: &Online, lang: Lang) -> String {
    let ours = online
        .my_games
        .as_ref()
        .map_or(0, |(games, _)| games.iter().filter(|g| g.your_turn).count());
    match ours {
        0 => lang.tr("games.title").to_owned(),
        n => lang.trf("games.waiting", &[("n", &n)]),
    }
}

/// The friends button, with the challenges waiting for us.
fn friends_label(online: &Online, lang: Lang) -> String {
    match online.people.incoming.len() {
        0 => lang.tr("people.friends").to_owned(),
        n => lang.trf("people.friends.waiting", &[("n", &n)]),
    }
}

/// The connection's state in words, and whether a retry button goes with it.
pub fn link_words(link: &Link, online: &Online, lang: Lang) -> (String, bool) {
    if let Some(why) = &online.incompatible {
        return (lang.trf("online.incompatible", &[("why", why)]), false);
    }
    if super::device_offline() && *link.state() != LinkState::Open {
        return (lang.tr("online.offline").to_owned(), true);
    }
    match link.state() {
        LinkState::Off | LinkState::Connecting => (lang.tr("online.connecting").to_owned(), false),
        LinkState::Retrying { attempt, why, .. } if *attempt >= 3 => (
            lang.trf(
                "online.unreachable",
                &[("server", &link.url()), ("why", why)],
            ),
            true,
        ),
        LinkState::Retrying { .. } => (lang.tr("online.reconnecting").to_owned(), false),
        LinkState::Open if !online.welcomed() => (lang.tr("online.connecting").to_owned(), false),
        LinkState::Open => {
            let me = online.me.as_ref();
            let name = me.map_or(String::new(), |p| p.name.clone());
            let rating = me.map_or(0, |p| p.rating.round() as i64);
            (
                lang.trf("online.connected", &[("name", &name), ("rating", &rating)]),
                false,
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pool_has_a_pace_in_both_languages() {
        for clock in POOLS {
            let key = pace_key(clock);
            for lang in [Lang::En, Lang::Vi] {
                assert_ne!(lang.tr(key), key, "{key} in {lang:?}");
            }
        }
        assert_eq!(pace_key(POOLS[0]), "home.pace.fastest", "1+0");
        assert_eq!(pace_key(POOLS[4]), "home.pace.days", "a day a move");
        assert_eq!(tile_label(POOLS[4], Lang::En), "1 day");
        assert_eq!(tile_label(POOLS[4], Lang::Vi), "1 ngày");
        assert_eq!(tile_label(POOLS[1], Lang::Vi), "3+2");
    }
}
