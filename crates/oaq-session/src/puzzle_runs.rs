//! Ways to play the puzzle set besides one after another: the daily puzzle (the same for
//! everyone on a date, online or not), Streak (puzzles of rising rating until the first miss)
//! and Storm (as many as can be solved in three minutes; a miss costs seconds).

/// A day in milliseconds: days are counted in UTC, so that everyone has the same daily puzzle.
pub const DAY_MS: i64 = 24 * 3600 * 1000;
/// A Storm's length.
pub const STORM_MS: i64 = 180_000;
/// What a miss costs in a Storm.
pub const STORM_MISS_MS: i64 = 10_000;
/// How far back the daily puzzle's archive goes.
pub const ARCHIVE_DAYS: i64 = 60;

/// The day (since 1970-01-01, UTC) of a time in milliseconds.
pub fn day_of(ms: i64) -> i64 {
    ms.div_euclid(DAY_MS)
}

/// A day as its date in UTC, `2026-12-07`.
///
/// ```
/// assert_eq!(oaq_session::puzzle_runs::date(20_429), "2025-12-07");
/// ```
pub fn date(day: i64) -> String {
    use chrono::Datelike;
    chrono::DateTime::from_timestamp_millis(day.saturating_mul(DAY_MS)).map_or_else(
        || day.to_string(),
        |d| format!("{:04}-{:02}-{:02}", d.year(), d.month(), d.day()),
    )
}

/// The daily puzzle of `day` in a set of `count`: the same on every device with the same set.
///
/// ```
/// use oaq_session::puzzle_runs::daily_index;
/// assert_eq!(daily_index(20_000, 2400), daily_index(20_000, 2400));
/// assert_ne!(daily_index(20_000, 2400), daily_index(20_001, 2400));
/// assert_eq!(daily_index(20_000, 0), None);
/// ```
pub fn daily_index(day: i64, count: usize) -> Option<usize> {
    (count > 0).then(|| (mix(day as u64) % count as u64) as usize)
}

/// SplitMix64's finaliser: neighbouring days far apart in the set.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The puzzles of a Streak or a Storm: given `(index, rating)` of each puzzle that may come,
/// one from each band of `band` rating points from `from` upward, the lowest band first; the
/// puzzle within a band chosen by `seed`. Every band holds each puzzle once, so none repeats.
///
/// ```
/// use oaq_session::puzzle_runs::rising;
/// let set: Vec<(usize, u16)> = (0..100).map(|i| (i, 1000 + 10 * i as u16)).collect();
/// let run = rising(&set, 1000, 100, 7);
/// assert_eq!(run.len(), 10);
/// assert!(run.windows(2).all(|w| set[w[0]].1 < set[w[1]].1));
/// ```
pub fn rising(puzzles: &[(usize, u16)], from: u16, band: u16, seed: u64) -> Vec<usize> {
    let band = band.max(1);
    let mut bands: std::collections::BTreeMap<u16, Vec<usize>> = Default::default();
    for &(index, rating) in puzzles {
        if rating >= from {
            bands.entry((rating - from) / band).or_default().push(index);
        }
    }
    bands
        .into_values()
        .enumerate()
        .map(|(k, mut members)| {
            members.sort_unstable();
            members[(mix(seed ^ k as u64) % members.len() as u64) as usize]
        })
        .collect()
}

/// A Storm under way: when it started, its misses, what was solved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Storm {
    pub started_ms: i64,
    pub solved: u32,
    pub missed: u32,
}

impl Storm {
    pub fn new(now_ms: i64) -> Storm {
        Storm {
            started_ms: now_ms,
            solved: 0,
            missed: 0,
        }
    }

    /// Milliseconds left at `now_ms` (never below 0): three minutes less the time gone and
    /// what the misses cost.
    ///
    /// ```
    /// use oaq_session::puzzle_runs::{Storm, STORM_MS, STORM_MISS_MS};
    /// let mut storm = Storm::new(0);
    /// storm.miss();
    /// assert_eq!(storm.left_ms(1000), STORM_MS - 1000 - STORM_MISS_MS);
    /// assert!(storm.is_over(STORM_MS));
    /// ```
    pub fn left_ms(&self, now_ms: i64) -> i64 {
        let gone = now_ms.saturating_sub(self.started_ms).max(0);
        (STORM_MS - gone - STORM_MISS_MS * i64::from(self.missed)).max(0)
    }

    pub fn is_over(&self, now_ms: i64) -> bool {
        self.left_ms(now_ms) == 0
    }

    pub fn solve(&mut self) {
        self.solved += 1;
    }

    pub fn miss(&mut self) {
        self.missed += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_daily_puzzle_changes_each_day_and_days_follow_utc() {
        assert_eq!(day_of(0), 0);
        assert_eq!(day_of(DAY_MS - 1), 0);
        assert_eq!(day_of(-1), -1);
        let days: std::collections::BTreeSet<usize> = (20_000..20_030)
            .filter_map(|d| daily_index(d, 2400))
            .collect();
        assert!(days.len() >= 28, "a month of dailies repeats: {days:?}");
    }

    #[test]
    fn a_run_rises_and_another_seed_picks_others() {
        let set: Vec<(usize, u16)> = (0..600).map(|i| (i, 900 + (i as u16 * 7) % 1400)).collect();
        let a = rising(&set, 1000, 50, 1);
        let b = rising(&set, 1000, 50, 2);
        assert!(a.windows(2).all(|w| set[w[0]].1 < set[w[1]].1));
        assert!(set[a[0]].1 < 1050);
        assert_ne!(a, b);
        let mut seen = a.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), a.len(), "no puzzle twice");
    }
}
