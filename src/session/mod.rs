//! What surrounds a game, without Bevy: the players' settings, the string tables of both
//! languages, the match history with undo and redo, saved games and where files are kept.

mod clock;
mod history;
mod lang;
mod record;
mod seat;
mod settings;
mod storage;

pub use clock::{MatchClock, TimeControl};
pub use history::{Entry, History};
pub use lang::{Lang, Strings};
pub use record::{Record, RecordError};
pub use seat::Seat;
pub use settings::{DEFAULT_SERVER, Mode, ScoreView, Settings, SettingsError, Speed};
pub use storage::{ONLINE_TOKEN, SAVED_GAME, SETTINGS, Storage};
