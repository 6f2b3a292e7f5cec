//! The rules of Ô ăn quan, for every rule set: positions, moves, sowing, captures, refills and
//! the end of the game. Pure: no I/O and no engine code, so the game, the AI and the command
//! line share it.
//!
//! ```
//! use o_an_quan::rules::{presets, Position};
//! let mut pos = Position::new(presets::get("mature-quan").unwrap().rules);
//! while !pos.is_over() {
//!     let mv = pos.legal_moves()[0];
//!     pos.play(mv).unwrap();
//! }
//! assert!(pos.places().is_some());
//! ```

mod error;
mod event;
pub mod geometry;
pub mod limits;
mod moves;
mod outcome;
mod perft;
mod pits;
mod position;
pub mod presets;
mod ruleset;
mod setup;
mod sowing;
mod turn;

pub use error::{IllegalReason, ParseMoveError, PlayError, PositionError, RuleSetError};
pub use event::{EndReason, Event, EventSink, Loan, NoEvents, TurnEnd};
pub use geometry::Direction;
pub use moves::{MAX_MOVES, Move, MoveList};
pub use outcome::Outcome;
pub use perft::perft;
pub use position::{Position, Store};
pub use ruleset::{MandarinStart, Protection, Refill, RuleSet};
pub use setup::Setup;
