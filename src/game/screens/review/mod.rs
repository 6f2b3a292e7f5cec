//! The review of a finished game: the engine judges every move off the frame (a search a
//! move, in the thread pool or the web's thinking worker, with its progress shown), a graph of
//! the expected final margin after each move, the moves with their grades, and stepping through
//! the game on the board: forward animates the move as in play, back snaps, Play runs the game
//! at 0.5× to 4×, dragging along the graph scrubs, a click on a move jumps there, and the best
//! move can be lit and played out as a variation.

mod analysis;
mod caption;
mod grades;
mod graph;
mod list;
mod mistakes;
mod panel;
mod transport;

use bevy::prelude::*;

use crate::ai::Report;
use std::collections::BTreeMap;

use crate::ai::explain::{Explainer, Explanation};
use crate::ai::puzzle::Puzzle;
use crate::ai::retry::Retrier;
use crate::ai::review::{self, MoveReview, Reviewer};
use crate::game::board::layout::Layout;
use crate::game::play::animation::Pace;
use crate::game::play::off_frame::Job;
use crate::game::state::{
    Analysis, Game, Message, OpenReview, Phase, Prefs, Screen, Settled, Skip,
};
use crate::rules::Move;
use crate::session::History;

/// The playback speeds, as multiples of the normal pace.
const SPEEDS: [f32; 4] = [0.5, 1.0, 2.0, 4.0];
/// The graph's scale: margins beyond this many points are drawn at the edge.
const GRAPH_POINTS: f64 = 30.0;
/// Moves the list shows around the current one.
const LIST_LINES: usize = 14;

/// A game's review: its moves, their judgements and where the board is in it.
#[derive(Resource, Default)]
pub struct Review {
    /// The whole game under review, as it was when the review opened.
    pub game: Option<History>,
    /// Moves of the game on the board now.
    pub at: usize,
    /// The engine's judgement of each move, as far as worked out.
    pub judged: Vec<MoveReview>,
    reviewer: Option<Reviewer>,
    /// The search judging the next move, off the frame.
    job: Option<Job<Report>>,
    /// The game is being played through, one move after another.
    pub playing: bool,
    /// Index in `SPEEDS`.
    pub speed: usize,
    /// The best move is lit on the board.
    pub show_best: bool,
    /// Moves played from `at` off the game's line (the engine's best).
    pub variation: Vec<Move>,
    /// The list of moves is shown.
    pub list_shown: bool,
    /// Why each mistake and blunder gave points away, by the move's index (once worked out,
    /// after every move is judged; a mistake no fact explains has none).
    pub explained: BTreeMap<usize, Explanation>,
    /// The mistake being explained, and the next move to look at.
    explaining: Option<(usize, Explainer)>,
    explain_from: usize,
    /// The players' own mistakes still to be made puzzles, the next last (`None` before the
    /// explanations are done).
    retrying: Option<Vec<Retrier>>,
    /// The players' own mistakes made puzzles to retry, the biggest first.
    pub retries: Vec<Puzzle>,
}

impl Review {
    /// Moves in the game.
    fn len(&self) -> usize {
        self.game.as_ref().map_or(0, |g| g.entries().len())
    }

    /// Whether the engine is still at work.
    pub fn analysing(&self) -> bool {
        self.reviewer.is_some()
    }
}

/// A review button's meaning.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub enum ReviewAction {
    Back,
    Step(i8),
    Play,
    Speed(i8),
    Best,
    PlayBest,
    /// The players' own mistakes of this game, as puzzles to retry.
    Retry,
    /// Jump to the position after this many moves.
    Jump(usize),
    /// Show or hide the list of moves.
    List,
}

#[derive(Component)]
pub(super) struct Graph;
#[derive(Component)]
pub(super) struct MoveList;
/// The line under the board that says what the move was and why.
#[derive(Component)]
pub struct Caption;
#[derive(Component)]
pub(super) struct ControlLabel(pub ReviewAction);
#[derive(Component, Clone)]
pub(super) struct BestMark;

use analysis::analyse;
use caption::{caption, label_controls, mark_best};
use graph::draw_graph;
pub use graph::{KeyMoment, key_moments};
use list::draw_list;
use panel::{rebuild, spawn};
use transport::{autoplay, keys, press, scrub};

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Review>();
    app.add_observer(open);
    app.add_observer(press);
    app.add_systems(OnEnter(Screen::Review), spawn);
    app.add_systems(OnExit(Screen::Review), leave);
    app.add_systems(
        Update,
        (
            (keys, scrub)
                .run_if(in_state(Screen::Review))
                .in_set(crate::game::state::GameSet::Input),
            (analyse, autoplay)
                .run_if(in_state(Screen::Review))
                .in_set(crate::game::state::GameSet::Think),
            (
                rebuild,
                (draw_graph, draw_list, caption, label_controls, mark_best),
            )
                .chain()
                .run_if(in_state(Screen::Review))
                .run_if(
                    resource_changed::<Review>
                        .or_eager(resource_changed::<Phase>)
                        .or_eager(resource_changed::<Prefs>)
                        .or_eager(resource_changed::<Layout>),
                )
                .in_set(crate::game::state::GameSet::Show),
        ),
    );
}

/// Where the next review opens, in moves from the start, in place of the game's end (the
/// command line's `--review-at`).
#[derive(Resource, Clone, Copy, Debug)]
pub struct ReviewAt(pub usize);

fn open(
    _: On<OpenReview>,
    mut commands: Commands,
    (mut game, analysis, review_at): (ResMut<Game>, Res<Analysis>, Option<Res<ReviewAt>>),
    mut review: ResMut<Review>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    if game.history.entries().is_empty() {
        return;
    }
    let history = game.history.clone();
    let moves: Vec<Move> = history.moves().collect();
    review.judged = analysis.of(&history).map(<[_]>::to_vec).unwrap_or_default();
    review.reviewer = if review.judged.len() == moves.len() {
        None
    } else {
        Reviewer::new(*history.start(), &moves, review::DEFAULT_DEPTH).ok()
    };
    review.job = None;
    review.explained.clear();
    review.explaining = None;
    review.explain_from = 0;
    review.retrying = None;
    review.retries.clear();
    review.at = moves.len();
    review.playing = false;
    review.show_best = false;
    review.variation.clear();
    review.speed = 1;
    review.game = Some(history);
    // A move still being shown ends now: the review starts from the board as it stands.
    commands.trigger(Skip);
    if let Some(at) = review_at {
        commands.remove_resource::<ReviewAt>();
        transport::jump(&mut commands, &mut review, &mut game, at.0);
    }
    next_screen.set(Screen::Review);
}

/// Back to the game as it ended.
fn leave(
    mut commands: Commands,
    mut review: ResMut<Review>,
    mut game: ResMut<Game>,
    mut pace: ResMut<Pace>,
    mut message: ResMut<Message>,
) {
    review.playing = false;
    review.reviewer = None;
    review.explaining = None;
    commands.remove_resource::<crate::game::state::RetryWhenReady>();
    review.retrying = Some(Vec::new());
    // Work still out is dropped: a pool task is cancelled, a worker stopped.
    review.job = None;
    pace.0 = 1.0;
    if let Some(history) = review.game.take() {
        game.history = history;
        game.generation += 1;
        commands.trigger(Settled);
    }
    message.0.clear();
}
