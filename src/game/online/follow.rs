//! A code from a link (`?link=CODE`, `?friend=CODE`: the QR codes' links) is used only once the
//! player says yes. The game first asks the server whose code it is, then asks the player "Use
//! An's account on this device?" or "Ask An to be friends?", naming who they are now. A device
//! that becomes another player (by a link, a recovery code or a password) keeps the player it
//! was (`online-previous.txt` beside the token; local storage on the web), and the account page
//! offers to go back to them.

use bevy::prelude::*;

use super::client::{self, Online};
use super::link::Link;
use crate::game::state::Files;
use crate::net::protocol::{ClientMessage, PlayerInfo, is_room_code};
use crate::net::social::{CodeKind, FRIEND_CODE_LEN, LINK_CODE_LEN, is_code, normalize_code};

/// Where the player this device was before is kept: the token, then the name, a line each.
const PREVIOUS: &str = "online-previous.txt";

/// A code from a link, waiting for the player's answer.
#[derive(Clone, Debug, PartialEq)]
pub struct Offer {
    pub kind: CodeKind,
    pub code: String,
    /// Whose it is, once the server has said.
    pub owner: Option<PlayerInfo>,
}

/// The player this device was before it became another.
#[derive(Clone, Debug, PartialEq)]
pub struct Previous {
    pub token: String,
    pub name: String,
}

/// What a page's address asks of online play.
#[derive(Clone, Debug, PartialEq)]
pub enum FromAddress {
    /// Into this room.
    Room(String),
    /// Ask whose this friend code is, then the player.
    Friend(String),
    /// Ask whose this link code is, then the player.
    Link(String),
}

/// The player's answer to the offer on screen: yes (use the code) or no (forget it).
#[derive(Event, Clone, Copy, Debug)]
pub struct Answer(pub bool);

/// Become the player this device was before again.
#[derive(Event, Clone, Copy, Debug)]
pub struct GoBack;

pub(super) fn plugin(app: &mut App) {
    app.add_observer(answer).add_observer(go_back);
}

/// What the query part of a page's address (`?room=K7Q2MX`, `?friend=…`, `?link=…`) asks, in
/// that order; anything that is not a code of its kind is left out.
pub fn from_address(search: &str) -> Vec<FromAddress> {
    let value = |key: &str| {
        search
            .trim_start_matches('?')
            .split('&')
            .find_map(|pair| pair.strip_prefix(key))
            .map(normalize_code)
    };
    let room = value("room=").filter(|c| is_room_code(c));
    let friend = value("friend=").filter(|c| is_code(c, FRIEND_CODE_LEN));
    let link = value("link=").filter(|c| is_code(c, LINK_CODE_LEN));
    (room.map(FromAddress::Room).into_iter())
        .chain(friend.map(FromAddress::Friend))
        .chain(link.map(FromAddress::Link))
        .collect()
}

impl Offer {
    /// The offer of `code`, waiting for the server to say whose it is.
    pub fn new(kind: CodeKind, code: String) -> Offer {
        Offer {
            kind,
            code,
            owner: None,
        }
    }

    /// The code is our own: there is nothing to do with it.
    pub fn is_ours(&self, me: Option<&PlayerInfo>) -> bool {
        matches!((&self.owner, me), (Some(owner), Some(me)) if owner.id == me.id)
    }
}

/// The server said whose a code is: the offer on screen, if it is this code's, names them.
pub fn owner_told(online: &mut Online, kind: CodeKind, code: &str, player: PlayerInfo) {
    if let Some(offer) = online.offer.as_mut()
        && offer.kind == kind
        && offer.code == code
    {
        offer.owner = Some(player);
    }
}

/// The player answered the offer: yes uses the code (a friend request, or this device becomes
/// the code's player, keeping who it was), no forgets it.
fn answer(answer: On<Answer>, mut online: ResMut<Online>, mut link: ResMut<Link>) {
    let Some(offer) = online.offer.take() else {
        return;
    };
    if !answer.event().0 || offer.owner.is_none() || offer.is_ours(online.me.as_ref()) {
        return;
    }
    let code = offer.code;
    let msg = match offer.kind {
        CodeKind::Friend => ClientMessage::AddFriend { code },
        CodeKind::Link => ClientMessage::Link { code },
    };
    online.say(&mut link, msg);
}

/// We became another player on a live connection: the one we were is kept, to go back to.
pub fn switched(online: &mut Online, files: Option<&Files>, now: &PlayerInfo) {
    let (Some(was), Some(token)) = (online.me.as_ref(), online.token()) else {
        return;
    };
    if was.id == now.id {
        return;
    }
    let previous = Previous {
        token: token.to_owned(),
        name: was.name.clone(),
    };
    if let Some(files) = files
        && let Err(e) = files
            .config
            .write(PREVIOUS, &format!("{}\n{}", previous.token, previous.name))
    {
        warn!("online: the player before could not be kept ({e})");
    }
    online.previous = Some(previous);
}

/// Back to the player this device was: their token, and a new connection with it.
fn go_back(
    _: On<GoBack>,
    mut online: ResMut<Online>,
    mut link: ResMut<Link>,
    files: Option<Res<Files>>,
) {
    let Some(previous) = online.previous.take() else {
        return;
    };
    if let Some(files) = files.as_deref()
        && let Err(e) = files.config.remove(PREVIOUS)
    {
        warn!("online: the player before could not be forgotten ({e})");
    }
    client::keep_token(files.as_deref(), &previous.token);
    online.set_token(previous.token);
    // Not welcomed until the server says who we are: that welcome is not a switch to keep.
    online.me = None;
    online.room = None;
    link.retry_now();
}

/// The player this device was before, kept by an earlier run.
pub fn kept_previous(files: Option<&Files>) -> Option<Previous> {
    let text = files?.config.read(PREVIOUS).ok()??;
    let mut lines = text.lines();
    let token = lines.next()?.trim();
    let name = lines.next().unwrap_or_default().trim();
    (!token.is_empty() && token.len() <= 128).then(|| Previous {
        token: token.to_owned(),
        name: name.chars().take(crate::net::protocol::MAX_NAME).collect(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_asks_for_codes_of_their_kind_only() {
        assert_eq!(
            from_address("?room=k7q2mx&friend=nr7y-k55v&link=K7Q2MX3P"),
            vec![
                FromAddress::Room("K7Q2MX".into()),
                FromAddress::Friend("NR7YK55V".into()),
                FromAddress::Link("K7Q2MX3P".into()),
            ]
        );
        assert_eq!(from_address("?link=K7Q2"), vec![], "too short");
        assert_eq!(
            from_address("?friend=K7Q2MX3O"),
            vec![],
            "O is not a code's"
        );
        assert_eq!(from_address(""), vec![]);
    }

    fn player(id: &str) -> PlayerInfo {
        PlayerInfo {
            id: id.into(),
            name: "An".into(),
            rating: 1500.0,
            deviation: 350.0,
            games: 0,
        }
    }

    #[test]
    fn the_owner_is_told_for_the_code_on_screen_only() {
        let mut online = Online::default();
        online.offer = Some(Offer::new(CodeKind::Link, "K7Q2MX3P".into()));
        owner_told(&mut online, CodeKind::Friend, "K7Q2MX3P", player("a"));
        owner_told(&mut online, CodeKind::Link, "AAAAAAAA", player("a"));
        assert_eq!(online.offer.as_ref().unwrap().owner, None);
        owner_told(&mut online, CodeKind::Link, "K7Q2MX3P", player("a"));
        let offer = online.offer.as_ref().unwrap();
        assert!(offer.is_ours(Some(&player("a"))));
        assert!(!offer.is_ours(Some(&player("b"))));
    }

    #[test]
    fn a_switch_keeps_who_we_were_and_a_welcome_back_does_not() {
        let mut online = Online::with_token(Some("old-token".into()));
        online.me = Some(player("a"));
        switched(&mut online, None, &player("a"));
        assert_eq!(online.previous, None, "the same player");
        switched(&mut online, None, &player("b"));
        assert_eq!(
            online.previous,
            Some(Previous {
                token: "old-token".into(),
                name: "An".into()
            })
        );
    }
}
