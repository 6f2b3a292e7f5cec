//! `oaq book build`: search the opening book's positions of a preset and write its book file,
//! after every position, so that a stopped build resumes where it stopped.

use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use o_an_quan::ai::book::{self, BookEntry, BookFile};
use o_an_quan::ai::{Limits, Search, Table, Weights};
use o_an_quan::rules::{Move, Position, presets};

use crate::{Failure, arena, bounds};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Search every book position of a preset and write (or complete) its book file.
    Build(BuildArgs),
}

#[derive(clap::Args)]
struct BuildArgs {
    /// A 2-player preset's id (`oaq rules`).
    #[arg(long)]
    rules: String,
    /// Search time per position, in seconds (up to 600); the start, which Master meets in
    /// every game it opens, gets three times as long.
    #[arg(long, default_value_t = 60.0, value_parser = bounds::seconds)]
    seconds: f64,
    /// The book file to write; its entries searched at least as long are kept, so that a build
    /// that stopped goes on. Default: assets/ai/book/ID.ron.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Positions searched at once, 1 to 256 (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(bounds::JOBS))]
    jobs: Option<u16>,
}

/// The start's search time, in multiples of the others'.
const START_FACTOR: f64 = 3.0;

/// Transposition table per search: a minute's search fills a large one.
const TABLE_MEGABYTES: usize = 256;

pub fn run(args: Args) -> Result<(), Failure> {
    match args.command {
        Command::Build(args) => build(args),
    }
}

fn build(args: BuildArgs) -> Result<(), Failure> {
    let preset = presets::get(&args.rules).ok_or_else(|| {
        Failure(format!(
            "no preset {}: a book is built for a preset",
            o_an_quan::excerpt::quoted(&args.rules)
        ))
    })?;
    if preset.rules.players != 2 {
        return Err(Failure("books are built for 2-player presets".into()));
    }
    let out = args
        .out
        .clone()
        .unwrap_or_else(|| Path::new("assets/ai/book").join(format!("{}.ron", preset.id)));
    let kept = read_existing(&out, &preset.id, args.seconds)?;
    let start = Position::new(preset.rules);
    let lines = BookFile::lines(start);
    let todo: Vec<&Vec<Move>> = lines
        .iter()
        .filter(|line| !kept.iter().any(|e| e.moves == notation(line)))
        .collect();
    eprintln!(
        "{}: {} positions, {} kept from {}, {} to search at {} s each",
        preset.id,
        lines.len(),
        lines.len() - todo.len(),
        out.display(),
        todo.len(),
        args.seconds
    );
    let file = Mutex::new(BookFile {
        preset: preset.id.clone(),
        entries: kept,
    });
    let next = AtomicUsize::new(0);
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..arena::jobs(args.jobs).max(1) {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(line) = todo.get(index) else { break };
                    let seconds = if line.is_empty() {
                        args.seconds * START_FACTOR
                    } else {
                        args.seconds
                    };
                    let entry = search(start, line, seconds);
                    eprintln!(
                        "{:<8} depth {:>2}{} best {} ({:+.2})",
                        if entry.moves.is_empty() {
                            "start"
                        } else {
                            &entry.moves
                        },
                        entry.depth,
                        if entry.solved { ", solved," } else { "" },
                        entry.values[0].0,
                        f64::from(entry.values[0].1) / 100.0
                    );
                    let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
                    file.entries.push(entry);
                    sort(&mut file.entries, &lines);
                    if let Err(e) = write(&out, &file) {
                        *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                        next.store(todo.len(), Ordering::Relaxed);
                    }
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        return Err(e);
    }
    let file = file.into_inner().unwrap_or_else(|e| e.into_inner());
    // What was written reads back as a book.
    book::parse(&ron_text(&file)?).map_err(|e| Failure(format!("{}: {e}", out.display())))?;
    Ok(())
}

/// The entries of an earlier build searched at least `seconds`; nothing when there is none.
fn read_existing(path: &Path, preset: &str, seconds: f64) -> Result<Vec<BookEntry>, Failure> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Failure(format!("{}: {e}", path.display()))),
    };
    let (file, _) = book::parse(&text).map_err(|e| {
        Failure(format!(
            "{}: {e} (move it away to build the book afresh)",
            path.display()
        ))
    })?;
    if file.preset != preset {
        return Err(Failure(format!(
            "{} is the book of {}, not of {preset}",
            path.display(),
            file.preset
        )));
    }
    Ok(file
        .entries
        .into_iter()
        .filter(|e| e.seconds >= seconds)
        .collect())
}

fn search(start: Position, line: &[Move], seconds: f64) -> BookEntry {
    let mut pos = start;
    for &mv in line {
        pos.play_unchecked(mv);
    }
    let limits = Limits {
        time: Some(Duration::from_secs_f64(seconds)),
        all_root_moves: true,
        // The search Master plays with, as deep as the time allows.
        reductions: true,
        ..Limits::default()
    };
    let report =
        Search::with_table(pos, Weights::shipped(), limits, Table::new(TABLE_MEGABYTES)).run();
    BookEntry {
        moves: notation(line),
        depth: report.depth,
        seconds,
        solved: report.solved,
        values: report
            .moves
            .iter()
            .map(|(mv, value)| (mv.to_string(), *value))
            .collect(),
    }
}

fn notation(line: &[Move]) -> String {
    line.iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// In the order of the book's lines, so that rebuilding gives the same file.
fn sort(entries: &mut [BookEntry], lines: &[Vec<Move>]) {
    entries.sort_by_key(|e| lines.iter().position(|l| notation(l) == e.moves));
}

fn ron_text(file: &BookFile) -> Result<String, Failure> {
    let config = ron::ser::PrettyConfig::new()
        .depth_limit(2)
        .separate_tuple_members(false);
    Ok(ron::ser::to_string_pretty(file, config)? + "\n")
}

/// Write through a temporary file beside it: a build stopped mid-write keeps the last book.
fn write(path: &Path, file: &BookFile) -> Result<(), Failure> {
    let text = ron_text(file)?;
    let temporary = path.with_extension("ron.partial");
    std::fs::write(&temporary, text)
        .and_then(|()| std::fs::rename(&temporary, path))
        .map_err(|e| Failure(format!("{}: {e}", path.display())))
}
