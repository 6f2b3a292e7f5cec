//! What a correspondence room does beyond a live one: its clocks stop while any of its players
//! is on vacation, it says "your turn" to a mover who is not looking at the board, and it
//! describes itself for its players' lists.
//!
//! **Games by days** ("correspondence"): a room's clock `{"days":N}`, N one of 1, 2, 3, 5, 7,
//! 14. The server stamps each move; the mover has N days for it and the clock is set back to N
//! days after each move (`GameClock::per_move`). A player is away between moves as a rule: no
//! `away` is written, a claim is refused, and the first moves abort after their days as any
//! game's do. A restart changes nothing: the clock runs in calendar time from the log's stamps
//! (a live game's `resumed` gives back the server's downtime; a game by days has none to give).
//! `my_games` lists a player's games by days (each room asked for whose turn it is and the time
//! left: ours to move first, the most urgent first); when a move is made and the next mover is
//! not at that board, they hear `your_turn` wherever they are connected, and by push when they
//! are not. 50 games a player at most (`--correspondence-per-player`), counted at `create`, at a
//! join and when a challenge by days is accepted. An open game by days keeps its creator's seat
//! while they go elsewhere (only `leave` gives it up).
//! **Vacations**: `vacation` with a number of days (out of `--vacation-days` a year; the
//! allowance renews each year) stops the clocks of every game by days the player is in, both
//! sides' (`paused`, then `resumed` where the pause began); `0` comes back early and returns the
//! days not taken; a vacation that runs out ends by itself (each node looks a twentieth of a day
//! at a time; the store gives each player back to one node). A move made during a pause is
//! allowed and sets the mover's clock back to full; the other's does not start until the pause
//! ends.

use oaq_net::correspondence::{MyGame, sort_games};
use tokio::sync::oneshot;

use crate::mailbox::Command;
use crate::room::registry;
use crate::shared::Server;
use oaq_net::protocol::{Notice, RoomEvent, ServerMessage};

use super::{Decided, Room};
use crate::settings::now_ms;
use oaq_net::room::Phase;

impl Room {
    /// Pause or resume the clocks so they run exactly when no seated player is on vacation.
    pub(super) async fn match_vacations(&mut self) -> Decided {
        if self.state.clock_spec.days().is_none() || self.state.phase != Phase::Playing {
            return Ok(());
        }
        let ids: Vec<String> = self
            .state
            .seats
            .iter()
            .flatten()
            .map(|p| p.id.clone())
            .collect();
        let now = now_ms();
        let away = self.server.store.on_vacation(&ids, now).await?;
        // A game is paused so many times at most: each pause is two events in its log, which
        // every snapshot carries, and the opponent's game should not wait on a whim.
        let cap = self.server.settings.pauses_per_game;
        let may_pause = u64::from(self.state.pauses) < cap;
        match (away, self.state.paused.is_some()) {
            (true, false) if may_pause => {
                self.commit(RoomEvent::Paused { at_ms: now }).await?;
            }
            (false, true) => {
                self.commit(RoomEvent::Resumed { at_ms: now }).await?;
            }
            _ => {}
        }
        Ok(())
    }

    pub(super) async fn on_vacations(&mut self) {
        let Ok(lease) = self.lease().await else {
            return;
        };
        if let Err(super::Refusal::Store(e)) = self.match_vacations().await {
            tracing::warn!(room = %self.state.code, "pausing for a vacation: {e}");
        }
        self.release(lease).await;
    }

    /// Tell the player whose move it now is in a correspondence game, when they are not in
    /// the room (on this node) to see it.
    pub(super) async fn tell_mover(&self) {
        if self.state.clock_spec.days().is_none() || self.state.phase != Phase::Playing {
            return;
        }
        let Some(seat) = self.state.mover() else {
            return;
        };
        let Some(Some(player)) = self.state.seats.get(seat) else {
            return;
        };
        if self.subs.holds(seat) {
            return;
        }
        let notice = ServerMessage::Notice(Notice::YourTurn {
            code: self.state.code.clone(),
        });
        self.server.tell(&player.id, &notice).await;
        // Not connected anywhere: their devices, if they asked.
        let opponent = self
            .state
            .seats
            .iter()
            .flatten()
            .find(|p| p.id != player.id)
            .map_or(String::new(), |p| p.name.clone());
        let event = oaq_net::notify::Event::YourTurn {
            code: self.state.code.clone(),
            opponent,
        };
        self.server.tell_away(&player.id, event).await;
    }

    /// This game as `player` sees it in "My games".
    pub(super) fn peek(&self, player: &str) -> Option<MyGame> {
        let days = self.state.clock_spec.days()?;
        let seat = self.state.seat_of_player(player)?;
        if !matches!(self.state.phase, Phase::Waiting | Phase::Playing) {
            return None;
        }
        let playing = self.state.phase == Phase::Playing;
        let mover = if playing { self.state.mover() } else { None };
        let opponent = self
            .state
            .seats
            .iter()
            .enumerate()
            .filter(|&(s, _)| s != seat)
            .find_map(|(_, p)| p.as_ref().map(|p| p.name.clone()))
            .unwrap_or_default();
        let now = now_ms();
        Some(MyGame {
            code: self.state.code.clone(),
            preset: self.state.preset.clone(),
            days,
            opponent,
            your_turn: mover == Some(seat),
            left_ms: mover.and_then(|m| self.state.clock.as_ref().map(|c| c.remaining(m, now))),
            paused: self.state.paused.is_some(),
            moves: self.state.turn(),
        })
    }
}

/// `player`'s games by days as their list shows them (each asked of its room, which knows
/// whose turn it is and the time left), theirs to move first.
pub async fn games_of(
    server: &std::sync::Arc<Server>,
    player: &str,
) -> Result<Vec<MyGame>, crate::store::StoreError> {
    let codes = server.store.correspondence_rooms_of(player).await?;
    let mut games: Vec<MyGame> = Vec::with_capacity(codes.len());
    for code in codes {
        let Some(room) = registry::find(server, &code).await? else {
            continue;
        };
        let (reply, answer) = oneshot::channel();
        let peek = Command::Peek {
            player: player.to_owned(),
            reply,
        };
        if room.tx.send(peek).await.is_err() {
            continue;
        }
        if let Ok(Some(game)) = answer.await {
            games.push(game);
        }
    }
    sort_games(&mut games);
    Ok(games)
}
