//! `oaq perft`: move-sequence counts from the start position, with the speed of the count.

use std::time::Instant;

use o_an_quan::rules::{Position, perft};

use crate::{Failure, bounds, rules_arg};

#[derive(clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// A preset name (`oaq rules`) or a preset file.
    #[arg(long)]
    rules: String,
    /// Count sequences of 1 to this many moves (at most 12).
    #[arg(long, value_parser = clap::value_parser!(u32).range(bounds::PERFT_DEPTH))]
    depth: u32,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let start = Position::new(rules_arg::resolve(&args.rules)?);
    for depth in 1..=args.depth {
        let clock = Instant::now();
        let nodes = perft(&start, depth);
        let seconds = clock.elapsed().as_secs_f64();
        let rate = nodes as f64 / seconds.max(1e-9);
        println!(
            "depth {depth:>2}  {nodes:>14}  {seconds:>9.3} s  {:>8.1} M nodes/s",
            rate / 1e6
        );
    }
    Ok(())
}
