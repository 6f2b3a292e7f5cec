//! The computer opponent: a search from Easy to Master, hints and analysis. Pure: no I/O and no
//! engine code, and it runs in slices where a long call is not allowed.

pub mod book;
pub mod eval;
mod levels;
pub mod puzzle;
pub mod review;
pub mod search;
mod thinker;
pub mod tt;
pub mod zobrist;

pub use eval::Weights;
pub use levels::{Level, ParseLevelError, Ratings};
pub use search::{Limits, Report, Search};
pub use thinker::{Decision, MAX_THREADS, Thinker};
pub use tt::Table;
