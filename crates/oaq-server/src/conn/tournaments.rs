//! A connection's tournament messages: organise one, list them, look at one, join, leave, take
//! a break, and start it (its organiser). A tournament's id is its code: every message naming
//! one is a guess ([`tournaments::guessed`]), counted before the look-up.

use oaq_net::protocol::{ClientMessage, ErrorCode, Notice, ServerMessage};

use super::Conn;
use super::account::{Refused, refused};
use crate::mailbox::ConnRef;
use crate::tournaments::{self, NewTournament};

impl From<tournaments::Refused> for Refused {
    fn from(e: tournaments::Refused) -> Self {
        match e {
            tournaments::Refused::To(code, why) => refused(code, why),
            tournaments::Refused::Store(e) => Refused::Store(e),
            tournaments::Refused::WrongPassword => refused(
                ErrorCode::NotAllowed,
                "that is not the tournament's password",
            ),
        }
    }
}

impl Conn {
    /// A tournament message from `me`.
    pub(super) async fn tournament(
        &mut self,
        me: &ConnRef,
        msg: ClientMessage,
    ) -> Result<(), Refused> {
        let server = self.server.clone();
        let (row, run) = match msg {
            ClientMessage::CreateTournament {
                name,
                rules,
                clock,
                format,
                public,
                starts_ms,
                start_when,
                password,
                unrated,
                no_chat,
                bots,
            } => {
                // Organising counts against the address as opening a room does.
                if let Err((code, why)) = self.may_open_room() {
                    return Err(refused(code, why));
                }
                let child = self.is_child(me).await?;
                let new = NewTournament {
                    name,
                    rules,
                    clock,
                    format,
                    public,
                    starts_ms,
                    start_when,
                    password,
                    unrated,
                    no_chat,
                    bots,
                };
                let created = tournaments::create(&server, &me.player, child, new).await;
                let id = created.inspect_err(|_| server.room_opens.give_back(self.addr.ip()))?;
                return self.show_tournament(me, &id).await;
            }
            ClientMessage::Tournaments => {
                let child = self.is_child(me).await?;
                let (mine, public) = tournaments::lists(&server, &me.player.id, child).await?;
                self.send(&ServerMessage::Notice(Notice::Tournaments { mine, public }));
                return Ok(());
            }
            ClientMessage::Tournament { id } => {
                let child = self.is_child(me).await?;
                let found = tournaments::visible(&server, &id, &me.player, child);
                tournaments::guessed(&server, self.addr.ip(), found).await?
            }
            ClientMessage::JoinTournament { id, password } => {
                let child = self.is_child(me).await?;
                let joined = tournaments::join(&server, &id, &me.player, child, password);
                tournaments::guessed(&server, self.addr.ip(), joined).await?
            }
            ClientMessage::InviteToTournament { id, player } => {
                let invited = tournaments::invite(&server, &id, &me.player, &player);
                tournaments::guessed(&server, self.addr.ip(), invited).await?
            }
            ClientMessage::LeaveTournament { id } => {
                let left = tournaments::leave(&server, &id, &me.player.id);
                tournaments::guessed(&server, self.addr.ip(), left).await?
            }
            ClientMessage::PauseTournament { id, paused } => {
                let paused = tournaments::pause(&server, &id, &me.player.id, paused);
                tournaments::guessed(&server, self.addr.ip(), paused).await?
            }
            ClientMessage::StartTournament { id } => {
                let started = tournaments::start(&server, &id, &me.player.id);
                tournaments::guessed(&server, self.addr.ip(), started).await?
            }
            ClientMessage::KeepApart { id, players, apart } => {
                let kept = tournaments::keep_apart(&server, &id, &me.player.id, players, apart);
                tournaments::guessed(&server, self.addr.ip(), kept).await?
            }
            _ => {
                return Err(refused(
                    ErrorCode::NotAllowed,
                    "not a message for this moment",
                ));
            }
        };
        // The others hear of the change at the running node's next look (once a look,
        // however many joined); the asker at once.
        let view = tournaments::view(&server, &row, &run, &me.player.id).await?;
        self.send(&ServerMessage::Notice(Notice::Tournament { view }));
        Ok(())
    }

    /// The page of tournament `id` (one this player just organised).
    async fn show_tournament(&mut self, me: &ConnRef, id: &str) -> Result<(), Refused> {
        let server = self.server.clone();
        let (row, run) = tournaments::visible(&server, id, &me.player, false).await?;
        let view = tournaments::view(&server, &row, &run, &me.player.id).await?;
        self.send(&ServerMessage::Notice(Notice::Tournament { view }));
        Ok(())
    }
}
