//! Puzzles: positions from real games where one move is clearly better than every other, the
//! line that follows it, and how deep a search must look to find it. `oaq puzzles generate`
//! makes the shipped set; the game's Puzzles screen plays it.

use std::fmt;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::eval::{self, Weights};
use super::limits::Limits;
use super::search::Search;
use oaq_rules::{Move, Position, presets};

/// The search depth that judges a puzzle (its answer and every other move's value).
pub const DEPTH: u32 = 12;
/// Points by which the answer must beat every other move.
pub const MIN_GAP: f64 = 4.0;
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
            if let Some(reply) = step.reply {
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
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    Search::new(*pos, Weights::shipped(), limits).run().best
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

    /// The puzzles shipped with the game, with their lines.
    pub fn shipped() -> &'static (PuzzleFile, Vec<Line>) {
        static SHIPPED: OnceLock<(PuzzleFile, Vec<Line>)> = OnceLock::new();
        SHIPPED.get_or_init(|| {
            PuzzleFile::parse(include_str!("../../../assets/puzzles/puzzles.ron"))
                .unwrap_or_else(|e| panic!("the shipped puzzles are checked by a test: {e}"))
        })
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
        let limits = Limits {
            depth: Some(depth),
            all_root_moves: true,
            ..Limits::default()
        };
        let report = Search::new(*pos, Weights::shipped(), limits).run();
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
        let limits = Limits {
            depth: Some(d),
            ..Limits::default()
        };
        if Search::new(*pos, Weights::shipped(), limits).run().best != answer {
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
