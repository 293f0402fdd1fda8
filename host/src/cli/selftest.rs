//! `knights selftest`: the first contact with a flashed board (or a
//! simulated one). It connects (IDENTIFY), blinks the busy LED (searches
//! started and stopped), counts a small search and
//! compares it with the CPU reference node for node, streams the first
//! solutions on one engine and compares them with the reference's, and
//! prints each step's real time beside the time the device's clocks model,
//! so that the first run on a real board reports both.

use std::io::Write;
use std::time::{Duration, Instant};

use anyhow::Result;
use knights::device::{CpuDevice, Problem};
use knights::plan::AnyDevice;
use knights::queens::query::{self as queens_query, QueensQuery};
use knights::tours::query::{self as tours_query, Query};
use knights_model::tours::{MoveOrder, SearchSpec};
use knights_model::{BoardSize, Flow, Goal, Square, Status};

use super::args::DeviceArgs;

/// One step's outcome: what it showed, or why it failed.
type Step = std::result::Result<String, String>;

pub fn selftest(device_args: &DeviceArgs, queens: bool, out: &mut dyn Write) -> Result<()> {
    let problem = if queens { Problem::Queens } else { Problem::Tours };
    let started = Instant::now();
    let mut device = device_args.open_for(problem)?;
    let what = match problem {
        Problem::Tours => format!("knight's tours on boards up to {}", device.max_board()),
        Problem::Queens => format!("N-Queens up to N = {}", device.max_queens()),
    };
    // A flashed board's build, among this machine's.
    let build = match (device.name(), device.build_id()) {
        ("board", Some(id)) => format!("; {}", super::reports::which_build(id)),
        _ => String::new(),
    };
    let mut steps: Vec<(&str, Step)> = vec![(
        "identify",
        Ok(format!("{} answered in {:.2} s: {what}{build}", device.name(), started.elapsed().as_secs_f64())),
    )];
    // (A simulated board has no LEDs to watch: one blink shows the step.)
    let blinks = if device.name() == "sim" { 1 } else { BLINKS };
    steps.push(("blink", blink(device.as_mut(), problem, blinks)));
    let never_stop = &mut |_: u64, _: u64| Flow::Continue;
    let cpu = &mut CpuDevice { threads: 1 };
    match problem {
        Problem::Tours => {
            let spec = SearchSpec {
                board: BoardSize::square(5),
                start: Square::new(0, 0),
                closed: false,
                order: MoveOrder::Fixed,
                prune: true,
            };
            let count = Query { spec, goal: Goal::CountAll };
            let step = tours_query::run(device.as_mut(), count, never_stop).map_err(|e| e.to_string()).and_then(|a| {
                let reference = tours_query::run(cpu, count, never_stop).map_err(|e| e.to_string())?;
                let times = times(a.elapsed.as_secs_f64(), a.engine_seconds());
                if (a.tour_count, a.nodes) == (reference.tour_count, reference.nodes) {
                    Ok(format!("{} open 5x5 tours from a1 in {} nodes, as the CPU; {times}", a.tour_count, a.nodes))
                } else {
                    Err(format!(
                        "{} tours in {} nodes, but the CPU counts {} in {}",
                        a.tour_count, a.nodes, reference.tour_count, reference.nodes
                    ))
                }
            });
            steps.push(("count", step));
            // (A serial port opens once at a time.)
            drop(device);
            // The first tours in the reference's order: one engine.
            let one_engine = DeviceArgs { split_level: Some(0), ..device_args.clone() };
            let first = Query { spec: SearchSpec { board: BoardSize::square(6), ..spec }, goal: Goal::First(3) };
            let step = one_engine.open_for(problem).map_err(|e| e.to_string()).and_then(|mut device| {
                let a = tours_query::run(device.as_mut(), first, never_stop).map_err(|e| e.to_string())?;
                let reference = tours_query::run(cpu, first, never_stop).map_err(|e| e.to_string())?;
                let times = times(a.elapsed.as_secs_f64(), a.engine_seconds());
                if a.tours == reference.tours && a.tours.len() == 3 {
                    Ok(format!("the first 3 open 6x6 tours from a1, valid and in the CPU's order; {times}"))
                } else {
                    Err(format!("{} tours, not the CPU's first {}", a.tours.len(), reference.tours.len()))
                }
            });
            steps.push(("first-k", step));
        }
        Problem::Queens => {
            let count = QueensQuery { n: 8, goal: Goal::CountAll, mirror: true, constellations: false, unique: false };
            let step = queens_query::run(device.as_mut(), count, never_stop).map_err(|e| e.to_string()).and_then(|a| {
                let reference = queens_query::run(cpu, count, never_stop).map_err(|e| e.to_string())?;
                let times = times(a.elapsed.as_secs_f64(), a.engine_seconds());
                if (a.solution_count, a.nodes) == (reference.solution_count, reference.nodes) {
                    Ok(format!("{} solutions of 8 queens in {} nodes, as the CPU; {times}", a.solution_count, a.nodes))
                } else {
                    Err(format!(
                        "{} solutions in {} nodes, but the CPU counts {} in {}",
                        a.solution_count, a.nodes, reference.solution_count, reference.nodes
                    ))
                }
            });
            steps.push(("count", step));
            drop(device);
            // The first solutions in the reference's order: one search.
            let one_engine = DeviceArgs { split_level: Some(0), ..device_args.clone() };
            let first = QueensQuery { goal: Goal::First(3), mirror: false, ..count };
            let step = one_engine.open_for(problem).map_err(|e| e.to_string()).and_then(|mut device| {
                let a = queens_query::run(device.as_mut(), first, never_stop).map_err(|e| e.to_string())?;
                let reference = queens_query::run(cpu, first, never_stop).map_err(|e| e.to_string())?;
                if a.solutions == reference.solutions && a.solutions.len() == 3 {
                    Ok("the first 3 solutions of 8 queens, valid and in the CPU's order".to_string())
                } else {
                    Err(format!("{} solutions, not the CPU's first {}", a.solutions.len(), reference.solutions.len()))
                }
            });
            steps.push(("first-k", step));
        }
    }
    let mut failed = 0;
    for (name, step) in &steps {
        match step {
            Ok(said) => writeln!(out, "pass  {name}: {said}")?,
            Err(why) => {
                failed += 1;
                writeln!(out, "FAIL  {name}: {why}")?;
            }
        }
    }
    writeln!(out, "(the board's busy LED lights while it searches, its found LED when it has found one)")?;
    if failed > 0 {
        anyhow::bail!("{failed} of {} steps failed", steps.len());
    }
    Ok(())
}

/// Times a board's busy LED is lit by [`blink`].
const BLINKS: usize = 3;

/// Blinks the board's busy LED: `blinks` searches too large to finish
/// (every tour of the largest board without pruning; N-Queens of the largest
/// N, the whole board), each stopped at its first progress report (about
/// half a second on a board), with as long dark between. Each must come
/// back stopped or finished, the board idle again.
fn blink(device: &mut dyn AnyDevice, problem: Problem, blinks: usize) -> Step {
    let mut longest = Duration::ZERO;
    for _ in 0..blinks {
        let started = Instant::now();
        let stop_at_once = &mut |_: u64, _: u64| Flow::Stop;
        let status = match problem {
            Problem::Tours => {
                let spec = SearchSpec {
                    board: device.max_board(),
                    start: Square::new(0, 0),
                    closed: false,
                    order: MoveOrder::Fixed,
                    prune: false,
                };
                tours_query::run(device, Query { spec, goal: Goal::CountAll }, stop_at_once).map(|a| a.status)
            }
            Problem::Queens => {
                let n = device.max_queens();
                let query =
                    QueensQuery { n, goal: Goal::CountAll, mirror: false, constellations: false, unique: false };
                queens_query::run(device, query, stop_at_once).map(|a| a.status)
            }
        }
        .map_err(|e| e.to_string())?;
        if status == Status::Found {
            return Err(format!("a count came back {status:?}, neither stopped nor finished"));
        }
        let on = started.elapsed();
        longest = longest.max(on);
        std::thread::sleep(on.min(Duration::from_secs(1)));
    }
    Ok(format!(
        "the busy LED lit {blinks} time(s), each a search started and stopped (up to {:.2} s)",
        longest.as_secs_f64()
    ))
}

/// A step's real time beside the time its clocks model.
fn times(real: f64, modeled: Option<f64>) -> String {
    match modeled {
        Some(modeled) => format!("{real:.3} s real, {modeled:.6} s of engine time modeled"),
        None => format!("{real:.3} s real"),
    }
}
