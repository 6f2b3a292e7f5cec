//! How often a player's comings and goings reach the game's log, which their opponent reads:
//! an `away` (and the `back` that follows it) at most once per claim period (a minute by
//! default) per seat. A departure within the period after the last one written is kept here,
//! and written, with its own time, only once the period is up and the player is still gone;
//! a player back before that leaves nothing in the log. So a program reconnecting its stream
//! over and over, or a phone on a bad line, writes nothing more, and a claim stays exactly as
//! early as before: the opponent may claim a period after the player left, which is when the
//! departure is written at the latest.

/// Each seat's last departure or return written, and the departure kept back.
#[derive(Clone, Debug, Default)]
pub struct Presence {
    written_ms: Vec<Option<i64>>,
    pending_ms: Vec<Option<i64>>,
}

impl Presence {
    pub fn new(seats: usize) -> Presence {
        Presence {
            written_ms: vec![None; seats],
            pending_ms: vec![None; seats],
        }
    }

    fn recent(&self, seat: usize, now: i64, every_ms: i64) -> bool {
        self.written_ms
            .get(seat)
            .copied()
            .flatten()
            .is_some_and(|at| now - at < every_ms)
    }

    /// `seat`'s player left at `now`: whether to write it now (else it is kept back).
    pub fn left(&mut self, seat: usize, now: i64, every_ms: i64) -> bool {
        if seat >= self.written_ms.len() {
            return true;
        }
        if self.recent(seat, now, every_ms) {
            self.pending_ms[seat].get_or_insert(now);
            return false;
        }
        self.written_ms[seat] = Some(now);
        true
    }

    /// `seat`'s player is back: whether a departure kept back was dropped (then nothing is to
    /// be written: the log never said they left).
    pub fn back(&mut self, seat: usize) -> bool {
        self.pending_ms
            .get_mut(seat)
            .is_some_and(|pending| pending.take().is_some())
    }

    /// `seat`'s return was written at `now`.
    pub fn wrote_back(&mut self, seat: usize, now: i64) {
        if let Some(written) = self.written_ms.get_mut(seat) {
            *written = Some(now);
        }
    }

    /// When the first departure kept back is due to be written.
    pub fn due_ms(&self, every_ms: i64) -> Option<i64> {
        (0..self.pending_ms.len())
            .filter(|&s| self.pending_ms[s].is_some())
            .map(|s| self.written_ms[s].unwrap_or(0) + every_ms)
            .min()
    }

    /// The departures due at `now`, as (seat, when they left), taken.
    pub fn take_due(&mut self, now: i64, every_ms: i64) -> Vec<(usize, i64)> {
        let mut due = Vec::new();
        for seat in 0..self.pending_ms.len() {
            if self.pending_ms[seat].is_some() && !self.recent(seat, now, every_ms) {
                let at = self.pending_ms[seat].take().unwrap_or(now);
                self.written_ms[seat] = Some(now);
                due.push((seat, at));
            }
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reconnecting_within_the_period_writes_nothing_and_a_player_still_gone_is_written() {
        let every = 60_000;
        let mut p = Presence::new(2);
        // The first departure is written; its return too (the log said they left).
        assert!(p.left(0, 1_000, every));
        assert!(!p.back(0));
        p.wrote_back(0, 2_000);
        // A hundred more within the minute: kept back and dropped, nothing written.
        for i in 0..100 {
            assert!(!p.left(0, 3_000 + i * 100, every));
            assert!(p.back(0));
        }
        assert_eq!(p.due_ms(every), None);
        // Gone again and not back: written when the minute since the last write is up, with
        // the time they left.
        assert!(!p.left(0, 30_000, every));
        assert_eq!(p.due_ms(every), Some(62_000));
        assert!(p.take_due(61_999, every).is_empty());
        assert_eq!(p.take_due(62_000, every), vec![(0, 30_000)]);
        assert_eq!(p.due_ms(every), None);
        // The other seat was never held back, nor is a first departure long after a return.
        assert!(p.left(1, 30_000, every));
        p.wrote_back(0, 100_000);
        assert!(p.left(0, 200_000, every));
    }
}
