//! Typed errors of the rules engine, each with a message that names what is wrong.

use std::error::Error;
use std::fmt;

use super::moves::{Move, MoveList};

/// Why a move cannot be played in a position. The position is left unchanged.
#[derive(Clone, Debug)]
pub struct PlayError {
    pub mv: Move,
    pub reason: IllegalReason,
    /// What could have been played instead.
    pub legal: MoveList,
}

/// The rule a refused move breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalReason {
    GameOver,
    NoSuchPit,
    MandarinPit,
    NotYourPit { owner: u8 },
    EmptyPit,
    SwapNotAllowed,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let why = match self.reason {
            IllegalReason::GameOver => "the game is over".to_owned(),
            IllegalReason::NoSuchPit => "there is no such pit on this board".to_owned(),
            IllegalReason::MandarinPit => "a mandarin pit cannot be sown from".to_owned(),
            IllegalReason::NotYourPit { owner } => format!("that pit belongs to player {owner}"),
            IllegalReason::EmptyPit => "that pit is empty".to_owned(),
            IllegalReason::SwapNotAllowed => {
                "swap is only allowed to the second player, right after the opening move, when the rules have table flip".to_owned()
            }
        };
        write!(f, "illegal move {}: {why}; legal moves: ", self.mv)?;
        if self.legal.is_empty() {
            f.write_str("none")
        } else {
            write!(f, "{}", self.legal)
        }
    }
}

impl Error for PlayError {}

/// A rule set that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RuleSetError {
    /// The text is not RON of the expected shape (ron's message says where).
    Syntax(String),
    /// A value is out of range or does not fit with another option.
    Invalid { field: &'static str, reason: String },
}

impl RuleSetError {
    /// What is wrong, without the "rules: " that the message starts with.
    pub fn detail(&self) -> String {
        match self {
            RuleSetError::Syntax(message) => message.clone(),
            RuleSetError::Invalid { field, reason } => format!("{field}: {reason}"),
        }
    }
}

impl fmt::Display for RuleSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rules: {}", self.detail())
    }
}

impl Error for RuleSetError {}

/// A position that cannot arise under its rule set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError {
    /// The field at fault, as named in the state JSON (`pits`, `stores[1].owes`, ...).
    pub field: String,
    pub reason: String,
}

impl PositionError {
    pub(crate) fn new(field: impl Into<String>, reason: impl Into<String>) -> PositionError {
        PositionError {
            field: field.into(),
            reason: reason.into(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "position: {}: {}", self.field, self.reason)
    }
}

impl Error for PositionError {}
