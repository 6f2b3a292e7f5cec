//! The player's practice and puzzle progress as small records that the devices of one player
//! share through the server. Each record has a key and a rank; of two versions of one record
//! the higher rank is kept, on the server and on every device alike: the later review of a
//! puzzle to practise, the later try of a rated puzzle, the later rating, the larger count or
//! best. Devices that exchange their records in any order end with the same ones.
//!
//! ```
//! use oaq_session::{Practice, PuzzleProgress, training};
//! let (mut practice, mut phone) = (Practice::default(), PuzzleProgress::default());
//! let mut tablet = PuzzleProgress::default();
//! tablet.solved_one("basic-0001", true);
//! tablet.storm_ended(12);
//! for record in training::records(&Practice::default(), &tablet) {
//!     training::apply(&mut practice, &mut phone, record);
//! }
//! assert!(phone.solved.contains("basic-0001"));
//! assert_eq!(phone.best_storm, 12);
//! ```

use serde::{Deserialize, Serialize};

use oaq_ai::theme::Theme;

use crate::practice::{Practice, PracticeCard};
use crate::puzzle_progress::PuzzleProgress;
use crate::puzzle_rating::{HISTORY_DAYS, MAX_RATED_PUZZLES, Rated, ThemeCount};
use crate::puzzle_runs::{DAY_MS, day_of};

/// The longest record, as JSON: a puzzle to practise with a long line is about 1.5 KiB.
pub const MAX_RECORD_BYTES: usize = 4096;
/// Records one player may keep on a server: every kind's own cap, with room to spare (solved
/// puzzles that are no longer rated, days, themes, dailies and bests).
pub const MAX_RECORDS: usize = 10_000;
/// The longest puzzle id.
pub const MAX_ID: usize = 64;
/// The latest time a record may carry (2100-01-01, Unix ms).
const MAX_MS: i64 = 4_102_444_800_000;
/// The largest count or best a record may carry.
const MAX_COUNT: u32 = 10_000_000;

/// A best the puzzles keep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Best {
    /// Puzzles solved in a row at the first try.
    Streak,
    /// The longest Streak run.
    StreakRun,
    /// The most puzzles solved in one Storm.
    Storm,
}

impl Best {
    const ALL: [Best; 3] = [Best::Streak, Best::StreakRun, Best::Storm];

    fn name(self) -> &'static str {
        match self {
            Best::Streak => "streak",
            Best::StreakRun => "streak_run",
            Best::Storm => "storm",
        }
    }

    fn value(self, progress: &PuzzleProgress) -> u32 {
        match self {
            Best::Streak => progress.best_streak,
            Best::StreakRun => progress.best_streak_run,
            Best::Storm => progress.best_storm,
        }
    }

    fn of(self, progress: &mut PuzzleProgress) -> &mut u32 {
        match self {
            Best::Streak => &mut progress.best_streak,
            Best::StreakRun => &mut progress.best_streak_run,
            Best::Storm => &mut progress.best_storm,
        }
    }
}

/// One record of the player's practice or puzzle progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TrainingRecord {
    /// One of the player's own puzzles to practise, and its schedule.
    Card {
        card: Box<PracticeCard>,
    },
    /// A puzzle tried: whether it was ever solved, and its rating after the last try with
    /// when that was (Unix ms).
    Puzzle {
        id: String,
        solved: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rated: Option<(Rated, i64)>,
    },
    /// The player's puzzle rating, and when it last moved: the day's point of the history too.
    Rating {
        rated: Rated,
        at: i64,
    },
    /// The rating at the end of an earlier day played (days since 1970, UTC).
    Day {
        day: i64,
        rating: i32,
    },
    /// Puzzles of a theme tried and solved at the first try.
    Theme {
        theme: Theme,
        count: ThemeCount,
    },
    /// The daily puzzle of `day` was solved.
    Daily {
        day: i64,
    },
    Best {
        of: Best,
        value: u32,
    },
}

impl TrainingRecord {
    /// What the record is of: two records with one key are versions of one thing.
    pub fn key(&self) -> String {
        match self {
            TrainingRecord::Card { card } => format!("card:{}", card.puzzle.id),
            TrainingRecord::Puzzle { id, .. } => format!("puzzle:{id}"),
            TrainingRecord::Rating { .. } => "rating".to_owned(),
            TrainingRecord::Day { day, .. } => format!("day:{day}"),
            TrainingRecord::Theme { theme, .. } => format!("theme:{}", theme_name(*theme)),
            TrainingRecord::Daily { day } => format!("daily:{day}"),
            TrainingRecord::Best { of, .. } => format!("best:{}", of.name()),
        }
    }

    /// Of two versions of one record, the one with the higher rank is kept (an equal one
    /// changes nothing).
    pub fn rank(&self) -> i64 {
        match self {
            TrainingRecord::Card { card } => card.schedule.last_review.timestamp_millis(),
            TrainingRecord::Puzzle { solved, rated, .. } => {
                rated.map_or(0, |(_, at)| at) * 2 + i64::from(*solved)
            }
            TrainingRecord::Rating { at, .. } => *at,
            TrainingRecord::Day { rating, .. } => i64::from(*rating),
            TrainingRecord::Theme { count, .. } => {
                (i64::from(count.tried) << 32) | i64::from(count.solved)
            }
            TrainingRecord::Daily { .. } => 0,
            TrainingRecord::Best { value, .. } => i64::from(*value),
        }
    }

    /// Whether a device of this game could have made the record: every number in its
    /// bounds, every id short. The message names what is wrong.
    pub fn check(&self) -> Result<(), String> {
        let time = |what: &str, ms: i64| {
            (0..=MAX_MS)
                .contains(&ms)
                .then_some(())
                .ok_or_else(|| format!("{what}: {ms} is not a time this game could keep"))
        };
        let day = |d: i64| time("day", d.saturating_mul(DAY_MS));
        let rated = |r: &Rated| {
            r.is_sound()
                .then_some(())
                .ok_or_else(|| format!("rating {r:?} is out of range"))
        };
        match self {
            TrainingRecord::Card { card } => {
                id(&card.puzzle.id)?;
                let s = &card.schedule;
                time("due", s.due.timestamp_millis())?;
                time("last review", s.last_review.timestamp_millis())?;
                let sound = |x: f64| x.is_finite() && (0.0..=1e6).contains(&x);
                let count = |n: i64| (0..=i64::from(MAX_COUNT)).contains(&n);
                if !(sound(s.stability) && sound(s.difficulty)) {
                    return Err("the schedule's stability or difficulty is out of range".into());
                }
                if !(count(s.elapsed_days)
                    && count(s.scheduled_days)
                    && count(i64::from(s.reps))
                    && count(i64::from(s.lapses)))
                {
                    return Err("the schedule's days or counts are out of range".into());
                }
                Ok(())
            }
            TrainingRecord::Puzzle {
                id: i, rated: r, ..
            } => {
                id(i)?;
                match r {
                    Some((r, at)) => rated(r).and_then(|()| time("tried", *at)),
                    None => Ok(()),
                }
            }
            TrainingRecord::Rating { rated: r, at } => rated(r).and_then(|()| time("at", *at)),
            TrainingRecord::Day { day: d, rating } => day(*d).and_then(|()| {
                (0..=5000)
                    .contains(rating)
                    .then_some(())
                    .ok_or_else(|| format!("the rating {rating} is out of range"))
            }),
            TrainingRecord::Theme { count, .. } => (count.solved <= count.tried
                && count.tried <= MAX_COUNT)
                .then_some(())
                .ok_or_else(|| format!("theme count {count:?} is out of range")),
            TrainingRecord::Daily { day: d } => day(*d),
            TrainingRecord::Best { value, .. } => (*value <= MAX_COUNT)
                .then_some(())
                .ok_or_else(|| format!("best {value} is out of range")),
        }
    }
}

/// A puzzle id as one is kept: 1 to [`MAX_ID`] bytes, no control characters.
fn id(id: &str) -> Result<(), String> {
    if id.is_empty() || id.len() > MAX_ID || id.chars().any(char::is_control) {
        return Err(format!(
            "puzzle id of {} bytes: it takes 1 to {MAX_ID}, no control characters",
            id.len()
        ));
    }
    Ok(())
}

fn theme_name(theme: Theme) -> &'static str {
    theme.key().trim_start_matches("theme.")
}

/// Every record of the player's practice and puzzle progress.
pub fn records(practice: &Practice, progress: &PuzzleProgress) -> Vec<TrainingRecord> {
    let rating = &progress.rating;
    let mut all: Vec<TrainingRecord> = practice
        .cards
        .iter()
        .map(|card| TrainingRecord::Card {
            card: Box::new(card.clone()),
        })
        .collect();
    let ids: std::collections::BTreeSet<&String> = progress
        .solved
        .iter()
        .chain(rating.puzzles.keys())
        .collect();
    all.extend(ids.into_iter().map(|id| TrainingRecord::Puzzle {
        id: id.clone(),
        solved: progress.solved.contains(id),
        rated: rating.puzzles.get(id).copied(),
    }));
    let today = (rating.player_at > 0).then(|| day_of(rating.player_at));
    if today.is_some() {
        all.push(TrainingRecord::Rating {
            rated: rating.player,
            at: rating.player_at,
        });
    }
    all.extend(
        rating
            .history
            .iter()
            .filter(|(day, _)| Some(*day) != today)
            .map(|&(day, rating)| TrainingRecord::Day { day, rating }),
    );
    all.extend(
        rating
            .themes
            .iter()
            .map(|(&theme, &count)| TrainingRecord::Theme { theme, count }),
    );
    all.extend(
        progress
            .daily
            .iter()
            .map(|&day| TrainingRecord::Daily { day }),
    );
    all.extend(Best::ALL.into_iter().filter_map(|of| {
        let value = of.value(progress);
        (value > 0).then_some(TrainingRecord::Best { of, value })
    }));
    all
}

/// `record` taken into the practice and the progress where it ranks above what they hold.
/// Returns whether anything changed.
pub fn apply(
    practice: &mut Practice,
    progress: &mut PuzzleProgress,
    record: TrainingRecord,
) -> bool {
    match record {
        TrainingRecord::Card { card } => apply_card(practice, *card),
        TrainingRecord::Puzzle { id, solved, rated } => {
            let mut changed = solved && progress.solved.insert(id.clone());
            let kept = progress.rating.puzzles.get(&id).map(|&(_, at)| at);
            if let Some((r, at)) = rated
                && kept.is_none_or(|kept| at > kept)
            {
                progress.rating.puzzles.insert(id, (r, at));
                while progress.rating.puzzles.len() > MAX_RATED_PUZZLES {
                    let oldest = progress
                        .rating
                        .puzzles
                        .iter()
                        .min_by_key(|(_, (_, at))| *at);
                    let Some(oldest) = oldest.map(|(id, _)| id.clone()) else {
                        break;
                    };
                    progress.rating.puzzles.remove(&oldest);
                }
                changed = true;
            }
            changed
        }
        TrainingRecord::Rating { rated, at } => {
            let rating = &mut progress.rating;
            if at <= rating.player_at {
                return false;
            }
            rating.player = rated;
            rating.player_at = at;
            let point = rating.rating();
            set_day(&mut rating.history, day_of(at), |_| Some(point));
            true
        }
        TrainingRecord::Day { day, rating } => {
            let history = &mut progress.rating.history;
            let today = (progress.rating.player_at > 0).then(|| day_of(progress.rating.player_at));
            Some(day) != today
                && set_day(history, day, |kept| {
                    kept.is_none_or(|kept| rating > kept).then_some(rating)
                })
        }
        TrainingRecord::Theme { theme, count } => {
            let kept = progress.rating.themes.entry(theme).or_default();
            let rank = |c: &ThemeCount| (c.tried, c.solved);
            let higher = rank(&count) > rank(kept);
            if higher {
                *kept = count;
            }
            higher
        }
        TrainingRecord::Daily { day } => {
            let new = !progress.daily.contains(&day);
            progress.solved_daily(day);
            new && progress.daily.contains(&day)
        }
        TrainingRecord::Best { of, value } => {
            let kept = of.of(progress);
            let higher = value > *kept;
            *kept = (*kept).max(value);
            higher
        }
    }
}

/// A puzzle to practise: new, or a later review of one kept.
fn apply_card(practice: &mut Practice, card: PracticeCard) -> bool {
    let at = |c: &PracticeCard| c.schedule.last_review.timestamp_millis();
    match practice
        .cards
        .iter_mut()
        .find(|c| c.puzzle.id == card.puzzle.id)
    {
        Some(kept) if at(&card) > at(kept) => *kept = card,
        Some(_) => return false,
        None => {
            practice.cards.push(card);
            practice.keep_cap();
        }
    }
    true
}

/// The history's point of `day` set to what `new` makes of the one kept (`None`: unchanged),
/// in order, the oldest days dropped past [`HISTORY_DAYS`]. Returns whether it changed.
fn set_day(
    history: &mut Vec<(i64, i32)>,
    day: i64,
    new: impl FnOnce(Option<i32>) -> Option<i32>,
) -> bool {
    let at = history.partition_point(|&(d, _)| d < day);
    let kept = history.get(at).filter(|(d, _)| *d == day).map(|&(_, r)| r);
    let Some(rating) = new(kept).filter(|r| Some(*r) != kept) else {
        return false;
    };
    match kept {
        Some(_) => history[at].1 = rating,
        None => history.insert(at, (day, rating)),
    }
    if history.len() > HISTORY_DAYS {
        history.remove(0);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_ai::puzzle::{Difficulty, Puzzle, Step};

    /// 2026-12-07, noon UTC.
    const NOW: i64 = 1_796_644_800_000;

    fn puzzle(id: &str, theme: Theme) -> Puzzle {
        Puzzle {
            id: id.to_owned(),
            preset: "basic".to_owned(),
            moves: String::new(),
            difficulty: Difficulty::Easy,
            seen_at: 3,
            line: vec![Step {
                answer: "2-".to_owned(),
                reply: None,
                values: Vec::new(),
            }],
            themes: vec![theme],
        }
    }

    /// A device that played: puzzles tried on days `days`, one own puzzle practised.
    fn device(name: &str, start: i64, tries: usize) -> (Practice, PuzzleProgress) {
        let mut practice = Practice::default();
        let mut progress = PuzzleProgress::default();
        practice.add(vec![puzzle(&format!("{name}-own"), Theme::Chain)], start);
        practice.add(vec![puzzle("shared-own", Theme::Chain)], start);
        for n in 0..tries {
            let at = start + n as i64 * DAY_MS / 3;
            let p = puzzle(&format!("basic-{n:04}"), Theme::ALL[n % Theme::ALL.len()]);
            let solved = !(n + name.len()).is_multiple_of(3);
            progress.rating.record(&p, solved, at);
            if solved {
                progress.solved_one(&p.id, true);
            } else {
                progress.missed();
            }
            practice.answer("shared-own", solved, at);
        }
        progress.solved_daily(day_of(start));
        progress.storm_ended(tries as u32);
        (practice, progress)
    }

    fn sorted(practice: &Practice, progress: &PuzzleProgress) -> Vec<(String, i64)> {
        let mut all: Vec<(String, i64)> = records(practice, progress)
            .iter()
            .map(|r| (r.key(), r.rank()))
            .collect();
        all.sort();
        all
    }

    #[test]
    fn two_devices_that_exchange_their_records_in_any_order_end_alike() {
        let (mut phone_cards, mut phone) = device("phone", NOW, 7);
        let (mut tablet_cards, mut tablet) = device("tablet", NOW + DAY_MS, 5);
        let from_phone = records(&phone_cards, &phone);
        let mut from_tablet = records(&tablet_cards, &tablet);
        from_tablet.reverse();
        for r in from_tablet {
            apply(&mut phone_cards, &mut phone, r);
        }
        for r in from_phone {
            apply(&mut tablet_cards, &mut tablet, r);
        }
        // A second exchange settles what the first moved (the phone's day that became an
        // earlier one).
        for r in records(&phone_cards, &phone) {
            apply(&mut tablet_cards, &mut tablet, r);
        }
        for r in records(&tablet_cards, &tablet) {
            apply(&mut phone_cards, &mut phone, r);
        }
        assert_eq!(sorted(&phone_cards, &phone), sorted(&tablet_cards, &tablet));
        // The later device's rating and the later review of the shared puzzle won.
        let (later_cards, later) = device("tablet", NOW + DAY_MS, 5);
        assert_eq!(phone.rating.player, later.rating.player);
        let shared = |p: &Practice| {
            p.cards
                .iter()
                .find(|c| c.puzzle.id == "shared-own")
                .map(|c| c.schedule.clone())
        };
        assert_eq!(shared(&phone_cards), shared(&later_cards));
        assert_eq!(
            phone_cards.cards.len(),
            3,
            "both own puzzles and the shared one"
        );
        assert_eq!(phone.best_storm, 7);
        assert_eq!(phone.daily.len(), 2);
        assert_eq!(phone.rating.history.len(), 3, "the days either played");
        // Nothing applies twice.
        for r in records(&tablet_cards, &tablet) {
            assert!(!apply(&mut phone_cards, &mut phone, r.clone()), "{r:?}");
        }
    }

    #[test]
    fn a_record_travels_as_json_and_one_out_of_bounds_is_named() {
        let (practice, progress) = device("phone", NOW, 4);
        for record in records(&practice, &progress) {
            assert_eq!(record.check(), Ok(()), "{record:?}");
            let json = serde_json::to_string(&record).unwrap();
            assert!(json.len() <= MAX_RECORD_BYTES, "{json}");
            // JSON keeps a rating to within its last digit: the key and the rank exactly.
            let back: TrainingRecord = serde_json::from_str(&json).unwrap();
            assert_eq!((back.key(), back.rank()), (record.key(), record.rank()));
        }
        let bad = [
            TrainingRecord::Puzzle {
                id: "x".repeat(MAX_ID + 1),
                solved: true,
                rated: None,
            },
            TrainingRecord::Rating {
                rated: Rated {
                    rating: 9000.0,
                    ..Rated::default()
                },
                at: NOW,
            },
            TrainingRecord::Daily { day: -1 },
            TrainingRecord::Theme {
                theme: Theme::Chain,
                count: ThemeCount {
                    tried: 1,
                    solved: 2,
                },
            },
        ];
        for record in bad {
            assert!(record.check().is_err(), "{record:?}");
        }
        let error = TrainingRecord::Rating {
            rated: Rated::default(),
            at: -5,
        }
        .check()
        .unwrap_err();
        assert!(error.contains("at: -5"), "{error}");
    }
}
