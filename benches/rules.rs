//! Speed of the rules engine: move generation plus play over random positions of every preset,
//! in moves played per second; and perft of `basic` against a plain copy-make engine written
//! from the rule text (the baseline: `perft_basic` and `perft_basic_plain`, side by side).

#[path = "../tests/engine/reference/plain.rs"]
mod plain;

use divan::counter::ItemsCount;
use o_an_quan::rules::{Position, perft, presets};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

fn main() {
    divan::main();
}

/// Positions met in random games: each game is cut at a random ply, so openings, middle games
/// and endings all appear.
fn random_positions(id: &str, count: usize) -> Vec<Position> {
    let rules = presets::get(id).expect("preset exists").rules;
    let mut rng = StdRng::seed_from_u64(0x0a9);
    let mut positions = Vec::with_capacity(count);
    while positions.len() < count {
        let mut pos = Position::new(rules);
        let stop = rng.random_range(0..80);
        for _ in 0..stop {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.play_unchecked(moves[rng.random_range(0..moves.len())]);
        }
        if !pos.is_over() {
            positions.push(pos);
        }
    }
    positions
}

#[divan::bench(args = ["standard", "mature-quan", "mature-quan-3p", "ten-seeds"])]
fn generate_and_play_every_move(bencher: divan::Bencher, id: &str) {
    let positions = random_positions(id, 4096);
    let moves: usize = positions.iter().map(|p| p.legal_moves().len()).sum();
    bencher.counter(ItemsCount::new(moves)).bench(|| {
        let mut checksum = 0u32;
        for pos in divan::black_box(&positions) {
            for &mv in pos.legal_moves().iter() {
                let mut next = *pos;
                next.play_unchecked(mv);
                checksum = checksum.wrapping_add(next.pits()[0].into());
            }
        }
        checksum
    });
}

/// Depth 7 of `basic` from the start, counted by both engines alike (`tests/perft.rs` checks
/// the plain engine's counts and moves against the engine's).
const PERFT_DEPTH: u32 = 7;

#[divan::bench]
fn perft_basic() -> u64 {
    let start = Position::new(presets::get("basic").expect("preset exists").rules);
    perft(divan::black_box(&start), PERFT_DEPTH)
}

#[divan::bench]
fn perft_basic_plain() -> u64 {
    plain::Plain::start().perft(divan::black_box(PERFT_DEPTH))
}
