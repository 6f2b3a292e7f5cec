//! A code from a link (`?link=CODE`, `?friend=CODE`: the QR codes' links) is used only once the
//! player says yes. The game first asks the server whose code it is, then asks the player "Use
//! An's account on this device?" or "Ask An to be friends?", naming who they are now. A device
//! that becomes another player (by a link, a recovery code or a password) keeps the player it
//! was (`online-previous.txt` beside the token; local storage on the web), and the account page
//! offers to go back to them. The offer and the player before live in `client::Identity`, which
//! answers and goes back; this file holds what they are.

use bevy::prelude::*;

use crate::game::state::Files;
use crate::net::protocol::{PlayerInfo, is_room_code};
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
    /// This tournament's page.
    Tournament(String),
}

/// The player's answer to the offer on screen: yes (use the code) or no (forget it).
#[derive(Event, Clone, Copy, Debug)]
pub struct Answer(pub bool);

/// Become the player this device was before again.
#[derive(Event, Clone, Copy, Debug)]
pub struct GoBack;

/// What the query part of a page's address (`?room=K7Q2MX`, `?friend=…`, `?link=…`,
/// `?tournament=…`) asks, in
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
    let tournament =
        value("tournament=").filter(|c| is_code(c, crate::net::tournament::TOURNAMENT_ID_LEN));
    (room.map(FromAddress::Room).into_iter())
        .chain(friend.map(FromAddress::Friend))
        .chain(link.map(FromAddress::Link))
        .chain(tournament.map(FromAddress::Tournament))
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

    /// The server said whose a code is: this offer names them, if it is this code's.
    pub fn told(&mut self, kind: CodeKind, code: &str, player: PlayerInfo) {
        if self.kind == kind && self.code == code {
            self.owner = Some(player);
        }
    }

    /// The code is our own: there is nothing to do with it.
    pub fn is_ours(&self, me: Option<&PlayerInfo>) -> bool {
        matches!((&self.owner, me), (Some(owner), Some(me)) if owner.id == me.id)
    }
}

impl Previous {
    /// The player we were, kept for the next run too.
    pub fn keep(&self, files: Option<&Files>) {
        if let Some(files) = files
            && let Err(e) = files
                .config
                .write(PREVIOUS, &format!("{}\n{}", self.token, self.name))
        {
            warn!("online: the player before could not be kept ({e})");
        }
    }

    /// We are that player again: nothing to go back to.
    pub fn forget(files: Option<&Files>) {
        if let Some(files) = files
            && let Err(e) = files.config.remove(PREVIOUS)
        {
            warn!("online: the player before could not be forgotten ({e})");
        }
    }

    /// The player this device was before, kept by an earlier run.
    pub fn kept(files: Option<&Files>) -> Option<Previous> {
        let text = files?.config.read(PREVIOUS).ok()??;
        let mut lines = text.lines();
        let token = lines.next()?.trim();
        let name = lines.next().unwrap_or_default().trim();
        (!token.is_empty() && token.len() <= 128).then(|| Previous {
            token: token.to_owned(),
            name: name.chars().take(crate::net::protocol::MAX_NAME).collect(),
        })
    }
}

#[cfg(test)]
pub(super) mod tests {
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
        assert_eq!(
            from_address("?tournament=7kq2mxab"),
            vec![FromAddress::Tournament("7KQ2MXAB".into())]
        );
        assert_eq!(from_address("?tournament=7KQ2MX"), vec![], "too short");
    }

    pub(in crate::game::online) fn player(id: &str) -> PlayerInfo {
        PlayerInfo {
            id: id.into(),
            name: "An".into(),
            rating: 1500.0,
            deviation: 350.0,
            games: 0,
            bot: false,
        }
    }

    #[test]
    fn the_owner_is_told_for_the_code_on_screen_only() {
        let mut offer = Offer::new(CodeKind::Link, "K7Q2MX3P".into());
        offer.told(CodeKind::Friend, "K7Q2MX3P", player("a"));
        offer.told(CodeKind::Link, "AAAAAAAA", player("a"));
        assert_eq!(offer.owner, None);
        offer.told(CodeKind::Link, "K7Q2MX3P", player("a"));
        assert!(offer.is_ours(Some(&player("a"))));
        assert!(!offer.is_ours(Some(&player("b"))));
    }

    #[test]
    fn the_player_before_is_kept_and_read_back() {
        let dir = std::env::temp_dir().join(format!("oaq-previous-{}", std::process::id()));
        let files = Files {
            config: crate::session::Storage::at(&dir),
            data: crate::session::Storage::at(&dir),
        };
        let was = Previous {
            token: "old-token".into(),
            name: "Bình".into(),
        };
        was.keep(Some(&files));
        assert_eq!(Previous::kept(Some(&files)), Some(was));
        Previous::forget(Some(&files));
        assert_eq!(Previous::kept(Some(&files)), None);
        let _ = std::fs::remove_dir_all(dir);
    }
}
