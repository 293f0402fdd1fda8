//! `knights bench --queens`: N-Queens counts (with the mirror) on one CPU
//! core and on every core, the simulated solvers' cycles per node, and each
//! built N-Queens board's modeled time. One core also counts from
//! constellations (all eight symmetries), and so do the simulated solvers
//! and the boards built with the generator: their cycles per node are
//! measured and modeled the same way, the edges' ranks passed through and
//! the jobs' starts included (so on larger N, with larger jobs, an upper
//! bound too).
//!
//! A solver runs two searches (each an engine), each a node every other
//! clock, but for the last two ranks' nodes, which it counts without
//! stepping on them. A board's time is modeled from its searches, its clock,
//! the nodes stepped on (all but the last two ranks') and the cycles per
//! such node per search measured in simulation (on the simulated build's
//! largest N, 12, with its four searches): on larger N the jobs are larger,
//! so that figure is an upper bound there; the spread of the last jobs over
//! more searches is not modeled.

use std::fmt::Write;
use std::time::Instant;

use anyhow::{ensure, Result};
use serde::Serialize;

use knights_model::queens::{constellations, count_plan, QueensSearch};
use knights_model::{Flow, Goal};

use super::device::QueensDevice;
use super::query::{self, QueensAnswer, QueensQuery};
use crate::device::error::{DeviceError, RequestError};
use crate::device::CpuDevice;
use crate::fpga::build_report::{BuildReport, QUEENS_SEARCHES_PER_SOLVER};
use crate::fpga::EngineKind;

/// The CPU's time for one count.
#[derive(Clone, Debug, Serialize)]
pub struct CpuQueens {
    pub threads: usize,
    pub seconds: f64,
    pub nodes_per_second: f64,
}

/// One core's count from constellations.
#[derive(Clone, Debug, Serialize)]
pub struct CpuConstellations {
    /// Canonical constellations searched.
    pub constellations: usize,
    /// Nodes between the edges' queens, all searches.
    pub nodes: u64,
    pub seconds: f64,
}

/// The simulated solvers' figures for one count.
#[derive(Clone, Debug, Serialize)]
pub struct SimQueens {
    /// Searches (engines), two to a solver.
    pub searches: u8,
    pub cycles: u64,
    /// Cycles each search ran, summed, per node (2 at best).
    pub cycles_per_node_per_search: f64,
    /// The same per solver (1 at best: a queen every clock).
    pub cycles_per_node_per_solver: f64,
    /// Counting from constellations (when the build has the generator):
    /// cycles per node (between the edges) per solver.
    pub constellations_cycles_per_node_per_solver: Option<f64>,
}

/// A built board's modeled time for one count.
#[derive(Clone, Debug, Serialize)]
pub struct BoardQueens {
    pub board: String,
    /// Searches (engines), two to a solver.
    pub searches: u16,
    pub clock_hz: u64,
    pub fmax_mhz: f64,
    pub seconds: f64,
    pub speedup_one_core: f64,
    /// The link's time at the build's rate: the bytes of the largest count
    /// simulated (the command, its progress frames, the answer; a count's
    /// frames do not grow with N), added to `seconds` in `speedup_one_core`.
    pub link_seconds: f64,
    /// From constellations (a build with the generator), and against one
    /// core counting from constellations.
    pub constellations_seconds: Option<f64>,
    pub constellations_speedup_one_core: Option<f64>,
}

/// One N.
#[derive(Clone, Debug, Serialize)]
pub struct QueensRow {
    pub n: u8,
    pub solutions: u64,
    /// Nodes of the mirror-reduced search, and those the solvers step on
    /// (all but the last two ranks').
    pub nodes: u64,
    pub stepped_nodes: u64,
    pub cpu_one_core: CpuQueens,
    pub cpu_all_cores: CpuQueens,
    pub cpu_constellations: CpuConstellations,
    /// On the simulated build, for the N it takes.
    pub simulated: Option<SimQueens>,
    pub boards: Vec<BoardQueens>,
}

/// The nodes of the mirror-reduced count of N that a solver steps on: all
/// but those of the last two ranks (on boards of three ranks or more).
fn stepped_nodes(n: u8) -> Result<u64> {
    let counted_at_once = if n >= 3 { 2 } else { 0 };
    let mut stepped = 0;
    for part in count_plan(n, true)? {
        let by_rank = QueensSearch::new(part.spec).nodes_by_rank();
        stepped += by_rank[..by_rank.len() - counted_at_once].iter().sum::<u64>();
    }
    Ok(stepped)
}

fn count(device: &mut dyn QueensDevice, n: u8) -> Result<QueensAnswer> {
    let query = QueensQuery { n, goal: Goal::CountAll, mirror: true, constellations: false, unique: false };
    Ok(query::run(device, query, &mut |_, _| Flow::Continue)?)
}

/// Counts N from constellations on the simulated build, if it can; the
/// counts must be the reference's.
fn sim_constellations(
    sim: &mut dyn QueensDevice,
    n: u8,
    reference: &CpuConstellations,
    solutions: u64,
) -> Result<Option<f64>> {
    let query = QueensQuery { n, goal: Goal::CountAll, mirror: true, constellations: true, unique: false };
    let answer = match query::run(sim, query, &mut |_, _| Flow::Continue) {
        Err(
            DeviceError::Request(RequestError::NoConstellations { .. })
            | DeviceError::Request(RequestError::ConstellationsCountOnly { .. }),
        ) => return Ok(None),
        other => other?,
    };
    ensure!(
        (answer.solution_count, answer.nodes) == (solutions, reference.nodes),
        "{n}-queens from constellations: the simulation found {} solutions in {} nodes, the CPU {solutions} in {}",
        answer.solution_count,
        answer.nodes,
        reference.nodes
    );
    let engines = answer.engines.expect("a simulated device reports its engines");
    Ok(Some(engines.engine_cycles as f64 / answer.nodes.max(1) as f64))
}

/// Counts N from constellations on one core; the count must be the mirror's.
fn cpu_constellations(n: u8, solutions: u64) -> Result<CpuConstellations> {
    let started = Instant::now();
    let classes = constellations::constellations(n)?;
    let outcome = constellations::count_classes(n, &classes, 1);
    let seconds = started.elapsed().as_secs_f64();
    ensure!(
        outcome.solutions == solutions,
        "{n}-queens: constellations counted {} solutions, the mirror {solutions}",
        outcome.solutions
    );
    Ok(CpuConstellations { constellations: classes.len(), nodes: outcome.nodes, seconds })
}

fn cpu(n: u8, threads: usize) -> Result<(QueensAnswer, CpuQueens)> {
    let started = Instant::now();
    let answer = count(&mut CpuDevice { threads }, n)?;
    let seconds = started.elapsed().as_secs_f64();
    let nodes_per_second = answer.nodes as f64 / seconds;
    Ok((answer, CpuQueens { threads, seconds, nodes_per_second }))
}

/// Counts N = `ns` on the CPU, on `sim` (for the N it takes), and models
/// each N-Queens build in `builds`.
pub fn run(
    sim: &mut dyn QueensDevice,
    ns: std::ops::RangeInclusive<u8>,
    builds: &[BuildReport],
    log: &mut dyn FnMut(&str),
) -> Result<Vec<QueensRow>> {
    let all_cores = CpuDevice::all_cores().threads;
    let builds: Vec<&BuildReport> = builds.iter().filter(|b| b.design.kind == EngineKind::Queens).collect();
    // Cycles per node stepped on per search, from the largest N simulated;
    // the same per node between the edges, counting from constellations.
    let mut per_search_figure = None;
    let mut constellations_figure = None;
    let mut count_link_bytes = 0;
    let mut rows = Vec::new();
    for n in ns {
        log(&format!("{n}-queens: CPU, one core and {all_cores}"));
        let (answer, cpu_one_core) = cpu(n, 1)?;
        let (_, cpu_all_cores) = cpu(n, all_cores)?;
        let cpu_constellations = cpu_constellations(n, answer.solution_count)?;
        let stepped_nodes = stepped_nodes(n)?;
        let simulated = if n <= sim.max_queens() {
            log(&format!("{n}-queens: simulating"));
            let on_sim = count(sim, n)?;
            ensure!(
                (on_sim.solution_count, on_sim.nodes) == (answer.solution_count, answer.nodes),
                "{n}-queens: the simulation found {} solutions in {} nodes, the CPU {} in {}",
                on_sim.solution_count,
                on_sim.nodes,
                answer.solution_count,
                answer.nodes
            );
            let engines = on_sim.engines.expect("a simulated device reports its engines");
            let per_search = engines.engine_cycles as f64 / on_sim.nodes.max(1) as f64;
            count_link_bytes = on_sim.link.map_or(0, |l| l.bytes_sent + l.bytes_received);
            log(&format!("{n}-queens: simulating from constellations"));
            let from_constellations = sim_constellations(sim, n, &cpu_constellations, answer.solution_count)?;
            constellations_figure = from_constellations.or(constellations_figure);
            let figure = SimQueens {
                searches: engines.engines,
                cycles: on_sim.cycles.unwrap_or(0),
                cycles_per_node_per_search: per_search,
                cycles_per_node_per_solver: per_search / f64::from(QUEENS_SEARCHES_PER_SOLVER),
                constellations_cycles_per_node_per_solver: from_constellations
                    .map(|cycles| cycles / f64::from(QUEENS_SEARCHES_PER_SOLVER)),
            };
            per_search_figure = Some(engines.engine_cycles as f64 / stepped_nodes.max(1) as f64);
            Some(figure)
        } else {
            None
        };
        let boards = builds
            .iter()
            .filter(|b| u16::from(n) <= b.design.max_width)
            .filter_map(|b| {
                let search_hz = f64::from(b.design.engines) * b.design.clock_hz as f64;
                let seconds = stepped_nodes as f64 * per_search_figure? / search_hz;
                let link_seconds = crate::fpga::build_report::uart_seconds(count_link_bytes, b.design.baud);
                let constellations_seconds = constellations_figure
                    .filter(|_| b.design.features.constellations)
                    .map(|cycles| cpu_constellations.nodes as f64 * cycles / search_hz);
                Some(BoardQueens {
                    board: b.board.clone(),
                    searches: b.design.engines,
                    clock_hz: b.design.clock_hz,
                    fmax_mhz: b.fmax_mhz,
                    seconds,
                    speedup_one_core: cpu_one_core.seconds / (seconds + link_seconds),
                    link_seconds,
                    constellations_seconds,
                    constellations_speedup_one_core: constellations_seconds
                        .map(|modeled| cpu_constellations.seconds / (modeled + link_seconds)),
                })
            })
            .collect();
        rows.push(QueensRow {
            n,
            solutions: answer.solution_count,
            nodes: answer.nodes,
            stepped_nodes,
            cpu_one_core,
            cpu_all_cores,
            cpu_constellations,
            simulated,
            boards,
        });
    }
    Ok(rows)
}

/// The rows as a table, then each board's modeled times.
pub fn text(rows: &[QueensRow]) -> String {
    let mut out = String::new();
    writeln!(
        out,
        "{:>3} {:>14} {:>16} {:>10} {:>12} {:>10} {:>26} {:>22} {:>26}",
        "N",
        "solutions",
        "nodes (mirror)",
        "1 core s",
        "M nodes/s",
        "all cores",
        "1 core, constellations s",
        "sim cycles/node/solver",
        "sim, constellations"
    )
    .unwrap();
    for row in rows {
        let sim = row
            .simulated
            .as_ref()
            .map_or("-".into(), |s| format!("{:.4} ({} searches)", s.cycles_per_node_per_solver, s.searches));
        let sim_constellations = row
            .simulated
            .as_ref()
            .and_then(|s| s.constellations_cycles_per_node_per_solver)
            .map_or("-".into(), |cycles| format!("{cycles:.4}"));
        writeln!(
            out,
            "{:>3} {:>14} {:>16} {:>10.3} {:>12.1} {:>10.3} {:>26} {:>22} {:>26}",
            row.n,
            row.solutions,
            row.nodes,
            row.cpu_one_core.seconds,
            row.cpu_one_core.nodes_per_second / 1e6,
            row.cpu_all_cores.seconds,
            format!("{:.3} ({} nodes)", row.cpu_constellations.seconds, row.cpu_constellations.nodes),
            sim,
            sim_constellations
        )
        .unwrap();
    }
    for row in rows {
        for board in &row.boards {
            write!(
                out,
                "{}-queens on {} ({} searches at {:.2} MHz, Fmax {:.2}): {:.4} s modeled and {:.4} s of link, {:.2}x one core",
                row.n,
                board.board,
                board.searches,
                board.clock_hz as f64 / 1e6,
                board.fmax_mhz,
                board.seconds,
                board.link_seconds,
                board.speedup_one_core
            )
            .unwrap();
            if let (Some(seconds), Some(speedup)) =
                (board.constellations_seconds, board.constellations_speedup_one_core)
            {
                write!(out, "; from constellations {seconds:.4} s, {speedup:.2}x one core from constellations")
                    .unwrap();
            }
            writeln!(out).unwrap();
        }
    }
    out
}
