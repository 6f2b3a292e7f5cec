//! What the review says under the board: the move, its grade and margin, the best move; the
//! controls' labels as the state changes; the best move marked on the board.

use bevy::prelude::*;
use bevy::ui::InteractionDisabled;

use super::grades::quality_key;
use super::{BestMark, Caption, ControlLabel, Review, ReviewAction, SPEEDS};
use crate::ai::explain::Explanation;
use crate::ai::review::{MoveReview, Quality};
use crate::art::glyphs::Glyph;
use crate::game::board::art::Art;
use crate::game::board::layout::Layout;
use crate::game::board::text::{pit_name, who};
use crate::game::screens::hud::notation;
use crate::game::state::{Game, Phase, Prefs, Screen};
use crate::game::theme::{collapse, press};
use crate::rules::Move;
use crate::session::{Lang, Names, explanation_words};

/// A move as the list and the caption name it.
pub(super) fn move_name(layout: &Layout, mv: Move, lang: Lang) -> String {
    match mv {
        Move::Swap => lang.tr("review.swap").to_owned(),
        Move::Sow { .. } => notation(layout, mv),
    }
}

/// Why a mistake gave points away, in sentences: the players, moves and pits named as the
/// board names them.
fn explanation(why: &Explanation, seat: usize, view: (&Game, &Layout), lang: Lang) -> String {
    let (game, layout) = view;
    let (mover, opponent) = (seat, (seat + 1) % layout.players().max(1));
    let (mover, opponent) = (who(game, mover, lang), who(game, opponent, lang));
    let (mover, opponent) = (in_sentence(mover, lang), in_sentence(opponent, lang));
    let names = Names {
        mover: &mover,
        opponent: &opponent,
        mv: &|mv| move_name(layout, mv, lang),
        pit: &|pit| pit_name(game, layout, usize::from(pit), lang),
    };
    explanation_words(why, lang, &names).join(" ")
}

/// A player's name as it reads inside a sentence: "the computer", "you"; a name of one's own
/// ("Player 2") as it is.
fn in_sentence(name: String, lang: Lang) -> String {
    let common = ["who.you", "who.computer", "who.opponent"].map(|key| lang.tr(key));
    match common.contains(&name.as_str()) {
        true => {
            let mut chars = name.chars();
            chars.next().map_or(String::new(), |first| {
                first.to_lowercase().chain(chars).collect()
            })
        }
        false => name,
    }
}

/// Who was ahead after the move, and by how much.
pub(super) fn margin_words(m: &MoveReview, game: &Game, lang: Lang) -> String {
    let margin = m.margin_for(m.player);
    let n = margin.abs().round();
    let who = crate::game::board::text::who(game, m.seat, lang);
    if n == 0.0 {
        lang.tr("margin.even").to_owned()
    } else if margin > 0.0 {
        lang.trf("review.ahead", &[("who", &who), ("n", &n)])
    } else {
        lang.trf("review.behind", &[("who", &who), ("n", &n)])
    }
}

/// The line above the graph: the move that led here, its grade and what was best.
pub(super) fn caption(
    review: Res<Review>,
    game: Res<Game>,
    prefs: Res<Prefs>,
    layout: Res<Layout>,
    mut texts: Query<&mut Text, With<Caption>>,
) {
    let lang = prefs.lang();
    let said = if let Some(&mv) = review.variation.first() {
        lang.trf("review.variation", &[("mv", &move_name(&layout, mv, lang))])
    } else if review.at == 0 {
        lang.tr("review.at_start").to_owned()
    } else {
        let Some(full) = &review.game else { return };
        let entry = full.entries()[review.at - 1];
        let who = crate::game::board::text::who(&game, entry.side, lang);
        let played = move_name(&layout, entry.mv, lang);
        match review.judged.get(review.at - 1) {
            None => lang.trf(
                "review.move_waiting",
                &[("n", &review.at), ("who", &who), ("mv", &played)],
            ),
            Some(m) => {
                let mut line = lang.trf(
                    "review.move",
                    &[
                        ("n", &review.at),
                        ("who", &who),
                        ("mv", &played),
                        ("grade", &lang.tr(quality_key(m.quality))),
                    ],
                );
                // A won (or drawn) game let go for a margin no smaller: a blunder of its own kind.
                let gave = match m.loss() < 0.05 {
                    true => "review.let_go",
                    false => "review.gave",
                };
                if m.quality != Quality::Best {
                    line += &lang.trf(
                        gave,
                        &[
                            ("n", &format!("{:.1}", m.loss())),
                            ("best", &move_name(&layout, m.best, lang)),
                        ],
                    );
                }
                line += &(" · ".to_owned() + &margin_words(m, &game, lang));
                if let Some(why) = review.explained.get(&(review.at - 1)) {
                    line += &(". ".to_owned() + &explanation(why, m.seat, (&game, &layout), lang));
                }
                line
            }
        }
    };
    for mut text in &mut texts {
        if text.0 != said {
            text.0.clone_from(&said);
        }
    }
}

/// The buttons that change with the review: Play or Pause, the speed, and the best-move ones
/// dimmed where there is no judged move to show.
pub(super) fn label_controls(
    mut commands: Commands,
    (review, prefs, art): (Res<Review>, Res<Prefs>, Res<Art>),
    controls: Query<(Entity, &ControlLabel, Option<&Children>)>,
    disabled: Query<(), (With<ReviewAction>, With<InteractionDisabled>)>,
    mut texts: Query<&mut Text>,
    mut pictures: Query<&mut ImageNode, With<collapse::ButtonGlyph>>,
) {
    let lang = prefs.lang();
    let has_best = review.judged.get(review.at).is_some() && review.variation.is_empty();
    // Play's picture turns to Pause with its word (on a phone the picture is all there is).
    let play_picture = art.glyph(match review.playing {
        true => Glyph::Pause,
        false => Glyph::Play,
    });
    for (entity, label, children) in &controls {
        let word = match label.0 {
            ReviewAction::Play if review.playing => lang.tr("review.pause").to_owned(),
            ReviewAction::Play => lang.tr("review.play").to_owned(),
            ReviewAction::Speed(_) => format!("{}×", SPEEDS[review.speed]),
            ReviewAction::Best if review.show_best => lang.tr("review.hide_best").to_owned(),
            ReviewAction::Best => lang.tr("review.best").to_owned(),
            ReviewAction::Retry => lang.tr("review.retry").to_owned(),
            _ => lang.tr("review.play_best").to_owned(),
        };
        // The speed is a text of its own; the buttons hold theirs in a child.
        let targets: Vec<Entity> = children.map_or(vec![entity], |c| c.iter().collect());
        for target in targets {
            if let Ok(mut text) = texts.get_mut(target)
                && text.0 != word
            {
                text.0.clone_from(&word);
            }
            if label.0 == ReviewAction::Play
                && let Ok(mut image) = pictures.get_mut(target)
                && image.image != play_picture
            {
                image.image = play_picture.clone();
            }
        }
        let enabled = match label.0 {
            ReviewAction::Best | ReviewAction::PlayBest => has_best,
            // Once the mistakes are made puzzles, and there are some.
            ReviewAction::Retry => !review.retries.is_empty(),
            _ => continue,
        };
        press::set_enabled(&mut commands, entity, enabled, disabled.contains(entity));
    }
}

/// Light the best move's pit and arrow while asked to, at rest on a judged position.
pub(super) fn mark_best(
    mut commands: Commands,
    review: Res<Review>,
    phase: Res<Phase>,
    layout: Res<Layout>,
    art: Res<Art>,
    marks: Query<Entity, With<BestMark>>,
) {
    for mark in &marks {
        commands.entity(mark).despawn();
    }
    if !review.show_best || *phase == Phase::Animating || !review.variation.is_empty() {
        return;
    }
    if let Some(best) = review.judged.get(review.at).map(|m| m.best) {
        let tag = (BestMark, DespawnOnExit(Screen::Review));
        crate::game::play::ai_turn::mark_move(&mut commands, &art, &layout, best, 0.2, tag);
    }
}
