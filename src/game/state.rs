//! The match in progress as a resource, the players' settings, and the phase of the turn.

use bevy::prelude::*;

use crate::ai::Level;
use crate::rules::{Position, RuleSet, presets};

/// The rules state the board shows. Only `turn` changes it, through `Position::play`.
#[derive(Resource)]
pub struct Game {
    pub pos: Position,
    /// Per seat: the computer's level, or `None` for a human.
    pub computer: [Option<Level>; 2],
    /// Bumped by every new game: a computer move thought out for an older game is dropped.
    pub generation: u64,
}

impl Game {
    pub fn new(settings: &Settings, generation: u64) -> Game {
        let computer = match settings.opponent {
            _ if settings.autoplay => [Some(settings.autoplay_level); 2],
            Opponent::Human => [None, None],
            Opponent::Computer(level) if settings.human_first => [None, Some(level)],
            Opponent::Computer(level) => [Some(level), None],
        };
        Game {
            pos: Position::new(settings.rules),
            computer,
            generation,
        }
    }

    /// Whether a human plays the seat to move.
    pub fn human_to_move(&self) -> bool {
        !self.pos.is_over() && self.computer[self.pos.to_move()].is_none()
    }
}

/// Who plays against the first human.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Opponent {
    Computer(Level),
    Human,
}

/// How fast moves animate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Speed {
    #[default]
    Normal,
    Fast,
    Off,
}

impl Speed {
    /// Scale applied to every animation time (0: no animation).
    pub fn factor(self) -> f32 {
        match self {
            Speed::Normal => 1.0,
            Speed::Fast => 1.0 / 3.0,
            Speed::Off => 0.0,
        }
    }

    pub fn next(self) -> Speed {
        match self {
            Speed::Normal => Speed::Fast,
            Speed::Fast => Speed::Off,
            Speed::Off => Speed::Normal,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Speed::Normal => "Speed: normal",
            Speed::Fast => "Speed: fast",
            Speed::Off => "Speed: off",
        }
    }
}

/// What the players chose.
#[derive(Resource, Clone, Debug)]
pub struct Settings {
    pub rules: RuleSet,
    pub opponent: Opponent,
    pub human_first: bool,
    pub speed: Speed,
    /// The computer plays both seats (for demonstrations and the smoke test).
    pub autoplay: bool,
    pub autoplay_level: Level,
    /// Seed of the computer's misjudgements.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            rules: presets::get("standard")
                .map(|p| p.rules)
                .unwrap_or_default(),
            opponent: Opponent::Computer(Level::medium()),
            human_first: true,
            speed: Speed::Normal,
            autoplay: false,
            autoplay_level: Level::medium(),
            seed: 1,
        }
    }
}

/// Where the turn is.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Phase {
    /// Waiting for the player (or the computer) to move.
    #[default]
    Waiting,
    /// A move is being shown.
    Animating,
    /// The game is over.
    Over,
}

/// Play this move for the seat to move (from input or the computer).
#[derive(Event, Debug, Clone, Copy)]
pub struct PlayMove(pub crate::rules::Move);

/// Start a new game with the current settings.
#[derive(Event, Debug, Clone, Copy)]
pub struct NewGame;

/// Finish the move being shown at once.
#[derive(Event, Debug, Clone, Copy)]
pub struct Skip;

/// The move that was being shown is now on the board.
#[derive(Event, Debug, Clone, Copy)]
pub struct MoveShown;

/// The line under the board that tells what happens.
#[derive(Resource, Default, Debug, Clone)]
pub struct Message(pub String);
