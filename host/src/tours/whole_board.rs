//! Counting the tours from every start square of a board: one count per
//! class of start squares that the board's symmetries make equivalent
//! (`knights_model::symmetry`), each weighted by its class's size. The
//! classes are the count's jobs ([`jobs::whole_board_jobs`]): one device
//! counts them in turn (its engines sharing each), several devices share
//! them ([`jobs::share`]), and each class's count is checked as any count is.

use std::path::Path;
use std::time::Duration;

use super::device::TourDevice;
use super::jobs;
use super::query::{check_query, Query};
use crate::device::error::DeviceError;
use crate::jobs::{DeviceFailure, JobResult, Kept, Tally};
use crate::journal::jobs_of;
use knights_model::tours::SearchSpec;
use knights_model::Square;
use knights_model::{Flow, Goal, Status};

/// One class of start squares and its count.
#[derive(Clone, Debug)]
pub struct ClassCount {
    /// The square searched, and how many squares the class has.
    pub start: Square,
    pub weight: u64,
    pub result: JobResult,
}

/// The tours from every start square.
#[derive(Clone, Debug)]
pub struct WholeBoard {
    /// The search, its start square aside.
    pub spec: SearchSpec,
    /// The devices that counted (their names, one each).
    pub devices: Vec<&'static str>,
    /// The classes counted, in order; fewer than the board has when the
    /// count was stopped.
    pub classes: Vec<ClassCount>,
    pub status: Status,
    /// Devices dropped during the count (their jobs went to the others).
    pub failures: Vec<DeviceFailure>,
    pub elapsed: Duration,
    /// Classes an earlier run counted (from a journal).
    pub resumed_jobs: usize,
}

impl WholeBoard {
    /// Tours from every start square: each class's count times its size.
    pub fn tour_count(&self) -> u64 {
        self.classes.iter().map(|c| c.weight * c.result.count).sum()
    }

    /// Nodes searched (each class once).
    pub fn nodes(&self) -> u64 {
        self.classes.iter().map(|c| c.result.nodes).sum()
    }

    /// Engine clock cycles, from devices that count them.
    pub fn cycles(&self) -> Option<u64> {
        self.classes.iter().map(|c| c.result.cycles).sum()
    }

    /// The engines' time with the devices counting at once: the busiest
    /// device's engine seconds (for devices that count cycles).
    pub fn modeled_seconds(&self) -> Option<f64> {
        crate::jobs::modeled_seconds(self.classes.iter().map(|c| &c.result))
    }

    /// Why no tour of this kind exists on the board, when known without searching.
    pub fn impossible(&self) -> Option<&'static str> {
        self.spec.closed.then(|| self.spec.board.closed_tour_obstruction()).flatten()
    }

    /// The devices, as one name ("sim", or "3 × board").
    pub fn device(&self) -> String {
        match self.devices.as_slice() {
            [one] => one.to_string(),
            [first, rest @ ..] if rest.iter().all(|d| d == first) => format!("{} × {first}", self.devices.len()),
            several => several.join(" + "),
        }
    }
}

/// Counts the tours of `spec` (its start square ignored) from every start
/// square, the classes shared by `devices`. `progress` sees running totals
/// (tours weighted) and may stop the count. With a `journal`, each class's
/// result is kept there, and a count stopped before goes on from it.
pub fn count_every_start(
    devices: Vec<Box<dyn TourDevice + Send>>,
    spec: SearchSpec,
    progress: &(dyn Fn(&Tally) -> Flow + Sync),
    journal: Option<&Path>,
) -> Result<WholeBoard, DeviceError> {
    let mut whole = WholeBoard {
        spec,
        devices: devices.iter().map(|d| d.name()).collect(),
        classes: Vec::new(),
        status: Status::Exhausted,
        failures: Vec::new(),
        elapsed: Duration::ZERO,
        resumed_jobs: 0,
    };
    if whole.impossible().is_some() {
        // Still refuse what the device would (a board past its build).
        let device = devices.first().expect("at least one device");
        check_query(device.as_ref(), &Query { spec, goal: Goal::CountAll })?;
        return Ok(whole);
    }
    let (jobs, _, journal) = jobs_of(journal, &jobs::describe(&spec, true), || (jobs::whole_board_jobs(&spec), 0))?;
    let shared = jobs::share_kept(devices, &jobs, progress, journal.as_ref().map(|j| j as &dyn Kept))?;
    for job in &jobs {
        if let Some(result) = shared.results.get(&job.id) {
            let start = job.task.search_spec().expect("tours jobs").start;
            whole.classes.push(ClassCount { start, weight: job.weight, result: result.clone() });
        }
    }
    (whole.status, whole.failures, whole.elapsed) = (shared.status, shared.failures, shared.elapsed);
    whole.resumed_jobs = shared.resumed_jobs;
    Ok(whole)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{CpuDevice, Device, Report};
    use crate::tours::TourSink;
    use knights_model::tours::MoveOrder;
    use knights_model::BoardSize;
    use knights_model::Goal;

    fn spec(side: u16, closed: bool) -> SearchSpec {
        SearchSpec {
            board: BoardSize::square(side),
            start: Square::new(0, 0),
            closed,
            order: MoveOrder::Fixed,
            prune: true,
        }
    }

    #[test]
    fn the_cpu_counts_the_published_whole_board_totals() {
        let cpu = || vec![Box::new(CpuDevice { threads: 1 }) as Box<dyn TourDevice + Send>];
        // OEIS A165134: 1,728 open tours of the 5×5 board, from every square.
        let open = count_every_start(cpu(), spec(5, false), &|_| Flow::Continue, None).unwrap();
        assert_eq!((open.tour_count(), open.classes.len(), open.status), (1728, 6, Status::Exhausted));
        assert_eq!(open.classes.iter().map(|c| c.weight).sum::<u64>(), 25);
        // And 6,637,920 of the 6×6 board (a few seconds on every core).
        let cores: Box<dyn TourDevice + Send> = Box::new(CpuDevice::all_cores());
        let six = count_every_start(vec![cores], spec(6, false), &|_| Flow::Continue, None).unwrap();
        assert_eq!(six.tour_count(), 6_637_920);
        // No closed tour on an odd board: nothing is searched.
        let closed = count_every_start(cpu(), spec(5, true), &|_| Flow::Continue, None).unwrap();
        assert_eq!((closed.tour_count(), closed.nodes()), (0, 0));
        assert!(closed.impossible().is_some());
    }

    #[test]
    fn rectangles_and_closed_counts_equal_the_reference_summed_over_every_start() {
        let cpu = || vec![Box::new(CpuDevice { threads: 2 }) as Box<dyn TourDevice + Send>];
        for (board, closed) in
            [("5x4", false), ("4x5", false), ("7x3", false), ("6x5", true), ("5x6", true), ("6x6", true)]
        {
            let spec = SearchSpec { board: board.parse().unwrap(), ..spec(1, closed) };
            let whole = count_every_start(cpu(), spec, &|_| Flow::Continue, None).unwrap();
            let summed: u64 = (0..spec.board.height)
                .flat_map(|rank| (0..spec.board.width).map(move |file| Square::new(file, rank)))
                .map(|start| {
                    let searcher = knights_model::tours::Searcher::new(SearchSpec { start, ..spec }).unwrap();
                    searcher.run(Goal::CountAll, &mut knights_model::tours::TourList::default()).tours
                })
                .sum();
            assert_eq!(whole.tour_count(), summed, "{board} closed {closed}");
            assert!(summed > 0, "{board}: a board with tours");
        }
    }

    /// A device whose counts are 10 tours in 100 nodes, stopped at its
    /// `stop_at`-th search.
    struct Scripted {
        searches: usize,
        stop_at: usize,
    }

    impl Device for Scripted {
        fn name(&self) -> &'static str {
            "scripted"
        }
    }

    impl TourDevice for Scripted {
        fn max_board(&self) -> BoardSize {
            BoardSize::square(8)
        }

        fn search(&mut self, _: &SearchSpec, _: Goal, _: &mut dyn TourSink) -> Result<Report, DeviceError> {
            self.searches += 1;
            let status = if self.searches == self.stop_at { Status::Aborted } else { Status::Exhausted };
            Ok(Report::counts(10, 100, status))
        }
    }

    #[test]
    fn classes_are_weighted_and_a_stopped_count_keeps_what_it_counted() {
        let scripted = |stop_at| vec![Box::new(Scripted { searches: 0, stop_at }) as Box<dyn TourDevice + Send>];
        let whole = count_every_start(scripted(0), spec(6, false), &|_| Flow::Continue, None).unwrap();
        // 6×6: six classes (4 + 4 + 4 + 8 + 8 + 8 squares).
        assert_eq!((whole.classes.len(), whole.tour_count(), whole.nodes()), (6, 360, 600));
        // The class stopped part way is not kept: its count is not whole.
        let stopped = count_every_start(scripted(2), spec(6, false), &|_| Flow::Continue, None).unwrap();
        assert_eq!((stopped.status, stopped.classes.len(), stopped.nodes()), (Status::Aborted, 1, 100));
    }
}
