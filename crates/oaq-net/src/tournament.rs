//! What the protocol says of tournaments: a tournament as a list shows it, and as its page
//! shows it (the standings with each player's name, and the games being played).

use serde::{Deserialize, Serialize};

pub use oaq_tournament::{Format, Presence};

use crate::types::{ClockSpec, PlayerInfo};

/// A tournament's id (its code, of the codes' alphabet), in characters.
pub const TOURNAMENT_ID_LEN: usize = 8;
/// The longest tournament name, in characters.
pub const MAX_TOURNAMENT_NAME: usize = 40;
/// The longest tournament password, in characters.
pub const MAX_TOURNAMENT_PASSWORD: usize = 40;
/// Players a tournament's organiser may invite.
pub const INVITED_AT_MOST: usize = 200;
/// Standings lines a tournament's page shows (the asker's own line is always among them).
pub const STANDINGS_SHOWN: usize = 50;
/// Tournaments a player may have organised and not yet finished.
pub const ORGANISED_AT_ONCE: usize = 3;

/// Where a tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TournamentStatus {
    /// Taking players, until its start (at `starts_ms`, or when the organiser says).
    Open,
    Running,
    Over,
}

impl TournamentStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Open => "open",
            TournamentStatus::Running => "running",
            TournamentStatus::Over => "over",
        }
    }

    pub fn parse(text: &str) -> Option<TournamentStatus> {
        match text {
            "open" => Some(TournamentStatus::Open),
            "running" => Some(TournamentStatus::Running),
            "over" => Some(TournamentStatus::Over),
            _ => None,
        }
    }
}

/// A tournament as a list shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentLine {
    pub id: String,
    pub name: String,
    pub organiser: PlayerInfo,
    pub format: Format,
    pub preset: String,
    pub clock: ClockSpec,
    pub public: bool,
    pub status: TournamentStatus,
    pub players: u32,
    /// When it starts (0: when the organiser says) or started.
    pub starts_ms: i64,
    /// When an arena stops pairing and ends (0 for a round robin, or before the start).
    pub ends_ms: i64,
    /// It starts by itself once this many players are in (0: not by a number).
    #[serde(default)]
    pub start_when: u32,
    /// Joining it takes a password (but for the players invited).
    #[serde(default)]
    pub password: bool,
    /// Its games change no rating.
    #[serde(default)]
    pub unrated: bool,
    /// Its games have no chat.
    #[serde(default)]
    pub no_chat: bool,
    /// Bots may join it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bots: bool,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StandingLine {
    pub player: PlayerInfo,
    pub place: u32,
    pub points: f64,
    pub buchholz: f64,
    pub sonneborn_berger: f64,
    pub games: u32,
    pub presence: Presence,
    /// The arena's streak: the next win counts double.
    pub on_fire: bool,
    /// The room of the game they are playing, if they are.
    pub room: Option<String>,
}

/// A tournament as its page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TournamentView {
    pub line: TournamentLine,
    /// The round being played (a round robin's or a Swiss's, from 1), 0 before the first.
    pub round: u32,
    pub rounds: u32,
    /// When a Swiss's next round begins (0: not set, or when the organiser says).
    #[serde(default)]
    pub next_round_ms: i64,
    /// The best [`STANDINGS_SHOWN`] lines, and the asker's.
    pub standings: Vec<StandingLine>,
    /// Whether the asker takes part (and is not withdrawn).
    pub joined: bool,
}
