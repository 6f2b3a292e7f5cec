//! Mouse, drag, touch and keyboard: pick one of your pits, then a side of the screen. Left and
//! right are always the screen's, on both rows. Nothing is taken while a move is shown, the
//! computer is to play, an imported game replays or a panel is open.

use bevy::prelude::*;

use crate::game::board::art::{Art, INK};
use crate::game::board::layout::{ARROW, Layout, Side};
use crate::game::play::ai_turn::arrow_transform;
use crate::game::state::Replay;
use crate::game::state::{
    FocusOnControl, Game, Overlay, PendingSow, Phase, PlayMove, Prefs, Screen, Skip,
};
use crate::rules::{Direction, Move};

/// The pit picked by the player, waiting for a direction.
#[derive(Resource, Default, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selection(pub Option<usize>);

/// A press on a playable pit that may become a drag.
#[derive(Resource, Default)]
struct Drag(Option<(usize, Vec2)>);

/// One of the two arrows beside the selected pit.
#[derive(Component)]
pub struct Arrow(pub Side);

/// How far a drag must go, in world units, to sow.
const DRAG_THRESHOLD: f32 = 40.0;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Selection>()
        .init_resource::<Drag>()
        .init_resource::<PendingSow>()
        .init_resource::<FocusOnControl>();
    app.add_systems(Startup, spawn_arrows);
    app.add_systems(
        Update,
        (pointer, keyboard)
            .run_if(
                in_state(Screen::Playing)
                    .or_eager(in_state(Screen::Puzzles))
                    .and_eager(in_state(Overlay::None)),
            )
            .run_if(|replay: Res<Replay>| replay.0.is_empty())
            .in_set(crate::game::state::GameSet::Input),
    );
    app.add_systems(
        Update,
        (clear_when_not_waiting, place_arrows)
            .chain()
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// The pits the player to move may sow from, left to right on screen (bottom to top on the
/// upright board).
pub fn playable_pits(game: &Game, layout: &Layout) -> Vec<usize> {
    if !game.human_to_move() {
        return Vec::new();
    }
    let mut pits: Vec<usize> = game
        .pos()
        .legal_moves()
        .iter()
        .filter_map(|m| match *m {
            Move::Sow {
                pit,
                dir: Direction::Clockwise,
            } => Some(usize::from(pit)),
            _ => None,
        })
        .collect();
    let along = |pit: usize| layout.pit_center(pit).dot(layout.screen_axis());
    pits.sort_by(|&a, &b| along(a).total_cmp(&along(b)));
    pits
}

/// Sow `mv` now, or, with "confirm each move" on, hold it until the player confirms.
pub fn sow(commands: &mut Commands, prefs: &Prefs, pending: &mut PendingSow, mv: Move) {
    if prefs.confirm_sow {
        pending.0 = Some(mv);
    } else {
        pending.0 = None;
        commands.trigger(PlayMove(mv));
    }
}

/// The move for sowing the selected `pit` toward `side` of the screen.
pub fn move_toward(layout: &Layout, pit: usize, side: Side) -> Move {
    let owner = crate::rules::geometry::owner(pit);
    Move::Sow {
        pit: pit as u8,
        dir: layout.direction_for(owner, side),
    }
}

fn spawn_arrows(mut commands: Commands, art: Res<Art>) {
    for side in [Side::Left, Side::Right] {
        commands.spawn((
            Arrow(side),
            Sprite {
                image: art.arrow.clone(),
                color: INK,
                custom_size: Some(Vec2::splat(ARROW)),
                ..default()
            },
            Transform::from_xyz(0.0, 0.0, 30.0),
            Visibility::Hidden,
        ));
    }
}

fn pointer(
    mut commands: Commands,
    mouse: Res<ButtonInput<MouseButton>>,
    touches: Res<Touches>,
    windows: Query<&Window>,
    cameras: Query<(&Camera, &GlobalTransform)>,
    game: Res<Game>,
    phase: Res<Phase>,
    layout: Res<Layout>,
    prefs: Res<Prefs>,
    mut pending: ResMut<PendingSow>,
    mut selection: ResMut<Selection>,
    mut drag: ResMut<Drag>,
) {
    let (Ok(window), Ok((camera, camera_transform))) = (windows.single(), cameras.single()) else {
        return;
    };
    let to_world = |p: Vec2| camera.viewport_to_world_2d(camera_transform, p).ok();
    let cursor = window.cursor_position().and_then(to_world);
    let tap = touches
        .iter_just_pressed()
        .next()
        .and_then(|t| to_world(t.position()));
    let pressed = if mouse.just_pressed(MouseButton::Left) {
        cursor
    } else {
        tap
    };
    if *phase != Phase::Waiting || !game.human_to_move() {
        drag.0 = None;
        return;
    }
    if let Some(point) = pressed {
        if let Some(pit) = selection.0 {
            for side in [Side::Left, Side::Right] {
                if layout.arrow_hit(pit, side, point) {
                    sow(
                        &mut commands,
                        &prefs,
                        &mut pending,
                        move_toward(&layout, pit, side),
                    );
                    selection.0 = None;
                    return;
                }
            }
        }
        let hit = layout
            .pit_at(point)
            .filter(|pit| playable_pits(&game, &layout).contains(pit));
        selection.0 = hit;
        drag.0 = hit.map(|pit| (pit, point));
    }
    if let (Some((pit, start)), Some(now)) =
        (drag.0, cursor.filter(|_| mouse.pressed(MouseButton::Left)))
    {
        let along = (now - start).dot(layout.screen_axis());
        if along.abs() > DRAG_THRESHOLD {
            let side = if along < 0.0 { Side::Left } else { Side::Right };
            sow(
                &mut commands,
                &prefs,
                &mut pending,
                move_toward(&layout, pit, side),
            );
            selection.0 = None;
            drag.0 = None;
        }
    }
    if mouse.just_released(MouseButton::Left) {
        drag.0 = None;
    }
}

fn keyboard(
    mut commands: Commands,
    keys: Res<ButtonInput<KeyCode>>,
    game: Res<Game>,
    phase: Res<Phase>,
    layout: Res<Layout>,
    prefs: Res<Prefs>,
    on_control: Res<FocusOnControl>,
    mut pending: ResMut<PendingSow>,
    mut selection: ResMut<Selection>,
) {
    // Space presses a button in focus instead (the focus module does).
    if keys.just_pressed(KeyCode::KeyS) || keys.just_pressed(KeyCode::Space) && !on_control.0 {
        commands.trigger(Skip);
    }
    // Up and down pick pits too, for the upright board.
    let (back, on) = (
        [KeyCode::ArrowLeft, KeyCode::ArrowDown],
        [KeyCode::ArrowRight, KeyCode::ArrowUp],
    );
    let choosing = [back, on, [KeyCode::KeyZ, KeyCode::KeyX]].concat();
    if !keys.any_just_pressed(choosing) || *phase != Phase::Waiting || !game.human_to_move() {
        return;
    }
    let pits = playable_pits(&game, &layout);
    let here = selection
        .0
        .and_then(|pit| pits.iter().position(|&p| p == pit));
    if keys.any_just_pressed(on) && !pits.is_empty() {
        selection.0 = Some(pits[here.map_or(0, |i| (i + 1).min(pits.len() - 1))]);
    }
    if keys.any_just_pressed(back) && !pits.is_empty() {
        selection.0 = Some(pits[here.map_or(pits.len() - 1, |i| i.saturating_sub(1))]);
    }
    for (key, side) in [(KeyCode::KeyZ, Side::Left), (KeyCode::KeyX, Side::Right)] {
        if keys.just_pressed(key)
            && let Some(pit) = selection.0
        {
            sow(
                &mut commands,
                &prefs,
                &mut pending,
                move_toward(&layout, pit, side),
            );
            selection.0 = None;
        }
    }
}

fn clear_when_not_waiting(
    phase: Res<Phase>,
    game: Res<Game>,
    mut selection: ResMut<Selection>,
    mut pending: ResMut<PendingSow>,
) {
    let waiting = *phase == Phase::Waiting && game.human_to_move();
    if selection.0.is_some() && !waiting {
        selection.0 = None;
    }
    // A move held for confirmation is dropped with its position (a new game, an undo).
    if let Some(mv) = pending.0
        && (!waiting || !game.pos().is_legal(mv))
    {
        pending.0 = None;
    }
}

fn place_arrows(
    selection: Res<Selection>,
    layout: Res<Layout>,
    mut arrows: Query<(&Arrow, &mut Transform, &mut Visibility)>,
) {
    for (Arrow(side), mut transform, mut visibility) in &mut arrows {
        match selection.0 {
            Some(pit) => {
                *transform = arrow_transform(&layout, pit, *side);
                *visibility = Visibility::Visible;
            }
            None => *visibility = Visibility::Hidden,
        }
    }
}
