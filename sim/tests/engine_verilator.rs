//! The emitted Verilog under Verilator against the CPU reference search:
//! tours, tour counts and node counts must be exactly equal.

use knights::search::TourList;
use knights::{BoardSize, Goal, MoveOrder, Outcome, SearchSpec, Searcher, Square};
use knights_sim::{EngineSim, EngineStatus, Request, Summary};

const BUDGET: u64 = 2_000_000_000;

fn reference(spec: SearchSpec, goal: Goal) -> (Outcome, Vec<Vec<Square>>) {
    let mut keep = TourList::default();
    let outcome = Searcher::new(spec).unwrap().run(goal, &mut keep);
    (outcome, keep.0)
}

fn engine(sim: &mut EngineSim, spec: SearchSpec, goal: Goal) -> (Summary, Vec<Vec<Square>>) {
    let request = Request {
        width: spec.board.width,
        height: spec.board.height,
        start: (spec.start.file, spec.start.rank),
        closed: spec.closed,
        warnsdorff: spec.order == MoveOrder::Warnsdorff,
        limit: match goal {
            Goal::First(k) => Some(k),
            Goal::CountAll => None,
        },
    };
    let mut tours = Vec::new();
    let summary = sim.search(&request, BUDGET, &mut |tour| {
        tours.push(tour.iter().map(|&(f, r)| Square::new(f, r)).collect());
        true
    });
    (summary, tours)
}

/// Runs both and checks they agree exactly; returns the engine's summary.
fn compare(sim: &mut EngineSim, spec: SearchSpec, goal: Goal) -> Summary {
    let (expected, expected_tours) = reference(spec, goal);
    let (summary, tours) = engine(sim, spec, goal);
    let what = format!("{} from {} closed={} {goal:?}", spec.board, spec.start, spec.closed);
    assert_eq!((summary.tours, summary.nodes), (expected.tours, expected.nodes), "{what}");
    if let Goal::First(_) = goal {
        assert_eq!(tours, expected_tours, "{what}");
    }
    let status = match expected.status {
        knights::Status::Found => EngineStatus::Found,
        knights::Status::Exhausted => EngineStatus::Exhausted,
        knights::Status::Aborted => EngineStatus::Aborted,
    };
    assert_eq!(summary.status, status, "{what}");
    summary
}

fn spec(board: &str, start: &str, closed: bool) -> SearchSpec {
    SearchSpec { board: board.parse().unwrap(), start: start.parse().unwrap(), closed, order: MoveOrder::Fixed }
}

#[test]
fn every_start_on_5x5_counts_exactly() {
    let mut sim = EngineSim::new();
    let board = BoardSize::square(5);
    let mut total = 0;
    for start in board.squares() {
        let spec = SearchSpec { board, start, closed: false, order: MoveOrder::Fixed };
        total += compare(&mut sim, spec, Goal::CountAll).tours;
    }
    assert_eq!(total, 1728);
}

#[test]
fn rectangles_count_exactly() {
    let mut sim = EngineSim::new();
    for board in ["4x3", "3x4", "5x4", "4x5", "6x4", "7x3", "3x7", "8x3", "1x1", "2x2", "8x2"] {
        let size: BoardSize = board.parse().unwrap();
        for start in size.squares().step_by(3) {
            compare(
                &mut sim,
                SearchSpec { board: size, start, closed: false, order: MoveOrder::Fixed },
                Goal::CountAll,
            );
        }
    }
}

#[test]
fn closed_tours_count_exactly() {
    let mut sim = EngineSim::new();
    assert_eq!(compare(&mut sim, spec("3x8", "a1", true), Goal::CountAll).tours, 0);
    assert_eq!(compare(&mut sim, spec("6x5", "a1", true), Goal::CountAll).tours, 16);
    assert_eq!(compare(&mut sim, spec("5x6", "c3", true), Goal::First(5)).tours, 5);
}

#[test]
fn first_k_streams_the_reference_tours_in_order() {
    let mut sim = EngineSim::new();
    compare(&mut sim, spec("5", "a1", false), Goal::First(1));
    compare(&mut sim, spec("5", "c3", false), Goal::First(20));
    compare(&mut sim, spec("6x4", "b1", false), Goal::First(1000));
    compare(&mut sim, spec("4", "a1", false), Goal::First(3));
}

#[test]
fn the_largest_board_finds_its_first_tour() {
    let mut sim = EngineSim::new();
    assert_eq!(EngineSim::max_board(), (8, 8));
    let summary = compare(&mut sim, spec("8", "a1", false), Goal::First(1));
    assert_eq!(summary.nodes, 8_250_733);
}

#[test]
fn one_node_per_clock() {
    let mut sim = EngineSim::new();
    let summary = compare(&mut sim, spec("5", "a1", false), Goal::CountAll);
    // Setup takes a clock per rank of the build (8), the start node is
    // entered on its last clock, and one clock finds nothing left.
    assert_eq!(summary.cycles, 8 + summary.nodes + 1);
}

#[test]
fn cancel_stops_a_search_and_the_next_one_is_exact() {
    let mut sim = EngineSim::new();
    let request = Request { width: 8, height: 8, start: (0, 0), closed: true, warnsdorff: false, limit: None };
    let summary = sim.search(&request, 100_000, &mut |_| true);
    assert_eq!(summary.status, EngineStatus::Aborted);
    assert!(summary.nodes > 90_000 && summary.nodes <= 100_000, "{summary:?}");
    compare(&mut sim, spec("5", "b2", false), Goal::CountAll);
}

#[test]
fn warnsdorff_first_tour_on_8x8_from_every_start() {
    let mut sim = EngineSim::new();
    let board = BoardSize::square(8);
    for start in board.squares() {
        let spec = SearchSpec { board, start, closed: false, order: MoveOrder::Warnsdorff };
        assert_eq!(compare(&mut sim, spec, Goal::First(1)).tours, 1, "from {start}");
    }
}

#[test]
fn warnsdorff_counts_and_orders_exactly() {
    let mut sim = EngineSim::new();
    for (board, start, closed) in [("5", "a1", false), ("6x4", "c2", false), ("6x5", "b1", true)] {
        let spec = SearchSpec { order: MoveOrder::Warnsdorff, ..spec(board, start, closed) };
        compare(&mut sim, spec, Goal::CountAll);
        compare(&mut sim, spec, Goal::First(7));
    }
}

#[test]
fn prefix_jobs_match_the_reference_and_cover_the_tree() {
    let mut sim = EngineSim::new();
    for (board, start, closed, order) in
        [("5", "a1", false, MoveOrder::Fixed), ("6x5", "a1", true, MoveOrder::Warnsdorff)]
    {
        let spec = SearchSpec { order, ..spec(board, start, closed) };
        let whole = reference(spec, Goal::CountAll).0;
        let jobs = knights::parallel::PrefixJobs::split(&spec, 16);
        let searcher = Searcher::new(spec).unwrap();
        let request =
            Request::new(spec.board.width, spec.board.height, (0, 0), closed, order == MoveOrder::Warnsdorff, None);
        let (mut tours, mut nodes) = (0, jobs.nodes_above);
        for prefix in &jobs.prefixes {
            let expected = searcher.run_from(prefix, Goal::CountAll, &mut TourList::default()).unwrap();
            let rest: Vec<(u16, u16)> = prefix[1..].iter().map(|s| (s.file, s.rank)).collect();
            let summary = sim.search_from(&request, &rest, BUDGET, &mut |_| true);
            assert_eq!((summary.tours, summary.nodes), (expected.tours, expected.nodes), "{board} {prefix:?}");
            tours += summary.tours;
            nodes += summary.nodes - (prefix.len() as u64 - 1);
        }
        assert_eq!((tours, nodes), (whole.tours, whole.nodes), "{board}");
    }
}
