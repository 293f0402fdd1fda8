//! The compact engine in rust-hdl's own simulator, compared with the CPU
//! reference search node for node: counts, first-K streams under
//! back-pressure, both move orders, pruning, closed tours, and searches
//! below a path.

use std::sync::{Arc, Mutex};

use knights_model::moves::path_moves;
use knights_model::search::TourList;
use knights_model::{BoardSize, Goal, MoveOrder, SearchSpec, Searcher, Square};
use knights_protocol::codec::{MovePath, SolveRequest};
use knights_rtl::compact::CompactEngine;
use knights_rtl::engine::JobRole;
use rust_hdl::prelude::*;

/// What the engine put out, as the accelerator would see it.
#[derive(Debug, Default, Clone, PartialEq)]
struct Run {
    tours: Vec<Vec<Square>>,
    tour_count: u64,
    nodes: u64,
    cycles: u64,
}

/// Runs one search below `path` (the start square first) on a compact
/// engine for boards up to 6×6, cancelling it after `K` tours streamed as
/// the platform does, with the stream stalled every `stall_every` clocks.
fn simulate(spec: SearchSpec, path: &[Square], goal: Goal, stall_every: u64) -> Run {
    const MAX: usize = 6;
    type Uut = CompactEngine<7, 6, 6, 7>;
    let mut uut = Uut::new(MAX, MAX, JobRole::Walker);
    let moves = MovePath::new(&path_moves(path).expect("knight's moves")).expect("16 moves at most");
    uut.connect_all();
    let result = Arc::new(Mutex::new(Run::default()));
    let out = result.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Uut>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Uut>| {
        let mut x = sim.init()?;
        wait_clock_true!(sim, clock, x);
        let request = SolveRequest {
            width: spec.board.width as u8,
            height: spec.board.height as u8,
            file: spec.start.file as u8,
            rank: spec.start.rank as u8,
            closed: spec.closed,
            warnsdorff: spec.order == MoveOrder::Warnsdorff,
            prune: spec.prune,
            count: goal == Goal::CountAll,
            limit: 0,
            split: 0,
            engines: 0,
            path: moves,
        };
        let arguments = &request.payload()[..5];
        x.port.arguments.next = arguments.iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b)).into();
        x.port.path.next = moves.sliced().into();
        x.port.path_length.next = (moves.moves().len() as u64).into();
        wait_clock_cycle!(sim, clock, x);
        sim_assert_eq!(sim, x.port.refusal.val().to_u64(), 0, x);
        x.port.start.next = true;
        wait_clock_cycle!(sim, clock, x);
        x.port.start.next = false;
        let limit = match goal {
            Goal::First(k) => k,
            Goal::CountAll => u64::MAX,
        };
        let (mut tour, mut streamed) = (Vec::new(), 0u64);
        let (mut clock, mut tour_count, mut nodes, mut cycles, mut after_done) = (0u64, 0u64, 0u64, 0u64, 0);
        loop {
            x.port.item_ready.next = stall_every == 0 || clock % stall_every != 0;
            x.port.cancel.next = streamed >= limit;
            wait_clock_false!(sim, clock, x);
            if x.port.item_valid.val() && x.port.item_ready.val() {
                let index = x.port.item.val().index();
                tour.push(Square::new((index % MAX) as u16, (index / MAX) as u16));
                if x.port.item_last.val() {
                    streamed += 1;
                    out.lock().unwrap().tours.push(std::mem::take(&mut tour));
                }
            }
            nodes += x.port.nodes.val().to_u64();
            tour_count += u64::from(x.port.solution.val());
            if x.port.busy.val() {
                cycles += 1;
            } else if cycles > 0 {
                after_done += 1;
            }
            if after_done == 2 {
                let mut run = out.lock().unwrap();
                run.tour_count = tour_count + run.tours.len() as u64;
                run.nodes = nodes;
                run.cycles = cycles;
                break;
            }
            wait_clock_true!(sim, clock, x);
            clock += 1;
        }
        sim.done(x)
    });
    sim.run(Box::new(uut), 500_000_000).unwrap();
    let run = result.lock().unwrap().clone();
    run
}

fn spec(board: &str, start: &str, closed: bool, order: MoveOrder, prune: bool) -> SearchSpec {
    SearchSpec { board: board.parse().unwrap(), start: start.parse().unwrap(), closed, order, prune }
}

/// Checks a count and a first-K stream against the reference.
fn check(spec: SearchSpec, path: &[Square], k: u64) {
    let searcher = Searcher::new(spec).unwrap();
    let what = format!(
        "{} from {} closed={} {} prune={} path {path:?}",
        spec.board, spec.start, spec.closed, spec.order, spec.prune
    );
    let count = searcher.run_from(path, Goal::CountAll, &mut TourList::default()).unwrap();
    let run = simulate(spec, path, Goal::CountAll, 0);
    assert_eq!((run.tour_count, run.nodes), (count.tours, count.nodes), "count: {what}");
    eprintln!("{what}: {} tours, {} nodes, {} cycles", run.tour_count, run.nodes, run.cycles);
    let mut expected = TourList::default();
    let first = searcher.run_from(path, Goal::First(k), &mut expected).unwrap();
    let run = simulate(spec, path, Goal::First(k), 3);
    assert_eq!(run.tours, expected.0, "first {k}: {what}");
    assert_eq!(run.nodes, first.nodes, "first {k} nodes: {what}");
}

#[test]
fn counts_and_streams_match_the_reference() {
    for (board, start, closed, order, prune) in [
        ("4x3", "a1", false, MoveOrder::Fixed, false),
        ("5", "a1", false, MoveOrder::Fixed, true),
        ("5", "c3", false, MoveOrder::Warnsdorff, true),
        ("5x4", "b2", false, MoveOrder::Warnsdorff, false),
        ("6x5", "a1", true, MoveOrder::Fixed, true),
        ("5x4", "a1", true, MoveOrder::Warnsdorff, true),
        ("1", "a1", false, MoveOrder::Fixed, true),
        ("3", "b2", false, MoveOrder::Fixed, true),
    ] {
        let spec = spec(board, start, closed, order, prune);
        check(spec, &[spec.start], 3);
    }
}

#[test]
fn searches_below_a_path_match_the_reference() {
    let spec = spec("5", "a1", false, MoveOrder::Fixed, true);
    let searcher = Searcher::new(spec).unwrap();
    let (_, tours) = searcher.tours(Goal::First(1));
    for length in [2, 4, 9] {
        check(spec, &tours[0][..length], 2);
    }
}

#[test]
fn a_board_of_the_builds_size_counts_as_the_reference() {
    let spec = spec("6", "a1", true, MoveOrder::Fixed, true);
    let count = Searcher::new(spec).unwrap().run(Goal::First(1), &mut TourList::default());
    let run = simulate(spec, &[spec.start], Goal::First(1), 0);
    assert_eq!((run.tours.len() as u64, run.nodes), (count.tours, count.nodes));
    let _ = BoardSize::new(6, 6);
}
