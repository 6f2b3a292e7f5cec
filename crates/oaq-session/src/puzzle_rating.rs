//! The player's puzzle rating and each tried puzzle's, by Glicko-2 (the skillratings crate, as
//! online games are rated): solving a puzzle at the first try is a win against it, anything
//! else a loss. Kept with the puzzle progress, with the rating day by day and what was solved
//! by theme, for the dashboard.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use oaq_ai::puzzle::Puzzle;
use oaq_ai::theme::Theme;

/// Days of the rating's history kept (the dashboard's graph draws them).
pub const HISTORY_DAYS: usize = 365;
/// Tried puzzles whose own rating is kept; the oldest tried make room first.
pub const MAX_RATED_PUZZLES: usize = 5000;
const DAY_MS: i64 = 24 * 3600 * 1000;

/// A Glicko-2 rating as kept on disk.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rated {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Default for Rated {
    /// A newcomer: 1500 ± 350, as Glicko-2 starts everyone.
    fn default() -> Rated {
        Rated::from(Glicko2Rating::new())
    }
}

impl From<Glicko2Rating> for Rated {
    fn from(r: Glicko2Rating) -> Rated {
        Rated {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl From<Rated> for Glicko2Rating {
    fn from(r: Rated) -> Glicko2Rating {
        Glicko2Rating {
            rating: r.rating,
            deviation: r.deviation,
            volatility: r.volatility,
        }
    }
}

impl Rated {
    /// A puzzle nobody tried yet: its first rating, fairly sure (± 150).
    pub fn puzzle(first: u16) -> Rated {
        Rated {
            rating: f64::from(first),
            deviation: 150.0,
            volatility: 0.06,
        }
    }

    /// A rating read from a file is kept only when every number is one Glicko-2 could give.
    pub(crate) fn is_sound(&self) -> bool {
        (0.0..=5000.0).contains(&self.rating)
            && (0.0..=500.0).contains(&self.deviation)
            && (0.0..=1.0).contains(&self.volatility)
    }
}

/// Tried and solved at the first try, of one theme.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThemeCount {
    pub tried: u32,
    pub solved: u32,
}

impl ThemeCount {
    /// The share solved at the first try, 0 to 1 (`None` before any try).
    pub fn share(&self) -> Option<f64> {
        (self.tried > 0).then(|| f64::from(self.solved) / f64::from(self.tried))
    }
}

/// The player's puzzle rating, the tried puzzles' ratings, the history and the themes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct PuzzleRating {
    pub player: Rated,
    /// When the player's rating last moved (Unix ms; 0: never): of two devices' ratings, the
    /// later is kept (`training`).
    pub player_at: i64,
    /// Puzzles tried here, by id: their ratings after the tries, and when last tried (ms).
    pub puzzles: BTreeMap<String, (Rated, i64)>,
    /// The rating at the end of each day played (day number since 1970, UTC), oldest first.
    pub history: Vec<(i64, i32)>,
    pub themes: BTreeMap<Theme, ThemeCount>,
}

impl PuzzleRating {
    /// The player's rating, rounded.
    pub fn rating(&self) -> i32 {
        self.player.rating.round() as i32
    }

    /// A puzzle's rating here: as tried, or its first rating.
    pub fn of(&self, puzzle: &Puzzle) -> Rated {
        self.puzzles
            .get(&puzzle.id)
            .map_or_else(|| Rated::puzzle(puzzle.first_rating()), |&(r, _)| r)
    }

    /// A try of `puzzle` at `now_ms`: solved at the first try or not. Both ratings move, the
    /// day's rating is kept, and the puzzle's themes counted.
    ///
    /// ```
    /// use oaq_session::PuzzleRating;
    /// # let puzzle: oaq_ai::puzzle::Puzzle = ron::from_str(r#"(id: "basic-0001",
    /// #   preset: "basic", moves: "", difficulty: easy, seen_at: 1,
    /// #   line: [(answer: "2-", reply: None, values: [])], themes: [chain])"#).unwrap();
    /// let mut rating = PuzzleRating::default();
    /// rating.record(&puzzle, true, 0);
    /// assert!(rating.rating() > 1500);
    /// assert_eq!(rating.themes[&oaq_ai::theme::Theme::Chain].solved, 1);
    /// ```
    pub fn record(&mut self, puzzle: &Puzzle, solved: bool, now_ms: i64) {
        let outcome = if solved {
            Outcomes::WIN
        } else {
            Outcomes::LOSS
        };
        let (player, rated) = glicko2(
            &self.player.into(),
            &self.of(puzzle).into(),
            &outcome,
            &Glicko2Config::new(),
        );
        self.player = player.into();
        self.player_at = now_ms;
        self.puzzles
            .insert(puzzle.id.clone(), (rated.into(), now_ms));
        if self.puzzles.len() > MAX_RATED_PUZZLES
            && let Some(oldest) = self
                .puzzles
                .iter()
                .min_by_key(|(_, (_, at))| *at)
                .map(|(id, _)| id.clone())
        {
            self.puzzles.remove(&oldest);
        }
        for theme in &puzzle.themes {
            let count = self.themes.entry(*theme).or_default();
            count.tried += 1;
            count.solved += u32::from(solved);
        }
        let day = now_ms.div_euclid(DAY_MS);
        let rating = self.rating();
        match self.history.last_mut() {
            Some(last) if last.0 == day => last.1 = rating,
            _ => self.history.push((day, rating)),
        }
        if self.history.len() > HISTORY_DAYS {
            self.history.remove(0);
        }
    }

    /// The themes tried at least `min_tries` times, the weakest (lowest share solved) first.
    pub fn weakest(&self, min_tries: u32) -> Vec<(Theme, ThemeCount)> {
        let mut tried: Vec<(Theme, ThemeCount)> = self
            .themes
            .iter()
            .filter(|(_, c)| c.tried >= min_tries)
            .map(|(t, c)| (*t, *c))
            .collect();
        tried.sort_by(|a, b| {
            let share = |c: &ThemeCount| c.share().unwrap_or(1.0);
            share(&a.1).total_cmp(&share(&b.1)).then(a.0.cmp(&b.0))
        });
        tried
    }

    /// Whether what a file held could have been written by this game: every rating sound,
    /// the history in order. A file that is not is set aside like any unreadable one.
    pub fn check(&self) -> Result<(), String> {
        if !self.player.is_sound() {
            return Err(format!(
                "the player's rating {:?} is out of range",
                self.player
            ));
        }
        if let Some((id, _)) = self.puzzles.iter().find(|(_, (r, _))| !r.is_sound()) {
            return Err(format!("the rating of puzzle {id} is out of range"));
        }
        if self.puzzles.len() > MAX_RATED_PUZZLES || self.history.len() > HISTORY_DAYS {
            return Err("more puzzles or days than are kept".into());
        }
        if self.history.windows(2).any(|w| w[0].0 >= w[1].0) {
            return Err("the rating's days are not in order".into());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_ai::puzzle::{Difficulty, Step};

    const DAY: i64 = DAY_MS;

    /// A puzzle whose first rating is about `rating` (within 100).
    fn puzzle(id: &str, rating: u16, theme: Theme) -> Puzzle {
        Puzzle {
            id: id.to_owned(),
            preset: "basic".to_owned(),
            moves: String::new(),
            difficulty: Difficulty::Easy,
            seen_at: u32::from(rating.saturating_sub(900) / 100),
            line: vec![Step {
                answer: "2-".to_owned(),
                reply: None,
                values: Vec::new(),
            }],
            themes: vec![theme],
        }
    }

    #[test]
    fn solving_raises_the_player_and_lowers_the_puzzle_and_a_miss_the_reverse() {
        let mut rating = PuzzleRating::default();
        let easy = puzzle("a", 1200, Theme::Chain);
        let before = f64::from(easy.first_rating());
        rating.record(&easy, true, 0);
        let after_win = rating.rating();
        assert!(after_win > 1500);
        assert!(rating.of(&easy).rating < before);
        let hard = puzzle("b", 1900, Theme::Defence);
        let before = f64::from(hard.first_rating());
        rating.record(&hard, false, DAY);
        assert!(rating.rating() < after_win);
        assert!(rating.of(&hard).rating > before);
        assert_eq!(rating.history.len(), 2, "one point a day");
        assert_eq!(rating.weakest(1)[0].0, Theme::Defence);
    }

    #[test]
    fn the_rating_survives_a_restart_and_a_bad_one_is_refused() {
        let mut rating = PuzzleRating::default();
        for (i, theme) in Theme::ALL.into_iter().enumerate() {
            rating.record(
                &puzzle(&format!("p{i}"), 1400, theme),
                i % 2 == 0,
                i as i64 * DAY,
            );
        }
        let text = ron::ser::to_string(&rating).unwrap();
        let back: PuzzleRating = ron::from_str(&text).unwrap();
        assert_eq!(back, rating);
        assert!(back.check().is_ok());
        let mut bad = rating.clone();
        bad.player.rating = f64::NAN;
        assert!(bad.check().unwrap_err().contains("out of range"));
        let mut bad = rating;
        bad.history.reverse();
        assert!(bad.check().unwrap_err().contains("order"));
    }
}
