//! What the player asks of the server: remembered where a reconnection needs it, and sent.

use bevy::prelude::*;

use super::state::{OnlineWrite, Room};
use crate::game::online::follow::{Answer, Offer};
use crate::game::online::link::Link;
use crate::net::protocol::{ClientMessage, ClockSpec, First, RulesChoice};
use crate::rules::{RuleSet, presets};

/// Something the player asked of the server, from a button or a test.
#[derive(Event, Debug, Clone, PartialEq)]
pub enum Ask {
    /// Open a room and sit in it.
    Create {
        preset: String,
        /// The winning-score switch: a majority of the points wins at once.
        majority: bool,
        clock: ClockSpec,
        first: First,
        public: bool,
    },
    Join(String),
    Watch(String),
    /// Give up the seat of a room not started, or step away from a game (the seat stays held).
    Leave,
    Resign,
    OfferDraw,
    AcceptDraw,
    Rematch,
    Claim,
    /// The top players and our place.
    Leaderboard,
    /// An account or social message, sent as it is (once welcomed).
    Say(ClientMessage),
    /// A finished game of a profile: watched, then opened in the review.
    Review(String),
    /// A code from a link: ask whose it is, and show the offer until the player answers.
    Offer(crate::net::social::CodeKind, String),
}

/// A player's request: remembered as the room we are in (so that a reconnection takes it back)
/// and sent.
pub(super) fn ask(ask: On<Ask>, mut online: OnlineWrite, mut link: ResMut<Link>) {
    if online.connection.problem.is_some() {
        online.connection.problem = None;
    }
    let msg = match ask.event().clone() {
        Ask::Create {
            preset,
            majority,
            clock,
            first,
            public,
        } => {
            online.in_room.room = None;
            let rules = match presets::get(&preset) {
                Some(p) if majority => RulesChoice::Custom(RuleSet {
                    win_at: Some(p.rules.majority()),
                    ..p.rules
                }),
                _ => RulesChoice::Preset(preset),
            };
            ClientMessage::Create {
                rules,
                clock,
                first,
                public,
            }
        }
        Ask::Join(code) => {
            online.in_room.room = Some(Room::new(code.clone(), false));
            ClientMessage::Join { code, since: None }
        }
        Ask::Watch(code) => {
            online.in_room.room = Some(Room::new(code.clone(), true));
            ClientMessage::Watch { code, since: None }
        }
        Ask::Leave => {
            online.in_room.room = None;
            ClientMessage::Leave
        }
        Ask::Resign => ClientMessage::Resign,
        Ask::OfferDraw => ClientMessage::OfferDraw,
        Ask::AcceptDraw => ClientMessage::AcceptDraw,
        Ask::Rematch => ClientMessage::Rematch,
        Ask::Claim => ClientMessage::Claim,
        Ask::Leaderboard => ClientMessage::Leaderboard,
        Ask::Say(msg) => msg,
        Ask::Offer(kind, code) => {
            online.identity.offer = Some(Offer::new(kind, code.clone()));
            ClientMessage::WhoseCode { kind, code }
        }
        Ask::Review(code) => {
            online.in_room.review_next = Some(code.clone());
            let room = Room::new(code, true);
            let msg = room.enter();
            online.in_room.room = Some(room);
            msg
        }
    };
    // Sent, or kept until the welcome: nothing the screens show (what an ask changes that
    // they show, above, is news for them).
    online.say(&mut link, msg);
}

/// The player answered a link's offer: yes uses the code (a friend request, or this device
/// becomes the code's player, keeping who it was), no forgets it.
pub(super) fn answer_offer(answer: On<Answer>, mut online: OnlineWrite, mut link: ResMut<Link>) {
    let Some(offer) = online.identity.offer.take() else {
        return;
    };
    if !answer.event().0 || offer.owner.is_none() || offer.is_ours(online.identity.me.as_ref()) {
        return;
    }
    let code = offer.code;
    let msg = match offer.kind {
        crate::net::social::CodeKind::Friend => ClientMessage::AddFriend { code },
        crate::net::social::CodeKind::Link => ClientMessage::Link { code },
    };
    online.say(&mut link, msg);
}
