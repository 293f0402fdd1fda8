//! One API over every place a search can run: the CPU reference here; the
//! simulated board and real boards over a serial port implement the same trait.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use crate::board::{BoardSize, Square};
use crate::error::DeviceError;
use crate::link::LinkFigures;
use crate::parallel;
use crate::queens::{constellations, QueensObserver, QueensOutcome, QueensSearch, QueensSpec, MAX_N};
use crate::search::{Flow, Goal, Observer, Outcome, SearchSpec, Searcher};
use crate::validate::check_tour;

/// Receives a device's results while it runs.
pub trait Sink {
    /// A tour as the device reported it; an error stops the search.
    fn tour(&mut self, tour: &[Square]) -> Result<(), DeviceError>;
    /// Running totals; returning [`Flow::Stop`] aborts the search.
    fn progress(&mut self, nodes: u64, tours: u64) -> Flow;
}

/// Receives an N-Queens search's solutions while it runs.
pub trait QueensSink {
    /// A solution as the device reported it (the queens' files from rank 1
    /// up); an error stops the search.
    fn solution(&mut self, files: &[u8]) -> Result<(), DeviceError>;
    /// Running totals; returning [`Flow::Stop`] aborts the search.
    fn progress(&mut self, nodes: u64, solutions: u64) -> Flow;
}

/// The problems a device's build can solve.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Problem {
    Tours,
    Queens,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Problem::Tours => "knight's tours",
            Problem::Queens => "N-Queens",
        })
    }
}

/// What a device reports when a search ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    pub outcome: Outcome,
    /// Engine clock cycles, for devices that count them.
    pub cycles: Option<u64>,
    /// How a device with engines shared the search.
    pub engines: Option<EngineFigures>,
    /// Traffic and clock of a device reached over a link.
    pub link: Option<LinkFigures>,
}

/// How the engines of a device shared a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EngineFigures {
    /// Engines on the device.
    pub engines: u8,
    /// The level whose nodes were the jobs (0: engine 0 ran alone).
    pub split_level: u8,
    /// Cycles each engine ran, summed.
    pub engine_cycles: u64,
}

impl EngineFigures {
    /// Engines that took part: all of them, or one when unsplit.
    pub fn working(&self) -> u64 {
        if self.split_level == 0 {
            1
        } else {
            u64::from(self.engines)
        }
    }

    /// How evenly the work spread: the engines' mean running time over the
    /// longest (1 when all ran to the end), from the search's `cycles`.
    pub fn load_balance(&self, cycles: u64) -> f64 {
        self.engine_cycles as f64 / (self.working() * cycles.max(1)) as f64
    }
}

/// A place a search can run.
pub trait Device {
    /// Short name as given to `--device`.
    fn name(&self) -> &'static str;
    /// The largest board this device searches (both sides at most these).
    fn max_board(&self) -> BoardSize;
    /// Runs one search. In first-K mode every tour goes to `sink`; in count
    /// mode a device may count without sending tours, but the tours it counts
    /// must have been validated where they were found.
    fn search(&mut self, spec: &SearchSpec, goal: Goal, sink: &mut dyn Sink) -> Result<Report, DeviceError>;
    /// Counts the tours below a fixed starting path (a prefix job of a count
    /// cut by [`crate::parallel::PrefixJobs`]): its outcome's nodes are the
    /// path's last square and the nodes below it. Boards take whole
    /// searches only.
    fn count_from(
        &mut self,
        _spec: &SearchSpec,
        _path: &[Square],
        _sink: &mut dyn Sink,
    ) -> Result<Report, DeviceError> {
        Err(DeviceError::NoPrefixJobs { device: self.name() })
    }
    /// The largest N of its N-Queens searches (0: it solves knight's tours
    /// only, as devices do unless they say otherwise).
    fn max_queens(&self) -> u8 {
        0
    }
    /// Runs one N-Queens search ([`Report::outcome`]'s tours are its
    /// solutions). In first-K mode every solution goes to `sink`; counts are
    /// the device's.
    fn queens(&mut self, _spec: &QueensSpec, _goal: Goal, _sink: &mut dyn QueensSink) -> Result<Report, DeviceError> {
        Err(DeviceError::WrongProblem { device: self.name().into(), build: Problem::Tours, asked: Problem::Queens })
    }
    /// Counts an N-Queens board's solutions from its constellations, the
    /// jobs made where it counts: the solutions weighted, the nodes the
    /// queens placed between the edges' (as the reference's
    /// `constellations::count`).
    fn queens_constellations(&mut self, _n: u8, _sink: &mut dyn QueensSink) -> Result<Report, DeviceError> {
        Err(DeviceError::NoConstellations { device: self.name().into() })
    }
}

/// The CPU reference search, counting on several threads.
#[derive(Clone, Debug)]
pub struct CpuDevice {
    pub threads: usize,
}

impl CpuDevice {
    /// The largest board side the CPU device accepts.
    pub const MAX_SIDE: u16 = 64;

    /// A device using every core for counts.
    pub fn all_cores() -> Self {
        CpuDevice { threads: std::thread::available_parallelism().map_or(1, |n| n.get()) }
    }
}

impl fmt::Display for CpuDevice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cpu ({} thread{})", self.threads, if self.threads == 1 { "" } else { "s" })
    }
}

impl Device for CpuDevice {
    fn name(&self) -> &'static str {
        "cpu"
    }

    fn max_board(&self) -> BoardSize {
        BoardSize::square(Self::MAX_SIDE)
    }

    fn search(&mut self, spec: &SearchSpec, goal: Goal, sink: &mut dyn Sink) -> Result<Report, DeviceError> {
        let outcome = if goal == Goal::CountAll && self.threads > 1 {
            let check = |tour: &[Square]| check_tour(spec.board, spec.start, spec.closed, tour);
            parallel::count_all(spec, self.threads, &check, &mut |nodes, tours| sink.progress(nodes, tours))
                .map_err(DeviceError::Reference)?
        } else {
            let mut relay = Relay { spec, goal, sink, error: None };
            let outcome = Searcher::new(*spec).map_err(DeviceError::Reference)?.run(goal, &mut relay);
            if let Some(error) = relay.error {
                return Err(error);
            }
            outcome
        };
        Ok(Report { outcome, cycles: None, engines: None, link: None })
    }

    fn count_from(&mut self, spec: &SearchSpec, path: &[Square], sink: &mut dyn Sink) -> Result<Report, DeviceError> {
        let mut relay = Relay { spec, goal: Goal::CountAll, sink, error: None };
        let searcher = Searcher::new(*spec).map_err(DeviceError::Reference)?;
        let mut outcome = searcher.run_from(path, Goal::CountAll, &mut relay).map_err(DeviceError::Reference)?;
        if let Some(error) = relay.error {
            return Err(error);
        }
        // The path's squares above its last are the nodes above the cut.
        outcome.nodes -= path.len() as u64 - 1;
        Ok(Report { outcome, cycles: None, engines: None, link: None })
    }

    fn max_queens(&self) -> u8 {
        MAX_N
    }

    fn queens(&mut self, spec: &QueensSpec, goal: Goal, sink: &mut dyn QueensSink) -> Result<Report, DeviceError> {
        let search = QueensSearch::new(spec.clone());
        let outcome = if goal == Goal::CountAll && self.threads > 1 {
            count_queens_in_parallel(&search, self.threads, sink)
        } else {
            let mut relay = QueensRelay { sink, error: None };
            let outcome = search.run(goal, &mut relay);
            if let Some(error) = relay.error {
                return Err(error);
            }
            outcome
        };
        let outcome = Outcome { tours: outcome.solutions, nodes: outcome.nodes, status: outcome.status };
        Ok(Report { outcome, cycles: None, engines: None, link: None })
    }

    fn queens_constellations(&mut self, n: u8, _sink: &mut dyn QueensSink) -> Result<Report, DeviceError> {
        let outcome = constellations::count(n, self.threads).map_err(|e| DeviceError::Reference(e.into()))?;
        let outcome = Outcome { tours: outcome.solutions, nodes: outcome.nodes, status: outcome.status };
        Ok(Report { outcome, cycles: None, engines: None, link: None })
    }
}

/// Counts on `threads` threads, passing their running totals to `sink` on
/// this thread (the pool's callback must be `Send`; a sink need not be), and
/// stopping them when it says stop.
fn count_queens_in_parallel(search: &QueensSearch, threads: usize, sink: &mut dyn QueensSink) -> QueensOutcome {
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
struct QueensRelay<'a> {
    sink: &'a mut dyn QueensSink,
    error: Option<DeviceError>,
}

impl QueensObserver for QueensRelay<'_> {
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

/// Passes a single-threaded search's results to a sink: tours of a first-K
/// search go to the sink, tours of a count are validated and counted here.
struct Relay<'a> {
    spec: &'a SearchSpec,
    goal: Goal,
    sink: &'a mut dyn Sink,
    error: Option<DeviceError>,
}

impl Observer for Relay<'_> {
    fn tour(&mut self, tour: &[Square]) -> Flow {
        let result = match self.goal {
            Goal::First(_) => self.sink.tour(tour),
            Goal::CountAll => {
                check_tour(self.spec.board, self.spec.start, self.spec.closed, tour).map_err(DeviceError::Reference)
            }
        };
        match result {
            Ok(()) => Flow::Continue,
            Err(error) => {
                self.error = Some(error);
                Flow::Stop
            }
        }
    }

    fn progress(&mut self, nodes: u64, tours: u64) -> Flow {
        self.sink.progress(nodes, tours)
    }
}
