//! Which puzzles come, and in what order: the set by rating (of a theme or a difficulty), the
//! daily puzzle and its archive, a Streak, a Storm; the Storm's clock.

use bevy::prelude::*;

use super::{PuzzleBoard, Said};
use crate::ai::puzzle::{Difficulty, Puzzle};
use crate::ai::theme::Theme;
use crate::game::screens::practice::now_ms;
use crate::session::puzzle_runs::{ARCHIVE_DAYS, Storm, daily_index, day_of, rising};
use crate::session::{PuzzleProgress, PuzzleRating};

/// A Streak starts here and climbs a band at a time.
const STREAK_FROM: u16 = 1000;
const STREAK_BAND: u16 = 25;
/// A Storm climbs faster, from the easiest, one-step puzzles only (it is against the clock).
const STORM_FROM: u16 = 1000;
const STORM_BAND: u16 = 10;

/// How the puzzles are being played.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Run {
    /// The set, nearest the player's rating first (of a theme or a difficulty when chosen).
    #[default]
    Browse,
    /// The daily puzzle of a day: today's, or one of the archive.
    Daily(i64),
    /// Puzzles of rising rating until the first miss: `list` by index, `over` once missed.
    Streak { list: Vec<usize>, over: bool },
    /// Three minutes: as many as can be solved; a miss costs seconds. `over` once the time is
    /// up.
    Storm {
        list: Vec<usize>,
        storm: Storm,
        over: bool,
    },
}

impl Run {
    /// A Streak or a Storm still under way: moving on is not the player's choice there.
    pub fn is_timed_or_chained(&self) -> bool {
        matches!(
            self,
            Run::Streak { over: false, .. } | Run::Storm { over: false, .. }
        )
    }

    /// A Storm whose clock runs: its caption changes each second.
    pub fn is_storm_running(&self) -> bool {
        matches!(self, Run::Storm { over: false, .. })
    }
}

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        storm_clock
            .run_if(in_state(crate::game::state::Screen::Puzzles))
            .in_set(crate::game::state::GameSet::Think),
    );
}

/// The puzzles of the current run, by index in the set, in the order they come.
pub fn chosen(board: &PuzzleBoard, rating: &PuzzleRating) -> Vec<usize> {
    let (puzzles, _) = board.set();
    if board.own.is_some() {
        return (0..puzzles.len()).collect();
    }
    match &board.run {
        Run::Browse => browse(puzzles, board.difficulty, board.theme, rating),
        Run::Daily(_) => archive(puzzles.len()),
        Run::Streak { list, .. } | Run::Storm { list, .. } => list.clone(),
    }
}

/// The set, by rating here (easiest first), of the difficulty and theme chosen.
fn browse(
    puzzles: &[Puzzle],
    difficulty: Option<Difficulty>,
    theme: Option<Theme>,
    rating: &PuzzleRating,
) -> Vec<usize> {
    let mut list: Vec<(usize, i64)> = puzzles
        .iter()
        .enumerate()
        .filter(|(_, p)| difficulty.is_none_or(|d| p.difficulty == d))
        .filter(|(_, p)| theme.is_none_or(|t| p.themes.contains(&t)))
        .map(|(i, p)| (i, rating.of(p).rating as i64))
        .collect();
    list.sort_by_key(|&(i, r)| (r, i));
    list.into_iter().map(|(i, _)| i).collect()
}

/// The days of the daily puzzle's archive, oldest first: today and the [`ARCHIVE_DAYS`] - 1
/// before.
pub fn archive_days() -> std::ops::RangeInclusive<i64> {
    let today = day_of(now_ms());
    today - ARCHIVE_DAYS + 1..=today
}

/// The daily puzzles of the archive, oldest first.
fn archive(count: usize) -> Vec<usize> {
    archive_days()
        .filter_map(|d| daily_index(d, count))
        .collect()
}

/// Where the run starts: nearest the player's rating among those not solved yet (browsing),
/// the day's puzzle, or the run's first.
pub fn first(board: &PuzzleBoard, list: &[usize], progress: &PuzzleProgress) -> Option<usize> {
    let (puzzles, _) = board.set();
    match &board.run {
        _ if board.own.is_some() => list.first().copied(),
        Run::Browse => {
            let mine = progress.rating.rating() - 100;
            let open = |&&i: &&usize| !progress.solved.contains(&puzzles[i].id);
            list.iter()
                .filter(open)
                .find(|&&i| progress.rating.of(&puzzles[i]).rating as i32 >= mine)
                .or_else(|| list.iter().find(open))
                .or(list.first())
                .copied()
        }
        Run::Daily(day) => daily_index(*day, puzzles.len()),
        Run::Streak { list, .. } | Run::Storm { list, .. } => list.first().copied(),
    }
}

/// A new Streak: one puzzle from each band of rating from the easiest up, a new choice each
/// time.
pub fn new_streak(board: &PuzzleBoard) -> Run {
    let (puzzles, _) = board.set();
    let rated: Vec<(usize, u16)> = puzzles
        .iter()
        .enumerate()
        .map(|(i, p)| (i, p.first_rating()))
        .collect();
    Run::Streak {
        list: rising(&rated, STREAK_FROM, STREAK_BAND, now_ms() as u64),
        over: false,
    }
}

/// A new Storm: one-step puzzles, rising quickly, the clock started.
pub fn new_storm(board: &PuzzleBoard) -> Run {
    let (puzzles, _) = board.set();
    let rated: Vec<(usize, u16)> = puzzles
        .iter()
        .enumerate()
        .filter(|(_, p)| p.line.len() == 1)
        .map(|(i, p)| (i, p.first_rating()))
        .collect();
    let now = now_ms();
    Run::Storm {
        list: rising(&rated, STORM_FROM, STORM_BAND, now as u64),
        storm: Storm::new(now),
        over: false,
    }
}

/// The Storm's time runs out: it is over, and the best kept.
fn storm_clock(
    mut board: ResMut<PuzzleBoard>,
    mut progress: ResMut<super::Progress>,
    mut phase: ResMut<crate::game::state::Phase>,
    mut wake: ResMut<crate::game::state::Wake>,
) {
    let now = now_ms();
    let Run::Storm { storm, over, .. } = &board.run else {
        return;
    };
    if *over {
        return;
    }
    let left = storm.left_ms(now);
    if left > 0 {
        // The game sleeps between inputs: the clock asks for the frame of its next second.
        let next = u64::try_from(left % 1000).unwrap_or(0) + 1;
        wake.bypass_change_detection()
            .within(std::time::Duration::from_millis(next));
        return;
    }
    let solved = storm.solved;
    if let Run::Storm { over, .. } = &mut board.run {
        *over = true;
    }
    board.said = Said::StormOver(solved);
    progress.storm_ended(solved);
    *phase = crate::game::state::Phase::Over;
}
