//! Properties of random games in every preset: stones are conserved, every legal move plays and
//! no illegal one does, events replay to the new board, the plain reference implementation
//! agrees move by move, and every game with a move limit ends.

use crate::checks;

use o_an_quan::rules::{MandarinStart, Position, Protection, Refill, RuleSet, presets};
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;

fn preset_rules() -> impl Strategy<Value = RuleSet> {
    (0..presets::all().len()).prop_map(|i| presets::all()[i].rules)
}

/// Any valid rule set, presets or not: every combination of options the engine accepts.
fn any_rules() -> impl Strategy<Value = RuleSet> {
    let protection = prop::option::of((prop::option::of(1u16..30), prop::option::of(1u16..8)))
        .prop_map(|p| p.map(|(plies, min_stones)| Protection { plies, min_stones }));
    (
        2u8..=3,
        prop_oneof![Just(MandarinStart::Piece), Just(MandarinStart::TenStones)],
        protection,
        prop_oneof![
            Just(Refill::Borrow),
            Just(Refill::Forfeit),
            Just(Refill::Deduct)
        ],
        any::<bool>(),
        any::<bool>(),
        prop::option::of(1u16..200),
        // A winning score above half the points: 36..=70 on two rows, 53..=88 on three.
        prop::option::of(0u16..=35),
    )
        .prop_map(
            |(
                players,
                mandarin_start,
                protection,
                refill,
                repetition,
                table_flip,
                move_limit,
                win_at,
            )| {
                let majority = RuleSet {
                    players,
                    ..RuleSet::default()
                }
                .majority();
                RuleSet {
                    players,
                    mandarin_start,
                    protection,
                    refill,
                    repetition: repetition && players == 2,
                    table_flip: table_flip && players == 2,
                    move_limit,
                    win_at: win_at.map(|extra| (majority + extra).min(35 * u16::from(players))),
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 300,
        failure_persistence: Some(Box::new(FileFailurePersistence::Direct("tests/proptest-regressions/properties.txt"))),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_games_keep_every_rule(rules in preset_rules(), choices in prop::collection::vec(any::<u16>(), 1..160)) {
        checks::check_game(Position::new(rules), &choices, false);
    }

    #[test]
    fn random_games_under_any_rules_keep_every_rule(rules in any_rules(), choices in prop::collection::vec(any::<u16>(), 1..160)) {
        prop_assert!(rules.validate().is_ok());
        checks::check_game(Position::new(rules), &choices, false);
    }

    #[test]
    fn every_game_with_a_move_limit_ends(rules in preset_rules(), limit in 1u16..400, seed in any::<u64>()) {
        let rules = RuleSet { move_limit: Some(limit), ..rules };
        let mut pos = Position::new(rules);
        let mut state = seed | 1;
        let mut plays = 0;
        while !pos.is_over() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let legal = pos.legal_moves();
            pos.play(legal[(state % legal.len() as u64) as usize]).unwrap();
            plays += 1;
            prop_assert!(plays <= 2 * u32::from(limit), "a swap is the only move that does not count");
        }
        prop_assert!(pos.ply() <= u32::from(limit));
        prop_assert!(pos.places().is_some());
    }
}
