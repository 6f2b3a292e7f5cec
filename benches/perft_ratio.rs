//! Perft of `basic` by the engine and by the plain copy-make engine written from the rule text
//! (`tests/engine/reference/plain.rs`), run in turns and timed in this thread's CPU time: the ratio
//! the rules engine is held to, measured so that the shared machine's other work falls on both
//! alike. `cargo bench --no-default-features --bench perft_ratio` prints each engine's median and
//! fastest run, and the median of the rounds' own ratios (each round times both, one after the
//! other).

#[path = "../tests/engine/reference/plain.rs"]
mod plain;

use std::hint::black_box;
use std::time::Duration;

use o_an_quan::rules::{Position, perft, presets};

/// Perft 7 from the start: 1,983,900 sequences, some 20 ms each.
const DEPTH: u32 = 7;
/// Rounds, each timing both engines once.
const ROUNDS: usize = 61;

/// CPU time of this thread: time the machine gave to other work is not counted.
#[cfg(unix)]
fn cpu_time() -> Duration {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for the call to fill.
    let status = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    assert_eq!(status, 0, "the thread's CPU clock cannot be read");
    Duration::new(now.tv_sec as u64, now.tv_nsec as u32)
}

/// Elsewhere, the wall clock.
#[cfg(not(unix))]
fn cpu_time() -> Duration {
    use std::sync::OnceLock;
    static START: OnceLock<std::time::Instant> = OnceLock::new();
    START.get_or_init(std::time::Instant::now).elapsed()
}

fn timed(run: impl FnOnce() -> u64) -> (Duration, u64) {
    let started = cpu_time();
    let count = run();
    (cpu_time() - started, count)
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn main() {
    let start = Position::new(presets::get("basic").expect("preset exists").rules);
    let plain = plain::Plain::start();
    let mut engine = Vec::with_capacity(ROUNDS);
    let mut baseline = Vec::with_capacity(ROUNDS);
    let mut ratios = Vec::with_capacity(ROUNDS);
    for round in 0..ROUNDS {
        // Which goes first alternates, so that neither always runs in the other's wake.
        let run_engine = || timed(|| perft(black_box(&start), DEPTH));
        let run_plain = || timed(|| black_box(plain).perft(DEPTH));
        let ((e, n), (p, m)) = if round % 2 == 0 {
            let e = run_engine();
            (e, run_plain())
        } else {
            let p = run_plain();
            (run_engine(), p)
        };
        assert_eq!(n, m, "both engines count the same sequences");
        engine.push(e);
        baseline.push(p);
        ratios.push(e.as_secs_f64() / p.as_secs_f64());
    }
    engine.sort();
    baseline.sort();
    ratios.sort_by(f64::total_cmp);
    let median = ROUNDS / 2;
    println!("perft {DEPTH} of basic, {ROUNDS} rounds, CPU time of one thread");
    println!(
        "engine  median {:6.2} ms  fastest {:6.2} ms",
        ms(engine[median]),
        ms(engine[0])
    );
    println!(
        "plain   median {:6.2} ms  fastest {:6.2} ms",
        ms(baseline[median]),
        ms(baseline[0])
    );
    println!(
        "engine / plain: {:.3} by the rounds' median ratio (middle half {:.3}–{:.3}), {:.3} by \
         medians, {:.3} by the fastest runs",
        ratios[median],
        ratios[ROUNDS / 4],
        ratios[3 * ROUNDS / 4],
        engine[median].as_secs_f64() / baseline[median].as_secs_f64(),
        engine[0].as_secs_f64() / baseline[0].as_secs_f64(),
    );
}
