//! Puzzles: positions from real games where one move is clearly better than every other, the
//! line that follows it, how deep a search must look to find it, its themes and first rating.
//! `oaq puzzles generate` makes the shipped set (`assets/puzzles/puzzles.ron`); the game's
//! Puzzles screen loads it when it first opens.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::eval;
use super::search::Search;
use super::theme::{self, Theme};
use oaq_rules::{Move, Position, presets};

/// The search depth that judges a puzzle (its answer and every other move's value).
pub const DEPTH: u32 = 12;
/// Points by which the answer must beat every other move.
pub const MIN_GAP: f64 = 4.0;
/// Points by which the answer must still beat every other move at [`CONFIRM_DEPTH`].
pub const CONFIRM_GAP: f64 = 2.0;
/// The deeper search every shipped puzzle is confirmed by.
pub const CONFIRM_DEPTH: u32 = DEPTH + 2;
/// The most moves of the solver's in one puzzle.
pub const MAX_STEPS: usize = 3;

/// How hard a puzzle is: the depth a search needs before it settles on the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Difficulty {
    /// Seen within two moves: the best capture now, or the reply it allows.
    Easy,
    /// Seen at three to five moves.
    Medium,
    /// Only seen six or more moves ahead.
    Hard,
}

impl Difficulty {
    pub const ALL: [Difficulty; 3] = [Difficulty::Easy, Difficulty::Medium, Difficulty::Hard];

    /// The difficulty of a puzzle a search first settles at `depth`.
    pub fn of(depth: u32) -> Difficulty {
        match depth {
            0..=2 => Difficulty::Easy,
            3..=5 => Difficulty::Medium,
            _ => Difficulty::Hard,
        }
    }

    /// The string-table key of its name.
    pub fn key(self) -> &'static str {
        match self {
            Difficulty::Easy => "puzzle.easy",
            Difficulty::Medium => "puzzle.medium",
            Difficulty::Hard => "puzzle.hard",
        }
    }
}

/// One move the solver must find, and what comes after it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The move to find, as `oaq` writes moves ("3+", "swap").
    pub answer: String,
    /// The engine's best reply, when the game goes on after the answer.
    pub reply: Option<String>,
    /// Every legal move and the final margin it leads to for the solver, in points, best
    /// first: what a wrong move gave away is the answer's value less its own.
    pub values: Vec<(String, f32)>,
}

/// A puzzle: a position reached by `moves` from a preset's start, and its line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Puzzle {
    pub id: String,
    pub preset: String,
    /// The game that led to the position, from the start.
    pub moves: String,
    pub difficulty: Difficulty,
    /// The depth at which a search settles on every answer of the line.
    pub seen_at: u32,
    pub line: Vec<Step>,
    /// What the answer does ([`Theme`]), the main theme first; none for a file without them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub themes: Vec<Theme>,
}

/// A puzzle's rating before anyone has tried it, on Glicko-2's scale: from the depth a search
/// needs to see its answer, the moves its line asks for, how many moves there are to choose
/// from and how close the runner-up comes (`gap`, points). An easy one-step puzzle rates about
/// 1000, one seen only at depth 12 with three steps about 2300.
///
/// ```
/// use oaq_ai::puzzle::first_rating;
/// assert!(first_rating(1, 1, 4, 10.0) < first_rating(4, 1, 4, 10.0));
/// assert!(first_rating(4, 1, 4, 10.0) < first_rating(4, 3, 4, 10.0));
/// assert!(first_rating(4, 1, 4, 10.0) < first_rating(4, 1, 9, 4.5));
/// ```
pub fn first_rating(seen_at: u32, steps: usize, choices: usize, gap: f32) -> u16 {
    let depth = seen_at.clamp(1, 13) as u16;
    let steps = steps.clamp(1, MAX_STEPS) as u16;
    // Within a depth: more moves to choose from and a closer runner-up are harder.
    let choices = 5 * choices.min(10) as u16;
    let close = (50.0 - 2.5 * gap.clamp(0.0, 20.0)).round() as u16;
    900 + 100 * depth + 100 * (steps - 1) + choices + close
}

impl Puzzle {
    /// Its rating before anyone tried it ([`first_rating`]).
    pub fn first_rating(&self) -> u16 {
        let (choices, gap) = self.line.first().map_or((0, 0.0), |step| {
            let best = step.values.first().map_or(0.0, |v| v.1);
            let runner_up = step.values.get(1).map_or(best, |v| v.1);
            (step.values.len(), best - runner_up)
        });
        first_rating(self.seen_at, self.line.len(), choices, gap)
    }

    /// Its main theme, if it has any.
    pub fn theme(&self) -> Option<Theme> {
        self.themes.first().copied()
    }
}

/// A played game to find puzzles in (`oaq puzzles mine`), as `oaq-server admin games` writes
/// one a line in JSON: its preset, its rules and its moves, nothing of its players or its room.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayedGame {
    pub preset: String,
    pub rules: oaq_rules::RuleSet,
    /// The moves as `Move` writes them, with a space between two.
    pub moves: String,
}

/// A file of puzzles and how they were judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PuzzleFile {
    pub seed: u64,
    pub depth: u32,
    pub min_gap: f32,
    pub puzzles: Vec<Puzzle>,
}

/// Why a puzzle file was refused: the puzzle (by id) and what is wrong with it.
#[derive(Clone, Debug, PartialEq)]
pub struct PuzzleError {
    /// `None` when the file as a whole is wrong.
    pub puzzle: Option<String>,
    pub reason: String,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.puzzle {
            Some(id) => write!(f, "puzzle {id}: {}", self.reason),
            None => write!(f, "not a puzzle file: {}", self.reason),
        }
    }
}

impl std::error::Error for PuzzleError {}

/// A puzzle's line made of moves, checked against the rules.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// The position the solver first faces.
    pub start: Position,
    /// Per step: the position, the answer, the reply and every move's value for the solver.
    pub steps: Vec<LineStep>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LineStep {
    pub pos: Position,
    pub answer: Move,
    pub reply: Option<Move>,
    pub values: Vec<(Move, f32)>,
}

impl Line {
    /// What the line does, as themes, the main one first ([`theme::themes`]).
    pub fn themes(&self) -> Vec<Theme> {
        let moves: Vec<(Move, Option<Move>)> =
            self.steps.iter().map(|s| (s.answer, s.reply)).collect();
        theme::themes(&self.start, &moves)
    }
}

impl LineStep {
    /// Points `mv` gives away against the answer (0 for the answer itself).
    pub fn loss(&self, mv: Move) -> Option<f32> {
        let best = self.values.first()?.1;
        self.values
            .iter()
            .find(|&&(m, _)| m == mv)
            .map(|&(_, v)| best - v)
    }
}

fn parse_move(text: &str, pos: &Position) -> Result<Move, String> {
    let mv: Move = text.parse().map_err(|e| format!("{text:?}: {e}"))?;
    if pos.is_legal(mv) {
        Ok(mv)
    } else {
        Err(format!(
            "{mv} is not legal at ply {} (legal: {})",
            pos.ply(),
            pos.legal_moves()
        ))
    }
}

impl Puzzle {
    /// Replay the puzzle against the rules: every move legal, every value a legal move's.
    pub fn line(&self) -> Result<Line, PuzzleError> {
        let fail = |reason: String| PuzzleError {
            puzzle: Some(self.id.clone()),
            reason,
        };
        let preset = presets::get(&self.preset)
            .ok_or_else(|| fail(format!("{:?} is not a preset", self.preset)))?;
        let mut pos = Position::new(preset.rules);
        for text in self.moves.split_whitespace() {
            let mv = parse_move(text, &pos).map_err(|e| fail(format!("moves: {e}")))?;
            pos.play(mv).map_err(|e| fail(format!("moves: {e}")))?;
        }
        if self.line.is_empty() {
            return Err(fail("the line has no step".into()));
        }
        let start = pos;
        let mut steps = Vec::with_capacity(self.line.len());
        for (i, step) in self.line.iter().enumerate() {
            let at = |e: String| fail(format!("step {}: {e}", i + 1));
            let answer = parse_move(&step.answer, &pos).map_err(at)?;
            let mut values = Vec::with_capacity(step.values.len());
            for (text, value) in &step.values {
                values.push((parse_move(text, &pos).map_err(at)?, *value));
            }
            if values.len() != pos.legal_moves().len() {
                return Err(at(format!(
                    "{} values for {} legal moves",
                    values.len(),
                    pos.legal_moves().len()
                )));
            }
            if values.windows(2).any(|w| w[0].1 < w[1].1) {
                return Err(at("the values are not best first".into()));
            }
            if values.first().map(|&(m, _)| m) != Some(answer) {
                return Err(at("the answer is not the first, best valued move".into()));
            }
            let before = pos;
            pos.play(answer).map_err(|e| at(e.to_string()))?;
            let reply = match &step.reply {
                Some(text) => {
                    let mv = parse_move(text, &pos).map_err(at)?;
                    pos.play(mv).map_err(|e| at(e.to_string()))?;
                    Some(mv)
                }
                None if pos.is_over() => None,
                None => return Err(at("the game goes on, but there is no reply".into())),
            };
            if i + 1 < self.line.len() && pos.is_over() {
                return Err(at("the game is over, but the line goes on".into()));
            }
            steps.push(LineStep {
                pos: before,
                answer,
                reply,
                values,
            });
        }
        Ok(Line { start, steps })
    }

    /// Search every step again at `depth`: the answer must be the unique best by `min_gap`
    /// points, and the reply the engine's best.
    pub fn verify(&self, depth: u32, min_gap: f64) -> Result<(), String> {
        self.check(depth, min_gap, true)
    }

    /// A look deeper than the one that made it: at `depth`, every step's answer is still the
    /// engine's best, ahead of every other move by [`CONFIRM_GAP`] points (a deeper search
    /// may play another reply, so the replies are not asked for).
    pub fn confirm(&self, depth: u32) -> Result<(), String> {
        self.check(depth, CONFIRM_GAP, false)
    }

    fn check(&self, depth: u32, min_gap: f64, replies: bool) -> Result<(), String> {
        let line = self.line().map_err(|e| e.reason)?;
        for (i, step) in line.steps.iter().enumerate() {
            let found = Judgement::of(&step.pos, depth).unique_best(min_gap);
            if found != Some(step.answer) {
                return Err(format!(
                    "step {}: the engine's unique best is {}, not {}",
                    i + 1,
                    found.map_or("no move".to_owned(), |m| m.to_string()),
                    step.answer
                ));
            }
            if let Some(reply) = step.reply.filter(|_| replies) {
                let mut after = step.pos;
                after.play(step.answer).map_err(|e| e.to_string())?;
                let best = best_reply(&after, depth);
                if best != reply {
                    return Err(format!(
                        "step {}: the engine replies {best}, not {reply}",
                        i + 1
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The engine's move at `pos`, searched to `depth`: the reply a puzzle's line plays.
pub fn best_reply(pos: &Position, depth: u32) -> Move {
    Search::to_depth(*pos, depth, false).run().best
}

impl PuzzleFile {
    /// Read a puzzle file and check every puzzle against the rules.
    pub fn parse(text: &str) -> Result<(PuzzleFile, Vec<Line>), PuzzleError> {
        let file: PuzzleFile = ron::from_str(text).map_err(|e| PuzzleError {
            puzzle: None,
            reason: e.to_string(),
        })?;
        let mut ids = std::collections::HashSet::new();
        let mut lines = Vec::with_capacity(file.puzzles.len());
        for puzzle in &file.puzzles {
            if !ids.insert(puzzle.id.as_str()) {
                return Err(PuzzleError {
                    puzzle: Some(puzzle.id.clone()),
                    reason: "the id is used twice".into(),
                });
            }
            lines.push(puzzle.line()?);
        }
        Ok((file, lines))
    }
}

/// What a deep search says of a position: every legal move's value for the mover, best first.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    pub values: Vec<(Move, i32)>,
    /// The line the search expects, starting with the best move.
    pub pv: Vec<Move>,
}

impl Judgement {
    /// Search every legal move of `pos` to `depth`.
    pub fn of(pos: &Position, depth: u32) -> Judgement {
        let report = Search::to_depth(*pos, depth, true).run();
        Judgement {
            values: report.moves,
            pv: report.pv,
        }
    }

    /// The best move, when its final margin beats every other move's by at least `min_gap`
    /// points. (The search ranks a proved win above any estimate, even a bigger one: such a
    /// position is no puzzle, since the margins would not say which move is right.)
    pub fn unique_best(&self, min_gap: f64) -> Option<Move> {
        let (&(best, value), others) = self.values.split_first()?;
        let runner_up = others
            .iter()
            .map(|&(_, v)| eval::margin(v))
            .max_by(f64::total_cmp)?;
        (eval::margin(value) - runner_up >= min_gap).then_some(best)
    }

    /// Every move's final margin in points, best first, as a puzzle file keeps them.
    pub fn points(&self) -> Vec<(String, f32)> {
        let mut points: Vec<(String, f32)> = self
            .values
            .iter()
            .map(|&(mv, value)| (mv.to_string(), eval::margin(value) as f32))
            .collect();
        points.sort_by(|a, b| b.1.total_cmp(&a.1));
        points
    }
}

/// The shallowest depth from which a search of `pos` picks `answer` at every depth up to
/// `depth` (`depth + 1` if it does not pick it at `depth`).
pub fn seen_at(pos: &Position, answer: Move, depth: u32) -> u32 {
    let mut seen = depth + 1;
    for d in (1..=depth).rev() {
        if Search::to_depth(*pos, d, false).run().best != answer {
            break;
        }
        seen = d;
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_puzzle_is_refused_by_its_id() {
        let text = r#"(seed: 1, depth: 4, min_gap: 4.0, puzzles: [
            (id: "x-1", preset: "basic", moves: "2+ 12+", difficulty: easy, seen_at: 1,
             line: [(answer: "3+", reply: None, values: [])]),
        ])"#;
        let error = PuzzleFile::parse(text).unwrap_err().to_string();
        assert!(error.starts_with("puzzle x-1: moves:"), "{error}");
        let error = PuzzleFile::parse("(seed: 1)").unwrap_err().to_string();
        assert!(error.starts_with("not a puzzle file"), "{error}");
    }

    #[test]
    fn difficulty_follows_the_depth_needed() {
        assert_eq!(Difficulty::of(1), Difficulty::Easy);
        assert_eq!(Difficulty::of(4), Difficulty::Medium);
        assert_eq!(Difficulty::of(9), Difficulty::Hard);
    }
}
