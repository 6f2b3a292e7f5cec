//! Guesses: a room code, a tournament id, a link or friend code, a token, a password. Each is
//! counted against the address *before* it is looked up (so that many sent at once cannot all
//! pass a check that counted none of them) and given back when it was right: only wrong
//! guesses use up an address's allowance.

use std::net::IpAddr;

use crate::limits::AddressBuckets;

/// An address past its allowance of wrong guesses: nothing was looked up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooManyGuesses;

/// One guess, counted as wrong until [`Guess::right`] says otherwise.
#[must_use = "a guess is settled by `right` (given back) or dropped (counted as wrong)"]
pub struct Guess<'a> {
    /// `None`: not counted (the asker showed it is no guess: a seat held, a token right lately).
    buckets: Option<&'a AddressBuckets>,
    addr: IpAddr,
}

impl<'a> Guess<'a> {
    /// Count a guess from `addr` before its look-up; refused when the address is past its
    /// allowance.
    pub fn take(buckets: &'a AddressBuckets, addr: IpAddr) -> Result<Guess<'a>, TooManyGuesses> {
        if buckets.take(addr) {
            Ok(Guess {
                buckets: Some(buckets),
                addr,
            })
        } else {
            Err(TooManyGuesses)
        }
    }

    /// A request that is no guess (its asker holds what it names): nothing counted.
    pub fn uncounted(addr: IpAddr) -> Guess<'a> {
        Guess {
            buckets: None,
            addr,
        }
    }

    /// The guess was right (or nothing was learnt from it: the store failed): given back.
    pub fn right(self) {
        if let Some(buckets) = self.buckets {
            buckets.give_back(self.addr);
        }
    }

    /// The guess was wrong: it stays counted.
    pub fn wrong(self) {}

    /// Settle by the look-up's outcome: given back unless `wrong`.
    pub fn settle(self, wrong: bool) {
        if !wrong {
            self.right();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_wrong_guesses_use_up_the_allowance_and_each_is_counted_before_it_is_settled() {
        let buckets = AddressBuckets::new(3.0);
        let addr: IpAddr = "127.0.0.9".parse().unwrap();
        // Three held at once (looked up concurrently): the fourth is refused before any of
        // them is settled.
        let held: Vec<_> = (0..3)
            .map(|_| Guess::take(&buckets, addr).unwrap())
            .collect();
        assert!(Guess::take(&buckets, addr).is_err());
        for guess in held {
            guess.right();
        }
        for _ in 0..10 {
            Guess::take(&buckets, addr).unwrap().right();
        }
        for _ in 0..3 {
            Guess::take(&buckets, addr).unwrap().wrong();
        }
        assert_eq!(Guess::take(&buckets, addr).err(), Some(TooManyGuesses));
        let other: IpAddr = "127.0.0.10".parse().unwrap();
        assert!(Guess::take(&buckets, other).is_ok());
    }
}
