//! `oaq rate`: every level on one rating scale. Paired matches between levels (each opening
//! played twice, seats swapped) for every pair of levels at most `--span` apart, then a
//! Bradley–Terry fit on the Elo scale with level 1 at `--anchor`. By default each opening's pair
//! of games counts as one result (won by the level with the better paired margin, drawn when
//! the margins are level): between levels that see far, the first mover wins nearly every game,
//! so single games say who moved first more than who played better.

use std::io::IsTerminal;

use o_an_quan::ai::{Level, Ratings, Thinker};

use crate::arena::GameResult;
use crate::paired::{self, PairedMargin};
use crate::{Failure, arena, bounds, rules_arg};

#[derive(clap::Args)]
pub struct Args {
    /// A 2-player preset name (`oaq rules`) or a preset file.
    #[arg(long, default_value = "basic")]
    rules: String,
    /// Games per pair of levels, an even number up to 100000.
    #[arg(long, default_value_t = 40, value_parser = bounds::games)]
    games: usize,
    /// Pairs of levels at most this far apart play each other (1 to 9).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=9))]
    span: u8,
    /// Every level's time per move multiplied by this (0.01 to 1): the levels that search as
    /// deep as their time allows keep their order at a fraction of the cost.
    #[arg(long, default_value_t = 1.0, value_parser = bounds::time_scale)]
    time_scale: f64,
    /// The rating of level 1.
    #[arg(long, default_value_t = 1000.0)]
    anchor: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Where to write the ratings (RON); only printed if left out.
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Games played at once, 1 to 256 (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(bounds::JOBS))]
    jobs: Option<u16>,
    /// What one result is: each opening's pair of games, by its paired margin (`pairs`), or
    /// each game by who won it (`games`).
    #[arg(long, value_enum, default_value_t = Scoring::Pairs)]
    by: Scoring,
}

/// The unit a rating's results are counted in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Scoring {
    Pairs,
    Games,
}

impl Scoring {
    /// The name the command line takes.
    fn name(self) -> &'static str {
        match self {
            Scoring::Pairs => "pairs",
            Scoring::Games => "games",
        }
    }
}

/// A's points and the number of results in a match, counted `by` pairs or games.
fn score(results: &[GameResult], by: Scoring) -> (f64, f64) {
    match by {
        Scoring::Games => (results.iter().map(|r| r.points).sum(), results.len() as f64),
        Scoring::Pairs => {
            let pairs = paired::pair_margins(results);
            let won = |margin: f64| match margin.partial_cmp(&0.0) {
                Some(std::cmp::Ordering::Greater) => 1.0,
                Some(std::cmp::Ordering::Equal) => 0.5,
                _ => 0.0,
            };
            (pairs.iter().map(|&m| won(m)).sum(), pairs.len() as f64)
        }
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = rules_arg::resolve(&args.rules)?;
    if rules.players != 2 {
        return Err(Failure("rate plays 2-player rule sets".into()));
    }
    let levels: Vec<Level> = (1..=10)
        .filter_map(Level::get)
        .map(|level| crate::match_cmd::scaled(level, args.time_scale))
        .collect();
    let n = levels.len();
    // wins[i][j]: points of level i against level j; games[i][j]: games between them.
    let mut wins = vec![vec![0.0; n]; n];
    let mut games = vec![vec![0.0; n]; n];
    let jobs = arena::jobs(args.jobs);
    for i in 0..n {
        for j in i + 1..n.min(i + 1 + usize::from(args.span)) {
            let pair = [levels[j], levels[i]];
            let openings = arena::openings(rules, args.games / 2, args.seed ^ (i * 16 + j) as u64);
            let results = arena::play_all(
                &openings,
                jobs,
                std::io::stderr().is_terminal(),
                |engine, pos, game| {
                    let seed = args.seed
                        ^ (game as u64).wrapping_mul(0x9E37_79B9)
                        ^ u64::from(pos.ply()) << 40;
                    Thinker::new(*pos, pair[engine], seed, None).run().mv
                },
            );
            let (points, count) = score(&results, args.by);
            wins[j][i] += points;
            wins[i][j] += count - points;
            games[i][j] += count;
            games[j][i] += count;
            let (game_points, _) = score(&results, Scoring::Games);
            println!(
                "level {:>2} vs {:>2}: {:>5.1}% of {}, {:>5.1}% of games; {}",
                levels[j].level,
                levels[i].level,
                100.0 * points / count.max(1.0),
                args.by.name(),
                100.0 * game_points / results.len().max(1) as f64,
                PairedMargin::of(&results)
            );
        }
    }
    let ratings = bradley_terry(&wins, &games, args.anchor);
    let file = Ratings {
        rules: args.rules.clone(),
        games_per_pair: args.games,
        span: args.span,
        time_scale: args.time_scale,
        seed: args.seed,
        scored_by: args.by.name().to_owned(),
        ratings: levels
            .iter()
            .zip(&ratings)
            .map(|(l, r)| (l.level, (r / 10.0).round() as i32 * 10))
            .collect(),
    };
    for (level, rating) in &file.ratings {
        println!("level {level:>2}: {rating}");
    }
    if let Some(path) = &args.out {
        let config = ron::ser::PrettyConfig::new().depth_limit(1);
        let text = ron::ser::to_string_pretty(&file, config)? + "\n";
        std::fs::write(path, text).map_err(|e| Failure(format!("{}: {e}", path.display())))?;
    }
    Ok(())
}

/// Elo-scale ratings from points and games between players (Hunter's MM iteration), with one
/// drawn game added to every pair that played so that a player who won every game still has a
/// finite rating. Player 0 is rated `anchor`.
fn bradley_terry(wins: &[Vec<f64>], games: &[Vec<f64>], anchor: f64) -> Vec<f64> {
    let n = wins.len();
    let prior = |i: usize, j: usize| if games[i][j] > 0.0 { 1.0 } else { 0.0 };
    let mut strength = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = strength.clone();
        for i in 0..n {
            let won: f64 = (0..n).map(|j| wins[i][j] + 0.5 * prior(i, j)).sum();
            let denominator: f64 = (0..n)
                .filter(|&j| j != i)
                .map(|j| (games[i][j] + prior(i, j)) / (strength[i] + strength[j]))
                .sum();
            if denominator > 0.0 {
                next[i] = won / denominator;
            }
        }
        // Only ratios matter: keep the scale from drifting.
        let norm = next[0];
        next.iter_mut().for_each(|s| *s /= norm);
        let change = next
            .iter()
            .zip(&strength)
            .map(|(a, b)| (a / b).ln().abs())
            .fold(0.0, f64::max);
        strength = next;
        if change < 1e-12 {
            break;
        }
    }
    strength
        .iter()
        .map(|s| anchor + 400.0 * s.log10())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fit_gives_the_elo_gap_of_the_score() {
        // B scores 75.76% against A over 1000 games: 200 Elo points (1 / (1 + 10^-0.5)).
        let share = 1.0 / (1.0 + 10f64.powf(-0.5));
        let wins = vec![vec![0.0, 1000.0 * (1.0 - share)], vec![1000.0 * share, 0.0]];
        let games = vec![vec![0.0, 1000.0], vec![1000.0, 0.0]];
        let ratings = bradley_terry(&wins, &games, 1000.0);
        assert_eq!(ratings[0], 1000.0);
        // The one added draw pulls the gap in a little.
        assert!((ratings[1] - 1200.0).abs() < 2.0, "{ratings:?}");
    }

    fn game(opening: usize, margin: i32) -> GameResult {
        GameResult {
            opening,
            a_first: opening.is_multiple_of(2),
            points: match margin.signum() {
                1 => 1.0,
                0 => 0.5,
                _ => 0.0,
            },
            margin,
            time: [(std::time::Duration::ZERO, 0, std::time::Duration::ZERO); 2],
        }
    }

    #[test]
    fn pairs_are_won_by_the_better_paired_margin() {
        // Opening 0: each side wins its first-mover game, A by more (+12, -4): A's pair.
        // Opening 1: +5 and -5: a drawn pair. Opening 2: -3 and -1: B's. Opening 3: one game.
        let results = [
            game(0, 12),
            game(0, -4),
            game(1, 5),
            game(1, -5),
            game(2, -3),
            game(2, -1),
            game(3, 9),
        ];
        assert_eq!(score(&results, Scoring::Pairs), (1.5, 3.0));
        assert_eq!(score(&results, Scoring::Games), (3.0, 7.0));
    }

    #[test]
    fn a_clean_sweep_stays_finite_and_order_follows_the_chain() {
        // 0 < 1 < 2, each winning every game against the one below; 0 and 2 never met.
        let wins = vec![
            vec![0.0, 0.0, 0.0],
            vec![10.0, 0.0, 0.0],
            vec![0.0, 10.0, 0.0],
        ];
        let games = vec![
            vec![0.0, 10.0, 0.0],
            vec![10.0, 0.0, 10.0],
            vec![0.0, 10.0, 0.0],
        ];
        let r = bradley_terry(&wins, &games, 1000.0);
        assert!(r.iter().all(|x| x.is_finite()));
        assert!(r[0] < r[1] && r[1] < r[2], "{r:?}");
    }
}
