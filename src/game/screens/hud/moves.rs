//! The list of moves at the left, and each move's short notation.

use bevy::prelude::*;

use crate::game::board::art::{Art, PLAYER_COLOURS};
use crate::game::board::layout::{Layout, Side};
use crate::game::screens::actions::MovesShown;
use crate::game::state::{Game, Prefs, Screen};
use crate::game::theme::bars;
use crate::game::theme::widget::{self, bold};
use crate::rules::{Move, geometry};

#[derive(Component)]
pub(super) struct MoveListRoot;

/// The list of moves at the left: number, side, move and what it took.
pub(super) fn move_list(
    mut commands: Commands,
    shown: Res<MovesShown>,
    game: Res<Game>,
    prefs: Res<Prefs>,
    art: Res<Art>,
    layout: Res<Layout>,
    roots: Query<Entity, With<MoveListRoot>>,
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    if !shown.0 {
        return;
    }
    let lang = prefs.lang();
    let entries = game.history.entries();
    // The latest moves, as many as fit.
    let first = entries.len().saturating_sub(18);
    commands
        .spawn((
            MoveListRoot,
            DespawnOnExit(Screen::Playing),
            bars::side_list(200.0, 12.0, 2.0),
        ))
        .with_children(|list| {
            list.spawn(bold(&art, lang.tr("moves.title"), 18.0));
            if entries.is_empty() {
                list.spawn(widget::text(&art, lang.tr("moves.none"), 15.0));
            }
            for (i, entry) in entries.iter().enumerate().skip(first) {
                let mut line = format!("{}. {}", i + 1, notation(&layout, entry.mv));
                if entry.mv == Move::Swap {
                    line += lang.tr("moves.swap");
                } else if entry.captured > 0 {
                    line += &format!(", {}", lang.trf("moves.capture", &[("n", &entry.captured)]));
                }
                let colour = PLAYER_COLOURS[entry.side].lighter(0.3);
                list.spawn(widget::text_in(&art, line, 15.0, colour));
            }
        });
}

/// "3 »" for a move: the pit's number and the side of the screen the mover sowed toward.
pub(in crate::game) fn notation(layout: &Layout, mv: Move) -> String {
    match mv {
        Move::Sow { pit, dir } => {
            let pit = usize::from(pit);
            let arrow = match (layout.side_for(geometry::owner(pit), dir), layout.upright()) {
                (Side::Left, false) => "«",
                (Side::Right, false) => "»",
                (Side::Left, true) => "˅",
                (Side::Right, true) => "˄",
            };
            format!("{} {arrow}", geometry::pit_number(pit).unwrap_or(0))
        }
        Move::Swap => String::new(),
    }
}
