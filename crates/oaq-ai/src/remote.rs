//! The computer's thinking as a message: a request that names the position and the work (a
//! level's move, or a search for a hint), and the answer, both as JSON text. What lets the
//! browser think in a Web Worker (`src/bin/oaq-think`): the page posts a request, the worker
//! answers it with the same search the desktop runs.
//!
//! The request comes from outside the worker's own code, so every part is checked: its length,
//! the rule set, the position (as `state_json` reads it), the recent moves, the level, and
//! every limit, each bounded. A bad request gets an error that names the field; nothing runs.
//!
//! ```
//! use oaq_ai::remote::{self, Request};
//! use oaq_ai::{Level, Thinker};
//! use oaq_rules::{presets, Position};
//! let pos = Position::new(presets::get("standard").unwrap().rules);
//! let request = Request::level(&pos, &Level::easy(), 7);
//! let answer = remote::answer(&request.to_json()).unwrap();
//! let decision = remote::Answer::from_json(&answer).unwrap().decision().unwrap();
//! assert_eq!(decision.mv, Thinker::new(pos, Level::easy(), 7, None).run().mv);
//! ```

use std::fmt;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::eval::Weights;
use super::levels::Level;
use super::limits::{Limits, MAX_DEPTH, Report};
use super::search::Search;
use super::thinker::{Decision, Thinker};
use oaq_rules::excerpt;
use oaq_rules::state_json;
use oaq_rules::{Move, Position, RuleSet};

/// The longest request read: a position and a few numbers take well under 1 KiB.
pub const MAX_REQUEST_BYTES: usize = 4096;
/// The longest a request may ask the search to think.
pub const MAX_TIME_MS: u64 = 60_000;

/// What to think about and how.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Request {
    pub rules: RuleSet,
    /// The position, as `state_json::to_line` writes it.
    pub position: String,
    /// The last six moves' codes, newest first (`Position::recent_moves`): what the repetition
    /// end looks at, which the position's JSON leaves out.
    pub recent: [u8; 6],
    pub work: Work,
}

/// The work a request asks for.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Work {
    /// A level's move, as `Thinker` chooses it: the level by number, its time (at most the
    /// level's own: a clock may leave less), and the seed of its misjudgements.
    Level { level: u8, time_ms: u64, seed: u64 },
    /// A search within limits, as a hint or an analysis runs it.
    Search {
        depth: Option<u32>,
        time_ms: Option<u64>,
        all_root_moves: bool,
        book: bool,
        quiescence: bool,
        reductions: bool,
        outcome_only: bool,
    },
}

/// What the search found (a `Report`), and for a level's request the move it chose.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Answer {
    /// The level's choice, which its misjudgements may make other than `best`.
    pub chosen: Option<String>,
    pub best: String,
    pub score: i32,
    pub depth: u32,
    pub nodes: u64,
    pub elapsed_us: u64,
    pub solved: bool,
    pub pv: Vec<String>,
    pub moves: Vec<(String, i32)>,
    /// The most small stones of the endgame table the thinking could look positions up in
    /// (`super::tablebase`); 0 where it had none for these rules.
    #[serde(default)]
    pub endgame_table: u32,
}

/// Why a request was refused, or an answer could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteError {
    TooLong { bytes: usize },
    Syntax(String),
    Field { field: &'static str, reason: String },
}

impl fmt::Display for RemoteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemoteError::TooLong { bytes } => write!(
                f,
                "request: {bytes} bytes, more than the {MAX_REQUEST_BYTES} a request may have"
            ),
            RemoteError::Syntax(message) => write!(f, "request: not valid JSON: {message}"),
            RemoteError::Field { field, reason } => write!(f, "request: {field}: {reason}"),
        }
    }
}

impl std::error::Error for RemoteError {}

fn field(field: &'static str, reason: impl Into<String>) -> RemoteError {
    RemoteError::Field {
        field,
        reason: reason.into(),
    }
}

impl Request {
    /// `level`'s move in `pos` (its time as given: a clock may have shortened it).
    pub fn level(pos: &Position, level: &Level, seed: u64) -> Request {
        Request::new(
            pos,
            Work::Level {
                level: level.level,
                time_ms: level.time_ms,
                seed,
            },
        )
    }

    /// A search of `pos` within `limits` (its cancel flag stays behind: a worker is stopped
    /// from outside).
    pub fn search(pos: &Position, limits: &Limits) -> Request {
        Request::new(
            pos,
            Work::Search {
                depth: limits.depth,
                time_ms: limits
                    .time
                    .map(|t| t.as_millis().min(u128::from(MAX_TIME_MS)) as u64),
                all_root_moves: limits.all_root_moves,
                book: limits.book,
                quiescence: limits.quiescence,
                reductions: limits.reductions,
                outcome_only: limits.outcome_only,
            },
        )
    }

    fn new(pos: &Position, work: Work) -> Request {
        Request {
            rules: *pos.rules(),
            position: state_json::to_line(pos),
            recent: pos.recent_moves(),
            work,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|e| unreachable!("plain data always serialises: {e}"))
    }

    /// Read and check a request: the position it names and the thinking it asks for.
    pub fn parse(text: &str) -> Result<(Position, Job), RemoteError> {
        if text.len() > MAX_REQUEST_BYTES {
            return Err(RemoteError::TooLong { bytes: text.len() });
        }
        let request: Request =
            serde_json::from_str(text).map_err(|e| RemoteError::Syntax(e.to_string()))?;
        request
            .rules
            .validate()
            .map_err(|e| field("rules", e.to_string()))?;
        let pos = state_json::parse(request.rules, &request.position)
            .map_err(|e| field("position", e.to_string()))?;
        let pos = pos
            .with_recent_moves(request.recent)
            .map_err(|reason| field("recent", reason))?;
        let job = match request.work {
            Work::Level {
                level,
                time_ms,
                seed,
            } => {
                let mut found = Level::get(level)
                    .ok_or_else(|| field("work.level", format!("{level}: levels are 1 to 10")))?;
                if time_ms == 0 || time_ms > found.time_ms {
                    return Err(field(
                        "work.time_ms",
                        format!(
                            "{time_ms}: level {level} thinks from 1 to {} ms",
                            found.time_ms
                        ),
                    ));
                }
                found.time_ms = time_ms;
                Job::Level { level: found, seed }
            }
            Work::Search {
                depth,
                time_ms,
                all_root_moves,
                book,
                quiescence,
                reductions,
                outcome_only,
            } => {
                if let Some(d) = depth
                    && !(1..=MAX_DEPTH).contains(&d)
                {
                    return Err(field(
                        "work.depth",
                        format!("{d}: a search goes 1 to {MAX_DEPTH} moves deep"),
                    ));
                }
                let time = match time_ms {
                    Some(ms) if !(1..=MAX_TIME_MS).contains(&ms) => {
                        return Err(field(
                            "work.time_ms",
                            format!("{ms}: a search thinks from 1 to {MAX_TIME_MS} ms"),
                        ));
                    }
                    Some(ms) => Some(Duration::from_millis(ms)),
                    None => None,
                };
                if depth.is_none() && time.is_none() {
                    return Err(field(
                        "work",
                        "a search needs a depth or a time, or it would never end",
                    ));
                }
                Job::Search(Limits {
                    depth,
                    nodes: None,
                    time,
                    cancel: None,
                    all_root_moves,
                    book,
                    quiescence,
                    reductions,
                    outcome_only,
                    // A hint's and an analysis's searches look positions up in the endgame
                    // table, if this program has one for the rules (the worker's arrives a
                    // moment after it starts).
                    tablebase: super::tablebase::for_rules(&request.rules),
                    network: None,
                })
            }
        };
        if pos.is_over() {
            return Err(field(
                "position",
                "the game is over: there is no move to find",
            ));
        }
        Ok((pos, job))
    }
}

/// A checked request's work.
#[derive(Clone, Debug)]
pub enum Job {
    Level { level: Level, seed: u64 },
    Search(Limits),
}

impl Job {
    /// Think about `pos` to the end of the limits, here, on this thread.
    pub fn run(self, pos: Position) -> Answer {
        let table = match &self {
            Job::Level { level, .. } if level.endgame_table => {
                super::tablebase::for_rules(pos.rules())
            }
            Job::Level { .. } => None,
            Job::Search(limits) => limits.tablebase.clone(),
        };
        let table = table.map_or(0, |t| t.stones());
        let mut answer = match self {
            Job::Level { level, seed } => {
                let decision = Thinker::new(pos, level, seed, None).run();
                Answer::new(Some(decision.mv), &decision.report)
            }
            Job::Search(limits) => {
                let report = Search::new(pos, Weights::shipped(), limits).run();
                Answer::new(None, &report)
            }
        };
        answer.endgame_table = table;
        answer
    }
}

/// Answer a request's JSON with the answer's JSON: the whole work of a thinking worker.
pub fn answer(request: &str) -> Result<String, RemoteError> {
    let (pos, job) = Request::parse(request)?;
    Ok(job.run(pos).to_json())
}

impl Answer {
    fn new(chosen: Option<Move>, report: &Report) -> Answer {
        Answer {
            chosen: chosen.map(|m| m.to_string()),
            best: report.best.to_string(),
            score: report.score,
            depth: report.depth,
            nodes: report.nodes,
            elapsed_us: report.elapsed.as_micros().min(u128::from(u64::MAX)) as u64,
            solved: report.solved,
            pv: report.pv.iter().map(Move::to_string).collect(),
            moves: report
                .moves
                .iter()
                .map(|&(m, value)| (m.to_string(), value))
                .collect(),
            endgame_table: 0,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self)
            .unwrap_or_else(|e| unreachable!("plain data always serialises: {e}"))
    }

    pub fn from_json(text: &str) -> Result<Answer, RemoteError> {
        serde_json::from_str(text).map_err(|e| RemoteError::Syntax(e.to_string()))
    }

    /// The search's report. Its moves are checked as notation only: whoever asked checks them
    /// against the position, as it would any move it is given.
    pub fn report(&self) -> Result<Report, RemoteError> {
        let mv = |text: &str, name: &'static str| {
            text.parse::<Move>()
                .map_err(|_| field(name, format!("{} is not a move", excerpt::quoted(text))))
        };
        Ok(Report {
            best: mv(&self.best, "best")?,
            score: self.score,
            depth: self.depth,
            nodes: self.nodes,
            elapsed: Duration::from_micros(self.elapsed_us),
            solved: self.solved,
            pv: self
                .pv
                .iter()
                .map(|m| mv(m, "pv"))
                .collect::<Result<_, _>>()?,
            moves: self
                .moves
                .iter()
                .map(|(m, value)| Ok((mv(m, "moves")?, *value)))
                .collect::<Result<_, RemoteError>>()?,
        })
    }

    /// A level's decision: the move it chose and the search behind it.
    pub fn decision(&self) -> Result<Decision, RemoteError> {
        let chosen = self
            .chosen
            .as_deref()
            .ok_or_else(|| field("chosen", "missing: the answer is not a level's move"))?;
        let mv = chosen.parse::<Move>().map_err(|_| {
            field(
                "chosen",
                format!("{} is not a move", excerpt::quoted(chosen)),
            )
        })?;
        Ok(Decision {
            mv,
            report: self.report()?,
        })
    }
}

impl Search {
    /// The same search as a request a thinking worker answers, unless it cannot be said as one
    /// (other weights, a node limit, a table or a learned evaluation of its own) or has begun.
    /// The worker starts with an empty transposition table and looks positions up in its own
    /// endgame table, as a hint's search does (`Job`).
    pub fn request(&self) -> Option<Request> {
        self.as_plain()
            .map(|(root, limits)| Request::search(root, limits))
    }
}

impl Thinker {
    /// The same work as a request a thinking worker answers, unless it was changed in a way a
    /// request cannot say (other weights, reductions, a table) or has begun.
    pub fn request(&self) -> Option<Request> {
        self.as_plain()
            .map(|(pos, level, seed)| Request::level(pos, level, seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::presets;

    /// `plies` moves into a game of `rules`, chosen by a fixed rule among the legal ones.
    fn played(rules: RuleSet, plies: usize) -> Position {
        let mut pos = Position::new(rules);
        for k in 0..plies {
            let moves = pos.legal_moves();
            pos.play(moves[(3 * k + 1) % moves.len()]).unwrap();
        }
        pos
    }

    fn standard() -> RuleSet {
        presets::get("standard").unwrap().rules
    }

    #[test]
    fn a_level_answers_as_it_does_here() {
        let pos = played(standard(), 3);
        // Levels held to a depth they reach well within their time: the same nodes both ways.
        for level in [1, 4, 6] {
            let level = Level::get(level).unwrap();
            let here = Thinker::new(pos, level, 11, None).run();
            let text = answer(&Request::level(&pos, &level, 11).to_json()).unwrap();
            let there = Answer::from_json(&text).unwrap().decision().unwrap();
            assert_eq!(there.mv, here.mv, "level {}", level.level);
            assert_eq!(there.report.best, here.report.best);
            assert_eq!(there.report.nodes, here.report.nodes);
            assert_eq!(there.report.pv, here.report.pv);
        }
    }

    #[test]
    fn a_search_answers_as_it_does_here() {
        let pos = played(standard(), 4);
        let limits = Limits {
            depth: Some(6),
            all_root_moves: true,
            ..Limits::default()
        };
        let here = Search::new(pos, Weights::shipped(), limits.clone()).run();
        let text = answer(&Request::search(&pos, &limits).to_json()).unwrap();
        let there = Answer::from_json(&text).unwrap().report().unwrap();
        assert_eq!(
            (
                there.best,
                there.score,
                there.nodes,
                &there.pv,
                &there.moves
            ),
            (here.best, here.score, here.nodes, &here.pv, &here.moves)
        );
    }

    #[test]
    fn the_recent_moves_travel_with_the_position() {
        let rules = RuleSet {
            repetition: true,
            ..RuleSet::default()
        };
        let pos = played(rules, 3);
        let request = Request::level(&pos, &Level::easy(), 1);
        let (there, _) = Request::parse(&request.to_json()).unwrap();
        assert_eq!(there, pos);
        assert_eq!(there.recent_moves(), pos.recent_moves());
    }

    #[test]
    fn bad_requests_are_refused_by_name() {
        let pos = played(standard(), 1);
        let good = Request::level(&pos, &Level::easy(), 1);
        let refused = |request: &Request| Request::parse(&request.to_json()).unwrap_err();
        let named = |e: RemoteError| match e {
            RemoteError::Field { field, .. } => field,
            other => panic!("{other}"),
        };
        let mut r = good.clone();
        r.work = Work::Level {
            level: 11,
            time_ms: 100,
            seed: 1,
        };
        assert_eq!(named(refused(&r)), "work.level");
        r.work = Work::Level {
            level: 2,
            time_ms: 100_000,
            seed: 1,
        };
        assert_eq!(named(refused(&r)), "work.time_ms");
        let search = |depth| Work::Search {
            depth,
            time_ms: None,
            all_root_moves: false,
            book: false,
            quiescence: false,
            reductions: false,
            outcome_only: false,
        };
        r.work = search(None);
        assert_eq!(named(refused(&r)), "work");
        r.work = search(Some(MAX_DEPTH + 1));
        assert_eq!(named(refused(&r)), "work.depth");
        let mut r = good.clone();
        r.position = r.position.replace("\"pits\":[", "\"pits\":[99,");
        assert_eq!(named(refused(&r)), "position");
        let mut r = good.clone();
        r.recent = [200, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF];
        assert_eq!(named(refused(&r)), "recent");
        let mut r = good.clone();
        r.rules.players = 4;
        assert_eq!(named(refused(&r)), "rules");
        let mut r = good;
        r.position = " ".repeat(MAX_REQUEST_BYTES);
        assert!(matches!(refused(&r), RemoteError::TooLong { .. }));
        assert!(matches!(
            Request::parse("{\"rules\":"),
            Err(RemoteError::Syntax(_))
        ));
        assert!(Answer::from_json("{}").is_err());
    }

    #[test]
    fn an_answer_with_a_bad_move_is_refused() {
        let pos = played(standard(), 1);
        let text = answer(&Request::level(&pos, &Level::easy(), 3).to_json()).unwrap();
        let mut bad = Answer::from_json(&text).unwrap();
        bad.best = "99+".into();
        assert!(matches!(
            bad.report(),
            Err(RemoteError::Field { field: "best", .. })
        ));
        bad.chosen = None;
        assert!(bad.decision().is_err());
    }
}
