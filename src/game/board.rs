//! The wooden board: camera, pits, stores, the count badge on every pit and store, and the
//! highlight of the pits the player may sow from.

use bevy::camera::ScalingMode;
use bevy::prelude::*;

use super::art::{Art, INK, PLAYER_COLOURS, WOOD};
use super::layout::{self, MANDARIN_PIT, PIT, STORE, WORLD};
use super::pebbles::Places;
use super::state::{Game, Phase};
use crate::rules::geometry;

/// The count badge of a pit.
#[derive(Component)]
pub struct PitCount(pub usize);

/// The glow under a pit that the player to move may sow from.
#[derive(Component)]
pub struct Playable(pub usize);

/// The text beside a store: its stones, mandarins and debts.
#[derive(Component)]
pub struct StoreLabel(pub usize);

pub(super) fn plugin(app: &mut App) {
    app.add_systems(Startup, spawn_board);
    // Labels and glows change only when the stones, the game or the phase do.
    let stones_or_game = resource_changed::<Places>.or_eager(resource_changed::<Game>);
    app.add_systems(
        Update,
        (
            (update_counts, update_store_labels).run_if(stones_or_game),
            update_playable.run_if(resource_changed::<Phase>.or_eager(resource_changed::<Game>)),
        )
            .in_set(super::GameSet::Show),
    );
}

fn spawn_board(mut commands: Commands, art: Res<Art>) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: ScalingMode::AutoMin {
                min_width: WORLD.x,
                min_height: WORLD.y,
            },
            ..OrthographicProjection::default_2d()
        }),
    ));
    let board = layout::board_size();
    commands.spawn((
        Sprite {
            image: art.board.clone(),
            color: WOOD,
            custom_size: Some(board),
            ..default()
        },
        Transform::from_xyz(0.0, layout::pit_center(5).y, 0.0),
    ));
    let font = TextFont {
        font: art.bold.clone().into(),
        font_size: FontSize::Px(17.0),
        ..default()
    };
    for index in 0..12 {
        let center = layout::pit_center(index);
        let (image, size) = if geometry::is_mandarin(index) {
            (art.mandarin_pit.clone(), MANDARIN_PIT)
        } else {
            (art.pit.clone(), Vec2::splat(PIT))
        };
        let mut sprite = Sprite {
            image,
            custom_size: Some(size),
            ..default()
        };
        if geometry::is_mandarin(index) && index == 11 {
            sprite.flip_x = true;
        }
        commands.spawn((sprite, Transform::from_translation(center.extend(0.5))));
        if !geometry::is_mandarin(index) {
            let owner = geometry::owner(index);
            commands.spawn((
                Playable(index),
                Sprite::from_color(
                    PLAYER_COLOURS[owner].with_alpha(0.0),
                    Vec2::splat(PIT + 8.0),
                ),
                Transform::from_translation(center.extend(0.3)),
            ));
        }
        // The badge sits at the same corner of every pit: the top right.
        let corner = center + size / 2.0
            - Vec2::new(
                if geometry::is_mandarin(index) {
                    26.0
                } else {
                    16.0
                },
                14.0,
            );
        commands.spawn((
            PitCount(index),
            Text2d::new("0"),
            font.clone(),
            TextColor(INK),
            Transform::from_translation(corner.extend(5.0)),
        ));
    }
    for (player, colour) in PLAYER_COLOURS.iter().enumerate().take(2) {
        let center = layout::store_center(player);
        commands.spawn((
            Sprite::from_color(colour.with_alpha(0.25), STORE),
            Transform::from_translation(center.extend(0.2)),
        ));
        commands.spawn((
            StoreLabel(player),
            Text2d::new(""),
            TextFont {
                font: art.font.clone().into(),
                font_size: FontSize::Px(20.0),
                ..default()
            },
            TextColor(INK),
            Transform::from_translation(
                (center + Vec2::new(STORE.x / 2.0 + 120.0, 0.0)).extend(5.0),
            ),
        ));
    }
}

fn update_counts(
    places: Res<Places>,
    game: Res<Game>,
    mut badges: Query<(&PitCount, &mut Text2d)>,
) {
    for (PitCount(index), mut text) in &mut badges {
        let count = places.stones_in(*index);
        let piece = geometry::is_mandarin(*index)
            && places
                .pieces
                .get(geometry::owner(*index))
                .is_some_and(Option::is_some);
        // A mandarin pit says what its mandarin adds, so that stones and points are both plain.
        let shown = match (*index < game.pos.pits().len(), piece) {
            (false, _) => String::new(),
            (true, true) => format!("10+{count}"),
            (true, false) => count.to_string(),
        };
        if text.0 != shown {
            text.0 = shown;
        }
    }
}

fn update_store_labels(
    places: Res<Places>,
    game: Res<Game>,
    mut labels: Query<(&StoreLabel, &mut Text2d)>,
) {
    for (StoreLabel(player), mut text) in &mut labels {
        let store = game.pos.store(*player);
        let stones = places.stores.get(*player).map_or(0, Vec::len) as i32;
        // A store below zero (the deduct refill) has no stones to show.
        let stones = if store.stones < 0 {
            i32::from(store.stones)
        } else {
            stones
        };
        let mandarins = places.store_pieces.get(*player).map_or(0, Vec::len);
        let mut label = format!("{stones} + {mandarins} × 10");
        let owed: u32 = store.owes.iter().map(|&o| u32::from(o)).sum();
        if owed > 0 {
            label += &format!("  (owes {owed})");
        }
        label += &format!("\n= {} points", game.pos.score(*player));
        if text.0 != label {
            text.0 = label;
        }
    }
}

fn update_playable(game: Res<Game>, phase: Res<Phase>, mut glows: Query<(&Playable, &mut Sprite)>) {
    let show = *phase == Phase::Waiting && game.human_to_move();
    for (Playable(index), mut sprite) in &mut glows {
        let playable = show
            && game.pos.is_legal(crate::rules::Move::Sow {
                pit: *index as u8,
                dir: crate::rules::Direction::Clockwise,
            });
        let alpha = if playable { 0.55 } else { 0.0 };
        if sprite.color.alpha() != alpha {
            sprite.color.set_alpha(alpha);
        }
    }
}
