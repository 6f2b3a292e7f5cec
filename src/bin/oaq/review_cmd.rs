//! `oaq review`: judge every move of a game with the engine, one JSON line per move: the
//! values the game's review screen shows, and for a mistake why (`why`, sentences checked
//! against the engine's line), for tests and scripts.

use o_an_quan::ai::explain;
use o_an_quan::ai::review::{self, Reviewer};
use o_an_quan::rules::{Move, Position, geometry};
use o_an_quan::session::{Lang, Names, explanation_words};
use serde_json::json;

use crate::{Failure, replay};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    game: replay::Args,
    /// Search depth for every position, 1 to 30: the same depth gives the same review.
    #[arg(long, default_value_t = review::DEFAULT_DEPTH,
        value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
}

/// Why a mistake gave points away, in English sentences (none when no fact of the line says).
fn why(before: &Position, m: &review::MoveReview) -> Vec<String> {
    let Some(why) = explain::explain(before, m.played, m.best, explain::DEPTH) else {
        return Vec::new();
    };
    let (mover, opponent) = (
        format!("player {}", m.seat + 1),
        format!("player {}", (m.seat + 1) % before.players() + 1),
    );
    let names = Names {
        mover: &mover,
        opponent: &opponent,
        mv: &|mv| mv.to_string(),
        pit: &|pit| geometry::describe(usize::from(pit)),
    };
    explanation_words(&why, Lang::En, &names)
}

pub fn run(args: Args) -> Result<(), Failure> {
    let start = args.game.start()?;
    // Loaded first, so that the review does not depend on how soon it was.
    if o_an_quan::ai::tablebase::Tablebase::serves(start.rules()) {
        o_an_quan::ai::tablebase::shipped();
    }
    let moves = args
        .game
        .moves
        .split_whitespace()
        .enumerate()
        .map(|(i, text)| {
            text.parse::<Move>()
                .map_err(|e| Failure(format!("move {}: {e}", i + 1)))
        })
        .collect::<Result<Vec<Move>, Failure>>()?;
    let reviewer = Reviewer::new(start, &moves, args.depth).map_err(|e| Failure(e.to_string()))?;
    let two_players = start.players() == 2;
    let mut before = start;
    for m in reviewer.run() {
        let mut line = json!({
            "ply": m.ply,
            "seat": m.seat,
            "player": m.player,
            "move": m.played.to_string(),
            "value": m.margin_for(m.player),
            "best": m.best.to_string(),
            "best_value": review::margin(m.best_value),
            "loss": m.loss(),
            "quality": m.quality.name(),
            "depth": m.depth,
            "solved": m.solved,
        });
        // The graph's line: the first player's expected final margin after the move.
        if two_players {
            line["margin"] = json!(m.margin_for(0));
        }
        if m.quality >= review::Quality::Mistake {
            line["why"] = json!(why(&before, &m));
        }
        println!("{line}");
        before
            .play(m.played)
            .map_err(|e| Failure(format!("ply {}: {e}", m.ply)))?;
    }
    Ok(())
}
