//! A tournament as it runs, without a clock or a store: who is in, the games being played,
//! each player's sheet, and the next pairings. The server keeps one per tournament, stores
//! what changes, and asks it for games: an arena's wave whenever players wait, a round robin's
//! round when the last one is over. Every change is checked first and refused with a reason,
//! changing nothing.

use serde::{Deserialize, Serialize};

use crate::arena::{self, Waiting, Wave};
use crate::berger;
use crate::swiss;
use crate::tiebreak::{Standing, standings};
use crate::{Outcome, Pairing, Result, Scoring, Sheet};

/// An arena's length, in minutes.
pub const ARENA_MINUTES: std::ops::RangeInclusive<u32> = 10..=720;
/// A round robin's players.
pub const ROUND_ROBIN_PLAYERS: std::ops::RangeInclusive<usize> = 3..=12;
/// An arena's players at most.
pub const ARENA_PLAYERS: usize = 2_000;
/// A Swiss's rounds.
pub const SWISS_ROUNDS: std::ops::RangeInclusive<u8> = 3..=15;
/// A Swiss's players at most.
pub const SWISS_PLAYERS: usize = 500;
/// The longest wait between a Swiss's rounds, in seconds (a week: rounds by days).
pub const SWISS_INTERVAL_SECS: u32 = 7 * 24 * 3600;
/// Pairs of players kept apart at most.
pub const KEPT_APART: usize = 100;

/// How the tournament is played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "format")]
pub enum Format {
    /// Games for `minutes`, each player paired again as soon as their game ends.
    Arena { minutes: u32, streaks: bool },
    /// Everyone meets everyone, once or `twice` (the seats swapped).
    RoundRobin { twice: bool },
    /// `rounds` rounds by the Dutch system, each begun `interval_secs` after the last one
    /// ended, or by the organiser (`None`).
    Swiss {
        rounds: u8,
        interval_secs: Option<u32>,
    },
}

impl Format {
    /// The format, if its numbers are in range.
    pub fn checked(self) -> std::result::Result<Format, Refused> {
        match self {
            Format::Arena { minutes, .. } if !ARENA_MINUTES.contains(&minutes) => {
                Err(Refused::Settings(format!(
                    "an arena lasts {} to {} minutes, not {minutes}",
                    ARENA_MINUTES.start(),
                    ARENA_MINUTES.end()
                )))
            }
            Format::Swiss { rounds, .. } if !SWISS_ROUNDS.contains(&rounds) => {
                Err(Refused::Settings(format!(
                    "a Swiss has {} to {} rounds, not {rounds}",
                    SWISS_ROUNDS.start(),
                    SWISS_ROUNDS.end()
                )))
            }
            Format::Swiss {
                interval_secs: Some(secs),
                ..
            } if secs > SWISS_INTERVAL_SECS => Err(Refused::Settings(format!(
                "a Swiss's rounds are at most a week apart, not {secs} seconds"
            ))),
            ok => Ok(ok),
        }
    }

    /// How its points are counted.
    pub fn scoring(self) -> Scoring {
        match self {
            Format::Arena { streaks, .. } => Scoring::Arena { streaks },
            Format::RoundRobin { .. } => Scoring::RoundRobin,
            Format::Swiss { .. } => Scoring::Swiss,
        }
    }

    /// Players at most.
    pub fn max_players(self) -> usize {
        match self {
            Format::Arena { .. } => ARENA_PLAYERS,
            Format::RoundRobin { .. } => *ROUND_ROBIN_PLAYERS.end(),
            Format::Swiss { .. } => SWISS_PLAYERS,
        }
    }

    /// Its rounds (none for an arena).
    pub fn rounds(self, players: usize) -> usize {
        match self {
            Format::Arena { .. } => 0,
            Format::RoundRobin { twice } => berger::rounds(players, twice).len(),
            Format::Swiss { rounds, .. } => usize::from(rounds),
        }
    }
}

/// Why a change was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// The format's numbers are out of range (what is wrong, in words).
    Settings(String),
    Full,
    AlreadyIn,
    /// A round robin takes no one once it has begun, a Swiss none after half its rounds.
    Started,
    NotStarted,
    Over,
    NotEnough {
        needed: usize,
    },
    NoSuchPlayer,
    /// A game that is not being played.
    NoSuchGame,
    /// The change needs the games in progress to end first.
    GamesInProgress,
    /// Only a Swiss's rounds are begun by hand.
    NotByHand,
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::Settings(why) => f.write_str(why),
            Refused::Full => f.write_str("the tournament is full"),
            Refused::AlreadyIn => f.write_str("you are in this tournament already"),
            Refused::Started => f.write_str("the tournament has begun: it takes no one now"),
            Refused::NotStarted => f.write_str("the tournament has not begun"),
            Refused::Over => f.write_str("the tournament is over"),
            Refused::NotEnough { needed } => {
                write!(
                    f,
                    "a tournament of this kind needs at least {needed} players"
                )
            }
            Refused::NoSuchPlayer => f.write_str("no such player in this tournament"),
            Refused::NoSuchGame => f.write_str("no such game in progress"),
            Refused::GamesInProgress => f.write_str("games are still being played"),
            Refused::NotByHand => f.write_str("only a Swiss's rounds are begun by hand"),
        }
    }
}

impl std::error::Error for Refused {}

/// Whether a player takes part now.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Presence {
    Active,
    /// An arena's player taking a break: not paired until they come back.
    Paused,
    /// Gone for good: their results stand, they are paired no more.
    Withdrawn,
}

/// One player of the tournament.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entrant {
    /// Who they are to the caller (the server's player id).
    pub id: String,
    pub rating: f64,
    pub presence: Presence,
    pub sheet: Sheet,
}

/// Where the tournament is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Taking players.
    Open,
    /// Being played: an arena until `ends_ms`; a round robin or a Swiss with `round` rounds
    /// begun.
    Running {
        ends_ms: i64,
        round: usize,
    },
    Over,
}

/// A tournament between players numbered in the order they joined.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Tournament {
    pub format: Format,
    pub phase: Phase,
    pub entrants: Vec<Entrant>,
    /// Games being played.
    pub playing: Vec<Pairing>,
    /// When a Swiss's next round begins: set when a round ends (after the format's interval)
    /// or by the organiser; none while a round is played or waits for the organiser.
    #[serde(default)]
    pub next_round_ms: Option<i64>,
    /// How each player floated in a Swiss's last round: -1 down (or the bye), 1 up, 0 not.
    #[serde(default)]
    pub floats: Vec<i8>,
    /// Pairs of players (the caller's ids, in order) who never meet: siblings, twins.
    #[serde(default)]
    pub apart: Vec<[String; 2]>,
    /// It begins by itself once this many players are in (none: at a time, or when the
    /// organiser says).
    #[serde(default)]
    pub start_when: Option<usize>,
}

impl Tournament {
    /// A tournament taking players.
    pub fn new(format: Format) -> std::result::Result<Tournament, Refused> {
        Ok(Tournament {
            format: format.checked()?,
            phase: Phase::Open,
            entrants: Vec::new(),
            playing: Vec::new(),
            next_round_ms: None,
            floats: Vec::new(),
            apart: Vec::new(),
            start_when: None,
        })
    }

    /// The number of the player the caller knows as `id`.
    pub fn number(&self, id: &str) -> Option<usize> {
        self.entrants.iter().position(|e| e.id == id)
    }

    /// A new player, `id` to the caller, with `rating`: their number. An arena takes players
    /// until it ends, a Swiss until half its rounds have begun; a player who left comes back
    /// with their results.
    pub fn join(&mut self, id: &str, rating: f64) -> std::result::Result<usize, Refused> {
        match (self.phase, self.format) {
            (Phase::Over, _) => return Err(Refused::Over),
            (Phase::Running { .. }, Format::RoundRobin { .. }) => return Err(Refused::Started),
            (Phase::Running { round, .. }, Format::Swiss { rounds, .. })
                if round * 2 > usize::from(rounds) =>
            {
                return Err(Refused::Started);
            }
            _ => {}
        }
        if let Some(number) = self.number(id) {
            let entrant = &mut self.entrants[number];
            if entrant.presence == Presence::Active {
                return Err(Refused::AlreadyIn);
            }
            entrant.presence = Presence::Active;
            return Ok(number);
        }
        if self.entrants.len() >= self.format.max_players() {
            return Err(Refused::Full);
        }
        self.entrants.push(Entrant {
            id: id.to_owned(),
            rating,
            presence: Presence::Active,
            sheet: Sheet::default(),
        });
        Ok(self.entrants.len() - 1)
    }

    /// Begin by itself once `players` are in (none: not by a number), if the format allows
    /// that many.
    pub fn start_when(&mut self, players: Option<usize>) -> std::result::Result<(), Refused> {
        let (least, most) = (self.min_players(), self.format.max_players());
        if let Some(n) = players.filter(|n| !(least..=most).contains(n)) {
            return Err(Refused::Settings(format!(
                "this tournament starts with {least} to {most} players, not {n}"
            )));
        }
        self.start_when = players;
        Ok(())
    }

    /// Whether it is open and as many players are in as it waits for.
    pub fn enough_joined(&self) -> bool {
        self.phase == Phase::Open && self.start_when.is_some_and(|n| self.active().count() >= n)
    }

    /// The players needed to begin.
    pub fn min_players(&self) -> usize {
        match self.format {
            Format::Arena { .. } => 2,
            Format::RoundRobin { .. } | Format::Swiss { .. } => *ROUND_ROBIN_PLAYERS.start(),
        }
    }

    /// Begin at `now_ms`: an arena runs for its minutes (of `minute_ms` each: the tests'
    /// minutes are short), a round robin makes its rounds.
    pub fn start(&mut self, now_ms: i64, minute_ms: i64) -> std::result::Result<(), Refused> {
        match self.phase {
            Phase::Open => {}
            Phase::Running { .. } => return Err(Refused::Started),
            Phase::Over => return Err(Refused::Over),
        }
        let active = self.active().count();
        if active < self.min_players() {
            return Err(Refused::NotEnough {
                needed: self.min_players(),
            });
        }
        let ends_ms = match self.format {
            Format::Arena { minutes, .. } => now_ms + i64::from(minutes) * minute_ms,
            Format::RoundRobin { .. } | Format::Swiss { .. } => i64::MAX,
        };
        self.phase = Phase::Running { ends_ms, round: 0 };
        if let Format::Swiss { .. } = self.format {
            self.next_round_ms = Some(now_ms);
        }
        Ok(())
    }

    /// A round robin's rounds: its players' Berger tables (no one joins once it has begun,
    /// and a player who leaves keeps their number).
    pub fn schedule(&self) -> Vec<berger::Round> {
        match self.format {
            Format::RoundRobin { twice } => berger::rounds(self.entrants.len(), twice),
            Format::Arena { .. } | Format::Swiss { .. } => Vec::new(),
        }
    }

    /// Keep players `a` and `b` (the caller's ids) from meeting from now on (`apart`), or
    /// let them meet again. A round robin's table is fixed: everyone meets everyone.
    pub fn keep_apart(
        &mut self,
        a: &str,
        b: &str,
        apart: bool,
    ) -> std::result::Result<(), Refused> {
        if self.phase == Phase::Over {
            return Err(Refused::Over);
        }
        if let Format::RoundRobin { .. } = self.format {
            return Err(Refused::Settings(
                "a round robin's table is fixed: everyone meets everyone".into(),
            ));
        }
        if a == b {
            return Err(Refused::Settings(
                "a player is never paired with themselves".into(),
            ));
        }
        self.number(a)
            .zip(self.number(b))
            .ok_or(Refused::NoSuchPlayer)?;
        let pair = if a < b { [a, b] } else { [b, a] }.map(str::to_owned);
        let known = self.apart.contains(&pair);
        match (apart, known) {
            (true, false) if self.apart.len() >= KEPT_APART => {
                return Err(Refused::Settings(format!(
                    "at most {KEPT_APART} pairs of players are kept apart"
                )));
            }
            (true, false) => self.apart.push(pair),
            (false, true) => self.apart.retain(|p| *p != pair),
            _ => {}
        }
        Ok(())
    }

    /// The pairs kept apart, as numbers (lower first).
    fn apart_numbers(&self) -> std::collections::HashSet<(usize, usize)> {
        self.apart
            .iter()
            .filter_map(|[a, b]| {
                let (a, b) = (self.number(a)?, self.number(b)?);
                Some((a.min(b), a.max(b)))
            })
            .collect()
    }

    /// The organiser begins a Swiss's next round now (its games ended).
    pub fn call_round(&mut self, now_ms: i64) -> std::result::Result<(), Refused> {
        let Format::Swiss { rounds, .. } = self.format else {
            return Err(Refused::NotByHand);
        };
        match self.phase {
            Phase::Open => return Err(Refused::NotStarted),
            Phase::Over => return Err(Refused::Over),
            Phase::Running { .. } if !self.playing.is_empty() => {
                return Err(Refused::GamesInProgress);
            }
            Phase::Running { round, .. } if round >= usize::from(rounds) => {
                return Err(Refused::Over);
            }
            Phase::Running { .. } => {}
        }
        self.next_round_ms = Some(now_ms);
        Ok(())
    }

    fn active(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.entrants.len()).filter(|&p| self.entrants[p].presence == Presence::Active)
    }

    fn entrant(&mut self, player: usize) -> std::result::Result<&mut Entrant, Refused> {
        self.entrants.get_mut(player).ok_or(Refused::NoSuchPlayer)
    }

    /// An arena's player takes a break (`true`) or comes back (`false`).
    pub fn pause(&mut self, player: usize, paused: bool) -> std::result::Result<(), Refused> {
        if self.phase == Phase::Over {
            return Err(Refused::Over);
        }
        if let Format::RoundRobin { .. } = self.format {
            return Err(Refused::Settings(
                "a round robin has no breaks: each round waits for its games".into(),
            ));
        }
        // A Swiss's player on a break sits the next rounds out, with no points for them.
        let entrant = self.entrant(player)?;
        entrant.presence = match (entrant.presence, paused) {
            (Presence::Withdrawn, _) => return Err(Refused::NoSuchPlayer),
            (_, true) => Presence::Paused,
            (_, false) => Presence::Active,
        };
        Ok(())
    }

    /// A player leaves for good; before the start, they leave the list as if never in it
    /// (the players after them are renumbered: the caller's map follows).
    pub fn withdraw(&mut self, player: usize) -> std::result::Result<(), Refused> {
        if self.phase == Phase::Over {
            return Err(Refused::Over);
        }
        self.entrant(player)?;
        if self.phase == Phase::Open {
            self.entrants.remove(player);
        } else {
            self.entrants[player].presence = Presence::Withdrawn;
        }
        Ok(())
    }

    /// The games to start now, marked as being played: an arena's wave of the active players
    /// not playing (before `closes_ms`: no new game that could not end in time), a round
    /// robin's next round once the last one is over (a withdrawn player's games are lost by
    /// them, unplayed), or a Swiss's next round when it is due. Empty when nothing is due.
    /// Neither `forbidden(a, b)` (numbers, either order) nor a pair kept apart ever meets.
    pub fn pairings(
        &mut self,
        now_ms: i64,
        closes_ms: i64,
        forbidden: impl Fn(usize, usize) -> bool,
        coin: impl FnMut() -> bool,
    ) -> Vec<Pairing> {
        let Phase::Running { ends_ms, round } = self.phase else {
            return Vec::new();
        };
        let apart = self.apart_numbers();
        let forbidden =
            |a: usize, b: usize| forbidden(a, b) || apart.contains(&(a.min(b), a.max(b)));
        let games = match self.format {
            Format::Arena { .. } if now_ms < ends_ms.saturating_sub(closes_ms) => {
                self.wave(forbidden, coin)
            }
            Format::Arena { .. } => Vec::new(),
            Format::RoundRobin { .. } if self.playing.is_empty() => self.next_round(round),
            Format::Swiss {
                rounds,
                interval_secs,
            } if self.playing.is_empty() && round < usize::from(rounds) => {
                match self.next_round_ms {
                    Some(due) if now_ms >= due => self.swiss_round(round, forbidden, coin),
                    Some(_) => Vec::new(),
                    None => {
                        // The round just ended: the next one after the interval, or when the
                        // organiser says.
                        self.next_round_ms =
                            interval_secs.map(|secs| now_ms.saturating_add(i64::from(secs) * 1000));
                        Vec::new()
                    }
                }
            }
            Format::RoundRobin { .. } | Format::Swiss { .. } => Vec::new(),
        };
        self.playing.extend(games.iter().copied());
        games
    }

    fn wave(
        &self,
        forbidden: impl Fn(usize, usize) -> bool,
        coin: impl FnMut() -> bool,
    ) -> Vec<Pairing> {
        let ranks = self.ranks();
        let waiting: Vec<Waiting> = self
            .active()
            .filter(|&p| !self.playing.iter().any(|g| g.has(p)))
            .map(|p| {
                let sheet = &self.entrants[p].sheet;
                Waiting {
                    player: p,
                    rank: ranks[p],
                    rating: self.entrants[p].rating,
                    last_opponent: sheet.opponents().last(),
                    firsts: sheet.first_moves(),
                }
            })
            .collect();
        let wave = Wave {
            ranked: self.entrants.len(),
            only_two: self.active().count() == 2,
        };
        arena::pair(&waiting, wave, forbidden, coin)
    }

    /// A Swiss's round `round` (from 0) between the active players: the games, the bye (a
    /// point), the floats remembered. No game to make ends the tournament.
    fn swiss_round(
        &mut self,
        round: usize,
        forbidden: impl Fn(usize, usize) -> bool,
        coin: impl FnMut() -> bool,
    ) -> Vec<Pairing> {
        let players: Vec<swiss::Player> =
            self.active().map(|p| self.swiss_player(p, round)).collect();
        let Format::Swiss { rounds, .. } = self.format else {
            return Vec::new();
        };
        let context = swiss::Context {
            played: round,
            last: round + 1 == usize::from(rounds),
        };
        let paired = swiss::pair(&players, context, forbidden, coin);
        if paired.games.is_empty() {
            self.phase = Phase::Over;
            return Vec::new();
        }
        self.phase = Phase::Running {
            ends_ms: i64::MAX,
            round: round + 1,
        };
        self.next_round_ms = None;
        self.floats = vec![0; self.entrants.len()];
        let halves = |p: usize| (self.entrants[p].sheet.points(Scoring::Swiss) * 2.0) as i64;
        for g in &paired.games {
            let gap = halves(g.first) - halves(g.second);
            self.floats[g.first] = -gap.signum() as i8;
            self.floats[g.second] = gap.signum() as i8;
        }
        if let Some(bye) = paired.bye {
            self.floats[bye] = -1;
            self.entrants[bye].sheet.results.push(Result {
                opponent: None,
                outcome: Outcome::Bye,
                first: false,
            });
        }
        paired.games
    }

    /// Player `p` as a Swiss's round `round` pairs them.
    fn swiss_player(&self, p: usize, round: usize) -> swiss::Player {
        let sheet = &self.entrants[p].sheet;
        let games: Vec<&Result> = sheet
            .results
            .iter()
            .filter(|r| r.opponent.is_some())
            .collect();
        let seed = (0..self.entrants.len())
            .filter(|&q| {
                let (a, b) = (&self.entrants[q], &self.entrants[p]);
                a.rating > b.rating || (a.rating == b.rating && q < p)
            })
            .count();
        let last_float = match self.floats.get(p) {
            Some(-1) => swiss::Float::Down,
            Some(1) => swiss::Float::Up,
            _ => swiss::Float::None,
        };
        swiss::Player {
            player: p,
            halves: (sheet.points(Scoring::Swiss) * 2.0) as u32,
            seed,
            met: sheet.opponents().collect(),
            firsts: games.iter().map(|r| r.first).collect(),
            had_bye: sheet.results.iter().any(|r| r.outcome == Outcome::Bye),
            unplayed: round.saturating_sub(games.len()),
            last_float,
        }
    }

    /// Round `round` of a round robin: its games between players still in, the rest decided
    /// (a rest; a game against a withdrawn player won unplayed).
    fn next_round(&mut self, round: usize) -> Vec<Pairing> {
        let Some(this) = self.schedule().get(round).cloned() else {
            self.phase = Phase::Over;
            return Vec::new();
        };
        self.phase = Phase::Running {
            ends_ms: i64::MAX,
            round: round + 1,
        };
        if let Some(rest) = this.bye {
            self.entrants[rest].sheet.results.push(Result {
                opponent: None,
                outcome: Outcome::Bye,
                first: false,
            });
        }
        let mut games = Vec::new();
        for game in this.games {
            let gone = |p: usize| self.entrants[p].presence == Presence::Withdrawn;
            match (gone(game.first), gone(game.second)) {
                (false, false) => games.push(game),
                (first_gone, second_gone) => {
                    let outcome = |gone: bool| if gone { Outcome::Loss } else { Outcome::Win };
                    self.record(game, outcome(first_gone), outcome(second_gone));
                }
            }
        }
        if games.is_empty() {
            // A round with nothing to play (everyone gone): on to the next.
            return self.next_round(round + 1);
        }
        games
    }

    fn record(&mut self, game: Pairing, first: Outcome, second: Outcome) {
        let entry = |opponent, outcome, moved_first| Result {
            opponent: Some(opponent),
            outcome,
            first: moved_first,
        };
        let sheets = &mut self.entrants;
        sheets[game.first]
            .sheet
            .results
            .push(entry(game.second, first, true));
        sheets[game.second]
            .sheet
            .results
            .push(entry(game.first, second, false));
    }

    /// Game `game` ended, `first_outcome` as its first mover saw it.
    pub fn finish(
        &mut self,
        game: Pairing,
        first_outcome: Outcome,
    ) -> std::result::Result<(), Refused> {
        let at = self
            .playing
            .iter()
            .position(|g| *g == game)
            .ok_or(Refused::NoSuchGame)?;
        let second = match first_outcome {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
            Outcome::Bye => return Err(Refused::NoSuchGame),
        };
        self.playing.remove(at);
        self.record(game, first_outcome, second);
        Ok(())
    }

    /// Game `game` ended without a result (it was aborted): its players wait again (an
    /// arena) or the round goes on without it (a round robin, a Swiss).
    pub fn abort(&mut self, game: Pairing) -> std::result::Result<(), Refused> {
        let at = self
            .playing
            .iter()
            .position(|g| *g == game)
            .ok_or(Refused::NoSuchGame)?;
        self.playing.remove(at);
        Ok(())
    }

    /// Whether everything is played: an arena past its end with no game left, a round robin
    /// or a Swiss after its last round. Marks the tournament over when it is.
    pub fn settle(&mut self, now_ms: i64) -> bool {
        if let Phase::Running { ends_ms, round } = self.phase {
            let done = match self.format {
                Format::Arena { .. } => now_ms >= ends_ms,
                Format::RoundRobin { .. } | Format::Swiss { .. } => {
                    round >= self.format.rounds(self.entrants.len())
                }
            };
            if done && self.playing.is_empty() {
                self.phase = Phase::Over;
            }
        }
        self.phase == Phase::Over
    }

    /// The standings now.
    pub fn standings(&self) -> Vec<Standing> {
        let sheets: Vec<Sheet> = self.entrants.iter().map(|e| e.sheet.clone()).collect();
        standings(&sheets, self.format.scoring())
    }

    /// Each player's place in the standings now, from 0.
    fn ranks(&self) -> Vec<usize> {
        let mut ranks = vec![0; self.entrants.len()];
        for (i, s) in self.standings().iter().enumerate() {
            ranks[s.player] = i;
        }
        ranks
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MINUTE: i64 = 60_000;

    fn arena(minutes: u32) -> Tournament {
        Tournament::new(Format::Arena {
            minutes,
            streaks: true,
        })
        .unwrap()
    }

    /// The lower number wins (a draw between neighbours of the same parity): results that
    /// spread the standings.
    fn outcome(game: Pairing) -> Outcome {
        match (game.first % 2 == game.second % 2, game.first < game.second) {
            (true, _) => Outcome::Draw,
            (false, true) => Outcome::Win,
            (false, false) => Outcome::Loss,
        }
    }

    #[test]
    fn an_arena_pairs_whoever_waits_until_it_closes_then_ends_when_its_games_do() {
        let mut t = arena(10);
        for i in 0..6 {
            t.join(&format!("p{i}"), 1500.0 + f64::from(i) * 10.0)
                .unwrap();
        }
        t.start(0, MINUTE).unwrap();
        let closes = 30_000;
        let mut now = 0;
        let mut games_of = [0; 7];
        while !t.settle(now) {
            if now == 3 * MINUTE {
                // A late player, and one taking a break.
                assert_eq!(t.join("late", 1400.0), Ok(6));
                t.pause(2, true).unwrap();
            }
            if now == 6 * MINUTE {
                t.pause(2, false).unwrap();
            }
            let games = t.pairings(now, closes, |_, _| false, || true);
            for g in &games {
                let busy = t
                    .playing
                    .iter()
                    .filter(|p| p.has(g.first) || p.has(g.second))
                    .count();
                assert_eq!(busy, 1, "a player in two games at once");
                if (3 * MINUTE..6 * MINUTE).contains(&now) {
                    assert!(!g.has(2), "paired while on a break");
                }
                assert!(
                    now < 10 * MINUTE - closes,
                    "a game begun after the arena closed"
                );
            }
            // Games last 30 s: each ends as the next step begins.
            for g in t.playing.clone() {
                t.finish(g, outcome(g)).unwrap();
                games_of[g.first] += 1;
                games_of[g.second] += 1;
            }
            now += 30_000;
        }
        assert_eq!(t.phase, Phase::Over);
        assert!(games_of[6] > 0, "the late player played");
        assert!(games_of[2] < games_of[0], "the break cost games");
        let table = t.standings();
        for s in &table {
            assert_eq!(
                s.points,
                t.entrants[s.player].sheet.points(t.format.scoring())
            );
        }
        assert!(table.windows(2).all(|w| w[0].points >= w[1].points));
        assert!(t.pairings(now, closes, |_, _| false, || true).is_empty());
        assert_eq!(t.join("after", 1500.0), Err(Refused::Over));
    }

    #[test]
    fn an_arena_lets_its_games_in_progress_finish_after_its_time() {
        let mut t = arena(10);
        t.join("a", 1500.0).unwrap();
        t.join("b", 1500.0).unwrap();
        assert_eq!(t.join("a", 1500.0), Err(Refused::AlreadyIn));
        t.start(0, MINUTE).unwrap();
        let games = t.pairings(0, 0, |_, _| false, || true);
        assert_eq!(games.len(), 1);
        assert!(!t.settle(11 * MINUTE), "over only when the game is");
        t.finish(games[0], Outcome::Draw).unwrap();
        assert!(t.settle(11 * MINUTE));
    }

    #[test]
    fn a_round_robin_twice_round_with_a_player_gone_halfway_accounts_for_every_game() {
        let mut t = Tournament::new(Format::RoundRobin { twice: true }).unwrap();
        for i in 0..5 {
            t.join(&i.to_string(), 1500.0).unwrap();
        }
        t.start(0, MINUTE).unwrap();
        assert_eq!(t.join("5", 1500.0), Err(Refused::Started));
        let mut rounds = 0;
        while !t.settle(0) {
            let games = t.pairings(0, 0, |_, _| false, || true);
            assert!(!games.is_empty(), "a round with nothing to play");
            rounds += 1;
            if rounds == 4 {
                t.withdraw(4).unwrap();
            }
            assert_eq!(
                t.pairings(0, 0, |_, _| false, || true),
                [],
                "a round before the last ended"
            );
            for g in games {
                t.finish(g, outcome(g)).unwrap();
            }
        }
        // Every pair has its two results, played or won against the player gone.
        for a in 0..5 {
            for b in 0..5 {
                if a == b {
                    continue;
                }
                let met = t.entrants[a].sheet.opponents().filter(|&o| o == b).count();
                assert_eq!(met, 2, "{a} against {b}");
            }
            let rests = t.entrants[a]
                .sheet
                .results
                .iter()
                .filter(|r| r.opponent.is_none());
            assert_eq!(rests.count(), 2, "{a} rests once a cycle");
        }
        let gone = &t.entrants[4].sheet.results;
        let lost_unplayed = gone.iter().rev().take_while(|r| r.outcome != Outcome::Bye);
        assert!(lost_unplayed.clone().count() > 0);
        assert!(lost_unplayed.clone().all(|r| r.outcome == Outcome::Loss));
    }

    #[test]
    fn a_swiss_pairs_its_rounds_by_hand_or_on_time_takes_late_players_and_ends() {
        let by_hand = Format::Swiss {
            rounds: 5,
            interval_secs: None,
        };
        let mut t = Tournament::new(by_hand).unwrap();
        for i in 0..7 {
            t.join(&i.to_string(), 1500.0 + f64::from(i)).unwrap();
        }
        // The first seed ("6") would meet the fourth ("3") in the first round: siblings.
        t.keep_apart("6", "3", true).unwrap();
        t.keep_apart("3", "6", true).unwrap();
        t.keep_apart("6", "2", true).unwrap();
        t.keep_apart("2", "6", false).unwrap();
        assert_eq!(t.apart, [["3".to_owned(), "6".to_owned()]]);
        assert_eq!(t.keep_apart("6", "x", true), Err(Refused::NoSuchPlayer));
        t.start(0, MINUTE).unwrap();
        let mut now = 0;
        let mut byes = [0; 9];
        for round in 0..5 {
            let games = t.pairings(now, 0, |_, _| false, || true);
            assert!(!games.is_empty(), "round {round} paired nothing");
            assert_eq!(t.pairings(now, 0, |_, _| false, || true), []);
            if round == 1 {
                assert_eq!(t.join("late", 1450.0), Ok(7), "before half the rounds");
                t.pause(3, true).unwrap();
            }
            if round == 3 {
                assert_eq!(t.join("too late", 1450.0), Err(Refused::Started));
                t.pause(3, false).unwrap();
            }
            if round == 2 {
                assert!(games.iter().all(|g| !g.has(3)), "paired on a break");
                let bye = t.entrants[7]
                    .sheet
                    .results
                    .iter()
                    .any(|r| r.outcome == Outcome::Bye);
                assert!(
                    bye || games.iter().any(|g| g.has(7)),
                    "the late player is in the round"
                );
            }
            assert_eq!(t.call_round(now), Err(Refused::GamesInProgress));
            for g in games {
                t.finish(g, outcome(g)).unwrap();
            }
            now += MINUTE;
            assert!(
                t.pairings(now, 0, |_, _| false, || true).is_empty(),
                "before the call"
            );
            if round < 4 {
                t.call_round(now).unwrap();
            }
            assert!(!t.settle(now) || round == 4);
        }
        assert!(t.settle(now));
        for (p, e) in t.entrants.iter().enumerate() {
            let met: Vec<usize> = e.sheet.opponents().collect();
            let mut unique = met.clone();
            unique.sort_unstable();
            unique.dedup();
            assert_eq!(met.len(), unique.len(), "{p} met someone twice");
            byes[p] = e
                .sheet
                .results
                .iter()
                .filter(|r| r.outcome == Outcome::Bye)
                .count();
            assert!(byes[p] <= 1, "{p} had {} byes", byes[p]);
        }
        assert!(
            t.entrants[6].sheet.opponents().all(|o| o != 3),
            "siblings met"
        );
        let on_time = Format::Swiss {
            rounds: 3,
            interval_secs: Some(60),
        };
        let mut t = Tournament::new(on_time).unwrap();
        for i in 0..4 {
            t.join(&i.to_string(), 1500.0).unwrap();
        }
        t.start(0, MINUTE).unwrap();
        let games = t.pairings(0, 0, |_, _| false, || true);
        assert_eq!(t.call_round(0), Err(Refused::GamesInProgress));
        for g in games {
            t.finish(g, Outcome::Draw).unwrap();
        }
        assert!(t.pairings(1_000, 0, |_, _| false, || true).is_empty());
        assert_eq!(t.next_round_ms, Some(61_000));
        assert!(t.pairings(60_000, 0, |_, _| false, || true).is_empty());
        assert_eq!(t.pairings(61_000, 0, |_, _| false, || true).len(), 2);
        assert_eq!(
            t.phase,
            Phase::Running {
                ends_ms: i64::MAX,
                round: 2
            }
        );
    }

    #[test]
    fn a_tournament_waiting_for_a_number_of_players_is_ready_when_they_are_in() {
        let mut t = arena(10);
        assert!(matches!(t.start_when(Some(1)), Err(Refused::Settings(_))));
        assert!(matches!(
            t.start_when(Some(2001)),
            Err(Refused::Settings(_))
        ));
        assert_eq!(t.start_when, None);
        t.start_when(Some(3)).unwrap();
        for (i, ready) in [(0, false), (1, false), (2, true)] {
            t.join(&i.to_string(), 1500.0).unwrap();
            assert_eq!(t.enough_joined(), ready, "{} in", i + 1);
        }
        t.withdraw(2).unwrap();
        assert!(!t.enough_joined(), "one left before the start");
        t.join("2", 1500.0).unwrap();
        t.start(0, MINUTE).unwrap();
        assert!(!t.enough_joined(), "begun already");
    }

    #[test]
    fn refusals_name_what_is_wrong_and_change_nothing() {
        let short = Format::Arena {
            minutes: 5,
            streaks: false,
        };
        let Err(Refused::Settings(why)) = Tournament::new(short) else {
            panic!("a five-minute arena was taken");
        };
        assert!(why.contains("10 to 720"), "{why}");
        let long = Format::Swiss {
            rounds: 16,
            interval_secs: None,
        };
        let Err(Refused::Settings(why)) = Tournament::new(long) else {
            panic!("a Swiss of 16 rounds was taken");
        };
        assert!(why.contains("3 to 15"), "{why}");
        let mut t = Tournament::new(Format::RoundRobin { twice: false }).unwrap();
        t.join("a", 1500.0).unwrap();
        t.join("b", 1500.0).unwrap();
        assert_eq!(t.start(0, MINUTE), Err(Refused::NotEnough { needed: 3 }));
        assert_eq!(t.phase, Phase::Open);
        for i in 0..10 {
            t.join(&i.to_string(), 1500.0).unwrap();
        }
        assert_eq!(t.join("x", 1500.0), Err(Refused::Full));
        assert_eq!(t.entrants.len(), 12);
        t.start(0, MINUTE).unwrap();
        let before = t.clone();
        let stranger = Pairing {
            first: 0,
            second: 11,
        };
        let not_playing = t.playing.iter().all(|g| *g != stranger);
        assert!(not_playing);
        assert_eq!(t.finish(stranger, Outcome::Win), Err(Refused::NoSuchGame));
        assert_eq!(
            t.pause(0, true)
                .map_err(|e| matches!(e, Refused::Settings(_))),
            Err(true)
        );
        assert_eq!(t, before);
        assert_eq!(t.withdraw(40), Err(Refused::NoSuchPlayer));
        assert_eq!(t.call_round(0), Err(Refused::NotByHand));
        assert!(matches!(
            t.keep_apart("0", "1", true),
            Err(Refused::Settings(_))
        ));
        assert_eq!(Refused::Full.to_string(), "the tournament is full");
    }
}
