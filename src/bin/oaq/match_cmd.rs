//! `oaq match`: two levels play each other from random openings, both seats each.

use std::io::IsTerminal;
use std::time::Duration;

use o_an_quan::ai::{Level, Thinker};

use crate::arena::{self, GameResult};
use crate::paired::PairedMargin;
use crate::{Failure, bounds, rules_arg, weights_arg};

#[derive(clap::Args)]
#[command(allow_negative_numbers = true)]
pub struct Args {
    /// A 2-player preset name (`oaq rules`) or a preset file.
    #[arg(long)]
    rules: String,
    /// Level of engine A: 1 to 10, or easy, medium, hard, master.
    #[arg(long)]
    a: Level,
    /// Level of engine B.
    #[arg(long)]
    b: Level,
    /// Games in all, an even number up to 100000 (each opening is played twice, seats
    /// swapped).
    #[arg(long, default_value_t = 200, value_parser = bounds::games)]
    games: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at once, 1 to 256 (default: one per core); every engine searches on one
    /// thread.
    #[arg(long, value_parser = clap::value_parser!(u16).range(bounds::JOBS))]
    jobs: Option<u16>,
    /// Both levels' time per move multiplied by this (0.01 to 1), for shorter matches between
    /// levels that search as deep as their time allows.
    #[arg(long, default_value_t = 1.0, value_parser = bounds::time_scale)]
    time_scale: f64,
    /// Evaluation weights for A (a RON file as `oaq fit` writes); the shipped ones if left out.
    #[arg(long)]
    a_weights: Option<std::path::PathBuf>,
    /// Evaluation weights for B.
    #[arg(long)]
    b_weights: Option<std::path::PathBuf>,
    /// Late move reductions for A: `on` or `off` (default: the level's own, on for levels
    /// that search as deep as their time allows).
    #[arg(long)]
    a_reductions: Option<Switch>,
    /// Late move reductions for B.
    #[arg(long)]
    b_reductions: Option<Switch>,
    /// The endgame table A looks positions up in: a file (`oaq tablebase build` writes one) or
    /// `off` (default: the level's own, the shipped table for Master on `basic`).
    #[arg(long)]
    a_tablebase: Option<std::path::PathBuf>,
    /// The endgame table for B.
    #[arg(long)]
    b_tablebase: Option<std::path::PathBuf>,
    /// A learned evaluation A corrects its evaluation by: a file (`oaq train` writes one); `off`
    /// or left out: none (no level has one of its own).
    #[arg(long)]
    a_network: Option<std::path::PathBuf>,
    /// The learned evaluation for B.
    #[arg(long)]
    b_network: Option<std::path::PathBuf>,
}

/// A search feature turned on or off.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Switch {
    On,
    Off,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = rules_arg::resolve(&args.rules)?;
    if rules.players != 2 {
        return Err(Failure("match plays 2-player rule sets".into()));
    }
    // Loaded before the first game, so that no result depends on how soon it was.
    if o_an_quan::ai::tablebase::Tablebase::serves(&rules) {
        o_an_quan::ai::tablebase::shipped();
    }
    let openings = arena::openings(rules, args.games / 2, args.seed);
    let jobs = arena::jobs(args.jobs);
    let levels = [args.a, args.b].map(|level| scaled(level, args.time_scale));
    let weights = [
        weights_arg::read(args.a_weights.as_deref())?,
        weights_arg::read(args.b_weights.as_deref())?,
    ];
    let reductions = [args.a_reductions, args.b_reductions];
    let tables = [
        crate::tablebase_cmd::choice(args.a_tablebase.as_deref())?,
        crate::tablebase_cmd::choice(args.b_tablebase.as_deref())?,
    ];
    let networks = [
        crate::train_cmd::choice(args.a_network.as_deref())?,
        crate::train_cmd::choice(args.b_network.as_deref())?,
    ];
    let results = arena::play_all(
        &openings,
        jobs,
        std::io::stderr().is_terminal(),
        |engine, pos, game| {
            let seed =
                args.seed ^ (game as u64).wrapping_mul(0x9E37_79B9) ^ u64::from(pos.ply()) << 40;
            let thinker = Thinker::new(*pos, levels[engine], seed, None).weights(weights[engine]);
            let thinker = match &tables[engine] {
                Some(table) => thinker.tablebase(table.clone()),
                None => thinker,
            };
            let thinker = match &networks[engine] {
                Some(network) => thinker.network(network.clone()),
                None => thinker,
            };
            match reductions[engine] {
                Some(switch) => thinker.reductions(matches!(switch, Switch::On)),
                None => thinker,
            }
            .run()
            .mv
        },
    );
    print!("{}", summary(&args, &results));
    Ok(())
}

/// `level` with its time per move multiplied by `scale`.
pub fn scaled(mut level: Level, scale: f64) -> Level {
    level.time_ms = ((level.time_ms as f64 * scale).round() as u64).max(1);
    level
}

/// How A did over each opening's two games: openings decided by the seat, whoever holds it,
/// say little about the levels.
fn pairs(results: &[GameResult]) -> String {
    let mut by_opening = std::collections::BTreeMap::<usize, f64>::new();
    for r in results {
        *by_opening.entry(r.opening).or_default() += r.points;
    }
    let count = |lo: f64, hi: f64| by_opening.values().filter(|&&p| p >= lo && p <= hi).count();
    format!(
        "openings (both games): A won both {}, A ahead {}, even {}, B ahead {}, B won both {}\n",
        count(2.0, 2.0),
        count(1.5, 1.5),
        count(1.0, 1.0),
        count(0.5, 0.5),
        count(0.0, 0.0)
    )
}

fn summary(args: &Args, results: &[GameResult]) -> String {
    let n = results.len() as f64;
    let wins = results.iter().filter(|r| r.points == 1.0).count();
    let draws = results.iter().filter(|r| r.points == 0.5).count();
    let losses = results.len() - wins - draws;
    let points: f64 = results.iter().map(|r| r.points).sum();
    let margins: Vec<f64> = results.iter().map(|r| f64::from(r.margin)).collect();
    let mean = margins.iter().sum::<f64>() / n;
    let variance = margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    let half_width = 1.96 * (variance / n).sqrt();
    let mut text = format!(
        "{} games on {}: A (level {}) {wins} wins, {draws} draws, {losses} losses against B (level {}){}\n",
        results.len(),
        args.rules,
        args.a.level,
        args.b.level,
        if args.time_scale < 1.0 {
            format!(", time per move × {}", args.time_scale)
        } else {
            String::new()
        }
    );
    text += &format!("A scores {:.1}% (draws count half)\n", 100.0 * points / n);
    text +=
        &format!("score difference A - B per game: {mean:+.2} ± {half_width:.2} (95% interval)\n");
    text += &format!("{}\n", PairedMargin::of(results));
    text += &pairs(results);
    let first: Vec<f64> = results
        .iter()
        .map(|r| if r.a_first { r.points } else { 1.0 - r.points })
        .collect();
    text += &format!(
        "the side that moves first from the opening scores {:.1}%\n",
        100.0 * first.iter().sum::<f64>() / first.len().max(1) as f64
    );
    for (engine, name) in ["A", "B"].iter().enumerate() {
        let (total, count, longest) =
            results
                .iter()
                .fold((Duration::ZERO, 0, Duration::ZERO), |acc, r| {
                    let t = r.time[engine];
                    (acc.0 + t.0, acc.1 + t.1, acc.2.max(t.2))
                });
        let mean_ms = total.as_secs_f64() * 1000.0 / f64::from(count.max(1));
        text += &format!(
            "{name}: {count} moves, {mean_ms:.1} ms per move on average, longest {:.1} ms\n",
            longest.as_secs_f64() * 1000.0
        );
    }
    text
}
