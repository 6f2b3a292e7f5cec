//! The review as a player reads it, in a window laid out by Bevy's UI: a mistake's caption says
//! why it gave points away, in the game's language, and the players' own mistakes become
//! puzzles to practise, kept on disk.

use bevy::prelude::*;
use bevy::ui::InteractionDisabled;
use o_an_quan::ai::explain::Fact;
use o_an_quan::game::practice::PracticeStore;
use o_an_quan::game::press::Activate;
use o_an_quan::game::review::{Caption, Review};
use o_an_quan::game::state::{Files, LoadGame, OpenReview, Working};
use o_an_quan::game::{Game, Overlay, Screen};
use o_an_quan::session::{Lang, PRACTICE, Practice, Seat};

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

/// A phone-sized app in `lang` with a game played by rote reviewed to the end: every move
/// judged, the mistakes explained and made puzzles.
fn reviewed(lang: Lang, home: &std::path::Path) -> App {
    let config = Config {
        size: (390, 844),
        lang,
        text_size: 100,
    };
    let mut app = app(config, home);
    let history = rote_game(&app);
    show(&mut app, Screen::Playing, Overlay::None);
    app.world_mut().trigger(LoadGame(history));
    settle(&mut app);
    app.world_mut().trigger(OpenReview);
    settle(&mut app);
    for _ in 0..20_000 {
        let review = app.world().resource::<Review>();
        if !review.analysing() && !app.world().resource::<Working>().0 {
            break;
        }
        app.update();
    }
    app
}

#[test]
fn a_mistake_s_caption_says_why_in_both_languages() {
    for lang in Lang::ALL {
        let home = tempfile_dir();
        let mut app = reviewed(lang, &home);
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

#[test]
fn the_players_own_mistakes_are_kept_to_practise_due_at_once() {
    let home = tempfile_dir();
    let app = reviewed(Lang::En, &home);
    let review = app.world().resource::<Review>();
    let game = review.game.as_ref().unwrap();
    let humans: Vec<usize> = (0..game.seats().len())
        .filter(|&p| game.seats()[p] == Seat::Human)
        .collect();
    assert!(
        !review.retries.is_empty(),
        "a game by rote has mistakes to retry"
    );
    for puzzle in &review.retries {
        let line = puzzle.line().expect("a retry reads as a puzzle");
        let index = puzzle.moves.split_whitespace().count();
        assert!(
            humans.contains(&review.judged[index].player),
            "a player's own mistake"
        );
        assert_ne!(line.steps[0].answer, review.judged[index].played);
    }
    let store = &app.world().resource::<PracticeStore>().0;
    let now = i64::MAX / 2;
    assert_eq!(store.due(now).len(), review.retries.len(), "all due");
    // Kept on disk, as the next start reads it.
    let files = app.world().resource::<Files>();
    let text = files
        .config
        .read(PRACTICE)
        .unwrap()
        .expect("the practice file");
    assert_eq!(Practice::from_ron(&text).unwrap(), *store);
    let _ = std::fs::remove_dir_all(&home);
}

/// Update until `done`, at most `frames` times.
fn run_until(app: &mut App, frames: usize, done: impl Fn(&App) -> bool) {
    for _ in 0..frames {
        if done(app) {
            return;
        }
        app.update();
    }
    assert!(done(app), "not done after {frames} frames");
}

#[test]
fn retried_mistakes_play_as_puzzles_and_come_back_by_their_schedule() {
    use o_an_quan::game::puzzles::{PuzzleBoard, Said};
    use o_an_quan::game::review::ReviewAction;
    use o_an_quan::game::state::{Phase, PlayMove};
    const DAY: i64 = 24 * 3600 * 1000;
    let home = tempfile_dir();
    let mut app = reviewed(Lang::En, &home);
    let review = app.world().resource::<Review>();
    let retries = review.retries.clone();
    let judged = review.judged.clone();
    let before = o_an_quan::game::practice::now_ms();
    // The review's button opens them as puzzles, the biggest mistake first.
    let world = app.world_mut();
    let mut buttons =
        world.query_filtered::<(Entity, &ReviewAction), Without<InteractionDisabled>>();
    let retry = buttons
        .iter(world)
        .find(|(_, a)| **a == ReviewAction::Retry);
    let (retry, _) = retry.expect("the Retry button, on");
    // Pressed as a finger or the keyboard does (this window has no pointer).
    world.trigger(Activate { entity: retry });
    settle(&mut app);
    assert_eq!(
        *app.world().resource::<State<Screen>>().get(),
        Screen::Puzzles
    );
    let board = app.world().resource::<PuzzleBoard>();
    let (own, lines) = board.own.clone().expect("the player's own puzzles");
    assert_eq!(own, retries);
    let said = |app: &App| app.world().resource::<PuzzleBoard>().said;
    let idle = |app: &App| *app.world().resource::<Phase>() != Phase::Animating;
    // The mistake itself is refused, what it gave away said, and taken back.
    let index = own[0].moves.split_whitespace().count();
    app.world_mut().trigger(PlayMove(judged[index].played));
    run_until(&mut app, 3000, |a| {
        matches!(said(a), Said::Wrong(_)) && idle(a)
    });
    run_until(&mut app, 3000, |a| {
        *a.world().resource::<Game>().history.position() == lines[0].start
    });
    // The answer (or as good a move) solves it.
    app.world_mut().trigger(PlayMove(lines[0].steps[0].answer));
    run_until(&mut app, 3000, |a| said(a) == Said::Solved && idle(a));
    let store = &app.world().resource::<PracticeStore>().0;
    let card = store
        .cards
        .iter()
        .find(|c| c.puzzle.id == own[0].id)
        .unwrap();
    assert_eq!(card.schedule.reps, 1, "tried once");
    // Missed first: it is not due again today, and it is due again within days, not months.
    assert!(card.due_ms() > before, "not due again at once");
    assert!(card.due_ms() < before + 7 * DAY, "{:?}", card.schedule);
    assert!(
        !store.due(before + 8 * DAY).is_empty(),
        "due again by the schedule"
    );
    let _ = std::fs::remove_dir_all(&home);
}

#[test]
fn the_key_moments_are_marked_and_the_end_of_a_game_retries_its_mistakes_biggest_first() {
    use o_an_quan::game::Action;
    use o_an_quan::game::puzzles::PuzzleBoard;
    use o_an_quan::game::review::{KeyMoment, key_moments};
    let home = tempfile_dir();
    let mut app = reviewed(Lang::En, &home);
    let review = app.world().resource::<Review>();
    let key = key_moments(&review.judged);
    assert!(!key.is_empty() && key.len() <= 3, "{key:?}");
    let losses: Vec<f64> = key.iter().map(|&k| review.judged[k].loss()).collect();
    let biggest = review.judged.iter().map(|m| m.loss()).fold(0.0, f64::max);
    assert_eq!(losses[0], biggest, "the biggest swing first");
    let world = app.world_mut();
    let marks = world.query::<&KeyMoment>().iter(world).count();
    assert_eq!(marks, key.len(), "a mark over each key moment of the graph");
    // From the end of the game: the review opens, then its mistakes as puzzles.
    show(&mut app, Screen::Playing, Overlay::None);
    let history = rote_game(&app);
    app.world_mut().trigger(LoadGame(history));
    settle(&mut app);
    let world = app.world_mut();
    let mut buttons = world.query_filtered::<(Entity, &Action), Without<InteractionDisabled>>();
    let retry = buttons
        .iter(world)
        .find(|(_, a)| **a == Action::RetryMistakes);
    let (retry, _) = retry.expect("the end panel's Retry my mistakes");
    world.trigger(Activate { entity: retry });
    run_until(&mut app, 20_000, |a| {
        *a.world().resource::<State<Screen>>().get() == Screen::Puzzles
    });
    let review = app.world().resource::<Review>();
    let retries = review.retries.clone();
    let losses: Vec<f64> = retries
        .iter()
        .map(|p| review.judged[p.moves.split_whitespace().count()].loss())
        .collect();
    assert!(
        losses.windows(2).all(|w| w[0] >= w[1]),
        "biggest first: {losses:?}"
    );
    let own = app.world().resource::<PuzzleBoard>().own.clone();
    assert_eq!(own.map(|(p, _)| p), Some(retries));
    let _ = std::fs::remove_dir_all(&home);
}
