//! Around the board in an online game: the connection and the opponent's presence in plain
//! words, resign (asked first), draw offers, leave, the claim when the opponent has been gone
//! long enough, and at the end the result with its cause and the rating change, and a rematch.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::client::{Ask, Connection, Identity, InRoom, Online, OnlineRead, OnlineWrite};
use super::ended::name_of;
pub use super::game_action::GameAction;
use super::home::link_words;
use super::link::Link;
use super::social::People;
use super::table::OnBoard;
use super::tournaments::Tournaments;
use crate::art::glyphs::Glyph;
use crate::game::board::art::Art;
use crate::game::screens::hud::HudRow;
use crate::game::state::{OpenReview, Phase, Prefs, Screen};
use crate::game::theme::part::{Part, Parts, column, spawn_part};
use crate::game::theme::widget::{self, button, icon_button, panel, row, text};
use crate::net::protocol::{ClientMessage, RulesChoice};
use crate::net::room::{self, RoomState};
use crate::rules::presets;
use crate::session::Lang;

/// How long an opponent must be gone before the win can be claimed: the server's default
/// (`oaq-server --claim-after-secs`); a claim too early is refused and said so.
const CLAIM_AFTER_MS: i64 = 60_000;

/// The chat's phrases are open.
#[derive(Resource, Default)]
struct Chatting(bool);

/// The report's reasons are open on the end panel.
#[derive(Resource, Default)]
struct Reporting(bool);

/// How long a phrase heard stays on screen.
const SAID_MS: i64 = 8_000;

/// "Resign this game?" is open.
#[derive(Resource, Default)]
struct Asking(bool);

/// What the controls spawn over the board: the band, the end panel.
#[derive(Component)]
struct BarRoot;

/// The end panel's backdrop.
#[derive(Component)]
struct EndRoot;

/// A button (or the question) the controls put in the button bar's row.
#[derive(Component)]
struct BarButton;

/// The second shown in the countdown, so that it is redrawn once a second only.
#[derive(Resource, Default, PartialEq)]
struct ShownSecond(Option<i64>);

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Asking>()
        .init_resource::<ShownSecond>()
        .init_resource::<Chatting>()
        .init_resource::<Reporting>();
    app.add_observer(press);
    app.add_systems(
        Update,
        (
            count_down,
            forget_said,
            build.run_if(
                // The room's controls draw all of online play's state but the lobby and games
                // by days.
                resource_changed::<Connection>
                    .or_eager(resource_changed::<Identity>)
                    .or_eager(resource_changed::<InRoom>)
                    .or_eager(resource_changed::<People>)
                    .or_eager(resource_changed::<Tournaments>)
                    .or_eager(resource_changed::<Prefs>)
                    .or_eager(resource_changed::<Asking>)
                    .or_eager(resource_changed::<Chatting>)
                    .or_eager(resource_changed::<Reporting>)
                    .or_eager(resource_changed::<ShownSecond>)
                    .or_eager(resource_changed::<Phase>)
                    // The next game on the board while it stays up: a rematch, a tournament's
                    // next pairing. Taking the board enters the screen again, which makes a new
                    // bar (its buttons go into that one).
                    .or_eager(resource_changed::<OnBoard>)
                    .or_eager(any_match_filter::<Added<HudRow>>)
                    .or_eager(state_changed::<Screen>),
            ),
        )
            .chain()
            .run_if(in_state(Screen::Playing))
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// Phrases heard go after a few seconds.
fn forget_said(mut online: OnlineWrite) {
    let now = super::client::unix_ms();
    let old = |s: &super::social::Said| now - s.at_ms > SAID_MS;
    if online.people.chat.iter().any(old) {
        online.people.chat.retain(|s| !old(s));
    }
}

/// The opponent's player id in the room on the board (two players).
fn opponent(online: &Online, on_board: &OnBoard) -> Option<String> {
    let room = room_on_board(online, on_board)?;
    let state = room.state.as_ref()?;
    let you = room.you?;
    state
        .seats
        .iter()
        .enumerate()
        .find(|(seat, p)| *seat != you && p.is_some())
        .and_then(|(_, p)| p.as_ref().map(|p| p.id.clone()))
}

/// Leave the room on the board for the online screen.
fn leave_board(
    commands: &mut Commands,
    on_board: &mut OnBoard,
    next_screen: &mut NextState<Screen>,
) {
    commands.trigger(Ask::Leave);
    on_board.code = None;
    next_screen.set(Screen::Online);
}

/// What the online game's buttons change.
#[derive(SystemParam)]
struct GameButtons<'w> {
    asking: ResMut<'w, Asking>,
    chatting: ResMut<'w, Chatting>,
    reporting: ResMut<'w, Reporting>,
    next_screen: ResMut<'w, NextState<Screen>>,
    on_board: ResMut<'w, OnBoard>,
    online: OnlineWrite<'w>,
}

/// A button of the online game's bar pressed: its action carried out.
fn press(
    activate: On<crate::game::theme::press::Activate>,
    actions: Query<&GameAction>,
    mut commands: Commands,
    mut buttons: GameButtons,
) {
    if let Ok(&action) = actions.get(activate.entity) {
        buttons.carry_out(action, &mut commands);
    }
}

impl GameButtons<'_> {
    fn carry_out(&mut self, action: GameAction, commands: &mut Commands) {
        match action {
            GameAction::Resign => self.asking.0 = true,
            GameAction::ResignNo => self.asking.0 = false,
            GameAction::ResignYes => {
                self.asking.0 = false;
                commands.trigger(Ask::Resign);
            }
            GameAction::OfferDraw => commands.trigger(Ask::OfferDraw),
            GameAction::AcceptDraw => commands.trigger(Ask::AcceptDraw),
            GameAction::Claim => commands.trigger(Ask::Claim),
            GameAction::Rematch => commands.trigger(Ask::Rematch),
            GameAction::Review => commands.trigger(OpenReview),
            GameAction::Tournament => self.back_to_tournament(commands),
            GameAction::Leave => {
                leave_board(commands, &mut self.on_board, &mut self.next_screen);
            }
            GameAction::AddFriend => {
                if let Some(player) = opponent(&self.online.view(), &self.on_board) {
                    commands.trigger(Ask::Say(ClientMessage::AddOpponent { player }));
                }
            }
            GameAction::ChallengeLater => self.challenge_later(commands),
            GameAction::Chat => self.chatting.0 = !self.chatting.0,
            GameAction::Say(phrase) => {
                self.chatting.0 = false;
                commands.trigger(Ask::Say(ClientMessage::Chat { phrase }));
            }
            GameAction::Report => self.reporting.0 = !self.reporting.0,
            GameAction::ReportAs(reason) => {
                self.reporting.0 = false;
                if let Some(player) = opponent(&self.online.view(), &self.on_board) {
                    commands.trigger(Ask::Say(ClientMessage::Report {
                        player,
                        reason,
                        room: self.on_board.code.clone(),
                    }));
                }
            }
            GameAction::Mute => self.mute(),
        }
    }

    /// At the end of a tournament's game: its page, the board left.
    fn back_to_tournament(&mut self, commands: &mut Commands) {
        let code = self.on_board.code.clone().unwrap_or_default();
        if self
            .online
            .in_room
            .room
            .as_ref()
            .is_none_or(|r| r.code != code)
        {
            // The next pairing has come meanwhile: it takes the board, and leaving now would
            // leave it.
            return;
        }
        if let Some(id) = self.online.tournaments.of_room(&code) {
            let open = super::pages::TourAction::Open(id.to_owned());
            commands.trigger(super::pages::Press(super::pages::PageAction::Tour(open)));
        }
        leave_board(commands, &mut self.on_board, &mut self.next_screen);
    }

    /// The same game again, whenever the opponent comes back.
    fn challenge_later(&self, commands: &mut Commands) {
        let online = self.online.view();
        let room = room_on_board(&online, &self.on_board).and_then(|r| r.state.as_ref());
        if let (Some(player), Some(state)) = (opponent(&online, &self.on_board), room) {
            let rules = match presets::get(&state.preset) {
                Some(p) if p.rules == state.rules => RulesChoice::Preset(p.id.clone()),
                _ => RulesChoice::Custom(state.rules),
            };
            commands.trigger(Ask::Say(ClientMessage::Challenge {
                player,
                rules,
                clock: state.clock_spec,
            }));
        }
    }

    /// This game's chat muted, or heard again.
    fn mute(&mut self) {
        self.chatting.0 = false;
        if let Some(code) = self.on_board.code.clone() {
            let people = &mut self.online.people;
            if let Some(at) = people.muted.iter().position(|c| *c == code) {
                people.muted.remove(at);
            } else {
                people.muted.push(code.clone());
                people.chat.retain(|s| s.code != code);
            }
        }
    }
}

/// The room on the board, if the board shows one.
fn room_on_board<'a>(online: &'a Online, on_board: &OnBoard) -> Option<&'a super::client::Room> {
    online
        .in_room
        .room
        .as_ref()
        .filter(|r| on_board.code.as_deref() == Some(r.code.as_str()))
}

/// The opponent who has been gone longest, and the ms left before the claim.
fn away(state: &RoomState, you: Option<usize>, now: i64) -> Option<(usize, i64)> {
    (0..state.players())
        .filter(|&s| Some(s) != you)
        .filter_map(|s| Some((s, state.away[s]?)))
        .min_by_key(|&(_, since)| since)
        .map(|(s, since)| (s, (since + CLAIM_AFTER_MS - now).max(0)))
}

fn count_down(
    online: OnlineRead,
    on_board: Res<OnBoard>,
    mut shown: ResMut<ShownSecond>,
    mut wake: ResMut<crate::game::state::Wake>,
) {
    let second = room_on_board(&online.view(), &on_board).and_then(|room| {
        let state = room.state.as_ref()?;
        if state.phase != room::Phase::Playing {
            return None;
        }
        away(state, room.you, online.connection.server_now()).map(|(_, left)| left / 1000)
    });
    if second.is_some() {
        wake.bypass_change_detection()
            .within(std::time::Duration::from_millis(250));
    }
    shown.set_if_neq(ShownSecond(second));
}

/// The controls follow the room on the board: the bar's buttons spawned again only when they
/// change (or a new bar came), the band's lines and the end panel as parts (drawn again where
/// what they say changed), so that a finger on a button is not lost to the opponent's move.
fn build(
    mut commands: Commands,
    sources: RoomSources,
    bar_row: Option<Single<Entity, With<HudRow>>>,
    mut bar_shown: Local<Option<(Entity, BarButtons)>>,
    (buttons, roots): (
        Query<Entity, With<BarButton>>,
        Query<(Entity, Has<EndRoot>), With<BarRoot>>,
    ),
    mut parts: Parts,
) {
    let RoomSources {
        art,
        prefs,
        online,
        link,
        on_board,
        asking,
        chatting,
        reporting,
    } = sources;
    let online = online.view();
    let on = room_on_board(&online, &on_board).and_then(|room| Some((room, room.state.as_ref()?)));
    let Some((room, state)) = on else {
        let all = buttons.iter().chain(roots.iter().map(|(root, _)| root));
        all.for_each(|entity| commands.entity(entity).despawn());
        *bar_shown = None;
        return;
    };
    let lang = prefs.lang();
    let told = Told::of(room, state, &online, &link, lang);
    // Chat between the players (none in child mode, none for spectators).
    let may_chat = room.you.is_some() && !online.people.child && !state.no_chat;
    let bar = BarButtons {
        lang,
        chat: may_chat,
        retry: told.retry,
        actions: game_actions(room, state, &told, asking.0),
    };
    if let Some(row) = bar_row.map(|r| *r)
        && bar_shown.as_ref() != Some(&(row, bar.clone()))
    {
        buttons.iter().for_each(|b| commands.entity(b).despawn());
        commands.entity(row).with_children(|r| bar.spawn(&art, r));
        *bar_shown = Some((row, bar));
    }
    let muted = online.people.muted.contains(&room.code);
    let band = Band {
        lang,
        lines: told.lines,
        chat: (may_chat && chatting.0).then_some(muted),
    };
    if let Err(band) = parts.show(band) {
        commands
            .spawn((BarRoot, DespawnOnExit(Screen::Playing), band_node()))
            .with_children(|b| spawn_part(b, &art, band_lines(), band));
    }
    // The end: the result, the rating change, a rematch.
    let room::Phase::Ended(result) = &state.phase else {
        for (root, _) in roots.iter().filter(|(_, end)| *end) {
            commands.entity(root).despawn();
        }
        return;
    };
    let ended = super::ended::Ended {
        room,
        state,
        result,
        online: &online,
        reporting: reporting.0,
    };
    if let Err(end) = parts.show(ended.panel(lang)) {
        commands
            .spawn((
                BarRoot,
                EndRoot,
                DespawnOnExit(Screen::Playing),
                widget::backdrop(0.35),
            ))
            .with_children(|b| {
                b.spawn(panel(560.0))
                    .with_children(|p| spawn_part(p, &art, column(), end));
            });
    }
}

/// What the controls of the room on the board are drawn from.
#[derive(SystemParam)]
struct RoomSources<'w> {
    art: Res<'w, Art>,
    prefs: Res<'w, Prefs>,
    online: OnlineRead<'w>,
    link: Res<'w, Link>,
    on_board: Res<'w, OnBoard>,
    asking: Res<'w, Asking>,
    chatting: Res<'w, Chatting>,
    reporting: Res<'w, Reporting>,
}

/// What the line over the board says, and the state behind the game's buttons.
struct Told {
    lines: Vec<String>,
    /// The connection keeps failing: a retry button.
    retry: bool,
    /// The opponent has been gone long enough for the win to be claimed.
    claimable: bool,
    offered_by_them: bool,
    offered_by_us: bool,
}

impl Told {
    fn of(
        room: &super::client::Room,
        state: &RoomState,
        online: &Online,
        link: &Link,
        lang: Lang,
    ) -> Told {
        let playing = state.phase == room::Phase::Playing;
        let mut lines = Vec::new();
        // The line at the top: the connection when it is not right, else the opponent's
        // presence, a draw offer, or "watching".
        let (link_line, retry) = connection_words(link, online, lang);
        if !link.is_open()
            || !online.identity.welcomed()
            || online.connection.incompatible.is_some()
        {
            lines.push(link_line);
        }
        let mut claimable = false;
        if playing && let Some((seat, left)) = away(state, room.you, online.connection.server_now())
        {
            let who = name_of(state, seat, room.you, lang);
            if left > 0 {
                let time = format!("{}:{:02}", left / 60_000, (left / 1000) % 60);
                lines.push(lang.trf("online.away", &[("who", &who), ("time", &time)]));
            } else {
                claimable = room.you.is_some();
                lines.push(lang.trf("online.away.claim", &[("who", &who)]));
            }
        }
        let offered_by_them =
            playing && (0..state.players()).any(|s| Some(s) != room.you && state.draw[s]);
        let offered_by_us = playing && room.you.is_some_and(|s| state.draw[s]);
        if offered_by_them {
            lines.push(lang.tr("online.draw.theirs").to_owned());
        } else if offered_by_us {
            lines.push(lang.tr("online.draw.offered").to_owned());
        }
        if room.watching {
            lines.push(lang.tr("online.watching").to_owned());
        }
        if let Some(problem) = &online.connection.problem {
            lines.push(lang.trf("online.refused", &[("why", &problem.message)]));
        }
        lines.extend(heard_lines(room, state, online, lang));
        Told {
            lines,
            retry,
            claimable,
            offered_by_them,
            offered_by_us,
        }
    }
}

/// The connection in words, and whether to offer a retry: over the board, a lost server in a
/// few words (the online screen says why at length).
fn connection_words(link: &Link, online: &Online, lang: Lang) -> (String, bool) {
    let (line, retry) = link_words(link, online, lang);
    if let super::link::LinkState::Retrying { attempt, .. } = link.state()
        && *attempt >= 3
        && online.connection.incompatible.is_none()
        && !super::device_offline()
    {
        return (
            lang.trf("online.reconnecting.again", &[("n", attempt)]),
            retry,
        );
    }
    (line, retry)
}

/// Chat phrases heard, in our language (the latest of each player), and news of friends.
fn heard_lines(
    room: &super::client::Room,
    state: &RoomState,
    online: &Online,
    lang: Lang,
) -> Vec<String> {
    let heard: Vec<_> = online
        .people
        .chat
        .iter()
        .filter(|s| s.code == room.code)
        .collect();
    let latest = heard
        .iter()
        .enumerate()
        .filter(|(i, s)| !heard[i + 1..].iter().any(|later| later.seat == s.seat))
        .map(|(_, s)| *s);
    let mut lines = Vec::new();
    for said in latest {
        let who = name_of(state, said.seat, room.you, lang);
        let words = super::pages::phrase_words(said.phrase, lang);
        lines.push(lang.trf("chat.said", &[("who", &who), ("phrase", &words)]));
    }
    if let Some(news) = &online.people.news {
        lines.push(super::pages::news_words(news, lang));
    }
    lines
}

/// The game's buttons, with their words' keys: claim, resign (or its question), a draw, leave.
fn game_actions(
    room: &super::client::Room,
    state: &RoomState,
    told: &Told,
    asking: bool,
) -> Vec<(GameAction, &'static str)> {
    let playing = state.phase == room::Phase::Playing;
    let mut actions = Vec::new();
    if told.claimable {
        actions.push((GameAction::Claim, "online.claim"));
    }
    if playing && room.you.is_some() {
        if asking {
            actions.push((GameAction::ResignYes, "online.yes"));
            actions.push((GameAction::ResignNo, "online.no"));
        } else {
            actions.push((GameAction::Resign, "online.resign"));
        }
        if told.offered_by_them {
            actions.push((GameAction::AcceptDraw, "online.draw.accept"));
        } else if !told.offered_by_us {
            actions.push((GameAction::OfferDraw, "online.draw"));
        }
    }
    actions.push((GameAction::Leave, "online.leave"));
    actions
}

/// The game's buttons at the end of the button bar's row (wrapping with it on a phone): the
/// chat, a retry, then the game's (`game_actions`).
#[derive(Clone, PartialEq)]
struct BarButtons {
    lang: Lang,
    chat: bool,
    retry: bool,
    actions: Vec<(GameAction, &'static str)>,
}

impl BarButtons {
    fn spawn(&self, art: &Art, r: &mut ChildSpawnerCommands) {
        let lang = self.lang;
        if self.chat {
            let label = lang.tr("chat.open");
            r.spawn((
                BarButton,
                icon_button(art, GameAction::Chat, Glyph::Chat, label),
            ));
        }
        if self.retry {
            let label = lang.tr("online.retry");
            r.spawn((BarButton, icon_button(art, RetryLink, Glyph::Again, label)));
        }
        for &(action, key) in &self.actions {
            if action == GameAction::ResignYes {
                r.spawn((BarButton, text(art, lang.tr("online.resign.ask"), 17.0)));
            }
            // Yes and No keep their words: they answer the question beside them.
            let picture = match action {
                GameAction::Resign => Some(Glyph::Flag),
                GameAction::OfferDraw | GameAction::AcceptDraw => Some(Glyph::Draw),
                GameAction::Leave => Some(Glyph::Leave),
                _ => None,
            };
            match picture {
                Some(glyph) => r.spawn((BarButton, icon_button(art, action, glyph, lang.tr(key)))),
                None => r.spawn((BarButton, button(art, action, lang.tr(key)))),
            };
        }
    }
}

/// The free band above the message line, where what is said goes.
fn band_node() -> impl Bundle {
    (
        Node {
            position_type: PositionType::Absolute,
            bottom: px(40),
            left: px(8),
            right: px(8),
            flex_direction: FlexDirection::Column,
            align_items: AlignItems::Center,
            ..default()
        },
        GlobalZIndex(5),
    )
}

/// The band's part: its lines one under the other, centred, across the band.
fn band_lines() -> Node {
    Node {
        width: percent(100),
        flex_direction: FlexDirection::Column,
        align_items: AlignItems::Center,
        row_gap: px(6),
        ..default()
    }
}

/// The band's lines, and the chat's phrases when open (`chat`: whether this game is muted).
#[derive(PartialEq)]
struct Band {
    lang: Lang,
    lines: Vec<String>,
    chat: Option<bool>,
}

impl Part for Band {
    fn spawn(&self, art: &Art, b: &mut ChildSpawnerCommands) {
        let lang = self.lang;
        for line in &self.lines {
            b.spawn((
                widget::text(art, line.clone(), 16.0),
                TextLayout::justify(Justify::Center),
            ));
        }
        let Some(muted) = self.chat else { return };
        b.spawn(panel(560.0)).with_children(|p| {
            p.spawn(Node {
                justify_content: JustifyContent::Center,
                flex_wrap: FlexWrap::Wrap,
                ..row()
            })
            .with_children(|r| {
                for phrase in crate::net::social::Phrase::ALL {
                    let words = super::pages::phrase_words(phrase, lang);
                    r.spawn(button(art, GameAction::Say(phrase), words));
                }
                let mute = if muted { "chat.unmute" } else { "chat.mute" };
                r.spawn(button(art, GameAction::Mute, lang.tr(mute)));
            });
        });
    }

    fn is_empty(&self) -> bool {
        self.lines.is_empty() && self.chat.is_none()
    }
}

/// The retry button beside a connection that keeps failing.
#[derive(Component, Clone, Copy)]
struct RetryLink;

pub(super) fn retry_plugin(app: &mut App) {
    app.add_observer(retry);
}

/// The retry button pressed: the connection is tried again now.
fn retry(
    activate: On<crate::game::theme::press::Activate>,
    buttons: Query<(), With<RetryLink>>,
    mut link: ResMut<Link>,
) {
    if buttons.contains(activate.entity) {
        link.retry_now();
    }
}
