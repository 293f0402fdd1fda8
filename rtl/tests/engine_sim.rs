//! The engine in rust-hdl's own simulator on small boards, compared with the
//! host's CPU reference search node for node.

use std::sync::{Arc, Mutex};

use knights_model::tours::moves::path_moves;
use knights_model::tours::TourList;
use knights_model::tours::{MoveOrder, Outcome, SearchSpec, Searcher};
use knights_model::{BoardSize, Goal, Square};
use knights_protocol::codec::{MovePath, SolveRequest};
use knights_rtl::platform::JobRole;
use knights_rtl::tours::wide::Engine;
use rust_hdl::prelude::*;

/// What the engine put out: the tours it streamed, the tours and nodes it
/// counted (summed from its per-clock pulses, as the accelerator does), and
/// its busy clocks.
#[derive(Debug, Default, Clone, PartialEq)]
struct Run {
    tours: Vec<Vec<Square>>,
    tour_count: u64,
    nodes: u64,
    cycles: u64,
}

/// Runs one search on a `MW`×`MH` engine (`SQ` squares) and collects its output.
fn simulate<const SQ: usize, const LB: usize>(
    max: (usize, usize),
    spec: SearchSpec,
    goal: Goal,
    stall_every: u64,
) -> Run {
    simulate_from::<SQ, LB>(max, spec, &[], goal, stall_every)
}

/// As [`simulate`], searching below a prefix (the squares after the start).
fn simulate_from<const SQ: usize, const LB: usize>(
    max: (usize, usize),
    spec: SearchSpec,
    prefix: &[Square],
    goal: Goal,
    stall_every: u64,
) -> Run {
    simulate_engine(Engine::<SQ, LB>::new(max.0, max.1), max, spec, prefix, goal, stall_every)
}

/// As [`simulate_from`], on a given engine.
fn simulate_engine<const SQ: usize, const LB: usize>(
    mut uut: Engine<SQ, LB>,
    max: (usize, usize),
    spec: SearchSpec,
    prefix: &[Square],
    goal: Goal,
    stall_every: u64,
) -> Run {
    let squares: Vec<Square> = std::iter::once(spec.start).chain(prefix.iter().copied()).collect();
    let path = MovePath::new(&path_moves(&squares).expect("a path of knight's moves")).expect("16 moves at most");
    uut.connect_all();
    let result = Arc::new(Mutex::new(Run::default()));
    let out = result.clone();
    let mut sim = Simulation::new();
    sim.add_clock(5, |x: &mut Box<Engine<SQ, LB>>| x.clock.next = !x.clock.val());
    sim.add_testbench(move |mut sim: Sim<Engine<SQ, LB>>| {
        let mut x = sim.init()?;
        wait_clock_true!(sim, clock, x);
        // SOLVE's first five payload bytes, as the host sends them.
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
            path,
        };
        let arguments = &request.payload()[..5];
        x.port.arguments.next = arguments.iter().rev().fold(0u64, |acc, &b| acc << 8 | u64::from(b)).into();
        x.port.path.next = path.sliced().into();
        x.port.path_length.next = (path.moves().len() as u64).into();
        if let Goal::First(k) = goal {
            x.limit.next = k.into();
        }
        x.port.start.next = true;
        wait_clock_cycle!(sim, clock, x);
        x.port.start.next = false;
        let mut tour = Vec::new();
        let mut clock = 0u64;
        let (mut tour_count, mut nodes, mut cycles) = (0u64, 0u64, 0u64);
        // The counts are registered: they trail the search by a clock.
        let mut after_done = 0;
        loop {
            x.port.item_ready.next = stall_every == 0 || !clock.is_multiple_of(stall_every);
            wait_clock_false!(sim, clock, x);
            if x.port.item_valid.val() && x.port.item_ready.val() {
                let index = x.port.item.val().index();
                tour.push(Square::new((index % max.0) as u16, (index / max.0) as u16));
                if x.port.item_last.val() {
                    out.lock().unwrap().tours.push(std::mem::take(&mut tour));
                }
            }
            nodes += x.port.nodes.val().to_u64();
            tour_count += x.port.solutions.val().to_u64();
            if x.port.busy.val() {
                cycles += 1;
            } else if cycles > 0 {
                after_done += 1;
            }
            if after_done == 2 {
                let mut run = out.lock().unwrap();
                // First-K streams its tours; a count pulses them.
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
    sim.run(Box::new(uut), 200_000_000).unwrap();
    let run = result.lock().unwrap().clone();
    run
}

#[test]
fn counts_match_the_reference_on_4x3_from_every_start() {
    let board = BoardSize::new(4, 3);
    for start in board.squares() {
        let spec = SearchSpec { board, start, closed: false, order: MoveOrder::Fixed, prune: false };
        let (expected, _) = reference(spec, Goal::CountAll);
        let run = simulate::<12, 4>((4, 3), spec, Goal::CountAll, 0);
        assert_eq!((run.tour_count, run.nodes), (expected.tours, expected.nodes), "{start}");
    }
}

#[test]
fn first_k_streams_the_reference_tours_under_back_pressure() {
    let spec = spec("4x3", "a1", false);
    let (expected, tours) = reference(spec, Goal::First(2));
    let run = simulate::<12, 4>((4, 3), spec, Goal::First(2), 3);
    assert_eq!(run.tours, tours);
    assert_eq!((run.tour_count, run.nodes), (expected.tours, expected.nodes));
}

#[test]
fn a_smaller_board_on_a_larger_engine_matches() {
    // 4x3 and 3x4 boards on a 5x4 engine: the unused squares are blocked.
    for (board, start) in [("4x3", "b2"), ("3x4", "a1"), ("5x4", "e4")] {
        let spec = spec(board, start, false);
        let (expected, _) = reference(spec, Goal::CountAll);
        let run = simulate::<20, 5>((5, 4), spec, Goal::CountAll, 0);
        assert_eq!((run.tour_count, run.nodes), (expected.tours, expected.nodes), "{board} from {start}");
        // One node per clock (the start node on setup's last clock), plus
        // a clock per rank of the board (not of the engine) for setup and
        // the clock that finds no move left.
        let ranks = u64::from(spec.board.height);
        assert_eq!(run.cycles, ranks + run.nodes + 1, "{board} from {start}");
    }
}

#[test]
fn closed_mode_counts_only_closing_tours() {
    // 4x3 has open tours but no closed ones: the engine must reject every
    // open ending.
    for (board, start) in [("4x3", "a1"), ("4x3", "b2"), ("3x3", "a1")] {
        let spec = spec(board, start, true);
        let (expected, _) = reference(spec, Goal::CountAll);
        let run = simulate::<12, 4>((4, 3), spec, Goal::CountAll, 0);
        assert_eq!((run.tour_count, run.nodes), (expected.tours, expected.nodes), "{board} from {start}");
    }
}

#[test]
fn warnsdorff_order_matches_the_reference() {
    for start in ["a1", "b2", "d3", "c1"] {
        let spec = SearchSpec { order: MoveOrder::Warnsdorff, ..spec("4x3", start, false) };
        let (expected, _) = reference(spec, Goal::CountAll);
        let run = simulate::<12, 4>((4, 3), spec, Goal::CountAll, 0);
        assert_eq!((run.tour_count, run.nodes), (expected.tours, expected.nodes), "{start}");
        let (expected, tours) = reference(spec, Goal::First(3));
        let run = simulate::<12, 4>((4, 3), spec, Goal::First(3), 2);
        assert_eq!((run.tours, run.nodes), (tours, expected.nodes), "first 3 from {start}");
    }
}

#[test]
fn an_engine_built_without_warnsdorff_searches_in_the_fixed_order() {
    // As the accelerator builds it without Warnsdorff's order: asked for that
    // order (the accelerator refuses such a request first), it streams the
    // tours in the fixed order. (The accelerator's engines ignore `limit`,
    // so every tour comes.)
    let warnsdorff = SearchSpec { order: MoveOrder::Warnsdorff, prune: true, ..spec("5x4", "a1", false) };
    let fixed = SearchSpec { order: MoveOrder::Fixed, ..warnsdorff };
    let every = Goal::First(reference(fixed, Goal::CountAll).0.tours);
    let (_, fixed_tours) = reference(fixed, every);
    let (_, warnsdorff_tours) = reference(warnsdorff, every);
    assert_ne!(fixed_tours, warnsdorff_tours, "the orders must differ here for the test to tell them apart");
    let run = simulate_engine(
        Engine::<20, 5>::for_accelerator(5, 4, false, JobRole::Walker),
        (5, 4),
        warnsdorff,
        &[],
        every,
        2,
    );
    assert_eq!(run.tours, fixed_tours);
    let run = simulate_engine(
        Engine::<20, 5>::for_accelerator(5, 4, true, JobRole::Walker),
        (5, 4),
        warnsdorff,
        &[],
        every,
        2,
    );
    assert_eq!(run.tours, warnsdorff_tours, "built with it");
}

#[test]
fn prefix_jobs_cover_the_tree_exactly() {
    let spec = spec("4x3", "a1", false);
    let whole = reference(spec, Goal::CountAll).0;
    let jobs = knights_model::tours::parallel::PrefixJobs::split(&spec, 4);
    let searcher = Searcher::new(spec).unwrap();
    let (mut tours, mut nodes) = (0, jobs.nodes_above);
    for prefix in &jobs.prefixes {
        let expected = searcher.run_from(prefix, Goal::CountAll, &mut TourList::default()).unwrap();
        let run = simulate_from::<12, 4>((4, 3), spec, &prefix[1..], Goal::CountAll, 3);
        assert_eq!((run.tour_count, run.nodes), (expected.tours, expected.nodes), "{prefix:?}");
        tours += run.tour_count;
        nodes += run.nodes - (prefix.len() as u64 - 1);
    }
    assert_eq!((tours, nodes), (whole.tours, whole.nodes));
    // First-K below a prefix streams whole tours, prefix included.
    let prefix = &jobs.prefixes[0];
    let (expected, expected_tours) = {
        let mut keep = TourList::default();
        let outcome = searcher.run_from(prefix, Goal::First(1), &mut keep).unwrap();
        (outcome, keep.0)
    };
    let run = simulate_from::<12, 4>((4, 3), spec, &prefix[1..], Goal::First(1), 0);
    assert_eq!((run.tours, run.nodes), (expected_tours, expected.nodes));
}

#[test]
fn pruning_matches_the_reference_node_for_node() {
    // Open and closed, both orders, a smaller board on a larger engine, and
    // below a prefix (the prefix's squares are entered unchecked, as on the host).
    for (board, start, closed, order) in [
        ("4x3", "a1", false, MoveOrder::Fixed),
        ("4x3", "b2", false, MoveOrder::Warnsdorff),
        ("5x4", "a1", false, MoveOrder::Fixed),
        ("5x4", "c2", false, MoveOrder::Warnsdorff),
        ("5x4", "a1", true, MoveOrder::Fixed),
        ("4x4", "a1", false, MoveOrder::Fixed),
    ] {
        let spec = SearchSpec { order, prune: true, ..spec(board, start, closed) };
        let (expected, _) = reference(spec, Goal::CountAll);
        let run = simulate::<20, 5>((5, 4), spec, Goal::CountAll, 0);
        let what = format!("{board} from {start} closed={closed} {order}");
        assert_eq!((run.tour_count, run.nodes), (expected.tours, expected.nodes), "{what}");
        let (expected, tours) = reference(spec, Goal::First(2));
        let run = simulate::<20, 5>((5, 4), spec, Goal::First(2), 3);
        assert_eq!((run.tours, run.nodes), (tours, expected.nodes), "first 2: {what}");
    }
    let spec = SearchSpec { prune: true, ..spec("5x4", "a1", false) };
    let searcher = Searcher::new(spec).unwrap();
    for prefix in &knights_model::tours::parallel::PrefixJobs::split(&spec, 4).prefixes {
        let expected = searcher.run_from(prefix, Goal::CountAll, &mut TourList::default()).unwrap();
        let run = simulate_from::<20, 5>((5, 4), spec, &prefix[1..], Goal::CountAll, 0);
        assert_eq!((run.tour_count, run.nodes), (expected.tours, expected.nodes), "{prefix:?}");
    }
}

#[test]
fn an_engine_built_without_warnsdorff_prunes_node_for_node() {
    // Such an engine judges a child from the two bits pruning needs of its
    // square, not from its onward count: the same rule, open and closed,
    // counting (dead children counted unentered) and streaming (entered).
    for (board, start, closed) in [("5x4", "a1", false), ("5x4", "b2", false), ("5x4", "a1", true), ("4x4", "b1", true)]
    {
        let spec = SearchSpec { prune: true, ..spec(board, start, closed) };
        let count = reference(spec, Goal::CountAll).0;
        let engine = Engine::<20, 5>::for_accelerator(5, 4, false, JobRole::Walker);
        let run = simulate_engine(engine, (5, 4), spec, &[], Goal::CountAll, 0);
        assert_eq!((run.tour_count, run.nodes), (count.tours, count.nodes), "count {board} {start} closed {closed}");
        // (The accelerator's engines ignore the limit and search to the end,
        // as the reference does when asked for one tour more than there are.)
        let every = Goal::First(count.tours + 1);
        let (expected, tours) = reference(spec, every);
        let engine = Engine::<20, 5>::for_accelerator(5, 4, false, JobRole::Walker);
        let run = simulate_engine(engine, (5, 4), spec, &[], every, 2);
        assert!(run.tours == tours, "stream {board} {start} closed {closed}: other tours");
        assert_eq!(run.nodes, expected.nodes, "stream {board} {start} closed {closed}");
    }
}

/// A fixed-order, unpruned search of `board` ("5", "6x4") from `start` ("a1").
pub fn spec(board: &str, start: &str, closed: bool) -> SearchSpec {
    SearchSpec::exhaustive(board.parse().unwrap(), start.parse().unwrap(), closed)
}

/// The CPU reference's outcome and tours.
pub fn reference(spec: SearchSpec, goal: Goal) -> (Outcome, Vec<Vec<Square>>) {
    Searcher::new(spec).unwrap().tours(goal)
}
