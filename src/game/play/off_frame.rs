//! Work that must never stall a frame (the computer's move, a hint): a task in the async
//! compute pool where there are threads to run it, or the same work in slices of a few
//! milliseconds per frame where there are not (the web, where Bevy's pool runs on the page's
//! one thread).

use std::time::Duration;

use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use web_time::Instant;

use crate::ai::{Decision, Report, Search, Thinker};

/// Nodes searched between two looks at the frame's clock.
const SLICE_NODES: u64 = 1024;

/// A search that can run to the end in one call or advance by a number of nodes.
pub trait Sliceable<T>: Send + Sync {
    fn run(&mut self) -> T;
    fn step(&mut self, nodes: u64) -> Option<T>;
}

impl Sliceable<Decision> for Thinker {
    fn run(&mut self) -> Decision {
        Thinker::run(self)
    }

    fn step(&mut self, nodes: u64) -> Option<Decision> {
        Thinker::step(self, nodes)
    }
}

impl Sliceable<Report> for Search {
    fn run(&mut self) -> Report {
        Search::run(self)
    }

    fn step(&mut self, nodes: u64) -> Option<Report> {
        Search::step(self, nodes)
    }
}

/// One piece of off-frame work.
pub enum Job<T> {
    Task(Task<T>),
    Sliced(Box<dyn Sliceable<T>>),
}

impl<T: Send + 'static> Job<T> {
    /// Start `work`: in the pool, or in slices when `sliced`.
    pub fn start(mut work: impl Sliceable<T> + 'static, sliced: bool) -> Job<T> {
        if sliced {
            Job::Sliced(Box::new(work))
        } else {
            Job::Task(AsyncComputeTaskPool::get().spawn(async move { work.run() }))
        }
    }

    /// The result once there is one. A sliced job works here for about `budget` of this frame.
    pub fn poll(&mut self, budget: Duration) -> Option<T> {
        match self {
            Job::Task(task) => check_ready(task),
            Job::Sliced(work) => {
                let started = Instant::now();
                loop {
                    if let Some(result) = work.step(SLICE_NODES) {
                        return Some(result);
                    }
                    if started.elapsed() >= budget {
                        return None;
                    }
                }
            }
        }
    }
}

/// How much of a frame sliced work may take: half of a 60 Hz frame.
pub const FRAME_SHARE: Duration = Duration::from_millis(8);
