//! The match in progress as a resource, the player's settings, and the phase of the turn.

use std::collections::VecDeque;

use bevy::prelude::*;

use crate::ai::Level;
use crate::rules::{Event, Move, Position};
use crate::session::{History, Lang, Seat, Settings, Storage};

/// The match the board shows. Only `turn` changes it, through the rules.
#[derive(Resource)]
pub struct Game {
    pub history: History,
    /// Bumped by every new game, undo and redo: a computer move thought out for an older
    /// position is dropped.
    pub generation: u64,
}

impl Game {
    /// A new match with the settings' rules and seats (the computer on every seat when
    /// `launch.autoplay` is set).
    pub fn new(settings: &Settings, launch: &Launch, generation: u64) -> Game {
        let mut seats = settings.seats();
        if let Some(level) = launch.autoplay {
            seats.fill(Seat::Computer(level.level));
        }
        let players = seats.len();
        let mut history = History::new(&settings.preset().id, settings.rules(), seats);
        history.clock = settings
            .clock
            .map(|control| crate::session::MatchClock::new(control, players));
        Game {
            history,
            generation,
        }
    }

    /// The rules state now.
    pub fn pos(&self) -> &Position {
        self.history.position()
    }

    /// Whether a human plays the side to move.
    pub fn human_to_move(&self) -> bool {
        self.history.to_play().is_some_and(Seat::is_human)
    }

    /// The computer's level for the side to move, if the computer plays it.
    pub fn computer_to_move(&self) -> Option<Level> {
        self.history.to_play().and_then(Seat::level)
    }

    /// Whether the game is played online: some side is played elsewhere (a spectator's every
    /// side is). Hints, undo and saving are off then.
    pub fn online(&self) -> bool {
        self.history.seats().contains(&Seat::Remote)
    }

    /// Whether the players are timed (on this device; an online room's clock is the server's).
    pub fn timed(&self) -> bool {
        self.history.clock.is_some()
    }

    /// Whether any side is played by the computer, and any by a human.
    pub fn mixed(&self) -> bool {
        let seats = self.history.seats();
        seats.iter().any(|s| s.is_human()) && seats.iter().any(|s| !s.is_human())
    }

    /// The side whose row is drawn nearest the viewer: the one side a human plays at this
    /// device (whoever moves first, and after a table flip the side that human plays now);
    /// side 0 when several people share the device or nobody here plays.
    pub fn viewer_side(&self) -> usize {
        let players = self.pos().players();
        let mut here = (0..players).filter(|&s| self.history.player_of(s).is_human());
        match (here.next(), here.next()) {
            (Some(side), None) => side,
            _ => 0,
        }
    }

    /// Whether a move has been played and the game is not over: leaving it loses something.
    pub fn in_progress(&self) -> bool {
        !self.history.entries().is_empty() && !self.history.is_over()
    }
}

/// The menu's choices, as a resource.
#[derive(Resource, Clone, Debug, Default, Deref, DerefMut)]
pub struct Prefs(pub Settings);

impl Prefs {
    pub fn lang(&self) -> Lang {
        self.0.language
    }
}

/// Options of this run only, from the command line.
#[derive(Resource, Clone, Debug)]
pub struct Launch {
    /// The computer plays every seat at this level (for demonstrations and the smoke test).
    pub autoplay: Option<Level>,
    /// Straight to the board, without the title screen.
    pub skip_title: bool,
    /// Straight back to the saved game, if there is one.
    pub resume: bool,
    /// Seed of the computer's misjudgements.
    pub seed: u64,
    /// Think in slices on the frame instead of in the thread pool (always on the web).
    pub sliced_ai: bool,
}

impl Default for Launch {
    fn default() -> Launch {
        Launch {
            autoplay: None,
            skip_title: false,
            resume: false,
            seed: 1,
            sliced_ai: cfg!(target_arch = "wasm32"),
        }
    }
}

/// Where settings and the saved game are kept; absent (as in tests) means nothing is kept.
#[derive(Resource, Clone, Debug)]
pub struct Files {
    pub config: Storage,
    pub data: Storage,
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

/// Which screen is up.
#[derive(States, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Screen {
    #[default]
    Title,
    Playing,
    /// Playing online: the lobby, creating and joining rooms, the waiting room.
    Online,
    /// Looking back at a finished game with the engine.
    Review,
    /// Solving puzzles.
    Puzzles,
    /// The rules shown by example on the board.
    Lesson,
}

/// A panel over the board that takes the input while it is open.
#[derive(States, Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Overlay {
    #[default]
    None,
    Menu,
    Help,
    /// "Leave the game in progress?", before a change that starts a new game.
    ConfirmNewGame,
    /// "Flip the table?"
    Flip,
    /// How to play in three pictures: by itself on the first visit, and from the title.
    Intro,
    /// Text size, contrast, motion, confirming moves, button size.
    Access,
}

/// Play this move for the side to move (from input or the computer).
#[derive(Event, Debug, Clone, Copy)]
pub struct PlayMove(pub crate::rules::Move);

/// Asked from the end of a game: once its review has made the players' mistakes puzzles,
/// they are opened to retry.
#[derive(Resource)]
pub struct RetryWhenReady;

/// Look back at the game on the board with the engine (from the end panel).
#[derive(Event, Debug, Clone, Copy)]
pub struct OpenReview;

/// Import a game from a RON record: its text, or why the file could not be read.
#[derive(Event, Debug, Clone)]
pub struct Import(pub Result<String, String>);

/// Start a new game with the current settings.
#[derive(Event, Debug, Clone, Copy)]
pub struct NewGame;

/// Put this match on the board (a resumed or imported game), at its last position.
#[derive(Event, Debug, Clone)]
pub struct LoadGame(pub History);

/// Take back the last move (and the computer's replies), or play it again.
#[derive(Event, Debug, Clone, Copy)]
pub enum TimeTravel {
    Undo,
    Redo,
}

/// Finish the move being shown at once.
#[derive(Event, Debug, Clone, Copy)]
pub struct Skip;

/// The move that was being shown is now on the board.
#[derive(Event, Debug, Clone, Copy)]
pub struct MoveShown;

/// A move was played on the rules state (its animation starts now).
#[derive(Event, Debug, Clone)]
pub struct MovePlayed {
    pub events: Vec<Event>,
    pub mover: usize,
}

/// What the line under the board says, kept as meaning rather than text so that a language
/// switch rewrites it at once.
#[derive(Resource, Default, Debug, Clone, PartialEq)]
pub struct Message(pub Vec<Note>);

/// One piece of the message line.
#[derive(Debug, Clone, PartialEq)]
pub enum Note {
    /// What a move's event did.
    Event(Event),
    /// Whose turn it is.
    Turn,
    /// The hint for the side to move.
    Hint(Advice),
    /// The hint is being worked out.
    HintThinking,
    /// A table string with its arguments, already formatted for both languages.
    Text { en: String, vi: String },
}

impl Message {
    pub fn set(&mut self, note: Note) {
        self.0 = vec![note];
    }
}

/// The order of a frame's work: buttons pressed (each an `Activate` whose observers carry out
/// its action), read the rest of the input, think, show the move, then draw the rest.
#[derive(SystemSet, Debug, Clone, PartialEq, Eq, Hash)]
pub enum GameSet {
    Press,
    Input,
    Think,
    Animate,
    Show,
}

/// The engine's advice: a move and the final margin it expects for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct Advice {
    pub mv: Move,
    /// Points ahead at the end (negative: behind), for the side to move.
    pub margin: f32,
}

/// A player's time ran out in a timed game on this device: the game is over.
#[derive(Event, Debug, Clone, Copy)]
pub struct RanOutOfTime {
    pub side: usize,
}

/// The board holds a new position without a move to show: snap to it.
#[derive(Event, Debug, Clone, Copy)]
pub struct Settled;

/// What the next frame is waiting for. Nothing on the board moves between moves, so the game
/// sleeps then (Bevy's reactive update mode) until input, a message from the server, or the
/// moment written here: each plugin says whether it needs the next frame at once (`busy`: a
/// move animating, the computer thinking) or by when (`within`: a clock's next visible change).
#[derive(Resource, Default, Debug)]
pub struct Wake {
    pub busy: bool,
    pub within: Option<std::time::Duration>,
}

impl Wake {
    /// The next frame is needed now.
    pub fn busy(&mut self) {
        self.busy = true;
    }

    /// A frame is needed by `after` from now.
    pub fn within(&mut self, after: std::time::Duration) {
        self.within = Some(self.within.map_or(after, |w| w.min(after)));
    }
}

/// The last game the engine reviewed: kept so that a game is judged once, and written into the
/// file when the game is exported.
#[derive(Resource, Default, Debug, Clone)]
pub struct Analysis(pub Option<AnalysedGame>);

#[derive(Debug, Clone)]
pub struct AnalysedGame {
    pub start: Position,
    pub moves: Vec<Move>,
    /// One judgement a move.
    pub judged: Vec<crate::ai::review::MoveReview>,
}

impl Analysis {
    /// The judgements of `history`'s moves, when this is its review.
    pub fn of(&self, history: &History) -> Option<&[crate::ai::review::MoveReview]> {
        self.0
            .as_ref()
            .filter(|a| {
                a.start == *history.start()
                    && a.judged.len() == a.moves.len()
                    && a.moves.iter().copied().eq(history.moves())
            })
            .map(|a| a.judged.as_slice())
    }
}

/// A bar along the window's top or bottom edge over a screen that shows the board (the game's
/// buttons, a puzzle's caption, the review's graph), or a list down its left side (the moves):
/// the camera keeps the board clear of it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub enum BoardEdge {
    Top,
    Bottom,
    Left,
}

/// Room the bars take along the window's edges (`BoardEdge`), measured from their laid-out
/// nodes in logical pixels (none when no bar is shown): along the top, the bottom, the right
/// where a top bar stands as a column (a phone held sideways) and the left where a list of moves
/// shows in a window wider than high; `world` is what the camera shows below the world for the
/// bottom one, in world units (worked out for the window).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq)]
pub struct BarSpace {
    pub top: f32,
    pub bottom: f32,
    pub right: f32,
    pub left: f32,
    pub world: f32,
}

/// A screen is still working something out (a review's analysis): a screenshot waits for it.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Working(pub bool);

/// Moves of an imported game still to be played on the board, one after another.
#[derive(Resource, Default, Debug)]
pub struct Replay(pub VecDeque<Move>);

impl Replay {
    /// How many times faster than the player's speed a replayed move is shown: an imported game
    /// is rebuilt at a review's fastest pace, and its last move, the one the player goes on
    /// from, at the player's own.
    pub const PACE: f32 = 4.0;

    /// The pace of the move being shown: `PACE` while moves remain to replay after it.
    #[must_use]
    pub fn pace(&self) -> f32 {
        if self.0.is_empty() { 1.0 } else { Self::PACE }
    }
}

/// Whether the keyboard's focus is on a button (not on the board or nowhere): Space then
/// presses that button instead of skipping the move being shown.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FocusOnControl(pub bool);

/// A move chosen while "confirm each move" is on, waiting for the player's second press.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct PendingSow(pub Option<Move>);

/// Whether the game moves: the system's (or browser's) wish at start-up, and the player's
/// choice over it (`Settings::reduce_motion`).
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Motion {
    /// The operating system or the browser asks for reduced motion.
    pub system_reduced: bool,
    /// No animation, no pulsing or breathing now.
    pub reduced: bool,
}

impl Motion {
    /// The scale of every animation time: 0 (none) when motion is reduced.
    pub fn factor(&self, speed: crate::session::Speed) -> f32 {
        if self.reduced { 0.0 } else { speed.factor() }
    }
}

/// The text size setting as a factor (1.0 to 2.0), for the words drawn on the board.
#[derive(Resource, Debug, Clone, Copy, PartialEq)]
pub struct TextScale(pub f32);

impl Default for TextScale {
    fn default() -> TextScale {
        TextScale(1.0)
    }
}

/// A word or number drawn on the board (a count, a store's label, the message line, a clock):
/// with high contrast it stands on black.
#[derive(Component, Default)]
pub struct BoardLabel;
