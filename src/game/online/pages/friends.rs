//! The friends page: our friend code and its QR, adding a friend by code, challenges and
//! requests to answer, the friends (who is online first, in bold, with a dot), challenges
//! waiting for others, blocks.

use bevy::prelude::*;

use super::kit::{centred_row, header, qr_node, wrapping_row};
use super::state::OnlinePage;
use super::{PageAction, news_words, who};
use crate::game::board::art::Art;
use crate::game::online::client::Ask;
use crate::game::online::client::Online;
use crate::game::online::field::{Field, text_field};
use crate::game::online::form::{Form, clock_label};
use crate::game::online::social::People;
use crate::game::theme::widget::{bold, button, text};
use crate::net::protocol::ClientMessage;
use crate::net::social::Relations;
use crate::net::social::grouped;
use crate::rules::presets;
use crate::session::Lang;

/// The page's form: a friend's code typed in.
#[derive(Resource, Debug, Default)]
pub struct FriendsForm {
    pub friend_code: String,
}

pub(super) fn plugin(app: &mut App) {
    super::page_form::<FriendsForm>(app, OnlinePage::Friends);
    app.add_systems(OnEnter(OnlinePage::Friends), |mut commands: Commands| {
        for msg in [
            ClientMessage::Relations,
            ClientMessage::Challenges,
            ClientMessage::Profile { player: None },
        ] {
            commands.trigger(Ask::Say(msg));
        }
    });
}

pub(super) fn page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    (ours, typing): (&FriendsForm, Option<Field>),
    form: &Form,
    (code, qr): (&str, Option<Handle<Image>>),
    narrow: bool,
) {
    let people = &online.people;
    header(p, art, lang, lang.tr("people.friends").to_owned());
    if let Some(news) = &people.news {
        p.spawn(bold(art, news_words(news, lang), 16.0));
    }
    super::kit::problem_line(p, art, lang, online);
    our_code(p, art, lang, (ours, typing), code, qr, narrow);
    challenges_to_us(p, art, lang, people);
    let Some(relations) = &people.relations else {
        p.spawn(text(art, lang.tr("online.connecting"), 16.0));
        return;
    };
    requests(p, art, lang, relations);
    friends(p, art, lang, people, relations, form, narrow);
    ours_waiting(p, art, lang, people, relations);
    blocked(p, art, lang, relations);
    p.spawn(centred_row()).with_child(button(
        art,
        PageAction::Open(OnlinePage::Profile),
        lang.tr("people.my_profile"),
    ));
}

/// Our code beside its QR (a friend's phone scans it), and a friend's code typed in.
fn our_code(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    (ours, typing): (&FriendsForm, Option<Field>),
    code: &str,
    qr: Option<Handle<Image>>,
    narrow: bool,
) {
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(Node {
            flex_direction: FlexDirection::Column,
            row_gap: px(4),
            ..default()
        })
        .with_children(|c| {
            c.spawn(text(art, lang.tr("people.your_code"), 16.0));
            c.spawn(bold(art, grouped(code), 24.0));
        });
        if let Some(qr) = qr {
            qr_node(r, qr, if narrow { 96.0 } else { 120.0 });
        }
    });
    p.spawn(wrapping_row()).with_children(|r| {
        r.spawn(text(art, lang.tr("people.their_code"), 16.0));
        let code = grouped(&ours.friend_code);
        r.spawn(text_field(
            art,
            Field::FriendCode,
            &code,
            typing,
            "____-____",
        ));
        r.spawn(button(art, PageAction::AddFriend, lang.tr("people.add")));
    });
}

/// Challenges to us, with Accept and Decline.
fn challenges_to_us(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, people: &People) {
    for c in &people.incoming {
        p.spawn(wrapping_row()).with_children(|r| {
            let game = challenge_words(c, lang);
            r.spawn(bold(
                art,
                lang.trf(
                    "people.challenge.from",
                    &[("who", &c.from.shown_name()), ("game", &game)],
                ),
                16.0,
            ));
            r.spawn(button(
                art,
                PageAction::AnswerChallenge(c.id.clone(), true),
                lang.tr("people.accept"),
            ));
            r.spawn(button(
                art,
                PageAction::AnswerChallenge(c.id.clone(), false),
                lang.tr("people.decline"),
            ));
        });
    }
}

/// Friend requests to us, with Accept and Decline.
fn requests(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, relations: &Relations) {
    for asker in &relations.incoming {
        p.spawn(wrapping_row()).with_children(|r| {
            r.spawn(text(
                art,
                lang.trf("people.request", &[("who", &who(asker))]),
                16.0,
            ));
            r.spawn(button(
                art,
                PageAction::AnswerFriend(asker.id.clone(), true),
                lang.tr("people.accept"),
            ));
            r.spawn(button(
                art,
                PageAction::AnswerFriend(asker.id.clone(), false),
                lang.tr("people.decline"),
            ));
        });
    }
}

/// Our friends, online first (a phone shows fewer), each with Challenge and Profile.
fn friends(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    people: &People,
    relations: &Relations,
    form: &Form,
    narrow: bool,
) {
    let preset =
        presets::get(&form.preset).map_or(form.preset.clone(), |p| lang.pick(&p.name).to_owned());
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
    let mut friends: Vec<_> = relations.friends.iter().collect();
    friends.sort_by_key(|f| !f.online);
    let shown = if narrow { 4 } else { 8 };
    for friend in friends.iter().take(shown) {
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
                    PageAction::Challenge(id.clone()),
                    lang.tr("people.challenge"),
                ));
            }
            r.spawn(button(
                art,
                PageAction::Profile(id),
                lang.tr("people.profile"),
            ));
        });
    }
    if friends.len() > shown {
        p.spawn(text(
            art,
            lang.trf("people.more", &[("n", &(friends.len() - shown))]),
            15.0,
        ));
    }
}

/// Our challenges and requests waiting for others.
fn ours_waiting(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    people: &People,
    relations: &Relations,
) {
    for c in &people.outgoing {
        p.spawn(wrapping_row()).with_children(|r| {
            let game = challenge_words(c, lang);
            r.spawn(text(
                art,
                lang.trf(
                    "people.challenge.to",
                    &[("who", &c.to.shown_name()), ("game", &game)],
                ),
                15.0,
            ));
            r.spawn(button(
                art,
                PageAction::CancelChallenge(c.id.clone()),
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
}

/// The players we block, with Unblock.
fn blocked(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, relations: &Relations) {
    for blocked in &relations.blocked {
        p.spawn(wrapping_row()).with_children(|r| {
            r.spawn(text(
                art,
                lang.trf("people.blocked", &[("who", &blocked.name)]),
                15.0,
            ));
            r.spawn(button(
                art,
                PageAction::Unblock(blocked.id.clone()),
                lang.tr("people.unblock"),
            ));
        });
    }
}

/// A challenge's game in words: "Standard · 5+3".
pub fn challenge_words(c: &crate::net::social::Challenge, lang: Lang) -> String {
    let preset =
        presets::get(&c.preset).map_or(c.preset.clone(), |p| lang.pick(&p.name).to_owned());
    format!("{preset} · {}", clock_label(c.clock, lang))
}
