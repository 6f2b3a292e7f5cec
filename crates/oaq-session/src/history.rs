//! A match as it is played: who sits where, the moves so far with what each captured, and the
//! moves taken back (for redo). Undo and redo go back to the positions the moves were played on,
//! so the rules state after them is exactly the one before.

use super::clock::MatchClock;
use super::seat::Seat;
use oaq_rules::{Move, Outcome, PlayError, Position, RuleSet};

/// One move of the match.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub mv: Move,
    /// The side (seat of the board) that moved.
    pub side: usize,
    /// Points the move captured (a mandarin counts 10).
    pub captured: u32,
    /// The position the move was played on.
    pub before: Position,
}

/// The moves of one match, and the way back through them.
///
/// Undo takes back the human's move and the computer's reply together; redo plays them again:
///
/// ```
/// use oaq_rules::presets;
/// use oaq_session::{History, Seat};
/// let rules = presets::get("basic").unwrap().rules;
/// let mut history = History::new("basic", rules, vec![Seat::Human, Seat::Computer(4)]);
/// let start = *history.position();
/// history.play("2+".parse().unwrap()).unwrap();
/// let reply = history.position().legal_moves()[0]; // the computer's
/// history.play(reply).unwrap();
/// assert_eq!(history.undo(), 2);
/// assert_eq!(*history.position(), start);
/// assert_eq!(history.redo(), 2);
/// assert_eq!(history.moves().count(), 2);
/// ```
#[derive(Clone, Debug)]
pub struct History {
    /// Id of the rule set's preset, for the menu and saved games.
    pub preset: String,
    /// Who plays each side at the start; a table flip exchanges the first two.
    seats: Vec<Seat>,
    start: Position,
    now: Position,
    played: Vec<Entry>,
    /// Moves taken back, the next one to redo last.
    undone: Vec<Move>,
    /// The players' clock, in a timed game (by seat, so that it follows a player across a
    /// table flip).
    pub clock: Option<MatchClock>,
}

/// The seat (index in a match's seats) that plays `side` at `pos`: after a table flip the first
/// two sides have changed hands.
pub fn seat_at(pos: &Position, side: usize) -> usize {
    if pos.swapped() && side < 2 {
        1 - side
    } else {
        side
    }
}

impl History {
    pub fn new(preset: &str, rules: RuleSet, seats: Vec<Seat>) -> History {
        debug_assert_eq!(seats.len(), usize::from(rules.players));
        let start = Position::new(rules);
        History {
            preset: preset.to_owned(),
            seats,
            start,
            now: start,
            played: Vec::new(),
            undone: Vec::new(),
            clock: None,
        }
    }

    /// The position now.
    pub fn position(&self) -> &Position {
        &self.now
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn entries(&self) -> &[Entry] {
        &self.played
    }

    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.played.iter().map(|e| e.mv)
    }

    /// Who plays the seats at the start of the match.
    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    /// Who plays `side` of the board now: after a table flip the first two sides have changed
    /// hands.
    pub fn player_of(&self, side: usize) -> Seat {
        self.player_of_at(&self.now, side)
    }

    fn player_of_at(&self, pos: &Position, side: usize) -> Seat {
        self.seats[seat_at(pos, side)]
    }

    /// The seat (index in `seats`) that plays `side` of the board now.
    pub fn seat_of(&self, side: usize) -> usize {
        seat_at(&self.now, side)
    }

    /// Whether the match has ended: by the rules, or a player's time ran out.
    pub fn is_over(&self) -> bool {
        self.now.is_over() || self.flagged().is_some()
    }

    /// The seat whose time ran out, in a timed game that ended so.
    pub fn flagged(&self) -> Option<usize> {
        self.clock.as_ref().and_then(MatchClock::flagged)
    }

    /// The computer plays at `level` from its next move on.
    pub fn set_computer_level(&mut self, level: u8) {
        for seat in &mut self.seats {
            if let Seat::Computer(n) = seat {
                *n = level;
            }
        }
    }

    /// Who is to move now (`None` once the game is over).
    pub fn to_play(&self) -> Option<Seat> {
        (!self.is_over()).then(|| self.player_of(self.now.to_move()))
    }

    /// Play `mv` for the side to move. A new move forgets the moves that could be redone.
    /// In a timed game the mover's increment is added.
    pub fn play(&mut self, mv: Move) -> Result<Outcome, PlayError> {
        let seat = self.seat_of(self.now.to_move());
        let outcome = self.push(mv)?;
        self.undone.clear();
        if let Some(clock) = &mut self.clock {
            clock.moved(seat);
        }
        Ok(outcome)
    }

    fn push(&mut self, mv: Move) -> Result<Outcome, PlayError> {
        let before = self.now;
        let outcome = self.now.play(mv)?;
        self.played.push(Entry {
            mv,
            side: before.to_move(),
            captured: outcome.captured(),
            before,
        });
        Ok(outcome)
    }

    /// The match as it stood after its first `moves` moves, with nothing to redo: a step of
    /// a review.
    pub fn truncated(&self, moves: usize) -> History {
        let mut history = self.clone();
        if let Some(entry) = history.played.get(moves) {
            history.now = entry.before;
            history.played.truncate(moves);
        }
        history.undone.clear();
        history
    }

    /// Whether `undo` would take anything back: a human has moved.
    pub fn can_undo(&self) -> bool {
        self.played
            .iter()
            .any(|e| self.player_of_at(&e.before, e.side).is_human())
    }

    pub fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Take back the last human move and the computer's replies after it (one move when humans
    /// play every seat). Returns how many moves were taken back.
    pub fn undo(&mut self) -> usize {
        if !self.can_undo() {
            return 0;
        }
        let mut count = 0;
        while let Some(entry) = self.played.pop() {
            self.now = entry.before;
            self.undone.push(entry.mv);
            count += 1;
            if self.player_of_at(&entry.before, entry.side).is_human() {
                break;
            }
        }
        count
    }

    /// Play again what the last `undo` took back, up to the next human turn. Returns how many
    /// moves were replayed.
    pub fn redo(&mut self) -> usize {
        let mut count = 0;
        while let Some(mv) = self.undone.pop() {
            if self.push(mv).is_err() {
                // Cannot happen: the move was played on this very position before.
                self.undone.clear();
                break;
            }
            count += 1;
            if self.to_play().is_none_or(Seat::is_human) {
                break;
            }
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::presets;

    fn standard() -> RuleSet {
        presets::get("standard").unwrap().rules
    }

    /// Plays the first legal move `n` times.
    fn play_first(history: &mut History, n: usize) {
        for _ in 0..n {
            let mv = history.position().legal_moves()[0];
            history.play(mv).unwrap();
        }
    }

    #[test]
    fn undo_against_the_computer_takes_back_the_reply_too() {
        let seats = vec![Seat::Human, Seat::Computer(4)];
        let mut history = History::new("standard", standard(), seats);
        assert!(!history.can_undo());
        play_first(&mut history, 4);
        let before_third = history.entries()[2].before;
        let after_four = *history.position();
        assert_eq!(history.undo(), 2);
        assert_eq!(*history.position(), before_third);
        assert_eq!(history.to_play(), Some(Seat::Human));
        assert_eq!(history.redo(), 2);
        assert_eq!(*history.position(), after_four);
        assert!(!history.can_redo());
    }

    #[test]
    fn undo_in_a_two_player_game_takes_back_one_move() {
        let mut history = History::new("standard", standard(), vec![Seat::Human; 2]);
        play_first(&mut history, 3);
        let before_third = history.entries()[2].before;
        assert_eq!(history.undo(), 1);
        assert_eq!(*history.position(), before_third);
        assert!(history.can_redo());
        play_first(&mut history, 1);
        assert!(!history.can_redo(), "a new move forgets the undone ones");
    }

    #[test]
    fn undo_to_the_start_when_the_computer_opened() {
        let mut history =
            History::new("standard", standard(), vec![Seat::Computer(1), Seat::Human]);
        play_first(&mut history, 1);
        assert!(!history.can_undo(), "only the computer has moved");
        assert_eq!(history.undo(), 0);
        play_first(&mut history, 2);
        assert_eq!(history.undo(), 2);
        assert_eq!(history.entries().len(), 1);
        assert_eq!(history.to_play(), Some(Seat::Human));
    }

    #[test]
    fn captures_are_counted_per_move() {
        // Without borrowing, only captures change the mover's store during its move (until the
        // sweep of the last one).
        let rules = presets::get("basic").unwrap().rules;
        let mut history = History::new("basic", rules, vec![Seat::Human; 2]);
        while !history.position().is_over() {
            play_first(&mut history, 1);
        }
        let entries = history.entries();
        let mut total = 0;
        for pair in entries.windows(2) {
            let (this, next) = (pair[0], pair[1]);
            let gained =
                next.before.store(this.side).worth() - this.before.store(this.side).worth();
            assert_eq!(gained, this.captured as i32, "move {}", this.mv);
            total += this.captured;
        }
        assert!(total > 0);
    }

    #[test]
    fn a_truncated_match_stands_where_it_stood_after_that_many_moves() {
        let mut history = History::new("standard", standard(), vec![Seat::Human; 2]);
        let mut positions = vec![*history.position()];
        for mv in ["2+", "8-", "3+"] {
            history.play(mv.parse().unwrap()).unwrap();
            positions.push(*history.position());
        }
        for (n, pos) in positions.iter().enumerate() {
            let cut = history.truncated(n);
            assert_eq!(cut.position(), pos);
            assert_eq!(cut.entries(), &history.entries()[..n]);
            assert!(!cut.can_redo());
        }
    }

    #[test]
    fn a_table_flip_hands_the_sides_over() {
        let rules = presets::get("table-flip").unwrap().rules;
        let mut history = History::new("table-flip", rules, vec![Seat::Human, Seat::Computer(2)]);
        play_first(&mut history, 1);
        assert_eq!(history.to_play(), Some(Seat::Computer(2)));
        history.play(Move::Swap).unwrap();
        assert_eq!(history.player_of(0), Seat::Computer(2));
        assert_eq!(history.to_play(), Some(Seat::Human));
        assert_eq!(history.undo(), 2, "the flip and the human's opening");
        assert_eq!(history.player_of(0), Seat::Human);
    }
}
