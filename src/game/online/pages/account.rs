//! The account page: a link code (and its QR) for another device, a code typed here, a
//! recovery code shown once, a sign-in name and password, the devices signed in, and child
//! mode behind a parent's question.

use bevy::prelude::*;

use super::PageAction;
use super::kit::{header, qr_node, wrapping_row};
use super::state::OnlinePage;
use crate::game::board::art::Art;
use crate::game::online::client::Ask;
use crate::game::online::client::Online;
use crate::game::online::field::{Field, text_field};
use crate::game::theme::widget::{self, bold, button, text};
use crate::net::protocol::ClientMessage;
use crate::net::social::grouped;
use crate::session::Lang;

/// The page's form: codes and the sign-in typed in, and the parent's question.
#[derive(Resource, Debug, Default)]
pub struct AccountForm {
    /// A link or recovery code typed in.
    pub code: String,
    pub login: String,
    pub password: String,
    /// The current password or recovery code, for a change to the account.
    pub current: String,
    /// The parent's question (two factors), and the answer typed.
    pub question: Option<(u8, u8)>,
    pub answer: String,
}

pub(super) fn plugin(app: &mut App) {
    super::page_form::<AccountForm>(app, OnlinePage::Account);
    app.add_systems(OnEnter(OnlinePage::Account), |mut commands: Commands| {
        commands.trigger(Ask::Say(ClientMessage::Profile { player: None }));
        commands.trigger(Ask::Say(ClientMessage::Devices));
    });
}

pub(super) fn page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    (form, typing): (&AccountForm, Option<Field>),
    qr: Option<Handle<Image>>,
    narrow: bool,
) {
    header(p, art, lang, lang.tr("people.account").to_owned());
    super::kit::problem_line(p, art, lang, online);
    previous_player(p, art, lang, online);
    link_here(p, art, lang, online, qr, narrow);
    become_another(p, art, lang, (form, typing));
    current_secret(p, art, lang, online, (form, typing));
    recovery(p, art, lang, online);
    sign_in(p, art, lang, online, (form, typing));
    devices(p, art, lang, online);
    child_mode(p, art, lang, online, (form, typing));
}

/// This device was another player before (a link, a code, a password): back to them.
fn previous_player(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, online: &Online) {
    if let Some(previous) = &online.identity.previous {
        p.spawn(wrapping_row()).with_children(|r| {
            let who = &previous.name;
            r.spawn(text(
                art,
                lang.trf("people.previous", &[("who", who)]),
                15.0,
            ));
            r.spawn(button(
                art,
                PageAction::GoBack,
                lang.trf("people.go_back", &[("who", who)]),
            ));
        });
    }
}

/// Another device becomes this player.
fn link_here(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    qr: Option<Handle<Image>>,
    narrow: bool,
) {
    let people = &online.people;
    match &people.link_code {
        Some((code, expires)) => {
            let minutes = ((expires - online.connection.server_now()).max(0) + 59_999) / 60_000;
            p.spawn(text(
                art,
                lang.trf("people.link.shown", &[("n", &minutes)]),
                15.0,
            ));
            p.spawn((
                widget::title(art, grouped(code), 40.0),
                TextLayout::justify(Justify::Center),
            ));
            if let Some(qr) = qr {
                qr_node(p, qr, if narrow { 120.0 } else { 160.0 });
            }
        }
        None => {
            p.spawn(wrapping_row()).with_children(|r| {
                r.spawn(text(art, lang.tr("people.link.why"), 15.0));
                r.spawn(button(art, PageAction::LinkCode, lang.tr("people.link")));
            });
        }
    }
}

/// This device becomes another's player.
fn become_another(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    (form, typing): (&AccountForm, Option<Field>),
) {
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, lang.tr("people.have_code"), 15.0));
        let code = grouped(&form.code);
        r.spawn(text_field(
            art,
            Field::AccountCode,
            &code,
            typing,
            "____-____",
        ));
        r.spawn(button(art, PageAction::UseLink, lang.tr("people.use_link")));
        r.spawn(button(
            art,
            PageAction::UseRecovery,
            lang.tr("people.use_recovery"),
        ));
    });
}

/// A change to an account that has a password or a recovery code needs one of them.
fn current_secret(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    (form, typing): (&AccountForm, Option<Field>),
) {
    let people = &online.people;
    let guarded = people
        .profile
        .as_ref()
        .is_some_and(|p| p.login.is_some() || p.recovery);
    if guarded {
        p.spawn(wrapping_row()).with_children(|r| {
            r.spawn(text(art, lang.tr("people.current.why"), 15.0));
            let empty = lang.tr("people.current");
            r.spawn(text_field(
                art,
                Field::Current,
                &form.current,
                typing,
                empty,
            ));
        });
    }
}

/// A recovery code, shown once, large.
fn recovery(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, online: &Online) {
    let people = &online.people;
    match &people.recovery_code {
        Some(code) => {
            p.spawn(bold(art, lang.tr("people.recovery.shown"), 15.0));
            p.spawn((
                widget::title(art, grouped(code), 34.0),
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
                    PageAction::RecoveryCode,
                    lang.tr("people.recovery"),
                ));
            });
        }
    }
}

/// A sign-in name and password.
fn sign_in(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    (form, typing): (&AccountForm, Option<Field>),
) {
    let people = &online.people;
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
        let empty = lang.tr("people.login");
        r.spawn(text_field(art, Field::Login, &form.login, typing, empty));
        let empty = lang.tr("people.password");
        r.spawn(text_field(
            art,
            Field::Password,
            &form.password,
            typing,
            empty,
        ));
        r.spawn(button(
            art,
            PageAction::SetLogin,
            lang.tr("people.login.save"),
        ));
        r.spawn(button(art, PageAction::SignIn, lang.tr("people.sign_in")));
    });
}

/// The devices.
fn devices(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, online: &Online) {
    let people = &online.people;
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
                    PageAction::Revoke(device.id.clone()),
                    lang.tr("people.sign_out"),
                ));
            }
        });
    }
}

/// Child mode: on at once, off only with the parent's answer.
fn child_mode(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    (form, typing): (&AccountForm, Option<Field>),
) {
    let people = &online.people;
    match form.question {
        Some((a, b)) => {
            p.spawn(wrapping_row()).with_children(|r| {
                r.spawn(text(
                    art,
                    lang.trf("people.parent", &[("a", &a), ("b", &b)]),
                    16.0,
                ));
                r.spawn(text_field(art, Field::Answer, &form.answer, typing, "?"));
                r.spawn(button(art, PageAction::AnswerParent, lang.tr("people.ok")));
            });
        }
        None => {
            p.spawn(wrapping_row()).with_children(|r| {
                if people.child {
                    r.spawn(text(art, lang.tr("people.child.on"), 15.0));
                    // Asked off without a password: it ends after a day, on every device.
                    let ending = people.profile.as_ref().and_then(|p| p.child_off_ms);
                    if ending.is_some() {
                        r.spawn(text(art, lang.tr("people.child.ending"), 15.0));
                    }
                    r.spawn(button(
                        art,
                        PageAction::ChildOff,
                        lang.tr("people.child.off_button"),
                    ));
                } else {
                    r.spawn(text(art, lang.tr("people.child.off"), 15.0));
                    r.spawn(button(
                        art,
                        PageAction::ChildOn,
                        lang.tr("people.child.on_button"),
                    ));
                }
            });
        }
    }
}
