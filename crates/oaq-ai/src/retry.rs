//! A player's own mistakes as puzzles to retry: the position before each mistake or blunder
//! of a reviewed game, "find a better move", answered by the best move or any move within
//! [`ACCEPT`] points of it, then the engine's reply. The biggest swings (the game's key
//! moments) come first. Each is a [`Puzzle`] of one step, so it reads, checks and plays as the
//! shipped puzzles do; its `seen_at` is the depth its moves were valued at.
//!
//! ```
//! use oaq_ai::review::Reviewer;
//! use oaq_ai::retry::retries;
//! use oaq_rules::{presets, Move, Position};
//! let start = Position::new(presets::get("basic").unwrap().rules);
//! let moves: Vec<Move> = ["5+", "8+"].iter().map(|m| m.parse().unwrap()).collect();
//! let review = Reviewer::new(start, &moves, 4).unwrap().run();
//! // The first player's mistakes, each a puzzle whose position is before it.
//! for puzzle in retries("basic", &moves, &review, 0, 4) {
//!     assert!(puzzle.line().is_ok());
//! }
//! ```

use super::eval;
use super::limits::Report;
use super::puzzle::{Difficulty, Judgement, LineStep, Puzzle, Step};
use super::review::{BLUNDER, INACCURACY, MoveReview, Quality};
use super::search::Search;
use super::steps::Searches;
use oaq_rules::{Move, Position, presets};

/// Points within which a move as good as the best is right too.
pub const ACCEPT: f64 = INACCURACY;

/// Whether `mv` solves `step`: the answer, or a move worth as much to within [`ACCEPT`].
pub fn accepted(step: &LineStep, mv: Move) -> bool {
    mv == step.answer || step.loss(mv).is_some_and(|lost| f64::from(lost) < ACCEPT)
}

/// The mistakes and blunders `player` (0 or 1: who they were at the start) made in `moves`
/// of a game of preset `preset`, judged by `review`, as puzzles to retry, the biggest first;
/// every move valued again at `depth`. None when the preset is not known or the review does
/// not fit the moves.
pub fn retries(
    preset: &str,
    moves: &[Move],
    review: &[MoveReview],
    player: usize,
    depth: u32,
) -> Vec<Puzzle> {
    let mut found = Vec::new();
    for mut retrier in Retrier::of_game(preset, moves, review, player, depth) {
        retrier.run_all();
        found.extend(retrier.finish());
    }
    found
}

/// One mistake being made a puzzle: give each search `next_search` asks for (every move of
/// the position valued, then the engine's reply to the answer) to `answer` ([`Searches`]),
/// anywhere (a thread, a worker, slices), then `finish`.
pub struct Retrier {
    preset: String,
    /// The moves that lead to the position, from the preset's start.
    moves: Vec<Move>,
    before: Position,
    played: Move,
    depth: u32,
    /// What the player gave away, as the review judged it.
    loss: f64,
    judgement: Option<Judgement>,
    /// The reply to the answer, once known (`Some(None)`: the answer ends the game).
    reply: Option<Option<Move>>,
}

impl Retrier {
    /// A retrier for each of `player`'s mistakes in the game, the biggest first (none when the
    /// preset is not known or the review does not fit the moves).
    pub fn of_game(
        preset: &str,
        moves: &[Move],
        review: &[MoveReview],
        player: usize,
        depth: u32,
    ) -> Vec<Retrier> {
        let Some(rules) = presets::get(preset).map(|p| p.rules) else {
            return Vec::new();
        };
        if review.len() != moves.len() {
            return Vec::new();
        }
        let mut found = Vec::new();
        let mut before = Position::new(rules);
        for (index, (m, &mv)) in review.iter().zip(moves).enumerate() {
            if m.player == player && m.quality >= Quality::Mistake && m.best != m.played {
                found.push(Retrier {
                    preset: preset.to_owned(),
                    moves: moves[..index].to_vec(),
                    before,
                    played: m.played,
                    depth,
                    loss: m.loss(),
                    judgement: None,
                    reply: None,
                });
            }
            if before.play(mv).is_err() {
                return Vec::new();
            }
        }
        found.sort_by(|a, b| b.loss.total_cmp(&a.loss));
        found
    }

    /// What the player gave away there, as the review judged it: the biggest are the game's
    /// key moments.
    pub fn loss(&self) -> f64 {
        self.loss
    }

    /// The answer: the move of the best final margin (as the puzzle's values rank them: a
    /// search may rank a proved line above a bigger estimate).
    fn best(&self) -> Option<Move> {
        let points = self.judgement.as_ref()?.points();
        points.first()?.0.parse().ok()
    }

    /// The puzzle, once every search is answered. `None` where the search finds the move
    /// played as good as any to within [`ACCEPT`] (no puzzle in it).
    pub fn finish(mut self) -> Option<Puzzle> {
        if self.next_search().is_some() {
            return None;
        }
        self.puzzle()
    }
}

impl Searches for Retrier {
    fn next_search(&mut self) -> Option<Search> {
        let Some(answer) = self.best() else {
            return Some(Search::to_depth(self.before, self.depth, true));
        };
        if self.reply.is_some() {
            return None;
        }
        let mut after = self.before;
        if after.play(answer).is_err() || after.is_over() {
            self.reply = Some(None);
            return None;
        }
        Some(Search::to_depth(after, self.depth, false))
    }

    fn answer(&mut self, report: &Report) {
        if self.judgement.is_none() {
            self.judgement = Some(Judgement {
                values: report.moves.clone(),
                pv: report.pv.clone(),
            });
        } else if self.reply.is_none() {
            self.reply = Some(Some(report.best));
        }
    }
}

impl Retrier {
    fn puzzle(&self) -> Option<Puzzle> {
        let judgement = self.judgement.as_ref()?;
        let answer = self.best()?;
        let value = |mv: Move| judgement.values.iter().find(|v| v.0 == mv).map(|v| v.1);
        let lost = eval::margin(value(answer)?) - eval::margin(value(self.played)?);
        if lost < ACCEPT {
            return None;
        }
        let moves: Vec<String> = self.moves.iter().map(Move::to_string).collect();
        let moves = moves.join(" ");
        let mut puzzle = Puzzle {
            id: format!("retry-{}-{:016x}", self.preset, fnv(&moves)),
            preset: self.preset.clone(),
            moves,
            // A blunder is plain to see once pointed at; a smaller mistake less so.
            difficulty: if self.loss >= BLUNDER {
                Difficulty::Easy
            } else {
                Difficulty::Medium
            },
            seen_at: self.depth,
            line: vec![Step {
                answer: answer.to_string(),
                reply: self.reply.flatten().map(|r| r.to_string()),
                values: judgement.points(),
            }],
            themes: Vec::new(),
        };
        // Themed like the shipped puzzles, so that the dashboard counts them alike.
        puzzle.themes = puzzle.line().map(|line| line.themes()).unwrap_or_default();
        Some(puzzle)
    }
}

/// A stable name for a position's moves: the same mistake is the same puzzle on every device.
fn fnv(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// Points a puzzle step's move gave away, as the game says them (never below zero).
pub fn points_lost(step: &LineStep, mv: Move) -> f64 {
    step.loss(mv).map_or(0.0, |lost| f64::from(lost).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::Reviewer;

    /// A game of the first player's worst moves by a shallow search, the second's best.
    fn a_game_with_mistakes() -> (Vec<Move>, Vec<MoveReview>) {
        let mut pos = Position::new(presets::get("basic").unwrap().rules);
        let mut moves = Vec::new();
        while !pos.is_over() && moves.len() < 16 {
            let judged = Judgement::of(&pos, 2);
            let pick = if pos.to_move() == 0 {
                judged.values.last()
            } else {
                judged.values.first()
            };
            let mv = pick.map(|&(mv, _)| mv).unwrap();
            pos.play(mv).unwrap();
            moves.push(mv);
        }
        let start = Position::new(presets::get("basic").unwrap().rules);
        let review = Reviewer::new(start, &moves, 4).unwrap().run();
        (moves, review)
    }

    #[test]
    fn the_players_mistakes_become_puzzles_biggest_first_that_the_rules_accept() {
        let (moves, review) = a_game_with_mistakes();
        let puzzles = retries("basic", &moves, &review, 0, 4);
        let mistakes = review
            .iter()
            .filter(|m| m.player == 0 && m.quality >= Quality::Mistake && m.best != m.played);
        assert!(puzzles.len() <= mistakes.count());
        assert!(!puzzles.is_empty(), "the worst moves make mistakes");
        let mut last_loss = f64::INFINITY;
        for puzzle in &puzzles {
            let line = puzzle.line().expect("a retry reads as a puzzle");
            let step = &line.steps[0];
            assert_eq!(line.start.to_move(), 0, "the player's own position");
            // The move played there was a mistake; the answer is accepted.
            let index = puzzle.moves.split_whitespace().count();
            let played = moves[index];
            assert!(accepted(step, step.answer));
            assert!(!accepted(step, played), "the mistake is not an answer");
            assert!(points_lost(step, played) >= ACCEPT);
            let loss = review[index].loss();
            assert!(loss <= last_loss, "the biggest swings first");
            last_loss = loss;
        }
        let again = retries("basic", &moves, &review, 0, 4);
        assert_eq!(again, puzzles, "the same game makes the same puzzles");
        assert!(retries("no-such-rules", &moves, &review, 0, 4).is_empty());
        assert!(retries("basic", &moves[1..], &review, 0, 4).is_empty());
    }
}
