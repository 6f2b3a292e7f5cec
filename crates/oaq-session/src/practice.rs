//! The player's own puzzles (mistakes of their games to retry), brought back by spaced
//! repetition: each comes back when the player is about to forget it, sooner after a miss.
//! The schedule is the FSRS algorithm's (`rs-fsrs`, the open-spaced-repetition project's
//! scheduler), long-term: a puzzle solved today is not due again before tomorrow. Kept between
//! runs like the settings.

use chrono::{DateTime, Utc};
use oaq_ai::puzzle::Puzzle;
use rs_fsrs::{Card, FSRS, Parameters, Rating};
use serde::{Deserialize, Serialize};

/// The most puzzles kept: past it, the ones learnt longest ago make room.
pub const MAX_CARDS: usize = 500;

/// One puzzle and when it is due again.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PracticeCard {
    pub puzzle: Puzzle,
    pub schedule: Card,
}

impl PracticeCard {
    /// When it is due, Unix milliseconds.
    pub fn due_ms(&self) -> i64 {
        self.schedule.due.timestamp_millis()
    }
}

/// The puzzles to practise, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Practice {
    pub cards: Vec<PracticeCard>,
}

/// A time as the scheduler takes it (the epoch for one out of range).
fn at(ms: i64) -> DateTime<Utc> {
    DateTime::from_timestamp_millis(ms).unwrap_or_default()
}

fn scheduler() -> FSRS {
    FSRS::new(Parameters {
        enable_short_term: false,
        enable_fuzz: false,
        ..Parameters::default()
    })
}

impl Practice {
    /// Parse a practice file; the message names what is wrong.
    pub fn from_ron(text: &str) -> Result<Practice, String> {
        ron::from_str(text).map_err(|e| format!("not a practice file: {e}"))
    }

    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .unwrap_or_else(|e| unreachable!("practice always serialises: {e}"))
    }

    /// Add `puzzles`, due at once (one already kept keeps its schedule). Returns how many
    /// were new.
    pub fn add(&mut self, puzzles: Vec<Puzzle>, now_ms: i64) -> usize {
        let mut added = 0;
        for puzzle in puzzles {
            if self.cards.iter().any(|c| c.puzzle.id == puzzle.id) {
                continue;
            }
            let schedule = Card {
                due: at(now_ms),
                last_review: at(now_ms),
                ..Card::default()
            };
            self.cards.push(PracticeCard { puzzle, schedule });
            added += 1;
        }
        self.keep_cap();
        added
    }

    /// Past [`MAX_CARDS`], the best learnt (the longest until due) make room.
    pub(crate) fn keep_cap(&mut self) {
        if self.cards.len() > MAX_CARDS {
            // The best learnt (the longest until due) go first.
            self.cards
                .sort_by_key(|c| std::cmp::Reverse(c.schedule.scheduled_days));
            let extra = self.cards.len() - MAX_CARDS;
            self.cards.drain(..extra);
            self.cards.sort_by_key(PracticeCard::due_ms);
        }
    }

    /// The puzzles due at `now_ms`, the longest overdue first.
    pub fn due(&self, now_ms: i64) -> Vec<&PracticeCard> {
        let mut due: Vec<&PracticeCard> =
            self.cards.iter().filter(|c| c.due_ms() <= now_ms).collect();
        due.sort_by_key(|c| c.due_ms());
        due
    }

    /// Puzzle `id` was tried at `now_ms`: solved at the first try or not. Returns when it is
    /// due next (`None`: no such puzzle).
    pub fn answer(&mut self, id: &str, first_try: bool, now_ms: i64) -> Option<i64> {
        let card = self.cards.iter_mut().find(|c| c.puzzle.id == id)?;
        let rating = if first_try {
            Rating::Good
        } else {
            Rating::Again
        };
        let next = scheduler().next(card.schedule.clone(), at(now_ms), rating);
        card.schedule = next.card;
        Some(card.due_ms())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_ai::puzzle::{Difficulty, Step};

    const DAY: i64 = 24 * 3600 * 1000;
    /// 2026-12-07, noon UTC.
    const NOW: i64 = 1_796_644_800_000;

    fn puzzle(id: &str) -> Puzzle {
        Puzzle {
            id: id.to_owned(),
            preset: "basic".to_owned(),
            moves: String::new(),
            difficulty: Difficulty::Easy,
            seen_at: 1,
            line: vec![Step {
                answer: "2-".to_owned(),
                reply: None,
                values: vec![("2-".to_owned(), 1.0)],
            }],
            themes: Vec::new(),
        }
    }

    #[test]
    fn a_puzzle_solved_today_comes_back_on_a_later_day_and_a_missed_one_sooner() {
        let mut practice = Practice::default();
        assert_eq!(practice.add(vec![puzzle("a"), puzzle("b")], NOW), 2);
        assert_eq!(practice.add(vec![puzzle("a")], NOW), 0, "kept once");
        assert_eq!(practice.due(NOW).len(), 2, "new puzzles are due at once");
        let solved = practice.answer("a", true, NOW).unwrap();
        let missed = practice.answer("b", false, NOW).unwrap();
        assert!(solved >= NOW + DAY, "not again before tomorrow");
        assert!(missed < solved, "a miss comes back sooner");
        assert!(
            practice.due(NOW + 3600 * 1000).is_empty(),
            "nothing due within the hour"
        );
        // Tomorrow and after: each is due again, by the schedule.
        let due_later: Vec<&str> = practice
            .due(solved)
            .iter()
            .map(|c| c.puzzle.id.as_str())
            .collect();
        assert_eq!(due_later, ["b", "a"], "the missed one longest overdue");
        // Solved again on its day, it waits longer than the first time.
        let again = practice.answer("a", true, solved).unwrap();
        assert!(again - solved > solved - NOW, "the interval grows");
        assert_eq!(practice.answer("zz", true, NOW), None);
    }

    #[test]
    fn the_schedule_survives_a_restart_and_a_bad_file_is_named() {
        let mut practice = Practice::default();
        practice.add(vec![puzzle("a")], NOW);
        practice.answer("a", true, NOW);
        let back = Practice::from_ron(&practice.to_ron()).unwrap();
        assert_eq!(back, practice);
        let error = Practice::from_ron("(cards: 3)").unwrap_err();
        assert!(error.starts_with("not a practice file"), "{error}");
    }

    #[test]
    fn past_the_cap_the_best_learnt_make_room() {
        let mut practice = Practice::default();
        practice.add(vec![puzzle("learnt")], NOW);
        practice.answer("learnt", true, NOW);
        let many = (0..MAX_CARDS).map(|n| puzzle(&format!("p{n}"))).collect();
        practice.add(many, NOW);
        assert_eq!(practice.cards.len(), MAX_CARDS);
        assert!(!practice.cards.iter().any(|c| c.puzzle.id == "learnt"));
    }
}
