//! The game-over panel: who won and why, the scores, and what to do next.

use bevy::prelude::*;

use crate::game::board::art::{Art, PLAYER_COLOURS};
use crate::game::board::text;
use crate::game::play::turn;
use crate::game::screens::actions::Action;
use crate::game::state::{Game, Phase, Prefs, Screen};
use crate::game::theme::widget::{self, button, panel, row};
use crate::rules::geometry;
use crate::session::{Lang, Seat};

#[derive(Component)]
pub(super) struct GameOverRoot;

pub(super) fn game_over(
    mut commands: Commands,
    phase: Res<Phase>,
    game: Res<Game>,
    prefs: Res<Prefs>,
    art: Res<Art>,
    roots: Query<Entity, With<GameOverRoot>>,
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    // An online game's end is the online controls' (its cause may be a clock or a resignation).
    if *phase != Phase::Over || game.online() {
        return;
    }
    let lang = prefs.lang();
    let pos = game.pos();
    let players = pos.players();
    // Out of time: that side comes last, the others by their points now.
    let flagged = game
        .history
        .flagged()
        .and_then(|seat| (0..players).find(|&side| game.history.seat_of(side) == seat));
    let Some(places) = flagged
        .map(|out| places_after_flag(pos, out))
        .or(pos.places())
    else {
        return;
    };
    let swept = turn::swept(&game);
    let headline = headline(&game, &places, flagged, lang);
    let mut order: Vec<usize> = (0..players).collect();
    order.sort_by_key(|&p| places[p]);
    commands
        .spawn((
            GameOverRoot,
            DespawnOnExit(Screen::Playing),
            widget::backdrop(0.45),
        ))
        .with_children(|b| {
            b.spawn(panel(640.0)).with_children(|p| {
                p.spawn((
                    widget::title(&art, headline, 30.0),
                    TextLayout::justify(Justify::Center),
                ));
                for side in order {
                    let line = format!(
                        "{}: {}",
                        text::who(&game, side, lang),
                        text::final_count(pos, side, swept[side], lang)
                    );
                    let colour = PLAYER_COLOURS[side].lighter(0.25);
                    p.spawn((
                        widget::text_in(&art, line, 19.0, colour),
                        TextLayout::justify(Justify::Center),
                    ));
                }
                p.spawn(Node {
                    justify_content: JustifyContent::Center,
                    ..row()
                })
                .with_children(|r| {
                    r.spawn(button(&art, Action::NewGame, lang.tr("over.play_again")));
                    r.spawn(button(&art, Action::Review, lang.tr("over.review")));
                    // A player of this device made mistakes to learn from (not the computer's).
                    if game.history.seats().contains(&Seat::Human) {
                        r.spawn(button(&art, Action::RetryMistakes, lang.tr("review.retry")));
                    }
                    if !game.timed() {
                        r.spawn(button(&art, Action::Undo, lang.tr("hud.undo")));
                    }
                    r.spawn(button(&art, Action::OpenMenu, lang.tr("hud.menu")));
                });
            });
        });
}

/// Who won (or a draw), after who ran out of time if a side did.
fn headline(game: &Game, places: &[u8], flagged: Option<usize>, lang: Lang) -> String {
    let players = game.pos().players();
    let winners: Vec<usize> = (0..players).filter(|&p| places[p] == 0).collect();
    let headline = if winners.len() > 1 {
        lang.tr("over.draw").to_owned()
    } else if game.mixed() && game.history.player_of(winners[0]).is_human() {
        lang.tr("over.you_win").to_owned()
    } else {
        lang.trf("over.wins", &[("who", &text::who(game, winners[0], lang))])
    };
    match flagged {
        Some(out) => format!(
            "{}\n{headline}",
            lang.trf("over.time", &[("who", &text::who(game, out, lang))])
        ),
        None => headline,
    }
}

/// Places (0 first) when side `out` ran out of time: last, the others by points, ties shared.
pub(super) fn places_after_flag(
    pos: &crate::rules::Position,
    out: usize,
) -> [u8; geometry::MAX_PLAYERS] {
    let players = pos.players();
    let key = |side: usize| (side != out, pos.score(side));
    let mut places = [0; geometry::MAX_PLAYERS];
    for (side, place) in places.iter_mut().enumerate().take(players) {
        *place = (0..players).filter(|&other| key(other) > key(side)).count() as u8;
    }
    places
}
