//! `oaq bench`: search speed (nodes per second) and the depth reached in a fixed time, from the
//! opening and from fixed middle-game positions.

use std::time::Duration;

use o_an_quan::ai::{Limits, Search, Weights};
use o_an_quan::rules::{Move, Position};

use crate::{Failure, bounds, rules_arg};

#[derive(clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Thinking time per position, in seconds (up to 600).
    #[arg(long, default_value_t = 1.0, value_parser = bounds::seconds)]
    seconds: f64,
    /// Search each position to this depth instead (1 to 40), and report the time it took.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=40))]
    depth: Option<u32>,
    /// Search without late move reductions (as the levels up to Hard do).
    #[arg(long)]
    no_reductions: bool,
    /// Correct the evaluation by a learned one: a network file (`oaq train` writes one).
    #[arg(long)]
    network: Option<std::path::PathBuf>,
}

/// Games from the start: the opening, then middle games reached by these moves.
const POSITIONS: [&str; 6] = [
    "",
    "2- 7+ 3+ 9-",
    "4+ 6- 1- 8+ 5- 10-",
    "3- 8- 2+ 6+ 1+ 9+ 4- 7-",
    "5+ 10+ 1- 7- 3+ 6- 2- 8+",
    "1+ 6+ 4- 9- 2+ 10- 5- 7+ 3- 8-",
];

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = rules_arg::resolve(&args.rules)?;
    let network = crate::train_cmd::choice(args.network.as_deref())?.flatten();
    if let Some(network) = &network
        && !network.serves(&rules)
    {
        return Err(Failure("the network was trained for other rules".into()));
    }
    let mut total_nodes = 0;
    let mut total_time = Duration::ZERO;
    println!(
        "{:<34} {:>6} {:>12} {:>10} {:>9}",
        "position (moves from the start)", "depth", "nodes", "M nodes/s", "seconds"
    );
    for moves in POSITIONS {
        let mut pos = Position::new(rules);
        for text in moves.split_whitespace() {
            let mv: Move = text.parse()?;
            // A line that does not fit these rules stops where it stops being legal.
            if pos.play(mv).is_err() {
                break;
            }
        }
        if pos.is_over() {
            continue;
        }
        let limits = match args.depth {
            Some(depth) => Limits {
                depth: Some(depth),
                reductions: !args.no_reductions,
                ..Limits::default()
            },
            None => Limits {
                time: Some(Duration::from_secs_f64(args.seconds)),
                reductions: !args.no_reductions,
                ..Limits::default()
            },
        };
        let limits = Limits {
            network: network.clone(),
            ..limits
        };
        let report = Search::new(pos, Weights::shipped(), limits).run();
        total_nodes += report.nodes;
        total_time += report.elapsed;
        let label = if moves.is_empty() { "opening" } else { moves };
        println!(
            "{label:<34} {:>6} {:>12} {:>10.2} {:>9.3}{}",
            report.depth,
            report.nodes,
            report.nodes as f64 / report.elapsed.as_secs_f64() / 1e6,
            report.elapsed.as_secs_f64(),
            if report.solved { "  solved" } else { "" }
        );
    }
    println!(
        "all: {:.2} M nodes/s, {:.3} s",
        total_nodes as f64 / total_time.as_secs_f64() / 1e6,
        total_time.as_secs_f64()
    );
    Ok(())
}
