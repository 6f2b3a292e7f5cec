//! `oaq puzzles`: make the puzzle set from engine self-play (`generate`) or from played games
//! (`mine`: the server's finished games, as `oaq-server admin games` writes them), or check a
//! puzzle file against the engine (`check`).

use std::collections::{BTreeMap, HashSet};
use std::io::Write;

use o_an_quan::ai::puzzle::{
    DEPTH, Difficulty, Judgement, MAX_STEPS, MIN_GAP, PlayedGame, Puzzle, PuzzleFile, Step,
    best_reply, seen_at,
};
use o_an_quan::ai::theme::Theme;
use o_an_quan::ai::{Level, Thinker};
use o_an_quan::rules::{Move, Position, presets};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use crate::{Failure, arena};

/// The presets a set draws from by default, and each one's share of it.
const SHARES: &[(&str, usize)] = &[
    ("standard", 3),
    ("basic", 2),
    ("young-mandarin", 2),
    ("mature-quan", 2),
    ("table-flip", 2),
    ("ten-seeds", 1),
];

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Sub,
}

#[derive(clap::Subcommand)]
enum Sub {
    /// Play engine games and keep positions where one move is clearly best; print RON.
    Generate {
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Puzzles in all, shared out among the presets and, in each, the three difficulties.
        #[arg(long, default_value_t = 150)]
        count: usize,
        /// The depth that judges every move.
        #[arg(long, default_value_t = DEPTH, value_parser = clap::value_parser!(u32).range(2..=20))]
        depth: u32,
        /// Worker threads (default: every core); the set does not depend on it.
        #[arg(long)]
        jobs: Option<u16>,
    },
    /// Find puzzles in played games (one JSON object a line, as `oaq-server admin games`
    /// writes them): from the sixth move, every third position judged as `generate` judges
    /// them; print RON. Games of rules that are no preset's are passed over.
    Mine {
        /// The games' file (`-`: standard input).
        #[arg(long)]
        games: std::path::PathBuf,
        /// The most puzzles kept, in the games' order.
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// The depth that judges every move.
        #[arg(long, default_value_t = DEPTH, value_parser = clap::value_parser!(u32).range(2..=20))]
        depth: u32,
    },
    /// Check every puzzle of a file with the engine at the file's depth: the answer is the
    /// unique best by the file's gap, and the reply the engine's.
    Check {
        /// A puzzle file (default: the shipped one).
        #[arg(long)]
        file: Option<std::path::PathBuf>,
    },
}

pub fn run(args: Args) -> Result<(), Failure> {
    match args.command {
        Sub::Generate {
            seed,
            count,
            depth,
            jobs,
        } => generate(seed, count, depth, arena::jobs(jobs)),
        Sub::Mine {
            games,
            count,
            depth,
        } => mine(&games, count, depth),
        Sub::Check { file } => {
            let text = match file {
                Some(path) => std::fs::read_to_string(&path)
                    .map_err(|e| Failure(format!("{}: {e}", path.display())))?,
                None => include_str!("../../../assets/puzzles/puzzles.ron").to_owned(),
            };
            let (file, _) = PuzzleFile::parse(&text)?;
            let mut failed = 0;
            for puzzle in &file.puzzles {
                if let Err(why) = puzzle.verify(file.depth, f64::from(file.min_gap)) {
                    eprintln!("puzzle {}: {why}", puzzle.id);
                    failed += 1;
                }
            }
            println!(
                "{} puzzles, {failed} failed (depth {}, gap {})",
                file.puzzles.len(),
                file.depth,
                file.min_gap
            );
            if failed > 0 {
                return Err(Failure(format!("{failed} puzzles failed")));
            }
            Ok(())
        }
    }
}

/// How many puzzles of each preset and difficulty the set wants.
fn quotas(count: usize) -> Vec<(&'static str, Difficulty, usize)> {
    let shares: usize = SHARES.iter().map(|&(_, s)| s).sum();
    let mut left = count;
    let mut out = Vec::new();
    for (i, &(id, share)) in SHARES.iter().enumerate() {
        let mine = if i + 1 == SHARES.len() {
            left
        } else {
            (count * share).div_ceil(shares).min(left)
        };
        left -= mine;
        for (k, difficulty) in Difficulty::ALL.into_iter().enumerate() {
            out.push((id, difficulty, mine / 3 + usize::from(k < mine % 3)));
        }
    }
    out
}

/// The puzzles of one preset: self-play games at mixed levels, every few moves a position
/// judged, the first that fill each difficulty's quota kept.
fn preset_puzzles(id: &str, want: [usize; 3], seed: u64, depth: u32) -> Vec<Puzzle> {
    let rules = presets::get(id)
        .unwrap_or_else(|| unreachable!("SHARES names presets"))
        .rules;
    let mut rng = StdRng::seed_from_u64(seed);
    let mut found: [Vec<Puzzle>; 3] = Default::default();
    let mut seen = HashSet::new();
    let full = |found: &[Vec<Puzzle>; 3]| (0..3).all(|k| found[k].len() >= want[k]);
    // The table flip's offer comes once, at the second move: each first move's, judged.
    if rules.table_flip {
        let start = Position::new(rules);
        for &first in start.legal_moves().iter() {
            let mut pos = start;
            if pos.play(first).is_ok()
                && let Some(puzzle) = judge(id, &pos, &[first], depth)
                && found[puzzle.difficulty as usize].len() < want[puzzle.difficulty as usize]
            {
                seen.insert(pos);
                found[puzzle.difficulty as usize].push(puzzle);
            }
        }
    }
    let mut game = 0;
    // Bounded: a preset that gives too few puzzles stops, and the set says how many it got.
    let most_games = 40 + 2 * want.iter().sum::<usize>();
    while !full(&found) && game < most_games {
        game += 1;
        let levels = [rng.random_range(3..=7u8), rng.random_range(3..=7u8)];
        let mut pos = Position::new(rules);
        let mut moves: Vec<Move> = Vec::new();
        let mut next_look = rng.random_range(4..10u32);
        while !pos.is_over() && !full(&found) {
            if pos.ply() >= next_look && seen.insert(pos) {
                next_look = pos.ply() + rng.random_range(2..6u32);
                if let Some(puzzle) = judge(id, &pos, &moves, depth)
                    && found[puzzle.difficulty as usize].len() < want[puzzle.difficulty as usize]
                {
                    eprintln!(
                        "{id}: game {game}, ply {}: {:?} (seen at {}, {} steps)",
                        pos.ply(),
                        puzzle.difficulty,
                        puzzle.seen_at,
                        puzzle.line.len()
                    );
                    found[puzzle.difficulty as usize].push(puzzle);
                    // One puzzle a stretch of game: the next is another position, not the
                    // same idea a move later.
                    next_look = pos.ply() + 12;
                }
            }
            let level = Level::get(levels[pos.to_move()]).unwrap_or_else(Level::medium);
            let mv = Thinker::new(pos, level, rng.random(), None).run().mv;
            pos.play(mv)
                .unwrap_or_else(|e| unreachable!("the engine plays legal moves: {e}"));
            moves.push(mv);
        }
    }
    let mut all: Vec<Puzzle> = found.into_iter().flatten().collect();
    for (n, puzzle) in all.iter_mut().enumerate() {
        puzzle.id = format!("{id}-{:04}", n + 1);
    }
    all
}

/// The puzzle at `pos`, if it is one: a unique best move by `MIN_GAP`, followed while the
/// solver keeps having one, and confirmed by a search two plies deeper; its themes read off
/// its line.
fn judge(id: &str, pos: &Position, moves: &[Move], depth: u32) -> Option<Puzzle> {
    // 2-player boards only: a puzzle's values are one solver's margin against one opponent.
    if pos.players() != 2 {
        return None;
    }
    let mut line = Vec::new();
    let mut at = *pos;
    let mut seen = 0;
    while line.len() < MAX_STEPS {
        if at.is_over() || at.legal_moves().len() < 2 {
            break;
        }
        let judged = Judgement::of(&at, depth);
        let Some(answer) = judged.unique_best(MIN_GAP) else {
            break;
        };
        let first_seen = seen_at(&at, answer, depth);
        seen = seen.max(first_seen);
        let mut after = at;
        after.play(answer).ok()?;
        let reply = (!after.is_over()).then(|| best_reply(&after, depth));
        line.push(Step {
            answer: answer.to_string(),
            reply: reply.map(|m| m.to_string()),
            values: judged.points(),
        });
        if let Some(reply) = reply {
            after.play(reply).ok()?;
        }
        at = after;
    }
    if line.is_empty() {
        return None;
    }
    let mut puzzle = Puzzle {
        id: String::new(),
        preset: id.to_owned(),
        moves: moves
            .iter()
            .map(Move::to_string)
            .collect::<Vec<_>>()
            .join(" "),
        difficulty: Difficulty::of(seen),
        seen_at: seen,
        line,
        themes: Vec::new(),
    };
    puzzle.confirm(depth + 2).ok()?;
    puzzle.themes = puzzle.line().ok()?.themes();
    Some(puzzle)
}

fn generate(seed: u64, count: usize, depth: u32, jobs: usize) -> Result<(), Failure> {
    let mut wanted: BTreeMap<&str, [usize; 3]> = BTreeMap::new();
    for (id, difficulty, n) in quotas(count) {
        wanted.entry(id).or_default()[difficulty as usize] = n;
    }
    let work: Vec<(usize, &str, [usize; 3])> = SHARES
        .iter()
        .enumerate()
        .map(|(i, &(id, _))| (i, id, wanted[id]))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(vec![Vec::new(); work.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let Some(&(k, id, want)) = work.get(i) else {
                        break;
                    };
                    let found = preset_puzzles(id, want, seed.wrapping_add(k as u64), depth);
                    results.lock().unwrap_or_else(|e| e.into_inner())[k] = found;
                }
            });
        }
    });
    let puzzles: Vec<Puzzle> = results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .flatten()
        .collect();
    for &(id, _) in SHARES {
        let of = |d: Difficulty| {
            puzzles
                .iter()
                .filter(|p| p.preset == id && p.difficulty == d)
                .count()
        };
        eprintln!(
            "{id}: {} easy, {} medium, {} hard (wanted {:?})",
            of(Difficulty::Easy),
            of(Difficulty::Medium),
            of(Difficulty::Hard),
            wanted[id]
        );
    }
    let mut themes: BTreeMap<Theme, usize> = BTreeMap::new();
    for puzzle in &puzzles {
        if let Some(main) = puzzle.theme() {
            *themes.entry(main).or_default() += 1;
        }
    }
    for (theme, n) in &themes {
        eprintln!("theme {}: {n}", theme.name());
    }
    print(&PuzzleFile {
        seed,
        depth,
        min_gap: MIN_GAP as f32,
        puzzles,
    })
}

/// `file` on standard output, one line a step: readable, and small on the wire.
fn print(file: &PuzzleFile) -> Result<(), Failure> {
    let config = ron::ser::PrettyConfig::default().depth_limit(4);
    let text = ron::ser::to_string_pretty(file, config)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{text}")?;
    Ok(())
}

/// Puzzles from the played games in `path`, at most `count`, each position once.
fn mine(path: &std::path::Path, count: usize, depth: u32) -> Result<(), Failure> {
    let text = if path == std::path::Path::new("-") {
        std::io::read_to_string(std::io::stdin())?
    } else {
        std::fs::read_to_string(path).map_err(|e| Failure(format!("{}: {e}", path.display())))?
    };
    let mut seen = HashSet::new();
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let (mut games, mut passed_over) = (0, 0);
    for (n, line) in text.lines().enumerate() {
        if line.trim().is_empty() || puzzles.len() >= count {
            continue;
        }
        let at = |what: String| Failure(format!("line {}: {what}", n + 1));
        let game: PlayedGame =
            serde_json::from_str(line).map_err(|e| at(format!("not a played game: {e}")))?;
        let moves: Vec<Move> = game
            .moves
            .split_whitespace()
            .map(str::parse)
            .collect::<Result<_, _>>()
            .map_err(|e| at(format!("{e}")))?;
        if presets::get(&game.preset).is_none_or(|p| p.rules != game.rules) {
            passed_over += 1;
            continue;
        }
        games += 1;
        let mut pos = Position::new(game.rules);
        let mut next_look = 6;
        for (i, &mv) in moves.iter().enumerate() {
            if puzzles.len() >= count {
                break;
            }
            if pos.ply() >= next_look && seen.insert(pos) {
                next_look = pos.ply() + 3;
                if let Some(puzzle) = judge(&game.preset, &pos, &moves[..i], depth) {
                    puzzles.push(puzzle);
                    // The next is another position, not the same idea a move later.
                    next_look = pos.ply() + 12;
                }
            }
            pos.play(mv)
                .map_err(|e| at(format!("move {} ({mv}): {e}", i + 1)))?;
        }
    }
    for (n, puzzle) in puzzles.iter_mut().enumerate() {
        puzzle.id = format!("games-{:04}", n + 1);
    }
    eprintln!(
        "{} puzzles from {games} games ({passed_over} of rules that are no preset's passed over)",
        puzzles.len()
    );
    print(&PuzzleFile {
        seed: 0,
        depth,
        min_gap: MIN_GAP as f32,
        puzzles,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quotas_add_up_and_share_out_the_difficulties() {
        for count in [3, 10, 150, 151] {
            let q = quotas(count);
            assert_eq!(q.iter().map(|&(_, _, n)| n).sum::<usize>(), count);
        }
        let q = quotas(150);
        let standard: Vec<usize> = q
            .iter()
            .filter(|&&(id, _, _)| id == "standard")
            .map(|&(_, _, n)| n)
            .collect();
        assert_eq!(standard, [13, 13, 12]);
    }
}
