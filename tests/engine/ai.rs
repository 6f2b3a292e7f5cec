//! The computer opponent: it finds what is there to find, solves endgames exactly, always has a
//! move, and is reproducible.

use crate::support;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use o_an_quan::ai::eval::{self, WIN};
use o_an_quan::ai::{Level, Limits, Search, Thinker, Weights};
use o_an_quan::rules::{Move, Position};
use support::{position, rules, store};

fn search(pos: Position, depth: u32) -> o_an_quan::ai::Report {
    Search::new(
        pos,
        Weights::shipped(),
        Limits {
            depth: Some(depth),
            ..Limits::default()
        },
    )
    .run()
}

/// Plain minimax to the end of the game: the truth for small endgames.
fn solve(pos: &Position, me: usize) -> i32 {
    if pos.is_over() {
        return eval::final_value(pos, me);
    }
    let moves = pos.legal_moves();
    let values = moves.iter().map(|&m| {
        let mut next = *pos;
        next.play_unchecked(m);
        solve(&next, me)
    });
    if pos.to_move() == me {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// Player 0 to move: pit 3's stone drops into pit 2, and across empty pit 1 the left mandarin
/// pit (mandarin and 2) is the last thing on the board to take. Taking it ends the game 41 to 29.
fn winning_capture() -> Position {
    let pits = [0, 0, 1, 2, 1, 0, 3, 0, 2, 0, 4, 2];
    position(
        rules("standard"),
        &pits,
        &[false, true],
        &[store(25, 0), store(10, 1)],
        0,
        40,
    )
}

#[test]
fn it_takes_the_capture_that_wins() {
    let win = "3-".parse::<Move>().unwrap();
    for depth in [1, 2, 5, 12] {
        let report = search(winning_capture(), depth);
        assert_eq!(report.best, win, "depth {depth}");
        assert_eq!(report.score, WIN + 100 * (41 - 29));
        assert_eq!(report.expected_margin(), 12.0);
    }
}

#[test]
fn every_level_takes_the_capture_that_wins() {
    for n in 1..=10 {
        let level = Level {
            time_ms: 300,
            ..Level::get(n).unwrap()
        };
        let decision = Thinker::new(winning_capture(), level, 1, None).run();
        assert_eq!(decision.mv, "3-".parse::<Move>().unwrap(), "level {n}");
    }
}

/// A few stones left and a move limit 10 moves away: the whole tree can be searched.
fn endgame() -> Position {
    let pits = [1, 2, 0, 0, 1, 0, 2, 0, 1, 0, 1, 3];
    let standard = rules("standard");
    let limited = o_an_quan::rules::RuleSet {
        move_limit: Some(60),
        ..standard
    };
    position(
        limited,
        &pits,
        &[false, false],
        &[store(20, 1), store(19, 1)],
        0,
        50,
    )
}

#[test]
fn it_solves_a_small_endgame_exactly() {
    let pos = endgame();
    let report = search(pos, 60);
    assert_solved_exactly(pos, report.best, &report);
    assert_eq!(report.pv[0], report.best);
}

/// `report` reached the end of every line, its value is plain minimax's, and `mv` keeps it.
fn assert_solved_exactly(pos: Position, mv: Move, report: &o_an_quan::ai::Report) {
    assert!(
        report.solved,
        "the search should reach the end of every line"
    );
    assert_eq!(report.score, solve(&pos, 0));
    let mut after = pos;
    after.play(mv).unwrap();
    assert_eq!(
        solve(&after, 0),
        report.score,
        "the move chosen keeps the solved value"
    );
}

#[test]
fn master_on_several_threads_solves_the_endgame_alike() {
    let pos = endgame();
    let decision = Thinker::new(pos, Level::master(), 1, None).threads(3).run();
    // Helpers do not keep the main search from the end.
    assert_solved_exactly(pos, decision.mv, &decision.report);
    // A level without `all_cores` stays on one thread, and a cancelled Master still moves.
    assert!(!Level::hard().all_cores && Level::master().all_cores);
    let cancel = Arc::new(AtomicBool::new(true));
    let start = Position::new(rules("standard"));
    let cancelled = Thinker::new(start, Level::master(), 1, Some(cancel))
        .threads(4)
        .run();
    assert!(start.is_legal(cancelled.mv));
}

#[test]
fn a_cancelled_search_still_returns_a_legal_move() {
    let pos = Position::new(rules("standard"));
    let cancel = Arc::new(AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(cancel),
        ..Limits::default()
    };
    let report = Search::new(pos, Weights::shipped(), limits).run();
    assert!(pos.is_legal(report.best));
    assert_eq!(report.depth, 1);
    let tiny = Limits {
        nodes: Some(1),
        time: Some(std::time::Duration::ZERO),
        ..Limits::default()
    };
    assert!(pos.is_legal(Search::new(pos, Weights::shipped(), tiny).run().best));
}

#[test]
fn the_same_seed_gives_the_same_move() {
    let pos = Position::new(rules("basic"));
    let level = Level {
        time_ms: 60_000,
        ..Level::easy()
    };
    let first: Vec<Move> = (0..20)
        .map(|seed| Thinker::new(pos, level, seed, None).run().mv)
        .collect();
    let again: Vec<Move> = (0..20)
        .map(|seed| Thinker::new(pos, level, seed, None).run().mv)
        .collect();
    assert_eq!(first, again);
    assert!(
        first.iter().any(|&m| m != first[0]),
        "easy does not always play the same opening"
    );
}

#[test]
fn a_search_in_slices_finds_what_one_call_finds() {
    let pos = Position::new(rules("young-mandarin"));
    let limits = Limits {
        depth: Some(7),
        all_root_moves: true,
        ..Limits::default()
    };
    let whole = Search::new(pos, Weights::shipped(), limits.clone()).run();
    let mut sliced = Search::new(pos, Weights::shipped(), limits);
    let mut slices = 0;
    let report = loop {
        slices += 1;
        if let Some(report) = sliced.step(50) {
            break report;
        }
    };
    assert!(slices > 10);
    assert_eq!(
        (report.best, report.score, report.depth, report.nodes),
        (whole.best, whole.score, whole.depth, whole.nodes)
    );
    assert_eq!(report.moves, whole.moves);
    assert_eq!(report.moves.len(), pos.legal_moves().len());
}

#[test]
fn it_flips_the_table_when_the_opener_is_ahead_and_not_otherwise() {
    let pits = [0, 0, 6, 6, 6, 1, 6, 0, 6, 6, 6, 1];
    let ahead = position(
        rules("table-flip"),
        &pits,
        &[true, true],
        &[store(6, 0), store(0, 0)],
        1,
        1,
    );
    assert!(ahead.can_swap());
    let report = search(ahead, 8);
    let swap_value = report
        .moves
        .iter()
        .find(|(m, _)| *m == Move::Swap)
        .map(|&(_, v)| v);
    assert!(
        swap_value.is_none(),
        "values per move only with all_root_moves"
    );
    // A 30-point store is worth taking.
    let rich = position(
        rules("table-flip"),
        &[0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 6, 1],
        &[true, true],
        &[store(36, 0), store(0, 0)],
        1,
        1,
    );
    assert_eq!(search(rich, 6).best, Move::Swap);
    // Valued for the player who swaps, now in the rich seat: well ahead. Declining leaves
    // them as far behind.
    let swap_value = |pos: Position| {
        let limits = Limits {
            depth: Some(6),
            all_root_moves: true,
            ..Limits::default()
        };
        let report = Search::new(pos, Weights::shipped(), limits).run();
        let value = |wanted: bool| {
            report
                .moves
                .iter()
                .filter(|&&(m, _)| (m == Move::Swap) == wanted)
                .map(|&(_, v)| v)
                .max()
                .unwrap()
        };
        (value(true), value(false))
    };
    let (swap, stay) = swap_value(rich);
    assert!(
        swap >= 3000 && stay <= -3000,
        "swap {swap}, best other {stay}"
    );
    // Swapping into an empty store while the opponent keeps 36 is not.
    let poor = position(
        rules("table-flip"),
        &[0, 0, 1, 1, 1, 1, 1, 0, 1, 1, 6, 1],
        &[true, true],
        &[store(0, 0), store(36, 0)],
        1,
        1,
    );
    assert_ne!(search(poor, 6).best, Move::Swap);
    let (swap, stay) = swap_value(poor);
    assert!(
        swap <= -3000 && stay >= 3000,
        "swap {swap}, best other {stay}"
    );
}

#[test]
fn three_players_search_plays_whole_games() {
    let mut pos = Position::new(rules("mature-quan-3p"));
    let mut moves = 0;
    while !pos.is_over() && moves < 400 {
        let report = search(pos, 3);
        assert!(pos.is_legal(report.best));
        assert!(report.score.abs() < 2 * WIN);
        pos.play(report.best).unwrap();
        moves += 1;
    }
    assert!(pos.is_over(), "a 3-player game between searchers ends");
}

#[test]
fn three_players_search_takes_a_free_mandarin() {
    // Player 1 can take player 1's own mandarin pit (mandarin + 5) with 8+.
    let mut pits = vec![0u8; 18];
    pits[..5].copy_from_slice(&[2, 2, 2, 2, 2]);
    pits[6..11].copy_from_slice(&[3, 0, 1, 0, 0]);
    pits[11] = 5;
    pits[12..17].copy_from_slice(&[2, 2, 2, 2, 2]);
    let stores = [store(16, 1), store(15, 0), store(15, 0)];
    let pos = position(
        rules("mature-quan-3p"),
        &pits,
        &[false, true, true],
        &stores,
        1,
        30,
    );
    assert_eq!(search(pos, 4).best, "8+".parse::<Move>().unwrap());
}

#[test]
fn the_capture_search_at_the_horizon_keeps_endgames_exact() {
    let pos = endgame();
    let limits = Limits {
        depth: Some(60),
        quiescence: true,
        ..Limits::default()
    };
    let report = Search::new(pos, Weights::shipped(), limits).run();
    assert_solved_exactly(pos, report.best, &report);
    // Shallow, it still plays the winning capture.
    let capture = winning_capture();
    let shallow = Limits {
        depth: Some(1),
        quiescence: true,
        ..Limits::default()
    };
    let report = Search::new(capture, Weights::shipped(), shallow).run();
    assert_eq!(report.best, "3-".parse().unwrap());
}

/// Plain minimax of who wins (win, draw or loss only): the truth for `Limits::outcome_only`.
fn solve_outcome(pos: &Position, me: usize) -> i32 {
    if pos.is_over() {
        return eval::final_outcome(pos, me);
    }
    let moves = pos.legal_moves();
    let values = moves.iter().map(|m| {
        let mut next = *pos;
        next.play_unchecked(*m);
        solve_outcome(&next, me)
    });
    if pos.to_move() == me {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// Small endgames near the move limit: the endgame above and what random moves make of it.
fn small_endgames() -> Vec<Position> {
    let mut found = vec![endgame()];
    let mut seed = 11u64;
    while found.len() < 24 {
        let mut pos = endgame();
        let plies = found.len() % 5;
        for _ in 0..plies {
            if pos.is_over() {
                break;
            }
            let moves = pos.legal_moves();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            pos.play_unchecked(moves[(seed >> 33) as usize % moves.len()]);
        }
        if !pos.is_over() {
            found.push(pos);
        }
    }
    found
}

#[test]
fn whatever_a_search_calls_proved_is_the_minimax_value() {
    // At every depth, with and without reductions and in both modes: a search stopped short of
    // the end may prove the value (its cutoffs proved by the moves that made them), and then it
    // must be the game's own. The shallow depths are where bounds and proofs mix.
    let mut proved = [0; 2];
    for pos in small_endgames() {
        let me = pos.to_move();
        let truth = [solve(&pos, me), solve_outcome(&pos, me)];
        for (mode, outcome_only) in [false, true].into_iter().enumerate() {
            for reductions in [false, true] {
                for depth in 1..=12 {
                    let limits = Limits {
                        depth: Some(depth),
                        reductions,
                        outcome_only,
                        ..Limits::default()
                    };
                    let report = Search::new(pos, Weights::shipped(), limits).run();
                    if report.solved {
                        proved[mode] += 1;
                        assert_eq!(
                            report.score,
                            truth[mode],
                            "depth {depth}, reductions {reductions}, outcome only {outcome_only}: {:?}",
                            pos.setup()
                        );
                    }
                }
            }
        }
    }
    // Who wins is proved sooner than by how much.
    assert!(proved[1] > proved[0], "{proved:?}");
}

#[test]
fn reductions_keep_a_proved_result_and_reach_deeper_in_the_same_nodes() {
    let pos = endgame();
    let limits = Limits {
        depth: Some(60),
        reductions: true,
        ..Limits::default()
    };
    let report = Search::new(pos, Weights::shipped(), limits).run();
    assert_solved_exactly(pos, report.best, &report);
    // From the opening, the same depth costs fewer nodes with them.
    let start = Position::new(rules("basic"));
    let nodes = |reductions| {
        let limits = Limits {
            depth: Some(10),
            reductions,
            ..Limits::default()
        };
        Search::new(start, Weights::shipped(), limits).run().nodes
    };
    assert!(nodes(true) < nodes(false));
}

#[test]
fn master_and_the_hint_answer_the_opening_from_the_book() {
    for id in ["standard", "basic", "table-flip"] {
        let start = Position::new(rules(id));
        let book = o_an_quan::ai::book::lookup(&start).expect("the start is in the book");
        let decision = Thinker::new(start, Level::master(), 1, None)
            .threads(2)
            .run();
        assert_eq!(decision.mv, book.best, "{id}");
        assert_eq!(decision.report.nodes, 0, "{id}: answered without a search");
        // The book's move is worth as much as every other move it lists, for the side to move.
        assert!(book.moves.iter().all(|&(_, value)| value <= book.score));
        // After one move too, and levels without the book search as before.
        let mut after = start;
        after.play(book.best).unwrap();
        assert!(o_an_quan::ai::book::lookup(&after).is_some());
        let hard = Thinker::new(start, Level::hard(), 1, None).run();
        assert!(hard.report.nodes > 0);
    }
    // Two moves in, the book has nothing: Master searches.
    let mut pos = Position::new(rules("basic"));
    pos.play("2-".parse().unwrap()).unwrap();
    let reply = pos.legal_moves()[0];
    pos.play(reply).unwrap();
    assert!(o_an_quan::ai::book::lookup(&pos).is_none());
}

#[test]
fn a_review_gives_each_move_the_value_a_search_of_its_position_gives() {
    use o_an_quan::ai::review::{Quality, Reviewer};
    // A table-flip game with a swap in it: after the swap each player sits in the other's seat.
    let start = Position::new(rules("table-flip"));
    let moves: Vec<Move> = "2- swap 8- 3+ 9- 4+"
        .split_whitespace()
        .map(|m| m.parse().unwrap())
        .collect();
    let mut reviewer = Reviewer::new(start, &moves, 5).unwrap();
    // In slices, as the game runs it: the same as in one call.
    let mut slices = 0;
    while !reviewer.step(300) {
        slices += 1;
        assert!(reviewer.progress().0 <= moves.len());
    }
    assert!(slices > 1, "a slice of 300 nodes cannot judge six moves");
    let review = reviewer.reviewed().to_vec();
    assert_eq!(review, Reviewer::new(start, &moves, 5).unwrap().run());
    // Each move's search sent elsewhere, as the web's thinking worker gets it (a request and
    // its answer as JSON), and judged by its answer: the same review.
    let mut sent = Reviewer::new(start, &moves, 5).unwrap();
    let mut searches = 0;
    while let Some(search) = sent.next_search() {
        let request = search.request().expect("a review's search can be sent");
        let answer = o_an_quan::ai::remote::answer(&request.to_json()).unwrap();
        let answer = o_an_quan::ai::remote::Answer::from_json(&answer).unwrap();
        assert_eq!(
            sent.judge(&answer.report().unwrap()),
            searches + 1 == moves.len()
        );
        searches += 1;
    }
    assert!(sent.is_done());
    assert_eq!(searches, moves.len());
    assert_eq!(sent.reviewed(), &review[..]);
    let mut pos = start;
    for (m, &mv) in review.iter().zip(&moves) {
        let limits = Limits {
            depth: Some(5),
            all_root_moves: true,
            ..Limits::default()
        };
        let report = Search::new(pos, Weights::shipped(), limits).run();
        let value = |wanted| report.moves.iter().find(|&&(m, _)| m == wanted).unwrap().1;
        assert_eq!(m.played, mv);
        assert_eq!(m.played_value, value(mv));
        assert_eq!(m.best_value, report.moves[0].1);
        assert_eq!(m.best_value, value(m.best));
        assert_eq!(m.quality, Quality::of(m.played_value, m.best_value));
        assert_eq!(m.quality == Quality::Best, m.played_value == m.best_value);
        assert!(m.loss() >= 0.0);
        assert_eq!(m.seat, pos.to_move());
        pos.play(mv).unwrap();
    }
    // The opener, then the swapper; after the swap the opener moves again, from seat 1.
    let players: Vec<usize> = review.iter().map(|m| m.player).collect();
    assert_eq!(players, [0, 1, 0, 1, 0, 1]);
    assert_eq!(review[2].seat, 1);
    // Zero-sum: what one player expects, the other expects with the sign turned.
    assert_eq!(review[3].margin_for(0), -review[3].margin_for(1));
    // A move that is not legal is named, with its place in the game.
    let bad: Vec<Move> = ["2-", "7+"].iter().map(|m| m.parse().unwrap()).collect();
    let error = Reviewer::new(start, &bad, 5).err().unwrap().to_string();
    assert!(
        error.contains("move 2 (ply 1)") && error.contains("7+"),
        "{error}"
    );
}

/// The shipped puzzle set, read as the game reads it.
fn shipped_puzzles() -> (
    o_an_quan::ai::puzzle::PuzzleFile,
    Vec<o_an_quan::ai::puzzle::Line>,
) {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/assets/puzzles/puzzles.ron");
    let text = std::fs::read_to_string(path).unwrap();
    o_an_quan::ai::puzzle::PuzzleFile::parse(&text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn the_shipped_puzzles_are_thousands_over_every_preset_difficulty_and_theme() {
    use o_an_quan::ai::puzzle::{DEPTH, Difficulty};
    use o_an_quan::ai::theme::Theme;
    let (file, lines) = shipped_puzzles();
    assert!(file.puzzles.len() >= 2000, "{} puzzles", file.puzzles.len());
    assert_eq!((file.depth, lines.len()), (DEPTH, file.puzzles.len()));
    for id in [
        "standard",
        "basic",
        "young-mandarin",
        "mature-quan",
        "table-flip",
        "ten-seeds",
    ] {
        assert!(
            file.puzzles.iter().filter(|p| p.preset == id).count() >= 100,
            "{id}"
        );
    }
    for difficulty in Difficulty::ALL {
        let n = file
            .puzzles
            .iter()
            .filter(|p| p.difficulty == difficulty)
            .count();
        assert!(n >= 300, "{difficulty:?}: {n}");
    }
    // At least six themes lead at least 40 puzzles each; each puzzle's themes are what its
    // line does, read again here.
    let mut main = std::collections::BTreeMap::<Theme, usize>::new();
    for (puzzle, line) in file.puzzles.iter().zip(&lines) {
        *main
            .entry(puzzle.theme().expect("every puzzle has a theme"))
            .or_default() += 1;
        assert!(puzzle.first_rating() >= 1000, "{}", puzzle.id);
        if puzzle.id.ends_with('7') {
            assert_eq!(puzzle.themes, line.themes(), "{}", puzzle.id);
        }
    }
    assert!(main.values().filter(|&&n| n >= 40).count() >= 6, "{main:?}");
}

#[test]
fn a_sample_of_the_shipped_puzzles_holds_at_their_depth_and_deeper() {
    use o_an_quan::ai::puzzle::CONFIRM_DEPTH;
    let (file, _) = shipped_puzzles();
    // One in 40 as made (answer and replies), one in 120 two plies deeper: `oaq puzzles
    // check` runs the whole set.
    for (n, puzzle) in file.puzzles.iter().enumerate() {
        if n % 40 == 0
            && let Err(why) = puzzle.verify(file.depth, f64::from(file.min_gap))
        {
            panic!("puzzle {}: {why}", puzzle.id);
        }
        if n % 120 == 60
            && let Err(why) = puzzle.confirm(CONFIRM_DEPTH)
        {
            panic!("puzzle {} at depth {CONFIRM_DEPTH}: {why}", puzzle.id);
        }
    }
}

/// Every position of a small endgame table, as a `basic` game at its start (so the move limit is
/// as far as it goes), with the mover's store as the entry has it.
fn table_positions(stones: u8) -> Vec<(Position, usize)> {
    use o_an_quan::ai::tablebase::index::Indexer;
    use o_an_quan::rules::Setup;
    let basic = rules("basic");
    let indexer = Indexer::new(stones);
    let mut found = Vec::new();
    for b in 0..indexer.len() {
        let board = indexer.board(b);
        let room = 70 - board.points();
        for mover in 0..=room {
            let mut setup = Setup::start(&basic);
            setup.pits = board.pits.to_vec();
            setup.quan = vec![board.pieces & 1 != 0, board.pieces & 2 != 0];
            setup.stores = vec![store(mover as i16, 0), store((room - mover) as i16, 0)];
            if let Ok(pos) = Position::from_setup(basic, &setup) {
                found.push((pos, found.len()));
            }
        }
    }
    found
}

#[test]
fn an_endgame_table_agrees_with_every_search_that_finishes() {
    use o_an_quan::ai::tablebase::build;
    let table = build::table(3, 4000).unwrap();
    let (mut exact, mut compared) = (0, 0);
    for (pos, _) in table_positions(3) {
        let Some((outcome, margin)) = table.probe(&pos) else {
            continue;
        };
        exact += 1;
        // Sampled: a search of each takes a while in a debug build.
        if exact % 5 != 0 {
            continue;
        }
        let limits = Limits {
            depth: Some(40),
            nodes: Some(20_000),
            ..Limits::default()
        };
        let report = Search::new(pos, Weights::shipped(), limits).run();
        if report.solved {
            compared += 1;
            assert_eq!(
                report.score,
                WIN * outcome + 100 * margin,
                "{:?}",
                pos.setup()
            );
        }
    }
    // The table knows thousands of these positions, and searches finish on hundreds of them.
    assert!(exact > 2000, "{exact} exact");
    assert!(compared > 200, "{compared} compared");
}

#[test]
fn a_shallow_search_with_the_table_proves_what_a_deep_one_proves() {
    use o_an_quan::ai::tablebase::build;
    let table = Arc::new(build::table(3, 4000).unwrap());
    let mut proved = 0;
    for (pos, i) in table_positions(2) {
        if i % 3 != 0 {
            continue;
        }
        let deep = Search::new(
            pos,
            Weights::shipped(),
            Limits {
                depth: Some(40),
                nodes: Some(20_000),
                ..Limits::default()
            },
        )
        .run();
        let shallow = Search::new(
            pos,
            Weights::shipped(),
            Limits {
                depth: Some(2),
                tablebase: Some(table.clone()),
                ..Limits::default()
            },
        )
        .run();
        if shallow.solved && deep.solved {
            proved += 1;
            assert_eq!(shallow.score, deep.score, "{:?}", pos.setup());
        }
    }
    assert!(proved > 100, "{proved}");
}

#[test]
fn an_endgame_table_builds_the_same_every_time_and_from_a_saved_round() {
    use o_an_quan::ai::tablebase::{build, file};
    let whole = file::write(&build::table(2, 4000).unwrap());
    assert_eq!(whole, file::write(&build::table(2, 4000).unwrap()));
    // Stopped after a few rounds and resumed from the saved round: the same table.
    let mut first = build::Builder::new(2, &|_, _| {});
    for _ in 0..5 {
        first.step();
    }
    let (values, changed_at) = first.last_round();
    let saved = file::write_round(2, first.round(), values, changed_at);
    let mut resumed = build::Builder::new(2, &|_, _| {});
    let (round, values, changed_at) = file::read_round(&saved, 2, resumed.entries()).unwrap();
    resumed.resume(round, values, changed_at).unwrap();
    let period = loop {
        if let (Some(period), _) = resumed.step() {
            break period;
        }
    };
    let table = o_an_quan::ai::tablebase::Tablebase::new(
        2,
        resumed.round() - period as u32,
        resumed.values(period),
    )
    .unwrap();
    assert_eq!(file::write(&table), whole);
}

#[test]
fn the_shipped_table_answers_only_where_its_values_hold() {
    use o_an_quan::ai::tablebase::{self, Tablebase};
    let table = tablebase::shipped().expect("the native build ships a table");
    assert_eq!(table.stones(), 10);
    let known = table_positions(2)
        .into_iter()
        .map(|(pos, _)| pos)
        .find(|pos| table.probe(pos).is_some())
        .expect("the table knows some 2-stone position");
    let mut setup = known.setup();
    // Closer to the move limit than the values hold: no answer.
    setup.ply = known.rules().max_plies() - table.settled() + 1;
    let late = Position::from_setup(*known.rules(), &setup).unwrap();
    assert_eq!(table.probe(&late), None);
    // Borrowing refills are other rules: no answer, and the levels and the hint ask for none.
    let standard = rules("standard");
    assert!(!Tablebase::serves(&standard));
    let borrowed = Position::from_setup(standard, &known.setup()).unwrap();
    assert_eq!(table.probe(&borrowed), None);
    assert!(tablebase::for_rules(&standard).is_none());
    assert!(tablebase::for_rules(known.rules()).is_some());
}

/// Positions of a few `basic` games between shallow searches, the first moves random.
fn basic_middle_games(games: u64) -> Vec<Position> {
    let mut found = Vec::new();
    for game in 0..games {
        let mut pos = Position::new(rules("basic"));
        let mut seed = game.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        while !pos.is_over() {
            found.push(pos);
            let moves = pos.legal_moves();
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mv = if pos.ply() < 4 {
                moves[(seed >> 33) as usize % moves.len()]
            } else {
                search(pos, 2).best
            };
            pos.play_unchecked(mv);
        }
    }
    found
}

#[test]
fn the_learned_evaluation_corrects_the_search_and_nothing_else() {
    use o_an_quan::ai::network::{self, Network};
    let basic = rules("basic");
    let with = |pos: Position, network: Option<Arc<Network>>| {
        Search::new(
            pos,
            Weights::shipped(),
            Limits {
                depth: Some(5),
                network,
                ..Limits::default()
            },
        )
        .run()
    };
    let bytes = std::fs::read("assets/ai/network-basic.nn").unwrap();
    let shipped = Arc::new(network::file::read(&bytes).unwrap());
    let positions = basic_middle_games(6);
    let mut changed = 0;
    for &pos in &positions {
        // A network that corrects nothing searches exactly as the hand-written evaluation.
        let plain = with(pos, None);
        let zero = with(pos, Some(Arc::new(Network::zero(basic))));
        assert_eq!(
            (zero.best, zero.score, zero.nodes),
            (plain.best, plain.score, plain.nodes)
        );
        let learned = with(pos, Some(shipped.clone()));
        changed += usize::from(learned.score != plain.score);
        // A finished line is worth what it is worth, whatever judges the rest.
        if plain.solved && learned.solved {
            assert_eq!(learned.score, plain.score, "{:?}", pos.setup());
        }
    }
    assert!(
        changed * 2 > positions.len(),
        "the network changed {changed} of {} values",
        positions.len()
    );
    // Other rules: the search leaves the network out.
    let standard = Position::new(rules("standard"));
    assert_eq!(
        with(standard, Some(shipped.clone())).nodes,
        with(standard, None).nodes
    );
}

#[test]
fn a_search_with_a_learned_evaluation_is_not_handed_to_the_thinking_worker() {
    // The worker has no network: such a search cannot be said as a request, and runs where it
    // was started.
    let pos = Position::new(rules("basic"));
    let network = Some(Arc::new(o_an_quan::ai::network::Network::zero(rules(
        "basic",
    ))));
    let limits = Limits {
        depth: Some(4),
        ..Limits::default()
    };
    let plain = Search::new(pos, Weights::shipped(), limits.clone());
    assert!(plain.request().is_some());
    let learned = Search::new(
        pos,
        Weights::shipped(),
        Limits {
            network: network.clone(),
            ..limits
        },
    );
    assert!(learned.request().is_none());
    let thinker = Thinker::new(pos, Level::master(), 1, None);
    assert!(thinker.request().is_some());
    assert!(thinker.network(network).request().is_none());
}
