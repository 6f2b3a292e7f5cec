//! What a search is given and what it gives back: its limits (depth, nodes, time, a cancel flag,
//! the features it uses) and its report (the best move, its value, whether it is proved).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use super::eval;
use super::network::Network;
use super::tablebase::Tablebase;
use oaq_rules::Move;

/// Deepest iteration the search will try.
pub const MAX_DEPTH: u32 = 100;

/// When to stop. The search always finishes depth 1 first, so it always has a move.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub time: Option<Duration>,
    /// Set from another thread to stop the search early.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Search every root move with a full window, so that the report has an exact value for
    /// each (for hints, analysis and the levels' mistakes). Costs more nodes.
    pub all_root_moves: bool,
    /// Answer from the opening book (`super::book`) when it has the position.
    pub book: bool,
    /// At the horizon, follow captures (`QUIESCENCE_PLIES` of them) before trusting the
    /// evaluation, instead of evaluating at once.
    pub quiescence: bool,
    /// Search the late moves of null-window nodes one move shallower first, and again at full
    /// depth only when they beat the window: the search goes deeper in its time. A proved
    /// result stays proved (every line of a solved subtree ended, reduced or not).
    pub reductions: bool,
    /// Finished games are worth only a win, a draw or a loss, not the margin: the search proves
    /// who wins (`Report::solved`) long before it could prove by how much.
    pub outcome_only: bool,
    /// An endgame table: a position it knows exactly is worth its result, proved, without a
    /// search (`super::tablebase`).
    pub tablebase: Option<Arc<Tablebase>>,
    /// A learned evaluation: its correction is added to the hand-written evaluation wherever
    /// the search evaluates (`super::network`). Ignored unless it serves the position's rules.
    pub network: Option<Arc<Network>>,
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub best: Move,
    /// The value of `best` for the seat to move, in hundredths of a point (see `eval::WIN`).
    pub score: i32,
    /// The deepest iteration completed.
    pub depth: u32,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The value is the game's exact result under best play, not an estimate.
    pub solved: bool,
    /// The expected line of play, starting with `best`.
    pub pv: Vec<Move>,
    /// With `Limits::all_root_moves`: every legal move and its value, best first.
    pub moves: Vec<(Move, i32)>,
}

impl Report {
    /// The final margin the score predicts, in points, for the seat to move: exact when solved.
    pub fn expected_margin(&self) -> f32 {
        eval::margin(self.score) as f32
    }
}
