//! A connection's rooms: opening one, joining or watching by code (misses counted against the
//! address), acting in it, leaving it; the public lobby and a room's chat phrases.

use oaq_net::protocol::{
    ClockSpec, ErrorCode, First, Notice, RulesChoice, ServerMessage, is_room_code,
};
use tokio::sync::oneshot;

use super::Conn;
use super::account::{Refused, refused};
use crate::mailbox::{Action, Command, ConnRef};
use crate::policy::{Guess, TooManyGuesses};
use crate::room::registry::{self, Delivered};

impl Conn {
    /// A new room with this player seated: the rules and clock checked, a public room refused
    /// in child mode, the address's and the player's caps taken as it opens.
    pub(super) async fn create(
        &mut self,
        me: &ConnRef,
        rules: RulesChoice,
        clock: ClockSpec,
        first: First,
        public: bool,
    ) -> Result<(), Refused> {
        let (preset, rules) = rules
            .resolve()
            .map_err(|e| refused(ErrorCode::BadMessage, e))?;
        clock
            .validate()
            .map_err(|e| refused(ErrorCode::BadMessage, e))?;
        // Refused before anything changes for the player (the room they are in, the pool).
        let meeting = crate::policy::Meeting::OwnRoom { public };
        crate::policy::may_meet(&self.server, meeting, &me.player).await?;
        self.leave_room().await;
        self.unpool(me, false).await;
        if let Err((code, why)) = self.may_open_room() {
            return Err(refused(code, why));
        }
        let room = registry::NewRoom {
            preset,
            rules,
            clock,
            first,
            public,
            unrated: false,
            no_chat: false,
        };
        let players = vec![me.player.clone()];
        match registry::seat_and_open(&self.server, meeting, room, players).await {
            Ok(code) => {
                self.send(&ServerMessage::Notice(Notice::Created {
                    code: code.clone(),
                }));
                self.enter(&code, None, false).await;
                Ok(())
            }
            Err(e) => {
                // Refused: the room the address was charged for was not opened.
                self.server.room_opens.give_back(self.addr.ip());
                Err(e.into())
            }
        }
    }

    /// The public rooms waiting for players, as this player may see them (none in child mode,
    /// none with a player either of them blocks).
    pub(super) async fn lobby(&mut self, me: &ConnRef) {
        match self.is_child(me).await {
            Ok(false) => {}
            Ok(true) => {
                return self.error(
                    ErrorCode::NotAllowed,
                    "child mode: no public lobby; play friends by their code",
                );
            }
            Err(e) => return self.unavailable(e),
        }
        match self.server.store.lobby(&me.player.id, 100).await {
            Ok(rooms) => {
                let pools = self.server.pools.waiting_counts();
                self.send(&ServerMessage::Notice(Notice::Lobby { rooms, pools }))
            }
            Err(e) => self.unavailable(e),
        }
    }

    /// A chat phrase to the room's other players: not in child mode, at most a few a minute.
    pub(super) async fn chat(&mut self, me: &ConnRef, phrase: oaq_net::social::Phrase) {
        match self.is_child(me).await {
            Ok(false) => {}
            Ok(true) => return self.error(ErrorCode::NotAllowed, "child mode: no chat"),
            Err(e) => return self.unavailable(e),
        }
        if !self.chat.take() {
            return self.error(
                ErrorCode::RateLimited,
                format!(
                    "more than {} chat phrases in a row: wait a moment",
                    self.server.settings.chat_burst
                ),
            );
        }
        self.act(Action::Chat(phrase)).await
    }

    /// Whether this address may open one more room: so many a minute per address (a new guest
    /// a connection does not reset it). The players' own caps are checked where the room is
    /// opened ([`registry::open_room`]).
    pub(super) fn may_open_room(&self) -> Result<(), (ErrorCode, String)> {
        if !self.server.room_opens.take(self.addr.ip()) {
            return Err((
                ErrorCode::RateLimited,
                format!(
                    "more than {} rooms a minute from your address: wait a minute",
                    self.server.settings.rooms_per_minute
                ),
            ));
        }
        Ok(())
    }

    /// Join or watch room `code`, leaving the room this connection was in.
    pub(super) async fn enter(&mut self, code: &str, since: Option<u64>, watch: bool) {
        let Some(me) = self.me.clone() else { return };
        let code = code.trim().to_ascii_uppercase();
        let ip = self.addr.ip();
        if !is_room_code(&code) {
            self.server.misses.take(ip);
            return self.error(
                ErrorCode::NoSuchRoom,
                format!(
                    "{} is not a room code (six letters and digits)",
                    oaq_rules::excerpt::quoted(&code)
                ),
            );
        }
        // A code is a guess, counted before the look-up and given back when the room is
        // there. Past the address's limit its player may still enter the rooms where they hold
        // a seat (a family or a school behind one router), and no other, so the limit tells a
        // guesser nothing.
        let server = self.server.clone();
        let guess = match Guess::take(&server.misses, ip) {
            Ok(guess) => guess,
            Err(TooManyGuesses) => match server.store.holds_seat(&code, &me.player.id).await {
                Ok(true) => Guess::uncounted(ip),
                Ok(false) => {
                    return self.error(
                        ErrorCode::RateLimited,
                        "too many room codes that do not exist: wait a minute",
                    );
                }
                Err(e) => return self.unavailable(e),
            },
        };
        if self.room.as_ref().is_some_and(|(c, _)| *c != code) {
            self.leave_room().await;
        }
        let join = || {
            let (done, answer) = oneshot::channel();
            let command = Command::Join {
                conn: me.clone(),
                since,
                watch,
                done,
            };
            (command, answer)
        };
        match registry::deliver(&server, &code, join).await {
            Ok(Delivered::Answered(room, joined)) => {
                guess.right();
                // Refused, the room said why.
                if joined {
                    self.room = Some((code, room));
                }
            }
            Ok(Delivered::NoRoom) => {
                guess.wrong();
                self.error(ErrorCode::NoSuchRoom, format!("no room {code}"));
            }
            Ok(Delivered::Unloaded) => {
                guess.right();
                self.error(
                    ErrorCode::Unavailable,
                    format!("room {code} could not be loaded"),
                );
            }
            Err(e) => {
                guess.right();
                self.unavailable(e);
            }
        }
    }

    pub(super) async fn act(&mut self, action: Action) {
        let Some((_, room)) = &self.room else {
            return self.error(ErrorCode::NotAllowed, "join a room first");
        };
        if room
            .tx
            .send(Command::Act {
                conn: self.id,
                action,
            })
            .await
            .is_err()
        {
            self.room = None;
            self.error(ErrorCode::Unavailable, "the room is gone: join it again");
        }
    }

    pub(super) async fn leave_room(&mut self) {
        if let Some((_, room)) = self.room.take() {
            let leave = Command::Leave {
                conn: self.id,
                switching: true,
            };
            let _ = room.tx.send(leave).await;
        }
    }
}
