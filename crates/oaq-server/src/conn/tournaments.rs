//! A connection's tournament messages: organise one, list them, look at one, join, leave, take
//! a break, and start it (its organiser). A tournament's id is its code: one that does not
//! exist counts as a miss against the address, as a room code does.

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
            ClientMessage::Tournament { id } => return self.show_tournament(me, &id).await,
            ClientMessage::JoinTournament { id, password } => {
                let child = self.is_child(me).await?;
                // A password is a guess: its miss is taken before it is checked, and given
                // back unless it was wrong.
                let guess = password.is_some();
                if guess && !server.misses.take(self.addr.ip()) {
                    let why = "too many wrong codes or passwords: wait a minute";
                    return Err(refused(ErrorCode::RateLimited, why));
                }
                let joined = tournaments::join(&server, &id, &me.player, child, password).await;
                if guess && !matches!(joined, Err(tournaments::Refused::WrongPassword)) {
                    server.misses.give_back(self.addr.ip());
                }
                self.miss_if_unknown(joined)?
            }
            ClientMessage::InviteToTournament { id, player } => {
                let invited = tournaments::invite(&server, &id, &me.player, &player).await;
                self.miss_if_unknown(invited)?
            }
            ClientMessage::LeaveTournament { id } => {
                self.miss_if_unknown(tournaments::leave(&server, &id, &me.player.id).await)?
            }
            ClientMessage::PauseTournament { id, paused } => {
                let paused = tournaments::pause(&server, &id, &me.player.id, paused).await;
                self.miss_if_unknown(paused)?
            }
            ClientMessage::StartTournament { id } => {
                self.miss_if_unknown(tournaments::start(&server, &id, &me.player.id).await)?
            }
            ClientMessage::KeepApart { id, players, apart } => {
                let kept = tournaments::keep_apart(&server, &id, &me.player.id, players, apart);
                self.miss_if_unknown(kept.await)?
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

    async fn show_tournament(&mut self, me: &ConnRef, id: &str) -> Result<(), Refused> {
        let server = self.server.clone();
        let Some(row) = server.store.tournament(id).await? else {
            return Err(self.unknown_tournament());
        };
        let child = self.is_child(me).await?;
        let stranger = row.organiser != me.player.id
            && !server
                .store
                .are_friends(&row.organiser, &me.player.id)
                .await?;
        if (child && stranger)
            || server
                .store
                .blocked_between(&row.organiser, &me.player.id)
                .await?
        {
            return Err(self.unknown_tournament());
        }
        let (run, _) = tournaments::Run::of_row(&row)?;
        let view = tournaments::view(&server, &row, &run, &me.player.id).await?;
        self.send(&ServerMessage::Notice(Notice::Tournament { view }));
        Ok(())
    }

    /// A tournament id that does not exist: a miss against the address (past the limit, a
    /// guesser is told to wait, whatever the id).
    fn unknown_tournament(&self) -> Refused {
        if !self.server.misses.take(self.addr.ip()) {
            return refused(
                ErrorCode::RateLimited,
                "too many codes that do not exist: wait a minute",
            );
        }
        refused(
            ErrorCode::NoSuchTournament,
            "that tournament is not there, or not for you to see",
        )
    }

    fn miss_if_unknown<T>(&self, result: Result<T, tournaments::Refused>) -> Result<T, Refused> {
        match result {
            Err(tournaments::Refused::To(ErrorCode::NoSuchTournament, _)) => {
                Err(self.unknown_tournament())
            }
            other => other.map_err(Refused::from),
        }
    }
}
