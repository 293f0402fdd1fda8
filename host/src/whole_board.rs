//! Counting the tours from every start square of a board: one count per
//! class of start squares that the board's symmetries make equivalent
//! (`knights_model::symmetry`), each weighted by its class's size. Each
//! class's count runs on the device as any count does (its engines share
//! it), and is checked the same way.

use std::time::{Duration, Instant};

use crate::device::Device;
use crate::error::DeviceError;
use crate::query::{self, Answer, Query};
use crate::search::{Flow, Goal, SearchSpec, Status};
use crate::symmetry::start_classes;
use crate::Square;

/// One class of start squares and its count.
#[derive(Clone, Debug)]
pub struct ClassCount {
    /// The square searched, and how many squares the class has.
    pub start: Square,
    pub weight: u64,
    pub answer: Answer,
}

/// The tours from every start square.
#[derive(Clone, Debug)]
pub struct WholeBoard {
    /// The search, its start square aside.
    pub spec: SearchSpec,
    pub device: &'static str,
    /// The classes counted, in order; fewer than the board has when the
    /// count was stopped.
    pub classes: Vec<ClassCount>,
    pub status: Status,
    pub elapsed: Duration,
}

impl WholeBoard {
    /// Tours from every start square: each class's count times its size.
    pub fn tour_count(&self) -> u64 {
        self.classes.iter().map(|c| c.weight * c.answer.tour_count).sum()
    }

    /// Nodes searched (each class once).
    pub fn nodes(&self) -> u64 {
        self.classes.iter().map(|c| c.answer.nodes).sum()
    }

    /// Engine clock cycles, from devices that count them.
    pub fn cycles(&self) -> Option<u64> {
        self.classes.iter().map(|c| c.answer.cycles).sum()
    }

    /// Why no tour of this kind exists on the board, when known without searching.
    pub fn impossible(&self) -> Option<&'static str> {
        self.classes.first().and_then(|c| c.answer.impossible)
    }
}

/// Counts the tours of `spec` (its start square ignored) from every start
/// square on `device`. `progress` sees running totals (nodes searched, tours
/// weighted) and may stop the count.
pub fn count_every_start(
    device: &mut dyn Device,
    spec: SearchSpec,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<WholeBoard, DeviceError> {
    let started = Instant::now();
    let mut whole = WholeBoard {
        spec,
        device: device.name(),
        classes: Vec::new(),
        status: Status::Exhausted,
        elapsed: Duration::ZERO,
    };
    for class in start_classes(spec.board) {
        let (nodes_before, tours_before) = (whole.nodes(), whole.tour_count());
        let query = Query { spec: SearchSpec { start: class.start, ..spec }, goal: Goal::CountAll };
        let answer = query::run(device, query, &mut |nodes, tours| {
            progress(nodes_before + nodes, tours_before + class.weight * tours)
        })?;
        let stopped = answer.status == Status::Aborted;
        whole.classes.push(ClassCount { start: class.start, weight: class.weight, answer });
        if stopped {
            whole.status = Status::Aborted;
            break;
        }
    }
    whole.elapsed = started.elapsed();
    Ok(whole)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::{CpuDevice, Report, Sink};
    use crate::search::{MoveOrder, Outcome};
    use crate::BoardSize;

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
        let mut cpu = CpuDevice { threads: 1 };
        // OEIS A165134: 1,728 open tours of the 5×5 board, from every square.
        let open = count_every_start(&mut cpu, spec(5, false), &mut |_, _| Flow::Continue).unwrap();
        assert_eq!((open.tour_count(), open.classes.len(), open.status), (1728, 6, Status::Exhausted));
        assert_eq!(open.classes.iter().map(|c| c.weight).sum::<u64>(), 25);
        // And 6,637,920 of the 6×6 board (a few seconds on every core).
        let mut cores = CpuDevice::all_cores();
        let six = count_every_start(&mut cores, spec(6, false), &mut |_, _| Flow::Continue).unwrap();
        assert_eq!(six.tour_count(), 6_637_920);
        // No closed tour on an odd board: nothing is searched.
        let closed = count_every_start(&mut cpu, spec(5, true), &mut |_, _| Flow::Continue).unwrap();
        assert_eq!((closed.tour_count(), closed.nodes()), (0, 0));
        assert!(closed.impossible().is_some());
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

        fn max_board(&self) -> BoardSize {
            BoardSize::square(8)
        }

        fn search(&mut self, _: &SearchSpec, _: Goal, _: &mut dyn Sink) -> Result<Report, DeviceError> {
            self.searches += 1;
            let status = if self.searches == self.stop_at { Status::Aborted } else { Status::Exhausted };
            Ok(Report { outcome: Outcome { tours: 10, nodes: 100, status }, cycles: None, engines: None, link: None })
        }
    }

    #[test]
    fn classes_are_weighted_and_a_stopped_count_keeps_what_it_counted() {
        let mut device = Scripted { searches: 0, stop_at: 0 };
        let whole = count_every_start(&mut device, spec(6, false), &mut |_, _| Flow::Continue).unwrap();
        // 6×6: six classes (4 + 4 + 4 + 8 + 8 + 8 squares).
        assert_eq!((whole.classes.len(), whole.tour_count(), whole.nodes()), (6, 360, 600));
        let mut device = Scripted { searches: 0, stop_at: 2 };
        let stopped = count_every_start(&mut device, spec(6, false), &mut |_, _| Flow::Continue).unwrap();
        assert_eq!((stopped.status, stopped.classes.len(), stopped.nodes()), (Status::Aborted, 2, 200));
    }
}
