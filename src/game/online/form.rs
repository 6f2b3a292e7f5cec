//! The online screen's form: its choices (rule set, the winning score, time control, who moves
//! first, public or private, a code typed), what its buttons do, the time controls offered and
//! their words, and the system sets the screen's input and drawing run in (the people pages run
//! between them).

use bevy::prelude::*;

use crate::net::protocol::{ClockSpec, First, RulesChoice};
use crate::rules::{RuleSet, presets};
use crate::session::Lang;

/// The time controls offered: untimed and the usual Fischer ones, minutes + seconds.
pub const CLOCKS: [(u64, u64); 4] = [(0, 0), (3, 2), (5, 3), (10, 5)];

/// The form's slot for a game by days (after the custom control).
pub const BY_DAYS: usize = CLOCKS.len() + 1;

/// A custom control's steps: each player's time in seconds (a quarter of a minute to three
/// hours, as lichess offers), and the seconds added a move.
pub const BASE_STEPS_S: [u64; 15] = [
    15, 30, 60, 120, 180, 300, 600, 900, 1200, 1800, 2700, 3600, 5400, 7200, 10800,
];
pub const INCREMENT_STEPS_S: [u64; 11] = [0, 1, 2, 3, 5, 10, 15, 20, 30, 45, 60];

/// `value` moved `step` places along `steps` (to the nearest step first), kept at the ends.
pub(super) fn step_along(steps: &[u64], value: u64, step: i8) -> u64 {
    let at = steps
        .iter()
        .position(|&s| s >= value)
        .unwrap_or(steps.len() - 1);
    let to = (at as isize + isize::from(step)).clamp(0, steps.len() as isize - 1);
    steps[to as usize]
}

/// A custom base as the form says it: "¼ min", "½ min", "15 min".
pub(super) fn base_words(seconds: u64, lang: Lang) -> String {
    let n = match seconds {
        15 => "¼".to_owned(),
        30 => "½".to_owned(),
        45 => "¾".to_owned(),
        s => (s / 60).to_string(),
    };
    lang.trf("online.minutes", &[("n", &n)])
}

/// The form's choices, kept while the screen is up.
#[derive(Resource, Debug, Clone, PartialEq)]
pub struct Form {
    pub preset: String,
    /// The winning-score switch (36 of 70, 53 of 105).
    pub majority: bool,
    /// Index in `CLOCKS`, `CLOCKS.len()` for custom, `CLOCKS.len() + 1` for days a move.
    pub clock: usize,
    /// Days a move (one of `CORRESPONDENCE_DAYS`) in a game by days.
    pub days: u8,
    /// The custom control: each player's time and the increment, in seconds.
    pub base_s: u64,
    pub increment: u64,
    pub first: First,
    pub public: bool,
    /// A room's code typed in.
    pub code: String,
    pub copied: bool,
}

impl Default for Form {
    fn default() -> Form {
        Form {
            preset: "standard".to_owned(),
            majority: false,
            clock: 2,
            days: 3,
            base_s: 900,
            increment: 10,
            first: First::Random,
            public: true,
            code: String::new(),
            copied: false,
        }
    }
}

impl Form {
    /// The rules and clock a challenge (or a tournament) proposes: the form's, the rule set's
    /// majority as its goal when chosen; a rule set for more players than two proposes the
    /// standard one.
    pub fn proposed(&self) -> (RulesChoice, ClockSpec) {
        let rules = match presets::get(&self.preset) {
            Some(p) if self.majority => RulesChoice::Custom(RuleSet {
                win_at: Some(p.rules.majority()),
                ..p.rules
            }),
            Some(p) if p.rules.players == 2 => RulesChoice::Preset(self.preset.clone()),
            _ => RulesChoice::Preset("standard".into()),
        };
        (rules, self.clock_spec())
    }

    /// The chosen time control.
    pub fn clock_spec(&self) -> ClockSpec {
        if self.clock == BY_DAYS {
            return ClockSpec::Correspondence { days: self.days };
        }
        let (base_s, seconds) = CLOCKS
            .get(self.clock)
            .map(|&(minutes, seconds)| (minutes * 60, seconds))
            .unwrap_or((self.base_s, self.increment));
        if base_s == 0 && self.clock < CLOCKS.len() {
            return ClockSpec::UNTIMED;
        }
        ClockSpec::Fischer {
            base_ms: base_s * 1000,
            increment_ms: seconds * 1000,
        }
    }
}

/// What the online screen's buttons do.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum OnlineAction {
    Back,
    Retry,
    /// Step the rule set, the time control, or who starts.
    Preset(i8),
    Clock(i8),
    /// Custom time control: the base and the increment, stepped along their steps.
    Minutes(i8),
    Increment(i8),
    /// Days a move, in a game by days.
    Days(i8),
    First,
    /// The winning-score switch of the room to create.
    Majority,
    Public,
    /// Create the room the sheet describes.
    Create,
    /// Join or watch the room whose code is typed (else its field takes the focus).
    Join,
    Watch,
    /// Join the lobby's room number `n`.
    JoinListed(usize),
    CopyLink,
    Cancel,
    /// Show the leaderboard, or go back from it.
    Leaderboard,
    /// Open the sheet that makes a room of one's own choices, or close it.
    Sheet,
    /// A private room on the form's choices, whose link (and QR code) a friend is given.
    Invite,
}

/// The online screen's input systems, and its drawing (the people pages run between them).
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LobbySystems;
#[derive(SystemSet, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LobbyBuild;

/// A time control in words: "Untimed", or "5 + 3".
pub fn clock_label(clock: ClockSpec, lang: Lang) -> String {
    match clock {
        ClockSpec::Untimed(_) => lang.tr("online.untimed").to_owned(),
        ClockSpec::Fischer { .. } => clock.label(),
        ClockSpec::Correspondence { days: 1 } => lang.tr("online.day").to_owned(),
        ClockSpec::Correspondence { days } => lang.trf("online.days", &[("n", &days)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_clocks_step_from_a_quarter_minute_to_three_hours() {
        assert_eq!(step_along(&BASE_STEPS_S, 900, -1), 600);
        assert_eq!(step_along(&BASE_STEPS_S, 15, -1), 15, "kept at the end");
        assert_eq!(step_along(&BASE_STEPS_S, 10800, 1), 10800);
        assert_eq!(
            step_along(&BASE_STEPS_S, 100, 0),
            120,
            "to the nearest step first"
        );
        assert_eq!(step_along(&INCREMENT_STEPS_S, 10, -5), 0);
        let form = Form {
            clock: CLOCKS.len(),
            base_s: 15,
            increment: 0,
            ..Form::default()
        };
        assert_eq!(
            form.clock_spec(),
            ClockSpec::Fischer {
                base_ms: 15_000,
                increment_ms: 0
            }
        );
        assert_eq!(base_words(15, Lang::En), "¼ min");
        assert_eq!(base_words(1800, Lang::Vi), "30 phút");
    }
}
