//! The question a link's code asks before it is used: "Use An's account on this device?" (and
//! who this device is now, who stays theirs) or "Ask An to be friends?", with yes and no; while
//! the server looks the code up, a line that says so.

use bevy::prelude::*;

use super::PageAction;
use super::kit::centred_row;
use crate::game::board::art::Art;
use crate::game::online::client::Online;
use crate::game::online::follow::Offer;
use crate::game::theme::widget::{self, button, text};
use crate::net::social::{CodeKind, rating_label};
use crate::session::Lang;

pub(super) fn page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    offer: &Offer,
) {
    let me = online.identity.me.as_ref().map_or_else(
        || lang.tr("online.default_name").to_owned(),
        |m| m.name.clone(),
    );
    let Some(owner) = &offer.owner else {
        p.spawn(widget::title(art, lang.tr("people.offer.looking"), 22.0));
        p.spawn(centred_row()).with_child(button(
            art,
            PageAction::Follow(false),
            lang.tr("people.offer.no"),
        ));
        return;
    };
    if offer.is_ours(online.identity.me.as_ref()) {
        p.spawn(widget::title(
            art,
            lang.trf("people.offer.ours", &[("who", &me)]),
            22.0,
        ));
        p.spawn(centred_row()).with_child(button(
            art,
            PageAction::Follow(false),
            lang.tr("people.ok"),
        ));
        return;
    }
    let who = format!(
        "{} · {}",
        owner.name,
        rating_label(owner.rating, owner.deviation)
    );
    let (title, why, yes, no) = match offer.kind {
        CodeKind::Link => (
            lang.trf("people.offer.link", &[("who", &owner.name)]),
            lang.trf(
                "people.offer.link.why",
                &[("who", &owner.name), ("me", &me)],
            ),
            lang.trf("people.offer.link.yes", &[("who", &owner.name)]),
            lang.trf("people.offer.stay", &[("me", &me)]),
        ),
        CodeKind::Friend => (
            lang.trf("people.offer.friend", &[("who", &owner.name)]),
            lang.tr("people.offer.friend.why").to_owned(),
            lang.tr("people.offer.friend.yes").to_owned(),
            lang.tr("people.offer.no").to_owned(),
        ),
    };
    p.spawn(widget::title(art, title, 22.0));
    p.spawn(text(art, who, 17.0));
    p.spawn(text(art, why, 15.0));
    p.spawn(centred_row()).with_children(|r| {
        r.spawn(button(art, PageAction::Follow(true), yes));
        r.spawn(button(art, PageAction::Follow(false), no));
    });
}
