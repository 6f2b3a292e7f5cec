//! `oaq fit`: fit the evaluation weights by regression on self-play, reproducibly. Each round
//! plays games between deep searches with the current weights (a few random moves early on, so
//! that the games differ), and fits the weights so that the evaluation of every position after
//! the last random move predicts how the game ended: the final margin of the side to move,
//! less what it had already scored.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use indicatif::{ProgressBar, ProgressStyle};
use o_an_quan::ai::eval::{self, FEATURES};
use o_an_quan::ai::{Limits, Search, Weights};
use o_an_quan::rules::Position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::regress::Regression;
use crate::{Failure, arena, bounds, rules_arg, weights_arg};

#[derive(clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// A 2-player preset name (`oaq rules`) or a preset file.
    #[arg(long)]
    rules: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Rounds of play and fit, each playing with the weights the last one fitted (1 to 20).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=20))]
    rounds: u16,
    /// Self-play games per round, an even number up to 100000.
    #[arg(long, default_value_t = 1000, value_parser = bounds::games)]
    games: usize,
    /// Search depth of the self-play games, 1 to 12.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(bounds::TUNE_DEPTH))]
    depth: u32,
    /// Fit to the value of a search this deep (1 to 16) from each position instead of to how
    /// the game ended: less noise, at the cost of that search.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=16))]
    target_depth: Option<u32>,
    /// Weights to start from (a RON file); the shipped ones if left out.
    #[arg(long)]
    from: Option<std::path::PathBuf>,
    /// Where to write the weights (RON); standard output if left out.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Games played at once, 1 to 256 (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(bounds::JOBS))]
    jobs: Option<u16>,
}

/// Plies after the opening in which a random move may be played, and the chance of one.
const EXPLORE_PLIES: u32 = 16;
const EXPLORE_CHANCE: f64 = 0.1;

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = rules_arg::resolve(&args.rules)?;
    if rules.players != 2 {
        return Err(Failure("fit plays 2-player rule sets".into()));
    }
    weights_arg::check_writable(args.out.as_deref())?;
    let jobs = arena::jobs(args.jobs);
    let mut weights = weights_arg::read(args.from.as_deref())?;
    for round in 0..u64::from(args.rounds) {
        let seed = args.seed.wrapping_add(round);
        let openings = arena::openings(rules, args.games, seed);
        let fit = Mutex::new(Regression::<FEATURES>::new());
        let bar = progress(args.games);
        let next = AtomicUsize::new(0);
        std::thread::scope(|scope| {
            for _ in 0..jobs.max(1) {
                scope.spawn(|| {
                    loop {
                        let game = next.fetch_add(1, Ordering::Relaxed);
                        if game >= openings.len() {
                            break;
                        }
                        let samples = self_play(
                            openings[game],
                            weights,
                            args.depth,
                            args.target_depth,
                            (seed, game),
                        );
                        let mut fit = fit.lock().unwrap_or_else(|e| e.into_inner());
                        for (x, y) in &samples {
                            fit.add(x, *y);
                        }
                        bar.inc(1);
                    }
                });
            }
        });
        bar.finish_and_clear();
        let fit = fit.into_inner().unwrap_or_else(|e| e.into_inner());
        let Some(fitted) = fit.solve(1e-6) else {
            return Err(Failure("the games gave too few positions to fit".into()));
        };
        let old = weights.to_array().map(|w| f64::from(w) / 100.0);
        let (old_error, variance) = fit.errors(&old);
        let new = fitted.map(|w| (w * 100.0).round() as i32);
        let (new_error, _) = fit.errors(&new.map(|w| f64::from(w) / 100.0));
        eprintln!(
            "round {round}: {} positions from {} games; mean squared error {old_error:.1} -> {new_error:.1} (target variance {variance:.1})",
            fit.samples(),
            args.games
        );
        for (name, (was, now)) in Weights::NAMES
            .iter()
            .zip(weights.to_array().into_iter().zip(new))
        {
            eprintln!("  {name:<16} {was:>6} -> {now:>6}");
        }
        weights = Weights::from_array(new);
    }
    let ron = ron::ser::to_string(&weights)?;
    match &args.out {
        Some(path) => std::fs::write(path, format!("{ron}\n"))
            .map_err(|e| Failure(format!("{}: {e}", path.display())))?,
        None => println!("{ron}"),
    }
    Ok(())
}

/// A bar of games played, on a terminal only.
pub fn progress(games: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(games as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, about {eta} left")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// One game from `opening`, both sides searching to `depth` with `weights`: the features of
/// every position after the last random move, from the side to move, and what the rest of the
/// game gave that side.
fn self_play(
    opening: Position,
    weights: Weights,
    depth: u32,
    target_depth: Option<u32>,
    (seed, game): (u64, usize),
) -> Vec<([f64; FEATURES], f64)> {
    let mut rng = StdRng::seed_from_u64(seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut pos = opening;
    let mut seen = Vec::new();
    let start = pos.ply();
    while !pos.is_over() {
        let moves = pos.legal_moves();
        let explore = pos.ply() < start + EXPLORE_PLIES && rng.random_bool(EXPLORE_CHANCE);
        let mv = if explore {
            seen.clear();
            moves[rng.random_range(0..moves.len())]
        } else {
            seen.push(pos);
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            Search::new(pos, weights, limits).run().best
        };
        pos.play_unchecked(mv);
    }
    // A game stopped by the move limit (endless borrowing, say) was not decided by the play:
    // its margin would teach nothing.
    if pos.ply() >= pos.rules().max_plies() {
        return Vec::new();
    }
    seen.iter()
        .map(|p| {
            let me = p.to_move();
            let them = 1 - me;
            let margin = |q: &Position| f64::from(q.score(me) - q.score(them));
            let outcome = match target_depth {
                Some(depth) => {
                    let limits = Limits {
                        depth: Some(depth),
                        ..Limits::default()
                    };
                    f64::from(Search::new(*p, weights, limits).run().expected_margin())
                }
                None => margin(&pos),
            };
            (eval::features(p, me), outcome - margin(p))
        })
        .collect()
}
