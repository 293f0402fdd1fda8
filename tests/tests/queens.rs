//! The N-Queens accelerator's Verilog under Verilator (the default simulated
//! queens build: four solvers, N up to 12), over its UART through the host's
//! link code, against the CPU reference: solution and node counts must be
//! exactly equal, with and without the mirror, at every split level; on one
//! solver, first-K solutions come in the reference's order, a queen a clock.

use std::time::Duration;

use knights::device::error::{DeviceError, RequestError};
use knights::device::{CpuDevice, Problem};
use knights::fpga::board_sim;
use knights::link::proto::{Command, ErrorCode, QueensRequest, Response};
use knights::link::transport::{SimTransport, Transport};
use knights::link::{Link, LinkedDevice};
use knights::queens::query::{self as queens_query, QueensAnswer, QueensQuery};
use knights::queens::{QueensDevice, QueensSink};
use knights::tours::{TourDevice, TourSink};
use knights_model::queens::{QueensSearch, QueensSpec};
use knights_model::Flow;
use knights_model::{Goal, Status};

fn queens_board() -> LinkedDevice<SimTransport> {
    let model = board_sim::default_queens(false, &mut |line| eprintln!("{line}")).unwrap();
    let transport = SimTransport::on(knights_sim::SimulatedBoard::on(model));
    LinkedDevice::connect("sim", transport, Duration::from_secs(60)).unwrap()
}

fn run(device: &mut dyn QueensDevice, n: u8, goal: Goal, mirror: bool) -> QueensAnswer {
    queens_query::run(device, QueensQuery { n, goal, mirror, constellations: false, unique: false }, &mut |_, _| {
        Flow::Continue
    })
    .unwrap()
}

#[test]
fn the_build_says_it_solves_n_queens() {
    let device = queens_board();
    assert_eq!((device.problem(), device.max_queens(), device.identity().engines), (Problem::Queens, 12, 4));
}

/// OEIS A000170: solutions on an N×N board, N = 1…12 (published; not the
/// reference's).
const A000170: [u64; 12] = [1, 0, 0, 2, 10, 4, 40, 92, 352, 724, 2_680, 14_200];

/// OEIS A002562: the classes of solutions under the board's eight
/// symmetries, N = 1…9.
const A002562: [u64; 9] = [1, 0, 0, 1, 2, 1, 6, 12, 46];

/// The published count for `n` queens.
fn published(n: u8) -> u64 {
    A000170[usize::from(n) - 1]
}

#[test]
fn counts_equal_the_reference_with_and_without_the_mirror() {
    let mut device = queens_board();
    let mut cpu = CpuDevice { threads: 1 };
    for n in 1..=12u8 {
        for mirror in [true, false] {
            let (sim, reference) =
                (run(&mut device, n, Goal::CountAll, mirror), run(&mut cpu, n, Goal::CountAll, mirror));
            let what = format!("N = {n}, mirror {mirror}");
            assert_eq!(sim.solution_count, published(n), "{what}: OEIS A000170");
            assert_eq!((sim.solution_count, sim.nodes), (reference.solution_count, reference.nodes), "{what}");
            assert_eq!(sim.status, Status::Exhausted, "{what}");
        }
    }
}

/// A unique count: the solvers list every solution of the mirror's side
/// (all four searches sharing it), and the host counts the least of each
/// class; the counts are the reference's and OEIS A002562's.
#[test]
fn unique_counts_equal_the_reference() {
    let mut device = queens_board();
    for n in 1..=9u8 {
        let query = QueensQuery { n, goal: Goal::CountAll, mirror: true, constellations: false, unique: true };
        let answer = queens_query::run(&mut device, query, &mut |_, _| Flow::Continue).unwrap();
        let reference = knights_model::queens::unique::count(n, 1).unwrap();
        let what = format!("N = {n}");
        assert_eq!(
            (answer.unique_count, answer.solution_count),
            (Some(A002562[usize::from(n) - 1]), published(n)),
            "{what}: OEIS A002562 and A000170"
        );
        assert_eq!(
            (answer.unique_count, answer.solution_count),
            (Some(reference.unique), reference.solutions),
            "{what}"
        );
        assert_eq!(answer.nodes, reference.nodes, "{what}: the mirror's side searched whole");
    }
}

/// Counting from constellations: the walker's generator makes the jobs,
/// the four searches share them through the queue, and the counts are the
/// published ones and the reference's node for node (the queens placed
/// between the edges'); the cycles are about the nodes plus the edges'
/// queens passed through, over the searches.
#[test]
fn constellation_counts_equal_the_reference() {
    let mut device = queens_board();
    assert!(device.identity().constellations);
    let mut cpu = CpuDevice { threads: 1 };
    let count = |device: &mut dyn QueensDevice, n| {
        queens_query::run(
            device,
            QueensQuery { n, goal: Goal::CountAll, mirror: true, constellations: true, unique: false },
            &mut |_, _| Flow::Continue,
        )
    };
    for n in 4..=12u8 {
        // The CPU device counts from constellations too: the simulated
        // build is held to it node for node, and both to the published count.
        let (sim, reference) = (count(&mut device, n).unwrap(), count(&mut cpu, n).unwrap());
        assert_eq!(sim.solution_count, published(n), "N = {n}: OEIS A000170");
        assert_eq!((sim.solution_count, sim.nodes), (reference.solution_count, reference.nodes), "N = {n}");
        assert_eq!(sim.status, Status::Exhausted, "N = {n}");
    }
    // Fewer than four queens, or a first-K search: refused before the board.
    assert!(matches!(count(&mut device, 3), Err(DeviceError::Request(RequestError::ConstellationsCountOnly { n: 3 }))));
}

#[test]
fn every_split_level_counts_exactly() {
    let mut device = queens_board();
    let expected =
        QueensSearch::new(QueensSpec::whole(9).unwrap()).run(Goal::CountAll, &mut knights_model::queens::Quiet);
    for level in 0..=9u8 {
        device.set_split(Some(level));
        let sim = run(&mut device, 9, Goal::CountAll, false);
        assert_eq!((sim.solution_count, sim.nodes), (expected.solutions, expected.nodes), "split level {level}");
    }
}

#[test]
fn one_search_streams_the_reference_solutions_in_order_a_queen_a_turn() {
    let mut device = queens_board();
    device.set_split(Some(0));
    for (n, k) in [(8u8, 100u64), (10, 25), (12, 3)] {
        let (outcome, expected) = QueensSearch::new(QueensSpec::whole(n).unwrap()).solutions(Goal::First(k));
        let sim = run(&mut device, n, Goal::First(k), true);
        assert_eq!(sim.solutions, expected, "N = {n}, first {k}");
        assert_eq!((sim.nodes, sim.status), (outcome.nodes, outcome.status), "N = {n}, first {k}");
    }
    // Counting, one search places a queen every other clock (its solver's
    // others are the other search's), backtracks included, and counts the
    // last two ranks' queens without placing them.
    let sim = run(&mut device, 11, Goal::CountAll, false);
    let cycles = sim.cycles.unwrap();
    let by_rank = QueensSearch::new(QueensSpec::whole(11).unwrap()).nodes_by_rank();
    let stepped: u64 = by_rank[..9].iter().sum();
    assert!(cycles <= 2 * stepped + 8, "{cycles} cycles for {} nodes, {stepped} stepped on", sim.nodes);
}

#[test]
fn first_k_on_all_solvers_sends_k_valid_solutions() {
    let mut device = queens_board();
    let sim = run(&mut device, 12, Goal::First(50), true);
    // The query layer has checked each solution and refused repeats.
    assert_eq!((sim.solutions.len(), sim.status), (50, Status::Found));
}

#[test]
fn a_board_past_the_build_and_the_wrong_problem_are_refused() {
    let mut device = queens_board();
    let mut refuse = |n| {
        queens_query::run(
            &mut device,
            QueensQuery { n, goal: Goal::CountAll, mirror: true, constellations: false, unique: false },
            &mut |_, _| Flow::Continue,
        )
    };
    assert!(matches!(refuse(13), Err(DeviceError::Request(RequestError::QueensTooLarge { n: 13, max: 12, .. }))));
    assert!(matches!(refuse(0), Err(DeviceError::Request(RequestError::NoQueens))));
    // A tour search to the queens build, and N-Queens to the tours build.
    let spec = knights_model::tours::SearchSpec::exhaustive("5".parse().unwrap(), "a1".parse().unwrap(), false);
    struct Nothing;
    impl TourSink for Nothing {
        fn tour(&mut self, _: &[knights_model::Square]) -> Result<(), DeviceError> {
            Ok(())
        }
        fn progress(&mut self, _: u64, _: u64) -> Flow {
            Flow::Continue
        }
    }
    let error = device.search(&spec, Goal::CountAll, &mut Nothing).unwrap_err();
    assert!(
        matches!(
            error,
            DeviceError::Request(RequestError::WrongProblem { build: Problem::Queens, asked: Problem::Tours, .. })
        ),
        "{error}"
    );
    assert!(error.to_string().contains("runs a build for N-Queens, not knight's tours"), "{error}");
    let mut tours = LinkedDevice::connect("sim", SimTransport::new(), Duration::from_secs(60)).unwrap();
    struct NoSolutions;
    impl QueensSink for NoSolutions {
        fn solution(&mut self, _: &[u8]) -> Result<(), DeviceError> {
            Ok(())
        }
        fn progress(&mut self, _: u64, _: u64) -> Flow {
            Flow::Continue
        }
    }
    let error = tours.queens(&QueensSpec::whole(6).unwrap(), Goal::CountAll, &mut NoSolutions).unwrap_err();
    assert!(
        matches!(
            error,
            DeviceError::Request(RequestError::WrongProblem { build: Problem::Tours, asked: Problem::Queens, .. })
        ),
        "{error}"
    );
}

/// The device itself refuses the other problem's command (a host that does
/// not check IDENTITY first gets an ERROR, not a wrong search).
#[test]
fn each_build_answers_the_other_problems_command_with_wrong_problem() {
    let request = QueensRequest {
        n: 6,
        first_from: 0,
        first_to: 6,
        count: true,
        limit: 0,
        split: 0,
        engines: 0,
        constellations: false,
    };
    let model = board_sim::default_queens(false, &mut |_| {}).unwrap();
    let mut queens = Link::new(SimTransport::on(knights_sim::SimulatedBoard::on(model)));
    let mut tours = Link::new(SimTransport::new());
    let solve = knights::link::proto::SolveRequest {
        width: 5,
        height: 5,
        file: 0,
        rank: 0,
        closed: false,
        warnsdorff: false,
        prune: false,
        count: true,
        limit: 0,
        split: 0,
        engines: 0,
        path: knights::link::proto::MovePath::EMPTY,
    };
    for (link, command) in [(&mut queens, Command::Solve(solve)), (&mut tours, Command::Queens(request))] {
        link.send(&command).unwrap();
        let answer = link.receive(Duration::from_secs(10)).unwrap();
        assert_eq!(answer, Some(Response::Error { code: ErrorCode::WrongProblem, command: command.code() }));
    }
    // QUEENS carries SOLVE's path fields, which must be empty.
    let mut with_path = Command::Queens(request).encode();
    with_path[4 + 11] = 1;
    let end = with_path.len() - 2;
    let crc = knights::link::proto::crc16(&with_path[..end]).to_le_bytes();
    with_path[end..].copy_from_slice(&crc);
    queens.transport().write_all(&with_path).unwrap();
    let answer = queens.receive(Duration::from_secs(10)).unwrap();
    assert_eq!(
        answer,
        Some(Response::Error { code: ErrorCode::BadArgument, command: Command::Queens(request).code() })
    );
}

/// `knights bench --queens` models a build's time from the simulated
/// build's cycles per node per search (four searches here), spread over the
/// build's searches. A direct simulation of another number of searches (two
/// of the four) agrees with that model within 5%.
#[test]
fn the_bench_model_agrees_with_a_direct_simulation_of_another_number_of_searches() {
    let mut device = queens_board();
    let n = 11;
    device.set_engines(Some(2)).unwrap();
    let direct = run(&mut device, n, Goal::CountAll, true);
    device.set_engines(None).unwrap();
    let direct_cycles = direct.cycles.unwrap() as f64;
    // A build of two searches at 10 MHz, as `knights build` reports it.
    let report: knights::fpga::build_report::BuildReport = serde_json::from_value(serde_json::json!({
        "board": "two-searches", "title": "Two searches", "fpga": "none", "engine": "queens",
        "max_width": 12, "max_height": 12, "engines": 2, "warnsdorff": false, "constellations": false,
        "board_clock_hz": 10_000_000, "clock_hz": 10_000_000, "pll": null, "baud": 115_200,
        "target_mhz": 10.0, "fmax_mhz": 10.0, "logic_cells": {"used": 1, "available": 1}, "luts": 1,
        "flip_flops": 1, "block_rams": {"used": 0, "available": 1}, "bitstream": "none.bit", "tools": [],
        "seconds": 1.0
    }))
    .unwrap();
    let rows = knights::queens::bench::run(&mut device, n..=n, &[report], &mut |_| {}).unwrap();
    let modeled_cycles = rows[0].boards[0].seconds * 1e7;
    let error = modeled_cycles / direct_cycles - 1.0;
    assert!(error.abs() < 0.05, "modeled {modeled_cycles:.0} clocks, simulated {direct_cycles}: {error:+.3}");
    eprintln!(
        "{n}-queens on two searches: modeled {modeled_cycles:.0} clocks, simulated {direct_cycles} ({error:+.4})"
    );
}
