//! The computer player: an alpha-beta search from Easy to Master that runs in slices where a
//! long call is not allowed, its evaluation, the opening books, the endgame tables, a learned
//! evaluation (measured, unused), the review of a game and the puzzles. Pure: no I/O and no
//! engine code, like the rules it searches.
//!
//! ```
//! use oaq_ai::{Level, Thinker};
//! use oaq_rules::{Position, presets};
//! let pos = Position::new(presets::get("basic").unwrap().rules);
//! let decision = Thinker::new(pos, Level::medium(), 1, None).run();
//! assert!(pos.is_legal(decision.mv));
//! ```
//!
//! - [`Thinker`] plays a [`Level`] in one position (on every core for Master); [`Search`] is the
//!   iterative-deepening principal variation search it runs, stoppable after any node
//!   ([`Search::step`]) under [`Limits`] of depth, nodes, time and a cancel flag, with a
//!   lock-free transposition table ([`tt`]) keyed by Zobrist hashes ([`zobrist`]); a value it
//!   proves (every line behind it ended the game) says so in its [`Report`].
//! - [`eval`]: eight features of each side, weighted by `assets/ai/weights.ron` (`oaq fit`).
//! - [`book`]: each 2-player preset's opening book (`assets/ai/book/`, `oaq book`).
//! - [`tablebase`]: exact values of `basic` endgames (`assets/ai/endgame-*.tb`, `oaq tablebase`).
//! - [`network`]: a small learned correction of the evaluation (`oaq train`); no level uses it.
//! - [`review`]: every move of a game judged against the search's best (`oaq review`).
//! - [`explain`]: why a move gave points away, as facts of the engine's own line.
//! - [`retry`]: a player's own mistakes as puzzles to retry, the biggest first.
//! - [`steps`]: work made of searches run one at a time anywhere (explanations, retries).
//! - [`puzzle`]: positions with one winning move, generated and checked (`oaq puzzles`).
//! - [`remote`]: a search as a request a thinking worker (the browser's Web Worker) answers.
//!
//! The levels' strength (paired margins, ratings in `assets/ai/ratings.ron`), the speed of the
//! search and why each part is as it is, with the figures of every run that decided it, are in
//! `docs/measurements.md` ("The computer player").

pub mod book;
pub mod eval;
pub mod explain;
mod levels;
pub mod limits;
pub mod network;
pub mod puzzle;
pub mod remote;
pub mod retry;
pub mod review;
pub mod search;
pub mod steps;
pub mod tablebase;
pub mod theme;
mod thinker;
pub mod tt;
pub mod zobrist;

pub use eval::Weights;
pub use levels::{Level, ParseLevelError, Ratings};
pub use limits::{Limits, MAX_DEPTH, Report};
pub use search::Search;
pub use thinker::{Decision, MAX_THREADS, Thinker};
pub use tt::Table;
