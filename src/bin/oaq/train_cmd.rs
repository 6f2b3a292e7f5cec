//! `oaq train`: train the learned evaluation (`ai::network`) on self-play, reproducibly. Games
//! between searches of a fixed depth with the hand-written evaluation (a few random moves early
//! on, so that the games differ) give positions; each position after the last random move is
//! labelled by a blend of the search's value there and how the game ended, both from the side to
//! move, and the network learns what the hand-written evaluation misses of that label. Every
//! tenth game is held out to judge the network, never learnt from.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use o_an_quan::ai::network::train::{self, Sample, Settings};
use o_an_quan::ai::network::{self, file};
use o_an_quan::ai::{Limits, Search, Weights, eval};
use o_an_quan::rules::Position;
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::{Failure, arena, bounds, rules_arg, weights_arg};

#[derive(clap::Args)]
pub struct Args {
    /// A 2-player preset name (`oaq rules`) or a preset file.
    #[arg(long)]
    rules: String,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Self-play games, an even number up to 100000.
    #[arg(long, default_value_t = 4000, value_parser = bounds::games)]
    games: usize,
    /// Search depth of the self-play games and of their labels, 1 to 12.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(bounds::TUNE_DEPTH))]
    depth: u32,
    /// The label's share of the search's value, in percent; the rest is the game's end (0 to 100).
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u8).range(0..=100))]
    search_share: u8,
    /// Passes over the positions, 1 to 200.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=200))]
    epochs: u32,
    /// A network the self-play searches correct their evaluation by (a file `oaq train` wrote):
    /// a second round learns from games and labels the first one judged.
    #[arg(long)]
    from: Option<std::path::PathBuf>,
    /// Where to write the network.
    #[arg(long)]
    out: std::path::PathBuf,
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
        return Err(Failure("the network judges 2-player rule sets".into()));
    }
    weights_arg::check_writable(Some(&args.out))?;
    let from = choice(args.from.as_deref())?.flatten();
    if let Some(network) = &from
        && !network.serves(&rules)
    {
        return Err(Failure(
            "--from: the network was trained for other rules".into(),
        ));
    }
    let started = std::time::Instant::now();
    let (training, validation) = play_games(&args, rules, from.as_ref());
    if training.is_empty() || validation.is_empty() {
        return Err(Failure(
            "the games gave too few positions to train on: play more games".into(),
        ));
    }
    eprintln!(
        "{} games in {:.0} s: {} positions to learn from, {} held out (mirror images included); \
         mean squared error of the hand-written evaluation alone: {:.2} points² (held out {:.2})",
        args.games,
        started.elapsed().as_secs_f64(),
        training.len(),
        validation.len(),
        train::zero_error(&training),
        train::zero_error(&validation),
    );
    let settings = Settings {
        epochs: args.epochs,
        seed: args.seed,
        ..Settings::default()
    };
    let started = std::time::Instant::now();
    let network = train::train(rules, &training, &validation, settings, |e| {
        eprintln!(
            "epoch {:>3}: mean squared error {:.2} points², held out {:.2}",
            e.epoch, e.training, e.validation
        );
    });
    eprintln!("trained in {:.0} s", started.elapsed().as_secs_f64());
    std::fs::write(&args.out, file::write(&network))
        .map_err(|e| Failure(format!("{}: {e}", args.out.display())))?;
    Ok(())
}

/// The self-play games, on `args.jobs` threads: their positions to train on, and every tenth
/// game's held out to validate.
fn play_games(
    args: &Args,
    rules: o_an_quan::rules::RuleSet,
    from: Option<&std::sync::Arc<network::Network>>,
) -> (Vec<Sample>, Vec<Sample>) {
    let jobs = arena::jobs(args.jobs);
    let openings = arena::openings(rules, args.games, args.seed);
    let share = f32::from(args.search_share) / 100.0;
    let games: Vec<Mutex<Vec<Sample>>> = openings.iter().map(|_| Mutex::default()).collect();
    let bar = crate::fit_cmd::progress(args.games);
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
                        (args.depth, from.cloned()),
                        share,
                        (args.seed, game),
                    );
                    *games[game].lock().unwrap_or_else(|e| e.into_inner()) = samples;
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    // In the games' order, whichever thread played them: the same seed, the same samples.
    let mut training = Vec::new();
    let mut validation = Vec::new();
    for (game, samples) in games.into_iter().enumerate() {
        let samples = samples.into_inner().unwrap_or_else(|e| e.into_inner());
        if game % 10 == 9 {
            validation.extend(samples);
        } else {
            training.extend(samples);
        }
    }
    (training, validation)
}

/// One game from `opening`, both sides searching to `depth` with the shipped weights (and
/// `network`'s correction, if any): every position after the last random move, as it stands and
/// mirrored, with its label less the hand-written evaluation.
fn self_play(
    opening: Position,
    (depth, network): (u32, Option<std::sync::Arc<network::Network>>),
    share: f32,
    (seed, game): (u64, usize),
) -> Vec<Sample> {
    let mut rng = StdRng::seed_from_u64(seed ^ (game as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let weights = Weights::shipped();
    let mut pos = opening;
    // Each kept position with its search's value, in points for the side to move.
    let mut seen: Vec<(Position, f32)> = Vec::new();
    let start = pos.ply();
    while !pos.is_over() {
        let moves = pos.legal_moves();
        let explore = pos.ply() < start + EXPLORE_PLIES && rng.random_bool(EXPLORE_CHANCE);
        let mv = if explore {
            seen.clear();
            moves[rng.random_range(0..moves.len())]
        } else {
            let limits = Limits {
                depth: Some(depth),
                network: network.clone(),
                ..Limits::default()
            };
            let report = Search::new(pos, weights, limits).run();
            seen.push((pos, report.expected_margin()));
            report.best
        };
        pos.play_unchecked(mv);
    }
    // A game stopped by the move limit was not decided by the play: its end teaches nothing.
    if pos.ply() >= pos.rules().max_plies() {
        return Vec::new();
    }
    let mut samples = Vec::with_capacity(2 * seen.len());
    for (p, searched) in seen {
        let me = p.to_move();
        let end = (pos.score(me) - pos.score(1 - me)) as f32;
        let label = share * searched + (1.0 - share) * end;
        let hand = eval::evaluate(&p, me, &weights) as f32 / 100.0;
        for mirrored in [false, true] {
            samples.push(Sample {
                inputs: network::inputs(&p, mirrored),
                target: label - hand,
            });
        }
    }
    samples
}

/// A `--a-network`/`--b-network` argument: `None` for the level's own, `Some(None)` for `off`.
pub type Choice = Option<Option<std::sync::Arc<network::Network>>>;

/// Reads a `--a-network`/`--b-network` argument: a network file, or `off`.
pub fn choice(arg: Option<&std::path::Path>) -> Result<Choice, Failure> {
    match arg {
        None => Ok(None),
        Some(path) if path.as_os_str() == "off" => Ok(Some(None)),
        Some(path) => {
            let bytes =
                std::fs::read(path).map_err(|e| Failure(format!("{}: {e}", path.display())))?;
            let network = file::read(&bytes)
                .map_err(|e| Failure(format!("{}: not a network: {e}", path.display())))?;
            Ok(Some(Some(std::sync::Arc::new(network))))
        }
    }
}
