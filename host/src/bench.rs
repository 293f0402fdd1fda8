//! CPU benchmarks: nodes per second of the reference search on fixed counts,
//! on one core and on all cores, measured in the same run.

use std::time::Duration;

use anyhow::{ensure, Result};
use serde::Serialize;

use crate::board::{BoardSize, Square};
use crate::device::CpuDevice;
use crate::query::{self, Query};
use crate::search::{Flow, Goal, MoveOrder, SearchSpec};

/// A benchmark case: an exhaustive count with a known node total.
#[derive(Clone, Copy, Debug)]
pub struct Case {
    pub name: &'static str,
    pub spec: SearchSpec,
    /// Nodes the count must visit; a run that differs is an error, not a figure.
    pub nodes: u64,
    pub tours: u64,
}

/// The unpruned open counts from a1 on 5x5 and on 6x5 (6 files, 5 ranks).
pub fn standard_cases() -> Vec<Case> {
    let open_from_a1 =
        |board| SearchSpec { board, start: Square::new(0, 0), closed: false, order: MoveOrder::Fixed, prune: false };
    vec![
        Case { name: "count 5x5 a1", spec: open_from_a1(BoardSize::square(5)), nodes: 1_735_079, tours: 304 },
        Case { name: "count 6x5 a1", spec: open_from_a1(BoardSize::new(6, 5)), nodes: 98_742_288, tours: 4_542 },
    ]
}

#[derive(Clone, Debug, Serialize)]
pub struct Measurement {
    pub case: &'static str,
    pub threads: usize,
    pub nodes: u64,
    pub tours: u64,
    /// Fastest of `runs` runs.
    pub seconds: f64,
    pub runs: usize,
    pub nodes_per_second: f64,
}

/// Runs `case` on `threads` threads, repeating short runs (up to twenty, within
/// about a second) and keeping the fastest.
pub fn measure(case: &Case, threads: usize) -> Result<Measurement> {
    let mut device = CpuDevice { threads };
    let mut best = Duration::MAX;
    let mut spent = Duration::ZERO;
    let mut runs = 0;
    while runs == 0 || (runs < 20 && spent < Duration::from_secs(1)) {
        let answer =
            query::run(&mut device, Query { spec: case.spec, goal: Goal::CountAll }, &mut |_, _| Flow::Continue)?;
        ensure!(
            answer.nodes == case.nodes && answer.tour_count == case.tours,
            "{}: got {} tours and {} nodes, expected {} and {}",
            case.name,
            answer.tour_count,
            answer.nodes,
            case.tours,
            case.nodes
        );
        best = best.min(answer.elapsed);
        spent += answer.elapsed;
        runs += 1;
    }
    let seconds = best.as_secs_f64();
    Ok(Measurement {
        case: case.name,
        threads,
        nodes: case.nodes,
        tours: case.tours,
        seconds,
        runs,
        nodes_per_second: case.nodes as f64 / seconds,
    })
}
