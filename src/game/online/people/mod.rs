//! The online screen's pages for people: friends (our friend code and its QR, adding by code,
//! requests, challenges both ways, who is online), a profile (rating with its provisional mark,
//! the record, the rating-over-time graph, recent games that open in the review; on another's,
//! add, challenge, block, report), and the account (a link code and its QR for another device,
//! a recovery code, a sign-in name and password, the devices signed in, child mode behind a
//! parent's question). On the first visit, before any player exists, it asks who is playing.

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

mod account;
mod draw;
mod friends;
mod games;
mod kit;
mod notifications;
mod offer;
mod play_now;
mod profile;
mod tournament;
mod tournaments;

pub use friends::challenge_words;
pub use games::game_line;
pub use play_now::pool_rules;
pub use tournaments::{Draft, Kind, TourAction};

use super::client::{Ask, Online};
use super::field::{Entered, Field};
use super::form::Form;
use super::link::Link;
use super::social::News;
use crate::game::state::{Prefs, Screen};
use crate::game::theme::press::Activate;
use crate::net::protocol::{ClientMessage, PlayerInfo, RulesChoice};
use crate::net::social::{
    FRIEND_CODE_LEN, LOGIN_LEN, PASSWORD_LEN, Phrase, RECOVERY_CODE_LEN, ReportReason,
    normalize_code, rating_label,
};
use crate::rules::{RuleSet, presets};
use crate::session::Lang;

/// Which page is open over the online screen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Page {
    #[default]
    None,
    Friends,
    Profile,
    Account,
    /// Quick pairing: the pools' time controls, the wait, the computer offered.
    PlayNow,
    /// Our games by days, and our vacation.
    Games,
    /// What we are notified of, on which devices, and the daily e-mail.
    Notifications,
    /// Tournaments: ours, the public ones, one by its code.
    Tournaments,
    /// A new tournament's choices.
    NewTournament,
    /// One tournament (`Pages::tournament`).
    Tournament,
}

/// The pages' state while the online screen is up.
#[derive(Resource, Debug, Default)]
pub struct Pages {
    pub page: Page,
    /// Another player's profile is open (else our own).
    pub other: Option<String>,
    /// The online screen's field being typed in (the form's and the pages': one at a time).
    pub typing: Option<Field>,
    pub friend_code: String,
    /// A link or recovery code typed in.
    pub code: String,
    pub login: String,
    pub password: String,
    /// The current password or recovery code, for a change to the account.
    pub current: String,
    pub email: String,
    /// The parent's question (two factors), and the answer typed.
    pub question: Option<(u8, u8)>,
    pub answer: String,
    /// The report's reasons are shown.
    pub reporting: bool,
    /// What Enter in a field asked for, done with the next presses.
    pub submit: Option<PeopleAction>,
    /// The tournament whose page is open (its id).
    pub tournament: Option<String>,
    /// A tournament's code typed in.
    pub tournament_code: String,
    /// The password typed to join the open tournament.
    pub tournament_password: String,
    /// A new tournament's choices.
    pub draft: Draft,
    /// The open tournament's link was copied.
    pub copied: bool,
    /// The organiser is choosing two players to keep apart: those chosen so far (ids).
    pub apart: Option<Vec<String>>,
    /// The last two players kept apart (names), to say so.
    pub kept_apart: Option<(String, String)>,
}

/// What the pages' buttons do.
#[derive(Component, Clone, Debug, PartialEq)]
pub enum PeopleAction {
    Open(Page),
    Back,
    AddFriend,
    AnswerFriend(String, bool),
    Remove(String),
    Block(String),
    Unblock(String),
    Challenge(String),
    AnswerChallenge(String, bool),
    CancelChallenge(String),
    Profile(String),
    Review(String),
    StartReport,
    Report(String, ReportReason),
    AddOpponent(String),
    LinkCode,
    UseLink,
    UseRecovery,
    RecoveryCode,
    SetLogin,
    SignIn,
    Revoke(String),
    ChildOn,
    ChildOff,
    AnswerParent,
    /// The first visit's question: a child (`true`) or a grown-up plays on this device.
    WhoPlays(bool),
    /// Wait in the pool of `POOLS[i]` (the form's rule set when it has pools).
    Pool(usize),
    LeavePool,
    /// Challenge the online bot nearest our rating, on the clock `POOLS[i]`.
    PlayBot(usize),
    /// Play the computer at this level while nobody is there to pair with.
    PlayComputer(u8),
    /// Open a game of ours by its room code.
    OpenGame(String),
    /// Go on vacation for so many days (0: come back).
    Vacation(u8),
    /// Switch one kind of notification on or off.
    Toggle(NotifyToggle),
    NotifyAllOff,
    SaveEmail,
    /// Have this device (a browser) notified.
    NotifyDevice,
    /// The answer to a link's code: use it (yes) or forget it.
    Follow(bool),
    /// Become the player this device was before again.
    GoBack,
    /// A tournament page's button.
    Tour(TourAction),
}

/// The notifications a player switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotifyToggle {
    YourTurn,
    Challenges,
    Ended,
    Digest,
}

/// A press of a pages' button from elsewhere (the command line, a test).
#[derive(Event, Clone, Debug)]
pub struct Press(pub PeopleAction);

/// How often the friends page asks again (for who is online).
const REFRESH_S: f32 = 10.0;

pub(super) fn plugin(app: &mut App) {
    app.add_plugins(play_now::plugin);
    app.init_resource::<Pages>();
    app.add_observer(|press: On<Press>, mut pages: ResMut<Pages>| {
        pages.submit = Some(press.event().0.clone());
    });
    app.add_observer(submit_entered);
    app.add_observer(press);
    app.add_systems(OnExit(Screen::Online), |mut pages: ResMut<Pages>| {
        pages.page = Page::None;
        pages.typing = None;
    });
    app.add_systems(
        Update,
        (
            keys_and_submits,
            open_created,
            refresh,
            draw::build.run_if(
                state_changed::<Screen>
                    .or_eager(resource_changed::<Online>)
                    .or_eager(resource_changed::<Pages>)
                    .or_eager(resource_changed::<crate::game::online::push::PushDevice>)
                    .or_eager(resource_changed::<Prefs>),
            ),
        )
            .chain()
            .after(super::form::LobbySystems)
            .before(super::form::LobbyBuild)
            .run_if(in_state(Screen::Online))
            .in_set(crate::game::state::GameSet::Show),
    );
    // On any screen: a game already on the board (one's own) is not loaded again.
    app.add_systems(Update, open_review);
}

/// Whether the first visit's question is to be asked: no player yet, and nobody has said who
/// plays on this device.
pub fn asking_who_plays(online: &Online, prefs: &Prefs) -> bool {
    !online.has_token() && prefs.child.is_none()
}

/// Whether the people's pages cover the online screen: a page is open, or a question (who
/// plays, a link's code) waits for an answer.
pub fn covered(pages: &Pages, online: &Online, prefs: &Prefs) -> bool {
    pages.page != Page::None || asking_who_plays(online, prefs) || online.offer.is_some()
}

/// The rules and clock a challenge proposes: the online form's.
fn proposed(form: &Form) -> (RulesChoice, crate::net::protocol::ClockSpec) {
    let rules = match presets::get(&form.preset) {
        Some(p) if form.majority => RulesChoice::Custom(RuleSet {
            win_at: Some(p.rules.majority()),
            ..p.rules
        }),
        Some(p) if p.rules.players == 2 => RulesChoice::Preset(form.preset.clone()),
        _ => RulesChoice::Preset("standard".into()),
    };
    (rules, form.clock_spec())
}

fn say(commands: &mut Commands, msg: ClientMessage) {
    commands.trigger(Ask::Say(msg));
}

/// Open `page`, asking the server for what it shows.
fn open(commands: &mut Commands, pages: &mut Pages, page: Page, other: Option<String>) {
    pages.page = page;
    pages.typing = None;
    pages.reporting = false;
    pages.question = None;
    pages.copied = false;
    pages.apart = None;
    pages.kept_apart = None;
    pages.tournament_password.clear();
    pages.other = other.clone();
    match page {
        Page::None => {}
        Page::Friends => {
            say(commands, ClientMessage::Relations);
            say(commands, ClientMessage::Challenges);
            say(commands, ClientMessage::Profile { player: None });
        }
        Page::Profile => say(commands, ClientMessage::Profile { player: other }),
        Page::Account => {
            say(commands, ClientMessage::Profile { player: None });
            say(commands, ClientMessage::Devices);
        }
        Page::PlayNow => {}
        Page::Games => say(commands, ClientMessage::MyGames),
        Page::Notifications => say(commands, ClientMessage::Notifications),
        Page::Tournaments => say(commands, ClientMessage::Tournaments),
        Page::NewTournament | Page::Tournament => {}
    }
}

/// What the pages' actions change.
#[derive(SystemParam)]
struct Paged<'w> {
    pages: ResMut<'w, Pages>,
    prefs: ResMut<'w, Prefs>,
    online: ResMut<'w, Online>,
    link: ResMut<'w, Link>,
    form: Res<'w, Form>,
}

impl Paged<'_> {
    fn carry_out(&mut self, action: PeopleAction, commands: &mut Commands) {
        act(
            action,
            commands,
            &mut self.pages,
            &mut self.prefs,
            &mut self.online,
            &mut self.link,
            &self.form,
        );
    }
}

/// A button of the pages pressed: its action carried out.
fn press(
    activate: On<Activate>,
    actions: Query<&PeopleAction>,
    mut commands: Commands,
    mut paged: Paged,
) {
    if let Ok(action) = actions.get(activate.entity) {
        paged.carry_out(action.clone(), &mut commands);
    }
}

/// Esc declines an offer to follow or goes back; a form submitted by Enter (or a press from
/// elsewhere: `Press`) is carried out.
fn keys_and_submits(mut commands: Commands, keys: Res<ButtonInput<KeyCode>>, mut paged: Paged) {
    let mut pressed = Vec::new();
    if keys.just_pressed(KeyCode::Escape) {
        if paged.online.offer.is_some() {
            pressed.push(PeopleAction::Follow(false));
        } else if paged.pages.page != Page::None {
            pressed.push(PeopleAction::Back);
        }
    }
    // (Taken only when there: a page is drawn again when `Pages` changes.)
    if paged.pages.submit.is_some() {
        pressed.extend(paged.pages.submit.take());
    }
    for action in pressed {
        paged.carry_out(action, &mut commands);
    }
}

fn act(
    action: PeopleAction,
    commands: &mut Commands,
    pages: &mut Pages,
    prefs: &mut Prefs,
    online: &mut Online,
    link: &mut Link,
    form: &Form,
) {
    online.people.news = None;
    use PeopleAction as A;
    match action {
        A::Open(_) | A::Back | A::Profile(_) => navigate(action, commands, pages),
        A::AddFriend
        | A::AnswerFriend(..)
        | A::Remove(_)
        | A::Block(_)
        | A::Unblock(_)
        | A::Challenge(_)
        | A::AnswerChallenge(..)
        | A::CancelChallenge(_)
        | A::Review(_)
        | A::StartReport
        | A::Report(..)
        | A::AddOpponent(_) => friendly(action, commands, pages, form),
        A::Pool(_)
        | A::LeavePool
        | A::PlayBot(_)
        | A::PlayComputer(_)
        | A::OpenGame(_)
        | A::Vacation(_) => playing(action, commands, pages, form),
        A::Toggle(_) | A::NotifyAllOff | A::SaveEmail | A::NotifyDevice => {
            notified(action, commands, pages, prefs, online)
        }
        A::Tour(action) => tournaments::act(action, commands, pages, form, online, prefs),
        _ => account(action, commands, pages, prefs, online, link),
    }
}

/// Where the pages go: open one, back (out of a field first).
fn navigate(action: PeopleAction, commands: &mut Commands, pages: &mut Pages) {
    match action {
        PeopleAction::Open(page) => open(commands, pages, page, None),
        PeopleAction::Back if pages.typing.is_some() => pages.typing = None,
        PeopleAction::Back if pages.question.is_some() => pages.question = None,
        PeopleAction::Back if pages.page == Page::Account => {
            open(commands, pages, Page::Profile, None)
        }
        PeopleAction::Back if pages.other.is_some() => open(commands, pages, Page::Friends, None),
        PeopleAction::Back if pages.page == Page::Notifications => {
            open(commands, pages, Page::Games, None)
        }
        PeopleAction::Back if matches!(pages.page, Page::NewTournament | Page::Tournament) => {
            open(commands, pages, Page::Tournaments, None)
        }
        PeopleAction::Back => pages.page = Page::None,
        PeopleAction::Profile(player) => open(commands, pages, Page::Profile, Some(player)),
        _ => {}
    }
}

/// Friends, blocks, challenges and reports.
fn friendly(action: PeopleAction, commands: &mut Commands, pages: &mut Pages, form: &Form) {
    match action {
        PeopleAction::AddFriend => {
            let code = normalize_code(&pages.friend_code);
            if code.len() == FRIEND_CODE_LEN {
                say(commands, ClientMessage::AddFriend { code });
                pages.friend_code.clear();
                pages.typing = None;
            } else {
                pages.typing = Some(Field::FriendCode);
            }
        }
        PeopleAction::AnswerFriend(player, accept) => {
            say(commands, ClientMessage::AnswerFriend { player, accept })
        }
        PeopleAction::Remove(player) => say(commands, ClientMessage::RemoveFriend { player }),
        PeopleAction::Block(player) => {
            say(commands, ClientMessage::Block { player });
            if pages.other.is_some() {
                open(commands, pages, Page::Friends, None);
            }
        }
        PeopleAction::Unblock(player) => say(commands, ClientMessage::Unblock { player }),
        PeopleAction::Challenge(player) => {
            let (rules, clock) = proposed(form);
            say(
                commands,
                ClientMessage::Challenge {
                    player,
                    rules,
                    clock,
                },
            );
        }
        PeopleAction::AnswerChallenge(id, accept) => {
            say(commands, ClientMessage::AnswerChallenge { id, accept })
        }
        PeopleAction::CancelChallenge(id) => say(commands, ClientMessage::CancelChallenge { id }),
        PeopleAction::Review(code) => commands.trigger(Ask::Review(code)),
        PeopleAction::StartReport => pages.reporting = !pages.reporting,
        PeopleAction::Report(player, reason) => {
            pages.reporting = false;
            say(
                commands,
                ClientMessage::Report {
                    player,
                    reason,
                    room: None,
                },
            );
        }
        PeopleAction::AddOpponent(player) => say(commands, ClientMessage::AddOpponent { player }),
        _ => {}
    }
}

/// The account: codes, sign-in, devices, child mode, who plays, a link's question.
fn account(
    action: PeopleAction,
    commands: &mut Commands,
    pages: &mut Pages,
    prefs: &mut Prefs,
    online: &Online,
    link: &mut Link,
) {
    match action {
        PeopleAction::LinkCode => say(commands, ClientMessage::LinkCode),
        PeopleAction::UseLink | PeopleAction::UseRecovery => use_code(action, commands, pages),
        PeopleAction::RecoveryCode => {
            let current = take_current(pages);
            say(commands, ClientMessage::RecoveryCode { current });
        }
        PeopleAction::SetLogin | PeopleAction::SignIn => sign_in(action, commands, pages),
        PeopleAction::Revoke(id) => say(commands, ClientMessage::RevokeDevice { id }),
        PeopleAction::ChildOn => {
            prefs.child = Some(true);
            say(
                commands,
                ClientMessage::SetChild {
                    child: true,
                    current: None,
                },
            );
        }
        PeopleAction::ChildOff => ask_parent(pages),
        PeopleAction::AnswerParent => answer_parent(commands, pages, prefs),
        PeopleAction::WhoPlays(child) => {
            prefs.child = Some(child);
            let url = super::server_url(prefs);
            link.start(&url);
        }
        PeopleAction::Follow(yes) => {
            let friend = online
                .offer
                .as_ref()
                .is_some_and(|o| o.kind == crate::net::social::CodeKind::Friend);
            commands.trigger(super::follow::Answer(yes));
            // The request shows among the friends page's outgoing ones.
            if yes && friend {
                open(commands, pages, Page::Friends, None);
            }
        }
        PeopleAction::GoBack => {
            commands.trigger(super::follow::GoBack);
            pages.page = Page::None;
        }
        _ => {}
    }
}

/// A link code or a recovery code typed: sent when it has its length, else its field opens.
fn use_code(action: PeopleAction, commands: &mut Commands, pages: &mut Pages) {
    let code = normalize_code(&pages.code);
    let recovery = action == PeopleAction::UseRecovery;
    let wanted = if recovery {
        RECOVERY_CODE_LEN
    } else {
        crate::net::social::LINK_CODE_LEN
    };
    if code.len() != wanted {
        pages.typing = Some(Field::AccountCode);
        return;
    }
    pages.code.clear();
    pages.typing = None;
    say(
        commands,
        if recovery {
            ClientMessage::Recover { code }
        } else {
            ClientMessage::Link { code }
        },
    );
}

/// A sign-in name and password, set or signed in with: sent when both are long enough, else
/// the short one's field opens.
fn sign_in(action: PeopleAction, commands: &mut Commands, pages: &mut Pages) {
    let (login, password) = (pages.login.trim().to_owned(), pages.password.clone());
    if login.chars().count() < LOGIN_LEN.0 {
        pages.typing = Some(Field::Login);
        return;
    }
    if password.len() < PASSWORD_LEN.0 {
        pages.typing = Some(Field::Password);
        return;
    }
    // The password leaves the screen's memory once sent.
    pages.password.clear();
    pages.typing = None;
    say(
        commands,
        if action == PeopleAction::SetLogin {
            let current = take_current(pages);
            ClientMessage::SetLogin {
                login,
                password,
                current,
            }
        } else {
            ClientMessage::SignIn { login, password }
        },
    );
}

/// Child mode off asks a grown-up a multiplication first.
fn ask_parent(pages: &mut Pages) {
    // Two factors from the clock's nanoseconds: a question a child cannot learn by heart, with
    // no randomness crate in the game for it.
    let n = crate::game::online::client::unix_ms().unsigned_abs();
    pages.question = Some((6 + (n % 4) as u8, 7 + ((n / 4) % 3) as u8));
    pages.answer.clear();
    pages.typing = Some(Field::Answer);
}

/// The grown-up's answer: right, and child mode goes off.
fn answer_parent(commands: &mut Commands, pages: &mut Pages, prefs: &mut Prefs) {
    let right = pages
        .question
        .is_some_and(|(a, b)| pages.answer.trim() == (u16::from(a) * u16::from(b)).to_string());
    pages.answer.clear();
    pages.typing = None;
    if right {
        pages.question = None;
        prefs.child = Some(false);
        let current = take_current(pages);
        say(
            commands,
            ClientMessage::SetChild {
                child: false,
                current,
            },
        );
    }
}

/// Play now, the computer, games by days and the vacation.
fn playing(action: PeopleAction, commands: &mut Commands, pages: &mut Pages, form: &Form) {
    match action {
        PeopleAction::Pool(i) => {
            if let Some(&clock) = crate::net::pool::POOLS.get(i) {
                let rules = play_now::pool_rules(form).to_owned();
                say(commands, ClientMessage::Pool { rules, clock });
                // From the home's tiles: the page shows the wait.
                pages.page = Page::PlayNow;
            }
        }
        PeopleAction::LeavePool => say(commands, ClientMessage::LeavePool),
        PeopleAction::PlayBot(i) => {
            if let Some(&clock) = crate::net::pool::POOLS.get(i) {
                let rules = RulesChoice::Preset(play_now::pool_rules(form).to_owned());
                say(commands, ClientMessage::PlayBot { rules, clock });
            }
        }
        PeopleAction::PlayComputer(level) => {
            // Out of the pool, and an unrated game on this device against the computer.
            say(commands, ClientMessage::LeavePool);
            let rules = play_now::pool_rules(form).to_owned();
            pages.page = Page::None;
            commands.trigger(PlayComputer { level, rules });
        }
        PeopleAction::OpenGame(code) => {
            pages.page = Page::None;
            commands.trigger(Ask::Join(code));
        }
        PeopleAction::Vacation(days) => say(commands, ClientMessage::Vacation { days }),
        _ => {}
    }
}

/// Notifications and the daily e-mail.
fn notified(
    action: PeopleAction,
    commands: &mut Commands,
    pages: &mut Pages,
    prefs: &Prefs,
    online: &Online,
) {
    match action {
        PeopleAction::Toggle(which) => {
            if let Some(n) = &online.notifications {
                let mut settings = n.settings.clone();
                let flag = match which {
                    NotifyToggle::YourTurn => &mut settings.your_turn,
                    NotifyToggle::Challenges => &mut settings.challenges,
                    NotifyToggle::Ended => &mut settings.ended,
                    NotifyToggle::Digest => &mut settings.digest,
                };
                *flag = !*flag;
                if which == NotifyToggle::Digest && settings.digest && settings.email.is_empty() {
                    // An address first.
                    pages.typing = Some(Field::Email);
                    return;
                }
                settings.lang = prefs.lang();
                say(commands, ClientMessage::SetNotifications { settings });
            }
        }
        PeopleAction::NotifyAllOff => {
            if let Some(n) = &online.notifications {
                let settings = n.settings.clone().all_off();
                say(commands, ClientMessage::SetNotifications { settings });
            }
        }
        PeopleAction::SaveEmail => {
            if let Some(n) = &online.notifications {
                let email = pages.email.trim().to_owned();
                let settings = crate::net::notify::NotifySettings {
                    digest: n.settings.digest || !email.is_empty(),
                    email,
                    lang: prefs.lang(),
                    ..n.settings.clone()
                };
                pages.typing = None;
                say(commands, ClientMessage::SetNotifications { settings });
            }
        }
        PeopleAction::NotifyDevice => {
            if let Some(n) = &online.notifications {
                commands.trigger(super::push::Subscribe(n.push_key.clone()));
            }
        }
        _ => {}
    }
}

/// Start a game against the computer on this device (the pool had nobody for us).
#[derive(Event, Clone, Debug)]
pub struct PlayComputer {
    pub level: u8,
    pub rules: String,
}

/// Enter in a field sends what the field is for (the next presses do it); in the others it
/// only leaves the field.
fn submit_entered(entered: On<Entered>, mut pages: ResMut<Pages>) {
    let action = match entered.event().0 {
        Field::FriendCode => PeopleAction::AddFriend,
        Field::Answer => PeopleAction::AnswerParent,
        Field::Email => PeopleAction::SaveEmail,
        Field::TournamentCode => PeopleAction::Tour(TourAction::Find),
        Field::TournamentPassword if pages.page == Page::Tournament => {
            PeopleAction::Tour(TourAction::Join)
        }
        _ => return,
    };
    pages.submit = Some(action);
}

/// The current password or recovery code typed in, if any: it leaves the screen's memory once
/// sent.
fn take_current(pages: &mut Pages) -> Option<String> {
    let current = std::mem::take(&mut pages.current);
    (!current.is_empty()).then_some(current)
}

/// The friends page asks again every few seconds: who is online changes.
fn refresh(
    mut commands: Commands,
    mut pages: ResMut<Pages>,
    online: Res<Online>,
    prefs: Res<Prefs>,
    time: Res<Time>,
    mut wake: ResMut<crate::game::state::Wake>,
    mut since: Local<f32>,
    mut shown_s: Local<i64>,
    mut countdowns: Query<(&tournaments::Countdown, &mut Text)>,
) {
    // A tournament's page counts down to its start, its next round or its end: its texts that
    // count say so in place (each minute, each second in the last one).
    if tournaments::counts_down(&pages) {
        tournaments::retell(&mut countdowns, &pages, &online, prefs.lang());
        wake.bypass_change_detection()
            .within(std::time::Duration::from_millis(500));
    }
    // The wait in a pool counts up on screen, a second at a time.
    if pages.page == Page::PlayNow
        && let Some(pool) = &online.pool
    {
        let waited = (super::client::unix_ms() - pool.since_ms) / 1000;
        if waited != *shown_s {
            *shown_s = waited;
            pages.set_changed();
        }
        wake.bypass_change_detection()
            .within(std::time::Duration::from_millis(250));
    }
    let again = match pages.page {
        Page::Friends => ClientMessage::Relations,
        // Its players hear of each change; a visitor asks again.
        Page::Tournament => match &pages.tournament {
            Some(id) => ClientMessage::Tournament { id: id.clone() },
            None => return,
        },
        Page::Tournaments => ClientMessage::Tournaments,
        _ => {
            *since = 0.0;
            return;
        }
    };
    *since += time.delta_secs();
    if *since > REFRESH_S {
        *since = 0.0;
        say(&mut commands, again);
    }
}

/// The tournament just made: its page opens.
fn open_created(mut commands: Commands, mut pages: ResMut<Pages>, mut online: ResMut<Online>) {
    if online.tournaments.created.is_some()
        && let Some(id) = online.tournaments.created.take()
    {
        tournaments::open(&mut commands, &mut pages, id);
    }
}

/// A game of a profile, watched: once the board has its whole game, into the review.
fn open_review(
    mut commands: Commands,
    mut online: ResMut<Online>,
    on_board: Res<super::table::OnBoard>,
    game: Res<crate::game::state::Game>,
) {
    let Some(code) = online.review_next.clone() else {
        return;
    };
    let whole = online
        .room
        .as_ref()
        .filter(|r| r.code == code)
        .and_then(|r| r.state.as_ref())
        .is_some_and(|s| s.moves.len() == game.history.entries().len());
    if on_board.code.as_deref() == Some(code.as_str())
        && whole
        && !game.history.entries().is_empty()
    {
        online.review_next = None;
        commands.trigger(crate::game::state::OpenReview);
    }
}

/// A player as lists show them: name and rating ("1500?" while provisional).
fn who(player: &PlayerInfo) -> String {
    format!(
        "{} · {}",
        player.name,
        rating_label(player.rating, player.deviation)
    )
}

/// The words of a report's reason, as a key of the language tables.
pub fn reason_key(reason: ReportReason) -> &'static str {
    match reason {
        ReportReason::OffensiveName => "people.report.name",
        ReportReason::Cheating => "people.report.cheating",
        ReportReason::Stalling => "people.report.stalling",
        ReportReason::Other => "people.report.other",
    }
}

/// A chat phrase in `lang`.
pub fn phrase_words(phrase: Phrase, lang: Lang) -> &'static str {
    lang.tr(phrase.key())
}

pub fn news_words(news: &News, lang: Lang) -> String {
    match news {
        News::FriendRequest(name) => lang.trf("people.news.request", &[("who", name)]),
        News::FriendAccepted(name) => lang.trf("people.news.accepted", &[("who", name)]),
        News::Challenged(name) => lang.trf("people.news.challenged", &[("who", name)]),
        News::ChallengeClosed => lang.tr("people.news.closed").to_owned(),
        News::Reported => lang.tr("people.news.reported").to_owned(),
        News::YourTurn(code) => lang.trf("people.news.your_turn", &[("code", code)]),
        News::TournamentInvite(who, name) => {
            lang.trf("tour.news.invite", &[("who", who), ("name", name)])
        }
    }
}
