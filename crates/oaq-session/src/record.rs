//! A match written down: the RON file of the saved game and of exported replays. Loading one
//! replays every move through the rules, so a file that is cut short, edited or made up is
//! refused with the reason, and nothing of the game in progress changes.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::clock::{MatchClock, TimeControl};
use super::history::History;
use super::seat::Seat;
use oaq_ai::review::MoveReview;
use oaq_rules::{Move, RuleSet, presets};

/// The format's version, written into every file.
pub const VERSION: u32 = 1;

/// A match as a file holds it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    pub version: u32,
    /// Id of the preset the rules came from (for the menu).
    pub preset: String,
    pub rules: RuleSet,
    /// Who plays each side at the start.
    pub seats: Vec<Seat>,
    /// The moves in order, in the notation of `oaq` (`3+`, `7-`, `swap`).
    pub moves: Vec<String>,
    /// The scores after the last move: a check that the moves are the ones that were played.
    pub scores: Vec<i32>,
    /// A timed game's clock after the last move (absent in untimed games and older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockRecord>,
    /// The engine's review of the moves, once worked out: kept so that it is done once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub review: Option<ReviewRecord>,
}

/// A game's review as a file holds it: per move, the best move and the two values (hundredths
/// of a point for the mover, as `ai::review` gives them).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewRecord {
    pub depth: u32,
    pub moves: Vec<ReviewedMove>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReviewedMove {
    pub best: String,
    pub value: i32,
    pub best_value: i32,
    #[serde(default)]
    pub solved: bool,
}

/// The clock of a timed game as a file holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClockRecord {
    pub control: TimeControl,
    /// Milliseconds left for each seat.
    pub remaining_ms: Vec<i64>,
}

/// Why a file is not a match.
#[derive(Clone, Debug, PartialEq)]
pub enum RecordError {
    /// Not RON, or not a record's shape; the message says where.
    Syntax(String),
    Version(u32),
    /// The preset id is not one of the game's.
    Preset(String),
    Rules(String),
    /// The seat list does not fit the rules.
    Seats {
        found: usize,
        players: u8,
    },
    /// Move number `number` (1-based) is not a move, or not legal where it stands.
    Move {
        number: usize,
        text: String,
        reason: String,
    },
    /// The moves do not lead to the scores the file gives.
    Scores {
        file: Vec<i32>,
        replayed: Vec<i32>,
    },
    /// The clock is not one a game can have.
    Clock(String),
    /// The review does not fit the moves.
    Review(String),
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordError::Syntax(e) => write!(f, "not a saved game: {e}"),
            RecordError::Version(v) => {
                write!(
                    f,
                    "version {v} of the format is not known (this game reads {VERSION})"
                )
            }
            RecordError::Preset(id) => {
                let ids: Vec<&str> = presets::all().iter().map(|p| p.id.as_str()).collect();
                write!(
                    f,
                    "preset: {} is not a rule set of this game (they are {})",
                    oaq_rules::excerpt::quoted(id),
                    ids.join(", ")
                )
            }
            RecordError::Rules(e) => write!(f, "rules: {e}"),
            RecordError::Seats { found, players } => {
                write!(f, "seats: {found} given for a {players}-player game")
            }
            RecordError::Move {
                number,
                text,
                reason,
            } => write!(
                f,
                "move {number} ({}): {reason}",
                oaq_rules::excerpt::quoted(text)
            ),
            RecordError::Scores { file, replayed } => write!(
                f,
                "scores: the file says {file:?} but its moves give {replayed:?}"
            ),
            RecordError::Clock(why) => write!(f, "clock: {why}"),
            RecordError::Review(why) => write!(f, "review: {why}"),
        }
    }
}

impl std::error::Error for RecordError {}

impl Record {
    /// The record of a match so far.
    pub fn of(history: &History) -> Record {
        let pos = history.position();
        Record {
            version: VERSION,
            preset: history.preset.clone(),
            rules: *pos.rules(),
            seats: history.seats().to_vec(),
            moves: history.moves().map(|m| m.to_string()).collect(),
            scores: pos.scores()[..pos.players()].to_vec(),
            clock: history.clock.as_ref().map(|clock| ClockRecord {
                control: clock.control(),
                remaining_ms: clock.all_remaining().to_vec(),
            }),
            review: None,
        }
    }

    /// The record with `review` (of every move, in order) kept in it.
    pub fn with_review(mut self, review: &[MoveReview]) -> Record {
        self.review = Some(ReviewRecord {
            depth: review.iter().map(|m| m.depth).max().unwrap_or(0),
            moves: review
                .iter()
                .map(|m| ReviewedMove {
                    best: m.best.to_string(),
                    value: m.played_value,
                    best_value: m.best_value,
                    solved: m.solved,
                })
                .collect(),
        });
        self
    }

    /// The review the file keeps, checked against the game: one per move, each best move
    /// legal where it stands.
    pub fn review_of(&self, history: &History) -> Result<Option<Vec<MoveReview>>, RecordError> {
        let Some(review) = &self.review else {
            return Ok(None);
        };
        let entries = history.entries();
        if review.moves.len() != entries.len() {
            return Err(RecordError::Review(format!(
                "{} judged moves for {} moves",
                review.moves.len(),
                entries.len()
            )));
        }
        entries
            .iter()
            .zip(&review.moves)
            .enumerate()
            .map(|(i, (entry, judged))| {
                let best = judged
                    .best
                    .parse::<Move>()
                    .ok()
                    .filter(|&m| entry.before.is_legal(m))
                    .ok_or_else(|| {
                        RecordError::Review(format!(
                            "move {}: the best move {} is not legal there",
                            i + 1,
                            oaq_rules::excerpt::quoted(&judged.best)
                        ))
                    })?;
                Ok(MoveReview::judged(
                    &entry.before,
                    entry.mv,
                    (best, judged.best_value),
                    judged.value,
                    review.depth,
                    judged.solved,
                ))
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Some)
    }

    pub fn to_ron(&self) -> String {
        let config = ron::ser::PrettyConfig::default().compact_arrays(true);
        ron::ser::to_string_pretty(self, config)
            .unwrap_or_else(|e| unreachable!("records always serialise: {e}"))
    }

    /// Parse a file and replay it into a match.
    pub fn parse(text: &str) -> Result<History, RecordError> {
        let record: Record = ron::from_str(text).map_err(|e| RecordError::Syntax(e.to_string()))?;
        record.replay()
    }

    /// Parse a file into its match and the review it keeps, if any.
    pub fn parse_reviewed(text: &str) -> Result<(History, Option<Vec<MoveReview>>), RecordError> {
        let record: Record = ron::from_str(text).map_err(|e| RecordError::Syntax(e.to_string()))?;
        let history = record.replay()?;
        let review = record.review_of(&history)?;
        Ok((history, review))
    }

    /// Check the record and play its moves.
    pub fn replay(&self) -> Result<History, RecordError> {
        if self.version != VERSION {
            return Err(RecordError::Version(self.version));
        }
        match presets::get(&self.preset) {
            None => return Err(RecordError::Preset(self.preset.clone())),
            // The rules may differ from the preset's (the young-mandarin switch), but not its
            // board.
            Some(preset) if preset.rules.players != self.rules.players => {
                return Err(RecordError::Rules(format!(
                    "players: {} for the {}-player preset {}",
                    self.rules.players, preset.rules.players, preset.id
                )));
            }
            Some(_) => {}
        }
        self.rules
            .validate()
            .map_err(|e| RecordError::Rules(e.to_string()))?;
        if self.seats.len() != usize::from(self.rules.players) {
            return Err(RecordError::Seats {
                found: self.seats.len(),
                players: self.rules.players,
            });
        }
        if let Some(n) = self.seats.iter().find_map(|s| match s {
            Seat::Computer(n) if s.level().is_none() => Some(*n),
            _ => None,
        }) {
            return Err(RecordError::Rules(format!(
                "seats: computer level {n} does not exist"
            )));
        }
        let mut history = History::new(&self.preset, self.rules, self.seats.clone());
        for (i, text) in self.moves.iter().enumerate() {
            let bad = |reason: String| RecordError::Move {
                number: i + 1,
                text: text.clone(),
                reason,
            };
            let mv: Move = text.parse().map_err(|e| bad(format!("{e}")))?;
            history.play(mv).map_err(|e| bad(e.to_string()))?;
        }
        let pos = history.position();
        let replayed = pos.scores()[..pos.players()].to_vec();
        if replayed != self.scores {
            return Err(RecordError::Scores {
                file: self.scores.clone(),
                replayed,
            });
        }
        if let Some(clock) = &self.clock {
            if clock.remaining_ms.len() != self.seats.len() {
                return Err(RecordError::Clock(format!(
                    "{} times given for {} seats",
                    clock.remaining_ms.len(),
                    self.seats.len()
                )));
            }
            history.clock = Some(
                MatchClock::restore(clock.control, clock.remaining_ms.clone())
                    .map_err(RecordError::Clock)?,
            );
        }
        Ok(history)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timed_game_keeps_its_clock_and_a_bad_clock_is_refused() {
        let mut history = a_match(6);
        let mut clock = MatchClock::new(TimeControl::new(5, 3), 2);
        clock.spend(1, 12_345);
        history.clock = Some(clock.clone());
        let text = Record::of(&history).to_ron();
        let back = Record::parse(&text).unwrap();
        assert_eq!(back.clock, Some(clock));
        assert_eq!(back.flagged(), None);
        let untimed = Record::parse(&Record::of(&a_match(6)).to_ron()).unwrap();
        assert_eq!(untimed.clock, None, "files without a clock still read");
        let mut record = Record::of(&history);
        record.clock.as_mut().unwrap().remaining_ms.push(5);
        let error = record.replay().unwrap_err().to_string();
        assert_eq!(error, "clock: 3 times given for 2 seats");
        let mut record = Record::of(&history);
        record.clock.as_mut().unwrap().control.minutes = 500;
        let error = record.replay().unwrap_err().to_string();
        assert!(error.starts_with("clock: 500 minutes"), "{error}");
    }

    fn a_match(moves: usize) -> History {
        let rules = presets::get("standard").unwrap().rules;
        let mut history = History::new("standard", rules, vec![Seat::Human, Seat::Computer(7)]);
        for i in 0..moves {
            if history.position().is_over() {
                break;
            }
            let legal = history.position().legal_moves();
            history.play(legal[i * 7 % legal.len()]).unwrap();
        }
        history
    }

    #[test]
    fn a_review_is_kept_in_the_file_and_checked_against_the_moves() {
        let history = a_match(8);
        let moves: Vec<Move> = history.moves().collect();
        let review = oaq_ai::review::Reviewer::new(*history.start(), &moves, 3)
            .unwrap()
            .run();
        let text = Record::of(&history).with_review(&review).to_ron();
        let record: Record = ron::from_str(&text).unwrap();
        let loaded = record.replay().unwrap();
        assert_eq!(record.review_of(&loaded).unwrap(), Some(review.clone()));
        assert_eq!(Record::of(&history).review_of(&history).unwrap(), None);
        let mut cut = record.clone();
        cut.review.as_mut().unwrap().moves.pop();
        let error = cut.review_of(&loaded).unwrap_err().to_string();
        assert_eq!(error, "review: 7 judged moves for 8 moves");
        let mut wrong = record;
        wrong.review.as_mut().unwrap().moves[0].best = "swap".into();
        let error = wrong.review_of(&loaded).unwrap_err().to_string();
        assert!(
            error.starts_with("review: move 1: the best move"),
            "{error}"
        );
    }

    #[test]
    fn a_saved_match_loads_to_the_same_state() {
        let history = a_match(23);
        let text = Record::of(&history).to_ron();
        let loaded = Record::parse(&text).unwrap();
        assert_eq!(loaded.position(), history.position());
        assert_eq!(loaded.seats(), history.seats());
        assert_eq!(loaded.entries(), history.entries());
        assert_eq!(loaded.preset, "standard");
    }

    #[test]
    fn broken_and_edited_files_are_refused_with_the_reason() {
        let text = Record::of(&a_match(12)).to_ron();
        let record: Record = ron::from_str(&text).unwrap();
        let cut = &text[..text.len() / 2];
        assert!(matches!(Record::parse(cut), Err(RecordError::Syntax(_))));

        let mut illegal = record.clone();
        // The sixth move is the second player's: pit 1 is on the first player's row.
        illegal.moves[5] = "1+".into();
        let error = illegal.replay().unwrap_err().to_string();
        assert!(error.starts_with("move 6 (\"1+\")"), "{error}");

        let mut gibberish = record.clone();
        gibberish.moves[0] = "left".into();
        assert!(
            gibberish
                .replay()
                .unwrap_err()
                .to_string()
                .starts_with("move 1")
        );

        let mut scores = record.clone();
        scores.scores[0] += 10;
        assert!(matches!(scores.replay(), Err(RecordError::Scores { .. })));

        let mut seats = record.clone();
        seats.seats.push(Seat::Human);
        assert!(seats.replay().unwrap_err().to_string().starts_with("seats"));

        for id in ["chess", "", &"x".repeat(100_000)] {
            let mut preset = record.clone();
            preset.preset = id.to_owned();
            let error = preset.replay().unwrap_err().to_string();
            assert!(error.starts_with("preset: "), "{error}");
            assert!(error.len() < 300, "the error quotes the whole id: {error}");
        }
        let mut board = record.clone();
        board.rules.players = 3;
        assert!(board.replay().unwrap_err().to_string().contains("players"));

        let mut version = record;
        version.version = 99;
        assert!(version.replay().unwrap_err().to_string().contains("99"));
    }
}
