//! A build's speed, measured: its design under Verilator on a workload
//! sized for it, the count node for node with the CPU reference's. Every
//! modeled speed (`knights build`'s summary, the build table) comes from
//! this, recorded in the build's report; none from a constant.
//!
//! The workload is a count every build takes: knight's tours, the open
//! 6×6 tours from a1 (5×5 on smaller builds), pruned, in the fixed order;
//! N-Queens, N = 12 (or the build's largest) the way the build counts: from
//! constellations when it has the generator, else one side of the mirror.
//! Each is large enough that its jobs keep every engine of the largest
//! builds busy, and small enough to simulate in a minute or two.

use std::time::{Duration, SystemTime};

use anyhow::{ensure, Result};
use knights_model::tours::{MoveOrder, SearchSpec};
use knights_model::{BoardSize, Flow, Goal};

use crate::device::{CpuDevice, EngineFigures, LinkFigures};
use crate::fpga::build_report::Measured;
use crate::fpga::Design;
use crate::link::transport::Transport;
use crate::link::LinkedDevice;
use crate::queens::query::{self as queens_query, QueensQuery, MIN_CONSTELLATIONS_N};
use crate::tours::query::{self, Query};

/// The N-Queens workload's board, on builds that take it.
const QUEENS_N: u8 = 12;

/// The count that measures a build.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    Tours(Query),
    Queens(QueensQuery),
}

impl Workload {
    /// The workload for `design`'s build.
    pub fn for_design(design: &Design) -> Self {
        if design.kind.solves_queens() {
            let n = QUEENS_N.min(design.max_width.min(design.max_height) as u8);
            let constellations = design.features.constellations && n >= MIN_CONSTELLATIONS_N;
            return Workload::Queens(QueensQuery {
                n,
                goal: Goal::CountAll,
                mirror: true,
                constellations,
                unique: false,
            });
        }
        let side = |most: u16| if design.max_width >= 6 && design.max_height >= 6 { 6 } else { most.min(5) };
        let board = BoardSize::new(side(design.max_width), side(design.max_height));
        let start = "a1".parse().expect("a square");
        let spec = SearchSpec { board, start, closed: false, order: MoveOrder::Fixed, prune: true };
        Workload::Tours(Query { spec, goal: Goal::CountAll })
    }

    /// The command that runs it.
    pub fn command(&self) -> String {
        match self {
            Workload::Tours(q) => format!("knights count --size {} --start {}", q.spec.board, q.spec.start),
            Workload::Queens(q) if q.constellations => format!("knights queens -n {} --count --constellations", q.n),
            Workload::Queens(q) => format!("knights queens -n {} --count", q.n),
        }
    }
}

/// What a count gave: found, nodes, search cycles, engine cycles, link bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Figures {
    found: u64,
    nodes: u64,
    cycles: u64,
    engine_cycles: u64,
    link_bytes: u64,
}

/// Runs `design`'s workload on `device` (a simulated build of that design)
/// and on the CPU reference; the two must agree on what they found and on
/// every node, or there is no measurement.
pub fn measure<T: Transport>(device: &mut LinkedDevice<T>, design: &Design) -> Result<Measured> {
    let workload = Workload::for_design(design);
    let (seen, reference) = match workload {
        Workload::Tours(q) => (tours(device, q)?, tours(&mut CpuDevice::all_cores(), q)?),
        Workload::Queens(q) => (queens(device, q)?, queens(&mut CpuDevice::all_cores(), q)?),
    };
    agrees(&workload, &seen, &reference)?;
    Ok(Measured {
        workload: workload.command(),
        nodes: seen.nodes,
        cycles: seen.cycles,
        engine_cycles: seen.engine_cycles,
        link_bytes: seen.link_bytes,
        measured_on: format!(
            "{} by knights {}",
            humantime::format_rfc3339_seconds(SystemTime::now()),
            env!("CARGO_PKG_VERSION")
        ),
    })
}

/// The device's count is the reference's, found and nodes, and it counted
/// its cycles.
fn agrees(workload: &Workload, seen: &Figures, reference: &Figures) -> Result<()> {
    ensure!(
        (seen.found, seen.nodes) == (reference.found, reference.nodes),
        "`{}` on the simulated build found {} in {} nodes, the CPU reference {} in {}: the build is wrong, \
         so its speed is not measured",
        workload.command(),
        seen.found,
        seen.nodes,
        reference.found,
        reference.nodes
    );
    ensure!(seen.cycles > 0 && seen.engine_cycles > 0, "`{}`: the device counted no cycles", workload.command());
    Ok(())
}

impl Figures {
    /// A count's figures from what either problem's answer reports (no
    /// cycles or link from the CPU: zero).
    fn of(
        found: u64,
        nodes: u64,
        cycles: Option<u64>,
        engines: Option<EngineFigures>,
        link: Option<LinkFigures>,
    ) -> Self {
        let link = link.unwrap_or_default();
        Figures {
            found,
            nodes,
            cycles: cycles.unwrap_or(0),
            engine_cycles: engines.map_or(0, |e| e.engine_cycles),
            link_bytes: link.bytes_sent + link.bytes_received,
        }
    }
}

fn tours<D: crate::tours::TourDevice + ?Sized>(device: &mut D, q: Query) -> Result<Figures> {
    let a = query::run(device, q, &mut |_, _| Flow::Continue)?;
    Ok(Figures::of(a.tour_count, a.nodes, a.cycles, a.engines, a.link))
}

fn queens<D: crate::queens::QueensDevice + ?Sized>(device: &mut D, q: QueensQuery) -> Result<Figures> {
    let a = queens_query::run(device, q, &mut |_, _| Flow::Continue)?;
    Ok(Figures::of(a.solution_count, a.nodes, a.cycles, a.engines, a.link))
}

/// Seconds the simulator may stay silent while a large build runs the
/// workload (its progress comes every few million clocks).
pub const SILENCE: Duration = Duration::from_secs(600);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fpga::{EngineKind, Features};

    fn design(kind: EngineKind, side: u16, constellations: bool) -> Design {
        Design {
            kind,
            max_width: side,
            max_height: side,
            engines: 4,
            features: Features { warnsdorff: !kind.solves_queens(), constellations },
            clock_hz: 25_000_000,
            baud: 115_200,
            visited_in_block_ram: false,
        }
    }

    #[test]
    fn each_build_gets_a_count_it_takes() {
        let command = |kind, side, constellations| Workload::for_design(&design(kind, side, constellations)).command();
        assert_eq!(command(EngineKind::Compact, 32, false), "knights count --size 6x6 --start a1");
        assert_eq!(command(EngineKind::Wide, 8, false), "knights count --size 6x6 --start a1");
        assert_eq!(command(EngineKind::Wide, 5, false), "knights count --size 5x5 --start a1");
        assert_eq!(command(EngineKind::Queens, 17, true), "knights queens -n 12 --count --constellations");
        assert_eq!(command(EngineKind::Queens, 15, false), "knights queens -n 12 --count");
        assert_eq!(command(EngineKind::Queens, 8, false), "knights queens -n 8 --count");
    }

    /// A count that differs from the reference's, in what it found or in
    /// its nodes, or one without cycles, measures nothing.
    #[test]
    fn a_wrong_count_is_no_measurement() {
        let workload = Workload::for_design(&design(EngineKind::Wide, 5, false));
        let right = Figures { found: 304, nodes: 10_000, cycles: 3_000, engine_cycles: 9_000, link_bytes: 100 };
        assert!(agrees(&workload, &right, &right).is_ok());
        for wrong in [
            Figures { found: 303, ..right },
            Figures { nodes: 10_001, ..right },
            Figures { cycles: 0, ..right },
            Figures { engine_cycles: 0, ..right },
        ] {
            let error = agrees(&workload, &wrong, &right).unwrap_err().to_string();
            assert!(error.contains("knights count --size 5x5 --start a1"), "{error}");
        }
    }
}
