//! Iterative-deepening alpha-beta search with a transposition table, run on an explicit stack so
//! that it can stop after any node and carry on later: the game runs it in slices on the web,
//! where a long call would freeze the page.
//!
//! Values are from the point of view of one player, the one to move at the root, who sits at
//! seat `me`: the search maximises where that seat moves and minimises where an opponent moves
//! (on the 3-player board this is the paranoid search: both opponents are assumed to play
//! against `me`). A table-flip `swap` seats that player at the other side for the rest of the
//! line: `me` changes, the point of view does not.
//!
//! The last few moves above the horizon (`NEAR_LEAVES`) are searched on the call stack, without
//! the table: most nodes are there, and a table probe for each would wait on memory. With
//! `Limits::book`, a position of the opening book is answered from it without a search.

use std::sync::atomic::Ordering;

use web_time::Instant;

use super::eval::{self, WIN, Weights};
use super::limits::{Limits, MAX_DEPTH, Report};
use super::tt::{Bound, Entry, Table};
use super::zobrist;
use oaq_rules::{Move, MoveList, Position};

const INFINITY: i32 = WIN * 2;
/// Nodes between two looks at the clock and the cancel flag.
const CHECK_EVERY: u64 = 1024;
/// Captures followed past the horizon with `Limits::quiescence`.
const QUIESCENCE_PLIES: u32 = 4;
/// Subtrees this many moves above the horizon are searched by `near_leaves`.
const NEAR_LEAVES: u32 = 3;
/// Late move reductions (`Limits::reductions`): in a null-window node at least this deep, the
/// moves after the first `REDUCE_AFTER` are first searched one move shallower.
const REDUCE_FROM_DEPTH: u32 = 6;
const REDUCE_AFTER: usize = 3;

struct Frame {
    pos: Position,
    key: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
    alpha0: i32,
    beta0: i32,
    me: usize,
    maximizing: bool,
    moves: MoveList,
    next: usize,
    best: i32,
    best_move: Option<Move>,
    /// Every child searched so far was proved.
    all_solved: bool,
    /// The child that gave `best` was proved: enough to prove a cutoff's bound.
    best_solved: bool,
    /// The child being searched got a null window around alpha (or beta): a result inside the
    /// real window means it must be searched again with it.
    probing: bool,
    /// The child being searched was reduced by a move: a result that beats the window means
    /// it must be searched again at full depth.
    reduced: bool,
}

/// A search of one position, advanced by `step` or run to the end by `run`.
pub struct Search {
    root: Position,
    weights: Weights,
    limits: Limits,
    table: Table,
    stack: Vec<Frame>,
    /// The iteration in progress.
    depth: u32,
    completed: Option<(Move, i32, u32, bool)>,
    /// Root moves and their values in the iteration in progress, and in the last completed one.
    root_values: Vec<(Move, i32)>,
    completed_values: Vec<(Move, i32)>,
    nodes: u64,
    /// The node count at which to look at the limits next.
    next_check: u64,
    started: Instant,
    /// Cutoffs per move code: moves that refuted something before are tried earlier.
    history: [u32; 256],
    finished: Option<Report>,
}

impl Search {
    /// A search of `pos` for the seat to move. `pos` must not be over.
    pub fn new(pos: Position, weights: Weights, limits: Limits) -> Search {
        Search::with_table(pos, weights, limits, Table::new(16))
    }

    /// A search of `pos` to `depth` with the shipped weights and no other limit: the review's,
    /// the puzzles' and the explanations' search. With `all_root_moves`, every legal move is
    /// valued exactly (a judgement), else only the best is sure.
    pub fn to_depth(pos: Position, depth: u32, all_root_moves: bool) -> Search {
        let limits = Limits {
            depth: Some(depth),
            all_root_moves,
            ..Limits::default()
        };
        Search::new(pos, Weights::shipped(), limits)
    }

    /// As `new`, reusing a transposition table (and what it already knows).
    pub fn with_table(pos: Position, weights: Weights, mut limits: Limits, table: Table) -> Search {
        if !limits
            .network
            .as_ref()
            .is_some_and(|network| network.serves(pos.rules()))
        {
            limits.network = None;
        }
        let finished = if limits.book {
            super::book::lookup(&pos)
        } else {
            None
        };
        Search {
            root: pos,
            weights,
            limits,
            table,
            stack: Vec::with_capacity(MAX_DEPTH as usize + 1),
            depth: 0,
            completed: None,
            root_values: Vec::new(),
            completed_values: Vec::new(),
            nodes: 0,
            next_check: 0,
            started: Instant::now(),
            history: [0; 256],
            finished,
        }
    }

    /// Begin with the iteration at `depth` rather than 1. Helpers searching beside a main
    /// search start at different depths, so that they fill the shared table with different
    /// results; a search that must always have a move starts at 1.
    pub fn starting_at_depth(mut self, depth: u32) -> Search {
        self.depth = depth.clamp(1, MAX_DEPTH) - 1;
        self
    }

    /// Give the table back, for the next search.
    pub fn into_table(self) -> Table {
        self.table
    }

    /// Whether the search has its answer (the book's, or its own).
    pub fn is_finished(&self) -> bool {
        self.finished.is_some()
    }

    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Where the search starts and its limits, unless it cannot be said as a request a
    /// thinking worker answers (`Search::request`, in `remote`): other weights, a node limit, a
    /// table or a learned evaluation of its own, or it has begun.
    pub(crate) fn as_plain(&self) -> Option<(&Position, &Limits)> {
        let plain = self.weights == Weights::shipped()
            && self.limits.nodes.is_none()
            && self.limits.tablebase.is_none()
            && self.limits.network.is_none()
            && self.nodes == 0;
        plain.then_some((&self.root, &self.limits))
    }

    /// Search about `node_budget` more nodes. Returns the report once the search is over (by its
    /// limits, a solved position or the cancel flag), `None` while there is more to do.
    pub fn step(&mut self, node_budget: u64) -> Option<Report> {
        if let Some(report) = &self.finished {
            return Some(report.clone());
        }
        let pause_at = self.nodes.saturating_add(node_budget);
        loop {
            if self.stack.is_empty() && !self.start_iteration() {
                return Some(self.finish());
            }
            // `near_leaves` adds many nodes at once: look when a multiple has been passed.
            let due = self.nodes >= self.next_check;
            if due {
                self.next_check = self.nodes + CHECK_EVERY;
            }
            if due && self.out_of_budget() {
                self.keep_partial_root();
                self.stack.clear();
                return Some(self.finish());
            }
            if self.nodes >= pause_at {
                return None;
            }
            self.advance();
        }
    }

    /// Search to the end of the limits in one call.
    pub fn run(&mut self) -> Report {
        loop {
            if let Some(report) = self.step(u64::MAX) {
                return report;
            }
        }
    }

    /// The unfinished iteration searched the previous best move first, so a root move that beat
    /// it is better still: keep it.
    fn keep_partial_root(&mut self) {
        let (Some(root), Some((best, _, depth, _))) = (self.stack.first(), self.completed) else {
            return;
        };
        if let Some(mv) = root.best_move.filter(|&mv| mv != best && root.next > 1)
            && !self.limits.all_root_moves
        {
            self.completed = Some((mv, root.best, depth, false));
        }
    }

    fn out_of_budget(&self) -> bool {
        // Depth 1 always completes: a search must have a move to give.
        if self.completed.is_none() {
            return false;
        }
        self.limits.nodes.is_some_and(|n| self.nodes >= n)
            || self
                .limits
                .time
                .is_some_and(|t| self.started.elapsed() >= t)
            || self
                .limits
                .cancel
                .as_ref()
                .is_some_and(|c| c.load(Ordering::Relaxed))
    }

    /// Set up the next iteration; `false` when there is none to run.
    fn start_iteration(&mut self) -> bool {
        if let Some((_, _, depth, solved)) = self.completed {
            let max = self.limits.depth.unwrap_or(MAX_DEPTH).min(MAX_DEPTH);
            if solved || depth >= max || self.out_of_budget() {
                return false;
            }
        }
        self.depth += 1;
        self.root_values.clear();
        let me = self.root.to_move();
        let key = perspective_key(&self.root, me);
        let hint = self.table.get(key).and_then(|e| e.best);
        let frame = self.frame(
            self.root,
            key,
            hint,
            (self.depth, -self.widest(), self.widest()),
            me,
        );
        self.stack.push(frame);
        true
    }

    /// The root's window: every value there can be, and no more, so that a proved win ends the
    /// search when nothing can be better.
    fn widest(&self) -> i32 {
        if self.limits.outcome_only {
            WIN
        } else {
            INFINITY
        }
    }

    fn frame(
        &self,
        pos: Position,
        key: u64,
        hint: Option<Move>,
        window: (u32, i32, i32),
        me: usize,
    ) -> Frame {
        let (depth, alpha, beta) = window;
        let mut moves = pos.legal_moves();
        order(&mut moves, hint, &self.history);
        let maximizing = pos.to_move() == me;
        Frame {
            pos,
            key,
            depth,
            alpha,
            beta,
            alpha0: alpha,
            beta0: beta,
            me,
            maximizing,
            moves,
            next: 0,
            best: if maximizing { -INFINITY } else { INFINITY },
            best_move: None,
            all_solved: true,
            best_solved: false,
            probing: false,
            reduced: false,
        }
    }

    /// One unit of work: search the next child of the top frame, or close the frame.
    fn advance(&mut self) {
        let top = self.stack.len() - 1;
        let frame = &self.stack[top];
        let cut = frame.alpha >= frame.beta;
        if cut || frame.next >= frame.moves.len() {
            let frame = self
                .stack
                .pop()
                .unwrap_or_else(|| unreachable!("advance runs on a frame"));
            self.close(frame);
            return;
        }
        let mv = frame.moves[frame.next];
        // Principal variation search: the first move gets the full window; the others are only
        // asked whether they beat it, with a null window, and searched in full when they do.
        let exact_root = top == 0 && self.limits.all_root_moves;
        let probe =
            frame.next > 0 && frame.depth > 1 && frame.beta - frame.alpha > 1 && !exact_root;
        // Late moves of a null-window node (a probe's or one reached by one) are rarely
        // better than those before them: asked first at a lesser depth.
        let reduce = self.limits.reductions
            && top > 0
            && frame.next >= REDUCE_AFTER
            && frame.depth >= REDUCE_FROM_DEPTH
            && (probe || frame.beta - frame.alpha <= 1)
            && mv != Move::Swap;
        let (alpha, beta) = child_window(frame, probe);
        self.stack[top].next += 1;
        self.stack[top].probing = probe;
        self.stack[top].reduced = reduce;
        self.search_child(mv, alpha, beta, 1 + u32::from(reduce));
    }

    /// Search the top frame's child after `mv` within (`alpha`, `beta`), from the frame's view,
    /// `plies` moves shallower than the frame (one, or two when reduced).
    fn search_child(&mut self, mv: Move, alpha: i32, beta: i32, plies: u32) {
        let top = self.stack.len() - 1;
        let frame = &self.stack[top];
        // After a swap the same player sits at the other seat.
        let me = if mv == Move::Swap {
            1 - frame.me
        } else {
            frame.me
        };
        let depth = frame.depth.saturating_sub(plies);
        let mut child = frame.pos;
        child.play_unchecked(mv);
        self.nodes += 1;
        if depth <= NEAR_LEAVES && !child.is_over() {
            let (value, solved) = self.near_leaves(&child, depth, alpha, beta, me);
            self.integrate(value, solved, mv);
            return;
        }
        match self.resolve(&child, depth, alpha, beta, me) {
            Child::Known { value, solved } => self.integrate(value, solved, mv),
            Child::Unknown { key, hint } => {
                let frame = self.frame(child, key, hint, (depth, alpha, beta), me);
                self.stack.push(frame);
            }
        }
    }

    /// Alpha-beta on the call stack for the last few moves above the horizon, where frames, the
    /// table and full move ordering cost more than they save: a subtree this shallow is a few
    /// hundred nodes at most, so the slices of `step` stay short. Returns the value (from `me`)
    /// and whether it is the game's own.
    fn near_leaves(
        &mut self,
        pos: &Position,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
        me: usize,
    ) -> (i32, bool) {
        if pos.is_over() {
            return (self.final_value(pos, me), true);
        }
        if let Some(value) = self.tablebase_value(pos, me) {
            return (value, true);
        }
        if depth == 0 {
            let value = if self.limits.quiescence {
                self.quiesce(pos, alpha, beta, me, QUIESCENCE_PLIES)
            } else {
                self.evaluate(pos, me)
            };
            return (value, false);
        }
        let maximizing = pos.to_move() == me;
        let mut best = if maximizing { -INFINITY } else { INFINITY };
        let mut all_solved = true;
        for mv in BestFirst::new(pos.legal_moves(), None, &self.history) {
            let mut child = *pos;
            child.play_unchecked(mv);
            self.nodes += 1;
            let child_me = if mv == Move::Swap { 1 - me } else { me };
            let (value, child_solved) = self.near_leaves(&child, depth - 1, alpha, beta, child_me);
            all_solved &= child_solved;
            narrow(maximizing, value, &mut best, &mut alpha, &mut beta);
            if alpha >= beta {
                let slot = usize::from(mv.code());
                self.history[slot] = self.history[slot].saturating_add(depth * depth);
                // The move that cuts off bounds the value alone: proved if it is.
                return (best, child_solved);
            }
        }
        (best, all_solved)
    }

    /// The value of a position at the horizon once the captures in reach are played out: the
    /// side to move may take the evaluation as it stands (it has a quiet move, it is assumed)
    /// or any move that captures, and so on for `plies` moves.
    fn quiesce(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        me: usize,
        plies: u32,
    ) -> i32 {
        let stand = self.evaluate(pos, me);
        if plies == 0 {
            return stand;
        }
        let maximizing = pos.to_move() == me;
        if maximizing {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let mover = pos.to_move();
        let before = pos.score(mover);
        let mut best = stand;
        for &mv in pos.legal_moves().iter() {
            if mv == Move::Swap {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(mv);
            self.nodes += 1;
            let value = if child.is_over() {
                self.final_value(&child, me)
            } else if child.score(mover) > before {
                self.quiesce(&child, alpha, beta, me, plies - 1)
            } else {
                continue;
            };
            narrow(maximizing, value, &mut best, &mut alpha, &mut beta);
            if alpha >= beta {
                break;
            }
        }
        best
    }

    /// The evaluation of an unfinished position for `me`: the hand-written one, corrected by the
    /// learned one where the search has it.
    #[inline]
    fn evaluate(&self, pos: &Position, me: usize) -> i32 {
        let value = eval::evaluate(pos, me, &self.weights);
        match &self.limits.network {
            Some(network) if !pos.is_over() => value + network.correction(pos, me),
            _ => value,
        }
    }

    /// The value to `me` of a position the endgame table knows, as `final_value` would give the
    /// game's end.
    #[inline]
    fn tablebase_value(&self, pos: &Position, me: usize) -> Option<i32> {
        let table = self.limits.tablebase.as_deref()?;
        let (outcome, margin) = table.probe(pos)?;
        let sign = if pos.to_move() == me { 1 } else { -1 };
        Some(if self.limits.outcome_only {
            sign * WIN * outcome
        } else {
            sign * (WIN * outcome + 100 * margin)
        })
    }

    /// The value of a finished game to `me`: with `Limits::outcome_only`, only who won.
    fn final_value(&self, pos: &Position, me: usize) -> i32 {
        if self.limits.outcome_only {
            eval::final_outcome(pos, me)
        } else {
            eval::final_value(pos, me)
        }
    }

    /// The value of a child without searching it: a finished game or the
    /// transposition table.
    fn resolve(&self, pos: &Position, depth: u32, alpha: i32, beta: i32, me: usize) -> Child {
        if pos.is_over() {
            return Child::Known {
                value: self.final_value(pos, me),
                solved: true,
            };
        }
        if let Some(value) = self.tablebase_value(pos, me) {
            return Child::Known {
                value,
                solved: true,
            };
        }
        // Children this close to the horizon went to `near_leaves`.
        debug_assert!(depth > NEAR_LEAVES);
        let key = perspective_key(pos, me);
        let Some(entry) = self.table.get(key) else {
            return Child::Unknown { key, hint: None };
        };
        let deep_enough = entry.depth >= depth.min(u8::MAX.into()) as u8 || entry.solved;
        let usable = match entry.bound {
            Bound::Exact => true,
            Bound::Lower => entry.value >= beta,
            Bound::Upper => entry.value <= alpha,
        };
        if deep_enough && usable {
            Child::Known {
                value: entry.value,
                solved: entry.solved,
            }
        } else {
            Child::Unknown {
                key,
                hint: entry.best,
            }
        }
    }

    /// A child of the top frame came back with `value` (for the root's player, like every
    /// value of the search).
    fn integrate(&mut self, value: i32, solved: bool, mv: Move) {
        let top = self.stack.len() - 1;
        let frame = &mut self.stack[top];
        let probing = std::mem::take(&mut frame.probing);
        let beats = if frame.maximizing {
            value > frame.alpha
        } else {
            value < frame.beta
        };
        if std::mem::take(&mut frame.reduced) && beats && !solved {
            // The reduced search says the move may be better: ask again at full depth, with
            // the same window.
            frame.probing = probing;
            let (alpha, beta) = child_window(frame, probing);
            self.search_child(mv, alpha, beta, 1);
            return;
        }
        if probing && value > frame.alpha && value < frame.beta {
            let (alpha, beta) = (frame.alpha, frame.beta);
            self.search_child(mv, alpha, beta, 1);
            return;
        }
        frame.all_solved &= solved;
        let improved = if frame.maximizing {
            value > frame.best
        } else {
            value < frame.best
        };
        if improved || frame.best_move.is_none() {
            frame.best = value;
            frame.best_move = Some(mv);
            frame.best_solved = solved;
        } else if value == frame.best && solved {
            frame.best_solved = true;
        }
        if top == 0 && self.limits.all_root_moves {
            // Every root move gets the full window: the root's alpha stays where it was.
            self.root_values.push((mv, value));
            return;
        }
        if frame.maximizing {
            frame.alpha = frame.alpha.max(value);
        } else {
            frame.beta = frame.beta.min(value);
        }
        if frame.alpha >= frame.beta {
            let slot = usize::from(mv.code());
            self.history[slot] = self.history[slot].saturating_add(frame.depth * frame.depth);
        }
    }

    /// A frame is done: remember it, and hand its value to its parent (or end the iteration).
    fn close(&mut self, frame: Frame) {
        let bound = if frame.best <= frame.alpha0 {
            Bound::Upper
        } else if frame.best >= frame.beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        // A cutoff's bound (at least `best` where `me` moves, at most elsewhere) is proved by
        // the move that gave it; any other bound, or an exact value, needs every move proved.
        let solved = match (bound, frame.maximizing) {
            (Bound::Lower, true) | (Bound::Upper, false) => frame.best_solved,
            _ => frame.all_solved,
        };
        self.table.put(Entry {
            key: frame.key,
            value: frame.best,
            depth: frame.depth.min(u8::MAX.into()) as u8,
            bound,
            solved,
            best: frame.best_move,
        });
        let best = frame
            .best_move
            .unwrap_or_else(|| unreachable!("a position in play has a move"));
        if self.stack.is_empty() {
            // The root is searched with the widest window the values allow, so a bound there is
            // the value itself.
            self.completed = Some((best, frame.best, self.depth, solved));
            self.completed_values = std::mem::take(&mut self.root_values);
            self.completed_values.sort_by_key(|&(_, value)| -value);
        } else {
            let mv = {
                let parent = &self.stack[self.stack.len() - 1];
                parent.moves[parent.next - 1]
            };
            self.integrate(frame.best, solved, mv);
        }
    }

    fn finish(&mut self) -> Report {
        let (best, score, depth, solved) = self
            .completed
            .unwrap_or_else(|| unreachable!("depth 1 always completes before the search stops"));
        let report = Report {
            best,
            score,
            depth,
            nodes: self.nodes,
            elapsed: self.started.elapsed(),
            solved,
            pv: self.principal_variation(best),
            moves: self.completed_values.clone(),
        };
        self.finished = Some(report.clone());
        report
    }

    /// The best line, read back from the table.
    fn principal_variation(&self, best: Move) -> Vec<Move> {
        let mut pv = vec![best];
        let mut pos = self.root;
        let mut me = pos.to_move();
        pos.play_unchecked(best);
        if best == Move::Swap {
            me = 1 - me;
        }
        while pv.len() < self.depth as usize && !pos.is_over() {
            let Some(mv) = self
                .table
                .get(perspective_key(&pos, me))
                .and_then(|e| e.best)
            else {
                break;
            };
            if !pos.is_legal(mv) {
                break;
            }
            pv.push(mv);
            if mv == Move::Swap {
                me = 1 - me;
            }
            pos.play_unchecked(mv);
        }
        pv
    }
}

/// What `resolve` knows of a child.
enum Child {
    Known {
        value: i32,
        solved: bool,
    },
    /// To be searched: its key, and the best move an earlier search found there.
    Unknown {
        key: u64,
        hint: Option<Move>,
    },
}

/// The window for a child of `frame`: its own, or with `probe` a null window at the bound the
/// mover must beat.
fn child_window(frame: &Frame, probe: bool) -> (i32, i32) {
    match (probe, frame.maximizing) {
        (false, _) => (frame.alpha, frame.beta),
        (true, true) => (frame.alpha, frame.alpha + 1),
        (true, false) => (frame.beta - 1, frame.beta),
    }
}

/// A child's `value` is in: the best so far and the window move toward it, on the side of the
/// player to move.
#[inline(always)]
fn narrow(maximizing: bool, value: i32, best: &mut i32, alpha: &mut i32, beta: &mut i32) {
    if maximizing {
        *best = (*best).max(value);
        *alpha = (*alpha).max(value);
    } else {
        *best = (*best).min(value);
        *beta = (*beta).min(value);
    }
}

/// The table key of `pos` searched for seat `me`: values depend on whose point of view.
fn perspective_key(pos: &Position, me: usize) -> u64 {
    zobrist::key(pos) ^ (me as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The table's move first, then the moves that caused most cutoffs.
fn order(moves: &mut MoveList, hint: Option<Move>, history: &[u32; 256]) {
    let ordered = BestFirst::new(*moves, hint, history);
    for (slot, mv) in moves.iter_mut().zip(ordered) {
        *slot = mv;
    }
}

/// A node's moves in [`order`]'s order, each found when it is asked for: most nodes near the
/// leaves stop at their first or second move, so sorting the rest would be wasted.
struct BestFirst {
    moves: MoveList,
    /// Per move still to come, its rank above and `15 − its place in the list` below, so that
    /// the largest is the best ranked and, of equal ranks, the first listed (as a stable sort
    /// has it); 0 for a move already given. Ranks are computed once: the history changes
    /// while the node's children are searched, and the order must not.
    left: [u64; oaq_rules::MAX_MOVES],
}

impl BestFirst {
    fn new(moves: MoveList, hint: Option<Move>, history: &[u32; 256]) -> BestFirst {
        let mut left = [0; oaq_rules::MAX_MOVES];
        for (i, (slot, &mv)) in left.iter_mut().zip(moves.iter()).enumerate() {
            let rank = if Some(mv) == hint {
                u32::MAX
            } else {
                history[usize::from(mv.code())].min(u32::MAX - 1)
            };
            *slot = u64::from(rank) << 4 | (15 - i as u64);
        }
        BestFirst { moves, left }
    }
}

impl Iterator for BestFirst {
    type Item = Move;

    #[inline]
    fn next(&mut self) -> Option<Move> {
        // A maximum over a fixed eleven: no branch on the ranks.
        let best = self.left.iter().copied().max().unwrap_or(0);
        if best == 0 {
            return None;
        }
        let i = 15 - (best & 15) as usize;
        self.left[i] = 0;
        Some(self.moves[i])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::{Direction, MAX_MOVES};

    /// The moves one at a time come in the order of a stable sort by rank, highest first.
    #[test]
    fn best_first_is_a_stable_sort_by_rank() {
        let mut seed = 7u64;
        let mut random = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as u32
        };
        for _ in 0..2_000 {
            let mut moves = MoveList::new();
            let len = random() as usize % (MAX_MOVES + 1);
            for i in 0..len {
                moves.push(match i {
                    10 => Move::Swap,
                    _ => Move::Sow {
                        pit: (i / 2) as u8,
                        dir: Direction::ALL[i % 2],
                    },
                });
            }
            // Few distinct ranks, so that ties are common.
            let mut history = [0; 256];
            for h in history.iter_mut() {
                *h = [0, 1, 2, u32::MAX][random() as usize % 4];
            }
            let hint = (len > 0 && random() % 2 == 0).then(|| moves[random() as usize % len]);
            let rank = |m: &Move| {
                if Some(*m) == hint {
                    u32::MAX
                } else {
                    history[usize::from(m.code())].min(u32::MAX - 1)
                }
            };
            let mut sorted: Vec<Move> = moves.to_vec();
            sorted.sort_by_key(|m| std::cmp::Reverse(rank(m)));
            let lazily: Vec<Move> = BestFirst::new(moves, hint, &history).collect();
            assert_eq!(lazily, sorted);
            let mut in_place = moves;
            order(&mut in_place, hint, &history);
            assert_eq!(in_place.to_vec(), sorted);
        }
    }
}
