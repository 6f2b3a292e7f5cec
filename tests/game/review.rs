//! The review as a player reads it, in a window laid out by Bevy's UI: a mistake's caption says
//! why it gave points away, in the game's language.

use bevy::prelude::*;
use o_an_quan::ai::explain::Fact;
use o_an_quan::game::review::{Caption, Review};
use o_an_quan::game::state::{LoadGame, OpenReview, Working};
use o_an_quan::game::{Overlay, Screen};
use o_an_quan::session::Lang;

use crate::layout::{Config, app, rote_game, settle, show, tempfile_dir};

/// The caption's text.
fn caption(app: &mut App) -> String {
    let world = app.world_mut();
    let mut texts = world.query_filtered::<&Text, With<Caption>>();
    texts
        .iter(world)
        .next()
        .map_or(String::new(), |t| t.0.clone())
}

#[test]
fn a_mistake_s_caption_says_why_in_both_languages() {
    for lang in Lang::ALL {
        let home = tempfile_dir();
        let config = Config {
            size: (390, 844),
            lang,
            text_size: 100,
        };
        let mut app = app(config, &home);
        // A game of moves picked by rote, as the layout checker plays it.
        let history = rote_game(&app);
        show(&mut app, Screen::Playing, Overlay::None);
        app.world_mut().trigger(LoadGame(history));
        settle(&mut app);
        app.world_mut().trigger(OpenReview);
        settle(&mut app);
        // Judged, then explained, off the frame.
        for _ in 0..20_000 {
            let review = app.world().resource::<Review>();
            if !review.analysing() && !app.world().resource::<Working>().0 {
                break;
            }
            app.update();
        }
        let review = app.world().resource::<Review>();
        let (&k, why) = review.explained.iter().next().expect("a mistake explained");
        // The first reason's points, as the explanation words them.
        let points = why.facts.iter().find_map(|fact| match fact {
            Fact::ReplyTakes(t) | Fact::BetterTakes(t) => Some(t.points()),
            Fact::RefillCosts { paid } => Some(u32::from(*paid)),
            _ => None,
        });
        let points = match points.expect("a reason besides what the move took") {
            1 => lang.tr("explain.one_point").to_owned(),
            n => lang.trf("explain.points", &[("n", &n)]),
        };
        app.world_mut().resource_mut::<Review>().at = k + 1;
        settle(&mut app);
        let said = caption(&mut app);
        let move_n = lang.trf("review.move", &[("n", &(k + 1))]);
        let move_n = move_n.split(':').next().unwrap_or_default();
        assert!(said.starts_with(move_n), "{lang:?}: {said:?}");
        assert!(said.contains(&points), "{lang:?}: {said:?} says {points:?}");
        let _ = std::fs::remove_dir_all(&home);
    }
}
