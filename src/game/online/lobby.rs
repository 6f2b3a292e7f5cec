//! The online screen: the connection's state in plain words, your name and rating, creating a
//! room (rule set, time control, who starts, public or private), joining or watching one by
//! its code, and the public rooms waiting, asked again every few seconds. Once seated in a room
//! not yet full, the waiting room: the code in large letters, the room's link as a QR code for
//! a friend's phone, Copy link, Cancel.

use bevy::prelude::*;

use super::client::{self, Ask, Online};
use super::field::{Entered, Field, text_field};
use super::form::{
    BASE_STEPS_S, BY_DAYS, CLOCKS, Form, INCREMENT_STEPS_S, LobbyBuild, LobbySystems, base_words,
    clock_label, step_along,
};
use super::link::{Link, LinkState};
use super::people::{Page, Pages, PeopleAction, asking_who_plays, covered};
use super::qr;
use crate::game::board::art::Art;
use crate::game::state::{Prefs, Screen};
use crate::game::theme::widget::{self, bold, button, panel, row, small_button, text};
use crate::net::protocol::{CORRESPONDENCE_DAYS, First, is_room_code};
use crate::net::room;
use crate::rules::presets;
use crate::session::Lang;

/// What the online screen's buttons do.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum OnlineAction {
    Back,
    Retry,
    /// Step the rule set, the time control, or who starts.
    Preset(i8),
    Clock(i8),
    /// Custom time control: the base and the increment, stepped along their steps.
    Minutes(i8),
    Increment(i8),
    /// Days a move, in a game by days.
    Days(i8),
    First,
    /// The winning-score switch of the room to create.
    Majority,
    Public,
    Create,
    /// Join or watch the room whose code is typed (else its field takes the focus).
    Join,
    Watch,
    /// Join the lobby's room number `n`.
    JoinListed(usize),
    CopyLink,
    Cancel,
    /// Show the leaderboard, or go back from it.
    Leaderboard,
}

#[derive(Component)]
struct OnlineRoot;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Form>();
    app.add_observer(join_entered);
    app.add_systems(OnEnter(Screen::Online), open);
    app.add_systems(OnExit(Screen::Online), close);
    app.add_systems(
        Update,
        (
            press.before(super::typing::type_keys).in_set(LobbySystems),
            build
                .run_if(
                    state_changed::<Screen>
                        .or_eager(resource_changed::<Online>)
                        .or_eager(resource_changed::<Form>)
                        .or_eager(resource_changed::<Prefs>)
                        .or_eager(resource_changed::<Link>)
                        .or_eager(resource_changed::<Pages>),
                )
                .in_set(LobbyBuild),
        )
            .chain()
            .run_if(in_state(Screen::Online))
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// The screen opens: connect (unless the first visit's question waits for an answer), and
/// list the rooms waiting.
fn open(mut link: ResMut<Link>, mut online: ResMut<Online>, prefs: Res<Prefs>) {
    let url = super::server_url(&prefs);
    if !asking_who_plays(&online, &prefs) {
        link.start(&url);
    }
    online.browsing = true;
    client::refresh_lobby(&mut online);
}

fn close(mut online: ResMut<Online>) {
    online.browsing = false;
}

/// Enter in the room code's field joins the room once the code is whole.
fn join_entered(entered: On<Entered>, mut commands: Commands, form: Res<Form>) {
    if entered.event().0 == Field::RoomCode && is_room_code(&form.code) {
        commands.trigger(Ask::Join(form.code.clone()));
    }
}

fn press(
    mut commands: Commands,
    buttons: Query<(&Interaction, &OnlineAction), Changed<Interaction>>,
    mut form: ResMut<Form>,
    mut prefs: ResMut<Prefs>,
    mut link: ResMut<Link>,
    online: Res<Online>,
    mut next_screen: ResMut<NextState<Screen>>,
    keys: Res<ButtonInput<KeyCode>>,
    mut pages: ResMut<Pages>,
) {
    // A page of people (or a question) over the screen takes the keys and the presses.
    if covered(&pages, &online, &prefs) {
        return;
    }
    let mut run = |action: OnlineAction, commands: &mut Commands| {
        commands.trigger(crate::game::play::sound::Sfx::Click);
        if focus(action, &form, &mut pages.typing) {
            return;
        }
        act(
            action,
            commands,
            &mut form,
            &mut prefs,
            &mut link,
            &online,
            &mut next_screen,
        );
    };
    for (interaction, action) in &buttons {
        if *interaction == Interaction::Pressed {
            run(*action, &mut commands);
        }
    }
    if keys.just_pressed(KeyCode::Escape) {
        run(OnlineAction::Back, &mut commands);
    }
}

/// What a press does to the focus: Back leaves the field being typed in, Join and Watch give
/// the code's field the focus while the code is not whole (and take it when it is). Whether the
/// press did no more.
fn focus(action: OnlineAction, form: &Form, typing: &mut Option<Field>) -> bool {
    match action {
        OnlineAction::Back if typing.is_some() => *typing = None,
        OnlineAction::Join | OnlineAction::Watch if !is_room_code(&form.code) => {
            *typing = Some(Field::RoomCode)
        }
        OnlineAction::Join | OnlineAction::Watch => {
            *typing = None;
            return false;
        }
        _ => return false,
    }
    true
}

fn act(
    action: OnlineAction,
    commands: &mut Commands,
    form: &mut Form,
    prefs: &mut Prefs,
    link: &mut Link,
    online: &Online,
    next_screen: &mut NextState<Screen>,
) {
    let waiting = waiting_room(online).is_some();
    match action {
        OnlineAction::Back if form.board => form.board = false,
        OnlineAction::Back if waiting => commands.trigger(Ask::Leave),
        OnlineAction::Back => next_screen.set(Screen::Title),
        OnlineAction::Retry => link.retry_now(),
        OnlineAction::Preset(step) => {
            let all: Vec<_> = presets::all().iter().collect();
            let i = all.iter().position(|p| p.id == form.preset).unwrap_or(0);
            let next = (i as isize + isize::from(step)).rem_euclid(all.len() as isize);
            form.preset = all[next as usize].id.clone();
        }
        OnlineAction::Days(step) => {
            let days = CORRESPONDENCE_DAYS.map(u64::from);
            form.days = step_along(&days, u64::from(form.days), step) as u8;
        }
        OnlineAction::Clock(step) => {
            let n = BY_DAYS as isize + 1;
            form.clock = (form.clock as isize + isize::from(step)).rem_euclid(n) as usize;
        }
        OnlineAction::Minutes(step) => {
            form.base_s = step_along(&BASE_STEPS_S, form.base_s, step);
        }
        OnlineAction::Increment(step) => {
            form.increment = step_along(&INCREMENT_STEPS_S, form.increment, step);
        }
        OnlineAction::First => {
            form.first = match form.first {
                First::Me => First::Them,
                First::Them => First::Random,
                First::Random => First::Me,
            }
        }
        OnlineAction::Public => form.public = !form.public,
        OnlineAction::Majority => form.majority = !form.majority,
        OnlineAction::Create => commands.trigger(Ask::Create {
            preset: form.preset.clone(),
            majority: form.majority,
            clock: form.clock_spec(),
            first: form.first,
            // A child's rooms are private: the server would refuse a public one.
            public: form.public && !online.people.child,
        }),
        OnlineAction::Join => commands.trigger(Ask::Join(form.code.clone())),
        OnlineAction::Watch => commands.trigger(Ask::Watch(form.code.clone())),
        OnlineAction::JoinListed(n) => {
            if let Some(room) = online.lobby.get(n) {
                commands.trigger(Ask::Join(room.code.clone()));
            }
        }
        OnlineAction::CopyLink => {
            if let Some(code) = waiting_room(online) {
                // The browser copies the room's link; elsewhere the code, which a friend
                // types in (or the QR code, which a phone reads).
                let text = if cfg!(target_arch = "wasm32") {
                    super::room_link(&prefs.0, code)
                } else {
                    code.to_owned()
                };
                match super::copy_text(&text) {
                    Ok(()) => form.copied = true,
                    Err(e) => warn!("online: could not copy {text}: {e}"),
                }
            }
        }
        OnlineAction::Cancel => commands.trigger(Ask::Leave),
        OnlineAction::Leaderboard => {
            form.board = !form.board;
            if form.board {
                commands.trigger(Ask::Leaderboard);
                commands.trigger(Ask::Say(crate::net::protocol::ClientMessage::Bots));
            }
        }
    }
}

/// The code of the room we sit in while it waits for players.
fn waiting_room(online: &Online) -> Option<&str> {
    let room = online.room.as_ref()?;
    let state = room.state.as_ref()?;
    (state.phase == room::Phase::Waiting && !room.watching).then_some(room.code.as_str())
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

#[allow(clippy::too_many_arguments)]
fn build(
    mut commands: Commands,
    art: Res<Art>,
    prefs: Res<Prefs>,
    online: Res<Online>,
    link: Res<Link>,
    form: Res<Form>,
    pages: Res<Pages>,
    mut images: ResMut<Assets<Image>>,
    mut qr_of: Local<Option<(String, Handle<Image>)>>,
    roots: Query<Entity, With<OnlineRoot>>,
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    if covered(&pages, &online, &prefs) {
        return;
    }
    let lang = prefs.lang();
    let (status, retry) = link_words(&link, &online, lang);
    let root = commands
        .spawn((
            OnlineRoot,
            DespawnOnExit(Screen::Online),
            widget::backdrop(0.55),
        ))
        .id();
    if let Some(code) = waiting_room(&online) {
        let link_text = super::room_link(&prefs.0, code);
        // Drawn once per link, not at every rebuild of the panel.
        if qr_of.as_ref().is_none_or(|(text, _)| *text != link_text) {
            *qr_of = qr::image(&link_text).map(|image| (link_text.clone(), images.add(image)));
        }
        let waiting = Waiting {
            code,
            link: link_text,
            qr: qr_of.as_ref().map(|(_, handle)| handle.clone()),
            copied: form.copied,
            status,
        };
        commands.entity(root).with_children(|b| {
            b.spawn(panel(520.0))
                .with_children(|p| waiting.spawn(p, &art, lang));
        });
        return;
    }
    if form.board {
        commands.entity(root).with_children(|b| {
            b.spawn(panel(560.0))
                .with_children(|p| leaderboard(p, &art, &online, lang));
        });
        return;
    }
    commands.entity(root).with_children(|b| {
        b.spawn(panel(720.0)).with_children(|p| {
            p.spawn(widget::title(&art, lang.tr("title.online"), 26.0));
            p.spawn(row()).with_children(|r| {
                r.spawn(text(&art, status, 16.0));
                if retry {
                    r.spawn(button(&art, OnlineAction::Retry, lang.tr("online.retry")));
                }
            });
            if let Some(problem) = &online.problem {
                let why = lang.trf("online.refused", &[("why", &problem.message)]);
                p.spawn(text(&art, why, 15.0));
            }
            p.spawn(row())
                .with_children(|r| name_row(r, &art, lang, &prefs, &pages, &online));
            // Creating a room.
            p.spawn(bold(&art, lang.tr("online.create"), 20.0));
            p.spawn(row())
                .with_children(|r| rules_row(r, &art, lang, &form));
            p.spawn(row())
                .with_children(|r| clock_row(r, &art, lang, &form));
            p.spawn(row())
                .with_children(|r| choices_row(r, &art, lang, &form));
            // Joining by code.
            p.spawn(row()).with_children(|r| {
                r.spawn(text(&art, lang.tr("online.code"), 18.0));
                r.spawn(text_field(
                    &art,
                    Field::RoomCode,
                    &form.code,
                    pages.typing,
                    "______",
                ));
                r.spawn(button(&art, OnlineAction::Join, lang.tr("online.join")));
                r.spawn(button(&art, OnlineAction::Watch, lang.tr("online.watch")));
            });
            // News of friends (a request, a challenge) while on this screen.
            if let Some(news) = &online.people.news {
                p.spawn(bold(&art, super::people::news_words(news, lang), 16.0));
            }
            lobby_rows(p, &art, lang, &online);
            p.spawn(Node {
                justify_content: JustifyContent::Center,
                ..row()
            })
            .with_children(|r| footer_row(r, &art, lang, &online));
        });
    });
}

/// The waiting room's panel: the code large, its link and QR, copy and cancel.
struct Waiting<'a> {
    code: &'a str,
    link: String,
    qr: Option<Handle<Image>>,
    copied: bool,
    status: String,
}

impl Waiting<'_> {
    fn spawn(self, p: &mut ChildSpawnerCommands, art: &Art, lang: Lang) {
        let centred = |words: String, size: f32| (text(art, words, size), centre());
        p.spawn((
            widget::title(art, lang.tr("online.waiting"), 26.0),
            centre(),
        ));
        p.spawn(centred(lang.tr("online.share").to_owned(), 17.0));
        p.spawn((widget::title(art, spaced(self.code), 64.0), centre()));
        if let Some(qr) = self.qr {
            p.spawn(Node {
                justify_content: JustifyContent::Center,
                ..default()
            })
            .with_child((
                ImageNode::new(qr),
                Node {
                    width: px(220),
                    height: px(220),
                    ..default()
                },
            ));
        }
        p.spawn(centred(self.link, 15.0));
        p.spawn(Node {
            justify_content: JustifyContent::Center,
            ..row()
        })
        .with_children(|r| {
            // The browser copies the link, a desktop the code; a phone build has no
            // clipboard within the game's reach.
            let copy = match (cfg!(target_arch = "wasm32"), self.copied) {
                (true, false) => Some("online.copy"),
                (true, true) => Some("online.copied"),
                _ if cfg!(any(target_os = "android", target_os = "ios")) => None,
                (false, false) => Some("online.copy_code"),
                (false, true) => Some("online.code_copied"),
            };
            if let Some(copy) = copy {
                r.spawn(button(art, OnlineAction::CopyLink, lang.tr(copy)));
            }
            r.spawn(button(art, OnlineAction::Cancel, lang.tr("online.cancel")));
        });
        p.spawn(centred(self.status, 15.0));
    }
}

fn centre() -> TextLayout {
    TextLayout::justify(Justify::Center)
}

/// The player's name (a field), quick pairing (none in child mode: no games with strangers)
/// and the games by days.
fn name_row(
    r: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    prefs: &Prefs,
    pages: &Pages,
    online: &Online,
) {
    r.spawn(text(art, lang.tr("online.name"), 18.0));
    r.spawn(text_field(art, Field::Name, &prefs.name, pages.typing, "—"));
    if !online.people.child {
        let label = lang.tr("play.now");
        r.spawn(button(art, PeopleAction::Open(Page::PlayNow), label));
    }
    let games = games_label(online, lang);
    r.spawn(button(art, PeopleAction::Open(Page::Games), games));
    let tournaments = lang.tr("tour.title");
    r.spawn(button(
        art,
        PeopleAction::Open(Page::Tournaments),
        tournaments,
    ));
}

/// The new room's rule set, and whether it is won at a majority.
fn rules_row(r: &mut ChildSpawnerCommands, art: &Art, lang: Lang, form: &Form) {
    let preset = presets::get(&form.preset).unwrap_or(&presets::all()[0]);
    r.spawn(text(art, lang.tr("menu.rules"), 17.0));
    r.spawn(small_button(art, OnlineAction::Preset(-1), "‹"));
    r.spawn(text(art, lang.pick(&preset.name), 17.0));
    r.spawn(small_button(art, OnlineAction::Preset(1), "›"));
    let majority = lang.trf(
        "menu.majority",
        &[
            ("n", &preset.rules.majority()),
            ("total", &preset.rules.total_value()),
        ],
    );
    r.spawn(text(art, majority, 17.0));
    let on = lang.tr(if form.majority {
        "switch.on"
    } else {
        "switch.off"
    });
    r.spawn(small_button(art, OnlineAction::Majority, on));
}

/// The new room's time: a preset, days a move, or minutes and an increment of one's own.
fn clock_row(r: &mut ChildSpawnerCommands, art: &Art, lang: Lang, form: &Form) {
    r.spawn(text(art, lang.tr("online.time"), 17.0));
    r.spawn(small_button(art, OnlineAction::Clock(-1), "‹"));
    let label = if form.clock == CLOCKS.len() {
        lang.tr("online.custom").to_owned()
    } else if form.clock == BY_DAYS {
        lang.tr("online.by_days").to_owned()
    } else {
        clock_label(form.clock_spec(), lang)
    };
    r.spawn(text(art, label, 17.0));
    r.spawn(small_button(art, OnlineAction::Clock(1), "›"));
    if form.clock == BY_DAYS {
        r.spawn(small_button(art, OnlineAction::Days(-1), "-"));
        r.spawn(text(art, clock_label(form.clock_spec(), lang), 17.0));
        r.spawn(small_button(art, OnlineAction::Days(1), "+"));
    }
    if form.clock == CLOCKS.len() {
        r.spawn(small_button(art, OnlineAction::Minutes(-1), "-"));
        r.spawn(text(art, base_words(form.base_s, lang), 17.0));
        r.spawn(small_button(art, OnlineAction::Minutes(1), "+"));
        r.spawn(small_button(art, OnlineAction::Increment(-1), "-"));
        let increment = lang.trf("online.increment", &[("n", &form.increment)]);
        r.spawn(text(art, increment, 17.0));
        r.spawn(small_button(art, OnlineAction::Increment(1), "+"));
    }
}

/// Who moves first, public or private, and Create.
fn choices_row(r: &mut ChildSpawnerCommands, art: &Art, lang: Lang, form: &Form) {
    let first = match form.first {
        First::Me => "online.first.me",
        First::Them => "online.first.them",
        First::Random => "online.first.random",
    };
    r.spawn(button(art, OnlineAction::First, lang.tr(first)));
    let public = if form.public {
        "online.public"
    } else {
        "online.private"
    };
    r.spawn(button(art, OnlineAction::Public, lang.tr(public)));
    r.spawn(button(art, OnlineAction::Create, lang.tr("online.create")));
}

/// The lobby's first rooms (none in child mode: strangers are met through friends' codes).
fn lobby_rows(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, online: &Online) {
    if online.people.child {
        p.spawn(text(art, lang.tr("people.child.no_lobby"), 15.0));
        return;
    }
    p.spawn(bold(art, lang.tr("online.lobby"), 20.0));
    if online.lobby.is_empty() {
        p.spawn(text(art, lang.tr("online.lobby.empty"), 15.0));
    }
    for (i, room) in online.lobby.iter().take(6).enumerate() {
        let preset = presets::get(&room.preset)
            .map_or(room.preset.clone(), |p| lang.pick(&p.name).to_owned());
        let won_at = room.win_at.map_or(String::new(), |n| {
            format!(" · {n}/{}", 35 * u16::from(room.players))
        });
        let line = format!(
            "{preset}{won_at} · {} · {} ({:.0})",
            clock_label(room.clock, lang),
            room.creator.name,
            room.creator.rating
        );
        p.spawn(row()).with_children(|r| {
            let join = lang.tr("online.join");
            r.spawn(button(art, OnlineAction::JoinListed(i), join));
            r.spawn(text(art, line, 16.0));
        });
    }
}

/// Friends, the profile, the leaderboard and back.
fn footer_row(r: &mut ChildSpawnerCommands, art: &Art, lang: Lang, online: &Online) {
    let friends = friends_label(online, lang);
    r.spawn(button(art, PeopleAction::Open(Page::Friends), friends));
    let profile = lang.tr("people.my_profile");
    r.spawn(button(art, PeopleAction::Open(Page::Profile), profile));
    let board = lang.tr("online.leaderboard");
    r.spawn(button(art, OnlineAction::Leaderboard, board));
    r.spawn(button(art, OnlineAction::Back, lang.tr("online.back")));
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

/// The top players (ten shown), then our own place and rating.
fn leaderboard(p: &mut ChildSpawnerCommands, art: &Art, online: &Online, lang: Lang) {
    p.spawn(widget::title(art, lang.tr("online.leaderboard"), 26.0));
    match &online.leaderboard {
        None => {
            p.spawn(text(art, lang.tr("online.connecting"), 16.0));
        }
        Some(board) => {
            if board.players.is_empty() {
                p.spawn(text(art, lang.tr("online.leaderboard.empty"), 16.0));
            }
            for (i, player) in board.players.iter().take(10).enumerate() {
                let line = lang.trf(
                    "online.leaderboard.line",
                    &[
                        ("place", &(i + 1)),
                        ("name", &player.name),
                        ("rating", &format!("{:.0}", player.rating)),
                        ("games", &player.games),
                    ],
                );
                // Our own line in bold.
                if player.id == board.you.id {
                    p.spawn(bold(art, line, 17.0));
                } else {
                    p.spawn(text(art, line, 17.0));
                }
            }
            let rating = format!("{:.0}", board.you.rating);
            let yours = match board.place {
                Some(place) => lang.trf(
                    "online.leaderboard.you",
                    &[("place", &place), ("rating", &rating)],
                ),
                None => lang.trf("online.leaderboard.unrated", &[("rating", &rating)]),
            };
            p.spawn(bold(art, yours, 18.0));
        }
    }
    bots_board(p, art, online, lang);
    p.spawn(button(
        art,
        OnlineAction::Leaderboard,
        lang.tr("online.back"),
    ));
}

/// The bots' own leaderboard (five shown, each with its mark), and how many are online: people
/// and programs are rated on one scale but ranked apart.
fn bots_board(p: &mut ChildSpawnerCommands, art: &Art, online: &Online, lang: Lang) {
    let Some((connected, board)) = &online.bots else {
        return;
    };
    if board.is_empty() && connected.is_empty() {
        return;
    }
    p.spawn(bold(
        art,
        lang.trf("online.bots", &[("n", &connected.len())]),
        18.0,
    ));
    for (i, bot) in board.iter().take(5).enumerate() {
        let line = lang.trf(
            "online.leaderboard.line",
            &[
                ("place", &(i + 1)),
                ("name", &bot.shown_name()),
                ("rating", &format!("{:.0}", bot.rating)),
                ("games", &bot.games),
            ],
        );
        p.spawn(text(art, line, 16.0));
    }
}

/// A room code with thin gaps, easier to read aloud.
fn spaced(code: &str) -> String {
    code.chars()
        .map(String::from)
        .collect::<Vec<_>>()
        .join("\u{2009}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::ClockSpec;

    #[test]
    fn custom_clocks_step_from_a_quarter_minute_to_three_hours() {
        assert_eq!(step_along(&BASE_STEPS_S, 900, -1), 600);
        assert_eq!(step_along(&BASE_STEPS_S, 15, -1), 15, "kept at the end");
        assert_eq!(step_along(&BASE_STEPS_S, 10800, 1), 10800);
        assert_eq!(
            step_along(&BASE_STEPS_S, 100, 0),
            120,
            "to the nearest step first"
        );
        assert_eq!(step_along(&INCREMENT_STEPS_S, 10, -5), 0);
        let form = Form {
            clock: CLOCKS.len(),
            base_s: 15,
            increment: 0,
            ..Form::default()
        };
        assert_eq!(
            form.clock_spec(),
            ClockSpec::Fischer {
                base_ms: 15_000,
                increment_ms: 0
            }
        );
        assert_eq!(base_words(15, Lang::En), "¼ min");
        assert_eq!(base_words(1800, Lang::Vi), "30 phút");
    }
}
