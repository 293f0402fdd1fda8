//! Knight's tours on a device: the [`TourDevice`] trait, and how the CPU
//! reference and a device over a link (the simulated board or a real one,
//! through SOLVE) run a search.

use knights_model::tours::moves::path_moves;
use knights_model::tours::parallel::{self, PrefixJobs};
use knights_model::tours::validate::check_tour;
use knights_model::tours::{Observer, Outcome, SearchSpec, Searcher};
use knights_model::{BoardSize, Flow, Goal, Square};

use crate::device::error::{Capability, DeviceError, RequestError};
use crate::device::{CpuDevice, Device, Problem, Report};
use crate::link::proto::{
    square_bytes as bytes_per_square, Command, Identity, MovePath, SolveRequest, MAX_PATH_MOVES, MAX_SPLIT_LEVEL,
};
use crate::link::transport::Transport;
use crate::link::{LinkedDevice, Results};
use knights_model::tours::MoveOrder;

/// Receives a device's tours while it runs.
pub trait TourSink {
    /// A tour as the device reported it; an error stops the search.
    fn tour(&mut self, tour: &[Square]) -> Result<(), DeviceError>;
    /// Running totals; returning [`Flow::Stop`] aborts the search.
    fn progress(&mut self, nodes: u64, tours: u64) -> Flow;
}

/// A device that searches knight's tours.
pub trait TourDevice: Device {
    /// The largest board this device searches (both sides at most these).
    fn max_board(&self) -> BoardSize;
    /// Runs one search. In first-K mode every tour goes to `sink`; in count
    /// mode a device may count without sending tours, but the tours it counts
    /// must have been validated where they were found.
    fn search(&mut self, spec: &SearchSpec, goal: Goal, sink: &mut dyn TourSink) -> Result<Report, DeviceError>;
    /// Counts the tours below a fixed starting path (a prefix job of a count
    /// cut by [`PrefixJobs`]): its report's nodes are the path's last square
    /// and the nodes below it. Boards take whole searches only.
    fn count_from(
        &mut self,
        _spec: &SearchSpec,
        _path: &[Square],
        _sink: &mut dyn TourSink,
    ) -> Result<Report, DeviceError> {
        Err(RequestError::NoPrefixJobs { device: self.name() }.into())
    }
}

impl Report {
    /// The report's counts as a tour search's outcome (the reference's
    /// form, for comparing the two).
    pub fn tour_outcome(&self) -> Outcome {
        Outcome { tours: self.found, nodes: self.nodes, status: self.status }
    }
}

impl TourDevice for CpuDevice {
    fn max_board(&self) -> BoardSize {
        BoardSize::square(Self::MAX_SIDE)
    }

    fn search(&mut self, spec: &SearchSpec, goal: Goal, sink: &mut dyn TourSink) -> Result<Report, DeviceError> {
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
        Ok(Report::counts(outcome.tours, outcome.nodes, outcome.status))
    }

    fn count_from(
        &mut self,
        spec: &SearchSpec,
        path: &[Square],
        sink: &mut dyn TourSink,
    ) -> Result<Report, DeviceError> {
        let mut relay = Relay { spec, goal: Goal::CountAll, sink, error: None };
        let searcher = Searcher::new(*spec).map_err(DeviceError::Reference)?;
        let outcome = searcher.run_from(path, Goal::CountAll, &mut relay).map_err(DeviceError::Reference)?;
        if let Some(error) = relay.error {
            return Err(error);
        }
        // The path's squares above its last are the nodes above the cut.
        Ok(Report::counts(outcome.tours, outcome.nodes - (path.len() as u64 - 1), outcome.status))
    }
}

/// Passes a single-threaded search's results to a sink: tours of a first-K
/// search go to the sink, tours of a count are validated and counted here.
struct Relay<'a> {
    spec: &'a SearchSpec,
    goal: Goal,
    sink: &'a mut dyn TourSink,
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

impl<T: Transport> TourDevice for LinkedDevice<T> {
    fn max_board(&self) -> BoardSize {
        BoardSize::new(u16::from(self.identity().max_width), u16::from(self.identity().max_height))
    }

    fn search(&mut self, spec: &SearchSpec, goal: Goal, sink: &mut dyn TourSink) -> Result<Report, DeviceError> {
        self.expect(Problem::Tours)?;
        let request = solve_request(self, spec, goal, &[spec.start])?;
        let square_bytes = square_bytes(self.identity());
        let mut tours = TourResults { sink, max_width: self.identity().max_width, square_bytes };
        // A tour of a job starts with the job's path: the split level's
        // squares and the start square.
        let prefix = (usize::from(request.split) + 1) * square_bytes;
        self.converse(Command::Solve(request), request.split, prefix, &mut tours)
    }

    /// Counts the tree below `path` on the device's engines (split below the
    /// path when it has several): the walker replays the path from the root.
    fn count_from(
        &mut self,
        spec: &SearchSpec,
        path: &[Square],
        sink: &mut dyn TourSink,
    ) -> Result<Report, DeviceError> {
        self.expect(Problem::Tours)?;
        let request = solve_request(self, spec, Goal::CountAll, path)?;
        let square_bytes = square_bytes(self.identity());
        let mut tours = TourResults { sink, max_width: self.identity().max_width, square_bytes };
        let prefix = path.len() * square_bytes;
        let mut report = self.converse(Command::Solve(request), request.split, prefix, &mut tours)?;
        // The device counts the path's squares; those above its last are the
        // nodes above the cut (as the CPU's count below a path says).
        report.nodes = report.nodes.saturating_sub(path.len() as u64 - 1);
        Ok(report)
    }
}

/// Jobs per engine (per search, on an interleaved engine) when a search is split: enough that the last jobs are
/// small, so that engines finish together, few enough that replaying jobs'
/// paths stays cheap. On the simulator's closed 6x6 count, twenty engines
/// took 43,663 cycles with jobs at level 11 (755 per engine), 49,000 at level
/// 10 (438) and 45,637 at level 12 (1,061); four engines were within 0.5%
/// from 361 to 2,191 per engine.
pub const JOBS_PER_ENGINE: usize = 640;

/// The level whose nodes become jobs, in the tree below `path` (the
/// start square alone: the whole tree): the shallowest with at least
/// [`JOBS_PER_ENGINE`] paths per engine while the tree still branches
/// ([`PrefixJobs::split_below_while_branching`]), or 0 on one search (an
/// interleaved engine alone runs five, so it splits);
/// or the level set by [`LinkedDevice::set_split`]. Level 0 also where no level
/// below the path qualifies.
fn split_level<T: Transport>(device: &LinkedDevice<T>, spec: &SearchSpec, path: &[Square]) -> u8 {
    let path_end = path.len() - 1;
    if let Some(level) = device.split() {
        // A level at or past the board's last has no jobs, nor has one
        // at or above the path's end: the device searches such a tree on
        // one engine, as level 0 asks.
        let jobs_below = usize::from(level) + 1 < spec.board.area() && usize::from(level) > path_end;
        return if jobs_below { level } else { 0 };
    }
    let searches = device.identity().searches(device.engines());
    if searches <= 1 {
        return 0;
    }
    let jobs = PrefixJobs::split_below_while_branching(spec, path, usize::from(searches) * JOBS_PER_ENGINE);
    let level = jobs.prefixes.first().map_or(0, |prefix| prefix.len() - 1).min(usize::from(MAX_SPLIT_LEVEL));
    if level > path_end {
        level as u8
    } else {
        0
    }
}

/// Bytes a square of a tour takes from a build.
fn square_bytes(identity: Identity) -> usize {
    bytes_per_square(usize::from(identity.max_width) * usize::from(identity.max_height))
}

/// SOLVE for a search below `path` (the start square alone: the whole
/// tree).
fn solve_request<T: Transport>(
    device: &LinkedDevice<T>,
    spec: &SearchSpec,
    goal: Goal,
    path: &[Square],
) -> Result<SolveRequest, DeviceError> {
    let byte = |value: u16| u8::try_from(value).map_err(|_| DeviceError::Request(RequestError::OutOfRange(value)));
    if spec.order == MoveOrder::Warnsdorff && !device.identity().warnsdorff {
        return Err(DeviceError::Request(RequestError::Unsupported(Capability::Warnsdorff)));
    }
    if spec.prune && !device.identity().prune {
        return Err(DeviceError::Request(RequestError::Unsupported(Capability::Pruning)));
    }
    if goal != Goal::CountAll && device.identity().interleaved {
        return Err(DeviceError::Request(RequestError::CountsOnly { device: device.describe() }));
    }
    let bad_path = |reason: String| DeviceError::Request(RequestError::BadPath { reason });
    Searcher::new(*spec).and_then(|s| s.check_prefix(path)).map_err(|e| bad_path(e.to_string()))?;
    if path.len() > 1 && path.len() >= spec.board.area() {
        return Err(bad_path(format!("it fills the {} board: there is no search below it", spec.board)));
    }
    let moves = path_moves(path).expect("checked: knight's moves");
    let path_moves = MovePath::new(&moves).ok_or_else(|| {
        bad_path(format!("it has {} moves, and a device takes at most {MAX_PATH_MOVES}", moves.len()))
    })?;
    let split = split_level(device, spec, path);
    if split > MAX_SPLIT_LEVEL {
        return Err(DeviceError::Request(RequestError::SplitTooDeep { level: split, max: MAX_SPLIT_LEVEL }));
    }
    Ok(SolveRequest {
        width: byte(spec.board.width)?,
        height: byte(spec.board.height)?,
        file: byte(spec.start.file)?,
        rank: byte(spec.start.rank)?,
        closed: spec.closed,
        warnsdorff: spec.order == MoveOrder::Warnsdorff,
        prune: spec.prune,
        count: goal == Goal::CountAll,
        limit: match goal {
            Goal::First(k) => u32::try_from(k).unwrap_or(0),
            Goal::CountAll => 0,
        },
        split,
        engines: device.engines_asked(),
        path: path_moves,
    })
}

/// Tours: squares numbered `rank * max_width + file`, a byte or two each
/// ([`square_bytes`]).
struct TourResults<'a> {
    sink: &'a mut dyn TourSink,
    max_width: u8,
    square_bytes: usize,
}

impl Results for TourResults<'_> {
    fn result(&mut self, items: &[u8]) -> Result<(), DeviceError> {
        let width = u16::from(self.max_width);
        let square = |bytes: &[u8]| bytes.iter().rev().fold(0u16, |number, &byte| number << 8 | u16::from(byte));
        let tour: Vec<Square> = items
            .chunks(self.square_bytes)
            .map(square)
            .map(|number| Square::new(number % width, number / width))
            .collect();
        self.sink.tour(&tour)
    }

    fn progress(&mut self, nodes: u64, results: u64) -> Flow {
        self.sink.progress(nodes, results)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;
    use crate::link::proto::{Counters, Response};
    use crate::link::transport::scripted::{tour_identity, Scripted};
    use knights_model::tours::TourList;

    /// A device behind a scripted link that answers the connection's
    /// IDENTIFY with `identity`, and its STATUS as idle.
    fn scripted(identity: Identity) -> LinkedDevice<Scripted> {
        let idle = Response::Progress { searching: false, counters: Counters::default() };
        let transport = Scripted::new(vec![vec![Response::Identity(identity)], vec![idle]]);
        LinkedDevice::connect("board", transport, Duration::from_secs(1)).unwrap()
    }

    #[test]
    fn a_build_without_warnsdorff_is_not_asked_for_it() {
        let identity = Identity { clock_hz: 28_125_000, warnsdorff: false, ..tour_identity(6, 18) };
        let device = scripted(identity);
        let spec = SearchSpec {
            board: BoardSize::new(6, 6),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Warnsdorff,
            prune: true,
        };
        let error = solve_request(&device, &spec, Goal::First(1), &[spec.start]).unwrap_err();
        assert!(matches!(error, DeviceError::Request(RequestError::Unsupported(Capability::Warnsdorff))), "{error}");
        assert!(solve_request(&device, &SearchSpec { order: MoveOrder::Fixed, ..spec }, Goal::First(1), &[spec.start])
            .is_ok());
    }

    /// One engine searches the whole tree, but one interleaved engine runs
    /// five searches, so its count is split into jobs for them.
    #[test]
    fn one_interleaved_engine_splits_a_count_and_one_plain_engine_does_not() {
        let plain = Identity { clock_hz: 62_500_000, baud: 3_000_000, ..tour_identity(8, 1) };
        let spec = SearchSpec {
            board: BoardSize::new(6, 6),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Fixed,
            prune: true,
        };
        let split = |identity| solve_request(&scripted(identity), &spec, Goal::CountAll, &[spec.start]).unwrap().split;
        assert_eq!(split(plain), 0);
        assert!(split(Identity { interleaved: true, ..plain }) > 0);
    }

    /// A count below a path sends the path's moves and splits below its end
    /// (or not at all); a path that is
    /// no knight's path from the start, fills the board or is longer than a
    /// device takes is refused before anything is sent.
    #[test]
    fn a_count_below_a_path_splits_below_it_and_bad_paths_are_refused() {
        let identity = Identity { baud: 3_000_000, ..tour_identity(8, 4) };
        let device = scripted(identity);
        let squares = |names: &str| -> Vec<Square> { names.split(' ').map(|s| s.parse().unwrap()).collect() };
        let spec = SearchSpec {
            board: BoardSize::new(6, 6),
            start: Square::new(0, 0),
            closed: false,
            order: MoveOrder::Fixed,
            prune: true,
        };
        let path = squares("a1 b3 d4");
        let request = solve_request(&device, &spec, Goal::CountAll, &path).unwrap();
        assert_eq!(request.path.moves(), &[0, 1]);
        assert!(request.split > 2, "split at {}, below the path's end", request.split);
        let whole = solve_request(&device, &spec, Goal::CountAll, &[spec.start]).unwrap();
        assert!(whole.split < request.split && whole.path.moves().is_empty());
        let five = SearchSpec { board: BoardSize::new(5, 5), ..spec };
        let deep = squares("a1 b3 a5 c4 e5 d3 e1 c2 a3 b1 d2 e4 c5 a4 b2 d1 e3 d5");
        let fifteen = solve_request(&device, &five, Goal::CountAll, &deep[..16]).unwrap();
        assert!(fifteen.split == 0 || fifteen.split > 15, "split at {}", fifteen.split);
        for (bad, why) in [
            (squares("b3 c5"), "start"),
            (squares("a1 c2 c4"), "knight"),
            (squares("a1 b3 a1"), "twice"),
            (deep.clone(), "16"),
        ] {
            let error = solve_request(&device, &five, Goal::CountAll, &bad).unwrap_err();
            assert!(
                matches!(error, DeviceError::Request(RequestError::BadPath { .. })) && error.to_string().contains(why),
                "{error}"
            );
        }
        let small = SearchSpec { board: BoardSize::new(4, 3), ..spec };
        let mut tours = TourList::default();
        Searcher::new(small).unwrap().run(Goal::First(1), &mut tours);
        let error = solve_request(&device, &small, Goal::CountAll, &tours.0[0]).unwrap_err();
        assert!(error.to_string().contains("fills"), "{error}");
        let one = SearchSpec { board: BoardSize::new(1, 1), ..spec };
        assert!(solve_request(&device, &one, Goal::CountAll, &[one.start]).is_ok(), "a whole search of one square");
    }
}
