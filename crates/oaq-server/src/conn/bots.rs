//! A connection's bot messages: a player turning into a bot (its API token shown once), a
//! bot's new or revoked token, the bots online with their leaderboard, and "play a bot": a
//! challenge to the online bot nearest the player's rating. The API itself is [`crate::api`].

use oaq_net::protocol::{ClientMessage, ClockSpec, ErrorCode, Notice, RulesChoice, ServerMessage};

use super::Conn;
use super::account::{Refused, refused};
use crate::mailbox::ConnRef;
use crate::settings::now_ms;

/// The bots a player is offered from (nearest their rating), and listed to them.
const BOTS_LISTED: i64 = 50;

impl Conn {
    pub(super) async fn bots(&mut self, me: &ConnRef, msg: ClientMessage) -> Result<(), Refused> {
        match msg {
            ClientMessage::BecomeBot => self.become_bot(me).await,
            ClientMessage::BotToken { revoke } => self.bot_token(me, revoke).await,
            ClientMessage::Bots => self.list_bots(me).await,
            ClientMessage::PlayBot { rules, clock } => self.play_bot(me, &rules, clock).await,
            _ => Err(refused(
                ErrorCode::NotAllowed,
                "not a message for this moment",
            )),
        }
    }

    async fn become_bot(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let token = crate::identity::new_bot_token();
        let hash = crate::identity::hash_token(&token);
        let store = &self.server.store;
        if let Err(why) = store.become_bot(&me.player.id, &hash, now_ms()).await? {
            return Err(refused(ErrorCode::NotAllowed, why.message()));
        }
        if let Some(me) = self.me.as_mut() {
            me.player.bot = true;
        }
        self.left_people(me).await?;
        self.send(&ServerMessage::Notice(Notice::BotToken {
            token: Some(token),
        }));
        Ok(())
    }

    /// A player who just became a bot leaves whatever put them among people: the pool, the
    /// seats of their rooms still waiting (the lobby lists them no more), and tournaments for
    /// people. The policy would seat them with nobody there anyway; this tells them so at once.
    async fn left_people(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let server = self.server.clone();
        crate::waves::leave(&server, &me.player.id, None).await;
        for code in server.store.rooms_of(&me.player.id, "waiting").await? {
            if let Some(room) = crate::room::registry::find(&server, &code).await? {
                let expel = crate::mailbox::Command::Expel {
                    player: me.player.id.clone(),
                };
                let _ = room.tx.send(expel).await;
            }
        }
        crate::tournaments::withdraw_bot(&server, &me.player.id).await?;
        Ok(())
    }

    /// A new token, or none: either way the old one stops at once and the streams it opened
    /// close, on every node.
    async fn bot_token(&mut self, me: &ConnRef, revoke: bool) -> Result<(), Refused> {
        let token = self.server.replace_bot_token(&me.player.id, revoke).await?;
        self.send(&ServerMessage::Notice(Notice::BotToken { token }));
        Ok(())
    }

    /// Bots near `rating` whose program is connected now.
    async fn online_bots(
        &self,
        rating: f64,
    ) -> Result<Vec<oaq_net::protocol::PlayerInfo>, Refused> {
        let near = self.server.store.bots_near(rating, BOTS_LISTED).await?;
        let ids: Vec<String> = near.iter().map(|b| b.id.clone()).collect();
        let online = self.server.online(&ids).await;
        Ok(near
            .into_iter()
            .zip(online)
            .filter_map(|(bot, here)| here.then_some(bot))
            .collect())
    }

    async fn list_bots(&mut self, me: &ConnRef) -> Result<(), Refused> {
        let online = self.online_bots(me.player.rating).await?;
        let leaderboard = self.server.store.leaderboard(50, true).await?;
        self.send(&ServerMessage::Notice(Notice::Bots {
            online,
            leaderboard,
        }));
        Ok(())
    }

    /// Challenge the online bot nearest this player's rating (its program accepts or
    /// declines, as its owner set it); answered by `challenges`.
    async fn play_bot(
        &mut self,
        me: &ConnRef,
        rules: &RulesChoice,
        clock: ClockSpec,
    ) -> Result<(), Refused> {
        if self.is_child(me).await? {
            return Err(refused(
                ErrorCode::NotAllowed,
                "child mode: bots are strangers' programs; play the computer on this device",
            ));
        }
        let rating = match self.server.store.player(&me.player.id).await? {
            Some(row) => row.info.rating,
            None => me.player.rating,
        };
        let bot = self
            .online_bots(rating)
            .await?
            .into_iter()
            .find(|b| b.id != me.player.id)
            .ok_or_else(|| refused(ErrorCode::NoSuchPlayer, "no bot is online now: try later"))?;
        crate::challenges::send(&self.server, &me.player, &bot.id, rules, clock).await?;
        self.challenges(me).await
    }
}
