//! `oaq tablebase`: build an endgame table (resumable, with progress), or check one against the
//! search.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use o_an_quan::ai::tablebase::build::{Builder, MAX_ROUNDS};
use o_an_quan::ai::tablebase::index::MAX_STONES;
use o_an_quan::ai::tablebase::{Tablebase, file};

use o_an_quan::ai::{Limits, Search, Table, Weights, eval};
use o_an_quan::rules::presets;

use crate::{Failure, arena, bounds};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Compute every position's value with up to `--stones` small stones on the board, and write
    /// the table. The rounds done so far are saved beside it now and then, and a build that
    /// stopped goes on from them.
    Build(BuildArgs),
    /// Look up positions from self-play games with few enough stones, and search each without
    /// the table: how many the table knows, how many the search proves, and whether they agree.
    Check(CheckArgs),
}

#[derive(clap::Args)]
struct CheckArgs {
    /// The table file.
    #[arg(long)]
    file: PathBuf,
    /// Positions, 1 to 10,000.
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u16).range(1..=10_000))]
    positions: u16,
    /// Search time per position.
    #[arg(long, default_value_t = 1.0, value_parser = bounds::seconds)]
    seconds: f64,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

#[derive(clap::Args)]
struct BuildArgs {
    /// The most small stones on the board, 1 to 20 (the table has 4 × C(N + 12, 12) entries).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=i64::from(MAX_STONES)))]
    stones: u8,
    /// The table file to write.
    #[arg(long)]
    out: PathBuf,
    /// Stop unfinished after this many rounds, 1 to 65,535 (each round is one more move left).
    #[arg(long, default_value_t = 4000, value_parser = clap::value_parser!(u32).range(1..=i64::from(MAX_ROUNDS)))]
    rounds: u32,
}

pub fn run(args: Args) -> Result<(), Failure> {
    match args.command {
        Command::Build(args) => build(args),
        Command::Check(args) => check(args),
    }
}

/// The table in `path`, if one is named, or why it cannot be read.
pub fn read(path: Option<&Path>) -> Result<Option<std::sync::Arc<Tablebase>>, Failure> {
    let Some(path) = path else {
        return Ok(None);
    };
    let bytes = std::fs::read(path).map_err(|e| Failure(format!("{}: {e}", path.display())))?;
    let table = file::read(&bytes).map_err(|e| Failure(format!("{}: {e}", path.display())))?;
    Ok(Some(std::sync::Arc::new(table)))
}

/// A table chosen on the command line: `None` to leave the level's own, `Some(None)` for `off`,
/// else the file's table.
pub type Choice = Option<Option<std::sync::Arc<Tablebase>>>;

pub fn choice(arg: Option<&Path>) -> Result<Choice, Failure> {
    match arg {
        None => Ok(None),
        Some(path) if path.as_os_str() == "off" => Ok(Some(None)),
        Some(path) => Ok(Some(read(Some(path))?)),
    }
}

/// Where the rounds of an unfinished build are kept.
fn partial_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".partial");
    PathBuf::from(name)
}

/// How often the rounds are saved.
const SAVE_EVERY: Duration = Duration::from_secs(60);

fn build(args: BuildArgs) -> Result<(), Failure> {
    let started = Instant::now();
    let progress = |done: usize, all: usize| {
        eprint!("\rpositions: {done} of {all}");
        let _ = std::io::stderr().flush();
    };
    let mut builder = Builder::new(args.stones, &progress);
    eprintln!();
    println!(
        "{} boards, {} entries: {:.1} s",
        builder.indexer().len(),
        builder.entries(),
        started.elapsed().as_secs_f64()
    );
    let partial = partial_path(&args.out);
    if partial.exists() {
        let bytes = std::fs::read(&partial)?;
        let (round, values, changed_at) = file::read_round(&bytes, args.stones, builder.entries())
            .map_err(|e| Failure(format!("{}: {e}", partial.display())))?;
        builder.resume(round, values, changed_at)?;
        println!("resumed at round {round} from {}", partial.display());
    }
    let save = |builder: &Builder| {
        let (values, changed_at) = builder.last_round();
        std::fs::write(
            &partial,
            file::write_round(args.stones, builder.round(), values, changed_at),
        )
    };
    let mut saved = Instant::now();
    let period = loop {
        if builder.round() >= args.rounds {
            save(&builder)?;
            return Err(Failure(format!(
                "not settled after {} rounds; the last is saved in {}",
                builder.round(),
                partial.display()
            )));
        }
        let round_started = Instant::now();
        let (period, changed) = builder.step();
        println!(
            "round {:>4}: {changed:>10} entries changed ({:.2} s)",
            builder.round(),
            round_started.elapsed().as_secs_f64()
        );
        if let Some(period) = period {
            break period;
        }
        if saved.elapsed() >= SAVE_EVERY {
            save(&builder)?;
            saved = Instant::now();
        }
    };
    let values = builder.values(period);
    print_coverage(&builder, period);
    let settled = builder.round() - period as u32;
    let table = Tablebase::new(args.stones, settled, values)?;
    let exact = table.exact();
    let positions = builder.positions();
    std::fs::write(&args.out, file::write(&table))?;
    if partial.exists() {
        std::fs::remove_file(&partial)?;
    }
    println!(
        "{}: {exact} of {positions} positions exact ({:.3}%), rounds repeating every {period} \
         from {settled} moves left, {:.1} s",
        args.out.display(),
        100.0 * exact as f64 / positions.max(1) as f64,
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// How much of each count of stones and pieces the table settles: exact, open, cycling.
fn print_coverage(builder: &Builder, period: usize) {
    println!(
        "stones pieces {:>12} {:>7} {:>7} {:>7}",
        "positions", "exact", "open", "cycling"
    );
    let share = |part: u64, all: u64| 100.0 * part as f64 / all.max(1) as f64;
    for ((stones, pieces), c) in builder
        .coverage(period)
        .into_iter()
        .filter(|(_, c)| c.positions > 0)
    {
        println!(
            "{stones:>6} {pieces:>6} {:>12} {:>6.1}% {:>6.1}% {:>6.1}%",
            c.positions,
            share(c.exact, c.positions),
            share(c.open, c.positions),
            share(c.cycling, c.positions)
        );
    }
}

fn check(args: CheckArgs) -> Result<(), Failure> {
    let table = read(Some(&args.file))?.expect("a file was named");
    let rules = presets::get("basic").expect("basic is shipped").rules;
    let stones = table.stones();
    let board =
        |pos: &o_an_quan::rules::Position| pos.pits().iter().map(|&n| u32::from(n)).sum::<u32>();
    let positions = arena::sample_positions(
        rules,
        usize::from(args.positions),
        args.seed,
        Some(&|pos| board(pos) <= stones),
    );
    let (mut known, mut proved, mut both, mut disagree) = (0, 0, 0, 0);
    for pos in &positions {
        let value = table.probe(pos);
        let limits = Limits {
            time: Some(Duration::from_secs_f64(args.seconds)),
            ..Limits::default()
        };
        let report = Search::with_table(*pos, Weights::shipped(), limits, Table::new(64)).run();
        known += usize::from(value.is_some());
        proved += usize::from(report.solved);
        if let (Some((outcome, margin)), true) = (value, report.solved) {
            both += 1;
            let expected = eval::WIN * outcome + 100 * margin;
            if expected != report.score {
                disagree += 1;
                println!(
                    "differs: table {expected}, search {} at ply {}: {}",
                    report.score,
                    pos.ply(),
                    o_an_quan::state_json::to_line(pos)
                );
            }
        }
    }
    let n = positions.len().max(1) as f64;
    println!(
        "{} positions with at most {stones} stones: the table knows {known} ({:.1}%), a {}-second \
         search proves {proved} ({:.1}%), both {both}, differing {disagree}",
        positions.len(),
        100.0 * known as f64 / n,
        args.seconds,
        100.0 * proved as f64 / n,
    );
    if disagree > 0 {
        return Err(Failure(format!("{disagree} positions differ")));
    }
    Ok(())
}
