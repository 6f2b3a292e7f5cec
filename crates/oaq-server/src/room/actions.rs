//! What a room does with each command: checks it against the state (a refusal changes
//! nothing), then writes what follows from it.

use oaq_net::protocol::{
    EndCause, ErrorCode, First, GameResult, Notice, RatingChange, RoomEvent, ServerMessage,
};
use oaq_rules::Move;
use oaq_rules::state_json;
use rand::seq::SliceRandom;

use super::{Action, ConnRef, Decided, Refusal, Room};
use crate::ratings::{self, Rating};
use crate::settings::{Settings, now_ms};
use oaq_net::room::{Phase, RoomState};

fn refuse(code: ErrorCode, message: impl Into<String>) -> Decided {
    Err(Refusal::To(code, message.into()))
}

/// When the room must act by itself, in server time: the end of the opening's grace, or the
/// running clock's fall.
pub fn deadline_ms(state: &RoomState, settings: &Settings) -> Option<i64> {
    if state.pos.is_over() {
        // The game ended on the board but the end is not written yet: write it now.
        return Some(0);
    }
    let clock = state
        .clock
        .as_ref()
        .and_then(|c| c.deadline())
        .map(|(_, at)| at);
    // A correspondence game's first moves have the days of any other (none while paused).
    if state.in_opening() && state.clock_spec.days().is_none() {
        let grace = state.turn_started_ms + settings.first_move.as_millis() as i64;
        return Some(clock.map_or(grace, |c| c.min(grace)));
    }
    clock
}

/// Whether `result` ends the game against a player who had left it: a claim, or the clock
/// running out while they were gone (a correspondence player is gone between moves as a rule,
/// and only a claim would count: there are none).
fn abandoned(state: &RoomState, result: &GameResult) -> bool {
    match (result.cause, result.by) {
        (EndCause::Abandoned, Some(_)) => true,
        (EndCause::Time, Some(seat)) => state.away.get(seat).is_some_and(Option::is_some),
        _ => false,
    }
}

impl Room {
    /// Take `conn` into the room: back into its seat, into a free seat, or (`watch`) as a
    /// spectator. Returns whether it is in.
    pub(super) async fn join(&mut self, conn: ConnRef, since: Option<u64>, watch: bool) -> bool {
        let lease = match self.lease().await {
            Ok(l) => l,
            Err(r) => {
                self.refused(&conn, r);
                return false;
            }
        };
        let result = self.join_leased(&conn, since, watch).await;
        self.release(lease).await;
        match result {
            Ok(()) => true,
            Err(r) => {
                self.refused(&conn, r);
                false
            }
        }
    }

    async fn join_leased(&mut self, conn: &ConnRef, since: Option<u64>, watch: bool) -> Decided {
        let code = self.state.code.clone();
        let held = self.state.seat_of_player(&conn.player.id);
        let seat = match (watch, held) {
            // A player watching her own game is in her seat: her leaving marks her away, so
            // her opponent can claim.
            (true, held) => held,
            (false, Some(seat)) => Some(seat),
            (false, None) => {
                if self.state.phase != Phase::Waiting {
                    return refuse(
                        ErrorCode::RoomFull,
                        format!("room {code} has begun: `watch` it instead"),
                    );
                }
                match self.state.free_seat() {
                    Some(seat) => Some(seat),
                    None => {
                        return refuse(ErrorCode::RoomFull, format!("room {code} is full"));
                    }
                }
            }
        };
        // Someone a seated player blocks (or who blocks one) finds no private room to watch.
        if held.is_none() && seat.is_none() && !self.may_watch(conn).await? {
            return refuse(ErrorCode::NoSuchRoom, format!("no room {code}"));
        }
        // A new seat is the policy's to give, counted against the player's caps under their
        // lock, held until the seat is written, so seats taken at once in several rooms cannot
        // all pass.
        let _taken = match (held, seat) {
            (None, Some(_)) => {
                Some(crate::policy::may_take_seat(&self.server, &self.state, &conn.player).await?)
            }
            _ => None,
        };
        self.subs.add(conn.clone(), seat);
        self.catch_up(conn, since).await?;
        conn.reply(&ServerMessage::Notice(Notice::Seat {
            code: code.clone(),
            seat,
        }));
        let Some(seat) = seat else { return Ok(()) };
        if held.is_none() {
            self.commit(RoomEvent::Seated {
                seat,
                player: conn.player.clone(),
            })
            .await?;
            if self.state.free_seat().is_none() {
                self.start().await?;
            }
        } else if !self.presence.back(seat) && self.state.away[seat].is_some() {
            let now = now_ms();
            self.commit(RoomEvent::Back { seat, at_ms: now }).await?;
            self.presence.wrote_back(seat, now);
        }
        Ok(())
    }

    /// Whether `conn`'s player may watch this room: not a private one where a player blocks
    /// them (or they one), nor one where a child sits who is not their friend.
    async fn may_watch(&self, conn: &ConnRef) -> Result<bool, crate::store::StoreError> {
        let seated: Vec<oaq_net::protocol::PlayerInfo> =
            self.state.seats.iter().flatten().cloned().collect();
        if !self.state.public {
            for player in &seated {
                let store = &self.server.store;
                if store.blocked_between(&player.id, &conn.player.id).await? {
                    return Ok(false);
                }
            }
        }
        crate::policy::may_watch(&self.server, &conn.player.id, &seated).await
    }

    /// Every seat is taken: decide who moves first and start the clocks.
    async fn start(&mut self) -> Decided {
        let n = self.state.players();
        let mut order: Vec<usize> = (0..n).collect();
        match self.state.first {
            First::Me => {}
            First::Them => order.rotate_left(1),
            First::Random => order.shuffle(&mut rand::rng()),
        }
        self.commit(RoomEvent::Started {
            order,
            clocks: self
                .state
                .clock_spec
                .starting_clocks(n, self.server.settings.day_ms()),
            at_ms: now_ms(),
        })
        .await?;
        // A correspondence game begun with a player on vacation starts paused.
        self.match_vacations().await?;
        self.tell_mover().await;
        Ok(())
    }

    /// `conn` leaves (`asked`) or its connection dropped.
    pub(super) async fn leave(&mut self, conn: u64, asked: bool, switching: bool) {
        let Some(sub) = self.subs.remove(conn) else {
            return;
        };
        if asked {
            sub.conn.reply(&ServerMessage::Notice(Notice::Left {
                code: self.state.code.clone(),
            }));
        }
        let Some(seat) = sub.seat else { return };
        if self.subs.holds(seat) {
            return;
        }
        let Ok(lease) = self.lease().await else {
            return;
        };
        let correspondence = self.state.clock_spec.days().is_some();
        let event = match self.state.phase {
            // An open correspondence game waits for days, its creator elsewhere.
            Phase::Waiting if correspondence && !asked => None,
            Phase::Waiting if correspondence && switching => None,
            Phase::Waiting if asked => Some(RoomEvent::Unseated { seat }),
            // A correspondence player is away between moves as a rule: nothing to write.
            Phase::Playing if correspondence => None,
            Phase::Waiting | Phase::Playing if self.state.away[seat].is_none() => {
                Some(RoomEvent::Away {
                    seat,
                    at_ms: now_ms(),
                })
            }
            _ => None,
        };
        // A departure within a claim period of the last one written is kept back: the
        // opponent's log is not filled by a player reconnecting ([`super::presence`]).
        let every_ms = self.server.settings.claim_after.as_millis() as i64;
        let event = event.filter(|e| match e {
            RoomEvent::Away { seat, at_ms } if self.state.phase == Phase::Playing => {
                self.presence.left(*seat, *at_ms, every_ms)
            }
            _ => true,
        });
        if let Some(event) = event
            && let Err(e) = self.commit(event).await
        {
            tracing::warn!(room = %self.state.code, "writing a departure: {e}");
        }
        self.release(lease).await;
    }

    pub(super) async fn act(&mut self, conn: u64, action: Action) {
        let Some(sub) = self.subs.get(conn) else {
            return;
        };
        let (reply_to, seat) = (sub.conn.clone(), sub.seat);
        let lease = match self.lease().await {
            Ok(l) => l,
            Err(r) => {
                self.refused(&reply_to, r);
                return;
            }
        };
        let result = match seat {
            None => refuse(
                ErrorCode::NotYourTurn,
                "you are watching this room: only its players act in it",
            ),
            Some(seat) => self.act_for(seat, action).await,
        };
        self.release(lease).await;
        if let Err(r) = result {
            self.refused(&reply_to, r);
        }
    }

    /// `player` acts in their seat from outside the room (the bot API).
    pub(super) async fn act_as(
        &mut self,
        player: &str,
        action: Action,
    ) -> crate::mailbox::ActReply {
        let Some(seat) = self.state.seat_of_player(player) else {
            self.server.metrics.refused(ErrorCode::NotAllowed);
            let why = format!("you are not playing in room {}", self.state.code);
            return Err((ErrorCode::NotAllowed, why, None));
        };
        let result = match self.lease().await {
            Ok(lease) => {
                // The turn as the lease left it (another node may have written meanwhile).
                let action = match action {
                    Action::Move {
                        ply: crate::mailbox::THIS_PLY,
                        mv,
                        think_ms,
                    } => Action::Move {
                        ply: self.state.turn(),
                        mv,
                        think_ms,
                    },
                    other => other,
                };
                let result = self.act_for(seat, action).await;
                self.release(lease).await;
                result
            }
            Err(r) => Err(r),
        };
        result.map_err(|refusal| self.refusal_text(refusal))
    }

    /// A refusal counted, as its code, its words and the legal moves when it has them.
    fn refusal_text(&self, refusal: Refusal) -> (ErrorCode, String, Option<Vec<String>>) {
        let (code, message, legal) = match refusal {
            Refusal::To(code, message) => (code, message, None),
            Refusal::Legal(message, legal) => (ErrorCode::IllegalMove, message, Some(legal)),
            Refusal::Store(e) => {
                tracing::error!(room = %self.state.code, "store: {e}");
                let why = "the server could not store this; nothing changed: try again";
                (ErrorCode::Unavailable, why.to_owned(), None)
            }
        };
        self.server.metrics.refused(code);
        (code, message, legal)
    }

    async fn act_for(&mut self, seat: usize, action: Action) -> Decided {
        match action {
            Action::Rematch => return self.rematch(seat).await,
            Action::Chat(phrase) => return self.chat(seat, phrase).await,
            _ => {}
        }
        if self.state.phase != Phase::Playing {
            let why = match self.state.phase {
                Phase::Waiting => "the game has not begun: waiting for players",
                _ => "the game is over",
            };
            return refuse(
                if matches!(action, Action::Move { .. }) {
                    ErrorCode::NotYourTurn
                } else {
                    ErrorCode::NotAllowed
                },
                why,
            );
        }
        match action {
            Action::Move { ply, mv, think_ms } => self.play(seat, ply, &mv, think_ms).await,
            Action::Resign => {
                let result = self.state.result_against(seat, EndCause::Resign);
                self.end(result).await
            }
            Action::OfferDraw | Action::AcceptDraw => {
                let offered = (0..self.state.players()).any(|s| s != seat && self.state.draw[s]);
                if matches!(action, Action::AcceptDraw) && !offered {
                    return refuse(ErrorCode::NotAllowed, "no draw has been offered");
                }
                if self.state.draw[seat] {
                    return refuse(ErrorCode::NotAllowed, "you have offered a draw already");
                }
                self.commit(RoomEvent::DrawOffered { seat }).await?;
                if self.state.draw.iter().all(|&d| d) {
                    let n = self.state.players();
                    let result = GameResult {
                        cause: EndCause::Agreed,
                        places: vec![0; n],
                        scores: self.state.scores_by_seat(),
                        by: None,
                    };
                    self.end(result).await?;
                }
                Ok(())
            }
            Action::Claim if self.state.clock_spec.days().is_some() => refuse(
                ErrorCode::NotAllowed,
                "a correspondence game is not claimed: the mover's days decide it",
            ),
            Action::Claim => {
                let now = now_ms();
                let limit = self.server.settings.claim_after.as_millis() as i64;
                let gone = (0..self.state.players())
                    .filter(|&s| s != seat)
                    .find(|&s| self.state.away[s].is_some_and(|at| now - at >= limit));
                match gone {
                    Some(gone) => {
                        let result = self.state.result_against(gone, EndCause::Abandoned);
                        self.end(result).await
                    }
                    None => {
                        let away = (0..self.state.players())
                            .filter(|&s| s != seat)
                            .filter_map(|s| self.state.away[s].map(|at| (s, now - at)))
                            .max_by_key(|&(_, gone)| gone);
                        let message = match away {
                            Some((s, gone)) => format!(
                                "seat {s} has been gone {:.0} s; a claim needs {:.0} s",
                                gone as f64 / 1000.0,
                                limit as f64 / 1000.0
                            ),
                            None => "your opponent is here".to_owned(),
                        };
                        refuse(ErrorCode::NotAllowed, message)
                    }
                }
            }
            Action::Rematch | Action::Chat(_) => unreachable!("handled above"),
        }
    }

    async fn play(&mut self, seat: usize, ply: u32, text: &str, think_ms: Option<u64>) -> Decided {
        let now = now_ms();
        let state = &self.state;
        // The ply first: a move sent again after it was played is stale, whoever's turn it is.
        if ply != state.turn() {
            return refuse(
                ErrorCode::StalePly,
                format!("ply {ply}: the game is at ply {}", state.turn()),
            );
        }
        if state.mover() != Some(seat) {
            return refuse(ErrorCode::NotYourTurn, "it is not your turn");
        }
        let legal: Vec<String> = state
            .pos
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect();
        let illegal = |message: String| Err(Refusal::Legal(message, legal));
        let mv = match text.parse::<Move>() {
            Ok(mv) => mv,
            Err(e) => {
                return illegal(format!("{}: {e}", oaq_rules::excerpt::quoted(text)));
            }
        };
        let mut after = state.pos;
        if let Err(e) = after.play(mv) {
            return illegal(e.to_string());
        }
        if self.flag_fell(now) {
            return self.on_timer_at(now).await;
        }
        let (clocks, spent_ms, lag_ms) = match state.clock.clone() {
            None => (None, now - state.turn_started_ms, 0),
            Some(mut clock) => match clock.on_move(seat, now, think_ms) {
                Ok(t) => (Some(clock.all_remaining(now)), t.spent_ms, t.lag_ms),
                Err(_) => return self.on_timer_at(now).await,
            },
        };
        let event = RoomEvent::Moved {
            ply,
            mv: mv.to_string(),
            seat,
            state: serde_json::from_str(&state_json::to_line(&after))
                .unwrap_or(serde_json::Value::Null),
            clocks,
            spent_ms,
            lag_ms,
            at_ms: now,
        };
        self.commit(event).await?;
        if self.state.clock.is_some() {
            self.server.metrics.lag_credited(lag_ms);
        }
        if let Some(result) = self.state.result_by_rules() {
            self.end(result).await?;
        }
        self.tell_mover().await;
        Ok(())
    }

    /// Whether the opening's grace or the mover's clock has run out at `now`.
    fn flag_fell(&self, now: i64) -> bool {
        deadline_ms(&self.state, &self.server.settings).is_some_and(|at| now >= at)
    }

    pub(super) async fn on_timer(&mut self) {
        // Whatever happens, not again for a second: a store that is down is not hammered.
        self.retry_at = Some(tokio::time::Instant::now() + std::time::Duration::from_secs(1));
        let lease = match self.lease().await {
            Ok(l) => l,
            Err(_) => return,
        };
        if let Err(e) = self.write_departures(now_ms()).await {
            tracing::warn!(room = %self.state.code, "writing a departure: {e}");
        }
        match self.on_timer_at(now_ms()).await {
            Err(Refusal::Store(e)) => {
                tracing::warn!(room = %self.state.code, "ending on time: {e}");
            }
            _ => self.retry_at = None,
        }
        self.release(lease).await;
    }

    /// Write the departures kept back whose claim period is up, for players still gone.
    async fn write_departures(&mut self, now: i64) -> Result<(), crate::store::StoreError> {
        let every_ms = self.server.settings.claim_after.as_millis() as i64;
        for (seat, at_ms) in self.presence.take_due(now, every_ms) {
            let gone = !self.subs.holds(seat) && self.state.away[seat].is_none();
            if gone && self.state.phase == Phase::Playing {
                self.commit(RoomEvent::Away { seat, at_ms }).await?;
            }
        }
        Ok(())
    }

    /// Write what the clock decided: an abort in the opening, a loss on time, or the end of a
    /// game the board has finished.
    async fn on_timer_at(&mut self, now: i64) -> Decided {
        if self.state.phase != Phase::Playing {
            return Ok(());
        }
        if let Some(result) = self.state.result_by_rules() {
            return self.end(result).await;
        }
        if !self.flag_fell(now) {
            return Ok(());
        }
        let Some(mover) = self.state.mover() else {
            return Ok(());
        };
        let result = if self.state.in_opening() {
            GameResult {
                cause: EndCause::Aborted,
                places: Vec::new(),
                scores: self.state.scores_by_seat(),
                by: Some(mover),
            }
        } else {
            self.state.result_against(mover, EndCause::Time)
        };
        self.end(result).await
    }

    /// End the game with `result`, rating it when it was played out between people.
    async fn end(&mut self, result: GameResult) -> Decided {
        let mut changes = Vec::new();
        let mut stored = Vec::new();
        let ids: Vec<String> = self
            .state
            .seats
            .iter()
            .map(|s| s.as_ref().map(|p| p.id.clone()).unwrap_or_default())
            .collect();
        let rated = !self.state.unrated;
        if rated && result.cause != EndCause::Aborted && result.places.len() == ids.len() {
            let mut before = Vec::new();
            for id in &ids {
                let row = self.server.store.player(id).await?;
                before.push(row.map_or_else(Rating::new, |r| r.rating));
            }
            let after = ratings::after_game(&before, &result.places);
            for (seat, (b, a)) in before.iter().zip(&after).enumerate() {
                changes.push(RatingChange {
                    seat,
                    before: ratings::shown(b.rating),
                    after: ratings::shown(a.rating),
                });
                stored.push((ids[seat].clone(), *a));
            }
        }
        let on_time = result.cause == EndCause::Time && self.state.clock_spec.days().is_some();
        let loser = result.by;
        self.commit_rated(
            RoomEvent::Ended {
                abandoned: abandoned(&self.state, &result),
                result,
                ratings: changes,
                at_ms: now_ms(),
            },
            &stored,
        )
        .await?;
        // A bot's event stream says its game is over.
        let finished = ServerMessage::Notice(Notice::GameFinished {
            code: self.state.code.clone(),
        });
        for player in self.state.seats.iter().flatten().filter(|p| p.bot) {
            self.server.tell(&player.id, &finished).await;
        }
        if on_time {
            // A game by days ended on time: each player away hears of it.
            for (seat, id) in ids.iter().enumerate() {
                let event = oaq_net::notify::Event::Ended {
                    code: self.state.code.clone(),
                    won: loser != Some(seat),
                };
                self.server.tell_away(id, event).await;
            }
        }
        Ok(())
    }

    /// `seat` asks for a rematch; when every player has, a new room opens with the same rules
    /// and all of them in it, seats turned round (whoever moved second moves first). Nobody is
    /// put into a new game without saying yes, and the room opens only as caps and blocks
    /// allow ([`crate::room::registry::open_room`]).
    async fn rematch(&mut self, seat: usize) -> Decided {
        if !matches!(self.state.phase, Phase::Ended(_)) {
            return refuse(ErrorCode::NotAllowed, "a rematch comes after the game");
        }
        if let Some(code) = &self.state.rematch {
            return refuse(
                ErrorCode::NotAllowed,
                format!("the rematch is open: join room {code}"),
            );
        }
        if self.state.rematch_asked.get(seat) == Some(&true) {
            return refuse(
                ErrorCode::NotAllowed,
                "you asked for a rematch: waiting for your opponent",
            );
        }
        let n = self.state.players();
        let mut players = Vec::with_capacity(n);
        for side in 0..n {
            let seat = self.state.order[(side + 1) % n];
            match &self.state.seats[seat] {
                Some(p) => players.push(p.clone()),
                None => return refuse(ErrorCode::NotAllowed, "a seat of this game is empty"),
            }
        }
        let ids: Vec<&str> = players.iter().map(|p| p.id.as_str()).collect();
        if self.server.store.any_blocked(&ids).await? {
            return refuse(
                ErrorCode::NotAllowed,
                "no rematch: these players cannot play one another",
            );
        }
        self.commit(RoomEvent::RematchOffered { seat }).await?;
        if !self.state.rematch_asked.iter().all(|&asked| asked) {
            return Ok(());
        }
        let meeting = crate::policy::Meeting::Rematch;
        let new = crate::room::registry::NewRoom {
            preset: self.state.preset.clone(),
            rules: self.state.rules,
            clock: self.state.clock_spec,
            first: First::Me,
            public: false,
            unrated: self.state.unrated,
            no_chat: self.state.no_chat,
        };
        let code =
            crate::room::registry::seat_and_open(&self.server, meeting, new, players).await?;
        self.commit(RoomEvent::Rematch { room: code }).await?;
        Ok(())
    }

    /// A phrase from `seat` to each other player of the room, wherever they are connected;
    /// not to one in child mode, nor between players when either blocks the other.
    async fn chat(&mut self, seat: usize, phrase: oaq_net::social::Phrase) -> Decided {
        let Some(from) = self.state.seats.get(seat).cloned().flatten() else {
            return refuse(ErrorCode::NotAllowed, "only the room's players chat");
        };
        if self.state.no_chat {
            return refuse(
                ErrorCode::NotAllowed,
                "this tournament's games have no chat",
            );
        }
        let store = &self.server.store;
        let message = ServerMessage::Notice(Notice::Chat {
            code: self.state.code.clone(),
            seat,
            phrase,
        });
        for (other, player) in self.state.seats.iter().enumerate() {
            let Some(player) = player.as_ref().filter(|_| other != seat) else {
                continue;
            };
            if store.is_child(&player.id, now_ms()).await?
                || store.blocked_between(&from.id, &player.id).await?
            {
                continue;
            }
            self.server.tell(&player.id, &message).await;
        }
        Ok(())
    }

    /// An operator banned `player`: a room not begun gives up their seat (and so leaves the
    /// lobby); a game in progress goes on to its end by the clock or a claim.
    pub(super) async fn expel(&mut self, player: &str) {
        if self.state.phase != Phase::Waiting {
            return;
        }
        let Some(seat) = self.state.seat_of_player(player) else {
            return;
        };
        let Ok(lease) = self.lease().await else {
            return;
        };
        if let Err(e) = self.commit(RoomEvent::Unseated { seat }).await {
            tracing::warn!(room = %self.state.code, "unseating a banned player: {e}");
        }
        self.release(lease).await;
    }

    pub(super) fn refused(&self, conn: &ConnRef, refusal: Refusal) {
        let (code, message, legal) = self.refusal_text(refusal);
        conn.reply(&ServerMessage::Notice(Notice::Error {
            code,
            message,
            legal,
        }));
    }
}
