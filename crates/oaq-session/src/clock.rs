//! The clock of a game played on one device (two or three people, or against the computer):
//! minutes for each player, seconds added after each of their moves (Fischer), out of time
//! loses. Pure: the caller says how much time passed, so every case is testable without
//! waiting. Online games keep theirs on the server (`net::clock`).
//!
//! ```
//! use oaq_session::{MatchClock, TimeControl};
//! let mut clock = MatchClock::new(TimeControl { minutes: 3, increment_s: 2 }, 2);
//! assert!(!clock.spend(0, 10_000));
//! clock.moved(0);
//! assert_eq!(clock.remaining(0), 180_000 - 10_000 + 2_000);
//! assert!(clock.spend(1, 180_000), "seat 1 ran out");
//! assert_eq!((clock.flagged(), clock.remaining(1)), (Some(1), 0));
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

/// Minutes for each player and seconds added after each of their moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TimeControl {
    pub minutes: u32,
    pub increment_s: u32,
}

impl TimeControl {
    /// The choices of the menu, after "untimed".
    pub const OFFERED: [TimeControl; 5] = [
        TimeControl::new(1, 0),
        TimeControl::new(3, 2),
        TimeControl::new(5, 3),
        TimeControl::new(10, 5),
        TimeControl::new(15, 10),
    ];
    /// Longest base a file may ask for (three hours) and largest increment (a minute).
    pub const MAX_MINUTES: u32 = 180;
    pub const MAX_INCREMENT_S: u32 = 60;

    pub const fn new(minutes: u32, increment_s: u32) -> TimeControl {
        TimeControl {
            minutes,
            increment_s,
        }
    }

    pub fn base_ms(self) -> i64 {
        i64::from(self.minutes) * 60_000
    }

    pub fn increment_ms(self) -> i64 {
        i64::from(self.increment_s) * 1000
    }

    /// Why this control cannot be played, if it cannot.
    pub fn check(self) -> Result<(), String> {
        if !(1..=Self::MAX_MINUTES).contains(&self.minutes) {
            return Err(format!(
                "{} minutes is not from 1 to {}",
                self.minutes,
                Self::MAX_MINUTES
            ));
        }
        if self.increment_s > Self::MAX_INCREMENT_S {
            return Err(format!(
                "an increment of {} s is more than {} s",
                self.increment_s,
                Self::MAX_INCREMENT_S
            ));
        }
        Ok(())
    }
}

/// As players write it: `5+3`.
impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}+{}", self.minutes, self.increment_s)
    }
}

/// `5+3`: minutes, then seconds added a move; checked as `check` does.
impl std::str::FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<TimeControl, String> {
        let (minutes, seconds) = text
            .split_once('+')
            .ok_or_else(|| format!("{text:?} is not MINUTES+SECONDS, like 5+3"))?;
        let number = |part: &str, what: &str| {
            part.trim()
                .parse::<u32>()
                .map_err(|_| format!("{part:?} is not a whole number of {what}"))
        };
        let control = TimeControl::new(number(minutes, "minutes")?, number(seconds, "seconds")?);
        control.check()?;
        Ok(control)
    }
}

/// The time each seat has left, in milliseconds, and whether one of them ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchClock {
    control: TimeControl,
    remaining: Vec<i64>,
    flagged: Option<usize>,
}

impl MatchClock {
    /// Every seat starts with the control's minutes.
    pub fn new(control: TimeControl, seats: usize) -> MatchClock {
        MatchClock {
            control,
            remaining: vec![control.base_ms(); seats],
            flagged: None,
        }
    }

    /// A clock as a file kept it: a seat with no time left has run out.
    pub fn restore(control: TimeControl, remaining: Vec<i64>) -> Result<MatchClock, String> {
        control.check()?;
        if let Some(ms) = remaining.iter().find(|&&ms| ms < 0) {
            return Err(format!("{ms} ms left is below zero"));
        }
        let flagged = remaining.iter().position(|&ms| ms == 0);
        Ok(MatchClock {
            control,
            remaining,
            flagged,
        })
    }

    pub fn control(&self) -> TimeControl {
        self.control
    }

    pub fn remaining(&self, seat: usize) -> i64 {
        self.remaining.get(seat).copied().unwrap_or(0)
    }

    pub fn all_remaining(&self) -> &[i64] {
        &self.remaining
    }

    /// The seat that ran out of time: the game is over.
    pub fn flagged(&self) -> Option<usize> {
        self.flagged
    }

    /// `ms` of `seat`'s thinking went by. Returns whether its time ran out now.
    pub fn spend(&mut self, seat: usize, ms: i64) -> bool {
        if self.flagged.is_some() || seat >= self.remaining.len() {
            return false;
        }
        let left = &mut self.remaining[seat];
        *left = (*left - ms.max(0)).max(0);
        if *left == 0 {
            self.flagged = Some(seat);
        }
        self.flagged.is_some()
    }

    /// `seat` moved in time: its increment is added.
    pub fn moved(&mut self, seat: usize) {
        if self.flagged.is_none()
            && let Some(left) = self.remaining.get_mut(seat)
        {
            *left += self.control.increment_ms();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_counts_down_adds_increments_and_stops_at_zero() {
        let mut clock = MatchClock::new(TimeControl::new(1, 5), 3);
        assert!(!clock.spend(2, 59_999));
        assert_eq!(clock.remaining(2), 1);
        clock.moved(2);
        assert_eq!(clock.remaining(2), 5_001);
        assert!(!clock.spend(0, -50), "time never runs backwards");
        assert_eq!(clock.remaining(0), 60_000);
        assert!(clock.spend(1, 90_000));
        assert_eq!(clock.flagged(), Some(1));
        assert_eq!(clock.remaining(1), 0, "never below zero");
        // Once a seat has run out, the clock stands.
        assert!(!clock.spend(0, 1_000));
        clock.moved(0);
        assert_eq!(clock.all_remaining(), &[60_000, 0, 5_001]);
    }

    #[test]
    fn a_kept_clock_is_checked_and_a_seat_with_nothing_left_has_run_out() {
        let control = TimeControl::new(3, 2);
        let clock = MatchClock::restore(control, vec![5_000, 0]).unwrap();
        assert_eq!(clock.flagged(), Some(1));
        let error = MatchClock::restore(control, vec![5_000, -1]).unwrap_err();
        assert!(error.contains("-1 ms"), "{error}");
        let error = MatchClock::restore(TimeControl::new(0, 2), vec![1, 1]).unwrap_err();
        assert!(error.contains("0 minutes"), "{error}");
        let error = TimeControl::new(5, 61).check().unwrap_err();
        assert!(error.contains("61 s"), "{error}");
        assert_eq!(TimeControl::new(5, 3).to_string(), "5+3");
        assert!(TimeControl::OFFERED.iter().all(|c| c.check().is_ok()));
        assert_eq!("10+5".parse(), Ok(TimeControl::new(10, 5)));
        assert_eq!(
            "5".parse::<TimeControl>().unwrap_err(),
            "\"5\" is not MINUTES+SECONDS, like 5+3"
        );
        assert_eq!(
            "x+3".parse::<TimeControl>().unwrap_err(),
            "\"x\" is not a whole number of minutes"
        );
        assert!("0+3".parse::<TimeControl>().is_err());
    }
}
