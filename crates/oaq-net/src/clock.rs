//! The clocks of an online game, kept by the server in integer milliseconds: Fischer increment,
//! and lag compensation in the manner of lichess's lag tracker (each move may be credited the
//! network time it lost, out of a quota that refills by at most a second a move). Pure: the
//! caller passes the time, so every case is testable without waiting.
//!
//! ```
//! use oaq_net::clock::GameClock;
//! let mut clock = GameClock::new(2, 60_000, 2_000);
//! clock.start_turn(0, 1_000);
//! // Seat 0 moves 5 s later; it says it thought 4.8 s, so 0.2 s was the network's.
//! let spent = clock.on_move(0, 6_000, Some(4_800)).unwrap();
//! assert_eq!((spent.spent_ms, spent.lag_ms), (4_800, 200));
//! assert_eq!(clock.remaining(0, 6_000), 60_000 - 4_800 + 2_000);
//! ```

/// The most lag a single move may be credited (lichess: 3 s).
pub const MAX_MOVE_COMP_MS: i64 = 3_000;

/// One seat's lag allowance: credited lag comes out of the quota, every move adds `gain` back,
/// and the quota never exceeds `max`. A client that claims it thought for no time at all gets
/// no more than the quota, so it cannot take time it did not lose to the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LagQuota {
    pub quota: i64,
    pub gain: i64,
    pub max: i64,
}

impl LagQuota {
    /// The allowance for a time control: a second a move (less for very short games, whose
    /// moves are worth less time), up to five moves' worth banked, two to start.
    pub fn for_control(base_ms: u64, increment_ms: u64) -> LagQuota {
        // A game's expected length, as lichess estimates it: the base and 40 increments.
        let estimate_s = (base_ms + 40 * increment_ms) / 1000;
        let gain = (150 + 4 * estimate_s as i64).min(1_000);
        LagQuota {
            quota: 2 * gain,
            gain,
            max: 5 * gain,
        }
    }

    /// Credit `lag` (measured minus reported think time) to a move: returns what is credited.
    pub fn on_move(&mut self, lag: i64) -> i64 {
        let comp = lag.clamp(0, MAX_MOVE_COMP_MS.min(self.quota));
        self.spend(comp);
        comp
    }

    /// A move was credited `comp`: the quota pays it and gains a move's worth back. The room's
    /// log replays this from each move's `lag_ms`, so a restart or another node taking the
    /// room over finds the quota where the last move left it.
    pub fn spend(&mut self, comp: i64) {
        let comp = comp.clamp(0, self.quota.max(0));
        self.quota = self
            .quota
            .saturating_add(self.gain)
            .saturating_sub(comp)
            .min(self.max);
    }
}

/// What a move cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime {
    /// Charged to the mover's clock.
    pub spent_ms: i64,
    /// Given back as network time.
    pub lag_ms: i64,
}

/// The mover's clock ran out before the move arrived.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Flagged {
    pub seat: usize,
}

/// The clocks of every seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameClock {
    remaining: Vec<i64>,
    increment: i64,
    lag: Vec<LagQuota>,
    /// The seat whose clock runs, and since when (server time, Unix ms).
    running: Option<(usize, i64)>,
    /// Correspondence: a move sets the mover's clock back to this (instead of an increment).
    per_move: Option<i64>,
}

impl GameClock {
    pub fn new(seats: usize, base_ms: u64, increment_ms: u64) -> GameClock {
        GameClock {
            remaining: vec![base_ms as i64; seats],
            increment: increment_ms as i64,
            lag: vec![LagQuota::for_control(base_ms, increment_ms); seats],
            running: None,
            per_move: None,
        }
    }

    /// A correspondence clock: `per_move_ms` for each move, set back to it after every move;
    /// no increment and no lag credit (a day's allowance dwarfs any network's).
    pub fn per_move(seats: usize, per_move_ms: i64) -> GameClock {
        GameClock {
            remaining: vec![per_move_ms; seats],
            increment: 0,
            lag: vec![
                LagQuota {
                    quota: 0,
                    gain: 0,
                    max: 0
                };
                seats
            ],
            running: None,
            per_move: Some(per_move_ms),
        }
    }

    /// `seat`'s turn begins at `now`.
    pub fn start_turn(&mut self, seat: usize, now: i64) {
        self.running = Some((seat, now));
    }

    /// Stop every clock (the game is over).
    pub fn stop(&mut self, now: i64) {
        if let Some((seat, since)) = self.running.take()
            && let Some(left) = self.remaining.get_mut(seat)
        {
            *left = left.saturating_sub(now.saturating_sub(since).max(0)).max(0);
        }
    }

    /// The seat whose clock runs.
    pub fn running(&self) -> Option<usize> {
        self.running.map(|(seat, _)| seat)
    }

    /// `seat`'s time left at `now` (never below zero).
    pub fn remaining(&self, seat: usize, now: i64) -> i64 {
        let Some(&base) = self.remaining.get(seat) else {
            return 0;
        };
        let left = match self.running {
            Some((s, since)) if s == seat => base.saturating_sub(now.saturating_sub(since).max(0)),
            _ => base,
        };
        left.max(0)
    }

    /// Every seat's time left at `now`.
    pub fn all_remaining(&self, now: i64) -> Vec<i64> {
        (0..self.remaining.len())
            .map(|s| self.remaining(s, now))
            .collect()
    }

    /// When the running clock reaches zero if nobody moves.
    pub fn deadline(&self) -> Option<(usize, i64)> {
        self.running.map(|(seat, since)| {
            let left = self.remaining.get(seat).copied().unwrap_or(0);
            (seat, since.saturating_add(left))
        })
    }

    /// `seat` moved at `now`, having thought `reported_ms` by its own account. The time since
    /// the turn began is charged less the lag credited; the increment is added. Out of time
    /// (even counting the lag credit) is `Flagged`, and nothing changes.
    pub fn on_move(
        &mut self,
        seat: usize,
        now: i64,
        reported_ms: Option<u64>,
    ) -> Result<MoveTime, Flagged> {
        let Some((running, since)) = self.running else {
            // No clock runs (untimed, or a correspondence game paused): nothing is spent, and
            // a correspondence mover still gets the whole allowance for the next move.
            if let (Some(full), Some(left)) = (self.per_move, self.remaining.get_mut(seat)) {
                *left = full;
            }
            return Ok(MoveTime {
                spent_ms: 0,
                lag_ms: 0,
            });
        };
        debug_assert_eq!(running, seat, "only the mover's clock runs");
        let elapsed = now.saturating_sub(since).max(0);
        // A report beyond what the move took is no lag (and a huge one cannot overflow).
        let reported = reported_ms.map(|r| i64::try_from(r).unwrap_or(i64::MAX).min(elapsed));
        let lag = reported.map_or(0, |r| elapsed - r);
        let Some(&quota) = self.lag.get(seat) else {
            return Err(Flagged { seat });
        };
        let mut quota = quota;
        let comp = quota.on_move(lag);
        let spent = elapsed - comp;
        if seat >= self.remaining.len() || spent >= self.remaining[seat] {
            return Err(Flagged { seat });
        }
        self.lag[seat] = quota;
        self.remaining[seat] = match self.per_move {
            Some(full) => full,
            None => self.remaining[seat]
                .saturating_add(self.increment)
                .saturating_sub(spent),
        };
        self.running = None;
        Ok(MoveTime {
            spent_ms: spent,
            lag_ms: comp,
        })
    }

    /// Set the clocks back to the given times, none running (a room rebuilt from its log).
    /// A list of another length (a corrupt log) changes only the seats both have.
    pub fn restore(&mut self, remaining: &[i64]) {
        for (mine, &theirs) in self.remaining.iter_mut().zip(remaining) {
            *mine = theirs;
        }
        self.running = None;
    }

    /// A move of `seat`'s was credited `lag_ms` (as its `moved` event says): spend it from
    /// that seat's quota, as [`GameClock::on_move`] did when the move was made.
    pub fn credited(&mut self, seat: usize, lag_ms: i64) {
        if let Some(quota) = self.lag.get_mut(seat) {
            quota.spend(lag_ms);
        }
    }

    /// `seat`'s lag allowance now.
    pub fn lag_quota(&self, seat: usize) -> Option<LagQuota> {
        self.lag.get(seat).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fischer_increment_follows_each_move() {
        let mut clock = GameClock::new(2, 10_000, 1_000);
        clock.start_turn(0, 0);
        assert_eq!(clock.on_move(0, 3_000, None).unwrap().spent_ms, 3_000);
        assert_eq!(clock.remaining(0, 99_999), 8_000);
        clock.start_turn(1, 3_000);
        assert_eq!(clock.remaining(1, 5_000), 8_000);
        assert_eq!(clock.deadline(), Some((1, 13_000)));
        clock.on_move(1, 12_999, None).unwrap();
        assert_eq!(clock.all_remaining(20_000), vec![8_000, 1_001]);
    }

    #[test]
    fn a_move_after_the_flag_is_refused_and_changes_nothing() {
        let mut clock = GameClock::new(2, 5_000, 0);
        clock.start_turn(0, 0);
        let before = clock.clone();
        assert_eq!(clock.on_move(0, 5_000, None), Err(Flagged { seat: 0 }));
        assert_eq!(clock, before);
        assert_eq!(clock.remaining(0, 7_000), 0);
    }

    #[test]
    fn lag_is_credited_out_of_a_quota_that_refills_a_second_a_move() {
        let mut q = LagQuota::for_control(600_000, 5_000);
        assert_eq!((q.quota, q.gain, q.max), (2_000, 1_000, 5_000));
        // A claimed lag beyond the per-move cap is cut to it.
        assert_eq!(q.on_move(10_000), 2_000);
        assert_eq!(q.quota, 1_000);
        assert_eq!(q.on_move(10_000), 1_000);
        assert_eq!(q.on_move(10_000), 1_000);
        // Honest small lags bank up to the cap and no further.
        for _ in 0..10 {
            q.on_move(50);
        }
        assert_eq!(q.quota, 5_000);
        assert_eq!(q.on_move(-300), 0, "negative lag is no credit");
    }

    #[test]
    fn a_client_cannot_claim_time_it_did_not_lose() {
        // Thinking 20 s and claiming 0 s of thought: the credit is the quota, not 20 s.
        let mut clock = GameClock::new(2, 60_000, 0);
        let mut now = 0;
        let mut credited = 0;
        for _ in 0..10 {
            clock.start_turn(0, now);
            now += 20_000 / 10;
            credited += clock.on_move(0, now, Some(0)).unwrap().lag_ms;
        }
        let gain = LagQuota::for_control(60_000, 0).gain;
        assert!(credited <= 2 * gain + 10 * gain, "credited {credited}");
        assert!(clock.remaining(0, now) < 60_000);
    }

    #[test]
    fn a_client_that_always_claims_no_thought_spends_its_quota() {
        // A 10+5 game, every move 1.5 s after the turn began and reported as 0 ms of thought:
        // the quota pays the first moves and then only what each move gains back.
        let mut clock = GameClock::new(2, 600_000, 5_000);
        let mut now = 0;
        let credits: Vec<i64> = (0..10)
            .map(|_| {
                clock.start_turn(0, now);
                now += 1_500;
                clock.on_move(0, now, Some(0)).unwrap().lag_ms
            })
            .collect();
        assert_eq!(credits[..3], [1_500, 1_500, 1_000]);
        assert!(credits[3..].iter().all(|&c| c == 1_000), "{credits:?}");
        assert_eq!(
            credits.iter().sum::<i64>(),
            11_000,
            "under the 12 s ceiling"
        );
    }

    #[test]
    fn numbers_from_the_network_cannot_overflow_a_clock() {
        let mut clock = GameClock::new(2, 60_000, 0);
        clock.start_turn(0, 1_000);
        let t = clock.on_move(0, 2_000, Some(u64::MAX)).unwrap();
        assert_eq!((t.spent_ms, t.lag_ms), (1_000, 0));
        clock.start_turn(1, i64::MIN);
        assert_eq!(
            clock.on_move(1, i64::MAX, Some(1 << 63)),
            Err(Flagged { seat: 1 })
        );
        assert_eq!(clock.remaining(1, i64::MAX), 0);
        clock.restore(&[5]);
        assert_eq!(clock.all_remaining(0), vec![5, 60_000]);
    }

    #[test]
    fn a_correspondence_clock_is_set_back_to_the_whole_allowance_after_each_move() {
        let day = 86_400_000;
        let mut clock = GameClock::per_move(2, 3 * day);
        clock.start_turn(0, 0);
        let t = clock.on_move(0, 2 * day, Some(0)).unwrap();
        assert_eq!((t.spent_ms, t.lag_ms), (2 * day, 0), "no lag credit");
        assert_eq!(clock.remaining(0, 5 * day), 3 * day);
        clock.start_turn(1, 2 * day);
        assert_eq!(clock.deadline(), Some((1, 5 * day)));
        assert_eq!(clock.on_move(1, 5 * day, None), Err(Flagged { seat: 1 }));
        // Stopped (a pause), a move spends nothing and still sets the mover's clock back.
        clock.stop(3 * day);
        assert_eq!(clock.remaining(1, 9 * day), 2 * day);
        clock.on_move(1, 9 * day, None).unwrap();
        assert_eq!(clock.all_remaining(9 * day), vec![3 * day, 3 * day]);
    }

    #[test]
    fn short_games_get_a_smaller_allowance() {
        let bullet = LagQuota::for_control(60_000, 0);
        let rapid = LagQuota::for_control(600_000, 5_000);
        assert!(bullet.gain < rapid.gain);
        assert_eq!(bullet.gain, 150 + 4 * 60);
    }
}
