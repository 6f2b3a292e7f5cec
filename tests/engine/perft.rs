//! Perft counts from the start of every preset: the engine's counts are pinned, and the plain
//! reference implementation must reach the same numbers on its own.

use crate::reference;
use crate::support;

use o_an_quan::rules::{Position, perft};
use reference::Reference;

/// Sequences of 1..=6 moves from the start, per preset.
const COUNTS: [(&str, [u64; 6]); 7] = [
    ("standard", [10, 80, 664, 5128, 38476, 278360]),
    ("young-mandarin", [10, 80, 668, 5188, 39128, 285324]),
    ("basic", [10, 80, 664, 5128, 38476, 277760]),
    ("mature-quan", [10, 80, 668, 5148, 38772, 281904]),
    ("table-flip", [10, 90, 744, 5792, 43604, 316236]),
    ("mature-quan-3p", [10, 80, 656, 5332, 43248, 340024]),
    ("ten-seeds", [10, 80, 664, 5128, 38476, 278360]),
];

#[test]
fn perft_counts_from_the_start_of_every_preset() {
    for (id, counts) in COUNTS {
        let start = Position::new(support::rules(id));
        for (depth, &expected) in (1..).zip(counts.iter()) {
            assert_eq!(perft(&start, depth), expected, "{id} depth {depth}");
        }
    }
}

#[test]
fn the_reference_implementation_counts_the_same() {
    for (id, counts) in COUNTS {
        let start = Reference::from_position(&Position::new(support::rules(id)));
        for depth in 1..=5 {
            assert_eq!(
                start.perft(depth),
                counts[depth as usize - 1],
                "{id} depth {depth}"
            );
        }
    }
}

#[test]
fn the_plain_basic_engine_counts_the_same() {
    let (_, counts) = COUNTS.iter().find(|(id, _)| *id == "basic").unwrap();
    let start = reference::plain::Plain::start();
    for depth in 1..=6 {
        assert_eq!(
            start.perft(depth),
            counts[depth as usize - 1],
            "depth {depth}"
        );
    }
}

/// Through whole random games (refills, forfeits, the end): at every ply the plain engine's
/// legal moves and perft agree with the engine's.
#[test]
fn the_plain_basic_engine_agrees_through_random_games() {
    use o_an_quan::rules::{Direction, Move};
    use rand::rngs::StdRng;
    use rand::{RngExt, SeedableRng};
    let mut rng = StdRng::seed_from_u64(33);
    for _ in 0..60 {
        let mut pos = Position::new(support::rules("basic"));
        let mut plain = reference::plain::Plain::start();
        loop {
            assert_eq!(plain.perft(3), perft(&pos, 3), "ply {}", pos.ply());
            let moves = plain.moves();
            assert_eq!(moves.len(), pos.legal_moves().len(), "ply {}", pos.ply());
            if moves.is_empty() {
                break;
            }
            let (pit, step) = moves[rng.random_range(0..moves.len())];
            let dir = if step == 1 {
                Direction::CounterClockwise
            } else {
                Direction::Clockwise
            };
            pos.play(Move::Sow {
                pit: pit as u8,
                dir,
            })
            .unwrap();
            plain.play((pit, step));
        }
    }
}
