//! A level's move: the search within the level's limits, then the level's way of misjudging
//! what it found. Runs in one call or in slices; in one call, a level that may use every core
//! runs helper searches on other threads that share its transposition table.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::eval::{self, Weights};
use super::levels::Level;
use super::limits::{Limits, Report};
use super::search::Search;
use super::tt::Table;
use oaq_rules::{Event, Move, Position};

/// The most threads one search uses: past the cores of any machine it plays on, more only
/// share the table more thinly.
pub const MAX_THREADS: usize = 64;

/// The move a level chose, and the search behind it.
#[derive(Clone, Debug, PartialEq)]
pub struct Decision {
    pub mv: Move,
    pub report: Report,
}

/// One level thinking about one position.
///
/// ```
/// use oaq_ai::{Level, Thinker};
/// use oaq_rules::{presets, Position};
/// let pos = Position::new(presets::get("standard").unwrap().rules);
/// let decision = Thinker::new(pos, Level::easy(), 7, None).run();
/// assert!(pos.is_legal(decision.mv));
/// ```
pub struct Thinker {
    pos: Position,
    level: Level,
    rng: StdRng,
    search: Search,
    /// What the helpers need to search beside the main search.
    limits: Limits,
    table: Table,
    /// Searches in all, the main one included.
    threads: usize,
    weights: Weights,
    /// What `rng` was seeded with, for handing the same work to a thinking worker.
    seed: u64,
}

/// The endgame table `level` searches with in `pos`'s game, if any.
fn own_table(level: &Level, pos: &Position) -> Option<Arc<super::tablebase::Tablebase>> {
    if level.endgame_table {
        super::tablebase::for_rules(pos.rules())
    } else {
        None
    }
}

impl Thinker {
    /// `seed` decides the level's misjudgements: the same seed, position and level give the same
    /// move whenever the search is bounded by depth rather than time.
    pub fn new(pos: Position, level: Level, seed: u64, cancel: Option<Arc<AtomicBool>>) -> Thinker {
        Thinker::with_table(
            pos,
            level,
            seed,
            cancel,
            Table::new(table_megabytes(&level)),
        )
    }

    /// As `new`, reusing a transposition table from an earlier move.
    pub fn with_table(
        pos: Position,
        level: Level,
        seed: u64,
        cancel: Option<Arc<AtomicBool>>,
        table: Table,
    ) -> Thinker {
        let limits = Limits {
            depth: level.depth,
            nodes: None,
            time: Some(Duration::from_millis(level.time_ms)),
            cancel,
            all_root_moves: level.noise > 0.0 || level.sight.is_some(),
            book: level.book,
            quiescence: false,
            // Levels that search as deep as their time allows trade exactness at a depth for
            // depth; a level held to a depth keeps the full search its rating was measured with.
            reductions: level.depth.is_none(),
            outcome_only: false,
            tablebase: own_table(&level, &pos),
            network: None,
        };
        Thinker {
            pos,
            level,
            rng: StdRng::seed_from_u64(seed),
            search: Search::with_table(pos, Weights::shipped(), limits.clone(), table.clone()),
            limits,
            table,
            threads: 1,
            weights: Weights::shipped(),
            seed,
        }
    }

    /// Evaluate with `weights` instead of the shipped ones (to compare evaluations).
    pub fn weights(mut self, weights: Weights) -> Thinker {
        self.weights = weights;
        self.restart()
    }

    /// Search with late move reductions or without, whatever the level's default (to compare
    /// searches).
    pub fn reductions(mut self, on: bool) -> Thinker {
        self.limits.reductions = on;
        self.restart()
    }

    /// The search set up again with the current weights and limits (before it has begun).
    fn restart(mut self) -> Thinker {
        self.search = Search::with_table(
            self.pos,
            self.weights,
            self.limits.clone(),
            self.table.clone(),
        );
        self
    }

    /// Search on up to `threads` threads in `run`, when the level may use every core (Master):
    /// helpers start at other depths and share the table, so the main search goes deeper in
    /// its time. Other levels, and `step`, use one.
    pub fn threads(mut self, threads: usize) -> Thinker {
        self.threads = if self.level.all_cores {
            threads.clamp(1, MAX_THREADS)
        } else {
            1
        };
        self
    }

    /// Look positions up in an endgame table during the search (`super::tablebase`).
    pub fn tablebase(mut self, table: Option<Arc<super::tablebase::Tablebase>>) -> Thinker {
        self.limits.tablebase = table;
        self.restart()
    }

    /// Correct the evaluation by a learned one (`super::network`), to compare evaluations: no
    /// level has one of its own.
    pub fn network(mut self, network: Option<Arc<super::network::Network>>) -> Thinker {
        self.limits.network = network;
        self.restart()
    }

    /// The position, the level and the seed, unless the work was changed in a way a request a
    /// thinking worker answers cannot say (`Thinker::request`, in `remote`): other weights,
    /// reductions, a table, or it has begun.
    pub(crate) fn as_plain(&self) -> Option<(&Position, &Level, u64)> {
        // A level's own table is part of the level: the other side uses its own, if it has one.
        let own_table = match (&self.limits.tablebase, own_table(&self.level, &self.pos)) {
            (None, None) => true,
            (Some(used), Some(own)) => Arc::ptr_eq(used, &own),
            _ => false,
        };
        let plain = self.weights == Weights::shipped()
            && own_table
            && self.limits.network.is_none()
            && self.limits.reductions == self.level.depth.is_none()
            && self.search.nodes() == 0;
        plain.then_some((&self.pos, &self.level, self.seed))
    }

    /// Think about `node_budget` more nodes; the decision once there is one.
    pub fn step(&mut self, node_budget: u64) -> Option<Decision> {
        let report = self.search.step(node_budget)?;
        Some(self.decide(report))
    }

    /// Think to the end of the level's limits.
    pub fn run(&mut self) -> Decision {
        let report = if self.threads > 1 && !self.search.is_finished() {
            self.run_with_helpers()
        } else {
            self.search.run()
        };
        self.decide(report)
    }

    /// The main search here, helpers on other threads until it is done. Only the main
    /// search's report counts: helpers only fill the table.
    fn run_with_helpers(&mut self) -> Report {
        let done = Arc::new(AtomicBool::new(false));
        let limits = Limits {
            cancel: Some(done.clone()),
            all_root_moves: false,
            ..self.limits.clone()
        };
        let search = &mut self.search;
        let (pos, table, weights) = (self.pos, &self.table, self.weights);
        std::thread::scope(|scope| {
            for helper in 1..self.threads {
                let mut search = Search::with_table(pos, weights, limits.clone(), table.clone())
                    .starting_at_depth(1 + (helper as u32 % 2));
                // A machine out of threads gets fewer helpers, not a failed search.
                let spawned = std::thread::Builder::new()
                    .name(format!("search helper {helper}"))
                    .spawn_scoped(scope, move || search.run());
                if spawned.is_err() {
                    break;
                }
            }
            let report = search.run();
            done.store(true, Ordering::Relaxed);
            report
        })
    }

    pub fn into_table(self) -> Table {
        self.search.into_table()
    }

    fn decide(&mut self, report: Report) -> Decision {
        if report.moves.is_empty() {
            return Decision {
                mv: report.best,
                report,
            };
        }
        let me = self.pos.to_move();
        let unaware = eval::evaluate(&self.pos, me, &self.weights);
        let mut best = (f32::NEG_INFINITY, report.best);
        for &(mv, value) in &report.moves {
            // A capture beyond the level's sight looks like a quiet move.
            let seen = if self.beyond_sight(mv) {
                unaware.min(value)
            } else {
                value
            };
            let judged = seen as f32 / 100.0 + self.level.noise * gaussian(&mut self.rng);
            if judged > best.0 {
                best = (judged, mv);
            }
        }
        Decision { mv: best.1, report }
    }

    /// Whether `mv` captures only after more relay pick-ups than the level follows.
    fn beyond_sight(&self, mv: Move) -> bool {
        let Some(sight) = self.level.sight else {
            return false;
        };
        let mut pos = self.pos;
        let Ok(outcome) = pos.play(mv) else {
            return false;
        };
        let mut relays = 0;
        for event in &outcome.events {
            match event {
                Event::Relay { .. } => relays += 1,
                Event::Capture { .. } => return relays > sight,
                _ => {}
            }
        }
        false
    }
}

/// Enough table for the level's search: a deep search fills more.
fn table_megabytes(level: &Level) -> usize {
    match level.depth {
        Some(depth) if depth <= 6 => 1,
        _ => 16,
    }
}

/// A standard normal sample (Box-Muller).
fn gaussian(rng: &mut StdRng) -> f32 {
    let u: f32 = rng.random_range(f32::EPSILON..1.0);
    let v: f32 = rng.random_range(0.0..1.0);
    (-2.0 * u.ln()).sqrt() * (std::f32::consts::TAU * v).cos()
}
