//! Properties of random games in every preset: stones are conserved, every legal move plays and
//! no illegal one does, events replay to the new board, the plain reference implementation
//! agrees move by move, and every game with a move limit ends.

mod reference;
mod support;

use o_an_quan::rules::{
    Direction, EndReason, Event, MandarinStart, Move, Position, Protection, Refill, RuleSet,
    geometry, presets,
};
use o_an_quan::state_json;
use proptest::prelude::*;
use proptest::test_runner::FileFailurePersistence;
use reference::Reference;

/// Every move that can be written down, legal or not.
fn every_move() -> Vec<Move> {
    let mut moves = vec![Move::Swap];
    for number in 1..=geometry::MAX_PIT_NUMBER {
        for dir in Direction::ALL {
            moves.push(Move::sow(number, dir).unwrap());
        }
    }
    moves.extend((0..3).map(|p| Move::Sow {
        pit: geometry::mandarin_pit(p) as u8,
        dir: Direction::Clockwise,
    }));
    moves
}

/// The board and stores as the events say they are: a separate bookkeeping of every stone.
struct Replayed {
    pits: Vec<i32>,
    quan: Vec<bool>,
    stones: Vec<i32>,
    mandarins: Vec<i32>,
    owes: Vec<Vec<i32>>,
    swapped: bool,
    over: bool,
}

fn replay(before: &Position, events: &[Event]) -> Replayed {
    let players = before.players();
    let mut r = Replayed {
        pits: before.pits().iter().map(|&n| i32::from(n)).collect(),
        quan: (0..players).map(|p| before.has_mandarin(p)).collect(),
        stones: (0..players)
            .map(|p| i32::from(before.store(p).stones))
            .collect(),
        mandarins: (0..players)
            .map(|p| i32::from(before.store(p).mandarins))
            .collect(),
        owes: (0..players)
            .map(|p| {
                before.store(p).owes[..players]
                    .iter()
                    .map(|&o| i32::from(o))
                    .collect()
            })
            .collect(),
        swapped: before.swapped(),
        over: before.is_over(),
    };
    let mover = before.to_move();
    let mut hand = 0;
    for event in events {
        match *event {
            Event::PickUp { pit, count } | Event::Relay { pit, count } => {
                assert_eq!(hand, 0, "picked up with stones in hand");
                assert_eq!(r.pits[usize::from(pit)], i32::from(count));
                r.pits[usize::from(pit)] = 0;
                hand = i32::from(count);
            }
            Event::Drop { pit } => {
                assert!(hand > 0, "dropped from an empty hand");
                hand -= 1;
                r.pits[usize::from(pit)] += 1;
            }
            Event::Capture {
                pit,
                stones,
                mandarin,
            } => {
                let pit = usize::from(pit);
                assert_eq!(r.pits[pit], i32::from(stones));
                r.pits[pit] = 0;
                r.stones[mover] += i32::from(stones);
                if mandarin {
                    assert!(r.quan[geometry::owner(pit)]);
                    r.quan[geometry::owner(pit)] = false;
                    r.mandarins[mover] += 1;
                }
            }
            Event::TurnEnd { .. } => assert_eq!(hand, 0, "the turn ended with stones in hand"),
            Event::Swap => r.swapped = true,
            Event::Refill {
                player,
                paid,
                exchanged,
                loan,
            } => {
                let p = usize::from(player);
                if exchanged {
                    r.mandarins[p] -= 1;
                    r.stones[p] += 10;
                }
                r.stones[p] -= i32::from(paid);
                let mut total = i32::from(paid);
                if let Some(loan) = loan {
                    let l = usize::from(loan.lender);
                    if loan.exchanged {
                        r.mandarins[l] -= 1;
                        r.stones[l] += 10;
                    }
                    r.stones[l] -= i32::from(loan.stones);
                    r.owes[p][l] += i32::from(loan.stones);
                    let net = r.owes[p][l].min(r.owes[l][p]);
                    r.owes[p][l] -= net;
                    r.owes[l][p] -= net;
                    total += i32::from(loan.stones);
                }
                assert_eq!(total, 5);
                for i in geometry::row(p) {
                    assert_eq!(r.pits[i], 0);
                    r.pits[i] = 1;
                }
            }
            Event::Sweep {
                pit,
                player,
                stones,
            } => {
                assert_eq!(geometry::owner(usize::from(pit)), usize::from(player));
                assert_eq!(r.pits[usize::from(pit)], i32::from(stones));
                r.pits[usize::from(pit)] = 0;
                r.stones[usize::from(player)] += i32::from(stones);
            }
            Event::Discard {
                pit,
                stones,
                mandarin,
            } => {
                let pit = usize::from(pit);
                assert_eq!(r.pits[pit], i32::from(stones));
                assert_eq!(r.quan[geometry::owner(pit)], mandarin);
                r.pits[pit] = 0;
                r.quan[geometry::owner(pit)] = false;
            }
            Event::GameOver { .. } => r.over = true,
        }
    }
    assert_eq!(hand, 0);
    r
}

fn assert_replay_matches(before: &Position, events: &[Event], after: &Position) {
    let r = replay(before, events);
    let players = after.players();
    assert_eq!(
        r.pits,
        after
            .pits()
            .iter()
            .map(|&n| i32::from(n))
            .collect::<Vec<_>>()
    );
    assert_eq!(
        r.quan,
        (0..players)
            .map(|p| after.has_mandarin(p))
            .collect::<Vec<_>>()
    );
    for p in 0..players {
        let store = after.store(p);
        assert_eq!(
            (r.stones[p], r.mandarins[p]),
            (i32::from(store.stones), i32::from(store.mandarins))
        );
        assert_eq!(
            r.owes[p],
            store.owes[..players]
                .iter()
                .map(|&o| i32::from(o))
                .collect::<Vec<_>>()
        );
    }
    assert_eq!((r.swapped, r.over), (after.swapped(), after.is_over()));
    if let Some(Event::GameOver { scores, .. }) = events.last() {
        assert_eq!(*scores, after.scores());
    }
}

/// Plays a random game, checking every property after every move.
fn check_random_game(rules: RuleSet, choices: &[u16]) {
    let mut pos = Position::new(rules);
    let mut reference = Reference::from_position(&pos);
    let all_moves = every_move();
    let mut end = None;
    for &choice in choices {
        if pos.is_over() {
            break;
        }
        let legal = pos.legal_moves();
        assert!(!legal.is_empty(), "a game in progress always has a move");
        let mut reference_moves = reference.moves();
        reference_moves.sort_by_key(|m| m.to_string());
        let mut engine_moves = legal.to_vec();
        engine_moves.sort_by_key(|m| m.to_string());
        assert_eq!(engine_moves, reference_moves);
        for &mv in &all_moves {
            let mut copy = pos;
            match copy.play(mv) {
                Ok(_) => assert!(legal.contains(&mv), "{mv} played but is not legal"),
                Err(e) => {
                    assert!(!legal.contains(&mv), "{mv} is legal but refused: {e}");
                    assert_eq!(copy, pos, "a refused move changed the position");
                }
            }
        }
        let mv = legal[usize::from(choice) % legal.len()];
        let before = pos;
        let outcome = pos.play(mv).unwrap();
        assert_replay_matches(&before, &outcome.events, &pos);
        reference.play(mv);
        assert_eq!(
            pos.setup(),
            reference.setup(),
            "after {mv} from {}",
            state_json::to_line(&before)
        );
        let mut fast = before;
        fast.play_unchecked(mv);
        assert_eq!(fast, pos, "play_unchecked differs from play");
        end = outcome.game_over().map(|(reason, _)| reason).or(end);
        let discarded = matches!(end, Some(EndReason::Repetition | EndReason::MoveLimit));
        if !discarded {
            assert_eq!(
                support::total_value(&pos),
                rules.total_value(),
                "stones are conserved"
            );
        }
        let restored = state_json::parse(rules, &state_json::to_line(&pos)).unwrap();
        assert_eq!(restored.setup(), pos.setup(), "state JSON round trip");
    }
}

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
    )
        .prop_map(
            |(players, mandarin_start, protection, refill, repetition, table_flip, move_limit)| {
                RuleSet {
                    players,
                    mandarin_start,
                    protection,
                    refill,
                    repetition: repetition && players == 2,
                    table_flip: table_flip && players == 2,
                    move_limit,
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
        check_random_game(rules, &choices);
    }

    #[test]
    fn random_games_under_any_rules_keep_every_rule(rules in any_rules(), choices in prop::collection::vec(any::<u16>(), 1..160)) {
        prop_assert!(rules.validate().is_ok());
        check_random_game(rules, &choices);
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
