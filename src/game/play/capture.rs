//! For checks and measurements: after a number of moves, save a screenshot from inside the game
//! and quit, and report frame times (while a move animates, while the computer thinks), the
//! time to the first frame, and the game on the board.

use std::path::PathBuf;
use std::time::Duration;

use bevy::prelude::*;
use bevy::render::view::screenshot::{Screenshot, save_to_disk};
use web_time::Instant;

use crate::game::play::ai_turn::Thinking;
use crate::game::state::{Game, MoveShown, OpenReview, Overlay, Phase, Screen, Working};

/// What to capture, from the command line.
#[derive(Resource, Clone, Debug)]
pub struct CapturePlan {
    /// Where to save the screenshot.
    pub path: PathBuf,
    /// Moves to play before the screenshot.
    pub after_moves: u32,
    /// A panel to open just before the screenshot.
    pub panel: Option<Overlay>,
    /// A screen to go to just before the screenshot: the game's review, or the puzzles.
    pub screen: Option<Screen>,
    /// Shoot this long after the start instead, however many moves were shown (online, where
    /// the moves are not ours to count).
    pub after_secs: Option<f32>,
    /// Shoot in the middle of a move rather than at rest.
    pub moment: Option<Moment>,
    /// When the program started, for the time to the first frame.
    pub started: Instant,
}

/// A moment inside a move, for a screenshot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Moment {
    /// Stones in the hand, on their way.
    MidMove,
    /// A captured pit glowing, its stones about to fly.
    Capture,
    /// The computer thinking (a few frames into it).
    Thinking,
}

#[derive(Resource, Default)]
struct Progress {
    moves: u32,
    first_frame: Option<Duration>,
    animating: Vec<f32>,
    thinking: Vec<f32>,
    shot_at_frame: Option<u32>,
    panel_opened_at: Option<u32>,
    frame: u32,
    /// Frames in a row a move has been animating.
    animating_for: u32,
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Progress>();
    app.add_observer(|_: On<MoveShown>, mut progress: ResMut<Progress>| progress.moves += 1);
    app.add_systems(
        Last,
        (measure, shoot_and_quit)
            .chain()
            .run_if(resource_exists::<CapturePlan>),
    );
}

fn measure(
    time: Res<Time>,
    plan: Res<CapturePlan>,
    phase: Res<Phase>,
    thinking: Query<(), With<Thinking>>,
    mut progress: ResMut<Progress>,
) {
    progress.frame += 1;
    if progress.frame == 2 && progress.first_frame.is_none() {
        progress.first_frame = Some(plan.started.elapsed());
    }
    // The first frames load and compile; they say nothing about steady play.
    if progress.frame < 30 {
        return;
    }
    let ms = time.delta_secs() * 1000.0;
    if *phase == Phase::Animating {
        progress.animating.push(ms);
    } else if !thinking.is_empty() {
        progress.thinking.push(ms);
    }
}

fn shoot_and_quit(
    mut commands: Commands,
    plan: Res<CapturePlan>,
    phase: Res<Phase>,
    game: Res<Game>,
    overlay: Res<State<Overlay>>,
    mut next_overlay: ResMut<NextState<Overlay>>,
    screen: Res<State<Screen>>,
    mut next_screen: ResMut<NextState<Screen>>,
    working: Res<Working>,
    places: Res<crate::game::board::pebbles::Places>,
    flashes: Res<crate::game::play::lights::Flashes>,
    thinking: Query<(), With<Thinking>>,
    mut progress: ResMut<Progress>,
    mut exit: MessageWriter<AppExit>,
) {
    progress.animating_for = if *phase == Phase::Animating {
        progress.animating_for + 1
    } else {
        0
    };
    // The lesson is shot in the middle of its move; everything else at rest.
    let at_the_moment = match plan.moment {
        Some(Moment::MidMove) => progress.animating_for >= 12 && places.hand.len() >= 2,
        Some(Moment::Capture) => flashes.glowing_for(std::time::Duration::from_millis(120)),
        Some(Moment::Thinking) => !thinking.is_empty(),
        None if plan.screen == Some(Screen::Lesson) => progress.animating_for >= 12,
        None => *phase != Phase::Animating,
    };
    let ready = ready(&plan, &progress, *phase);
    // Go to the screen asked for first (once), and let it finish its work.
    if let Some(wanted) = plan.screen
        && ready
        && *phase != Phase::Animating
        && progress.panel_opened_at.is_none()
    {
        if wanted == Screen::Review {
            commands.trigger(OpenReview);
        } else {
            next_screen.set(wanted);
        }
        progress.panel_opened_at = Some(progress.frame);
        return;
    }
    if plan.screen.is_some_and(|s| *screen.get() != s) || working.0 {
        return;
    }
    // Open the panel asked for first, and give it a few frames to lay out.
    if let Some(panel) = plan.panel
        && ready
        && *phase != Phase::Animating
        && *overlay.get() != panel
    {
        next_overlay.set(panel);
        progress.panel_opened_at = Some(progress.frame);
        return;
    }
    let settled = progress
        .panel_opened_at
        .is_none_or(|frame| progress.frame > frame + 5);
    match progress.shot_at_frame {
        None if ready && settled && at_the_moment => {
            commands
                .spawn(Screenshot::primary_window())
                .observe(save_to_disk(plan.path.clone()));
            progress.shot_at_frame = Some(progress.frame);
        }
        // Give the screenshot a few frames to reach the disk.
        Some(frame) if progress.frame > frame + 10 && plan.path.exists() => {
            report(&progress);
            print_game(&game);
            exit.write(AppExit::Success);
        }
        _ => {}
    }
}

/// Whether the plan's moment may have come: after its seconds or its moves (or the game's
/// end), and never in the first frames, which are black while the renderer starts.
fn ready(plan: &CapturePlan, progress: &Progress, phase: Phase) -> bool {
    let warmed_up = progress.frame >= 30;
    warmed_up
        && match plan.after_secs {
            Some(secs) => plan.started.elapsed().as_secs_f32() >= secs,
            None if plan.moment.is_some() => progress.moves >= plan.after_moves,
            None => progress.moves >= plan.after_moves || phase == Phase::Over,
        }
}

/// The game on the board, for checks from outside: its moves and its state.
fn print_game(game: &Game) {
    let moves: Vec<String> = game.history.moves().map(|m| m.to_string()).collect();
    println!("moves: {}", moves.join(" "));
    println!("state: {}", crate::state_json::to_line(game.pos()));
}

fn report(progress: &Progress) {
    let summary = |name: &str, frames: &[f32]| {
        if frames.is_empty() {
            return format!("{name}: no frames");
        }
        let mean = frames.iter().sum::<f32>() / frames.len() as f32;
        let worst = frames.iter().copied().fold(0.0, f32::max);
        format!(
            "{name}: {} frames, {:.1} fps on average, worst frame {worst:.1} ms",
            frames.len(),
            1000.0 / mean
        )
    };
    println!("moves shown: {}", progress.moves);
    if let Some(first) = progress.first_frame {
        println!("first frame after {:.2} s", first.as_secs_f32());
    }
    println!("{}", summary("while a move animates", &progress.animating));
    println!(
        "{}",
        summary("while the computer thinks", &progress.thinking)
    );
}
