//! The player's puzzle progress, kept between runs like the settings: the puzzles solved, the
//! run of puzzles solved at the first try, the rating, the daily puzzles solved and the best
//! Streak and Storm.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::puzzle_rating::PuzzleRating;
use crate::puzzle_runs::ARCHIVE_DAYS;

/// Daily puzzles remembered as solved: a little more than the archive shows.
const DAILY_KEPT: usize = 2 * ARCHIVE_DAYS as usize;

/// Solved puzzles (by id) and streaks.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PuzzleProgress {
    pub solved: BTreeSet<String>,
    /// Puzzles solved in a row without a wrong move.
    pub streak: u32,
    pub best_streak: u32,
    /// The Glicko-2 ratings, the history and the themes.
    pub rating: PuzzleRating,
    /// Days (since 1970, UTC) whose daily puzzle was solved: the latest 120.
    pub daily: BTreeSet<i64>,
    /// The longest Streak (puzzles of rising rating until the first miss).
    pub best_streak_run: u32,
    /// The most puzzles solved in one Storm.
    pub best_storm: u32,
}

impl PuzzleProgress {
    /// Parse a progress file; the message names what is wrong.
    ///
    /// ```
    /// use oaq_session::PuzzleProgress;
    /// let mut progress = PuzzleProgress::default();
    /// progress.solved_one("basic-001", true);
    /// let back = PuzzleProgress::from_ron(&progress.to_ron()).unwrap();
    /// assert_eq!((back.streak, back.solved.len()), (1, 1));
    /// assert!(PuzzleProgress::from_ron("(streak: -1)").is_err());
    /// ```
    pub fn from_ron(text: &str) -> Result<PuzzleProgress, String> {
        let progress: PuzzleProgress =
            ron::from_str(text).map_err(|e| format!("not a puzzle progress file: {e}"))?;
        progress
            .rating
            .check()
            .map_err(|e| format!("not a puzzle progress file: {e}"))?;
        if progress.daily.len() > DAILY_KEPT {
            return Err("not a puzzle progress file: too many daily puzzles".into());
        }
        Ok(progress)
    }

    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .unwrap_or_else(|e| unreachable!("progress always serialises: {e}"))
    }

    /// `id` was solved; `clean` when no wrong move was tried on the way.
    pub fn solved_one(&mut self, id: &str, clean: bool) {
        self.solved.insert(id.to_owned());
        self.streak = if clean { self.streak + 1 } else { 0 };
        self.best_streak = self.best_streak.max(self.streak);
    }

    /// The daily puzzle of `day` was solved.
    pub fn solved_daily(&mut self, day: i64) {
        self.daily.insert(day);
        while self.daily.len() > DAILY_KEPT {
            self.daily.pop_first();
        }
    }

    /// A Streak ended with `length` puzzles solved, or a Storm with `solved`: the best kept.
    pub fn streak_run_ended(&mut self, length: u32) {
        self.best_streak_run = self.best_streak_run.max(length);
    }

    pub fn storm_ended(&mut self, solved: u32) {
        self.best_storm = self.best_storm.max(solved);
    }

    /// A wrong move ends the streak.
    pub fn missed(&mut self) {
        self.streak = 0;
    }
}
