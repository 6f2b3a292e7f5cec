//! The online screen: what its buttons do, and which of its faces it shows: the home (`home`),
//! the sheet of a room's own choices (`sheet`), the leaderboard, the room asked for while it
//! has not come (`joining`), or, once seated in a room not yet full, the waiting room: the code
//! in large letters, the room's link as a QR code for a friend's phone, Copy link, Cancel. The
//! public rooms are asked again every few seconds while the screen is up.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use bevy::window::PrimaryWindow;

use super::client::{self, Ask, Board, Online, OnlineRead, OnlineWrite};
use super::field::Typing;
use super::field::{Entered, Field};
pub use super::form::OnlineAction;
use super::form::{
    BASE_STEPS_S, BY_DAYS, Form, INCREMENT_STEPS_S, LobbyBuild, LobbySystems, step_along,
};
use super::home::Home;
pub use super::home::link_words;
use super::joining::{self, spaced};
use super::link::Link;
use super::pages::{OnlinePage, Seat, Showing, asking_who_plays};
use super::qr;
use super::sheet::Sheet;
use crate::game::board::art::Art;
use crate::game::state::{Prefs, Screen};
use crate::game::theme::part::{Part, Parts, column, spawn_part};
use crate::game::theme::press::Activate;
use crate::game::theme::widget::{self, bold, button, panel, row, text};
use crate::game::theme::{page, target};
use crate::net::protocol::{CORRESPONDENCE_DAYS, First, PlayerInfo, is_room_code};
use crate::net::room;
use crate::rules::presets;
use crate::session::Lang;

#[derive(Component)]
struct OnlineRoot;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Form>();
    app.add_observer(join_entered);
    app.add_observer(press);
    app.add_systems(OnEnter(Screen::Online), open);
    app.add_systems(OnExit(Screen::Online), close);
    app.add_systems(
        Update,
        (
            escape.before(super::typing::type_keys).in_set(LobbySystems),
            follow_the_seat.in_set(LobbySystems),
            build
                .run_if(super::pages::settled.and_then(news))
                .in_set(LobbyBuild),
        )
            .chain()
            .run_if(in_state(Screen::Online))
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// The screen opens: connect (unless the first visit's question waits for an answer), and
/// list the rooms waiting.
fn open(mut link: ResMut<Link>, mut online: OnlineWrite, prefs: Res<Prefs>) {
    let url = super::server_url(&prefs);
    if !asking_who_plays(&online.connection, &prefs) {
        link.start(&url);
    }
    online.lobby.browsing = true;
    client::refresh_lobby(&mut online);
}

fn close(mut online: OnlineWrite) {
    online.lobby.browsing = false;
}

/// Enter in the room code's field joins the room once the code is whole.
fn join_entered(entered: On<Entered>, mut commands: Commands, form: Res<Form>) {
    if entered.event().0 == Field::RoomCode && is_room_code(&form.code) {
        commands.trigger(Ask::Join(form.code.clone()));
    }
}

/// What the online screen's actions change.
#[derive(SystemParam)]
struct Screenful<'w> {
    form: ResMut<'w, Form>,
    prefs: ResMut<'w, Prefs>,
    link: ResMut<'w, Link>,
    online: OnlineRead<'w>,
    next_screen: ResMut<'w, NextState<Screen>>,
    showing: Option<Res<'w, State<Showing>>>,
    page_now: Option<Res<'w, State<OnlinePage>>>,
    page: ResMut<'w, NextState<OnlinePage>>,
    typing: ResMut<'w, Typing>,
}

impl Screenful<'_> {
    /// `action` carried out, unless a page of people (or a question) covers the screen: it
    /// takes the keys and the presses.
    fn carry_out(&mut self, action: OnlineAction, commands: &mut Commands) {
        let (Some(showing), Some(page)) = (&self.showing, &self.page_now) else {
            return;
        };
        if showing.covers_the_lobby() || focus(action, &self.form, &mut self.typing.0) {
            return;
        }
        let screen = Screens {
            page: *page.get(),
            next_page: &mut self.page,
            next_screen: &mut self.next_screen,
        };
        act(
            action,
            commands,
            &mut self.form,
            &mut self.prefs,
            &mut self.link,
            &self.online.view(),
            screen,
        );
    }
}

/// A button of the online screen pressed.
fn press(
    activate: On<Activate>,
    actions: Query<&OnlineAction>,
    mut commands: Commands,
    mut screen: Screenful,
) {
    if let Ok(&action) = actions.get(activate.entity) {
        screen.carry_out(action, &mut commands);
    }
}

/// Esc is Back.
fn escape(mut commands: Commands, keys: Res<ButtonInput<KeyCode>>, mut screen: Screenful) {
    if keys.just_pressed(KeyCode::Escape) {
        screen.carry_out(OnlineAction::Back, &mut commands);
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

/// Where the screen's actions go: the lobby's page open, and the next page and screen.
struct Screens<'a> {
    page: OnlinePage,
    next_page: &'a mut NextState<OnlinePage>,
    next_screen: &'a mut NextState<Screen>,
}

impl Screens<'_> {
    /// `page` opened, or closed (to the home) when it is open.
    fn toggle(&mut self, page: OnlinePage) -> bool {
        let open = self.page != page;
        let next = if open { page } else { OnlinePage::Home };
        self.next_page.set_if_neq(next);
        open
    }
}

fn act(
    action: OnlineAction,
    commands: &mut Commands,
    form: &mut Form,
    prefs: &mut Prefs,
    link: &mut Link,
    online: &Online,
    mut screen: Screens,
) {
    let waiting = waiting_room(online).is_some();
    let home = screen.page == OnlinePage::Home;
    match action {
        OnlineAction::Back if !home => screen.next_page.set_if_neq(OnlinePage::Home),
        OnlineAction::Back if waiting => commands.trigger(Ask::Leave),
        OnlineAction::Back => screen.next_screen.set(Screen::Title),
        OnlineAction::Retry => link.retry_now(),
        OnlineAction::Preset(_)
        | OnlineAction::Days(_)
        | OnlineAction::Clock(_)
        | OnlineAction::Minutes(_)
        | OnlineAction::Increment(_)
        | OnlineAction::First
        | OnlineAction::Public
        | OnlineAction::Majority => choose(action, form),
        OnlineAction::Sheet => {
            screen.toggle(OnlinePage::Sheet);
        }
        OnlineAction::Invite => commands.trigger(create(form, false)),
        OnlineAction::Create => {
            if screen.page == OnlinePage::Sheet {
                screen.next_page.set_if_neq(OnlinePage::Home);
            }
            // A child's rooms are private: the server would refuse a public one.
            commands.trigger(create(form, form.public && !online.people.child));
        }
        OnlineAction::Join => commands.trigger(Ask::Join(form.code.clone())),
        OnlineAction::Watch => commands.trigger(Ask::Watch(form.code.clone())),
        OnlineAction::JoinListed(n) => {
            if let Some(room) = online.lobby.rooms.get(n) {
                commands.trigger(Ask::Join(room.code.clone()));
            }
        }
        OnlineAction::CopyLink => copy_link(form, prefs, online),
        OnlineAction::Cancel => commands.trigger(Ask::Leave),
        OnlineAction::Leaderboard => {
            if screen.toggle(OnlinePage::Leaderboard) {
                commands.trigger(Ask::Leaderboard);
                commands.trigger(Ask::Say(crate::net::protocol::ClientMessage::Bots));
            }
        }
    }
}

/// A choice of the new room's form stepped along.
fn choose(action: OnlineAction, form: &mut Form) {
    match action {
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
        _ => {}
    }
}

/// A room of the form's choices asked for, public or not.
fn create(form: &Form, public: bool) -> Ask {
    Ask::Create {
        preset: form.preset.clone(),
        majority: form.majority,
        clock: form.clock_spec(),
        first: form.first,
        public,
    }
}

/// The waiting room's link copied, for a friend.
fn copy_link(form: &mut Form, prefs: &Prefs, online: &Online) {
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

/// The code of the room we sit in while it waits for players.
fn waiting_room<'a>(online: &Online<'a>) -> Option<&'a str> {
    let room = online.in_room.room.as_ref()?;
    let state = room.state.as_ref()?;
    (state.phase == room::Phase::Waiting && !room.watching).then_some(room.code.as_str())
}

/// Where we sit follows the client's room: a room of ours waiting for players, a room asked
/// for that has not come, or neither.
fn follow_the_seat(online: OnlineRead, mut seat: ResMut<NextState<Seat>>) {
    NextState::set_if_neq(
        &mut seat,
        if waiting_room(&online.view()).is_some() {
            Seat::Waiting
        } else if joining::joining(&online.view()).is_some() {
            Seat::Joining
        } else {
            Seat::Free
        },
    );
}

/// What the screen's faces are drawn from.
#[derive(SystemParam)]
struct Sources<'w> {
    showing: Res<'w, State<Showing>>,
    art: Res<'w, Art>,
    prefs: Res<'w, Prefs>,
    online: OnlineRead<'w>,
    link: Res<'w, Link>,
    form: Res<'w, Form>,
    typing: Res<'w, Typing>,
}

/// Whether anything the screen's faces show changed since they were drawn.
fn news(sources: Sources) -> bool {
    sources.showing.is_changed()
        || sources.prefs.is_changed()
        || lobby_part_changed(&sources.online)
        || sources.link.is_changed()
        || sources.form.is_changed()
        || sources.typing.is_changed()
}

/// Whether a part of online play's state the lobby's faces draw changed (all but the
/// tournaments, which have pages of their own).
fn lobby_part_changed(online: &OnlineRead) -> bool {
    online.connection.is_changed()
        || online.identity.is_changed()
        || online.lobby.is_changed()
        || online.in_room.is_changed()
        || online.people.is_changed()
        || online.correspondence.is_changed()
}

/// The screen's face (what shows), in the language and for the window it was spawned for.
type Spawned = (Showing, Lang, bool);

/// The screen follows its state: a face spawned when what shows changes (or the language, or
/// the window between a phone's and a larger one), else the face's parts given what they now
/// show, each drawn again only where that changed (the page's scroll, a finger on a button
/// kept). A page of people or a question covers it: it shows nothing of its own.
fn build(
    mut commands: Commands,
    sources: Sources,
    mut images: ResMut<Assets<Image>>,
    (mut qr_of, mut spawned): (
        Local<Option<(String, Handle<Image>)>>,
        Local<Option<Spawned>>,
    ),
    mut parts: Parts,
    roots: Query<Entity, With<OnlineRoot>>,
    (window, scale): (Option<Single<&Window, With<PrimaryWindow>>>, Res<UiScale>),
) {
    let (art, online, link, form) = (
        &*sources.art,
        &sources.online.view(),
        &*sources.link,
        &*sources.form,
    );
    let lang = sources.prefs.lang();
    let phone = window.is_some_and(|w| target::phone_sized(w.size() / scale.0));
    let showing = *sources.showing.get();
    let faces = Faces {
        lang,
        online,
        link,
        prefs: &sources.prefs,
        typing: *sources.typing,
        form,
    };
    let waiting = |images: &mut Assets<Image>, qr_of: &mut Option<(String, Handle<Image>)>| {
        let code = waiting_room(online)?;
        Some(WaitingRoom::of(code, &faces, images, qr_of))
    };
    let now = Some((showing, lang, phone));
    if *spawned == now && !roots.is_empty() {
        let shown = match showing {
            Showing::Seat(Seat::Waiting) => {
                waiting(&mut images, &mut qr_of).is_some_and(|w| parts.show(w).is_ok())
            }
            Showing::Seat(Seat::Joining) => joining::joining(online)
                .is_some_and(|room| parts.show(joining::part(room, link, online, lang)).is_ok()),
            Showing::Page(OnlinePage::Leaderboard) => parts.show(Leaders::of(online, lang)).is_ok(),
            Showing::Page(OnlinePage::Sheet) => parts.show(Sheet::of(form, online, lang)).is_ok(),
            Showing::Page(OnlinePage::Home) => faces.home(art).show(&mut parts),
            _ => true,
        };
        if shown {
            return;
        }
    }
    for root in &roots {
        commands.entity(root).despawn();
    }
    *spawned = now;
    let waiting = match showing {
        Showing::Seat(Seat::Waiting) => waiting(&mut images, &mut qr_of),
        _ => None,
    };
    spawn_face(&mut commands, art, showing, phone, &faces, waiting);
}

/// The screen's face spawned: a panel over the board, or a page.
fn spawn_face(
    commands: &mut Commands,
    art: &Art,
    showing: Showing,
    phone: bool,
    faces: &Faces,
    waiting: Option<WaitingRoom>,
) {
    let (online, link, form, lang) = (faces.online, faces.link, faces.form, faces.lang);
    match showing {
        Showing::Seat(Seat::Waiting) => {
            if let Some(waiting) = waiting {
                in_panel(commands, art, waiting);
            }
        }
        Showing::Seat(Seat::Joining) => {
            if let Some(room) = joining::joining(online) {
                in_panel(commands, art, joining::part(room, link, online, lang));
            }
        }
        // Pages hide the board rather than dim it (on a phone, the page is the whole window).
        Showing::Page(OnlinePage::Leaderboard) => {
            let leaders = Leaders::of(online, lang);
            commands.spawn(root(1.0)).with_children(|b| {
                b.spawn(page::page(560.0, phone))
                    .with_children(|p| spawn_part(p, art, column(), leaders));
            });
        }
        Showing::Page(OnlinePage::Sheet) => {
            let sheet = Sheet::of(form, online, lang);
            commands.spawn(root(1.0)).with_children(|b| {
                b.spawn(page::page(620.0, phone))
                    .with_children(|p| super::sheet::spawn(p, art, sheet));
            });
        }
        Showing::Page(OnlinePage::Home) => {
            let home = faces.home(art);
            commands.spawn(root(1.0)).with_children(|b| {
                b.spawn(page::page(720.0, phone))
                    .with_children(|p| home.spawn(p));
            });
        }
        // Covered by a page of people or a question: nothing of its own.
        _ => {}
    }
}

/// What the screen's faces are drawn from, once read.
struct Faces<'a> {
    lang: Lang,
    online: &'a Online<'a>,
    link: &'a Link,
    prefs: &'a Prefs,
    typing: Typing,
    form: &'a Form,
}

impl<'a> Faces<'a> {
    fn home(&self, art: &'a Art) -> Home<'a> {
        Home {
            art,
            lang: self.lang,
            online: self.online,
            link: self.link,
            prefs: self.prefs,
            typing: self.typing,
            form: self.form,
        }
    }
}

/// A face in a panel over the board, dimmed: the waiting room, the room asked for.
fn in_panel(commands: &mut Commands, art: &Art, part: impl Part) {
    commands.spawn(root(0.55)).with_children(|b| {
        b.spawn(panel(520.0))
            .with_children(|p| spawn_part(p, art, column(), part));
    });
}

/// The screen's layer over the board, dimming it by `dim`.
fn root(dim: f32) -> impl Bundle {
    (
        OnlineRoot,
        DespawnOnExit(Screen::Online),
        widget::backdrop(dim),
    )
}

/// The waiting room's panel: the code large, its link and QR, copy and cancel.
#[derive(PartialEq)]
struct WaitingRoom {
    lang: Lang,
    code: String,
    link: String,
    qr: Option<Handle<Image>>,
    copied: bool,
    status: String,
}

impl WaitingRoom {
    /// The room `code`'s panel; its link's QR code drawn once per link (kept in `qr_of`).
    fn of(
        code: &str,
        state: &Faces,
        images: &mut Assets<Image>,
        qr_of: &mut Option<(String, Handle<Image>)>,
    ) -> WaitingRoom {
        let link = super::room_link(&state.prefs.0, code);
        if qr_of.as_ref().is_none_or(|(text, _)| *text != link) {
            *qr_of = qr::image(&link).map(|image| (link.clone(), images.add(image)));
        }
        WaitingRoom {
            lang: state.lang,
            code: code.to_owned(),
            link,
            qr: qr_of.as_ref().map(|(_, handle)| handle.clone()),
            copied: state.form.copied,
            status: link_words(state.link, state.online, state.lang).0,
        }
    }
}

impl Part for WaitingRoom {
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        let lang = self.lang;
        let centred = |words: String, size: f32| (text(art, words, size), centre());
        p.spawn((
            widget::title(art, lang.tr("online.waiting"), 26.0),
            centre(),
        ));
        p.spawn(centred(lang.tr("online.share").to_owned(), 17.0));
        p.spawn((widget::title(art, spaced(&self.code), 64.0), centre()));
        if let Some(qr) = &self.qr {
            p.spawn(Node {
                justify_content: JustifyContent::Center,
                ..default()
            })
            .with_child((
                ImageNode::new(qr.clone()),
                Node {
                    width: px(220),
                    height: px(220),
                    ..default()
                },
            ));
        }
        p.spawn(centred(self.link.clone(), 15.0));
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
        p.spawn(centred(self.status.clone(), 15.0));
    }
}

fn centre() -> TextLayout {
    TextLayout::justify(Justify::Center)
}

/// The leaderboard page, as a value: the board and the bots as last told.
#[derive(PartialEq)]
struct Leaders {
    lang: Lang,
    board: Option<Board>,
    bots: Option<(Vec<PlayerInfo>, Vec<PlayerInfo>)>,
}

impl Leaders {
    fn of(online: &Online, lang: Lang) -> Leaders {
        Leaders {
            lang,
            board: online.lobby.leaderboard.clone(),
            bots: online.lobby.bots.clone(),
        }
    }
}

impl Part for Leaders {
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        leaderboard(p, art, self, self.lang);
    }
}

/// The top players (ten shown), then our own place and rating.
fn leaderboard(p: &mut ChildSpawnerCommands, art: &Art, online: &Leaders, lang: Lang) {
    p.spawn(widget::title(art, lang.tr("online.leaderboard"), 26.0));
    match &online.board {
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
fn bots_board(p: &mut ChildSpawnerCommands, art: &Art, online: &Leaders, lang: Lang) {
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
