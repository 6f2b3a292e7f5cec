//! The engine's judgement of every move, off the frame, and its progress for the page.

use bevy::prelude::*;
use web_time::Instant;

use super::Review;
use crate::ai::explain::{self, Explainer};
use crate::ai::review::Quality;
use crate::game::play::off_frame::{FRAME_SHARE, Job};
use crate::game::state::{AnalysedGame, Analysis, Launch, Wake, Working};

/// The engine judges the moves one search each, off the frame: in the thread pool, or on the
/// web in the thinking worker (in slices of the frame's share where there is none).
pub(super) fn analyse(
    mut review: ResMut<Review>,
    mut analysis: ResMut<Analysis>,
    mut wake: ResMut<Wake>,
    mut working: ResMut<Working>,
    launch: Res<Launch>,
) {
    // The search's own progress is not news: the screen is redrawn only when a move is judged.
    let inner = review.bypass_change_detection();
    let Some(reviewer) = inner.reviewer.as_mut() else {
        // Every move judged: the mistakes explained, one after another.
        let (busy, news) = explain_mistakes(inner, launch.sliced_ai);
        working.set_if_neq(Working(busy));
        if busy {
            wake.busy();
        }
        if news {
            review.set_changed();
        }
        return;
    };
    working.set_if_neq(Working(true));
    wake.busy();
    let started = Instant::now();
    let known = inner.judged.len().min(reviewer.reviewed().len());
    let mut place = "";
    // Quick searches finish several in a frame; the sliced ones share its time.
    loop {
        if inner.job.is_none() {
            inner.job = reviewer
                .next_search()
                .map(|search| Job::start(search, launch.sliced_ai));
        }
        let Some(job) = inner.job.as_mut() else { break };
        let left = FRAME_SHARE.saturating_sub(started.elapsed());
        let Some(report) = job.poll(left) else { break };
        place = job.place();
        inner.job = None;
        reviewer.judge(&report);
        if left.is_zero() {
            break;
        }
    }
    let done = reviewer.is_done();
    // Only the moves judged in this frame are copied (a frame judges a few).
    let judged_now = reviewer.reviewed().len() > known;
    inner
        .judged
        .extend_from_slice(&reviewer.reviewed()[known..]);
    if judged_now {
        show_progress(inner.judged.len(), reviewer.progress().1, place);
    }
    if done {
        inner.reviewer = None;
        if let Some(game) = &inner.game {
            analysis.0 = Some(AnalysedGame {
                start: *game.start(),
                moves: game.moves().collect(),
                judged: inner.judged.clone(),
            });
        }
    }
    if judged_now || done {
        review.set_changed();
    }
}

/// Works out why the next mistakes gave points away, off the frame as the judging does: the
/// opponent's best reply to the move and to the better one, a search each. Returns whether
/// work is left, and whether an explanation came this frame.
fn explain_mistakes(review: &mut Review, sliced: bool) -> (bool, bool) {
    let started = Instant::now();
    let mut news = false;
    loop {
        if review.explaining.is_none() && !next_mistake(review) {
            return (false, news);
        }
        let Some((index, explainer)) = review.explaining.as_mut() else {
            return (false, news);
        };
        if review.job.is_none() {
            let Some(search) = explainer.next_search() else {
                let index = *index;
                let done = review.explaining.take();
                if let Some(why) = done.and_then(|(_, explainer)| explainer.finish()) {
                    review.explained.insert(index, why);
                    news = true;
                }
                continue;
            };
            review.job = Some(Job::start(search, sliced));
        }
        let left = FRAME_SHARE.saturating_sub(started.elapsed());
        let Some(report) = review.job.as_mut().and_then(|job| job.poll(left)) else {
            return (true, news);
        };
        review.job = None;
        explainer.answer(&report);
        if left.is_zero() {
            return (true, news);
        }
    }
}

/// The next mistake or blunder to explain, from the position before it; false when none is
/// left.
fn next_mistake(review: &mut Review) -> bool {
    let Some(game) = &review.game else {
        return false;
    };
    while let Some(judged) = review.judged.get(review.explain_from) {
        let index = review.explain_from;
        review.explain_from += 1;
        if judged.quality < Quality::Mistake {
            continue;
        }
        let mut before = *game.start();
        for mv in game.moves().take(index) {
            if before.play(mv).is_err() {
                return false;
            }
        }
        let explainer = Explainer::new(&before, judged.played, judged.best, explain::DEPTH);
        if let Some(explainer) = explainer {
            review.explaining = Some((index, explainer));
            return true;
        }
    }
    false
}

/// For the page and its tests: how far the analysis is, and where its last search ran
/// (`data-analysis="12 of 30 moves, worker"`).
pub(super) fn show_progress(judged: usize, moves: usize, place: &str) {
    #[cfg(target_arch = "wasm32")]
    if let Some(canvas) = crate::game::platform::page::canvas() {
        let _ = canvas.set_attribute(
            "data-analysis",
            &format!("{judged} of {moves} moves, {place}"),
        );
    }
    #[cfg(not(target_arch = "wasm32"))]
    let _ = (judged, moves, place);
}
