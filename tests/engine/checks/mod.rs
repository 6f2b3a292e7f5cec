//! The properties every move must keep, checked move by move: every legal move plays and no
//! illegal one does, events replay to the new board, the plain reference implementation agrees,
//! stones are conserved, and the engine accepts the positions it makes.

use o_an_quan::rules::{Direction, EndReason, Event, Move, Position, geometry};
use o_an_quan::state_json;

use crate::reference::Reference;
use crate::support;

/// Every move that can be written down, legal or not.
pub fn every_move() -> Vec<Move> {
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

/// Plays from `start`, the `i`th move choosing `choices[i]` (modulo the legal moves), checking
/// every property after every move; with `to_the_end`, goes round `choices` again until the game
/// is over, which must come within the moves the rules allow. Returns where it stopped.
pub fn check_game(start: Position, choices: &[u16], to_the_end: bool) -> Position {
    let rules = *start.rules();
    let value = support::total_value(&start);
    let mut pos = start;
    let mut reference = Reference::from_position(&pos);
    let all_moves = every_move();
    let mut end = None;
    let rounds = if to_the_end { usize::MAX } else { 1 };
    let moves = choices.len().saturating_mul(rounds);
    let mut played = 0u32;
    for &choice in choices.iter().cycle().take(moves) {
        if pos.is_over() {
            break;
        }
        played += 1;
        // Every sowing counts toward the limit; a table flip is the one move that does not.
        assert!(
            played <= rules.max_plies() - start.ply() + 1,
            "the game goes on past its move limit"
        );
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
        let discarded = end.is_some_and(EndReason::sets_mandarin_pits_aside);
        if !discarded {
            assert_eq!(support::total_value(&pos), value, "stones are conserved");
        }
        let scores: i32 = pos.scores()[..pos.players()].iter().sum();
        let worth: i32 = (0..pos.players()).map(|p| pos.store(p).worth()).sum();
        assert_eq!(scores, worth, "debts cancel out in the scores");
        let restored = state_json::parse(rules, &state_json::to_line(&pos))
            .unwrap_or_else(|e| panic!("the engine refuses its own position: {e}"));
        assert_eq!(restored.setup(), pos.setup(), "state JSON round trip");
    }
    if to_the_end && !choices.is_empty() {
        assert!(pos.is_over(), "the game stopped before its end");
    }
    pos
}
