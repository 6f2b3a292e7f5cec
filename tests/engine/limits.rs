//! The bounds every game keeps: debts past 255, full pits and full stores, and games that would
//! never end. Each test is a position that broke an earlier engine.

use crate::support;

use o_an_quan::rules::limits::{MAX_BOARD_STONES, MAX_PLIES};
use o_an_quan::rules::{EndReason, Position, RuleSet, presets};
use o_an_quan::state_json;

fn parse(rules: RuleSet, json: &str) -> Result<Position, String> {
    state_json::parse(rules, json).map_err(|e| e.to_string())
}

#[test]
fn a_debt_grows_past_255_without_wrapping() {
    // Two engines under the classic rules without a move limit reach this at move 443.
    let rules = RuleSet::default();
    let mut pos = parse(
        rules,
        r#"{"ply":442,"pits":[0,0,0,1,0,0,0,0,0,0,0,2],"quan":[false,false],"stores":[{"stones":47,"mandarins":2},{"owes":[253,0]}]}"#,
    )
    .unwrap();
    assert_eq!(pos.scores()[..2], [320, -253]);
    pos.play("4-".parse().unwrap()).unwrap();
    // Player 1's row was empty: they borrowed five more stones for the refill, which player
    // 0 lent (the score is the same: stones lent are owed back).
    assert_eq!(pos.store(1).owes[0], 258);
    assert_eq!(pos.scores()[..2], [320, -258]);
    assert_eq!(support::total_value(&pos), 70);
    // And the engine takes back what it wrote.
    assert_eq!(
        parse(rules, &state_json::to_line(&pos)).unwrap().setup(),
        pos.setup()
    );
}

#[test]
fn positions_that_could_not_have_arisen_are_refused_by_field() {
    let ten = support::rules("ten-seeds");
    let cases = [
        // A pit of 255 with a store of −250 before any move.
        (
            ten,
            r#"{"pits":[5,5,5,5,5,10,5,5,5,5,255,10],"stores":[{"stones":-250},{}]}"#,
            "stores[0].stones: -250 after 0 moves",
        ),
        // Stores at the ends of i16 after one move.
        (
            ten,
            r#"{"ply":1,"pits":[5,5,5,5,5,10,5,5,5,5,5,10],"quan":[false,false],"stores":[{"stones":32767},{"stones":-32767}]}"#,
            "stores[1].stones: -32767 after 1 moves",
        ),
        (
            RuleSet::default(),
            r#"{"ply":3,"pits":[0,0,0,1,0,0,0,0,0,0,0,2],"quan":[false,false],"stores":[{"stones":47,"mandarins":2},{"owes":[20,0]}]}"#,
            "stores[1].owes: 20 stones owed after 3 moves",
        ),
        (
            RuleSet::default(),
            r#"{"ply":1001,"pits":[5,5,5,5,5,0,5,5,5,5,5,0],"over":true}"#,
            "ply: 1001: no game lasts more than 1000 moves",
        ),
        (
            ten,
            r#"{"ply":900,"pits":[100,100,100,0,0,10,5,5,5,5,5,10],"quan":[false,false],"stores":[{"stones":-140},{"stones":-140}]}"#,
            "pits: 345 small stones on the board, which holds at most 255",
        ),
    ];
    for (rules, json, expected) in cases {
        let error = parse(rules, json).unwrap_err();
        assert!(error.contains(expected), "{json}: {error}");
    }
}

/// Player 0 sows into the left mandarin pit, player 1 into the right one, and player 0's row
/// is then empty under the deduct refill, with `mandarin_stones` in each mandarin pit. Returns
/// the position and player 0's store before the refill.
fn deduct_refill_with(mandarin_stones: u8) -> (Position, i16) {
    let rules = support::rules("ten-seeds");
    let m = mandarin_stones;
    let pits = [0, 0, 0, 0, 1, m, 0, 0, 1, 0, 1, m];
    let board: i16 = pits.iter().map(|&n| i16::from(n)).sum();
    let each = (70 - board) / 2;
    let stores = [
        support::store(each, 0),
        support::store(70 - board - each, 0),
    ];
    let mut pos = support::position(rules, &pits, &[false, false], &stores, 0, 100);
    pos.play("5+".parse().unwrap()).unwrap();
    pos.play("10+".parse().unwrap()).unwrap();
    (pos, each)
}

#[test]
fn a_deduct_refill_that_would_overfill_the_board_ends_the_game() {
    // 243 stones on the board: five more still fit.
    let (pos, before) = deduct_refill_with(120);
    assert!(!pos.is_over());
    assert_eq!(pos.store(0).stones, before - 5);
    assert_eq!(pos.pits()[..5], [1, 1, 1, 1, 1]);
    assert_eq!(support::total_value(&pos), 70);

    // 251: five more would pass the bound, so the game ends, the rows swept (player 1 takes
    // one stone) and the mandarin pits set aside.
    const { assert!(2 * 124 + 3 + 5 > MAX_BOARD_STONES) };
    let (pos, before) = deduct_refill_with(124);
    assert!(pos.is_over());
    assert!(pos.pits().iter().all(|&n| n == 0));
    assert_eq!(pos.store(0).stones, before);
    assert_eq!(
        pos.scores()[..2],
        [i32::from(before), i32::from(70 - 251 - before + 1)]
    );
}

#[test]
fn the_full_board_end_is_named_in_the_events() {
    let rules = support::rules("ten-seeds");
    let mut pos = support::position(
        rules,
        &[0, 0, 0, 0, 1, 124, 0, 0, 1, 0, 1, 124],
        &[false, false],
        &[support::store(-90, 0), support::store(-91, 0)],
        0,
        100,
    );
    pos.play("5+".parse().unwrap()).unwrap();
    let outcome = pos.play("10+".parse().unwrap()).unwrap();
    assert_eq!(
        outcome.game_over().map(|(reason, _)| reason),
        Some(EndReason::BoardFull { player: 0 })
    );
}

#[test]
fn every_preset_game_ends_by_its_move_limit() {
    for preset in presets::all() {
        let limit = preset.rules.max_plies();
        assert!(
            limit < MAX_PLIES,
            "{} has no move limit of its own",
            preset.id
        );
        for seed in 0..40u64 {
            let mut pos = Position::new(preset.rules);
            let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            while !pos.is_over() {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let legal = pos.legal_moves();
                pos.play(legal[(state % legal.len() as u64) as usize])
                    .unwrap();
                assert!(pos.ply() <= limit, "{} went past move {limit}", preset.id);
            }
        }
    }
}

#[test]
fn a_rule_set_without_a_limit_still_ends_at_the_longest_game() {
    let rules = RuleSet::default();
    assert_eq!(rules.max_plies(), MAX_PLIES);
    let mut pos = parse(
        rules,
        r#"{"ply":999,"pits":[0,0,0,1,0,0,0,0,0,0,0,2],"quan":[false,false],"stores":[{"stones":47,"mandarins":2},{"owes":[253,0]}]}"#,
    )
    .unwrap();
    let outcome = pos.play("4-".parse().unwrap()).unwrap();
    assert_eq!(
        outcome.game_over().map(|(reason, _)| reason),
        Some(EndReason::MoveLimit)
    );
    assert!(RuleSet::from_ron("(players: 2, move_limit: Some(5000))").is_err());
}
