//! Work that must never stall a frame (the computer's move, a hint): a task in the async
//! compute pool where there are threads to run it; on the web, where Bevy's pool runs on the
//! page's one thread, a request to the thinking worker (`think_worker`), which searches on a
//! core of its own; and where there is no worker, the same work in slices of a few
//! milliseconds per frame.

use std::time::Duration;

use bevy::tasks::futures::check_ready;
use bevy::tasks::{AsyncComputeTaskPool, Task};
use web_time::Instant;

use crate::ai::remote::{Answer, RemoteError, Request};
use crate::ai::{Decision, Report, Search, Thinker};

/// Nodes searched between two looks at the frame's clock.
const SLICE_NODES: u64 = 1024;

/// A search that can run to the end in one call or advance by a number of nodes.
/// It can also be handed whole to a thinking worker, as a request (the web has one).
#[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
pub trait Sliceable<T>: Send + Sync {
    fn run(&mut self) -> T;
    fn step(&mut self, nodes: u64) -> Option<T>;
    /// The same work as a request, where it can be said as one.
    fn request(&self) -> Option<Request>;
    /// The work's result from a worker's answer.
    fn read(&self, answer: &Answer) -> Result<T, RemoteError>;
}

impl Sliceable<Decision> for Thinker {
    fn run(&mut self) -> Decision {
        Thinker::run(self)
    }

    fn step(&mut self, nodes: u64) -> Option<Decision> {
        Thinker::step(self, nodes)
    }

    fn request(&self) -> Option<Request> {
        Thinker::request(self)
    }

    fn read(&self, answer: &Answer) -> Result<Decision, RemoteError> {
        answer.decision()
    }
}

impl Sliceable<Report> for Search {
    fn run(&mut self) -> Report {
        Search::run(self)
    }

    fn step(&mut self, nodes: u64) -> Option<Report> {
        Search::step(self, nodes)
    }

    fn request(&self) -> Option<Request> {
        Search::request(self)
    }

    fn read(&self, answer: &Answer) -> Result<Report, RemoteError> {
        answer.report()
    }
}

/// One piece of off-frame work.
pub enum Job<T> {
    Task(Task<T>),
    Sliced(Box<dyn Sliceable<T>>),
    /// Posted to the thinking worker; the work itself kept, to go on in slices should the
    /// worker fail.
    #[cfg(target_arch = "wasm32")]
    Worker {
        pending: super::think_worker::Pending,
        work: Option<Box<dyn Sliceable<T>>>,
    },
}

impl<T: Send + 'static> Job<T> {
    /// Start `work`: in the pool; or when `sliced` (one thread), in the thinking worker where
    /// the page has one, and in slices where it has not.
    pub fn start(mut work: impl Sliceable<T> + 'static, sliced: bool) -> Job<T> {
        if sliced {
            #[cfg(target_arch = "wasm32")]
            if let Some(pending) = work.request().and_then(|r| super::think_worker::post(&r)) {
                return Job::Worker {
                    pending,
                    work: Some(Box::new(work)),
                };
            }
            Job::Sliced(Box::new(work))
        } else {
            Job::Task(AsyncComputeTaskPool::get().spawn(async move { work.run() }))
        }
    }

    /// The result once there is one. A sliced job works here for about `budget` of this frame.
    pub fn poll(&mut self, budget: Duration) -> Option<T> {
        #[cfg(target_arch = "wasm32")]
        if let Job::Worker { pending, work } = self {
            use super::think_worker::Reply;
            let read = match (pending.poll()?, work.as_ref()) {
                (Reply::Answer(text), Some(w)) => Answer::from_json(&text)
                    .and_then(|a| w.read(&a))
                    .map_err(|e| e.to_string()),
                _ => Err("the worker could not answer".to_owned()),
            };
            match read {
                Ok(result) => return Some(result),
                Err(e) => {
                    // Think on the page instead, from the start.
                    tracing::warn!("thinking worker: {e}; thinking on the page instead");
                    let work = work.take()?;
                    *self = Job::Sliced(work);
                }
            }
        }
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
            #[cfg(target_arch = "wasm32")]
            Job::Worker { .. } => None,
        }
    }
}

impl<T> Job<T> {
    /// Where the work runs: `pool`, `page` (in slices) or `worker`. Only the web's page shows it.
    #[cfg_attr(not(target_arch = "wasm32"), allow(dead_code))]
    pub fn place(&self) -> &'static str {
        match self {
            Job::Task(_) => "pool",
            Job::Sliced(_) => "page",
            #[cfg(target_arch = "wasm32")]
            Job::Worker { .. } => "worker",
        }
    }
}

/// How much of a frame sliced work may take: half of a 60 Hz frame.
pub const FRAME_SHARE: Duration = Duration::from_millis(8);
