//! Speed of the rules engine: move generation plus play over random positions of every preset,
//! in moves played per second.

use divan::counter::ItemsCount;
use o_an_quan::rules::{Position, presets};
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
