//! The wooden board on its mat: pits, stores, and the count on every pit and store
//! (the lights of the turn are `lights`).

use bevy::prelude::*;

use crate::art::Light;
use crate::art::glyphs::Glyph;
use crate::game::board::art::{self, Art, GLOW_SPREAD, INK, PLAYER_COLOURS, WOOD};
use crate::game::board::layout::Layout;
use crate::game::board::pebbles::Places;
use crate::game::board::text;
use crate::game::state::{Game, Phase, Prefs};
use crate::rules::geometry;
use crate::session::ScoreView;
use bevy_tweening::TweenAnim;

/// A side's shape (a disc, a triangle, a diamond): in its store always, and beyond its row
/// while the row is lit.
#[derive(Component)]
pub struct SideMark {
    pub player: usize,
    pub on_row: bool,
}

/// The count badge of a pit.
#[derive(Component)]
pub struct PitCount(pub usize);

/// The text beside a store: its stones, mandarins and debts.
#[derive(Component)]
pub struct StoreLabel(pub usize);

/// The points in a store, on its corner.
#[derive(Component)]
pub struct StoreCount(pub usize);

/// The glow round a pit: lit when it can be played, or when it is captured.
#[derive(Component)]
pub struct PitGlow(pub usize);

/// The glow round the row of a player, lit on their turn.
#[derive(Component)]
pub struct RowGlow(pub usize);

/// The glow round a player's store, lit on their turn.
#[derive(Component)]
pub struct StoreGlow(pub usize);

/// Everything drawn for the board (not the camera): redrawn when the board changes shape.
#[derive(Component)]
struct BoardPart;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Layout>();
    // Labels and glows change only when the stones, the game, the settings or the phase do.
    let stones_or_game = resource_changed::<Places>
        .or_eager(resource_changed::<Game>)
        .or_eager(resource_changed::<Prefs>)
        .or_eager(resource_changed::<Layout>);
    app.add_systems(
        Update,
        (
            draw_board.run_if(resource_changed::<Layout>),
            // While a move is shown the stores count the stones as they land.
            (update_counts, update_store_labels)
                .run_if(stones_or_game.or_eager(resource_equals(Phase::Animating))),
        )
            .chain()
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// The woven mat under everything, in pieces round the part the board covers whole: with the
/// software renderer every pixel drawn twice counts, and the mat covers the window. The tile
/// repeats (its sampler says so), lined up across the pieces.
fn spawn_mat(commands: &mut Commands, art: &Art, hole: Option<Rect>) {
    const FAR: f32 = 3000.0;
    let mat = Rect::new(-FAR, -FAR, FAR, FAR);
    let pieces = match hole {
        None => vec![mat],
        Some(h) => vec![
            Rect::new(mat.min.x, h.max.y, mat.max.x, mat.max.y),
            Rect::new(mat.min.x, mat.min.y, mat.max.x, h.min.y),
            Rect::new(mat.min.x, h.min.y, h.min.x, h.max.y),
            Rect::new(h.max.x, h.min.y, mat.max.x, h.max.y),
        ],
    };
    for piece in pieces {
        // The tile's pixels are the world's units (kept positive); the picture's y runs down.
        let tile = Rect::new(
            piece.min.x + 2.0 * FAR,
            2.0 * FAR - piece.max.y,
            piece.max.x + 2.0 * FAR,
            2.0 * FAR - piece.min.y,
        );
        commands.spawn((
            BoardPart,
            Sprite {
                image: art.mat.clone(),
                custom_size: Some(piece.size()),
                rect: Some(tile),
                ..default()
            },
            Transform::from_translation(piece.center().extend(-20.0)),
        ));
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
    let turn = Quat::from_rotation_z(layout.board_angle());
    spawn_wood(&mut commands, &art, &layout);
    let font = TextFont {
        font: art.display.clone().into(),
        font_size: FontSize::Px(17.0 * layout.count_scale()),
        ..default()
    };
    for index in 0..layout.ring() {
        spawn_pit(&mut commands, &art, &layout, index, &font);
    }
    for (player, &colour) in PLAYER_COLOURS.iter().enumerate().take(layout.players()) {
        spawn_row_marks(&mut commands, &art, &layout, player, colour);
    }
    for (player, &colour) in PLAYER_COLOURS.iter().enumerate().take(layout.players()) {
        spawn_store(&mut commands, &art, &layout, player, colour, turn);
    }
}

/// The mat and the board's wood.
fn spawn_wood(commands: &mut Commands, art: &Art, layout: &Layout) {
    let (board, centre) = layout.board_rect();
    let turn = Quat::from_rotation_z(layout.board_angle());
    // The 2-player board's picture carries its shadow round it.
    let (wood, tint, size) = if layout.round_mandarin_pits() {
        spawn_mat(commands, art, None);
        (art.triangle_board.clone(), WOOD, board)
    } else {
        // The mat need not be drawn where the board is opaque: inside its rounded corners.
        let whole = if layout.upright() {
            Vec2::new(board.y, board.x)
        } else {
            board
        } - Vec2::splat(2.0 * art::BOARD_RADIUS);
        spawn_mat(commands, art, Some(Rect::from_center_size(centre, whole)));
        let wood = if layout.upright() {
            &art.board_right
        } else {
            &art.board
        };
        (wood.clone(), Color::WHITE, board + 2.0 * art::SHADOW_BLUR)
    };
    commands.spawn((
        BoardPart,
        Sprite {
            image: wood,
            color: tint,
            custom_size: Some(size),
            ..default()
        },
        Transform::from_translation(centre.extend(0.0)).with_rotation(turn),
    ));
}

/// Pit `index`: its picture, its glow (hidden until lit) and its count.
fn spawn_pit(commands: &mut Commands, art: &Art, layout: &Layout, index: usize, font: &TextFont) {
    let center = layout.pit_center(index);
    let size = layout.pit_size(index);
    let mandarin = geometry::is_mandarin(index);
    // Each picture lit so that, turned or mirrored as shown, its light is the screen's.
    let lit_right =
        Light::for_picture(layout.upright(), layout.mirrored_pit(index)) == Light::TOP_RIGHT;
    let (image, glow) = match (mandarin, layout.round_mandarin_pits(), lit_right) {
        (true, true, _) => (&art.round_pit, &art.round_glow),
        (true, false, false) => (&art.mandarin_pit, &art.mandarin_glow),
        (true, false, true) => (&art.mandarin_pit_right, &art.mandarin_glow),
        (false, false, true) => (&art.pit_right, &art.pit_glow),
        (false, _, _) => (&art.pit, &art.pit_glow),
    };
    let (image, glow) = (image.clone(), glow.clone());
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
    commands.spawn((
        BoardPart,
        PitGlow(index),
        Sprite {
            image: glow,
            custom_size: Some(size + 2.0 * GLOW_SPREAD),
            color: Color::NONE,
            flip_x: layout.mirrored_pit(index),
            ..default()
        },
        Visibility::Hidden,
        Transform::from_translation(center.extend(0.6)).with_rotation(rotation),
    ));
    commands.spawn((
        BoardPart,
        PitCount(index),
        crate::game::state::BoardLabel,
        Text2d::new("0"),
        font.clone(),
        TextColor(INK),
        Transform::from_translation(layout.badge_position(index).extend(5.0)),
    ));
}

/// A row's glow and the side's shape beyond it (hidden until lit).
fn spawn_row_marks(
    commands: &mut Commands,
    art: &Art,
    layout: &Layout,
    player: usize,
    colour: Color,
) {
    let (middle, angle, size) = layout.row_rect(player);
    commands.spawn((
        BoardPart,
        RowGlow(player),
        Sprite {
            image: art.row_glow.clone(),
            custom_size: Some(size + 2.0 * GLOW_SPREAD),
            color: Color::NONE,
            ..default()
        },
        Visibility::Hidden,
        Transform::from_translation(middle.extend(0.4)).with_rotation(Quat::from_rotation_z(angle)),
    ));
    // The side's shape beyond its row, lit with the row.
    let beyond = middle + layout.outward(player) * (size.y / 2.0 + GLOW_SPREAD + 12.0);
    commands.spawn((
        BoardPart,
        SideMark {
            player,
            on_row: true,
        },
        Sprite {
            image: art.glyph(Glyph::side(player)),
            custom_size: Some(Vec2::splat(26.0 * layout.count_scale().sqrt())),
            color: colour,
            ..default()
        },
        Visibility::Hidden,
        Transform::from_translation(beyond.extend(0.45)),
    ));
}

/// A player's store: its glow, its tray, its count on a badge with the side's shape, its label.
fn spawn_store(
    commands: &mut Commands,
    art: &Art,
    layout: &Layout,
    player: usize,
    colour: Color,
    turn: Quat,
) {
    let store = layout.store_size();
    let at = layout.store_center(player);
    commands.spawn((
        BoardPart,
        StoreGlow(player),
        Sprite {
            image: if layout.round_mandarin_pits() {
                art.store_glow3.clone()
            } else {
                art.store_glow.clone()
            },
            custom_size: Some(store + 2.0 * GLOW_SPREAD),
            color: Color::NONE,
            ..default()
        },
        Visibility::Hidden,
        Transform::from_translation(at.extend(0.1)).with_rotation(turn),
    ));
    commands.spawn((
        BoardPart,
        Sprite {
            image: if layout.round_mandarin_pits() {
                art.tray3.clone()
            } else if layout.upright() {
                art.tray_right.clone()
            } else {
                art.tray.clone()
            },
            custom_size: Some(store),
            ..default()
        },
        Transform::from_translation(at.extend(0.2)).with_rotation(turn),
    ));
    spawn_store_count(commands, art, layout, player, colour);
}

/// The store's count on a dark round badge at its corner, the side's shape beside it, and the
/// store's label.
fn spawn_store_count(
    commands: &mut Commands,
    art: &Art,
    layout: &Layout,
    player: usize,
    colour: Color,
) {
    let at = layout.store_center(player);
    let badge = layout.store_badge_position(player);
    let scale = layout.count_scale();
    commands.spawn((
        BoardPart,
        Sprite {
            image: art.round_pit.clone(),
            custom_size: Some(Vec2::splat(40.0 * scale)),
            ..default()
        },
        Transform::from_translation(badge.extend(4.0)),
    ));
    // The side's shape in its store, beside the count.
    let inward = (at - badge).normalize_or_zero();
    commands.spawn((
        BoardPart,
        SideMark {
            player,
            on_row: false,
        },
        Sprite {
            image: art.glyph(Glyph::side(player)),
            custom_size: Some(Vec2::splat(24.0 * scale)),
            color: colour,
            ..default()
        },
        Transform::from_translation((badge + inward * 38.0 * scale).extend(4.5)),
    ));
    commands.spawn((
        BoardPart,
        StoreCount(player),
        crate::game::state::BoardLabel,
        Text2d::new(""),
        TextFont {
            font: art.display.clone().into(),
            font_size: FontSize::Px(19.0 * scale),
            ..default()
        },
        TextColor(colour),
        Transform::from_translation(badge.extend(5.0)),
    ));
    commands.spawn((
        BoardPart,
        StoreLabel(player),
        crate::game::state::BoardLabel,
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
    flying: Query<(), With<TweenAnim>>,
    mut labels: Query<(&StoreLabel, &mut Text2d), Without<StoreCount>>,
    mut counts: Query<(&StoreCount, &mut Text2d), Without<StoreLabel>>,
) {
    let lang = prefs.lang();
    let pos = game.pos();
    // A stone counts once it has landed (its flight is over).
    let landed = |stones: Option<&Vec<Entity>>| {
        stones.map_or(0, |s| s.iter().filter(|&&e| !flying.contains(e)).count())
    };
    let mut scores = vec![0; pos.players()];
    for (StoreLabel(player), mut text) in &mut labels {
        let store = pos.store(*player);
        let stones = landed(places.stores.get(*player)) as i32;
        // A store below zero (the deduct refill) has no stones to show.
        let stones = if store.stones < 0 {
            i32::from(store.stones)
        } else {
            stones
        };
        let mandarins = landed(places.store_pieces.get(*player));
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
        if let Some(s) = scores.get_mut(*player) {
            *s = score;
        }
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
    for (StoreCount(player), mut text) in &mut counts {
        let shown = scores.get(*player).map_or(String::new(), i32::to_string);
        if text.0 != shown {
            text.0 = shown;
        }
    }
}
