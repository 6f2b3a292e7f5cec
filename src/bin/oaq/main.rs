//! `oaq`: the command-line tool of the Ô ăn quan engine: rule sets, replays, perft, and the
//! computer opponent's protocol, matches, tuning and benchmark, and the web app's icons.
//!
//! # Commands
//!
//! Build it without the game, in seconds: `cargo build --release --no-default-features --bin oaq`
//! (then `target/release/oaq ...`).
//!
//! ```sh
//! # list the presets
//! oaq rules
//! # print one as RON
//! oaq rules show mature-quan
//! oaq replay --rules table-flip --moves "2- swap 8+"
//! oaq replay --rules standard \
//!     --position '{"pits":[0,2,2,1,1,0,1,2,2,2,1,0],"stores":[{"stones":36},{}]}' --moves "4+"
//! oaq perft --rules standard --depth 8
//! # one state JSON per line in, one answer per line out
//! oaq ai --rules standard --level hard < positions.jsonl
//! # Master on two cores (default: all)
//! oaq ai --rules basic --level master --threads 2 < positions.jsonl
//! # paired margin, W/D/L
//! oaq match --rules basic --a hard --b medium --games 200 --seed 1
//! # Master at a tenth of its time
//! oaq match --rules basic --a master --b hard --time-scale 0.1
//! # an evaluation against the shipped one
//! oaq match --rules basic --a 7 --b 7 --a-weights fitted.ron
//! # a search feature on against off
//! oaq match --rules basic --a master --b master --b-reductions off --time-scale 0.1
//! # weights by least squares on self-play
//! oaq fit --rules basic --seed 1 --games 2000 --depth 8 --out fitted.ron
//! # weights by trial matches
//! oaq tune --rules standard --seed 7 --out weights.ron
//! # depth d against d + 2, capture search on/off
//! oaq stability --rules basic --depth 6
//! # the opening book (resumes if stopped)
//! oaq book build --rules basic --seconds 20
//! # how often Master's time proves the result
//! oaq endgame --rules basic --stones 30 --down-to 6
//! # the same for who wins, not by how much
//! oaq endgame --rules basic --stones 40 --down-to 6 --outcome
//! # the shipped endgame table (5 min, 2.4 GB; resumes if stopped)
//! oaq tablebase build --stones 10 --out assets/ai/endgame-10.tb
//! # what it knows of self-play endings, against the search
//! oaq tablebase check --file assets/ai/endgame-10.tb --positions 200
//! # Master with its table against without
//! oaq match --rules basic --a master --b master --b-tablebase off --time-scale 0.1
//! # a learned evaluation (5 min)
//! oaq train --rules basic --games 4000 --depth 10 --seed 1 --epochs 30 \
//!     --out assets/ai/network-basic.nn
//! # Master with it against without
//! oaq match --rules basic --a master --b master --a-network assets/ai/network-basic.nn \
//!     --time-scale 0.1
//! # search speed with it
//! oaq bench --rules basic --depth 14 --network assets/ai/network-basic.nn
//! # every level on one scale
//! oaq rate --rules basic --games 60 --span 3 --time-scale 0.1 --out assets/ai/ratings.ron
//! # every move judged, one JSON line each
//! oaq review --rules basic --moves "2- 8- 3+ 9-" --depth 10
//! # the puzzle set (23 s)
//! oaq puzzles generate --seed 1 --count 180 > assets/puzzles/puzzles.ron
//! # every shipped puzzle searched again
//! oaq puzzles check
//! oaq bench --seconds 1
//! # time to a depth instead
//! oaq bench --depth 15
//! # without late move reductions
//! oaq bench --depth 15 --no-reductions
//! # paint the web app's icons (the shipped ones are its output)
//! oaq icons --out web/icons
//! ```
//!
//! Every number is checked as it is read, and a value out of range is refused with the range
//! before anything runs (exit status 2): `match` and `tune` `--games` an even number from 2 to
//! 100,000, `--jobs` 1–256, `perft --depth` 1–12 (each move more multiplies the time by about six
//! and a half), `tune --depth` 1–12 and `--rounds` up to 10,000, `ai --threads` 1–64, `bench
//! --seconds` above 0 and at most 600, `tablebase build --stones` 1–20 and `--rounds` 1–65,535,
//! `tablebase check --positions` 1–10,000, `train --epochs` 1–200 and `--search-share` 0–100; a
//! table or network file that is not one, or is cut short or damaged, is refused by name.
//! Negative numbers reach the check (`--seconds -1` says what is wrong, not "unexpected
//! argument"); `tune --out` is checked before the first round; an error quotes a bad value cut
//! to its first 40 characters.
//!
//! `ai` answers `{"move": "3+", "score": expected final margin in points, "depth", "nodes", "ms"}`,
//! or `{"error": "..."}` for a line it cannot read (not JSON, not a position, not UTF-8, or over 64
//! KiB), and goes on with the next line. `match` plays
//! each random two-move opening twice with the seats swapped (games end by the rule set's move
//! limit) and prints
//! wins, draws and losses, the mean score difference per game and the paired margin (per opening,
//! the mean of A's two margins) with 95% intervals and the share of openings where it is positive,
//! zero and negative, and the mean and longest time per move, with a progress bar on a terminal.
//! `--a-weights`/`--b-weights FILE` and `fit --from` read weights as `fit --out` writes them (a
//! file that is not weights is refused by name); `--time-scale` is 0.01–1.
//!
//! `replay` prints one JSON object per line with exactly the fields `ply`, `to_move`, `pits`,
//! `quan`, `stores` (`stones`, `mandarins`, `owes`), `scores`, `over`, `forfeit`, `swapped`: the
//! state the next player faces, after any refill. `--position` takes the same object (only `pits`
//! is required). An illegal or unreadable move stops with exit status 2 and a message naming the
//! move, the ply and the legal moves; the lines before it stay printed.

mod ai_cmd;
mod arena;
mod bench_cmd;
mod book_cmd;
mod bounds;
mod endgame_cmd;
mod fit_cmd;
mod icons_cmd;
mod match_cmd;
mod paired;
mod perft;
mod puzzles_cmd;
mod rate_cmd;
mod regress;
mod replay;
mod review_cmd;
mod rules_arg;
mod rules_cmd;
mod stability_cmd;
mod tablebase_cmd;
mod train_cmd;
mod tune_cmd;
mod weights_arg;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Ô ăn quan from the command line.
#[derive(Parser)]
#[command(name = "oaq", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// List the rule-set presets, or print one as RON.
    Rules(rules_cmd::Args),
    /// Play moves and print the state JSON before and after each one.
    Replay(replay::Args),
    /// Count the move sequences of each length from the start, and time it.
    Perft(perft::Args),
    /// Engine protocol: read state JSON lines, answer each with the level's move.
    Ai(ai_cmd::Args),
    /// Play two levels against each other and report the result.
    Match(match_cmd::Args),
    /// Improve the evaluation weights by self-play.
    Tune(tune_cmd::Args),
    /// How well a search's value at one depth predicts it two moves deeper.
    Stability(stability_cmd::Args),
    /// From how many stones on the board a search proves the exact result in its time.
    Endgame(endgame_cmd::Args),
    /// Endgame tables: `oaq tablebase build --stones N --out FILE`.
    Tablebase(tablebase_cmd::Args),
    /// Judge every move of a game: its value, the best move and the points given away.
    Review(review_cmd::Args),
    /// Make the puzzle set from engine self-play, or check a puzzle file.
    Puzzles(puzzles_cmd::Args),
    /// Rate every level on one scale from paired matches between them.
    Rate(rate_cmd::Args),
    /// The opening book: `oaq book build --rules NAME`.
    Book(book_cmd::Args),
    /// Fit the evaluation weights to how self-play games end (least squares).
    Fit(fit_cmd::Args),
    /// Train the learned evaluation on self-play: `oaq train --rules basic --out FILE`.
    Train(train_cmd::Args),
    /// Measure search speed and depth from fixed positions.
    Bench(bench_cmd::Args),
    /// Paint the web app's icons into a folder, as PNG.
    Icons(icons_cmd::Args),
}

/// A command's failure: the message for standard error. Exit status 2.
pub struct Failure(String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure(e.to_string())
    }
}

/// Prints clap's message (help, version, or a refused argument) and exits as clap would, but
/// with any long argument it quotes cut short.
fn refuse_arguments(e: clap::Error) -> ExitCode {
    let mut message = e.render().to_string();
    for arg in std::env::args().filter(|a| a.chars().count() > 60) {
        message = message.replace(&arg, &o_an_quan::excerpt::plain(&arg));
    }
    if e.use_stderr() {
        eprint!("{message}");
    } else {
        print!("{message}");
    }
    ExitCode::from(e.exit_code().clamp(0, 255) as u8)
}

fn main() -> ExitCode {
    // `oaq ... | head` should stop quietly when the reader goes away, as other tools do.
    #[cfg(unix)]
    // SAFETY: setting a signal's disposition to the default at start-up, before any thread runs.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return refuse_arguments(e),
    };
    let result = match cli.command {
        Command::Rules(args) => rules_cmd::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Ai(args) => ai_cmd::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Tune(args) => tune_cmd::run(args),
        Command::Fit(args) => fit_cmd::run(args),
        Command::Book(args) => book_cmd::run(args),
        Command::Rate(args) => rate_cmd::run(args),
        Command::Review(args) => review_cmd::run(args),
        Command::Puzzles(args) => puzzles_cmd::run(args),
        Command::Endgame(args) => endgame_cmd::run(args),
        Command::Tablebase(args) => tablebase_cmd::run(args),
        Command::Stability(args) => stability_cmd::run(args),
        Command::Train(args) => train_cmd::run(args),
        Command::Bench(args) => bench_cmd::run(args),
        Command::Icons(args) => icons_cmd::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message)) => {
            eprintln!("oaq: {message}");
            ExitCode::from(2)
        }
    }
}
