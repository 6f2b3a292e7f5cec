//! Why a move gave points away, as facts of the engine's own line: what the move took, what
//! the opponent's best reply takes after it and from which pits, a refill that reply brings on,
//! what the better move takes at once and how little the reply to it takes. Every fact is read
//! off the events of moves actually played from the position (`Position::play_with`), so none
//! says what the line does not do; a mistake with no such fact gets no explanation, and the
//! review says only the points.
//!
//! ```
//! use oaq_ai::explain::{Fact, explain};
//! use oaq_rules::{presets, Move, Position};
//! let pos = Position::new(presets::get("basic").unwrap().rules);
//! let moves: Vec<Move> = pos.legal_moves().to_vec();
//! // Two different first moves: whatever one says of the other is true of the line.
//! if let Some(why) = explain(&pos, moves[0], moves[1], 2) {
//!     assert!(!why.facts.is_empty());
//! }
//! ```

use super::search::Search;
use super::steps::Searches;
use oaq_rules::{Event, Move, Position};

/// The depth at which the opponent's best reply is sought: the replies a player can see.
pub const DEPTH: u32 = 6;

/// A mandarin piece's worth, in points.
const MANDARIN: u32 = 10;

/// What one move captures: the pits it takes from, in the order taken, and what they held.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Taking {
    pub mv: Move,
    /// The seat that played it.
    pub seat: usize,
    /// Ring indices of the pits taken (`oaq_rules::geometry`), in order.
    pub pits: Vec<u8>,
    pub stones: u32,
    pub mandarins: u32,
}

impl Taking {
    /// Its worth in points: a stone one, a mandarin ten.
    pub fn points(&self) -> u32 {
        self.stones + MANDARIN * self.mandarins
    }
}

/// One thing the line shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Fact {
    /// The move played took this (something): what it gained, before what it gave.
    PlayedTakes(Taking),
    /// After the move played, the opponent's best reply takes this (something).
    ReplyTakes(Taking),
    /// That reply leaves the mover's row empty, and its refill costs the mover `paid` points
    /// of their store (the better move's line has no such cost).
    RefillCosts { paid: u8 },
    /// The better move takes this at once, more than the move played took.
    BetterTakes(Taking),
    /// After the better move, the opponent's best reply takes only this (possibly nothing):
    /// less than the reply to the move played.
    BetterLeaves(Taking),
}

/// Why `played` was worse than `better` on `before`, as facts.
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    pub played: Move,
    pub better: Move,
    /// The depth the replies were sought at.
    pub depth: u32,
    pub facts: Vec<Fact>,
}

/// The line after one move: what it took, the position after it, its events.
pub(crate) struct Played {
    pub(crate) taking: Taking,
    pub(crate) after: Position,
    pub(crate) events: Vec<Event>,
}

/// `mv` played on a copy of `pos` (`None` if it cannot be played there).
pub(crate) fn play(pos: &Position, mv: Move) -> Option<Played> {
    let mut after = *pos;
    let mut events = Vec::new();
    after.play_with(mv, &mut events).ok()?;
    let mut taking = Taking {
        mv,
        seat: pos.to_move(),
        pits: Vec::new(),
        stones: 0,
        mandarins: 0,
    };
    for event in &events {
        if let Event::Capture {
            pit,
            stones,
            mandarin,
        } = *event
        {
            taking.pits.push(pit);
            taking.stones += u32::from(stones);
            taking.mandarins += u32::from(mandarin);
        }
    }
    Some(Played {
        taking,
        after,
        events,
    })
}

/// The search for the best move on `pos` to `depth` (`None` once the game is over).
fn reply_search(pos: &Position, depth: u32) -> Option<Search> {
    if pos.is_over() || pos.legal_move_count() == 0 {
        return None;
    }
    Some(Search::to_depth(*pos, depth.max(1), false))
}

/// The best move on `pos` by a search to `depth` (`None` once the game is over).
pub fn best_reply(pos: &Position, depth: u32) -> Option<Move> {
    reply_search(pos, depth).map(|mut search| search.run().best)
}

/// The refill `events` make `seat` pay from their own store, if any.
fn refill_paid(events: &[Event], seat: usize) -> Option<u8> {
    events.iter().find_map(|e| match *e {
        Event::Refill { player, paid, .. } if usize::from(player) == seat && paid > 0 => Some(paid),
        _ => None,
    })
}

/// What a move and the best reply to it do.
struct Line {
    first: Played,
    /// `None` until the reply is known, and after a move that ends the game.
    reply: Option<Played>,
    /// The reply is known (or there is none).
    replied: bool,
}

impl Line {
    fn answer(&mut self, reply: Option<Move>) {
        self.reply = reply.and_then(|r| play(&self.first.after, r));
        self.replied = true;
    }
}

/// An explanation in progress: give each search `next_search` asks for (the opponent's best
/// reply to the move played, then to the better move) to `answer` ([`Searches`]), anywhere (a
/// thread, a worker, slices), then `finish`. [`explain`] does it all in one call.
pub struct Explainer {
    before: Position,
    depth: u32,
    played: Line,
    better: Line,
}

impl Explainer {
    /// `None` when the moves are the same or either cannot be played on `before`.
    pub fn new(before: &Position, played: Move, better: Move, depth: u32) -> Option<Explainer> {
        if played == better {
            return None;
        }
        let line = |mv| {
            play(before, mv).map(|first| Line {
                first,
                reply: None,
                replied: false,
            })
        };
        Some(Explainer {
            before: *before,
            depth,
            played: line(played)?,
            better: line(better)?,
        })
    }

    fn waiting(&mut self) -> Option<&mut Line> {
        [&mut self.played, &mut self.better]
            .into_iter()
            .find(|l| !l.replied)
    }

    /// The facts, once every search is answered: `None` when no fact says why the move was
    /// worse (or a search is still unanswered).
    pub fn finish(mut self) -> Option<Explanation> {
        if self.next_search().is_some() {
            return None;
        }
        self.facts()
    }
}

impl Searches for Explainer {
    /// The next search to run, once any reply after a game's end is settled (`None` once
    /// every reply is known).
    fn next_search(&mut self) -> Option<Search> {
        let depth = self.depth;
        while let Some(line) = self.waiting() {
            match reply_search(&line.first.after, depth) {
                Some(search) => return Some(search),
                None => line.answer(None),
            }
        }
        None
    }

    fn answer(&mut self, report: &crate::Report) {
        if let Some(line) = self.waiting() {
            line.answer(Some(report.best));
        }
    }
}

impl Explainer {
    fn facts(&self) -> Option<Explanation> {
        let mover = self.before.to_move();
        let (ours, theirs) = (&self.played, &self.better);
        let reply = ours.reply.as_ref().map(|r| r.taking.clone());
        let reply_points = reply.as_ref().map_or(0, Taking::points);
        let mut facts = Vec::new();
        if ours.first.taking.points() > 0 {
            facts.push(Fact::PlayedTakes(ours.first.taking.clone()));
        }
        let mut why = false;
        if let Some(reply) = reply.filter(|r| r.points() > 0) {
            facts.push(Fact::ReplyTakes(reply));
            why = true;
        }
        let paid = |l: &Line| l.reply.as_ref().and_then(|r| refill_paid(&r.events, mover));
        if let (Some(paid), None) = (paid(ours), paid(theirs)) {
            facts.push(Fact::RefillCosts { paid });
            why = true;
        }
        if theirs.first.taking.points() > ours.first.taking.points() {
            facts.push(Fact::BetterTakes(theirs.first.taking.clone()));
            why = true;
        }
        let left = theirs.reply.as_ref().map(|r| r.taking.clone());
        if let Some(left) = left.filter(|r| reply_points > 0 && r.points() < reply_points) {
            facts.push(Fact::BetterLeaves(left));
        }
        why.then_some(Explanation {
            played: ours.first.taking.mv,
            better: theirs.first.taking.mv,
            depth: self.depth,
            facts,
        })
    }
}

/// Why `played` was worse than `better` on `before`: the facts of both lines, the opponent's
/// replies sought to `depth`. `None` when the moves are the same, either cannot be played, or
/// no fact says why (the points alone then).
pub fn explain(before: &Position, played: Move, better: Move, depth: u32) -> Option<Explanation> {
    let mut explainer = Explainer::new(before, played, better, depth)?;
    explainer.run_all();
    explainer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::presets;

    #[test]
    fn a_move_is_not_explained_against_itself_and_the_facts_name_their_seats() {
        let mut pos = Position::new(presets::get("basic").unwrap().rules);
        for mv in ["2-", "8-", "4+"] {
            pos.play(mv.parse().unwrap()).unwrap();
        }
        let moves = pos.legal_moves().to_vec();
        assert_eq!(explain(&pos, moves[0], moves[0], 3), None);
        let mover = pos.to_move();
        let mut explained = 0;
        for &played in &moves {
            for &better in &moves {
                let Some(why) = explain(&pos, played, better, 3) else {
                    continue;
                };
                explained += 1;
                assert!(why.facts.iter().any(|f| !matches!(f, Fact::PlayedTakes(_))));
                for fact in &why.facts {
                    match fact {
                        Fact::ReplyTakes(t) | Fact::BetterLeaves(t) => assert_ne!(t.seat, mover),
                        Fact::PlayedTakes(t) | Fact::BetterTakes(t) => assert_eq!(t.seat, mover),
                        Fact::RefillCosts { paid } => assert!(*paid > 0),
                    }
                }
            }
        }
        assert!(
            explained > 0,
            "some pair of moves differs in what it gives away"
        );
    }
}
