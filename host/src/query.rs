//! A search request as the user states it, checked against the device, run,
//! and answered with validated results.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use crate::board::Square;
use crate::device::{Device, EngineFigures, Sink};
use crate::error::DeviceError;
use crate::link::LinkFigures;
use crate::search::{Flow, Goal, SearchSpec, Status};
use crate::validate::check_tour;

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
}

/// Checks that `query` makes sense on `device` (every error is one for which
/// [`DeviceError::is_bad_request`] holds).
pub fn check_query(device: &dyn Device, query: &Query) -> Result<(), DeviceError> {
    let spec = &query.spec;
    let max = device.max_board();
    if !max.contains_size(spec.board) {
        return Err(DeviceError::BoardTooLarge { board: spec.board, device: device.name(), max });
    }
    if !spec.board.contains(spec.start) {
        return Err(DeviceError::StartOffBoard { start: spec.start, board: spec.board });
    }
    if query.goal == Goal::First(0) {
        return Err(DeviceError::NoTours);
    }
    Ok(())
}

/// Runs `query` on `device`, validating every tour that comes back.
/// `progress` sees running totals and may stop the search.
pub fn run(
    device: &mut dyn Device,
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
    let outcome = report.outcome;
    if let Goal::First(_) = query.goal {
        if outcome.tours != collector.tours.len() as u64 {
            return Err(DeviceError::ToursMissing {
                device: device.name(),
                reported: outcome.tours,
                sent: collector.tours.len() as u64,
            });
        }
    }
    answer.tours = collector.tours;
    answer.tour_count = outcome.tours;
    answer.nodes = outcome.nodes;
    answer.status = outcome.status;
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

impl Sink for Collector<'_> {
    fn tour(&mut self, tour: &[Square]) -> Result<(), DeviceError> {
        let number = self.tours.len() + 1;
        check_tour(self.spec.board, self.spec.start, self.spec.closed, tour)
            .map_err(|e| DeviceError::InvalidTour { number, reason: format!("{e:#}") })?;
        if !self.seen.insert(tour.to_vec()) {
            return Err(DeviceError::DuplicateTour { number });
        }
        self.tours.push(tour.to_vec());
        Ok(())
    }

    fn progress(&mut self, nodes: u64, tours: u64) -> Flow {
        (self.progress)(nodes, tours)
    }
}
