//! What the messages carry about rooms and games: a room's rules, a public room as the lobby
//! lists it, how a game ended and its result, a rating's change.

use serde::{Deserialize, Serialize};

use oaq_rules::{RuleSet, presets};

use crate::types::{ClockSpec, PlayerInfo};

/// The rules of a room: a shipped preset's id, or a whole rule set.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum RulesChoice {
    Preset(String),
    Custom(RuleSet),
}

impl RulesChoice {
    /// The preset id and rules this choice stands for, or what is wrong with it.
    pub fn resolve(&self) -> Result<(String, RuleSet), String> {
        match self {
            RulesChoice::Preset(id) => presets::get(id)
                .map(|p| (p.id.clone(), p.rules))
                .ok_or_else(|| {
                    let ids: Vec<&str> = presets::all().iter().map(|p| p.id.as_str()).collect();
                    format!(
                        "rules: {} is not a preset (they are {})",
                        oaq_rules::excerpt::quoted(id),
                        ids.join(", ")
                    )
                }),
            RulesChoice::Custom(rules) => {
                rules
                    .validate()
                    .map_err(|e| format!("rules: {}", e.detail()))?;
                // Named after the preset it is, switches aside (the winning score); else the
                // first preset of the same board, as a replay file names one.
                let plain = RuleSet {
                    win_at: None,
                    ..*rules
                };
                let preset = presets::all()
                    .iter()
                    .find(|p| p.rules == plain)
                    .or_else(|| {
                        presets::all()
                            .iter()
                            .find(|p| p.rules.players == rules.players)
                    })
                    .map(|p| p.id.clone())
                    .unwrap_or_default();
                Ok((preset, *rules))
            }
        }
    }
}

/// A public room waiting for players, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RoomSummary {
    pub code: String,
    pub preset: String,
    pub players: u8,
    pub clock: ClockSpec,
    pub creator: PlayerInfo,
    /// Seats taken so far.
    pub seated: u8,
    /// The winning score, when the room plays with one (the rule set's `win_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub win_at: Option<u16>,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndCause {
    /// Played to the end under the rules (the `reason` of the state says how).
    Rules,
    /// A clock ran out.
    Time,
    Resign,
    /// Both agreed to a draw.
    Agreed,
    /// A player was gone past the limit and the opponent claimed the game.
    Abandoned,
    /// The first moves were not played in time: no result, no rating change.
    Aborted,
}

/// The result of a finished game, by seat (the order players sat down in).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub cause: EndCause,
    /// Place of each seat: 0 for the winner, equal places for a draw. Empty when aborted.
    pub places: Vec<u8>,
    /// The board's scores by seat when it ended.
    pub scores: Vec<i32>,
    /// The seat whose action ended it (who ran out of time, resigned or was gone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<usize>,
}

/// A rating before and after a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    pub seat: usize,
    pub before: f64,
    pub after: f64,
}
