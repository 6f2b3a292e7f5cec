//! `oaq tune`: improve the evaluation weights by self-play, reproducibly. Each round changes one
//! weight by a step, plays the change against the current weights from the same openings, and
//! keeps it when it scores better.

use std::io::IsTerminal;

use o_an_quan::ai::{Limits, Search, Weights};

use crate::arena;
use crate::{Failure, bounds, rules_arg, weights_arg};

#[derive(clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// A 2-player preset name (`oaq rules`) or a preset file.
    #[arg(long)]
    rules: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Changes to try, up to 10000.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u16).range(0..=10_000))]
    rounds: u16,
    /// Games per trial, an even number up to 100000 (each opening twice, seats swapped).
    #[arg(long, default_value_t = 100, value_parser = bounds::games)]
    games: usize,
    /// Search depth of both sides during tuning, 1 to 12.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u32).range(bounds::TUNE_DEPTH))]
    depth: u32,
    /// Where to write the weights (RON); standard output if left out.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Games played at once, 1 to 256 (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(bounds::JOBS))]
    jobs: Option<u16>,
}

/// A change must score at least this share of the points to be kept.
const KEEP_ABOVE: f64 = 0.53;

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = rules_arg::resolve(&args.rules)?;
    if rules.players != 2 {
        return Err(Failure("tune plays 2-player rule sets".into()));
    }
    weights_arg::check_writable(args.out.as_deref())?;
    let jobs = arena::jobs(args.jobs);
    let mut weights = Weights::shipped().to_array();
    let mut steps = weights.map(|w| (w.abs() / 2).max(4));
    for round in 0..usize::from(args.rounds) {
        let index = round % weights.len();
        let sign = if (round / weights.len()).is_multiple_of(2) {
            1
        } else {
            -1
        };
        let mut candidate = weights;
        candidate[index] += sign * steps[index];
        let openings = arena::openings(rules, args.games / 2, args.seed.wrapping_add(round as u64));
        let sides = [Weights::from_array(candidate), Weights::from_array(weights)];
        let results = arena::play_all(
            &openings,
            jobs,
            std::io::stderr().is_terminal(),
            |engine, pos, _| {
                let limits = Limits {
                    depth: Some(args.depth),
                    ..Limits::default()
                };
                Search::new(*pos, sides[engine], limits).run().best
            },
        );
        let share = results.iter().map(|r| r.points).sum::<f64>() / results.len() as f64;
        let kept = share >= KEEP_ABOVE;
        if kept {
            weights = candidate;
        } else if sign < 0 {
            steps[index] = (steps[index] / 2).max(1);
        }
        eprintln!(
            "round {round}: weight {index} {} {} -> {:.1}% {}",
            if sign > 0 { '+' } else { '-' },
            steps[index],
            100.0 * share,
            if kept { "kept" } else { "dropped" }
        );
    }
    let ron = ron::ser::to_string(&Weights::from_array(weights))?;
    match &args.out {
        Some(path) => std::fs::write(path, format!("{ron}\n"))
            .map_err(|e| Failure(format!("{}: {e}", path.display())))?,
        None => println!("{ron}"),
    }
    Ok(())
}
