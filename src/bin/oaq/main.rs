//! `oaq`: the command-line tool of the Ô ăn quan engine: rule sets, replays, perft, and the
//! computer opponent's protocol, matches, tuning and benchmark, and the web app's icons.

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
        Command::Stability(args) => stability_cmd::run(args),
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
