//! N-Queens on a device: the [`QueensDevice`] trait, and how the CPU
//! reference and a device over a link (the simulated board or a real one,
//! through QUEENS) run a search.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use knights_model::queens::{constellations, QueensObserver, QueensOutcome, QueensSearch, QueensSpec, MAX_N};
use knights_model::{Flow, Goal};

use crate::device::error::{DeviceError, RequestError};
use crate::device::{CpuDevice, Device, Problem, Report};
use crate::link::proto::{Command, QueensRequest, MAX_QUEENS_SPLIT_LEVEL};
use crate::link::transport::Transport;
use crate::link::{LinkedDevice, Results};

/// Receives an N-Queens search's solutions while it runs.
pub trait QueensSink {
    /// A solution as the device reported it (the queens' files from rank 1
    /// up); an error stops the search.
    fn solution(&mut self, files: &[u8]) -> Result<(), DeviceError>;
    /// Running totals; returning [`Flow::Stop`] aborts the search.
    fn progress(&mut self, nodes: u64, solutions: u64) -> Flow;
}

/// A device that solves N-Queens.
pub trait QueensDevice: Device {
    /// The largest N of its searches (0: its build solves knight's tours).
    fn max_queens(&self) -> u8;
    /// Runs one N-Queens search ([`Report::found`] its solutions). In
    /// first-K mode every solution goes to `sink`; counts are the device's.
    fn queens(&mut self, spec: &QueensSpec, goal: Goal, sink: &mut dyn QueensSink) -> Result<Report, DeviceError>;
    /// Counts an N-Queens board's solutions from its constellations, the
    /// jobs made where it counts: the solutions weighted, the nodes the
    /// queens placed between the edges' (as the reference's
    /// `constellations::count_from`). Only the classes whose canonical image
    /// has its first rank's queen on `first_files` (all of the board's for
    /// the whole count).
    fn queens_constellations(
        &mut self,
        _n: u8,
        _first_files: Range<u8>,
        _sink: &mut dyn QueensSink,
    ) -> Result<Report, DeviceError> {
        Err(RequestError::NoConstellations { device: self.name().into() }.into())
    }
}

impl QueensDevice for CpuDevice {
    fn max_queens(&self) -> u8 {
        MAX_N
    }

    fn queens(&mut self, spec: &QueensSpec, goal: Goal, sink: &mut dyn QueensSink) -> Result<Report, DeviceError> {
        let search = QueensSearch::new(spec.clone());
        let outcome = if goal == Goal::CountAll && self.threads > 1 {
            count_in_parallel(&search, self.threads, sink)
        } else {
            let mut relay = Relay { sink, error: None };
            let outcome = search.run(goal, &mut relay);
            if let Some(error) = relay.error {
                return Err(error);
            }
            outcome
        };
        Ok(Report::counts(outcome.solutions, outcome.nodes, outcome.status))
    }

    fn queens_constellations(
        &mut self,
        n: u8,
        first_files: Range<u8>,
        _sink: &mut dyn QueensSink,
    ) -> Result<Report, DeviceError> {
        let outcome =
            constellations::count_from(n, first_files, self.threads).map_err(|e| DeviceError::Reference(e.into()))?;
        Ok(Report::counts(outcome.solutions, outcome.nodes, outcome.status))
    }
}

/// Counts on `threads` threads, passing their running totals to `sink` on
/// this thread (the pool's callback must be `Send`; a sink need not be), and
/// stopping them when it says stop.
fn count_in_parallel(search: &QueensSearch, threads: usize, sink: &mut dyn QueensSink) -> QueensOutcome {
    let stop = AtomicBool::new(false);
    let (totals, received) = mpsc::channel();
    std::thread::scope(|scope| {
        let counting = scope.spawn(|| {
            let totals = totals;
            search.count_parallel(threads, &mut |nodes, solutions| {
                let _ = totals.send((nodes, solutions));
                if stop.load(Ordering::Relaxed) {
                    Flow::Stop
                } else {
                    Flow::Continue
                }
            })
        });
        // Ends when the count does (its sender is dropped with it).
        for (nodes, solutions) in received {
            if sink.progress(nodes, solutions) == Flow::Stop {
                stop.store(true, Ordering::Relaxed);
            }
        }
        counting.join().expect("the counting threads do not panic")
    })
}

/// Passes a single-threaded N-Queens search's solutions to a sink.
struct Relay<'a> {
    sink: &'a mut dyn QueensSink,
    error: Option<DeviceError>,
}

impl QueensObserver for Relay<'_> {
    fn solution(&mut self, files: &[u8]) -> Flow {
        match self.sink.solution(files) {
            Ok(()) => Flow::Continue,
            Err(error) => {
                self.error = Some(error);
                Flow::Stop
            }
        }
    }

    fn progress(&mut self, nodes: u64, solutions: u64) -> Flow {
        self.sink.progress(nodes, solutions)
    }
}

impl<T: Transport> QueensDevice for LinkedDevice<T> {
    fn max_queens(&self) -> u8 {
        if self.identity().queens {
            self.identity().max_width
        } else {
            0
        }
    }

    fn queens(&mut self, spec: &QueensSpec, goal: Goal, sink: &mut dyn QueensSink) -> Result<Report, DeviceError> {
        self.expect(Problem::Queens)?;
        let request = QueensRequest {
            n: spec.n,
            first_from: spec.first_files.start,
            first_to: spec.first_files.end,
            count: goal == Goal::CountAll,
            limit: match goal {
                Goal::First(k) => u32::try_from(k).unwrap_or(0),
                Goal::CountAll => 0,
            },
            split: split_level(self, spec),
            engines: self.engines_asked(),
            constellations: false,
        };
        let mut solutions = SolutionResults { sink };
        // A solution of a job starts with the job's queens.
        self.converse(Command::Queens(request), request.split, usize::from(request.split), &mut solutions)
    }

    fn queens_constellations(
        &mut self,
        n: u8,
        first_files: Range<u8>,
        sink: &mut dyn QueensSink,
    ) -> Result<Report, DeviceError> {
        self.expect(Problem::Queens)?;
        if !self.identity().constellations {
            return Err(DeviceError::Request(RequestError::NoConstellations { device: self.describe() }));
        }
        let request = QueensRequest {
            n,
            first_from: first_files.start,
            first_to: first_files.end,
            count: true,
            limit: 0,
            // (A split level says the engines share the search; the jobs
            // are the device's generator's.)
            split: 1,
            engines: self.engines_asked(),
            constellations: true,
        };
        let mut solutions = SolutionResults { sink };
        // (No solution is sent, so none has a job's queens to check.)
        self.converse(Command::Queens(request), request.split, 0, &mut solutions)
    }
}

/// Jobs per solver when an N-Queens search is split. A job's queens are
/// replayed a clock each, so fewer, larger jobs than a knight's tour's pay:
/// on the simulator's four solvers, 12-queens (mirror) took 108,281 cycles
/// with jobs of 3 queens (about 90 per solver), 109,393 with 2 (12) and
/// 110,281 with 4 (about 500).
pub const QUEENS_JOBS_PER_ENGINE: usize = 32;

/// The split level of an N-Queens search: the fewest queens per job that
/// give [`QUEENS_JOBS_PER_ENGINE`] jobs per engine, at most a job path's
/// worth.
fn split_level<T: Transport>(device: &LinkedDevice<T>, spec: &QueensSpec) -> u8 {
    let deepest = MAX_QUEENS_SPLIT_LEVEL.min(spec.n.saturating_sub(1));
    let level = match device.split() {
        Some(level) => level,
        None if device.engines() <= 1 => 0,
        None => QueensSearch::new(spec.clone()).split(usize::from(device.engines()) * QUEENS_JOBS_PER_ENGINE).level,
    };
    if level > deepest {
        0
    } else {
        level
    }
}

/// N-Queens solutions: a file per rank.
struct SolutionResults<'a> {
    sink: &'a mut dyn QueensSink,
}

impl Results for SolutionResults<'_> {
    fn result(&mut self, items: &[u8]) -> Result<(), DeviceError> {
        self.sink.solution(items)
    }

    fn progress(&mut self, nodes: u64, results: u64) -> Flow {
        self.sink.progress(nodes, results)
    }
}
