//! The pairing's time and quality at scale, each game's result drawn from the players' ratings
//! (Elo's expectation): an arena of many players over many waves, every finished player waiting
//! again at once; or a Swiss of many players over its rounds.
//!
//! ```sh
//! cargo run --release -p oaq-tournament --example pairing_bench -- 1000 20
//! cargo run --release -p oaq-tournament --example pairing_bench -- swiss 500 9
//! ```
//!
//! Prints, per wave or round: the players, the games made, and the time the pairing took; at
//! the end the quality: an arena's mean and largest rating gap and rank gap, immediate
//! rematches, the longest run as first mover and the largest first-move imbalance; a Swiss's
//! games between score groups and the largest score gap, repeated pairings, byes, and the same
//! first-move figures.

use std::time::Instant;

use oaq_tournament::arena::{self, Waiting, Wave};
use oaq_tournament::tiebreak::standings;
use oaq_tournament::{FirstMoves, Format, Outcome, Result, Scoring, Sheet, Tournament};

/// A small, seeded generator: the bench gives the same figures on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A game's outcome for the first of two players rated `a` and `b` (5 % draws).
    fn outcome(&mut self, a: f64, b: f64) -> Outcome {
        let expected = 1.0 / (1.0 + 10f64.powf((b - a) / 400.0));
        let roll = self.unit();
        if roll < expected * 0.95 {
            Outcome::Win
        } else if roll < expected * 0.95 + 0.05 {
            Outcome::Draw
        } else {
            Outcome::Loss
        }
    }
}

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let swiss = args.first().is_some_and(|a| a == "swiss");
    if swiss {
        args.remove(0);
    }
    let number =
        |at: usize, default: usize| args.get(at).and_then(|a| a.parse().ok()).unwrap_or(default);
    if swiss {
        swiss_bench(number(0, 500), number(1, 9).clamp(3, 15));
    } else {
        arena_bench(number(0, 1000), number(1, 20));
    }
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len().max(1) as f64
}

fn max(v: &[f64]) -> f64 {
    v.iter().copied().fold(0.0, f64::max)
}

/// A Swiss of `players` over `rounds`, every round paired as soon as the last one ends.
fn swiss_bench(players: usize, rounds: usize) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let format = Format::Swiss {
        rounds: rounds as u8,
        interval_secs: None,
    };
    let mut t = Tournament::new(format).expect("a Swiss's settings");
    for p in 0..players {
        let rating = 1000.0 + 1200.0 * rng.unit();
        t.join(&p.to_string(), rating)
            .expect("room for the players");
    }
    t.start(0, 60_000).expect("enough players");
    let (mut times_ms, mut floats, mut score_gaps, mut repeats) = (Vec::new(), 0, Vec::new(), 0);
    for round in 0..rounds {
        t.call_round(0).ok();
        let points: Vec<f64> = t
            .entrants
            .iter()
            .map(|e| e.sheet.points(Scoring::Swiss))
            .collect();
        let started = Instant::now();
        let games = t.pairings(0, 0, |_, _| false, || rng.next() & 1 == 0);
        let took = started.elapsed().as_secs_f64() * 1000.0;
        times_ms.push(took);
        println!(
            "round {:>2}: {players} players, {} games, paired in {took:.1} ms",
            round + 1,
            games.len()
        );
        for g in games {
            let gap = (points[g.first] - points[g.second]).abs();
            floats += usize::from(gap > 0.0);
            score_gaps.push(gap);
            if gap >= 2.0 {
                eprintln!(
                    "round {round}: {} vs {} gap {gap}",
                    points[g.first], points[g.second]
                );
            }
            repeats += t.entrants[g.first]
                .sheet
                .opponents()
                .filter(|&o| o == g.second)
                .count();
            let (a, b) = (t.entrants[g.first].rating, t.entrants[g.second].rating);
            let outcome = rng.outcome(a, b);
            t.finish(g, outcome).expect("a game being played");
        }
        t.pairings(0, 0, |_, _| false, || true);
    }
    let byes = t.entrants.iter().map(|e| {
        e.sheet
            .results
            .iter()
            .filter(|r| r.outcome == Outcome::Bye)
            .count()
    });
    let most_byes = byes.max().unwrap_or(0);
    let firsts: Vec<FirstMoves> = t.entrants.iter().map(|e| e.sheet.first_moves()).collect();
    let longest_run = firsts.iter().map(|f| f.run.abs()).max().unwrap_or(0);
    let worst_balance = firsts.iter().map(|f| f.balance.abs()).max().unwrap_or(0);
    println!(
        "{players} players, {rounds} rounds: pairing mean {:.1} ms, slowest {:.1} ms; {} games; \
         between score groups {floats} (largest gap {:.1} points); repeated pairings {repeats}; \
         most byes for one player {most_byes}; longest first-mover run {longest_run}; \
         largest first-move imbalance {worst_balance}",
        mean(&times_ms),
        max(&times_ms),
        score_gaps.len(),
        max(&score_gaps),
    );
}

/// An arena of `players` over `waves`, the whole field waiting in each.
fn arena_bench(players: usize, waves: usize) {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let ratings: Vec<f64> = (0..players).map(|_| 1000.0 + 1200.0 * rng.unit()).collect();
    let mut sheets = vec![Sheet::default(); players];
    let scoring = Scoring::Arena { streaks: true };
    let (mut rating_gaps, mut rank_gaps, mut rematches) = (Vec::new(), Vec::new(), 0);
    let mut times_ms = Vec::new();
    for wave_no in 0..waves {
        let table = standings(&sheets, scoring);
        let mut rank = vec![0; players];
        for (place, s) in table.iter().enumerate() {
            rank[s.player] = place;
        }
        let waiting: Vec<Waiting> = (0..players)
            .map(|p| Waiting {
                player: p,
                rank: rank[p],
                rating: ratings[p],
                last_opponent: sheets[p].opponents().last(),
                firsts: sheets[p].first_moves(),
            })
            .collect();
        let started = Instant::now();
        let wave = Wave {
            ranked: players,
            only_two: players == 2,
        };
        let games = arena::pair(&waiting, wave, |_, _| false, || rng.next() & 1 == 0);
        let took = started.elapsed().as_secs_f64() * 1000.0;
        times_ms.push(took);
        println!(
            "wave {wave_no:>3}: {players} waiting, {} games, paired in {took:.1} ms",
            games.len()
        );
        for g in games {
            rating_gaps.push((ratings[g.first] - ratings[g.second]).abs());
            rank_gaps.push(rank[g.first].abs_diff(rank[g.second]) as f64);
            if sheets[g.first].opponents().last() == Some(g.second) {
                rematches += 1;
            }
            let (a, b) = match rng.outcome(ratings[g.first], ratings[g.second]) {
                Outcome::Win => (Outcome::Win, Outcome::Loss),
                Outcome::Loss => (Outcome::Loss, Outcome::Win),
                _ => (Outcome::Draw, Outcome::Draw),
            };
            let result = |opponent, outcome, first| Result {
                opponent: Some(opponent),
                outcome,
                first,
            };
            sheets[g.first].results.push(result(g.second, a, true));
            sheets[g.second].results.push(result(g.first, b, false));
        }
    }
    let firsts: Vec<FirstMoves> = sheets.iter().map(Sheet::first_moves).collect();
    let longest_run = firsts.iter().map(|f| f.run.abs()).max().unwrap_or(0);
    let worst_balance = firsts.iter().map(|f| f.balance.abs()).max().unwrap_or(0);
    println!(
        "{players} players, {waves} waves: pairing mean {:.1} ms, slowest {:.1} ms; {} games; \
         rating gap mean {:.0}, largest {:.0}; rank gap mean {:.1}, largest {:.0}; \
         immediate rematches {rematches}; longest first-mover run {longest_run}; \
         largest first-move imbalance {worst_balance}",
        mean(&times_ms),
        max(&times_ms),
        rating_gaps.len(),
        mean(&rating_gaps),
        max(&rating_gaps),
        mean(&rank_gaps),
        max(&rank_gaps),
    );
}
