//! The graph of the expected final margin after each move, drawn from the judgements so far.

use bevy::prelude::*;

use super::grades::quality_colour;
use super::{GRAPH_POINTS, Graph, Review};
use crate::ai::review::{MoveReview, Quality};
use crate::game::theme::palette::{self, PLAYER_COLOURS};

/// One column a move: up in the first player's colour while they are expected to win by that
/// much, down in the other's; the column of the position on the board is lit.
pub(super) fn draw_graph(
    mut commands: Commands,
    review: Res<Review>,
    graph: Query<Entity, With<Graph>>,
) {
    let Ok(graph) = graph.single() else { return };
    commands.entity(graph).despawn_children();
    let len = review.len().max(1);
    let width = 100.0 / len as f32;
    let three = review
        .game
        .as_ref()
        .is_some_and(|g| g.position().players() > 2);
    commands.entity(graph).with_children(|g| {
        // The even line: above it the first player leads, below it the other.
        g.spawn((
            Node {
                position_type: PositionType::Absolute,
                left: px(0),
                right: px(0),
                top: percent(50),
                height: px(1),
                ..default()
            },
            BackgroundColor(palette::MIDDLE_LINE),
        ));
        let key = key_moments(&review.judged);
        for k in 0..len {
            let current = k + 1 == review.at;
            let judged = review.judged.get(k);
            column(g, judged, (three, current, key.contains(&k)), width);
        }
    });
}

/// How many of the biggest mistakes the graph marks as the game's key moments.
const KEY_MOMENTS: usize = 3;

/// The game's key moments: the mistakes where the graph turns most (the most points given
/// away), by index, at most `KEY_MOMENTS`.
pub fn key_moments(judged: &[MoveReview]) -> Vec<usize> {
    let mut mistakes: Vec<usize> = (0..judged.len())
        .filter(|&k| judged[k].quality >= Quality::Mistake)
        .collect();
    mistakes.sort_by(|&a, &b| {
        judged[b]
            .loss()
            .total_cmp(&judged[a].loss())
            .then(a.cmp(&b))
    });
    mistakes.truncate(KEY_MOMENTS);
    mistakes
}

/// A move's column of the graph, `width` per cent wide: its bar up (the first player ahead) or
/// down, lit when it is the `current` move, a dot under a mistake, a mark over a key moment.
fn column(
    g: &mut ChildSpawnerCommands,
    judged: Option<&MoveReview>,
    (three, current, key): (bool, bool, bool),
    width: f32,
) {
    // On the 3-player board, the mover's own margin over the others.
    let (value, colour) = match judged {
        Some(m) if three => (m.margin_for(m.player), PLAYER_COLOURS[m.seat]),
        Some(m) if m.margin_for(0) >= 0.0 => (m.margin_for(0), PLAYER_COLOURS[0]),
        Some(m) => (m.margin_for(0), PLAYER_COLOURS[1]),
        None => (0.0, Color::NONE),
    };
    let share = (value.abs() / GRAPH_POINTS).min(1.0) as f32 * 50.0;
    let column = if current {
        palette::CURRENT_COLUMN
    } else {
        Color::NONE
    };
    let bar = colour.with_alpha(if current { 1.0 } else { 0.8 });
    let (top, bottom) = if value >= 0.0 {
        (50.0 - share, 50.0)
    } else {
        (50.0, 50.0 - share)
    };
    g.spawn((
        Node {
            width: percent(width),
            height: percent(100),
            ..default()
        },
        BackgroundColor(column),
    ))
    .with_children(|c| {
        c.spawn((
            Node {
                position_type: PositionType::Absolute,
                left: percent(8),
                right: percent(8),
                top: percent(top),
                bottom: percent(bottom),
                ..default()
            },
            BackgroundColor(bar),
        ));
        if let Some(m) = judged.filter(|m| m.quality >= Quality::Mistake) {
            // A dot on the mistakes, in their grade's colour.
            c.spawn((
                Node {
                    position_type: PositionType::Absolute,
                    left: percent(20),
                    right: percent(20),
                    bottom: px(2),
                    height: px(5),
                    border_radius: BorderRadius::all(px(3)),
                    ..default()
                },
                BackgroundColor(quality_colour(m.quality)),
            ));
            if key {
                // Over a key moment, a mark the height of the dot, at the top of the graph.
                c.spawn((
                    KeyMoment,
                    Node {
                        position_type: PositionType::Absolute,
                        left: percent(20),
                        right: percent(20),
                        top: px(2),
                        height: px(5),
                        border_radius: BorderRadius::all(px(3)),
                        ..default()
                    },
                    BackgroundColor(quality_colour(m.quality)),
                ));
            }
        }
    });
}

/// The mark over a key moment of the game.
#[derive(Component)]
pub struct KeyMoment;
