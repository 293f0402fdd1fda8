//! A search request as the user states it, checked against the device, run,
//! and answered with validated results.

use std::collections::HashSet;
use std::fmt;
use std::time::{Duration, Instant};

use anyhow::{bail, Result};

use crate::board::Square;
use crate::device::{Device, EngineFigures, Sink};
use crate::link::LinkFigures;
use crate::search::{Flow, Goal, SearchSpec, Status};
use crate::validate::check_tour;

/// A request the user got wrong (as opposed to a failure while running it);
/// the CLI exits with status 2 for these.
#[derive(Debug)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

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

/// Checks that `query` makes sense on `device`, naming the valid range when not.
pub fn check_query(device: &dyn Device, query: &Query) -> Result<(), UsageError> {
    let spec = &query.spec;
    let max = device.max_board();
    if !max.contains_size(spec.board) {
        return Err(UsageError(format!(
            "board {} is larger than the {} device supports: each side must be 1 to {} files and 1 to {} ranks",
            spec.board,
            device.name(),
            max.width,
            max.height
        )));
    }
    if !spec.board.contains(spec.start) {
        let corner = Square::new(spec.board.width - 1, spec.board.height - 1);
        return Err(UsageError(format!(
            "start square {} is off the {} board: choose a square from a1 to {corner}",
            spec.start, spec.board
        )));
    }
    if query.goal == Goal::First(0) {
        return Err(UsageError("--limit must be at least 1".into()));
    }
    Ok(())
}

/// Runs `query` on `device`, validating every tour that comes back.
/// `progress` sees running totals and may stop the search.
pub fn run(device: &mut dyn Device, query: Query, progress: &mut dyn FnMut(u64, u64) -> Flow) -> Result<Answer> {
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
            bail!(
                "the {} device reported {} tours but sent {}: results were lost on the way",
                device.name(),
                outcome.tours,
                collector.tours.len()
            );
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
    fn tour(&mut self, tour: &[Square]) -> Result<()> {
        check_tour(self.spec.board, self.spec.start, self.spec.closed, tour)
            .map_err(|e| anyhow::anyhow!("the device returned an invalid tour (#{}): {e}", self.tours.len() + 1))?;
        if !self.seen.insert(tour.to_vec()) {
            bail!("the device returned tour #{} twice", self.tours.len() + 1);
        }
        self.tours.push(tour.to_vec());
        Ok(())
    }

    fn progress(&mut self, nodes: u64, tours: u64) -> Flow {
        (self.progress)(nodes, tours)
    }
}
