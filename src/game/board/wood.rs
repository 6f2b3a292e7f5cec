//! The wooden board: camera, pits, stores, the count badge on every pit and store, and the
//! highlight of the pits the player may sow from.

use bevy::camera::ScalingMode;
use bevy::prelude::*;

use crate::game::board::art::{Art, INK, PLAYER_COLOURS, WOOD};
use crate::game::board::layout::Layout;
use crate::game::board::pebbles::Places;
use crate::game::board::safe_area::SafeArea;
use crate::game::board::text;
use crate::game::state::{Game, PanelRoom, Phase, Prefs};
use crate::rules::geometry;
use crate::session::ScoreView;

/// The count badge of a pit.
#[derive(Component)]
pub struct PitCount(pub usize);

/// The glow under a pit that the player to move may sow from.
#[derive(Component)]
pub struct Playable(pub usize);

/// The text beside a store: its stones, mandarins and debts.
#[derive(Component)]
pub struct StoreLabel(pub usize);

/// Everything drawn for the board (not the camera): redrawn when the board changes shape.
#[derive(Component)]
struct BoardPart;

pub(in crate::game) fn plugin(app: &mut App) {
    app.init_resource::<Layout>();
    app.add_systems(Startup, spawn_camera);
    app.add_systems(
        Update,
        (follow_window_shape, fit_camera)
            .chain()
            .in_set(crate::game::state::GameSet::Input),
    );
    // Labels and glows change only when the stones, the game, the settings or the phase do.
    let stones_or_game = resource_changed::<Places>
        .or_eager(resource_changed::<Game>)
        .or_eager(resource_changed::<Prefs>)
        .or_eager(resource_changed::<Layout>);
    app.add_systems(
        Update,
        (
            draw_board.run_if(resource_changed::<Layout>),
            (update_counts, update_store_labels).run_if(stones_or_game),
            update_playable.run_if(
                resource_changed::<Phase>
                    .or_eager(resource_changed::<Game>)
                    .or_eager(resource_changed::<Layout>),
            ),
        )
            .chain()
            .in_set(crate::game::state::GameSet::Show),
    );
}

fn spawn_camera(mut commands: Commands, layout: Res<Layout>) {
    commands.spawn((
        Camera2d,
        Projection::Orthographic(OrthographicProjection {
            scaling_mode: scaling(&layout),
            ..OrthographicProjection::default_2d()
        }),
    ));
}

/// The camera shows the layout's whole world, as large as the window allows.
fn scaling(layout: &Layout) -> ScalingMode {
    let world = layout.world();
    ScalingMode::AutoMin {
        min_width: world.x,
        min_height: world.y,
    }
}

/// A window taller than wide stands the 2-player board upright (a phone held upright, a
/// browser window made narrow); the board turns back when the window does. What counts is the
/// part of the window clear of the notch and system bars.
fn follow_window_shape(windows: Query<&Window>, safe: Res<SafeArea>, mut layout: ResMut<Layout>) {
    let Ok(window) = windows.single() else {
        return;
    };
    let size = safe.inner_size(window.size());
    let tall = size.y > size.x;
    layout.set_if_neq(layout.for_window(tall));
}

/// The camera shows the layout's world and, under it, the room a screen's panel asks for. The
/// room in world units is the least that covers the panel's pixels whichever side of the
/// window limits the scale (`room · scale ≥ px`, with `scale = min(w / W, h / (H + room))`).
fn fit_camera(
    layout: Res<Layout>,
    windows: Query<Ref<Window>>,
    safe: Res<SafeArea>,
    mut room: ResMut<PanelRoom>,
    mut projections: Query<&mut Projection, With<Camera2d>>,
) {
    // Nothing that decides the fit changed: the camera stands as it is.
    let resized = windows.iter().any(|w| w.is_changed());
    if !(resized || layout.is_changed() || room.is_changed() || safe.is_changed()) {
        return;
    }
    let world = layout.world();
    let below = match windows.single() {
        Ok(window) if room.px > 0.0 => {
            let size = safe.inner_size(window.size());
            let by_width = room.px * world.x / size.x.max(1.0);
            let by_height = room.px * world.y / (size.y - room.px).max(1.0);
            by_width.max(by_height)
        }
        _ => 0.0,
    };
    if room.world != below {
        room.world = below;
    }
    let (width, height) = (world.x, world.y + below);
    // The world at the top, the room at the bottom.
    let origin = Vec2::new(0.5, (world.y / 2.0 + below) / height);
    for mut projection in &mut projections {
        let Projection::Orthographic(ortho) = projection.as_ref() else {
            continue;
        };
        let fits = matches!(ortho.scaling_mode,
            ScalingMode::AutoMin { min_width, min_height } if min_width == width && min_height == height);
        if fits && ortho.viewport_origin == origin {
            continue;
        }
        if let Projection::Orthographic(ortho) = projection.as_mut() {
            ortho.scaling_mode = ScalingMode::AutoMin {
                min_width: width,
                min_height: height,
            };
            ortho.viewport_origin = origin;
        }
    }
}

fn draw_board(
    mut commands: Commands,
    art: Res<Art>,
    layout: Res<Layout>,
    parts: Query<Entity, With<BoardPart>>,
) {
    for part in &parts {
        commands.entity(part).despawn();
    }
    let (board, centre) = layout.board_rect();
    let wood = if layout.round_mandarin_pits() {
        art.triangle_board.clone()
    } else {
        art.board.clone()
    };
    let turn = Quat::from_rotation_z(layout.board_angle());
    commands.spawn((
        BoardPart,
        Sprite {
            image: wood,
            color: WOOD,
            custom_size: Some(board),
            ..default()
        },
        Transform::from_translation(centre.extend(0.0)).with_rotation(turn),
    ));
    let font = TextFont {
        font: art.bold.clone().into(),
        font_size: FontSize::Px(17.0 * layout.text_scale()),
        ..default()
    };
    for index in 0..layout.ring() {
        let center = layout.pit_center(index);
        let size = layout.pit_size(index);
        let mandarin = geometry::is_mandarin(index);
        let image = match (mandarin, layout.round_mandarin_pits()) {
            (true, true) => art.round_pit.clone(),
            (true, false) => art.mandarin_pit.clone(),
            (false, _) => art.pit.clone(),
        };
        let sprite = Sprite {
            image,
            custom_size: Some(size),
            // The left half-moon faces the other way.
            flip_x: layout.mirrored_pit(index),
            ..default()
        };
        let rotation = Quat::from_rotation_z(layout.pit_angle(index));
        commands.spawn((
            BoardPart,
            sprite,
            Transform::from_translation(center.extend(0.5)).with_rotation(rotation),
        ));
        if !mandarin {
            let owner = geometry::owner(index);
            commands.spawn((
                BoardPart,
                Playable(index),
                Sprite::from_color(PLAYER_COLOURS[owner].with_alpha(0.0), size + 8.0),
                Transform::from_translation(center.extend(0.3)).with_rotation(rotation),
            ));
        }
        commands.spawn((
            BoardPart,
            PitCount(index),
            Text2d::new("0"),
            font.clone(),
            TextColor(INK),
            Transform::from_translation(layout.badge_position(index).extend(5.0)),
        ));
    }
    let store = layout.store_size();
    for (player, colour) in PLAYER_COLOURS.iter().enumerate().take(layout.players()) {
        commands.spawn((
            BoardPart,
            Sprite::from_color(colour.with_alpha(0.25), store),
            Transform::from_translation(layout.store_center(player).extend(0.2))
                .with_rotation(turn),
        ));
        commands.spawn((
            BoardPart,
            StoreLabel(player),
            Text2d::new(""),
            TextFont {
                font: art.font.clone().into(),
                font_size: FontSize::Px(20.0 * layout.text_scale()),
                ..default()
            },
            TextColor(INK),
            Transform::from_translation(layout.store_label_position(player).extend(5.0)),
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
        let shown = match (*index < game.pos().pits().len(), piece) {
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
    prefs: Res<Prefs>,
    mut labels: Query<(&StoreLabel, &mut Text2d)>,
) {
    let lang = prefs.lang();
    let pos = game.pos();
    for (StoreLabel(player), mut text) in &mut labels {
        let store = pos.store(*player);
        let stones = places.stores.get(*player).map_or(0, Vec::len) as i32;
        // A store below zero (the deduct refill) has no stones to show.
        let stones = if store.stones < 0 {
            i32::from(store.stones)
        } else {
            stones
        };
        let mandarins = places.store_pieces.get(*player).map_or(0, Vec::len);
        let mut label = format!("{}\n", text::who(&game, *player, lang));
        label += &text::store_contents(stones, mandarins, lang);
        let owed: u32 = store.owes.iter().map(|&o| u32::from(o)).sum();
        if owed > 0 {
            label += &format!("  ({})", lang.trf("store.owes", &[("n", &owed)]));
        }
        label += "\n";
        // While a move is shown, the points follow the stones that have landed in the store.
        let in_flight = (i32::from(store.stones) - stones)
            + 10 * (i32::from(store.mandarins) - mandarins as i32);
        let score = pos.score(*player) - in_flight;
        label += &match prefs.score_view {
            ScoreView::Points => lang.trf("store.points", &[("n", &score)]),
            ScoreView::Difference => {
                // Against the best of the others.
                let best_other = (0..pos.players())
                    .filter(|p| p != player)
                    .map(|p| pos.score(p))
                    .max()
                    .unwrap_or(0);
                match score - best_other {
                    d if d >= 0 => lang.trf("store.ahead", &[("n", &d)]),
                    d => lang.trf("store.behind", &[("n", &-d)]),
                }
            }
        };
        if text.0 != label {
            text.0 = label;
        }
    }
}

fn update_playable(game: Res<Game>, phase: Res<Phase>, mut glows: Query<(&Playable, &mut Sprite)>) {
    let show = *phase == Phase::Waiting && game.human_to_move();
    for (Playable(index), mut sprite) in &mut glows {
        let playable = show
            && game.pos().is_legal(crate::rules::Move::Sow {
                pit: *index as u8,
                dir: crate::rules::Direction::Clockwise,
            });
        let alpha = if playable { 0.55 } else { 0.0 };
        if sprite.color.alpha() != alpha {
            sprite.color.set_alpha(alpha);
        }
    }
}
