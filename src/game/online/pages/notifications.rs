//! The notifications page: which news we are told of when away (our move, challenges, games
//! ended on time) with a switch each and one for all; this device's notifications (in the
//! browser: asked of the browser, then given to the server); the daily e-mail's address and
//! switch, when the server sends e-mail.

use bevy::prelude::*;

use super::PageAction;
use super::kit::{centred_row, header, wrapping_row};
use super::state::OnlinePage;
use crate::game::board::art::Art;
use crate::game::online::client::Ask;
use crate::game::online::client::{NotifyState, Online};
use crate::game::online::field::{Field, text_field};
use crate::game::online::push::PushDevice;
use crate::game::theme::widget::{bold, button, text};
use crate::net::notify::NotifySettings;
use crate::net::protocol::ClientMessage;
use crate::session::Lang;

/// The page's form: the daily e-mail's address typed in.
#[derive(Resource, Debug, Default)]
pub struct MailForm {
    pub email: String,
}

pub(super) fn plugin(app: &mut App) {
    super::page_form::<MailForm>(app, OnlinePage::Notifications);
    app.add_systems(
        OnEnter(OnlinePage::Notifications),
        |mut commands: Commands| {
            commands.trigger(Ask::Say(ClientMessage::Notifications));
        },
    );
}

use super::NotifyToggle;

fn switch(lang: Lang, on: bool) -> &'static str {
    lang.tr(if on { "switch.on" } else { "switch.off" })
}

pub(super) fn page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    (form, typing): (&MailForm, Option<Field>),
    device: &PushDevice,
) {
    header(p, art, lang, lang.tr("notify.title").to_owned());
    super::kit::problem_line(p, art, lang, online);
    let Some(state) = &online.correspondence.notifications else {
        p.spawn(text(art, lang.tr("online.connecting"), 16.0));
        return;
    };
    let s = &state.settings;
    for (toggle, key, on) in [
        (NotifyToggle::YourTurn, "notify.your_turn", s.your_turn),
        (NotifyToggle::Challenges, "notify.challenges", s.challenges),
        (NotifyToggle::Ended, "notify.ended", s.ended),
    ] {
        p.spawn(wrapping_row()).with_children(|r| {
            r.spawn(text(art, lang.tr(key), 17.0));
            r.spawn(button(art, PageAction::Toggle(toggle), switch(lang, on)));
        });
    }
    devices(p, art, lang, state, device);
    if state.mail {
        mail(p, art, lang, (form, typing), &state.settings);
    }
    p.spawn(centred_row()).with_child(button(
        art,
        PageAction::NotifyAllOff,
        lang.tr("notify.all_off"),
    ));
}

/// The devices notified, and this one's state (or the button that has it notified).
fn devices(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    state: &NotifyState,
    device: &PushDevice,
) {
    p.spawn(text(
        art,
        lang.trf("notify.devices", &[("n", &state.devices)]),
        15.0,
    ));
    match device {
        PushDevice::Unsupported if !cfg!(target_arch = "wasm32") => {
            p.spawn(text(art, lang.tr("notify.desktop"), 15.0));
        }
        PushDevice::Unsupported => {
            p.spawn(text(art, lang.tr("notify.unsupported"), 15.0));
        }
        PushDevice::Subscribed => {
            p.spawn(bold(art, lang.tr("notify.subscribed"), 15.0));
        }
        PushDevice::Failed(why) => {
            p.spawn(text(art, lang.trf("online.refused", &[("why", why)]), 15.0));
        }
        PushDevice::Idle | PushDevice::Asking => {}
    }
    if matches!(device, PushDevice::Idle | PushDevice::Failed(_)) && !state.push_key.is_empty() {
        p.spawn(centred_row()).with_child(button(
            art,
            PageAction::NotifyDevice,
            lang.tr("notify.this_device"),
        ));
    }
}

/// The e-mail address (typed in place), whether it waits for its owner, and the daily e-mail.
fn mail(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    (form, typing): (&MailForm, Option<Field>),
    s: &NotifySettings,
) {
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, lang.tr("notify.email"), 17.0));
        let editing = typing == Some(Field::Email);
        // The address the server has, until another is typed.
        let shown = if editing || !form.email.is_empty() {
            &form.email
        } else {
            &s.email
        };
        let empty = "name@example.org";
        r.spawn(text_field(art, Field::Email, shown, typing, empty));
        if editing {
            r.spawn(button(art, PageAction::SaveEmail, lang.tr("people.ok")));
        }
    });
    // Nothing is sent to an address before its owner follows the link sent to it.
    if !s.email.is_empty() && !s.confirmed {
        p.spawn(text(art, lang.tr("notify.confirm"), 15.0));
    }
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, lang.tr("notify.digest"), 17.0));
        r.spawn(button(
            art,
            PageAction::Toggle(NotifyToggle::Digest),
            switch(lang, s.digest),
        ));
    });
}
