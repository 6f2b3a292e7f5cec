//! Moving through the game under review: a step, a jump, Play at a speed, the keys, scrubbing
//! along the graph, and the best move lit or played out as a variation.

use bevy::prelude::*;
use bevy::ui::RelativeCursorPosition;

use super::{Graph, Review, ReviewAction, SPEEDS};
use crate::game::play::animation::Pace;
use crate::game::screens::puzzles::Practise;
use crate::game::state::{Game, Phase, PlayMove, Screen, Settled, Wake};
use crate::rules::Move;

/// Put the board at `at` moves into the game, at once.
pub(super) fn jump(commands: &mut Commands, review: &mut Review, game: &mut Game, at: usize) {
    let Some(full) = &review.game else { return };
    let at = at.min(full.entries().len());
    game.history = full.truncated(at);
    game.generation += 1;
    review.at = at;
    review.variation.clear();
    commands.trigger(Settled);
}

/// Show `mv` from the position on the board as in play. A move still being shown is put on
/// the board at once first (a snap, whose `Settled` runs before the move), so that the move is
/// always played on the position it belongs to.
pub(super) fn show_move(
    commands: &mut Commands,
    review: &mut Review,
    game: &mut Game,
    phase: Phase,
    mv: Move,
) {
    if phase == Phase::Animating {
        let at = review.at;
        jump(commands, review, game, at);
    }
    commands.trigger(PlayMove(mv));
}

/// One move forward, shown as in play.
pub(super) fn forward(commands: &mut Commands, review: &mut Review, game: &mut Game, phase: Phase) {
    if !review.variation.is_empty() {
        return;
    }
    let Some(mv) = review
        .game
        .as_ref()
        .and_then(|g| g.entries().get(review.at))
        .map(|e| e.mv)
    else {
        review.playing = false;
        return;
    };
    show_move(commands, review, game, phase, mv);
    review.at += 1;
}

pub(super) fn act(
    commands: &mut Commands,
    action: ReviewAction,
    review: &mut Review,
    game: &mut Game,
    phase: Phase,
    pace: &mut Pace,
    next_screen: &mut NextState<Screen>,
) {
    match action {
        ReviewAction::Back => next_screen.set(Screen::Playing),
        ReviewAction::Step(1) => {
            review.playing = false;
            forward(commands, review, game, phase);
        }
        ReviewAction::Step(_) => {
            review.playing = false;
            let back = if review.variation.is_empty() {
                review.at.saturating_sub(1)
            } else {
                review.at
            };
            jump(commands, review, game, back);
        }
        ReviewAction::Play => {
            review.playing = !review.playing;
            if review.playing && review.at >= review.len() {
                jump(commands, review, game, 0);
            }
        }
        ReviewAction::Speed(step) => {
            let n = SPEEDS.len() as isize;
            review.speed = (review.speed as isize + isize::from(step)).clamp(0, n - 1) as usize;
            pace.0 = SPEEDS[review.speed];
        }
        ReviewAction::Best => review.show_best = !review.show_best,
        ReviewAction::PlayBest => {
            let best = review.judged.get(review.at).map(|m| m.best);
            if let Some(best) = best.filter(|_| review.variation.is_empty()) {
                review.playing = false;
                show_move(commands, review, game, phase, best);
                review.variation.push(best);
            }
        }
        ReviewAction::Jump(at) => {
            review.playing = false;
            jump(commands, review, game, at);
        }
        ReviewAction::List => review.list_shown = !review.list_shown,
        ReviewAction::Retry => commands.trigger(Practise(review.retries.clone())),
    }
}

/// A button of the review pressed: its action carried out.
pub(super) fn press(
    activate: On<crate::game::theme::press::Activate>,
    actions: Query<&ReviewAction>,
    mut commands: Commands,
    mut review: ResMut<Review>,
    mut game: ResMut<Game>,
    phase: Res<Phase>,
    mut pace: ResMut<Pace>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    if let Ok(action) = actions.get(activate.entity) {
        act(
            &mut commands,
            *action,
            &mut review,
            &mut game,
            *phase,
            &mut pace,
            &mut next_screen,
        );
    }
}

/// ← and → step, space plays or pauses, B lights the best move, Esc goes back to the game.
pub(super) fn keys(
    mut commands: Commands,
    input: Res<ButtonInput<KeyCode>>,
    mut review: ResMut<Review>,
    mut game: ResMut<Game>,
    phase: Res<Phase>,
    mut pace: ResMut<Pace>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    for (key, action) in [
        (KeyCode::ArrowRight, ReviewAction::Step(1)),
        (KeyCode::ArrowLeft, ReviewAction::Step(-1)),
        (KeyCode::Space, ReviewAction::Play),
        (KeyCode::KeyB, ReviewAction::Best),
        (KeyCode::Escape, ReviewAction::Back),
        (KeyCode::Home, ReviewAction::Jump(0)),
        (KeyCode::End, ReviewAction::Jump(usize::MAX)),
    ] {
        if input.just_pressed(key) {
            act(
                &mut commands,
                action,
                &mut review,
                &mut game,
                *phase,
                &mut pace,
                &mut next_screen,
            );
        }
    }
}

/// Pressing or dragging along the graph puts the board at the move under the pointer.
pub(super) fn scrub(
    mut commands: Commands,
    graph: Query<(&Interaction, &RelativeCursorPosition), With<Graph>>,
    mut review: ResMut<Review>,
    mut game: ResMut<Game>,
) {
    let Ok((interaction, cursor)) = graph.single() else {
        return;
    };
    if *interaction != Interaction::Pressed {
        return;
    }
    let Some(at) = cursor.normalized else { return };
    let len = review.len();
    // Column k (from 0) stands for the position after k + 1 moves; left of the first, the start.
    let x = (at.x + 0.5).clamp(0.0, 1.0);
    let target = ((x * len as f32).floor() as usize + 1).min(len);
    let target = if x < 0.5 / len.max(1) as f32 {
        0
    } else {
        target
    };
    if target != review.at || !review.variation.is_empty() {
        review.playing = false;
        jump(&mut commands, &mut review, &mut game, target);
    }
}

/// Play on through the game while Play is on: the next move once the last has been shown.
pub(super) fn autoplay(
    mut commands: Commands,
    mut review: ResMut<Review>,
    mut game: ResMut<Game>,
    phase: Res<Phase>,
    mut wake: ResMut<Wake>,
) {
    if !review.playing {
        return;
    }
    wake.busy();
    if *phase == Phase::Animating {
        return;
    }
    if review.at >= review.len() {
        review.playing = false;
        return;
    }
    forward(&mut commands, &mut review, &mut game, *phase);
}
