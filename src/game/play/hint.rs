//! The Hint button: the engine's best move for the side to move, worked out off the frame,
//! shown with the pit and the arrow lit, and its expected result on the message line.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bevy::prelude::*;

use crate::ai::{Limits, Report, Search, Weights};
use crate::game::board::art::Art;
use crate::game::board::layout::{Layout, Side};
use crate::game::play::off_frame::{FRAME_SHARE, Job};
use crate::game::state::{
    Advice, Game, Launch, Message, MovePlayed, NewGame, Note, Phase, TimeTravel,
};
use crate::rules::{Move, geometry};
use crate::session::Lang;

/// How long the engine thinks about a hint.
const HINT_TIME: Duration = Duration::from_millis(1200);

/// Ask for a hint for the side to move.
#[derive(Event, Debug, Clone, Copy)]
pub struct AskHint;

impl Advice {
    fn from_report(report: &Report) -> Advice {
        Advice {
            mv: report.best,
            margin: report.expected_margin(),
        }
    }

    /// "Hint: pit 3 to the right, expected to finish 4 points ahead".
    pub fn describe(&self, layout: &Layout, lang: Lang) -> String {
        let n = self.margin.abs().round();
        let margin = if n == 0.0 {
            lang.tr("margin.even").to_owned()
        } else if self.margin > 0.0 {
            lang.trf("margin.ahead", &[("n", &n)])
        } else {
            lang.trf("margin.behind", &[("n", &n)])
        };
        match self.mv {
            Move::Sow { pit, dir } => {
                let pit = usize::from(pit);
                let side = layout.side_for(geometry::owner(pit), dir);
                let number = geometry::pit_number(pit).unwrap_or(0);
                // The upright board's rows run up and down the screen.
                let dir = lang.tr(match (side, layout.upright()) {
                    (Side::Left, false) => "dir.left",
                    (Side::Right, false) => "dir.right",
                    (Side::Left, true) => "dir.down",
                    (Side::Right, true) => "dir.up",
                });
                lang.trf(
                    "hint.line",
                    &[("pit", &number), ("dir", &dir), ("margin", &margin)],
                )
            }
            Move::Swap => lang.trf("hint.swap", &[("margin", &margin)]),
        }
    }
}

/// A hint being worked out for the game of generation `generation`.
#[derive(Component)]
pub(in crate::game) struct HintTask {
    job: Job<Report>,
    generation: u64,
    ply: u32,
    cancel: Arc<AtomicBool>,
}

/// The sprites that show the hinted move.
#[derive(Component, Clone)]
struct HintMark;

pub(super) fn plugin(app: &mut App) {
    app.add_observer(ask)
        .add_observer(forget::<NewGame>)
        .add_observer(forget::<TimeTravel>)
        .add_observer(forget::<MovePlayed>);
    app.add_systems(Update, poll.in_set(crate::game::state::GameSet::Think));
}

fn ask(
    _: On<AskHint>,
    mut commands: Commands,
    game: Res<Game>,
    phase: Res<Phase>,
    mut message: ResMut<Message>,
    launch: Res<Launch>,
    tasks: Query<(), With<HintTask>>,
) {
    if *phase != Phase::Waiting || !game.human_to_move() || !tasks.is_empty() {
        return;
    }
    let pos = *game.pos();
    let cancel = Arc::new(AtomicBool::new(false));
    let limits = Limits {
        time: Some(HINT_TIME),
        cancel: Some(cancel.clone()),
        book: true,
        // As deep as Master looks in the time, with Master's endgame table.
        reductions: true,
        tablebase: crate::ai::tablebase::for_rules(pos.rules()),
        ..Limits::default()
    };
    let search = Search::new(pos, Weights::shipped(), limits);
    commands.spawn(HintTask {
        job: Job::start(search, launch.sliced_ai),
        generation: game.generation,
        ply: pos.ply(),
        cancel,
    });
    message.set(Note::HintThinking);
}

fn poll(
    mut commands: Commands,
    game: Res<Game>,
    art: Res<Art>,
    layout: Res<Layout>,
    mut message: ResMut<Message>,
    mut tasks: Query<(Entity, &mut HintTask)>,
) {
    for (entity, mut hint) in &mut tasks {
        let Some(report) = hint.job.poll(FRAME_SHARE) else {
            continue;
        };
        commands.entity(entity).despawn();
        let current = hint.generation == game.generation && hint.ply == game.pos().ply();
        if !current || !game.pos().is_legal(report.best) {
            continue;
        }
        let advice = Advice::from_report(&report);
        crate::game::play::ai_turn::mark_move(
            &mut commands,
            &art,
            &layout,
            advice.mv,
            0.0,
            HintMark,
        );
        message.set(Note::Hint(advice));
    }
}

/// Drop a hint that no longer fits the board, and its marks.
fn forget<E: Event>(
    _: On<E>,
    mut commands: Commands,
    tasks: Query<(Entity, &HintTask)>,
    marks: Query<Entity, With<HintMark>>,
) {
    for (entity, hint) in &tasks {
        hint.cancel.store(true, Ordering::Relaxed);
        commands.entity(entity).despawn();
    }
    for e in &marks {
        commands.entity(e).despawn();
    }
}
