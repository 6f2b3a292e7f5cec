//! `oaq endgame`: from how many stones on the board a search proves the game's exact result in
//! its time. For each count, positions from self-play games with that many stones left (or
//! fewer, the first such of each game) are searched as Master would, on one core.

use std::time::Duration;

use o_an_quan::ai::{Level, Limits, Search, Table, Weights};
use o_an_quan::rules::Position;

use crate::{Failure, arena, bounds, rules_arg};

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Stone counts to try, from this many down in steps of 2.
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(2..=105))]
    stones: u32,
    /// The fewest stones to try.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(2..=105))]
    down_to: u32,
    /// Positions per count, 1 to 1000.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u16).range(1..=1000))]
    positions: u16,
    /// Time per position (default: Master's).
    #[arg(long, value_parser = bounds::seconds)]
    seconds: Option<f64>,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Prove only who wins (a win, draw or loss), not by how much.
    #[arg(long)]
    outcome: bool,
}

fn board_stones(pos: &Position) -> u32 {
    pos.pits().iter().map(|&n| u32::from(n)).sum()
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = rules_arg::resolve(&args.rules)?;
    let time = args.seconds.map_or(
        Duration::from_millis(Level::master().time_ms),
        Duration::from_secs_f64,
    );
    println!(
        "{:>6} {:>10} {:>8} {:>14} {:>8}",
        "stones", "positions", "proved", "mean seconds", "depth"
    );
    let mut count = args.stones;
    while count >= args.down_to {
        let positions = arena::sample_positions(
            rules,
            usize::from(args.positions),
            args.seed ^ u64::from(count) << 32,
            Some(&|pos| board_stones(pos) <= count),
        );
        let (mut proved, mut seconds, mut depth) = (0, 0.0, 0);
        for pos in &positions {
            let limits = Limits {
                time: Some(time),
                outcome_only: args.outcome,
                ..Limits::default()
            };
            let report = Search::with_table(*pos, Weights::shipped(), limits, Table::new(64)).run();
            proved += usize::from(report.solved);
            seconds += report.elapsed.as_secs_f64();
            depth += report.depth;
        }
        let n = positions.len().max(1);
        println!(
            "{count:>6} {:>10} {:>7.0}% {:>14.3} {:>8.1}",
            positions.len(),
            100.0 * proved as f64 / n as f64,
            seconds / n as f64,
            f64::from(depth) / n as f64
        );
        count = count.saturating_sub(2);
        if count < 2 {
            break;
        }
    }
    Ok(())
}
