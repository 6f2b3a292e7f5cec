//! The values the protocol's messages carry that the other parts of online play share too: room
//! codes, time controls, who moves first, a player as others see them. Lowest in the crate:
//! `protocol`, `social`, `pool` and `room` use it, it uses none of them.

use serde::{Deserialize, Serialize};

/// Room codes: six characters from an alphabet with no look-alikes (no 0/O, 1/I/L), so a code
/// read aloud or typed from a phone is the code.
pub const CODE_LEN: usize = 6;
pub const CODE_ALPHABET: &[u8; 31] = b"ABCDEFGHJKMNPQRSTUVWXYZ23456789";

/// Whether `code` has a room code's shape (the server looks up only such codes).
pub fn is_room_code(code: &str) -> bool {
    code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b))
}

/// A room's time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ClockSpec {
    /// `"untimed"`.
    Untimed(Untimed),
    /// Fischer: `base_ms` each, `increment_ms` added after each of one's moves.
    Fischer { base_ms: u64, increment_ms: u64 },
    /// Correspondence: `days` for each move (one of [`CORRESPONDENCE_DAYS`]), the mover's clock
    /// set back to the whole allowance after each move. `{"days": 3}`.
    Correspondence { days: u8 },
}

/// The days a correspondence move may take, as offered.
pub const CORRESPONDENCE_DAYS: [u8; 6] = [1, 2, 3, 5, 7, 14];

/// The word `untimed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Untimed {
    Untimed,
}

/// The bounds of a time control, inclusive.
pub const BASE_MS: (u64, u64) = (1_000, 3 * 60 * 60 * 1000);
pub const INCREMENT_MS: (u64, u64) = (0, 60_000);

impl ClockSpec {
    pub const UNTIMED: ClockSpec = ClockSpec::Untimed(Untimed::Untimed);

    /// Refuses a time control outside the bounds, naming the field.
    pub fn validate(&self) -> Result<(), String> {
        if let ClockSpec::Correspondence { days } = *self
            && !CORRESPONDENCE_DAYS.contains(&days)
        {
            return Err(format!(
                "clock.days: {days} is not one of {CORRESPONDENCE_DAYS:?}"
            ));
        }
        if let ClockSpec::Fischer {
            base_ms,
            increment_ms,
        } = *self
        {
            if !(BASE_MS.0..=BASE_MS.1).contains(&base_ms) {
                return Err(format!(
                    "clock.base_ms: {base_ms} is outside {}..={}",
                    BASE_MS.0, BASE_MS.1
                ));
            }
            if !(INCREMENT_MS.0..=INCREMENT_MS.1).contains(&increment_ms) {
                return Err(format!(
                    "clock.increment_ms: {increment_ms} is outside {}..={}",
                    INCREMENT_MS.0, INCREMENT_MS.1
                ));
            }
        }
        Ok(())
    }

    /// Every seat's clock when a game of `seats` starts (`None`: untimed), a correspondence
    /// day lasting `day_ms` (a day, or less on a server shortened for tests).
    pub fn starting_clocks(&self, seats: usize, day_ms: u64) -> Option<Vec<i64>> {
        match *self {
            ClockSpec::Untimed(_) => None,
            ClockSpec::Fischer { base_ms, .. } => Some(vec![base_ms as i64; seats]),
            ClockSpec::Correspondence { days } => {
                Some(vec![(u64::from(days) * day_ms) as i64; seats])
            }
        }
    }

    /// Days per move when this is a correspondence game.
    pub fn days(&self) -> Option<u8> {
        match *self {
            ClockSpec::Correspondence { days } => Some(days),
            _ => None,
        }
    }

    /// `3+2`-style text for lists: minutes and seconds of increment.
    pub fn label(&self) -> String {
        match *self {
            ClockSpec::Untimed(_) => "untimed".into(),
            ClockSpec::Fischer {
                base_ms,
                increment_ms,
            } => {
                let minutes = base_ms as f64 / 60_000.0;
                // Quarter minutes as players write them (lichess's ¼+0).
                let base = match base_ms {
                    15_000 => "¼".to_owned(),
                    30_000 => "½".to_owned(),
                    45_000 => "¾".to_owned(),
                    ms if ms % 60_000 == 0 => format!("{}", ms / 60_000),
                    _ => format!("{minutes:.1}"),
                };
                format!("{base}+{}", increment_ms / 1000)
            }
            ClockSpec::Correspondence { days } => format!("{days}d"),
        }
    }
}

/// Who moves first in a new room.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum First {
    /// The room's creator.
    Me,
    /// The one who joins (on the 3-player board: the first to join).
    Them,
    #[default]
    Random,
}

/// A player as others see them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerInfo {
    pub id: String,
    pub name: String,
    pub rating: f64,
    pub deviation: f64,
    pub games: u64,
    /// A program playing through the bot API (shown with its BOT mark wherever its name is).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bot: bool,
}

impl PlayerInfo {
    /// The name as lists show it: a bot's with its mark before it.
    ///
    /// ```
    /// # use oaq_net::protocol::PlayerInfo;
    /// let mut p = PlayerInfo { id: "x".into(), name: "Lan".into(), rating: 1500.0,
    ///     deviation: 350.0, games: 0, bot: false };
    /// assert_eq!(p.shown_name(), "Lan");
    /// p.bot = true;
    /// assert_eq!(p.shown_name(), "BOT Lan");
    /// ```
    pub fn shown_name(&self) -> String {
        if self.bot {
            format!("BOT {}", self.name)
        } else {
            self.name.clone()
        }
    }
}
