//! A search request as the user states it, checked against the device, run,
//! and answered with validated results.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use super::device::{TourDevice, TourSink};
use crate::device::error::{DeviceError, RequestError, ValidationError};
use crate::device::LinkFigures;
use crate::device::{device_seconds, CpuDevice, EngineFigures};
use knights_model::board::{BoardSize, Square};
use knights_model::tours::validate::check_tour;
use knights_model::tours::SearchSpec;
use knights_model::{Flow, Goal, Status};

/// One search: what to look for and when to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Query {
    pub spec: SearchSpec,
    pub goal: Goal,
}

/// The validated result of a query.
#[derive(Clone, Debug)]
pub struct Answer {
    pub query: Query,
    /// The device's name, as given to `--device`.
    pub device: &'static str,
    /// In first-K mode, the tours in the order found; empty for counts.
    pub tours: Vec<Vec<Square>>,
    /// Tours found (equal to `tours.len()` in first-K mode).
    pub tour_count: u64,
    pub nodes: u64,
    pub status: Status,
    /// Engine clock cycles, from devices that count them.
    pub cycles: Option<u64>,
    /// How a device's engines shared the search.
    pub engines: Option<EngineFigures>,
    /// Link traffic and the device clock, from devices behind a link.
    pub link: Option<LinkFigures>,
    pub elapsed: Duration,
    /// Why the board can have no tour of this kind, when known without searching.
    pub impossible: Option<&'static str>,
    /// How several devices shared the count, when they did.
    pub shared: Option<SharedFigures>,
}

impl Answer {
    /// The engines' search time at the device's clock, from its cycles (for
    /// the simulated board, the time the real board would take).
    pub fn engine_seconds(&self) -> Option<f64> {
        device_seconds(self.cycles, self.link)
    }
}

/// A count several devices shared ([`count_shared`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SharedFigures {
    pub devices: usize,
    pub jobs: usize,
    /// The devices' engine time, all of it and the busiest device's (what
    /// boards counting at once would take), from devices that count cycles.
    pub engine_seconds: Option<f64>,
    pub modeled_seconds: Option<f64>,
    /// Jobs, and their nodes, an earlier run counted (from a journal).
    pub resumed_jobs: usize,
    pub resumed_nodes: u64,
}

/// The board builds whose largest board takes `board`.
fn builds_taking(board: BoardSize) -> Vec<String> {
    #[cfg(feature = "fpga")]
    return crate::fpga::boards::builds_taking(board);
    #[cfg(not(feature = "fpga"))]
    {
        let _ = board;
        Vec::new()
    }
}

/// Checks that `query` makes sense on `device` (every error is one for which
/// [`DeviceError::is_bad_request`] holds).
pub fn check_query<D: TourDevice + ?Sized>(device: &D, query: &Query) -> Result<(), DeviceError> {
    let spec = &query.spec;
    let max = device.max_board();
    if !max.contains_size(spec.board) {
        return Err(DeviceError::Request(RequestError::BoardTooLarge {
            board: spec.board,
            device: device.name(),
            max,
            builds: builds_taking(spec.board),
            cpu_takes_it: spec.board.width.max(spec.board.height) <= CpuDevice::MAX_SIDE,
        }));
    }
    if !spec.board.contains(spec.start) {
        return Err(DeviceError::Request(RequestError::StartOffBoard { start: spec.start, board: spec.board }));
    }
    if query.goal == Goal::First(0) {
        return Err(DeviceError::Request(RequestError::NoResults));
    }
    Ok(())
}

/// Runs `query` on `device`, validating every tour that comes back.
/// `progress` sees running totals and may stop the search.
pub fn run<D: TourDevice + ?Sized>(
    device: &mut D,
    query: Query,
    progress: &mut dyn FnMut(u64, u64) -> Flow,
) -> Result<Answer, DeviceError> {
    check_query(device, &query)?;
    let started = Instant::now();
    let mut answer = Answer {
        query,
        device: device.name(),
        tours: Vec::new(),
        tour_count: 0,
        nodes: 0,
        status: Status::Exhausted,
        cycles: None,
        engines: None,
        link: None,
        elapsed: Duration::ZERO,
        impossible: None,
        shared: None,
    };
    if query.spec.closed {
        if let Some(reason) = query.spec.board.closed_tour_obstruction() {
            answer.impossible = Some(reason);
            answer.elapsed = started.elapsed();
            return Ok(answer);
        }
    }
    let mut collector = Collector { spec: query.spec, tours: Vec::new(), seen: HashSet::new(), progress };
    let report = device.search(&query.spec, query.goal, &mut collector)?;
    if let Goal::First(_) = query.goal {
        if report.found != collector.tours.len() as u64 {
            return Err(DeviceError::Invalid(ValidationError::Missing {
                device: device.name(),
                reported: report.found,
                sent: collector.tours.len() as u64,
            }));
        }
    }
    answer.tours = collector.tours;
    answer.tour_count = report.found;
    answer.nodes = report.nodes;
    answer.status = report.status;
    answer.cycles = report.cycles;
    answer.engines = report.engines;
    answer.link = report.link;
    answer.elapsed = started.elapsed();
    Ok(answer)
}

/// Validates and keeps the tours of a first-K search; rejects duplicates.
struct Collector<'a> {
    spec: SearchSpec,
    tours: Vec<Vec<Square>>,
    seen: HashSet<Vec<Square>>,
    progress: &'a mut dyn FnMut(u64, u64) -> Flow,
}

impl TourSink for Collector<'_> {
    fn tour(&mut self, tour: &[Square]) -> Result<(), DeviceError> {
        let number = self.tours.len() + 1;
        check_tour(self.spec.board, self.spec.start, self.spec.closed, tour)
            .map_err(|e| DeviceError::Invalid(ValidationError::InvalidTour { number, reason: format!("{e:#}") }))?;
        if !self.seen.insert(tour.to_vec()) {
            return Err(DeviceError::Invalid(ValidationError::DuplicateTour { number }));
        }
        self.tours.push(tour.to_vec());
        Ok(())
    }

    fn progress(&mut self, nodes: u64, tours: u64) -> Flow {
        (self.progress)(nodes, tours)
    }
}

/// The host's checks against a device that lies: every lie is refused with
/// its own error, through the same path a board's tours take.
#[cfg(test)]
mod lying_device {
    use std::time::Duration;

    use super::*;
    use crate::device::error::{LinkError, ValidationError};
    use crate::link::proto::{code, Counters, Response};
    use crate::link::transport::scripted::{tour_identity, Scripted};
    use crate::link::LinkedDevice;
    use knights_model::board::BoardSize;
    use knights_model::tours::{MoveOrder, Searcher};

    const SIDE: u16 = 5;

    fn query(tours: usize) -> Query {
        let spec = SearchSpec {
            board: BoardSize::square(SIDE),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Fixed,
            prune: false,
        };
        Query { spec, goal: Goal::First(tours as u64) }
    }

    /// Open 5×5 tours from a1, as square numbers, in the reference's order.
    fn true_tours() -> Vec<Vec<u8>> {
        let (_, tours) = Searcher::new(query(1).spec).unwrap().tours(Goal::CountAll);
        tours.iter().map(|tour| tour.iter().map(|s| (s.rank * SIDE + s.file) as u8).collect()).collect()
    }

    fn tour(sequence: u32, job: u32, squares: &[u8]) -> Response {
        Response::Tour { sequence, engine: 0, job, squares: squares.to_vec() }
    }

    fn done(status: u8, tours: u64) -> Response {
        Response::Done { status, counters: Counters { tours, nodes: 1_000, cycles: 1_000, engine_cycles: 1_000 } }
    }

    /// Runs a first-`wanted` query on a 4-engine device that answers SOLVE
    /// with `answer` (after its ACK), split at `split`, and an ABORT with
    /// DONE.
    fn run_against(split: u8, wanted: usize, answer: Vec<Response>) -> Result<Answer, DeviceError> {
        let identity = tour_identity(SIDE as u8, 4);
        let idle = Response::Progress { searching: false, counters: Counters::default() };
        let solve = std::iter::once(Response::Ack { command: code::SOLVE }).chain(answer).collect();
        let aborted = vec![done(code::STATUS_ABORTED, 0)];
        let script = Scripted::new(vec![vec![Response::Identity(identity)], vec![idle], solve, aborted]);
        let mut device = LinkedDevice::connect("board", script, Duration::from_millis(200))?;
        device.set_split(Some(split));
        run(&mut device, query(wanted), &mut |_, _| Flow::Continue)
    }

    #[test]
    fn an_honest_device_is_believed() {
        let tours = true_tours();
        let answer =
            run_against(0, 2, vec![tour(1, 0, &tours[0]), tour(2, 0, &tours[1]), done(code::STATUS_FOUND, 2)]).unwrap();
        assert_eq!((answer.tours.len(), answer.tour_count, answer.status), (2, 2, Status::Found));
    }

    #[test]
    fn a_tour_that_breaks_the_rules_is_refused() {
        let mut broken = true_tours()[1].clone();
        broken.swap(3, 4);
        let error = run_against(0, 2, vec![tour(1, 0, &true_tours()[0]), tour(2, 0, &broken)]).unwrap_err();
        assert!(matches!(error, DeviceError::Invalid(ValidationError::InvalidTour { number: 2, .. })), "{error}");
        let short = &true_tours()[0][..24];
        let error = run_against(0, 1, vec![tour(1, 0, short)]).unwrap_err();
        assert!(matches!(error, DeviceError::Invalid(ValidationError::InvalidTour { number: 1, .. })), "{error}");
    }

    #[test]
    fn a_tour_sent_twice_is_refused() {
        let first = &true_tours()[0];
        let error = run_against(0, 2, vec![tour(1, 0, first), tour(2, 0, first)]).unwrap_err();
        assert!(matches!(error, DeviceError::Invalid(ValidationError::DuplicateTour { number: 2 })), "{error}");
    }

    #[test]
    fn a_gap_in_the_sequence_numbers_is_refused() {
        let tours = true_tours();
        let error = run_against(0, 2, vec![tour(1, 0, &tours[0]), tour(3, 0, &tours[1])]).unwrap_err();
        assert!(matches!(error, DeviceError::Link(LinkError::ResultsLost { number: 2, sequence: 3, .. })), "{error}");
    }

    #[test]
    fn a_tour_outside_its_jobs_path_is_refused() {
        // Split at level 1, a job is a path of two squares: two tours of the
        // same job must share them.
        let tours = true_tours();
        let other = tours.iter().find(|t| t[1] != tours[0][1]).expect("tours from a1 go two ways");
        let error = run_against(1, 2, vec![tour(1, 5, &tours[0]), tour(2, 5, other)]).unwrap_err();
        assert!(matches!(error, DeviceError::Link(LinkError::MixedStreams { number: 2, .. })), "{error}");
    }

    #[test]
    fn a_done_that_disagrees_with_the_tours_sent_is_refused() {
        let tours = true_tours();
        let error = run_against(0, 3, vec![tour(1, 0, &tours[0]), tour(2, 0, &tours[1]), done(code::STATUS_FOUND, 3)])
            .unwrap_err();
        assert!(
            matches!(error, DeviceError::Invalid(ValidationError::Missing { reported: 3, sent: 2, .. })),
            "{error}"
        );
    }

    #[test]
    fn an_unknown_status_is_refused() {
        let error = run_against(0, 1, vec![tour(1, 0, &true_tours()[0]), done(9, 1)]).unwrap_err();
        assert!(matches!(error, DeviceError::Link(LinkError::UnknownStatus { status: 9, .. })), "{error}");
    }

    #[test]
    fn a_device_that_goes_quiet_times_out() {
        let error = run_against(0, 2, vec![tour(1, 0, &true_tours()[0])]).unwrap_err();
        assert!(matches!(error, DeviceError::Link(LinkError::Timeout { .. })), "{error}");
    }
}
