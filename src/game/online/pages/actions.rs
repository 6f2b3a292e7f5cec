//! The pages' actions (`PageAction`, `TourAction`) carried out, on a press, on Enter in a
//! field, on Esc, or from elsewhere (`Press`), against the open page's form (`Paged`).

use bevy::ecs::system::SystemParam;
use bevy::prelude::*;

use super::action::{NotifyToggle, PageAction, PlayComputer, Press, TourAction};
use super::forms::PageFormsMut;
use super::nav::{Nav, say};
use super::new_tournament::Draft;
use super::state::OnlinePage;
use super::tournaments::TournamentsForm;
use super::{AccountForm, ProfileForm, TournamentForm};
use super::{tournament, tournaments};
use crate::game::online::client::{Ask, OnlineWrite};
use crate::game::online::field::{Entered, Field};
use crate::game::online::form::Form;
use crate::game::online::link::Link;
use crate::game::state::Prefs;
use crate::game::theme::press::Activate;
use crate::net::protocol::{ClientMessage, RulesChoice};
use crate::net::social::{
    FRIEND_CODE_LEN, LOGIN_LEN, PASSWORD_LEN, RECOVERY_CODE_LEN, normalize_code,
};

pub(super) fn plugin(app: &mut App) {
    app.add_observer(
        |press: On<Press>, mut commands: Commands, mut paged: Paged| {
            paged.carry_out(press.event().0.clone(), &mut commands);
        },
    );
    app.add_observer(submit_entered);
    app.add_observer(press);
}

/// What the pages' actions change.
#[derive(SystemParam)]
pub(super) struct Paged<'w> {
    nav: Nav<'w>,
    forms: PageFormsMut<'w>,
    prefs: ResMut<'w, Prefs>,
    online: OnlineWrite<'w>,
    link: ResMut<'w, Link>,
    form: Res<'w, Form>,
}

/// A button of the pages pressed: its action carried out.
fn press(
    activate: On<Activate>,
    actions: Query<&PageAction>,
    mut commands: Commands,
    mut paged: Paged,
) {
    if let Ok(action) = actions.get(activate.entity) {
        paged.carry_out(action.clone(), &mut commands);
    }
}

/// Esc declines an offer to follow, else leaves the field typed in, else goes back.
pub(super) fn escape(mut commands: Commands, keys: Res<ButtonInput<KeyCode>>, mut paged: Paged) {
    if !keys.just_pressed(KeyCode::Escape) {
        return;
    }
    if paged.online.identity.offer.is_some() {
        paged.carry_out(PageAction::Follow(false), &mut commands);
    } else if paged.nav.page().covers_the_lobby() {
        paged.carry_out(PageAction::Back, &mut commands);
    }
}

/// Enter in a field sends what the field is for; in the others it only leaves the field.
fn submit_entered(entered: On<Entered>, mut commands: Commands, mut paged: Paged) {
    let action = match entered.event().0 {
        Field::FriendCode => PageAction::AddFriend,
        Field::Answer => PageAction::AnswerParent,
        Field::Email => PageAction::SaveEmail,
        Field::TournamentCode => PageAction::Tour(TourAction::Find),
        Field::TournamentPassword if paged.nav.page() == OnlinePage::Tournament => {
            PageAction::Tour(TourAction::Join)
        }
        _ => return,
    };
    paged.carry_out(action, &mut commands);
}

impl Paged<'_> {
    pub(super) fn carry_out(&mut self, action: PageAction, commands: &mut Commands) {
        self.online.people.news = None;
        use PageAction as A;
        match action {
            A::Open(_) | A::Back | A::Profile(_) => self.navigate(action, commands),
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
            | A::AddOpponent(_) => self.friendly(action, commands),
            A::Pool(_)
            | A::LeavePool
            | A::PlayBot(_)
            | A::PlayComputer(_)
            | A::OpenGame(_)
            | A::Vacation(_) => self.playing(action, commands),
            A::Toggle(_) | A::NotifyAllOff | A::SaveEmail | A::NotifyDevice => {
                self.notified(action, commands)
            }
            A::Tour(action) => self.tour(action, commands),
            A::LinkCode
            | A::UseLink
            | A::UseRecovery
            | A::RecoveryCode
            | A::SetLogin
            | A::SignIn => self.account(action, commands),
            _ => self.device(action, commands),
        }
    }

    /// Open `page`, asking for a profile when it is one.
    fn open(&mut self, commands: &mut Commands, page: OnlinePage) {
        match page {
            OnlinePage::Profile => self.open_profile(commands, None),
            _ => self.nav.open(page),
        }
    }

    /// Our profile, or another player's.
    fn open_profile(&mut self, commands: &mut Commands, other: Option<String>) {
        say(
            commands,
            ClientMessage::Profile {
                player: other.clone(),
            },
        );
        let form = ProfileForm {
            other,
            reporting: false,
        };
        self.nav.open_with(commands, OnlinePage::Profile, form);
    }

    /// Where the pages go: open one, back (out of a field or a question first).
    fn navigate(&mut self, action: PageAction, commands: &mut Commands) {
        let page = self.nav.page();
        let other = self
            .forms
            .profile
            .as_ref()
            .is_some_and(|f| f.other.is_some());
        let question = self
            .forms
            .account
            .as_ref()
            .is_some_and(|f| f.question.is_some());
        match action {
            PageAction::Open(page) => self.open(commands, page),
            PageAction::Back if self.nav.typing() => self.nav.leave_field(),
            PageAction::Back if question => {
                if let Some(account) = self.forms.account.as_mut() {
                    account.question = None;
                }
            }
            PageAction::Back => match page {
                OnlinePage::Account => self.open(commands, OnlinePage::Profile),
                OnlinePage::Profile if other => self.nav.open(OnlinePage::Friends),
                OnlinePage::Notifications => self.nav.open(OnlinePage::Games),
                OnlinePage::NewTournament | OnlinePage::Tournament => {
                    self.nav.open(OnlinePage::Tournaments)
                }
                _ => self.nav.open(OnlinePage::Home),
            },
            PageAction::Profile(player) => self.open_profile(commands, Some(player)),
            _ => {}
        }
    }

    /// Friends, blocks, challenges and reports.
    fn friendly(&mut self, action: PageAction, commands: &mut Commands) {
        match action {
            PageAction::AddFriend => {
                let Some(friends) = self.forms.friends.as_mut() else {
                    return;
                };
                let code = normalize_code(&friends.friend_code);
                if code.len() == FRIEND_CODE_LEN {
                    say(commands, ClientMessage::AddFriend { code });
                    friends.friend_code.clear();
                    self.nav.leave_field();
                } else {
                    self.nav.focus(Field::FriendCode);
                }
            }
            PageAction::AnswerFriend(player, accept) => {
                say(commands, ClientMessage::AnswerFriend { player, accept })
            }
            PageAction::Remove(player) => say(commands, ClientMessage::RemoveFriend { player }),
            PageAction::Block(player) => {
                say(commands, ClientMessage::Block { player });
                if self
                    .forms
                    .profile
                    .as_ref()
                    .is_some_and(|f| f.other.is_some())
                {
                    self.nav.open(OnlinePage::Friends);
                }
            }
            PageAction::Unblock(player) => say(commands, ClientMessage::Unblock { player }),
            PageAction::Challenge(player) => {
                let (rules, clock) = self.form.proposed();
                say(
                    commands,
                    ClientMessage::Challenge {
                        player,
                        rules,
                        clock,
                    },
                );
            }
            PageAction::AnswerChallenge(id, accept) => {
                say(commands, ClientMessage::AnswerChallenge { id, accept })
            }
            PageAction::CancelChallenge(id) => say(commands, ClientMessage::CancelChallenge { id }),
            PageAction::Review(code) => commands.trigger(Ask::Review(code)),
            PageAction::StartReport => {
                if let Some(profile) = self.forms.profile.as_mut() {
                    profile.reporting = !profile.reporting;
                }
            }
            PageAction::Report(player, reason) => {
                if let Some(profile) = self.forms.profile.as_mut() {
                    profile.reporting = false;
                }
                say(
                    commands,
                    ClientMessage::Report {
                        player,
                        reason,
                        room: None,
                    },
                );
            }
            PageAction::AddOpponent(player) => say(commands, ClientMessage::AddOpponent { player }),
            _ => {}
        }
    }

    /// The account: codes and sign-in.
    fn account(&mut self, action: PageAction, commands: &mut Commands) {
        let Some(account) = self.forms.account.as_mut() else {
            return;
        };
        let field = match action {
            PageAction::LinkCode => {
                say(commands, ClientMessage::LinkCode);
                return;
            }
            PageAction::UseLink | PageAction::UseRecovery => use_code(&action, commands, account),
            PageAction::RecoveryCode => {
                let current = take_current(account);
                say(commands, ClientMessage::RecoveryCode { current });
                return;
            }
            PageAction::SetLogin | PageAction::SignIn => sign_in(&action, commands, account),
            _ => return,
        };
        match field {
            Some(field) => self.nav.focus(field),
            None => self.nav.leave_field(),
        }
    }

    /// This device: its devices, child mode, who plays, a link's question, the player before.
    fn device(&mut self, action: PageAction, commands: &mut Commands) {
        match action {
            PageAction::Revoke(id) => say(commands, ClientMessage::RevokeDevice { id }),
            PageAction::ChildOn => {
                self.prefs.child = Some(true);
                say(
                    commands,
                    ClientMessage::SetChild {
                        child: true,
                        current: None,
                    },
                );
            }
            PageAction::ChildOff => {
                if let Some(account) = self.forms.account.as_mut() {
                    ask_parent(account);
                    self.nav.focus(Field::Answer);
                }
            }
            PageAction::AnswerParent => {
                if let Some(account) = self.forms.account.as_mut() {
                    answer_parent(commands, account, &mut self.prefs);
                    self.nav.leave_field();
                }
            }
            PageAction::WhoPlays(child) => {
                self.prefs.child = Some(child);
                let url = crate::game::online::server_url(&self.prefs);
                self.link.start(&url);
            }
            PageAction::Follow(yes) => {
                let friend = self
                    .online
                    .identity
                    .offer
                    .as_ref()
                    .is_some_and(|o| o.kind == crate::net::social::CodeKind::Friend);
                commands.trigger(crate::game::online::follow::Answer(yes));
                // The request shows among the friends page's outgoing ones.
                if yes && friend {
                    self.nav.open(OnlinePage::Friends);
                }
            }
            PageAction::GoBack => {
                commands.trigger(crate::game::online::follow::GoBack);
                self.nav.open(OnlinePage::Home);
            }
            _ => {}
        }
    }

    /// Play now, the computer, games by days and the vacation.
    fn playing(&mut self, action: PageAction, commands: &mut Commands) {
        let form = &self.form;
        match action {
            PageAction::Pool(i) => {
                if let Some(&clock) = crate::net::pool::POOLS.get(i) {
                    let rules = super::play_now::pool_rules(form).to_owned();
                    say(commands, ClientMessage::Pool { rules, clock });
                    // From the home's tiles: the page shows the wait.
                    self.nav.show(OnlinePage::PlayNow);
                }
            }
            PageAction::LeavePool => say(commands, ClientMessage::LeavePool),
            PageAction::PlayBot(i) => {
                if let Some(&clock) = crate::net::pool::POOLS.get(i) {
                    let rules = RulesChoice::Preset(super::play_now::pool_rules(form).to_owned());
                    say(commands, ClientMessage::PlayBot { rules, clock });
                }
            }
            PageAction::PlayComputer(level) => {
                // Out of the pool, and an unrated game on this device against the computer.
                say(commands, ClientMessage::LeavePool);
                let rules = super::play_now::pool_rules(form).to_owned();
                self.nav.open(OnlinePage::Home);
                commands.trigger(PlayComputer { level, rules });
            }
            PageAction::OpenGame(code) => {
                self.nav.open(OnlinePage::Home);
                commands.trigger(Ask::Join(code));
            }
            PageAction::Vacation(days) => say(commands, ClientMessage::Vacation { days }),
            _ => {}
        }
    }

    /// Notifications and the daily e-mail.
    fn notified(&mut self, action: PageAction, commands: &mut Commands) {
        let Some(n) = &self.online.correspondence.notifications else {
            return;
        };
        let lang = self.prefs.lang();
        match action {
            PageAction::Toggle(which) => {
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
                    self.nav.focus(Field::Email);
                    return;
                }
                settings.lang = lang;
                say(commands, ClientMessage::SetNotifications { settings });
            }
            PageAction::NotifyAllOff => {
                let settings = n.settings.clone().all_off();
                say(commands, ClientMessage::SetNotifications { settings });
            }
            PageAction::SaveEmail => {
                let email = self
                    .forms
                    .mail
                    .as_ref()
                    .map_or(String::new(), |m| m.email.trim().to_owned());
                let settings = crate::net::notify::NotifySettings {
                    digest: n.settings.digest || !email.is_empty(),
                    email,
                    lang,
                    ..n.settings.clone()
                };
                self.nav.leave_field();
                say(commands, ClientMessage::SetNotifications { settings });
            }
            PageAction::NotifyDevice => {
                commands.trigger(crate::game::online::push::Subscribe(n.push_key.clone()));
            }
            _ => {}
        }
    }

    /// A tournament page's button.
    fn tour(&mut self, action: TourAction, commands: &mut Commands) {
        let page = TourPages {
            nav: &mut self.nav,
            list: self.forms.tournaments.as_deref_mut(),
            draft: self.forms.draft.as_deref_mut(),
            open: self.forms.tournament.as_deref_mut(),
            form: &self.form,
            online: &mut self.online,
            prefs: &self.prefs,
        };
        page.act(action, commands);
    }
}

/// A link code or a recovery code typed: sent when it has its length, else its field opens
/// (the field to focus; `None`: the field is left).
fn use_code(
    action: &PageAction,
    commands: &mut Commands,
    account: &mut AccountForm,
) -> Option<Field> {
    let code = normalize_code(&account.code);
    let recovery = *action == PageAction::UseRecovery;
    let wanted = if recovery {
        RECOVERY_CODE_LEN
    } else {
        crate::net::social::LINK_CODE_LEN
    };
    if code.len() != wanted {
        return Some(Field::AccountCode);
    }
    account.code.clear();
    say(
        commands,
        if recovery {
            ClientMessage::Recover { code }
        } else {
            ClientMessage::Link { code }
        },
    );
    None
}

/// A sign-in name and password, set or signed in with: sent when both are long enough, else
/// the short one's field opens.
fn sign_in(
    action: &PageAction,
    commands: &mut Commands,
    account: &mut AccountForm,
) -> Option<Field> {
    let (login, password) = (account.login.trim().to_owned(), account.password.clone());
    if login.chars().count() < LOGIN_LEN.0 {
        return Some(Field::Login);
    }
    if password.len() < PASSWORD_LEN.0 {
        return Some(Field::Password);
    }
    // The password leaves the screen's memory once sent.
    account.password.clear();
    say(
        commands,
        if *action == PageAction::SetLogin {
            let current = take_current(account);
            ClientMessage::SetLogin {
                login,
                password,
                current,
            }
        } else {
            ClientMessage::SignIn { login, password }
        },
    );
    None
}

/// Child mode off asks a grown-up a multiplication first.
fn ask_parent(account: &mut AccountForm) {
    // Two factors from the clock's nanoseconds: a question a child cannot learn by heart, with
    // no randomness crate in the game for it.
    let n = crate::game::online::client::unix_ms().unsigned_abs();
    account.question = Some((6 + (n % 4) as u8, 7 + ((n / 4) % 3) as u8));
    account.answer.clear();
}

/// The grown-up's answer: right, and child mode goes off.
fn answer_parent(commands: &mut Commands, account: &mut AccountForm, prefs: &mut Prefs) {
    let right = account
        .question
        .is_some_and(|(a, b)| account.answer.trim() == (u16::from(a) * u16::from(b)).to_string());
    account.answer.clear();
    if right {
        account.question = None;
        prefs.child = Some(false);
        let current = take_current(account);
        say(
            commands,
            ClientMessage::SetChild {
                child: false,
                current,
            },
        );
    }
}

/// The current password or recovery code typed in, if any: it leaves the screen's memory once
/// sent.
fn take_current(account: &mut AccountForm) -> Option<String> {
    let current = std::mem::take(&mut account.current);
    (!current.is_empty()).then_some(current)
}

/// What a tournament page's button changes: the pages, the list's code, the draft, the open
/// tournament's form (each there while its page is open).
pub(super) struct TourPages<'a, 'w> {
    pub nav: &'a mut Nav<'w>,
    pub list: Option<&'a mut TournamentsForm>,
    pub draft: Option<&'a mut Draft>,
    pub open: Option<&'a mut TournamentForm>,
    pub form: &'a Form,
    pub online: &'a mut OnlineWrite<'w>,
    pub prefs: &'a crate::game::state::Prefs,
}

impl TourPages<'_, '_> {
    /// A tournament page's button.
    pub(super) fn act(self, action: TourAction, commands: &mut Commands) {
        match action {
            TourAction::Open(id) => tournament::open(commands, self.nav, self.online, id),
            TourAction::Find => {
                if let Some(list) = self.list {
                    tournaments::find(commands, self.nav, self.online, list);
                }
            }
            TourAction::Kind(_)
            | TourAction::Length(_)
            | TourAction::Interval(_)
            | TourAction::Start(_)
            | TourAction::Public
            | TourAction::Rated
            | TourAction::Chat
            | TourAction::Bots
            | TourAction::Create => {
                if let Some(draft) = self.draft {
                    let child = self.online.people.child;
                    if let Some(msg) = draft.act(action, child) {
                        self.nav.leave_field();
                        let me = self
                            .online
                            .identity
                            .me
                            .as_ref()
                            .map_or("", |p| p.name.as_str());
                        let now = self.online.connection.server_now();
                        let msg = msg.message(self.form, me, now, self.prefs.lang());
                        // Its page opens once the server has made it.
                        self.online.tournaments.expect_created = true;
                        say(commands, msg);
                    }
                }
            }
            _ => {
                if let Some(open) = self.open {
                    tournament::opened(
                        action,
                        commands,
                        self.nav,
                        open,
                        &self.online.view(),
                        self.prefs,
                    );
                }
            }
        }
    }
}
