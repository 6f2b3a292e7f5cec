//! A room as its log makes it: folding the events in order gives the seats, the position (every
//! move played again by the rules), the clocks and the result. The room task decides what to
//! write; this only applies what was written, so a room rebuilt from the store after a restart
//! is the room that was. The game's client folds the same log to know the room it sits in.

use crate::clock::GameClock;
use crate::protocol::{ClockSpec, EndCause, First, GameResult, PlayerInfo, RoomEvent, RoomSummary};
use oaq_rules::{Move, Position, RuleSet};

#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    Waiting,
    Playing,
    Ended(GameResult),
}

#[derive(Clone, Debug)]
pub struct RoomState {
    pub code: String,
    pub preset: String,
    pub rules: RuleSet,
    pub clock_spec: ClockSpec,
    pub first: First,
    pub public: bool,
    /// The game changes no rating.
    pub unrated: bool,
    /// The players may not chat.
    pub no_chat: bool,
    pub seats: Vec<Option<PlayerInfo>>,
    /// `order[side]`: the seat that played that side at the start.
    pub order: Vec<usize>,
    pub pos: Position,
    pub moves: Vec<Move>,
    pub clock: Option<GameClock>,
    pub phase: Phase,
    /// Seats that offered (or accepted) a draw since the last move.
    pub draw: Vec<bool>,
    /// Since when each seat has been away (`None`: here).
    pub away: Vec<Option<i64>>,
    /// When the turn now being played began.
    pub turn_started_ms: i64,
    /// A correspondence game's clocks stopped since then (a player is on vacation).
    pub paused: Option<i64>,
    pub rematch: Option<String>,
    /// After the game, by seat: who asked for a rematch (it opens when all have).
    pub rematch_asked: Vec<bool>,
    /// How many times the game was paused (the server caps it).
    pub pauses: u32,
    /// The number of events applied (the next event's `seq`).
    pub next_seq: u64,
}

/// A log that does not fold into a room (a corrupt store).
#[derive(Debug)]
pub struct BadLog(pub String);

impl RoomState {
    /// The room of a log; the first event must be `opened`.
    pub fn from_log(events: &[RoomEvent]) -> Result<RoomState, BadLog> {
        let Some(RoomEvent::Opened {
            code,
            preset,
            rules,
            clock,
            first,
            public,
            at_ms,
            unrated,
            no_chat,
        }) = events.first()
        else {
            return Err(BadLog("the log does not begin with `opened`".into()));
        };
        let players = usize::from(rules.players);
        let mut room = RoomState {
            code: code.clone(),
            preset: preset.clone(),
            rules: *rules,
            clock_spec: *clock,
            first: *first,
            public: *public,
            unrated: *unrated,
            no_chat: *no_chat,

            seats: vec![None; players],
            order: (0..players).collect(),
            pos: Position::new(*rules),
            moves: Vec::new(),
            clock: None,
            phase: Phase::Waiting,
            draw: vec![false; players],
            away: vec![None; players],
            turn_started_ms: *at_ms,
            paused: None,
            rematch: None,
            rematch_asked: vec![false; players],
            pauses: 0,
            next_seq: 1,
        };
        for event in &events[1..] {
            room.apply(event)?;
        }
        Ok(room)
    }

    pub fn players(&self) -> usize {
        self.seats.len()
    }

    /// The seat that plays `side` of the board now (a table flip exchanges the first two).
    pub fn seat_of_side(&self, side: usize) -> usize {
        let side = if self.pos.swapped() && side < 2 {
            1 - side
        } else {
            side
        };
        self.order[side]
    }

    /// The seat whose turn it is, while the game is played.
    pub fn mover(&self) -> Option<usize> {
        (self.phase == Phase::Playing).then(|| self.seat_of_side(self.pos.to_move()))
    }

    pub fn seat_of_player(&self, player: &str) -> Option<usize> {
        self.seats
            .iter()
            .position(|s| s.as_ref().is_some_and(|p| p.id == player))
    }

    pub fn free_seat(&self) -> Option<usize> {
        self.seats.iter().position(Option::is_none)
    }

    pub fn seated(&self) -> usize {
        self.seats.iter().filter(|s| s.is_some()).count()
    }

    /// The board's scores by seat.
    pub fn scores_by_seat(&self) -> Vec<i32> {
        let mut scores = vec![0; self.players()];
        for side in 0..self.players() {
            scores[self.seat_of_side(side)] = self.pos.score(side);
        }
        scores
    }

    /// The room as the lobby lists it.
    pub fn summary(&self) -> RoomSummary {
        let creator = self
            .seats
            .iter()
            .flatten()
            .next()
            .cloned()
            .unwrap_or(PlayerInfo {
                id: String::new(),
                name: String::new(),
                rating: 0.0,
                deviation: 0.0,
                games: 0,
                bot: false,
            });
        RoomSummary {
            code: self.code.clone(),
            preset: self.preset.clone(),
            players: self.rules.players,
            clock: self.clock_spec,
            creator,
            seated: self.seated() as u8,
            win_at: self.rules.win_at,
        }
    }

    /// Clocks by seat at `now`, for a timed game that has started.
    pub fn clocks_at(&self, now: i64) -> Option<Vec<i64>> {
        self.clock.as_ref().map(|c| c.all_remaining(now))
    }

    /// The number of moves played, a table flip's `swap` included: the `ply` of the next move
    /// in the protocol (the position's own ply does not count the swap).
    pub fn turn(&self) -> u32 {
        self.moves.len() as u32
    }

    /// Whether the game is still in its first moves, which abort instead of losing on time.
    pub fn in_opening(&self) -> bool {
        self.moves.len() < self.players()
    }

    /// Apply event number `next_seq` of the log.
    pub fn apply(&mut self, event: &RoomEvent) -> Result<(), BadLog> {
        let seq = self.next_seq;
        let prefix = |what: String| BadLog(format!("event {seq}: {what}"));
        let bad = |what: String| Err(prefix(what));
        match event {
            RoomEvent::Opened { .. } => return bad("a second `opened`".into()),
            RoomEvent::Seated { seat, player } => match self.seats.get_mut(*seat) {
                Some(slot @ None) => *slot = Some(player.clone()),
                _ => return bad(format!("seat {seat} is not free")),
            },
            RoomEvent::Unseated { seat } => match self.seats.get_mut(*seat) {
                Some(slot @ Some(_)) => *slot = None,
                _ => return bad(format!("seat {seat} is empty")),
            },
            RoomEvent::Started {
                order,
                clocks,
                at_ms,
            } => self
                .started(order, clocks.as_deref(), *at_ms)
                .map_err(prefix)?,
            RoomEvent::Moved {
                ply,
                mv,
                seat,
                clocks,
                lag_ms,
                at_ms,
                ..
            } => {
                let clocks = clocks.as_deref();
                let played = self.moved(*ply, mv, *seat, clocks, *lag_ms, *at_ms);
                played.map_err(prefix)?
            }
            RoomEvent::DrawOffered { seat } => match self.draw.get_mut(*seat) {
                Some(d) => *d = true,
                None => return bad(format!("no seat {seat}")),
            },
            RoomEvent::Away { seat, at_ms } => match self.away.get_mut(*seat) {
                Some(a) => *a = Some(*at_ms),
                None => return bad(format!("no seat {seat}")),
            },
            RoomEvent::Back { seat, .. } => match self.away.get_mut(*seat) {
                Some(a) => *a = None,
                None => return bad(format!("no seat {seat}")),
            },
            RoomEvent::Resumed { at_ms } => self.resumed(*at_ms),
            RoomEvent::Paused { at_ms } => {
                if self.phase != Phase::Playing || self.paused.is_some() {
                    return bad("a pause of a game that is not running".into());
                }
                // The mover's time until now is spent; none runs until `resumed`.
                if let Some(clock) = self.clock.as_mut() {
                    clock.stop(*at_ms);
                }
                self.paused = Some(*at_ms);
                self.pauses = self.pauses.saturating_add(1);
            }
            RoomEvent::Ended { result, at_ms, .. } => {
                if let Some(clock) = self.clock.as_mut() {
                    clock.stop(*at_ms);
                }
                self.phase = Phase::Ended(result.clone());
            }
            RoomEvent::RematchOffered { seat } => {
                if !matches!(self.phase, Phase::Ended(_)) {
                    return bad("a rematch asked before the game ended".into());
                }
                match self.rematch_asked.get_mut(*seat) {
                    Some(asked) => *asked = true,
                    None => return bad(format!("no seat {seat}")),
                }
            }
            RoomEvent::Rematch { room } => self.rematch = Some(room.clone()),
        }
        self.next_seq += 1;
        Ok(())
    }

    /// The game starts: one seat per side in `order`, the clocks as the log has them.
    fn started(
        &mut self,
        order: &[usize],
        clocks: Option<&[i64]>,
        at_ms: i64,
    ) -> Result<(), String> {
        let mut sorted = order.to_vec();
        sorted.sort_unstable();
        if sorted != (0..self.players()).collect::<Vec<_>>() {
            return Err(format!("order {order:?} is not one seat per side"));
        }
        self.order = order.to_vec();
        self.phase = Phase::Playing;
        if let (
            ClockSpec::Fischer {
                base_ms,
                increment_ms,
            },
            Some(clocks),
        ) = (self.clock_spec, clocks)
        {
            let mut clock = GameClock::new(self.players(), base_ms, increment_ms);
            clock.restore(clocks);
            self.clock = Some(clock);
        }
        if let (ClockSpec::Correspondence { .. }, Some(clocks)) = (self.clock_spec, clocks) {
            // The allowance is in the log (the server's day may be shortened).
            let full = clocks.first().copied().unwrap_or(0);
            self.clock = Some(GameClock::per_move(self.players(), full));
        }
        self.start_turn(at_ms);
        Ok(())
    }

    /// Move `mv`, number `ply`, by `seat`: in turn and legal, or the log is bad.
    fn moved(
        &mut self,
        ply: u32,
        mv: &str,
        seat: usize,
        clocks: Option<&[i64]>,
        lag_ms: i64,
        at_ms: i64,
    ) -> Result<(), String> {
        if self.mover() != Some(seat) || ply != self.turn() {
            return Err(format!("move {mv} by seat {seat} out of turn"));
        }
        let Ok(m) = mv.parse::<Move>() else {
            return Err(format!("{mv:?} is not a move"));
        };
        self.pos.play(m).map_err(|e| format!("{mv}: {e}"))?;
        self.moves.push(m);
        if let (Some(clock), Some(clocks)) = (self.clock.as_mut(), clocks) {
            clock.restore(clocks);
            // The lag credited to this move came out of the mover's quota.
            clock.credited(seat, lag_ms);
        }
        self.draw.iter_mut().for_each(|d| *d = false);
        self.start_turn(at_ms);
        Ok(())
    }

    /// The room is back after a server's restart at `at_ms`.
    fn resumed(&mut self, at_ms: i64) {
        // The clocks stand as the last move left them; the turn starts again now. The time no
        // server kept the room is nobody's: a player away is counted away from now, so a claim
        // cannot come out of the server's own downtime.
        for away in self.away.iter_mut().flatten() {
            *away = (*away).max(at_ms);
        }
        if self.phase == Phase::Playing {
            if let Some(clock) = self.clock.as_mut() {
                let left = clock.all_remaining(self.turn_started_ms);
                clock.restore(&left);
            }
            self.paused = None;
            self.start_turn(at_ms);
        }
    }

    fn start_turn(&mut self, at_ms: i64) {
        self.turn_started_ms = at_ms;
        if self.pos.is_over() {
            return;
        }
        let mover = self.seat_of_side(self.pos.to_move());
        if let Some(clock) = self.clock.as_mut()
            && self.paused.is_none()
        {
            clock.start_turn(mover, at_ms);
        }
    }

    /// How the game ended under the rules, once the position is over.
    pub fn result_by_rules(&self) -> Option<GameResult> {
        let places = self.pos.places()?;
        let mut by_seat = vec![0; self.players()];
        for side in 0..self.players() {
            by_seat[self.seat_of_side(side)] = places[side];
        }
        Some(GameResult {
            cause: EndCause::Rules,
            places: by_seat,
            scores: self.scores_by_seat(),
            by: None,
        })
    }

    /// The result when `loser` loses for `cause` (time, resignation, abandonment): the loser
    /// last, everyone else by score.
    pub fn result_against(&self, loser: usize, cause: EndCause) -> GameResult {
        let scores = self.scores_by_seat();
        let rank = |s: usize| (s == loser, -scores[s]);
        let places = (0..self.players())
            .map(|s| (0..self.players()).filter(|&t| rank(t) < rank(s)).count() as u8)
            .collect();
        GameResult {
            cause,
            places,
            scores,
            by: Some(loser),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::Untimed;
    use oaq_rules::presets;

    fn player(id: &str) -> PlayerInfo {
        PlayerInfo {
            id: id.into(),
            name: id.into(),
            rating: 1500.0,
            deviation: 350.0,
            games: 0,
            bot: false,
        }
    }

    fn log(clock: ClockSpec) -> Vec<RoomEvent> {
        vec![
            RoomEvent::Opened {
                code: "K7Q2MX".into(),
                preset: "table-flip".into(),
                rules: presets::get("table-flip").unwrap().rules,
                clock,
                first: First::Them,
                public: false,
                at_ms: 1_000,
                unrated: false,
                no_chat: false,
            },
            RoomEvent::Seated {
                seat: 0,
                player: player("a"),
            },
            RoomEvent::Seated {
                seat: 1,
                player: player("b"),
            },
            RoomEvent::Started {
                order: vec![1, 0],
                clocks: Some(vec![60_000, 60_000]),
                at_ms: 2_000,
            },
        ]
    }

    fn moved(ply: u32, mv: &str, seat: usize, clocks: [i64; 2], at_ms: i64) -> RoomEvent {
        RoomEvent::Moved {
            ply,
            mv: mv.into(),
            seat,
            state: serde_json::Value::Null,
            clocks: Some(clocks.to_vec()),
            spent_ms: 0,
            lag_ms: 0,
            at_ms,
        }
    }

    #[test]
    fn the_log_folds_into_seats_turns_and_clocks() {
        let timed = ClockSpec::Fischer {
            base_ms: 60_000,
            increment_ms: 0,
        };
        let mut events = log(timed);
        let room = RoomState::from_log(&events).unwrap();
        assert_eq!(room.mover(), Some(1), "order[0] = seat 1 moves first");
        assert_eq!(room.clocks_at(7_000), Some(vec![60_000, 55_000]));
        events.push(moved(0, "2+", 1, [60_000, 55_000], 7_000));
        // The swap is seat 0's turn; after it seat 0 plays the side that opened, and the opener
        // moves again, from the other side.
        events.push(moved(1, "swap", 0, [58_000, 55_000], 9_000));
        let room = RoomState::from_log(&events).unwrap();
        assert!(room.pos.swapped());
        assert_eq!(room.turn(), 2);
        assert_eq!(room.mover(), Some(1));
        assert_eq!(room.seat_of_side(0), 0);
        // A restart at 100 s: the clocks stand as the last move left them and run from then.
        events.push(RoomEvent::Resumed { at_ms: 100_000 });
        let room = RoomState::from_log(&events).unwrap();
        assert_eq!(room.clocks_at(100_500), Some(vec![58_000, 54_500]));
    }

    #[test]
    fn the_lag_quota_is_kept_in_the_log() {
        let timed = ClockSpec::Fischer {
            base_ms: 60_000,
            increment_ms: 0,
        };
        let mut events = log(timed);
        let fresh = RoomState::from_log(&events).unwrap().clock.unwrap();
        let start = fresh.lag_quota(1).unwrap();
        let mut credited = moved(0, "2+", 1, [60_000, 55_000], 7_000);
        if let RoomEvent::Moved { lag_ms, .. } = &mut credited {
            *lag_ms = start.quota;
        }
        events.push(credited);
        let room = RoomState::from_log(&events).unwrap();
        let clock = room.clock.unwrap();
        assert_eq!(
            clock.lag_quota(1).unwrap().quota,
            start.gain,
            "spent, one move gained"
        );
        assert_eq!(
            clock.lag_quota(0),
            Some(start),
            "the other seat's is untouched"
        );
    }

    #[test]
    fn time_away_restarts_when_the_room_is_resumed() {
        let mut events = log(ClockSpec::Untimed(Untimed::Untimed));
        events.push(RoomEvent::Away {
            seat: 0,
            at_ms: 3_000,
        });
        events.push(RoomEvent::Resumed { at_ms: 11_000 });
        let room = RoomState::from_log(&events).unwrap();
        assert_eq!(room.away, vec![Some(11_000), None]);
    }

    #[test]
    fn a_paused_correspondence_game_keeps_both_clocks_until_it_resumes() {
        let day = 1_000;
        let mut events = log(ClockSpec::Correspondence { days: 2 });
        if let RoomEvent::Started { clocks, .. } = &mut events[3] {
            *clocks = Some(vec![2 * day, 2 * day]);
        }
        let room = RoomState::from_log(&events).unwrap();
        assert_eq!(
            room.clock.as_ref().unwrap().deadline(),
            Some((1, 2_000 + 2 * day))
        );
        // Seat 1 is half a day into its move when the pause begins.
        events.push(RoomEvent::Paused { at_ms: 2_500 });
        let room = RoomState::from_log(&events).unwrap();
        assert_eq!(room.clocks_at(50_000), Some(vec![2_000, 1_500]));
        assert_eq!(room.clock.as_ref().unwrap().deadline(), None);
        // It moves while paused: its clock is whole again, and seat 0's does not start.
        events.push(moved(0, "2+", 1, [2_000, 2_000], 9_000));
        let room = RoomState::from_log(&events).unwrap();
        assert_eq!(room.clocks_at(60_000), Some(vec![2_000, 2_000]));
        events.push(RoomEvent::Resumed { at_ms: 70_000 });
        let room = RoomState::from_log(&events).unwrap();
        assert_eq!(room.paused, None);
        assert_eq!(room.clock.as_ref().unwrap().deadline(), Some((0, 72_000)));
        events.push(RoomEvent::Resumed { at_ms: 80_000 });
        events.push(RoomEvent::Paused { at_ms: 81_000 });
        assert!(RoomState::from_log(&events).is_ok());
        events.push(RoomEvent::Paused { at_ms: 82_000 });
        assert!(RoomState::from_log(&events).is_err(), "paused twice");
    }

    #[test]
    fn a_log_that_breaks_the_rules_is_refused() {
        let mut events = log(ClockSpec::Untimed(Untimed::Untimed));
        events.push(moved(0, "2+", 0, [0, 0], 3_000));
        let err = RoomState::from_log(&events).unwrap_err();
        assert!(err.0.contains("out of turn"), "{}", err.0);
        let mut events = log(ClockSpec::Untimed(Untimed::Untimed));
        events.push(moved(0, "7+", 1, [0, 0], 3_000));
        let err = RoomState::from_log(&events).unwrap_err();
        assert!(err.0.contains("7+"), "the other side's pit: {}", err.0);
        assert!(RoomState::from_log(&events[1..]).is_err(), "no `opened`");
    }
}
