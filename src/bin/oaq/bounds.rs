//! The ranges the command line accepts, as clap value parsers: each number is checked when it
//! is read, and a value out of range is refused with the range, before anything runs.

use std::ops::RangeInclusive;

/// Most games one `match` or `tune` trial plays.
pub const MOST_GAMES: usize = 100_000;
/// Deepest `perft`: each move more multiplies the count, and the time, by about six and a half
/// (depth 12 takes minutes here).
pub const PERFT_DEPTH: RangeInclusive<i64> = 1..=12;
/// Deepest search of `tune`'s self-play.
pub const TUNE_DEPTH: RangeInclusive<i64> = 1..=12;
/// Longest thinking time of `bench`, per position.
const MOST_SECONDS: f64 = 600.0;
/// Most games played at once.
pub const JOBS: RangeInclusive<i64> = 1..=256;

/// A number of games: each opening is played twice, seats swapped, so it must be even.
pub fn games(text: &str) -> Result<usize, String> {
    let n: usize = text
        .parse()
        .map_err(|_| format!("expected a whole number of games from 2 to {MOST_GAMES}"))?;
    if n % 2 == 1 {
        return Err(format!(
            "{n} is odd: every opening is played twice, seats swapped (give an even number from 2 to {MOST_GAMES})"
        ));
    }
    if !(2..=MOST_GAMES).contains(&n) {
        return Err(format!("{n} games: give 2 to {MOST_GAMES}"));
    }
    Ok(n)
}

/// A thinking time in seconds, above 0 and at most ten minutes.
pub fn seconds(text: &str) -> Result<f64, String> {
    let s: f64 = text
        .parse()
        .map_err(|_| format!("expected a number of seconds, up to {MOST_SECONDS}"))?;
    if !(s > 0.0 && s <= MOST_SECONDS) {
        return Err(format!(
            "{text} seconds: give more than 0, up to {MOST_SECONDS}"
        ));
    }
    Ok(s)
}

/// A factor on every level's time per move, 0.01 to 1.
pub fn time_scale(text: &str) -> Result<f64, String> {
    let scale: f64 = text
        .parse()
        .map_err(|_| "expected a number from 0.01 to 1".to_string())?;
    if !(0.01..=1.0).contains(&scale) {
        return Err(format!("{text} is outside 0.01 to 1"));
    }
    Ok(scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_even_and_bounded() {
        assert_eq!(games("200"), Ok(200));
        assert!(games("1").unwrap_err().contains("odd"));
        assert!(games("0").unwrap_err().contains("give 2 to"));
        assert!(games("18446744073709551615").is_err());
        assert!(games("100000000000").is_err());
        assert!(games("-4").is_err());
    }

    #[test]
    fn seconds_are_positive_and_finite() {
        assert_eq!(seconds("0.5"), Ok(0.5));
        for bad in ["-1", "0", "NaN", "inf", "1e30", "x"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
    }
}
