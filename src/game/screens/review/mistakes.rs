//! Once every move is judged, the mistakes worked on off the frame as the judging is: why each
//! gave points away (`ai::explain`), then each of the players' own (not the computer's) made a
//! puzzle to retry (`ai::retry`), added to the puzzles to practise.

use web_time::Instant;

use super::Review;
use crate::ai::explain::{self, Explainer};
use crate::ai::limits::Report;
use crate::ai::retry::Retrier;
use crate::ai::review::{DEFAULT_DEPTH, Quality};
use crate::ai::steps::Searches;
use crate::game::play::off_frame::{FRAME_SHARE, Job};
use crate::game::screens::practice::{PracticeStore, now_ms};
use crate::rules::presets;
use crate::session::Seat;

/// The next piece of work on the mistakes, within this frame's share. Returns whether work is
/// left, and whether an explanation or a puzzle came this frame (news for the caption and the
/// Retry button).
pub(super) fn work(
    review: &mut Review,
    practice: &mut PracticeStore,
    sliced: bool,
) -> (bool, bool) {
    let started = Instant::now();
    let mut news = false;
    while review.explaining.is_some() || next_mistake(review) {
        let Some((index, explainer)) = review.explaining.as_mut() else {
            break;
        };
        if !run(explainer, &mut review.job, sliced, started) {
            return (true, news);
        }
        let index = *index;
        let done = review.explaining.take();
        if let Some(why) = done.and_then(|(_, explainer)| explainer.finish()) {
            review.explained.insert(index, why);
            news = true;
        }
    }
    if review.retrying.is_none() {
        review.retrying = Some(retriers(review));
    }
    while let Some(retrier) = review.retrying.as_mut().and_then(|r| r.last_mut()) {
        if !run(retrier, &mut review.job, sliced, started) {
            return (true, news);
        }
        let done = review.retrying.as_mut().and_then(Vec::pop);
        if let Some(puzzle) = done.and_then(Retrier::finish) {
            review.retries.push(puzzle);
            // The Retry button comes on.
            news = true;
        }
        // All made: the player meets them again by the schedule.
        if review.retrying.as_ref().is_some_and(Vec::is_empty) && !review.retries.is_empty() {
            practice.add(review.retries.clone(), now_ms());
        }
    }
    (false, news)
}

/// Runs `work`'s searches through `job` for what is left of the frame's share: true once
/// every one is answered.
fn run(
    work: &mut dyn Searches,
    job: &mut Option<Job<Report>>,
    sliced: bool,
    started: Instant,
) -> bool {
    loop {
        if job.is_none() {
            let Some(search) = work.next_search() else {
                return true;
            };
            *job = Some(Job::start(search, sliced));
        }
        let left = FRAME_SHARE.saturating_sub(started.elapsed());
        let Some(report) = job.as_mut().and_then(|job| job.poll(left)) else {
            return false;
        };
        *job = None;
        work.answer(&report);
        if left.is_zero() {
            return false;
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

/// A retrier for each mistake of a player of this device (the smallest first: they are made
/// from the end of the list), for a game of a preset played from its start.
fn retriers(review: &Review) -> Vec<Retrier> {
    let Some(game) = &review.game else {
        return Vec::new();
    };
    let preset = presets::get(&game.preset);
    if preset.is_none_or(|p| p.rules != *game.start().rules()) || game.start().ply() != 0 {
        return Vec::new();
    }
    let moves: Vec<_> = game.moves().collect();
    let mut all: Vec<Retrier> = (0..game.seats().len())
        .filter(|&player| game.seats()[player] == Seat::Human)
        .flat_map(|player| {
            Retrier::of_game(&game.preset, &moves, &review.judged, player, DEFAULT_DEPTH)
        })
        .collect();
    // Made from the end of the list: the smallest first, so that the biggest come first.
    all.sort_by(|a, b| a.loss().total_cmp(&b.loss()));
    all
}
