//! `oaq-server pool-bench`: the pairing of [`super::pairing`] on simulated pools, to report
//! how close pairings are and how long players wait. Players arrive at random (a Poisson
//! process at each of several rates), with ratings drawn around 1500 (σ 300); a few abandon
//! games and wait behind the rest; each gives up after a patience of their own. Seeded, so a
//! run repeats exactly.

use rand::{RngExt, SeedableRng};

use super::pairing::{Candidate, pair};

#[derive(clap::Args, Clone, Debug)]
pub struct PoolBenchArgs {
    /// Waves simulated at each rate.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(10..=1_000_000))]
    pub waves: u64,
    /// Seconds between waves (the server's `--pool-wave-secs`).
    #[arg(long, default_value_t = 2.0)]
    pub wave_secs: f64,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// What one rate gave.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    pub arrivals_per_minute: f64,
    pub players: usize,
    pub paired: usize,
    pub gap_median: f64,
    pub gap_p95: f64,
    pub wait_median_s: f64,
    pub wait_p95_s: f64,
    /// Players alone after a wave (offered the computer), of all.
    pub offered_computer: f64,
    /// Players who gave up before a pairing, of all.
    pub gave_up: f64,
}

struct Waiting {
    rating: f64,
    joined: u64,
    patience: u64,
    last: bool,
    offered: bool,
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// Simulate `waves` waves with `per_wave` arrivals expected each.
pub fn simulate(per_wave: f64, waves: u64, wave_secs: f64, seed: u64) -> Outcome {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut pool: Vec<Waiting> = Vec::new();
    let (mut players, mut offered, mut gave_up) = (0usize, 0usize, 0usize);
    let mut gaps = Vec::new();
    let mut waits = Vec::new();
    for wave in 0..waves {
        // Poisson arrivals (Knuth's method: rates here are small).
        let limit = (-per_wave).exp();
        let mut p: f64 = rng.random();
        while p > limit {
            // Box–Muller: a normal rating around 1500.
            let (u, v): (f64, f64) = (rng.random::<f64>().max(1e-12), rng.random());
            let z = (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos();
            pool.push(Waiting {
                rating: (1500.0 + 300.0 * z).clamp(400.0, 2800.0),
                joined: wave,
                patience: rng.random_range(15..=90),
                last: rng.random_bool(0.05),
                offered: false,
            });
            players += 1;
            p *= rng.random::<f64>();
        }
        let candidates: Vec<Candidate> = pool
            .iter()
            .map(|w| Candidate {
                rating: w.rating,
                waves: (wave - w.joined) as u32,
                last: w.last,
            })
            .collect();
        let result = pair(&candidates);
        let mut gone = vec![false; pool.len()];
        for &(a, b) in &result.pairs {
            gaps.push((pool[a].rating - pool[b].rating).abs());
            for i in [a, b] {
                waits.push((wave - pool[i].joined) as f64 * wave_secs);
                gone[i] = true;
            }
        }
        for &i in &result.alone {
            let w = &mut pool[i];
            if wave > w.joined && !w.offered {
                w.offered = true;
                offered += 1;
            }
            if wave - w.joined >= w.patience {
                gone[i] = true;
                gave_up += 1;
            }
        }
        let mut i = 0;
        pool.retain(|_| {
            i += 1;
            !gone[i - 1]
        });
    }
    gaps.sort_by(f64::total_cmp);
    waits.sort_by(f64::total_cmp);
    let all = players.max(1) as f64;
    Outcome {
        arrivals_per_minute: per_wave * 60.0 / wave_secs,
        players,
        paired: waits.len(),
        gap_median: percentile(&gaps, 0.5),
        gap_p95: percentile(&gaps, 0.95),
        wait_median_s: percentile(&waits, 0.5),
        wait_p95_s: percentile(&waits, 0.95),
        offered_computer: offered as f64 / all,
        gave_up: gave_up as f64 / all,
    }
}

/// The report: one line per arrival rate, from a quiet pool to a busy one.
pub fn run(args: &PoolBenchArgs) -> String {
    let mut out = String::from(
        "arrivals/min  players  paired  gap p50  gap p95  wait p50  wait p95  offered computer  gave up\n",
    );
    for per_minute in [1.0, 3.0, 10.0, 30.0, 100.0, 300.0] {
        let per_wave = per_minute * args.wave_secs / 60.0;
        let o = simulate(per_wave, args.waves, args.wave_secs, args.seed);
        out.push_str(&format!(
            "{:>12.0}  {:>7}  {:>6}  {:>7.0}  {:>7.0}  {:>7.0}s  {:>7.0}s  {:>15.1}%  {:>6.1}%\n",
            o.arrivals_per_minute,
            o.players,
            o.paired,
            o.gap_median,
            o.gap_p95,
            o.wait_median_s,
            o.wait_p95_s,
            100.0 * o.offered_computer,
            100.0 * o.gave_up,
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_busier_pool_pairs_closer_and_sooner_and_a_run_repeats() {
        let quiet = simulate(0.1, 3_000, 2.0, 7);
        let busy = simulate(5.0, 3_000, 2.0, 7);
        assert!(busy.gap_median < quiet.gap_median, "{quiet:?} {busy:?}");
        assert!(
            busy.wait_median_s <= quiet.wait_median_s,
            "{quiet:?} {busy:?}"
        );
        assert!(quiet.offered_computer > busy.offered_computer);
        assert_eq!(simulate(0.5, 500, 2.0, 3), simulate(0.5, 500, 2.0, 3));
        // Everyone who arrived was paired, gave up or still waits.
        assert!(busy.paired as f64 + busy.gave_up * busy.players as f64 <= busy.players as f64);
    }
}
