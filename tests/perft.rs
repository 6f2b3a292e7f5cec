//! Perft counts from the start of every preset: the engine's counts are pinned, and the plain
//! reference implementation must reach the same numbers on its own.

mod reference;
mod support;

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
