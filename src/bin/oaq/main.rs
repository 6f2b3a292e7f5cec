//! `oaq`: the command-line tool of the Ô ăn quan engine: rule sets, replays and perft.

mod perft;
mod replay;
mod rules_arg;
mod rules_cmd;

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
}

/// A command's failure: the message for standard error. Exit status 2.
pub struct Failure(String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(e: E) -> Failure {
        Failure(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Rules(args) => rules_cmd::run(args),
        Command::Replay(args) => replay::run(args),
        Command::Perft(args) => perft::run(args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message)) => {
            eprintln!("oaq: {message}");
            ExitCode::from(2)
        }
    }
}
