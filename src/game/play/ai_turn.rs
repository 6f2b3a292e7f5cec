//! The computer's turns, thought out off the frame (in the async compute pool, polled with
//! `check_ready`, or in slices on the web). A new game, undo or redo drops the work; a stale
//! answer never reaches the board. The chosen pit and arrow light up briefly before the move is
//! sown.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use bevy::prelude::*;

use crate::ai::{Decision, Thinker};
use crate::game::board::art::{Art, PLAYER_COLOURS};
use crate::game::board::layout::{ARROW, Layout, Side};
use crate::game::play::off_frame::{FRAME_SHARE, Job};
use crate::game::state::Replay;
use crate::game::state::{
    Game, Launch, LoadGame, NewGame, Phase, PlayMove, Prefs, Screen, TimeTravel,
};
use crate::rules::{Move, geometry};

/// A computer move being thought out, for the game of generation `generation`.
#[derive(Component)]
pub struct Thinking {
    job: Job<Decision>,
    generation: u64,
    cancel: Arc<AtomicBool>,
}

/// A lit pit, or the arrow of a side beside it (`pit_mark`, `arrow_mark`): kept in place when
/// the board turns.
#[derive(Component)]
pub struct Mark {
    pub pit: usize,
    pub side: Option<Side>,
}

/// The computer's chosen move, shown for a moment before it is played.
#[derive(Resource, Default)]
pub struct Chosen {
    pub mv: Option<Move>,
    timer: Timer,
}

/// Marks the sprites that show the chosen move.
#[derive(Component)]
struct ChosenMark;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Chosen>().init_resource::<LastThought>();
    app.add_systems(
        Update,
        (
            start_thinking
                .run_if(in_state(Screen::Playing))
                .run_if(|replay: Res<Replay>| replay.0.is_empty()),
            poll_thinking,
            play_chosen,
        )
            .chain()
            .in_set(crate::game::state::GameSet::Think),
    );
    app.add_systems(
        Update,
        follow_the_board
            .run_if(resource_changed::<Layout>)
            .in_set(crate::game::state::GameSet::Show),
    );
    app.add_systems(OnEnter(Screen::Playing), prepare_endgame_table);
    app.add_observer(forget::<NewGame>)
        .add_observer(forget::<LoadGame>)
        .add_observer(forget::<TimeTravel>);
}

/// How the computer's last move was found: nodes, depth, time and where it ran (the page
/// shows it as `data-thought`).
#[derive(Resource, Default)]
pub struct LastThought(pub String);

fn start_thinking(
    mut commands: Commands,
    game: Res<Game>,
    phase: Res<Phase>,
    chosen: Res<Chosen>,
    launch: Res<Launch>,
    thinking: Query<(), With<Thinking>>,
) {
    if *phase != Phase::Waiting || chosen.mv.is_some() || !thinking.is_empty() {
        return;
    }
    let Some(mut level) = game.computer_to_move() else {
        return;
    };
    if let Some(clock) = &game.history.clock {
        let left = clock.remaining(game.history.seat_of(game.pos().to_move()));
        level.time_ms = level
            .time_ms
            .min(thinking_time(left, clock.control().increment_ms()));
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let pos = *game.pos();
    let seed = launch.seed ^ u64::from(pos.ply()).wrapping_mul(0x9E37_79B9) ^ game.generation << 32;
    // Master searches on every core but the one that draws the frames (none on the web).
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if launch.sliced_ai { 1 } else { cores - 1 };
    let thinker = Thinker::new(pos, level, seed, Some(cancel.clone())).threads(threads);
    commands.spawn(Thinking {
        job: Job::start(thinker, launch.sliced_ai),
        generation: game.generation,
        cancel,
    });
}

/// Start loading the endgame table in the background as a game it serves begins, so that it is
/// ready by the ending (Master and the hint use it; nothing waits for it).
fn prepare_endgame_table(game: Res<Game>) {
    let _ = crate::ai::tablebase::for_rules(game.pos().rules());
}

fn poll_thinking(
    mut commands: Commands,
    game: Res<Game>,
    mut chosen: ResMut<Chosen>,
    prefs: Res<Prefs>,
    motion: Res<crate::game::state::Motion>,
    art: Res<Art>,
    layout: Res<Layout>,
    mut tasks: Query<(Entity, &mut Thinking)>,
    mut last: ResMut<LastThought>,
) {
    for (entity, mut thinking) in &mut tasks {
        let Some(decision) = thinking.job.poll(FRAME_SHARE) else {
            continue;
        };
        commands.entity(entity).despawn();
        if thinking.generation != game.generation || !game.pos().is_legal(decision.mv) {
            continue;
        }
        // For the page and its tests: how the computer's last move was found, and where.
        let report = &decision.report;
        last.0 = format!(
            "{} nodes, depth {}, {} ms, {}",
            report.nodes,
            report.depth,
            report.elapsed.as_millis(),
            thinking.job.place()
        );
        chosen.mv = Some(decision.mv);
        let pause = 0.4 * motion.factor(prefs.speed);
        chosen.timer = Timer::new(Duration::from_secs_f32(pause), TimerMode::Once);
        if let Move::Sow { pit, dir } = decision.mv {
            let pit = usize::from(pit);
            let owner = geometry::owner(pit);
            let colour = PLAYER_COLOURS[owner];
            commands.spawn((ChosenMark, pit_mark(&layout, pit, colour)));
            let side = layout.side_for(owner, dir);
            commands.spawn((ChosenMark, arrow_mark(&art, &layout, pit, side, colour)));
        }
    }
}

/// The most the computer thinks about a move with `left_ms` on its clock: a twentieth of it and
/// most of the increment, so that it never runs out (the pause before its move and the time a
/// frame takes come on top), and a few milliseconds at the least.
pub fn thinking_time(left_ms: i64, increment_ms: i64) -> u64 {
    let share = left_ms / 20 + increment_ms * 3 / 4;
    share.min(left_ms / 2).max(5) as u64
}

/// A glow over `pit`, to show a chosen or hinted move.
pub fn pit_mark(layout: &Layout, pit: usize, colour: Color) -> impl Bundle {
    (
        Mark { pit, side: None },
        Sprite::from_color(colour.with_alpha(0.8), layout.pit_size(pit) + 10.0),
        pit_mark_transform(layout, pit),
    )
}

fn pit_mark_transform(layout: &Layout, pit: usize) -> Transform {
    Transform::from_translation(layout.pit_center(pit).extend(0.4))
        .with_rotation(Quat::from_rotation_z(layout.pit_angle(pit)))
}

/// The board turned: every mark goes to its pit's new place.
fn follow_the_board(layout: Res<Layout>, mut marks: Query<(&Mark, &mut Transform)>) {
    for (mark, mut transform) in &mut marks {
        *transform = match mark.side {
            Some(side) => arrow_transform(&layout, mark.pit, side),
            None => pit_mark_transform(&layout, mark.pit),
        };
    }
}

/// Light `mv`'s pit and arrow (a sowing; nothing for a swap) in its owner's colour, shaded by
/// `lighter`, each mark tagged with `tag`: the hint, the review's best move, a puzzle's answer.
pub fn mark_move<T: Bundle + Clone>(
    commands: &mut Commands,
    art: &Art,
    layout: &Layout,
    mv: Move,
    lighter: f32,
    tag: T,
) {
    let Move::Sow { pit, dir } = mv else {
        return;
    };
    let pit = usize::from(pit);
    let owner = geometry::owner(pit);
    let colour = PLAYER_COLOURS[owner].lighter(lighter);
    commands.spawn((tag.clone(), pit_mark(layout, pit, colour)));
    let side = layout.side_for(owner, dir);
    commands.spawn((tag, arrow_mark(art, layout, pit, side, colour)));
}

/// The arrow of a chosen or hinted move.
pub fn arrow_mark(
    art: &Art,
    layout: &Layout,
    pit: usize,
    side: Side,
    colour: Color,
) -> impl Bundle {
    (
        Mark {
            pit,
            side: Some(side),
        },
        Sprite {
            image: art.arrow.clone(),
            color: colour,
            custom_size: Some(Vec2::splat(ARROW)),
            ..default()
        },
        arrow_transform(layout, pit, side),
    )
}

/// An arrow beside `pit`, pointing the way `side` sows.
pub fn arrow_transform(layout: &Layout, pit: usize, side: Side) -> Transform {
    let direction = layout.arrow_direction(geometry::owner(pit), side);
    Transform::from_translation(layout.arrow_position(pit, side).extend(30.0))
        .with_rotation(Quat::from_rotation_z(direction.to_angle()))
}

fn play_chosen(
    mut commands: Commands,
    time: Res<Time>,
    mut chosen: ResMut<Chosen>,
    marks: Query<Entity, With<ChosenMark>>,
) {
    let Some(mv) = chosen.mv else { return };
    chosen.timer.tick(time.delta());
    if chosen.timer.is_finished() {
        chosen.mv = None;
        for e in &marks {
            commands.entity(e).despawn();
        }
        commands.trigger(PlayMove(mv));
    }
}

/// The board changed under the computer: drop its thinking and its chosen move.
fn forget<E: Event>(
    _: On<E>,
    mut commands: Commands,
    mut chosen: ResMut<Chosen>,
    tasks: Query<(Entity, &Thinking)>,
    marks: Query<Entity, With<ChosenMark>>,
) {
    for (entity, thinking) in &tasks {
        thinking.cancel.store(true, Ordering::Relaxed);
        commands.entity(entity).despawn();
    }
    for e in &marks {
        commands.entity(e).despawn();
    }
    chosen.mv = None;
}

#[cfg(test)]
mod tests {
    use super::thinking_time;

    #[test]
    fn the_computer_thinks_less_as_its_clock_runs_down() {
        assert_eq!(thinking_time(300_000, 3_000), 17_250);
        assert_eq!(thinking_time(10_000, 0), 500);
        assert_eq!(
            thinking_time(1_000, 2_000),
            500,
            "never half of what is left"
        );
        assert_eq!(thinking_time(40, 0), 5, "a few milliseconds at the least");
        assert_eq!(thinking_time(0, 0), 5);
    }
}
