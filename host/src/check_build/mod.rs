//! `knights check-build`: a built board's design as the FPGA runs it (the
//! bitstream or the routed netlist, see [`netlist`]) under Verilator, in a
//! short conversation through the same link code as a flashed board, at the
//! build's own clock and baud rate: IDENTIFY against the build, a count node
//! for node with the CPU reference (and, in an N-Queens build with the
//! constellation generator, a count from constellations), a first-K stream
//! (every answer validated), a bad CRC answered and recovered from, and
//! ABORT.

pub mod netlist;

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Result;
use knights_rtl::platform::LinkSettings;
use knights_sim::SimulatedBoard;

use knights_model::tours::parallel::PrefixJobs;
use knights_model::tours::{MoveOrder, SearchSpec};
use knights_model::{Flow, Goal};

use crate::device::CpuDevice;
use crate::fpga::board_sim;
use crate::fpga::boards::Board;
use crate::fpga::build_report::BuildReport;
use crate::fpga::Design;
use crate::jobs::{Job, JobResult};
use crate::link::proto::{self, code, Command, ErrorCode, Identity, QueensRequest, Response, SolveRequest};
use crate::link::transport::SimTransport;
use crate::link::{Link, LinkedDevice};
use crate::queens::query::{self as queens_query, QueensQuery, MIN_CONSTELLATIONS_N};
use crate::tours::jobs::{self as tour_jobs, TourTask};
use crate::tours::query::{self, Query};
use crate::tours::TourDevice;

/// Board time a reply may take (the device answers within a frame time;
/// the searches here take a few milliseconds).
const REPLY: Duration = Duration::from_millis(500);
/// Board time without a byte after which the device has said all it will
/// (twice its frame timeout).
const QUIET: Duration = Duration::from_millis(20);

/// One thing checked and what came of it.
pub struct Step {
    pub name: &'static str,
    /// What was seen when it passed; what differed when it did not.
    pub outcome: Result<String, String>,
}

/// What the check did.
pub struct CheckReport {
    pub board: String,
    /// What the netlist was made from.
    pub source: String,
    /// The design clock and how it was derived.
    pub clock_note: String,
    /// Clocks per UART bit at that clock and the build's baud rate.
    pub clocks_per_bit: u32,
    pub steps: Vec<Step>,
    /// Clocks simulated.
    pub cycles: u64,
    pub seconds: f64,
}

impl CheckReport {
    pub fn passed(&self) -> bool {
        self.steps.iter().all(|s| s.outcome.is_ok())
    }

    /// One line per step, then a verdict.
    pub fn text(&self) -> String {
        let mut out = format!(
            "{}: {}\nclock: {} ({} clocks per UART bit)\n",
            self.board, self.source, self.clock_note, self.clocks_per_bit
        );
        for step in &self.steps {
            let (mark, detail) = match &step.outcome {
                Ok(seen) => ("ok  ", seen),
                Err(why) => ("FAIL", why),
            };
            out.push_str(&format!("{mark} {:<14} {detail}\n", step.name));
        }
        let verdict = if self.passed() { "passed" } else { "FAILED" };
        out.push_str(&format!(
            "check-build {verdict}: {} steps, {} clocks simulated in {:.1} s\n",
            self.steps.len(),
            self.cycles,
            self.seconds
        ));
        out
    }
}

/// Checks the build of `board` in `dir` (its `build.json`, bitstream or
/// routed netlist), writing a waveform of the run to `trace` if given.
/// `say` hears what takes time. Errors are for what stops the check from
/// running; what the design gets wrong is in the report.
pub fn check(board: &Board, dir: &Path, trace: Option<&Path>, say: &mut dyn FnMut(&str)) -> Result<CheckReport> {
    let started = Instant::now();
    let build = BuildReport::read(dir)?;
    say(&format!("netlist of {}", dir.display()));
    let netlist = netlist::netlist(board, dir)?;
    let mut steps = vec![Step { name: "pins", outcome: netlist.pins.clone() }];
    // The design at the clock the netlist runs at (the PLL's output as its
    // settings give it).
    let design = Design { clock_hz: netlist.clock_hz.round() as u64, ..build.design };
    let clocks_per_bit = design.clocks_per_bit() as u32;
    let mut cycles = 0;
    if netlist.pins.is_ok() {
        let name = format!("netlist-{}", board.name);
        let model = board_sim::cached_verilog(&name, &netlist.verilog, design, trace.is_some(), say)?;
        let mut simulated = SimulatedBoard::on(model);
        if let Some(path) = trace {
            simulated.trace_to(path).map_err(|reason| anyhow::anyhow!("--trace {}: {reason}", path.display()))?;
        }
        say("conversation with the netlist");
        let name = format!("the {} build's netlist (Verilator, {:.4} MHz)", board.name, netlist.clock_hz / 1e6);
        cycles = converse(&build, SimTransport::named(simulated, name), &mut steps);
    }
    Ok(CheckReport {
        board: board.name.clone(),
        source: netlist.source,
        clock_note: netlist.clock_note,
        clocks_per_bit,
        steps,
        cycles,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// One step of the conversation: what it saw, or what differed.
type Check = fn(&BuildReport, &mut LinkedDevice<SimTransport>) -> Result<String, String>;

/// Runs the steps in order, stopping at the first that fails (the later
/// ones need a device that answers). Returns the clocks simulated.
fn converse(build: &BuildReport, transport: SimTransport, steps: &mut Vec<Step>) -> u64 {
    let mut device = match LinkedDevice::connect("netlist", transport, REPLY) {
        Ok(device) => device,
        Err(e) => {
            steps.push(Step { name: "identify", outcome: Err(e.to_string()) });
            return 0;
        }
    };
    let queens = solves_queens(build);
    let mut checks: Vec<(&'static str, Check)> = vec![
        ("identify", identify),
        ("count", if queens { count_queens } else { count_tours }),
        ("first-k", if queens { first_queens } else { first_tours }),
        ("bad crc", bad_crc),
        ("abort", abort),
    ];
    if !queens {
        checks.insert(2, ("path", count_below_path));
    }
    // The host refuses a build that only counts a first-K search.
    if build.design.kind.counts_only() {
        checks.retain(|(name, _)| *name != "first-k");
    }
    if queens && build.design.features.constellations {
        checks.insert(2, ("constellations", count_from_constellations));
    }
    for (name, check) in checks {
        let outcome = check(build, &mut device);
        let failed = outcome.is_err();
        steps.push(Step { name, outcome });
        if failed {
            break;
        }
    }
    device.link().transport().board().cycles()
}

/// The build is an N-Queens one (its report names the engine kind).
fn solves_queens(build: &BuildReport) -> bool {
    build.design.kind.solves_queens()
}

/// IDENTIFY reports what the build was made as.
fn identify(build: &BuildReport, device: &mut LinkedDevice<SimTransport>) -> Result<String, String> {
    let seen = device.identity();
    let queens = solves_queens(build);
    let expected = Identity {
        version: proto::VERSION,
        max_width: build.design.max_width as u8,
        max_height: build.design.max_height as u8,
        engines: build.design.engines as u8,
        clock_hz: build.design.clock_hz as u32,
        // What the UART's whole-clock bit time makes of the asked-for rate.
        baud: LinkSettings::new(build.design.clock_hz, build.design.baud).actual_baud() as u32,
        warnsdorff: build.design.features.warnsdorff && !queens,
        prune: !queens,
        queens,
        constellations: queens && build.design.features.constellations,
        interleaved: build.design.kind.counts_only(),
        // A report from before build ids has none to hold the netlist to.
        build_id: build.build_id.unwrap_or(seen.build_id),
    };
    if seen != expected {
        return Err(format!("IDENTIFY says {seen:?}; the build is {expected:?}"));
    }
    Ok(format!(
        "{}x{}, {} {} engine{}, {} Hz, {} baud, build {:08x}",
        seen.max_width,
        seen.max_height,
        seen.engines,
        build.design.kind,
        if seen.engines == 1 { "" } else { "s" },
        seen.clock_hz,
        seen.baud,
        seen.build_id
    ))
}

/// The knight's-tour search the checks run: 5×5 (or the build's largest
/// board if smaller) from a1, pruned, in `order`.
fn small_tour_search(build: &BuildReport, order: MoveOrder) -> SearchSpec {
    let size = format!("{}x{}", build.design.max_width.min(5), build.design.max_height.min(5));
    SearchSpec {
        board: size.parse().expect("a board size"),
        start: "a1".parse().expect("a square"),
        closed: false,
        order,
        prune: true,
    }
}

/// The N-Queens board the checks use: 8, or the build's largest if smaller.
fn small_queens(build: &BuildReport) -> u8 {
    build.design.max_width.min(8) as u8
}

fn cpu() -> CpuDevice {
    CpuDevice { threads: 1 }
}

/// A count equals the CPU reference's, tours and nodes.
fn count_tours(build: &BuildReport, device: &mut LinkedDevice<SimTransport>) -> Result<String, String> {
    let query = Query { spec: small_tour_search(build, MoveOrder::Fixed), goal: Goal::CountAll };
    let seen = query::run(device, query, &mut |_, _| Flow::Continue).map_err(|e| e.to_string())?;
    let reference = query::run(&mut cpu(), query, &mut |_, _| Flow::Continue).map_err(|e| e.to_string())?;
    let describe = |tours: u64, nodes: u64| format!("{tours} tours in {nodes} nodes");
    let what = format!("{} from a1", query.spec.board);
    if (seen.tour_count, seen.nodes) != (reference.tour_count, reference.nodes) {
        return Err(format!(
            "{what}: {}; the reference finds {}",
            describe(seen.tour_count, seen.nodes),
            describe(reference.tour_count, reference.nodes)
        ));
    }
    Ok(format!("{what}: {} as the reference", describe(seen.tour_count, seen.nodes)))
}

/// A count below a path from the start (a prefix job: engine 0 replays
/// the path, the engines share the tree below) equals the CPU's below it.
fn count_below_path(build: &BuildReport, device: &mut LinkedDevice<SimTransport>) -> Result<String, String> {
    let spec = small_tour_search(build, MoveOrder::Fixed);
    let cut = PrefixJobs::split(&spec, 6);
    let path = cut.prefixes.last().ok_or("the board has no path from a1")?;
    let job = Job { id: 0, weight: 1, task: TourTask::tour_path(&spec, path.clone()) };
    let run = |device: &mut dyn TourDevice| -> Result<JobResult, String> {
        let result = tour_jobs::run(device, &job, &mut |_, _| Flow::Continue).map_err(|e| e.to_string())?;
        result.ok_or_else(|| "the job did not finish".to_string())
    };
    let (seen, reference) = (run(device)?, run(&mut cpu())?);
    let squares: Vec<String> = path.iter().map(ToString::to_string).collect();
    let what = format!("{} below {}", spec.board, squares.join(" "));
    if (seen.count, seen.nodes) != (reference.count, reference.nodes) {
        return Err(format!(
            "{what}: {} tours in {} nodes; the reference finds {} in {}",
            seen.count, seen.nodes, reference.count, reference.nodes
        ));
    }
    Ok(format!("{what}: {} tours in {} nodes as the reference", seen.count, seen.nodes))
}

fn count_queens(build: &BuildReport, device: &mut LinkedDevice<SimTransport>) -> Result<String, String> {
    let query = QueensQuery {
        n: small_queens(build),
        goal: Goal::CountAll,
        mirror: false,
        constellations: false,
        unique: false,
    };
    queens_count_as_the_reference(device, query, "whole tree")
}

/// A count from constellations equals the CPU reference's, solutions and
/// nodes: the generator's jobs, shared through the queue, each weighted.
fn count_from_constellations(build: &BuildReport, device: &mut LinkedDevice<SimTransport>) -> Result<String, String> {
    let query = QueensQuery {
        n: small_queens(build).max(MIN_CONSTELLATIONS_N),
        goal: Goal::CountAll,
        mirror: true,
        constellations: true,
        unique: false,
    };
    queens_count_as_the_reference(device, query, "from constellations")
}

/// Runs the count `query` on the device and on the CPU reference: its
/// solutions and nodes must be equal. `how` names the count in the line.
fn queens_count_as_the_reference(
    device: &mut LinkedDevice<SimTransport>,
    query: QueensQuery,
    how: &str,
) -> Result<String, String> {
    let seen = queens_query::run(device, query, &mut |_, _| Flow::Continue).map_err(|e| e.to_string())?;
    let reference = queens_query::run(&mut cpu(), query, &mut |_, _| Flow::Continue).map_err(|e| e.to_string())?;
    let what = format!("{} queens, {how}", query.n);
    if (seen.solution_count, seen.nodes) != (reference.solution_count, reference.nodes) {
        return Err(format!(
            "{what}: {} solutions in {} nodes; the reference finds {} in {}",
            seen.solution_count, seen.nodes, reference.solution_count, reference.nodes
        ));
    }
    Ok(format!("{what}: {} solutions in {} nodes as the reference", seen.solution_count, seen.nodes))
}

/// Tours (or solutions) a first-K check asks for.
const FIRST_K: u64 = 3;

/// A first-K stream arrives whole, each tour valid and new (the query
/// checks), and with one engine in the reference's order; in Warnsdorff's
/// order when the build has it (its degree store is then in use).
fn first_tours(build: &BuildReport, device: &mut LinkedDevice<SimTransport>) -> Result<String, String> {
    let order = if build.design.features.warnsdorff { MoveOrder::Warnsdorff } else { MoveOrder::Fixed };
    let query = Query { spec: small_tour_search(build, order), goal: Goal::First(FIRST_K) };
    let seen = query::run(device, query, &mut |_, _| Flow::Continue).map_err(|e| e.to_string())?;
    if seen.tours.len() as u64 != FIRST_K {
        return Err(format!("{} tours of the {FIRST_K} asked for", seen.tours.len()));
    }
    if build.design.engines == 1 {
        let reference = query::run(&mut cpu(), query, &mut |_, _| Flow::Continue).map_err(|e| e.to_string())?;
        if seen.tours != reference.tours {
            return Err("the tours are valid but not the reference's first, in its order".into());
        }
        return Ok(format!("{FIRST_K} valid tours ({order:?} order), the reference's first in its order"));
    }
    Ok(format!("{FIRST_K} valid tours ({order:?} order), each once"))
}

fn first_queens(build: &BuildReport, device: &mut LinkedDevice<SimTransport>) -> Result<String, String> {
    let query = QueensQuery {
        n: small_queens(build),
        goal: Goal::First(FIRST_K),
        mirror: false,
        constellations: false,
        unique: false,
    };
    let seen = queens_query::run(device, query, &mut |_, _| Flow::Continue).map_err(|e| e.to_string())?;
    if seen.solutions.len() as u64 != FIRST_K {
        return Err(format!("{} solutions of the {FIRST_K} asked for", seen.solutions.len()));
    }
    if build.design.engines == 1 {
        let reference = queens_query::run(&mut cpu(), query, &mut |_, _| Flow::Continue).map_err(|e| e.to_string())?;
        if seen.solutions != reference.solutions {
            return Err("the solutions are valid but not the reference's first, in its order".into());
        }
    }
    Ok(format!("{FIRST_K} valid solutions, each once"))
}

/// Everything the device says until it has been quiet for `QUIET`.
fn replies(link: &mut Link<SimTransport>) -> Result<Vec<Response>, String> {
    let mut all = Vec::new();
    while let Some(response) = link.receive(QUIET).map_err(|e| e.to_string())? {
        all.push(response);
    }
    Ok(all)
}

/// A frame with a bad CRC gets ERROR BAD_CRC, and the next command its answer.
fn bad_crc(_: &BuildReport, device: &mut LinkedDevice<SimTransport>) -> Result<String, String> {
    let expected = device.identity();
    let link = device.link();
    let mut damaged = Command::Identify.encode();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x01;
    link.transport().board().write(&damaged);
    let answer = replies(link)?;
    let refusal = Response::Error { code: ErrorCode::BadCrc, command: code::IDENTIFY };
    if answer != [refusal.clone()] {
        return Err(format!("a frame with a bad CRC was answered {answer:?}, not {refusal:?}"));
    }
    let again = link.identify(REPLY).map_err(|e| format!("after the bad CRC: {e}"))?;
    if again != expected {
        return Err(format!("after the bad CRC, IDENTIFY says {again:?}"));
    }
    Ok("ERROR BAD_CRC, then IDENTIFY answered".into())
}

/// A long search is stopped by ABORT (ACK, then DONE aborted; tours sent
/// before it are let be) and the device takes the next command. The long
/// search: the largest board's unpruned count, or for N-Queens every
/// solution streamed (a count of the largest N can end before ABORT
/// arrives; a stream waits on the UART).
fn abort(build: &BuildReport, device: &mut LinkedDevice<SimTransport>) -> Result<String, String> {
    let (long, command) = if solves_queens(build) {
        let n = build.design.max_width as u8;
        let request = QueensRequest {
            n,
            first_from: 0,
            first_to: n,
            count: false,
            limit: 0,
            split: 0,
            engines: 0,
            constellations: false,
        };
        (Command::Queens(request), code::QUEENS)
    } else {
        let request = SolveRequest {
            width: build.design.max_width as u8,
            height: build.design.max_height as u8,
            file: 0,
            rank: 0,
            closed: false,
            warnsdorff: false,
            prune: false,
            count: true,
            limit: 0,
            split: 0,
            engines: 0,
            path: crate::link::proto::MovePath::EMPTY,
        };
        (Command::Solve(request), code::SOLVE)
    };
    let link = device.link();
    link.send(&long).map_err(|e| e.to_string())?;
    let ack = link.receive(REPLY).map_err(|e| e.to_string())?;
    if ack != Some(Response::Ack { command }) {
        return Err(format!("the long search was answered {ack:?}"));
    }
    link.send(&Command::Abort).map_err(|e| e.to_string())?;
    let mut answer = replies(link)?;
    answer.retain(|response| !matches!(response, Response::Tour { .. }));
    match answer.as_slice() {
        [Response::Ack { command: code::ABORT }, Response::Done { status: code::STATUS_ABORTED, counters }] => {
            let nodes = counters.nodes;
            link.identify(REPLY).map_err(|e| format!("after ABORT: {e}"))?;
            Ok(format!("stopped after {nodes} nodes, then IDENTIFY answered"))
        }
        other => Err(format!("ABORT was answered {other:?}")),
    }
}
