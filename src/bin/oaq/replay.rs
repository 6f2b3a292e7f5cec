//! `oaq replay`: play a list of moves, printing the state JSON after each.

use o_an_quan::rules::{Move, Position};
use o_an_quan::state_json;

use crate::{Failure, rules_arg};

#[derive(clap::Args)]
pub struct Args {
    /// A preset name (`oaq rules`) or a preset file.
    #[arg(long)]
    rules: String,
    /// The starting state as JSON (default: the start of the game).
    #[arg(long)]
    position: Option<String>,
    /// Moves separated by spaces: a pit number and + or -, or swap. Example: "2- 7+ swap 3+".
    #[arg(long, allow_hyphen_values = true)]
    moves: String,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = rules_arg::resolve(&args.rules)?;
    let mut pos = match &args.position {
        Some(text) => state_json::parse(rules, text)?,
        None => Position::new(rules),
    };
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
