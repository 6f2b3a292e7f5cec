//! The rules lesson's examples: for a rule set, a short game and then one move that shows one
//! rule at work (a relay, a capture, a chain of captures, a turn ending at a mandarin pit or at
//! two empty pits, a refill, and the rule set's own rule). The examples are found by playing
//! games from the start with a fixed seed, so they are real positions of that rule set and the
//! same every time.

use oaq_rules::{EndReason, Event, Move, Position, RuleSet, TurnEnd};

/// A rule an example shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Topic {
    /// The hand runs out and the next pit has stones: they are picked up and sown on.
    Relay,
    /// One capture across an empty pit.
    Capture,
    /// Two or more captures in a row.
    Chain,
    /// The next pit is a mandarin pit: the turn ends.
    MandarinStop,
    /// Two empty pits: the turn ends with nothing taken.
    TwoEmpty,
    /// A row left empty is refilled.
    Refill,
    /// A mandarin too young (or, in Quan Già, without five stones) cannot be taken.
    Protected,
    /// Ten seeds: nothing is taken from a mandarin pit on the first move.
    FirstMove,
    /// The table flip.
    Flip,
    /// The winning score is reached.
    WinningScore,
}

impl Topic {
    /// The string-table key of the example's caption.
    pub fn key(self) -> &'static str {
        match self {
            Topic::Relay => "lesson.relay",
            Topic::Capture => "lesson.capture",
            Topic::Chain => "lesson.chain",
            Topic::MandarinStop => "lesson.mandarin_stop",
            Topic::TwoEmpty => "lesson.two_empty",
            Topic::Refill => "lesson.refill",
            Topic::Protected => "lesson.protected",
            Topic::FirstMove => "lesson.first_move",
            Topic::Flip => "lesson.flip",
            Topic::WinningScore => "lesson.winning_score",
        }
    }

    /// The topics of `rules`: the common ones, then the rule set's own.
    pub fn all_for(rules: &RuleSet) -> Vec<Topic> {
        let mut topics = vec![
            Topic::Relay,
            Topic::Capture,
            Topic::Chain,
            Topic::MandarinStop,
            Topic::TwoEmpty,
            Topic::Refill,
        ];
        match rules.protection {
            Some(p) if p.plies == Some(1) => topics.push(Topic::FirstMove),
            Some(_) => topics.push(Topic::Protected),
            None => {}
        }
        if rules.table_flip {
            topics.push(Topic::Flip);
        }
        if rules.win_at.is_some() {
            topics.push(Topic::WinningScore);
        }
        topics
    }

    /// Whether a move with `events`, played at ply `ply`, shows the topic, and shows it plainly.
    pub fn shown_by(self, events: &[Event], ply: u32) -> bool {
        let count = |f: fn(&Event) -> bool| events.iter().filter(|e| f(e)).count();
        let captures = count(|e| matches!(e, Event::Capture { .. }));
        let relays = count(|e| matches!(e, Event::Relay { .. }));
        let mandarin_taken = events
            .iter()
            .any(|e| matches!(e, Event::Capture { mandarin: true, .. }));
        let end = events.iter().find_map(|e| match *e {
            Event::TurnEnd { reason } => Some(reason),
            _ => None,
        });
        let over = events.iter().find_map(|e| match *e {
            Event::GameOver { reason, .. } => Some(reason),
            _ => None,
        });
        let refill = events.iter().any(|e| matches!(e, Event::Refill { .. }));
        // One rule at a time: no game end or refill in the middle of another rule's example.
        let quiet = over.is_none() && !refill;
        match self {
            Topic::Relay => quiet && relays == 1 && captures == 0,
            Topic::Capture => quiet && relays == 0 && captures == 1 && !mandarin_taken,
            Topic::Chain => quiet && relays == 0 && captures >= 2,
            Topic::MandarinStop => {
                quiet
                    && relays == 0
                    && captures == 0
                    && matches!(end, Some(TurnEnd::MandarinPit { .. }))
            }
            Topic::TwoEmpty => {
                quiet
                    && relays == 0
                    && captures == 0
                    && matches!(end, Some(TurnEnd::TwoEmpty { .. }))
            }
            Topic::Refill => over.is_none() && refill && captures <= 1,
            Topic::Protected => quiet && matches!(end, Some(TurnEnd::Protected { .. })),
            Topic::FirstMove => quiet && ply == 0 && matches!(end, Some(TurnEnd::Protected { .. })),
            Topic::Flip => events.contains(&Event::Swap),
            Topic::WinningScore => matches!(over, Some(EndReason::ScoreReached { .. })),
        }
    }
}

/// An example: the moves of a game from the start, then the move that shows the topic.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    pub topic: Topic,
    pub moves: Vec<Move>,
    pub mv: Move,
}

impl Example {
    /// The position the example's move is played on.
    pub fn position(&self, rules: RuleSet) -> Position {
        let mut pos = Position::new(rules);
        for &mv in &self.moves {
            // The moves were legal when the example was found.
            let _ = pos.play(mv);
        }
        pos
    }
}

/// Games played to look for each example, and the seed of their moves.
const GAMES: u32 = 300;
const SEED: u64 = 0x5EED_1E55;

/// The first example of `topic` under `rules` that seeded games reach, if any.
///
/// ```
/// use oaq_rules::presets;
/// use oaq_session::lesson::{Topic, find};
/// let rules = presets::get("standard").unwrap().rules;
/// let example = find(&rules, Topic::Chain).unwrap();
/// let mut pos = example.position(rules);
/// let outcome = pos.play(example.mv).unwrap();
/// assert!(Topic::Chain.shown_by(&outcome.events, pos.ply() - 1));
/// ```
pub fn find(rules: &RuleSet, topic: Topic) -> Option<Example> {
    let mut state = SEED;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..GAMES {
        let mut pos = Position::new(*rules);
        let mut moves = Vec::new();
        while !pos.is_over() {
            let legal = pos.legal_moves();
            for &mv in legal.iter() {
                let mut after = pos;
                if let Ok(outcome) = after.play(mv)
                    && topic.shown_by(&outcome.events, pos.ply())
                {
                    return Some(Example { topic, moves, mv });
                }
            }
            let mv = legal[(next() % legal.len() as u64) as usize];
            if pos.play(mv).is_err() {
                break;
            }
            moves.push(mv);
        }
    }
    None
}

/// Every example for `rules`, in the order of `Topic::all_for`.
pub fn examples(rules: &RuleSet) -> Vec<Example> {
    Topic::all_for(rules)
        .into_iter()
        .filter_map(|topic| find(rules, topic))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::presets;

    #[test]
    fn every_preset_has_an_example_of_each_of_its_topics() {
        for preset in presets::all() {
            let mut rules = preset.rules;
            if rules.players == 2 {
                rules.win_at = Some(rules.majority());
            }
            for topic in Topic::all_for(&rules) {
                let example = find(&rules, topic)
                    .unwrap_or_else(|| panic!("{}: no example of {topic:?}", preset.id));
                let mut pos = example.position(rules);
                let ply = pos.ply();
                let outcome = pos.play(example.mv).unwrap();
                assert!(
                    topic.shown_by(&outcome.events, ply),
                    "{}: {topic:?}",
                    preset.id
                );
            }
        }
    }

    #[test]
    fn the_variant_topics_follow_the_rules() {
        let topics = |id: &str| Topic::all_for(&presets::get(id).unwrap().rules);
        assert!(topics("young-mandarin").contains(&Topic::Protected));
        assert!(topics("mature-quan").contains(&Topic::Protected));
        assert!(topics("ten-seeds").contains(&Topic::FirstMove));
        assert!(topics("table-flip").contains(&Topic::Flip));
        assert!(!topics("standard").contains(&Topic::Flip));
    }
}
