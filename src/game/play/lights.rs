//! The turn shown on the board itself: the row and the store of the player to move glow in
//! their colour (the store breathes while the computer thinks), the pits that can be played
//! pulse gently, a captured pit flashes before its stones fly, and the number of stones in the
//! hand rides along with the hand.

use std::time::Duration;

use bevy::prelude::*;

use crate::game::board::art::{Art, INK, PLAYER_COLOURS};
use crate::game::board::layout::Layout;
use crate::game::board::pebbles::Places;
use crate::game::board::wood::{PitGlow, RowGlow, SideMark, StoreGlow};
use crate::game::play::ai_turn::Thinking;
use crate::game::play::animation::{PitCaptured, Script};
use crate::game::state::{Game, Motion, Phase, Screen};
use crate::rules::{Direction, Move};

/// Pits flashing now, and how long each has left.
#[derive(Resource, Default)]
pub struct Flashes(Vec<(PitCaptured, Timer)>);

impl Flashes {
    /// Whether a pit has been glowing for at least `lit`.
    pub fn glowing_for(&self, lit: Duration) -> bool {
        self.0.iter().any(|(_, timer)| timer.elapsed() >= lit)
    }
}

/// The count of the stones in hand, on a dark disc above them.
#[derive(Component)]
pub struct HandCount;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<Flashes>();
    app.add_observer(|captured: On<PitCaptured>, mut flashes: ResMut<Flashes>| {
        let timer = Timer::new(captured.lasts, TimerMode::Once);
        flashes.0.push((*captured.event(), timer));
    });
    app.add_systems(Startup, spawn_hand_count);
    app.add_systems(
        Update,
        (light_turn, light_pits, follow_hand).in_set(crate::game::state::GameSet::Show),
    );
}

/// The player whose turn the board shows: the mover while a move is shown, the player to move
/// while the game waits, nobody once it is over or off the board.
fn active_player(game: &Game, phase: Phase, script: &Script, screen: Screen) -> Option<usize> {
    if screen == Screen::Title || screen == Screen::Online {
        return None;
    }
    match phase {
        Phase::Animating => Some(script.mover),
        Phase::Waiting => Some(game.pos().to_move()),
        Phase::Over => None,
    }
}

/// A slow breath between 0 and 1, `per_second` times a second; held still halfway when motion
/// is reduced.
fn breath(time: &Time, per_second: f32, motion: &Motion) -> f32 {
    if motion.reduced {
        return 0.5;
    }
    0.5 - 0.5 * (time.elapsed_secs() * per_second * std::f32::consts::TAU).cos()
}

/// Glows are drawn at about half size on a phone held upright: stronger there to read as well.
fn strength(layout: &Layout) -> f32 {
    if layout.tall_window() { 1.45 } else { 1.0 }
}

fn light_turn(
    time: Res<Time>,
    motion: Res<Motion>,
    layout: Res<Layout>,
    game: Res<Game>,
    phase: Res<Phase>,
    script: Res<Script>,
    screen: Res<State<Screen>>,
    thinking: Query<(), With<Thinking>>,
    mut rows: Query<(&RowGlow, &mut Sprite, &mut Visibility), Without<StoreGlow>>,
    mut stores: Query<(&StoreGlow, &mut Sprite, &mut Visibility), Without<RowGlow>>,
    mut marks: Query<(&SideMark, &mut Visibility), (Without<RowGlow>, Without<StoreGlow>)>,
) {
    let active = active_player(&game, *phase, &script, *screen.get());
    let thinking = !thinking.is_empty();
    let k = strength(&layout);
    for (RowGlow(player), mut sprite, mut visibility) in &mut rows {
        let alpha = if active == Some(*player) {
            (0.7 * k).min(1.0)
        } else {
            0.0
        };
        set_colour(
            &mut sprite,
            &mut visibility,
            PLAYER_COLOURS[*player].with_alpha(alpha),
        );
    }
    // The side's shape beyond its row shows with the row's light: the turn not by colour alone.
    for (mark, mut visibility) in &mut marks {
        if mark.on_row {
            visibility.set_if_neq(if active == Some(mark.player) {
                Visibility::Inherited
            } else {
                Visibility::Hidden
            });
        }
    }
    for (StoreGlow(player), mut sprite, mut visibility) in &mut stores {
        // The mover's store is lit, and breathes while the computer thinks.
        let alpha = match active == Some(*player) {
            true if thinking => ((0.35 + 0.6 * breath(&time, 0.8, &motion)) * k.sqrt()).min(1.0),
            true => 0.95,
            false => 0.0,
        };
        set_colour(
            &mut sprite,
            &mut visibility,
            PLAYER_COLOURS[*player].with_alpha(alpha),
        );
    }
}

/// A glow's colour; one that would not show is not drawn at all (with the software renderer
/// every blended pixel counts).
fn set_colour(sprite: &mut Sprite, visibility: &mut Visibility, colour: Color) {
    if sprite.color != colour {
        sprite.color = colour;
    }
    let shown = if colour.alpha() > 0.0 {
        Visibility::Inherited
    } else {
        Visibility::Hidden
    };
    if *visibility != shown {
        *visibility = shown;
    }
}

/// Playable pits pulse in the colour of the player to move; a captured pit flashes in the
/// capturer's.
fn light_pits(
    time: Res<Time>,
    motion: Res<Motion>,
    layout: Res<Layout>,
    game: Res<Game>,
    phase: Res<Phase>,
    mut flashes: ResMut<Flashes>,
    mut glows: Query<(&PitGlow, &mut Sprite, &mut Visibility)>,
) {
    for (_, timer) in &mut flashes.0 {
        timer.tick(time.delta());
    }
    flashes.0.retain(|(_, timer)| !timer.is_finished());
    // A new move clears what is left of the last one's flashes.
    if *phase != Phase::Animating {
        flashes.0.clear();
    }
    let pos = game.pos();
    let show = *phase == Phase::Waiting && game.human_to_move();
    let pulse = ((0.35 + 0.35 * breath(&time, 0.6, &motion)) * strength(&layout)).min(1.0);
    for (PitGlow(index), mut sprite, mut visibility) in &mut glows {
        let flash = flashes.0.iter().find(|(c, _)| c.pit == *index);
        let colour = if let Some((captured, timer)) = flash {
            // Up at once, then fading out as the stones leave.
            let left = 1.0 - timer.fraction();
            PLAYER_COLOURS[captured.player].with_alpha((left * 1.6).min(1.0))
        } else if show
            && *index < pos.pits().len()
            && pos.is_legal(Move::Sow {
                pit: *index as u8,
                dir: Direction::Clockwise,
            })
        {
            PLAYER_COLOURS[pos.to_move()].with_alpha(pulse)
        } else {
            Color::NONE
        };
        set_colour(&mut sprite, &mut visibility, colour);
    }
}

fn spawn_hand_count(mut commands: Commands, art: Res<Art>) {
    commands.spawn((
        HandCount,
        Sprite {
            image: art.round_pit.clone(),
            custom_size: Some(Vec2::splat(40.0)),
            ..default()
        },
        Transform::from_xyz(0.0, 0.0, 30.0),
        Visibility::Hidden,
        children![(
            Text2d::new(""),
            TextFont {
                font: art.display.clone().into(),
                font_size: FontSize::Px(22.0),
                ..default()
            },
            TextColor(INK),
            Transform::from_xyz(0.0, 0.0, 0.1),
        )],
    ));
}

/// While stones are in the hand their number floats just above them, wherever the hand goes.
fn follow_hand(
    places: Res<Places>,
    layout: Res<Layout>,
    stones: Query<&Transform, Without<HandCount>>,
    mut badge: Single<(&mut Transform, &mut Visibility, &Children), With<HandCount>>,
    mut texts: Query<&mut Text2d>,
) {
    let (transform, visibility, children) = &mut *badge;
    let held: Vec<Vec3> = places
        .hand
        .iter()
        .filter_map(|&e| stones.get(e).ok().map(|t| t.translation))
        .collect();
    if held.is_empty() {
        visibility.set_if_neq(Visibility::Hidden);
        return;
    }
    visibility.set_if_neq(Visibility::Visible);
    let middle = held.iter().sum::<Vec3>() / held.len() as f32;
    let top = held.iter().map(|p| p.y).fold(f32::MIN, f32::max);
    let scale = layout.count_scale();
    let at = Vec3::new(middle.x, top + 30.0 * scale, 30.0);
    if transform.translation != at {
        transform.translation = at;
        transform.scale = Vec3::splat(scale);
    }
    let shown = held.len().to_string();
    for &child in *children {
        if let Ok(mut text) = texts.get_mut(child)
            && text.0 != shown
        {
            text.0 = shown.clone();
        }
    }
}
