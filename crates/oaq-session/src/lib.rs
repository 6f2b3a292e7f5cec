//! What surrounds a game, without Bevy: the players' settings, the string tables of both
//! languages (and a mistake's explanation in words), the match history with undo and redo,
//! saved games, puzzle progress, the rules lesson's examples and where files are kept.

mod clock;
mod explain_words;
mod history;
mod lang;
pub mod lesson;
mod practice;
mod puzzle_progress;
mod puzzle_rating;
pub mod puzzle_runs;
mod record;
mod seat;
mod settings;
mod storage;
pub mod training;

pub use clock::{MatchClock, TimeControl};
pub use explain_words::{Names, explanation_words};
pub use history::{Entry, History, seat_at};
pub use lang::{Lang, Strings};
pub use practice::{MAX_CARDS, Practice, PracticeCard};
pub use puzzle_progress::PuzzleProgress;
pub use puzzle_rating::{HISTORY_DAYS, MAX_RATED_PUZZLES, PuzzleRating, Rated, ThemeCount};
pub use record::{Record, RecordError, ReviewRecord, ReviewedMove};
pub use seat::Seat;
pub use settings::{
    DEFAULT_SERVER, MAX_NAME, Mode, ScoreView, Settings, SettingsError, Speed, TEXT_SIZES,
};
pub use storage::{ONLINE_TOKEN, PRACTICE, PUZZLES, SAVED_GAME, SETTINGS, Storage};
pub use training::TrainingRecord;
