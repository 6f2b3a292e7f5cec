//! `oaq replay`: play a list of moves, printing the state JSON after each.

use o_an_quan::rules::{Move, Position};
use o_an_quan::state_json;

use crate::{Failure, rules_arg};

/// A game as the command line gives it: rules, where it starts, and its moves (also read by
/// `oaq review`).
#[derive(clap::Args)]
#[group(id = "game")]
pub struct Args {
    /// A preset name (`oaq rules`) or a preset file.
    #[arg(long)]
    rules: String,
    /// The starting state as JSON (default: the start of the game).
    #[arg(long)]
    position: Option<String>,
    /// Moves separated by spaces: a pit number and + or -, or swap. Example: "2- 7+ swap 3+".
    #[arg(long, allow_hyphen_values = true)]
    pub moves: String,
}

impl Args {
    /// The position the moves start from.
    pub fn start(&self) -> Result<Position, Failure> {
        let rules = rules_arg::resolve(&self.rules)?;
        Ok(match &self.position {
            Some(text) => state_json::parse(rules, text)?,
            None => Position::new(rules),
        })
    }
}

pub fn run(args: Args) -> Result<(), Failure> {
    let mut pos = args.start()?;
    println!("{}", state_json::to_line(&pos));
    for (i, text) in args.moves.split_whitespace().enumerate() {
        // Both the place in the list and the game's ply: they differ after a swap or --position.
        let at = format!("move {} (ply {})", i + 1, pos.ply());
        let mv: Move = text
            .parse()
            .map_err(|e| Failure(format!("{at}: {e}; legal moves: {}", pos.legal_moves())))?;
        pos.play(mv).map_err(|e| Failure(format!("{at}: {e}")))?;
        println!("{}", state_json::to_line(&pos));
    }
    Ok(())
}
