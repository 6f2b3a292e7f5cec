//! The engine's judgement of every move, off the frame, and its progress for the page.

use bevy::prelude::*;
use web_time::Instant;

use super::Review;
use crate::game::play::off_frame::{FRAME_SHARE, Job};
use crate::game::screens::practice::PracticeStore;
use crate::game::screens::puzzles::Practise;
use crate::game::state::{
    AnalysedGame, Analysis, Launch, Message, Note, RetryWhenReady, Wake, Working,
};

/// The engine judges the moves one search each, off the frame: in the thread pool, or on the
/// web in the thinking worker (in slices of the frame's share where there is none).
pub(super) fn analyse(
    mut review: ResMut<Review>,
    mut analysis: ResMut<Analysis>,
    mut wake: ResMut<Wake>,
    mut working: ResMut<Working>,
    (launch, mut practice): (Res<Launch>, ResMut<PracticeStore>),
    (mut commands, retry_when_ready, mut message): (
        Commands,
        Option<Res<RetryWhenReady>>,
        ResMut<Message>,
    ),
) {
    // The search's own progress is not news: the screen is redrawn only when a move is judged.
    let inner = review.bypass_change_detection();
    let Some(reviewer) = inner.reviewer.as_mut() else {
        // Every move judged: the mistakes explained and made puzzles, one after another.
        let (busy, news) = super::mistakes::work(inner, &mut practice, launch.sliced_ai);
        working.set_if_neq(Working(busy));
        // Asked from the end of the game: on to the puzzles once they are made (if any).
        if !busy && retry_when_ready.is_some() {
            commands.remove_resource::<RetryWhenReady>();
            if inner.retries.is_empty() {
                // Nothing to retry: the review stays, and says why.
                message.set(Note::text("review.no_retries", &[]));
            } else {
                commands.trigger(Practise(inner.retries.clone()));
            }
        }
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
