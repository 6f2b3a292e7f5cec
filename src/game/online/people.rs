//! The online screen's pages for people: friends (our friend code and its QR, adding by code,
//! requests, challenges both ways, who is online), a profile (rating with its provisional mark,
//! the record, the rating-over-time graph, recent games that open in the review; on another's,
//! add, challenge, block, report), and the account (a link code and its QR for another device,
//! a recovery code, a sign-in name and password, the devices signed in, child mode behind a
//! parent's question). On the first visit, before any player exists, it asks who is playing.

use bevy::input::keyboard::{Key, KeyboardInput};
use bevy::prelude::*;

use super::client::{Ask, Online};
use super::link::Link;
use super::lobby::{Form, clock_label};
use super::social::News;
use super::{graph, qr};
use crate::game::board::art::Art;
use crate::game::screens::ui::{self, bold, button, panel, row, text};
use crate::game::state::{Prefs, Screen};
use crate::net::protocol::{ClientMessage, PlayerInfo, RulesChoice};
use crate::net::social::{
    FRIEND_CODE_LEN, LOGIN_LEN, PASSWORD_LEN, Phrase, RECOVERY_CODE_LEN, ReportReason, grouped,
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
}

/// A text field of these pages.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Entry {
    #[default]
    None,
    FriendCode,
    Code,
    Login,
    Password,
    Answer,
}

/// The pages' state while the online screen is up.
#[derive(Resource, Debug, Default)]
pub struct Pages {
    pub page: Page,
    /// Another player's profile is open (else our own).
    pub other: Option<String>,
    pub entry: Entry,
    pub friend_code: String,
    /// A link or recovery code typed in.
    pub code: String,
    pub login: String,
    pub password: String,
    /// The parent's question (two factors), and the answer typed.
    pub question: Option<(u8, u8)>,
    pub answer: String,
    /// The report's reasons are shown.
    pub reporting: bool,
    /// What Enter in a field asked for, done with the next presses.
    pub submit: Option<PeopleAction>,
}

/// What the pages' buttons do.
#[derive(Component, Clone, Debug, PartialEq)]
pub enum PeopleAction {
    Open(Page),
    Back,
    Edit(Entry),
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
}

#[derive(Component)]
struct PagesRoot;

/// How often the friends page asks again (for who is online).
const REFRESH_S: f32 = 10.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Pages>();
    app.add_systems(OnExit(Screen::Online), |mut pages: ResMut<Pages>| {
        pages.page = Page::None;
        pages.entry = Entry::None;
    });
    app.add_systems(
        Update,
        (
            press,
            type_text,
            refresh,
            build.run_if(
                state_changed::<Screen>
                    .or_eager(resource_changed::<Online>)
                    .or_eager(resource_changed::<Pages>)
                    .or_eager(resource_changed::<Prefs>),
            ),
        )
            .chain()
            .after(super::lobby::LobbySystems)
            .before(super::lobby::LobbyBuild)
            .run_if(in_state(Screen::Online))
            .in_set(crate::game::state::GameSet::Show),
    );
    app.add_systems(Update, open_review.run_if(in_state(Screen::Playing)));
}

/// Whether the first visit's question is to be asked: no player yet, and nobody has said who
/// plays on this device.
pub fn asking_who_plays(online: &Online, prefs: &Prefs) -> bool {
    !online.has_token() && prefs.child.is_none()
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
    pages.entry = Entry::None;
    pages.reporting = false;
    pages.question = None;
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
    }
}

#[allow(clippy::too_many_arguments)]
fn press(
    mut commands: Commands,
    buttons: Query<(&Interaction, &PeopleAction), Changed<Interaction>>,
    mut pages: ResMut<Pages>,
    mut prefs: ResMut<Prefs>,
    mut online: ResMut<Online>,
    mut link: ResMut<Link>,
    form: Res<Form>,
    keys: Res<ButtonInput<KeyCode>>,
) {
    let mut pressed: Vec<PeopleAction> = buttons
        .iter()
        .filter(|(i, _)| **i == Interaction::Pressed)
        .map(|(_, a)| a.clone())
        .collect();
    if keys.just_pressed(KeyCode::Escape) && pages.page != Page::None {
        pressed.push(PeopleAction::Back);
    }
    pressed.extend(pages.submit.take());
    for action in pressed {
        commands.trigger(crate::game::play::sound::Sfx::Click);
        act(
            action,
            &mut commands,
            &mut pages,
            &mut prefs,
            &mut online,
            &mut link,
            &form,
        );
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
    match action {
        PeopleAction::Open(page) => open(commands, pages, page, None),
        PeopleAction::Back if pages.entry != Entry::None => pages.entry = Entry::None,
        PeopleAction::Back if pages.question.is_some() => pages.question = None,
        PeopleAction::Back if pages.page == Page::Account => {
            open(commands, pages, Page::Profile, None)
        }
        PeopleAction::Back if pages.other.is_some() => open(commands, pages, Page::Friends, None),
        PeopleAction::Back => pages.page = Page::None,
        PeopleAction::Edit(entry) => pages.entry = entry,
        PeopleAction::AddFriend => {
            let code = normalize_code(&pages.friend_code);
            if code.len() == FRIEND_CODE_LEN {
                say(commands, ClientMessage::AddFriend { code });
                pages.friend_code.clear();
                pages.entry = Entry::None;
            } else {
                pages.entry = Entry::FriendCode;
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
        PeopleAction::Profile(player) => open(commands, pages, Page::Profile, Some(player)),
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
        PeopleAction::LinkCode => say(commands, ClientMessage::LinkCode),
        PeopleAction::UseLink | PeopleAction::UseRecovery => {
            let code = normalize_code(&pages.code);
            let recovery = action == PeopleAction::UseRecovery;
            let wanted = if recovery {
                RECOVERY_CODE_LEN
            } else {
                crate::net::social::LINK_CODE_LEN
            };
            if code.len() != wanted {
                pages.entry = Entry::Code;
                return;
            }
            pages.code.clear();
            pages.entry = Entry::None;
            say(
                commands,
                if recovery {
                    ClientMessage::Recover { code }
                } else {
                    ClientMessage::Link { code }
                },
            );
        }
        PeopleAction::RecoveryCode => say(commands, ClientMessage::RecoveryCode),
        PeopleAction::SetLogin | PeopleAction::SignIn => {
            let (login, password) = (pages.login.trim().to_owned(), pages.password.clone());
            if login.chars().count() < LOGIN_LEN.0 {
                pages.entry = Entry::Login;
                return;
            }
            if password.len() < PASSWORD_LEN.0 {
                pages.entry = Entry::Password;
                return;
            }
            // The password leaves the screen's memory once sent.
            pages.password.clear();
            pages.entry = Entry::None;
            say(
                commands,
                if action == PeopleAction::SetLogin {
                    ClientMessage::SetLogin { login, password }
                } else {
                    ClientMessage::SignIn { login, password }
                },
            );
        }
        PeopleAction::Revoke(id) => say(commands, ClientMessage::RevokeDevice { id }),
        PeopleAction::ChildOn => {
            prefs.child = Some(true);
            say(commands, ClientMessage::SetChild { child: true });
        }
        PeopleAction::ChildOff => {
            // Two factors from the clock's nanoseconds: a question a child cannot learn by
            // heart, with no randomness crate in the game for it.
            let n = crate::game::online::client::unix_ms().unsigned_abs();
            pages.question = Some((6 + (n % 4) as u8, 7 + ((n / 4) % 3) as u8));
            pages.answer.clear();
            pages.entry = Entry::Answer;
        }
        PeopleAction::AnswerParent => {
            let right = pages.question.is_some_and(|(a, b)| {
                pages.answer.trim() == (u16::from(a) * u16::from(b)).to_string()
            });
            pages.answer.clear();
            pages.entry = Entry::None;
            if right {
                pages.question = None;
                prefs.child = Some(false);
                say(commands, ClientMessage::SetChild { child: false });
            }
        }
        PeopleAction::WhoPlays(child) => {
            prefs.child = Some(child);
            let url = super::server_url(prefs);
            link.start(&url);
        }
    }
}

/// Keys typed into the focused field.
fn type_text(mut keys: MessageReader<KeyboardInput>, mut pages: ResMut<Pages>) {
    let entry = pages.entry;
    if entry == Entry::None {
        keys.clear();
        return;
    }
    for key in keys.read() {
        if !key.state.is_pressed() {
            continue;
        }
        let pages = &mut *pages;
        let field = match entry {
            Entry::FriendCode => &mut pages.friend_code,
            Entry::Code => &mut pages.code,
            Entry::Login => &mut pages.login,
            Entry::Password => &mut pages.password,
            Entry::Answer => &mut pages.answer,
            Entry::None => return,
        };
        match &key.logical_key {
            Key::Backspace => {
                field.pop();
            }
            Key::Enter => {
                let action = match entry {
                    Entry::FriendCode => Some(PeopleAction::AddFriend),
                    Entry::Answer => Some(PeopleAction::AnswerParent),
                    _ => None,
                };
                match action {
                    Some(action) => pages.submit = Some(action),
                    None => pages.entry = Entry::None,
                }
                return;
            }
            Key::Character(typed) => {
                *field = typed_into(entry, field, typed);
            }
            Key::Space if entry == Entry::Password => field.push(' '),
            _ => {}
        }
    }
}

/// `field` with `typed` added, as the entry takes it: codes in capitals from the codes'
/// alphabet, a login in its own characters, a password as typed, the answer in digits.
pub fn typed_into(entry: Entry, field: &str, typed: &str) -> String {
    let chars = field.chars().chain(typed.chars());
    match entry {
        Entry::FriendCode | Entry::Code => {
            let most = if entry == Entry::FriendCode {
                FRIEND_CODE_LEN
            } else {
                RECOVERY_CODE_LEN
            };
            normalize_code(&chars.collect::<String>())
                .chars()
                .filter(|&c| {
                    c.is_ascii() && crate::net::protocol::CODE_ALPHABET.contains(&(c as u8))
                })
                .take(most)
                .collect()
        }
        Entry::Login => chars
            .filter(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
            .take(LOGIN_LEN.1)
            .collect(),
        Entry::Password => chars
            .filter(|c| !c.is_control())
            .take(PASSWORD_LEN.1)
            .collect(),
        Entry::Answer => chars.filter(char::is_ascii_digit).take(3).collect(),
        Entry::None => field.to_owned(),
    }
}

/// The friends page asks again every few seconds: who is online changes.
fn refresh(mut commands: Commands, pages: Res<Pages>, time: Res<Time>, mut since: Local<f32>) {
    if pages.page != Page::Friends {
        *since = 0.0;
        return;
    }
    *since += time.delta_secs();
    if *since > REFRESH_S {
        *since = 0.0;
        say(&mut commands, ClientMessage::Relations);
    }
}

/// A game of a profile, watched: once it is on the board, into the review.
fn open_review(
    mut commands: Commands,
    mut online: ResMut<Online>,
    on_board: Res<super::table::OnBoard>,
    game: Res<crate::game::state::Game>,
) {
    let Some(code) = online.review_next.clone() else {
        return;
    };
    if on_board.code.as_deref() == Some(code.as_str()) && !game.history.entries().is_empty() {
        online.review_next = None;
        commands.trigger(crate::game::state::OpenReview);
    }
}

/// A field's text: a caret while typing, dots for a password.
fn field_text(value: &str, editing: bool, secret: bool, empty: &str) -> String {
    let shown = if secret {
        "•".repeat(value.chars().count())
    } else {
        value.to_owned()
    };
    match (shown.is_empty(), editing) {
        (_, true) => format!("{shown}|"),
        (true, false) => empty.to_owned(),
        (false, false) => shown,
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
    }
}

#[allow(clippy::too_many_arguments)]
fn build(
    mut commands: Commands,
    art: Res<Art>,
    prefs: Res<Prefs>,
    online: Res<Online>,
    pages: Res<Pages>,
    form: Res<Form>,
    mut images: ResMut<Assets<Image>>,
    mut qr_of: Local<Option<(String, Handle<Image>)>>,
    mut graph_of: Local<Option<(Vec<f64>, Handle<Image>)>>,
    roots: Query<Entity, With<PagesRoot>>,
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    let lang = prefs.lang();
    let who_plays = asking_who_plays(&online, &prefs);
    if pages.page == Page::None && !who_plays {
        return;
    }
    let mut qr = |text: &str, images: &mut Assets<Image>| {
        // Drawn once per text, not at every rebuild.
        if qr_of.as_ref().is_none_or(|(t, _)| t != text) {
            *qr_of = qr::image(text).map(|image| (text.to_owned(), images.add(image)));
        }
        qr_of.as_ref().map(|(_, h)| h.clone())
    };
    let root = commands
        .spawn((
            PagesRoot,
            DespawnOnExit(Screen::Online),
            ui::backdrop(0.55),
            GlobalZIndex(12),
        ))
        .id();
    let people = &online.people;
    if who_plays {
        commands.entity(root).with_children(|b| {
            b.spawn(panel(520.0)).with_children(|p| {
                p.spawn(ui::title(&art, lang.tr("people.who"), 24.0));
                p.spawn(text(&art, lang.tr("people.who.why"), 16.0));
                p.spawn(centred_row()).with_children(|r| {
                    r.spawn(button(
                        &art,
                        PeopleAction::WhoPlays(true),
                        lang.tr("people.who.child"),
                    ));
                    r.spawn(button(
                        &art,
                        PeopleAction::WhoPlays(false),
                        lang.tr("people.who.adult"),
                    ));
                });
            });
        });
        return;
    }
    match pages.page {
        Page::None => {}
        Page::Friends => {
            let code = people
                .profile
                .as_ref()
                .and_then(|p| p.friend_code.clone())
                .unwrap_or_default();
            let friend_link = friend_link(&prefs.0, &code);
            let qr = (!code.is_empty())
                .then(|| qr(&friend_link, &mut images))
                .flatten();
            commands.entity(root).with_children(|b| {
                b.spawn(panel(640.0)).with_children(|p| {
                    friends_page(p, &art, lang, &online, &pages, &form, &code, qr);
                });
            });
        }
        Page::Profile => {
            let profile = match &pages.other {
                Some(id) => people.viewed.as_ref().filter(|p| p.player.id == *id),
                None => people.profile.as_ref(),
            };
            let ratings: Vec<f64> = profile
                .map(|p| p.games.iter().map(|g| g.rating).collect())
                .unwrap_or_default();
            let graph = (!ratings.is_empty()).then(|| {
                if graph_of.as_ref().is_none_or(|(r, _)| *r != ratings) {
                    *graph_of = Some((ratings.clone(), images.add(graph::image(&ratings))));
                }
                graph_of.as_ref().map(|(_, h)| h.clone())
            });
            commands.entity(root).with_children(|b| {
                b.spawn(panel(600.0)).with_children(|p| {
                    profile_page(
                        p,
                        &art,
                        lang,
                        &online,
                        &pages,
                        profile,
                        graph.flatten(),
                        &ratings,
                    );
                });
            });
        }
        Page::Account => {
            let link = people
                .link_code
                .as_ref()
                .map(|(c, _)| link_link(&prefs.0, c));
            let qr = link.as_deref().and_then(|l| qr(l, &mut images));
            commands.entity(root).with_children(|b| {
                b.spawn(panel(640.0)).with_children(|p| {
                    account_page(p, &art, lang, &online, &pages, qr);
                });
            });
        }
    }
}

fn centred_row() -> Node {
    Node {
        justify_content: JustifyContent::Center,
        flex_wrap: FlexWrap::Wrap,
        ..row()
    }
}

fn wrapping_row() -> Node {
    Node {
        flex_wrap: FlexWrap::Wrap,
        ..row()
    }
}

/// The link in a friend code's QR: the game's page, which adds the friend when opened.
fn friend_link(settings: &crate::session::Settings, code: &str) -> String {
    let room = super::room_link(settings, "X");
    format!(
        "{}?friend={code}",
        room.split('?').next().unwrap_or_default()
    )
}

/// The link in a link code's QR: the game's page, which becomes this player when opened.
fn link_link(settings: &crate::session::Settings, code: &str) -> String {
    let room = super::room_link(settings, "X");
    format!("{}?link={code}", room.split('?').next().unwrap_or_default())
}

fn qr_node(p: &mut ChildSpawnerCommands, qr: Handle<Image>, side: f32) {
    p.spawn(Node {
        justify_content: JustifyContent::Center,
        ..default()
    })
    .with_child((
        ImageNode::new(qr),
        Node {
            width: px(side),
            height: px(side),
            ..default()
        },
    ));
}

#[allow(clippy::too_many_arguments)]
fn friends_page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    pages: &Pages,
    form: &Form,
    code: &str,
    qr: Option<Handle<Image>>,
) {
    let people = &online.people;
    p.spawn(ui::title(art, lang.tr("people.friends"), 24.0));
    if let Some(news) = &people.news {
        p.spawn(bold(art, news_words(news, lang), 16.0));
    }
    if let Some(problem) = &online.problem {
        p.spawn(text(
            art,
            lang.trf("online.refused", &[("why", &problem.message)]),
            15.0,
        ));
    }
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, lang.tr("people.your_code"), 16.0));
        r.spawn(bold(art, grouped(code), 22.0));
    });
    if let Some(qr) = qr {
        qr_node(p, qr, 140.0);
    }
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, lang.tr("people.their_code"), 16.0));
        let shown = field_text(
            &grouped(&pages.friend_code),
            pages.entry == Entry::FriendCode,
            false,
            "____-____",
        );
        r.spawn(button(art, PeopleAction::Edit(Entry::FriendCode), shown));
        r.spawn(button(art, PeopleAction::AddFriend, lang.tr("people.add")));
    });
    let preset =
        presets::get(&form.preset).map_or(form.preset.clone(), |p| lang.pick(&p.name).to_owned());
    for c in &people.incoming {
        p.spawn(wrapping_row()).with_children(|r| {
            let game = challenge_words(c, lang);
            r.spawn(bold(
                art,
                lang.trf(
                    "people.challenge.from",
                    &[("who", &c.from.name), ("game", &game)],
                ),
                16.0,
            ));
            r.spawn(button(
                art,
                PeopleAction::AnswerChallenge(c.id.clone(), true),
                lang.tr("people.accept"),
            ));
            r.spawn(button(
                art,
                PeopleAction::AnswerChallenge(c.id.clone(), false),
                lang.tr("people.decline"),
            ));
        });
    }
    let Some(relations) = &people.relations else {
        p.spawn(text(art, lang.tr("online.connecting"), 16.0));
        p.spawn(button(art, PeopleAction::Back, lang.tr("online.back")));
        return;
    };
    for asker in &relations.incoming {
        p.spawn(wrapping_row()).with_children(|r| {
            r.spawn(text(
                art,
                lang.trf("people.request", &[("who", &who(asker))]),
                16.0,
            ));
            r.spawn(button(
                art,
                PeopleAction::AnswerFriend(asker.id.clone(), true),
                lang.tr("people.accept"),
            ));
            r.spawn(button(
                art,
                PeopleAction::AnswerFriend(asker.id.clone(), false),
                lang.tr("people.decline"),
            ));
        });
    }
    if relations.friends.is_empty() {
        p.spawn(text(art, lang.tr("people.none"), 16.0));
    } else {
        p.spawn(text(
            art,
            lang.trf(
                "people.challenge.with",
                &[
                    ("rules", &preset),
                    ("clock", &clock_label(form.clock_spec(), lang)),
                ],
            ),
            14.0,
        ));
    }
    for friend in relations.friends.iter().take(8) {
        p.spawn(wrapping_row()).with_children(|r| {
            let mark = if friend.online { "• " } else { "" };
            let line = format!("{mark}{}", who(&friend.player));
            if friend.online {
                r.spawn(bold(art, line, 17.0));
            } else {
                r.spawn(text(art, line, 17.0));
            }
            let id = friend.player.id.clone();
            let waiting = people.outgoing.iter().any(|c| c.to.id == id);
            if !waiting {
                r.spawn(button(
                    art,
                    PeopleAction::Challenge(id.clone()),
                    lang.tr("people.challenge"),
                ));
            }
            r.spawn(button(
                art,
                PeopleAction::Profile(id),
                lang.tr("people.profile"),
            ));
        });
    }
    for c in &people.outgoing {
        p.spawn(wrapping_row()).with_children(|r| {
            let game = challenge_words(c, lang);
            r.spawn(text(
                art,
                lang.trf(
                    "people.challenge.to",
                    &[("who", &c.to.name), ("game", &game)],
                ),
                15.0,
            ));
            r.spawn(button(
                art,
                PeopleAction::CancelChallenge(c.id.clone()),
                lang.tr("online.cancel"),
            ));
        });
    }
    for asked in &relations.outgoing {
        p.spawn(text(
            art,
            lang.trf("people.asked", &[("who", &asked.name)]),
            15.0,
        ));
    }
    for blocked in &relations.blocked {
        p.spawn(wrapping_row()).with_children(|r| {
            r.spawn(text(
                art,
                lang.trf("people.blocked", &[("who", &blocked.name)]),
                15.0,
            ));
            r.spawn(button(
                art,
                PeopleAction::Unblock(blocked.id.clone()),
                lang.tr("people.unblock"),
            ));
        });
    }
    p.spawn(centred_row()).with_children(|r| {
        r.spawn(button(
            art,
            PeopleAction::Open(Page::Profile),
            lang.tr("people.my_profile"),
        ));
        r.spawn(button(art, PeopleAction::Back, lang.tr("online.back")));
    });
}

/// A challenge's game in words: "Standard · 5+3".
fn challenge_words(c: &crate::net::social::Challenge, lang: Lang) -> String {
    let preset =
        presets::get(&c.preset).map_or(c.preset.clone(), |p| lang.pick(&p.name).to_owned());
    format!("{preset} · {}", clock_label(c.clock, lang))
}

#[allow(clippy::too_many_arguments)]
fn profile_page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    pages: &Pages,
    profile: Option<&crate::net::social::Profile>,
    graph: Option<Handle<Image>>,
    ratings: &[f64],
) {
    let Some(profile) = profile else {
        p.spawn(text(art, lang.tr("online.connecting"), 16.0));
        p.spawn(button(art, PeopleAction::Back, lang.tr("online.back")));
        return;
    };
    let player = &profile.player;
    p.spawn(ui::title(art, player.name.clone(), 26.0));
    if let Some(news) = &online.people.news {
        p.spawn(bold(art, news_words(news, lang), 16.0));
    }
    let games = profile.won + profile.lost + profile.drawn;
    p.spawn(bold(
        art,
        lang.trf(
            "people.rating",
            &[("rating", &rating_label(player.rating, player.deviation))],
        ),
        20.0,
    ));
    if crate::net::social::provisional(player.deviation) {
        p.spawn(text(art, lang.tr("people.provisional"), 14.0));
    }
    p.spawn(text(
        art,
        lang.trf(
            "people.record",
            &[
                ("games", &games),
                ("won", &profile.won),
                ("lost", &profile.lost),
                ("drawn", &profile.drawn),
            ],
        ),
        16.0,
    ));
    match graph {
        Some(graph) => {
            let (lo, hi) = graph::range(ratings);
            p.spawn(row()).with_children(|r| {
                r.spawn(Node {
                    flex_direction: FlexDirection::Column,
                    justify_content: JustifyContent::SpaceBetween,
                    height: px(graph::HEIGHT as f32),
                    ..default()
                })
                .with_children(|c| {
                    c.spawn(text(art, format!("{hi:.0}"), 13.0));
                    c.spawn(text(art, format!("{lo:.0}"), 13.0));
                });
                r.spawn((
                    ImageNode::new(graph),
                    Node {
                        width: px(graph::WIDTH as f32),
                        max_width: percent(85),
                        height: px(graph::HEIGHT as f32),
                        ..default()
                    },
                ));
            });
        }
        None => {
            p.spawn(text(art, lang.tr("online.leaderboard.empty"), 15.0));
        }
    }
    if !profile.games.is_empty() {
        p.spawn(bold(art, lang.tr("people.recent"), 17.0));
    }
    for game in profile.games.iter().rev().take(5) {
        p.spawn(wrapping_row()).with_children(|r| {
            let outcome = lang.tr(match game.outcome {
                crate::net::social::Outcome::Won => "people.won",
                crate::net::social::Outcome::Lost => "people.lost",
                crate::net::social::Outcome::Drawn => "people.drawn",
            });
            let preset = presets::get(&game.preset)
                .map_or(game.preset.clone(), |p| lang.pick(&p.name).to_owned());
            let line = format!(
                "{outcome} · {} · {preset} · {:.0}",
                game.opponents.join(", "),
                game.rating
            );
            r.spawn(text(art, line, 15.0));
            r.spawn(button(
                art,
                PeopleAction::Review(game.code.clone()),
                lang.tr("over.review"),
            ));
        });
    }
    let own = pages.other.is_none();
    p.spawn(centred_row()).with_children(|r| {
        if own {
            r.spawn(button(
                art,
                PeopleAction::Open(Page::Account),
                lang.tr("people.account"),
            ));
            r.spawn(button(
                art,
                PeopleAction::Open(Page::Friends),
                lang.tr("people.friends"),
            ));
        } else {
            let id = player.id.clone();
            if profile.friend {
                r.spawn(button(
                    art,
                    PeopleAction::Challenge(id.clone()),
                    lang.tr("people.challenge"),
                ));
                r.spawn(button(
                    art,
                    PeopleAction::Remove(id.clone()),
                    lang.tr("people.remove"),
                ));
            } else if !online.people.child {
                r.spawn(button(
                    art,
                    PeopleAction::AddOpponent(id.clone()),
                    lang.tr("people.add"),
                ));
            }
            r.spawn(button(
                art,
                PeopleAction::Block(id.clone()),
                lang.tr("people.block"),
            ));
            r.spawn(button(
                art,
                PeopleAction::StartReport,
                lang.tr("people.report"),
            ));
        }
        r.spawn(button(art, PeopleAction::Back, lang.tr("online.back")));
    });
    if pages.reporting && !own {
        p.spawn(text(art, lang.tr("people.report.why"), 15.0));
        p.spawn(centred_row()).with_children(|r| {
            for reason in ReportReason::ALL {
                let key = match reason {
                    ReportReason::OffensiveName => "people.report.name",
                    ReportReason::Cheating => "people.report.cheating",
                    ReportReason::Stalling => "people.report.stalling",
                    ReportReason::Other => "people.report.other",
                };
                r.spawn(button(
                    art,
                    PeopleAction::Report(player.id.clone(), reason),
                    lang.tr(key),
                ));
            }
        });
    }
}

fn account_page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    pages: &Pages,
    qr: Option<Handle<Image>>,
) {
    let people = &online.people;
    p.spawn(ui::title(art, lang.tr("people.account"), 24.0));
    if let Some(problem) = &online.problem {
        p.spawn(text(
            art,
            lang.trf("online.refused", &[("why", &problem.message)]),
            15.0,
        ));
    }
    // Another device becomes this player.
    match &people.link_code {
        Some((code, expires)) => {
            let minutes = ((expires - online.server_now()).max(0) + 59_999) / 60_000;
            p.spawn(text(
                art,
                lang.trf("people.link.shown", &[("n", &minutes)]),
                15.0,
            ));
            p.spawn((
                ui::title(art, grouped(code), 40.0),
                TextLayout::justify(Justify::Center),
            ));
            if let Some(qr) = qr {
                qr_node(p, qr, 160.0);
            }
        }
        None => {
            p.spawn(wrapping_row()).with_children(|r| {
                r.spawn(text(art, lang.tr("people.link.why"), 15.0));
                r.spawn(button(art, PeopleAction::LinkCode, lang.tr("people.link")));
            });
        }
    }
    // This device becomes another's player.
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, lang.tr("people.have_code"), 15.0));
        let shown = field_text(
            &grouped(&pages.code),
            pages.entry == Entry::Code,
            false,
            "____-____",
        );
        r.spawn(button(art, PeopleAction::Edit(Entry::Code), shown));
        r.spawn(button(
            art,
            PeopleAction::UseLink,
            lang.tr("people.use_link"),
        ));
        r.spawn(button(
            art,
            PeopleAction::UseRecovery,
            lang.tr("people.use_recovery"),
        ));
    });
    // A recovery code, shown once, large.
    match &people.recovery_code {
        Some(code) => {
            p.spawn(bold(art, lang.tr("people.recovery.shown"), 15.0));
            p.spawn((
                ui::title(art, grouped(code), 34.0),
                TextLayout::justify(Justify::Center),
            ));
        }
        None => {
            let taken = people.profile.as_ref().is_some_and(|p| p.recovery);
            p.spawn(wrapping_row()).with_children(|r| {
                let why = if taken {
                    "people.recovery.again"
                } else {
                    "people.recovery.why"
                };
                r.spawn(text(art, lang.tr(why), 15.0));
                r.spawn(button(
                    art,
                    PeopleAction::RecoveryCode,
                    lang.tr("people.recovery"),
                ));
            });
        }
    }
    // A sign-in name and password.
    let login = people.profile.as_ref().and_then(|p| p.login.clone());
    p.spawn(text(
        art,
        match &login {
            Some(login) => lang.trf("people.login.set", &[("login", login)]),
            None => lang.tr("people.login.why").to_owned(),
        },
        15.0,
    ));
    p.spawn(wrapping_row()).with_children(|r| {
        let shown = field_text(
            &pages.login,
            pages.entry == Entry::Login,
            false,
            lang.tr("people.login"),
        );
        r.spawn(button(art, PeopleAction::Edit(Entry::Login), shown));
        let shown = field_text(
            &pages.password,
            pages.entry == Entry::Password,
            true,
            lang.tr("people.password"),
        );
        r.spawn(button(art, PeopleAction::Edit(Entry::Password), shown));
        r.spawn(button(
            art,
            PeopleAction::SetLogin,
            lang.tr("people.login.save"),
        ));
        r.spawn(button(art, PeopleAction::SignIn, lang.tr("people.sign_in")));
    });
    // The devices.
    p.spawn(bold(art, lang.tr("people.devices"), 17.0));
    for device in people.devices.iter().take(6) {
        p.spawn(wrapping_row()).with_children(|r| {
            let label = if device.label.is_empty() {
                "?"
            } else {
                device.label.as_str()
            };
            let line = if device.this {
                lang.trf("people.device.this", &[("device", &label)])
            } else {
                label.to_owned()
            };
            r.spawn(text(art, line, 15.0));
            if !device.this {
                r.spawn(button(
                    art,
                    PeopleAction::Revoke(device.id.clone()),
                    lang.tr("people.sign_out"),
                ));
            }
        });
    }
    // Child mode: on at once, off only with the parent's answer.
    match pages.question {
        Some((a, b)) => {
            p.spawn(wrapping_row()).with_children(|r| {
                r.spawn(text(
                    art,
                    lang.trf("people.parent", &[("a", &a), ("b", &b)]),
                    16.0,
                ));
                let shown = field_text(&pages.answer, pages.entry == Entry::Answer, false, "?");
                r.spawn(button(art, PeopleAction::Edit(Entry::Answer), shown));
                r.spawn(button(
                    art,
                    PeopleAction::AnswerParent,
                    lang.tr("people.ok"),
                ));
            });
        }
        None => {
            p.spawn(wrapping_row()).with_children(|r| {
                if people.child {
                    r.spawn(text(art, lang.tr("people.child.on"), 15.0));
                    r.spawn(button(
                        art,
                        PeopleAction::ChildOff,
                        lang.tr("people.child.off_button"),
                    ));
                } else {
                    r.spawn(text(art, lang.tr("people.child.off"), 15.0));
                    r.spawn(button(
                        art,
                        PeopleAction::ChildOn,
                        lang.tr("people.child.on_button"),
                    ));
                }
            });
        }
    }
    p.spawn(centred_row())
        .with_child(button(art, PeopleAction::Back, lang.tr("online.back")));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_take_what_their_codes_allow() {
        assert_eq!(typed_into(Entry::FriendCode, "K7Q2", "-mx3p9"), "K7Q2MX3P");
        assert_eq!(
            typed_into(Entry::FriendCode, "", "0O1I"),
            "",
            "look-alikes are refused"
        );
        assert_eq!(
            typed_into(Entry::Code, "ABCD", " efgh-jkmn-pqrs-tu"),
            "ABCDEFGHJKMNPQRS"
        );
        assert_eq!(typed_into(Entry::Login, "bà", "_an!"), "b_an");
        assert_eq!(typed_into(Entry::Answer, "5", "6x7"), "567");
        assert_eq!(typed_into(Entry::Password, "mật", " khẩu\n"), "mật khẩu");
        assert_eq!(field_text("abc", false, true, ""), "•••");
    }
}
