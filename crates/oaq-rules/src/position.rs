//! A validated position: the board, the stores, whose turn it is, and the rule set it is played by.

use super::error::{IllegalReason, PlayError, PositionError};
use super::event::{Event, EventSink, NoEvents};
use super::geometry::{self, Direction, MAX_PLAYERS, ROW_LEN};
use super::moves::{Move, MoveList, ROW_MOVES};
use super::outcome::Outcome;
use super::pits::{Pits, Ring, Ring12, Ring18};
use super::ruleset::{MandarinStart, RuleSet};
use super::setup::Setup;
use super::store::{Store, score_of};

/// The repetition history before any move: six empty slots (`Move::code` never gives 0xFF).
const NO_HISTORY: u64 = 0xFFFF_FFFF_FFFF;

/// A position that can arise under its rule set, with everything needed to play on.
///
/// ```
/// use oaq_rules::{Move, Position, presets};
/// let mut pos = Position::new(presets::get("standard").unwrap().rules);
/// assert_eq!(pos.legal_moves().len(), 10);
/// let outcome = pos.play("2-".parse::<Move>().unwrap()).unwrap();
/// assert_eq!(outcome.captured(), 6);
/// assert_eq!(pos.scores()[0], 6);
/// assert_eq!(pos.to_move(), 1);
/// assert!(pos.play("2-".parse().unwrap()).is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub(super) rules: RuleSet,
    /// Small stones per ring index; slots past the board's ring stay 0.
    pub(super) pits: Pits,
    /// Bit i set: mandarin pit i (a ring index) still holds its mandarin piece.
    pub(super) quan: u32,
    pub(super) stores: [Store; MAX_PLAYERS],
    pub(super) ply: u32,
    pub(super) to_move: u8,
    pub(super) over: bool,
    pub(super) forfeit: Option<u8>,
    pub(super) swapped: bool,
    /// Codes of the last six moves, one byte each, newest in the lowest byte: what the
    /// repetition end looks at.
    pub(super) recent: u64,
}

impl Position {
    /// The start of a game: five stones in every citizen pit, and a mandarin in every mandarin
    /// pit (or ten stones, by the rule set).
    pub fn new(rules: RuleSet) -> Position {
        let mut pits = Pits::empty();
        let mut quan = 0;
        for p in 0..rules.player_count() {
            for i in geometry::row(p) {
                pits.set(i, 5);
            }
            match rules.mandarin_start {
                MandarinStart::Piece => quan |= 1 << geometry::mandarin_pit(p),
                MandarinStart::TenStones => pits.set(geometry::mandarin_pit(p), 10),
            }
        }
        Position {
            rules,
            pits,
            quan,
            stores: [Store::default(); MAX_PLAYERS],
            ply: 0,
            to_move: 0,
            over: false,
            forfeit: None,
            swapped: false,
            recent: NO_HISTORY,
        }
    }

    /// A position from its parts, checked against the rule set: refused, with the field at
    /// fault named, unless it could have arisen within the bounds of [`super::limits`]. Whatever
    /// it accepts, `play` then handles exactly for any sequence of moves.
    ///
    /// ```
    /// use oaq_rules::{Position, RuleSet, Setup};
    /// let mut setup = Setup::start(&RuleSet::default());
    /// setup.stores[1].owes[0] = 30;
    /// let error = Position::from_setup(RuleSet::default(), &setup).unwrap_err();
    /// assert_eq!(error.field, "stores[1].owes");
    /// // Six refills could have borrowed as much.
    /// setup.ply = 6;
    /// assert!(Position::from_setup(RuleSet::default(), &setup).is_ok());
    /// ```
    pub fn from_setup(rules: RuleSet, setup: &Setup) -> Result<Position, PositionError> {
        setup.validate(&rules)?;
        let mut pos = Position::new(rules);
        pos.pits = Pits::from_slice(&setup.pits);
        pos.quan = (0..setup.quan.len())
            .filter(|&p| setup.quan[p])
            .fold(0, |bits, p| bits | 1 << geometry::mandarin_pit(p));
        pos.stores[..setup.stores.len()].copy_from_slice(&setup.stores);
        pos.ply = setup.ply;
        pos.to_move = setup.to_move;
        pos.over = setup.over;
        pos.forfeit = setup.forfeit;
        pos.swapped = setup.swapped;
        Ok(pos)
    }

    /// The parts of this position, as `from_setup` takes them (`Setup::start` is the start's).
    pub fn setup(&self) -> Setup {
        let players = self.players();
        Setup {
            ply: self.ply,
            to_move: self.to_move,
            pits: self.pits().to_vec(),
            quan: (0..players).map(|p| self.has_mandarin(p)).collect(),
            stores: self.stores[..players].to_vec(),
            over: self.over,
            forfeit: self.forfeit,
            swapped: self.swapped,
        }
    }

    pub fn rules(&self) -> &RuleSet {
        &self.rules
    }

    pub fn players(&self) -> usize {
        self.rules.player_count()
    }

    /// Moves played so far (a `swap` is not a move).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The seat to move (after the game ends: the seat that would have moved next).
    pub fn to_move(&self) -> usize {
        usize::from(self.to_move)
    }

    /// Small stones per ring index.
    pub fn pits(&self) -> &[u8] {
        self.pits.as_slice(geometry::ring_len(self.players()))
    }

    /// Whether the mandarin pit after `player`'s row still holds its mandarin piece.
    pub fn has_mandarin(&self, player: usize) -> bool {
        self.has_piece_at(geometry::mandarin_pit(player))
    }

    pub fn store(&self, player: usize) -> &Store {
        &self.stores[player]
    }

    /// Whether ring index `index` holds nothing at all (no stone, no mandarin piece).
    #[inline(always)]
    pub fn is_empty_pit(&self, index: usize) -> bool {
        // `&`, not `&&`: both halves are cheap, and a branch here would mispredict often.
        (self.pits.get(index) == 0) & !self.has_piece_at(index)
    }

    /// Whether ring index `index` is a mandarin pit that still holds its mandarin piece.
    #[inline(always)]
    pub fn has_piece_at(&self, index: usize) -> bool {
        self.quan >> index & 1 != 0
    }

    /// 10 × mandarins + stones − what the player owes + what is owed to them.
    pub fn score(&self, player: usize) -> i32 {
        score_of(&self.stores, player)
    }

    /// Every seat's score; seats the board does not have score 0.
    pub fn scores(&self) -> [i32; MAX_PLAYERS] {
        let mut scores = [0; MAX_PLAYERS];
        for (p, score) in scores.iter_mut().enumerate().take(self.players()) {
            *score = self.score(p);
        }
        scores
    }

    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The player who lost by being unable to pay for a refill.
    pub fn forfeit(&self) -> Option<usize> {
        self.forfeit.map(usize::from)
    }

    /// One-byte codes of the last six moves, newest first (0xFF: none), for whoever needs to
    /// tell apart positions that differ only in what the repetition end will look at.
    pub fn recent_moves(&self) -> [u8; 6] {
        let bytes = self.recent.to_le_bytes();
        [bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5]]
    }

    /// This position with `recent` as its last six moves (as `recent_moves` gives them): for a
    /// position carried as its parts, which leave them out. Refused, with the reason, unless
    /// each is a move this board has, or 0xFF (none) for the oldest, and there are no more of
    /// them than moves played.
    pub fn with_recent_moves(mut self, recent: [u8; 6]) -> Result<Position, String> {
        let ring = geometry::ring_len(self.players());
        let known = recent.iter().take_while(|&&code| code != 0xFF).count();
        if recent[known..].iter().any(|&code| code != 0xFF) {
            return Err("a move is older than a slot left empty (0xFF)".into());
        }
        if known as u32 > self.ply {
            return Err(format!(
                "{known} moves, but only {} have been played",
                self.ply
            ));
        }
        for &code in &recent[..known] {
            match Move::from_code(code) {
                Some(Move::Sow { pit, .. })
                    if usize::from(pit) < ring && !geometry::is_mandarin(usize::from(pit)) => {}
                _ => {
                    return Err(format!(
                        "{code} is not the code of a sowing move on this board"
                    ));
                }
            }
        }
        self.recent = u64::from_le_bytes([
            recent[0], recent[1], recent[2], recent[3], recent[4], recent[5], 0, 0,
        ]);
        Ok(self)
    }

    /// Whether the players have exchanged sides by a table flip.
    pub fn swapped(&self) -> bool {
        self.swapped
    }

    /// Whether `swap` is legal now: table flip rules, right after the opening move, not yet used.
    pub fn can_swap(&self) -> bool {
        self.rules.table_flip && !self.over && self.ply == 1 && !self.swapped
    }

    /// Final places once the game is over, per seat: 0 for the winner; equal scores share a
    /// place, and a player who forfeited is last.
    pub fn places(&self) -> Option<[u8; MAX_PLAYERS]> {
        if !self.over {
            return None;
        }
        let rank = |p: usize| (self.forfeit == Some(p as u8), -self.score(p));
        let mut places = [0; MAX_PLAYERS];
        for (p, place) in places.iter_mut().enumerate().take(self.players()) {
            *place = (0..self.players()).filter(|&q| rank(q) < rank(p)).count() as u8;
        }
        Some(places)
    }

    /// Every move the player to move may make.
    #[inline(always)]
    pub fn legal_moves(&self) -> MoveList {
        if self.over {
            return MoveList::new();
        }
        let player = self.to_move();
        let mut moves = ROW_MOVES[player][self.pits.row_stocked(player) as usize];
        if self.can_swap() {
            moves.push(Move::Swap);
        }
        moves
    }

    /// How many moves `legal_moves` would list, without listing them.
    ///
    /// ```
    /// use oaq_rules::{Position, RuleSet};
    /// let start = Position::new(RuleSet::default());
    /// assert_eq!(start.legal_move_count(), start.legal_moves().len());
    /// ```
    #[inline(always)]
    pub fn legal_move_count(&self) -> usize {
        if self.over {
            return 0;
        }
        // Two moves for each stocked pit.
        const COUNT: [u8; 1 << ROW_LEN] = {
            let mut count = [0; 1 << ROW_LEN];
            let mut stocked = 0;
            while stocked < count.len() {
                count[stocked] = 2 * (stocked as u32).count_ones() as u8;
                stocked += 1;
            }
            count
        };
        let stocked = self.pits.row_stocked(self.to_move());
        usize::from(COUNT[stocked as usize]) + usize::from(self.can_swap())
    }

    /// Why `mv` cannot be played here, if it cannot.
    pub fn check(&self, mv: Move) -> Result<(), IllegalReason> {
        if self.over {
            return Err(IllegalReason::GameOver);
        }
        match mv {
            Move::Swap if self.can_swap() => Ok(()),
            Move::Swap => Err(IllegalReason::SwapNotAllowed),
            Move::Sow { pit, .. } => {
                let pit = usize::from(pit);
                if pit >= geometry::ring_len(self.players()) {
                    Err(IllegalReason::NoSuchPit)
                } else if geometry::is_mandarin(pit) {
                    Err(IllegalReason::MandarinPit)
                } else if geometry::owner(pit) != self.to_move() {
                    Err(IllegalReason::NotYourPit {
                        owner: geometry::owner(pit) as u8,
                    })
                } else if self.pits.get(pit) == 0 {
                    Err(IllegalReason::EmptyPit)
                } else {
                    Ok(())
                }
            }
        }
    }

    pub fn is_legal(&self, mv: Move) -> bool {
        self.check(mv).is_ok()
    }

    /// Play `mv` and return what happened. An illegal move changes nothing.
    pub fn play(&mut self, mv: Move) -> Result<Outcome, PlayError> {
        let mut events = Vec::new();
        self.play_with(mv, &mut events)?;
        Ok(Outcome { events })
    }

    /// Play `mv`, writing what happens into `sink`. An illegal move changes nothing.
    pub fn play_with<S: EventSink>(&mut self, mv: Move, sink: &mut S) -> Result<(), PlayError> {
        if let Err(reason) = self.check(mv) {
            return Err(PlayError {
                mv,
                reason,
                legal: self.legal_moves(),
            });
        }
        self.apply(mv, sink);
        Ok(())
    }

    /// Play a move from `legal_moves()` as fast as possible, recording nothing.
    ///
    /// A move that is not legal leaves the position in an unspecified (but memory-safe) state.
    #[inline]
    pub fn play_unchecked(&mut self, mv: Move) {
        debug_assert!(self.is_legal(mv), "{mv} is not legal");
        self.apply(mv, &mut NoEvents);
    }

    #[inline(always)]
    fn apply<S: EventSink>(&mut self, mv: Move, sink: &mut S) {
        match mv {
            Move::Swap => {
                self.swapped = true;
                sink.push(Event::Swap);
            }
            // The ring's form chosen here, once, for all the move's work.
            Move::Sow { pit, dir } => match self.players() {
                2 => self.sow_turn::<S, Ring12>(mv, usize::from(pit), dir, sink),
                _ => self.sow_turn::<S, Ring18>(mv, usize::from(pit), dir, sink),
            },
        }
    }

    #[inline(always)]
    fn sow_turn<S: EventSink, R: Ring>(
        &mut self,
        mv: Move,
        pit: usize,
        dir: Direction,
        sink: &mut S,
    ) {
        self.sow_and_capture::<S, R>(pit, dir, sink);
        self.ply = self.ply.saturating_add(1);
        self.recent = (self.recent << 8 | u64::from(mv.code())) & NO_HISTORY;
        self.finish_turn::<S, R>(sink);
    }
}

impl Setup {
    /// The parts of the start position.
    pub fn start(rules: &RuleSet) -> Setup {
        Position::new(*rules).setup()
    }
}
