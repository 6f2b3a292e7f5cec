//! Every explanation checked against the line it describes, for several hundred mistakes of
//! self-play on the 2-player presets: each fact's moves are played out again and what they
//! take is read off the stores' worth (not the capture events the facts were made from), each
//! reply is checked to be a best move by a search of its own, and a refill's cost is found in
//! the mover's store. Mistakes of other self-play games, made puzzles to retry, read as
//! puzzles that the mistake does not solve.

use oaq_ai::explain::{Fact, Taking, explain};
use oaq_ai::review::{Quality, Reviewer};
use oaq_ai::{Limits, Search, Weights};
use oaq_rules::{Event, Move, Position, presets};
use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

/// The depth of the review and of the replies: shallow, so that several hundred mistakes are
/// judged in seconds; the facts hold at any depth.
const DEPTH: u32 = 4;

/// A game of `plies` moves at most: a search's best move, or (one time in three) any move.
fn self_play(rules: oaq_rules::RuleSet, seed: u64, plies: usize) -> (Position, Vec<Move>) {
    let start = Position::new(rules);
    let mut rng = StdRng::seed_from_u64(seed);
    let (mut pos, mut moves) = (start, Vec::new());
    while !pos.is_over() && moves.len() < plies {
        let legal = pos.legal_moves().to_vec();
        let mv = if rng.random_range(0..3) == 0 {
            legal[rng.random_range(0..legal.len())]
        } else {
            let limits = Limits {
                depth: Some(2),
                ..Limits::default()
            };
            Search::new(pos, Weights::shipped(), limits).run().best
        };
        pos.play(mv).unwrap();
        moves.push(mv);
    }
    (start, moves)
}

/// What `seat`'s store gained by `mv` on `pos`, less what a refill or a loan took from it and
/// what the end swept into it: the points the move captured for `seat`.
fn captured_by_store(pos: &Position, mv: Move, seat: usize) -> (Position, u32) {
    let mut after = *pos;
    let mut events = Vec::new();
    after.play_with(mv, &mut events).unwrap();
    let mut worth = after.store(seat).worth() - pos.store(seat).worth();
    for event in &events {
        match *event {
            Event::Refill {
                player, paid, loan, ..
            } => {
                if usize::from(player) == seat {
                    worth += i32::from(paid);
                }
                if let Some(loan) = loan.filter(|l| usize::from(l.lender) == seat) {
                    worth += i32::from(loan.stones);
                }
            }
            Event::Sweep { player, stones, .. } if usize::from(player) == seat => {
                worth -= i32::from(stones);
            }
            _ => {}
        }
    }
    (
        after,
        u32::try_from(worth).expect("a move takes nothing away"),
    )
}

/// A taking as its line shows it: the move is legal there and its store gained its points.
fn check_taking(pos: &Position, t: &Taking) {
    assert_eq!(t.seat, pos.to_move(), "{t:?}: the seat to move");
    assert!(pos.is_legal(t.mv), "{t:?}: legal");
    let (_, points) = captured_by_store(pos, t.mv, t.seat);
    assert_eq!(points, t.points(), "{t:?}: the store's gain");
    assert_eq!(
        t.pits.is_empty(),
        t.points() == 0,
        "{t:?}: pits named for what is taken"
    );
}

/// `mv` is a best move on `pos` at `DEPTH`, by a search that values every move.
fn check_best(pos: &Position, mv: Move) {
    let limits = Limits {
        depth: Some(DEPTH),
        all_root_moves: true,
        ..Limits::default()
    };
    let report = Search::new(*pos, Weights::shipped(), limits).run();
    let value = |m: Move| report.moves.iter().find(|&&(x, _)| x == m).map(|&(_, v)| v);
    let best = report.moves.iter().map(|&(_, v)| v).max().unwrap();
    assert_eq!(value(mv), Some(best), "{mv} is a best reply");
}

/// The mover's store lost `paid` to a refill in the reply.
fn refill_paid(after_move: &Position, reply: Move, mover: usize) -> Option<u8> {
    let mut events = Vec::new();
    after_move.clone().play_with(reply, &mut events).unwrap();
    events.into_iter().find_map(|e| match e {
        Event::Refill { player, paid, .. } if usize::from(player) == mover && paid > 0 => {
            Some(paid)
        }
        _ => None,
    })
}

/// Every fact of `why` (for `played` against `better` on `before`) played out again.
fn check(before: &Position, played: Move, better: Move, facts: &[Fact]) {
    let mover = before.to_move();
    let after_played = captured_by_store(before, played, mover).0;
    let after_better = captured_by_store(before, better, mover).0;
    let mut reply_points = None;
    for fact in facts {
        match fact {
            Fact::PlayedTakes(t) => {
                assert_eq!(t.mv, played);
                check_taking(before, t);
            }
            Fact::ReplyTakes(t) => {
                check_taking(&after_played, t);
                check_best(&after_played, t.mv);
                assert!(t.points() > 0);
                reply_points = Some(t.points());
            }
            Fact::RefillCosts { paid } => {
                let reply = facts.iter().find_map(|f| match f {
                    Fact::ReplyTakes(t) => Some(t.mv),
                    _ => None,
                });
                let reply = reply.or_else(|| oaq_ai::explain::best_reply(&after_played, DEPTH));
                let reply = reply.expect("a refill follows a reply");
                assert_eq!(refill_paid(&after_played, reply, mover), Some(*paid));
            }
            Fact::BetterTakes(t) => {
                assert_eq!(t.mv, better);
                check_taking(before, t);
                let (_, played_took) = captured_by_store(before, played, mover);
                assert!(t.points() > played_took, "the better move takes more");
            }
            Fact::BetterLeaves(t) => {
                check_taking(&after_better, t);
                check_best(&after_better, t.mv);
                let more = reply_points.expect("said after the reply it is compared with");
                assert!(t.points() < more, "the reply to the better move takes less");
            }
        }
    }
}

#[test]
fn every_explanation_of_several_hundred_mistakes_holds_when_its_line_is_played_out() {
    let (mut mistakes, mut explained) = (0, 0);
    let two_player = presets::all().iter().filter(|p| p.rules.players == 2);
    for (n, preset) in two_player.cycle().take(60).enumerate() {
        let (start, moves) = self_play(preset.rules, n as u64, 80);
        let review = Reviewer::new(start, &moves, DEPTH).unwrap().run();
        let mut pos = start;
        for (judged, &mv) in review.iter().zip(&moves) {
            if judged.quality >= Quality::Mistake && judged.best != mv {
                mistakes += 1;
                if let Some(why) = explain(&pos, mv, judged.best, DEPTH) {
                    explained += 1;
                    check(&pos, mv, judged.best, &why.facts);
                }
            }
            pos.play(mv).unwrap();
        }
    }
    println!("{explained} of {mistakes} mistakes explained");
    assert!(mistakes >= 300, "several hundred mistakes: {mistakes}");
    assert!(
        explained * 2 > mistakes,
        "most explained: {explained} of {mistakes}"
    );
}

#[test]
fn every_retry_of_self_play_mistakes_reads_as_a_puzzle_the_mistake_does_not_solve() {
    use oaq_ai::retry::{accepted, retries};
    let mut made = 0;
    let two_player = presets::all().iter().filter(|p| p.rules.players == 2);
    for (n, preset) in two_player.cycle().take(12).enumerate() {
        let (start, moves) = self_play(preset.rules, 1000 + n as u64, 60);
        let review = Reviewer::new(start, &moves, DEPTH).unwrap().run();
        for player in 0..2 {
            let puzzles = retries(&preset.id, &moves, &review, player, DEPTH);
            assert_eq!(puzzles, retries(&preset.id, &moves, &review, player, DEPTH));
            for puzzle in puzzles {
                let line = puzzle.line().unwrap_or_else(|e| panic!("{e}"));
                let step = &line.steps[0];
                let index = puzzle.moves.split_whitespace().count();
                assert_eq!(review[index].player, player, "{}", puzzle.id);
                assert!(accepted(step, step.answer));
                assert!(!accepted(step, moves[index]), "{}: the mistake", puzzle.id);
                made += 1;
            }
        }
    }
    println!("{made} retries made");
    assert!(made >= 50, "{made}");
}
