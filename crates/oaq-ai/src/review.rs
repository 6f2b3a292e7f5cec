//! Game review: every move of a game judged by one fixed-depth search of the position before
//! it, which values every legal move exactly at that depth. A move is graded by the points it
//! gave away against the best one; the value of the move played is the expected final margin
//! after it. The same depth gives the same review on every machine, and the work runs in
//! slices (`Reviewer::step`) so that a game can review off the frame with a progress bar.
//!
//! ```
//! use oaq_ai::review::{Quality, Reviewer};
//! use oaq_rules::{presets, Move, Position};
//! let start = Position::new(presets::get("basic").unwrap().rules);
//! let moves: Vec<Move> = ["2-", "8-"].iter().map(|m| m.parse().unwrap()).collect();
//! let review = Reviewer::new(start, &moves, 4).unwrap().run();
//! assert_eq!(review.len(), 2);
//! assert!(review.iter().all(|m| m.loss() >= 0.0 && m.quality <= Quality::Blunder));
//! ```

use std::fmt;

use serde::{Deserialize, Serialize};

pub use super::eval::margin;
use super::eval::{WIN, Weights, margin_hundredths};
use super::limits::{Limits, Report};
use super::search::Search;
use oaq_rules::{Move, PlayError, Position};

/// The depth a review searches by default: a few seconds for a whole game on one core.
pub const DEFAULT_DEPTH: u32 = 10;

/// How a move compares with the best one, by the points it gave away.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Quality {
    /// The best move, or one worth as much.
    Best,
    /// Under `INACCURACY` points given away.
    Good,
    Inaccuracy,
    Mistake,
    /// `BLUNDER` points or more, or a won game let go (or a drawn one lost).
    Blunder,
}

/// Points given away from which a move is an inaccuracy, a mistake and a blunder: a few
/// stones, half a mandarin, a mandarin.
pub const INACCURACY: f64 = 2.0;
pub const MISTAKE: f64 = 5.0;
pub const BLUNDER: f64 = 10.0;

impl Quality {
    /// The grade of a move valued `played` where the best is valued `best` (search values,
    /// hundredths of a point, for the player moving).
    pub fn of(played: i32, best: i32) -> Quality {
        let lost = points_lost(played, best);
        if outcome(played) < outcome(best) || lost >= BLUNDER {
            Quality::Blunder
        } else if lost >= MISTAKE {
            Quality::Mistake
        } else if lost >= INACCURACY {
            Quality::Inaccuracy
        } else if played >= best {
            Quality::Best
        } else {
            Quality::Good
        }
    }

    /// The name `oaq review` prints.
    pub fn name(self) -> &'static str {
        match self {
            Quality::Best => "best",
            Quality::Good => "good",
            Quality::Inaccuracy => "inaccuracy",
            Quality::Mistake => "mistake",
            Quality::Blunder => "blunder",
        }
    }
}

/// The points a move valued `played` gives away against one valued `best` (0 if none).
fn points_lost(played: i32, best: i32) -> f64 {
    f64::from((margin_hundredths(best) - margin_hundredths(played)).max(0)) / 100.0
}

/// -1, 0 or 1: a line the search saw lost, still open, or won.
fn outcome(value: i32) -> i32 {
    if value.abs() >= WIN / 2 {
        value.signum()
    } else {
        0
    }
}

/// One move of the game, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    /// The game's ply before the move (a swap does not advance it).
    pub ply: u32,
    /// The seat that moved.
    pub seat: usize,
    /// The player who moved, by who they were at the start: after a table flip, each player
    /// sits in the other's seat.
    pub player: usize,
    pub played: Move,
    pub best: Move,
    /// The value of the move played and of the best, for the player who moved, in hundredths
    /// of a point (see `eval::WIN`).
    pub played_value: i32,
    pub best_value: i32,
    pub quality: Quality,
    /// The depth searched, and whether the values are the game's exact result.
    pub depth: u32,
    pub solved: bool,
}

impl MoveReview {
    /// The review of `played` on `before`, from the values a search gave it and the best move.
    pub fn judged(
        before: &Position,
        played: Move,
        (best, best_value): (Move, i32),
        played_value: i32,
        depth: u32,
        solved: bool,
    ) -> MoveReview {
        let seat = before.to_move();
        MoveReview {
            ply: before.ply(),
            seat,
            player: if before.players() == 2 && before.swapped() {
                1 - seat
            } else {
                seat
            },
            played,
            best,
            played_value,
            best_value,
            quality: Quality::of(played_value, best_value),
            depth,
            solved,
        }
    }

    /// Points the move gave away against the best one (0 for the best).
    pub fn loss(&self) -> f64 {
        points_lost(self.played_value, self.best_value)
    }

    /// The final margin expected after the move, in points, for `player` (0 or 1 on the
    /// 2-player board: who the player was at the start); on the 3-player board, the mover's
    /// margin over the others' average, for the mover only.
    pub fn margin_for(&self, player: usize) -> f64 {
        let value = margin(self.played_value);
        if player == self.player { value } else { -value }
    }
}

/// A move of the game that cannot be played where it stands.
#[derive(Clone, Debug)]
pub struct ReviewError {
    /// Its place in the list, from 0.
    pub index: usize,
    pub ply: u32,
    pub error: PlayError,
}

impl fmt::Display for ReviewError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "move {} (ply {}): {}",
            self.index + 1,
            self.ply,
            self.error
        )
    }
}

impl std::error::Error for ReviewError {}

/// A review in progress: `step` it until it returns the review, or `run` it.
pub struct Reviewer {
    /// The position before each move, and the move.
    turns: Vec<(Position, Move)>,
    depth: u32,
    search: Option<Search>,
    done: Vec<MoveReview>,
}

impl Reviewer {
    /// A review of `moves` played from `start`, each position searched to `depth` (1 or more).
    /// Moves after the game ended, or that are not legal where they stand, are refused with
    /// the first such move named.
    pub fn new(start: Position, moves: &[Move], depth: u32) -> Result<Reviewer, ReviewError> {
        let mut pos = start;
        let mut turns = Vec::with_capacity(moves.len());
        for (index, &mv) in moves.iter().enumerate() {
            let before = pos;
            pos.play(mv).map_err(|error| ReviewError {
                index,
                ply: before.ply(),
                error,
            })?;
            turns.push((before, mv));
        }
        Ok(Reviewer {
            turns,
            depth: depth.max(1),
            search: None,
            done: Vec::with_capacity(moves.len()),
        })
    }

    /// Moves judged so far, and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.done.len(), self.turns.len())
    }

    /// The moves judged so far.
    pub fn reviewed(&self) -> &[MoveReview] {
        &self.done
    }

    /// The search that judges the next move not yet judged (`None` once all are): run it
    /// anywhere (a thread, a worker, slices) and give its report to [`Reviewer::judge`].
    pub fn next_search(&self) -> Option<Search> {
        let &(pos, _) = self.turns.get(self.done.len())?;
        let limits = Limits {
            depth: Some(self.depth),
            all_root_moves: true,
            // Endings judged exactly where the shipped table knows them.
            tablebase: super::tablebase::for_rules(pos.rules()),
            ..Limits::default()
        };
        Some(Search::new(pos, Weights::shipped(), limits))
    }

    /// Judge the next move by `report`, the report of the search `next_search` gave. Returns
    /// `true` once every move is judged; with every move judged already, changes nothing.
    pub fn judge(&mut self, report: &Report) -> bool {
        let Some(&(pos, played)) = self.turns.get(self.done.len()) else {
            return true;
        };
        let played_value = report
            .moves
            .iter()
            .find(|&&(mv, _)| mv == played)
            .map_or(report.score, |&(_, value)| value);
        let (best, best_value) = report
            .moves
            .first()
            .copied()
            .unwrap_or((played, played_value));
        self.done.push(MoveReview::judged(
            &pos,
            played,
            (best, best_value),
            played_value,
            report.depth,
            report.solved,
        ));
        self.is_done()
    }

    /// Whether every move is judged.
    pub fn is_done(&self) -> bool {
        self.done.len() == self.turns.len()
    }

    /// Search about `node_budget` more nodes; `true` once every move is judged.
    pub fn step(&mut self, node_budget: u64) -> bool {
        let mut budget = node_budget;
        while !self.is_done() {
            if self.search.is_none() {
                self.search = self.next_search();
            }
            let Some(search) = self.search.as_mut() else {
                break;
            };
            let before = search.nodes();
            let report = search.step(budget);
            budget = budget.saturating_sub(search.nodes() - before);
            let Some(report) = report else {
                return false;
            };
            self.search = None;
            self.judge(&report);
            if budget == 0 {
                break;
            }
        }
        self.is_done()
    }

    /// Review every move in one call.
    pub fn run(mut self) -> Vec<MoveReview> {
        while !self.step(u64::MAX) {}
        self.done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grades_follow_the_points_given_away() {
        assert_eq!(Quality::of(500, 500), Quality::Best);
        assert_eq!(Quality::of(400, 500), Quality::Good);
        assert_eq!(Quality::of(300, 500), Quality::Inaccuracy);
        assert_eq!(Quality::of(-100, 500), Quality::Mistake);
        assert_eq!(Quality::of(-600, 500), Quality::Blunder);
        // A win by 1 let go for an open game the evaluation likes: a blunder all the same.
        assert_eq!(Quality::of(900, WIN + 100), Quality::Blunder);
        // A bigger win than the best, by a stale value, is not a loss.
        assert_eq!(Quality::of(WIN + 300, WIN + 200), Quality::Best);
        assert_eq!(margin(-WIN - 1200), -12.0);
    }
}
