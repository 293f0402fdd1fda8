//! `knights bench`: the CPU reference search (one core and all cores) and the
//! simulated accelerator on the same fixed searches, in one run, plus the
//! time each built board would take: its own build simulated as built (its
//! engine kind, engines and largest board), the exact cycle count at the
//! clock its build report gives.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Result};
use serde::Serialize;

use knights_model::tours::{MoveOrder, SearchSpec};
use knights_model::{BoardSize, Flow, Goal, Square};

use super::device::TourDevice;
use super::query::{self, Query};
use crate::device::CpuDevice;
use crate::fpga::build_report::BuildReport;
use crate::link::transport::Transport;
use crate::link::LinkedDevice;

/// A search the bench runs everywhere.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub spec: SearchSpec,
    pub goal: Goal,
    /// Also count the unpruned tree on the CPU (for pruning's cut); off where
    /// that takes minutes.
    pub unpruned: bool,
}

/// The issue's searches, pruned as by default: the first open 8x8 tour from
/// a1, the 5x5 count from a1, the closed 6x6 count from a1, and Warnsdorff's
/// first tour from a1 on each of `largest` (the largest boards the devices
/// take).
pub fn standard_cases(largest: &[BoardSize]) -> Vec<Case> {
    let a1 = Square::new(0, 0);
    let spec = |board, closed, order| SearchSpec { board, start: a1, closed, order, prune: true };
    [
        Case {
            name: "first tour 8x8".into(),
            spec: spec(BoardSize::square(8), false, MoveOrder::Fixed),
            goal: Goal::First(1),
            unpruned: true,
        },
        Case {
            name: "count 5x5".into(),
            spec: spec(BoardSize::square(5), false, MoveOrder::Fixed),
            goal: Goal::CountAll,
            unpruned: true,
        },
        Case {
            name: "count closed 6x6".into(),
            spec: spec(BoardSize::square(6), true, MoveOrder::Fixed),
            goal: Goal::CountAll,
            // 19,431,824,959 nodes: `cargo test --release -- --ignored`.
            unpruned: false,
        },
    ]
    .into_iter()
    .chain(largest.iter().map(|&board| Case {
        name: format!("Warnsdorff {board}"),
        spec: spec(board, false, MoveOrder::Warnsdorff),
        goal: Goal::First(1),
        unpruned: true,
    }))
    .collect()
}

/// The CPU reference on some threads: the fastest of several runs.
#[derive(Clone, Debug, Serialize)]
pub struct CpuFigure {
    pub threads: usize,
    pub nodes: u64,
    pub tours: u64,
    pub seconds: f64,
    pub nodes_per_second: f64,
    pub runs: usize,
}

/// The simulated accelerator on some of its engines.
#[derive(Clone, Debug, Serialize)]
pub struct SimFigure {
    pub engines: u8,
    pub split_level: u8,
    pub nodes: u64,
    pub tours: u64,
    /// Search cycles: clocks in which any engine searched.
    pub cycles: u64,
    /// Clocks each engine searched, summed.
    pub engine_cycles: u64,
    /// Per engine: `engine_cycles / nodes`.
    pub cycles_per_node: f64,
    /// Mean engine search time over the longest: `engine_cycles / (engines * cycles)`.
    pub load_balance: f64,
    /// Bytes that crossed the link, both ways: the command, progress
    /// reports, the answer.
    pub link_bytes: u64,
    /// Wall time of the simulation itself.
    pub simulation_seconds: f64,
}

/// A built board's time for the case: its own build's simulated cycles at
/// its clock.
#[derive(Clone, Debug, Serialize)]
pub struct BoardFigure {
    pub board: String,
    /// The engine kind (`wide`, `compact`) and the largest board.
    pub engine: String,
    pub max_board: String,
    pub engines: u16,
    pub clock_hz: u64,
    pub fmax_mhz: f64,
    pub logic_cells: u64,
    /// Per engine: its search clocks over the nodes.
    pub cycles_per_node: f64,
    pub split_level: u8,
    pub cycles: u64,
    pub nodes: u64,
    /// The search's time: its cycles at the build's clock.
    pub seconds: f64,
    /// What the UART adds at the build's baud rate: the link's bytes, ten
    /// bits each (the search's time and this are the time from the
    /// command to the answer).
    pub link_seconds: f64,
    pub baud: u64,
    pub nodes_per_second: f64,
    /// CPU time over board time, the search's (one core, all cores).
    pub speedup_one_core: f64,
    pub speedup_all_cores: f64,
}

#[derive(Clone, Debug, Serialize)]
pub struct CaseResult {
    pub case: String,
    pub board: String,
    pub start: String,
    pub closed: bool,
    pub order: MoveOrder,
    pub prune: bool,
    pub mode: &'static str,
    pub tours: u64,
    pub nodes: u64,
    /// Nodes of the same search without pruning (CPU), when run.
    pub unpruned_nodes: Option<u64>,
    pub cpu_one_core: CpuFigure,
    pub cpu_all_cores: CpuFigure,
    /// Engine 0 alone, then every engine of the simulated build.
    pub simulated: Vec<SimFigure>,
    pub boards: Vec<BoardFigure>,
}

/// Runs `case` on the CPU with `threads` threads, repeating short runs (up
/// to twenty, within about a second) and keeping the fastest.
pub fn cpu(case: &Case, threads: usize) -> Result<CpuFigure> {
    let mut device = CpuDevice { threads };
    let mut best = Duration::MAX;
    let mut spent = Duration::ZERO;
    let mut runs = 0;
    let mut answer = None;
    while runs == 0 || (runs < 20 && spent < Duration::from_secs(1)) {
        let run = query::run(&mut device, Query { spec: case.spec, goal: case.goal }, &mut |_, _| Flow::Continue)?;
        best = best.min(run.elapsed);
        spent += run.elapsed;
        runs += 1;
        answer = Some(run);
    }
    let answer = answer.expect("ran at least once");
    let seconds = best.as_secs_f64();
    Ok(CpuFigure {
        threads,
        nodes: answer.nodes,
        tours: answer.tour_count,
        seconds,
        nodes_per_second: answer.nodes as f64 / seconds,
        runs,
    })
}

/// Runs `case` on the first `engines` engines of the simulated board (one
/// engine: split level 0, the reference's own order).
pub fn simulate<T: Transport>(device: &mut LinkedDevice<T>, case: &Case, engines: u8) -> Result<SimFigure> {
    device.set_engines(Some(engines))?;
    device.set_split(if engines == 1 { Some(0) } else { None });
    let started = Instant::now();
    let answer = query::run(device, Query { spec: case.spec, goal: case.goal }, &mut |_, _| Flow::Continue);
    device.set_engines(None)?;
    device.set_split(None);
    let answer = answer?;
    let simulation_seconds = started.elapsed().as_secs_f64();
    let (Some(cycles), Some(figures)) = (answer.cycles, answer.engines) else {
        bail!("the {} device reports no cycle counts", answer.device)
    };
    Ok(SimFigure {
        engines: figures.engines,
        split_level: figures.split_level,
        nodes: answer.nodes,
        tours: answer.tour_count,
        cycles,
        engine_cycles: figures.engine_cycles,
        cycles_per_node: figures.engine_cycles as f64 / answer.nodes.max(1) as f64,
        load_balance: figures.load_balance(cycles),
        link_bytes: answer.link.map_or(0, |l| l.bytes_sent + l.bytes_received),
        simulation_seconds,
    })
}

/// A built board and its own build, simulated.
pub struct BoardSim<T: Transport> {
    pub report: BuildReport,
    pub device: LinkedDevice<T>,
}

/// Runs every case: CPU, simulation (engine 0 alone and all engines of the
/// default simulated board), and each built board's own build, simulated.
pub fn run<T: Transport, B: Transport>(
    device: &mut LinkedDevice<T>,
    cases: &[Case],
    boards: &mut [BoardSim<B>],
    log: &mut dyn FnMut(&str),
) -> Result<Vec<CaseResult>> {
    let all_cores = CpuDevice::all_cores().threads;
    let sim_engines = device.identity().engines;
    let mut results = Vec::new();
    for case in cases {
        log(&format!("{}: CPU", case.name));
        let cpu_one_core = cpu(case, 1)?;
        let cpu_all_cores = cpu(case, all_cores)?;
        let unpruned_nodes = if case.unpruned {
            let unpruned = Case { spec: SearchSpec { prune: false, ..case.spec }, ..case.clone() };
            Some(cpu(&unpruned, all_cores)?.nodes)
        } else {
            None
        };
        let check = |what: &str, figure: &SimFigure| {
            ensure!(
                case.goal != Goal::CountAll || (figure.nodes, figure.tours) == (cpu_one_core.nodes, cpu_one_core.tours),
                "{}: {what} found {} tours in {} nodes, the CPU {} in {}",
                case.name,
                figure.tours,
                figure.nodes,
                cpu_one_core.tours,
                cpu_one_core.nodes
            );
            Ok(())
        };
        let mut simulated = Vec::new();
        if device.max_board().contains_size(case.spec.board) {
            for engines in [1, sim_engines] {
                log(&format!("{}: simulating {engines} engine(s)", case.name));
                let figure = simulate(device, case, engines)?;
                check("the simulation", &figure)?;
                simulated.push(figure);
            }
            simulated.dedup_by_key(|s| s.engines);
        }
        let mut board_figures = Vec::new();
        for board in boards.iter_mut() {
            let build = &board.report;
            let fits = BoardSize::new(build.design.max_width, build.design.max_height).contains_size(case.spec.board)
                && (build.design.features.warnsdorff || case.spec.order != MoveOrder::Warnsdorff);
            if !fits {
                continue;
            }
            log(&format!("{}: simulating {}'s build", case.name, build.board));
            let sim = simulate(&mut board.device, case, build.design.engines as u8)?;
            check(&format!("{}'s build", build.board), &sim)?;
            let seconds = sim.cycles as f64 / build.design.clock_hz as f64;
            board_figures.push(BoardFigure {
                board: build.board.clone(),
                engine: build.design.kind.to_string(),
                max_board: BoardSize::new(build.design.max_width, build.design.max_height).to_string(),
                engines: build.design.engines,
                clock_hz: build.design.clock_hz,
                fmax_mhz: build.fmax_mhz,
                logic_cells: build.logic_cells.used,
                cycles_per_node: sim.cycles_per_node,
                split_level: sim.split_level,
                cycles: sim.cycles,
                nodes: sim.nodes,
                seconds,
                link_seconds: crate::fpga::build_report::uart_seconds(sim.link_bytes, build.design.baud),
                baud: build.design.baud,
                nodes_per_second: sim.nodes as f64 / seconds,
                speedup_one_core: cpu_one_core.seconds / seconds,
                speedup_all_cores: cpu_all_cores.seconds / seconds,
            });
        }
        results.push(CaseResult {
            case: case.name.clone(),
            board: case.spec.board.to_string(),
            start: case.spec.start.to_string(),
            closed: case.spec.closed,
            order: case.spec.order,
            prune: case.spec.prune,
            mode: if case.goal == Goal::CountAll { "count" } else { "first" },
            tours: cpu_one_core.tours,
            nodes: cpu_one_core.nodes,
            unpruned_nodes,
            cpu_one_core,
            cpu_all_cores,
            simulated,
            boards: board_figures,
        });
    }
    Ok(results)
}

fn plural(n: u64, word: &str) -> String {
    format!("{n} {word}{}", if n == 1 { "" } else { "s" })
}

/// The results as a plain-text report.
pub fn text(results: &[CaseResult]) -> String {
    let mut out = String::new();
    if cfg!(debug_assertions) {
        out.push_str("(a debug build: the CPU figures are slow; run `cargo run --release -- bench`)\n");
    }
    for r in results {
        let kind = if r.closed { "closed" } else { "open" };
        let what = if r.mode == "count" { "count" } else { "first tour" };
        write!(out, "{} ({what}, {kind}, {} from {}, {} order", r.case, r.board, r.start, r.order).unwrap();
        writeln!(out, "{}): {}, {} nodes", if r.prune { ", pruned" } else { "" }, plural(r.tours, "tour"), r.nodes)
            .unwrap();
        match r.unpruned_nodes {
            Some(n) => writeln!(out, "  without pruning: {n} nodes ({:.0}x more)", n as f64 / r.nodes as f64),
            None => writeln!(out, "  without pruning: not run here (minutes on the CPU)"),
        }
        .unwrap();
        for cpu in [&r.cpu_one_core, &r.cpu_all_cores] {
            writeln!(
                out,
                "  cpu, {:<12} {:>12} nodes {:>10.6} s {:>8.1} M nodes/s (fastest of {})",
                plural(cpu.threads as u64, "thread"),
                cpu.nodes,
                cpu.seconds,
                cpu.nodes_per_second / 1e6,
                cpu.runs
            )
            .unwrap();
        }
        for sim in &r.simulated {
            writeln!(
                out,
                "  sim, {:<12} {:>12} nodes {:>10} cycles, {:.4} cycles/node per engine, load balance {:.1}% \
                 (split level {})",
                plural(u64::from(sim.engines), "engine"),
                sim.nodes,
                sim.cycles,
                sim.cycles_per_node,
                100.0 * sim.load_balance,
                sim.split_level
            )
            .unwrap();
        }
        for b in &r.boards {
            writeln!(
                out,
                "  {:<17} {:>12} nodes {:>10.6} s {:>8.1} M nodes/s = {:.2}x one core, {:.2}x all cores \
                 (the UART adds {:.4} s at {} baud; {} {} up to {}, {:.2} cycles/node per engine, {} logic cells, \
                 at {} MHz, Fmax {:.2})",
                b.board,
                b.nodes,
                b.seconds,
                b.nodes_per_second / 1e6,
                b.speedup_one_core,
                b.speedup_all_cores,
                b.link_seconds,
                b.baud,
                plural(u64::from(b.engines), "engine"),
                b.engine,
                b.max_board,
                b.cycles_per_node,
                b.logic_cells,
                b.clock_hz as f64 / 1e6,
                b.fmax_mhz
            )
            .unwrap();
        }
    }
    out
}

/// The results as an SVG bar chart: per case, the time of each CPU run and
/// each modeled board, as bars relative to one CPU core (longer is faster).
pub fn svg(results: &[CaseResult]) -> String {
    const BAR: f64 = 16.0;
    const GAP: f64 = 4.0;
    const LABEL: f64 = 190.0;
    const WIDTH: f64 = 420.0;
    let rows: usize = results.iter().map(|r| 2 + r.boards.len()).sum();
    let height = 30.0 + results.len() as f64 * 34.0 + rows as f64 * (BAR + GAP);
    let mut out = String::new();
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{height}" font-family="sans-serif" font-size="12">"#,
        LABEL + WIDTH + 120.0
    )
    .unwrap();
    writeln!(
        out,
        r#"<text x="4" y="16" font-weight="bold">Speed-up over one CPU core (log scale; 1x at the line)</text>"#
    )
    .unwrap();
    // log10 scale from 0.1x to 1000x.
    let scale = |ratio: f64| ((ratio.max(0.1).log10() + 1.0) / 4.0 * WIDTH).max(1.0);
    let one = LABEL + scale(1.0);
    let mut y = 30.0;
    for r in results {
        y += 22.0;
        writeln!(out, r#"<text x="4" y="{y}" font-weight="bold">{} ({} nodes)</text>"#, r.case, r.nodes).unwrap();
        y += 12.0;
        let mut bars = vec![
            (format!("CPU, {}", plural(r.cpu_one_core.threads as u64, "thread")), 1.0, "#888"),
            (
                format!("CPU, {}", plural(r.cpu_all_cores.threads as u64, "thread")),
                r.cpu_one_core.seconds / r.cpu_all_cores.seconds,
                "#555",
            ),
        ];
        for b in &r.boards {
            bars.push((format!("{}, {}", b.board, plural(u64::from(b.engines), "engine")), b.speedup_one_core, "#2a7"));
        }
        for (label, ratio, colour) in bars {
            writeln!(out, r#"<text x="4" y="{}">{label}</text>"#, y + BAR - 4.0).unwrap();
            writeln!(out, r#"<rect x="{LABEL}" y="{y}" width="{:.1}" height="{BAR}" fill="{colour}"/>"#, scale(ratio))
                .unwrap();
            writeln!(out, r#"<text x="{:.1}" y="{}">{ratio:.2}x</text>"#, LABEL + scale(ratio) + 4.0, y + BAR - 4.0)
                .unwrap();
            y += BAR + GAP;
        }
    }
    writeln!(out, r##"<line x1="{one}" y1="24" x2="{one}" y2="{y}" stroke="#000" stroke-dasharray="3,3"/>"##).unwrap();
    out.push_str("</svg>\n");
    out
}
