//! The pairing's time and quality at scale: an arena of many players over many waves, each
//! game's result drawn from the players' ratings (Elo's expectation), every finished player
//! waiting again at once.
//!
//! ```sh
//! cargo run --release -p oaq-tournament --example pairing_bench -- 1000 20
//! ```
//!
//! Prints, per wave: the players waiting, the games made, and the time the pairing took; at the
//! end the quality: mean and largest rating gap and rank gap of the games, immediate rematches,
//! the longest run as first mover, and the largest first-move imbalance.

use std::time::Instant;

use oaq_tournament::arena::{self, Waiting, Wave};
use oaq_tournament::tiebreak::standings;
use oaq_tournament::{FirstMoves, Outcome, Result, Scoring, Sheet};

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
}

fn main() {
    let mut args = std::env::args().skip(1);
    let players: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let waves: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
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
            let expected = 1.0 / (1.0 + 10f64.powf((ratings[g.second] - ratings[g.first]) / 400.0));
            let roll = rng.unit();
            let (a, b) = if roll < expected * 0.95 {
                (Outcome::Win, Outcome::Loss)
            } else if roll < expected * 0.95 + 0.05 {
                (Outcome::Draw, Outcome::Draw)
            } else {
                (Outcome::Loss, Outcome::Win)
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
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len().max(1) as f64;
    let max = |v: &[f64]| v.iter().copied().fold(0.0, f64::max);
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
