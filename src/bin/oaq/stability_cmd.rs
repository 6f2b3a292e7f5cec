//! `oaq stability`: how well the value of a depth-d search predicts that of depth d + 2, with
//! and without the capture search at the horizon (`Limits::quiescence`). Values that jump
//! between depths are values the evaluation did not get right.

use o_an_quan::ai::{Limits, Search};

use crate::{Failure, arena, rules_arg, weights_arg};

#[derive(clap::Args)]
pub struct Args {
    #[arg(long, default_value = "standard")]
    rules: String,
    /// Depth d, 1 to 14.
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(1..=14))]
    depth: u32,
    /// Positions to look at (from quick self-play games), 1 to 10000.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u16).range(1..=10_000))]
    positions: u16,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Evaluation weights (a RON file); the shipped ones if left out.
    #[arg(long)]
    weights: Option<std::path::PathBuf>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = rules_arg::resolve(&args.rules)?;
    let weights = weights_arg::read(args.weights.as_deref())?;
    let positions = arena::sample_positions(rules, usize::from(args.positions), args.seed, None);
    println!(
        "{} positions on {}, depth {} against depth {}:",
        positions.len(),
        args.rules,
        args.depth,
        args.depth + 2
    );
    for quiescence in [false, true] {
        let mut nodes = 0;
        let mut errors = Vec::new();
        let mut agree = 0;
        for pos in &positions {
            let mut value = |depth| {
                let limits = Limits {
                    depth: Some(depth),
                    quiescence,
                    ..Limits::default()
                };
                let report = Search::new(*pos, weights, limits).run();
                nodes += report.nodes;
                (report.expected_margin(), report.best)
            };
            let (shallow, shallow_best) = value(args.depth);
            let (deep, deep_best) = value(args.depth + 2);
            errors.push(f64::from(deep - shallow));
            agree += usize::from(shallow_best == deep_best);
        }
        let n = errors.len().max(1) as f64;
        let mean_abs = errors.iter().map(|e| e.abs()).sum::<f64>() / n;
        let rms = (errors.iter().map(|e| e * e).sum::<f64>() / n).sqrt();
        let bias = errors.iter().sum::<f64>() / n;
        println!(
            "  {:<22} mean |difference| {mean_abs:.2} points, root mean square {rms:.2}, bias {bias:+.2}; same best move {:.1}%; {:.0} nodes a position",
            if quiescence {
                "with capture search"
            } else {
                "evaluation at once"
            },
            100.0 * agree as f64 / n,
            nodes as f64 / n
        );
    }
    Ok(())
}
