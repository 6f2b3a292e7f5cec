//! What a puzzle's answer does, read off the moves themselves: the themes a player trains by.
//! Every theme is a fact of the puzzle's line played with the rules (`Position::play_with`) or
//! of the engine's best replies, never a guess from the board's look.
//!
//! ```
//! use oaq_ai::theme::Theme;
//! assert_eq!("chain".parse::<Theme>(), Ok(Theme::Chain));
//! assert_eq!(Theme::Chain.key(), "theme.chain");
//! assert!("nothing".parse::<Theme>().is_err());
//! ```

use serde::{Deserialize, Serialize};

use super::explain::{best_reply, play};
use oaq_rules::{EndReason, Event, Move, Position, geometry};

/// The depth of the replies a theme is judged by: the replies a player can see.
const REPLY_DEPTH: u32 = 6;
/// Points by which a defence must keep the reply smaller than the greedy move's reply does.
const DEFENDED: u32 = 4;

/// A kind of idea a puzzle trains. A puzzle has one or more; its first is its main theme.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// The table flip's offer (swap or not), at the game's second move.
    TableFlip,
    /// The line ends the game: finish it exactly.
    Endgame,
    /// The answer, or the reply it allows, leaves the opponent a refill to pay, or none to pay
    /// with.
    RefillTrap,
    /// The answer takes a mandarin pit.
    Mandarin,
    /// The answer takes two or more pits in one move.
    Chain,
    /// The answer takes less than another move could, and keeps the reply small: defending.
    Defence,
    /// The answer takes nothing.
    Quiet,
    /// The answer takes one citizen pit, the most there is.
    Capture,
}

impl Theme {
    pub const ALL: [Theme; 8] = [
        Theme::TableFlip,
        Theme::Endgame,
        Theme::RefillTrap,
        Theme::Mandarin,
        Theme::Chain,
        Theme::Defence,
        Theme::Quiet,
        Theme::Capture,
    ];

    /// The name in files and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Theme::TableFlip => "table_flip",
            Theme::Endgame => "endgame",
            Theme::RefillTrap => "refill_trap",
            Theme::Mandarin => "mandarin",
            Theme::Chain => "chain",
            Theme::Defence => "defence",
            Theme::Quiet => "quiet",
            Theme::Capture => "capture",
        }
    }

    /// The string-table key of its name.
    pub fn key(self) -> &'static str {
        match self {
            Theme::TableFlip => "theme.table_flip",
            Theme::Endgame => "theme.endgame",
            Theme::RefillTrap => "theme.refill_trap",
            Theme::Mandarin => "theme.mandarin",
            Theme::Chain => "theme.chain",
            Theme::Defence => "theme.defence",
            Theme::Quiet => "theme.quiet",
            Theme::Capture => "theme.capture",
        }
    }
}

impl std::str::FromStr for Theme {
    type Err = String;

    fn from_str(text: &str) -> Result<Theme, String> {
        Theme::ALL
            .into_iter()
            .find(|t| t.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Theme::ALL.iter().map(|t| t.name()).collect();
                format!("{text:?} is not a theme ({})", names.join(", "))
            })
    }
}

/// The themes of a puzzle's line from `start` (each step the solver's answer and the reply),
/// its main one first (the order of [`Theme::ALL`]). Judged on its first step; the end and the
/// refills on the whole line. A puzzle's [`Line::themes`](super::puzzle::Line::themes).
pub fn themes(start: &Position, line: &[(Move, Option<Move>)]) -> Vec<Theme> {
    let Some(&(first, _)) = line.first() else {
        return Vec::new();
    };
    let pos = start;
    let mut found = Vec::new();
    if pos.can_swap() {
        found.push(Theme::TableFlip);
    }
    let (ends, traps) = line_facts(start, line);
    if ends {
        found.push(Theme::Endgame);
    }
    if traps {
        found.push(Theme::RefillTrap);
    }
    let Some(answer) = play(pos, first) else {
        return found;
    };
    let taken = &answer.taking;
    if taken
        .pits
        .iter()
        .any(|&p| geometry::is_mandarin(usize::from(p)))
    {
        found.push(Theme::Mandarin);
    }
    if taken.pits.len() >= 2 {
        found.push(Theme::Chain);
    }
    if defends(pos, taken.points(), &answer.after) {
        found.push(Theme::Defence);
    }
    match taken.pits.len() {
        0 if !pos.can_swap() => found.push(Theme::Quiet),
        1 if !found.contains(&Theme::Mandarin) => found.push(Theme::Capture),
        _ => {}
    }
    found.sort();
    found
}

/// Whether the line ends the game, and whether it makes the solver's opponent refill from
/// their store (or end the game unable to).
fn line_facts(start: &Position, line: &[(Move, Option<Move>)]) -> (bool, bool) {
    let mut pos = *start;
    let solver = pos.to_move();
    let mut traps = false;
    for &(answer, reply) in line {
        for mv in std::iter::once(answer).chain(reply) {
            let Some(played) = play(&pos, mv) else {
                return (pos.is_over(), traps);
            };
            traps |= played.events.iter().any(|e| match *e {
                Event::Refill { player, paid, .. } => usize::from(player) != solver && paid > 0,
                Event::GameOver {
                    reason: EndReason::Forfeit { player } | EndReason::NoStonesToLend { player },
                    ..
                } => usize::from(player) != solver,
                _ => false,
            });
            pos = played.after;
        }
    }
    (pos.is_over(), traps)
}

/// Whether the answer defends: another move takes more now, and the best reply to the
/// greediest move takes at least [`DEFENDED`] points more than the best reply to the answer.
fn defends(pos: &Position, answer_takes: u32, after_answer: &Position) -> bool {
    let greediest = pos
        .legal_moves()
        .iter()
        .filter_map(|&mv| play(pos, mv))
        .max_by_key(|p| p.taking.points());
    let Some(greedy) = greediest else {
        return false;
    };
    if greedy.taking.points() <= answer_takes {
        return false;
    }
    let reply_takes = |after: &Position| {
        best_reply(after, REPLY_DEPTH)
            .and_then(|mv| play(after, mv))
            .map_or(0, |p| p.taking.points())
    };
    reply_takes(&greedy.after) >= reply_takes(after_answer) + DEFENDED
}
