//! Moves, their notation (`3+`, `7-`, `swap`) and a fixed-capacity list of them.

use std::fmt;
use std::ops::{Deref, DerefMut};
use std::str::FromStr;

use super::geometry::{self, Direction, MAX_PIT_NUMBER, ROW_LEN};

/// Text that is not a move in `3+` / `7-` / `swap` notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    pub text: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} is not a move: write a citizen pit number (1 to 10, or to 15 on the 3-player board) followed by + or -, or swap",
            crate::excerpt::quoted(&self.text)
        )
    }
}

impl std::error::Error for ParseMoveError {}

/// One turn's choice.
///
/// ```
/// use oaq_rules::{Direction, Move};
/// let m: Move = "2-".parse().unwrap();
/// assert_eq!(m, Move::sow(2, Direction::Clockwise).unwrap());
/// assert_eq!(m.to_string(), "2-");
/// assert_eq!("swap".parse::<Move>().unwrap(), Move::Swap);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Take every stone from the citizen pit at ring index `pit` and sow them in `dir`.
    Sow { pit: u8, dir: Direction },
    /// Table flip: the second player takes the opener's side (see `RuleSet::table_flip`).
    Swap,
}

impl Move {
    /// The sowing move from citizen pit number `number` (1-based), if such a pit exists.
    pub fn sow(number: u8, dir: Direction) -> Option<Move> {
        let index = geometry::citizen_index(number)?;
        Some(Move::Sow {
            pit: index as u8,
            dir,
        })
    }

    /// A one-byte code, unique per move: sowing moves stay below 2 × 18, `swap` is 0xFE, and
    /// 0xFF is free to mean "no move". Used to spot repeated moves and to index move tables.
    pub fn code(self) -> u8 {
        match self {
            Move::Sow { pit, dir } => pit * 2 + dir as u8,
            Move::Swap => u8::MAX - 1,
        }
    }

    /// The move of a `code`, if it is one. Says nothing of whether a board has that pit.
    pub fn from_code(code: u8) -> Option<Move> {
        match code {
            c if c == u8::MAX - 1 => Some(Move::Swap),
            c if usize::from(c / 2) < geometry::MAX_RING => Some(Move::Sow {
                pit: c / 2,
                dir: Direction::ALL[usize::from(c % 2)],
            }),
            _ => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Sow { pit, dir } => match geometry::pit_number(usize::from(pit)) {
                Some(number) => write!(f, "{number}{}", dir.symbol()),
                None => write!(f, "m{pit}{}", dir.symbol()),
            },
            Move::Swap => f.write_str("swap"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;

    fn from_str(text: &str) -> Result<Move, ParseMoveError> {
        let bad = || ParseMoveError {
            text: text.to_owned(),
        };
        if text == "swap" {
            return Ok(Move::Swap);
        }
        let dir = match text.chars().last() {
            Some('+') => Direction::CounterClockwise,
            Some('-') => Direction::Clockwise,
            _ => return Err(bad()),
        };
        let digits = &text[..text.len() - 1];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(bad());
        }
        let number: u8 = digits.parse().map_err(|_| bad())?;
        if number == 0 || number > MAX_PIT_NUMBER {
            return Err(bad());
        }
        Move::sow(number, dir).ok_or_else(bad)
    }
}

/// Most moves a position can offer: both directions from each of five pits, and `swap`.
pub const MAX_MOVES: usize = 2 * ROW_LEN + 1;

/// The legal moves of a position, without allocating.
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: u8,
}

impl Default for MoveList {
    fn default() -> MoveList {
        MoveList::new()
    }
}

impl MoveList {
    /// No moves yet (a search's own move order is pushed into one).
    pub const fn new() -> MoveList {
        MoveList {
            moves: [Move::Swap; MAX_MOVES],
            len: 0,
        }
    }

    /// One more move; at most [`MAX_MOVES`].
    pub const fn push(&mut self, m: Move) {
        self.moves[self.len as usize] = m;
        self.len += 1;
    }
}

/// The sowing moves of a row, by its owner and by which of its pits hold stones (bit k for the
/// row's pit k): both directions from each stocked pit, left to right, clockwise first. Read
/// whole by `Position::legal_moves` instead of built move by move.
pub(super) static ROW_MOVES: [[MoveList; 1 << ROW_LEN]; geometry::MAX_PLAYERS] = {
    let mut table = [[MoveList::new(); 1 << ROW_LEN]; geometry::MAX_PLAYERS];
    let mut player = 0;
    while player < geometry::MAX_PLAYERS {
        let mut stocked = 0;
        while stocked < 1 << ROW_LEN {
            let mut k = 0;
            while k < ROW_LEN {
                if stocked >> k & 1 == 1 {
                    let pit = (player * geometry::SLOTS_PER_PLAYER + k) as u8;
                    table[player][stocked].push(Move::Sow {
                        pit,
                        dir: Direction::Clockwise,
                    });
                    table[player][stocked].push(Move::Sow {
                        pit,
                        dir: Direction::CounterClockwise,
                    });
                }
                k += 1;
            }
            stocked += 1;
        }
        player += 1;
    }
    table
};

impl Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        &self.moves[..usize::from(self.len)]
    }
}

impl DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..usize::from(self.len)]
    }
}

impl fmt::Display for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, m) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{m}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips() {
        for number in 1..=MAX_PIT_NUMBER {
            for dir in Direction::ALL {
                let m = Move::sow(number, dir).unwrap();
                assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
            }
        }
    }

    #[test]
    fn bad_notation_is_refused() {
        for text in [
            "", "+", "0+", "16-", "3", "3*", "a+", "+3", "swap ", "1 +", "300+",
        ] {
            let err = text.parse::<Move>().unwrap_err();
            assert_eq!(err.text, text);
        }
    }

    #[test]
    fn codes_are_unique() {
        let mut seen = std::collections::HashSet::new();
        for number in 1..=MAX_PIT_NUMBER {
            for dir in Direction::ALL {
                let mv = Move::sow(number, dir).unwrap();
                assert!(seen.insert(mv.code()));
                assert_eq!(Move::from_code(mv.code()), Some(mv));
            }
        }
        assert!(seen.insert(Move::Swap.code()));
        assert_eq!(Move::from_code(Move::Swap.code()), Some(Move::Swap));
        assert_eq!(Move::from_code(u8::MAX), None);
    }
}
