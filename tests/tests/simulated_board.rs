//! The accelerator's Verilog under Verilator, reached over its UART through
//! the host's link code, against the CPU reference search: tours, tour
//! counts and node counts must be exactly equal. Counts run on all the
//! build's engines; first-K searches run on engine 0 alone (split level 0),
//! where the tours must come in the reference's order, and on all engines,
//! where any K valid tours may come first.

mod common;
use common::{keep_trace_on_failure, reference, spec, Tours};

use std::time::Duration;

use std::collections::HashSet;

use knights::device::error::{DeviceError, RequestError};
use knights::device::{CpuDevice, Report};
use knights::link::proto::MAX_SPLIT_LEVEL;
use knights::link::transport::SimTransport;
use knights::link::LinkedDevice;
use knights::tours::{TourDevice, TourSink};
use knights_model::tours::moves::is_knight_move;
use knights_model::tours::parallel::PrefixJobs;
use knights_model::tours::validate::check_tour;
use knights_model::tours::{MoveOrder, SearchSpec, Searcher};
use knights_model::Flow;
use knights_model::{BoardSize, Goal, Square, Status};

/// Runs `test` on the default simulated board; a failing test is run
/// again on a traced model of the same build, and its waveform kept
/// (`common::keep_trace_on_failure`).
fn on_board(name: &str, test: impl Fn(&mut LinkedDevice<SimTransport>)) {
    keep_trace_on_failure(name, |transport| {
        test(&mut LinkedDevice::connect("sim", transport, Duration::from_secs(60)).unwrap())
    });
}

/// Runs both and checks they agree exactly (a count on every engine, a
/// first-K search on engine 0); returns the device's report.
fn compare(device: &mut LinkedDevice<SimTransport>, spec: SearchSpec, goal: Goal) -> Report {
    let (expected, expected_tours) = reference(spec, goal);
    let mut tours = Tours::default();
    device.set_split(if goal == Goal::CountAll { None } else { Some(0) });
    let report = device.search(&spec, goal, &mut tours).unwrap();
    device.set_split(None);
    let what = format!("{} from {} closed={} {:?} {goal:?}", spec.board, spec.start, spec.closed, spec.order);
    assert_eq!(report.tour_outcome(), expected, "{what}");
    if let Goal::First(_) = goal {
        assert_eq!(tours.0, expected_tours, "{what}");
    }
    report
}

/// A first-K search on every engine: K valid, distinct tours (or all there
/// are), the status the reference ends with, the first find stopping all.
fn first_k_on_all_engines(device: &mut LinkedDevice<SimTransport>, spec: SearchSpec, k: u64) -> Report {
    let (expected, _) = reference(spec, Goal::First(k));
    let mut tours = Tours::default();
    let report = device.search(&spec, Goal::First(k), &mut tours).unwrap();
    let what = format!("{} from {} closed={} {:?} first {k}", spec.board, spec.start, spec.closed, spec.order);
    assert_eq!((report.found, report.status), (expected.tours, expected.status), "{what}");
    assert_eq!(tours.0.len() as u64, expected.tours, "{what}");
    for tour in &tours.0 {
        check_tour(spec.board, spec.start, spec.closed, tour).unwrap();
    }
    assert_eq!(tours.0.iter().collect::<HashSet<_>>().len(), tours.0.len(), "{what}: a tour came twice");
    report
}

#[test]
fn the_simulated_build_reports_itself() {
    on_board("the_simulated_build_reports_itself", |device| {
        let identity = device.identity();
        assert_eq!((identity.max_width, identity.max_height), (8, 8));
        assert_eq!(usize::from(identity.engines), usize::from(knights_sim::DESIGN.engines));
        assert_eq!(u64::from(identity.clock_hz), knights_sim::DESIGN.clock_hz);
        assert_eq!(identity.baud, identity.clock_hz / (knights_sim::DESIGN.clocks_per_bit() as u32));
        assert!(identity.warnsdorff);
        assert_eq!(device.max_board(), BoardSize::square(8));
    });
}

#[test]
fn every_start_on_5x5_counts_exactly() {
    on_board("every_start_on_5x5_counts_exactly", |device| {
        let board = BoardSize::square(5);
        let mut total = 0;
        for start in board.squares() {
            let spec = SearchSpec { board, start, closed: false, order: MoveOrder::Fixed, prune: false };
            total += compare(device, spec, Goal::CountAll).found;
        }
        assert_eq!(total, 1728);
    });
}

#[test]
fn rectangles_count_exactly() {
    on_board("rectangles_count_exactly", |device| {
        for board in ["4x3", "3x4", "5x4", "4x5", "6x4", "7x3", "3x7", "8x3", "1x1", "2x2", "8x2"] {
            let size: BoardSize = board.parse().unwrap();
            for start in size.squares().step_by(3) {
                compare(
                    device,
                    SearchSpec { board: size, start, closed: false, order: MoveOrder::Fixed, prune: false },
                    Goal::CountAll,
                );
            }
        }
    });
}

#[test]
fn every_split_level_counts_exactly() {
    // Jobs at every level a job's path can have, and a split too deep for
    // the board (searched by one engine). Count mode (dead children judged,
    // not entered) and first-K mode (all entered) number the jobs differently.
    on_board("every_split_level_counts_exactly", |device| {
        for (board, closed) in [("5", false), ("6x5", true)] {
            let spec = SearchSpec { prune: true, ..spec(board, "a1", closed) };
            let (expected, _) = reference(spec, Goal::CountAll);
            for level in (1..=MAX_SPLIT_LEVEL).chain([spec.board.area() as u8 - 1]) {
                device.set_split(Some(level));
                let report = device.search(&spec, Goal::CountAll, &mut Tours::default()).unwrap();
                assert_eq!(report.tour_outcome(), expected, "{board} closed={closed} split at level {level}");
                first_k_on_all_engines(device, spec, 5);
            }
            // A deeper job level is refused before anything is sent.
            device.set_split(Some(MAX_SPLIT_LEVEL + 1));
            let error = device.search(&spec, Goal::CountAll, &mut Tours::default()).unwrap_err();
            let refused = matches!(error, DeviceError::Request(RequestError::SplitTooDeep { level, max: MAX_SPLIT_LEVEL }) if level == MAX_SPLIT_LEVEL + 1);
            assert!(refused, "{error}");
        }
        device.set_split(None);
    });
}

/// Counts below paths from the start (prefix jobs, as `knights plan` cuts a
/// count): each equals the CPU's count below the same path, node for node,
/// with the engines sharing it below the path (the device's split, and a
/// fixed one two levels below the path's end) and on one engine; together
/// with the nodes above the cut they are the whole tree. Paths from one move
/// to sixteen, open and closed, both orders.
#[test]
fn counts_below_a_path_match_the_cpu_and_sum_to_the_whole_tree() {
    on_board("counts_below_a_path_match_the_cpu_and_sum_to_the_whole_tree", |device| {
        let mut cpu = CpuDevice { threads: 1 };
        for (board, start, closed, order, min_jobs) in [
            ("5", "a1", false, MoveOrder::Fixed, 2),
            ("5", "c3", false, MoveOrder::Warnsdorff, 12),
            ("6x5", "b1", true, MoveOrder::Fixed, 40),
        ] {
            let spec = SearchSpec { prune: true, order, ..spec(board, start, closed) };
            let whole = reference(spec, Goal::CountAll).0;
            let cut = PrefixJobs::split(&spec, min_jobs);
            let (mut tours, mut nodes) = (0, cut.nodes_above);
            for path in &cut.prefixes {
                let expected = cpu.count_from(&spec, path, &mut Tours::default()).unwrap().tour_outcome();
                let below = path.len() as u8 + 1;
                for split in [None, Some(below), Some(0)] {
                    device.set_split(split);
                    let report = device.count_from(&spec, path, &mut Tours::default()).unwrap();
                    assert_eq!(report.tour_outcome(), expected, "{board} from {start} below {path:?}, split {split:?}");
                }
                tours += expected.tours;
                nodes += expected.nodes;
            }
            assert_eq!((tours, nodes), (whole.tours, whole.nodes), "{board} from {start}: {} jobs", cut.prefixes.len());
        }
        // A deep path: sixteen moves, the most a device takes.
        let spec = SearchSpec { prune: true, ..spec("6", "a1", false) };
        let mut first = knights_model::tours::TourList::default();
        Searcher::new(spec).unwrap().run(Goal::First(1), &mut first);
        for length in [10, 17] {
            let path = &first.0[0][..length];
            let expected = cpu.count_from(&spec, path, &mut Tours::default()).unwrap().tour_outcome();
            for split in [None, Some(0)] {
                device.set_split(split);
                let report = device.count_from(&spec, path, &mut Tours::default()).unwrap();
                assert_eq!(report.tour_outcome(), expected, "below {length} squares, split {split:?}");
            }
        }
        device.set_split(None);
    });
}

#[test]
fn closed_tours_count_exactly() {
    on_board("closed_tours_count_exactly", |device| {
        assert_eq!(compare(device, spec("3x8", "a1", true), Goal::CountAll).found, 0);
        assert_eq!(compare(device, spec("6x5", "a1", true), Goal::CountAll).found, 16);
        assert_eq!(compare(device, spec("5x6", "c3", true), Goal::First(5)).found, 5);
    });
}

#[test]
fn first_k_streams_the_reference_tours_in_order() {
    on_board("first_k_streams_the_reference_tours_in_order", |device| {
        compare(device, spec("5", "a1", false), Goal::First(1));
        compare(device, spec("5", "c3", false), Goal::First(20));
        compare(device, spec("6x4", "b1", false), Goal::First(1000));
        compare(device, spec("4", "a1", false), Goal::First(3));
        compare(device, spec("7x3", "a1", false), Goal::First(u64::MAX));
    });
}

#[test]
fn first_k_on_all_engines_sends_k_valid_tours_and_stops() {
    on_board("first_k_on_all_engines_sends_k_valid_tours_and_stops", |device| {
        for (board, start, closed, k) in
            [("5", "a1", false, 1), ("5", "c3", false, 20), ("6x4", "b1", false, 1000), ("5x6", "c3", true, 5)]
        {
            first_k_on_all_engines(device, spec(board, start, closed), k);
        }
        let pruned = SearchSpec { prune: true, ..spec("8", "a1", false) };
        let report = first_k_on_all_engines(device, pruned, 3);
        assert!(report.engines.unwrap().split_level > 0);
        // The device is idle and exact afterwards: no engine was left running.
        compare(device, spec("5", "b2", false), Goal::CountAll);
    });
}

#[test]
fn the_largest_board_finds_its_first_tour() {
    on_board("the_largest_board_finds_its_first_tour", |device| {
        let report = compare(device, spec("8", "a1", false), Goal::First(1));
        assert_eq!(report.nodes, 8_250_733);
    });
}

#[test]
fn one_node_per_clock() {
    on_board("one_node_per_clock", |device| {
        device.set_split(Some(0));
        let mut sink = Tours::default();
        let report = device.search(&spec("5", "a1", false), Goal::CountAll, &mut sink).unwrap();
        assert_eq!(report.nodes, 1_735_079);
        // Setup takes a clock per rank of the board (5, whatever the build's
        // size), the start node is entered on its last clock, and one clock
        // finds nothing left.
        assert_eq!(report.cycles, Some(5 + report.nodes + 1));
        let link = report.link.unwrap();
        assert_eq!(link.clock_hz, knights_sim::DESIGN.clock_hz);
        assert_eq!(link.bytes_sent, 24, "one SOLVE frame");
        assert_eq!(link.bytes_skipped, 0);
    });
}

/// The search tree below `path`, walked by plain recursion over the
/// readable pruning rule (`Searcher::prunes`): its nodes, and how many of them
/// below the root are dead ends.
fn tree_below(searcher: &Searcher, path: &mut Vec<Square>) -> (u64, u64) {
    if searcher.prunes(path) {
        return (1, u64::from(path.len() > 1));
    }
    let (mut nodes, mut dead) = (1, 0);
    let last = *path.last().unwrap();
    for square in searcher.spec().board.squares() {
        if !path.contains(&square) && is_knight_move(last, square) {
            path.push(square);
            let (n, d) = tree_below(searcher, path);
            path.pop();
            (nodes, dead) = (nodes + n, dead + d);
        }
    }
    (nodes, dead)
}

#[test]
fn a_pruned_count_skips_dead_ends_without_entering_them() {
    // One engine: a clock per rank of the board for setup, one per node entered (the dead
    // ends below the root are counted but not entered), one to finish.
    on_board("a_pruned_count_skips_dead_ends_without_entering_them", |device| {
        device.set_split(Some(0));
        for (board, closed) in [("5", false), ("6x5", true), ("4", false)] {
            let spec = SearchSpec { prune: true, ..spec(board, "a1", closed) };
            let (nodes, dead) = tree_below(&Searcher::new(spec).unwrap(), &mut vec![spec.start]);
            let report = device.search(&spec, Goal::CountAll, &mut Tours::default()).unwrap();
            assert_eq!(report.tour_outcome(), reference(spec, Goal::CountAll).0, "{board}");
            assert_eq!(report.nodes, nodes, "{board}");
            assert!(dead > 0, "{board}");
            let ranks = u64::from(spec.board.height);
            assert_eq!(report.cycles, Some(ranks + (nodes - dead) + 1), "{board}: {dead} dead ends");
        }
    });
}

#[test]
fn engines_share_a_count_one_node_per_clock_each() {
    on_board("engines_share_a_count_one_node_per_clock_each", |device| {
        let report = compare(device, spec("5", "a1", false), Goal::CountAll);
        let engines = report.engines.unwrap();
        assert_eq!(usize::from(engines.engines), usize::from(knights_sim::DESIGN.engines));
        assert!(engines.split_level > 0);
        let cycles = report.cycles.unwrap();
        // Engines replay each job's path (a clock per level) and wait for the
        // first jobs, but nearly every clock of every engine enters a node.
        let per_engine = engines.engine_cycles as f64 / report.nodes as f64;
        assert!((1.0..1.01).contains(&per_engine), "{per_engine} cycles per node per engine");
        assert!(engines.load_balance(cycles) > 0.95, "{engines:?} in {cycles} cycles");
        assert!(cycles * (engines.engines as u64 - 1) < report.nodes, "faster than one engine: {cycles} cycles");
    });
}

#[test]
fn warnsdorff_first_tour_on_8x8_from_every_start() {
    on_board("warnsdorff_first_tour_on_8x8_from_every_start", |device| {
        let board = BoardSize::square(8);
        for start in board.squares() {
            let spec = SearchSpec { board, start, closed: false, order: MoveOrder::Warnsdorff, prune: false };
            assert_eq!(compare(device, spec, Goal::First(1)).found, 1, "from {start}");
        }
    });
}

#[test]
fn warnsdorff_counts_and_orders_exactly() {
    on_board("warnsdorff_counts_and_orders_exactly", |device| {
        for (board, start, closed) in [("5", "a1", false), ("6x4", "c2", false), ("6x5", "b1", true)] {
            let spec = SearchSpec { order: MoveOrder::Warnsdorff, ..spec(board, start, closed) };
            compare(device, spec, Goal::CountAll);
            compare(device, spec, Goal::First(7));
        }
    });
}

#[test]
fn pruning_matches_the_reference_node_for_node() {
    on_board("pruning_matches_the_reference_node_for_node", |device| {
        let pruned = |board: &str, start: &str, closed: bool| SearchSpec { prune: true, ..spec(board, start, closed) };
        // Every start of 5x5, open: the same 1,728 tours, far fewer nodes.
        let size = BoardSize::square(5);
        let mut total = 0;
        for start in size.squares() {
            let spec = SearchSpec { board: size, start, closed: false, order: MoveOrder::Fixed, prune: true };
            total += compare(device, spec, Goal::CountAll).found;
        }
        assert_eq!(total, 1728);
        for (board, start, closed) in
            [("6x5", "a1", true), ("6x4", "b1", false), ("7x3", "a1", false), ("3x8", "a1", true)]
        {
            compare(device, pruned(board, start, closed), Goal::CountAll);
            compare(device, pruned(board, start, closed), Goal::First(9));
            let warnsdorff = SearchSpec { order: MoveOrder::Warnsdorff, ..pruned(board, start, closed) };
            compare(device, warnsdorff, Goal::CountAll);
        }
        compare(device, pruned("8", "a1", false), Goal::First(3));
        compare(device, pruned("8", "d4", true), Goal::First(2));
    });
}

#[test]
fn pruned_closed_6x6_count_is_the_published_one() {
    on_board("pruned_closed_6x6_count_is_the_published_one", |device| {
        // 9,862 closed tours of 6x6 (OEIS A001230), each found in both directions from a1.
        let report = compare(device, SearchSpec { prune: true, ..spec("6", "a1", true) }, Goal::CountAll);
        assert_eq!(report.found, 19_724);
        // The unpruned tree has 19,431,824,959 nodes (host reference test).
        assert!(report.nodes * 10 < 19_431_824_959, "{} nodes", report.nodes);
    });
}

/// A sink that stops the search at its first progress report.
struct StopAtProgress(u64);

impl TourSink for StopAtProgress {
    fn tour(&mut self, _: &[Square]) -> Result<(), DeviceError> {
        Ok(())
    }

    fn progress(&mut self, nodes: u64, _: u64) -> Flow {
        self.0 = nodes;
        Flow::Stop
    }
}

#[test]
fn stopping_a_count_aborts_it_and_the_next_search_is_exact() {
    on_board("stopping_a_count_aborts_it_and_the_next_search_is_exact", |device| {
        let mut stop = StopAtProgress(0);
        let report = device.search(&spec("8", "a1", true), Goal::CountAll, &mut stop).unwrap();
        assert_eq!(report.status, Status::Aborted);
        assert!(stop.0 > 0 && report.nodes >= stop.0, "{report:?} after progress at {}", stop.0);
        compare(device, spec("5", "b2", false), Goal::CountAll);
    });
}

#[test]
fn a_failing_test_keeps_the_waveform_of_its_run() {
    let name = "a_failing_test_keeps_the_waveform_of_its_run";
    let _ = std::fs::remove_file(common::trace_path(name));
    let failed = std::panic::catch_unwind(|| {
        on_board(name, |device| {
            let report = compare(device, spec("5", "a1", false), Goal::CountAll);
            assert_eq!(report.found, 305, "a test that fails on purpose");
        })
    });
    assert!(failed.is_err(), "the test should have failed");
    // An FST file: its header block (type 0, 329 bytes long, from the first half clock).
    let bytes = std::fs::read(common::trace_path(name)).unwrap();
    assert!(bytes.len() > 10_000, "{} bytes", bytes.len());
    assert_eq!((bytes[0], &bytes[1..9], &bytes[9..17]), (0, &329u64.to_be_bytes()[..], &1u64.to_be_bytes()[..]));
}

/// IDENTITY's build id is the hash of the build's own Verilog (emitted
/// with the id 0): the simulated board answers with its design's, and a
/// design one setting away has another.
#[test]
fn identity_names_the_build_by_the_hash_of_its_verilog() {
    use knights_rtl::platform::LinkSettings;
    use knights_rtl::verilog::named_accelerator_verilog;
    let device = LinkedDevice::connect("sim", SimTransport::new(), Duration::from_secs(60)).unwrap();
    let design = knights_sim::DESIGN;
    let link = LinkSettings::new(design.clock_hz, design.baud);
    let (_, id) = named_accelerator_verilog(&design, link).unwrap();
    assert_eq!(device.identity().build_id, id);
    let faster = knights::fpga::Design { clock_hz: design.clock_hz * 2, ..design };
    let (_, other) = named_accelerator_verilog(&faster, LinkSettings::new(faster.clock_hz, faster.baud)).unwrap();
    assert_ne!(other, id);
}
