//! The list of moves around the current one, each with its grade's mark and colour.

use bevy::prelude::*;

use super::caption::move_name;
use super::grades::{quality_colour, quality_mark};
use super::{LIST_LINES, MoveList, Review, ReviewAction};
use crate::ai::review::Quality;
use crate::game::board::art::{Art, PLAYER_COLOURS};
use crate::game::board::layout::Layout;
use crate::game::state::Prefs;
use crate::game::theme::palette;
use crate::game::theme::widget::{self, bold, text, text_in};

/// The moves around the current one, each with its grade; a click jumps there.
pub(super) fn draw_list(
    mut commands: Commands,
    review: Res<Review>,
    prefs: Res<Prefs>,
    layout: Res<Layout>,
    art: Res<Art>,
    list: Query<Entity, With<MoveList>>,
) {
    let Ok(list) = list.single() else { return };
    commands.entity(list).despawn_children();
    let shown = if review.list_shown {
        Display::Flex
    } else {
        Display::None
    };
    commands
        .entity(list)
        .entry::<Node>()
        .and_modify(move |mut node| {
            node.display = shown;
        });
    let Some(game) = &review.game else { return };
    let lang = prefs.lang();
    let entries = game.entries();
    let first = review
        .at
        .saturating_sub(LIST_LINES / 2)
        .min(entries.len().saturating_sub(LIST_LINES));
    let progress = if review.analysing() {
        lang.trf(
            "review.analysing",
            &[("done", &review.judged.len()), ("total", &entries.len())],
        )
    } else {
        lang.tr("review.title").to_owned()
    };
    commands.entity(list).with_children(|l| {
        l.spawn(bold(&art, progress, 16.0));
        let start = text(&art, lang.tr("review.start"), 14.0);
        l.spawn(list_line(0, review.at == 0, 0.0, start));
        for (i, entry) in entries.iter().enumerate().skip(first).take(LIST_LINES) {
            let judged = review.judged.get(i);
            let mark = judged.map_or("", |m| quality_mark(m.quality));
            let line = format!("{}. {}{mark}", i + 1, move_name(&layout, entry.mv, lang));
            let colour = judged.map_or(PLAYER_COLOURS[entry.side].lighter(0.3), |m| {
                if m.quality >= Quality::Inaccuracy {
                    quality_colour(m.quality)
                } else {
                    PLAYER_COLOURS[entry.side].lighter(0.3)
                }
            });
            let words = text_in(&art, line, 14.0, colour);
            l.spawn(list_line(i + 1, review.at == i + 1, 4.0, words));
        }
    });
}

/// A line of the list that puts the board after move `at` (0: the start), lit where the board
/// is (`current`), its corners rounded by `radius`.
fn list_line(at: usize, current: bool, radius: f32, words: impl Bundle) -> impl Bundle {
    (
        Button,
        widget::OwnColours,
        ReviewAction::Jump(at),
        Node {
            padding: UiRect::axes(px(4), px(1)),
            border_radius: BorderRadius::all(px(radius)),
            ..default()
        },
        BackgroundColor(if current {
            palette::CURRENT
        } else {
            Color::NONE
        }),
        children![words],
    )
}
