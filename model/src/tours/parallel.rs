//! Counting on every core: the search tree is cut into prefix jobs (all
//! paths of one length from the start) that a rayon pool's threads take in
//! turn, the way the FPGA's engines take theirs. Counts are independent of the
//! order jobs finish in, so they equal the single-threaded search exactly.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::Result;
use rayon::prelude::*;

use super::moves::knight_neighbours;
use super::{Observer, Outcome, SearchSpec, Searcher};
use crate::board::Square;
use crate::run::{Flow, Goal, Status};

/// Starting paths that together cover a search tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrefixJobs {
    /// Paths of one length, in canonical order; each is searched on its own.
    pub prefixes: Vec<Vec<Square>>,
    /// Nodes of the tree that are proper prefixes of the jobs (shorter paths,
    /// dead ends among them), counted once here rather than in any job.
    pub nodes_above: u64,
}

impl PrefixJobs {
    /// Deepens the cut one level at a time until there are at least
    /// `min_jobs` prefixes or the next level would complete a tour. With
    /// pruning, a path the search would not expand is not extended either
    /// (it stays a node above the cut), so the jobs' nodes plus the nodes
    /// above equal the single search's.
    pub fn split(spec: &SearchSpec, min_jobs: usize) -> Self {
        let mut levels = Self::levels(spec);
        let mut cut = levels.next().expect("level 0 is the start square");
        for deeper in levels {
            if cut.prefixes.len() >= min_jobs {
                break;
            }
            cut = deeper;
        }
        cut
    }

    /// The cut for devices whose engines each walk every node above it: the
    /// shallowest level with at least `min_jobs` jobs, but not a level whose
    /// nodes above are more than 1.5 times its jobs. There the tree has
    /// nearly stopped branching, and cutting deeper adds walking to every
    /// engine and little balance (on the simulator, open 5x5 from a1 is
    /// fastest at level 6, 1.3 times; level 7, 1.5 times, is slower).
    pub fn split_while_branching(spec: &SearchSpec, min_jobs: usize) -> Self {
        Self::split_below_while_branching(spec, &[spec.start], min_jobs)
    }

    /// As [`Self::split_while_branching`], for the tree below `path` (a
    /// path from the start square): the jobs extend it, and the nodes above
    /// count from the node after its last square.
    pub fn split_below_while_branching(spec: &SearchSpec, path: &[Square], min_jobs: usize) -> Self {
        let mut levels = Self::levels_below(spec, path.to_vec());
        let mut cut = levels.next().expect("level 0 is the start square");
        for deeper in levels {
            if cut.prefixes.len() >= min_jobs || 2 * deeper.nodes_above > 3 * deeper.prefixes.len() as u64 {
                break;
            }
            cut = deeper;
        }
        cut
    }

    /// The cuts at levels 0, 1, 2, ... while a level has paths and the next
    /// would not complete a tour.
    fn levels(spec: &SearchSpec) -> impl Iterator<Item = PrefixJobs> + '_ {
        Self::levels_below(spec, vec![spec.start])
    }

    /// The cuts below `root` (its length first), as [`Self::levels`].
    fn levels_below(spec: &SearchSpec, root: Vec<Square>) -> impl Iterator<Item = PrefixJobs> + '_ {
        let searcher = Searcher::new(*spec).ok();
        let pruned = move |path: &Vec<Square>| searcher.as_ref().is_some_and(|s| s.prunes(path));
        let first = PrefixJobs { prefixes: vec![root], nodes_above: 0 };
        std::iter::successors(Some(first), move |cut| {
            let length = cut.prefixes.first()?.len();
            if length + 1 >= spec.board.area() {
                return None;
            }
            let prefixes = cut
                .prefixes
                .iter()
                .filter(|path| !pruned(path))
                .flat_map(|path| {
                    let last = *path.last().expect("paths are not empty");
                    knight_neighbours(last, spec.board).filter(|s| !path.contains(s)).map(|next| {
                        let mut longer = path.clone();
                        longer.push(next);
                        longer
                    })
                })
                .collect();
            Some(PrefixJobs { prefixes, nodes_above: cut.nodes_above + cut.prefixes.len() as u64 })
        })
    }
}

/// Counts every tour on `threads` worker threads. `check` sees each tour (the
/// caller validates it; an error stops the count and is returned), and
/// `progress` gets the running totals about ten times a second.
pub fn count_all(
    spec: &SearchSpec,
    threads: usize,
    check: &(dyn Fn(&[Square]) -> Result<()> + Sync),
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<Outcome> {
    let threads = threads.max(1);
    let searcher = Searcher::new(*spec)?;
    let jobs = PrefixJobs::split(spec, threads * 64);
    let prefix_len = jobs.prefixes.first().map_or(0, Vec::len) as u64;
    let shared = Shared {
        nodes: AtomicU64::new(jobs.nodes_above),
        tours: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        failure: Mutex::new(None),
    };
    let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).thread_name(|i| format!("count-{i}")).build()?;
    let (finished, jobs_done) = mpsc::channel::<()>();
    // This thread reports progress while the pool works through the jobs.
    pool.in_place_scope(|scope| {
        let (shared, searcher, prefixes) = (&shared, &searcher, &jobs.prefixes);
        scope.spawn(move |_| {
            // One job per task: jobs differ widely in size, and an idle
            // thread should take the next job, not half of another's batch.
            prefixes.par_iter().with_max_len(1).for_each(|prefix| shared.work(searcher, prefix, prefix_len, check));
            drop(finished);
        });
        while jobs_done.recv_timeout(Duration::from_millis(100)) != Err(RecvTimeoutError::Disconnected) {
            let nodes = shared.nodes.load(Ordering::Relaxed);
            if progress(nodes, shared.tours.load(Ordering::Relaxed)) == Flow::Stop {
                shared.stop.store(true, Ordering::Relaxed);
            }
        }
    });
    if let Some(error) = shared.failure.into_inner().expect("no worker panicked holding the lock") {
        return Err(error);
    }
    let status = if shared.stop.load(Ordering::Relaxed) { Status::Aborted } else { Status::Exhausted };
    Ok(Outcome { tours: shared.tours.into_inner(), nodes: shared.nodes.into_inner(), status })
}

/// The running totals the workers share, and how a count stops early.
struct Shared {
    nodes: AtomicU64,
    tours: AtomicU64,
    stop: AtomicBool,
    failure: Mutex<Option<anyhow::Error>>,
}

impl Shared {
    /// Searches one job (none once the count is stopping).
    fn work(
        &self,
        searcher: &Searcher,
        prefix: &[Square],
        prefix_len: u64,
        check: &(dyn Fn(&[Square]) -> Result<()> + Sync),
    ) {
        if self.stop.load(Ordering::Relaxed) {
            return;
        }
        // A job's nodes include its prefix, of which only the last square
        // is below the cut: the rest is in `nodes_above`.
        let mut observer = JobObserver { shared: self, check, reported_nodes: prefix_len - 1, reported_tours: 0 };
        let outcome =
            searcher.run_from(prefix, Goal::CountAll, &mut observer).expect("prefixes are valid paths from the start");
        self.nodes.fetch_add(outcome.nodes - observer.reported_nodes, Ordering::Relaxed);
        self.tours.fetch_add(outcome.tours - observer.reported_tours, Ordering::Relaxed);
    }
}

/// Validates a job's tours and publishes its running totals.
struct JobObserver<'a> {
    shared: &'a Shared,
    check: &'a (dyn Fn(&[Square]) -> Result<()> + Sync),
    reported_nodes: u64,
    reported_tours: u64,
}

impl Observer for JobObserver<'_> {
    fn tour(&mut self, tour: &[Square]) -> Flow {
        match (self.check)(tour) {
            Ok(()) => Flow::Continue,
            Err(error) => {
                self.shared.failure.lock().expect("lock not poisoned").get_or_insert(error);
                self.shared.stop.store(true, Ordering::Relaxed);
                Flow::Stop
            }
        }
    }

    fn progress(&mut self, nodes: u64, tours: u64) -> Flow {
        self.shared.nodes.fetch_add(nodes - self.reported_nodes, Ordering::Relaxed);
        self.shared.tours.fetch_add(tours - self.reported_tours, Ordering::Relaxed);
        self.reported_nodes = nodes;
        self.reported_tours = tours;
        if self.shared.stop.load(Ordering::Relaxed) {
            Flow::Stop
        } else {
            Flow::Continue
        }
    }
}
