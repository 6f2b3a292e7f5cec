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
use super::pages::{OnlinePage, PageAction, challenge_words, game_line, news_words, pool_rules};
use crate::game::board::art::Art;
use crate::game::state::Prefs;
use crate::game::theme::page::page_body;
use crate::game::theme::page::title_and_back;
use crate::game::theme::part::{Part, Parts, column, spawn_part};
use crate::game::theme::widget::{bold, button, row, text, tile};
use crate::net::pool::POOLS;
use crate::net::protocol::ClockSpec;
use crate::rules::presets;
use crate::session::Lang;

/// At most this many of each kind of thing waiting for the player (the rest are a tap away on
/// their page).
const SHOWN_WAITING: usize = 3;

/// The public rooms listed on the home (the lobby's first).
const SHOWN_ROOMS: usize = 6;

/// What the home shows, and from where.
pub struct Home<'a> {
    pub art: &'a Art,
    pub lang: Lang,
    pub online: &'a Online<'a>,
    pub link: &'a Link,
    pub prefs: &'a Prefs,
    pub typing: crate::game::online::field::Typing,
    pub form: &'a Form,
}

impl Home<'_> {
    /// The home's header, then its body in a part that scrolls.
    pub fn spawn(&self, page: &mut ChildSpawnerCommands) {
        let (art, lang) = (self.art, self.lang);
        let (heading, back) = (lang.tr("title.online"), lang.tr("online.back"));
        title_and_back(page, art, heading.to_owned(), OnlineAction::Back, back, ());
        spawn_part(page, art, column(), self.status());
        spawn_part(page, art, row(), self.you());
        page.spawn(page_body()).with_children(|body| {
            spawn_part(body, art, column(), self.waiting_for_you());
            spawn_part(body, art, column(), self.play_now());
            self.friend(body);
            spawn_part(body, art, row(), self.by_code());
            spawn_part(body, art, column(), self.lobby());
        });
    }

    /// Each part of the home shows what it now says (drawn again where that changed). False
    /// when the home is not on screen.
    pub fn show(&self, parts: &mut Parts) -> bool {
        parts.show(self.status()).is_ok()
            & parts.show(self.you()).is_ok()
            & parts.show(self.waiting_for_you()).is_ok()
            & parts.show(self.play_now()).is_ok()
            & parts.show(self.by_code()).is_ok()
            & parts.show(self.lobby()).is_ok()
    }

    fn status(&self) -> Status {
        let (words, retry) = link_words(self.link, self.online, self.lang);
        let problem = self.online.connection.problem.as_ref().map(|problem| {
            self.lang
                .trf("online.refused", &[("why", &problem.message)])
        });
        Status {
            lang: self.lang,
            words,
            retry,
            problem,
        }
    }

    fn you(&self) -> You {
        You {
            lang: self.lang,
            name: self.prefs.name.clone(),
            typing: self.typing.0,
            friends: friends_label(self.online, self.lang),
        }
    }

    fn waiting_for_you(&self) -> WaitingForYou {
        let (lang, online) = (self.lang, self.online);
        let ours = online
            .correspondence
            .my_games
            .iter()
            .flat_map(|(games, _)| games);
        let moves = ours
            .filter(|g| g.your_turn)
            .take(SHOWN_WAITING)
            .map(|game| (game.code.clone(), game_line(game, lang)))
            .collect();
        let challenges = online.people.incoming.iter().take(SHOWN_WAITING);
        let challenges = challenges
            .map(|c| {
                let game = challenge_words(c, lang);
                let who = c.from.shown_name();
                let words = lang.trf("people.challenge.from", &[("who", &who), ("game", &game)]);
                (c.id.clone(), words)
            })
            .collect();
        WaitingForYou {
            lang,
            moves,
            challenges,
            news: online
                .people
                .news
                .as_ref()
                .map(|news| news_words(news, lang)),
            games: games_label(online, lang),
        }
    }

    /// The pools' tiles, each with how many wait in it where the server says.
    fn play_now(&self) -> PlayNow {
        let lang = self.lang;
        let rules = pool_rules(self.form);
        let tiles = POOLS.iter().map(|clock| {
            let mut under = lang.tr(pace_key(*clock)).to_owned();
            let mut counted = self.online.lobby.pool_counts.iter();
            let count = counted.find(|c| c.rules == rules && c.clock == *clock);
            if let Some(count) = count {
                let waiting = lang.trf("home.waiting", &[("n", &count.waiting)]);
                under = format!("{under} · {waiting}");
            }
            (tile_label(*clock, lang), under)
        });
        PlayNow {
            lang,
            // A child plays no strangers.
            tiles: (!self.online.people.child).then(|| tiles.collect()),
        }
    }

    /// A friend: a private room whose link (and QR code) they are given, a friend from the
    /// list, or a room of one's own choices.
    fn friend(&self, p: &mut ChildSpawnerCommands) {
        let (art, lang) = (self.art, self.lang);
        p.spawn(bold(art, lang.tr("home.friend"), 20.0));
        p.spawn(row()).with_children(|r| {
            r.spawn(button(art, OnlineAction::Invite, lang.tr("home.invite")));
            let list = PageAction::Open(OnlinePage::Friends);
            r.spawn(button(art, list, lang.tr("home.from_list")));
            r.spawn(button(art, OnlineAction::Sheet, lang.tr("home.custom")));
        });
    }

    fn by_code(&self) -> ByCode {
        ByCode {
            lang: self.lang,
            code: self.form.code.clone(),
            typing: self.typing.0,
        }
    }

    fn lobby(&self) -> Lobby {
        let online = self.online;
        let rooms = online.lobby.rooms.iter().take(SHOWN_ROOMS);
        Lobby {
            lang: self.lang,
            // A child meets strangers through friends' codes only.
            rooms: (!online.people.child)
                .then(|| rooms.map(|room| room_line(room, self.lang)).collect()),
        }
    }
}

/// The connection's state, Retry when it is down, and the server's last refusal.
#[derive(PartialEq)]
struct Status {
    lang: Lang,
    words: String,
    retry: bool,
    problem: Option<String>,
}

impl Part for Status {
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        p.spawn(row()).with_children(|r| {
            r.spawn(text(art, self.words.clone(), 15.0));
            if self.retry {
                r.spawn(button(
                    art,
                    OnlineAction::Retry,
                    self.lang.tr("online.retry"),
                ));
            }
        });
        if let Some(problem) = &self.problem {
            p.spawn(text(art, problem.clone(), 15.0));
        }
    }
}

/// The player's name (a field), profile, friends (with the challenges waiting) and the
/// leaderboard.
#[derive(PartialEq)]
struct You {
    lang: Lang,
    name: String,
    typing: Option<Field>,
    friends: String,
}

impl Part for You {
    fn spawn(&self, art: &Art, r: &mut ChildSpawnerCommands) {
        let lang = self.lang;
        r.spawn(text(art, lang.tr("online.name"), 15.0));
        r.spawn(text_field(art, Field::Name, &self.name, self.typing, "—"));
        let profile = lang.tr("people.my_profile");
        r.spawn(button(art, PageAction::Open(OnlinePage::Profile), profile));
        let friends = PageAction::Open(OnlinePage::Friends);
        r.spawn(button(art, friends, self.friends.clone()));
        let board = lang.tr("online.leaderboard");
        r.spawn(button(art, OnlineAction::Leaderboard, board));
    }
}

/// Our move in games by days and friends' challenges, each a tap from being played; the latest
/// news of friends; our games and the tournaments.
#[derive(PartialEq)]
struct WaitingForYou {
    lang: Lang,
    /// Games by days waiting for our move: their codes and their lines.
    moves: Vec<(String, String)>,
    /// Challenges: their ids and their words.
    challenges: Vec<(String, String)>,
    news: Option<String>,
    /// The "My games" button's words.
    games: String,
}

impl Part for WaitingForYou {
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        let lang = self.lang;
        if !self.moves.is_empty() || !self.challenges.is_empty() {
            p.spawn(bold(art, lang.tr("home.for_you"), 20.0));
        }
        for (code, line) in &self.moves {
            p.spawn(row()).with_children(|r| {
                let open = PageAction::OpenGame(code.clone());
                r.spawn(button(art, open, lang.tr("home.play_move")));
                r.spawn(text(art, line.clone(), 16.0));
            });
        }
        for (id, words) in &self.challenges {
            p.spawn(row()).with_children(|r| {
                r.spawn(text(art, words.clone(), 16.0));
                let yes = PageAction::AnswerChallenge(id.clone(), true);
                r.spawn(button(art, yes, lang.tr("people.accept")));
                let no = PageAction::AnswerChallenge(id.clone(), false);
                r.spawn(button(art, no, lang.tr("people.decline")));
            });
        }
        if let Some(news) = &self.news {
            p.spawn(bold(art, news.clone(), 16.0));
        }
        p.spawn(row()).with_children(|r| {
            r.spawn(button(
                art,
                PageAction::Open(OnlinePage::Games),
                self.games.clone(),
            ));
            let tournaments = lang.tr("tour.title");
            r.spawn(button(
                art,
                PageAction::Open(OnlinePage::Tournaments),
                tournaments,
            ));
        });
    }
}

/// A tile for each of the pools' time controls (its words, and under them its pace and how many
/// wait), and the bots; nothing in child mode (no games with strangers).
#[derive(PartialEq)]
struct PlayNow {
    lang: Lang,
    tiles: Option<Vec<(String, String)>>,
}

impl Part for PlayNow {
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        let Some(tiles) = &self.tiles else { return };
        let lang = self.lang;
        p.spawn(bold(art, lang.tr("play.now"), 20.0));
        let row_of_tiles = Node {
            align_items: AlignItems::Stretch,
            ..row()
        };
        p.spawn(row_of_tiles).with_children(|r| {
            for (i, (label, under)) in tiles.iter().enumerate() {
                r.spawn(tile(art, PageAction::Pool(i), label.clone(), under.clone()));
            }
        });
        // The bots, programs rated as people are, on the same page as the pools.
        let bots = PageAction::Open(OnlinePage::PlayNow);
        p.spawn(row())
            .with_child(button(art, bots, lang.tr("home.bots")));
    }

    fn is_empty(&self) -> bool {
        self.tiles.is_none()
    }
}

/// A room's code typed in, to join or watch.
#[derive(PartialEq)]
struct ByCode {
    lang: Lang,
    code: String,
    typing: Option<Field>,
}

impl Part for ByCode {
    fn spawn(&self, art: &Art, r: &mut ChildSpawnerCommands) {
        let lang = self.lang;
        r.spawn(text(art, lang.tr("online.code"), 17.0));
        r.spawn(text_field(
            art,
            Field::RoomCode,
            &self.code,
            self.typing,
            "______",
        ));
        r.spawn(button(art, OnlineAction::Join, lang.tr("online.join")));
        r.spawn(button(art, OnlineAction::Watch, lang.tr("online.watch")));
    }
}

/// The lobby's first rooms, in words (none in child mode: a sentence saying why).
#[derive(PartialEq)]
struct Lobby {
    lang: Lang,
    rooms: Option<Vec<String>>,
}

impl Part for Lobby {
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        let lang = self.lang;
        let Some(rooms) = &self.rooms else {
            p.spawn(text(art, lang.tr("people.child.no_lobby"), 15.0));
            return;
        };
        p.spawn(bold(art, lang.tr("online.lobby"), 20.0));
        if rooms.is_empty() {
            p.spawn(text(art, lang.tr("online.lobby.empty"), 15.0));
        }
        for (i, line) in rooms.iter().enumerate() {
            p.spawn(row()).with_children(|r| {
                let join = lang.tr("online.join");
                r.spawn(button(art, OnlineAction::JoinListed(i), join));
                r.spawn(text(art, line.clone(), 16.0));
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
        .correspondence
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
    if let Some(why) = &online.connection.incompatible {
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
        LinkState::Open if !online.identity.welcomed() => {
            (lang.tr("online.connecting").to_owned(), false)
        }
        LinkState::Open => {
            let me = online.identity.me.as_ref();
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
