//! Correspondence play as the protocol carries it: a player's list of games ("My games") and
//! their vacation. A correspondence game is a room whose clock is `{"days": N}`: the server
//! stamps each move, the mover has N days for it (the clock is set back to N days after each
//! move), and a player on vacation stops the clocks of every game they are in, both sides'.
//!
//! ```
//! use oaq_net::correspondence::{MyGame, sort_games};
//! let game = |code: &str, yours: bool, left: i64| MyGame {
//!     code: code.into(), preset: "basic".into(), days: 3, opponent: "Bà".into(),
//!     your_turn: yours, left_ms: Some(left), paused: false, moves: 4,
//! };
//! let mut games = vec![game("A", false, 10), game("B", true, 900), game("C", true, 50)];
//! sort_games(&mut games);
//! let order: Vec<&str> = games.iter().map(|g| g.code.as_str()).collect();
//! assert_eq!(order, ["C", "B", "A"], "ours to move first, the most urgent first");
//! ```

use serde::{Deserialize, Serialize};

/// The most vacation days asked for at once (the year's allowance is the server's).
pub const MAX_VACATION_DAYS: u8 = 60;

/// One correspondence game of the asker's, waiting for players or in progress.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MyGame {
    /// The room's code: `join` it to see the board.
    pub code: String,
    pub preset: String,
    /// Days per move.
    pub days: u8,
    /// The other player's name (empty while nobody has taken the seat).
    pub opponent: String,
    /// Whether the next move is the asker's.
    pub your_turn: bool,
    /// The mover's time left now (absent before the game starts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_ms: Option<i64>,
    /// The clocks are stopped: a player in it is on vacation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub paused: bool,
    /// Moves played so far.
    pub moves: u32,
}

/// A player's vacation: whether they are on one now, and what is left of the year's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vacation {
    /// On vacation until then (server time, Unix ms).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub until_ms: Option<i64>,
    /// What is left of this year's allowance, in ms.
    pub left_ms: i64,
    /// How long a day is on this server, in ms (shorter on servers set up for tests).
    pub day_ms: i64,
}

/// Games the asker must move in first, the one with least time left first; then the rest by
/// time left; games not begun last.
pub fn sort_games(games: &mut [MyGame]) {
    games.sort_by_key(|g| (!g.your_turn, g.left_ms.is_none(), g.left_ms, g.code.clone()));
}

/// A length of time in words, in its largest units: "2 d 3 h", "5 h 10 min", "45 min", "30 s".
///
/// ```
/// use oaq_net::correspondence::time_words;
/// use oaq_session::Lang;
/// assert_eq!(time_words(2 * 86_400_000 + 3 * 3_600_000 + 5, Lang::En), "2 d 3 h");
/// assert_eq!(time_words(5 * 3_600_000 + 10 * 60_000, Lang::Vi), "5 giờ 10 phút");
/// assert_eq!(time_words(45 * 60_000, Lang::En), "45 min");
/// assert_eq!(time_words(-5, Lang::En), "0 s");
/// ```
pub fn time_words(ms: i64, lang: oaq_session::Lang) -> String {
    let s = ms.max(0) / 1000;
    let (d, h, m) = (s / 86_400, (s / 3600) % 24, (s / 60) % 60);
    if d > 0 {
        lang.trf("time.days", &[("d", &d), ("h", &h)])
    } else if h > 0 {
        lang.trf("time.hours", &[("h", &h), ("m", &m)])
    } else if m > 0 {
        lang.trf("time.minutes", &[("m", &m)])
    } else {
        lang.trf("time.seconds", &[("s", &s)])
    }
}
