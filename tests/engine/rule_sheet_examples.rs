//! Every worked example of the rule sheets, on its exact board.

use crate::support;

use o_an_quan::rules::{EndReason, Event, Move, Position, TurnEnd};
use support::{position, rules, store};

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// Player 0 to move: pit 3 holds one stone, pit 5 is empty, the right mandarin pit holds its
/// mandarin and `mandarin_stones` stones, pit 6 is empty and pit 7 holds 4.
fn chain_board(id: &str, mandarin_stones: u8, piece: bool, ply: u32) -> Position {
    let pits = [2, 3, 1, 2, 0, mandarin_stones, 0, 4, 3, 5, 5, 0];
    let board: i16 = pits.iter().map(|&n| i16::from(n)).sum::<i16>() + if piece { 20 } else { 10 };
    let opponent = if piece { store(0, 0) } else { store(0, 1) };
    let stones = 70 - board - opponent.worth() as i16;
    position(
        rules(id),
        &pits,
        &[piece, true],
        &[store(stones, 0), opponent],
        0,
        ply,
    )
}

#[test]
fn opening_pit_2_clockwise_captures_six() {
    let mut pos = Position::new(rules("standard"));
    let outcome = pos.play(mv("2-")).unwrap();
    assert_eq!(outcome.captured(), 6);
    assert!(outcome.events.contains(&Event::Capture {
        pit: 0,
        stones: 6,
        mandarin: false
    }));
    assert_eq!(outcome.turn_end(), Some(TurnEnd::Blocked { pit: 11 }));
    assert_eq!(pos.pits(), &[0, 0, 6, 6, 6, 1, 6, 0, 6, 6, 6, 1]);
    assert_eq!(pos.scores()[..2], [6, 0]);
}

#[test]
fn chain_capture_takes_the_mandarin_then_pit_7() {
    let mut pos = chain_board("standard", 2, true, 6);
    let before = pos.score(0);
    let outcome = pos.play(mv("3+")).unwrap();
    let captures: Vec<_> = outcome
        .events
        .iter()
        .filter(|e| matches!(e, Event::Capture { .. }))
        .collect();
    assert_eq!(
        captures,
        [
            &Event::Capture {
                pit: 5,
                stones: 2,
                mandarin: true
            },
            &Event::Capture {
                pit: 7,
                stones: 4,
                mandarin: false
            }
        ]
    );
    assert_eq!(outcome.captured(), 16);
    assert_eq!(pos.score(0) - before, 16);
    assert_eq!(pos.store(0).mandarins, 1);
    assert!(!pos.has_mandarin(0));
}

#[test]
fn the_same_chain_under_mature_quan_captures_nothing() {
    let mut pos = chain_board("mature-quan", 2, true, 6);
    let outcome = pos.play(mv("3+")).unwrap();
    assert_eq!(outcome.captured(), 0);
    assert_eq!(outcome.turn_end(), Some(TurnEnd::Protected { pit: 5 }));
    assert!(pos.has_mandarin(0));
    assert_eq!(pos.pits()[5..8], [2, 0, 4]);
}

#[test]
fn mature_quan_needs_five_small_stones() {
    let mut four = chain_board("mature-quan", 4, true, 30);
    assert_eq!(four.play(mv("3+")).unwrap().captured(), 0);
    let mut five = chain_board("mature-quan", 5, true, 30);
    assert_eq!(five.play(mv("3+")).unwrap().captured(), 10 + 5 + 4);
}

#[test]
fn mature_quan_does_not_protect_a_pit_whose_mandarin_is_gone() {
    let mut pos = chain_board("mature-quan", 2, false, 30);
    let outcome = pos.play(mv("3+")).unwrap();
    assert!(outcome.events.contains(&Event::Capture {
        pit: 5,
        stones: 2,
        mandarin: false
    }));
    assert_eq!(outcome.captured(), 2 + 4);
}

#[test]
fn young_mandarin_is_protected_during_the_first_ten_moves_only() {
    let mut young = chain_board("young-mandarin", 2, true, 9);
    assert_eq!(
        young.play(mv("3+")).unwrap().turn_end(),
        Some(TurnEnd::Protected { pit: 5 })
    );
    let mut grown = chain_board("young-mandarin", 2, true, 10);
    assert_eq!(grown.play(mv("3+")).unwrap().captured(), 16);
    let mut heavy = chain_board("young-mandarin", 5, true, 3);
    assert_eq!(heavy.play(mv("3+")).unwrap().captured(), 19);
    // The classic rules have no protection at all.
    let mut classic = chain_board("standard", 2, true, 0);
    assert_eq!(classic.play(mv("3+")).unwrap().captured(), 16);
}

#[test]
fn ten_seeds_forbids_mandarin_captures_on_the_first_move_only() {
    let board = |ply| {
        let pits = [2, 3, 1, 2, 0, 10, 0, 4, 3, 5, 5, 10];
        let stones = 70 - pits.iter().map(|&n| i16::from(n)).sum::<i16>();
        position(
            rules("ten-seeds"),
            &pits,
            &[false, false],
            &[store(stones, 0), store(0, 0)],
            0,
            ply,
        )
    };
    assert_eq!(
        board(0).play(mv("3+")).unwrap().turn_end(),
        Some(TurnEnd::Protected { pit: 5 })
    );
    assert_eq!(board(1).play(mv("3+")).unwrap().captured(), 10 + 4);
}

#[test]
fn end_of_game_count_is_10_plus_23_plus_4_minus_2() {
    // Player 0 has 21 stones and owes 2; player 1 has the right mandarin. Pit 3 clockwise lands in
    // pit 2, pit 1 is empty, and the left mandarin pit (mandarin + 2) is the last thing to take.
    let mut p0 = store(21, 0);
    p0.owes[1] = 2;
    let pits = [0, 0, 1, 2, 1, 0, 3, 0, 2, 0, 4, 2];
    let mut pos = position(
        rules("standard"),
        &pits,
        &[false, true],
        &[p0, store(14, 1)],
        0,
        40,
    );
    let outcome = pos.play(mv("3-")).unwrap();
    assert!(outcome.events.contains(&Event::Capture {
        pit: 11,
        stones: 2,
        mandarin: true
    }));
    let (reason, scores) = outcome.game_over().unwrap();
    assert_eq!(reason, EndReason::MandarinsCaptured);
    assert_eq!((pos.store(0).mandarins, pos.store(0).stones), (1, 23 + 4));
    assert_eq!(scores[..2], [10 + 23 + 4 - 2, 10 + 14 + 9 + 2]);
    // 35 all: a draw, both in first place.
    assert_eq!(pos.places().unwrap()[..2], [0, 0]);
    assert!(pos.pits().iter().all(|&n| n == 0));
}

/// Player 0 sows pit 5's single stone into the right mandarin pit and captures pit 8's three
/// stones across empty pit 7, leaving player 1 with an empty row.
fn empty_row_board(id: &str, p1: o_an_quan::rules::Store, left_piece: bool) -> Position {
    let pits = [3, 4, 0, 2, 1, 0, 0, 3, 0, 0, 0, 3];
    let board: i16 = 16 + 10 + if left_piece { 10 } else { 0 };
    let p0 = store(70 - board - p1.worth() as i16, 0);
    position(rules(id), &pits, &[true, left_piece], &[p0, p1], 0, 20)
}

#[test]
fn forfeit_when_the_store_cannot_pay_for_a_refill() {
    let mut pos = empty_row_board("basic", store(4, 0), true);
    let outcome = pos.play(mv("5+")).unwrap();
    assert_eq!(outcome.captured(), 3);
    assert_eq!(
        outcome.game_over().unwrap().0,
        EndReason::Forfeit { player: 1 }
    );
    assert!(pos.is_over());
    assert_eq!(pos.forfeit(), Some(1));
    assert_eq!(pos.places().unwrap()[..2], [0, 1]);
}

#[test]
fn a_refill_changes_a_mandarin_into_stones_when_it_must() {
    let mut pos = empty_row_board("basic", store(0, 1), false);
    let outcome = pos.play(mv("5+")).unwrap();
    assert!(outcome.events.contains(&Event::Refill {
        player: 1,
        paid: 5,
        exchanged: true,
        loan: None
    }));
    assert!(!pos.is_over());
    assert_eq!((pos.store(1).stones, pos.store(1).mandarins), (5, 0));
    assert_eq!(pos.pits()[6..11], [1, 1, 1, 1, 1]);
    assert_eq!(pos.to_move(), 1);
}

#[test]
fn borrowing_records_what_is_owed() {
    let mut pos = empty_row_board("standard", store(3, 0), true);
    let outcome = pos.play(mv("5+")).unwrap();
    let loan = o_an_quan::rules::Loan {
        lender: 0,
        stones: 2,
        exchanged: false,
    };
    assert!(outcome.events.contains(&Event::Refill {
        player: 1,
        paid: 3,
        exchanged: false,
        loan: Some(loan)
    }));
    assert_eq!(pos.store(1).stones, 0);
    assert_eq!(pos.store(1).owes[0], 2);
    assert_eq!(pos.score(1), -2);
    assert_eq!(pos.pits()[6..11], [1, 1, 1, 1, 1]);
}

#[test]
fn a_lender_changes_a_mandarin_into_stones_to_lend() {
    // Player 0 holds the left mandarin and, after capturing 3, only 3 stones: short of 5.
    let pits = [37, 4, 0, 2, 1, 0, 0, 3, 0, 0, 0, 3];
    let mut pos = position(
        rules("standard"),
        &pits,
        &[true, false],
        &[store(0, 1), store(0, 0)],
        0,
        20,
    );
    let outcome = pos.play(mv("5+")).unwrap();
    let loan = o_an_quan::rules::Loan {
        lender: 0,
        stones: 5,
        exchanged: true,
    };
    assert!(outcome.events.contains(&Event::Refill {
        player: 1,
        paid: 0,
        exchanged: false,
        loan: Some(loan)
    }));
    assert_eq!(
        (pos.store(0).stones, pos.store(0).mandarins),
        (3 + 10 - 5, 0)
    );
    assert_eq!(pos.store(1).owes[0], 5);
    assert_eq!((pos.score(0), pos.score(1)), (13, -5));
}

#[test]
fn nobody_can_lend_so_the_game_ends() {
    // Both stores are empty: player 1 cannot pay and player 0 cannot lend.
    let pits = [37, 4, 0, 2, 1, 0, 0, 3, 0, 0, 0, 3];
    let mut pos = position(
        rules("standard"),
        &pits,
        &[true, true],
        &[store(0, 0), store(0, 0)],
        0,
        20,
    );
    let outcome = pos.play(mv("5+")).unwrap();
    assert_eq!(outcome.captured(), 3);
    assert_eq!(
        outcome.game_over().unwrap().0,
        EndReason::NoStonesToLend { player: 1 }
    );
    assert_eq!(pos.forfeit(), None);
    assert_eq!(pos.store(1).owes, [0, 0, 0]);
    assert_eq!(pos.score(1), 0);
    // The mandarin pits are not swept: their contents stay where they are, counting for nobody.
    assert!(pos.has_mandarin(0) && pos.has_mandarin(1));
    assert_eq!(support::total_value(&pos), 70);
}

#[test]
fn deduct_refill_can_go_below_zero() {
    let pits = [3, 4, 0, 2, 1, 10, 0, 3, 0, 0, 0, 10];
    let p1 = store(2, 0);
    let p0 = store(70 - 33 - 2, 0);
    let mut pos = position(rules("ten-seeds"), &pits, &[false, false], &[p0, p1], 0, 20);
    let outcome = pos.play(mv("5+")).unwrap();
    assert!(outcome.events.contains(&Event::Refill {
        player: 1,
        paid: 5,
        exchanged: false,
        loan: None
    }));
    assert_eq!(pos.score(1), -3);
    assert_eq!(support::total_value(&pos), 70);
}

#[test]
fn table_flip_keeps_the_board_and_the_six_points_with_the_side() {
    let mut pos = Position::new(rules("table-flip"));
    assert!(!pos.legal_moves().contains(&Move::Swap));
    pos.play(mv("2-")).unwrap();
    assert!(pos.legal_moves().contains(&Move::Swap));
    let before = pos;
    let outcome = pos.play(Move::Swap).unwrap();
    assert_eq!(outcome.events, [Event::Swap]);
    assert!(pos.swapped());
    assert_eq!(pos.pits(), before.pits());
    assert_eq!(pos.scores(), [6, 0, 0]);
    assert_eq!((pos.to_move(), pos.ply()), (1, 1));
    assert!(!pos.legal_moves().contains(&Move::Swap));
    assert!(pos.play(Move::Swap).is_err());

    let mut declined = before;
    declined.play(mv("6+")).unwrap();
    assert!(!declined.legal_moves().contains(&Move::Swap));
    let mut standard = Position::new(rules("basic"));
    standard.play(mv("2-")).unwrap();
    assert!(standard.play(Move::Swap).is_err());
}

#[test]
fn the_same_pair_of_moves_three_times_ends_the_game() {
    let pits = [0, 2, 2, 1, 1, 0, 1, 2, 2, 2, 1, 0];
    let start = position(
        rules("mature-quan"),
        &pits,
        &[true, true],
        &[store(36, 0), store(0, 0)],
        0,
        0,
    );
    let mut pos = start;
    for (i, m) in ["4+", "6-", "4+", "6-", "4+"].into_iter().enumerate() {
        assert!(pos.play(mv(m)).unwrap().game_over().is_none(), "move {i}");
    }
    let outcome = pos.play(mv("6-")).unwrap();
    let (reason, scores) = outcome.game_over().unwrap();
    assert_eq!(reason, EndReason::Repetition);
    // Whatever was in the mandarin pits counts for nobody.
    assert!(
        outcome
            .events
            .iter()
            .any(|e| matches!(e, Event::Discard { mandarin: true, .. }))
    );
    assert!(pos.pits().iter().all(|&n| n == 0) && !pos.has_mandarin(0) && !pos.has_mandarin(1));
    assert!(scores[0] + scores[1] < 70);
    // Without the repetition rule the same moves play on (or run out), never ending this way.
    let mut classic = position(
        rules("standard"),
        &pits,
        &[true, true],
        &[store(36, 0), store(0, 0)],
        0,
        0,
    );
    for m in ["4+", "6-", "4+", "6-"] {
        classic.play(mv(m)).unwrap();
    }
    assert!(!classic.is_over());
}

/// Player 1 sows pit 8's single stone into pit 9; empty pit 10 is then followed by player 1's
/// mandarin pit, holding its mandarin and five stones, which mature-quan lets player 1 capture.
fn three_player_board(last_piece_on_board: bool) -> Position {
    let mut pits = vec![0u8; 18];
    pits[..5].copy_from_slice(&[2, 2, 2, 2, 2]);
    pits[6..11].copy_from_slice(&[3, 0, 1, 0, 0]);
    pits[11] = 5;
    pits[12..17].copy_from_slice(&[2, 2, 2, 2, 2]);
    let p2 = if last_piece_on_board {
        store(15, 0)
    } else {
        store(15, 1)
    };
    let stores = [store(16, 1), store(15, 0), p2];
    position(
        rules("mature-quan-3p"),
        &pits,
        &[false, true, last_piece_on_board],
        &stores,
        1,
        30,
    )
}

#[test]
fn a_three_player_game_ends_only_when_all_three_mandarin_pits_are_empty() {
    let mut pos = three_player_board(true);
    let outcome = pos.play(mv("8+")).unwrap();
    assert!(outcome.events.contains(&Event::Capture {
        pit: 11,
        stones: 5,
        mandarin: true
    }));
    assert!(
        outcome.game_over().is_none(),
        "player 2's mandarin is still on the board"
    );
    assert_eq!(pos.to_move(), 2);

    let mut last = three_player_board(false);
    let outcome = last.play(mv("8+")).unwrap();
    assert_eq!(outcome.game_over().unwrap().0, EndReason::MandarinsCaptured);
    // Player 1: 15 + 10 + 5 captured, and 4 swept from the row.
    assert_eq!(last.scores(), [16 + 10 + 10, 15 + 15 + 4, 15 + 10 + 10]);
    assert_eq!(last.places().unwrap(), [0, 2, 1]);
}

#[test]
fn reaching_36_of_70_wins_at_once_under_win_at() {
    // The chain above takes player 0 from 23 to 39 points.
    let majority = |pos: Position| {
        let mut rules = *pos.rules();
        rules.win_at = Some(rules.majority());
        Position::from_setup(rules, &pos.setup()).unwrap()
    };
    let mut classic = chain_board("standard", 2, true, 6);
    assert!(classic.play(mv("3+")).unwrap().game_over().is_none());

    let mut pos = majority(chain_board("standard", 2, true, 6));
    assert_eq!(pos.score(0), 23);
    let outcome = pos.play(mv("3+")).unwrap();
    let (reason, scores) = outcome.game_over().unwrap();
    assert_eq!(reason, EndReason::ScoreReached { player: 0 });
    assert!(pos.is_over());
    // Both rows swept to their owners; player 1's mandarin pit (its piece alone) set aside.
    assert!(pos.pits().iter().all(|&n| n == 0));
    assert!(outcome.events.iter().any(|e| matches!(
        e,
        Event::Discard {
            pit: 11,
            mandarin: true,
            ..
        }
    )));
    assert!(scores[0] >= 36, "{scores:?}");
    assert_eq!(pos.places().unwrap()[..2], [0, 1]);
    assert_eq!(scores[0] + scores[1] + 10, 70);

    // A position past the threshold that is not over cannot be set up.
    // (13 stones moved from player 1's row to player 0's store: 36 points.)
    let mut setup = majority(chain_board("standard", 2, true, 6)).setup();
    setup.stores[0].stones += 13;
    setup.pits[0] -= 1;
    for pit in 7..10 {
        setup.pits[pit] = 0;
    }
    let error = Position::from_setup(*pos.rules(), &setup).unwrap_err();
    assert_eq!(error.field, "stores[0]");
    assert!(error.to_string().contains("win_at (36)"), "{error}");
}
