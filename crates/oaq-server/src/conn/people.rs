//! A connection's social messages: profiles, friends (by friend code, or an opponent from a
//! game's end), blocks, challenges and reports. What another player may see or do stops at a
//! block either way, and a player in child mode makes friends only by code.

use oaq_net::protocol::{ClientMessage, ClockSpec, ErrorCode, Notice, RulesChoice, ServerMessage};
use oaq_net::social::{
    CodeKind, FRIEND_CODE_LEN, Friend, Profile, Relations, ReportReason, is_code, normalize_code,
};

use super::Conn;
use super::account::{Refused, refused};
use crate::identity;
use crate::mailbox::ConnRef;
use crate::settings::now_ms;
use crate::store::{Asked, Report, StoreError};

/// Rated games a profile lists (and its graph draws).
const PROFILE_GAMES: usize = 200;

use crate::challenges::no_player;

/// A room that could not be opened, as the player hears it.
impl Conn {
    /// Account and social messages, from a connection signed in as `me`.
    pub(super) async fn people(&mut self, me: ConnRef, msg: ClientMessage) {
        let result = match msg {
            ClientMessage::LinkCode => self.link_code(&me).await,
            ClientMessage::Link { code } => self.link(&code).await,
            ClientMessage::RecoveryCode { current } => {
                self.recovery_code(&me, current.as_deref()).await
            }
            ClientMessage::Recover { code } => self.recover(&code).await,
            ClientMessage::SetLogin {
                login,
                password,
                current,
            } => {
                self.set_login(&me, &login, &password, current.as_deref())
                    .await
            }
            ClientMessage::SignIn { login, password } => self.sign_in(&login, &password).await,
            ClientMessage::Devices => self.devices(&me).await,
            ClientMessage::RevokeDevice { id } => self.revoke_device(&me, &id).await,
            ClientMessage::SetChild { child, current } => {
                self.set_child(&me, child, current.as_deref()).await
            }
            ClientMessage::Profile { player } => self.profile(&me, player.as_deref()).await,
            ClientMessage::Relations => self.relations(&me).await,
            ClientMessage::AddFriend { code } => self.add_friend(&me, &code).await,
            ClientMessage::WhoseCode { kind, code } => self.whose_code(&me, kind, &code).await,
            ClientMessage::AddOpponent { player } => self.add_opponent(&me, &player).await,
            ClientMessage::AnswerFriend { player, accept } => {
                self.answer_friend(&me, &player, accept).await
            }
            ClientMessage::RemoveFriend { player } => {
                match self.server.store.unfriend(&me.player.id, &player).await {
                    Ok(true) => self.relations(&me).await,
                    Ok(false) => Err(no_player()),
                    Err(e) => Err(e.into()),
                }
            }
            ClientMessage::Block { player } => self.block(&me, &player).await,
            ClientMessage::Unblock { player } => {
                match self.server.store.unblock(&me.player.id, &player).await {
                    Ok(true) => self.relations(&me).await,
                    Ok(false) => Err(no_player()),
                    Err(e) => Err(e.into()),
                }
            }
            ClientMessage::Challenge {
                player,
                rules,
                clock,
            } => self.challenge(&me, &player, &rules, clock).await,
            ClientMessage::Challenges => self.challenges(&me).await,
            ClientMessage::AnswerChallenge { id, accept } => {
                self.answer_challenge(&me, &id, accept).await
            }
            ClientMessage::CancelChallenge { id } => self.cancel_challenge(&me, &id).await,
            ClientMessage::Report {
                player,
                reason,
                room,
            } => self.report(&me, &player, reason, room).await,
            _ => Err(refused(
                ErrorCode::NotAllowed,
                "not a message for this moment",
            )),
        };
        if let Err(refusal) = result {
            self.refused(refusal);
        }
    }

    /// The player's friend code, made the first time it is asked for.
    async fn friend_code(&self, player: &str) -> Result<String, Refused> {
        let store = &self.server.store;
        for _ in 0..5 {
            if let Some(code) = store.private(player).await?.friend_code {
                return Ok(code);
            }
            match store
                .put_friend_code(player, &identity::new_code(FRIEND_CODE_LEN))
                .await
            {
                Ok(()) | Err(StoreError::Conflict) => {}
                Err(e) => return Err(e.into()),
            }
        }
        Err(refused(ErrorCode::Unavailable, "no friend code: try again"))
    }

    pub(super) async fn profile(
        &mut self,
        me: &ConnRef,
        player: Option<&str>,
    ) -> Result<(), Refused> {
        let profile = self.profile_of(me, player).await?;
        self.send(&ServerMessage::Notice(Notice::Profile { profile }));
        Ok(())
    }

    /// The player's own profile, to every connection of theirs (on every node).
    pub(super) async fn tell_own_profile(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let profile = self.profile_of(me, None).await?;
        let notice = ServerMessage::Notice(Notice::Profile { profile });
        self.server.tell(&me.player.id, &notice).await;
        Ok(())
    }

    /// `player`'s profile as `me` may see it (one's own: with its private parts).
    async fn profile_of(&self, me: &ConnRef, player: Option<&str>) -> Result<Profile, Refused> {
        let store = &self.server.store;
        let id = player.unwrap_or(&me.player.id);
        let own = id == me.player.id;
        if !own && store.blocked_between(&me.player.id, id).await? {
            return Err(no_player());
        }
        // A child is nobody to a stranger (the policy's view): no page at all.
        if !crate::policy::may_see(&self.server, &me.player.id, id).await? {
            return Err(no_player());
        }
        let Some(row) = store.player(id).await? else {
            return Err(no_player());
        };
        let (won, lost, drawn) = store.record(id).await?;
        let games = store.rated_games(id, PROFILE_GAMES).await?;
        let mut profile = Profile {
            player: row.info,
            won,
            lost,
            drawn,
            games,
            friend_code: None,
            child: None,
            login: None,
            recovery: false,
            friend: !own && store.are_friends(&me.player.id, id).await?,
            child_off_ms: None,
        };
        if own {
            let code = self.friend_code(id).await?;
            let child = store.is_child(id, now_ms()).await?;
            let private = store.private(id).await?;
            profile.friend_code = Some(code);
            profile.child = Some(child);
            profile.login = private.login;
            profile.recovery = private.recovery;
            profile.child_off_ms = store.child_off_ms(id).await?.filter(|_| child);
        }
        Ok(profile)
    }

    async fn relations(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let (friends, incoming, outgoing, blocked) =
            self.server.store.relations(&me.player.id).await?;
        let ids: Vec<String> = friends.iter().map(|f| f.id.clone()).collect();
        let online = self.server.online(&ids).await;
        let friends = friends
            .into_iter()
            .zip(online)
            .map(|(player, online)| Friend { player, online })
            .collect();
        let relations = Relations {
            friends,
            incoming,
            outgoing,
            blocked,
        };
        self.send(&ServerMessage::Notice(Notice::Relations { relations }));
        Ok(())
    }

    /// Ask `other` to be friends (they exist and neither blocks the other), and tell them.
    async fn ask(&mut self, me: &ConnRef, other: &str) -> Result<(), Refused> {
        let store = &self.server.store;
        if other == me.player.id {
            return Err(refused(
                ErrorCode::NotAllowed,
                "that is your own code: give it to a friend",
            ));
        }
        let cap = self.server.settings.friends_per_player;
        if store.requests_of(&me.player.id).await? >= cap {
            return Err(refused(
                ErrorCode::NotAllowed,
                format!("{cap} friend requests are waiting for answers: wait for some"),
            ));
        }
        let asked = store.ask_friend(&me.player.id, other, now_ms()).await?;
        match asked {
            Asked::Asked => {
                let from = me.player.clone();
                self.server
                    .tell(
                        other,
                        &ServerMessage::Notice(Notice::FriendRequest { from }),
                    )
                    .await;
            }
            Asked::Friends => {
                let player = me.player.clone();
                self.server
                    .tell(
                        other,
                        &ServerMessage::Notice(Notice::FriendAccepted { player }),
                    )
                    .await;
            }
            Asked::AlreadyAsked | Asked::AlreadyFriends => {}
        }
        self.relations(me).await
    }

    async fn add_friend(&mut self, me: &ConnRef, code: &str) -> Result<(), Refused> {
        let other = self.friend_code_owner(me, code).await?;
        self.ask(me, &other).await
    }

    /// The player with friend code `code`, for `me`: a code that does not exist and a player
    /// who blocks us read the same, and count against the address as a miss (taken before the
    /// look-up, so that many sent at once cannot all pass; given back when found).
    async fn friend_code_owner(&self, me: &ConnRef, code: &str) -> Result<String, Refused> {
        let code = normalize_code(code);
        let ip = self.addr.ip();
        if !self.server.misses.take(ip) {
            return Err(refused(
                ErrorCode::RateLimited,
                "too many codes that do not exist: wait a minute",
            ));
        }
        let store = &self.server.store;
        let found = match is_code(&code, FRIEND_CODE_LEN) {
            true => store.player_by_friend_code(&code).await,
            false => Ok(None),
        };
        let blocked = match &found {
            Ok(Some(other)) => store.blocked_between(&me.player.id, other).await,
            _ => Ok(false),
        };
        match (found, blocked) {
            (Ok(Some(other)), Ok(false)) => {
                self.server.misses.give_back(ip);
                Ok(other)
            }
            (Err(e), _) | (_, Err(e)) => {
                self.server.misses.give_back(ip);
                Err(e.into())
            }
            _ => Err(refused(
                ErrorCode::NoSuchPlayer,
                format!(
                    "no player has the friend code {}",
                    oaq_rules::excerpt::quoted(&code)
                ),
            )),
        }
    }

    /// Whose a link or friend code is, by name, before the player uses it: the game asks first.
    /// Wrong codes count as wrong `link`s and `add_friend`s do.
    async fn whose_code(
        &mut self,
        me: &ConnRef,
        kind: CodeKind,
        code: &str,
    ) -> Result<(), Refused> {
        let owner = match kind {
            CodeKind::Friend => self.friend_code_owner(me, code).await?,
            CodeKind::Link => self.link_code_owner(code).await?,
        };
        let Some(row) = self.server.store.player(&owner).await? else {
            return Err(no_player());
        };
        let code = normalize_code(code);
        let player = row.info;
        self.send(&ServerMessage::Notice(Notice::CodeOwner {
            kind,
            code,
            player,
        }));
        Ok(())
    }

    async fn add_opponent(&mut self, me: &ConnRef, player: &str) -> Result<(), Refused> {
        let store = &self.server.store;
        let now = now_ms();
        if store.is_child(&me.player.id, now).await? || store.is_child(player, now).await? {
            return Err(refused(
                ErrorCode::NotAllowed,
                "child mode: friends only by their friend code",
            ));
        }
        if !store.played_together(&me.player.id, player).await?
            || store.blocked_between(&me.player.id, player).await?
        {
            return Err(no_player());
        }
        self.ask(me, player).await
    }

    async fn answer_friend(
        &mut self,
        me: &ConnRef,
        other: &str,
        accept: bool,
    ) -> Result<(), Refused> {
        let answered = self
            .server
            .store
            .answer_friend(&me.player.id, other, accept, now_ms())
            .await?;
        if !answered {
            return Err(refused(
                ErrorCode::NoSuchPlayer,
                "that player has not asked to be your friend",
            ));
        }
        if accept {
            let player = me.player.clone();
            self.server
                .tell(
                    other,
                    &ServerMessage::Notice(Notice::FriendAccepted { player }),
                )
                .await;
        }
        self.relations(me).await
    }

    async fn block(&mut self, me: &ConnRef, other: &str) -> Result<(), Refused> {
        let store = &self.server.store;
        if other == me.player.id {
            return Err(refused(ErrorCode::NotAllowed, "you cannot block yourself"));
        }
        if store.player(other).await?.is_none() {
            return Err(no_player());
        }
        let cap = self.server.settings.blocks_per_player;
        if !store
            .block_capped(&me.player.id, other, cap, now_ms())
            .await?
        {
            return Err(refused(
                ErrorCode::NotAllowed,
                format!("you block {cap} players, the most: unblock one first"),
            ));
        }
        self.relations(me).await
    }

    pub(super) async fn challenges(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let store = &self.server.store;
        let now = now_ms();
        let incoming = store.challenges(&me.player.id, true, now).await?;
        let outgoing = store.challenges(&me.player.id, false, now).await?;
        self.send(&ServerMessage::Notice(Notice::Challenges {
            incoming,
            outgoing,
        }));
        Ok(())
    }

    async fn challenge(
        &mut self,
        me: &ConnRef,
        player: &str,
        rules: &RulesChoice,
        clock: ClockSpec,
    ) -> Result<(), Refused> {
        crate::challenges::send(&self.server, &me.player, player, rules, clock).await?;
        self.challenges(me).await
    }

    async fn answer_challenge(
        &mut self,
        me: &ConnRef,
        id: &str,
        accept: bool,
    ) -> Result<(), Refused> {
        if crate::challenges::answer(&self.server, &me.player, id, accept)
            .await?
            .is_none()
        {
            return self.challenges(me).await;
        }
        Ok(())
    }

    async fn cancel_challenge(&mut self, me: &ConnRef, id: &str) -> Result<(), Refused> {
        crate::challenges::cancel(&self.server, &me.player, id).await?;
        self.challenges(me).await
    }

    async fn report(
        &mut self,
        me: &ConnRef,
        player: &str,
        reason: ReportReason,
        room: Option<String>,
    ) -> Result<(), Refused> {
        if player == me.player.id {
            return Err(refused(ErrorCode::NotAllowed, "you cannot report yourself"));
        }
        let store = &self.server.store;
        if store.player(player).await?.is_none()
            || !crate::policy::may_see(&self.server, &me.player.id, player).await?
        {
            return Err(no_player());
        }
        let now = now_ms();
        let (today, already) = store
            .reports_by(&me.player.id, player, now - 24 * 60 * 60 * 1000)
            .await?;
        if already {
            return Err(refused(
                ErrorCode::NotAllowed,
                "you reported this player today already; the operators will look",
            ));
        }
        let cap = self.server.settings.reports_per_day;
        if today >= cap {
            return Err(refused(
                ErrorCode::RateLimited,
                format!("{cap} reports a day at most"),
            ));
        }
        let room = room
            .map(|r| r.trim().to_ascii_uppercase())
            .filter(|r| oaq_net::protocol::is_room_code(r));
        store
            .add_report(&Report {
                id: identity::new_id(),
                reporter: me.player.id.clone(),
                player: player.to_owned(),
                name: String::new(),
                reason: reason.as_str().to_owned(),
                room,
                at_ms: now,
            })
            .await?;
        self.send(&ServerMessage::Notice(Notice::Reported {
            player: player.to_owned(),
        }));
        Ok(())
    }
}
