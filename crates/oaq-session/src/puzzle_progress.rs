//! The player's puzzle progress, kept between runs like the settings: the puzzles solved and the
//! run of puzzles solved at the first try.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

/// Solved puzzles (by id) and streaks.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PuzzleProgress {
    pub solved: BTreeSet<String>,
    /// Puzzles solved in a row without a wrong move.
    pub streak: u32,
    pub best_streak: u32,
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
        ron::from_str(text).map_err(|e| format!("not a puzzle progress file: {e}"))
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

    /// A wrong move ends the streak.
    pub fn missed(&mut self) {
        self.streak = 0;
    }
}
