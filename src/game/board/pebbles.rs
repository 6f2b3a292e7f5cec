//! Every stone is an entity. `Places` knows which entities lie in which pit, store or hand, and
//! `sync` makes sprites and places match the rules state exactly (after a move, a skip or a new
//! game).

use bevy::prelude::*;
use bevy_tweening::TweenAnim;

use crate::game::board::art::{Art, PEBBLE_SHADES, stone_sprite_size};
use crate::game::board::layout::Layout;
use crate::rules::Position;
use crate::rules::geometry;

/// A small stone (1 point).
#[derive(Component)]
pub struct Pebble;

/// A mandarin piece (10 points).
#[derive(Component)]
pub struct MandarinStone;

/// Which stone entities are where. During an animation it follows the events; at rest it
/// matches the rules state.
#[derive(Resource, Default, Debug)]
pub struct Places {
    /// Small stones per ring index.
    pub pits: Vec<Vec<Entity>>,
    /// Mandarin pieces still in their mandarin pit, per player.
    pub pieces: Vec<Option<Entity>>,
    /// Small stones in each player's store.
    pub stores: Vec<Vec<Entity>>,
    /// Captured mandarin pieces in each player's store.
    pub store_pieces: Vec<Vec<Entity>>,
    /// Stones being sown.
    pub hand: Vec<Entity>,
    /// The board the stones were last put in place on: a board turned since needs them moved.
    pub drawn_on: Option<Layout>,
}

impl Places {
    /// How many small stones the screen shows in pit `index`.
    pub fn stones_in(&self, index: usize) -> usize {
        self.pits.get(index).map_or(0, Vec::len)
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Places>();
}

/// Where the stone in `slot` of pit `index` rests.
pub fn pit_spot(layout: &Layout, entity: Entity, index: usize, slot: usize) -> Vec3 {
    let offset = layout.stone_offset(index, slot, entity.index_u32());
    (layout.pit_center(index) + offset).extend(2.0 + slot as f32 * 0.01)
}

pub fn store_spot(layout: &Layout, player: usize, slot: usize) -> Vec3 {
    (layout.store_center(player) + layout.store_offset(slot)).extend(2.0 + slot as f32 * 0.001)
}

pub fn store_piece_spot(layout: &Layout, player: usize, slot: usize) -> Vec3 {
    (layout.store_center(player) + layout.store_mandarin_offset(slot)).extend(3.0)
}

pub fn piece_spot(layout: &Layout, player: usize) -> Vec3 {
    (layout.pit_center(geometry::mandarin_pit(player)) + layout.piece_offset()).extend(1.5)
}

pub fn pebble(art: &Art, seed: u32) -> impl Bundle {
    let size = 22.0 * (0.85 + (seed % 31) as f32 / 100.0);
    (
        Pebble,
        Sprite {
            image: art.pebble.clone(),
            color: PEBBLE_SHADES[(seed as usize / 3) % PEBBLE_SHADES.len()],
            custom_size: Some(stone_sprite_size(size)),
            ..default()
        },
        Transform::default(),
    )
}

pub fn mandarin(art: &Art) -> impl Bundle {
    (
        MandarinStone,
        Sprite {
            image: art.mandarin.clone(),
            custom_size: Some(stone_sprite_size(54.0)),
            ..default()
        },
        Transform::default(),
    )
}

/// Make the stones on screen exactly those of `pos`: reuse entities, spawn or despawn the
/// difference, stop their animations and put each in its place.
pub fn sync(
    commands: &mut Commands,
    places: &mut Places,
    pos: &Position,
    art: &Art,
    layout: &Layout,
) {
    places.drawn_on = Some(*layout);
    let players = pos.players();
    let ring = pos.pits().len();
    let mut small: Vec<Entity> = places.pits.drain(..).flatten().collect();
    small.extend(places.stores.drain(..).flatten());
    small.append(&mut places.hand);
    let mut big: Vec<Entity> = places.pieces.drain(..).flatten().collect();
    big.extend(places.store_pieces.drain(..).flatten());

    let mut take_small = |commands: &mut Commands| {
        small
            .pop()
            .unwrap_or_else(|| commands.spawn(pebble(art, next_look())).id())
    };
    places.pits = vec![Vec::new(); ring];
    for index in 0..ring {
        for slot in 0..usize::from(pos.pits()[index]) {
            let e = take_small(commands);
            place(commands, e, pit_spot(layout, e, index, slot));
            places.pits[index].push(e);
        }
    }
    places.stores = vec![Vec::new(); players];
    for player in 0..players {
        for slot in 0..pos.store(player).stones.max(0) as usize {
            let e = take_small(commands);
            place(commands, e, store_spot(layout, player, slot));
            places.stores[player].push(e);
        }
    }
    for e in small {
        commands.entity(e).despawn();
    }

    let mut take_big = |commands: &mut Commands| {
        big.pop()
            .unwrap_or_else(|| commands.spawn(mandarin(art)).id())
    };
    places.pieces = vec![None; players];
    places.store_pieces = vec![Vec::new(); players];
    for player in 0..players {
        if pos.has_mandarin(player) {
            let e = take_big(commands);
            place(commands, e, piece_spot(layout, player));
            places.pieces[player] = Some(e);
        }
        for slot in 0..usize::from(pos.store(player).mandarins) {
            let e = take_big(commands);
            place(commands, e, store_piece_spot(layout, player, slot));
            places.store_pieces[player].push(e);
        }
    }
    for e in big {
        commands.entity(e).despawn();
    }
}

fn place(commands: &mut Commands, entity: Entity, at: Vec3) {
    commands
        .entity(entity)
        .remove::<TweenAnim>()
        .insert(Transform::from_translation(at));
}

/// A varied look for a new pebble, from a counter (looks need no randomness).
pub fn next_look() -> u32 {
    use std::sync::atomic::{AtomicU32, Ordering};
    static NEXT: AtomicU32 = AtomicU32::new(1);
    NEXT.fetch_add(0x9E37_79B9, Ordering::Relaxed)
}
