//! The game's side of the social messages: our profile and another's, friends, requests and
//! blocks, challenges both ways, the codes that carry the player to another device, the devices
//! signed in, the chat of the room on the board, and the latest news to show in a line
//! ("Bình wants to be friends").

use crate::net::protocol::{Notice, PlayerInfo};
use crate::net::social::{Challenge, Device, Phrase, Profile, Relations};

/// A chat phrase heard in a room.
#[derive(Clone, Debug, PartialEq)]
pub struct Said {
    pub code: String,
    pub seat: usize,
    pub phrase: Phrase,
    /// When it came, by this device's clock (phrases fade after a few seconds).
    pub at_ms: i64,
}

/// Something that happened to us while we were elsewhere on screen.
#[derive(Clone, Debug, PartialEq)]
pub enum News {
    FriendRequest(String),
    FriendAccepted(String),
    Challenged(String),
    ChallengeClosed,
    Reported,
    /// A correspondence game (its room code) waits for our move.
    YourTurn(String),
    /// An organiser (their name) invites us to a tournament (its name).
    TournamentInvite(String, String),
}

/// Everything social the server has told us.
#[derive(bevy::prelude::Resource, Clone, Debug, Default, PartialEq)]
pub struct People {
    /// Whose all this is (the player last welcomed).
    pub player: Option<String>,
    pub profile: Option<Profile>,
    /// Another player's profile, when one is open.
    pub viewed: Option<Profile>,
    pub relations: Option<Relations>,
    pub incoming: Vec<Challenge>,
    pub outgoing: Vec<Challenge>,
    /// The link code on screen, and when it expires (server time).
    pub link_code: Option<(String, i64)>,
    /// The recovery code, shown once.
    pub recovery_code: Option<String>,
    pub devices: Vec<Device>,
    pub chat: Vec<Said>,
    /// Rooms whose chat we muted.
    pub muted: Vec<String>,
    pub child: bool,
    pub news: Option<News>,
}

/// Phrases kept for the room on the board (the latest last).
const CHAT_KEPT: usize = 6;

impl People {
    /// Take a social notice; whether it was one.
    pub fn take(&mut self, notice: &Notice, now_ms: i64) -> bool {
        match notice {
            Notice::Profile { profile } => {
                if profile.child.is_some() {
                    self.child = profile.child == Some(true);
                    self.profile = Some(profile.clone());
                } else {
                    self.viewed = Some(profile.clone());
                }
            }
            Notice::Relations { relations } => self.relations = Some(relations.clone()),
            Notice::Challenges { incoming, outgoing } => {
                self.incoming = incoming.clone();
                self.outgoing = outgoing.clone();
            }
            Notice::Challenged { challenge } => {
                self.news = Some(News::Challenged(challenge.from.shown_name()));
                self.incoming.retain(|c| c.id != challenge.id);
                self.incoming.insert(0, challenge.clone());
            }
            Notice::ChallengeClosed { id } => {
                self.incoming.retain(|c| c.id != *id);
                if self.outgoing.iter().any(|c| c.id == *id) {
                    self.news = Some(News::ChallengeClosed);
                }
                self.outgoing.retain(|c| c.id != *id);
            }
            Notice::ChallengeAccepted { id, .. } => {
                self.incoming.retain(|c| c.id != *id);
                self.outgoing.retain(|c| c.id != *id);
            }
            Notice::FriendRequest { from } => {
                self.news = Some(News::FriendRequest(from.name.clone()));
                if let Some(r) = &mut self.relations
                    && !r.incoming.iter().any(|p| p.id == from.id)
                {
                    r.incoming.insert(0, from.clone());
                }
            }
            Notice::FriendAccepted { player } => {
                self.news = Some(News::FriendAccepted(player.name.clone()));
                if let Some(r) = &mut self.relations {
                    r.outgoing.retain(|p| p.id != player.id);
                    // A friend now, and online: they have just said yes.
                    if !r.friends.iter().any(|f| f.player.id == player.id) {
                        r.friends.insert(
                            0,
                            crate::net::social::Friend {
                                player: player.clone(),
                                online: true,
                            },
                        );
                    }
                }
            }
            Notice::LinkCode { code, expires_ms } => {
                self.link_code = Some((code.clone(), *expires_ms));
            }
            Notice::RecoveryCode { code } => self.recovery_code = Some(code.clone()),
            Notice::Devices { devices } => self.devices = devices.clone(),
            Notice::Chat { code, seat, phrase } => {
                if !self.muted.contains(code) {
                    self.chat.push(Said {
                        code: code.clone(),
                        seat: *seat,
                        phrase: *phrase,
                        at_ms: now_ms,
                    });
                    if self.chat.len() > CHAT_KEPT {
                        self.chat.remove(0);
                    }
                }
            }
            Notice::Reported { .. } => self.news = Some(News::Reported),
            _ => return false,
        }
        true
    }

    /// We are someone else now (another device's player, after a code or a password): what
    /// was known of the one before goes.
    pub fn signed_in_as(&mut self, player: &PlayerInfo, child: bool) {
        if self.player.as_ref().is_some_and(|id| *id != player.id) {
            *self = People::default();
        }
        self.player = Some(player.id.clone());
        self.child = child;
    }

    /// The friend `id`, if they are one.
    pub fn friend(&self, id: &str) -> Option<&crate::net::social::Friend> {
        self.relations
            .as_ref()?
            .friends
            .iter()
            .find(|f| f.player.id == id)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn player(id: &str, name: &str) -> PlayerInfo {
        PlayerInfo {
            id: id.into(),
            name: name.into(),
            rating: 1500.0,
            deviation: 350.0,
            games: 0,
            bot: false,
        }
    }

    #[test]
    fn muted_rooms_are_not_heard_and_the_chat_keeps_the_last_few() {
        let mut people = People::default();
        let chat = |code: &str| Notice::Chat {
            code: code.into(),
            seat: 1,
            phrase: Phrase::Wow,
        };
        people.muted.push("MUTEDX".into());
        assert!(people.take(&chat("MUTEDX"), 0));
        assert!(people.chat.is_empty());
        for i in 0..10 {
            people.take(&chat("ROOMAB"), i);
        }
        assert_eq!(people.chat.len(), CHAT_KEPT);
        assert_eq!(people.chat.last().unwrap().at_ms, 9);
    }

    #[test]
    fn requests_and_challenges_are_news_and_lists() {
        let mut people = People {
            relations: Some(Relations::default()),
            ..People::default()
        };
        let from = player("b", "Bình");
        people.take(&Notice::FriendRequest { from: from.clone() }, 0);
        assert_eq!(people.news, Some(News::FriendRequest("Bình".into())));
        assert_eq!(people.relations.as_ref().unwrap().incoming.len(), 1);
        people.take(
            &Notice::FriendAccepted {
                player: player("c", "Cúc"),
            },
            0,
        );
        assert_eq!(people.friend("c").map(|f| f.online), Some(true));
        assert!(!people.take(&Notice::Created { code: "X".into() }, 0));
        people.signed_in_as(&player("a", "An"), false);
        assert_eq!(
            people.relations.as_ref().unwrap().incoming.len(),
            1,
            "the same player"
        );
        people.signed_in_as(&from, true);
        assert!(people.child);
        assert!(people.relations.is_none(), "another player's lists go");
    }
}
