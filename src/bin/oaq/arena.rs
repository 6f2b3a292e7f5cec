//! Games between two engines from given openings, for `oaq match` and `oaq tune`.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressStyle};
use o_an_quan::rules::{Move, Position, RuleSet};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// A finished game, seen from engine A.
#[derive(Clone, Copy, Debug)]
pub struct GameResult {
    /// The opening's index: its two games share it.
    pub opening: usize,
    /// A moved first from the opening.
    pub a_first: bool,
    /// 1 win, 0.5 draw, 0 loss.
    pub points: f64,
    /// A's final score minus B's.
    pub margin: i32,
    /// Time of each engine's moves: [A, B] × (total, count, longest).
    pub time: [(Duration, u32, Duration); 2],
}

/// Games at once: as asked, or one per core.
pub fn jobs(asked: Option<u16>) -> usize {
    asked.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    )
}

/// Random two-move openings, reproducible from `seed`. Every game ends: by the rule set's move
/// limit, or at the longest game any rule set allows.
pub fn openings(rules: RuleSet, count: usize, seed: u64) -> Vec<Position> {
    let mut rng = StdRng::seed_from_u64(seed);
    (0..count)
        .map(|_| {
            loop {
                let mut pos = Position::new(rules);
                for _ in 0..2 {
                    let moves: Vec<Move> = pos
                        .legal_moves()
                        .iter()
                        .copied()
                        .filter(|&m| m != Move::Swap)
                        .collect();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
                }
                if !pos.is_over() {
                    break pos;
                }
            }
        })
        .collect()
}

/// Plays every opening twice, seats swapped, on `jobs` threads. `choose(engine, position, game)`
/// gives engine 0 (A) or 1 (B)'s move.
pub fn play_all<F>(openings: &[Position], jobs: usize, progress: bool, choose: F) -> Vec<GameResult>
where
    F: Fn(usize, &Position, usize) -> Move + Sync,
{
    let games = openings.len() * 2;
    let bar = if progress {
        ProgressBar::new(games as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template(
            "{bar:40} {pos}/{len} games, {elapsed} elapsed, about {eta} left",
        )
        .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::with_capacity(games));
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let game = next.fetch_add(1, Ordering::Relaxed);
                    if game >= games {
                        break;
                    }
                    let a_seat = game % 2;
                    let mut result = play_one(openings[game / 2], a_seat, |engine, pos| {
                        choose(engine, pos, game)
                    });
                    result.opening = game / 2;
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push(result);
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    results.into_inner().unwrap_or_else(|e| e.into_inner())
}

fn play_one(
    opening: Position,
    a_seat: usize,
    choose: impl Fn(usize, &Position) -> Move,
) -> GameResult {
    let mut pos = opening;
    let a_first = pos.to_move() == a_seat;
    let mut time = [(Duration::ZERO, 0, Duration::ZERO); 2];
    // After a swap the engines control the other seats.
    let mut a_seat = a_seat;
    while !pos.is_over() {
        let engine = usize::from(pos.to_move() != a_seat);
        let clock = web_time::Instant::now();
        let mv = choose(engine, &pos);
        let spent = clock.elapsed();
        let t = &mut time[engine];
        *t = (t.0 + spent, t.1 + 1, t.2.max(spent));
        if pos.play(mv).is_err() {
            unreachable!("engines only choose legal moves");
        }
        if mv == Move::Swap {
            a_seat = 1 - a_seat;
        }
    }
    let places = pos.places().unwrap_or([0; 3]);
    let b_seat = 1 - a_seat;
    let points = match places[a_seat].cmp(&places[b_seat]) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    };
    GameResult {
        opening: 0,
        a_first,
        points,
        margin: pos.score(a_seat) - pos.score(b_seat),
        time,
    }
}

/// `count` positions from games between quick searches with some random moves, reproducible from
/// `seed`: each game is followed to a random point, or with `until` to the first position it
/// accepts (a game that ends first gives none).
pub fn sample_positions(
    rules: RuleSet,
    count: usize,
    seed: u64,
    until: Option<&dyn Fn(&Position) -> bool>,
) -> Vec<Position> {
    let keep = |pos: &Position| until.is_none_or(|until| until(pos));
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found = Vec::with_capacity(count);
    let mut tries = 0;
    while found.len() < count && tries < count * 100 {
        tries += 1;
        let mut pos = openings(rules, 1, rng.random())[0];
        let stop_at = match until {
            Some(_) => u32::MAX,
            None => pos.ply() + rng.random_range(2..60),
        };
        while !pos.is_over() && pos.ply() < stop_at && (until.is_none() || !keep(&pos)) {
            let moves = pos.legal_moves();
            let mv = if rng.random_bool(0.2) {
                moves[rng.random_range(0..moves.len())]
            } else {
                let limits = o_an_quan::ai::Limits {
                    depth: Some(3),
                    ..Default::default()
                };
                o_an_quan::ai::Search::new(pos, o_an_quan::ai::Weights::shipped(), limits)
                    .run()
                    .best
            };
            pos.play_unchecked(mv);
        }
        if !pos.is_over() && keep(&pos) {
            found.push(pos);
        }
    }
    found
}
